#!/bin/sh
# run_cli.sh -- tests `tpsim regmutex` (cli/regmutex.c): what it prints for a
# kernel RegMutex helps and for one it does not, the numbers checked against
# the seed's budget, the annotated PTX of --ptx (which `tpsim ptx` must
# parse, with the acquire and release points the report counts), --profile,
# and the error exits.  Prints PASS/FAIL lines (tests/run.sh counts them).
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
root=$(cd "$(dirname "$0")/../.." && pwd)
K="$root/experiments/regmutex/kernels"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$TPSIM" ]; then
    echo "FAIL cli_regmutex: $TPSIM not built"
    exit 1
fi

pass() { echo "PASS cli_regmutex_$1"; }
fail() {
    echo "FAIL cli_regmutex_$1: $2"
    [ -n "$3" ] && sed 's/^/    /' "$3" | head -30
}
# expect NAME FILE REGEX: a line of FILE matches REGEX (grep -E)
expect() { if grep -qE -- "$3" "$2"; then pass "$1"; else fail "$1" "no line matching '$3' in" "$2"; fi; }

# dwt2d's dwt_cols on the GTX 480: registers limit it to 5 CTAs of 128
# threads (hotspot, the example until issue 20's second round, counts 32
# registers since and RegMutex finds no base set that raises it)
unset TPSIM_CONFIG TPSIM_OPTIONS
"$TPSIM" regmutex "$K/dwt2d.ptx" --config gtx480 --ptx "$tmp/hot.ptx" >"$tmp/all" 2>"$tmp/err"
rc=$?
sed -n '/^kernel dwt_rows$/q;p' "$tmp/all" >"$tmp/out"
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ]; then pass exit0; else fail exit0 "rc $rc" "$tmp/err"; fi
expect module "$tmp/out" "^module .*dwt2d.ptx: 2 kernels; register file 32768 registers per SM, 48 warps, 8 CTAs; RegMutex state 384 bits per SM$"
expect kernel "$tmp/out" "^kernel dwt_cols$"
expect on "$tmp/out" "^  regmutex: on: \|Bs\| [0-9]+ raises "
expect chart "$tmp/out" "^  live registers \(per instruction, \|Bs\| marked =\):$"
expect chart_executed "$tmp/out" "^  live registers, % of the [0-9]+ allocated, against instructions executed:$"
expect chart_bs "$tmp/out" "<- \|Bs\|$"
# the numbers: |Bs| + |Es| cover the most registers live; more CTAs than
# before; the sections are what the base sets of those CTAs leave of the
# register file, |Rt| x W >= |Bs| x W' + SRP (alloc unit 64, 4 warps a CTA)
regs=$(sed -n 's/^  registers: \([0-9]*\) per thread (\([0-9]*\) in the code + \([0-9]*\) reserved), at most \([0-9]*\) live$/\1 \2 \3 \4/p' "$tmp/out")
bs=$(sed -n 's/^  base set: \([0-9]*\) (\([0-9]*\) per thread charged), extended set: \([0-9]*\)$/\1 \2 \3/p' "$tmp/out")
occ=$(sed -n 's/^  occupancy: \([0-9]*\) -> \([0-9]*\) CTAs of 128 threads per SM.*/\1 \2/p' "$tmp/out")
sec=$(sed -n 's/^  sections: \([0-9]*\) of \([0-9]*\) x 32 registers; state: 384 bits per SM$/\1 \2/p' "$tmp/out")
pts=$(sed -n 's/^  regions: \([0-9]*\) acquire points, \([0-9]*\) release points, .*/\1 \2/p' "$tmp/out")
if [ -n "$regs" ] && [ -n "$bs" ] && [ -n "$occ" ] && [ -n "$sec" ] && [ -n "$pts" ]; then
    set -- $regs $bs $occ $sec
    rt=$1 reserve=$3 live=$4 b=$5 charged=$6 e=$7 before=$8 after=$9
    shift 9
    nsec=$1 secregs=$2
    per_warp=$(( (charged * 32 + 63) / 64 * 64 ))
    want=$(( (32768 - after * 4 * per_warp) / (e * 32) ))
    [ "$want" -gt $((after * 4)) ] && want=$((after * 4))
    if [ $((b + e)) -ge "$live" ] && [ "$charged" -eq $((b + reserve)) ] && [ "$after" -gt "$before" ] &&
        [ "$secregs" -eq "$e" ] && [ "$nsec" -eq "$want" ] && [ "$nsec" -ge 1 ] &&
        [ $((rt * 32 * 4 * before)) -le 32768 ] &&
        [ $((after * 4 * per_warp + nsec * e * 32)) -le 32768 ]; then
        pass numbers
    else
        fail numbers "registers $regs, base/charged/ext $bs, CTAs $occ, sections $sec (want $want)" "$tmp/out"
    fi
