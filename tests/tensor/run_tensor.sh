#!/bin/sh
# run_tensor.sh -- runs the tensor-core tests (tests/tensor, host program
# $BUILD/tests/tensor/runner) through the driver API and prints one line per
# test: "PASS tensor_NAME", "FAIL tensor_NAME: reason" or "SKIP ...".
# tests/run.sh runs it (in the TPSIM_MODE it is given: CI runs it in
# functional and in performance mode); by hand:
#
#   BUILD=build sh tests/tensor/run_tensor.sh
#
# The first run uses the default device (the RTX 2060, compute 7.5), which
# refuses the sm_80 and sm_90 modules: those tests report "SKIP ... needs
# compute", and run again on tpsim as a compute 9.0 device
# (TPSIM_OPTIONS="device.cc=9.0"; a real GPU ignores it and they stay
# skipped).  The WMMA GEMM runs once more on the GTX 480 (no tensor cores:
# the same results, the fallback timing): tensor_wmma_gemm_gtx480.
# TN_TIMEOUT (seconds, default 600) bounds each runner process.
BUILD=${BUILD:-build}
here=$(dirname "$0")
runner="$BUILD/tests/tensor/runner"
limit=${TN_TIMEOUT:-600}

if [ ! -x "$runner" ]; then
    echo "FAIL tensor: $runner is not built (make unit)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # run OUT ARGS...
    o=$1
    shift
    if command -v timeout >/dev/null 2>&1; then
        timeout "$limit" "$runner" "$@" >"$o" 2>"$o.err"
    else
        "$runner" "$@" >"$o" 2>"$o.err"
    fi
    echo $? >"$o.rc"
}

"$runner" "$here" --list >"$tmp/list" 2>/dev/null || { echo "FAIL tensor: runner --list failed"; exit 1; }
run "$tmp/main" "$here"
while read -r name; do
    line=$(grep -E "^(PASS|FAIL|SKIP) tensor_$name(:|\$)" "$tmp/main" | head -n 1)
    case "$line" in
    "SKIP tensor_$name: needs compute"*)
        (
            TPSIM_OPTIONS="${TPSIM_OPTIONS:-} device.cc=9.0"
            export TPSIM_OPTIONS
            run "$tmp/$name" "$here" --only "$name"
        )
        line=$(grep -E "^(PASS|FAIL|SKIP) tensor_$name(:|\$)" "$tmp/$name" | head -n 1)
        ;;
    esac
    if [ -z "$line" ]; then
        line="FAIL tensor_$name: no result (runner exit status $(cat "$tmp/main.rc")): $(head -c 300 "$tmp/main.err" | tr '\n' ' ')"
    fi
    echo "$line"
done <"$tmp/list"

(
    TPSIM_CONFIG=gtx480
    export TPSIM_CONFIG
    run "$tmp/gtx480" "$here" --only wmma_gemm
)
line=$(grep -E "^(PASS|FAIL|SKIP) tensor_wmma_gemm(:|\$)" "$tmp/gtx480" | head -n 1)
case "$line" in
"") echo "FAIL tensor_wmma_gemm_gtx480: no result: $(head -c 300 "$tmp/gtx480.err" | tr '\n' ' ')" ;;
*) echo "$line" | sed 's/tensor_wmma_gemm/tensor_wmma_gemm_gtx480/' ;;
esac
