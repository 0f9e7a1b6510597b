#!/bin/sh
# regfile.sh -- the RegMutex experiments' suite programs on tpsim and on
# GPGPU-Sim 4.2 at two register files each (issue 21: a gap to the paper
# measured in both simulators, not only in tpsim).
#
#   sh experiments/side/regfile.sh --suites DIR [--gpgpusim SRC] [--out DIR] [-j N] NAME...
#   sh experiments/side/regfile.sh --table [--out DIR]
#
# NAME is a program of experiments/regmutex/run.sh's suite set (bfs, cp,
# hotspot, mriq, srad, ...: experiments/suites/suites.sh list).  It is built
# from DIR's checkouts as experiments/suites/suites.sh builds it, with
# -no-compress (plain-text PTX in the fatbinary, which GPGPU-Sim reads),
# into OUT/build/NAME, and run unmodified, its own output check applied
# (suites.sh verify), in two variants:
#   experiment 1 programs: "file"      the GTX 480's 32,768 registers per SM
#                          "unlimited" registers never limit occupancy
#   experiment 2 programs: "rf128"     32,768 registers (128 KB)
#                          "rf64"      16,384 registers (64 KB)
# on
#   tpsim:     build/bin/tpsim run --mode performance --config gtx480 (or
#              gtx480-rf64k) -o regs.physical=1, as the experiment's points
#              (unlimited: its UNLIMITED options): the scheduled, allocated code;
#   tpsim-ptx: the same with regs.physical=0: nvcc's PTX in program order, as
#              GPGPU-Sim runs it;
#   tpsim-gs:  tpsim-ptx with FP64 arithmetic and divisions on the SFU and an
#              f64 rcp/sqrt one SFU operation (sm.dp_pipe=sfu sm.div_pipe=sfu
#              lat.dp_rcp=20 ii.dp_rcp=8), as GPGPU-Sim 4.2 issues them;
#   GPGPU-Sim: the SM2_GTX480 configuration (../shared/gpgpusim/prep-gtx480.sh)
#              with -gpgpu_shader_registers 32768, 16384 or 1048576.
# Each simulator decides the CTAs per SM itself from its register count
# (tpsim: its allocator's; GPGPU-Sim: ptxas's, rounded up to 4).  Without
# --gpgpusim only tpsim's rows are made.  -j N runs N points at a time.
# Each point keeps its files in OUT/runs/NAME-VARIANT-SIMULATOR (the
# program's output, tpsim's statistics, GPGPU-Sim's log).  OUT/regfile.csv
# is made again from every point there (program, variant, simulator,
# cycles, launches, each launch's cycles, CTAs per SM, the output check:
# the columns of `row` below), and a table printed: per program and
# simulator the cycles of both variants and the change, over the launches
# both have statistics for.  --table only makes the CSV and the table.
# SUITE_MRIQ=X_K (suites.sh) runs MRI-Q at another size.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiments/side/sims.sh
. "$here/sims.sh"
UNLIMITED="device.regs_per_sm=1048576 device.regs_per_block=1048576 regs.bounds_file=32768"
# GPGPU-Sim's reciprocal or square root of an f64: one SFU operation (tpsim's
# SFU class on the GTX 480: lat.sfu 20, ii.sfu 8)
RCP_SFU="20 ii.dp_rcp=8"
EXP1="bfs cp cutcp dwt2d hotspot md mriq radixsort particlefilter sad"
EXP2="gaussian heartwall lavamd mergesort spmv srad tpacf"

