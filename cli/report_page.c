/* report_page.c -- the page of `tpsim report` (report.h, docs/REPORT.md):
** the helpers every panel uses, the page's frame, the device and
** configuration, the kernels and launches tables, the totals, failed calls
** and check findings of the whole run; each launch's own panels are
** report_kernel.c's.  Nothing here reads or writes a file (tests/fuzz/
** fuzz_report.c drives it with any JSON). */
#include "report.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the launches table and launch sections at most: a page of a
** program with thousands of launches stays one that a browser opens. */
#define RP_MAX_LAUNCH_ROWS 2000
#define RP_MAX_SECTIONS 50

/* ---- values from the file ---------------------------------------------------------- */

const tp_json *rp_get(const tp_json *v, const char *path)
{
    if (!v || v->type != TP_JSON_OBJ) return NULL;
    const tp_json *m = tp_json_get(v, path);
    if (m) return m;
    const char *dot = strchr(path, '.');
    char head[128];
    if (!dot || (size_t)(dot - path) >= sizeof head) return NULL;
    memcpy(head, path, (size_t)(dot - path));
    head[dot - path] = '\0';
    return rp_get(tp_json_get(v, head), dot + 1);
}

bool rp_num(const tp_json *v, const char *path, double *out)
{
    const tp_json *m = rp_get(v, path);
    *out = m && m->type == TP_JSON_NUM ? m->num : 0.0;
    return m && m->type == TP_JSON_NUM;
}

const char *rp_str(const tp_json *v, const char *path)
{
    const tp_json *m = rp_get(v, path);
    return m && m->type == TP_JSON_STR ? m->text : NULL;
}

void rp_esc(tp_sbuf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': tp_sbuf_puts(b, "&lt;"); break;
        case '>': tp_sbuf_puts(b, "&gt;"); break;
        case '&': tp_sbuf_puts(b, "&amp;"); break;
        case '"': tp_sbuf_puts(b, "&quot;"); break;
        case '\'': tp_sbuf_puts(b, "&#39;"); break;
        default: tp_sbuf_putc(b, *s);
        }
    }
}

void rp_val(tp_sbuf *b, const tp_json *v)
{
    if (!v) {
        tp_sbuf_puts(b, "-");
        return;
    }
    switch (v->type) {
    case TP_JSON_NUM: tp_sbuf_puts(b, v->text); break;
    case TP_JSON_STR: rp_esc(b, v->text); break;
    case TP_JSON_BOOL: tp_sbuf_puts(b, v->b ? "true" : "false"); break;
    case TP_JSON_NULL: tp_sbuf_puts(b, "null"); break;
    case TP_JSON_ARR:
        tp_sbuf_puts(b, "[");
        for (uint32_t i = 0; i < v->len; i++) {
            if (i) tp_sbuf_puts(b, ", ");
            rp_val(b, &v->items[i]);
        }
        tp_sbuf_puts(b, "]");
        break;
    case TP_JSON_OBJ: tp_sbuf_puts(b, "{...}"); break;
    }
}

void rp_td(tp_sbuf *b, const tp_json *v, const char *path)
{
    const tp_json *m = rp_get(v, path);
    tp_sbuf_puts(b, "<td data-k=\"");
    rp_esc(b, path);
    if (m && m->type == TP_JSON_NUM) tp_sbuf_printf(b, "\" data-v=\"%s", m->text);
    tp_sbuf_puts(b, m && m->type == TP_JSON_NUM ? "\" class=\"n\">" : "\">");
    rp_val(b, m);
    tp_sbuf_puts(b, "</td>");
}

/* One "path value" pair of a grid. */
static void kv_item(tp_sbuf *b, const tp_json *v, const char *path)
{
    const tp_json *m = rp_get(v, path);
    tp_sbuf_puts(b, "<div><dt>");
    rp_esc(b, path);
    tp_sbuf_puts(b, "</dt><dd data-k=\"");
    rp_esc(b, path);
    if (m && m->type == TP_JSON_NUM) tp_sbuf_printf(b, "\" data-v=\"%s", m->text);
    tp_sbuf_puts(b, "\">");
    rp_val(b, m);
    tp_sbuf_puts(b, "</dd></div>");
}

void rp_kv(tp_sbuf *b, const tp_json *v, const char *const *paths, size_t n, const char *id)
{
    tp_sbuf_printf(b, "<dl class=\"kv\" id=\"%s\">", id);
    for (size_t i = 0; i < n; i++)
        if (rp_get(v, paths[i])) kv_item(b, v, paths[i]);
    tp_sbuf_puts(b, "</dl>\n");
}

