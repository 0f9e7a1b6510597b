/*
** stats.h -- the statistics registry.
**
** A unit keeps its counters in its own struct (so incrementing one is a plain
** add) and declares each statistic once (tp_stat_def): its name, kind, unit,
** a one-line doc, and how it sums across SMs and across launches (its rule):
**   add    a count: summed over the units that count it and over launches;
**   max    a peak: the largest over units and launches;
**   prop   a property of the launch (or the run) that is not summed
**          (ctas_per_sm, occupancy_limit, a configuration's figure);
**   ratio  num / den x scale, recomputed from the sums of two other
**          statistics of the same record (formulas are statistics too, as in
**          gem5): tp_stats_ratios_at fills them; den 0 gives 0.
** An operand a ratio needs that the file should not show (cycles x SMs x
** warp slots ...) is declared like the others with TP_STAT_HIDDEN: kept,
** summed and listed, never written.  A declaration may say where units count
** it (src: the owner's number for one of its structs and an offset there, so
** that the owner sums every such counter with one loop) and that it is a
** column of the run summary (col: header, width, precision).
**
** The registry holds the declarations and reads the values when it is
** dumped, as "name: value" text or as a JSON object, in registration order.
** The statistics file is such a dump; the summary table `tpsim run` prints
** is another (tp_summary, from the columns the declarations name).
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
**             e.g. one per kernel launch.  tp_stats_add_defs registers
**             declarations this way, at an offset within the record.
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

/* What a statistic counts or measures: TP_UNIT_<first column>, printed as the second. */
#define TP_STAT_UNITS(X)                                                                                     \
    X(NONE, "-")                                                                                            \
    X(CYCLES, "cycles")                                                                                     \
    X(SM_CYCLES, "SM cycles")                                                                               \
    X(SCHED_CYCLES, "scheduler cycles")                                                                     \
    X(WARP_CYCLES, "warp cycles")                                                                           \
    X(SECTION_CYCLES, "section cycles")                                                                     \
    X(REG_CYCLES, "register cycles")                                                                        \
    X(TAG_CYCLES, "tag cycles")                                                                             \
    X(DRAM_CYCLES, "DRAM cycles")                                                                           \
    X(WARP_INSTS, "warp instructions")                                                                      \
    X(THREAD_INSTS, "thread instructions")                                                                  \
    X(REQUESTS, "requests")                                                                                 \
    X(ACCESSES, "accesses")                                                                                 \
    X(LINES, "lines")                                                                                       \
    X(PACKETS, "packets")                                                                                   \
    X(BYTES, "bytes")                                                                                       \
    X(KILOBYTES, "kilobytes")                                                                               \
    X(REGISTERS, "registers")                                                                               \
    X(WARP_REGS, "warp registers")                                                                          \
    X(SECTIONS, "sections")                                                                                 \
    X(CTAS, "CTAs")                                                                                         \
    X(THREADS, "threads")                                                                                   \
    X(LANES, "lanes")                                                                                       \
    X(LOADS, "loads")                                                                                       \
    X(MACS, "MACs")                                                                                         \
    X(BITS, "bits")                                                                                         \
    X(QUANTA, "quanta")                                                                                     \
    X(EVENTS, "events")                                                                                     \
    X(LAUNCHES, "launches")                                                                                 \
    X(CALLS, "calls")                                                                                       \
    X(FINDINGS, "findings")                                                                                 \
    X(REPORTS, "reports")                                                                                   \
    X(ROWS, "rows")                                                                                         \
    X(TAGS, "tags")                                                                                         \
    X(FRACTION, "fraction")                                                                                 \
    X(IPC, "thread instructions per cycle")                                                                 \
    X(MACS_PER_CYCLE, "MACs per cycle")                                                                     \
    X(REQS_PER_INST, "requests per instruction")                                                            \
    X(REQS_PER_CYCLE, "requests per cycle")                                                                 \
    X(REQS_PER_ACCESS, "requests per access")                                                               \
    X(PER_KILO_INST, "per kilo-instruction")                                                                \
    X(MILLISECONDS, "milliseconds")                                                                         \
    X(SECONDS, "seconds")                                                                                   \
    X(KHZ, "kHz")                                                                                           \
    X(INSTS_PER_SECOND, "thread instructions per second")

typedef enum tp_stat_unit {
#define TP_STAT_UNIT_ENUM(u, text) TP_UNIT_##u,
    TP_STAT_UNITS(TP_STAT_UNIT_ENUM)
#undef TP_STAT_UNIT_ENUM
    TP_UNIT_COUNT
} tp_stat_unit;

/* How a statistic sums across units (SMs) and launches (see the top). */
typedef enum tp_stat_rule {
    TP_RULE_NONE,     /* not declared (tp_stats_add and its kin) */
    TP_RULE_ADD,
    TP_RULE_MAX,
    TP_RULE_PROP,
    TP_RULE_RATIO,
} tp_stat_rule;

enum {
    TP_STAT_HIDDEN = 1u << 0,   /* tp_stat_def.flags: an operand: kept, listed, never written */
};

