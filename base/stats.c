/* stats.c -- statistics registry. */
#include "stats.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

void tp_stats_init(tp_stats *s) { s->a = NULL; s->n = s->cap = 0; }

void tp_stats_free(tp_stats *s)
{
    for (uint32_t i = 0; i < s->n; i++) free((char *)s->a[i].name);
    free(s->a);
    tp_stats_init(s);
}

static void add(tp_stats *s, const char *name, tp_stat_kind k, const void *p, const char *doc)
{
    TP_ASSERT(tp_stats_find(s, name) == NULL);
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 32;
        s->a = tp_realloc(s->a, s->cap * sizeof *s->a);
    }
    tp_stat *st = &s->a[s->n++];
    st->name = tp_strdup(name);
    st->doc = doc;
    st->kind = k;
    st->p = p;
}

void tp_stats_u64(tp_stats *s, const char *n, const uint64_t *p, const char *d) { add(s, n, TP_STAT_U64, p, d); }
void tp_stats_i64(tp_stats *s, const char *n, const int64_t *p, const char *d) { add(s, n, TP_STAT_I64, p, d); }
void tp_stats_f64(tp_stats *s, const char *n, const double *p, const char *d) { add(s, n, TP_STAT_F64, p, d); }
void tp_stats_str(tp_stats *s, const char *n, char *const *p, const char *d) { add(s, n, TP_STAT_STR, p, d); }
void tp_stats_dim3(tp_stats *s, const char *n, const uint32_t *p, const char *d) { add(s, n, TP_STAT_DIM3, p, d); }

const tp_stat *tp_stats_find(const tp_stats *s, const char *name)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (strcmp(s->a[i].name, name) == 0) return &s->a[i];
    return NULL;
}

static void value(const tp_stat *st, tp_sbuf *out, bool json)
{
    switch (st->kind) {
    case TP_STAT_U64: tp_sbuf_printf(out, "%" PRIu64, *(const uint64_t *)st->p); break;
    case TP_STAT_I64: tp_sbuf_printf(out, "%" PRId64, *(const int64_t *)st->p); break;
    case TP_STAT_F64: {
        double v = *(const double *)st->p;
        if (json && !isfinite(v)) tp_sbuf_puts(out, "null");
        else tp_sbuf_printf(out, "%.6g", v);
        break;
    }
    case TP_STAT_STR: {
        const char *v = *(char *const *)st->p;
        if (json) tp_sbuf_json_str(out, v ? v : "");
        else tp_sbuf_puts(out, v ? v : "");
        break;
    }
    case TP_STAT_DIM3: {
        const uint32_t *d = st->p;
        if (json) tp_sbuf_printf(out, "[%u, %u, %u]", d[0], d[1], d[2]);
        else tp_sbuf_printf(out, "(%u,%u,%u)", d[0], d[1], d[2]);
        break;
    }
    }
}

void tp_stats_text(const tp_stats *s, tp_sbuf *out)
{
    for (uint32_t i = 0; i < s->n; i++) {
        tp_sbuf_printf(out, "%s: ", s->a[i].name);
        value(&s->a[i], out, false);
        tp_sbuf_putc(out, '\n');
    }
}

void tp_stats_json(const tp_stats *s, tp_sbuf *out, int indent)
{
    tp_sbuf_puts(out, "{");
    for (uint32_t i = 0; i < s->n; i++) {
        tp_sbuf_printf(out, "%s\n%*s", i ? "," : "", indent + 2, "");
        tp_sbuf_json_str(out, s->a[i].name);
        tp_sbuf_puts(out, ": ");
        value(&s->a[i], out, true);
    }
    tp_sbuf_printf(out, "\n%*s}", indent, "");
}