void rp_kv_all(tp_sbuf *b, const tp_json *v, const char *id)
{
    if (!v || v->type != TP_JSON_OBJ) return;
    tp_sbuf_printf(b, "<dl class=\"kv\" id=\"%s\">", id);
    for (uint32_t i = 0; i < v->len; i++) kv_item(b, v, v->keys[i]);
    tp_sbuf_puts(b, "</dl>\n");
}

void rp_derived(tp_sbuf *b, const char *formula, const char *fmt, ...)
{
    tp_sbuf_puts(b, "<i class=\"d\" title=\"derived: ");
    rp_esc(b, formula);
    tp_sbuf_puts(b, "\">");
    va_list ap;
    va_start(ap, fmt);
    tp_sbuf_vprintf(b, fmt, ap);
    va_end(ap);
    tp_sbuf_puts(b, "</i>");
}

bool rp_timed(const tp_json *k)
{
    return rp_get(k, "cycles") && rp_get(k, "issue");
}

/* ---- the page's frame -------------------------------------------------------------- */

static const char page_css[] =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1200px;"
    "padding:1em 2em;color:#222;background:#fff}\n"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}"
    "h3{font-size:1.05em;margin:1em 0 .3em}\n"
    "table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;"
    "vertical-align:top}th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "table.sort th{cursor:pointer}i.d{color:#555}code,pre{font:12px/1.3 ui-monospace,Menlo,Consolas,monospace}\n"
    "pre{white-space:pre-wrap;margin:0}details{margin:.5em 0}summary{cursor:pointer}\n"
    "section.launch{border:1px solid #ccc;border-radius:4px;padding:.2em 1em .8em;margin:1em 0}\n"
    ".legend span{display:inline-block;margin-right:1em}.sw{display:inline-block;width:.9em;height:.9em;"
    "margin-right:.3em;vertical-align:middle}\n"
    "svg text{font:11px system-ui,sans-serif;fill:#222}.note{color:#555;font-size:.9em}"
    ".grid{display:flex;flex-wrap:wrap;gap:1em}.warn{color:#a00}figure{margin:0}\n"
    "dl.kv{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:2px 16px;margin:.4em 0}"
    "dl.kv div{display:flex;justify-content:space-between;gap:.5em;border-bottom:1px dotted #ccc}"
    "dt{color:#555}dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere}"
    "table.hot td:nth-child(2){white-space:nowrap}div.scroll{overflow-x:auto}"
    "#launches-table td:nth-child(3),#launches-table td:nth-child(4){white-space:nowrap}\n";

/* Sorts a table.sort by the clicked column: numbers by data-v, else text. */
static const char page_js[] =
    "document.querySelectorAll('table.sort th').forEach(function(th){th.addEventListener('click',function(){"
    "var t=th.closest('table'),i=Array.prototype.indexOf.call(th.parentNode.children,th),b=t.tBodies[0],"
    "r=Array.prototype.slice.call(b.rows),d=th.getAttribute('data-dir')==='a'?-1:1;"
    "th.setAttribute('data-dir',d>0?'a':'d');"
    "function key(c){var v=c.getAttribute('data-v');return v!==null?v:c.textContent;}"
    "r.sort(function(x,y){var u=key(x.cells[i]),v=key(y.cells[i]),m=parseFloat(u),n=parseFloat(v);"
    "if(!isNaN(m)&&!isNaN(n))return d*(m-n);return d*u.localeCompare(v);});"
    "r.forEach(function(e){b.appendChild(e);});});});\n";

static void page_head(tp_sbuf *b, const tp_json *root, const char *source)
{
    tp_sbuf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>tpsim report: ");
    rp_esc(b, source);
    tp_sbuf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>tpsim report</h1>\n", page_css);
    tp_sbuf_puts(b, "<p>The statistics of <code>");
    rp_esc(b, source);
    tp_sbuf_puts(b, "</code>, written by tpsim ");
    rp_val(b, tp_json_get(root, "tpsim_version"));
    tp_sbuf_puts(b, ".</p>\n<p class=\"note\">Every number on this page is the statistics file's, as the file "
                    "writes it. Numbers in <i class=\"d\">italics</i> are derived from the file's values: "
                    "their tooltip gives the formula. Click a table's heading to sort it.</p>\n");
}

/* ---- the device ------------------------------------------------------------------- */

static void device(tp_sbuf *b, const tp_json *config)
{
    static const char *const keys[] = {
        "device.name",    "device.arch",   "device.num_sms", "clock.core_mhz",  "sm.schedulers", "sm.scheduler",
        "device.regs_per_sm", "device.shared_per_sm", "l1d.size", "l1d.carveout", "l1d.line", "device.l2_bytes", "l2.line",
        "dram.channels", "clock.dram_mhz", "mode",        "regs.policy",     "ldst.frontend",  "warppool",
        "stats.interval", "stats.pc",
    };
    tp_sbuf_puts(b, "<h2 id=\"device\">Device and configuration</h2>\n");
    rp_kv(b, config, keys, TP_ARRAY_LEN(keys), "device-table");
    if (!config || config->type != TP_JSON_OBJ) return;
    tp_sbuf_printf(b, "<details><summary>All %u options</summary>\n<table class=\"sort\" id=\"config-table\">"
                      "<thead><tr><th>option</th><th>value</th></tr></thead><tbody>\n",
                   config->len);
    for (uint32_t i = 0; i < config->len; i++) {
        tp_sbuf_puts(b, "<tr><td>");
        rp_esc(b, config->keys[i]);
        tp_sbuf_puts(b, "</td>");
        rp_td(b, config, config->keys[i]);
        tp_sbuf_puts(b, "</tr>\n");
    }
    tp_sbuf_puts(b, "</tbody></table></details>\n");
}

/* ---- the kernels, by name ------------------------------------------------------------ */

typedef struct kname {
    const char *name;
    uint32_t launches, first;
    double warp, thread, cycles;
} kname;

static uint32_t group(const tp_json *ks, kname *g)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ks->len; i++) {
        const tp_json *k = &ks->items[i];
        const char *name = rp_str(k, "name");
        if (!name) name = "?";
        uint32_t j = 0;
        while (j < n && strcmp(g[j].name, name) != 0) j++;
        if (j == n) g[n++] = (kname){name, 0, i, 0, 0, 0};
        double v;
        g[j].launches++;
        g[j].warp += rp_num(k, "warp_instructions", &v) ? v : 0;
        g[j].thread += rp_num(k, "thread_instructions", &v) ? v : 0;
        g[j].cycles += rp_num(k, "cycles", &v) ? v : rp_num(k, "cycles_estimate", &v) ? v : 0;
    }
    return n;
}

