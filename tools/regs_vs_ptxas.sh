#!/bin/sh
# regs_vs_ptxas.sh -- tpsim's register count beside ptxas's, per kernel.
#
#   sh tools/regs_vs_ptxas.sh [--md] [FILE.ptx ...]
#
# For every kernel of the given PTX files (default: every PTX file of the
# repository that is a program, not a fuzzing seed or a parser test: tests/
# kernels, bench, polybench, ubench, examples/driver, experiments/regmutex)
# prints: file, kernel, tpsim regs (`tpsim ptx`),
# ptxas regs (`ptxas -arch=sm_XX -v`, XX from the file's .target, sm_75 when
# it is older), difference (tpsim - ptxas); then the mean absolute
# difference, its median and how many kernels are off by more than 8.
# --md prints a Markdown table (docs/REGISTERS.md holds one).  For public
# suites' kernels: sh tools/suite_ptx.sh DIR, then this on DIR/*.ptx.
# Needs ptxas on PATH or in /usr/local/cuda/bin, and a built tpsim
# ($BUILD/bin/tpsim, BUILD defaults to build).  IFCONVERT=N counts tpsim's
# registers with `tpsim ptx --ifconvert N` (exec.ifconvert, as the rtx2060
# configuration lowers).
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
md=0
if [ "$1" = "--md" ]; then md=1; shift; fi
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [ ! -x "$PTXAS" ]; then echo "regs_vs_ptxas: ptxas not found" >&2; exit 1; fi
if [ ! -x "$TPSIM" ]; then echo "regs_vs_ptxas: $TPSIM not built (make BUILD=$BUILD)" >&2; exit 1; fi
[ $# -eq 0 ] && set -- tests/kernels/*.ptx tests/bench/bench.ptx tests/polybench/*.ptx tests/ubench/*.ptx \
    examples/driver/*.ptx experiments/regmutex/kernels/*.ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
    sm=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*sm_\([0-9]*\).*/\1/p' "$f" | head -1)
    [ -z "$sm" ] || [ "$sm" -lt 75 ] && sm=75
    "$TPSIM" ptx --ifconvert "${IFCONVERT:-0}" "$f" 2>/dev/null | awk -v f="$(basename "$f")" '
        /^kernel / { k = $2 }
        /^(func|declared) / { k = "" }
        /^  regs: / && k != "" { print f, k, $2; k = "" }' | sort -k2,2 >"$tmp/t"
    "$PTXAS" -arch=sm_$sm -v "$f" -o /dev/null 2>&1 | awk '
        /Compiling entry function/ { k = $0; sub(/.*function .\047?/, "", k); sub(/\047 for.*/, "", k) }
        /Used [0-9]+ registers/ && k != "" { for (i = 1; i <= NF; i++) if ($i == "Used") print k, $(i + 1); k = "" }' |
        sort -k1,1 >"$tmp/p"
    join -1 2 -2 1 -a 1 -e - -o 1.1,0,1.3,2.2 "$tmp/t" "$tmp/p" >>"$tmp/all"
done
awk -v md=$md '
    BEGIN { if (md) { print "| file | kernel | tpsim | ptxas | diff |"; print "| --- | --- | ---: | ---: | ---: |" }
            else printf "%-16s %-18s %6s %6s %6s\n", "file", "kernel", "tpsim", "ptxas", "diff" }
    {
        d = ($4 == "-") ? "-" : $3 - $4
        if (d != "-") { n++; a = (d < 0 ? -d : d); s += a; abs[n] = a; if (a > 8) over++; if (d > 0) hi++; else if (d < 0) lo++; else eq++ }
        if (md) printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, d
        else printf "%-16s %-18s %6s %6s %6s\n", $1, $2, $3, $4, d
    }
    END { if (!n) exit
          for (i = 2; i <= n; i++) { x = abs[i]; for (j = i - 1; j >= 1 && abs[j] > x; j--) abs[j + 1] = abs[j]; abs[j + 1] = x }
          med = n % 2 ? abs[(n + 1) / 2] : (abs[n / 2] + abs[n / 2 + 1]) / 2
          printf "%skernels: %d, mean |diff|: %.2f, median %g, over 8: %d (tpsim higher %d, lower %d, equal %d)\n",
                 md ? "\n" : "", n, s / n, med, over + 0, hi, lo, eq }' "$tmp/all"
