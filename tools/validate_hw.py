#!/usr/bin/env python3
"""validate_hw.py -- tpsim's rtx2060 model beside a real GeForce RTX 2060.

Run by `tools/validate.sh --hardware` (see its help); by hand:

    python3 tools/validate_hw.py --root . --build build [--rows FILE] [-j N]
                                 [--set all|tune|heldout] [--detail] [--keep DIR] [--reuse DIR]

For every row of the rows file (default tests/hardware/rows.txt) it finds the
row of the reference CSV (tools/reference/rtx2060-nvbench.csv) and runs the
suite's host program on it,

    hwbench --zero --row BENCHMARK PARAMS NUM_ELEMENTS

with TPSIM_CONFIG=rtx2060 TPSIM_MODE=performance TPSIM_STATS=..., N at a time.
The card's time is the CSV's batch_gpu_time_s; tpsim's is the timed launch's
"cycles" (the last kernel record of the statistics) at the statistics'
clock.core_mhz, plus "launch_cycles" when the record has them.  The error is
tpsim / card - 1.  It prints a Markdown table (one line per row), then per set
(tune, heldout) a summary per suite and over all rows: mean and median |error|,
rows within 25%, and the Pearson correlation of log(time).  --detail adds a
table of what the statistics say about each row (L1 and L2 hit rates, DRAM
bandwidth, the issue-slot breakdown).  --keep DIR keeps each row's files
(statistics, output, CPU seconds) in DIR, named after the row's CSV key;
--reuse DIR takes a row's results from such a directory instead of running
it where it has them (to reprint a table, or to add rows to a run).  Exit
status 0, or 1 when a row failed (its line says why).  Standard library only.
"""
import argparse
import concurrent.futures as cf
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROWS_FIELDS = ["set", "suite", "benchmark", "params", "num_elements"]
SETS = ("tune", "heldout")
PEAK_GBS = 336.0  # the card's DRAM peak (tools/reference/README.md)


def read_rows(path):
    rows = []
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        if len(f) != len(ROWS_FIELDS) or f[0] not in SETS:
            sys.exit("validate_hw: %s:%d: want 'set | suite | benchmark | params | num_elements' "
                     "with set tune or heldout" % (path, n))
        rows.append(dict(zip(ROWS_FIELDS, f), line=n))
    return rows


def match(ref, r, path):
    m = [x for x in ref if x["suite"] == r["suite"] and x["benchmark"] == r["benchmark"]
         and x["params"] == r["params"] and x["num_elements"] == r["num_elements"]]
    if len(m) != 1:
        sys.exit("validate_hw: %s:%d matches %d rows of the reference CSV (want 1)" % (path, r["line"], len(m)))
    return m[0]


def slug(r):
    """The file name of a row's results: its CSV key, spelt safely (the same in every rows file)."""
    key = "%s %s %s %s" % (r["suite"], r["benchmark"], r["params"], r["num_elements"])
    return "".join(c if c.isalnum() or c in "=-." else "_" for c in key)


def load(base):
    """A row's results from BASE.json/.out/.err/.time (what run_one wrote), or None."""
    if not all(os.path.exists(base + x) for x in (".out", ".err", ".time")):
        return None
    cpu, wall, rc = open(base + ".time").read().split()
    out = {"wall": float(wall), "cpu": float(cpu), "rc": int(rc),
           "stdout": open(base + ".out").read().strip(), "stderr": open(base + ".err").read().strip()}
    if out["rc"] == 0 and os.path.exists(base + ".json"):
        s = json.load(open(base + ".json"))
        out["kernel"] = s["kernels"][-1]
        out["mhz"] = float(s["config"]["clock.core_mhz"])
    return out


