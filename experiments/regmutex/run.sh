#!/bin/sh
# run.sh -- the RegMutex experiments (docs/EXPERIMENTS.md): both of the
# paper's studies, in one command, with tpsim's own kernels of the paper's
# applications (experiments/regmutex/kernels, host side rmbench.c).
#
#   sh experiments/regmutex/run.sh [-j N] [--out DIR] [--only NAME,...] [--variant V,...] [--suites SRC]
#
# --only runs the points of those programs again, --variant those of those
# variants (both: their intersection); the tables and figures are made from
# every point whose results are in DIR (DIR/points, or for a point never run
# there, its row of DIR/regmutex.csv: a fresh checkout's committed results).
# Experiment 1 (the paper's slides 16 and 18): BFS CP CUTCP DWT2D HOTSPOT MD
# MRI-Q RadixSort ParticleFilter SAD on the GTX 480 (128 KB of registers per
# SM), each as
#   baseline   gtx480
#   regmutex   gtx480, regmutex=1
#   owf        gtx480, owf=1 (Owner-Warp-First sharing, Jatala et al.)
#   unlimited  gtx480 with a register file that never limits occupancy
#   rfv        gtx480, regs.policy=rfv (Register File Virtualization, Jeon
#              et al., the third bar of slide 18)
# Experiment 2 (slide 17): Gaussian HeartWall LavaMD MergeSort MonteCarlo
# SPMV SRAD TPACF on
#   rf128      gtx480 (the 128 KB reference)
#   rf64       gtx480-rf64k (64 KB of registers per SM)
#   rf64-rm    gtx480-rf64k, regmutex=1
# Every variant runs the same code, the register-allocated one
# (regs.physical=1, which every register-sharing policy implies): the scheduled code
# performs differently from the PTX as written, and only the register
# sharing may differ between a point and its baseline.
#
# Every point runs `rmbench NAME` (which checks its results against the CPU)
# in performance mode with its statistics file; a point whose check fails is
# marked `failed` in the CSV.  Writes DIR/regmutex.csv (one row per point:
# experiment, program, variant, config, options, cycles, CTAs per SM and
# occupancy of the benchmark's main kernel -- the one with the most cycles --,
# RegMutex's sections and acquires, the policy's stall cycles, status), then
# DIR/exp1.csv and DIR/exp2.csv (one row per program with the derived
# columns the figures draw) and three figures in the style of the paper's
# slides: DIR/exp1-regmutex.png (cycle reduction and occupancy before and
# with RegMutex), DIR/exp2-rf64.png (cycle increase with a 64 KB register
# file, without and with RegMutex, and occupancy), DIR/exp1-compare.png
# (cycle reduction of OWF, RFV, RegMutex and the unlimited register file).
# Default DIR: experiments/regmutex/results.
#
# --suites SRC runs the public suites' own programs instead (experiments/suites.md:
# SRC/rodinia, SRC/parboil, SRC/cuda-samples, SRC/polybench), built by
# experiments/suites/suites.sh into $BUILD/suites/regmutex and run with `tpsim run`
# (the same variants; the program's own output check, where it has one,
# decides ok or failed; a program that cannot be built or has no input is
# `skipped`, with the reason in its log).  Default DIR then:
# experiments/regmutex/results-suites.  Needs a built tree (make all
# unit: build/bin/tpsim, build/experiments/regmutex/rmbench) and gnuplot for
# the figures.  BUILD picks another build directory.
#
# This is the plain-script form of experiments/regmutex/exp1.sweep and
# exp2.sweep (the same points for `tpsim sweep`, docs/SWEEPS.md).
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$root/$BUILD" ;; esac
work="$BUILD/suites/regmutex" # --suites: the builds and generated inputs (not in the repository)
RMBENCH="$BUILD/experiments/regmutex/rmbench"
# one point: runs rmbench, leaves points/EXP-PROG-VARIANT.{json,log,status}
point() {
    e=$1 p=$2 v=$3 cfg=$4
    shift 4
    opts="$*"
    [ "$opts" = "-" ] && opts=""
    base="$out/points/$e-$p-$v"
    if [ -n "$suites" ]; then
        # the suite's program, built in $work/$p (experiments/suites/suites.sh)
        # shellcheck disable=SC2086
        sh "$SUITES" point "$BUILD/bin/tpsim" "$cfg" "$work" "$p" "$base" $opts
        echo "  $e $p $v: $(cat "$base.status")"
        return 0
    fi
    if (cd "$root" && TPSIM_MODE=performance TPSIM_CONFIG="$cfg" TPSIM_OPTIONS="$opts" TPSIM_STATS="$base.json" \
        "$RMBENCH" --ptx "$here/kernels" "$p") >"$base.log" 2>&1; then
        echo ok >"$base.status"
    else
        echo failed >"$base.status"
    fi
    echo "  $e $p $v: $(cat "$base.status")"
}

