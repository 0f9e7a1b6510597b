#!/bin/sh
# warppool.sh -- the WarpPool study's suite kernels on tpsim and on GPGPU-Sim
# 4.2 with the L1D of the study's baseline and with a 128 KB one (issue 21:
# the baseline each WarpPool bar is measured against, and the headroom a
# larger cache shows, held against the simulator the paper used).
#
#   sh experiments/side/warppool.sh --suites DIR [--gpgpusim SRC] [--out DIR] [-j N] NAME...
#   sh experiments/side/warppool.sh --table [--out DIR]
#
# NAME is a bar of the WarpPool study's suite set (atax_1, bicg, syrk, ...:
# experiments/suites/suites.sh wplist, which names each bar's kernel).  Its
# program is built from DIR's checkouts as suites.sh builds it, with
# -no-compress (plain-text PTX in the fatbinary, which GPGPU-Sim reads),
# into OUT/build/NAME, and run unmodified, its own output check applied
# (suites.sh verify), with two L1D sizes:
#   l1_32k:  the study's baseline, 32 KB (the paper's), 8-way, 128-byte lines
#   l1_128k: the study's "128 KB L1" bar
# on
#   tpsim:     build/bin/tpsim run --mode performance --config gtx480-l1-32k
#              with the options of the study's baseline and l1_128k points
#              (experiments/warppool/run.sh --suites);
#   GPGPU-Sim: the SM2_GTX480 configuration (../shared/gpgpusim/prep-gtx480.sh)
#              with the study's L1D and GPGPU-Sim 3.2.2's memory system where
#              4.2's differs (GS322 below): a linearly indexed L1D that
#              allocates on fill, 32 MSHRs of 8 merges, 8 miss-queue entries
#              (`-gpgpu_cache:dl1 N:SETS:128:8,L:L:f:N:L,A:32:8,8`), an L2 of
#              whole 128-byte lines, a 16-request DRAM scheduler queue;
#   tpsim_rot: tpsim's point with 4.2's two differences from 3.2.2 that
#              4.2 cannot be set back on: sm.issue_order=rotate (an SM's
#              schedulers take turns at issuing first in a cycle, as
#              GPGPU-Sim 4's do; 3.2.2, the papers' simulator, and tpsim's
#              gtx480 put scheduler 0 first) and icnt.out_buffer=64 (4.2's
#              crossbar switch runs at twice the link rate into output
#              buffers; 3.2.2's, as gtx480-gpgpusim322, at the link rate),
#              and two sizes the GPGPU-Sim runs keep at 4.2's SM2_GTX480
#              values (3.2.2's defaults were 8 and 8): l2.queue=64
#              (-gpgpu_dram_partition_queues 64:64:64:64) and
#              icnt.eject_queue=32 (-gpgpu_n_cluster_ejection_buffer_size 32),
#              so that the two simulators differ in nothing known
#              (docs/EXPERIMENTS.md: syr2k, bicg, the crossbar).
# Component tests: GS_OPTIONS (GPGPU-Sim configuration lines, each
# "-name value", separated by ";") are appended to GPGPU-Sim's points, and
# TPSIM_OPTIONS ("k=v k=v") reach tpsim's, e.g. GS_OPTIONS="-gpgpu_l1_latency 1"
# beside TPSIM_OPTIONS="l1d.latency=1 l1d.miss_latency=1" (docs/EXPERIMENTS.md,
# where the L1D looks up its tags); use another --out for such runs.
# Two bars of one program (atax_1 and atax_2, corr_3 and corr_4) share its
# runs: the second's rows are read from the first's files.  Without
# --gpgpusim only tpsim's rows (both) are made.  -j N runs N points at a time.
# Each point keeps its files in OUT/runs/NAME-VARIANT-SIMULATOR (the
# program's output, tpsim's statistics, GPGPU-Sim's log).  OUT/warppool.csv
# is made again from every point there (bar, kernel, variant, simulator,
# the kernel's cycles, its launches, L1D accesses and misses summed over
# them, the output check), and a table printed: per bar and simulator the
# kernel's cycles with each L1D, the 128 KB speed-up, the L1D miss rates,
# and GPGPU-Sim's cycles over tpsim's.  --table only makes the CSV and the
# table.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiments/side/sims.sh
. "$here/sims.sh"
# GPGPU-Sim 3.2.2's memory system where 4.2's SM2_GTX480 differs, as tpsim's
# gtx480-gpgpusim322 has it: an L2 of whole lines (4.2: 32-byte sectors,
# each fetching a 64-byte burst), the DRAM scheduler's 16-request queue.
# 4.2's sector MSHRs (S) expect the sectored L2's split requests, so the
# instruction and constant caches get plain ones (A), as the L1D has.
GS322="-gpgpu_cache:dl2 N:64:128:8,L:B:m:L:L,A:256:4,4:0,32;-gpgpu_frfcfs_dram_sched_queue_size 16"
GS322="$GS322;-gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,A:2:32,4;-gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,A:2:32,4"

