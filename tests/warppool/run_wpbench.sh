#!/bin/sh
# run_wpbench.sh -- run by `make test`: the WarpPool experiments' 18 kernels
# (experiments/warppool) at their --small sizes, every output element checked
# against the CPU by wpbench; in performance mode also with each LD/ST front
# end (banked L1D, WarpPool, MRPB), whose results must be the same.  One line
# per kernel and front end: PASS wpbench_NAME[/OPTION] or FAIL ...: why.
b=${BUILD:-build}/experiments/warppool/wpbench
if [ ! -x "$b" ]; then
    echo "SKIP wpbench: $b not built (make unit)"
    exit 0
fi
status=0
"$b" --small | sed 's/^PASS /PASS wpbench_/; s/^FAIL /FAIL wpbench_/' || status=1
if [ "${TPSIM_MODE:-}" = performance ]; then
    for o in l1d.banks=8 warppool=1 mrpb=1; do
        TPSIM_OPTIONS="${TPSIM_OPTIONS:-} $o" "$b" --small |
            sed "s|^PASS \([^ ]*\)|PASS wpbench_\1/$o|; s|^FAIL \([^:]*\):|FAIL wpbench_\1/$o:|" || status=1
    done
fi
exit $status
