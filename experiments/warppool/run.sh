#!/bin/sh
# run.sh -- the WarpPool experiments in one command: the points of
# warppool.sweep (every kernel of experiments/warppool/kernels on the paper's
# configuration, gtx480-l1-32k, with each LD/ST front end: baseline, banked
# L1D, WarpPool, MRPB, and a 128 KB L1D) through `tpsim sweep`, then
# report.py: the kernels' classes, a summary CSV, the figures of the paper's
# slides 20-22 and the Markdown table of docs/EXPERIMENTS.md.
#
#   sh experiments/warppool/run.sh [-j N] [--build DIR] [--out DIR] [--results DIR] [--suites SRC [--only NAME,...]]
#
# -j N points at a time (default 1: the machines this is developed on are
# shared); --out the sweep's cache and work files (default
# build/warppool-sweep: a second run reuses every point whose inputs did not
# change); --results the CSVs and figures (default experiments/warppool/results).
# Needs `make unit` (the runner, build/experiments/warppool/wpbench), python3
# (standard library) and gnuplot for the figures.
#
# --suites SRC runs the public suites' own programs instead (experiments/suites.md:
# SRC/rodinia, SRC/parboil, SRC/polybench), built by experiments/suites/suites.sh
# into BUILD/suites/warppool and run with `tpsim run` under each front end; every bar
# is the named kernel of its program (experiments/suites/wp_csv.py sums that
# kernel's launches); results (default experiments/warppool/results-suites): the
# same CSVs and figures.  A point is ok when tpsim and the program's own output
# check pass; a program that cannot be built or has no input is `skipped`.
# --only (with --suites) runs the points of those bars again and keeps every
# other point's results in the results' points/ (the CSV and figures are
# made from all of them; a bar with no points there, as in a fresh checkout,
# keeps its rows of the committed CSV).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SUITES=$root/experiments/suites/suites.sh
# --suites, one point (xargs): run.sh --suite-point BUILD WORK POINTS NAME FRONTEND OPTIONS...
if [ "${1:-}" = "--suite-point" ]; then
    b=$2 w=$3 pts=$4 n=$5 fe=$6
    shift 6
    base=$pts/$n-$fe
    # two bars of one program (the same build and run): the first's run serves both
    case $n in atax_1) first=atax_2 ;; corr_4) first=corr_3 ;; *) first="" ;; esac
    if [ ! -f "$w/$n/skip" ] && [ -n "$first" ] && [ "$(cat "$pts/$first-$fe.status" 2>/dev/null)" = ok ] &&
        [ "$(cat "$w/$n/build.cmd")" = "$(cat "$w/$first/build.cmd")" ]; then
        for x in json log status; do cp "$pts/$first-$fe.$x" "$base.$x"; done
    else # the run, or skipped (experiments/suites/suites.sh point)
        sh "$SUITES" point "$b/bin/tpsim" gtx480-l1-32k "$w" "$n" "$base" "$@"
    fi
    echo "  $n $fe: $(cat "$base.status")"
    exit 0
fi
build=$root/build
out=$root/build/warppool-sweep
results=$here/results
jobs=1
suites=""
only=""
while [ $# -gt 0 ]; do
    case $1 in
    --suites) [ $# -ge 2 ] || { echo "run.sh: --suites needs a directory (experiments/suites.md)" >&2; exit 2; }
        suites=$2; shift 2 ;;
    --only) [ $# -ge 2 ] || { echo "run.sh: --only needs NAME,..." >&2; exit 2; }
        only=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (run.sh --help)" >&2; exit 2 ;;
    esac
done
if [ -n "$suites" ]; then
    sh "$SUITES" check "$suites" rodinia parboil polybench || exit 2
    suites=$(cd "$suites" && pwd)
    [ "$results" = "$here/results" ] && results=$here/results-suites
    [ -x "$build/bin/tpsim" ] || { echo "run.sh: $build/bin/tpsim is not built (make all)" >&2; exit 2; }
    work=$build/suites/warppool
    mkdir -p "$work" "$results/points"
    sh "$SUITES" wplist >"$work/list"
    wanted() { case ",$only," in ,,) true ;; *",$1,"*) true ;; *) false ;; esac; }
    while read -r n _; do
        wanted "$n" || continue
        rm -f "$work/$n/skip"
        r=$(sh "$SUITES" build "$suites" "$work" "$n")
        echo "run.sh: build $n: $r"
        [ "$r" = ok ] || { mkdir -p "$work/$n"; echo "${r#skip: }" >"$work/$n/skip"; }
    done <"$work/list"
    # the front ends, as warppool.sweep's axis
    while read -r n _; do
        wanted "$n" || continue
        echo "$n baseline l1d.banks=1 warppool=0 mrpb=0 l1d.size=32k"
        echo "$n banked l1d.banks=8 warppool=0 mrpb=0 l1d.size=32k"
        echo "$n warppool l1d.banks=1 warppool=1 mrpb=0 l1d.size=32k"
        echo "$n mrpb l1d.banks=1 warppool=0 mrpb=1 l1d.size=32k"
        echo "$n l1_128k l1d.banks=1 warppool=0 mrpb=0 l1d.size=128k"
    done <"$work/list" | xargs -P "$jobs" -L 1 sh "$here/run.sh" --suite-point "$build" "$work" "$results/points"
    # a bar without points here keeps its rows of the CSV before (wp_csv.py)
    old=$work/warppool.csv.old
    rm -f "$old"
    [ -f "$results/warppool.csv" ] && cp "$results/warppool.csv" "$old"
    python3 "$root/experiments/suites/wp_csv.py" "$results/points" "$work/list" "$results/warppool.csv" "$old"
    python3 "$here/report.py" --csv "$results/warppool.csv" --results "$results" --list "$(cat "$work/list")"
    exit $?
fi
[ -x "$build/experiments/warppool/wpbench" ] || { echo "run.sh: $build/experiments/warppool/wpbench is not built (make unit)" >&2; exit 2; }
mkdir -p "$results"
"$build/bin/tpsim" sweep "$here/warppool.sweep" -j "$jobs" --out "$out" --results "$results" --quiet
python3 "$here/report.py" --csv "$results/warppool.csv" --results "$results" \
    --list "$("$build/experiments/warppool/wpbench" --list)"
