#!/bin/sh
# run_check.sh -- the correctness checks (docs/CHECKS.md) on whole programs,
# under `tpsim run --check`.  Prints PASS/FAIL/SKIP lines; tests/run.sh runs
# it; by hand:
#
#   BUILD=build sh tests/check/run_check.sh [races|bugs|initsync|suite|driver]...
#
#  races, bugs, initsync  the CUDA programs of this directory, built by nvcc
#      (-lineinfo, so that reports name source lines) into $BUILD/tests/check.
#      Each variant (a program's argv[1]) runs with --check all (warp_reduce*
#      also with intrawarp) and --error-exitcode 3, at the default
#      exec.quantum, at 1 and at 1000000; every run must report exactly the
#      findings the program's "//! EXPECT VARIANT: WHAT @A @B" lines name
#      (WHAT as the report says it; @A the source line marked "// @A"),
#      compared as (what, source lines) sets, or at least them where a
#      "//! SUBSET VARIANT" line says so; exit with 3 when it found
#      something and 0 otherwise, and print "PROG: PASS" last.  One run also
#      writes the statistics file, which must list the findings.  When
#      performance mode works, the racy and race-free shared-memory and MVT
#      variants run in it too, with the same findings.
#  suite  the programs of tests/cuda (built with tests/cuda/run_cuda.sh's
#      --build, cached) under --check all: no finding, their own PASS.
#  driver  $BUILD/tests/check/t_checks (make unit; no nvcc): the checks
#      through the driver API with TPSIM_OPTIONS; then `tpsim run --check`
#      on that program (--error-exitcode with and without findings) and its
#      refusals of bad --check and --error-exitcode values.
# Without nvcc the CUDA parts are a SKIP.  CHECK_TIMEOUT (seconds, default
# 600) bounds each run when timeout(1) exists.
BUILD=${BUILD:-build}
here=$(cd "$(dirname "$0")" && pwd)
limit=${CHECK_TIMEOUT:-600}
NVCC=${NVCC:-nvcc}
parts=${*:-"races bugs initsync driver suite"}

out=$BUILD/tests/check
mkdir -p "$out"
out=$(cd "$out" && pwd)
tpsim="$(cd "$BUILD/bin" 2>/dev/null && pwd)/tpsim"

with_limit() {
    if command -v timeout >/dev/null 2>&1; then timeout "$limit" "$@"; else "$@"; fi
}

