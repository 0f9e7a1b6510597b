#!/bin/sh
# validate.sh -- tpsim beside GPGPU-Sim on the PolyBench-style kernels.
#
#   tools/validate.sh [--mode functional|performance] [--guarded] [--build DIR]
#                     [--csv FILE] [BENCH...]
#
# Runs the kernels of tests/polybench (all, or the BENCHes named: 2mm gemm
# atax bicg gesummv 2dconv fdtd2d corr) on the GTX 480 configuration
# (TPSIM_CONFIG=gtx480) in the given mode (default: $TPSIM_MODE, else
# functional), with TPSIM_STATS, sums every kernel's launches as the
# reference does, and prints a Markdown table beside the reference CSV
# (default tools/reference/gpgpusim-gtx480.csv):
#
#   kernel | ref cycles | tpsim cycles | ratio | ref thread_insn | tpsim thread_insn | ratio
#
# tpsim cycles are the statistics' "cycles" (performance mode); functional
# mode has none ("cycles_estimate" is not a simulation), so they show as "-".
# tpsim thread_insn is the statistics' "thread_instructions": every active
# lane of every instruction executed, the final ret included.  Ratios are
# tpsim over the reference.  Under the table: how many kernels' cycles are within 25%,
# and the Pearson correlation of IPC (thread instructions per cycle) over the
# kernels with cycles; then notes on kernels with a known difference.
#
# --guarded adds a column counted the way GPGPU-Sim counts: a lane counts
# only when the instruction's guard predicate is true for it (a not-taken
# predicated branch does not count; the final ret does, although the
# reference's README says "without the final exit").  It is computed from
# TPSIM_TRACE, every warp instruction with its guarded mask, which is slow
# (about half a minute for all kernels).  On these kernels it equals the
# reference's thread_insn exactly wherever the program is the same
# (tests/polybench/README.md).
#
# The runner's exit status is returned (non-zero when a kernel's results were
# wrong); the table is printed either way.  Needs python3 (standard library).
#
#   tools/validate.sh --hardware [--rows FILE] [-j N] [--set all|tune|heldout]
#                     [--detail] [--keep DIR] [--reuse DIR] [--build DIR]
#
# --hardware: tpsim's rtx2060 model beside a real GeForce RTX 2060 instead
# (tools/reference/rtx2060-nvbench.csv, docs/VALIDATION.md "Against real
# hardware").  Each row of FILE (default tests/hardware/rows.txt) runs
# tests/hardware's host program on TPSIM_CONFIG=rtx2060 in performance mode,
# N rows at a time (default 1), and a Markdown table compares the card's
# time with tpsim's (the kernel's cycles at clock.core_mhz, plus launch_cycles
# where the statistics have them), error = tpsim / card - 1; then per set
# (tune: the rows to tune against; heldout: sizes kept for checking later)
# and per suite: mean and median |error|, rows within 25%, Pearson
# correlation of log time; then per kernel family (a card kernel's rows of
# every size and shape, both sets) the mean |error|, largest first, beside
# the 35% issue 20 bounds a family's average by.  --detail adds each row's L1/L2 hit rates, DRAM
# bandwidth and issue-slot breakdown; --keep DIR keeps each row's statistics
# and output, --reuse DIR takes a row's from such a directory instead of
# running it (to reprint the table, or to add rows to a run).
# Exit status 1 when a row failed.  tools/validate_hw.py does the work.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${TPSIM_MODE:-functional}
build=${BUILD:-build}
csv="$root/tools/reference/gpgpusim-gtx480.csv"
guarded=0
hardware=0
hwargs=""
hwonly=""
while [ $# -gt 0 ]; do
    case "$1" in
    --mode) mode=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --csv) csv=$2; hwargs="$hwargs --csv $2"; shift 2 ;;
    --guarded) guarded=1; shift ;;
    --hardware) hardware=1; shift ;;
    --rows | --set | --keep | --reuse | -j)
        [ $# -ge 2 ] || { echo "validate.sh: $1 needs a value" >&2; exit 2; }
        hwargs="$hwargs $1 $2"; hwonly=$1; shift 2 ;;
    --detail) hwargs="$hwargs --detail"; hwonly=$1; shift ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | grep -v '^set -u' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "validate.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    *) break ;;
    esac