SUITES="$root/experiments/suites/suites.sh"
suites=""
if [ "$1" = "--point" ]; then # internal: run.sh --point OUT SUITES EXP PROG VARIANT CONFIG OPTIONS...
    out=$2
    suites=$3
    [ "$suites" = "-" ] && suites=""
    shift 3
    point "$@"
    exit 0
fi
jobs=1
out="$here/results"
only=""
variants=""
while [ $# -gt 0 ]; do
    case "$1" in
    -j) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --variant) variants=$2; shift 2 ;;
    --suites) [ $# -ge 2 ] || { echo "run.sh: --suites needs a directory (experiments/suites.md)" >&2; exit 2; }
        suites=$2; shift 2 ;;
    *) echo "usage: run.sh [-j N] [--out DIR] [--only NAME,...] [--variant V,...] [--suites DIR]" >&2; exit 2 ;;
    esac
done
if [ -n "$suites" ]; then
    sh "$SUITES" check "$suites" rodinia parboil cuda-samples || exit 2
    suites=$(cd "$suites" && pwd)
    [ "$out" = "$here/results" ] && out="$here/results-suites"
    [ -x "$BUILD/bin/tpsim" ] || { echo "run.sh: $BUILD/bin/tpsim is not built (make all)" >&2; exit 1; }
else
    [ -x "$RMBENCH" ] || { echo "run.sh: $RMBENCH is not built (make all unit)" >&2; exit 1; }
fi
mkdir -p "$out/points"

EXP1="bfs cp cutcp dwt2d hotspot md mriq radixsort particlefilter sad"
EXP2="gaussian heartwall lavamd mergesort montecarlo spmv srad tpacf"
# the unlimited register file: registers never limit occupancy; the code is
# compiled for the real file (regs.bounds_file: launch bounds still cap a
# kernel's registers as on the GTX 480's 32768, docs/REGISTERS.md)
UNLIMITED="device.regs_per_sm=1048576 device.regs_per_block=1048576 regs.bounds_file=32768"

wanted() { # PROGRAM VARIANT
    { [ -z "$only" ] || case ",$only," in *",$1,"*) true ;; *) false ;; esac; } &&
        { [ -z "$variants" ] || [ -z "$2" ] || case ",$variants," in *",$2,"*) true ;; *) false ;; esac; }
}

# the points: experiment program variant config options
{
    for p in $EXP1; do
        echo "1 $p baseline gtx480 regs.physical=1"
        echo "1 $p regmutex gtx480 regmutex=1"
        echo "1 $p owf gtx480 owf=1"
        echo "1 $p unlimited gtx480 regs.physical=1 $UNLIMITED"
        echo "1 $p rfv gtx480 regs.policy=rfv"
    done
    for p in $EXP2; do
        echo "2 $p rf128 gtx480 regs.physical=1"
        echo "2 $p rf64 gtx480-rf64k regs.physical=1"
        echo "2 $p rf64-rm gtx480-rf64k regmutex=1"
        echo "2 $p unlimited gtx480 regs.physical=1 $UNLIMITED"
    done
} >"$out/points.txt"

