#!/bin/sh
# run_report.sh -- tpsim report, tpsim run --report and tpsim sweep --report
# (docs/REPORT.md).  Prints PASS/FAIL/SKIP lines (tests/run.sh counts them).
#   - the page of a small program (tpsim-launch running saxpy) in
#     performance mode (with stats.interval), functional mode and under
#     --check is self-contained: no http:/https: address, no <script src>,
#     <link>, @import or url(), every href an anchor of the page itself;
#   - it has one launches-table row per launch of the statistics file, one
#     issue-slot <rect> per non-zero issue.* category of each launch, and
#     every number on it is the file's (check_page.py, with python3; SKIP
#     without); functional mode has no timing chart; the findings of
#     --check are listed;
#   - the mechanism's panel appears with WarpPool and RegMutex only;
#   - a module with .loc lines gets the source lines of its hottest
#     instructions;
#   - the page of a 20-launch program is under 2 MB, even with
#     stats.interval=1 (over 1000 intervals a launch);
#   - names and strings of the file are escaped (a <script> in a member
#     name stays text);
#   - bad input: a missing file, invalid JSON (file:line:col), JSON that is
#     not a statistics file, no -o: one line and status 1 (2 for usage);
#     tpsim run --report into a directory that does not exist: status 2, one
#     line, the program not started;
#   - tpsim sweep --report: an index with a row per point and a page per
#     point with statistics;
#   - then tests/report/browser.sh renders a page in headless Chromium
#     (SKIP without it).
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
LAUNCH="$BUILD/bin/tpsim-launch"
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset TPSIM_CONFIG TPSIM_OPTIONS TPSIM_MODE TPSIM_TRACE TPSIM_STATS
pass() { echo "PASS report_$1"; }
fail() { echo "FAIL report_$1: $2"; }

if [ ! -x "$TPSIM" ] || [ ! -x "$LAUNCH" ]; then
    echo "FAIL report: $TPSIM or $LAUNCH not built (make)"
    exit 0
fi
if command -v python3 >/dev/null 2>&1; then have_py=1; else have_py=; fi

# saxpy N [ARGS...]: tpsim-launch's saxpy on 4096 floats, N launches
saxpy() {
    n=$1
    shift
    "$TPSIM" run --no-summary "$@" -- "$LAUNCH" examples/driver/saxpy.ptx saxpy --grid 16 --block 256 \
        --repeat "$n" f32:2 buf:16k:seqf buf:16k:ones u32:4096
}

