/*
** sweep_file.c -- the sweep file: sections of "key = value" lines.
**
**   [sweep]            name, mode, timeout, memory, dir
**   [program NAME]     cuda = PROG ARGS | ptx = FILES + run = RUNNER ARGS | vmips = FILE.s OPTIONS;
**                      inputs = FILES; timeout = SECONDS
**   [config NAME]      base = NAME|FILE, then OPTION = VALUE overrides (equ.NAME = V: a VMIPS .equ)
**   [axis NAME]        [labels = L1, L2 ...], OPTION = V1, V2 ... (options of one axis vary together)
**   [columns]          NAME = [sum|mean|min|max|count|first|last] PATH
**   [derived]          NAME = EXPRESSION over columns, NAME@DIM=VALUE refers to another point
**   [figure NAME]      type, y, x, where, title, xlabel, ylabel, logy
**
** '#' starts a comment at the start of a line or after a blank (outside
** quotes).  ${build} expands to tpsim's build directory and ${dir} to the
** sweep's directory in command and file values.  docs/SWEEPS.md is the
** full description; every error is "file:line:col: message".  What this
** file checks: the syntax, the names (unique, defined where referred to),
** the counts of axis values, expressions and selectors.  Whether an option
** exists and takes a value is checked when points are planned
** (sweep_plan.c), against the machine of each program.
*/
#include "sweep.h"
#include "../base/file.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef enum sect { S_NONE, S_SWEEP, S_PROGRAM, S_CONFIG, S_AXIS, S_COLUMNS, S_DERIVED, S_FIGURE } sect;

typedef struct sp {
    sw_file *f;
    tp_arena *a;
    const char *path;
    const char *build;
    char *filedir;        /* the sweep file's directory (absolute) */
    tp_err *e;
    sect cur;
    bool seen[S_FIGURE + 1];
    bool had_dir, had_mode;
    /* per section, to check required keys at its end */
    tp_loc sect_loc;
} sp;

/* Appends one zeroed element to an arena array (capacity doubles at powers
** of two, so arrays need no capacity field). */
static void *push(tp_arena *a, void *arrp, uint32_t *n, size_t elem)
{
    void **arr = arrp;
    if (*n == 0 || (*n & (*n - 1)) == 0) {
        uint32_t cap = *n ? 2 * *n : 1;
        void *na = tp_arena_alloc(a, cap * elem);
        if (*n) memcpy(na, *arr, *n * elem);
        *arr = na;
    }
    void *slot = (char *)*arr + (size_t)(*n)++ * elem;
    memset(slot, 0, elem);
    return slot;
}

static bool fail(sp *p, tp_loc loc, const char *fmt, ...) TP_PRINTF(3, 4);
static bool fail(sp *p, tp_loc loc, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tp_err_at(p->e, SW_ERR, loc, "%s", msg);
    return false;
}

static tp_loc at(tp_loc l, size_t off)
{
    l.col += (uint32_t)off;
    return l;
}

const char *sw_kind_name(sw_kind k)
{
    switch (k) {
    case SW_CUDA: return "cuda";
    case SW_PTX: return "ptx";
    case SW_VMIPS: return "vmips";
    }
    return "?";
}

/* ---- words ---------------------------------------------------------------- */

bool sw_split(tp_arena *a, const char *s, tp_loc loc, sw_words *out, tp_err *e)
{
    out->w = NULL;
    out->n = 0;
    tp_sbuf b;
    tp_sbuf_init(&b);
    const char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        tp_sbuf_reset(&b);
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'' || *p == '"') {
                char q = *p;
                const char *open = p++;
                while (*p && *p != q) {
                    if (q == '"' && *p == '\\' && p[1]) p++;
                    tp_sbuf_putc(&b, *p++);
                }
                if (!*p) {
                    tp_err_at(e, SW_ERR, at(loc, (size_t)(open - s)), "quote %c not closed", q);
                    tp_sbuf_free(&b);
                    return false;
                }
                p++;
            } else if (*p == '\\') {
                if (!p[1]) {
                    tp_err_at(e, SW_ERR, at(loc, (size_t)(p - s)), "backslash at the end of the line");
                    tp_sbuf_free(&b);
                    return false;
                }
                tp_sbuf_putc(&b, p[1]);
                p += 2;
            } else {
                tp_sbuf_putc(&b, *p++);
            }
        }
        char **slot = push(a, &out->w, &out->n, sizeof *out->w);
        *slot = tp_arena_strndup(a, tp_sbuf_str(&b), b.len);
    }
    tp_sbuf_free(&b);
    return true;
}

/* ${build} and ${dir}; any other ${...} is an error. */
static const char *expand(sp *p, const char *v, tp_loc loc)
{
    if (!strstr(v, "${")) return tp_arena_strdup(p->a, v);
    tp_sbuf b;
    tp_sbuf_init(&b);
    for (const char *q = v; *q;) {
        if (q[0] == '$' && q[1] == '{') {
            const char *end = strchr(q, '}');
            size_t n = end ? (size_t)(end - q - 2) : 0;
            if (end && n == 5 && !strncmp(q + 2, "build", 5)) tp_sbuf_puts(&b, p->build);
            else if (end && n == 3 && !strncmp(q + 2, "dir", 3)) tp_sbuf_puts(&b, p->f->dir);
            else {
                fail(p, at(loc, (size_t)(q - v)), "unknown variable (${build} and ${dir} are the ones there are)");
                tp_sbuf_free(&b);
                return NULL;
            }
            q = end + 1;
        } else {
            tp_sbuf_putc(&b, *q++);
        }
    }
    const char *r = tp_arena_strdup(p->a, tp_sbuf_str(&b));
    tp_sbuf_free(&b);
    return r;
}

