#!/bin/sh
# run_suite_inputs.sh -- run by `make test`: experiments/suites/gen_inputs.py
# (the inputs of the suites' programs, experiments/suites.md) at small sizes,
# without nvcc or a suite checkout.  Each generator writes the same bytes
# twice (fixed seeds) and files of the sizes its program's reader expects
# (the counts below follow from the formats in gen_inputs.py's docstring);
# each check (compare, tpacf-check, sad-check, lbm-check) accepts an output
# made from its expected values and rejects one with a value changed.
# One line per case: PASS suite_inputs_NAME or FAIL suite_inputs_NAME: why.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gen="$root/experiments/suites/gen_inputs.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
pass() { echo "PASS suite_inputs_$1"; }
fail() { echo "FAIL suite_inputs_$1: $2"; status=1; }
command -v python3 >/dev/null 2>&1 || { echo "PASS suite_inputs_skipped (no python3)"; exit 0; }
size() { wc -c <"$1" | tr -d ' '; }
# NAME ARGS...: generate into $tmp/NAME/a and $tmp/NAME/b, identical
gen2() {
    n=$1
    shift
    mkdir -p "$tmp/$n/a" "$tmp/$n/b"
    if ! python3 "$gen" "$@" "$tmp/$n/a" || ! python3 "$gen" "$@" "$tmp/$n/b"; then
        fail "${n}_runs" "gen_inputs.py $* failed"
        return 1
    fi
    if diff -r "$tmp/$n/a" "$tmp/$n/b" >/dev/null; then pass "${n}_deterministic"; else fail "${n}_deterministic" "two runs differ"; fi
}
# NAME FILE BYTES
want_size() {
    s=$(size "$2")
    if [ "$s" = "$3" ]; then pass "$1"; else fail "$1" "$2 has $s bytes, expected $3"; fi
}
# an output from an "index value" expected file: HEADER (python bytes
# expression), NVALUES floats (or uint16 with FMT H), listed values set,
# the value at position BUMP (of the listed) changed by DELTA when given
mkout() { # EXP OUT HEADER NVALUES FMT [BUMP DELTA]
    python3 - "$@" <<'EOF'
import struct, sys
exp, out, header, nv, fmt = sys.argv[1], sys.argv[2], eval(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
v = [0] * nv
pairs = [ln.split() for ln in open(exp)]
for i, x in pairs:
    v[int(i)] = int(x) if fmt == "H" else float(x)
if len(sys.argv) > 6:
    i = int(pairs[int(sys.argv[6])][0])
    v[i] += int(sys.argv[7]) if fmt == "H" else float(sys.argv[7])
open(out, "wb").write(header + struct.pack("<%d%s" % (nv, fmt), *v))
EOF
}
# NAME GOOD-COMMAND BAD-COMMAND (the check accepts the first, rejects the second)
accept_reject() {
    if ! eval "$2" 2>"$tmp/err"; then fail "$1_accepts" "$(tail -1 "$tmp/err")"; else pass "$1_accepts"; fi
    if eval "$3" 2>/dev/null; then fail "$1_rejects" "a changed value passed"; else pass "$1_rejects"; fi
}

# spmv: 64 rows; the vector is 64 raw floats; the expected file lists every row
if gen2 spmv spmv 64; then
    d=$tmp/spmv/a
    want_size spmv_vec "$d/spmv64.vec" 256
    n=$(sed -n 3p "$d/spmv64.mtx")
    lines=$(($(wc -l <"$d/spmv64.mtx") - 3))
    if [ "$n" = "64 64 $lines" ]; then pass spmv_mtx_header; else fail spmv_mtx_header "size line \"$n\", $lines entries"; fi
    mkout "$d/spmv64.expected" "$tmp/good" 'struct.pack("<I", 64)' 64 f
    mkout "$d/spmv64.expected" "$tmp/bad" 'struct.pack("<I", 64)' 64 f 5 1.0
    accept_reject spmv_compare "python3 $gen compare $tmp/good $d/spmv64.expected 1e-4" \
        "python3 $gen compare $tmp/bad $d/spmv64.expected 1e-4"
fi
# mri-q: 256 points, 16 samples: 2 ints, 3 x 16 + 3 x 256 + 2 x 16 floats
if gen2 mriq mriq 256 16; then
    d=$tmp/mriq/a
    want_size mriq_bin "$d/mriq256_16.bin" $((8 + 4 * (3 * 16 + 3 * 256 + 2 * 16)))
    mkout "$d/mriq256_16.expected" "$tmp/good" 'struct.pack("<I", 256)' 512 f
    mkout "$d/mriq256_16.expected" "$tmp/bad" 'struct.pack("<I", 256)' 512 f 3 0.5
    accept_reject mriq_compare "python3 $gen compare $tmp/good $d/mriq256_16.expected 1e-3" \
        "python3 $gen compare $tmp/bad $d/mriq256_16.expected 1e-3"
fi
# tpacf: 40 points in 1 + 3 sets, one "ra dec" line each
if gen2 tpacf tpacf 40 3; then
    d=$tmp/tpacf/a
    l=$(cat "$d"/tpacf_data.txt "$d"/tpacf_rand1.txt "$d"/tpacf_rand2.txt "$d"/tpacf_rand3.txt | awk 'NF == 2' | wc -l)
    if [ "$l" -eq 160 ]; then pass tpacf_files; else fail tpacf_files "$l \"ra dec\" lines, expected 160"; fi
    # an output: 20 bins of dd, dr, rr; dr and rr all in bin 0
    python3 - "$d/tpacf.expected" "$tmp/good" "$tmp/bad" <<'EOF'
import sys
dd = [0] * 20
tot = {}
for ln in open(sys.argv[1]):
    w = ln.split()
    if w[0] == "dd":
        dd[int(w[1])] = int(w[2])
    else:
        tot[w[1]] = int(w[2])
for path, extra in ((sys.argv[2], 0), (sys.argv[3], 5)):
    with open(path, "w") as f:
        for k in range(20):
            f.write("%d\n%d\n%d\n" % (dd[k], tot["dr"] + extra if k == 0 else 0, tot["rr"] if k == 0 else 0))
EOF
    accept_reject tpacf_check "python3 $gen tpacf-check $tmp/good $d/tpacf.expected" \
        "python3 $gen tpacf-check $tmp/bad $d/tpacf.expected"
fi
# cutcp: an 8 A box: 2 + 1 = 3 intervals a side, 4^3 waters of 3 atoms, one ATOM line each;
# the output: a float, uint32 nx*ny (19 x 19), two planes
if gen2 cutcp cutcp 8; then
    d=$tmp/cutcp/a
    l=$(grep -c '^ATOM  ' "$d/watbox8.pqr")
    if [ "$l" -eq 192 ]; then pass cutcp_pqr; else fail cutcp_pqr "$l ATOM lines, expected 192"; fi
    mkout "$d/watbox8.expected" "$tmp/good" 'struct.pack("<fI", 1.0, 361)' 722 f
    mkout "$d/watbox8.expected" "$tmp/bad" 'struct.pack("<fI", 1.0, 361)' 722 f 2 1.0
    accept_reject cutcp_compare "python3 $gen compare $tmp/good $d/watbox8.expected 1e-3 4" \
        "python3 $gen compare $tmp/bad $d/watbox8.expected 1e-3 4"
fi
# sad: 32 x 32 frames: 2 uint16 and 1,024 int16 each; the output: 2 uint32, then
# 6 rows x 2 macroblocks x 41 x 1,089 uint16
if gen2 sad sad 32 32; then
    d=$tmp/sad/a
    want_size sad_frame "$d/sad_cur.bin" $((4 + 2 * 1024))
    mkout "$d/sad.expected" "$tmp/good" 'struct.pack("<II", 12, 0)' $((12 * 41 * 1089)) H
    mkout "$d/sad.expected" "$tmp/bad" 'struct.pack("<II", 12, 0)' $((12 * 41 * 1089)) H 7 1
    accept_reject sad_check "python3 $gen sad-check $tmp/good $d/sad.expected" \
        "python3 $gen sad-check $tmp/bad $d/sad.expected"
fi
# mri-gridding: 100 samples of 6 floats
if gen2 mrig mrig 100 8; then
    want_size mrig_data "$tmp/mrig/a/mrig.uks.data" 2400
    if grep -q '^aquisition.numsamples=100$' "$tmp/mrig/a/mrig.uks"; then pass mrig_params; else fail mrig_params "no numsamples=100 line"; fi
fi
# lbm: 120 x 120 x 150 characters, a newline after each row and each slice
if gen2 lbm lbm; then
    want_size lbm_of "$tmp/lbm/a/lbm.of" $((120 * 120 * 150 + 121 * 150))
    printf 'x' >"$tmp/short"
    if python3 "$gen" lbm-check "$tmp/short" "$tmp/short" 2>/dev/null; then fail lbm_check_rejects "a 1-byte result passed"; else pass lbm_check_rejects; fi
fi
# an expected file that is not "index value" lines: a clear error, not a traceback
printf '\200\001' >"$tmp/binexp"
python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<If", 1, 0.5))' "$tmp/one"
python3 "$gen" compare "$tmp/one" "$tmp/binexp" 1e-3 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q 'not "index value" lines' "$tmp/err"; then pass compare_bad_expected; else fail compare_bad_expected "$(tail -1 "$tmp/err")"; fi
exit $status
