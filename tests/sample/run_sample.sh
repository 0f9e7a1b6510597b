#!/bin/sh
# run_sample.sh -- sampled timing (sample.mode; docs/TIMING.md, "Sampled
# timing"), quick and deterministic: the decisions and statistics on two
# small workloads of tests/sample/sampwork on the GTX 480 (15 SMs), and that
# sampling never changes a program's output.  One "PASS sample_NAME" or
# "FAIL sample_NAME: why" line per check.  tests/run.sh runs it; by hand:
#
#   BUILD=build sh tests/sample/run_sample.sh
#
# The long accuracy table (error and speed-up on large kernels) is
# tools/sample_check.sh, in make bench.
BUILD=${BUILD:-build}
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here" || exit 1
tpsim="$BUILD/bin/tpsim"
work="$BUILD/tests/sample/sampwork"
for f in "$tpsim" "$work"; do
    if [ ! -x "$f" ]; then
        echo "FAIL sample: $f is not built (make all unit)"
        exit 1
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset TPSIM_MODE TPSIM_OPTIONS TPSIM_CONFIG TPSIM_STATS

pass() { echo "PASS sample_$1"; }
fail() { echo "FAIL sample_$1: $2"; }

# sim NAME ARGS... -- CMD...: stdout NAME.out, stderr NAME.err, statistics NAME.json
sim() {
    name=$1
    shift
    "$tpsim" run --config gtx480 --stats "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
}
# the "sample" objects of a statistics file, one a line, in launch order
samples() { tr -d '\n ' <"$1" | grep -o '"sample":{[^}]*}'; }
# the value of member KEY in the text on stdin (the first)
member() { grep -o "\"$1\":[^,}]*" | head -n 1 | sed 's/.*://; s/"//g'; }
# every launch's cycles
cycles() { tr -d '\n ' <"$1" | grep -o '"kernels":.*' | grep -o '"mode":"performance","cycles":[0-9]*' | sed 's/.*://'; }
# the launches' cycles added up
total() { cycles "$1" | awk '{s += $1} END {print s}'; }
# the sample.kind counts of a statistics file, as " 3 full, 17 kernel,"
kinds() { samples "$1" | grep -o '"kind":"[a-z]*"' | sed 's/.*://; s/"//g' | sort | uniq -c | tr -s ' ' | tr '\n' ','; }
# outputs CHECK REF OTHER...: every OTHER run printed what REF did
outputs() {
    o_n=$1 o_r=$2
    shift 2
    for o_o in "$@"; do
        if ! cmp -s "$tmp/$o_r.out" "$tmp/$o_o.out"; then
            fail "$o_n" "the outputs differ: $o_r '$(cat "$tmp/$o_r.out")', $o_o '$(cat "$tmp/$o_o.out")'"
            return
        fi
    done
    pass "$o_n"
}

# two_ways CHECK OPTION "WORKLOAD" EXPECT0 EXPECT1 LABEL0 LABEL1: two sampled
# runs of a sampwork workload, with the sampling option OPTION at 0 and at its
# default (1): their detailed_ctas, functional_ctas and samples are EXPECT0 and
# EXPECT1, their cycles within 2% of each other, their outputs the same
two_ways() {
    w_n=$1 w_0=${1}_0 w_1=${1}_1 w_e0=$4 w_e1=$5 w_l0=$6 w_l1=$7
    # shellcheck disable=SC2086
    if ! sim "$w_0" --sample -o "$2=0" -- $work $3 || ! sim "$w_1" --sample -- $work $3; then
        fail "$w_n" "a run failed: $(cat "$tmp"/*.err | head -c 400)"
        return
    fi
    a0=$(samples "$tmp/$w_0.json") a1=$(samples "$tmp/$w_1.json")
    d0="$(echo "$a0" | member detailed_ctas) $(echo "$a0" | member functional_ctas) $(echo "$a0" | member samples)"
    d1="$(echo "$a1" | member detailed_ctas) $(echo "$a1" | member functional_ctas) $(echo "$a1" | member samples)"
    if [ "$d0 | $d1" = "$w_e0 | $w_e1" ]; then
        pass "${w_n}_decisions"
    else
        fail "${w_n}_decisions" "detailed_ctas/functional_ctas/samples are '$d0' and '$d1' $w_l1, expected '$w_e0' and '$w_e1'"
    fi
    c0=$(cycles "$tmp/$w_0.json") c1=$(cycles "$tmp/$w_1.json")
    if [ -n "$c0" ] && [ -n "$c1" ] && [ $((c1 * 1000)) -ge $((c0 * 980)) ] && [ $((c1 * 1000)) -le $((c0 * 1020)) ]; then
        pass "${w_n}_cycles"
    else
        fail "${w_n}_cycles" "$w_l0 $c0 cycles, $w_l1 $c1: more than 2% apart"
    fi
    outputs "${w_n}_output" "$w_0" "$w_1"
}

