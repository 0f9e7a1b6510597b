#!/bin/sh
# run_ubench.sh -- runs tpsim's microbenchmarks (tests/ubench) through the
# driver API and prints one line per measurement: "PASS ubench_NAME" or
# "FAIL ubench_NAME: reason".  tests/run.sh runs it; by hand:
#
#   BUILD=build sh tests/ubench/run_ubench.sh
#
# The program ($BUILD/tests/ubench/ubench) checks every kernel's functional
# result itself (a wrong result prints "FAIL NAME: why").  In functional mode
# (TPSIM_MODE unset or "functional") %clock64 counts warp instructions, so
# each measurement is an exact instruction count per operation; it must equal
# its line in functional.expected, which pins the timed loops to what the
# formulas in the .cu headers assume (a regenerated PTX that changes a loop
# shows up here).  In performance mode on gtx480 (no TPSIM_OPTIONS) each
# measurement must lie in the range perf_expect.sh computes from the
# configuration's options; in any other mode or configuration only the
# functional checks apply, and a measurement must be a positive number.  In
# performance mode ubench_code_latencies runs the latency chains under
# exec.code=ptx and exec.code=scheduled (DRAM refresh off): their results
# must be the same (dependent chains: the schedule cannot move them).  One more run, ubench_params, checks
# that non-default cache and bank parameters (the GTX 480's 48 KB L1
# alternative, 64-byte lines, 16 banks) give working chases and chains.
# In performance mode the dependent chains and the DRAM bandwidth of every
# GPU configuration are checked as well (ubench_config_NAME, below).
# UB_TIMEOUT (seconds, default 300) bounds each run when timeout(1) exists.
BUILD=${BUILD:-build}
here=$(dirname "$0")
prog="$BUILD/tests/ubench/ubench"
limit=${UB_TIMEOUT:-300}

if [ ! -x "$prog" ]; then
    echo "FAIL ubench: $prog is not built (make unit)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the expected counts and the formulas are the GTX 480's (15 SMs: how many
# CTAs stream at once decides the bandwidth kernels' instruction mix)
TPSIM_CONFIG=${TPSIM_CONFIG:-gtx480}
export TPSIM_CONFIG

run() {  # run OUT ARGS...: the program with a time limit; status in OUT.rc
    o=$1
    shift
    if command -v timeout >/dev/null 2>&1; then
        timeout "$limit" "$prog" --ptx "$here" "$@" >"$o" 2>"$o.err"
    else
        "$prog" --ptx "$here" "$@" >"$o" 2>"$o.err"
    fi
    echo $? >"$o.rc"
}

mode=${TPSIM_MODE:-functional}
TPSIM="$BUILD/bin/tpsim" sh "$here/perf_expect.sh" "$TPSIM_CONFIG" >"$tmp/perf.expected" 2>/dev/null
names=$("$prog" --list) || { echo "FAIL ubench: $prog --list failed"; exit 1; }
run "$tmp/all"
for n in $names; do
    line=$(grep -E "^(FAIL )?$n[: ]" "$tmp/all" | head -n 1)
    case "$line" in
    "")
        why=$(head -c 300 "$tmp/all.err" | tr '\n' ' ')
        echo "FAIL ubench_$n: no result (exit status $(cat "$tmp/all.rc"))${why:+: $why}"
        ;;
    "FAIL "*) echo "FAIL ubench_${line#FAIL }" ;;
    *)
        if [ "$mode" = functional ]; then
            want=$(grep -E "^$n " "$here/functional.expected")
            if [ "$line" = "$want" ]; then
                echo "PASS ubench_$n"
            else
                echo "FAIL ubench_$n: got \"$line\", functional.expected says \"$want\" (functional mode: warp instructions per operation)"
            fi
        elif [ "$mode" = performance ] && [ "$TPSIM_CONFIG" = gtx480 ] && [ -z "${TPSIM_OPTIONS:-}" ]; then
            # the configuration's values, by the timing model's rules (perf_expect.sh)
            v=$(echo "$line" | awk '{print $2}')
            want=$(grep -E "^$n " "$tmp/perf.expected")
            if [ -z "$want" ]; then
                echo "FAIL ubench_$n: no expectation in perf_expect.sh"
            elif echo "$want" | awk -v v="$v" '{ exit !(v + 0 >= $2 - 1e-9 && v + 0 <= $3 + 1e-9) }'; then
                echo "PASS ubench_$n"
            else
                echo "FAIL ubench_$n: measured $v, the configuration implies $(echo "$want" | awk '{print "[" $2 ", " $3 "] (" $4 ")"}')"
            fi
        else
            v=$(echo "$line" | awk '{print $2}')
            if awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }'; then
                echo "PASS ubench_$n"
            else
                echo "FAIL ubench_$n: not a positive measurement: $line"
            fi
        fi
        ;;
    esac