# findings FILE: the findings reported on stderr FILE, one per line:
# "WHAT|SRC:LINE|SRC:LINE" (sides in sorted order; "?" without .loc)
findings() {
    awk '
    function flush() {
        if (what != "") {
            if (n == 2 && side[1] > side[2]) { t = side[1]; side[1] = side[2]; side[2] = t }
            s = what
            for (i = 1; i <= n; i++) s = s "|" side[i]
            print s
        }
        what = ""; n = 0
    }
    /^tpsim: (race|init|sync): / {
        flush()
        w = $0
        sub(/^tpsim: [a-z]+: /, "", w)
        cut = length(w) + 1
        split(" on | in kernel| of ", seps, "|")
        for (k in seps) { p = index(w, seps[k]); if (p > 0 && p < cut) cut = p }
        what = substr(w, 1, cut - 1)
        next
    }
    what != "" && /^    in all: / { next }
    what != "" && /^    / {
        loc = "?"
        if (match($0, /\[[^]]*:[0-9]+\]/)) { loc = substr($0, RSTART + 1, RLENGTH - 2); sub(/.*\//, "", loc) }
        side[++n] = loc
        next
    }
    { flush() }
    END { flush() }' "$1" | LC_ALL=C sort -u
}

# expected SRC VARIANT: the findings SRC's EXPECT lines give VARIANT, in the
# same form
expected() {
    src=$1 base=$(basename "$1")
    grep "^//! EXPECT $2:" "$src" | sed "s|^//! EXPECT $2: *||" | while read -r line; do
        [ -n "$line" ] || continue
        what=$(echo "$line" | sed 's/ *@.*//')
        sides=""
        for m in $(echo "$line" | grep -o '@[A-Za-z0-9_]*'); do
            ln=$(grep -n "// $m\$" "$src" | head -n 1 | cut -d: -f1)
            sides="$sides $base:${ln:-?}"
        done
        # shellcheck disable=SC2086
        set -- $sides
        if [ $# -eq 2 ] && [ "$(printf '%s\n%s\n' "$1" "$2" | LC_ALL=C sort | head -n 1)" != "$1" ]; then
            set -- "$2" "$1"
        fi
        s=$what
        for x in "$@"; do s="$s|$x"; done
        echo "$s"
    done | LC_ALL=C sort -u
}

variants() { grep "^//! EXPECT " "$1" | sed 's/^\/\/! EXPECT \([^:]*\):.*/\1/' | awk '!seen[$0]++'; }

perf_works=""
perf_ok() {  # does performance mode run here? (once)
    if [ -z "$perf_works" ]; then
        perf_works=no
        if with_limit "$tpsim" run --mode performance --no-summary -- "$out/races" shared_rw_sync \
            >"$out/perf_probe.out" 2>&1 && grep -q "races: PASS" "$out/perf_probe.out"; then
            perf_works=yes
        fi
    fi
    [ "$perf_works" = yes ]
}

# one PROG VARIANT TAG OPTIONS...: a run of $out/PROG VARIANT under tpsim
# run --error-exitcode 3 OPTIONS; checks findings, status and PASS line.
one() {
    prog=$1 v=$2 tag=$3
    shift 3
    name="check_${prog}_${v}${tag}"
    o="$out/$prog.$v$tag"
    (cd "$out" && with_limit "$tpsim" run --error-exitcode 3 "$@" -- "./$prog" "$v" >"$o.out" 2>"$o.err" </dev/null)
    rc=$?
    findings "$o.err" >"$o.got"
    expected "$here/$prog.cu" "$v" >"$o.want"
    last=$(tail -n 1 "$o.out" 2>/dev/null)
    if [ "$last" != "$prog: PASS" ]; then
        echo "FAIL $name: the program did not pass (exit $rc): $(tail -n 3 "$o.out" "$o.err" 2>/dev/null | tr '\n' ' ' | cut -c1-300)"
        return
    fi
    if grep -q "^//! SUBSET $v\$" "$here/$prog.cu"; then
        missing=$(LC_ALL=C comm -23 "$o.want" "$o.got" | tr '\n' ' ')
        extra=""
    else
        missing=$(LC_ALL=C comm -23 "$o.want" "$o.got" | tr '\n' ' ')
        extra=$(LC_ALL=C comm -13 "$o.want" "$o.got" | tr '\n' ' ')
    fi
    if [ -n "$missing" ] || [ -n "$extra" ]; then
        echo "FAIL $name: findings differ (missing: ${missing:-none}; unexpected: ${extra:-none})"
        return
    fi
    want_rc=0
    [ -s "$o.want" ] && want_rc=3
    if [ "$rc" -ne "$want_rc" ]; then
        echo "FAIL $name: exit status $rc, want $want_rc (--error-exitcode 3)"
        return
    fi
    echo "PASS $name"
}

build() {  # build PROG: $out/PROG from $here/PROG.cu (when stale)
    bin="$out/$1"
    if [ ! -x "$bin" ] || [ "$here/$1.cu" -nt "$bin" ]; then
        rm -f "$bin"
        "$NVCC" -cudart shared -arch=sm_75 -O2 -lineinfo -o "$bin" "$here/$1.cu" >"$bin.build.log" 2>&1 || return 1
    fi
}

programs() {
    for prog in "$@"; do
        if ! command -v "$NVCC" >/dev/null 2>&1; then
            echo "SKIP check_$prog: nvcc not found"
            continue
        fi
        if [ ! -f "$BUILD/lib/libcudart.so.13" ] || [ ! -x "$tpsim" ]; then
            echo "FAIL check_$prog: tpsim and its libraries are not built"
            continue
        fi
        if ! build "$prog"; then
            echo "FAIL check_$prog: nvcc failed ($(grep -m 2 -i error "$out/$prog.build.log" | tr '\n' ' '))"
            continue
        fi
        for v in $(variants "$here/$prog.cu"); do
            chk="all"
            case "$v" in warp_reduce*) chk="all,intrawarp" ;; esac
            one "$prog" "$v" "" --check "$chk"
            one "$prog" "$v" "_q1" --check "$chk" -o exec.quantum=1
            one "$prog" "$v" "_qbig" --check "$chk" -o exec.quantum=1000000
            case "$prog.$v" in
            races.shared_rw | races.shared_rw_sync | bugs.mvt | bugs.mvt_fixed | races.gridsync | races.nogridsync)
                if perf_ok; then
                    one "$prog" "$v" "_perf" --check "$chk" --mode performance
                else
                    echo "SKIP check_${prog}_${v}_perf: performance mode does not run here ($(tail -n 1 "$out/perf_probe.out" | cut -c1-120))"
                fi
                ;;
            esac
        done
        # races on the same source lines are one report: the unrolled tile's
        # 32 load copies racing with its store
        if [ "$prog" = races ]; then
            e="$out/races.tile_unrolled.err"
            nrep=$(grep -c '^tpsim: race: ' "$e")
            if [ "$nrep" -eq 1 ] &&
                grep -q '^    in all: 32 instruction pairs on these source lines, 1024 addresses, 1024 threads, [0-9]* conflicting accesses$' "$e" &&
                grep -q '^tpsim: checks: 32 races, 0 uninitialized reads, 0 synchronization errors (in 1 report; [0-9]* occurrences)$' "$e"; then
                echo "PASS check_race_one_report"
            else
                echo "FAIL check_race_one_report: $nrep reports in $e: $(grep -A 4 '^tpsim: race: ' "$e" | head -12 | tr '\n' ' ' | cut -c1-600)"
            fi
        fi
        # the statistics file carries the findings
        if [ "$prog" = races ]; then
            (cd "$out" && with_limit "$tpsim" run --check race --stats "$out/stats.json" --no-summary -- ./races shared_rw \
                >/dev/null 2>&1)
            if grep -q '"checks": {' "$out/stats.json" && grep -q '"race": 1' "$out/stats.json" &&
                grep -q '"what": "read-write race"' "$out/stats.json" && grep -q '"findings": 1' "$out/stats.json"; then
                echo "PASS check_stats_json"
            else
                echo "FAIL check_stats_json: no findings in the statistics file $out/stats.json"
            fi
        fi
    done
}