# selfcontained NAME PAGE: nothing on the page that would reach outside it
selfcontained() {
    if grep -qiE 'https?:|<script[^>]* src|<link|@import|url\(|<iframe|<img' "$2"; then
        fail "$1_selfcontained" "$(grep -oiE '.{0,40}(https?:|<script[^>]* src|<link|@import|url\(|<iframe|<img).{0,40}' "$2" | head -3)"
    elif grep -o 'href="[^"]*"' "$2" | grep -qv 'href="#'; then
        fail "$1_selfcontained" "an href that is not an anchor: $(grep -o 'href="[^"]*"' "$2" | grep -v 'href="#' | head -3)"
    else
        pass "$1_selfcontained"
    fi
}

# rows NAME STATS PAGE: one launches-table row per launch of the file
rows() {
    want=$(grep -c '^      "name": ' "$2")
    got=$(grep -c '<tr class="launch">' "$3")
    if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then pass "$1_rows"; else fail "$1_rows" "$got rows, $want launches"; fi
}

# bars NAME STATS PAGE: launch 0's issue-slot bar has a rect per non-zero issue.* (shell, no python)
bars() {
    want=$(awk '/^      "issue": \{/ {on=1; next} on && /^      \}/ {exit} on && !/: 0,?$/ {n++} END {print n+0}' "$2")
    got=$(sed -n '/<svg class="breakdown" id="breakdown-0"/,/<\/svg>/p' "$3" | grep -c '<rect data-k="issue\.')
    if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then pass "$1_bars"; else fail "$1_bars" "$got rects, want $want"; fi
}

# numbers NAME STATS PAGE: every number on the page is the file's, the charts' bars and points
numbers() {
    if [ -z "$have_py" ]; then
        echo "SKIP report_$1_numbers: python3 is not installed"
    elif python3 "$here/check_page.py" "$2" "$3" >"$tmp/check.out" 2>&1; then
        pass "$1_numbers"
    else
        fail "$1_numbers" "$(grep -v '^ok' "$tmp/check.out" | head -5)"
    fi
}

# ---- performance mode, with a timeline --------------------------------------------------------
if saxpy 3 --mode performance --config gtx480 -o stats.interval=200 --stats "$tmp/perf.json" \
    --report "$tmp/perf.html" >"$tmp/out" 2>"$tmp/err" && [ -s "$tmp/perf.html" ]; then
    pass perf_written
    selfcontained perf "$tmp/perf.html"
    rows perf "$tmp/perf.json" "$tmp/perf.html"
    bars perf "$tmp/perf.json" "$tmp/perf.html"
    numbers perf "$tmp/perf.json" "$tmp/perf.html"
    n=$(grep -c '<svg class="timeline"' "$tmp/perf.html")
    [ "$n" = 15 ] && pass perf_timelines || fail perf_timelines "$n timeline charts, want 15 (5 per launch)"
    grep -q 'class="mechanism"' "$tmp/perf.html" && fail perf_no_mechanism "a mechanism panel without one" ||
        pass perf_no_mechanism
    # tpsim report on the same file writes the same page but for the name it shows
    "$TPSIM" report "$tmp/perf.json" -o "$tmp/again.html" 2>"$tmp/err"
    rc=$?
    diff "$tmp/perf.html" "$tmp/again.html" | grep '^[<>]' | grep -v '<title>\|The statistics of' >"$tmp/diff"
    if [ $rc = 0 ] && [ ! -s "$tmp/diff" ]; then pass command_same_page
    else fail command_same_page "status $rc: $(head -c 300 "$tmp/err" "$tmp/diff")"; fi
else
    fail perf_written "status $?: $(head -c 300 "$tmp/err")"
fi

# ---- functional mode ------------------------------------------------------------------------------
if saxpy 2 --stats "$tmp/func.json" --report "$tmp/func.html" >"$tmp/out" 2>"$tmp/err" && [ -s "$tmp/func.html" ]; then
    selfcontained func "$tmp/func.html"
    rows func "$tmp/func.json" "$tmp/func.html"
    numbers func "$tmp/func.json" "$tmp/func.html"
    if grep -qE 'class="(breakdown|memchart|timeline)"' "$tmp/func.html"; then
        fail func_no_timing "timing charts in functional mode"
    else
        pass func_no_timing
    fi
else
    fail func_written "status $?: $(head -c 300 "$tmp/err")"
fi

# ---- fastforward.kernels: functional launches among timed ones ---------------------------------------
saxpy 3 --mode performance -o fastforward.kernels=2 --stats "$tmp/ff.json" --report "$tmp/ff.html" >/dev/null 2>&1
n=$(grep -c '<svg class="breakdown"' "$tmp/ff.html" 2>/dev/null)
if [ "$n" = 1 ]; then numbers fastforward "$tmp/ff.json" "$tmp/ff.html"
else fail fastforward "$n issue-slot bars for 1 timed launch of 3"; fi

# ---- the mechanisms' panels ---------------------------------------------------------------------------
for m in "warppool=1:WarpPool" "regs.policy=regmutex:RegMutex"; do
    opt=${m%%:*} want=${m#*:}
    saxpy 1 --mode performance --config gtx480 -o "$opt" --stats "$tmp/m.json" --report "$tmp/m.html" >/dev/null 2>&1
    if grep -q "<h4 class=\"mechanism\">[^<]*$want" "$tmp/m.html" 2>/dev/null; then
        numbers "mechanism_$want" "$tmp/m.json" "$tmp/m.html"
    else
        fail "mechanism_$want" "no $want panel with -o $opt"
    fi
done

# ---- source lines: a module with .loc (nvcc -lineinfo) ----------------------------------------------
"$TPSIM" run --no-summary --mode performance --stats "$tmp/src.json" --report "$tmp/src.html" -- \
    "$LAUNCH" tests/ptx/debug.sm_75.ptx _Z2dkPii --grid 1 --block 32 buf:4k u32:32 >/dev/null 2>&1
if grep -q '<th>source</th>' "$tmp/src.html" 2>/dev/null && grep -q 'data-k="src"[^>]*>[^<]*debug.cu:[0-9]' "$tmp/src.html"; then
    pass source_lines
    numbers source "$tmp/src.json" "$tmp/src.html"
else
    fail source_lines "no source column in the hottest instructions of tests/ptx/debug.sm_75.ptx"
fi

# ---- --check findings ------------------------------------------------------------------------------------
chk="$BUILD/tests/check/t_checks"
if [ -x "$chk" ]; then
    "$TPSIM" run --no-summary --check race --stats "$tmp/chk.json" --report "$tmp/chk.html" -- "$chk" --child race \
        >/dev/null 2>&1
    want=$(grep -o '"kind": "race"' "$tmp/chk.json" 2>/dev/null | wc -l)
    got=$(grep -c '<tr class="finding">' "$tmp/chk.html" 2>/dev/null)
    if [ "$want" -gt 0 ] && [ "$got" = "$want" ] && grep -q 'id="checks-table"' "$tmp/chk.html"; then
        pass check_findings
        numbers check "$tmp/chk.json" "$tmp/chk.html"
    else
        fail check_findings "$got finding rows, the file has $want"
    fi
else
    echo "SKIP report_check_findings: $chk is not built (make unit)"
fi

# ---- 20 launches: under 2 MB, even with a timeline row every cycle ----------------------------------------
"$TPSIM" run --no-summary --mode performance --config gtx480 -o stats.interval=1 --stats "$tmp/k20.json" \
    --report "$tmp/k20.html" -- "$LAUNCH" examples/driver/saxpy.ptx saxpy --grid 64 --block 256 --repeat 20 \
    f32:2 buf:64k:seqf buf:64k:ones u32:16384 >/dev/null 2>&1
size=$(wc -c <"$tmp/k20.html" 2>/dev/null || echo 0)
if [ "$size" -gt 0 ] && [ "$size" -lt 2097152 ]; then pass size_20_launches; else fail size_20_launches "$size bytes"; fi
rows k20 "$tmp/k20.json" "$tmp/k20.html"
numbers k20 "$tmp/k20.json" "$tmp/k20.html"

# ---- bad input: one line, status 1 (2: the command line) ---------------------------------------------------
# refused NAME STATUS WANT ARGS...
refused() {
    name=$1 st=$2 want=$3
    shift 3
    "$TPSIM" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ $rc != "$st" ]; then fail "$name" "status $rc, not $st: $(head -c 200 "$tmp/err")"
    elif [ -s "$tmp/out" ]; then fail "$name" "output on stdout: $(head -c 200 "$tmp/out")"
    elif [ "$lines" != 1 ] && [ "$st" = 1 ]; then fail "$name" "$lines lines: $(head -c 300 "$tmp/err")"
    elif ! grep -qF -- "$want" "$tmp/err"; then fail "$name" "no '$want' in: $(cat "$tmp/err")"
    else pass "$name"; fi
}
printf '{"kernels": [1, 2,]}\n' >"$tmp/bad.json"
printf '[1, 2]\n' >"$tmp/array.json"
printf '{"kernels": [{"name": 5, "issue": {"a": "x"}, "cycles": {}, "stall_pcs": [1, {}], "intervals": [[]], "checks": {"findings": [7]}}, 3, null]}\n' >"$tmp/odd.json"
refused refuses_missing 1 "cannot read '$tmp/nosuch.json'" report "$tmp/nosuch.json" -o "$tmp/x.html"
refused refuses_invalid_json 1 "$tmp/bad.json:1:19:" report "$tmp/bad.json" -o "$tmp/x.html"
refused refuses_not_stats 1 "not a tpsim statistics file" report "$tmp/array.json" -o "$tmp/x.html"
refused refuses_no_output 2 "no output given" report "$tmp/perf.json"
refused refuses_bad_dir 1 "no directory $tmp/nodir" report "$tmp/perf.json" -o "$tmp/nodir/x.html"
refused refuses_dir 1 "it is a directory" report "$tmp/perf.json" -o "$tmp"
[ -e "$tmp/x.html" ] && fail refuses_leave_nothing "a page was written" || pass refuses_leave_nothing
# odd but valid JSON: a page, no crash
"$TPSIM" report "$tmp/odd.json" -o "$tmp/odd.html" 2>"$tmp/err"
[ $? = 0 ] && [ -s "$tmp/odd.html" ] && pass odd_json || fail odd_json "$(head -c 300 "$tmp/err")"
# names and strings from the file are text, never markup
printf '{"kernels": [{"name": "<b>k", "cycles": 1, "issue": {"<script>x()</script>": 5}, "l1d": {"<i>": 1},
 "stall_pcs": [{"pc": 1, "stall": {"<u>": 3}, "insn": "<x>"}], "checks": {"findings": [{"report": "</pre><em>"}]}}],
 "config": {"<c>": "<d>"}, "totals": {"<t>": 1}}\n' >"$tmp/markup.json"