static bool split_value(sp *p, const char *v, tp_loc vloc, sw_words *out, bool need_one)
{
    const char *x = expand(p, v, vloc);
    if (!x) return false;
    if (!sw_split(p->a, x, vloc, out, p->e)) return false;
    if (need_one && out->n == 0) return fail(p, vloc, "a value is needed here");
    return true;
}

/* ---- names ------------------------------------------------------------------ */

static bool is_ident(const char *s, bool first_digit_ok)
{
    if (!*s || (!isalpha((unsigned char)*s) && *s != '_' && !(first_digit_ok && isdigit((unsigned char)*s))))
        return false;
    for (const char *q = s; *q; q++)
        if (!isalnum((unsigned char)*q) && *q != '_' && *q != '-' && *q != '+' && *q != '.') return false;
    return true;
}

/* Column, derived and axis names are used in expressions: letters, digits, '_'. */
static bool is_word(const char *s)
{
    if (!*s || (!isalpha((unsigned char)*s) && *s != '_')) return false;
    for (const char *q = s; *q; q++)
        if (!isalnum((unsigned char)*q) && *q != '_') return false;
    return true;
}

static bool reserved(const char *s)
{
    static const char *r[] = {"point", "program", "config", "status", "message"};
    for (size_t i = 0; i < TP_ARRAY_LEN(r); i++)
        if (!strcmp(s, r[i])) return true;
    return false;
}

/* Is name already a column, derived column or axis (the names a table row has)? */
static bool name_taken(const sw_file *f, const char *name)
{
    for (uint32_t i = 0; i < f->ncols; i++)
        if (!strcmp(f->cols[i].name, name)) return true;
    for (uint32_t i = 0; i < f->nders; i++)
        if (!strcmp(f->ders[i].name, name)) return true;
    for (uint32_t i = 0; i < f->naxes; i++)
        if (!strcmp(f->axes[i].name, name)) return true;
    return false;
}

/* ---- values ------------------------------------------------------------------ */

/* seconds: a number with an optional s, m or h suffix */
static bool parse_duration(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v >= 0) || isinf(v)) return false;
    if (*end == 's') end++;
    else if (*end == 'm') v *= 60, end++;
    else if (*end == 'h') v *= 3600, end++;
    if (*end) return false;
    *out = v;
    return true;
}

static bool parse_bytes(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)*s)) return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno) return false;
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K') shift = 10, end++;
    else if (*end == 'M') shift = 20, end++;
    else if (*end == 'G') shift = 30, end++;
    else if (*end == 'T') shift = 40, end++;
    if (*end || (shift && v > (~0ull >> shift))) return false;
    *out = (uint64_t)v << shift;
    return true;
}

/* Splits "a, b, c" at commas into trimmed, non-empty items. */
static bool split_list(sp *p, const char *v, tp_loc vloc, const char ***items, tp_loc **locs, uint32_t *n)
{
    *items = NULL;
    *n = 0;
    if (locs) *locs = NULL;
    uint32_t nl = 0;
    const char *q = v;
    for (;;) {
        while (*q == ' ' || *q == '\t') q++;
        const char *start = q;
        const char *comma = strchr(q, ',');
        const char *end = comma ? comma : q + strlen(q);
        const char *te = end;
        while (te > start && (te[-1] == ' ' || te[-1] == '\t')) te--;
        if (te == start) return fail(p, at(vloc, (size_t)(start - v)), "empty item in the list");
        const char **slot = push(p->a, items, n, sizeof **items);
        *slot = tp_arena_strndup(p->a, start, (size_t)(te - start));
        if (locs) {
            tp_loc *l = push(p->a, locs, &nl, sizeof **locs);
            *l = at(vloc, (size_t)(start - v));
        }
        if (!comma) break;
        q = comma + 1;
    }
    return true;
}

/* ---- column paths ------------------------------------------------------------------ */

