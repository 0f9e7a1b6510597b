#!/bin/sh
# run_cli.sh -- tpsim run's own checks before it starts a program, and its
# signals; tpsim stats --list.  Prints PASS/FAIL lines (tests/run.sh counts them).
#   - every bad configuration, option or value ends tpsim run with status 2
#     and one line naming the problem, before the program is started;
#   - SIGTERM, SIGHUP, SIGINT and SIGKILL sent to tpsim run end the program
#     it runs (a kernel that never ends) and leave no process behind and no
#     statistics file half-written.
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
LAUNCH="$BUILD/bin/tpsim-launch"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset TPSIM_CONFIG TPSIM_OPTIONS TPSIM_MODE TPSIM_TRACE TPSIM_STATS
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# ---- bad settings: status 2, one line, nothing started --------------------------------
# refused NAME WANT ARGS...: tpsim run ARGS -- sh -c 'echo STARTED' must exit 2
# with one line on stderr that contains WANT, and print nothing else.
refused() {
    name=$1 want=$2
    shift 2
    "$TPSIM" run "$@" -- sh -c 'echo STARTED' >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ $rc != 2 ]; then fail "$name" "status $rc, not 2"
    elif [ -s "$tmp/out" ]; then fail "$name" "the program was started: $(cat "$tmp/out")"
    elif [ "$lines" != 1 ]; then fail "$name" "$lines lines: $(head -c 300 "$tmp/err")"
    elif ! grep -qF -- "$want" "$tmp/err"; then fail "$name" "no '$want' in: $(cat "$tmp/err")"
    else pass "$name"; fi
}
printf 'device.num_sms = 30\nsm.scheduler = gto\nnot a line\n' >"$tmp/bad.cfg"
refused run_refuses_unknown_config "no configuration file or built-in configuration named 'nosuch'" --config nosuch
refused run_refuses_malformed_config "bad.cfg:3:" --config "$tmp/bad.cfg"
refused run_refuses_unknown_option "unknown option 'device.nums_sms' (did you mean 'device.num_sms'?" -o device.nums_sms=4
refused run_refuses_zero "option 'device.num_sms': 0 is out of range [1, 1024]" -o device.num_sms=0
refused run_refuses_negative "option 'device.num_sms': -4 is out of range [1, 1024]" -o device.num_sms=-4
refused run_refuses_huge "option 'device.num_sms': 99999999999999999999 is out of range [1, 1024]" -o device.num_sms=99999999999999999999
refused run_refuses_word "option 'device.num_sms': 'lots' is not an integer number" -o device.num_sms=lots
refused run_refuses_suffix "option 'device.num_sms': '8x' is not an integer number" -o device.num_sms=8x
refused run_refuses_fraction "option 'device.num_sms': '8.5' is not an integer number" -o device.num_sms=8.5
refused run_refuses_scheduler "option 'sm.scheduler': 'fifo' is not one of gto|lrr|two_level" -o sm.scheduler=fifo
refused run_refuses_cc "option 'device.cc': 3.0 is out of range [5, 12.1]" -o device.cc=3.0
refused run_refuses_bool "option 'stream.async': 'maybe' is not a boolean" -o stream.async=maybe
refused run_refuses_mode "--mode must be functional or performance, not 'fast'" --mode fast
refused run_refuses_check "--check takes race, intrawarp, init, sync or all" --check races
# the environment's settings are checked the same way
TPSIM_OPTIONS="device.num_sms=0" refused run_refuses_env_options "option 'device.num_sms': 0 is out of range" 
TPSIM_CONFIG=nosuch refused run_refuses_env_config "named 'nosuch'"
TPSIM_MODE=fast refused run_refuses_env_mode "option 'mode': 'fast' is not one of"
# and good ones still run
out=$("$TPSIM" run --no-summary --config gtx480 -o device.num_sms=8 -o sm.scheduler=lrr -- sh -c 'echo STARTED' 2>&1)
[ "$out" = STARTED ] && pass run_accepts_good_settings || fail run_accepts_good_settings "'$out'"

# ---- tpsim stats --list: every declared statistic, one line each, from the declarations -----
"$TPSIM" stats --list >"$tmp/list" 2>&1
rc=$?
if [ $rc != 0 ]; then fail stats_list "status $rc: $(head -c 200 "$tmp/list")"
elif ! grep -qE '^ipc +thread instructions per cycle +ratio: thread_instructions / cycles +thread instructions per cycle, whole GPU$' "$tmp/list"; then
    fail stats_list "no ipc line: $(head -c 300 "$tmp/list")"
