#!/bin/sh
# suites.sh -- the public suites' own programs (built by the experiments'
# `--suites` runs into build/suites/: experiments/suites.md) run with their
# experiment arguments, each checked by experiments/suites/suites.sh verify
# (the suite's own check, or ours), from the repository root.  On a real GPU
# (tools/device/run.sh's machine) with TPSIM unset; under tpsim with
# TPSIM=build/bin/tpsim (`tpsim run` in functional mode, with the program's
# own options, suites.sh opts) for the comparison.
#
#   OUT=DIR [TPSIM=...] [SUITES=build/suites] sh tools/device/suites.sh [NAME...]
#
# One line per program: NAME, exit status, verify ok/failed; the logs and the
# programs' output files in DIR/suites.tar.gz (NAME.log, NAME.FILE).
OUT=${OUT:-/tmp/device-out}
SUITES=${SUITES:-build/suites}
S=$PWD/experiments/suites/suites.sh
TPSIM=${TPSIM:-}
case $TPSIM in "" | /*) ;; *) TPSIM=$PWD/$TPSIM ;; esac
[ -d build/device/lib ] && [ -z "$TPSIM" ] && export LD_LIBRARY_PATH="$PWD/build/device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
tmp=$OUT/suites
mkdir -p "$tmp"
names=$*
[ -n "$names" ] || names=$(cd "$SUITES/regmutex" && ls)
for n in $names; do
    d=$SUITES/regmutex/$n
    [ -x "$d/prog" ] || continue
    runner=""
    if [ -n "$TPSIM" ]; then
        runner="$TPSIM run"
        for o in $(sh "$S" opts "$n"); do runner="$runner -o $o"; done
        runner="$runner --"
    fi
    # shellcheck disable=SC2046,SC2086
    (cd "$d" && timeout "${SUITE_TIMEOUT:-300}" $runner $(sh "$S" args "$n")) >"$tmp/$n.log" 2>&1
    rc=$?
    if sh "$S" verify "$n" "$SUITES/regmutex" "$tmp/$n.log" >/dev/null 2>&1; then v=ok; else v=failed; fi
    for f in output.out cp.out cutcp.out mriq.out sad.out spmv.out tpacf.out result.txt; do
        [ -f "$d/$f" ] && cp "$d/$f" "$tmp/$n.$f"
    done
    echo "$n rc=$rc verify=$v"
done
tar -czf "$OUT/suites.tar.gz" -C "$OUT" suites && rm -rf "$tmp"
