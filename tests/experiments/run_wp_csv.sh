#!/bin/sh
# run_wp_csv.sh -- run by `make test`: experiments/suites/wp_csv.py, the
# WarpPool suites' CSV (experiments/warppool/run.sh --suites).  Bar "a" has
# points (statistics of two launches of kernel "kern" and one of another
# kernel, under every front end); bar "b" has none but rows in the CSV
# before the run (OLD.csv: a fresh checkout's committed results, run again
# with --only a); bar "c" has neither.  Checks: a's rows are made from its
# points (its kernel's launches summed, the speed-up over the baseline), b
# keeps its old rows exactly, c's rows say `missing`, and without OLD.csv b
# is `missing` too.  One line per case: PASS wp_csv_NAME or FAIL wp_csv_NAME: why.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
W=$root/experiments/suites/wp_csv.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
pass() { echo "PASS wp_csv_$1"; }
fail() { echo "FAIL wp_csv_$1: $2"; status=1; }

mkdir -p "$tmp/pts"
printf 'a kern polybench memory-divergent\nb kern2 rodinia cache-limited\nc kern3 parboil bandwidth-limited\n' >"$tmp/list"
for fe in baseline banked warppool mrpb l1_128k; do
    case $fe in baseline) c=1000 ;; *) c=500 ;; esac
    cat >"$tmp/pts/a-$fe.json" <<EOF
{"kernels": [{"name": "_Z4kernv", "cycles": $c, "warp_instructions": 100, "l1d": {"accesses": 10, "misses": 4}},
             {"name": "_Z5otherv", "cycles": 7777, "warp_instructions": 1},
             {"name": "_Z4kernv", "cycles": $c, "warp_instructions": 100, "l1d": {"accesses": 10, "misses": 4}}]}
EOF
    echo ok >"$tmp/pts/a-$fe.status"
done
hdr=$(python3 "$W" "$tmp/pts" "$tmp/list" "$tmp/none.csv" && head -n 1 "$tmp/none.csv")
{
    echo "$hdr"
    echo "a/gtx480-l1-32k/frontend=baseline,a,gtx480-l1-32k,baseline,1,old-a"
    for fe in baseline banked warppool mrpb l1_128k; do
        echo "b/gtx480-l1-32k/frontend=$fe,b,gtx480-l1-32k,$fe,4242,old-b-$fe"
    done
} >"$tmp/old.csv"

if ! python3 "$W" "$tmp/pts" "$tmp/list" "$tmp/out.csv" "$tmp/old.csv" 2>"$tmp/err"; then
    fail run "wp_csv.py failed: $(cat "$tmp/err")"
    exit 1
fi
# a: made from its points: kern's two launches (2000 and 1000 cycles), speed-up 2
row=$(grep "^a/gtx480-l1-32k/frontend=warppool," "$tmp/out.csv")
cyc=$(echo "$row" | cut -d, -f5)
if [ "$cyc" != 1000 ]; then fail points "a's warppool cycles '$cyc', expected 1000 (two launches of 500): $row"
elif ! echo "$row" | grep -q ",2,ok,\$"; then fail points "a's warppool row lacks speed-up 2 and ok: $row"
elif [ "$(grep "^a/gtx480-l1-32k/frontend=baseline," "$tmp/out.csv" | cut -d, -f5)" != 2000 ]; then
    fail points "a's baseline: $(grep "^a/gtx480-l1-32k/frontend=baseline," "$tmp/out.csv")"
else pass points; fi
# b: its old rows, all five, unchanged and in the list's place
if [ "$(grep -c "^b/" "$tmp/out.csv")" != 5 ] || [ "$(grep "^b/" "$tmp/out.csv")" != "$(grep "^b/" "$tmp/old.csv")" ]; then
    fail kept "b's rows: $(grep "^b/" "$tmp/out.csv")"
elif [ "$(sed -n 2,11p "$tmp/out.csv" | cut -d, -f2 | tr '\n' ' ')" != "a a a a a b b b b b " ]; then
    fail kept "rows out of the list's order: $(cut -d, -f2 "$tmp/out.csv" | tr '\n' ' ')"
else pass kept; fi
# c: no points, no old rows: missing
if [ "$(grep "^c/" "$tmp/out.csv" | grep -c ",missing,\$")" != 5 ]; then fail missing "c's rows: $(grep "^c/" "$tmp/out.csv")"
else pass missing; fi
# without OLD.csv, b is missing as before
python3 "$W" "$tmp/pts" "$tmp/list" "$tmp/out2.csv"
if [ "$(grep "^b/" "$tmp/out2.csv" | grep -c ",missing,\$")" != 5 ]; then fail no_old "b's rows: $(grep "^b/" "$tmp/out2.csv")"
else pass no_old; fi
exit $status
