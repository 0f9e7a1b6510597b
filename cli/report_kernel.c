/* report_kernel.c -- one launch's section of `tpsim report`'s page
** (report.h): its header, then in performance mode the issue-slot
** breakdown (a stacked bar), the memory chart (LD/ST unit, L1D, crossbar,
** L2, DRAM), the timelines over stats.interval, the hottest instructions
** with their stall reasons and the register-sharing or WarpPool panel;
** in any mode the --check findings. */
#include "report.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Colours of the issue-slot categories, in the file's order. */
static const char *const palette[] = {"#2e7d32", "#1565c0", "#ef6c00", "#8e24aa", "#c62828",
                                      "#00838f", "#9e9e9e", "#6d4c41", "#f9a825", "#3949ab"};

/* Every numeric member of the object at prefix ("l1d") as rows "l1d.hits". */
static void object_rows(tp_sbuf *b, const tp_json *k, const char *prefix)
{
    const tp_json *o = rp_get(k, prefix);
    if (!o || o->type != TP_JSON_OBJ) return;
    for (uint32_t i = 0; i < o->len; i++) {
        if (o->items[i].type != TP_JSON_NUM) continue;
        char path[160];
        snprintf(path, sizeof path, "%s.%s", prefix, o->keys[i]);
        tp_sbuf_puts(b, "<tr><th>");
        rp_esc(b, path);
        tp_sbuf_puts(b, "</th>");
        rp_td(b, k, path);
        tp_sbuf_puts(b, "</tr>\n");
    }
}

/* ---- the issue-slot breakdown ------------------------------------------------------- */

static void breakdown(tp_sbuf *b, const tp_json *k, uint32_t idx)
{
    const tp_json *is = rp_get(k, "issue");
    if (!is || is->type != TP_JSON_OBJ) return;
    double sum = 0;
    for (uint32_t i = 0; i < is->len; i++)
        if (is->items[i].type == TP_JSON_NUM && is->items[i].num > 0) sum += is->items[i].num;
    tp_sbuf_printf(b, "<h4>Issue slots</h4>\n<p class=\"note\">Every scheduler cycle: issued, or why the first "
                      "warp in line could not issue (sum: <i class=\"d\" title=\"derived: sum of issue.*\">%.0f</i> "
                      "scheduler cycles).</p>\n<svg class=\"breakdown\" id=\"breakdown-%u\" width=\"800\" "
                      "height=\"26\" viewBox=\"0 0 800 26\" role=\"img\" aria-label=\"issue-slot breakdown\">\n",
                   sum, idx);
    double x = 0;
    for (uint32_t i = 0; sum > 0 && i < is->len; i++) {
        const tp_json *c = &is->items[i];
        if (c->type != TP_JSON_NUM || c->num <= 0) continue;
        double w = 800.0 * c->num / sum;
        tp_sbuf_puts(b, "<rect data-k=\"issue.");
        rp_esc(b, is->keys[i]);
        tp_sbuf_printf(b, "\" x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"26\" fill=\"%s\"><title>issue.", x, w,
                       palette[i % TP_ARRAY_LEN(palette)]);
        rp_esc(b, is->keys[i]);
        tp_sbuf_printf(b, ": %s (%.1f%%, derived)</title></rect>\n", c->text, 100.0 * c->num / sum);
        x += w;
    }
    tp_sbuf_puts(b, "</svg>\n<p class=\"legend\">");
    for (uint32_t i = 0; i < is->len; i++) {
        const tp_json *c = &is->items[i];
        if (c->type != TP_JSON_NUM) continue;
        tp_sbuf_printf(b, "<span><span class=\"sw\" style=\"background:%s\"></span>", palette[i % TP_ARRAY_LEN(palette)]);
        rp_esc(b, is->keys[i]);
        tp_sbuf_puts(b, " <b data-k=\"issue.");
        rp_esc(b, is->keys[i]);
        tp_sbuf_printf(b, "\">%s</b> ", c->text);
        rp_derived(b, "issue.X / sum of issue.* x 100", "%.1f%%", sum > 0 ? 100.0 * c->num / sum : 0);
        tp_sbuf_puts(b, "</span>");
    }
    tp_sbuf_puts(b, "</p>\n");
}