static void kernels(tp_sbuf *b, const tp_json *ks, bool timed)
{
    kname *g = tp_calloc(ks->len ? ks->len : 1, sizeof *g);
    uint32_t n = group(ks, g);
    tp_sbuf_printf(b, "<h2 id=\"kernels\">Kernels</h2>\n<p class=\"note\">One row per kernel name: its launches "
                      "and the sums over them (derived)%s.</p>\n<table class=\"sort\" id=\"kernels-table\"><thead>"
                      "<tr><th>kernel</th><th>launches</th><th>warp instructions</th><th>thread instructions</th>"
                      "<th>%s</th>%s<th>first launch</th></tr></thead><tbody>\n",
                   timed ? "; IPC: the sum of thread instructions over the sum of cycles" : "",
                   timed ? "cycles" : "cycles (estimate)", timed ? "<th>IPC</th>" : "");
    for (uint32_t i = 0; i < n; i++) {
        tp_sbuf_puts(b, "<tr class=\"kernel\"><td><code>");
        rp_esc(b, g[i].name);
        tp_sbuf_printf(b, "</code></td><td class=\"n\" data-v=\"%u\">%u</td>", g[i].launches, g[i].launches);
        const char *what[3] = {"sum of warp_instructions", "sum of thread_instructions", "sum of cycles"};
        double val[3] = {g[i].warp, g[i].thread, g[i].cycles};
        for (int c = 0; c < 3; c++) {
            tp_sbuf_printf(b, "<td class=\"n\" data-v=\"%.0f\">", val[c]);
            rp_derived(b, what[c], "%.0f", val[c]);
            tp_sbuf_puts(b, "</td>");
        }
        double ipc = g[i].cycles > 0 ? g[i].thread / g[i].cycles : 0;
        if (timed) {
            tp_sbuf_printf(b, "<td class=\"n\" data-v=\"%.6g\">", ipc);
            rp_derived(b, "sum of thread_instructions / sum of cycles", "%.6g", ipc);
            tp_sbuf_puts(b, "</td>");
        }
        tp_sbuf_printf(b, "<td><a href=\"#k%u\">#%u</a></td></tr>\n", g[i].first, g[i].first);
    }
    tp_sbuf_puts(b, "</tbody></table>\n");
    free(g);
}