def run_one(args, r):
    if args.reuse:
        out = load(os.path.join(args.reuse, slug(r)))
        if out:
            out["reused"] = True
            return out
    base = os.path.join(args.tmp, slug(r))
    for x in (".json", ".time"):
        if os.path.exists(base + x):
            os.remove(base + x)
    env = dict(os.environ, TPSIM_CONFIG="rtx2060", TPSIM_MODE="performance", TPSIM_STATS=base + ".json")
    cmd = [args.runner, "--ptx", os.path.join(args.root, "tests/hardware"), "--zero", "--row",
           r["benchmark"], r["params"], r["num_elements"]]
    t0 = time.time()
    with open(base + ".out", "w") as fo, open(base + ".err", "w") as fe:
        p = subprocess.Popen(cmd, env=env, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
    with open(base + ".time", "w") as f:
        f.write("%.2f %.2f %d\n" % (ru.ru_utime + ru.ru_stime, time.time() - t0, p.returncode))
    return load(base)


def stat(k, name, default=0):
    """A kernel record's statistic by its dotted name ("l1d.hits": nested objects, or a flat key)."""
    if name in k:
        return k[name]
    v = k
    for part in name.split("."):
        if not isinstance(v, dict) or part not in v:
            return default
        v = v[part]
    return v


def pearson(xs, ys):
    if len(xs) < 3:
        return float("nan")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def summary_line(name, rs):
    errs = [abs(r["err"]) for r in rs]
    corr = pearson([math.log(r["card_us"]) for r in rs], [math.log(r["tpsim_us"]) for r in rs])
    within = sum(e <= 0.25 for e in errs)
    return "| %s | %d | %.1f%% | %.1f%% | %d of %d | %s |" % (
        name, len(rs), 100 * sum(errs) / len(errs), 100 * statistics.median(errs), within, len(rs),
        "%.3f" % corr if not math.isnan(corr) else "-")


def short_bench(b):
    return b.split(" (")[0]


def main():
    ap = argparse.ArgumentParser(description="tpsim's rtx2060 model beside a real RTX 2060")
    ap.add_argument("--root", default=".")
    ap.add_argument("--build", default="build")
    ap.add_argument("--rows")
    ap.add_argument("--csv")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--set", default="all", choices=("all",) + SETS)
    ap.add_argument("--detail", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("--reuse")
    args = ap.parse_args()
    args.rows = args.rows or os.path.join(args.root, "tests/hardware/rows.txt")
    args.csv = args.csv or os.path.join(args.root, "tools/reference/rtx2060-nvbench.csv")
    args.runner = os.path.join(args.build, "tests/hardware/hwbench")
    if not os.access(args.runner, os.X_OK):
        sys.exit("validate.sh: %s is not built (make unit)" % args.runner)
    ref = list(csv.DictReader(open(args.csv)))
    rows = [r for r in read_rows(args.rows) if args.set in ("all", r["set"])]
    for r in rows:
        r["ref"] = match(ref, r, args.rows)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        args.tmp = args.keep
    else:
        tmpdir = tempfile.TemporaryDirectory()
        args.tmp = tmpdir.name

    t0 = time.time()
    done = 0
    with cf.ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
        futs = {ex.submit(run_one, args, r): r for r in rows}
        for f in cf.as_completed(futs):
            r = futs[f]
            r.update(f.result())
            done += 1
            note = " (reused)" if r.get("reused") else "" if r["rc"] == 0 else " FAILED"
            sys.stderr.write("[%d/%d] %s %s: %.1f s CPU%s\n" % (done, len(rows), short_bench(r["benchmark"]),
                                                                r["params"], r["cpu"], note))
    elapsed = time.time() - t0

    has_launch = False
    failed = 0
    for r in rows:
        r["card_us"] = float(r["ref"]["batch_gpu_time_s"]) * 1e6
        k = r.get("kernel")
        if not k or "cycles" not in k:
            failed += 1
            continue
        r["launch"] = stat(k, "launch_cycles", None)
        has_launch |= r["launch"] is not None
        r["tpsim_us"] = (k["cycles"] + (r["launch"] or 0)) / r["mhz"]
        r["err"] = r["tpsim_us"] / r["card_us"] - 1

    print("tpsim (rtx2060, performance mode) beside a GeForce RTX 2060 (%s, batch_gpu_time_s); rows: %s\n"
          % (os.path.basename(args.csv), os.path.relpath(args.rows, args.root)))
    cols = ["set", "suite", "benchmark", "kernel and parameters", "card us", "tpsim us"]
    if has_launch:
        cols += ["of it launch us"]
    cols += ["error", "sim CPU s"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" if i < 4 else "---:" for i in range(len(cols))) + "|")
    for r in rows:
        what = r["stdout"].split(":")[0] if r["rc"] == 0 else "-"
        if "err" not in r:
            why = (r["stdout"] + " " + r["stderr"]).strip().replace("|", "/")[:200]
            line = [r["set"], r["suite"], r["benchmark"], what, "%.2f" % r["card_us"], "FAILED: " + why]
            line += [""] * (len(cols) - len(line) - 1) + ["%.1f" % r["cpu"]]
        else:
            line = [r["set"], r["suite"], r["benchmark"], "`%s`" % what, "%.2f" % r["card_us"], "%.2f" % r["tpsim_us"]]
            if has_launch:
                line.append("%.2f" % ((r["launch"] or 0) / r["mhz"]))
            line += ["%+.1f%%" % (100 * r["err"]), "%.1f" % r["cpu"]]
        print("| " + " | ".join(line) + " |")
    print()
    if not has_launch:
        print("tpsim has no launch cost yet (no launch_cycles in the statistics): its times are the kernels' alone, "
              "while every card time includes the launch floor of about 5.2 us.\n")

    ok = [r for r in rows if "err" in r]
    for s in SETS:
        rs = [r for r in ok if r["set"] == s]
        if not rs:
            continue
        print("Summary, %s rows (error = tpsim / card - 1; correlation of log time):\n" % s)
        print("| suite | rows | mean abs error | median abs error | within 25% | log-time correlation |")
        print("|---|---:|---:|---:|---:|---:|")
        for suite in sorted(set(r["suite"] for r in rs)):
            print(summary_line(suite, [r for r in rs if r["suite"] == suite]))
        print(summary_line("all", rs))
        print()
    series = sorted(set((r["suite"], short_bench(r["benchmark"])) for r in ok))
    if series:
        # issue 20's bound is on a family's average: a card benchmark's rows, tune and held out together
        print("Summary, kernel families (each card kernel's rows, every size and shape, tune and held out "
              "together; the bound asked of a family is 35%), largest mean abs error first:\n")
        print("| suite | kernel | rows | mean abs error | errors |")
        print("|---|---|---:|---:|---|")
        lines = []
        for suite, b in series:
            rs = [r for r in ok if r["suite"] == suite and short_bench(r["benchmark"]) == b]
            m = sum(abs(r["err"]) for r in rs) / len(rs)
            lines.append((-m, suite, b, "| %s | %s | %d | %.1f%% | %s |" % (
                suite, b, len(rs), 100 * m, " ".join("%+.1f%%" % (100 * r["err"]) for r in rs))))
        for line in sorted(lines):
            print(line[3])
        print()
    if args.detail and ok:
        print("What the statistics say (tpsim); card GB/s = the bytes NVBench was told / the card's time:\n")
        print("| suite | benchmark | kernel and parameters | error | L1 hit | L2 hit | DRAM util | card GB/s | "
              "tpsim GB/s | issued | memory | raw | busy unit | barrier | ibuffer | no warps |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in ok:
            k = r["kernel"]

            def frac(a, b):
                return "%.2f" % (a / b) if b else "-"
            slots = ["issue.issued", "issue.memory", "issue.raw", "issue.busy_unit", "issue.barrier",
                     "issue.ibuffer", "issue.no_warps"]
            tot = sum(stat(k, x) for x in slots) + stat(k, "issue.regmutex")
            moved = int(r["ref"]["mem_reads_bytes"] or 0) + int(r["ref"]["mem_writes_bytes"] or 0)
            card_gbs = moved / (r["card_us"] * 1e3) if moved else 0
            tp_gbs = moved / (r["tpsim_us"] * 1e3) if moved else 0
            line = [r["suite"], short_bench(r["benchmark"]), "`%s`" % r["stdout"].split(":")[0],
                    "%+.1f%%" % (100 * r["err"]), frac(stat(k, "l1d.hits"), stat(k, "l1d.accesses")),
                    frac(stat(k, "l2.hits"), stat(k, "l2.accesses")),
                    "%.2f" % stat(k, "dram.bandwidth_utilization"),
                    "%.0f" % card_gbs if moved else "-", "%.0f" % tp_gbs if moved else "-"]
            line += [frac(stat(k, x), tot) for x in slots]
            print("| " + " | ".join(line) + " |")
        print()
    print("%d rows in %.0f s (-j %d, %.1f CPU seconds); %d failed"
          % (len(rows), elapsed, args.j, sum(r["cpu"] for r in rows), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
