#!/bin/sh
# run_kernels.sh -- runs tpsim's kernel suite through the driver API and
# prints one line per kernel test: "PASS name", "FAIL name: reason" or
# "SKIP name: reason".  tests/run.sh runs it; by hand:
#
#   BUILD=build sh tests/kernels/run_kernels.sh
#
# The runner ($BUILD/tests/kernels/runner) runs the ordinary tests in one
# process.  Tests that poison their context (runner --list marks them
# "isolate") run each in a process of its own, and the device-printf test
# ("stdout") too: its output is compared here, as sorted lines, with
# printf_formats.expected (the pointer printed by %p is normalized).
# Every test the runner lists must report: one missing from the shared run
# (the process crashed or timed out) runs again alone, and if it still does
# not report it is a FAIL.  The sm_80 tests, skipped on a device
# below compute 8.0, are run once more with TPSIM_OPTIONS="device.cc=8.0"
# (tpsim's setting; a GPU ignores it and they stay skipped).  KT_TIMEOUT (seconds, default 900) bounds
# each runner process when timeout(1) exists.
BUILD=${BUILD:-build}
here=$(dirname "$0")
runner="$BUILD/tests/kernels/runner"
limit=${KT_TIMEOUT:-900}

if [ ! -x "$runner" ]; then
    echo "FAIL kernels: $runner is not built (make unit)"
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # run OUTFILE ARGS...: the runner with a time limit
    o=$1
    shift
    if command -v timeout >/dev/null 2>&1; then
        timeout "$limit" "$runner" "$@" >"$o" 2>"$o.err"
    else
        "$runner" "$@" >"$o" 2>"$o.err"
    fi
    echo $? >"$o.rc"
}

# Reports the line of test $1 from file $2, or a FAIL if there is none.
report() {
    line=$(grep -E "^(PASS|FAIL|SKIP) $1(:|\$)" "$2" | head -n 1)
    if [ -n "$line" ]; then
        echo "$line"
    else
        why=$(head -c 300 "$2.err" | tr '\n' ' ')
        echo "FAIL $1: no result (runner exit status $(cat "$2.rc"))${why:+: $why}"
    fi
}

if ! "$runner" --list >"$tmp/list" 2>"$tmp/list.err"; then
    echo "FAIL kernels: runner --list failed: $(head -c 300 "$tmp/list.err")"
    exit 1
fi

run "$tmp/main" "$here"
while read -r name kind; do
    [ -n "$kind" ] && continue
    line=$(report "$name" "$tmp/main")
    case "$line" in
    "FAIL $name: no result"*)
        # The shared process died before this test reported (maybe in an
        # earlier test): run it alone, so one crash does not hide the rest.
        run "$tmp/$name" "$here" --only "$name"
        report "$name" "$tmp/$name"
        ;;
    "SKIP $name: needs compute 8.0"*)
        # On tpsim, which reports 7.5 unless told otherwise, run the sm_80
        # tests again as a compute 8.0 device (a GPU ignores TPSIM_OPTIONS).
        (
            TPSIM_OPTIONS="${TPSIM_OPTIONS:-} device.cc=8.0"
            export TPSIM_OPTIONS
            run "$tmp/$name" "$here" --only "$name"
        )
        report "$name" "$tmp/$name"
        ;;
    *) echo "$line" ;;
    esac
done <"$tmp/list"

while read -r name kind; do
    case "$kind" in
    isolate)
        run "$tmp/$name" "$here" --only "$name"
        report "$name" "$tmp/$name"
        ;;
    stdout)
        run "$tmp/$name" "$here" --only "$name"
        line=$(report "$name" "$tmp/$name")
        case "$line" in
        PASS*)
            grep '^dp ' "$tmp/$name" |
                sed -E 's/^dp ptr (0x)?[0-9a-fA-F]+$/dp ptr <ptr>/' | LC_ALL=C sort >"$tmp/$name.got"
            LC_ALL=C sort "$here/$name.expected" >"$tmp/$name.want"
            if cmp -s "$tmp/$name.got" "$tmp/$name.want"; then
                echo "PASS $name"
            else
                first=$(diff "$tmp/$name.want" "$tmp/$name.got" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')
                echo "FAIL $name: device printf output differs from $name.expected (sorted): $first"
            fi
            ;;
        *) echo "$line" ;;
        esac
        ;;
    esac
done <"$tmp/list"