static bool parse_column(sp *p, sw_column *c, const char *v, tp_loc vloc)
{
    static const char *aggs[] = {"sum", "mean", "min", "max", "count", "first", "last"};
    c->agg = SW_SUM;
    const char *q = v;
    const char *sp_ = strpbrk(q, " \t");
    if (sp_) {
        size_t n = (size_t)(sp_ - q);
        size_t k = 0;
        while (k < TP_ARRAY_LEN(aggs) && !(strlen(aggs[k]) == n && !strncmp(q, aggs[k], n))) k++;
        if (k == TP_ARRAY_LEN(aggs))
            return fail(p, vloc, "expected [sum|mean|min|max|count|first|last] PATH, e.g. 'sum kernels.*.cycles'");
        c->agg = (sw_agg)k;
        q = sp_;
        while (*q == ' ' || *q == '\t') q++;
    }
    tp_loc ploc = at(vloc, (size_t)(q - v));
    if (!*q) return fail(p, ploc, "a statistic path is needed, e.g. kernels.*.cycles");
    if (strpbrk(q, " \t")) return fail(p, at(vloc, (size_t)(strpbrk(q, " \t") - v)), "a path has no blanks");
    c->path = tp_arena_strdup(p->a, q);
    /* segments: '.'-separated, a [pattern] segment may contain dots */
    const char *s = q;
    while (*s) {
        const char *start = s;
        if (*s == '[') {
            const char *close = strchr(s, ']');
            if (!close) return fail(p, at(vloc, (size_t)(s - v)), "'[' without its ']'");
            if (close == s + 1) return fail(p, at(vloc, (size_t)(s - v)), "empty [pattern]");
            s = close + 1;
            if (*s && *s != '.' && *s != '[') return fail(p, at(vloc, (size_t)(s - v)), "expected '.' or '[' after ']'");
        } else {
            while (*s && *s != '.' && *s != '[') {
                if (*s == ']') return fail(p, at(vloc, (size_t)(s - v)), "']' without its '['");
                s++;
            }
        }
        if (s == start) return fail(p, at(vloc, (size_t)(s - v)), "empty segment in the path");
        const char **slot = push(p->a, &c->seg, &c->nseg, sizeof *c->seg);
        *slot = tp_arena_strndup(p->a, start, (size_t)(s - start));
        if (*s == '.') {
            s++;
            if (!*s) return fail(p, at(vloc, (size_t)(s - v)), "the path ends with '.'");
        }
    }
    if (!strcmp(c->seg[0], "stdout")) {
        if (c->nseg != 2) return fail(p, ploc, "stdout.NAME: the value on the program's output line that starts with NAME");
        c->stdout_table = true;
    }
    return true;
}

/* ---- selectors and expressions -------------------------------------------------------- */

/* The dimension called name: -2 program, -1 config, an axis index, or -3. */
static int find_dim(const sw_file *f, const char *name)
{
    if (!strcmp(name, "program")) return -2;
    if (!strcmp(name, "config")) return -1;
    for (uint32_t i = 0; i < f->naxes; i++)
        if (!strcmp(f->axes[i].name, name)) return (int)i;
    return -3;
}

static bool find_value(const sw_file *f, int dim, const char *v, uint32_t *idx)
{
    uint32_t n = dim == -2 ? f->nprogs : dim == -1 ? f->ncfgs : f->axes[dim].nvals;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = dim == -2 ? f->progs[i].name : dim == -1 ? f->cfgs[i].name : f->axes[dim].labels[i];
        if (!strcmp(name, v)) {
            *idx = i;
            return true;
        }
    }
    return false;
}

static bool resolve_sel(sp *p, sw_sel *s, tp_loc loc)
{
    s->dim_idx = find_dim(p->f, s->dim);
    if (s->dim_idx == -3) return fail(p, loc, "'%s' is not program, config or an axis", s->dim);
    if (!find_value(p->f, s->dim_idx, s->value, &s->val_idx)) {
        const char *what = s->dim_idx == -2 ? "a program" : s->dim_idx == -1 ? "a configuration" : "a value of the axis";
        return fail(p, loc, "'%s' is not %s%s%s", s->value, what, s->dim_idx >= 0 ? " " : "",
                    s->dim_idx >= 0 ? s->dim : "");
    }
    return true;
}

typedef struct ep {
    sp *p;
    const char *s, *q;
    tp_loc loc;
    uint32_t self;    /* this derived column's index among columns + derived */
} ep;

static void ews(ep *x)
{
    while (*x->q == ' ' || *x->q == '\t') x->q++;
}

static tp_loc eloc(const ep *x) { return at(x->loc, (size_t)(x->q - x->s)); }

static sw_expr *expr_sum(ep *x);

static sw_expr *enew(ep *x, sw_op op)
{
    sw_expr *e = tp_arena_alloc(x->p->a, sizeof *e);
    e->op = op;
    return e;
}

