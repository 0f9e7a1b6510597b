/*
** sweep_table.c -- from results to the table and its CSV.
**
** Columns.  A column's PATH is resolved in a point's statistics (or, for
** stdout.NAME, in the numbers of its standard output), segment by segment:
**   - in an object, a segment names a member; the longest run of segments
**     joined by '.' that is a member's name wins, so tpsim vec's flat
**     "ops.16" and the JSON's nested "l1d.misses" both work; '*' is every
**     member, [PATTERN] every member whose name matches the shell pattern;
**   - in an array, '*' is every element, N the Nth (0-based; -1 the last),
**     [PATTERN] every element whose "name" member matches, e.g.
**     kernels[*gemm*].cycles.
** The values matched are combined by the column's rule: sum (the default:
** kernels.*.cycles is the cycles of all launches together), mean, min,
** max, count (how many values matched), first, last.  Sums of integers are
** exact; true and false count as 1 and 0; a single string (or first/last
** of strings) is written as it is.  Nothing matched: an empty cell.  One
** matched number is written exactly as the statistics wrote it; computed
** numbers as integers when they are, else with 6 significant digits.
**
** Rows are the points in cross-product order; only ok points have values.
** Derived columns evaluate their expression with NAME the value of a
** column in this row and NAME@DIM=VALUE,... its value in the row whose
** coordinates are this row's with those replaced; an empty operand or a
** division by zero gives an empty cell.
**
** CSV: RFC 4180 (a field is quoted when it has a comma, a quote, a line
** break or blanks at either end; quotes are doubled), lines end with "\n".
*/
#include "sweep.h"
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- matching a path ---------------------------------------------------------- */

typedef struct matches {
    const tp_json **v;
    uint32_t n;
} matches;

static void add_match(matches *m, const tp_json *v)
{
    m->v = tp_realloc(m->v, (m->n + 1) * sizeof *m->v);
    m->v[m->n++] = v;
}

static bool is_pattern(const char *s) { return s[0] == '['; }

/* [PATTERN] -> PATTERN (caller frees) */
static char *pattern_of(const char *s)
{
    size_t n = strlen(s);
    return tp_strndup(s + 1, n >= 2 ? n - 2 : 0);
}

static bool parse_index(const char *s, long *out)
{
    char *end;
    if (!*s) return false;
    long v = strtol(s, &end, 10);
    if (*end) return false;
    *out = v;
    return true;
}

static void match(const tp_json *node, const char **seg, uint32_t nseg, uint32_t i, matches *m, int depth)
{
    if (i == nseg) {
        add_match(m, node);
        return;
    }
    if (depth > 64) return;
    const char *s = seg[i];
    if (node->type == TP_JSON_OBJ) {
        if (!strcmp(s, "*")) {
            for (uint32_t k = 0; k < node->len; k++) match(&node->items[k], seg, nseg, i + 1, m, depth + 1);
            return;
        }
        if (is_pattern(s)) {
            char *pat = pattern_of(s);
            for (uint32_t k = 0; k < node->len; k++)
                if (fnmatch(pat, node->keys[k], 0) == 0) match(&node->items[k], seg, nseg, i + 1, m, depth + 1);
            free(pat);
            return;
        }
        /* the longest run of segments that is a member's name */
        tp_sbuf key;
        tp_sbuf_init(&key);
        for (uint32_t end = nseg; end > i; end--) {
            tp_sbuf_reset(&key);
            bool plain = true;
            for (uint32_t k = i; k < end; k++) {
                if (is_pattern(seg[k]) || !strcmp(seg[k], "*")) plain = false;
                if (k > i) tp_sbuf_putc(&key, '.');
                tp_sbuf_puts(&key, seg[k]);
            }
            if (!plain) continue;
            const tp_json *v = tp_json_get(node, tp_sbuf_str(&key));
            if (v) {
                tp_sbuf_free(&key);
                match(v, seg, nseg, end, m, depth + 1);
                return;
            }
        }
        tp_sbuf_free(&key);
        return;
    }
    if (node->type == TP_JSON_ARR) {
        long idx;
        if (!strcmp(s, "*")) {
            for (uint32_t k = 0; k < node->len; k++) match(&node->items[k], seg, nseg, i + 1, m, depth + 1);
        } else if (is_pattern(s)) {
            char *pat = pattern_of(s);
            for (uint32_t k = 0; k < node->len; k++) {
                const tp_json *nm = tp_json_get(&node->items[k], "name");
                if (nm && nm->type == TP_JSON_STR && fnmatch(pat, nm->text, 0) == 0)
                    match(&node->items[k], seg, nseg, i + 1, m, depth + 1);
            }
            free(pat);
        } else if (parse_index(s, &idx)) {
            if (idx < 0) idx += (long)node->len;
            if (idx >= 0 && idx < (long)node->len) match(&node->items[idx], seg, nseg, i + 1, m, depth + 1);
        }
    }
}

