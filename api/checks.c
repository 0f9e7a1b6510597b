/* checks.c -- the correctness checks (exec/check*.c, docs/CHECKS.md) as the
** driver API presents them.
**
** exec/ prints the reports on stderr: init and sync findings when first
** seen, races when their launch ends, the races on one pair of source
** lines as one report.  Here:
**   - at exit, one closing line counts the findings per kind
**     ("tpsim: checks: ..."), when any check is on, and the reports they
**     made when those are fewer;
**   - the statistics file (TPSIM_STATS) gets, under each launch, a
**     "checks" object: the findings the launch reported first, per kind,
**     "reports" (how many reports those made), and a "findings" table
**     (kind, what, space, pc, other_pc, address, report: the finding's own
**     example); and after "totals" a "checks" object with the counts over
**     the whole run -- distinct findings per kind, "findings", "reports"
**     and "occurrences" (every conflicting access pair, uninitialized read
**     or misuse seen);
**   - when TPSIM_CHECK_RESULT names a file (`tpsim run --error-exitcode`
**     does), the number of findings is written there at exit.
** The names come from statistics registries (base/stats.h), relative to an
** api_checks_rec and an api_checks_totals.
*/
#include "api.h"
#include <stdio.h>
#include <stdlib.h>

typedef struct api_checks_row {
    char *kind, *what, *space, *report;
    uint32_t pc, other_pc;
    uint64_t addr;
} api_checks_row;

typedef struct api_checks_rec {
    uint32_t n[EXEC_CHECK_KINDS];
    uint32_t reports;
    api_checks_row *rows;
    uint32_t nrows;
} api_checks_rec;

static tp_stats reg;
static tp_stat_table rows_table;
static bool reg_ready;

static const tp_stat_col row_cols[] = {
    {"kind", TP_STAT_STR, offsetof(api_checks_row, kind)},
    {"what", TP_STAT_STR, offsetof(api_checks_row, what)},
    {"space", TP_STAT_STR, offsetof(api_checks_row, space)},
    {"pc", TP_STAT_U32, offsetof(api_checks_row, pc)},
    {"other_pc", TP_STAT_U32, offsetof(api_checks_row, other_pc)},
    {"address", TP_STAT_U64, offsetof(api_checks_row, addr)},
    {"report", TP_STAT_STR, offsetof(api_checks_row, report)},
};

static void registry(void)
{
    if (reg_ready) return;
    reg_ready = true;
    tp_stats_init(&reg);
    static const char *const docs[EXEC_CHECK_KINDS] = {
        "racecheck: data races between warps this launch reported first",
        "racecheck: races between lanes of one warp (check.race_intrawarp) this launch reported first",
        "initcheck: allocations this launch read uninitialized, reported first",
        "synccheck: barrier and warp-synchronous misuse this launch reported first"};
    for (int k = 0; k < EXEC_CHECK_KINDS; k++) {
        char name[64];
        snprintf(name, sizeof name, "checks.%s", exec_check_kind_name((exec_check_kind)k));
        tp_stats_add(&reg, name, TP_STAT_U32, (const void *)(uintptr_t)(offsetof(api_checks_rec, n) + k * sizeof(uint32_t)),
                     docs[k]);
    }
    tp_stats_add(&reg, "checks.reports", TP_STAT_U32, (const void *)(uintptr_t)offsetof(api_checks_rec, reports),
                 "the reports this launch's findings made (races on the same source lines are one report)");
    rows_table = (tp_stat_table){row_cols, (uint32_t)TP_ARRAY_LEN(row_cols), sizeof(api_checks_row),
                                 offsetof(api_checks_rec, rows), offsetof(api_checks_rec, nrows)};
    tp_stats_table(&reg, "checks.findings", &rows_table,
                   "each finding: kind, what, memory space, the two instructions (function-relative pcs), address, the report");
}

static bool checks_on(void)
{
    return api_opt(OPT_CHECK_RACE) || api_opt(OPT_CHECK_RACE_INTRAWARP) || api_opt(OPT_CHECK_INIT) ||
           api_opt(OPT_CHECK_SYNC);
}

void api_checks_launch(api_launch_rec *k)
{
    if (!api_g.dev || !checks_on()) return;
    uint32_t n;
    const exec_finding *f = exec_check_findings(api_g.dev, &n);
    api_checks_rec *c = tp_calloc(1, sizeof *c);
    c->rows = n ? tp_calloc(n, sizeof *c->rows) : NULL;
    c->nrows = n;
    exec_check_reports(api_g.dev, &c->reports);
    for (uint32_t i = 0; i < n; i++) {
        c->n[f[i].kind]++;
        api_checks_row *r = &c->rows[i];
        r->kind = tp_strdup(exec_check_kind_name(f[i].kind));
        r->what = tp_strdup(f[i].what);
        r->space = tp_strdup(f[i].space);
        r->report = tp_strdup(f[i].text);
        r->pc = f[i].pc[0];
        r->other_pc = f[i].pc[1];
        r->addr = f[i].addr;
    }
    k->checks = c;
}

void api_checks_free(api_launch_rec *k)
{
    api_checks_rec *c = k->checks;
    if (!c) return;
    for (uint32_t i = 0; i < c->nrows; i++) {
        free(c->rows[i].kind);
        free(c->rows[i].what);
        free(c->rows[i].space);
        free(c->rows[i].report);
    }
    free(c->rows);
    free(c);
    k->checks = NULL;
}