static sw_expr *expr_factor(ep *x, int depth)
{
    ews(x);
    if (depth > 64) return fail(x->p, eloc(x), "expression nests too deeply"), NULL;
    char c = *x->q;
    if (c == '(') {
        x->q++;
        sw_expr *e = expr_sum(x);
        if (!e) return NULL;
        ews(x);
        if (*x->q != ')') return fail(x->p, eloc(x), "expected ')'"), NULL;
        x->q++;
        return e;
    }
    if (c == '-') {
        x->q++;
        sw_expr *e = enew(x, SW_E_NEG);
        if (!(e->l = expr_factor(x, depth + 1))) return NULL;
        return e;
    }
    if (isdigit((unsigned char)c) || c == '.') {
        char *end;
        errno = 0;
        double v = strtod(x->q, &end);
        if (end == x->q || errno || !isfinite(v)) return fail(x->p, eloc(x), "bad number"), NULL;
        x->q = end;
        sw_expr *e = enew(x, SW_E_NUM);
        e->num = v;
        return e;
    }
    if (isalpha((unsigned char)c) || c == '_') {
        tp_loc nloc = eloc(x);
        const char *start = x->q;
        while (isalnum((unsigned char)*x->q) || *x->q == '_') x->q++;
        char *name = tp_arena_strndup(x->p->a, start, (size_t)(x->q - start));
        const sw_file *f = x->p->f;
        uint32_t ref = UINT32_MAX;
        for (uint32_t i = 0; i < f->ncols; i++)
            if (!strcmp(f->cols[i].name, name)) ref = i;
        for (uint32_t i = 0; i < f->nders; i++)
            if (!strcmp(f->ders[i].name, name)) ref = f->ncols + i;
        if (ref == UINT32_MAX) return fail(x->p, nloc, "'%s' is not a column", name), NULL;
        if (ref >= x->self)
            return fail(x->p, nloc, "'%s' is not defined yet (a derived column uses columns and earlier derived columns)",
                        name), NULL;
        sw_expr *e = enew(x, SW_E_REF);
        e->ref = ref;
        if (*x->q == '@') {
            x->q++;
            sw_sel *sels = NULL;
            uint32_t n = 0;
            for (;;) {
                tp_loc sloc = eloc(x);
                const char *d0 = x->q;
                while (isalnum((unsigned char)*x->q) || *x->q == '_') x->q++;
                if (x->q == d0 || *x->q != '=')
                    return fail(x->p, sloc, "expected DIMENSION=VALUE after '@', e.g. cycles@scheduler=lrr"), NULL;
                sw_sel *s = push(x->p->a, &sels, &n, sizeof *sels);
                s->dim = tp_arena_strndup(x->p->a, d0, (size_t)(x->q - d0));
                x->q++;
                const char *v0 = x->q;
                while (*x->q && !strchr(" \t,()*/+", *x->q)) x->q++;
                if (x->q == v0) return fail(x->p, eloc(x), "a value is needed after '='"), NULL;
                s->value = tp_arena_strndup(x->p->a, v0, (size_t)(x->q - v0));
                if (!resolve_sel(x->p, s, sloc)) return NULL;
                for (uint32_t k = 0; k + 1 < n; k++)
                    if (sels[k].dim_idx == s->dim_idx) return fail(x->p, sloc, "'%s' is selected twice", s->dim), NULL;
                if (*x->q != ',') break;
                x->q++;
            }
            e->sel = sels;
            e->nsel = n;
        }
        return e;
    }
    if (!c) return fail(x->p, eloc(x), "the expression ends too early"), NULL;
    return fail(x->p, eloc(x), "unexpected '%c' in the expression", c), NULL;
}

static sw_expr *expr_term(ep *x)
{
    sw_expr *l = expr_factor(x, 0);
    while (l) {
        ews(x);
        if (*x->q != '*' && *x->q != '/') return l;
        sw_expr *e = enew(x, *x->q == '*' ? SW_E_MUL : SW_E_DIV);
        x->q++;
        e->l = l;
        if (!(e->r = expr_factor(x, 0))) return NULL;
        l = e;
    }
    return NULL;
}

static sw_expr *expr_sum(ep *x)
{
    sw_expr *l = expr_term(x);
    while (l) {
        ews(x);
        if (*x->q != '+' && *x->q != '-') return l;
        sw_expr *e = enew(x, *x->q == '+' ? SW_E_ADD : SW_E_SUB);
        x->q++;
        e->l = l;
        if (!(e->r = expr_term(x))) return NULL;
        l = e;
    }
    return NULL;
}

static bool parse_expr(sp *p, sw_derived *d, uint32_t self, const char *v, tp_loc vloc)
{
    ep x = {p, v, v, vloc, self};
    d->e = expr_sum(&x);
    if (!d->e) return false;
    ews(&x);
    if (*x.q) return fail(p, eloc(&x), "unexpected '%c' after the expression", *x.q);
    d->text = tp_arena_strdup(p->a, v);
    return true;
}

/* ---- lines --------------------------------------------------------------------- */

static bool yesno(const char *v, bool *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1")) return *out = true, true;
    if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0")) return *out = false, true;
    return false;
}

static char *absdir(const char *base, const char *rel)
{
    char buf[PATH_MAX * 2];
    if (rel[0] == '/') snprintf(buf, sizeof buf, "%s", rel);
    else snprintf(buf, sizeof buf, "%s/%s", base, rel);
    char real[PATH_MAX];
    if (realpath(buf, real)) return tp_strdup(real);
    return NULL;
}

static bool end_section(sp *p)
{
    sw_file *f = p->f;
    if (p->cur == S_PROGRAM) {
        sw_program *g = &f->progs[f->nprogs - 1];
        if (!g->cmd.n && !g->ptx.n)
            return fail(p, p->sect_loc, "program '%s' needs cuda = PROGRAM ARGS, ptx = FILES with run = RUNNER ARGS, "
                        "or vmips = FILE.s", g->name);
        if (g->kind == SW_PTX && !g->ptx.n)
            return fail(p, p->sect_loc, "program '%s': a runner needs the PTX files it loads (ptx = FILE ...)", g->name);
        if (g->kind == SW_PTX && !g->cmd.n)
            return fail(p, p->sect_loc, "program '%s': ptx = needs run = RUNNER ARGS (the driver-API program that "
                        "loads it)", g->name);
    } else if (p->cur == S_AXIS) {
        sw_axis *x = &f->axes[f->naxes - 1];
        if (!x->nopts) return fail(p, p->sect_loc, "axis '%s' sets no option (OPTION = VALUE, VALUE ...)", x->name);
        if (!x->labels) x->labels = x->vals[0];
        for (uint32_t i = 0; i < x->nvals; i++)
            for (uint32_t k = 0; k < i; k++)
                if (!strcmp(x->labels[i], x->labels[k]))
                    return fail(p, p->sect_loc, "axis '%s' has the value '%s' twice", x->name, x->labels[i]);
    } else if (p->cur == S_FIGURE) {
        sw_figure *g = &f->figs[f->nfigs - 1];
        if (!g->y) return fail(p, p->sect_loc, "figure '%s' needs y = COLUMN", g->name);
    }
    return true;
}

