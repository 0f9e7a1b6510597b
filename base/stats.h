/*
** stats.h -- the statistics registry.
**
** A unit keeps its counters in its own struct (so incrementing one is a plain
** add) and registers each one once, by name, with a one-line doc.  The
** registry reads them when it is dumped, as "name: value" text or as a JSON
** object, in registration order.  The statistics file is such a dump; the
** summary table `tpsim run` prints is laid out by hand (api/stats.c), from
** counters it reads by name through the registry (tp_stats_find).
**
** Names are dotted paths: "l1d.hits" and "l1d.misses" dump in JSON as
** "l1d": {"hits": .., "misses": ..} (entries sharing a prefix must be
** registered together), and in text under their full names.
**
** Two kinds of registry:
**   absolute  each entry points at the value (tp_stats_u64(s, "x", &u.x, ..));
**   relative  each entry holds the offset of its value inside a record whose
**             layout the registry describes (TP_STAT_AT(type, field)); one
**             registry then dumps any number of records (tp_stats_json_at),
**             e.g. one per kernel launch.
** A table is a variable-length array of rows (a pointer and a count in the
** record, columns at offsets inside a row), dumped as a JSON array of
** objects.
*/
#ifndef TP_STATS_H
#define TP_STATS_H

#include "tp.h"
#include "sbuf.h"
#include <stddef.h>

typedef enum tp_stat_kind {
    TP_STAT_U64, TP_STAT_I64, TP_STAT_F64, TP_STAT_STR, TP_STAT_DIM3,
    TP_STAT_U32,   /* uint32_t */
    TP_STAT_TABLE, /* p: a tp_stat_table (static) */
} tp_stat_kind;

/* One column of a table: a value at offset `off` inside a row. */
typedef struct tp_stat_col {
    const char *name;  /* dotted: nested inside each row's object */
    tp_stat_kind kind; /* scalar kinds only */
    size_t off;
} tp_stat_col;

typedef struct tp_stat_table {
    const tp_stat_col *cols;
    uint32_t ncols;
    size_t row_size;
    size_t rows_at;    /* where the row pointer (void *) lives: offset (relative) or address (absolute) */
    size_t count_at;   /* where the row count (uint32_t) lives, likewise */
} tp_stat_table;

typedef struct tp_stat {
    const char *name;  /* owned copy */
    const char *doc;   /* not owned (static text) */
    tp_stat_kind kind;
    const void *p;     /* where the value lives: address, or offset in a relative registry */
} tp_stat;

typedef struct tp_stats {
    tp_stat *a;
    uint32_t n, cap;
} tp_stats;

/* The offset of a field, as the p of a relative registry's entry. */
#define TP_STAT_AT(type, field) ((const void *)(uintptr_t)offsetof(type, field))

void tp_stats_init(tp_stats *s);
void tp_stats_free(tp_stats *s);
/* Any kind; p is an address or (relative registries) an offset. */
void tp_stats_add(tp_stats *s, const char *name, tp_stat_kind kind, const void *p, const char *doc);
void tp_stats_u64(tp_stats *s, const char *name, const uint64_t *p, const char *doc);
void tp_stats_f64(tp_stats *s, const char *name, const double *p, const char *doc);
/* p points to a char* that holds the string (may change before the dump);
** a NULL string is JSON null (absent), "" in text. */
void tp_stats_str(tp_stats *s, const char *name, char *const *p, const char *doc);
void tp_stats_dim3(tp_stats *s, const char *name, const uint32_t *p3, const char *doc);
void tp_stats_table(tp_stats *s, const char *name, const tp_stat_table *t, const char *doc);
const tp_stat *tp_stats_find(const tp_stats *s, const char *name);

/* "name: value" lines (tables: "name: N rows"). */
void tp_stats_text(const tp_stats *s, tp_sbuf *out);
/* One JSON object, {"name": value, ...}, indented by indent spaces. */
void tp_stats_json(const tp_stats *s, tp_sbuf *out, int indent);
/* The same for a relative registry, over the record at base. */
void tp_stats_text_at(const tp_stats *s, const void *base, tp_sbuf *out);
void tp_stats_json_at(const tp_stats *s, const void *base, tp_sbuf *out, int indent);
/* The object on one line (scalars only; a dotted name nests one level). */
void tp_stats_json_line_at(const tp_stats *s, const void *base, tp_sbuf *out);
/* The object's members only (no braces), each on its own line after a
** comma when `first` is false: for embedding a record's statistics in a
** larger object.  Returns whether anything was written. */
bool tp_stats_json_members_at(const tp_stats *s, const void *base, tp_sbuf *out, int indent, bool first);

#endif