/* ---- the memory chart --------------------------------------------------------------------- */

/* A line of a box: "label value" with the file's value at path. */
static void box_line(tp_sbuf *b, double x, double y, const char *label, const tp_json *k, const char *path)
{
    tp_sbuf_printf(b, "<text x=\"%.0f\" y=\"%.0f\">%s <tspan data-k=\"%s\" font-weight=\"bold\">", x, y, label, path);
    rp_val(b, rp_get(k, path));
    tp_sbuf_puts(b, "</tspan></text>\n");
}

/* A derived line of a box: "label value%" (num/den x 100); nothing when den is 0. */
static void box_rate(tp_sbuf *b, double x, double y, const char *label, const tp_json *k, const char *num,
                     const char *den)
{
    double n, d;
    if (!rp_num(k, num, &n) || !rp_num(k, den, &d) || d <= 0) return;
    tp_sbuf_printf(b, "<text x=\"%.0f\" y=\"%.0f\" font-style=\"italic\">%s %.1f%%<title>derived: %s / %s x 100"
                      "</title></text>\n",
                   x, y, label, 100.0 * n / d, num, den);
}

/* Box col of the chart: its name, then its lines, pairs (label, path). */
static void box(tp_sbuf *b, int col, const char *name, const tp_json *k, const char *const *lines, size_t n)
{
    double x = 10 + col * 190;
    tp_sbuf_printf(b, "<rect class=\"unit\" x=\"%.0f\" y=\"20\" width=\"150\" height=\"130\" rx=\"6\" "
                      "fill=\"#eef3fb\" stroke=\"#1565c0\"/>\n<text x=\"%.0f\" y=\"38\" font-weight=\"bold\">%s</text>\n",
                   x, x + 8, name);
    for (size_t i = 0; i + 1 < n; i += 2) box_line(b, x + 8, 58 + 16 * (double)(i / 2), lines[i], k, lines[i + 1]);
}

/* An arrow from box col to the next, labelled with the file's value at path. */
static void arrow(tp_sbuf *b, int col, const tp_json *k, const char *path)
{
    double x = 160 + col * 190;
    tp_sbuf_printf(b, "<path class=\"flow\" d=\"M%.0f 85 h32 l-6 -5 m6 5 l-6 5\" stroke=\"#444\" fill=\"none\"/>\n"
                      "<text x=\"%.0f\" y=\"78\" data-k=\"%s\" font-size=\"10\">",
                   x, x + 2, path);
    rp_val(b, rp_get(k, path));
    tp_sbuf_puts(b, "</text>\n");
}

/* Bytes derived from request counts (paths, NULL-ended) and a line size of
** the configuration. */
static void bytes_note(tp_sbuf *b, const tp_json *k, const tp_json *config, const char *what, const char *const *paths,
                       const char *line)
{
    double sum = 0, v, size;
    if (!rp_num(config, line, &size)) return;
    char formula[256] = "(";
    for (int i = 0; paths[i]; i++) {
        sum += rp_num(k, paths[i], &v) ? v : 0;
        size_t n = strlen(formula);
        snprintf(formula + n, sizeof formula - n, "%s%s", i ? " + " : "", paths[i]);
    }
    size_t n = strlen(formula);
    snprintf(formula + n, sizeof formula - n, ") x %s", line);
    tp_sbuf_printf(b, "<li>%s: ", what);
    rp_derived(b, formula, "%.0f bytes", sum * size);
    tp_sbuf_puts(b, "</li>\n");
}