# ---- inside a launch: conv2d 512 -----------------------------------------------------
# 512 x 512 threads in blocks of 32 x 8: 1024 CTAs; 6 resident per SM (1536
# threads / 256), so a wave is 6 x 15 = 90 CTAs and the grid 11.4 waves.  With
# sample.cta_window=3 (12 waves would be needed with the default 4) the rate
# is first judged at the end of wave 7 (1 warm-up + 2 x 3): conv2d's waves agree
# there (an inspected run; with sm.wb_latency = 5 the two windows of 2 that
# end at wave 5 differ by more than sample.tolerance, and with 0 they agreed),
# so 630 CTAs are done and 720 started (every slot full); of the 304 left, the
# last 90 + 304 mod 90 = 124 stay detailed and 180 (2 whole waves) run
# functionally: 844 detailed CTAs.
if sim ref --mode functional -- $work conv2d 512 && sim cfull --mode performance -- $work conv2d 512 &&
    sim cta --sample -o sample.cta_window=3 -- $work conv2d 512; then
    s=$(samples "$tmp/cta.json")
    kind=$(echo "$s" | member kind) det=$(echo "$s" | member detailed_ctas) fun=$(echo "$s" | member functional_ctas)
    nsamp=$(echo "$s" | member samples) proj=$(echo "$s" | member projected_cycles) ci=$(echo "$s" | member ci95_cycles)
    if [ "$kind $det $fun $nsamp" = "cta 844 180 6" ] && [ "${proj:-0}" -gt 0 ] && [ "${ci:-0}" -gt 0 ]; then
        pass cta_decisions
    else
        fail cta_decisions "sample.kind/detailed_ctas/functional_ctas/samples are '$kind $det $fun $nsamp' (projected $proj, ci $ci), expected 'cta 844 180 6' and both > 0"
    fi
    # full and sampled cycles: 34955 and 33557 in the inspected run (-4.0%: two waves
    # priced from windows of 3 waves on an 11-wave grid; 33560 with the least-squares
    # slope of before the grouped rate; 35831 and 35880 under the model of 2026-12-03)
    f=$(cycles "$tmp/cfull.json") c=$(cycles "$tmp/cta.json")
    if [ -n "$f" ] && [ -n "$c" ] && [ $((c * 100)) -ge $((f * 95)) ] && [ $((c * 100)) -le $((f * 105)) ]; then
        pass cta_cycles
    else
        fail cta_cycles "sampled cycles $c against full $f: more than 5% apart"
    fi
    outputs cta_output ref cta cfull
    if grep -q "_Z6conv2diPKfPf: 0 of 1 launches projected, 1 CTA-sampled; " "$tmp/cta.err" &&
        grep -q "^tpsim: sampled timing (sample.mode=both)" "$tmp/cta.err"; then
        pass cta_summary
    else
        fail cta_summary "no sampling line in the summary: $(tail -n 3 "$tmp/cta.err")"
    fi
else
    fail cta "a run failed: $(cat "$tmp"/*.err | head -c 400)"
fi

# ---- checks inside a launch: triad over 4 M floats ------------------------------------
# 16384 CTAs of 256 threads, 90 a wave (6 an SM x 15): 182 waves and 4 CTAs.
# The triad's first waves write back the dirty L2 lines the host's copies
# left, so they run slower than the rest; in the inspected run the two windows
# of 4 agree at the end of wave 11 (990 CTAs done, 1080 started), inside that
# slow start.  Of the 15304 left, the last 90 + 15304 mod 90 = 94 stay
# detailed and 169 waves are to skip.  A check is 1 + 4 waves and a stratum
# must be at least 15 checks (75 waves) long: 2 checks leave (169 - 10) / 2 =
# 79.5 a stratum, 3 would leave 51.3.  So 159 waves (14310 CTAs) run
# functionally, 2074 in detail, and 8 + 2 x 4 wave durations are sampled.
# Without the checks (sample.cta_checks=0) all 169 waves are priced at the
# stable window's rate, slow start included: further from the full run
# (inspected: full 240819, sampled 243003, without the checks 247130).
if sim tfull --mode performance -- $work triad 4194304 && sim tchk --sample -- $work triad 4194304 &&
    sim tone --sample -o sample.cta_checks=0 -- $work triad 4194304; then
    s=$(samples "$tmp/tchk.json")
    kind=$(echo "$s" | member kind) det=$(echo "$s" | member detailed_ctas) fun=$(echo "$s" | member functional_ctas)
    nsamp=$(echo "$s" | member samples)
    if [ "$kind $det $fun $nsamp" = "cta 2074 14310 16" ]; then
        pass check_decisions
    else
        fail check_decisions "sample.kind/detailed_ctas/functional_ctas/samples are '$kind $det $fun $nsamp', expected 'cta 2074 14310 16'"
    fi
    f=$(cycles "$tmp/tfull.json") c=$(cycles "$tmp/tchk.json") o=$(cycles "$tmp/tone.json")
    if [ -n "$f" ] && [ -n "$c" ] && [ -n "$o" ] && [ $((c * 1000)) -ge $((f * 980)) ] && [ $((c * 1000)) -le $((f * 1020)) ] &&
        [ $(((c - f) * (c - f))) -lt $(((o - f) * (o - f))) ]; then
        pass check_cycles
    else
        fail check_cycles "full $f, sampled $c, without the check $o: the sampled run should be within 2% and nearer than without"
    fi
    outputs check_output tfull tchk tone
