#!/bin/sh
# lowered_same.sh -- whether a change to the register model (ptx/lower.c,
# sched.c, regalloc.c, live.c) moves what the experiments run: compares
# `tpsim ptx --lowered --dump` (the scheduled code, its register count,
# every block and the register map: its "registers:" line) of each PTX
# file under two builds.  The experiments with
# `regs.physical=1` (RegMutex's baselines and every sharing policy) and the
# rtx2060's scheduled code run that code; a count that moves can move
# occupancy.  A file whose dump is the same under both builds cannot have
# moved any experiment's results, so only the programs with a "DIFF" line
# need running again (docs/REGISTERS.md, "tpsim against ptxas").
#
#   sh tools/lowered_same.sh REF_BUILD NEW_BUILD [FILE.ptx ...]
#
# Default files: the experiments' own kernels (experiments/regmutex/kernels,
# experiments/warppool/kernels), the hardware rows' kernels (tests/hardware)
# and, when it exists, the suites' PTX that tools/suite_ptx.sh extracted
# into $SUITE_PTX (e.g. SUITE_PTX=/work/wt/regs-suite).  The suites'
# programs as the experiments build them (experiments/suites/suites.sh: -O2
# and the compatibility header) can differ from those PTX files; for them,
# compile the kernel file with suites.sh's flags and pass it.  Where the
# dumps differ, the "regs:" lines of both are printed (the count moved) or
# "same count" (only the code or the register map moved).  One "same FILE"
# or "DIFF FILE" line each; the exit status is 1 when any differs.
[ $# -ge 2 ] || { echo "usage: lowered_same.sh REF_BUILD NEW_BUILD [FILE.ptx ...]" >&2; exit 2; }
ref=$1 new=$2
shift 2
for b in "$ref" "$new"; do
    [ -x "$b/bin/tpsim" ] || { echo "lowered_same: $b/bin/tpsim not built" >&2; exit 2; }
done
if [ $# -eq 0 ]; then
    set -- experiments/regmutex/kernels/*.ptx experiments/warppool/kernels/*.ptx
    for f in tests/hardware/*.ptx; do [ -f "$f" ] && set -- "$@" "$f"; done
    if [ -n "${SUITE_PTX:-}" ] && [ -d "$SUITE_PTX" ]; then set -- "$@" "$SUITE_PTX"/*.ptx; fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
    "$ref/bin/tpsim" ptx --lowered --dump "$f" >"$tmp/a" 2>&1
    "$new/bin/tpsim" ptx --lowered --dump "$f" >"$tmp/b" 2>&1
    if cmp -s "$tmp/a" "$tmp/b"; then
        echo "same $f"
        continue
    fi
    status=1
    # one line per function: its name and count
    counts() { awk '/^(kernel|func) / { n = $2 } /^  regs:/ { sub(/^  regs: /, ""); print n " " $0 }' "$1"; }
    counts "$tmp/a" >"$tmp/ra"
    counts "$tmp/b" >"$tmp/rb"
    if cmp -s "$tmp/ra" "$tmp/rb"; then
        echo "DIFF $f (same counts)"
    else
        echo "DIFF $f:"
        paste -d'|' "$tmp/ra" "$tmp/rb" | awk -F'|' '$1 != $2 { split($2, b, " "); print "    " $1 " -> " b[2] }'
    fi
done
exit $status