# row DIR: the CSV row of the point in DIR (runs/NAME-VARIANT-SIM, its
# files: meta, status, tpsim.json or gpgpusim.log): program, variant,
# simulator, cycles (the launches' sum), launches (with statistics, and for
# GPGPU-Sim "/" the launches it started: its last launch's statistics can
# be lost when the program exits first), each launch's cycles, each
# kernel's CTAs per SM (tpsim: each launch; GPGPU-Sim: each change of
# kernel, as it prints them), the output check
row() {
    read -r _n _v _s <"$1/meta"
    _st=$(cat "$1/status" 2>/dev/null || echo failed)
    case $_s in
    tpsim*) _r=$(python3 -c '
import json, sys
try:
    ks = json.load(open(sys.argv[1]))["kernels"]
except Exception:
    sys.exit(0)
print("%d,%d,%s,%s" % (sum(k["cycles"] for k in ks), len(ks), ";".join(str(k["cycles"]) for k in ks),
                       ";".join(str(k["ctas_per_sm"]) for k in ks)))' "$1/tpsim.json") ;;
    gpgpusim) _r=$(awk '
        /^gpu_sim_cycle/ { s += $3; n++; l = l (l == "" ? "" : ";") $3 }
        /^GPGPU-Sim uArch: CTA\/core = / { c = c (c == "" ? "" : ";") ($5 + 0) }
        /bind to kernel [0-9]+ / { for (i = 1; i < NF; i++) if ($i == "kernel" && $(i + 1) + 0 > m) m = $(i + 1) + 0 }
        END { if (n) printf "%d,%s,%s,%s\n", s, m <= n ? n : n "/" m, l, c }' "$1/gpgpusim.log") ;;
    esac
    echo "$_n,$_v,$_s,${_r:-,,,},$_st"
}

# one point (run by xargs): --point OUT SUITE_OUT TPSIM GS NAME VARIANT SIM
if [ "${1:-}" = --point ]; then
    out=$2 sout=$3 tpsim=$4 gs=$5 n=$6 v=$7 sim=$8
    tag=$n-$v-$sim
    d=$out/runs/$tag
    rm -rf "$d"
    mkdir -p "$d"
    echo "$n $v $sim" >"$d/meta"
    # a copy of the program's folder of its own (its outputs, GPGPU-Sim's
    # files), at the same depth as the build's, so relative inputs resolve
    cp -r "$sout/$n" "$d/$n"
    # (dwt2d reads ../../data/dwt2d/: OUT/data, next to OUT/build, as suites.sh makes it)
    [ -e "$out/runs/data" ] || ln -s ../data "$out/runs/data" 2>/dev/null || true
    case $sim in
    tpsim*)
        # tpsim: as the experiment's points (the scheduled, allocated code);
        # tpsim-ptx: nvcc's PTX in program order, as GPGPU-Sim 4.2 runs it;
        # tpsim-gs: that, and FP64 arithmetic and divisions on the SFU, an
        # f64 reciprocal or root one SFU operation, as GPGPU-Sim 4.2's
        # SM2_GTX480 issues them (docs/EXPERIMENTS.md)
        case $sim in
        tpsim) o="regs.physical=1" ;;
        tpsim-ptx) o="regs.physical=0" ;;
        tpsim-gs) o="regs.physical=0 sm.dp_pipe=sfu sm.div_pipe=sfu lat.dp_rcp=$RCP_SFU" ;;
        esac
        cfg=gtx480
        case $v in
        unlimited) o="$o $UNLIMITED" ;;
        rf64) cfg=gtx480-rf64k ;;
        esac
        # shellcheck disable=SC2086
        sh "$SUITES" point "$tpsim" "$cfg" "$d" "$n" "$d/tpsim" $o
        cp "$d/tpsim.status" "$d/status"
        ;;
    gpgpusim)
        case $v in
        file | rf128) r=32768 ;;
        unlimited) r=1048576 ;;
        rf64) r=16384 ;;
        esac
        args=$(sh "$SUITES" args "$n")
        # shellcheck disable=SC2086
        if side_gs_run "$gs" "$d/$n" "$d/gpgpusim.log" "-gpgpu_shader_registers $r" $args &&
            sh "$SUITES" verify "$n" "$d" "$d/gpgpusim.log"; then echo ok; else echo failed; fi >"$d/status"
        ;;
    esac
    r=$(row "$d")
    echo "$r" >"$d/row.csv"
    echo "regfile.sh: $r"
    # the copy's large inputs go; the logs and statistics stay
    rm -rf "${d:?}/${n:?}"
    exit 0
fi