/* ---- the launches -------------------------------------------------------------------- */

/* The share of the issue slots that issued: issue.issued over the sum of
** the issue.* categories (every scheduler cycle is one of them). */
static bool issue_share(const tp_json *k, double *out)
{
    const tp_json *is = rp_get(k, "issue");
    double sum = 0, issued = 0;
    for (uint32_t i = 0; is && is->type == TP_JSON_OBJ && i < is->len; i++)
        if (is->items[i].type == TP_JSON_NUM) sum += is->items[i].num;
    rp_num(is, "issued", &issued);
    *out = sum > 0 ? 100.0 * issued / sum : 0;
    return sum > 0;
}

static void launch_row(tp_sbuf *b, const tp_json *k, uint32_t i, bool timed)
{
    tp_sbuf_printf(b, "<tr class=\"launch\"><td class=\"n\" data-v=\"%u\"><a href=\"#k%u\">%u</a></td>", i, i, i);
    static const char *const common[] = {"name", "grid", "block", "regs_per_thread", "status",
                                         "warp_instructions", "thread_instructions"};
    for (size_t c = 0; c < TP_ARRAY_LEN(common); c++) rp_td(b, k, common[c]);
    if (!timed || !rp_timed(k)) {
        /* a functional launch (fastforward.kernels) among timed ones: its estimate under cycles */
        rp_td(b, k, "cycles_estimate");
        tp_sbuf_puts(b, timed ? "<td></td><td></td><td></td><td></td><td></td><td></td></tr>\n" : "</tr>\n");
        return;
    }
    static const char *const perf[] = {"cycles", "ipc", "ctas_per_sm", "occupancy_limit", "achieved_occupancy"};
    for (size_t c = 0; c < TP_ARRAY_LEN(perf); c++) rp_td(b, k, perf[c]);
    double v;
    if (issue_share(k, &v)) {
        tp_sbuf_printf(b, "<td class=\"n\" data-v=\"%.4g\">", v);
        rp_derived(b, "issue.issued / sum of issue.* (all scheduler cycles) x 100", "%.1f%%", v);
        tp_sbuf_puts(b, "</td>");
    } else {
        tp_sbuf_puts(b, "<td>-</td>");
    }
    if (rp_num(k, "dram.bandwidth_utilization", &v)) {
        tp_sbuf_printf(b, "<td class=\"n\" data-v=\"%.4g\">", 100 * v);
        rp_derived(b, "dram.bandwidth_utilization x 100", "%.1f%%", 100 * v);
        tp_sbuf_puts(b, "</td></tr>\n");
    } else {
        tp_sbuf_puts(b, "<td>-</td></tr>\n");
    }
}

static void launches(tp_sbuf *b, const tp_json *ks, bool timed)
{
    tp_sbuf_puts(b, "<h2 id=\"launches\">Launches</h2>\n<div class=\"scroll\"><table class=\"sort\" "
                    "id=\"launches-table\"><thead><tr>"
                    "<th>#</th><th>kernel</th><th>grid</th><th>block</th><th>registers</th><th>status</th>"
                    "<th>warp instructions</th><th>thread instructions</th>");
    if (timed)
        tp_sbuf_puts(b, "<th>cycles</th><th>IPC</th><th>CTAs/SM</th><th>occupancy limiter</th>"
                        "<th>achieved occupancy</th><th>% of peak issue</th><th>DRAM bandwidth, % of peak</th>");
    else
        tp_sbuf_puts(b, "<th>cycles (estimate)</th>");
    tp_sbuf_puts(b, "</tr></thead><tbody>\n");
    for (uint32_t i = 0; i < ks->len && i < RP_MAX_LAUNCH_ROWS; i++) launch_row(b, &ks->items[i], i, timed);
    tp_sbuf_puts(b, "</tbody></table></div>\n");
    if (ks->len > RP_MAX_LAUNCH_ROWS)
        tp_sbuf_printf(b, "<p class=\"note\">The first %d of %u launches (the kernels table counts them all).</p>\n",
                       RP_MAX_LAUNCH_ROWS, ks->len);
    if (!timed)
        tp_sbuf_puts(b, "<p class=\"note\">Functional mode: no timing model, so no cycles, occupancy, issue slots, "
                        "memory or timelines; cycles_estimate is warp instructions / SMs.</p>\n");
}

