/* stats.c -- statistics registry (see stats.h). */
#include "stats.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

void tp_stats_init(tp_stats *s) { s->a = NULL; s->n = s->cap = 0; }

void tp_stats_free(tp_stats *s)
{
    for (uint32_t i = 0; i < s->n; i++) {
        free((char *)s->a[i].name);
        if (s->a[i].owns_p) free((void *)s->a[i].p);
    }
    free(s->a);
    tp_stats_init(s);
}

static tp_stat *add(tp_stats *s, const char *name, tp_stat_kind k, const void *p, const char *doc)
{
    TP_ASSERT(tp_stats_find(s, name) == NULL);
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 32;
        s->a = tp_realloc(s->a, s->cap * sizeof *s->a);
    }
    tp_stat *st = &s->a[s->n++];
    memset(st, 0, sizeof *st);
    st->name = tp_strdup(name);
    st->doc = doc;
    st->kind = k;
    st->p = p;
    return st;
}

void tp_stats_add(tp_stats *s, const char *name, tp_stat_kind k, const void *p, const char *doc)
{
    add(s, name, k, p, doc);
}

#define OFF(x) ((const void *)(uintptr_t)(x))

void tp_stats_add_def(tp_stats *s, size_t base, const tp_stat_def *d)
{
    const void *p = OFF(base + d->off);
    bool owns = false;
    if (d->kind == TP_STAT_TABLE) {
        tp_stat_table *t = tp_malloc(sizeof *t);
        *t = *d->table;
        t->rows_at += base;
        t->count_at += base;
        p = t;
        owns = true;
    }
    tp_stat *st = add(s, d->name, d->kind, p, d->doc);
    st->owns_p = owns;
    st->unit = d->unit;
    st->rule = d->rule;
    st->flags = d->flags;
    if (d->rule == TP_RULE_RATIO) {
        st->num = OFF(base + d->num);
        st->den = OFF(base + d->den);
        st->scale = d->scale;
    }
    memcpy(st->src, d->src, sizeof st->src);
    st->col = d->col;
}

void tp_stats_add_defs(tp_stats *s, size_t base, const tp_stat_def *d, size_t n)
{
    for (size_t i = 0; i < n; i++) tp_stats_add_def(s, base, &d[i]);
}

void tp_stats_u64(tp_stats *s, const char *n, const uint64_t *p, const char *d) { tp_stats_add(s, n, TP_STAT_U64, p, d); }
void tp_stats_f64(tp_stats *s, const char *n, const double *p, const char *d) { tp_stats_add(s, n, TP_STAT_F64, p, d); }
void tp_stats_str(tp_stats *s, const char *n, char *const *p, const char *d) { tp_stats_add(s, n, TP_STAT_STR, p, d); }
void tp_stats_dim3(tp_stats *s, const char *n, const uint32_t *p, const char *d) { tp_stats_add(s, n, TP_STAT_DIM3, p, d); }
void tp_stats_table(tp_stats *s, const char *n, const tp_stat_table *t, const char *d) { tp_stats_add(s, n, TP_STAT_TABLE, t, d); }

const tp_stat *tp_stats_find(const tp_stats *s, const char *name)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (strcmp(s->a[i].name, name) == 0) return &s->a[i];
    return NULL;
}

/* Where a value lives: p itself (absolute), or base + p (relative). */
static const void *at(const void *base, const void *p)
{
    return base ? (const char *)base + (uintptr_t)p : p;
}

const tp_stat *tp_stats_at(const tp_stats *s, const void *p)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->a[i].p == p && s->a[i].kind != TP_STAT_TABLE) return &s->a[i];
    return NULL;
}

static bool numeric(tp_stat_kind k)
{
    return k == TP_STAT_U64 || k == TP_STAT_U32 || k == TP_STAT_I64 || k == TP_STAT_F64;
}

