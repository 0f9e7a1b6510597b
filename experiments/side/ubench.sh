#!/bin/sh
# ubench.sh -- component tests on tpsim and GPGPU-Sim 4.2 side by side
# (issue 21: a gap between the simulators is explained by "a small test
# that isolates" the component).  Each test of side_ubench.cu runs at two
# sizes at 1 CTA per SM on the GTX 480 model of each simulator; the
# difference of the two runs' cycles over the difference of their sizes is
# what one unit costs, free of launch, warm-up and loop-exit cycles.
#
#   sh experiments/side/ubench.sh [--gpgpusim SRC] [--out DIR] [TEST...]
#
# Tests (default all): add fma max shld l1ld l2ld bar div cta ctast ctae
# (side_ubench.cu's header says what each does).  The unit of a chain test
# is one iteration of its loop: 8 dependent instructions and the loop's
# own 3 (counter, compare, branch); of bar, 8 barriers and the loop; of
# div, the 8 warps' 64 independent divisions and their loops; of
# cta, ctast and ctae, one CTA on each of the 15 SMs.  Writes DIR/ubench.csv
# (test, simulator, size, cycles; default experiments/side/results) and
# prints the cycles per unit of each simulator and their ratio.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/sims.sh"
gs="" out="$here/results"
while [ $# -gt 0 ]; do
    case "$1" in
        --gpgpusim) gs=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        -*) echo "ubench.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
tests=${*:-add fma max shld l1ld l2ld bar div cta ctast ctae}
for t in $tests; do
    case $t in add|fma|max|shld|l1ld|l2ld|bar|div|cta|ctast|ctae) ;; *) echo "ubench.sh: unknown test $t" >&2; exit 2 ;; esac
done
side_setup ubench.sh
"$NVCC" -cudart shared -no-compress -arch=sm_75 -O3 -o "$work/side_ubench" "$here/side_ubench.cu"
csv="$out/ubench.csv"
echo "test,simulator,size,cycles" >"$csv"
# the two sizes of each test, and the units between them
sizes() {
    case $1 in
        l2ld) echo "128 192 64" ;;    # laps 2 and 3 of the 512 lines: L2 hits in both
        cta|ctast|ctae) echo "150 300 10" ;;  # 10 more CTAs on each of the 15 SMs
        *) echo "64 128 64" ;;
    esac
}
for t in $tests; do
    set -- $(sizes "$t")
    for n in "$1" "$2"; do
        c=$(side_tpsim "$tpsim" 1 "t-$t-$n" "$work/side_ubench" "$t" "$n")
        grep -q "side_ubench: $t $n ok" "$work/t-$t-$n.out" || { echo "ubench.sh: tpsim: $t $n gave a wrong result" >&2; exit 1; }
        echo "$t,tpsim,$n,$c" >>"$csv"
        if [ -n "$gs" ]; then
            c=$(side_gpgpusim "$gs" 1 "g-$t-$n" "$work/side_ubench" "$t" "$n")
            grep -q "side_ubench: $t $n ok" "$work/g-$t-$n/log" || { echo "ubench.sh: GPGPU-Sim: $t $n gave a wrong result" >&2; exit 1; }
            echo "$t,gpgpusim,$n,$c" >>"$csv"
        fi
    done
done
awk -F, -v list="$tests" -v sz="$(for t in $tests; do printf '%s:%s ' "$t" "$(sizes "$t" | tr ' ' ':')"; done)" '
    NR > 1 { c[$1, $2, $3] = $4 }
    END {
        n = split(sz, s, " ")
        printf "%-6s %12s %12s %8s\n", "test", "tpsim", "GPGPU-Sim", "ratio"
        for (i = 1; i <= n; i++) {
            split(s[i], f, ":"); t = f[1]
            a = (c[t, "tpsim", f[3]] - c[t, "tpsim", f[2]]) / f[4]
            if ((t, "gpgpusim", f[3]) in c) {
                g = (c[t, "gpgpusim", f[3]] - c[t, "gpgpusim", f[2]]) / f[4]
                printf "%-6s %12.2f %12.2f %8.2f\n", t, a, g, a / g
            } else
                printf "%-6s %12.2f %12s %8s\n", t, a, "-", "-"
        }
    }' "$csv"
