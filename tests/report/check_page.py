#!/usr/bin/env python3
"""check_page.py -- checks a tpsim report page against its statistics file.

    python3 tests/report/check_page.py STATS.json PAGE.html

Prints one "ok: ..." line per check passed and "bad: ..." per failure; exit
status 1 when any failed.  Checks (docs/REPORT.md):
  - every element with data-k (a value printed from the file) shows the
    file's value: in a launch's section the launch's member at that path (in
    the hottest-instructions table the member of that row's instruction, in
    the intervals table the interval's, in the findings table the
    finding's), in the launches table the row's launch, in the device grid
    and the options table the configuration's, in the totals, checks and
    host grids those objects', in the failed calls table the call's;
  - the kernels table has one row per kernel name, the launches table one
    per launch and the page a section per launch (at most 2000 and 50);
  - each issue-slot bar has one <rect> per non-zero issue.* category;
  - each timeline chart has a point per interval of the launch (of every
    k-th interval beyond 400), in performance mode with stats.interval;
  - the hottest-instructions table has min(12, instructions) rows;
  - functional mode has no timing chart at all.
"""
import json
import sys
from html.parser import HTMLParser

# The page lists at most this many launches in its table, and has a section
# for at most this many (cli/report_page.c).
MAX_ROWS, MAX_SECTIONS = 2000, 50
# A chart draws at most this many points (cli/report_kernel.c).
MAX_POINTS = 400
VOID = {"meta", "br", "img", "input", "link", "hr", "path", "polyline", "rect", "circle", "line"}


class Page(HTMLParser):
    """Collects the data-k elements with their context and text, and the charts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []      # (tag, attrs)
        self.open = []       # data-k elements being read: [dict, depth]
        self.values = []     # dicts: k, v, text, ctx
        self.svgs = []       # (class, id, attrs, rect count, polyline points)
        self.rows = {}       # tr class -> count
        self.tables = {}     # table id -> row count in tbody
        self.row_ctx = None
        self.sections = []   # ids of the launch sections

    def ctx(self):
        c = {}
        for tag, a in self.stack:
            if tag == "section" and a.get("id", "").startswith("k"):
                c["launch"] = int(a["id"][1:])
            if tag == "table":
                c["table_class"] = a.get("class", "")
                c["table"] = a.get("id", "")
            if tag == "dl":
                c["dl"] = a.get("id", "")
            if tag == "tr":
                c["row"] = a.get("data-row")
                c["tr_class"] = a.get("class", "")
            if tag == "svg":
                c["svg"] = a.get("id", "")
        return c

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.svgs.append([a.get("class", ""), a.get("id", ""), a, 0, 0])
        if tag == "rect" and self.svgs and any(t == "svg" for t, _ in self.stack) and "data-k" in a:
            self.svgs[-1][3] += 1
        if tag == "polyline" and self.svgs:
            pts = a.get("points", "").split()
            self.svgs[-1][4] = len(pts)
        if tag == "section" and a.get("class") == "launch":
            self.sections.append(a.get("id"))
        if tag == "tr":
            cls = a.get("class", "")
            self.rows[cls] = self.rows.get(cls, 0) + 1
            for t, ta in reversed(self.stack):
                if t == "table":
                    tid = ta.get("id", "")
                    if any(x == "tbody" for x, _ in self.stack):
                        self.tables[tid] = self.tables.get(tid, 0) + 1
                        a["data-row"] = str(self.tables[tid] - 1)
                    break
        if tag in VOID:
            if "data-k" in a:
                self.values.append({"k": a["data-k"], "v": a.get("data-v"), "text": None, "ctx": self.ctx(),
                                    "tag": tag})
            return
        self.stack.append((tag, a))
        if "data-k" in a:
            self.open.append([{"k": a["data-k"], "v": a.get("data-v"), "text": "", "ctx": self.ctx(), "tag": tag},
                              len(self.stack)])

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            t, _ = self.stack.pop()
            while self.open and self.open[-1][1] > len(self.stack):
                self.values.append(self.open.pop()[0])
            if t == tag:
                break

    def handle_data(self, data):
        for o in self.open:
            # the text of the element itself, not of a <title> inside it
            if not any(t == "title" for t, _ in self.stack[o[1]:]):
                o[0]["text"] += data


def get(obj, path):
    """The member at a dotted path: obj[path] or nested objects."""
    if not isinstance(obj, dict):
        return None, False
    if path in obj:
        return obj[path], True
    if "." in path:
        head, rest = path.split(".", 1)
        if head in obj:
            return get(obj[head], rest)
    return None, False


def same(page_text, value):
    """Whether the page's text shows the file's value."""
    if isinstance(value, bool):
        return page_text == ("true" if value else "false")
    if value is None:
        return page_text == "null"
    if isinstance(value, (int, float)):
        try:
            return float(page_text) == float(value)
        except ValueError:
            return False
    if isinstance(value, list):
        return page_text == "[" + ", ".join(str(x) for x in value) + "]"
    return page_text == str(value)


def source_of(stats, ctx, k):
    """The object of the file a data-k element of the page shows a value of."""
    kernels = stats.get("kernels", [])
    table, tcls, row = ctx.get("table", ""), ctx.get("table_class", ""), ctx.get("row")
    if "launch" in ctx:
        kern = kernels[ctx["launch"]]
        if "hot" in tcls:
            return None  # rows are matched by pc below
        if "intervals" in tcls:
            return kern.get("intervals", [])[int(row)]
        if "findings" in tcls:
            return kern.get("checks", {}).get("findings", [])[int(row)]
        return kern
    if table == "launches-table":
        return kernels[int(row)]
    if table == "config-table" or ctx.get("dl") == "device-table":
        return stats.get("config", {})
    if table == "failures-table":
        return stats.get("failures", [])[int(row)]
    for dl, member in (("totals-table", "totals"), ("checks-table", "checks"), ("host-table", "host")):
        if ctx.get("dl") == dl:
            return stats.get(member, {})
    return False


def check_values(stats, page, bad, ok):
    n = 0
    for e in page.values:
        k, ctx = e["k"], e["ctx"]
        src = source_of(stats, ctx, k)
        text = (e["text"] or "").strip() if e["text"] is not None else e["v"]
        if src is None and "launch" in ctx:  # a hottest instruction: find its row by pc
            continue
        if src is False:
            bad.append("an element data-k=%s outside any known table (%s)" % (k, ctx))
            continue
        value, found = get(src, k)
        if e["tag"] == "rect":
            text = None
        if not found:
            bad.append("%s: the page shows '%s' but the file has no such member (%s)" % (k, text, ctx))
            continue
        if text is not None and not same(text, value):
            bad.append("%s: the page shows '%s', the file %r (%s)" % (k, text, value, ctx))
            continue
        if e["v"] is not None and not same(e["v"], value):
            bad.append("%s: data-v '%s', the file %r (%s)" % (k, e["v"], value, ctx))
            continue
        n += 1
    ok.append("%d values equal the file's" % n)


def check_hot(stats, page, bad, ok):
    """The hottest-instructions rows: each value is its instruction's (by pc)."""
    n = 0
    rows = {}
    for e in page.values:
        c = e["ctx"]
        if "launch" in c and "hot" in c.get("table_class", ""):
            rows.setdefault((c["launch"], c["row"]), {})[e["k"]] = e["text"].strip()
    for (li, _), cells in rows.items():
        pcs = {p["pc"]: p for p in stats["kernels"][li].get("stall_pcs", [])}
        p = pcs.get(int(cells.get("pc", "-1")))
        if p is None:
            bad.append("launch %d: a hot row with pc %s the file does not list" % (li, cells.get("pc")))
            continue
        for k, t in cells.items():
            v, found = get(p, k)
            if not found or not same(t, v):
                bad.append("launch %d pc %d: %s shows '%s', the file %r" % (li, p["pc"], k, t, v))
            else:
                n += 1
    for li, kern in enumerate(stats["kernels"][:MAX_SECTIONS]):
        want = min(12, len(kern.get("stall_pcs", [])))
        got = len({r for (l, r) in rows if l == li})
        if got != want:
            bad.append("launch %d: %d hot rows, want %d" % (li, got, want))
    ok.append("%d hottest-instruction values equal the file's" % n)


