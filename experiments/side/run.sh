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
. "$here/sims.sh"
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
side_setup run.sh
name=$(basename "$prog" .cu)
"$NVCC" -cudart shared -no-compress -arch=sm_75 -O3 -o "$work/$name" "$prog"
csv="$out/side.csv"
[ -f "$csv" ] || echo "program,ctas,simulator,cycles" >"$csv"
# drop this program's earlier rows
grep -v "^$name," "$csv" >"$work/csv" || true
mv "$work/csv" "$csv"
for k in $ctas; do
    c=$(side_tpsim "$tpsim" "$k" "t$k" "$work/$name" "$@" | awk '{ s += $1 } END { print s }')
    [ -n "$c" ] || exit 1
    echo "$name,$k,tpsim,$c" >>"$csv"
    if [ -n "$gs" ]; then
        c=$(side_gpgpusim "$gs" "$k" "g$k" "$work/$name" "$@" | awk '{ s += $1 } END { print s }')
        [ -n "$c" ] || exit 1
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
