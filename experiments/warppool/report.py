#!/usr/bin/env python3
"""report.py -- the WarpPool experiments' CSV and figures from the statistics
run.sh collected (one TPSIM_STATS file per benchmark and configuration).

    python3 report.py --json DIR --results DIR --list "$(wpbench --list)" [--configs "C ..."]

Writes RESULTS/warppool.csv (a row per benchmark and configuration) and the
figures of the WarpPool paper's slides 20-22, as PNG with their gnuplot
scripts and data beside them:
    speedup.png        speedup over the baseline: banked L1D, MRPB, WarpPool
    l1_throughput.png  requests served per L1D access: baseline, banked, WarpPool
    l1_mpki.png        L1D misses per kilo-instruction, % of the baseline: MRPB, WarpPool

Classes, from what the baseline measures (docs/EXPERIMENTS.md):
    cache-limited       a 128 KB L1D (configuration l1_128k) makes it >= 1.2x faster
    memory-divergent    otherwise, its warp accesses touch >= 4 lines on average
    bandwidth-limited   the rest
A kernel is memory-throughput-limited, as in the paper, when memory requests
wait (warppool.ldst_stall_fraction) more than 90% of the time.
Standard library only; gnuplot draws the figures (skipped if absent).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys

CLASSES = ["memory-divergent", "bandwidth-limited", "cache-limited"]
SHORT = {"memory-divergent": "D", "bandwidth-limited": "B", "cache-limited": "C"}


def stats(path):
    """The point's statistics summed over its launches (one, with wpbench)."""
    with open(path) as f:
        d = json.load(f)
    ks = d.get("kernels", [])
    if not ks:
        return None
    s = {"kernel": ks[-1]["name"]}
    for key in ("cycles", "warp_instructions", "thread_instructions"):
        s[key] = sum(k[key] for k in ks)
    for key in ("accesses", "hits", "misses", "reservation_fails"):
        s["l1d_" + key] = sum(k["l1d"][key] for k in ks)
    for key in ("mem_instructions", "requests", "l1_accesses", "l1_access_cycles", "merges", "tag_cycles",
                "full_stalls", "ldst_stall_cycles", "active_cycles", "mode_switches", "cache_sensitive_quanta",
                "thread_deliveries", "delivery_errors"):
        s[key] = sum(k["warppool"][key] for k in ks)
    s["ipc"] = s["thread_instructions"] / s["cycles"] if s["cycles"] else 0
    s["lines_per_instruction"] = s["requests"] / s["mem_instructions"] if s["mem_instructions"] else 0
    s["requests_per_access"] = s["requests"] / s["l1_access_cycles"] if s["l1_access_cycles"] else 0
    s["merges_per_access"] = s["merges"] / s["l1_accesses"] if s["l1_accesses"] else 0
    s["queue_occupancy"] = s["tag_cycles"] / s["active_cycles"] if s["active_cycles"] else 0
    s["l1_mpki"] = 1000.0 * s["l1d_misses"] / s["warp_instructions"] if s["warp_instructions"] else 0
    s["ldst_stall_fraction"] = s["ldst_stall_cycles"] / s["active_cycles"] if s["active_cycles"] else 0
    return s


def fmt(v):
    if isinstance(v, float):
        return "%.6g" % v
    return str(v)


def gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0


