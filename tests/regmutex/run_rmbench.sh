#!/bin/sh
# run_rmbench.sh -- the RegMutex experiments' 18 benchmarks (experiments/
# regmutex/rmbench.c, each checked against the CPU) at their small sizes,
# in functional mode: as written, with RegMutex and with Owner-Warp-First
# sharing, on the GTX 480 and on its 64 KB variant, and RegMutex and
# Register File Virtualization once in performance mode.  RegMutex and OWF
# run the compacted code over base registers plus sections (regmutex/), so a
# wrong move, a missing acquire or a shared section shows as a wrong result
# here; RFV changes only timing, and must neither change a result nor leave
# a kernel stuck (its throttle).  One line per benchmark and
# setting: "PASS rmbench[SETTING] NAME" or "FAIL ...".
BUILD=${BUILD:-build}
bin="$BUILD/experiments/regmutex/rmbench"
if [ ! -x "$bin" ]; then
    echo "FAIL rmbench: $bin is not built (make unit)"
    exit 1
fi
status=0
run() { # MODE CONFIG OPTIONS
    out=$(TPSIM_MODE=$1 TPSIM_CONFIG=$2 TPSIM_OPTIONS="$3" "$bin" --small 2>&1)
    rc=$?
    echo "$out" | sed -n "s/^\(PASS\|FAIL\) /\1 rmbench[$1 $2 $3] /p"
    if [ $rc -ne 0 ]; then
        echo "$out" | grep -q '^FAIL' || echo "FAIL rmbench[$1 $2 $3]: exited with status $rc: $(echo "$out" | tail -1)"
        status=1
    fi
}
run functional gtx480 ""
# regmutex.model=0: RegMutex on every kernel its rule can help, also where
# the cost model declines (these runs check results, not speed); once with
# the model, as the experiments run it
run functional gtx480 "regmutex=1 regmutex.model=0"
run functional gtx480 "regmutex=1"
run functional gtx480 "owf=1"
run functional gtx480-rf64k "regmutex=1 regmutex.model=0"
run performance gtx480-rf64k "regmutex=1 regmutex.model=0"
run performance gtx480 "regs.policy=rfv"
exit $status
