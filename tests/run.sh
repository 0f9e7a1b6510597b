#!/bin/sh
# run.sh -- runs every test and prints "N passed, M failed" last.
#
# A test program prints one "PASS name" or "FAIL name: ..." line per test.
# Every executable build/tests/test_* is run, then every tests/*/run_*.sh
# script (which print the same kind of lines).
#
# The tests run TEST_JOBS at a time (default: the host's processors), the
# longest first; each writes its own log and the logs are read back in a
# fixed order, so the report does not depend on which finished first.  Two
# scripts that share files run one after the other in one job:
# tests/cuda/run_cuda.sh and tests/check/run_check.sh both build and run the
# programs of $BUILD/tests/cuda.  TEST_JOBS=1 runs them all in turn.
BUILD=${BUILD:-build}
export BUILD
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# The jobs, one line each: the long ones first (measured: tests/par's two,
# tests/regmutex's suites and the documents take minutes, the rest seconds).
first="tests/par/run_par.sh tests/regmutex/run_suite.sh tests/par/run_skip.sh tests/docs/run_docs.sh"
{
    for s in $first; do [ -f "$s" ] && echo "$s"; done
    echo "tests/cuda/run_cuda.sh tests/check/run_check.sh"
    for s in tests/*/run_*.sh; do
        case " $first tests/cuda/run_cuda.sh tests/check/run_check.sh " in
            *" $s "*) ;;
            *) echo "$s" ;;
        esac
    done
    for t in "$BUILD"/tests/test_*; do [ -x "$t" ] && echo "$t"; done
} >"$logs/jobs"

# one JOB...: runs the job's tests in turn, each into its own log
cat >"$logs/one.sh" <<'EOF'
for t in "$@"; do
    log="$LOGS/$(echo "$t" | tr '/' '_').log"
    start=$(date +%s)
    case "$t" in
        *.sh) sh "$t" >"$log" 2>&1 ;;
        *) "$t" >"$log" 2>&1 ;;
    esac
    rc=$?
    [ -f "$t" ] || echo "FAIL $t: not found" >>"$log"
    if [ "$rc" -ne 0 ] && ! grep -q "^FAIL" "$log"; then
        echo "FAIL $(basename "$t"): exited with an error" >>"$log"
    fi
    echo "$(( $(date +%s) - start )) $t" >"$log.time"
done
EOF
LOGS=$logs xargs -P "$jobs" -L 1 sh "$logs/one.sh" <"$logs/jobs"

log="$logs/all"
for t in $(cat "$logs/jobs"); do
    f="$logs/$(echo "$t" | tr '/' '_').log"
    if [ -f "$f" ]; then cat "$f" >>"$log"; else echo "FAIL $t: did not run" >>"$log"; fi
done
grep -E "^(FAIL|SKIP)" "$log"
passed=$(grep -c "^PASS" "$log")
failed=$(grep -c "^FAIL" "$log")
skipped=$(grep -c "^SKIP" "$log")
[ "$skipped" -gt 0 ] && echo "($skipped skipped)"
echo "(the slowest, seconds: $(cat "$logs"/*.time 2>/dev/null | sort -rn | head -n 4 | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1}'); $jobs at a time)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