# the suites' programs: built once into $work/NAME (a program that cannot
# be built or has no input gets its reason in $work/NAME/skip)
if [ -n "$suites" ]; then
    mkdir -p "$work"
    for p in $EXP1 $EXP2; do
        wanted "$p" "" || continue
        rm -f "$work/$p/skip"
        r=$(sh "$SUITES" build "$suites" "$work" "$p")
        echo "run.sh: build $p: $r"
        [ "$r" = ok ] || { mkdir -p "$work/$p"; echo "${r#skip: }" >"$work/$p/skip"; }
    done
fi

# the points to run now (--only, --variant: those; the CSV keeps every result there is)
while read -r e p v cfg opts; do
    wanted "$p" "$v" && echo "$e $p $v $cfg $opts"
done <"$out/points.txt" >"$out/torun.txt"
n=$(wc -l <"$out/torun.txt")
echo "run.sh: $n points, $jobs at a time"
if [ "$jobs" -gt 1 ]; then
    # each point through this script (sh has no exported functions)
    BUILD="$BUILD" xargs -P "$jobs" -L 1 sh "$here/run.sh" --point "$out" "${suites:--}" <"$out/torun.txt" || true
else
    while read -r e p v cfg opts; do
        point "$e" "$p" "$v" "$cfg" $opts
    done <"$out/torun.txt"
fi
rm -f "$out/torun.txt"