# the run serving bar NAME: the first bar of its program when both are wanted
serving() { # NAME WANTED...
    _n=$1
    shift
    case $_n in
    atax_2) case " $* " in *" atax_1 "*) echo atax_1; return ;; esac ;;
    corr_4) case " $* " in *" corr_3 "*) echo corr_3; return ;; esac ;;
    esac
    echo "$_n"
}

# row OUT NAME KERNEL VARIANT SIM RUN: the CSV row of bar NAME (kernel
# KERNEL) from the point RUN (NAME's own or the bar's it shares):
# bar, kernel, variant, simulator, cycles, launches (GPGPU-Sim: "/" the
# launches of the kernel it started when it lost the last one's
# statistics at exit), L1D accesses, L1D misses, the output check
row() {
    _d=$1/runs/$6-$4-$5
    _st=$(cat "$_d/status" 2>/dev/null || echo failed)
    case $5 in
    tpsim | tpsim_rot) _r=$(python3 -c '
import json, sys
try:
    ks = [k for k in json.load(open(sys.argv[1]))["kernels"] if sys.argv[2] in k.get("name", "")]
except Exception:
    sys.exit(0)
if ks:
    print("%d,%d,%d,%d" % (sum(k["cycles"] for k in ks), len(ks), sum(k["l1d"]["accesses"] for k in ks),
                           sum(k["l1d"]["misses"] for k in ks)))' "$_d/tpsim.json" "$3") ;;
    gpgpusim) _r=$(python3 -c '
import re, sys
# GPGPU-Sim prints a block after each launch: "kernel_name = NAME" (at the
# end of a line the program may have left unfinished), its gpu_sim_cycle,
# and the L1D counters since the program started (differences: per launch)
launches, cur, last = [], None, [0, 0]
try:
    for line in open(sys.argv[1], errors="replace"):
        m = re.search(r"kernel_name = (\S+)", line)
        if m:
            cur = {"name": m.group(1), "cycles": 0, "acc": None, "miss": None}
            launches.append(cur)
            continue
        m = re.match(r"\s*(gpu_sim_cycle|L1D_total_cache_accesses|L1D_total_cache_misses) = (\d+)\s*$", line)
        if cur is not None and m:
            key = {"gpu_sim_cycle": "cycles", "L1D_total_cache_accesses": "acc", "L1D_total_cache_misses": "miss"}[m.group(1)]
            if cur[key] in (0, None):
                cur[key] = int(m.group(2))
    started = sum(1 for l in open(sys.argv[1], errors="replace") if "pushing kernel" in l and sys.argv[2] in l)
except OSError:
    sys.exit(0)
c = n = a = ms = 0
for r in launches:
    acc = r["acc"] if r["acc"] is not None else last[0]
    miss = r["miss"] if r["miss"] is not None else last[1]
    if sys.argv[2] in r["name"]:
        c += r["cycles"]
        n += 1
        a += acc - last[0]
        ms += miss - last[1]
    last = [acc, miss]
if n:
    print("%d,%s,%d,%d" % (c, n if started <= n else "%d/%d" % (n, started), a, ms))' "$_d/gpgpusim.log" "$3") ;;
    esac
    echo "$2,$3,$4,$5,${_r:-,,,},$_st"
}

# one point (run by xargs): --point OUT SUITE_OUT TPSIM GS NAME VARIANT SIM
if [ "${1:-}" = --point ]; then
    out=$2 sout=$3 tpsim=$4 gs=$5 n=$6 v=$7 sim=$8
    d=$out/runs/$n-$v-$sim
    rm -rf "$d"
    mkdir -p "$d"
    echo "$n $v $sim" >"$d/meta"
    # a copy of the program's folder of its own (its outputs, GPGPU-Sim's files)
    cp -r "$sout/$n" "$d/$n"
    case $v in l1_32k) kb=32 sets=32 ;; l1_128k) kb=128 sets=128 ;; esac
    case $sim in
    tpsim | tpsim_rot)
        # the study's baseline and l1_128k points (experiments/warppool/run.sh --suites)
        rot=
        [ "$sim" = tpsim ] || rot="sm.issue_order=rotate icnt.out_buffer=64 l2.queue=64 icnt.eject_queue=32"
        # shellcheck disable=SC2086
        sh "$SUITES" point "$tpsim" gtx480-l1-32k "$d" "$n" "$d/tpsim" \
            l1d.banks=1 warppool=0 mrpb=0 l1d.size=${kb}k $rot
        cp "$d/tpsim.status" "$d/status"
        ;;
    gpgpusim)
        args=$(sh "$SUITES" args "$n")
        # shellcheck disable=SC2086
        if side_gs_run "$gs" "$d/$n" "$d/gpgpusim.log" "-gpgpu_cache:dl1 N:$sets:128:8,L:L:f:N:L,A:32:8,8;$GS322${GS_OPTIONS:+;$GS_OPTIONS}" $args &&
            sh "$SUITES" verify "$n" "$d" "$d/gpgpusim.log"; then echo ok; else echo failed; fi >"$d/status"
        ;;
    esac
    echo "warppool.sh: $n $v $sim: $(cat "$d/status")"
    # the copy's inputs and outputs go; the logs and statistics stay
    rm -rf "${d:?}/${n:?}"
    exit 0
