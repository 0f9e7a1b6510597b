/* opt.c -- option tables, values and configuration files. */
#include "opt.h"
#include "file.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

enum { OPT_ERR = 1 };

void tp_opts_init(tp_opts *o, const tp_optdef *defs, uint32_t n,
                  const char *(*builtin)(const char *name))
{
    o->defs = defs;
    o->n = n;
    o->v = tp_calloc(n, sizeof *o->v);
    o->builtin = builtin;
    for (uint32_t i = 0; i < n; i++) {
        tp_err e;
        tp_err_clear(&e);
        if (!tp_opts_set(o, defs[i].name, defs[i].def, TP_SRC_DEFAULT, &e)) {
            /* A bad default is a bug in the table; say so loudly. */
            tp_assert_fail(e.msg, __FILE__, __LINE__);
        }
    }
}

void tp_opts_free(tp_opts *o)
{
    if (!o->v) return;
    for (uint32_t i = 0; i < o->n; i++) free(o->v[i].s);
    free(o->v);
    o->v = NULL;
}

void tp_opts_copy(tp_opts *dst, const tp_opts *src)
{
    *dst = *src;
    dst->v = tp_calloc(src->n, sizeof *dst->v);
    for (uint32_t i = 0; i < src->n; i++) {
        dst->v[i] = src->v[i];
        dst->v[i].s = tp_strdup(src->v[i].s);
    }
}

int tp_opts_find(const tp_opts *o, const char *name)
{
    for (uint32_t i = 0; i < o->n; i++)
        if (strcmp(o->defs[i].name, name) == 0) return (int)i;
    return -1;
}

/* Parses a number with an optional k/M/G suffix; false if s is not one.
** *range is set when it is one but does not fit a 64-bit integer or a double. */
static bool parse_num(const char *s, double *out, bool integer, bool *range)
{
    *range = false;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) return false;
    char *end;
    errno = 0;
    double v;
    if (integer) {
        long long ll = strtoll(s, &end, 0);
        if (errno == ERANGE) *range = true;
        else if (errno) return false;
        v = (double)ll;
    } else {
        v = strtod(s, &end);
        if (errno == ERANGE) *range = true;
        else if (errno || isnan(v)) return false;
    }
    double mul = 1;
    if (*end == 'k' || *end == 'K') mul = 1024.0, end++;
    else if (*end == 'M') mul = 1024.0 * 1024.0, end++;
    else if (*end == 'G') mul = 1024.0 * 1024.0 * 1024.0, end++;
    while (isspace((unsigned char)*end)) end++;
    if (*end) return false;
    *out = v * mul;
    return true;
}

static bool parse_bool(const char *s, int64_t *out)
{
    static const char *yes[] = {"1", "true", "on", "yes"};
    static const char *no[] = {"0", "false", "off", "no"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(s, yes[i]) == 0) { *out = 1; return true; }
        if (strcmp(s, no[i]) == 0) { *out = 0; return true; }
    }
    return false;
}

/* Index of s among the '|'-separated choices, or -1. */
static int enum_index(const char *choices, const char *s)
{
    size_t len = strlen(s);
    int idx = 0;
    const char *p = choices;
    while (*p) {
        const char *q = strchr(p, '|');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        if (n == len && strncmp(p, s, n) == 0) return idx;
        idx++;
        if (!q) break;
        p = q + 1;
    }
    return -1;
}

/* Suggests the option whose name shares the longest prefix with name. */
static const char *closest(const tp_opts *o, const char *name)
{
    const char *best = NULL;
    size_t bestn = 2;
    for (uint32_t i = 0; i < o->n; i++) {
        const char *d = o->defs[i].name;
        size_t k = 0;
        while (d[k] && d[k] == name[k]) k++;
        if (k > bestn) bestn = k, best = d;
    }
    return best;
}

