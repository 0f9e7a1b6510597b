/*
** report.h -- `tpsim report`: one self-contained HTML page from a
** statistics file (docs/REPORT.md).
**
** The page is inline HTML, CSS and SVG (no network, no external script,
** style sheet or font; a few lines of inline JavaScript sort the tables, and
** everything reads without it).  Every number on it is the statistics
** file's, printed as the file writes it (the JSON number's own text); a
** value computed from the file's values (a hit rate, a share of the issue
** slots, a per-interval rate) is shown in italics with its formula in a
** tooltip, and named "derived" on the page.
**
** rp_ is the prefix of the helpers the report's files share (report.c: the
** command and the page; report_kernel.c: one launch's panels).
*/
#ifndef CLI_REPORT_H
#define CLI_REPORT_H

#include "../base/json.h"
#include "../base/sbuf.h"

/* The page for the statistics document root (source: what it is the
** statistics of, a file's name or a command line, shown on the page) into out.  False, with e set to one line, when root is not a
** tpsim statistics file (an object with a "kernels" array). */
bool rp_page(const tp_json *root, const char *source, tp_sbuf *out, tp_err *e);

/* Reads the statistics file stats and writes the page to html (through a
** temporary file renamed into place); label names the run on the page (NULL:
** the file's name).  0, or 1 after printing "CMD: why" (one line; a JSON
** error names file:line:col) on stderr. */
int rp_file(const char *cmd, const char *stats, const char *html, const char *label);

/* Whether html can be written: its directory exists and is writable, and
** html is not a directory.  False after printing "CMD: why" on stderr. */
bool rp_writable(const char *cmd, const char *html);

/* ---- shared by the report's files ---- */

/* The member at a dotted path: "l1d.hits" is v["l1d.hits"] or v["l1d"]["hits"]. */
const tp_json *rp_get(const tp_json *v, const char *path);
/* The number at path; false (and *out 0) when there is none. */
bool rp_num(const tp_json *v, const char *path, double *out);
/* The string at path, or NULL. */
const char *rp_str(const tp_json *v, const char *path);
/* s with HTML's special characters escaped. */
void rp_esc(tp_sbuf *b, const char *s);
/* A value as the file writes it (a number's text, a string escaped, true,
** false, null), or "-" when there is none. */
void rp_val(tp_sbuf *b, const tp_json *v);
/* A table cell with the value at path: <td data-k="path" data-v="...">. */
void rp_td(tp_sbuf *b, const tp_json *v, const char *path);
/* The values at paths of v that the file has, as a grid of "path value"
** pairs: <dl class="kv" id="id"><div><dt>path</dt><dd data-k=...>. */
void rp_kv(tp_sbuf *b, const tp_json *v, const char *const *paths, size_t n, const char *id);
/* Every member of the flat object v the same way. */
void rp_kv_all(tp_sbuf *b, const tp_json *v, const char *id);
/* A derived value: <i class="d" title="formula">text</i>. */
void rp_derived(tp_sbuf *b, const char *formula, const char *fmt, ...) TP_PRINTF(3, 4);

/* One launch's section (report_kernel.c): header, issue-slot breakdown,
** memory chart, timelines, hottest instructions, mechanism, findings.  k is
** its entry of "kernels", idx its index, config the file's "config". */
void rp_launch(tp_sbuf *b, const tp_json *k, uint32_t idx, const tp_json *config);
/* Whether a launch entry has the timing model's statistics. */
bool rp_timed(const tp_json *k);

#endif