static bool header(sp *p, char *s, tp_loc loc)
{
    if (!end_section(p)) return false;
    char *close = strchr(s, ']');
    if (!close) return fail(p, loc, "expected ']' to close the section header");
    if (close[1]) return fail(p, at(loc, (size_t)(close + 1 - s)), "unexpected text after ']'");
    *close = 0;
    char *q = s + 1;
    while (*q == ' ' || *q == '\t') q++;
    char *kind = q;
    while (*q && *q != ' ' && *q != '\t') q++;
    char *kend = q;
    while (*q == ' ' || *q == '\t') q++;
    char *name = q;
    char *ne = name + strlen(name);
    while (ne > name && (ne[-1] == ' ' || ne[-1] == '\t')) *--ne = 0;
    *kend = 0;
    tp_loc nloc = at(loc, (size_t)(name - s));
    static const struct { const char *k; sect s; bool named; } kinds[] = {
        {"sweep", S_SWEEP, false},   {"program", S_PROGRAM, true}, {"config", S_CONFIG, true},
        {"axis", S_AXIS, true},      {"columns", S_COLUMNS, false}, {"derived", S_DERIVED, false},
        {"figure", S_FIGURE, true},
    };
    size_t k = 0;
    while (k < TP_ARRAY_LEN(kinds) && strcmp(kinds[k].k, kind)) k++;
    if (k == TP_ARRAY_LEN(kinds))
        return fail(p, at(loc, 1), "unknown section '%s' (sweep, program, config, axis, columns, derived, figure)", kind);
    if (kinds[k].named && !*name) return fail(p, nloc, "[%s NAME]: the section needs a name", kind);
    if (!kinds[k].named && *name) return fail(p, nloc, "[%s] takes no name", kind);
    if (!kinds[k].named && p->seen[kinds[k].s]) return fail(p, loc, "a second [%s] section", kind);
    p->seen[kinds[k].s] = true;
    p->cur = kinds[k].s;
    p->sect_loc = loc;
    sw_file *f = p->f;
    const char *nm = tp_arena_strdup(p->a, name);
    switch (p->cur) {
    case S_PROGRAM:
        if (!is_ident(name, true)) return fail(p, nloc, "a program name has letters, digits, '_', '-', '+', '.'");
        for (uint32_t i = 0; i < f->nprogs; i++)
            if (!strcmp(f->progs[i].name, name)) return fail(p, nloc, "a second program named '%s'", name);
        {
            sw_program *g = push(p->a, &f->progs, &f->nprogs, sizeof *g);
            g->name = nm, g->loc = loc, g->kind = SW_CUDA, g->timeout = -1;
        }
        break;
    case S_CONFIG:
        if (!is_ident(name, true)) return fail(p, nloc, "a configuration name has letters, digits, '_', '-', '+', '.'");
        for (uint32_t i = 0; i < f->ncfgs; i++)
            if (!strcmp(f->cfgs[i].name, name)) return fail(p, nloc, "a second configuration named '%s'", name);
        {
            sw_config *c = push(p->a, &f->cfgs, &f->ncfgs, sizeof *c);
            c->name = nm, c->loc = loc;
        }
        break;
    case S_AXIS:
        if (!is_word(name) || reserved(name))
            return fail(p, nloc, "an axis name is a word of letters, digits and '_' (not program, config, point, "
                        "status or message)");
        if (name_taken(f, name)) return fail(p, nloc, "'%s' is already a column or an axis", name);
        if (f->ncols || f->nders) return fail(p, loc, "axes come before [columns] and [derived]");
        {
            sw_axis *x = push(p->a, &f->axes, &f->naxes, sizeof *x);
            x->name = nm, x->loc = loc;
        }
        break;
    case S_FIGURE:
        if (!is_ident(name, false)) return fail(p, nloc, "a figure name has letters, digits, '_', '-', '+', '.'");
        for (uint32_t i = 0; i < f->nfigs; i++)
            if (!strcmp(f->figs[i].name, name)) return fail(p, nloc, "a second figure named '%s'", name);
        {
            sw_figure *g = push(p->a, &f->figs, &f->nfigs, sizeof *g);
            g->name = nm, g->loc = loc, g->x = "program";
        }
        break;
    default: break;
    }
    return true;
}

