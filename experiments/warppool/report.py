#!/usr/bin/env python3
"""report.py -- the WarpPool experiments' classes, summary and figures from the
CSV `tpsim sweep experiments/warppool/warppool.sweep` writes.

    python3 report.py --csv RESULTS/warppool.csv --results RESULTS --list "$(wpbench --list)"

Writes, in RESULTS:
    warppool-summary.csv   a row per kernel: its classes, divergence, stall
                           fraction, and each front end's speedup, requests
                           per L1D access and MPKI relative to the baseline
    speedup.png            slide 20: speedup of the banked L1D, MRPB, WarpPool
    l1_throughput.png      slide 21: requests served per L1D access
    l1_mpki.png            slide 22: L1D MPKI, % of the baseline's
(each figure with its gnuplot script and data beside it), and prints the
summary as the Markdown table docs/EXPERIMENTS.md shows.

Classes, from what the baseline measures (docs/EXPERIMENTS.md):
    cache-limited       a 128 KB L1D (frontend l1_128k) makes it >= 1.2x faster
    memory-divergent    otherwise, when its warp accesses touch >= 4 lines
                        on average (lines_per_instruction)
    bandwidth-limited   the rest
A kernel is memory-throughput-limited, as in the paper, when memory requests
wait more than 90% of its execution time (stall_fraction > 0.9).
Standard library only; gnuplot draws the figures (skipped if absent).
"""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys

CLASSES = ["memory-divergent", "bandwidth-limited", "cache-limited"]
SHORT = {"memory-divergent": "D", "bandwidth-limited": "B", "cache-limited": "C"}


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def num(row, key):
    try:
        return float(row[key])
    except (KeyError, ValueError, TypeError):
        return None


