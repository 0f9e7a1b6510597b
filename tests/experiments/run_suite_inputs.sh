#!/bin/sh
# run_suite_inputs.sh -- run by `make test`: experiments/suites/gen_inputs.py
# (the inputs of the suites' programs, experiments/suites.md) at small sizes,
# without nvcc or a suite checkout.  Each generator writes the same bytes
# twice (fixed seeds) and files of the sizes its program's reader expects
# (the counts below follow from the formats in gen_inputs.py's docstring);
# each check (compare, tpacf-check, sad-check, lbm-check, heartwall-check,
# cp-check, kmeans-check) accepts an output
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
# dwt2d: a 16 x 8 BMP: 54 header bytes, 8 rows of 48 bytes (no padding)
if gen2 dwt2d dwt2d 16 8; then
    want_size dwt2d_bmp "$tmp/dwt2d/a/rgb16.bmp" $((54 + 8 * 48))
    if [ "$(head -c 2 "$tmp/dwt2d/a/rgb16.bmp")" = BM ]; then pass dwt2d_magic; else fail dwt2d_magic "no BM signature"; fi
fi
# heartwall: a 20 x 10 AVI of 3 frames; RIFF's size is the file's less 8; 3 '00db' chunks of 200
# bytes (and 3 index entries naming them); the check accepts points that follow the beat
# and rejects one moved by 5 pixels
if gen2 heartwall heartwall 20 10 3; then
    f=$tmp/heartwall/a/heartwall3.avi
    python3 - "$f" >"$tmp/hwinfo" <<'EOF2'
import struct, sys
b = open(sys.argv[1], "rb").read()
print(b[:4] == b"RIFF" and b[8:12] == b"AVI " and struct.unpack("<I", b[4:8])[0] == len(b) - 8,
      b.count(b"00db" + struct.pack("<I", 200)), b.count(b"00db" + struct.pack("<I", 0x10)))
EOF2
    if [ "$(cat "$tmp/hwinfo")" = "True 3 3" ]; then pass heartwall_avi; else fail heartwall_avi "RIFF ok, frames, index: $(cat "$tmp/hwinfo")"; fi
    python3 - "$tmp/hwgood" "$tmp/hwbad" <<'EOF2'
import math, sys
pts = [(300 + 3 * k, 250 + 4 * k) for k in range(51)]
def write(path, bump):
    with open(path, "w") as f:
        for fr in range(4):
            k = 1 + 0.04 * math.sin(2 * math.pi * fr / 20)
            q = [(round(397.5 + (r - 397.5) * k), round(306 + (c - 306) * k)) for r, c in pts]
            if bump and fr == 2:
                q[7] = (q[7][0] + 5, q[7][1])
            f.write("---Frame %d---\n--endo--\n" % fr)
            f.write("\t".join(str(r) for r, _ in q[:20]) + "\n" + "\t".join(str(c) for _, c in q[:20]) + "\n")
            f.write("--epi--\n" + "\t".join(str(r) for r, _ in q[20:]) + "\n" + "\t".join(str(c) for _, c in q[20:]) + "\n")
write(sys.argv[1], False)
write(sys.argv[2], True)
EOF2
    accept_reject heartwall_check "python3 $gen heartwall-check $tmp/hwgood 20 4" "python3 $gen heartwall-check $tmp/hwbad 20 4"
fi
# kmeans: 50 points of 4 features, one line each; a log with the 5 clusters' means printed
# as kmeans -o prints them (two decimals, in another order) passes kmeans-check, one with a
# coordinate moved by 0.05 does not
if gen2 kmeans kmeans 50 4; then
    d=$tmp/kmeans/a
    n=$(awk 'NF == 5' "$d/kmeans50.txt" | wc -l | tr -d ' ')
    if [ "$n" = 50 ]; then pass kmeans_lines; else fail kmeans_lines "$n lines of an id and 4 features, expected 50"; fi
    python3 - "$d/kmeans50.txt" "$tmp/kmgood" "$tmp/kmbad" <<'EOF2'
import sys
pts = [[float(x) for x in ln.split()[1:]] for ln in open(sys.argv[1])]
means = [[sum(p[j] for i, p in enumerate(pts) if i % 5 == k) / 10 for j in range(4)] for k in range(5)]
for path, bump in ((sys.argv[2], 0.0), (sys.argv[3], 0.05)):
    with open(path, "w") as f:
        f.write("iterated 2 times\n")
        for r, k in enumerate((3, 0, 4, 1, 2)):
            f.write("%d: %s\n\n" % (r, " ".join("%.2f" % (x + (bump if r == 2 and j == 1 else 0)) for j, x in enumerate(means[k]))))
EOF2
    accept_reject kmeans_check "python3 $gen kmeans-check $tmp/kmgood $d/kmeans50.txt" \
        "python3 $gen kmeans-check $tmp/kmbad $d/kmeans50.txt"
fi
# cp-check: a reference against itself; one value of its first row moved by 1
printf '256 256 1 200\n8.029e+04\n' >"$tmp/cpref"
for r in $(seq 17); do printf -- '-0.5 0.25 1.5\n' >>"$tmp/cpref"; done
sed '3s/^-0.5/0.5/' "$tmp/cpref" >"$tmp/cpbad"
accept_reject cp_check "python3 $gen cp-check $tmp/cpref $tmp/cpref" "python3 $gen cp-check $tmp/cpbad $tmp/cpref"
# an expected file that is not "index value" lines: a clear error, not a traceback
printf '\200\001' >"$tmp/binexp"
python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<If", 1, 0.5))' "$tmp/one"
python3 "$gen" compare "$tmp/one" "$tmp/binexp" 1e-3 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q 'not "index value" lines' "$tmp/err"; then pass compare_bad_expected; else fail compare_bad_expected "$(tail -1 "$tmp/err")"; fi
exit $status