side_options regfile.sh "$here/results/regfile" 45 "$@"
shift "$side_n"
if [ -z "$table" ]; then
    [ $# -gt 0 ] || { echo "usage: regfile.sh --suites DIR [--gpgpusim SRC] [--out DIR] [-j N] NAME... | --table [--out DIR]" >&2; exit 2; }
    [ -n "$suites" ] || { echo "regfile.sh: --suites DIR is needed (experiments/suites.md)" >&2; exit 2; }
    side_setup regfile.sh
    out=$(cd "$out" && pwd)
    suites=$(cd "$suites" && pwd)
    side_nvcc
    mkdir -p "$out/build" "$out/runs"
    : >"$work/torun"
    for n in "$@"; do
        case " $EXP1 " in *" $n "*) vs="file unlimited" ;;
        *) case " $EXP2 " in *" $n "*) vs="rf128 rf64" ;;
            *) echo "regfile.sh: $n is not a program of the RegMutex experiments ($EXP1; $EXP2)" >&2; exit 2 ;; esac ;;
        esac
        r=$(NVCC="$work/nvcc" sh "$SUITES" build "$suites" "$out/build" "$n")
        echo "regfile.sh: build $n: $r"
        [ "$r" = ok ] || continue
        for v in $vs; do
            [ -z "$gs" ] || echo "--point $out $out/build $tpsim $gs $n $v gpgpusim" >>"$work/torun"
            for t in tpsim tpsim-ptx tpsim-gs; do
                echo "--point $out $out/build $tpsim - $n $v $t" >>"$work/torun"
            done
        done
    done
    # GPGPU-Sim's points first: they take the longest
    sort -s -t' ' -k8,8 "$work/torun" -o "$work/torun"
    xargs -P "$jobs" -L 1 sh "$0" <"$work/torun" || true
else
    [ -d "$out/runs" ] || { echo "regfile.sh: no runs in $out (run some points first)" >&2; exit 2; }
    out=$(cd "$out" && pwd)
fi
# the CSV: every point's row, made again from its files
csv=$out/regfile.csv
echo "program,variant,simulator,cycles,launches,launch_cycles,ctas_per_sm,check" >"$csv.new"
for d in "$out"/runs/*/; do
    [ -f "$d/meta" ] && row "${d%/}"
done | sort -t, -k1,1 -k3,3 -k2,2 >>"$csv.new"
mv "$csv.new" "$csv"
# per program and simulator: the change from the first variant to the
# second, over the launches both runs have statistics for
awk -F, '
    function first(list, m,   a, i, t) { split(list, a, ";"); t = 0; for (i = 1; i <= m; i++) t += a[i]; return t }
    NR > 1 { c[$1, $2, $3] = $6; k[$1, $2, $3] = $7; st[$1, $2, $3] = $8; if (!($1 in seen)) { seen[$1] = 1; ps[n++] = $1 } }
    END {
        printf "%-15s %-10s %-16s %12s %-10s %12s %-10s %8s  %s\n", "program", "simulator", "variants", "cycles", "CTAs/SM",
            "cycles", "CTAs/SM", "change", "launches, checks"
        split("tpsim tpsim-ptx tpsim-gs gpgpusim", sims, " ")
        for (i = 0; i < n; i++) {
            p = ps[i]
            a = (p, "file", "tpsim") in c || (p, "file", "gpgpusim") in c ? "file" : "rf128"
            b = a == "file" ? "unlimited" : "rf64"
            for (s = 1; s <= 4; s++) {
                m = sims[s]
                if (!((p, a, m) in c) && !((p, b, m) in c)) continue
                na = split(c[p, a, m], xa, ";"); nb = split(c[p, b, m], xb, ";")
                l = na < nb ? na : nb
                x = first(c[p, a, m], l); y = first(c[p, b, m], l)
                printf "%-15s %-10s %-16s %12s %-10s %12s %-10s %8s  %s\n", p, m, a "/" b, x ? x : "-", k[p, a, m],
                    y ? y : "-", k[p, b, m], x && y ? sprintf("%+.1f%%", 100 * (y / x - 1)) : "-",
                    (na == nb ? l : l " of " (na > nb ? na : nb)) ", " st[p, a, m] "/" st[p, b, m]
            }
        }
    }' "$csv"
