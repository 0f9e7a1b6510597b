#!/bin/sh
# sample_check.sh -- the accuracy check of sampled timing (sample.mode;
# docs/TIMING.md, "Sampled timing"): runs each workload in performance mode
# twice, in full and with --sample, and prints per kernel the cycles of both,
# the error, the sampled run's 95% confidence interval, the CPU times of the
# whole run (the program's host code included) and the speed-up, and whether
# the program's output was identical.
#
#   sh tools/sample_check.sh [--quick] [--config NAME] [WORKLOAD...]
#
# A WORKLOAD is a sampwork command line with its words joined by ':'
# ("conv2d:2048", "jacobi:512:300"; tests/sample/sampwork.c lists them) or
# "iterative" (tests/cuda/iterative: k-means and a 300-launch Jacobi, when
# its nvcc-built binary exists).  Without WORKLOADs: the long list below
# (make bench); --quick: a short one (about a minute).  --config: the GPU
# (default gtx480, 15 SMs).  Extra options for both runs: SAMPLE_OPTS
# ("-o key=value ..."); for the sampled run alone: SAMPLE_ONLY_OPTS.
#
# The last lines give the mean and the largest absolute error over the
# kernels, and the exit status is 1 when an output differed or a run failed
# (the error itself is reported, not judged: issue 22's targets are 2% mean,
# 5% worst).  /usr/bin/time measures the CPU seconds (user + system).
BUILD=${BUILD:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
config=gtx480
quick=0
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1; shift ;;
    --config) config=$2; shift 2 ;;
    -*) echo "usage: sample_check.sh [--quick] [--config NAME] [WORKLOAD...]" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -gt 0 ]; then
    list="$*"
elif [ $quick = 1 ]; then
    list="conv2d:1024 jacobi:256:100 mm:128:60 triad:4194304"
else
    list="conv2d:2048 conv2d:4096 mm:768 mmtiled:1024 jacobi:512:300 mm:256:60 iterative triad:16777216 transpose:2048 transpose:4096"
fi
tpsim="$BUILD/bin/tpsim"
work="$BUILD/tests/sample/sampwork"
for f in "$tpsim" "$work"; do
    [ -x "$f" ] || { echo "sample_check: $f is not built (make all unit)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME MODE-ARGS... -- CMD...: stdout to $tmp/NAME.out, summary to $tmp/NAME.err, the CPU seconds
# (user + system, the program's process included: robust to other load on the machine) to $tmp/NAME.t
run() {
    name=$1
    shift
    # shellcheck disable=SC2086
    /usr/bin/time -f "%U %S" -o "$tmp/$name.time" nice "$tpsim" run --config "$config" --mode performance \
        $SAMPLE_OPTS "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    awk '{printf "%.2f\n", $1 + $2}' "$tmp/$name.time" >"$tmp/$name.t"
    return $rc
}

# cycles per kernel from a summary: "KERNEL CYCLES LAUNCHES"
kernels() {
    awk '/^   launches/ {on = 1; next} on && NF == 6 && $1 ~ /^[0-9]+$/ {print $6, $4, $1} on && NF != 6 {on = 0}' "$1"
}

printf '%-18s %-32s %8s %12s %12s %8s %7s %8s %8s %8s  %s\n' workload kernel launches full_cycles sampled \
    "error%" "ci95%" full_cpu_s smp_cpu_s speedup output
status=0
: >"$tmp/errors"
for w in $list; do
    if [ "$w" = iterative ]; then
        cmd="$BUILD/tests/cuda/iterative"
        [ -x "$cmd" ] || { echo "$w: skipped ($cmd not built: tests/cuda needs nvcc)"; continue; }
    else
        cmd="$work $(echo "$w" | tr ':' ' ')"
    fi
    # shellcheck disable=SC2086
    if ! run full -- $cmd; then
        echo "$w: the full run failed: $(head -c 300 "$tmp/full.err")"
        status=1
        continue
    fi
    # shellcheck disable=SC2086
    if ! run smp --sample $SAMPLE_ONLY_OPTS -- $cmd; then
        echo "$w: the sampled run failed: $(head -c 300 "$tmp/smp.err")"
        status=1
        continue
    fi
    same=identical
    cmp -s "$tmp/full.out" "$tmp/smp.out" || { same=DIFFERENT; status=1; }
    kernels "$tmp/full.err" >"$tmp/fk"
    kernels "$tmp/smp.err" >"$tmp/sk"
    tf=$(cat "$tmp/full.t")
    ts=$(cat "$tmp/smp.t")
    # the sampling lines: "  KERNEL: ... +-X% (95% CI)"
    while read -r k fc nl; do
        sc=$(awk -v k="$k" '$1 == k {print $2}' "$tmp/sk")
        ci=$(awk -v k="$k:" '$1 == k {for (i = 1; i <= NF; i++) if ($i ~ /^\+-/) {sub(/^\+-/, "", $i); sub(/%/, "", $i); print $i}}' "$tmp/smp.err")
        echo "$w $k $nl $fc ${sc:-0} ${ci:-0} $tf $ts $same" | awk '{
            err = $4 ? 100 * ($5 - $4) / $4 : 0
            printf "%-18s %-32s %8d %12d %12d %+8.2f %7.2f %8.2f %8.2f %7.1fx  %s\n", $1, substr($2, 1, 32), $3, $4, $5,
                   err, $6, $7, $8, ($8 > 0 ? $7 / $8 : 0), $9
            print (err < 0 ? -err : err) >> "'"$tmp/errors"'"
        }'
    done <"$tmp/fk"
done
awk '{s += $1; if ($1 > m) m = $1; n++} END {if (n) printf "mean |error| %.2f%% over %d kernels, largest %.2f%%\n", s / n, n, m}' "$tmp/errors"
exit $status