static void memory(tp_sbuf *b, const tp_json *k, const tp_json *config, uint32_t idx)
{
    static const char *const ldst[] = {"instructions", "warppool.mem_instructions", "requests", "mem_requests",
                                       "lines/inst", "warppool.lines_per_instruction", "stall frac.",
                                       "warppool.ldst_stall_fraction"};
    static const char *const l1[] = {"accesses", "l1d.accesses", "hits", "l1d.hits", "misses", "l1d.misses",
                                     "res. fails", "l1d.reservation_fails"};
    static const char *const xb[] = {"packets", "icnt.packets", "stall cycles", "icnt.stall_cycles"};
    static const char *const l2[] = {"accesses", "l2.accesses", "hits", "l2.hits", "misses", "l2.misses"};
    static const char *const dr[] = {"reads", "dram.reads", "writes", "dram.writes", "row hits", "dram.row_buffer_hits",
                                     "bw util.", "dram.bandwidth_utilization"};
    tp_sbuf_printf(b, "<h4>Memory</h4>\n<svg class=\"memchart\" id=\"memory-%u\" width=\"920\" height=\"160\" "
                      "viewBox=\"0 0 920 160\" role=\"img\" aria-label=\"memory chart\">\n",
                   idx);
    box(b, 0, "LD/ST unit", k, ldst, TP_ARRAY_LEN(ldst));
    box(b, 1, "L1D", k, l1, TP_ARRAY_LEN(l1));
    box(b, 2, "Crossbar", k, xb, TP_ARRAY_LEN(xb));
    box(b, 3, "L2", k, l2, TP_ARRAY_LEN(l2));
    box(b, 4, "DRAM", k, dr, TP_ARRAY_LEN(dr));
    box_rate(b, 208, 138, "hit rate", k, "l1d.hits", "l1d.accesses");
    box_rate(b, 208, 122, "busy", k, "warppool.l1_access_cycles", "warppool.active_cycles");
    box_rate(b, 588, 122, "hit rate", k, "l2.hits", "l2.accesses");
    double bw;
    if (rp_num(k, "dram.bandwidth_utilization", &bw))
        tp_sbuf_printf(b, "<text x=\"778\" y=\"122\" font-style=\"italic\">%.1f%% of peak<title>derived: "
                          "dram.bandwidth_utilization x 100</title></text>\n",
                       100 * bw);
    arrow(b, 0, k, "mem_requests");
    arrow(b, 1, k, "l1d.misses");
    arrow(b, 2, k, "l2.accesses");
    arrow(b, 3, k, "l2.misses");
    tp_sbuf_puts(b, "</svg>\n<ul class=\"note\">\n");
    static const char *const l1_out[] = {"l1d.misses", NULL}, *const dram_all[] = {"dram.reads", "dram.writes", NULL};
    bytes_note(b, k, config, "L1D to L2 (missed lines)", l1_out, "l1d.line");
    bytes_note(b, k, config, "DRAM traffic (whole lines)", dram_all, "l2.line");
    tp_sbuf_puts(b, "<li>Arrows: line requests into the L1D (mem_requests), L1D misses, L2 accesses, L2 misses. "
                    "L1D busy: cycles with an L1D access over the SMs' active cycles; DRAM bw util.: the file's "
                    "fraction of DRAM cycles the data buses carried data.</li>\n</ul>\n");
    tp_sbuf_puts(b, "<details><summary>All memory counters</summary>\n<table class=\"memtable\">\n");
    static const char *const groups[] = {"l1d", "l1c", "shared", "l2", "dram", "icnt"};
    for (size_t i = 0; i < TP_ARRAY_LEN(groups); i++) object_rows(b, k, groups[i]);
    tp_sbuf_puts(b, "<tr><th>mem_requests</th>");
    rp_td(b, k, "mem_requests");
    tp_sbuf_puts(b, "</tr>\n</table></details>\n");
}

/* ---- the timelines ---------------------------------------------------------------------- */

/* Points of a chart at most: longer timelines are drawn from every k-th interval. */
#define RP_MAX_POINTS 400
/* Rows of the intervals table at most. */
#define RP_MAX_ROWS 50

/* A timeline: its chart's id, title, what its values are, and its scale
** (ymax 0: the largest value). */
typedef struct tl_series {
    const char *id, *title, *formula;
    double ymax;
} tl_series;