# suite: tests/cuda's programs under --check all find nothing.
suite() {
    if ! command -v "$NVCC" >/dev/null 2>&1; then
        echo "SKIP check_suite: nvcc not found"
        return
    fi
    cuda_out=$(mkdir -p "$BUILD/tests/cuda" && cd "$BUILD/tests/cuda" && pwd)
    for p in templates multifile rdc symbols dynshared streams devprintf managed memops texture iterative atomics sysatomics coop \
        kernargs hostthreads lifecycle zerocopy gridsync thrust_cub devprops multiarch; do
        CUDA_OUT=$cuda_out NVCC=$NVCC sh "$here/../cuda/run_cuda.sh" --build "$p" >/dev/null 2>&1
        if [ ! -x "$cuda_out/$p" ]; then
            echo "FAIL check_suite_$p: could not build it (tests/cuda/run_cuda.sh --build $p)"
            continue
        fi
        o="$out/suite.$p"
        (cd "$cuda_out" && with_limit "$tpsim" run --check all --error-exitcode 3 --no-summary -- "./$p" >"$o.out" 2>"$o.err" </dev/null)
        rc=$?
        n=$(grep -c '^tpsim: \(race\|init\|sync\): ' "$o.err")
        if [ "$n" -ne 0 ] || [ "$rc" -ne 0 ]; then
            echo "FAIL check_suite_$p: exit $rc, $n findings: $(grep -m 3 -A 2 '^tpsim: \(race\|init\|sync\): ' "$o.err" | tr '\n' ' ' | cut -c1-400)"
        elif [ "$(tail -n 1 "$o.out")" != "$p: PASS" ]; then
            echo "FAIL check_suite_$p: $(tail -n 2 "$o.out" | tr '\n' ' ')"
        else
            echo "PASS check_suite_$p"
        fi
    done
}

driver() {
    t="$BUILD/tests/check/t_checks"
    if [ ! -x "$t" ]; then
        echo "FAIL check_driver: $t is not built (make unit)"
        return
    fi
    "$t"
    # tpsim run on a driver-API program: --check sets the options, and
    # --error-exitcode turns findings (and only findings) into the status
    "$tpsim" run --check race --error-exitcode 9 --no-summary -- "$t" --child race >"$out/drv_race.out" 2>"$out/drv_race.err"
    rc=$?
    if [ "$rc" -eq 9 ] && grep -q "^tpsim: race: write-write race" "$out/drv_race.err" &&
        grep -q "^tpsim: checks: 2 races" "$out/drv_race.err"; then
        echo "PASS check_run_error_exitcode"
    else
        echo "FAIL check_run_error_exitcode: exit $rc, want 9 ($(head -c 200 "$out/drv_race.err" | tr '\n' ' '))"
    fi
    "$tpsim" run --check init --error-exitcode 9 --no-summary -- "$t" --child race >"$out/drv_init.out" 2>"$out/drv_init.err"
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q "^tpsim: checks: 0 uninitialized reads" "$out/drv_init.err"; then
        echo "PASS check_run_no_findings"
    else
        echo "FAIL check_run_no_findings: exit $rc, want 0 ($(head -c 200 "$out/drv_init.err" | tr '\n' ' '))"
    fi
    "$tpsim" run --check race,bogus -- true >/dev/null 2>"$out/bad.err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "takes race, intrawarp, init, sync or all" "$out/bad.err"; then
        echo "PASS check_run_bad_check"
    else
        echo "FAIL check_run_bad_check: exit $rc ($(head -c 200 "$out/bad.err"))"
    fi
    "$tpsim" run --error-exitcode 300 -- true >/dev/null 2>"$out/bad2.err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "error-exitcode takes a number from 0 to 255" "$out/bad2.err"; then
        echo "PASS check_run_bad_exitcode"
    else
        echo "FAIL check_run_bad_exitcode: exit $rc ($(head -c 200 "$out/bad2.err"))"
    fi
}

for part in $parts; do
    case "$part" in
    races | bugs | initsync) programs "$part" ;;
    suite) suite ;;
    driver) driver ;;
    *) echo "FAIL check: no part '$part'" ;;
    esac
done
exit 0
