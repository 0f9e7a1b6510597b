#!/bin/sh
# table.sh -- the microbenchmarks beside what the configuration implies, as
# the Markdown table of docs/VALIDATION.md (which doc-checks it against this
# output): measurement, rule, the value or range perf_expect.sh computes
# from the configuration's options, and tpsim's measurement.
#
#   sh tests/ubench/table.sh [CONFIG]      (default gtx480; after make unit)
BUILD=${BUILD:-build}
here=$(dirname "$0")
cfg=${1:-gtx480}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TPSIM="$BUILD/bin/tpsim" sh "$here/perf_expect.sh" "$cfg" >"$tmp/expect" || exit 1
TPSIM_MODE=performance TPSIM_CONFIG=$cfg "$BUILD/tests/ubench/ubench" --ptx "$here" >"$tmp/got" || exit 1
echo "| measurement | rule (perf_expect.sh) | configuration implies | tpsim |"
echo "|---|---|---:|---:|"
# the measurements in the program's order; "lo hi rule" from perf_expect.sh
awk 'NR == FNR { lo[$1] = $2; hi[$1] = $3; r = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", r); rule[$1] = r; next }
     ($1 in lo) { v = (lo[$1] == hi[$1]) ? lo[$1] : lo[$1] " .. " hi[$1]
                  printf "| `%s` | %s | %s | %s |\n", $1, rule[$1], v, $2 }' "$tmp/expect" "$tmp/got"
