#!/bin/sh
# run.sh -- the WarpPool experiments in one command: the points of
# warppool.sweep (every kernel of experiments/warppool/kernels on the paper's
# configuration, gtx480-l1-32k, with each LD/ST front end: baseline, banked
# L1D, WarpPool, MRPB, and a 128 KB L1D) through `tpsim sweep`, then
# report.py: the kernels' classes, a summary CSV, the figures of the paper's
# slides 20-22 and the Markdown table of docs/EXPERIMENTS.md.
#
#   sh experiments/warppool/run.sh [-j N] [--build DIR] [--out DIR] [--results DIR]
#
# -j N points at a time (default 1: the machines this is developed on are
# shared); --out the sweep's cache and work files (default
# build/warppool-sweep: a second run reuses every point whose inputs did not
# change); --results the CSVs and figures (default experiments/warppool/results).
# Needs `make unit` (the runner, build/experiments/warppool/wpbench), python3
# (standard library) and gnuplot for the figures.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
out=$root/build/warppool-sweep
results=$here/results
jobs=1
while [ $# -gt 0 ]; do
    case $1 in
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (run.sh --help)" >&2; exit 2 ;;
    esac
done
[ -x "$build/experiments/warppool/wpbench" ] || { echo "run.sh: $build/experiments/warppool/wpbench is not built (make unit)" >&2; exit 2; }
mkdir -p "$results"
"$build/bin/tpsim" sweep "$here/warppool.sweep" -j "$jobs" --out "$out" --results "$results" --quiet
python3 "$here/report.py" --csv "$results/warppool.csv" --results "$results" \
    --list "$("$build/experiments/warppool/wpbench" --list)"
