#!/bin/sh
# run_side.sh -- run by `make test`: experiments/side/run.sh (one CUDA program
# on tpsim and GPGPU-Sim, side by side) writes, for each CTAs-per-SM limit,
# the program's cycles: the sum of its launches' `cycles`, the number the
# statistics file gives per kernel launch.  Checked against a run of the
# same binary made here, apart from run.sh, whose launches are summed by
# this test (an earlier run.sh also added the statistics' total to the
# launches and reported twice the cycles).  tpsim only (GPGPU-Sim is not
# built in CI); the hotspot grid is 48 x 48 so that it takes seconds.
# Also experiments/side/ubench.sh's shared-load chase at two write-back
# latencies, its empty CTA and its divisions on the SFU.  Needs nvcc (SKIP without it).  PASS/FAIL/SKIP lines.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$root/$BUILD" ;; esac
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
    echo "SKIP side_cycles: nvcc not found (set NVCC or put CUDA's bin on PATH)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL side_$1: $2"; status=1; }

# run.sh, tpsim's column at 1 and 2 CTAs per SM
if ! BUILD="$BUILD" NVCC="$NVCC" sh "$root/experiments/side/run.sh" --ctas "1 2" --out "$tmp/out" \
        hotspot_side.cu 48 >"$tmp/table" 2>"$tmp/err"; then
    fail cycles "run.sh failed: $(tail -n 2 "$tmp/err")"
    exit 1
fi
# the same binary and options, run here
"$NVCC" -cudart shared -no-compress -arch=sm_75 -O3 -o "$tmp/hs" "$root/experiments/side/hotspot_side.cu" 2>"$tmp/err" ||
    { fail cycles "nvcc: $(tail -n 2 "$tmp/err")"; exit 1; }
for k in 1 2; do
    "$BUILD/bin/tpsim" run --config gtx480 --mode performance --no-summary --stats "$tmp/s$k.json" \
        -o device.max_ctas_per_sm=$k -o device.regs_per_sm=65536 -- "$tmp/hs" 48 >"$tmp/run$k" 2>&1 ||
        { fail cycles "tpsim at $k CTAs: $(tail -n 2 "$tmp/run$k")"; continue; }
    grep -q "hotspot_side: PASS" "$tmp/run$k" || fail cycles "the program's check at $k CTAs: $(tail -n 1 "$tmp/run$k")"
    want=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(k["cycles"] for k in d["kernels"]), len(d["kernels"]))' "$tmp/s$k.json")
    launches=${want#* } want=${want% *}
    got=$(awk -F, -v k=$k '$1 == "hotspot_side" && $2 == k && $3 == "tpsim" { print $4 }' "$tmp/out/side.csv")
    if [ "$launches" != 2 ]; then
        fail cycles "$launches launches at $k CTAs, the program makes 2"
    elif [ "$got" != "$want" ]; then
        fail cycles "side.csv says $got cycles at $k CTAs, the two launches took $want"
    fi
done
# the table: a row per limit, the gain over the first limit
grep -q "^1 " "$tmp/table" && grep -q "^2 " "$tmp/table" || fail table "no row per limit: $(cat "$tmp/table")"
[ $status -eq 0 ] && echo "PASS side_cycles"

# ubench.sh (tpsim only): the shared-load chase costs 8 x (shmem.latency 26
# + the collection cycle + sm.wb_latency) a loop iteration (the loop's own
# three instructions issue while the chain waits): 216 at 0, 256 at 5.
# An empty CTA (ctae, one per SM at a time) costs 3 + lat.branch +
# sm.wb_latency: its launch, the next cycle's fetch, the fetch latency 1,
# then its `ret`: the collection cycle, the branch latency, the write-back;
# the next CTA launches in the cycle the slot frees (12 on gtx480, 9 with
# GPGPU-Sim's branch latency 1: docs/EXPERIMENTS.md, Component tests).
# The divisions of `div` on the SFU (sm.div_pipe=sfu, GPGPU-Sim's placement):
# the eight warps' 64 independent div.rn.f32 of a loop iteration through the
# one SFU pipe, one every ii.fp_div cycles (the loops' own instructions take
# the SP pipes meanwhile): 64 x 4 = 256, and 512 with ii.fp_div = 8
ub() { # OPTIONS TEST
    BUILD="$BUILD" NVCC="$NVCC" TPSIM_OPTIONS="$1" sh "$root/experiments/side/ubench.sh" --out "$tmp/ub" "$2" 2>"$tmp/uberr" |
        awk -v t="$2" '$1 == t { print $2 }'
}
for x in "shld:sm.wb_latency=0:216.00" "shld:sm.wb_latency=5:256.00" "ctae::12.00" "ctae:lat.branch=1:9.00" \
    "ctae:lat.branch=2 sm.wb_latency=3:8.00" "div:sm.div_pipe=sfu:256.00" "div:sm.div_pipe=sfu ii.fp_div=8:512.00"; do
    t=${x%%:*} r=${x#*:} o=${r%:*} want=${r##*:}
    got=$(ub "$o" "$t")
    if [ "$got" = "$want" ]; then
        echo "PASS side_ubench_${t}_$(echo "${o:-default}" | tr ' =' '_-')"
    else
        echo "FAIL side_ubench_${t}_$(echo "${o:-default}" | tr ' =' '_-'): $t costs '$got' cycles a unit, expected $want ($(tail -n 1 "$tmp/uberr"))"
        status=1
    fi
done
exit $status