bool tp_stats_check(const tp_stats *s, const char **bad)
{
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *st = &s->a[i];
        if (st->rule != TP_RULE_RATIO) continue;
        const tp_stat *n = tp_stats_at(s, st->num), *d = tp_stats_at(s, st->den);
        if (st->kind != TP_STAT_F64 || !n || !d || !numeric(n->kind) || !numeric(d->kind)) {
            if (bad) *bad = st->name;
            return false;
        }
    }
    return true;
}

static double value(tp_stat_kind kind, const void *v)
{
    switch (kind) {
    case TP_STAT_U64: return (double)*(const uint64_t *)v;
    case TP_STAT_U32: return (double)*(const uint32_t *)v;
    case TP_STAT_I64: return (double)*(const int64_t *)v;
    case TP_STAT_F64: return *(const double *)v;
    default: return 0;
    }
}

double tp_stats_value_at(const tp_stat *st, const void *base) { return value(st->kind, at(base, st->p)); }

/* num x scale / den, 0 when den is not positive: the one formula of every ratio. */
static double ratio(double num, double den, double scale) { return den > 0 ? num * scale / den : 0; }

void tp_stats_ratios_at(const tp_stats *s, void *base)
{
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *st = &s->a[i];
        if (st->rule != TP_RULE_RATIO) continue;
        const tp_stat *n = tp_stats_at(s, st->num), *d = tp_stats_at(s, st->den);
        double v = n && d ? ratio(tp_stats_value_at(n, base), tp_stats_value_at(d, base), st->scale) : 0;
        *(double *)at(base, st->p) = v;
    }
}

const char *tp_stat_kind_name(tp_stat_kind k)
{
    static const char *const names[] = {"u64", "i64", "f64", "str", "dim3", "u32", "table"};
    return (size_t)k < TP_ARRAY_LEN(names) ? names[k] : "?";
}

const char *tp_stat_unit_name(tp_stat_unit u)
{
    static const char *const names[] = {
#define TP_STAT_UNIT_NAME(u, text) text,
        TP_STAT_UNITS(TP_STAT_UNIT_NAME)
#undef TP_STAT_UNIT_NAME
    };
    return (size_t)u < TP_ARRAY_LEN(names) ? names[u] : "?";
}

const char *tp_stat_rule_name(tp_stat_rule r)
{
    static const char *const names[] = {"-", "add", "max", "prop", "ratio"};
    return (size_t)r < TP_ARRAY_LEN(names) ? names[r] : "?";
}

void tp_stats_rule_text(const tp_stats *s, const tp_stat *st, tp_sbuf *out)
{
    tp_sbuf_puts(out, tp_stat_rule_name(st->rule));
    if (st->rule != TP_RULE_RATIO) return;
    const tp_stat *n = tp_stats_at(s, st->num), *d = tp_stats_at(s, st->den);
    tp_sbuf_puts(out, ": ");
    if (st->scale != 1) tp_sbuf_printf(out, "%g x ", st->scale);
    tp_sbuf_printf(out, "%s / %s", n ? n->name : "?", d ? d->name : "?");
}

static void scalar(tp_stat_kind kind, const void *v, tp_sbuf *out, bool json)
{
    switch (kind) {
    case TP_STAT_U64: tp_sbuf_printf(out, "%" PRIu64, *(const uint64_t *)v); break;
    case TP_STAT_U32: tp_sbuf_printf(out, "%" PRIu32, *(const uint32_t *)v); break;
    case TP_STAT_I64: tp_sbuf_printf(out, "%" PRId64, *(const int64_t *)v); break;
    case TP_STAT_F64: {
        double d = *(const double *)v;
        if (json && !isfinite(d)) tp_sbuf_puts(out, "null");
        else tp_sbuf_printf(out, "%.6g", d);
        break;
    }
    case TP_STAT_STR: {
        const char *str = *(char *const *)v;
        if (json && !str) tp_sbuf_puts(out, "null"); /* absent */
        else if (json) tp_sbuf_json_str(out, str);
        else tp_sbuf_puts(out, str ? str : "");
        break;
    }
    case TP_STAT_DIM3: {
        const uint32_t *d = v;
        if (json) tp_sbuf_printf(out, "[%u, %u, %u]", d[0], d[1], d[2]);
        else tp_sbuf_printf(out, "(%u,%u,%u)", d[0], d[1], d[2]);
        break;
    }
    case TP_STAT_TABLE: break;
    }
}