/* A line chart of y over x (n points, every step-th drawn). */
static void chart(tp_sbuf *b, uint32_t idx, const tl_series *s, const double *x, const double *y, uint32_t n,
                  uint32_t step)
{
    const char *id = s->id, *title = s->title;
    double ymax = s->ymax, xmax = n ? x[n - 1] : 1;
    for (uint32_t i = 0; i < n && s->ymax <= 0; i++)
        if (y[i] > ymax) ymax = y[i];
    if (ymax <= 0) ymax = 1;
    if (xmax <= 0) xmax = 1;
    uint32_t pts = n ? (n - 1) / step + 1 : 0;
    tp_sbuf_printf(b, "<figure class=\"tl\"><svg class=\"timeline\" id=\"tl-%s-%u\" data-points=\"%u\" width=\"420\" "
                      "height=\"170\" viewBox=\"0 0 420 170\" role=\"img\" aria-label=\"%s\">\n"
                      "<text x=\"50\" y=\"12\" font-weight=\"bold\">%s</text>\n"
                      "<path d=\"M50 20 V140 H410\" stroke=\"#888\" fill=\"none\"/>\n"
                      "<text x=\"46\" y=\"24\" text-anchor=\"end\">%.4g</text><text x=\"46\" y=\"140\" "
                      "text-anchor=\"end\">0</text>\n<text x=\"410\" y=\"155\" text-anchor=\"end\">cycle %.0f</text>"
                      "<text x=\"50\" y=\"155\">0</text>\n<polyline fill=\"none\" stroke=\"#1565c0\" "
                      "stroke-width=\"1.5\" points=\"",
                   id, idx, pts, title, title, ymax, xmax);
    for (uint32_t i = 0; i < n; i += step)
        tp_sbuf_printf(b, "%s%.1f,%.1f", i ? " " : "", 50 + 360 * x[i] / xmax, 140 - 120 * y[i] / ymax);
    tp_sbuf_puts(b, "\"/>\n</svg><figcaption class=\"note\">");
    rp_esc(b, s->formula);
    tp_sbuf_puts(b, "</figcaption></figure>\n");
}

/* The intervals as the file writes them (at most RP_MAX_ROWS rows). */
static void interval_table(tp_sbuf *b, const tp_json *iv, uint32_t idx)
{
    const tp_json *first = &iv->items[0];
    if (first->type != TP_JSON_OBJ) return;
    tp_sbuf_printf(b, "<details><summary>The %u intervals</summary>\n<table class=\"sort intervals\" "
                      "id=\"intervals-%u\"><thead><tr>",
                   iv->len, idx);
    for (uint32_t c = 0; c < first->len; c++) {
        tp_sbuf_puts(b, "<th>");
        rp_esc(b, first->keys[c]);
        tp_sbuf_puts(b, "</th>");
    }
    tp_sbuf_puts(b, "</tr></thead><tbody>\n");
    for (uint32_t i = 0; i < iv->len && i < RP_MAX_ROWS; i++) {
        tp_sbuf_puts(b, "<tr>");
        for (uint32_t c = 0; c < first->len; c++) rp_td(b, &iv->items[i], first->keys[c]);
        tp_sbuf_puts(b, "</tr>\n");
    }
    tp_sbuf_puts(b, "</tbody></table>\n");
    if (iv->len > RP_MAX_ROWS) tp_sbuf_printf(b, "<p class=\"note\">The first %d of %u rows.</p>\n", RP_MAX_ROWS, iv->len);
    tp_sbuf_puts(b, "</details>\n");
}

enum { TL_IPC, TL_WARPS, TL_L1, TL_L2, TL_DRAM, TL_N };

/* The timelines; with the intervals' accesses and hits (rates), the caches'
** hit rates, else their misses. */
static const tl_series tl_all[2][TL_N] = {
    {{"ipc", "IPC", "derived: thread_instructions / cycles of the interval", 0},
     {"warps", "Active warps per SM", "derived: resident_warp_cycles / cycles of the interval / device.num_sms", 0},
     {"l1d", "L1D misses", "l1d_misses per interval (the file's)", 0},
     {"l2", "L2 misses", "l2_misses per interval (the file's)", 0},
     {"dram", "DRAM bytes per cycle", "derived: (dram_reads + dram_writes) x l2.line / cycles of the interval", 0}},
    {{"ipc", "IPC", "derived: thread_instructions / cycles of the interval", 0},
     {"warps", "Active warps per SM", "derived: resident_warp_cycles / cycles of the interval / device.num_sms", 0},
     {"l1d", "L1D hit rate (%)", "derived: l1d_hits / l1d_accesses x 100 (0 without accesses)", 100},
     {"l2", "L2 hit rate (%)", "derived: l2_hits / l2_accesses x 100 (0 without accesses)", 100},
     {"dram", "DRAM bytes per cycle", "derived: (dram_reads + dram_writes) x l2.line / cycles of the interval", 0}},
};