else
    fail check "a run failed: $(cat "$tmp"/*.err | head -c 400)"
fi

# ---- adaptive checks: conv2d 2560 ----------------------------------------------------
# 2560 x 2560 threads in blocks of 32 x 8: 25600 CTAs, 90 a wave (6 an SM x 15),
# 284.4 waves.  The skipped waves leave room for 3 checks (strata of 75 waves
# or more).  conv2d's waves take the same time everywhere, so the first
# check's mean wave duration agrees with the stable window's two block means
# within sample.tolerance and check 1 is dropped (sample.cta_adapt): its
# stratum and check run functionally, 5 waves (450 CTAs) fewer in detail, and
# 8 + 2 x 4 wave durations are sampled instead of 8 + 3 x 4.  Inspected run:
# full 612132 cycles, every check 611095 (-0.17%), adaptive 613707 (+0.26%).
two_ways adapt sample.cta_adapt "conv2d 2560" "2560 23040 20" "2110 23490 16" "every check" adaptive

# ---- early stability: conv2d 2048 ---------------------------------------------------
# 2048 x 2048 threads in blocks of 32 x 8: 16384 CTAs, 90 a wave (6 an SM x 15),
# 182 waves and 4 CTAs.  With the full window only (sample.cta_early=0) the two
# windows of 4 first agree at the end of wave 11 (990 CTAs done, 1080 started):
# of the 15304 left the last 90 + 15304 mod 90 = 94 stay detailed, 169 waves are
# to skip, room for 2 checks (79.5-wave strata; 3 would leave 51.3, under 75),
# so 1080 + 2 x 450 + 94 = 2074 CTAs run in detail and 4 x 2 + 2 x 4 = 16 wave
# durations are sampled.  The early rule (sample.cta_early=1, the default) finds
# its two blocks of 2 waves within 1% at the end of wave 8 (720 done, 810
# started; waves 2-5 .. 4-7 were further apart): of the 15574 left, 94 again
# stay detailed and 172 waves are to skip, still 2 checks (81-wave strata), so
# 810 + 900 + 94 = 1804 in detail and 4 + 2 x 4 = 12 durations sampled.
# Inspected runs: full 402284 cycles, 402636 (+0.09%) and 401780 (-0.13%).
two_ways early sample.cta_early "conv2d 2048" "2074 14310 16" "1804 14580 12" "full window" early
# conv2d 1024: 4096 CTAs, 45.5 waves, too few to skip for a check (80 waves), so
# the early test is not taken and both runs wait for the full window: stable
# at the end of wave 12 (1080 done, 1170 started), the last 90 + 2926 mod 90 =
# 136 detailed, 31 waves (2790 CTAs) functional, 2 x 4 durations sampled.
# Taken there, it found its blocks of 2 at the end of wave 8 (720 started, 856
# detailed) and priced the rest 2.9% short of the full run's 132019 cycles
# (the full window: 130480, -1.2%).
two_ways early_nocheck sample.cta_early "conv2d 1024" "1306 2790 8" "1306 2790 8" "full window" early