static void table_rows(const tp_stat_table *t, const void *base, const void **rows, uint32_t *n)
{
    *rows = *(const void *const *)at(base, (const void *)(uintptr_t)t->rows_at);
    *n = *(const uint32_t *)at(base, (const void *)(uintptr_t)t->count_at);
    if (!*rows) *n = 0;
}

void tp_stats_text_at(const tp_stats *s, const void *base, tp_sbuf *out)
{
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *st = &s->a[i];
        if (st->flags & TP_STAT_HIDDEN) continue;
        tp_sbuf_printf(out, "%s: ", st->name);
        if (st->kind == TP_STAT_TABLE) {
            const void *rows;
            uint32_t n;
            table_rows(st->p, base, &rows, &n);
            tp_sbuf_printf(out, "%u rows", n);
        } else {
            scalar(st->kind, at(base, st->p), out, false);
        }
        tp_sbuf_putc(out, '\n');
    }
}

void tp_stats_text(const tp_stats *s, tp_sbuf *out) { tp_stats_text_at(s, NULL, out); }

/* ---- JSON with dotted names nested ------------------------------------------------ */

typedef struct nest {
    const char *path[16];      /* open object names (pointers into the names) */
    size_t len[16];
    int depth;
    int indent;
    bool first;                /* no member written at the current depth yet */
} nest;

static void newline(tp_sbuf *out, int indent)
{
    tp_sbuf_putc(out, '\n');
    for (int i = 0; i < indent; i++) tp_sbuf_putc(out, ' ');
}

/* Opens and closes objects so that the leaf of `name` goes at the right
** depth; returns the leaf name. */
static const char *nest_to(nest *n, const char *name, tp_sbuf *out)
{
    const char *comp[16];
    size_t clen[16];
    int nc = 0;
    const char *p = name;
    for (;;) {
        const char *dot = strchr(p, '.');
        if (!dot || nc == 15) break;
        comp[nc] = p;
        clen[nc] = (size_t)(dot - p);
        nc++;
        p = dot + 1;
    }
    int keep = 0;
    while (keep < n->depth && keep < nc && n->len[keep] == clen[keep] && !memcmp(n->path[keep], comp[keep], clen[keep]))
        keep++;
    while (n->depth > keep) {
        n->depth--;
        newline(out, n->indent + 2 * (n->depth + 1));
        tp_sbuf_putc(out, '}');
        n->first = false;
    }
    while (n->depth < nc) {
        if (!n->first) tp_sbuf_putc(out, ',');
        newline(out, n->indent + 2 * (n->depth + 1));
        tp_sbuf_putc(out, '"');
        tp_sbuf_put(out, comp[n->depth], clen[n->depth]);
        tp_sbuf_puts(out, "\": {");
        n->path[n->depth] = comp[n->depth];
        n->len[n->depth] = clen[n->depth];
        n->depth++;
        n->first = true;
    }
    if (!n->first) tp_sbuf_putc(out, ',');
    newline(out, n->indent + 2 * (n->depth + 1));
    n->first = false;
    return p;
}

static void nest_close(nest *n, tp_sbuf *out)
{
    while (n->depth > 0) {
        n->depth--;
        newline(out, n->indent + 2 * (n->depth + 1));
        tp_sbuf_putc(out, '}');
    }
}

/* One object on one line: members in order, a dotted name's first part
** opening an inner object (one level). */
typedef struct inl {
    const char *open;
    size_t olen;
    bool first;
} inl;

