#!/usr/bin/env python3
"""wp_csv.py -- the WarpPool study's CSV (the columns of warppool.sweep's
table, which experiments/warppool/report.py reads) from the statistics of
the suites' programs (experiments/warppool/run.sh --suites).  A suite's
program launches several kernels; each bar of the paper is one of them, so
every column sums over the launches of that kernel only (the launches
whose mangled name contains KERNEL).

  wp_csv.py POINTS LIST OUT.csv [OLD.csv]
POINTS: the directory of NAME-FRONTEND.{json,status}; LIST: lines
"NAME KERNEL SUITE PAPER_CLASS".  OLD.csv (the CSV before this run): a
bar none of whose points has files in POINTS (a fresh checkout's committed
results, run again in part with run.sh --only) keeps its rows from it."""
import json
import os
import sys

FRONTENDS = ["baseline", "banked", "warppool", "mrpb", "l1_128k"]
COLS = ["cycles", "warp_instructions", "l1d_accesses", "l1d_misses", "mem_instructions", "requests", "l1_accesses",
        "l1_access_cycles", "merges", "tag_cycles", "full_stalls", "ldst_stall_cycles", "active_cycles",
        "mode_switches", "cache_quanta", "thread_deliveries", "delivery_errors"]
PATHS = {"cycles": ("cycles",), "warp_instructions": ("warp_instructions",), "l1d_accesses": ("l1d", "accesses"),
         "l1d_misses": ("l1d", "misses"), "cache_quanta": ("warppool", "cache_sensitive_quanta")}
DERIVED = ["lines_per_instruction", "requests_per_access", "merges_per_access", "l1_mpki", "stall_fraction", "mpki_rel",
           "speedup"]


def sums(path, kernel):
    with open(path) as f:
        st = json.load(f)
    s = dict((c, 0) for c in COLS)
    n = 0
    for k in st.get("kernels", []):
        if kernel not in k.get("name", ""):
            continue
        n += 1
        for c in COLS:
            v = k
            for seg in PATHS.get(c, ("warppool", c)):
                v = v.get(seg, 0) if isinstance(v, dict) else 0
            s[c] += v
    return s if n else None


def div(a, b):
    return a / b if b else 0.0


def main(a):
    if len(a) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    pts, lst, out = a[:3]
    old = {}
    if len(a) == 4 and os.path.exists(a[3]):
        for line in open(a[3]).read().splitlines()[1:]:
            f = line.split(",")
            if len(f) > 1:
                old.setdefault(f[1], []).append(line.split(","))
    rows = []
    for line in open(lst):
        w = line.split()
        if len(w) < 4:
            continue
        name, kernel = w[0], w[1]
        got = {}
        for fe in FRONTENDS:
            base = os.path.join(pts, "%s-%s" % (name, fe))
            st = open(base + ".status").read().strip() if os.path.exists(base + ".status") else "missing"
            s = sums(base + ".json", kernel) if st == "ok" and os.path.exists(base + ".json") else None
            if st == "ok" and s is None:
                st = "failed"
            got[fe] = (st, s)
        if all(got[fe][0] == "missing" for fe in FRONTENDS) and name in old:
            rows.extend(old[name])
            continue
        for fe in FRONTENDS:
            st, s = got[fe]
            row = ["%s/gtx480-l1-32k/frontend=%s" % (name, fe), name, "gtx480-l1-32k", fe]
            if s is None:
                rows.append(row + [""] * (len(COLS) + len(DERIVED)) + [st, ""])
                continue
            d = {"lines_per_instruction": div(s["requests"], s["mem_instructions"]),
                 "requests_per_access": div(s["requests"], s["l1_access_cycles"]),
                 "merges_per_access": div(s["merges"], s["l1_accesses"]),
                 "l1_mpki": div(s["l1d_misses"] * 1000.0, s["warp_instructions"]),
                 "stall_fraction": div(s["ldst_stall_cycles"], s["active_cycles"])}
            b = got["baseline"][1]
            bm = div(b["l1d_misses"] * 1000.0, b["warp_instructions"]) if b else 0
            d["mpki_rel"] = div(d["l1_mpki"], bm) if b else ""
            d["speedup"] = div(b["cycles"], s["cycles"]) if b else ""
            rows.append(row + [str(s[c]) for c in COLS] +
                        ["%.6g" % d[k] if d[k] != "" else "" for k in DERIVED] + [st, ""])
    with open(out, "w") as f:
        f.write(",".join(["point", "program", "config", "frontend"] + COLS + DERIVED + ["status", "message"]) + "\n")
        for r in rows:
            f.write(",".join(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
