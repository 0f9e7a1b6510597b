#!/bin/sh
# run.sh -- runs every test and prints "N passed, M failed" last.
#
# A test program prints one "PASS name" or "FAIL name: ..." line per test.
# Every executable build/tests/test_* is run, then every tests/*/run_*.sh
# script (which print the same kind of lines).
BUILD=${BUILD:-build}
export BUILD
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    if ! "$t" >>"$log" 2>&1; then
        grep -q "^FAIL" "$log" || echo "FAIL $(basename "$t"): exited with an error" >>"$log"
    fi
done
for s in tests/*/run_*.sh; do
    [ -f "$s" ] || continue
    sh "$s" >>"$log" 2>&1 || { grep -q "^FAIL" "$log" || echo "FAIL $s: exited with an error" >>"$log"; }
done
grep -E "^(FAIL|SKIP)" "$log"
passed=$(grep -c "^PASS" "$log")
failed=$(grep -c "^FAIL" "$log")
skipped=$(grep -c "^SKIP" "$log")
[ "$skipped" -gt 0 ] && echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