static void inline_member(inl *st, const char *name, tp_stat_kind kind, const void *v, tp_sbuf *out)
{
    const char *dot = strchr(name, '.');
    if (st->open && (!dot || (size_t)(dot - name) != st->olen || memcmp(name, st->open, st->olen))) {
        tp_sbuf_putc(out, '}');
        st->open = NULL;
    }
    if (!st->first) tp_sbuf_puts(out, ", ");
    st->first = false;
    if (dot && !st->open) {
        st->open = name;
        st->olen = (size_t)(dot - name);
        tp_sbuf_putc(out, '"');
        tp_sbuf_put(out, name, st->olen);
        tp_sbuf_puts(out, "\": {");
    }
    tp_sbuf_json_str(out, dot ? dot + 1 : name);
    tp_sbuf_puts(out, ": ");
    scalar(kind, v, out, true);
}

static void table_json(const tp_stat_table *t, const void *base, tp_sbuf *out)
{
    const void *rows;
    uint32_t n;
    table_rows(t, base, &rows, &n);
    tp_sbuf_putc(out, '[');
    for (uint32_t r = 0; r < n; r++) {
        const char *row = (const char *)rows + (size_t)r * t->row_size;
        tp_sbuf_puts(out, r ? ", {" : "{");
        inl st = {NULL, 0, true};
        for (uint32_t c = 0; c < t->ncols; c++) inline_member(&st, t->cols[c].name, t->cols[c].kind, row + t->cols[c].off, out);
        if (st.open) tp_sbuf_putc(out, '}');
        tp_sbuf_putc(out, '}');
    }
    tp_sbuf_putc(out, ']');
}

void tp_stats_json_line_at(const tp_stats *s, const void *base, tp_sbuf *out)
{
    tp_sbuf_putc(out, '{');
    inl st = {NULL, 0, true};
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *e = &s->a[i];
        if (e->kind == TP_STAT_TABLE || (e->flags & TP_STAT_HIDDEN)) continue; /* tables need their own lines */
        inline_member(&st, e->name, e->kind, at(base, e->p), out);
    }
    if (st.open) tp_sbuf_putc(out, '}');
    tp_sbuf_putc(out, '}');
}

bool tp_stats_json_members_at(const tp_stats *s, const void *base, tp_sbuf *out, int indent, bool first)
{
    nest n;
    memset(&n, 0, sizeof n);
    n.indent = indent - 2;
    n.first = first;
    bool any = false;
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *st = &s->a[i];
        if (st->flags & TP_STAT_HIDDEN) continue;
        any = true;
        const char *leaf = nest_to(&n, st->name, out);
        tp_sbuf_json_str(out, leaf);
        tp_sbuf_puts(out, ": ");
        if (st->kind == TP_STAT_TABLE) table_json(st->p, base, out);
        else scalar(st->kind, at(base, st->p), out, true);
    }
    nest_close(&n, out);
    return any;
}

void tp_stats_json_at(const tp_stats *s, const void *base, tp_sbuf *out, int indent)
{
    tp_sbuf_puts(out, "{");
    tp_stats_json_members_at(s, base, out, indent + 2, true);
    newline(out, indent);
    tp_sbuf_putc(out, '}');
}

void tp_stats_json(const tp_stats *s, tp_sbuf *out, int indent) { tp_stats_json_at(s, NULL, out, indent); }

/* ---- the run summary --------------------------------------------------------------------- */

void tp_summary_init(tp_summary *t) { memset(t, 0, sizeof *t); }

static int col_by_head(const tp_summary *t, const char *head)
{
    for (uint32_t c = 0; c < t->n; c++)
        if (strcmp(t->col[c].c.head, head) == 0) return (int)c;
    return -1;
}