static void fmt_num(double v, tp_sbuf *out)
{
    if (v == floor(v) && fabs(v) < 1e15) tp_sbuf_printf(out, "%.0f", v);
    else tp_sbuf_printf(out, "%.6g", v);
}

static bool numeric(const tp_json *v, double *d)
{
    if (v->type == TP_JSON_NUM) return *d = v->num, true;
    if (v->type == TP_JSON_BOOL) return *d = v->b ? 1 : 0, true;
    return false;
}

bool sw_column_value(const sw_column *c, const sw_result *r, tp_sbuf *out)
{
    if (!r->have_doc) return false;
    const tp_json *base = tp_json_get(r->doc.root, c->stdout_table ? "stdout" : "stats");
    if (!base) return false;
    matches m = {0};
    match(base, c->seg, c->nseg, c->stdout_table ? 1 : 0, &m, 0);
    bool ok = false;
    if (c->agg == SW_COUNT) {
        tp_sbuf_printf(out, "%u", m.n);
        ok = true;
    } else if (m.n == 1 || ((c->agg == SW_FIRST || c->agg == SW_LAST) && m.n)) {
        const tp_json *v = m.v[c->agg == SW_LAST ? m.n - 1 : 0];
        if (v->type == TP_JSON_NUM) tp_sbuf_puts(out, v->text), ok = true;
        else if (v->type == TP_JSON_BOOL) tp_sbuf_puts(out, v->b ? "1" : "0"), ok = true;
        else if (v->type == TP_JSON_STR) tp_sbuf_put(out, v->text, v->len), ok = true;
    } else if (m.n > 1) {
        /* numbers only; exact when every one is an integer */
        bool all_int = true, any = false;
        int64_t isum = 0;
        double sum = 0, mn = INFINITY, mx = -INFINITY;
        const tp_json *vmin = NULL, *vmax = NULL;
        uint32_t cnt = 0;
        for (uint32_t i = 0; i < m.n; i++) {
            double d;
            if (!numeric(m.v[i], &d)) continue;
            any = true;
            cnt++;
            int64_t iv;
            if (m.v[i]->type == TP_JSON_BOOL) iv = m.v[i]->b;
            else if (!tp_json_int(m.v[i], &iv)) all_int = false;
            if (all_int && __builtin_add_overflow(isum, iv, &isum)) all_int = false;
            sum += d;
            if (d < mn) mn = d, vmin = m.v[i];
            if (d > mx) mx = d, vmax = m.v[i];
        }
        if (any) {
            ok = true;
            switch (c->agg) {
            case SW_SUM:
                if (all_int) tp_sbuf_printf(out, "%lld", (long long)isum);
                else fmt_num(sum, out);
                break;
            case SW_MEAN: fmt_num(sum / cnt, out); break;
            case SW_MIN:
                if (vmin->type == TP_JSON_NUM) tp_sbuf_puts(out, vmin->text);
                else fmt_num(mn, out);
                break;
            case SW_MAX:
                if (vmax->type == TP_JSON_NUM) tp_sbuf_puts(out, vmax->text);
                else fmt_num(mx, out);
                break;
            default: ok = false; break;
            }
        }
    }
    free(m.v);
    return ok;
}

/* ---- the table ----------------------------------------------------------------------- */

static char *dup(const char *s) { return tp_strdup(s ? s : ""); }

static double cell_num(const char *s)
{
    if (!*s) return NAN;
    char *end;
    double v = strtod(s, &end);
    return *end ? NAN : v;
}