static bool line_sweep(sp *p, const char *k, const char *v, tp_loc kloc, tp_loc vloc)
{
    sw_file *f = p->f;
    if (!strcmp(k, "name")) {
        if (!is_ident(v, true)) return fail(p, vloc, "a sweep name has letters, digits, '_', '-', '+', '.'");
        f->name = tp_arena_strdup(p->a, v);
    } else if (!strcmp(k, "mode")) {
        if (!strcmp(v, "performance")) f->performance = true;
        else if (!strcmp(v, "functional")) f->performance = false;
        else return fail(p, vloc, "mode is functional or performance, not '%s'", v);
    } else if (!strcmp(k, "timeout")) {
        if (!parse_duration(v, &f->timeout))
            return fail(p, vloc, "timeout is seconds (a number, with s, m or h; 0: none), not '%s'", v);
    } else if (!strcmp(k, "memory")) {
        if (!parse_bytes(v, &f->memory)) return fail(p, vloc, "memory is bytes (with k, M, G or T; 0: none), not '%s'", v);
    } else if (!strcmp(k, "dir")) {
        if (f->nprogs || f->ncfgs) return fail(p, kloc, "dir must come before programs and configurations");
        const char *x = expand(p, v, vloc);
        if (!x) return false;
        char *d = absdir(p->filedir, x);
        if (!d) return fail(p, vloc, "no directory '%s' (relative to %s)", x, p->filedir);
        f->dir = tp_arena_strdup(p->a, d);
        free(d);
    } else {
        return fail(p, kloc, "unknown key '%s' in [sweep] (name, mode, timeout, memory, dir)", k);
    }
    return true;
}

static bool line_program(sp *p, const char *k, const char *v, tp_loc kloc, tp_loc vloc)
{
    sw_program *g = &p->f->progs[p->f->nprogs - 1];
    bool is_cmd = !strcmp(k, "cuda") || !strcmp(k, "run") || !strcmp(k, "vmips");
    if (is_cmd) {
        if (g->cmd.n) return fail(p, kloc, "program '%s' already has its command", g->name);
        sw_kind kind = !strcmp(k, "vmips") ? SW_VMIPS : !strcmp(k, "run") ? SW_PTX : SW_CUDA;
        if (g->ptx.n && kind != SW_PTX) return fail(p, kloc, "a program with ptx = is run by a runner (run = ...)");
        g->kind = kind;
        g->cmd_loc = vloc;
        return split_value(p, v, vloc, &g->cmd, true);
    }
    if (!strcmp(k, "ptx")) {
        if (g->ptx.n) return fail(p, kloc, "a second ptx = line (list every file on one)");
        if (g->cmd.n && g->kind != SW_PTX) return fail(p, kloc, "ptx = goes with run = RUNNER, not %s =", sw_kind_name(g->kind));
        g->kind = SW_PTX;
        return split_value(p, v, vloc, &g->ptx, true);
    }
    if (!strcmp(k, "inputs")) {
        if (g->inputs.n) return fail(p, kloc, "a second inputs = line (list every file on one)");
        return split_value(p, v, vloc, &g->inputs, true);
    }
    if (!strcmp(k, "timeout")) {
        if (!parse_duration(v, &g->timeout))
            return fail(p, vloc, "timeout is seconds (a number, with s, m or h; 0: none), not '%s'", v);
        return true;
    }
    return fail(p, kloc, "unknown key '%s' in a program (cuda, ptx, run, vmips, inputs, timeout)", k);
}

static bool option_name(sp *p, const char *k, tp_loc kloc)
{
    for (const char *q = k; *q; q++)
        if (!isalnum((unsigned char)*q) && *q != '_' && *q != '.')
            return fail(p, at(kloc, (size_t)(q - k)), "an option name has letters, digits, '_' and '.'");
    return true;
}

static bool line_config(sp *p, const char *k, const char *v, tp_loc kloc, tp_loc vloc)
{
    sw_config *c = &p->f->cfgs[p->f->ncfgs - 1];
    if (!strcmp(k, "base")) {
        if (c->base) return fail(p, kloc, "a second base =");
        if (c->nset) return fail(p, kloc, "base = comes before the options it is the base of");
        const char *x = expand(p, v, vloc);
        if (!x) return false;
        c->base = x;
        c->base_loc = vloc;
        return true;
    }
    if (!option_name(p, k, kloc)) return false;
    if (strpbrk(v, " \t")) return fail(p, vloc, "an option value has no blanks (it is passed as -o KEY=VALUE)");
    for (uint32_t i = 0; i < c->nset; i++)
        if (!strcmp(c->set[i].key, k)) return fail(p, kloc, "option '%s' is set twice in this configuration", k);
    sw_kv *kv = push(p->a, &c->set, &c->nset, sizeof *kv);
    kv->key = tp_arena_strdup(p->a, k);
    kv->val = tp_arena_strdup(p->a, v);
    kv->loc = kloc;
    kv->vloc = vloc;
    return true;
}

static bool line_axis(sp *p, const char *k, const char *v, tp_loc kloc, tp_loc vloc)
{
    sw_axis *x = &p->f->axes[p->f->naxes - 1];
    const char **items;
    tp_loc *locs;
    uint32_t n;
    if (!split_list(p, v, vloc, &items, &locs, &n)) return false;
    bool is_labels = !strcmp(k, "labels");
    if (is_labels) {
        if (x->labels) return fail(p, kloc, "a second labels =");
        for (uint32_t i = 0; i < n; i++)
            if (strpbrk(items[i], " \t=@,()*/+"))
                return fail(p, locs[i], "a label has no blanks and none of = @ , ( ) * / +");
    } else {
        if (!option_name(p, k, kloc)) return false;
        for (uint32_t i = 0; i < x->nopts; i++)
            if (!strcmp(x->opts[i].key, k)) return fail(p, kloc, "option '%s' is set twice by this axis", k);
        for (uint32_t i = 0; i < n; i++)
            if (strpbrk(items[i], " \t")) return fail(p, locs[i], "an option value has no blanks");
    }
    if (x->nvals && n != x->nvals)
        return fail(p, vloc, "%u value%s here, but the axis has %u", n, n == 1 ? "" : "s", x->nvals);
    x->nvals = n;
    if (is_labels) {
        x->labels = items;
        return true;
    }
    if (!x->labels)
        for (uint32_t i = 0; i < n; i++)
            if (strpbrk(items[i], "=@,()*/+"))
                return fail(p, locs[i], "this value cannot name the axis value (it has one of = @ , ( ) * / +): "
                            "give labels = first");
    sw_kv *kv = push(p->a, &x->opts, &x->nopts, sizeof *kv);
    kv->key = tp_arena_strdup(p->a, k);
    kv->loc = kloc;
    kv->vloc = vloc;
    uint32_t no = x->nopts - 1;
    const char ***slot = push(p->a, &x->vals, &no, sizeof *x->vals);
    *slot = items;
    return true;
}

