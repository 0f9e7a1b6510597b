/* sweep_report.c -- `tpsim sweep FILE --report`: tpsim report's page
** (cli/report.c) for every point of a sweep that has GPU statistics, and an
** index page linking them, in RESULTS/NAME-report/ (index.html and
** NNNN-POINT.html, the point's index and its name with every character
** other than letters, digits, '.', '-' and '_' written as '_').  A point
** without statistics (failed, missing, a VMIPS program) is a row of the
** index with its status and message and no page. */
#include "sweep.h"
#include "report.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* The page's file name of point i (in name[n]). */
static void page_name(const sw_point *pt, uint32_t i, char *name, size_t n)
{
    int k = snprintf(name, n, "%04u-", i);
    for (const char *s = pt->name; *s && (size_t)k + 6 < n && k < 100; s++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '-' || c == '_';
        name[k++] = ok ? c : '_';
    }
    snprintf(name + k, n - (size_t)k, ".html");
}

/* Point i's page into dir; its file name in name, or "" when it has none. */
static bool point_page(const sw_point *pt, uint32_t i, const sw_result *r, const char *dir, char *name, size_t n)
{
    name[0] = '\0';
    const tp_json *st = r->have_doc ? tp_json_get(r->doc.root, "stats") : NULL;
    if (!st || !tp_json_get(st, "kernels")) return true;
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_err e;
    tp_err_clear(&e);
    bool ok = rp_page(st, pt->name, &b, &e);
    char path[PATH_MAX + 200];
    page_name(pt, i, name, n);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ok && !sw_write_atomic(path, b.s, b.len, &e)) ok = false;
    if (!ok) fprintf(stderr, "tpsim sweep: %s\n", e.msg);
    tp_sbuf_free(&b);
    return ok;
}

int sw_report(const sw_file *f, const sw_plan *p, const sw_result *res, const char *results, bool quiet)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/%s-report", results, f->name);
    if (!sw_mkdirs(dir)) {
        fprintf(stderr, "tpsim sweep: cannot make %s: %s\n", dir, strerror(errno));
        return 1;
    }
    tp_sbuf ix;
    tp_sbuf_init(&ix);
    tp_sbuf_puts(&ix, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>tpsim sweep ");
    rp_esc(&ix, f->name);
    tp_sbuf_puts(&ix, "</title>\n<style>body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em}table{border-collapse:"
                      "collapse}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}</style>\n</head>\n<body>\n"
                      "<h1>tpsim sweep ");
    rp_esc(&ix, f->name);
    tp_sbuf_printf(&ix, "</h1>\n<p>%u points; each point with statistics has its page (tpsim report).</p>\n"
                        "<table id=\"points\"><thead><tr><th>#</th><th>point</th><th>status</th><th>message</th>"
                        "<th>report</th></tr></thead><tbody>\n",
                   p->n);
    int rc = 0;
    uint32_t pages = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        char name[160];
        if (!point_page(&p->pts[i], i, &res[i], dir, name, sizeof name)) rc = 1;
        pages += name[0] != '\0';
        tp_sbuf_printf(&ix, "<tr><td>%u</td><td><code>", i);
        rp_esc(&ix, p->pts[i].name);
        tp_sbuf_printf(&ix, "</code></td><td>%s</td><td>", sw_status_name(res[i].status));
        rp_esc(&ix, res[i].message ? res[i].message : "");
        tp_sbuf_puts(&ix, "</td><td>");
        if (name[0]) tp_sbuf_printf(&ix, "<a href=\"%s\">page</a>", name);
        tp_sbuf_puts(&ix, "</td></tr>\n");
    }
    tp_sbuf_puts(&ix, "</tbody></table>\n</body>\n</html>\n");
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/index.html", dir);
    tp_err e;
    tp_err_clear(&e);
    if (!sw_write_atomic(path, ix.s, ix.len, &e)) {
        fprintf(stderr, "tpsim sweep: %s\n", e.msg);
        rc = 1;
    } else if (!quiet) {
        printf("%s (%u page%s)\n", path, pages, pages == 1 ? "" : "s");
    }
    tp_sbuf_free(&ix);
    return rc;
}
