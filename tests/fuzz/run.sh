#!/bin/sh
# run.sh -- runs every built libFuzzer target for SECONDS seconds each.
#   sh tests/fuzz/run.sh BUILD SECONDS      (make fuzz-run FUZZ_SECONDS=N)
# Target BUILD/fuzz/fuzz_NAME starts from the seeds in tests/fuzz/corpus/NAME
# (fuzz_vasm also from examples/vector, includes spliced in)
# (read only: new inputs go to a scratch directory) and the dictionary
# tests/fuzz/fuzz_NAME.dict when there is one.  A crash, leak or timeout
# leaves its reproducer in BUILD/fuzz/artifacts/ and makes this script fail.
# FUZZ_JOBS targets run at once (default: the host's processors; each
# fuzzer is one process), their verdicts printed in the targets' order.
BUILD=${1:-build}
SECONDS_EACH=${2:-60}
here=$(dirname "$0")
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
status=0
found=0
# one BIN: fuzzes one target; its verdict goes to BUILD/fuzz/NAME.verdict
one() {
    bin=$1
    name=$(basename "$bin")
    short=${name#fuzz_}
    seeds="$here/corpus/$short"
    work="$BUILD/fuzz/work-$short"
    art="$BUILD/fuzz/artifacts/"
    mkdir -p "$work" "$art"
    if [ "$short" = vasm ]; then
        # The vector examples seed the assembler's fuzzer, their .include
        # lines replaced by the files they name (the target refuses
        # .include, so that every error stays in its one input).
        ex="$BUILD/fuzz/seeds-vasm"
        rm -rf "$ex" && mkdir -p "$ex"
        for f in "$here"/../../examples/vector/*.s "$here"/../../examples/vector/*/*.s; do
            awk -v d="$(dirname "$f")" '/^[ \t]*\.include "/ { split($0, q, "\""); p = d "/" q[2];
                while ((getline l < p) > 0) print l; close(p); next } { print }' "$f" \
                >"$ex/$(basename "$(dirname "$f")")_$(basename "$f")"
        done
        seeds="$seeds $ex"
    fi
    dict=""
    [ -f "$here/$name.dict" ] && dict="-dict=$here/$name.dict"
    if "$bin" "$work" $seeds $dict -max_total_time="$SECONDS_EACH" -max_len=65536 \
        -timeout=20 -rss_limit_mb=4096 -artifact_prefix="$art" -print_final_stats=1 \
        >"$BUILD/fuzz/$name.log" 2>&1; then
        echo "PASS fuzz $name" >"$BUILD/fuzz/$name.verdict"
    else
        { echo "FAIL fuzz $name: see $BUILD/fuzz/$name.log and $art"
          tail -30 "$BUILD/fuzz/$name.log"; } >"$BUILD/fuzz/$name.verdict"
    fi
}
running=0
for bin in "$BUILD"/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    found=1
    rm -f "$BUILD/fuzz/$(basename "$bin").verdict"
    echo "fuzz: $(basename "$bin") for ${SECONDS_EACH}s"
    one "$bin" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait; running=0; fi
done
wait
for bin in "$BUILD"/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    v="$BUILD/fuzz/$(basename "$bin").verdict"
    if [ -f "$v" ]; then cat "$v"; else echo "FAIL fuzz $(basename "$bin"): no verdict"; fi
    grep -q "^PASS" "$v" 2>/dev/null || status=1
done
[ "$found" = 1 ] || { echo "run.sh: no fuzz targets in $BUILD/fuzz (make fuzz BUILD=$BUILD)"; exit 1; }
exit $status