void api_checks_json(const api_launch_rec *k, tp_sbuf *b)
{
    if (!k->checks) return;
    registry();
    tp_stats_json_members_at(&reg, k->checks, b, 6, false);
}

/* The totals' "checks" member: a record of its own, named by a registry. */
typedef struct api_checks_totals {
    uint64_t n[EXEC_CHECK_KINDS];
    uint64_t findings, reports, occurrences;
} api_checks_totals;

void api_checks_totals_json(tp_sbuf *b)
{
    if (!api_g.dev || !checks_on()) return;
    api_checks_totals t;
    uint64_t o[EXEC_CHECK_KINDS], rep[EXEC_CHECK_KINDS];
    exec_check_totals(api_g.dev, t.n, o);
    exec_check_report_totals(api_g.dev, rep);
    t.findings = t.reports = t.occurrences = 0;
    for (int k = 0; k < EXEC_CHECK_KINDS; k++) t.findings += t.n[k], t.reports += rep[k], t.occurrences += o[k];
    tp_stats r;
    tp_stats_init(&r);
    static const char *const docs[EXEC_CHECK_KINDS] = {"racecheck: distinct races between warps",
                                                       "racecheck: distinct races between lanes of one warp",
                                                       "initcheck: distinct uninitialized reads (kernel, allocation)",
                                                       "synccheck: distinct synchronization errors"};
    for (int k = 0; k < EXEC_CHECK_KINDS; k++)
        tp_stats_add(&r, exec_check_kind_name((exec_check_kind)k), TP_STAT_U64,
                     (const void *)(uintptr_t)(offsetof(api_checks_totals, n) + k * sizeof(uint64_t)), docs[k]);
    tp_stats_add(&r, "findings", TP_STAT_U64, (const void *)(uintptr_t)offsetof(api_checks_totals, findings),
                 "distinct findings, all kinds");
    tp_stats_add(&r, "reports", TP_STAT_U64, (const void *)(uintptr_t)offsetof(api_checks_totals, reports),
                 "the reports the findings made (races on the same source lines in one launch are one report)");
    tp_stats_add(&r, "occurrences", TP_STAT_U64, (const void *)(uintptr_t)offsetof(api_checks_totals, occurrences),
                 "every conflicting access pair, uninitialized read or misuse seen");
    tp_sbuf_puts(b, ",\n  \"checks\": ");
    tp_stats_json_line_at(&r, &t, b);
    tp_stats_free(&r);
}

static void plural(tp_sbuf *b, uint64_t n, const char *one, const char *many)
{
    tp_sbuf_printf(b, "%llu %s", (unsigned long long)n, n == 1 ? one : many);
}

static void summary(void)
{
    api_lock();
    if (api_g.dev && checks_on()) {
        uint64_t f[EXEC_CHECK_KINDS], o[EXEC_CHECK_KINDS];
        exec_check_totals(api_g.dev, f, o);
        tp_sbuf b;
        tp_sbuf_init(&b);
        tp_sbuf_puts(&b, "tpsim: checks: ");
        bool race = api_opt(OPT_CHECK_RACE) || api_opt(OPT_CHECK_RACE_INTRAWARP), first = true;
        if (race) {
            plural(&b, f[EXEC_CHECK_RACE], "race", "races");
            first = false;
        }
        if (api_opt(OPT_CHECK_RACE_INTRAWARP)) {
            tp_sbuf_puts(&b, ", ");
            plural(&b, f[EXEC_CHECK_RACE_INTRAWARP], "intra-warp race", "intra-warp races");
        }
        if (api_opt(OPT_CHECK_INIT)) {
            tp_sbuf_puts(&b, first ? "" : ", ");
            plural(&b, f[EXEC_CHECK_INIT], "uninitialized read", "uninitialized reads");
            first = false;
        }
        if (api_opt(OPT_CHECK_SYNC)) {
            tp_sbuf_puts(&b, first ? "" : ", ");
            plural(&b, f[EXEC_CHECK_SYNC], "synchronization error", "synchronization errors");
        }
        uint64_t all = 0, occ = 0, nrep = 0, rep[EXEC_CHECK_KINDS];
        exec_check_report_totals(api_g.dev, rep);
        for (int k = 0; k < EXEC_CHECK_KINDS; k++) all += f[k], occ += o[k], nrep += rep[k];
        if (all && nrep < all)
            tp_sbuf_printf(&b, " (in %llu report%s; %llu occurrences)", (unsigned long long)nrep, nrep == 1 ? "" : "s",
                           (unsigned long long)occ);
        else if (all) tp_sbuf_printf(&b, " (each reported once; %llu occurrences)", (unsigned long long)occ);
        fprintf(stderr, "%s\n", tp_sbuf_str(&b));
        tp_sbuf_free(&b);
        const char *res = getenv("TPSIM_CHECK_RESULT");
        FILE *out = res && *res ? fopen(res, "wb") : NULL;
        if (out) {
            fprintf(out, "%llu\n", (unsigned long long)all);
            fclose(out);
        }
    }
    api_unlock();
}

void api_checks_init(void)
{
    if (checks_on()) atexit(summary);
}