"$TPSIM" report "$tmp/markup.json" -o "$tmp/markup.html" 2>"$tmp/err"
n=$(grep -o '<script' "$tmp/markup.html" | wc -l)
if [ "$n" = 1 ] && ! grep -qE '<(b|i|u|x|c|d|t|em)>' "$tmp/markup.html"; then pass escapes_markup
else fail escapes_markup "$n scripts; $(grep -oE '<(b|i|u|x|c|d|t|em)>' "$tmp/markup.html" | head -3 | tr '\n' ' ')"; fi
# tpsim run --report: checked before the program starts
"$TPSIM" run --report "$tmp/nodir/r.html" -- sh -c 'echo STARTED' >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "no directory" "$tmp/err"; then
    pass run_refuses_report_dir
else
    fail run_refuses_report_dir "status $rc: $(cat "$tmp/out" "$tmp/err" | head -c 300)"
fi
# a program with no CUDA calls leaves no statistics: said, status 1
"$TPSIM" run --no-summary --report "$tmp/none.html" -- sh -c 'exit 0' >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "no report" "$tmp/err" && [ ! -e "$tmp/none.html" ]; then pass run_no_statistics
else fail run_no_statistics "status $rc: $(head -c 300 "$tmp/err")"; fi

# ---- tpsim sweep --report -----------------------------------------------------------------------------------
"$TPSIM" sweep "$here/report.sweep" --out "$tmp/sw" --report --no-plot --quiet -j 1 >"$tmp/out" 2>"$tmp/err"
ix="$tmp/sw/rsweep-report/index.html"
pages=$(ls "$tmp/sw/rsweep-report" 2>/dev/null | grep -c '^[0-9].*\.html$')
if [ -s "$ix" ] && [ "$(grep -c '<tr><td>' "$ix")" = 2 ] && [ "$pages" = 1 ] && grep -q 'href="0000-saxpy_gtx480.html"' "$ix" &&
    grep -q '<tr class="launch">' "$tmp/sw/rsweep-report/0000-saxpy_gtx480.html"; then
    pass sweep_report
    selfcontained sweep_page "$tmp/sw/rsweep-report/0000-saxpy_gtx480.html"
else
    fail sweep_report "index $(ls "$tmp/sw/rsweep-report" 2>&1 | tr '\n' ' '): $(head -c 300 "$tmp/err")"
fi

# ---- in a browser -------------------------------------------------------------------------------------------
sh "$here/browser.sh"