def figure(results, name, title, ylabel, labels, series, rows, hline=None):
    """A clustered bar chart: a cluster per label, a bar per series."""
    with open(os.path.join(results, name + ".dat"), "w") as f:
        f.write("kernel\t" + "\t".join(series) + "\n")
        for lab, vals in zip(labels, rows):
            f.write(lab + "\t" + "\t".join("?" if v is None else "%.6g" % v for v in vals) + "\n")
    with open(os.path.join(results, name + ".gp"), "w") as f:
        f.write("# %s.gp -- written by experiments/warppool/report.py; `gnuplot %s.gp` here redraws %s.png\n"
                % (name, name, name))
        f.write('set terminal pngcairo size 1300,520 noenhanced font "sans,10"\n')
        f.write('set output "%s.png"\n' % name)
        f.write('set datafile separator "\\t"\nset datafile missing "?"\n')
        f.write('set title "%s"\nset ylabel "%s"\n' % (title, ylabel))
        f.write("set grid ytics\nset key outside right top\nset border 3\nset tics nomirror\n")
        f.write("set xtics rotate by -45\nset yrange [0:*]\n")
        f.write("set style data histogram\nset style histogram cluster gap 1\n")
        f.write("set style fill solid 0.85 border -1\nset boxwidth 0.9\n")
        if hline is not None:
            f.write("set arrow from graph 0, first %g to graph 1, first %g nohead dt 2\n" % (hline, hline))
        plots = ['"%s.dat" using %d%s title columnheader(%d)' % (name, i + 2, ":xtic(1)" if i == 0 else "", i + 2)
                 for i in range(len(series))]
        f.write("plot " + ", \\\n     ".join(plots) + "\n")
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", name + ".gp"], cwd=results, check=False)
    else:
        print("report.py: gnuplot not found: %s.png not drawn" % name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--list", required=True, help="wpbench --list's output")
    a = ap.parse_args()
    benches = []  # (name, the paper's class), in the paper's order
    for line in a.list.splitlines():
        w = line.split()
        if len(w) >= 4:
            benches.append((w[0], w[3]))
    paper = dict(benches)
    pts = {}
    with open(a.csv, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("status") == "ok":
                pts[(row["program"], row["frontend"])] = row
    cls, limited, summ = {}, {}, {}
    for b, _ in benches:
        base, big = pts.get((b, "baseline")), pts.get((b, "l1_128k"))
        if not base:
            continue
        bigsp = num(big, "speedup") if big else None
        lpi = num(base, "lines_per_instruction") or 0
        if bigsp is not None and bigsp >= 1.2:
            cls[b] = "cache-limited"
        elif lpi >= 4:
            cls[b] = "memory-divergent"
        else:
            cls[b] = "bandwidth-limited"
        limited[b] = (num(base, "stall_fraction") or 0) > 0.9
        s = {"lpi": lpi, "stall": num(base, "stall_fraction"), "big": bigsp, "cyc": num(base, "cycles"),
             "mpki": num(base, "l1_mpki")}
        for fe in ("baseline", "banked", "warppool", "mrpb"):
            r = pts.get((b, fe))
            s["sp_" + fe] = num(r, "speedup") if r else None
            s["rpa_" + fe] = num(r, "requests_per_access") if r else None
            s["mpki_" + fe] = num(r, "mpki_rel") if r else None
            s["mpa_" + fe] = num(r, "merges_per_access") if r else None
            s["sw_" + fe] = num(r, "mode_switches") if r else None
        summ[b] = s
    order = [b for k in CLASSES for b, _ in benches if cls.get(b) == k]
    os.makedirs(a.results, exist_ok=True)
    keys = ["cyc", "mpki", "lpi", "stall", "big", "sp_banked", "sp_mrpb", "sp_warppool", "rpa_baseline", "rpa_banked",
            "rpa_warppool", "mpki_mrpb", "mpki_warppool", "mpa_warppool", "sw_warppool"]
    heads = ["cycles_baseline", "l1_mpki_baseline", "lines_per_instruction", "stall_fraction", "speedup_l1_128k", "speedup_banked", "speedup_mrpb",
             "speedup_warppool", "rpa_baseline", "rpa_banked", "rpa_warppool", "mpki_rel_mrpb", "mpki_rel_warppool",
             "merges_per_access_warppool", "mode_switches_warppool"]
    with open(os.path.join(a.results, "warppool-summary.csv"), "w") as f:
        f.write(",".join(["kernel", "paper_class", "class", "throughput_limited"] + heads) + "\n")
        for b in order:
            f.write(",".join([b, paper[b], cls[b], "yes" if limited[b] else "no"] +
                             ["" if summ[b][k] is None else "%.6g" % summ[b][k] for k in keys]) + "\n")
    if not order:
        print("report.py: no results in %s" % a.csv)
        return 1
    labels = ["%s (%s)" % (b, SHORT[cls[b]]) for b in order] + ["GMEAN"]

    def rows(prefix, fes, scale=1.0):
        cols = [[None if summ[b][prefix + fe] is None else summ[b][prefix + fe] * scale for b in order] for fe in fes]
        out = [list(r) for r in zip(*cols)]
        out.append([gmean(c) for c in cols])
        return out

    figure(a.results, "speedup", "Speedup over the baseline (gtx480-l1-32k); D, B, C: memory-divergent, "
           "bandwidth-limited, cache-limited", "speedup (x)", labels, ["banked", "mrpb", "warppool"],
           rows("sp_", ["banked", "mrpb", "warppool"]), hline=1)
    figure(a.results, "l1_throughput", "L1D throughput: requests served per L1D access (cycle with accesses)",
           "requests per L1D access", labels, ["baseline", "banked", "warppool"],
           rows("rpa_", ["baseline", "banked", "warppool"]), hline=1)
    figure(a.results, "l1_mpki", "L1D misses per kilo-instruction, % of the baseline's", "% of baseline MPKI", labels,
           ["mrpb", "warppool"], rows("mpki_", ["mrpb", "warppool"], 100.0), hline=100)
    # the Markdown table of docs/EXPERIMENTS.md
    print("| kernel | paper's class | class here | cycles | MPKI | lines/access | stall | 128 KB L1 | banked | MRPB | WarpPool "
          "| req/access banked | req/access WarpPool | MPKI MRPB | MPKI WarpPool |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def f2(v, pct=False):
        if v is None:
            return "-"
        return "%.0f%%" % (100 * v) if pct else "%.2f" % v

    for b in order:
        s = summ[b]
        print("| %s | %s | %s%s | %d | %.1f | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            b, paper[b], cls[b], " *" if limited[b] else "", s["cyc"], s["mpki"], s["lpi"], f2(s["stall"], True), f2(s["big"]),
            f2(s["sp_banked"]), f2(s["sp_mrpb"]), f2(s["sp_warppool"]), f2(s["rpa_banked"]), f2(s["rpa_warppool"]),
            f2(s["mpki_mrpb"], True), f2(s["mpki_warppool"], True)))
    gm = {k: gmean([summ[b][k] for b in order]) for k in keys}
    lim = [b for b in order if limited[b]]
    gml = {k: gmean([summ[b][k] for b in lim]) for k in keys}
    print("| geometric mean (all %d) | | | | | | | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        len(order), f2(gm["big"]), f2(gm["sp_banked"]), f2(gm["sp_mrpb"]), f2(gm["sp_warppool"]),
        f2(gm["rpa_banked"]), f2(gm["rpa_warppool"]), f2(gm["mpki_mrpb"], True), f2(gm["mpki_warppool"], True)))
    if lim:
        print("| geometric mean (the %d marked *) | | | | | | | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            len(lim), f2(gml["big"]), f2(gml["sp_banked"]), f2(gml["sp_mrpb"]), f2(gml["sp_warppool"]),
            f2(gml["rpa_banked"]), f2(gml["rpa_warppool"]), f2(gml["mpki_mrpb"], True),
            f2(gml["mpki_warppool"], True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
