# guards.sh -- the preconditions tests/par's scripts share (sourced, not run).
#
# par_guards TAG PROGRAM...: under CI's sanitizer pass (TPSIM_TEST_HEAVY=0:
# these runs repeat suites that pass already runs once) or a caller's
# TPSIM_MODE (every run here sets its own mode, so make test in performance
# mode would only repeat the default run) prints "SKIP TAG: ..." and exits
# 0; when a PROGRAM is not built prints "FAIL TAG: ..." and exits 1.
par_guards() {
    tag=$1
    shift
    if [ "${TPSIM_TEST_HEAVY:-1}" = 0 ]; then
        echo "SKIP $tag: TPSIM_TEST_HEAVY=0 (run in the default build's pass)"
        exit 0
    fi
    if [ -n "${TPSIM_MODE:-}" ]; then
        echo "SKIP $tag: its runs set their own mode (run without TPSIM_MODE)"
        exit 0
    fi
    for r in "$@"; do
        if [ ! -x "$r" ]; then
            echo "FAIL $tag: $r is not built (make unit)"
            exit 1
        fi
    done
}