done
case "$build" in /*) ;; *) build="$root/$build" ;; esac
if [ "$hardware" -eq 1 ]; then
    command -v python3 >/dev/null 2>&1 || { echo "validate.sh: needs python3" >&2; exit 2; }
    [ $# -eq 0 ] || { echo "validate.sh: --hardware takes no names ($1)" >&2; exit 2; }
    # shellcheck disable=SC2086
    exec python3 "$root/tools/validate_hw.py" --root "$root" --build "$build" $hwargs
elif [ -n "$hwonly" ]; then
    echo "validate.sh: $hwonly goes with --hardware" >&2
    exit 2
fi
runner="$build/tests/polybench/polybench"
if [ ! -x "$runner" ]; then
    echo "validate.sh: $runner is not built (make unit)" >&2
    exit 2
fi
if [ ! -f "$csv" ]; then
    echo "validate.sh: no reference CSV at $csv (--csv FILE)" >&2
    exit 2
fi
command -v python3 >/dev/null 2>&1 || { echo "validate.sh: needs python3" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# The run.  With --guarded the trace goes through a counter on the fly.
counter='
import sys
pop = [bin(i).count("1") for i in range(1 << 16)]
n = {}
for line in sys.stdin:
    if not line.startswith("[tpsim] "):
        sys.stderr.write(line)
        continue
    t = line.split()
    m = int(t[t.index("mask") + 1], 16)
    n[t[1]] = n.get(t[1], 0) + pop[m & 0xffff] + pop[m >> 16]
with open(sys.argv[1], "w") as f:
    for k, v in n.items():
        f.write("%s %d\n" % (k, v))
'
status=0
if [ "$guarded" -eq 1 ]; then
    { TPSIM_CONFIG=gtx480 TPSIM_MODE=$mode TPSIM_STATS="$tmp/stats.json" TPSIM_TRACE=1 \
        "$runner" --ptx "$root/tests/polybench" "$@" 2>&1 >"$tmp/out"; echo $? >"$tmp/rc"; } |
        python3 -c "$counter" "$tmp/guarded" >&2
else
    TPSIM_CONFIG=gtx480 TPSIM_MODE=$mode TPSIM_STATS="$tmp/stats.json" \
        "$runner" --ptx "$root/tests/polybench" "$@" >"$tmp/out" 2>"$tmp/err"
    echo $? >"$tmp/rc"
    grep -v '^tpsim: mode=performance is not available' "$tmp/err" >&2
fi
status=$(cat "$tmp/rc")
grep '^FAIL' "$tmp/out" >&2
if [ ! -f "$tmp/stats.json" ]; then
    echo "validate.sh: the run wrote no statistics (exit status $status)" >&2
    exit 1
fi

python3 - "$csv" "$tmp/stats.json" "$tmp/guarded" "$mode" <<'EOF'
import csv, json, math, os, sys

csv_path, stats_path, guarded_path, mode = sys.argv[1:5]
ref = list(csv.DictReader(open(csv_path)))
stats = json.load(open(stats_path))

# Sum the launches of each kernel, as the reference does.
k = {}
for r in stats["kernels"]:
    e = k.setdefault(r["name"], {"launches": 0, "insn": 0, "cycles": 0, "has_cycles": True})
    e["launches"] += 1
    e["insn"] += r["thread_instructions"]
    if "cycles" in r:
        e["cycles"] += r["cycles"]
    else:
        e["has_cycles"] = False
guarded = {}
if os.path.exists(guarded_path):
    for line in open(guarded_path):
        name, n = line.split()
        guarded[name] = int(n)

def ratio(a, b):
    return "%.3f" % (a / b) if a is not None and b else "-"

cols = ["program", "kernel", "ref cycles", "tpsim cycles", "ratio", "ref thread_insn", "tpsim thread_insn", "ratio"]
if guarded:
    cols += ["tpsim guarded", "ratio"]
print("tpsim (%s mode, gtx480) beside GPGPU-Sim (%s)\n" % (mode, os.path.basename(csv_path)))
print("| " + " | ".join(cols) + " |")
print("|" + "|".join("---" if i < 2 else "---:" for i in range(len(cols))) + "|")
pairs, within, with_cycles = [], 0, 0
for r in ref:
    e = k.get(r["kernel"])
    if e is None:
        continue
    rc, ri = int(r["cycles"]), int(r["thread_insn"])
    tc = e["cycles"] if e["has_cycles"] else None
    ti = e["insn"]
    row = [r["program"], "`%s` (%d)" % (r["kernel"], e["launches"]), str(rc), str(tc) if tc is not None else "-",
           ratio(tc, rc), str(ri), str(ti), ratio(ti, ri)]
    if guarded:
        g = guarded.get(r["kernel"])
        row += [str(g) if g is not None else "-", ratio(g, ri)]
    print("| " + " | ".join(row) + " |")
    if tc:
        with_cycles += 1
        within += abs(tc / rc - 1) <= 0.25
        pairs.append((float(r["ipc"]), ti / tc))
print()
if with_cycles:
    print("cycles within 25%% of the reference: %d of %d kernels" % (within, with_cycles))
    if len(pairs) >= 3:
        xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        sxy = sum((x - mx) * (y - my) for x, y in pairs)
        sxx = sum((x - mx) ** 2 for x in xs)
        syy = sum((y - my) ** 2 for y in ys)
        r = sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")
        print("IPC correlation (Pearson, %d kernels): %.3f" % (len(pairs), r))
else:
    print("no cycles in %s mode: instruction counts only" % mode)
missing = [r["kernel"] for r in ref if r["kernel"] not in k]
if missing:
    print("not run: " + ", ".join(missing))
print("""
Notes (tests/polybench/README.md explains them):
- tpsim's thread_insn counts every active lane of an instruction; GPGPU-Sim counts a lane only when the
  instruction's guard predicate holds for it: the lanes of not-taken predicated branches (loop exits,
  bounds checks) are the whole difference (--guarded counts GPGPU-Sim's way).
- atax: the reference's counts are exactly 8 times ours: its run executed 4096 threads per kernel, each
  with the 512-iteration loop, while README.md's NX=NY=512 (and these kernels) execute 512 threads.""")
EOF
exit "$status"