done

# In performance mode the latency chains are dependent: the scheduled code
# (exec.code=scheduled, ptxas's order) cannot move them, so every lat_* and
# shmem_* measurement is the same in both instruction streams -- without
# DRAM refresh, whose phase is absolute time: the two streams reach the
# chains at different cycles, so a refresh would meet a different access.
if [ "$mode" = performance ]; then
    for c in ptx scheduled; do
        (TPSIM_OPTIONS="${TPSIM_OPTIONS:+$TPSIM_OPTIONS }exec.code=$c dram.refresh=none"; export TPSIM_OPTIONS
         run "$tmp/code_$c" --only 'lat_*,shmem_*')
    done
    if [ "$(cat "$tmp/code_ptx.rc")" -eq 0 ] && [ -s "$tmp/code_ptx" ] && ! grep -q '^FAIL' "$tmp/code_ptx" &&
        cmp -s "$tmp/code_ptx" "$tmp/code_scheduled"; then
        echo "PASS ubench_code_latencies"
    else
        echo "FAIL ubench_code_latencies: the latencies differ between exec.code=ptx and exec.code=scheduled:" \
            "$(diff "$tmp/code_ptx" "$tmp/code_scheduled" | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
    fi
fi

# Every GPU configuration, not only gtx480 (issue 20): its dependent chains
# (lat_int_*, lat_fp*, lat_sfu_*, shmem_*: exact by the rules of
# perf_expect.sh, so the rtx2060's FFMA chain is the 4 cycles its
# lat.fp_mad = 3 implies) and its DRAM bandwidth, which must lie in its
# physical range (item 8: the rtx2060 once reported more than its peak): at
# most the configuration's peak, at least half of what refresh leaves of it.
# gtx480's were checked above with the rest.  The vector machines' files are
# not GPU configurations (`tpsim config --show` refuses them).
if [ "$mode" = performance ] && [ -z "${TPSIM_OPTIONS:-}" ]; then
    cfgs=$("$BUILD/bin/tpsim" config --list | sed -n 's/^built-in configurations: //p' | sed 's/ (the default)//')
    for c in $cfgs; do
        [ "$c" = gtx480 ] && [ "$TPSIM_CONFIG" = gtx480 ] && continue
        "$BUILD/bin/tpsim" config --show "$c" >/dev/null 2>&1 || continue
        TPSIM="$BUILD/bin/tpsim" sh "$here/perf_expect.sh" "$c" >"$tmp/perf_$c" 2>/dev/null
        (TPSIM_CONFIG=$c; export TPSIM_CONFIG; run "$tmp/cfg_$c" --only 'lat_int*,lat_fp*,lat_sfu*,shmem_*,bw_*')
        if [ "$(cat "$tmp/cfg_$c.rc")" -ne 0 ] || [ "$(grep -c ' ' "$tmp/cfg_$c")" -lt 23 ] || grep -q '^FAIL' "$tmp/cfg_$c"; then
            echo "FAIL ubench_config_$c: the chains and bandwidths did not all run (exit status $(cat "$tmp/cfg_$c.rc"))"
            continue
        fi
        bad=$(awk 'NR == FNR { lo[$1] = $2; hi[$1] = $3; f[$1] = $4; next }
                   !($1 in lo) { print $1 ": no expectation"; next }
                   !($2 + 0 >= lo[$1] - 1e-9 && $2 + 0 <= hi[$1] + 1e-9) { print $1 " " $2 " not in [" lo[$1] ", " hi[$1] "] (" f[$1] ")" }' \
              "$tmp/perf_$c" "$tmp/cfg_$c" | head -n 4 | tr '\n' ';')
        if [ -z "$bad" ]; then
            echo "PASS ubench_config_$c"
        else
            echo "FAIL ubench_config_$c: $bad"
        fi
    done
fi

run "$tmp/params" --only 'lat_*,shmem_*,thr_fp32_fma' --l1 48k --l2 1536k --line 64 --stride 64 --banks 16 \
    --steps 256 --iters 2 --warps 8
if [ "$(cat "$tmp/params.rc")" -eq 0 ] && ! grep -q '^FAIL' "$tmp/params"; then
    echo "PASS ubench_params"
else
    why=$(cat "$tmp/params" "$tmp/params.err" | grep -v '^[a-z_0-9]* [0-9.]* ' | head -c 300 | tr '\n' ' ')
    echo "FAIL ubench_params: non-default parameters failed (exit status $(cat "$tmp/params.rc")): $why"
fi
exit 0