bool tp_opts_set(tp_opts *o, const char *name, const char *value, tp_opt_src src, tp_err *e)
{
    int idx = tp_opts_find(o, name);
    if (idx < 0) {
        const char *c = closest(o, name);
        if (c) tp_err_set(e, OPT_ERR, "unknown option '%s' (did you mean '%s'? 'tpsim config --list' shows them all)", name, c);
        else tp_err_set(e, OPT_ERR, "unknown option '%s' ('tpsim config --list' shows them all)", name);
        return false;
    }
    const tp_optdef *d = &o->defs[idx];
    tp_optval nv = {0, 0, NULL, src};
    switch (d->type) {
    case TP_OPT_INT:
    case TP_OPT_FLOAT: {
        double v;
        bool range;
        bool num = parse_num(value, &v, d->type == TP_OPT_INT, &range);
        if (num && range) {
            tp_err_set(e, OPT_ERR, "option '%s': %s is out of range [%.15g, %.15g]", name, value, d->min, d->max);
            return false;
        }
        if (!num) {
            tp_err_set(e, OPT_ERR, "option '%s': '%s' is not a%s number", name, value,
                       d->type == TP_OPT_INT ? "n integer" : "");
            return false;
        }
        if (v < d->min || v > d->max) {
            tp_err_set(e, OPT_ERR, "option '%s': %s is out of range [%.15g, %.15g]", name,
                       value, d->min, d->max);
            return false;
        }
        nv.f = v;
        nv.i = (int64_t)v;
        break;
    }
    case TP_OPT_BOOL:
        if (!parse_bool(value, &nv.i)) {
            tp_err_set(e, OPT_ERR, "option '%s': '%s' is not a boolean (0/1, true/false, on/off)", name, value);
            return false;
        }
        nv.f = (double)nv.i;
        break;
    case TP_OPT_ENUM: {
        int k = enum_index(d->choices, value);
        if (k < 0) {
            tp_err_set(e, OPT_ERR, "option '%s': '%s' is not one of %s", name, value, d->choices);
            return false;
        }
        nv.i = k;
        nv.f = k;
        break;
    }
    case TP_OPT_STR:
        break;
    }
    nv.s = tp_strdup(value);
    free(o->v[idx].s);
    o->v[idx] = nv;
    return true;
}

bool tp_opts_set_kv(tp_opts *o, const char *kv, tp_opt_src src, tp_err *e)
{
    const char *eq = strchr(kv, '=');
    if (!eq) {
        tp_err_set(e, OPT_ERR, "expected KEY=VALUE, got '%s'", kv);
        return false;
    }
    char *key = tp_strndup(kv, (size_t)(eq - kv));
    /* trim */
    char *k = key;
    while (isspace((unsigned char)*k)) k++;
    char *ke = k + strlen(k);
    while (ke > k && isspace((unsigned char)ke[-1])) *--ke = 0;
    const char *val = eq + 1;
    while (isspace((unsigned char)*val)) val++;
    char *v = tp_strdup(val);
    char *ve = v + strlen(v);
    while (ve > v && isspace((unsigned char)ve[-1])) *--ve = 0;
    bool ok = tp_opts_set(o, k, v, src, e);
    free(key);
    free(v);
    return ok;
}

bool tp_opts_set_list(tp_opts *o, const char *list, tp_opt_src src, tp_err *e)
{
    const char *p = list;
    while (*p) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *q = p;
        while (*q && !isspace((unsigned char)*q)) q++;
        char *kv = tp_strndup(p, (size_t)(q - p));
        bool ok = tp_opts_set_kv(o, kv, src, e);
        free(kv);
        if (!ok) return false;
        p = q;
    }
    return true;
}

static bool load_text(tp_opts *o, const char *text, const char *filename, int depth, tp_err *e);

static bool load_named(tp_opts *o, const char *name, int depth, tp_err *e)
{
    if (depth > 8) {
        tp_err_set(e, OPT_ERR, "configuration '%s': includes nest too deeply", name);
        return false;
    }
    struct stat st;
    bool exists = stat(name, &st) == 0;
    if (exists && S_ISREG(st.st_mode)) {
        size_t len;
        char *text = tp_file_read_text(name, "the configuration file ", &len, e);
        if (!text) return false;
        bool ok = load_text(o, text, name, depth, e);
        free(text);
        return ok;
    }
    const char *txt = o->builtin ? o->builtin(name) : NULL;
    if (!txt) {
        if (exists && S_ISDIR(st.st_mode))
            tp_err_set(e, OPT_ERR, "cannot read the configuration file '%s': it is a directory", name);
        else tp_err_set(e, OPT_ERR, "no configuration file or built-in configuration named '%s'", name);
        return false;
    }
    return load_text(o, txt, name, depth, e);
}