static double eval(const sw_expr *e, const sw_file *f, const sw_plan *p, uint32_t row, double **vals)
{
    switch (e->op) {
    case SW_E_NUM: return e->num;
    case SW_E_REF: {
        int r = e->nsel ? sw_point_find(f, p, &p->pts[row], e->sel, e->nsel) : (int)row;
        return r < 0 ? NAN : vals[r][e->ref];
    }
    case SW_E_NEG: return -eval(e->l, f, p, row, vals);
    default: break;
    }
    double a = eval(e->l, f, p, row, vals), b = eval(e->r, f, p, row, vals);
    switch (e->op) {
    case SW_E_ADD: return a + b;
    case SW_E_SUB: return a - b;
    case SW_E_MUL: return a * b;
    case SW_E_DIV: return b == 0 ? NAN : a / b;
    default: return NAN;
    }
}

void sw_table_build(sw_table *t, const sw_file *f, const sw_plan *p, const sw_result *res)
{
    uint32_t nv = f->ncols + f->nders;
    t->ncols = 3 + f->naxes + nv + 2;
    t->nrows = p->n;
    t->first_value = 3 + f->naxes;
    t->head = tp_calloc(t->ncols, sizeof *t->head);
    uint32_t c = 0;
    t->head[c++] = dup("point");
    t->head[c++] = dup("program");
    t->head[c++] = dup("config");
    for (uint32_t x = 0; x < f->naxes; x++) t->head[c++] = dup(f->axes[x].name);
    for (uint32_t k = 0; k < f->ncols; k++) t->head[c++] = dup(f->cols[k].name);
    for (uint32_t k = 0; k < f->nders; k++) t->head[c++] = dup(f->ders[k].name);
    t->head[c++] = dup("status");
    t->head[c++] = dup("message");
    t->cell = tp_calloc(p->n ? p->n : 1, sizeof *t->cell);
    double **vals = tp_calloc(p->n ? p->n : 1, sizeof *vals);
    tp_sbuf b;
    tp_sbuf_init(&b);
    for (uint32_t i = 0; i < p->n; i++) {
        const sw_point *pt = &p->pts[i];
        char **row = t->cell[i] = tp_calloc(t->ncols, sizeof *row);
        vals[i] = tp_calloc(nv ? nv : 1, sizeof **vals);
        c = 0;
        row[c++] = dup(pt->name);
        row[c++] = dup(f->progs[pt->prog].name);
        row[c++] = dup(f->cfgs[pt->cfg].name);
        for (uint32_t x = 0; x < f->naxes; x++) row[c++] = dup(f->axes[x].labels[pt->val[x]]);
        for (uint32_t k = 0; k < f->ncols; k++) {
            tp_sbuf_reset(&b);
            bool have = res[i].status == SW_OK && sw_column_value(&f->cols[k], &res[i], &b);
            row[c++] = dup(have ? tp_sbuf_str(&b) : "");
            vals[i][k] = have ? cell_num(tp_sbuf_str(&b)) : NAN;
        }
        c += f->nders;
        row[c++] = dup(sw_status_name(res[i].status));
        row[c++] = dup(res[i].message);
    }
    /* derived columns, in order (each may use the ones before it) */
    for (uint32_t k = 0; k < f->nders; k++) {
        for (uint32_t i = 0; i < p->n; i++) vals[i][f->ncols + k] = eval(f->ders[k].e, f, p, i, vals);
        for (uint32_t i = 0; i < p->n; i++) {
            double v = res[i].status == SW_OK ? vals[i][f->ncols + k] : NAN;
            tp_sbuf_reset(&b);
            if (isfinite(v)) fmt_num(v, &b);
            t->cell[i][t->first_value + f->ncols + k] = dup(tp_sbuf_str(&b));
        }
    }
    tp_sbuf_free(&b);
    for (uint32_t i = 0; i < p->n; i++) free(vals[i]);
    free(vals);
}

void sw_table_free(sw_table *t)
{
    for (uint32_t i = 0; i < t->nrows; i++) {
        for (uint32_t c = 0; c < t->ncols; c++) free(t->cell[i][c]);
        free(t->cell[i]);
    }
    for (uint32_t c = 0; c < t->ncols; c++) free(t->head[c]);
    free(t->cell);
    free(t->head);
    memset(t, 0, sizeof *t);
}