/* ---- the run's totals, failed calls and findings -------------------------------------- */

static void failures(tp_sbuf *b, const tp_json *f)
{
    if (!f || f->type != TP_JSON_ARR || f->len == 0) return;
    static const char *const cols[] = {"api", "error", "kernel", "caller", "reason", "count"};
    tp_sbuf_puts(b, "<h2 id=\"failures\">Failed CUDA calls</h2>\n<table class=\"sort\" id=\"failures-table\">"
                    "<thead><tr>");
    for (size_t c = 0; c < TP_ARRAY_LEN(cols); c++) tp_sbuf_printf(b, "<th>%s</th>", cols[c]);
    tp_sbuf_puts(b, "</tr></thead><tbody>\n");
    for (uint32_t i = 0; i < f->len; i++) {
        tp_sbuf_puts(b, "<tr>");
        for (size_t c = 0; c < TP_ARRAY_LEN(cols); c++) rp_td(b, &f->items[i], cols[c]);
        tp_sbuf_puts(b, "</tr>\n");
    }
    tp_sbuf_puts(b, "</tbody></table>\n");
}

static void totals(tp_sbuf *b, const tp_json *root)
{
    tp_sbuf_puts(b, "<h2 id=\"totals\">Totals</h2>\n");
    rp_kv_all(b, tp_json_get(root, "totals"), "totals-table");
    const tp_json *chk = tp_json_get(root, "checks");
    if (chk) {
        tp_sbuf_puts(b, "<h3 id=\"checks\">Correctness checks (--check)</h3>\n<p class=\"note\">Distinct findings "
                        "of the whole run by kind; each launch's findings are in its section.</p>\n");
        rp_kv_all(b, chk, "checks-table");
    }
    const tp_json *host = tp_json_get(root, "host");
    if (host) {
        tp_sbuf_puts(b, "<details><summary>Host (the simulator's own time and memory)</summary>\n");
        rp_kv_all(b, host, "host-table");
        tp_sbuf_puts(b, "</details>\n");
    }
}

/* ---- the page ------------------------------------------------------------------------- */

bool rp_page(const tp_json *root, const char *source, tp_sbuf *b, tp_err *e)
{
    const tp_json *ks = root && root->type == TP_JSON_OBJ ? tp_json_get(root, "kernels") : NULL;
    if (!ks || ks->type != TP_JSON_ARR) {
        tp_err_set(e, 1, "%s: not a tpsim statistics file (no \"kernels\" array at the top level)", source);
        return false;
    }
    bool timed = false;
    for (uint32_t i = 0; i < ks->len && !timed; i++) timed = rp_timed(&ks->items[i]);
    const tp_json *config = tp_json_get(root, "config");
    page_head(b, root, source);
    const char *mode = rp_str(config, "mode");
    tp_sbuf_printf(b, "<p>%u launch%s, ", ks->len, ks->len == 1 ? "" : "es");
    rp_esc(b, mode ? mode : timed ? "performance" : "functional");
    tp_sbuf_puts(b, " mode.</p>\n<nav class=\"note\">Contents: <a href=\"#device\">device</a> &middot; "
                    "<a href=\"#kernels\">kernels</a> &middot; <a href=\"#launches\">launches</a> &middot; "
                    "<a href=\"#totals\">totals</a>");
    const tp_json *fl = tp_json_get(root, "failures");
    if (fl && fl->type == TP_JSON_ARR && fl->len)
        tp_sbuf_puts(b, " &middot; <a href=\"#failures\">failed calls</a>");
    if (ks->len) tp_sbuf_puts(b, " &middot; <a href=\"#per-launch\">each launch</a>");
    tp_sbuf_puts(b, "</nav>\n");
    device(b, config);
    kernels(b, ks, timed);
    launches(b, ks, timed);
    totals(b, root);
    failures(b, tp_json_get(root, "failures"));
    if (ks->len) tp_sbuf_puts(b, "<h2 id=\"per-launch\">Each launch</h2>\n");
    if (ks->len > RP_MAX_SECTIONS)
        tp_sbuf_printf(b, "<p class=\"note\">The first %d of %u launches, to keep the page small.</p>\n",
                       RP_MAX_SECTIONS, ks->len);
    for (uint32_t i = 0; i < ks->len && i < RP_MAX_SECTIONS; i++) rp_launch(b, &ks->items[i], i, config);
    tp_sbuf_printf(b, "<script>\n%s</script>\n</body>\n</html>\n", page_js);
    return true;
}
