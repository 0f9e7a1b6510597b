#!/bin/sh
# run_docs.sh -- the documentation stays true: every command block of
# README.md, docs/*.md and the examples' and experiments' READMEs marked
# `<!-- doc-check run -->` is run, and the output and numbers quoted beside
# it are checked against what it prints today (tools/doccheck.c says how).
# First, the checker itself on a small document: it must pass a true one
# and fail when a quoted number, a count or an output line changes.
BUILD=${BUILD:-build}
DC="$BUILD/tests/doccheck"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
if [ ! -x "$DC" ]; then
    fail doccheck "$DC is not built (make unit)"
    exit 0
fi

# ---- the checker ---------------------------------------------------------------------------
# selfcheck NAME WANT(PASS|FAIL) MARKDOWN: runs doccheck on the text
selfcheck() {
    printf '%s\n' "$3" >"$tmp/d.md"
    (cd "$tmp" && "$OLDPWD/$DC" d.md) >"$tmp/d.out" 2>&1
    got=$(cut -d' ' -f1 "$tmp/d.out" | sort -u | tr '\n' ' ')
    [ "$got" = "$2 " ] && pass "$1" || fail "$1" "want $2: $(cat "$tmp/d.out")"
}
doc='Run it:
<!-- doc-check run -->
```sh
echo "cycles: $((76900 + 18))"; echo "ratio 0.7103, 1,234 points"; echo "about 1.9 s"
```
prints `cycles: 76918`, a ratio of 0.71 and 1,234 points in about 2 s.
<!-- doc-check expect "cycles: 76918" "ratio of 0.71" -->
<!-- doc-check expect noise=10% "about 2 s" -->'
selfcheck doccheck_true PASS "$(printf '%s' "$doc" | sed 's/ratio of 0.71/ratio 0.71/g')"
changed=$(printf '%s' "$doc" | sed 's/ratio of 0.71/ratio 0.71/g; s/cycles: 76918/cycles: 76917/g')
selfcheck doccheck_cycles_changed FAIL "$changed"
selfcheck doccheck_rounding FAIL "$(printf '%s' "$doc" | sed 's/ratio of 0.71/ratio 0.72/g')"
selfcheck doccheck_not_in_text FAIL "$doc"
selfcheck doccheck_noise FAIL "$(printf '%s' "$doc" | sed 's/ratio of 0.71/ratio 0.71/g; s/about 2 s/about 3 s/g')"
selfcheck doccheck_output_block PASS 'x
<!-- doc-check run -->
```sh
printf "a 1\nb 22,000 cycles\nc 3\n"
```
<!-- doc-check output -->
```
a 1
...
c 3
```'
selfcheck doccheck_output_changed FAIL 'x
<!-- doc-check run -->
```sh
printf "a 1\nb 22,001 cycles\nc 3\n"
```
<!-- doc-check output -->
```
b 22,000 cycles
```'
# exact: a generated table must be the command's output row for row
tbl='x
<!-- doc-check run -->
```sh
printf "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n"
```
<!-- doc-check output exact -->
| a | b |
|---|---|
| 1 | 2 |
| 3 | 4 |'
selfcheck doccheck_exact PASS "$tbl"
selfcheck doccheck_exact_row_lost FAIL "$(printf '%s' "$tbl" | sed 's/| 3 | 4 |\\n//')"
selfcheck doccheck_exact_row_gained FAIL "$(printf '%s' "$tbl" | sed '$d')"
selfcheck doccheck_exact_changed FAIL "$(printf '%s' "$tbl" | sed 's/^| 1 | 2 |$/| 1 | 5 |/')"
selfcheck doccheck_status FAIL 'x
<!-- doc-check run -->
```sh
false
```'

# ---- the documents ---------------------------------------------------------------------------
# The documents name build/'s programs; a sanitizer or other build, and the
# suite's second pass in performance mode, would only repeat the same runs.
if [ "$BUILD" != build ] || [ -n "${TPSIM_MODE:-}" ]; then
    echo "SKIP docs: the documents' commands run in the default build's pass only (build/, no TPSIM_MODE)"
    exit 0
fi
unset TPSIM_CONFIG TPSIM_OPTIONS TPSIM_MODE TPSIM_TRACE TPSIM_STATS
docs=$(ls README.md docs/*.md examples/*/README.md experiments/*/README.md 2>/dev/null)
"$DC" $docs
exit 0
