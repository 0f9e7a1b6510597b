#!/bin/sh
# run_rm_only.sh -- run by `make test`: experiments/regmutex/run.sh --only on
# a results directory that holds only a committed regmutex.csv (a fresh
# checkout: no points/) runs the points asked for and keeps every other row
# of the CSV as it was.  It runs one point, mriq's baseline (about 5 s): the
# simulator is deterministic, so the committed CSV's row for it comes back
# unchanged too, and so do the per-program tables made from the CSV.
# One line per check: PASS rm_only_NAME or FAIL rm_only_NAME: why.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$root/$BUILD" ;; esac
res="$root/experiments/regmutex/results"
if [ ! -x "$BUILD/experiments/regmutex/rmbench" ]; then
    echo "SKIP rm_only: $BUILD/experiments/regmutex/rmbench is not built (make unit)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$res/regmutex.csv" "$tmp/"
status=0
check() { # NAME CONDITION-RESULT MESSAGE
    if [ "$2" = 0 ]; then echo "PASS rm_only_$1"; else echo "FAIL rm_only_$1: $3"; status=1; fi
}
BUILD="$BUILD" sh "$root/experiments/regmutex/run.sh" --out "$tmp" --only mriq --variant baseline >"$tmp/log" 2>&1
check run $? "run.sh failed: $(tail -n 2 "$tmp/log")"
grep -q "run.sh: 1 points" "$tmp/log"
check one_point $? "not exactly one point ran: $(grep 'points,' "$tmp/log")"
grep -v "^1,mriq,baseline," "$res/regmutex.csv" >"$tmp/a"
grep -v "^1,mriq,baseline," "$tmp/regmutex.csv" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b"
check rows_kept $? "rows of points not run changed: $(diff "$tmp/a" "$tmp/b" | head -n 4 | tr '\n' ' ')"
cmp -s "$res/regmutex.csv" "$tmp/regmutex.csv"
check point_same $? "mriq's baseline gave other cycles than the committed results (stale: run experiments/regmutex/run.sh again): $(diff "$res/regmutex.csv" "$tmp/regmutex.csv" | grep '^[<>]' | tr '\n' ' ')"
cmp -s "$res/exp1.csv" "$tmp/exp1.csv" && cmp -s "$res/exp2.csv" "$tmp/exp2.csv"
check tables_kept $? "exp1.csv or exp2.csv differs from the committed one"
exit $status
