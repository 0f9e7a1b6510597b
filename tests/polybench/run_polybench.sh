#!/bin/sh
# run_polybench.sh -- runs the PolyBench-style kernels of tests/polybench
# through the driver API (functional mode unless TPSIM_MODE says otherwise)
# and prints one line per benchmark: "PASS polybench_NAME" or
# "FAIL polybench_NAME: reason".  tests/run.sh runs it; by hand:
#
#   BUILD=build sh tests/polybench/run_polybench.sh [NAME...]
#
# The runner ($BUILD/tests/polybench/polybench) checks every output element
# against a CPU reference within the float error bound its header derives.
# Every benchmark it lists must report: if the process dies before one does,
# that one is a FAIL with the runner's exit status and the start of stderr.
# PB_TIMEOUT (seconds, default 300) bounds the run when timeout(1) exists.
BUILD=${BUILD:-build}
here=$(dirname "$0")
runner="$BUILD/tests/polybench/polybench"
limit=${PB_TIMEOUT:-300}

if [ ! -x "$runner" ]; then
    echo "FAIL polybench: $runner is not built (make unit)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -gt 0 ]; then
    names="$*"
else
    names=$("$runner" --list) || { echo "FAIL polybench: $runner --list failed"; exit 1; }
fi
# shellcheck disable=SC2086
if command -v timeout >/dev/null 2>&1; then
    timeout "$limit" "$runner" --ptx "$here" $names >"$tmp/out" 2>"$tmp/err"
else
    "$runner" --ptx "$here" $names >"$tmp/out" 2>"$tmp/err"
fi
rc=$?
for n in $names; do
    line=$(grep -E "^(PASS|FAIL) $n(:|\$)" "$tmp/out" | head -n 1)
    if [ -n "$line" ]; then
        echo "$line" | sed -E "s/^(PASS|FAIL) /\\1 polybench_/"
    else
        why=$(head -c 300 "$tmp/err" | tr '\n' ' ')
        echo "FAIL polybench_$n: no result (runner exit status $rc)${why:+: $why}"
    fi
done
exit 0