# ---- the CSV -------------------------------------------------------------------------
# From a statistics file: the kernels' total cycles, then of the kernel with
# the most cycles its CTAs per SM, warps per CTA (from its block) and the
# RegMutex counters and the policy's stall cycles (regmutex.stall_cycles or
# rfv.stall_cycles; summed over kernels).
stats() {
    awk '
    function num(s) { sub(/^[^:]*: */, "", s); sub(/[,}].*$/, "", s); return s + 0 }
    /^  "kernels": \[/ { ink = 1; next }
    /^  "[a-z_]*": / { ink = 0 }
    !ink { next }
    /^      "name": / { nk++; blk[nk] = 0; sect = "" }
    /^      "[a-z_.0-9]*": \{/ { sect = $1; gsub(/[":]/, "", sect) }
    /^      "block": \[/ { s = $0; sub(/.*"block": \[/, "", s); split(s, d, /[],]/); blk[nk] = int((d[1] * d[2] * d[3] + 31) / 32) }
    /^      "grid": \[/ { s = $0; sub(/.*"grid": \[/, "", s); split(s, d, /[],]/); grid[nk] = d[1] * d[2] * d[3] }
    /^      "cycles": / { cyc[nk] = num($0); tot += cyc[nk] }
    /^      "ctas_per_sm": / { ctas[nk] = num($0) }
    sect == "regmutex" && /"sections": / { sec[nk] = num($0) }
    sect == "regmutex" && /"acquires": / { acq += num($0) }
    (sect == "regmutex" || sect == "rfv") && /"stall_cycles": / { stall += num($0) }
    END {
        m = 1
        for (i = 1; i <= nk; i++) if (cyc[i] > cyc[m]) m = i
        printf "%d,%d,%d,%d,%d,%d,%d\n", tot, ctas[m], blk[m], sec[m], acq, stall, grid[m]
    }' "$1"
}

csv="$out/regmutex.csv"
# a point that has no files in points/ (a fresh checkout's committed results,
# run again only in part with --only/--variant) keeps its row of the CSV there
old="$out/regmutex.csv.old"
rm -f "$old"
[ -f "$csv" ] && cp "$csv" "$old"
echo "experiment,program,variant,config,options,cycles,ctas_per_sm,warps_per_cta,occupancy,sections,acquires,stall_cycles,status,grid_ctas,waves" >"$csv"
while read -r e p v cfg opts; do
    base="$out/points/$e-$p-$v"
    st=$(cat "$base.status" 2>/dev/null || echo missing)
    [ "$opts" = "-" ] && opts=""
    if [ "$st" = ok ] && [ -f "$base.json" ]; then
        s=$(stats "$base.json")
        echo "$s" | awk -F, -v e="$e" -v p="$p" -v v="$v" -v c="$cfg" -v o="$opts" -v st="$st" \
            '{ printf "%s,%s,%s,%s,\"%s\",%d,%d,%d,%.4f,%d,%d,%d,%s,%d,%.2f\n", e, p, v, c, o, $1, $2, $3, $2 * $3 / 48, $4, $5, $6, st, $7, $2 ? $7 / (15 * $2) : 0 }' >>"$csv"
    elif [ "$st" = missing ] && [ -f "$old" ] &&
        row=$(grep -m 1 "^$e,$p,$v,$cfg,\"$opts\",.*,\(ok\|skipped\|failed\)," "$old"); then
        echo "$row" >>"$csv"
    else
        echo "$e,$p,$v,$cfg,\"$opts\",,,,,,,,$st,," >>"$csv"
    fi
done <"$out/points.txt"
rm -f "$old"

# ---- the pass's decision per program ---------------------------------------------------
# `tpsim regmutex` on the program's PTX with the experiment's register file:
# applies when it marks any kernel; else the reason it gives for the first
# register-limited kernel (or the first kernel's).
TPSIM="$BUILD/bin/tpsim"
decide() { # EXPERIMENT PROGRAM CONFIG
    ptx="$here/kernels/$2.ptx"
    [ -n "$suites" ] && ptx="$work/$2/prog.ptx"
    if [ ! -f "$ptx" ] && [ ! -f "$work/$2/skip" ] && [ -f "$olddec" ] &&
        row=$(grep -m 1 "^$1,$2," "$olddec"); then # not built by this run (--only): its earlier decision
        echo "${row#"$1,$2,"}"
        return
    fi
    set -- "$2" "$3"
    if [ ! -f "$ptx" ]; then # a suite's program that was skipped: the reason (commas and quotes out, for the CSV)
        echo "no,\"skipped: $(tr -d '"' <"$work/$1/skip" 2>/dev/null | tr ',' ';' || echo not built)\""
        return
    fi
    "$TPSIM" regmutex "$ptx" --config "$2" 2>/dev/null | awk '
        /^  regmutex: on:/ { on = 1 }
        /^  regmutex: off:/ { w = $0; sub(/^  regmutex: off: /, "", w); gsub(/[",]/, ";", w)
                              if (w !~ /do not limit/ && lim == "") lim = w; if (first == "") first = w }
        END { if (on) print "yes,"; else printf "no,\"%s\"\n", lim != "" ? lim : first }'
}
olddec="$out/decisions.csv.old"
rm -f "$olddec"
[ -f "$out/decisions.csv" ] && cp "$out/decisions.csv" "$olddec"
echo "experiment,program,applies,why" >"$out/decisions.csv"
for p in $EXP1; do echo "1,$p,$(decide 1 "$p" gtx480)"; done >>"$out/decisions.csv"
for p in $EXP2; do echo "2,$p,$(decide 2 "$p" gtx480-rf64k)"; done >>"$out/decisions.csv"
rm -f "$olddec"

# ---- per-program tables and figures -----------------------------------------------------
awk -F, -v OFS=, '
    FNR == NR { if (FNR > 1) { ap[$1, $2] = $3; w = $0; sub(/^[^,]*,[^,]*,[^,]*,/, "", w); why[$1, $2] = w }; next }
    FNR > 1 && $1 == 1 { cyc[$2, $3] = $6; occ[$2, $3] = $9; wav[$2, $3] = $15; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
    END {
        print "program,cycles_baseline,cycles_regmutex,cycles_owf,cycles_unlimited,reduction_regmutex,reduction_owf,reduction_unlimited,occupancy_initial,occupancy_regmutex,cycles_rfv,reduction_rfv,occupancy_rfv,occupancy_unlimited,waves,applies,why"
        for (i = 1; i <= n; i++) {
            p = order[i]; b = cyc[p, "baseline"]
            r = b && cyc[p, "regmutex"] ? 1 - cyc[p, "regmutex"] / b : ""
            o = b && cyc[p, "owf"] ? 1 - cyc[p, "owf"] / b : ""
            u = b && cyc[p, "unlimited"] ? 1 - cyc[p, "unlimited"] / b : ""
            f = b && cyc[p, "rfv"] ? 1 - cyc[p, "rfv"] / b : ""
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", p, b, cyc[p, "regmutex"], cyc[p, "owf"], cyc[p, "unlimited"], r, o, u, occ[p, "baseline"], occ[p, "regmutex"], cyc[p, "rfv"], f, occ[p, "rfv"], occ[p, "unlimited"], wav[p, "baseline"], ap[1, p], why[1, p]
        }
    }' "$out/decisions.csv" "$csv" >"$out/exp1.csv"
awk -F, -v OFS=, '
    FNR == NR { if (FNR > 1) { ap[$1, $2] = $3; w = $0; sub(/^[^,]*,[^,]*,[^,]*,/, "", w); why[$1, $2] = w }; next }
    FNR > 1 && $1 == 2 { cyc[$2, $3] = $6; occ[$2, $3] = $9; wav[$2, $3] = $15; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
    END {
        print "program,cycles_rf128,cycles_rf64,cycles_rf64_regmutex,increase_rf64,increase_rf64_regmutex,occupancy_rf128,occupancy_rf64,occupancy_rf64_regmutex,cycles_unlimited,increase_unlimited,occupancy_unlimited,waves_rf128,applies,why"
        for (i = 1; i <= n; i++) {
            p = order[i]; b = cyc[p, "rf128"]
            a = b && cyc[p, "rf64"] ? cyc[p, "rf64"] / b - 1 : ""
            r = b && cyc[p, "rf64-rm"] ? cyc[p, "rf64-rm"] / b - 1 : ""
            u = b && cyc[p, "unlimited"] ? cyc[p, "unlimited"] / b - 1 : ""
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", p, b, cyc[p, "rf64"], cyc[p, "rf64-rm"], a, r, occ[p, "rf128"], occ[p, "rf64"], occ[p, "rf64-rm"], cyc[p, "unlimited"], u, occ[p, "unlimited"], wav[p, "rf128"], ap[2, p], why[2, p]
        }
    }' "$out/decisions.csv" "$csv" >"$out/exp2.csv"

# means (arithmetic), printed and kept: over the programs where the pass
# applies (the paper's averages), over all, and the others listed apart
awk -F, '
    NR > 1 { for (i = 6; i <= 12; i++) if ($i != "") { s[i] += $i; n[i]++; if ($16 == "yes") { sa[i] += $i; na[i]++ } }
             if ($16 == "yes") { ap = ap " " $1; oa += $9; ob += $10; no++ } else { w = $17; gsub(/"/, "", w); off = off "  " $1 ": " w "\n" } }
    function m(a, b, i) { return 100 * a[i] / (b[i] ? b[i] : 1) }
    END {
        printf "experiment 1: the pass applies to%s (%d of %d): mean cycle reduction RegMutex %.1f%%, unlimited register file %.1f%%, OWF %.1f%%, RFV %.1f%%; occupancy %.2f -> %.2f\n",
            ap, no, NR - 1, m(sa, na, 6), m(sa, na, 8), m(sa, na, 7), m(sa, na, 12), oa / (no ? no : 1), ob / (no ? no : 1)
        printf "experiment 1, all %d programs: mean cycle reduction RegMutex %.1f%%, OWF %.1f%%, unlimited register file %.1f%%, RFV %.1f%%\n",
            NR - 1, m(s, n, 6), m(s, n, 7), m(s, n, 8), m(s, n, 12)
        printf "experiment 1, the pass declines or gives up:\n%s", off
    }' "$out/exp1.csv" | tee "$out/summary.txt"
awk -F, '
    NR > 1 { for (i = 5; i <= 6; i++) if ($i != "") { s[i] += $i; n[i]++; if ($14 == "yes") { sa[i] += $i; na[i]++ } }
             if ($11 != "") { s[11] += $11; n[11]++; if ($14 == "yes") { sa[11] += $11; na[11]++ } }
             if ($14 == "yes") { ap = ap " " $1; no++ } else { w = $15; gsub(/"/, "", w); off = off "  " $1 ": " w "\n" } }
    function m(a, b, i) { return 100 * a[i] / (b[i] ? b[i] : 1) }
    END {
        printf "experiment 2: the pass applies to%s (%d of %d): mean cycle increase with 64 KB without RegMutex %.1f%%, with RegMutex %.1f%% (unlimited register file %.1f%%)\n",
            ap, no, NR - 1, m(sa, na, 5), m(sa, na, 6), m(sa, na, 11)
        printf "experiment 2, all %d programs: without RegMutex %.1f%%, with RegMutex %.1f%% (unlimited register file %.1f%%)\n",
            NR - 1, m(s, n, 5), m(s, n, 6), m(s, n, 11)
        printf "experiment 2, the pass declines or gives up:\n%s", off
    }' "$out/exp2.csv" | tee -a "$out/summary.txt"

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "run.sh: gnuplot not found: no figures" >&2
    exit 0
fi
# gnuplot reads the CSVs directly (empty cells are missing points)
cat >"$out/figures.gp" <<EOF
set datafile separator ","
set terminal pngcairo size 1100,520 font "Sans,11"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key below
set grid ytics
set xtics rotate by -30
set y2tics
set y2range [0:1.05]
set y2label "occupancy (of 48 warps)"
set format y "%.0f%%"

set output "$out/exp1-regmutex.png"
set title "Experiment 1 (GTX 480, 128 KB registers per SM): RegMutex"
set ylabel "execution cycle reduction (higher is better)"
plot "$out/exp1.csv" using (100*column("reduction_regmutex")):xtic(1) title "cycle reduction with RegMutex" lc rgb "#4472c4", \
     "" using (100*column("reduction_unlimited")) title "unlimited register file (the bound)" lc rgb "#70ad47", \
     "" using 0:(column("occupancy_initial")) axes x1y2 with linespoints pt 7 lc rgb "#ed7d31" title "initial occupancy", \
     "" using 0:(column("occupancy_regmutex")) axes x1y2 with linespoints pt 5 lc rgb "#7030a0" title "occupancy with RegMutex"

set output "$out/exp2-rf64.png"
set title "Experiment 2 (GTX 480 with 64 KB registers per SM, against 128 KB)"
set ylabel "execution cycle increase (lower is better)"
plot "$out/exp2.csv" using (100*column("increase_rf64")):xtic(1) title "without RegMutex" lc rgb "#a5a5a5", \
     "" using (100*column("increase_rf64_regmutex")) title "with RegMutex" lc rgb "#4472c4", \
     "" using (100*column("increase_unlimited")) title "unlimited register file (the bound)" lc rgb "#70ad47", \
     "" using 0:(column("occupancy_rf64")) axes x1y2 with linespoints pt 7 lc rgb "#ed7d31" title "initial occupancy (64 KB)", \
     "" using 0:(column("occupancy_rf64_regmutex")) axes x1y2 with linespoints pt 5 lc rgb "#7030a0" title "occupancy with RegMutex"

unset y2tics
unset y2label
set output "$out/exp1-compare.png"
set title "Experiment 1: Owner-Warp-First, RFV, RegMutex and an unlimited register file"
set ylabel "execution cycle reduction (higher is better)"
plot "$out/exp1.csv" using (100*column("reduction_owf")):xtic(1) title "OWF" lc rgb "#a5a5a5", \
     "" using (100*column("reduction_rfv")) title "RFV" lc rgb "#ffc000", \
     "" using (100*column("reduction_regmutex")) title "RegMutex" lc rgb "#4472c4", \
     "" using (100*column("reduction_unlimited")) title "unlimited register file" lc rgb "#70ad47"
EOF
gnuplot "$out/figures.gp" && echo "run.sh: $csv, $out/exp1.csv, $out/exp2.csv, $out/*.png"