def check_charts(stats, page, bad, ok):
    kernels = stats["kernels"]
    timed = any("cycles" in k and "issue" in k for k in kernels)
    svg = {s[1]: s for s in page.svgs}
    charts = 0
    for i, k in enumerate(kernels[:MAX_SECTIONS]):
        if "issue" not in k:
            continue
        want = sum(1 for v in k["issue"].values() if isinstance(v, (int, float)) and v > 0)
        s = svg.get("breakdown-%d" % i)
        if not s or s[3] != want:
            bad.append("launch %d: issue-slot bar has %s rects, want %d" % (i, s[3] if s else "no", want))
        else:
            charts += 1
        if "memory-%d" % i not in svg:
            bad.append("launch %d: no memory chart" % i)
        else:
            charts += 1
        iv = len(k.get("intervals", []))
        for name in ("ipc", "warps", "l1d", "l2", "dram"):
            s = svg.get("tl-%s-%d" % (name, i))
            step = (iv + MAX_POINTS - 1) // MAX_POINTS   # a longer timeline: every step-th interval
            want = (iv - 1) // step + 1 if iv else 0
            if iv == 0 and s:
                bad.append("launch %d: a timeline without intervals" % i)
            elif iv and (not s or s[4] != want or s[2].get("data-points") != str(want)):
                bad.append("launch %d: timeline %s has %s points, want %d" % (i, name, s[4] if s else "no", want))
            elif iv:
                charts += 1
    if not timed:
        timing = [s for s in page.svgs if s[0] in ("breakdown", "memchart", "timeline")]
        if timing:
            bad.append("functional mode, but %d timing charts" % len(timing))
    ok.append("%d charts with the right bars and points" % charts)


def main():
    stats = json.load(open(sys.argv[1]))
    page = Page()
    page.feed(open(sys.argv[2], encoding="utf-8").read())
    bad, ok = [], []
    kernels = stats["kernels"]
    names = len({k.get("name") for k in kernels})
    if page.rows.get("kernel", 0) != names:
        bad.append("kernels table: %d rows, want %d" % (page.rows.get("kernel", 0), names))
    if page.rows.get("launch", 0) != min(len(kernels), MAX_ROWS):
        bad.append("launches table: %d rows, want %d" % (page.rows.get("launch", 0), min(len(kernels), MAX_ROWS)))
    sections = sum(1 for e in page.sections)
    if sections != min(len(kernels), MAX_SECTIONS):
        bad.append("%d launch sections, want %d" % (sections, min(len(kernels), MAX_SECTIONS)))
    check_values(stats, page, bad, ok)
    check_hot(stats, page, bad, ok)
    check_charts(stats, page, bad, ok)
    for line in ok:
        print("ok: " + line)
    for line in bad[:20]:
        print("bad: " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
