#!/bin/sh
# run_wp_suite.sh -- run by `make test`: WarpPool never changes results.  The
# kernel suite (tests/kernels) runs on the timing model with the pool on
# (TPSIM_MODE=performance TPSIM_OPTIONS="warppool=1"; the driver reads both
# from the environment); when the suite itself runs in performance mode (the
# CI's second pass) the PolyBench kernels and the CUDA programs do too, with
# warppool=1 and, for the kernel suite, with the banked L1D and MRPB.  Every
# test checks its own results, so a merged request that delivers a line to
# the wrong thread, or to no thread, fails here.  One line per test:
# "PASS warppool=1/NAME" (or l1d.banks=8/..., mrpb=1/...) or "FAIL ...".
# By hand, the whole functional suite with the pool:
#   TPSIM_MODE=performance TPSIM_OPTIONS=warppool=1 sh tests/kernels/run_kernels.sh
BUILD=${BUILD:-build}
export BUILD
here=$(dirname "$0")
status=0
tag() {  # tag OPTION: prefixes each result line's test name with OPTION/
    sed -E "s#^(PASS|FAIL|SKIP) ([^:]*)#\1 $1/\2#"
}
suite() {  # suite OPTION SCRIPT
    out=$(TPSIM_MODE=performance TPSIM_OPTIONS="${TPSIM_OPTIONS:-} $1" sh "$2") || status=1
    printf '%s\n' "$out" | tag "$1"
}
suite warppool=1 "$here/../kernels/run_kernels.sh"
if [ "${TPSIM_MODE:-}" = performance ]; then
    suite l1d.banks=8 "$here/../kernels/run_kernels.sh"
    suite mrpb=1 "$here/../kernels/run_kernels.sh"
    suite warppool=1 "$here/../polybench/run_polybench.sh"
    suite warppool=1 "$here/../cuda/run_cuda.sh"
fi
exit $status
