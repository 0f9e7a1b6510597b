#!/bin/sh
# browser.sh -- tpsim report's page in a real browser: headless Chromium
# (Debian's chromium package).  Prints PASS/FAIL/SKIP lines; run by
# run_report.sh; SKIP when chromium is not installed.
#   - the harness itself: a page with a script error must be caught in
#     Chromium's log (so that a clean log means something);
#   - the page of 20 launches in performance mode (with stats.interval)
#     renders: Chromium's DOM (--dump-dom) has every chart with the right
#     bars and points and every number equal to the statistics file's
#     (check_page.py on the DOM, with python3), and no console message or
#     uncaught error is logged;
#   - it is parsed within a second (performance.now() when the page's last
#     script runs, read from the DOM of a copy with a probe appended);
#   - clicking a heading sorts the table (a copy whose probe clicks "#"
#     twice: the last launch comes first);
#   - a screenshot, $BUILD/tests/report/report.png (PolyBench's 2mm when
#     its runner is built), is kept for review.
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
LAUNCH="$BUILD/bin/tpsim-launch"
here=$(dirname "$0")
unset TPSIM_CONFIG TPSIM_OPTIONS TPSIM_MODE TPSIM_TRACE TPSIM_STATS
pass() { echo "PASS report_browser_$1"; }
fail() { echo "FAIL report_browser_$1: $2"; }

chrome=
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chrome=$(command -v "$c"); break; fi
done
if [ -z "$chrome" ]; then
    echo "SKIP report_browser: chromium is not installed (Debian: apt-get install chromium)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
art="$BUILD/tests/report"
mkdir -p "$art"
to=
command -v timeout >/dev/null 2>&1 && to="timeout 120"

# browse FILE.html OUT [FLAGS...]: Chromium's DOM of the page on OUT, its log on OUT.log
browse() {
    page=$1 out=$2
    shift 2
    $to "$chrome" --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$tmp/profile" \
        --enable-logging=stderr --v=0 "$@" "file://$page" >"$out" 2>"$out.log"
}
# console ERRLOG: the lines of a log that report the page's console or an uncaught error
console() { grep -E 'Uncaught|ERROR:CONSOLE|:CONSOLE\(' "$1"; }

# ---- the harness catches a script error ----------------------------------------------------------
printf '<!DOCTYPE html><html><body><p>x</p><script>nosuch();</script></body></html>\n' >"$tmp/broken.html"
browse "$tmp/broken.html" "$tmp/broken.dom" --dump-dom
if console "$tmp/broken.dom.log" >/dev/null; then pass harness_sees_errors
else fail harness_sees_errors "a script error was not logged: $(tail -c 300 "$tmp/broken.dom.log")"; fi

# ---- the page of 20 launches ----------------------------------------------------------------------------
"$TPSIM" run --no-summary --mode performance --config gtx480 -o stats.interval=100 --stats "$tmp/s.json" \
    --report "$tmp/page.html" -- "$LAUNCH" examples/driver/saxpy.ptx saxpy --grid 16 --block 256 --repeat 20 \
    f32:2 buf:16k:seqf buf:16k:ones u32:4096 >/dev/null 2>"$tmp/err"
if [ ! -s "$tmp/page.html" ]; then
    fail page "no page: $(head -c 300 "$tmp/err")"
    exit 0
fi
browse "$tmp/page.html" "$tmp/dom.html" --dump-dom
n=20
got=$(grep -o '<svg class="breakdown"' "$tmp/dom.html" | wc -l)
mem=$(grep -o '<svg class="memchart"' "$tmp/dom.html" | wc -l)
tl=$(grep -o '<svg class="timeline"' "$tmp/dom.html" | wc -l)
hot=$(grep -o '<table class="sort hot"' "$tmp/dom.html" | wc -l)
if [ "$got" = $n ] && [ "$mem" = $n ] && [ "$tl" = $((5 * n)) ] && [ "$hot" = $n ]; then pass charts
else fail charts "$got issue-slot bars, $mem memory charts, $tl timelines, $hot instruction tables for $n launches"; fi
if command -v python3 >/dev/null 2>&1; then
    if python3 "$here/check_page.py" "$tmp/s.json" "$tmp/dom.html" >"$tmp/check.out" 2>&1; then pass dom_numbers
    else fail dom_numbers "$(grep -v '^ok' "$tmp/check.out" | head -5)"; fi
else
    echo "SKIP report_browser_dom_numbers: python3 is not installed"
fi
if console "$tmp/dom.html.log" >"$tmp/errs"; then fail no_console_errors "$(head -c 400 "$tmp/errs")"
else pass no_console_errors; fi

# ---- parse time and sorting, from probes appended to copies -------------------------------------------------
probe() {
    sed 's|</body>|<script>'"$1"'</script></body>|' "$tmp/page.html" >"$tmp/probe.html"
    browse "$tmp/probe.html" "$tmp/probe.dom" --dump-dom
}
# the best of three (other processes share the machine); a busy machine (load average over its
# processors) cannot time it: a SKIP rather than a FAIL
best=
for try in 1 2 3; do
    probe "document.body.setAttribute('data-ms',String(Math.round(performance.now())));"
    ms=$(grep -o 'data-ms="[0-9]*"' "$tmp/probe.dom" | tr -dc '0-9')
    [ -n "$ms" ] && { [ -z "$best" ] || [ "$ms" -lt "$best" ]; } && best=$ms
    [ -n "$best" ] && [ "$best" -lt 1000 ] && break
done
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null | cut -d. -f1)
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ -n "$best" ] && [ "$best" -lt 1000 ]; then pass parse_under_a_second
elif [ -n "$best" ] && [ "${load:-0}" -ge "$cpus" ]; then
    echo "SKIP report_browser_parse_under_a_second: $best ms, but the machine is busy (load $load on $cpus processors)"
else fail parse_under_a_second "'${best:-none}' ms"; fi
probe "var h=document.querySelector('#launches-table th');h.click();h.click();document.body.setAttribute('data-first',document.querySelector('#launches-table tbody tr td').getAttribute('data-v'));"
first=$(grep -o 'data-first="[0-9]*"' "$tmp/probe.dom" | tr -dc '0-9')
if [ "$first" = $((n - 1)) ] && ! console "$tmp/probe.dom.log" >/dev/null; then pass sorts
else fail sorts "after two clicks on '#' the first launch is '${first:-none}', want $((n - 1))"; fi

# ---- the screenshot ------------------------------------------------------------------------------------------
# of PolyBench's 2mm (two kernels; docs/REPORT.md shows it) when its runner is built, else of the page above
shot="$tmp/page.html"
pb="$BUILD/tests/polybench/polybench"
if [ -x "$pb" ] && "$TPSIM" run --no-summary --mode performance --config gtx480 -o stats.interval=1000 \
    --report "$tmp/2mm.html" -- "$pb" --ptx tests/polybench 2mm >/dev/null 2>&1; then
    shot="$tmp/2mm.html"
fi
rm -f "$art/report.png"
browse "$shot" "$tmp/shot.out" --hide-scrollbars --window-size=1200,2700 --screenshot="$art/report.png"
if [ -s "$art/report.png" ] && [ "$(head -c 4 "$art/report.png" | tail -c 3)" = PNG ]; then pass screenshot
else fail screenshot "no PNG at $art/report.png: $(tail -c 300 "$tmp/shot.out.log")"; fi