fi

side_options warppool.sh "$here/results/warppool" 40 "$@"
shift "$side_n"
list=$(sh "$SUITES" wplist)
kernel_of() { echo "$list" | awk -v n="$1" '$1 == n { print $2 }'; }
if [ -z "$table" ]; then
    [ $# -gt 0 ] || { echo "usage: warppool.sh --suites DIR [--gpgpusim SRC] [--out DIR] [-j N] NAME... | --table [--out DIR]" >&2; exit 2; }
    [ -n "$suites" ] || { echo "warppool.sh: --suites DIR is needed (experiments/suites.md)" >&2; exit 2; }
    for n in "$@"; do
        [ -n "$(kernel_of "$n")" ] || { echo "warppool.sh: $n is not a bar of the WarpPool study (suites.sh wplist)" >&2; exit 2; }
    done
    side_setup warppool.sh
    out=$(cd "$out" && pwd)
    suites=$(cd "$suites" && pwd)
    side_nvcc
    mkdir -p "$out/build" "$out/runs"
    : >"$work/torun"
    for n in "$@"; do
        echo "$n $(serving "$n" "$@")" >>"$out/shares"
        [ "$(serving "$n" "$@")" = "$n" ] || continue
        r=$(NVCC="$work/nvcc" sh "$SUITES" build "$suites" "$out/build" "$n")
        echo "warppool.sh: build $n: $r"
        [ "$r" = ok ] || continue
        for v in l1_32k l1_128k; do
            [ -z "$gs" ] || echo "--point $out $out/build $tpsim $gs $n $v gpgpusim" >>"$work/torun"
            echo "--point $out $out/build $tpsim - $n $v tpsim" >>"$work/torun"
            echo "--point $out $out/build $tpsim - $n $v tpsim_rot" >>"$work/torun"
        done
    done
    # GPGPU-Sim's points first: they take the longest
    sort -s -t' ' -k8,8 "$work/torun" -o "$work/torun"
    xargs -P "$jobs" -L 1 sh "$0" <"$work/torun" || true
else
    [ -d "$out/runs" ] || { echo "warppool.sh: no runs in $out (run some points first)" >&2; exit 2; }
    out=$(cd "$out" && pwd)
fi
# the CSV: every bar's rows, from its run's files (the last run serving it:
# OUT/shares, a line "NAME RUN" per bar asked for)
csv=$out/warppool.csv
echo "bar,kernel,variant,simulator,cycles,launches,l1d_accesses,l1d_misses,check" >"$csv.new"
if [ -f "$out/shares" ]; then
    awk '{ s[$1] = $2 } END { for (n in s) print n, s[n] }' "$out/shares" | sort | while read -r n r; do
        k=$(kernel_of "$n")
        for v in l1_32k l1_128k; do
            for s in tpsim tpsim_rot gpgpusim; do
                if [ -f "$out/runs/$r-$v-$s/meta" ]; then row "$out" "$n" "$k" "$v" "$s" "$r"; fi
            done
        done
    done >>"$csv.new"
fi
mv "$csv.new" "$csv"
# per bar and simulator: cycles with each L1D, the 128 KB speed-up, the miss
# rates; GPGPU-Sim's cycles over tpsim's with the study's L1D
awk -F, '
    NR > 1 { c[$1, $3, $4] = $5; n[$1, $3, $4] = $6; a[$1, $3, $4] = $7; m[$1, $3, $4] = $8; st[$1, $3, $4] = $9
             if (!($1 in seen)) { seen[$1] = 1; bs[nb++] = $1 } }
    function rate(b, v, s) { return a[b, v, s] ? sprintf("%.3f", m[b, v, s] / a[b, v, s]) : "-" }
    END {
        printf "%-10s %-9s %12s %12s %8s %8s %8s %9s  %s\n", "bar", "simulator", "cycles 32K", "cycles 128K", "128K x",
            "miss 32K", "miss 128K", "GS/tpsim", "launches, checks"
        for (i = 0; i < nb; i++) {
            b = bs[i]
            split("tpsim tpsim_rot gpgpusim", sims, " ")
            for (j = 1; j <= 3; j++) {
                s = sims[j]
                if (!((b, "l1_32k", s) in c) && !((b, "l1_128k", s) in c)) continue
                x = c[b, "l1_32k", s]; y = c[b, "l1_128k", s]; t = c[b, "l1_32k", "tpsim"]
                printf "%-10s %-9s %12s %12s %8s %8s %8s %9s  %s\n", b, s, x ? x : "-", y ? y : "-",
                    x && y ? sprintf("%.2f", x / y) : "-", rate(b, "l1_32k", s), rate(b, "l1_128k", s),
                    s == "gpgpusim" && x && t ? sprintf("%.2f", x / t) : "-",
                    n[b, "l1_32k", s] "/" n[b, "l1_128k", s] ", " st[b, "l1_32k", s] "/" st[b, "l1_128k", s]
            }
        }
    }' "$csv"