elif ! grep -qE '^rfv.peak_regs +warp registers +max ' "$tmp/list"; then fail stats_list "no rfv.peak_regs line (max)"
elif ! grep -qE '^regmutex.section_cycles +section cycles +add \(operand\) ' "$tmp/list"; then fail stats_list "no hidden operand"
elif [ "$(cut -d' ' -f1 "$tmp/list" | sort | uniq -d)" ]; then fail stats_list "a name twice: $(cut -d' ' -f1 "$tmp/list" | sort | uniq -d)"
else pass stats_list; fi
n=$("$TPSIM" stats --list --markdown | grep -c '^| `')
[ "$n" = "$(wc -l <"$tmp/list")" ] && pass stats_list_markdown || fail stats_list_markdown "$n rows, $(wc -l <"$tmp/list") lines"
"$TPSIM" stats >/dev/null 2>&1
[ $? = 2 ] && pass stats_needs_list || fail stats_needs_list "tpsim stats without --list did not exit 2"

# ---- signals -------------------------------------------------------------------------------
# The pid of a process whose parent is $1 (from /proc: no procps needed).
child_of() {
    for st in /proc/[0-9]*/stat; do
        set -- "$1" $(cat "$st" 2>/dev/null)
        [ "$5" = "$1" ] && { echo "$2"; return; }
    done
}
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
if [ ! -x "$LAUNCH" ]; then
    fail run_signals "$LAUNCH is not built"
    exit 0
fi
for sig in TERM HUP INT KILL; do
    name=run_sig$sig
    mkdir -p "$tmp/t$sig"
    # (a non-interactive shell's background job ignores SIGINT, a nohup SIGHUP, and so
    # would tpsim and the program: env restores the default)
    TMPDIR="$tmp/t$sig" env --default-signal=INT,QUIT,HUP,TERM "$TPSIM" run --no-summary --stats "$tmp/t$sig/stats.json" -o exec.spin_limit=1000000000000000 \
        -- "$LAUNCH" tests/cli/spin.ptx spin buf:4 >"$tmp/sig.out" 2>&1 &
    tp=$!
    prog=
    for _ in $(seq 100); do
        prog=$(child_of $tp)
        [ -n "$prog" ] && grep -q tpsim-launch "/proc/$prog/cmdline" 2>/dev/null && break
        prog=
        sleep 0.1
    done
    if [ -z "$prog" ]; then
        fail "$name" "the program did not start"
        kill -KILL $tp 2>/dev/null
        continue
    fi
    sleep 0.3   # into the kernel
    kill -$sig $tp
    for _ in $(seq 100); do
        alive $tp || break
        sleep 0.1
    done
    if alive $tp; then
        fail "$name" "tpsim run did not end"
        kill -KILL $tp "$prog" 2>/dev/null
        continue
    fi
    wait $tp
    rc=$?
    gone=
    for _ in $(seq 50); do
        alive "$prog" || { gone=1; break; }
        sleep 0.1
    done
    left=$(ls "$tmp/t$sig" | tr '\n' ' ')
    if [ -z "$gone" ]; then
        fail "$name" "the program (pid $prog) outlived tpsim run"
        kill -KILL "$prog" 2>/dev/null
    elif [ -n "$left" ]; then fail "$name" "left files behind: $left"
    elif [ $sig != KILL ] && [ $rc -lt 128 ]; then fail "$name" "tpsim run exited with $rc, not 128 + a signal"
    else pass "$name"; fi
done

# ---- the progress line: on a terminal, half a second into a long kernel ---------------------
if command -v script >/dev/null 2>&1 && command -v timeout >/dev/null 2>&1; then
    timeout 3 script -qc "$TPSIM run --mode performance -o exec.spin_limit=1000000000000000 -- $LAUNCH tests/cli/spin.ptx spin buf:4" \
        /dev/null >"$tmp/progress.out" 2>&1
    if grep -q '\[tpsim\] spin: 0/1 CTAs, [0-9]* cycles' "$tmp/progress.out"; then pass run_progress_line
    else fail run_progress_line "no progress line within 3 s: $(head -c 200 "$tmp/progress.out")"; fi
else
    echo "SKIP run_progress_line: needs script(1) and timeout(1)"
fi
exit 0
