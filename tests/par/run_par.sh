#!/bin/sh
# run_par.sh -- parallel SMs (sim.threads, docs/TIMING.md "Parallel SMs")
# give the same statistics as one thread.  The kernel suite (tests/kernels:
# the shared run, the tests that run alone -- the faults among them -- and
# the sm_80 ones as a compute 8.0 device) and the PolyBench kernels
# (tests/polybench, the sizes make test runs) run in performance mode with
# sim.threads=1 and 2 (TPSIM_THREADS), and with sim.adapt=0 so that every
# cycle with two SMs or more is shared among the threads, whatever the
# host's load; each pair of statistics files (TPSIM_STATS) must be the same
# byte for byte but for the option sim.threads and the "host" line (wall
# seconds, peak memory).  One line per comparison: "PASS par_NAME" or
# "FAIL par_NAME: ...".  By hand:
#
#   BUILD=build sh tests/par/run_par.sh
BUILD=${BUILD:-build}
kdir=tests/kernels
krun="$BUILD/tests/kernels/runner"
prun="$BUILD/tests/polybench/polybench"
limit=${PAR_TIMEOUT:-900}

for r in "$krun" "$prun"; do
    if [ ! -x "$r" ]; then
        echo "FAIL par: $r is not built (make unit)"
        exit 1
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
to=""
command -v timeout >/dev/null 2>&1 && to="timeout $limit"

# same NAME THREADS1OUT THREADS2OUT: compares two runs' statistics
same() {
    for f in "$2" "$3"; do
        if [ ! -s "$f.json" ]; then
            echo "FAIL par_$1: no statistics file from $(basename "$f") ($(head -c 200 "$f.err" | tr '\n' ' '))"
            return
        fi
        grep -v -e '"sim\.threads":' -e '^  "host":' "$f.json" >"$f.norm"
    done
    if ! cmp -s "$2.out" "$3.out"; then
        echo "FAIL par_$1: the programs' outputs differ with 1 and 2 threads: $(diff "$2.out" "$3.out" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')"
    elif cmp -s "$2.norm" "$3.norm"; then
        echo "PASS par_$1 ($(grep -c '"cycles":' "$2.norm") launches)"
    else
        echo "FAIL par_$1: statistics differ with 1 and 2 threads: $(diff "$2.norm" "$3.norm" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')"
    fi
}

# pair NAME COMMAND...: the command with 1 and with 2 threads, compared
pair() {
    name=$1
    shift
    for t in 1 2; do
        TPSIM_MODE=performance TPSIM_THREADS=$t TPSIM_STATS="$tmp/$name.$t.json" \
            TPSIM_OPTIONS="${TPSIM_OPTIONS:-} sim.adapt=0" $to "$@" >"$tmp/$name.$t.out" 2>"$tmp/$name.$t.err"
    done
    same "$name" "$tmp/$name.1" "$tmp/$name.2"
}

"$krun" --list >"$tmp/list" || { echo "FAIL par: $krun --list failed"; exit 1; }
pair kernels "$krun" "$kdir"
while read -r name kind; do
    case "$kind" in
    isolate | stdout) pair "kernels_$name" "$krun" "$kdir" --only "$name" ;;
    esac
done <"$tmp/list"
# the sm_80 tests as a compute 8.0 device (run_kernels.sh does the same)
for name in half_sm80 redux_sm80; do
    (
        TPSIM_OPTIONS="${TPSIM_OPTIONS:-} device.cc=8.0"
        export TPSIM_OPTIONS
        pair "kernels_$name" "$krun" "$kdir" --only "$name"
    )
done
pair polybench "$prun" --ptx tests/polybench $("$prun" --list)
