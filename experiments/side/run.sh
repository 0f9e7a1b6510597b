#!/bin/sh
# run.sh -- one CUDA program on tpsim and on GPGPU-Sim 4.2, side by side,
# at 1 to 6 CTAs per SM (issue 21: every gap explained beside GPGPU-Sim).
#
#   sh experiments/side/run.sh [--gpgpusim SRC] [--ctas "1 2 3 6"] [--out DIR] [PROGRAM [ARGS...]]
#
# PROGRAM is a .cu file of this folder (default hotspot_side.cu), built with
# nvcc -cudart shared -no-compress -arch=sm_75 (plain-text PTX in the
# fatbinary, which GPGPU-Sim reads); the same binary runs on
#   tpsim:     build/bin/tpsim run --config gtx480 --mode performance
#              -o device.max_ctas_per_sm=K -o device.regs_per_sm=65536
#   GPGPU-Sim: the SM2_GTX480 configuration (../shared/gpgpusim/prep-gtx480.sh)
#              with -gpgpu_shader_cta K -gpgpu_shader_registers 65536
# (registers never limit; the CTA limit is the one thing that changes).
# --gpgpusim SRC names a GPGPU-Sim tree built by ../shared/gpgpusim/build.sh
# (without it, or where it is not built, only tpsim's column is filled).
# Writes DIR/side.csv (program, K, simulator, cycles of all launches) and
# prints a table: cycles at each K and the gain over the first K.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-build}
tools=${GPGPUSIM_TOOLS:-$root/../shared/gpgpusim}
gs="" ctas="1 2 3 6" out="$here/results"
while [ $# -gt 0 ]; do
    case "$1" in
        --gpgpusim) gs=$2; shift 2 ;;
        --ctas) ctas=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
prog=${1:-hotspot_side.cu}
[ $# -gt 0 ] && shift
case "$prog" in /*) ;; *) [ -f "$prog" ] || prog="$here/$prog" ;; esac
[ -f "$prog" ] || { echo "run.sh: no program $prog" >&2; exit 2; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "run.sh: nvcc not found (set NVCC)" >&2; exit 2; }
case "$BUILD" in /*) tpsim="$BUILD/bin/tpsim" ;; *) tpsim="$root/$BUILD/bin/tpsim" ;; esac
[ -x "$tpsim" ] || { echo "run.sh: $tpsim is not built (make)" >&2; exit 2; }
if [ -n "$gs" ]; then
    gs=$(cd "$gs" && pwd)
    [ -n "$(find "$gs/lib" -name "libcudart.so*" 2>/dev/null | head -n 1)" ] || { echo "run.sh: $gs has no built libcudart.so (build it: $tools/build.sh $gs)" >&2; exit 2; }
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=$(basename "$prog" .cu)
"$NVCC" -cudart shared -no-compress -arch=sm_75 -O3 -o "$work/$name" "$prog"
csv="$out/side.csv"
[ -f "$csv" ] || echo "program,ctas,simulator,cycles" >"$csv"
# drop this program's earlier rows
grep -v "^$name," "$csv" >"$work/csv" || true
mv "$work/csv" "$csv"
for k in $ctas; do
    "$tpsim" run --config gtx480 --mode performance --no-summary --stats "$work/t$k.json" \
        -o device.max_ctas_per_sm="$k" -o device.regs_per_sm=65536 -- "$work/$name" "$@" >"$work/t$k.out" 2>&1 ||
        { echo "run.sh: tpsim failed at $k CTAs: $(tail -n 3 "$work/t$k.out")" >&2; exit 1; }
    # the program's cycles: the statistics' totals (the sum of its launches' cycles)
    c=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["totals"]["cycles"])' "$work/t$k.json")
    echo "$name,$k,tpsim,$c" >>"$csv"
    if [ -n "$gs" ]; then
        d="$work/g$k"
        bash "$tools/prep-gtx480.sh" "$gs" "$d" 0 >/dev/null
        printf '%s\n' "-gpgpu_shader_cta $k" "-gpgpu_shader_registers 65536" >>"$d/gpgpusim.config"
        (cd "$d" && bash -c ". '$tools/env.sh' '$gs' && exec '$work/$name' \"\$@\"" - "$@" >"$d/log" 2>&1) ||
            { echo "run.sh: GPGPU-Sim failed at $k CTAs: $(tail -n 3 "$d/log")" >&2; exit 1; }
        c=$(grep '^gpu_sim_cycle' "$d/log" | awk '{ s += $3 } END { print s }')
        echo "$name,$k,gpgpusim,$c" >>"$csv"
    fi
done
awk -F, -v p="$name" '
    $1 == p { c[$2, $3] = $4; if (!($2 in seen)) { seen[$2] = 1; ks[n++] = $2 } }
    END {
        printf "%-6s %12s %8s %12s %8s\n", "CTAs", "tpsim", "gain", "GPGPU-Sim", "gain"
        for (i = 0; i < n; i++) {
            k = ks[i]; t = c[k, "tpsim"]; g = c[k, "gpgpusim"]
            printf "%-6s %12s %7.1f%% %12s %7s\n", k, t, 100 * (c[ks[0], "tpsim"] / t - 1), g == "" ? "-" : g,
                g == "" ? "-" : sprintf("%.1f%%", 100 * (c[ks[0], "gpgpusim"] / g - 1))
        }
    }' "$csv"