static int col_by_name(const tp_summary *t, const char *name)
{
    for (uint32_t c = 0; c < t->n; c++)
        for (uint32_t k = 0; k < t->col[c].nnames; k++)
            if (strcmp(t->col[c].names[k], name) == 0) return (int)c;
    return -1;
}

void tp_summary_add(tp_summary *t, const tp_stats *s)
{
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *st = &s->a[i];
        if (!st->col.head) continue;
        int c = col_by_head(t, st->col.head);
        if (c < 0) {
            TP_ASSERT(t->n < TP_SUMMARY_COLS);
            if (t->n == TP_SUMMARY_COLS) continue;
            c = (int)t->n++;
            tp_summary_col *nc = &t->col[c];
            memset(nc, 0, sizeof *nc);
            nc->c = st->col;
            nc->kind = st->kind == TP_STAT_F64 ? TP_STAT_F64 : TP_STAT_U64;
            nc->rule = st->rule;
            if (st->rule == TP_RULE_RATIO) {
                const tp_stat *n = tp_stats_at(s, st->num), *d = tp_stats_at(s, st->den);
                nc->num = n ? n->name : "";
                nc->den = d ? d->name : "";
                nc->scale = st->scale;
            }
        }
        tp_summary_col *col = &t->col[c];
        if (col->nnames < TP_SUMMARY_NAMES) col->names[col->nnames++] = st->name;
    }
}

void tp_summary_fold(const tp_summary *t, const tp_stats *s, const void *base, tp_statval *row)
{
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *st = &s->a[i];
        if (!st->col.head || !numeric(st->kind)) continue;
        int c = col_by_head(t, st->col.head);
        if (c < 0) continue;
        const tp_summary_col *col = &t->col[c];
        const void *v = at(base, st->p);
        tp_statval *r = &row[c];
        if (col->kind == TP_STAT_F64) {
            double x = value(st->kind, v);
            switch (st->rule) {
            case TP_RULE_ADD: r->f += x; break;
            case TP_RULE_MAX: if (x > r->f) r->f = x; break;
            case TP_RULE_PROP: r->f = x; break;
            default: break;
            }
        } else {
            uint64_t x = st->kind == TP_STAT_U32 ? *(const uint32_t *)v : *(const uint64_t *)v;
            switch (st->rule) {
            case TP_RULE_ADD: r->u += x; break;
            case TP_RULE_MAX: if (x > r->u) r->u = x; break;
            case TP_RULE_PROP: r->u = x; break;
            default: break;
            }
        }
    }
}

static bool shown(const tp_summary_col *c, unsigned show) { return (c->c.flags & ~show) == 0; }

void tp_summary_head(const tp_summary *t, unsigned show, tp_sbuf *out)
{
    for (uint32_t c = 0; c < t->n; c++)
        if (shown(&t->col[c], show)) tp_sbuf_printf(out, " %*s", t->col[c].c.width, t->col[c].c.head);
}

static double col_value(const tp_summary *t, const tp_statval *row, int c)
{
    if (c < 0) return 0;
    return t->col[c].kind == TP_STAT_F64 ? row[c].f : (double)row[c].u;
}

void tp_summary_row(const tp_summary *t, unsigned show, const tp_statval *row, tp_sbuf *out)
{
    for (uint32_t c = 0; c < t->n; c++) {
        const tp_summary_col *col = &t->col[c];
        if (!shown(col, show)) continue;
        if (col->rule == TP_RULE_RATIO) {
            double n = col_value(t, row, col_by_name(t, col->num)), d = col_value(t, row, col_by_name(t, col->den));
            tp_sbuf_printf(out, " %*.*f", col->c.width, col->c.prec, ratio(n, d, col->scale));
        } else if (col->kind == TP_STAT_F64) {
            tp_sbuf_printf(out, " %*.*f", col->c.width, col->c.prec, row[c].f);
        } else {
            tp_sbuf_printf(out, " %*" PRIu64, col->c.width, row[c].u);
        }
    }
}