/* hits / accesses x 100, or 0 */
static double rate(double hits, double accesses)
{
    return accesses > 0 ? 100.0 * hits / accesses : 0;
}

/* The series' values of interval row r (dc its cycles) into y[TL_N]. */
static void tl_values(const tp_json *r, double dc, double sms, double line, bool rates, double *y)
{
    double t, w, m1, m2, rd, wr, a1, h1, a2, h2;
    rp_num(r, "thread_instructions", &t), rp_num(r, "resident_warp_cycles", &w);
    rp_num(r, "l1d_misses", &m1), rp_num(r, "l2_misses", &m2);
    rp_num(r, "dram_reads", &rd), rp_num(r, "dram_writes", &wr);
    rp_num(r, "l1d_accesses", &a1), rp_num(r, "l1d_hits", &h1);
    rp_num(r, "l2_accesses", &a2), rp_num(r, "l2_hits", &h2);
    y[TL_IPC] = dc > 0 ? t / dc : 0;
    y[TL_WARPS] = dc > 0 && sms > 0 ? w / dc / sms : 0;
    y[TL_L1] = rates ? rate(h1, a1) : m1;
    y[TL_L2] = rates ? rate(h2, a2) : m2;
    y[TL_DRAM] = dc > 0 ? (rd + wr) * line / dc : 0;
}

static void timelines(tp_sbuf *b, const tp_json *k, const tp_json *config, uint32_t idx)
{
    const tp_json *iv = rp_get(k, "intervals");
    if (!iv || iv->type != TP_JSON_ARR || iv->len == 0) return;
    uint32_t n = iv->len, step = (n + RP_MAX_POINTS - 1) / RP_MAX_POINTS;
    bool rates = rp_get(&iv->items[0], "l1d_accesses") && rp_get(&iv->items[0], "l2_accesses");
    double *x = tp_calloc(n, sizeof *x), *y = tp_calloc((size_t)n * TL_N, sizeof *y), sms = 0, line = 0;
    rp_num(config, "device.num_sms", &sms);
    rp_num(config, "l2.line", &line);
    for (uint32_t i = 0; i < n; i++) {
        double c, v[TL_N];
        rp_num(&iv->items[i], "cycle", &c);
        tl_values(&iv->items[i], c - (i ? x[i - 1] : 0), sms, line, rates, v);
        x[i] = c;
        for (int t = 0; t < TL_N; t++) y[t * n + i] = v[t];
    }
    tp_sbuf_printf(b, "<h4>Timelines (stats.interval)</h4>\n<p class=\"note\">%u intervals; each point is one "
                      "interval's own count at its last cycle%s. Rates and bandwidth are derived (formulas below "
                      "each chart).</p>\n<div class=\"grid\">\n",
                   n, step > 1 ? "; the charts draw every k-th interval" : "");
    for (int t = 0; t < TL_N; t++) chart(b, idx, &tl_all[rates][t], x, y + (size_t)t * n, n, step);
    tp_sbuf_puts(b, "</div>\n");
    interval_table(b, iv, idx);
    free(x);
    free(y);
}

/* ---- the hottest instructions --------------------------------------------------------------- */

#define RP_HOT 12

/* Scheduler cycles with instruction p first in line: issued + its stall cycles. */
static double pc_weight(const tp_json *p, double *stalled)
{
    double issued = 0;
    rp_num(p, "issued", &issued);
    const tp_json *st = rp_get(p, "stall");
    *stalled = 0;
    for (uint32_t i = 0; st && st->type == TP_JSON_OBJ && i < st->len; i++)
        if (st->items[i].type == TP_JSON_NUM) *stalled += st->items[i].num;
    return issued + *stalled;
}

