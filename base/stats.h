/*
** stats.h -- the statistics registry.
**
** A unit keeps its counters in its own struct (so incrementing one is a plain
** add) and registers each one once, by name, with a one-line doc.  The
** registry reads them when it is dumped, as "name: value" text or as a JSON
** object, in registration order.  No statistic is printed anywhere else.
*/
#ifndef TP_STATS_H
#define TP_STATS_H

#include "tp.h"
#include "sbuf.h"

typedef enum tp_stat_kind { TP_STAT_U64, TP_STAT_I64, TP_STAT_F64, TP_STAT_STR, TP_STAT_DIM3 } tp_stat_kind;

typedef struct tp_stat {
    const char *name;  /* owned copy */
    const char *doc;   /* not owned (static text) */
    tp_stat_kind kind;
    const void *p;     /* where the value lives */
} tp_stat;

typedef struct tp_stats {
    tp_stat *a;
    uint32_t n, cap;
} tp_stats;

void tp_stats_init(tp_stats *s);
void tp_stats_free(tp_stats *s);
void tp_stats_u64(tp_stats *s, const char *name, const uint64_t *p, const char *doc);
void tp_stats_i64(tp_stats *s, const char *name, const int64_t *p, const char *doc);
void tp_stats_f64(tp_stats *s, const char *name, const double *p, const char *doc);
/* p points to a char* that holds the string (may change before the dump). */
void tp_stats_str(tp_stats *s, const char *name, char *const *p, const char *doc);
void tp_stats_dim3(tp_stats *s, const char *name, const uint32_t *p3, const char *doc);
const tp_stat *tp_stats_find(const tp_stats *s, const char *name);

/* "name: value" lines. */
void tp_stats_text(const tp_stats *s, tp_sbuf *out);
/* One JSON object, {"name": value, ...}, indented by indent spaces. */
void tp_stats_json(const tp_stats *s, tp_sbuf *out, int indent);

#endif
