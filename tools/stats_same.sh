#!/bin/sh
# stats_same.sh -- a speed change must not change what is simulated: runs the
# bench kernels (performance mode, BENCH_STATS) and the PolyBench programs
# (TPSIM_MODE=performance, TPSIM_STATS) with two builds and compares every
# statistic byte for byte, leaving out the host figures (wall times, RSS and
# sim.cycles_skipped, which counts the simulator's own skipping, and the
# host-side sim.* options).
#
#   sh tools/stats_same.sh REF_BUILD NEW_BUILD [quick]
#   REF_OPTIONS=sim.skip=0 sh tools/stats_same.sh build build quick
#
# REF_OPTIONS, NEW_OPTIONS: options ("k=v k=v") for one side's runs; with one
# build for both, the second line checks that cycle skipping is exact.
#
# REF_BUILD, NEW_BUILD: build directories with bench/bench and
# tests/polybench/polybench built (e.g. a `git archive` of the old commit
# built with make build/bench/bench unit).  quick leaves out the long ones
# (atax_row, the tensor kernels, corr).  One "same NAME" / "DIFF NAME" line
# each; the exit status is 1 when any differs.
[ $# -ge 2 ] || { echo "usage: stats_same.sh REF_BUILD NEW_BUILD [quick]" >&2; exit 2; }
ref=$1 new=$2
ks="fma_loop int_hash saxpy matmul mandel atax_row wmma_gemm wmma_peak"
pbs="2mm gemm atax bicg gesummv 2dconv fdtd2d corr"
if [ "${3:-}" = quick ]; then
    ks="fma_loop int_hash saxpy matmul mandel"
    pbs="2mm gemm atax bicg gesummv 2dconv fdtd2d"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strip() { grep -v -e '"host"' -e 'cycles_skipped' -e '"sim\.' "$1"; }
st=0
for k in $ks; do
    for b in ref new; do
        eval "d=\$$b"
        if [ $b = ref ]; then o=${REF_OPTIONS:-}; else o=${NEW_OPTIONS:-}; fi
        BENCH_OPTIONS="$o" BENCH_STATS="$tmp/$b.json" "$d/bench/bench" --perf "$k" tests/bench/bench.ptx >/dev/null || echo "failed: $b $k"
        strip "$tmp/$b.json" >"$tmp/$b.txt"
    done
    if cmp -s "$tmp/ref.txt" "$tmp/new.txt"; then echo "same $k"; else echo "DIFF $k"; st=1; fi
done
for p in $pbs; do
    for b in ref new; do
        eval "d=\$$b"
        if [ $b = ref ]; then o=${REF_OPTIONS:-}; else o=${NEW_OPTIONS:-}; fi
        TPSIM_OPTIONS="$o" TPSIM_MODE=performance TPSIM_STATS="$tmp/$b.json" "$d/tests/polybench/polybench" --ptx tests/polybench "$p" >/dev/null 2>&1 ||
            echo "failed: $b polybench $p"
        strip "$tmp/$b.json" >"$tmp/$b.txt"
    done
    if cmp -s "$tmp/ref.txt" "$tmp/new.txt"; then echo "same polybench $p"; else echo "DIFF polybench $p"; st=1; fi
done
exit $st
