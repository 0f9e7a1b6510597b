#!/bin/sh
# run.sh -- the checks taken on a machine with a real NVIDIA GPU (the tool
# library's device machine), from the repository root, results under $OUT:
#   probe.txt  tools/device/probe.cu: streaming bandwidth by kernel shape,
#              same-address atomics, launch cost;
#   api.txt    tools/device/probe_api.cu: linear-filter weights (impulse
#              responses, 1-D, 2-D, 3-D), layer clamping, the CDP nesting depth
#              (a chain DEPTH deep, default 5000; PENDING: the pending-launch
#              limit set first) and pending-launch limit,
#              reserved shared memory;
#   cuda.txt   every whole CUDA program of tests/cuda -- the same binaries
#              tpsim runs (build/tests/cuda/, built for sm_75 with PTX: the
#              driver compiles the PTX for the card) against NVIDIA's own
#              libcudart.so.13 (build/device/lib) -- one line each: name, exit
#              status, last line; cuda-fail.txt the whole output of each one
#              that failed;
#   kernels.txt, tensor.txt, polybench.txt  the driver-API test programs
#              (tests/kernels, tests/tensor, tests/polybench runners) against
#              the machine's own libcuda: PTX loaded and compiled by the
#              driver, every result checked against the CPU as under tpsim.
# Build first, on the machine with nvcc (tools/device/README.md):
#   sh tools/device/build.sh
OUT=${OUT:-/tmp/device-out}
mkdir -p "$OUT"
{ nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE; } >"$OUT/smi.txt" 2>&1
head -12 "$OUT/smi.txt"
[ -x build/device/probe ] && timeout 200 ./build/device/probe >"$OUT/probe.txt" 2>&1
[ -x build/device/probe_api ] && timeout 200 ./build/device/probe_api "${DEPTH:-5000}" $PENDING >"$OUT/api.txt" 2>&1
grep -v impulse "$OUT/api.txt" 2>/dev/null
# the runners find tpsim's libcuda through their rpath ($ORIGIN/../../lib,
# build/lib): not carried here, so the system's (NVIDIA's) is loaded
B=build/tests
if [ -x $B/kernels/runner ]; then
    {
        timeout 300 $B/kernels/runner tests/kernels
        for n in $($B/kernels/runner --list | awk 'NF > 1 { print $1 }'); do
            timeout 60 $B/kernels/runner tests/kernels --only "$n"
        done
    } >"$OUT/kernels.txt" 2>&1
fi
[ -x $B/tensor/runner ] && timeout 300 $B/tensor/runner tests/tensor >"$OUT/tensor.txt" 2>&1
[ -x $B/polybench/polybench ] &&
    timeout 300 $B/polybench/polybench --ptx tests/polybench $($B/polybench/polybench --list) >"$OUT/polybench.txt" 2>&1
grep -c "^PASS" "$OUT"/kernels.txt "$OUT"/tensor.txt "$OUT"/polybench.txt
grep -h "^FAIL" "$OUT"/kernels.txt "$OUT"/tensor.txt "$OUT"/polybench.txt
export LD_LIBRARY_PATH="$PWD/build/device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cd build/tests/cuda || exit 1
: >"$OUT/cuda.txt"
: >"$OUT/cuda-fail.txt"
for f in *; do
    case $f in *.*) continue ;; esac
    [ -f "$f" ] && [ -x "$f" ] || continue
    timeout 60 "./$f" >"$OUT/one" 2>&1
    rc=$?
    echo "$f rc=$rc $(tail -1 "$OUT/one")" | tee -a "$OUT/cuda.txt"
    [ $rc -ne 0 ] && { echo "=== $f rc=$rc"; cat "$OUT/one"; } >>"$OUT/cuda-fail.txt"
done
rm -f "$OUT/one"