/* The colour of an issue-slot category by name (as in the breakdown). */
static const char *colour_of(const tp_json *k, const char *name)
{
    const tp_json *is = rp_get(k, "issue");
    for (uint32_t i = 0; is && is->type == TP_JSON_OBJ && i < is->len; i++)
        if (strcmp(is->keys[i], name) == 0) return palette[i % TP_ARRAY_LEN(palette)];
    return "#777";
}

/* One instruction's row: the file's counts, the stalls as a stacked bar;
** src: with a source column. */
static void hot_row(tp_sbuf *b, const tp_json *k, const tp_json *p, double maxw, bool src)
{
    double stalled, w = pc_weight(p, &stalled);
    const tp_json *st = rp_get(p, "stall");
    tp_sbuf_puts(b, "<tr>");
    rp_td(b, p, "pc");
    tp_sbuf_puts(b, "<td><code>");
    rp_val(b, rp_get(p, "insn"));
    tp_sbuf_puts(b, "</code></td>");
    const tp_json *where = rp_get(p, "src");
    if (src && where && where->type == TP_JSON_STR) rp_td(b, p, "src");
    else if (src) tp_sbuf_puts(b, "<td></td>");
    rp_td(b, p, "issued");
    for (uint32_t i = 0; st && st->type == TP_JSON_OBJ && i < st->len; i++) {
        char path[96];
        snprintf(path, sizeof path, "stall.%s", st->keys[i]);
        rp_td(b, p, path);
    }
    tp_sbuf_printf(b, "<td class=\"n\" data-v=\"%.0f\">", stalled);
    rp_derived(b, "sum of stall.*", "%.0f", stalled);
    tp_sbuf_puts(b, "</td><td><svg class=\"stallbar\" width=\"160\" height=\"12\" viewBox=\"0 0 160 12\">");
    double x = 0;
    for (uint32_t i = 0; st && st->type == TP_JSON_OBJ && i < st->len && maxw > 0; i++) {
        const tp_json *c = &st->items[i];
        if (c->type != TP_JSON_NUM || c->num <= 0) continue;
        double width = 160.0 * c->num / maxw;
        tp_sbuf_printf(b, "<rect x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"12\" fill=\"%s\"><title>stall.", x, width,
                       colour_of(k, st->keys[i]));
        rp_esc(b, st->keys[i]);
        tp_sbuf_printf(b, ": %s</title></rect>", c->text);
        x += width;
    }
    (void)w;
    tp_sbuf_puts(b, "</svg></td></tr>\n");
}

