#!/bin/sh
# run_skip.sh -- cycle skipping is exact (sim.skip, docs/TIMING.md "Cycle
# skipping"): a performance-mode run in which every SM ticks in every cycle
# (sim.skip=0) gives the same cycles and statistics, byte for byte, as the
# default run in which SMs sleep until their next event and the launch loop
# jumps over cycles where nothing can happen.  The statistics files
# (TPSIM_STATS) are compared but for the sim.* options, the "host" line and
# sim.cycles_skipped (which counts the skipping itself), and the programs'
# outputs must be the same.  What is run:
#
#   - every kernel of tests/kernels, one at a time, on the GTX 480 model
#     but atomics_global (140 s with sim.skip=0: its same-address atomics
#     keep one SM busy for a long time; compared by hand, the same);
#   - the PolyBench kernels (make test's sizes), GTX 480 model;
#   - three of them on the RTX 2060 model (sectors, refresh, store acks,
#     launch cost), three with WarpPool on, and three kernels with RegMutex
#     handing out register sections (gtx480-rf64k: a warp may wait for one).
#
# One line per group: "PASS skip_NAME (N launches)" or "FAIL skip_NAME: ...".
# By hand:  BUILD=build sh tests/par/run_skip.sh
BUILD=${BUILD:-build}
krun="$BUILD/tests/kernels/runner"
prun="$BUILD/tests/polybench/polybench"
kdir=tests/kernels

# under CI's sanitizer pass or a caller's TPSIM_MODE: SKIP (guards.sh)
. "$(dirname "$0")/guards.sh"
par_guards skip "$krun" "$prun"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one NAME CONFIG OPTIONS COMMAND...: the command with sim.skip=1 and 0;
# prints nothing when they agree, else the difference
one() {
    name=$1 cfg=$2 opts=$3
    shift 3
    for o in 1 0; do
        f="$tmp/$name.$o"
        TPSIM_CONFIG=$cfg TPSIM_MODE=performance TPSIM_OPTIONS="$opts sim.skip=$o" TPSIM_STATS="$f.json" \
            "$@" >"$f.out" 2>&1
        if [ ! -s "$f.json" ]; then
            echo "$name: no statistics file with sim.skip=$o ($(head -c 200 "$f.out" | tr '\n' ' '))"
            return
        fi
        grep -v -e '"sim\.' -e '^  "host":' -e 'cycles_skipped' "$f.json" >"$f.norm"
    done
    a="$tmp/$name.1" b="$tmp/$name.0"
    if ! cmp -s "$a.out" "$b.out"; then
        echo "$name: the output differs: $(diff "$a.out" "$b.out" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')"
    elif ! cmp -s "$a.norm" "$b.norm"; then
        echo "$name: statistics differ: $(diff "$a.norm" "$b.norm" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')"
    else
        grep -c '"cycles":' "$a.norm" >>"$tmp/launches"
    fi
}

# group NAME: reports the comparisons made since the last group
group() {
    if [ -s "$tmp/fails" ]; then
        echo "FAIL skip_$1: $(head -n 3 "$tmp/fails" | tr '\n' ';')"
    else
        n=$(awk '{ s += $1 } END { print s + 0 }' "$tmp/launches" 2>/dev/null)
        if [ "$n" -gt 0 ]; then echo "PASS skip_$1 ($n launches)"; else echo "FAIL skip_$1: no launches compared"; fi
    fi
    rm -f "$tmp/fails" "$tmp/launches"
}

"$krun" "$kdir" --list >"$tmp/list" 2>&1 || { echo "FAIL skip: $krun --list failed"; exit 1; }
while read -r k kind; do
    [ "$k" = atomics_global ] && continue
    one "k_$k" gtx480 "" "$krun" "$kdir" --only "$k" >>"$tmp/fails"
done <"$tmp/list"
group kernels_gtx480

# shellcheck disable=SC2046
one polybench gtx480 "" "$prun" --ptx tests/polybench $("$prun" --list) >>"$tmp/fails"
group polybench_gtx480
one pb_rtx rtx2060 "" "$prun" --ptx tests/polybench gemm atax 2dconv >>"$tmp/fails"
group polybench_rtx2060
one pb_wp gtx480 "warppool=1" "$prun" --ptx tests/polybench atax bicg gesummv >>"$tmp/fails"
group polybench_warppool
for k in matmul_tiled reduce_block bfs; do
    one "rm_$k" gtx480-rf64k "regmutex=1 regmutex.model=0" "$krun" "$kdir" --only "$k" >>"$tmp/fails"
done
group kernels_regmutex