/* Where a unit counts a statistic: in the struct its owner numbers `in`
** (0: nowhere -- it is set, or counted into the record itself; owners whose
** statistics share a registry number theirs apart), at offset off; a
** uint64_t there. */
typedef struct tp_stat_src {
    uint16_t in;
    uint32_t off;
} tp_stat_src;

/* A column of the run summary: its header, printed width and (real values)
** precision; flags: the summary shows it only when asked for all of them
** (tp_summary_head's show). */
typedef struct tp_stat_sumcol {
    const char *head;  /* NULL: not a column */
    uint8_t width, prec;
    uint8_t flags;
} tp_stat_sumcol;

/* A statistic, declared once (see the top). */
typedef struct tp_stat_def {
    const char *name;             /* the dotted name (the JSON's path) */
    tp_stat_kind kind;
    tp_stat_unit unit;
    tp_stat_rule rule;
    unsigned flags;               /* TP_STAT_HIDDEN */
    size_t off;                   /* the value: its offset in the record */
    size_t num, den;              /* TP_RULE_RATIO: the operands' offsets in the record */
    double scale;                 /* ... num / den x scale */
    tp_stat_src src[2];           /* where units count it (add, max): each one summed */
    tp_stat_sumcol col;           /* a column of the run summary */
    const tp_stat_table *table;   /* TP_STAT_TABLE: its rows (offsets in the record) */
    const char *doc;              /* one line */
} tp_stat_def;

/* A registered statistic: its declaration, addresses resolved. */
typedef struct tp_stat {
    const char *name;  /* owned copy */
    const char *doc;   /* not owned (static text) */
    tp_stat_kind kind;
    const void *p;     /* where the value lives: address, or offset in a relative registry */
    tp_stat_unit unit;
    tp_stat_rule rule;
    unsigned flags;
    const void *num, *den; /* TP_RULE_RATIO: where the operands live, as p */
    double scale;
    tp_stat_src src[2];
    tp_stat_sumcol col;
    bool owns_p;       /* p is a table descriptor the registry allocated */
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
/* Declarations, their offsets (the value's, the operands', a table's) moved
** by base: the record they describe sits at offset base of the registry's. */
void tp_stats_add_def(tp_stats *s, size_t base, const tp_stat_def *d);
void tp_stats_add_defs(tp_stats *s, size_t base, const tp_stat_def *d, size_t n);
const tp_stat *tp_stats_find(const tp_stats *s, const char *name);
/* The entry whose value lives at p (a ratio's operand), or NULL. */
const tp_stat *tp_stats_at(const tp_stats *s, const void *p);
/* Whether every ratio's operands are registered scalars (else *bad names the ratio). */
bool tp_stats_check(const tp_stats *s, const char **bad);
/* Fills every ratio of the record at base from its operands (absolute: base NULL). */
void tp_stats_ratios_at(const tp_stats *s, void *base);
/* A scalar's value in the record at base, as a double. */
double tp_stats_value_at(const tp_stat *st, const void *base);

/* Names for the listing: "u64", "f64" ...; "cycles" ...; "add" ... */
const char *tp_stat_kind_name(tp_stat_kind k);
const char *tp_stat_unit_name(tp_stat_unit u);
const char *tp_stat_rule_name(tp_stat_rule r);
/* The rule as `tpsim stats --list` shows it: "add", or for a ratio
** "ratio: [scale x ]num / den" with the operands' names. */
void tp_stats_rule_text(const tp_stats *s, const tp_stat *st, tp_sbuf *out);

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

/* ---- the run summary: a table whose columns the declarations name ---------------------- */

typedef union tp_statval {
    uint64_t u;
    double f;
} tp_statval;

enum { TP_SUMMARY_COLS = 12, TP_SUMMARY_NAMES = 4 };

/* One column: the statistics that fill it (those declaring its header, from
** any of the registries added), summed by their rule; a ratio's value comes
** from the columns of its operands (found by their statistics' names). */
typedef struct tp_summary_col {
    tp_stat_sumcol c;
    tp_stat_kind kind;         /* U64 or F64 */
    tp_stat_rule rule;
    const char *names[TP_SUMMARY_NAMES];
    uint32_t nnames;
    const char *num, *den;     /* ratio: its operands' names */
    double scale;
} tp_summary_col;

typedef struct tp_summary {
    tp_summary_col col[TP_SUMMARY_COLS];
    uint32_t n;
} tp_summary;

void tp_summary_init(tp_summary *t);
/* The columns registry s declares (names and operands point into s, which must outlive t). */
void tp_summary_add(tp_summary *t, const tp_stats *s);
/* Adds the record at base (registry s) to a summary row (t->n values, zeroed to start). */
void tp_summary_fold(const tp_summary *t, const tp_stats *s, const void *base, tp_statval *row);
/* " %*s" per column shown (a column shows when show has all its flags), and a row likewise. */
void tp_summary_head(const tp_summary *t, unsigned show, tp_sbuf *out);
void tp_summary_row(const tp_summary *t, unsigned show, const tp_statval *row, tp_sbuf *out);

#endif