static bool line_named(sp *p, const char *k, tp_loc kloc, const char *what)
{
    if (!is_word(k) || reserved(k))
        return fail(p, kloc, "a %s name is a word of letters, digits and '_' (not program, config, point, status or "
                    "message)", what);
    if (name_taken(p->f, k)) return fail(p, kloc, "'%s' is already a column or an axis", k);
    return true;
}

static bool parse_where(sp *p, sw_figure *g, const char *v, tp_loc vloc)
{
    const char **items;
    tp_loc *locs;
    uint32_t n;
    if (!split_list(p, v, vloc, &items, &locs, &n)) return false;
    for (uint32_t i = 0; i < n; i++) {
        const char *eq = strchr(items[i], '=');
        if (!eq || eq == items[i] || !eq[1]) return fail(p, locs[i], "where takes DIMENSION=VALUE, ...");
        sw_sel *s = push(p->a, &g->where, &g->nwhere, sizeof *s);
        s->dim = tp_arena_strndup(p->a, items[i], (size_t)(eq - items[i]));
        s->value = tp_arena_strdup(p->a, eq + 1);
        if (!resolve_sel(p, s, locs[i])) return false;
    }
    return true;
}

static bool line_figure(sp *p, const char *k, const char *v, tp_loc kloc, tp_loc vloc)
{
    sw_figure *g = &p->f->figs[p->f->nfigs - 1];
    if (!strcmp(k, "type")) {
        if (!strcmp(v, "bar")) g->type = SW_FIG_BAR;
        else if (!strcmp(v, "line")) g->type = SW_FIG_LINE;
        else return fail(p, vloc, "type is bar or line, not '%s'", v);
    } else if (!strcmp(k, "y")) {
        g->y = tp_arena_strdup(p->a, v);
        g->y_loc = vloc;
    } else if (!strcmp(k, "x")) {
        g->x = tp_arena_strdup(p->a, v);
        g->x_loc = vloc;
    } else if (!strcmp(k, "where")) {
        return parse_where(p, g, v, vloc);
    } else if (!strcmp(k, "title")) {
        g->title = tp_arena_strdup(p->a, v);
    } else if (!strcmp(k, "xlabel")) {
        g->xlabel = tp_arena_strdup(p->a, v);
    } else if (!strcmp(k, "ylabel")) {
        g->ylabel = tp_arena_strdup(p->a, v);
    } else if (!strcmp(k, "logy")) {
        if (!yesno(v, &g->logy)) return fail(p, vloc, "logy is yes or no");
    } else {
        return fail(p, kloc, "unknown key '%s' in a figure (type, y, x, where, title, xlabel, ylabel, logy)", k);
    }
    return true;
}

/* Figures refer to columns and dimensions that may be defined after them. */
static bool check_figures(sp *p)
{
    sw_file *f = p->f;
    for (uint32_t i = 0; i < f->nfigs; i++) {
        sw_figure *g = &f->figs[i];
        bool found = false;
        for (uint32_t k = 0; k < f->ncols; k++) found |= !strcmp(f->cols[k].name, g->y);
        for (uint32_t k = 0; k < f->nders; k++) found |= !strcmp(f->ders[k].name, g->y);
        if (!found) return fail(p, g->y_loc, "figure '%s': y = '%s' is not a column", g->name, g->y);
        if (find_dim(f, g->x) == -3)
            return fail(p, g->x_loc.line ? g->x_loc : g->loc, "figure '%s': x = '%s' is not program, config or an axis",
                        g->name, g->x);
        for (uint32_t k = 0; k < g->nwhere; k++)
            if (!strcmp(g->where[k].dim, g->x))
                return fail(p, g->loc, "figure '%s': where fixes its own x dimension '%s'", g->name, g->x);
    }
    return true;
}

/* Strips a comment ('#' at the start or after a blank, outside quotes). */
static void strip_comment(char *s)
{
    char q = 0;
    for (char *c = s; *c; c++) {
        if (q) {
            if (*c == '\\' && q == '"' && c[1]) c++;
            else if (*c == q) q = 0;
        } else if (*c == '\'' || *c == '"') {
            q = *c;
        } else if (*c == '\\' && c[1]) {
            c++;
        } else if (*c == '#' && (c == s || c[-1] == ' ' || c[-1] == '\t')) {
            *c = 0;
            return;
        }
    }
}

