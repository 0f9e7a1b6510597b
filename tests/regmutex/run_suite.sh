#!/bin/sh
# run_suite.sh -- RegMutex never changes results: the functional suites
# (tests/kernels, tests/polybench, tests/ubench, tests/tensor, tests/cuda)
# run again with RegMutex on, each printing its own PASS/FAIL/SKIP lines, renamed
# "PASS regmutex[CONFIG OPTIONS MODE] NAME".  tests/run.sh runs it; by hand:
#
#   BUILD=build sh tests/regmutex/run_suite.sh [CONFIG [OPTIONS [MODE]]]
#
# Default: gtx480-rf64k (64 KB of registers per SM, the paper's second
# experiment), where the regmutex pass applies to 109 of the suites'
# 145 PTX kernels (`tpsim regmutex FILE --config gtx480-rf64k` says which):
# those run the compacted code over base registers plus a section of the
# pool (functional mode: a private section per acquire, filled with garbage;
# so a wrong compaction move, a missing acquire or a value kept across a
# release changes results).  Then the kernel suite once more in performance
# mode, where the SMs hand out the sections (two warps given one section
# corrupt each other; a warp waits for a free one).  On the default device
# (64K registers, 32 warps) the pass turns itself off for every suite
# kernel, and regmutex=1 then runs the register-allocated code
# (regs.physical=1): `sh tests/regmutex/run_suite.sh default regmutex=1`.
# cuda_failreport and cuda_failreport_gtx480 check the limit messages word for word:
# under another configuration it is reported as a SKIP.
BUILD=${BUILD:-build}
export BUILD
here=$(dirname "$0")
tests=$(cd "$here/.." && pwd)
cfg=${1:-gtx480-rf64k}
# regmutex.model=0: the mechanism on every kernel its rule can help, whether
# or not the cost model expects a gain (these tests are about results)
opts=${2:-regmutex=1 regmutex.model=0}
only_mode=${3:-}

suite() { # MODE SCRIPT
    tag="$cfg $opts $1"
    if [ "$cfg" = default ]; then unset TPSIM_CONFIG; else TPSIM_CONFIG=$cfg; export TPSIM_CONFIG; fi
    TPSIM_OPTIONS=$opts TPSIM_MODE=$1 sh "$2" 2>&1 |
        sed -n -e "s/^\(PASS\|FAIL\|SKIP\) /\1 regmutex[$tag] /p" |
        if [ "$cfg" != default ]; then
            sed -e "s/^FAIL \(regmutex\[[^]]*\] cuda_failreport[a-z0-9_]*\):.*/SKIP \1: checks the limit messages word for word/"
        else
            cat
        fi
}

# TPSIM_TEST_HEAVY=0 (CI's sanitizer pass): these runs repeat the whole
# kernel suite several times over, which the sanitizer pass already runs
# once itself; the default build's pass runs them in full.
if [ "${TPSIM_TEST_HEAVY:-1}" = 0 ]; then
    echo "SKIP regmutex suites: TPSIM_TEST_HEAVY=0 (run in the default build's pass)"
    exit 0
fi
# Each suite sets its own mode, so a caller's TPSIM_MODE (make test in
# performance mode, CI's second pass) would only repeat the default run.
if [ $# -eq 0 ] && [ -n "${TPSIM_MODE:-}" ]; then
    echo "SKIP regmutex suites: they set their own modes (run without TPSIM_MODE)"
    exit 0
fi
unset TPSIM_STATS TPSIM_TRACE
if [ -z "$only_mode" ] || [ "$only_mode" = functional ]; then
    for s in kernels/run_kernels.sh polybench/run_polybench.sh ubench/run_ubench.sh tensor/run_tensor.sh cuda/run_cuda.sh; do
        suite functional "$tests/$s"
    done
fi
if [ -z "$only_mode" ] || [ "$only_mode" = performance ]; then
    suite performance "$tests/kernels/run_kernels.sh"
fi
exit 0