static bool load_text(tp_opts *o, const char *text, const char *filename, int depth, tp_err *e)
{
    const char *p = text;
    uint32_t line = 1;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *ln = tp_strndup(p, len);
        char *hash = strchr(ln, '#');
        if (hash) *hash = 0;
        char *s = ln;
        while (isspace((unsigned char)*s)) s++;
        char *end = s + strlen(s);
        while (end > s && isspace((unsigned char)end[-1])) *--end = 0;
        if (*s) {
            tp_loc loc = {filename, line, (uint32_t)(s - ln) + 1};
            char *eq = strchr(s, '=');
            if (!eq) {
                tp_err_at(e, OPT_ERR, loc, "expected 'key = value'");
                free(ln);
                return false;
            }
            char *kend = eq;
            while (kend > s && isspace((unsigned char)kend[-1])) kend--;
            *kend = 0;
            char *val = eq + 1;
            while (isspace((unsigned char)*val)) val++;
            tp_err sub;
            tp_err_clear(&sub);
            bool ok;
            if (strcmp(s, "include") == 0)
                ok = load_named(o, val, depth + 1, &sub);
            else
                ok = tp_opts_set(o, s, val, TP_SRC_FILE, &sub);
            if (!ok) {
                tp_err_at(e, OPT_ERR, loc, "%s", sub.msg);
                free(ln);
                return false;
            }
        }
        free(ln);
        if (!eol) break;
        p = eol + 1;
        line++;
    }
    return true;
}

bool tp_opts_load_text(tp_opts *o, const char *text, const char *filename, tp_err *e)
{
    return load_text(o, text, filename, 0, e);
}

bool tp_opts_load_config(tp_opts *o, const char *name_or_path, tp_err *e)
{
    return load_named(o, name_or_path, 0, e);
}

static const char *type_name(tp_opt_type t)
{
    switch (t) {
    case TP_OPT_INT: return "int";
    case TP_OPT_FLOAT: return "float";
    case TP_OPT_BOOL: return "bool";
    case TP_OPT_STR: return "string";
    case TP_OPT_ENUM: return "enum";
    }
    return "?";
}

void tp_opts_describe(const tp_opts *o, tp_sbuf *out)
{
    for (uint32_t i = 0; i < o->n; i++) {
        const tp_optdef *d = &o->defs[i];
        tp_sbuf_printf(out, "%-28s %-6s default %-10s", d->name, type_name(d->type), d->def);
        if (d->type == TP_OPT_INT || d->type == TP_OPT_FLOAT)
            tp_sbuf_printf(out, " range [%.15g, %.15g]", d->min, d->max);
        else if (d->type == TP_OPT_ENUM)
            tp_sbuf_printf(out, " one of %s", d->choices);
        tp_sbuf_printf(out, "\n    %s\n", d->doc);
    }
}

void tp_opts_dump(const tp_opts *o, tp_sbuf *out)
{
    for (uint32_t i = 0; i < o->n; i++)
        tp_sbuf_printf(out, "%s = %s\n", o->defs[i].name, o->v[i].s);
}

void tp_opts_bind(const tp_opts *o, void *dst)
{
    for (uint32_t i = 0; i < o->n; i++) {
        const tp_optdef *d = &o->defs[i];
        void *f = (char *)dst + d->bind_off;
        const tp_optval *v = &o->v[i];
        switch (d->bind) {
        case TP_BIND_NONE: break;
        case TP_BIND_U32: *(uint32_t *)f = (uint32_t)v->i; break;
        case TP_BIND_U64: *(uint64_t *)f = (uint64_t)v->i; break;
        case TP_BIND_I64: *(int64_t *)f = v->i; break;
        case TP_BIND_F64: *(double *)f = v->f; break;
        case TP_BIND_BOOL: *(bool *)f = v->i != 0; break;
        }
    }
}