static bool parse_line(sp *p, char *ln, uint32_t line)
{
    strip_comment(ln);
    char *s = ln;
    while (*s == ' ' || *s == '\t' || *s == '\r') s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) *--end = 0;
    if (!*s) return true;
    tp_loc loc = {p->path, line, (uint32_t)(s - ln) + 1};
    if (*s == '[') return header(p, s, loc);
    char *eq = strchr(s, '=');
    if (!eq) return fail(p, loc, "expected 'key = value' or a [section]");
    char *kend = eq;
    while (kend > s && (kend[-1] == ' ' || kend[-1] == '\t')) kend--;
    if (kend == s) return fail(p, loc, "a key is needed before '='");
    *kend = 0;
    char *v = eq + 1;
    while (*v == ' ' || *v == '\t') v++;
    tp_loc vloc = {p->path, line, (uint32_t)(v - ln) + 1};
    if (!*v) return fail(p, vloc, "a value is needed after '='");
    for (char *c = s; *c; c++)
        if (*c == ' ' || *c == '\t') return fail(p, at(loc, (size_t)(c - s)), "a key has no blanks");
    sw_file *f = p->f;
    switch (p->cur) {
    case S_NONE: return fail(p, loc, "'%s = ...' outside a section: start with [sweep], [program NAME] ...", s);
    case S_SWEEP: return line_sweep(p, s, v, loc, vloc);
    case S_PROGRAM: return line_program(p, s, v, loc, vloc);
    case S_CONFIG: return line_config(p, s, v, loc, vloc);
    case S_AXIS: return line_axis(p, s, v, loc, vloc);
    case S_COLUMNS: {
        if (!line_named(p, s, loc, "column")) return false;
        if (f->nders) return fail(p, loc, "columns come before [derived]");
        sw_column *c = push(p->a, &f->cols, &f->ncols, sizeof *c);
        c->name = tp_arena_strdup(p->a, s);
        c->loc = loc;
        if (!parse_column(p, c, v, vloc)) return false;
        return true;
    }
    case S_DERIVED: {
        if (!line_named(p, s, loc, "derived column")) return false;
        sw_derived *d = push(p->a, &f->ders, &f->nders, sizeof *d);
        d->name = tp_arena_strdup(p->a, s);
        d->loc = loc;
        return parse_expr(p, d, f->ncols + f->nders - 1, v, vloc);
    }
    case S_FIGURE: return line_figure(p, s, v, loc, vloc);
    }
    return true;
}

bool sw_parse(sw_file *f, const char *text, size_t len, const char *path, const char *build, tp_err *e)
{
    memset(f, 0, sizeof *f);
    tp_arena_init(&f->arena);
    sp p = {0};
    p.f = f;
    p.a = &f->arena;
    p.path = f->path = tp_arena_strdup(&f->arena, path);
    p.build = build ? build : "build";
    p.e = e;
    f->performance = true;
    f->timeout = 3600;
    f->memory = (uint64_t)16 << 30;
    /* the file's directory, absolute */
    const char *slash = strrchr(path, '/');
    char *d = slash ? tp_strndup(path, (size_t)(slash - path) + (slash == path)) : tp_strdup(".");
    char real[PATH_MAX];
    p.filedir = tp_strdup(realpath(d, real) ? real : d);
    free(d);
    f->dir = tp_arena_strdup(&f->arena, p.filedir);
    /* the name: the file's base name without its extension */
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    f->name = tp_arena_strndup(&f->arena, base, dot && dot > base ? (size_t)(dot - base) : strlen(base));
    bool ok = true;
    const char *nul = memchr(text, 0, len);
    if (nul) {
        uint32_t line = 1;
        for (const char *q = text; q < nul; q++) line += *q == '\n';
        tp_loc loc = {path, line, 1};
        ok = fail(&p, loc, "NUL byte in the sweep file");
    }
    uint32_t line = 1;
    for (const char *q = text; ok && q < text + len; line++) {
        const char *eol = memchr(q, '\n', (size_t)(text + len - q));
        size_t n = eol ? (size_t)(eol - q) : (size_t)(text + len - q);
        char *ln = tp_strndup(q, n);
        ok = parse_line(&p, ln, line);
        free(ln);
        if (!eol) break;
        q = eol + 1;
    }
    if (ok) ok = end_section(&p);
    tp_loc top = {path, 0, 0};
    if (ok && !f->nprogs) ok = fail(&p, top, "no [program NAME] section: a sweep runs at least one program");
    if (ok && !f->ncols) ok = fail(&p, top, "no [columns] section: name at least one statistic to collect");
    if (ok && !f->ncfgs) {
        sw_config *c = push(p.a, &f->cfgs, &f->ncfgs, sizeof *c);
        c->name = "default";
    }
    if (ok) ok = check_figures(&p);
    free(p.filedir);
    if (!ok) {
        tp_arena_free(&f->arena);
        memset(f, 0, sizeof *f);
    }
    return ok;
}

char *sw_read_file(const char *path, size_t *len) { return tp_file_read(path, len); }

bool sw_load(sw_file *f, const char *path, const char *build, tp_err *e)
{
    size_t len = 0;
    char *text = tp_file_read_text(path, "the sweep file ", &len, e);
    if (!text) {
        memset(f, 0, sizeof *f);
        return false;
    }
    bool ok = sw_parse(f, text, len, path, build, e);
    free(text);
    return ok;
}

void sw_free(sw_file *f)
{
    tp_arena_free(&f->arena);
    memset(f, 0, sizeof *f);
}