# ---- across launches: 20 launches of jacobi 64 ---------------------------------------
# 64 x 64 threads: 16 CTAs, one wave (no CTA sampling).  Every launch reads and
# writes the same two 16 KB buffers, warm in the L2 from the copies, so every
# launch takes the same cycles (983 in the full run; 976 before the crossbar had output buffers, icnt.out_buffer): the first 3 (sample.window)
# agree at once, and the others are projected at the window's mean, exactly, but
# for the rechecks (sample.recheck): after 4 projected launches (3-6) launch 7
# runs in detail, agrees, and the next comes 8 later (launch 16), so 5 run in
# detail (0, 1, 2, 7, 16) and 15 are projected.
if sim jref --mode functional -- $work jacobi 64 20 && sim jfull --mode performance -- $work jacobi 64 20 &&
    sim kern --mode performance -o sample.mode=kernel -- $work jacobi 64 20; then
    kinds=$(kinds "$tmp/kern.json")
    if [ "$kinds" = " 5 full, 15 kernel," ]; then
        pass kernel_decisions
    else
        fail kernel_decisions "sample.kind counts are '$kinds', expected ' 5 full, 15 kernel,'"
    fi
    f=$(total "$tmp/jfull.json") c=$(total "$tmp/kern.json")
    if [ "$f" = 19660 ] && [ "$c" = 19660 ]; then
        pass kernel_cycles
    else
        fail kernel_cycles "cycles summed over the launches: full $f, sampled $c; both should be 19660 (20 x 983)"
    fi
    outputs kernel_output jref kern jfull
    if grep -q "_Z6jacobiiPKfPf: 15 of 20 launches projected, 0 CTA-sampled; 75.0% of 19660 cycles projected" "$tmp/kern.err"; then
        pass kernel_summary
    else
        fail kernel_summary "the summary's sampling line: $(tail -n 1 "$tmp/kern.err")"
    fi
    # off (the default): every launch full, no sampling line
    if [ "$(samples "$tmp/jfull.json" | grep -c '"kind":"full"')" = 20 ] && ! grep -q "sampled timing" "$tmp/jfull.err"; then
        pass off
    else
        fail off "without sample.mode a launch's sample.kind is not full, or the summary has a sampling line"
    fi
else
    fail kernel "a run failed: $(cat "$tmp"/*.err | head -c 400)"
fi

# ---- rechecks across launches: a phase change ----------------------------------------
# 40 launches of a gather over 64 K floats (256 CTAs, 3 waves): stride 1 for
# the first 10, 33 after (every lane its own line): the same instructions, 9
# times the cycles.  Launches 0-2 agree (stable), 3-6 are projected, 7 is a
# recheck and agrees (stride 1 still), 8-15 are projected -- 10-15 at the old
# rate -- 16 is a recheck and disagrees, 17 and 18 run in detail until a
# window (16-18) agrees, then 19-22 projected, 23 a recheck, 24-31, 32 a
# recheck, 33-39: 9 in detail, 31 projected.  Without rechecks
# (sample.recheck=0) all 37 after the first 3 are priced at stride 1
# (inspected: full 835198 cycles, sampled 675433, without rechecks 94841).
if sim pfull --mode performance -- $work phase 65536 40 10 && sim prc --mode performance -o sample.mode=kernel -- $work phase 65536 40 10 &&
    sim pnone --mode performance -o sample.mode=kernel -o sample.recheck=0 -- $work phase 65536 40 10; then
    kinds=$(kinds "$tmp/prc.json")
    if [ "$kinds" = " 9 full, 31 kernel," ]; then
        pass recheck_decisions
    else
        fail recheck_decisions "sample.kind counts are '$kinds', expected ' 9 full, 31 kernel,'"
    fi
    f=$(total "$tmp/pfull.json") c=$(total "$tmp/prc.json") o=$(total "$tmp/pnone.json")
    if [ -n "$f" ] && [ -n "$c" ] && [ -n "$o" ] && [ $(((c - f) * (c - f))) -lt $(((o - f) * (o - f))) ] &&
        [ $((c * 10)) -ge $((f * 7)) ]; then
        pass recheck_cycles
    else
        fail recheck_cycles "full $f, with rechecks $c, without $o: rechecks should come nearer, within 30%"
    fi
    outputs recheck_output pfull prc pnone
else
    fail recheck "a run failed: $(cat "$tmp"/*.err | head -c 400)"
fi

# ---- the option ----------------------------------------------------------------------
"$tpsim" run -o sample.mode=sometimes -- true >"$tmp/bad.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "sample.mode" "$tmp/bad.out"; then
    pass bad_mode
else
    fail bad_mode "-o sample.mode=sometimes: exit $rc, '$(head -c 300 "$tmp/bad.out")'"
fi
if "$tpsim" config --list 2>/dev/null | grep -q "sample.mode"; then
    pass listed
else
    fail listed "tpsim config --list does not list sample.mode"
fi