def figure(results, name, title, ylabel, labels, series, rows, hline=None, percent=False):
    """A clustered bar chart: one cluster per label, one bar per series."""
    dat = os.path.join(results, name + ".dat")
    with open(dat, "w") as f:
        f.write("kernel\t" + "\t".join(series) + "\n")
        for lab, vals in zip(labels, rows):
            f.write(lab + "\t" + "\t".join("?" if v is None else "%.6g" % v for v in vals) + "\n")
    gp = os.path.join(results, name + ".gp")
    with open(gp, "w") as f:
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--list", required=True, help="wpbench --list's output")
    ap.add_argument("--configs", default="baseline banked warppool mrpb l1_128k")
    a = ap.parse_args()
    benches = []  # (name, paper class), in the paper's order
    for line in a.list.splitlines():
        w = line.split()
        if len(w) >= 4:
            benches.append((w[0], w[3]))
    configs = a.configs.split()
    pts = {}
    for b, _ in benches:
        for c in configs:
            p = os.path.join(a.json, "%s.%s.json" % (b, c))
            if os.path.exists(p):
                pts[(b, c)] = stats(p)
    # classes from the baseline (and the 128 KB L1D)
    cls, limited = {}, {}
    for b, paper in benches:
        base, big = pts.get((b, "baseline")), pts.get((b, "l1_128k"))
        if not base:
            continue
        if big and big["cycles"] and base["cycles"] / big["cycles"] >= 1.2:
            cls[b] = "cache-limited"
        elif base["lines_per_instruction"] >= 4:
            cls[b] = "memory-divergent"
        else:
            cls[b] = "bandwidth-limited"
        limited[b] = base["ldst_stall_fraction"] > 0.9
    order = [b for k in CLASSES for b, _ in benches if cls.get(b) == k]
    paper = dict(benches)
    cols = ["kernel", "cycles", "warp_instructions", "ipc", "l1d_accesses", "l1d_misses", "l1d_reservation_fails",
            "mem_instructions", "requests", "lines_per_instruction", "l1_accesses", "l1_access_cycles",
            "requests_per_access", "merges", "merges_per_access", "queue_occupancy", "full_stalls", "l1_mpki",
            "ldst_stall_fraction", "mode_switches", "cache_sensitive_quanta", "thread_deliveries", "delivery_errors"]
    os.makedirs(a.results, exist_ok=True)
    csv = os.path.join(a.results, "warppool.csv")
    with open(csv, "w") as f:
        f.write(",".join(["bench", "paper_class", "class", "throughput_limited", "config"] + cols +
                         ["speedup", "l1_mpki_rel"]) + "\n")
        for b in order:
            base = pts[(b, "baseline")]
            for c in configs:
                s = pts.get((b, c))
                if not s:
                    continue
                sp = base["cycles"] / s["cycles"] if s["cycles"] else 0
                mr = s["l1_mpki"] / base["l1_mpki"] if base["l1_mpki"] else 0
                f.write(",".join([b, paper[b], cls[b], "yes" if limited[b] else "no", c] + [fmt(s[k]) for k in cols] +
                                 [fmt(sp), fmt(mr)]) + "\n")
    print("report.py: %s (%d kernels)" % (csv, len(order)))
    if not order:
        return 0
    labels = ["%s (%s)" % (b, SHORT[cls[b]]) for b in order]

    def col(c, key, rel=None):
        out = []
        for b in order:
            s = pts.get((b, c))
            if not s:
                out.append(None)
            elif rel == "speedup":
                out.append(pts[(b, "baseline")]["cycles"] / s["cycles"])
            elif rel == "ratio":
                bv = pts[(b, "baseline")][key]
                out.append(100.0 * s[key] / bv if bv else None)
            else:
                out.append(s[key])
        return out

    def with_gmean(series_cols):
        rows = [list(r) for r in zip(*series_cols)]
        rows.append([gmean([v for v in sc if v is not None]) for sc in series_cols])
        return rows

    names = [c for c in ("banked", "mrpb", "warppool") if c in configs]
    if names:
        figure(a.results, "speedup", "Speedup over the baseline (gtx480-l1-32k); D/B/C: memory-divergent, "
               "bandwidth-limited, cache-limited; GMEAN: geometric mean", "speedup (x)", labels + ["GMEAN"],
               names, with_gmean([col(c, "cycles", "speedup") for c in names]), hline=1)
    names = [c for c in ("baseline", "banked", "warppool") if c in configs]
    if names:
        figure(a.results, "l1_throughput", "L1D throughput: requests served per L1D access (cycle with accesses)",
               "requests per L1D access", labels + ["GMEAN"], names,
               with_gmean([col(c, "requests_per_access") for c in names]), hline=1)
    names = [c for c in ("mrpb", "warppool") if c in configs]
    if names and "baseline" in configs:
        figure(a.results, "l1_mpki", "L1D misses per kilo-instruction, % of the baseline's", "% of baseline MPKI",
               labels + ["GMEAN"], names, with_gmean([col(c, "l1_mpki", "ratio") for c in names]), hline=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