static int hot_cmp(const void *a, const void *b)
{
    const double *x = a, *y = b;   /* {weight, index} */
    if (x[0] != y[0]) return x[0] > y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void hot(tp_sbuf *b, const tp_json *k, uint32_t idx)
{
    const tp_json *pcs = rp_get(k, "stall_pcs");
    if (!pcs || pcs->type != TP_JSON_ARR || pcs->len == 0 || pcs->items[0].type != TP_JSON_OBJ) return;
    double *order = tp_calloc((size_t)pcs->len * 2, sizeof *order), s, maxs = 0;
    for (uint32_t i = 0; i < pcs->len; i++) {
        order[2 * i] = pc_weight(&pcs->items[i], &s);
        order[2 * i + 1] = i;
        if (s > maxs) maxs = s;
    }
    qsort(order, pcs->len, 2 * sizeof *order, hot_cmp);
    uint32_t n = pcs->len < RP_HOT ? pcs->len : RP_HOT;
    bool src = false;   /* a source column: some of the rows shown have a source line (nvcc -lineinfo) */
    for (uint32_t i = 0; i < n; i++) {
        const tp_json *w = rp_get(&pcs->items[(uint32_t)order[2 * i + 1]], "src");
        src = src || (w && w->type == TP_JSON_STR);
    }
    tp_sbuf_printf(b, "<h4>Hottest instructions</h4>\n<p class=\"note\">The %u of %u instructions (stats.pc) with "
                      "the most scheduler cycles first in line (issued + stalled, derived); the bar shows the "
                      "stall reasons, to scale across the rows; the columns after issued are the stall.* cycles by reason. "
                      "PTX lines are the module's; source lines (with nvcc -lineinfo) the program's.</p>\n<div class=\"scroll\">"
                      "<table class=\"sort hot\" id=\"hot-%u\"><thead><tr><th>pc</th><th>instruction</th>%s<th>issued</th>",
                   n, pcs->len, idx, src ? "<th>source</th>" : "");
    const tp_json *st = rp_get(&pcs->items[0], "stall");
    for (uint32_t i = 0; st && st->type == TP_JSON_OBJ && i < st->len; i++)
    {
        tp_sbuf_puts(b, "<th>");
        rp_esc(b, st->keys[i]);
        tp_sbuf_puts(b, "</th>");
    }
    tp_sbuf_puts(b, "<th>stalled</th><th>stall reasons</th></tr></thead><tbody>\n");
    for (uint32_t i = 0; i < n; i++) hot_row(b, k, &pcs->items[(uint32_t)order[2 * i + 1]], maxs, src);
    tp_sbuf_puts(b, "</tbody></table></div>\n");
    free(order);
}

/* ---- the mechanism's panel -------------------------------------------------------------- */

static bool config_is(const tp_json *config, const char *key, const char *value)
{
    const tp_json *v = rp_get(config, key);
    if (!v) return false;
    if (!value) return v->type == TP_JSON_BOOL && v->b;
    return v->type == TP_JSON_STR && strcmp(v->text, value) == 0;
}

/* A bar of a fraction (0..1) of the file's value at path, labelled. */
static void fraction_bar(tp_sbuf *b, const tp_json *k, const char *path, const char *label)
{
    double f;
    if (!rp_num(k, path, &f)) return;
    double w = f < 0 ? 0 : f > 1 ? 300 : 300 * f;
    tp_sbuf_printf(b, "<p>%s <svg class=\"fracbar\" width=\"300\" height=\"12\" viewBox=\"0 0 300 12\">"
                      "<rect x=\"0\" y=\"0\" width=\"300\" height=\"12\" fill=\"#e0e0e0\"/>"
                      "<rect x=\"0\" y=\"0\" width=\"%.1f\" height=\"12\" fill=\"#1565c0\"><title>%s</title></rect>"
                      "</svg> <b data-k=\"%s\">",
                   label, w, path, path);
    rp_val(b, rp_get(k, path));
    tp_sbuf_puts(b, "</b></p>\n");
}

static void mechanism(tp_sbuf *b, const tp_json *k, const tp_json *config)
{
    bool rm = config_is(config, "regmutex", NULL) || config_is(config, "owf", NULL) ||
              config_is(config, "regs.policy", "regmutex") || config_is(config, "regs.policy", "owf");
    bool rfv = config_is(config, "regs.policy", "rfv");
    bool wp = config_is(config, "warppool", NULL) || config_is(config, "ldst.frontend", "warppool");
    if (rm && rp_get(k, "regmutex")) {
        static const char *const keys[] = {"regmutex.sections", "regmutex.ext_regs", "regmutex.acquires",
                                           "regmutex.releases", "regmutex.stall_cycles",
                                           "regmutex.extended_warp_cycles", "regmutex.pool_utilization",
                                           "regmutex.state_bits"};
        tp_sbuf_puts(b, "<h4 class=\"mechanism\">Register sharing: RegMutex / Owner-Warp-First</h4>\n");
        fraction_bar(b, k, "regmutex.pool_utilization", "Shared register pool in use (mean share):");
        rp_kv(b, k, keys, TP_ARRAY_LEN(keys), "mech");
    }
    if (rfv && rp_get(k, "rfv")) {
        static const char *const keys[] = {"rfv.physical_regs", "rfv.allocations", "rfv.releases", "rfv.deferred",
                                           "rfv.stall_cycles", "rfv.throttle_cycles", "rfv.utilization",
                                           "rfv.peak_regs", "rfv.state_bits"};
        tp_sbuf_puts(b, "<h4 class=\"mechanism\">Register sharing: Register File Virtualization</h4>\n");
        fraction_bar(b, k, "rfv.utilization", "Physical registers in use (mean share):");
        rp_kv(b, k, keys, TP_ARRAY_LEN(keys), "mech");
    }
    if (wp && rp_get(k, "warppool")) {
        static const char *const keys[] = {
            "warppool.requests", "warppool.l1_accesses", "warppool.merges", "warppool.merges_per_access",
            "warppool.requests_per_access", "warppool.queue_occupancy", "warppool.tag_cycles",
            "warppool.full_stalls", "warppool.insert_conflicts", "warppool.inst_queue_full",
            "warppool.mode_switches", "warppool.cache_sensitive_quanta", "warppool.l1_mpki"};
        tp_sbuf_puts(b, "<h4 class=\"mechanism\">WarpPool</h4>\n");
        fraction_bar(b, k, "warppool.ldst_stall_fraction", "Memory requests waiting (ldst_stall_fraction):");
        rp_kv(b, k, keys, TP_ARRAY_LEN(keys), "mech");
    }
}

/* ---- the findings of --check ---------------------------------------------------------------- */

static void findings(tp_sbuf *b, const tp_json *k, uint32_t idx)
{
    const tp_json *c = rp_get(k, "checks");
    if (!c || c->type != TP_JSON_OBJ) return;
    static const char *const counts[] = {"checks.race", "checks.race_intrawarp", "checks.init", "checks.sync",
                                         "checks.reports"};
    tp_sbuf_puts(b, "<h4 class=\"findings\">Check findings</h4>\n");
    rp_kv(b, k, counts, TP_ARRAY_LEN(counts), "checks");
    const tp_json *f = rp_get(c, "findings");
    if (!f || f->type != TP_JSON_ARR || f->len == 0) return;
    static const char *const cols[] = {"kind", "what", "space", "pc", "other_pc", "address"};
    tp_sbuf_printf(b, "<table class=\"sort findings\" id=\"findings-%u\"><thead><tr>", idx);
    for (size_t i = 0; i < TP_ARRAY_LEN(cols); i++) tp_sbuf_printf(b, "<th>%s</th>", cols[i]);
    tp_sbuf_puts(b, "<th>report</th></tr></thead><tbody>\n");
    for (uint32_t i = 0; i < f->len; i++) {
        tp_sbuf_puts(b, "<tr class=\"finding\">");
        for (size_t j = 0; j < TP_ARRAY_LEN(cols); j++) rp_td(b, &f->items[i], cols[j]);
        tp_sbuf_puts(b, "<td><pre>");
        rp_val(b, rp_get(&f->items[i], "report"));
        tp_sbuf_puts(b, "</pre></td></tr>\n");
    }
    tp_sbuf_puts(b, "</tbody></table>\n");
}

/* ---- the section ------------------------------------------------------------------------ */

void rp_launch(tp_sbuf *b, const tp_json *k, uint32_t idx, const tp_json *config)
{
    static const char *const info[] = {"grid", "block", "shared_dyn", "regs_per_thread", "status", "reason", "mode",
                                       "warp_instructions", "thread_instructions", "cycles_estimate", "cycles", "ipc",
                                       "ctas_per_sm", "occupancy_limit", "achieved_occupancy", "tensor.instructions",
                                       "sim.cycles_skipped"};
    tp_sbuf_printf(b, "<section class=\"launch\" id=\"k%u\">\n<h3>Launch %u: <code>", idx, idx);
    rp_val(b, rp_get(k, "name"));
    tp_sbuf_puts(b, "</code></h3>\n");
    char id[32];
    snprintf(id, sizeof id, "info-%u", idx);
    rp_kv(b, k, info, TP_ARRAY_LEN(info), id);
    if (rp_timed(k)) {
        breakdown(b, k, idx);
        memory(b, k, config, idx);
        timelines(b, k, config, idx);
        hot(b, k, idx);
        mechanism(b, k, config);
    }
    findings(b, k, idx);
    tp_sbuf_puts(b, "</section>\n");
}
