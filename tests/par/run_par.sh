#!/bin/sh
# run_par.sh -- parallel SMs (sim.threads, docs/TIMING.md "Parallel SMs")
# give the same statistics as one thread.  Each comparison runs a program in
# performance mode with TPSIM_THREADS=1 and with 2 and requires the two
# statistics files (TPSIM_STATS) to be the same byte for byte, but for the
# options sim.threads and sim.share and the "host" line (wall seconds, peak
# memory), and the programs' outputs to be the same.
#
#   - the whole kernel suite (tests/kernels: the shared run, the tests that
#     run alone -- the faults among them --, the sm_80 ones as a compute 8.0
#     device) and the PolyBench kernels (tests/polybench, make test's
#     sizes) with sim.share=inline: every cycle in which two SMs or more
#     tick runs in the parallel order on one thread (every SM's front part,
#     the issue stages in SM order, every SM's flush, every back part) --
#     cheap on a loaded host, and the order is what the results depend on;
#   - the tests that run alone, three kernels and two PolyBench kernels on
#     two real threads: sim.share=always (every such cycle forks and joins)
#     and, for the kernels, the default sim.share=auto; and one kernel whose
#     livelock watchdog fires (exec.spin_limit=1000), on two threads.
#
# One line per comparison: "PASS par_NAME" or "FAIL par_NAME: ...".  By hand:
#
#   BUILD=build sh tests/par/run_par.sh
BUILD=${BUILD:-build}
kdir=tests/kernels
krun="$BUILD/tests/kernels/runner"
prun="$BUILD/tests/polybench/polybench"
limit=${PAR_TIMEOUT:-900}

# under CI's sanitizer pass or a caller's TPSIM_MODE: SKIP (guards.sh)
. "$(dirname "$0")/guards.sh"
par_guards par "$krun" "$prun"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
to=""
command -v timeout >/dev/null 2>&1 && to="timeout $limit"

# same NAME T2: compares the runs $tmp/NAME.1 and $tmp/NAME.T2
same() {
    for t in 1 "$2"; do
        f="$tmp/$1.$t"
        if [ ! -s "$f.json" ]; then
            echo "FAIL par_$1: no statistics file from run $t ($(head -c 200 "$f.err" | tr '\n' ' '))"
            return
        fi
        grep -v -e '"sim\.threads":' -e '"sim\.share":' -e '^  "host":' "$f.json" >"$f.norm"
    done
    a="$tmp/$1.1" b="$tmp/$1.$2"
    if ! cmp -s "$a.out" "$b.out"; then
        echo "FAIL par_$1 ($2): the program's output differs with 1 and 2 threads: $(diff "$a.out" "$b.out" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')"
    elif cmp -s "$a.norm" "$b.norm"; then
        echo "PASS par_$1 ($2: $(grep -c '"cycles":' "$a.norm") launches)"
    else
        echo "FAIL par_$1 ($2): statistics differ with 1 and 2 threads: $(diff "$a.norm" "$b.norm" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')"
    fi
}

# run NAME TAG THREADS SHARE COMMAND...: one run, into $tmp/NAME.TAG.*
run() {
    name=$1 tag=$2 threads=$3 share=$4
    shift 4
    TPSIM_MODE=performance TPSIM_THREADS=$threads TPSIM_STATS="$tmp/$name.$tag.json" \
        TPSIM_OPTIONS="${TPSIM_OPTIONS:-} sim.share=$share" $to "$@" >"$tmp/$name.$tag.out" 2>"$tmp/$name.$tag.err"
}

# pair NAME "SHARE..." COMMAND...: the command with 1 thread, then with 2
# under each sim.share, each compared with the first
pair() {
    name=$1 shares=$2
    shift 2
    run "$name" 1 1 auto "$@"
    for sh in $shares; do
        run "$name" "$sh" 2 "$sh" "$@"
        same "$name" "$sh"
    done
}

"$krun" --list >"$tmp/list" || { echo "FAIL par: $krun --list failed"; exit 1; }

# the whole suites in the parallel order; some kernels on two threads too
pair kernels inline "$krun" "$kdir"
while read -r name kind; do
    case "$kind" in
    isolate | stdout) pair "kernels_$name" "inline always" "$krun" "$kdir" --only "$name" ;;
    esac
done <"$tmp/list"
for name in half_sm80 redux_sm80; do # as a compute 8.0 device (run_kernels.sh does the same)
    (
        TPSIM_OPTIONS="${TPSIM_OPTIONS:-} device.cc=8.0"
        export TPSIM_OPTIONS
        pair "kernels_$name" inline "$krun" "$kdir" --only "$name"
    )
done
# shellcheck disable=SC2046
pair polybench inline "$prun" --ptx tests/polybench $("$prun" --list)
for name in matmul_tiled big_grid atomics_shared; do
    pair "kernels_$name" "always auto" "$krun" "$kdir" --only "$name"
done
pair polybench_gemm_atax always "$prun" --ptx tests/polybench gemm atax
# the livelock watchdog fires (exec.spin_limit at its least): cycles near
# the limit run in SM order, so it stops at the same instruction
(
    TPSIM_OPTIONS="${TPSIM_OPTIONS:-} exec.spin_limit=1000"
    export TPSIM_OPTIONS
    pair kernels_watchdog always "$krun" "$kdir" --only matmul_tiled
)
