#!/bin/sh
# run_suites_opt.sh -- run by `make test`: the experiments' --suites option
# (experiments/suites.md) refuses, with exit status 2 and a message that names
# the missing directory or suite and experiments/suites.md, a DIR that does
# not exist, a DIR without one of the suites, and a missing DIR.  Nothing is
# built or simulated (the suite runs themselves are not part of make test).
# One line per case: PASS suites_opt_NAME or FAIL suites_opt_NAME: why.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/partial/rodinia/cuda/gaussian" "$tmp/partial/polybench/CUDA/GEMM"
status=0
# NAME SCRIPT EXPECTED-TEXT ARGS...: exit status 2, stderr contains EXPECTED-TEXT
case_() {
    n=$1 s=$2 want=$3
    shift 3
    sh "$root/experiments/$s/run.sh" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ $rc -ne 2 ]; then
        echo "FAIL suites_opt_$n: exit status $rc, expected 2 ($(tail -1 "$tmp/err"))"; status=1
    elif ! grep -q -- "$want" "$tmp/err"; then
        echo "FAIL suites_opt_$n: the message does not say \"$want\": $(tail -1 "$tmp/err")"; status=1
    elif [ "$n" != "${n%_dir}" ] && ! grep -q "experiments/suites.md" "$tmp/err"; then
        echo "FAIL suites_opt_$n: the message does not point to experiments/suites.md: $(tail -1 "$tmp/err")"; status=1
    else
        echo "PASS suites_opt_$n"
    fi
}
for s in regmutex warppool; do
    case_ "${s}_no_dir" "$s" "no such directory" --suites "$tmp/none" --out "$tmp/o" 
    case_ "${s}_no_arg" "$s" "needs a directory" --suites
done
# the partial checkout has rodinia and polybench but no parboil
case_ regmutex_partial_dir regmutex "no parboil checkout" --suites "$tmp/partial" --out "$tmp/o"
case_ warppool_partial_dir warppool "no parboil checkout" --suites "$tmp/partial"
[ -e "$tmp/o" ] && { echo "FAIL suites_opt_nothing_written: a refused run wrote $tmp/o"; status=1; }
exit $status
