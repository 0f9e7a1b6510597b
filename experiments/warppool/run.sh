#!/bin/sh
# run.sh -- the WarpPool experiments in one command: every benchmark of
# wpbench (experiments/warppool/kernels) on the paper's configuration
# (gtx480-l1-32k: 32 KB L1D, 32 MSHRs, GTO) with each LD/ST front end, then
# the CSV and the figures (report.py).
#
#   sh experiments/warppool/run.sh [-j N] [--build DIR] [--out DIR] [--results DIR]
#                                  [--configs "C ..."] [BENCH ...]
#
# Configurations (TPSIM_OPTIONS on top of TPSIM_CONFIG=gtx480-l1-32k):
#   baseline   the Fermi LD/ST path
#   banked     an 8-way banked L1D (l1d.banks=8; one miss per cycle)
#   warppool   WarpPool (warppool=1: the seed's configuration, 2 coalescers,
#              32 queues, up to 4 merges per access, 100,000-cycle quantum)
#   mrpb       MRPB-style prioritisation (mrpb=1)
#   l1_128k    the baseline with a 128 KB L1D: not a mechanism; it tells
#              which kernels are cache-limited (report.py)
# Each point runs `wpbench BENCH` in performance mode with TPSIM_STATS; a
# point whose statistics are newer than the runner, the simulator library
# and the kernel's PTX is not run again (delete OUT to start over).  Points
# run N at a time (-j, default 1).  Statistics and logs go to OUT (default
# build/warppool-exp), the CSV and the figures to RESULTS (default
# experiments/warppool/results).  experiments/warppool/warppool.sweep
# describes the same points for `tpsim sweep`.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

options_of() {
    case $1 in
    baseline) echo "" ;;
    banked) echo "l1d.banks=8" ;;
    warppool) echo "warppool=1" ;;
    mrpb) echo "mrpb=1" ;;
    l1_128k) echo "l1d.size=128k" ;;
    *) return 1 ;;
    esac
}

# internal: run.sh --point BENCH CONFIG (the environment names the rest)
if [ "${1:-}" = "--point" ]; then
    b=$2 c=$3
    o=$(options_of "$c")
    j=$WPX_OUT/json/$b.$c.json
    s=$(date +%s)
    if (cd "$root" && TPSIM_MODE=performance TPSIM_CONFIG=gtx480-l1-32k TPSIM_OPTIONS="$o" TPSIM_STATS="$j.tmp" \
        "$WPX_BENCH" "$b") >"$WPX_OUT/log/$b.$c.log" 2>&1 && grep -q "^PASS $b\$" "$WPX_OUT/log/$b.$c.log"; then
        mv "$j.tmp" "$j"
        echo "  $b $c: ok ($(($(date +%s) - s)) s)"
    else
        rm -f "$j.tmp"
        echo "  $b $c: FAILED (see $WPX_OUT/log/$b.$c.log)"
    fi
    exit 0
fi

build=$root/build
out=$root/build/warppool-exp
results=$here/results
jobs=1
configs="baseline banked warppool mrpb l1_128k"
benches=""
while [ $# -gt 0 ]; do
    case $1 in
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --configs) configs=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) benches="$benches $1"; shift ;;
    esac
done
wpbench=$build/experiments/warppool/wpbench
[ -x "$wpbench" ] || { echo "run.sh: $wpbench is not built (make unit)" >&2; exit 2; }
[ -n "$benches" ] || benches=$("$wpbench" --list | awk '{print $1}')
for c in $configs; do options_of "$c" >/dev/null || { echo "run.sh: unknown configuration $c" >&2; exit 2; }; done
mkdir -p "$out/json" "$out/log" "$results"
out=$(cd "$out" && pwd)

todo=$(mktemp)
trap 'rm -f "$todo"' EXIT
for b in $benches; do
    ptx=$here/kernels/$("$wpbench" --list | awk -v b="$b" '$1 == b {print $3}')
    [ -f "$ptx" ] || { echo "run.sh: no benchmark $b (wpbench --list)" >&2; exit 2; }
    for c in $configs; do
        j=$out/json/$b.$c.json
        if [ -s "$j" ] && [ "$j" -nt "$wpbench" ] && [ "$j" -nt "$build/lib/libcuda.so.1" ] && [ "$j" -nt "$ptx" ]; then
            continue
        fi
        echo "$b $c" >>"$todo"
    done
done
echo "run.sh: $(wc -l <"$todo") points to run, $jobs at a time; statistics in $out"
WPX_OUT=$out WPX_BENCH=$wpbench xargs -P "$jobs" -L 1 sh "$0" --point <"$todo"
python3 "$here/report.py" --json "$out/json" --results "$results" --list "$("$wpbench" --list)" --configs "$configs"