else
    fail numbers "missing lines" "$tmp/out"
fi
set -- $pts
nacq=${1:-0} nrel=${2:-0}
if [ "$(grep -c '^    acquire before +[0-9]*: ' "$tmp/out")" -eq "$nacq" ] &&
    [ "$(grep -c '^    release before +[0-9]*: ' "$tmp/out")" -eq "$nrel" ] && [ "$nacq" -ge 1 ]; then
    pass points
else
    fail points "the points listed differ from 'regions: $nacq acquire points, $nrel release points'" "$tmp/out"
fi

# --ptx: the annotated lowered code, which parses, with the same points
if "$TPSIM" ptx "$tmp/hot.ptx" >"$tmp/ptxout" 2>&1; then pass ptx_parses; else fail ptx_parses "tpsim ptx refused it" "$tmp/ptxout"; fi
if [ "$(grep -c '^	// regmutex: acquire$' "$tmp/hot.ptx")" -eq "$nacq" ] &&
    [ "$(grep -c '^	// regmutex: release$' "$tmp/hot.ptx")" -eq "$nrel" ]; then
    pass ptx_points
else
    fail ptx_points "acquire/release comments differ from the report" "$tmp/hot.ptx"
fi
expect ptx_live "$tmp/hot.ptx" "	// live [0-9]+, R: %[a-z]+[0-9]+=R[0-9]+"
expect ptx_header "$tmp/hot.ptx" "^// \|Bs\| $b, \|Es\| $e: registers >= $b live in the warp's SRP section$"

# --profile: one line per instruction, the points marked A and R
"$TPSIM" regmutex "$K/dwt2d.ptx" --config gtx480 --profile >"$tmp/prof" 2>&1
expect profile_acquire "$tmp/prof" "^    \+[0-9]+ +[0-9]+ A #+\|?#*  "
expect profile_release "$tmp/prof" "^    \+[0-9]+ +[0-9]+ R #+"

# the default device (64K registers, 32 warps): nothing to gain
(unset TPSIM_CONFIG TPSIM_OPTIONS; "$TPSIM" regmutex "$K/hotspot.ptx") >"$tmp/def" 2>&1
expect off "$tmp/def" "^  regmutex: off: registers do not limit occupancy \(4 CTAs of 256 threads per SM\)$"
if grep -q "^  points:" "$tmp/def"; then fail off_points "points printed for a kernel the pass is off for" "$tmp/def"; else pass off_points; fi

# -o: the paper's second configuration by options
"$TPSIM" regmutex "$K/srad.ptx" --config gtx480 -o device.regs_per_sm=16384 -o device.regs_per_block=16384 >"$tmp/srad" 2>&1
expect option "$tmp/srad" "^module .*: 2 kernels; register file 16384 registers per SM"
expect option_on "$tmp/srad" "^  regmutex: on: "

# errors: a file that is not PTX (exit 1, the position), a bad option, usage
printf '.version 9.0\n.target sm_75\n.address_size 64\n.entry k()\n{\n  add.u32 %%r1, %%r2, 1;\n}\n' >"$tmp/bad.ptx"
"$TPSIM" regmutex "$tmp/bad.ptx" >"$tmp/o1" 2>"$tmp/e1"
rc=$?
if [ $rc -eq 1 ] && grep -q "bad.ptx:6:" "$tmp/e1"; then pass bad_ptx; else fail bad_ptx "rc $rc" "$tmp/e1"; fi
"$TPSIM" regmutex "$K/hotspot.ptx" -o regmutex.nosuch=1 >"$tmp/o2" 2>"$tmp/e2"
rc=$?
if [ $rc -eq 1 ] && [ -s "$tmp/e2" ]; then pass bad_option; else fail bad_option "rc $rc" "$tmp/e2"; fi
"$TPSIM" regmutex >"$tmp/o3" 2>"$tmp/e3"
rc=$?
if [ $rc -eq 2 ] && grep -q "^usage: tpsim regmutex" "$tmp/e3"; then pass usage; else fail usage "rc $rc" "$tmp/e3"; fi
# the experiments' sweep files (docs/EXPERIMENTS.md) are valid: every option
# checked against the machine's table, the points crossed
for x in 1:50 2:32; do
    f="$root/experiments/regmutex/exp${x%%:*}.sweep"
    n=$("$TPSIM" sweep "$f" --list 2>"$tmp/e4" | grep -cE '^ +[0-9]+  ')
    if [ "$n" -eq "${x#*:}" ]; then pass "sweep_exp${x%%:*}"; else fail "sweep_exp${x%%:*}" "$n points listed, want ${x#*:}" "$tmp/e4"; fi
done
exit 0