int sw_table_col(const sw_table *t, const char *name)
{
    for (uint32_t c = 0; c < t->ncols; c++)
        if (!strcmp(t->head[c], name)) return (int)c;
    return -1;
}

static void csv_field(const char *s, tp_sbuf *out)
{
    size_t n = strlen(s);
    bool quote = n && (s[0] == ' ' || s[n - 1] == ' ' || s[0] == '\t' || s[n - 1] == '\t');
    for (const char *q = s; *q && !quote; q++) quote = *q == ',' || *q == '"' || *q == '\n' || *q == '\r';
    if (!quote) {
        tp_sbuf_puts(out, s);
        return;
    }
    tp_sbuf_putc(out, '"');
    for (const char *q = s; *q; q++) {
        if (*q == '"') tp_sbuf_putc(out, '"');
        tp_sbuf_putc(out, *q);
    }
    tp_sbuf_putc(out, '"');
}

void sw_table_csv(const sw_table *t, tp_sbuf *out)
{
    for (uint32_t c = 0; c < t->ncols; c++) {
        if (c) tp_sbuf_putc(out, ',');
        csv_field(t->head[c], out);
    }
    tp_sbuf_putc(out, '\n');
    for (uint32_t i = 0; i < t->nrows; i++) {
        for (uint32_t c = 0; c < t->ncols; c++) {
            if (c) tp_sbuf_putc(out, ',');
            csv_field(t->cell[i][c], out);
        }
        tp_sbuf_putc(out, '\n');
    }
}

bool sw_table_read_csv(sw_table *t, const char *text, const char *path, tp_err *e)
{
    memset(t, 0, sizeof *t);
    char ***rows = NULL;
    uint32_t nrows = 0, line = 1;
    const char *q = text;
    tp_sbuf fld;
    tp_sbuf_init(&fld);
    while (*q) {
        char **row = NULL;
        uint32_t n = 0;
        uint32_t row_line = line;
        for (;;) {
            tp_sbuf_reset(&fld);
            if (*q == '"') {
                q++;
                for (;;) {
                    if (!*q) {
                        tp_loc loc = {path, row_line, 1};
                        tp_err_at(e, SW_ERR, loc, "quoted field not closed");
                        for (uint32_t k = 0; k < n; k++) free(row[k]);
                        free(row);
                        goto fail;
                    }
                    if (*q == '"' && q[1] == '"') tp_sbuf_putc(&fld, '"'), q += 2;
                    else if (*q == '"') {
                        q++;
                        break;
                    } else {
                        if (*q == '\n') line++;
                        tp_sbuf_putc(&fld, *q++);
                    }
                }
            } else {
                while (*q && *q != ',' && *q != '\n' && *q != '\r') tp_sbuf_putc(&fld, *q++);
            }
            row = tp_realloc(row, (n + 1) * sizeof *row);
            row[n++] = tp_strdup(tp_sbuf_str(&fld));
            if (*q == ',') {
                q++;
                continue;
            }
            if (*q == '\r') q++;
            if (*q == '\n') q++, line++;
            else if (*q) {
                for (uint32_t k = 0; k < n; k++) free(row[k]);
                free(row);
                tp_loc loc = {path, line, 1};
                tp_err_at(e, SW_ERR, loc, "unexpected text after a quoted field");
                goto fail;
            }
            break;
        }
        if (nrows == 0) {
            t->head = row;
            t->ncols = n;
        } else if (n != t->ncols) {
            for (uint32_t k = 0; k < n; k++) free(row[k]);
            free(row);
            tp_loc loc = {path, row_line, 1};
            tp_err_at(e, SW_ERR, loc, "%u fields, but the header has %u", n, t->ncols);
            goto fail;
        } else {
            rows = tp_realloc(rows, nrows * sizeof *rows);
            rows[nrows - 1] = row;
        }
        nrows++;
    }
    tp_sbuf_free(&fld);
    if (!nrows) {
        tp_loc loc = {path, 1, 1};
        tp_err_at(e, SW_ERR, loc, "empty CSV file");
        return false;
    }
    t->cell = rows;
    t->nrows = nrows - 1;
    return true;
fail:
    tp_sbuf_free(&fld);
    t->cell = rows;
    t->nrows = nrows ? nrows - 1 : 0;
    sw_table_free(t);
    return false;
}
