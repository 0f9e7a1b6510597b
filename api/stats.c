/* stats.c -- the TPSIM_STATS file.
**
** When TPSIM_STATS names a path, the process writes there at exit one JSON
** object:
**   tpsim_version, config   (every option, resolved)
**   kernels                 one object per launch, in order: name, grid,
**                           block, shared_dyn, regs_per_thread,
**                           warp_instructions, thread_instructions, status
**                           (a CUresult name, or the runtime's cudaError_t
**                           name for a launch it refused itself), mode; a
**                           failed or refused launch's reason; then in
**                           functional mode
**                           cycles_estimate (the estimate of api.h, one warp
**                           instruction per SM per cycle), in performance
**                           mode the timing model's statistics (gpu/kstats.c:
**                           cycles, ipc, occupancy, issue-slot breakdown,
**                           caches, DRAM, interconnect, stall_pcs, intervals)
**   failures                every CUDA call that returned an error to the
**                           program (fail.c), once per distinct failure: api,
**                           error, kernel, caller (the library that made the
**                           call; "" for the program and where no kernel),
**                           reason, count
**   totals                  sums over all launches; failed_calls
**   host                    wall time, simulation speed, peak memory
**
** When TPSIM_SUMMARY names a path (`tpsim run` sets it), the process writes
** there at exit the text summary `tpsim run` prints: per kernel name a row
** of the columns the statistics' declarations name (tp_summary: launches,
** warp and thread instructions; in performance mode cycles -- a functionally
** run launch's cycles_estimate among them -- and IPC, the ratio of the
** summed operands), each launch's record folded in by the rules; then the
** failed CUDA calls (fail.c).  TPSIM_SUMMARY_KERNELS=0 leaves the kernel table out.
** Every kernel member comes from a statistics registry (base/stats.h): the
** names are registered once, here and in gpu/kstats.c.  Everything outside
** "host" is simulated, so two runs of a program write identical files apart
** from that member.  The file is written once, completely, through a
** temporary file renamed into place.  At most API_STATS_MAX_KERNELS
** launches are listed; the totals count them all.
*/
#include "api.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define API_STATS_MAX_KERNELS 100000

static void stats_write(void);

/* The registries of a launch record: common members, a failed launch's
** reason, the functional estimate, the timing model's statistics (relative
** to a gpu_kstats); and the failed calls (absolute: fail.c's table). */
static tp_stats reg_common, reg_failed, reg_func, reg_perf, reg_failures;
static bool reg_ready;
/* The run summary's columns, from the declarations of those registries. */
static tp_summary summary;

static void registries(void)
{
    if (reg_ready) return;
    reg_ready = true;
    /* the run summary's columns are the declarations' (col): launches, warp
    ** and thread instructions here, then cycles (the functional estimate
    ** joins the timing model's column) and IPC (gpu/kstats.def) */
#define R(m) offsetof(api_launch_rec, m)
    static const tp_stat_def common[] = {
        {.name = "launches", .kind = TP_STAT_U64, .unit = TP_UNIT_LAUNCHES, .rule = TP_RULE_ADD, .flags = TP_STAT_HIDDEN,
         .off = R(launches), .col = {"launches", 9, 0, 0}, .doc = "launches the record stands for (1; the summary sums it)"},
        {.name = "name", .kind = TP_STAT_STR, .rule = TP_RULE_PROP, .off = R(name), .doc = "kernel name"},
        {.name = "grid", .kind = TP_STAT_DIM3, .unit = TP_UNIT_CTAS, .rule = TP_RULE_PROP, .off = R(grid), .doc = "grid dimensions"},
        {.name = "block", .kind = TP_STAT_DIM3, .unit = TP_UNIT_THREADS, .rule = TP_RULE_PROP, .off = R(block),
         .doc = "block dimensions"},
        {.name = "shared_dyn", .kind = TP_STAT_U32, .unit = TP_UNIT_BYTES, .rule = TP_RULE_PROP, .off = R(shared_dyn),
         .doc = "bytes of dynamic shared memory"},
        {.name = "regs_per_thread", .kind = TP_STAT_U32, .unit = TP_UNIT_REGISTERS, .rule = TP_RULE_PROP, .off = R(regs),
         .doc = "registers per thread (occupancy)"},
        {.name = "regs_cubin_sm", .kind = TP_STAT_U32, .unit = TP_UNIT_NONE, .rule = TP_RULE_PROP, .off = R(regs_cubin_sm),
         .doc = "regs_per_thread is ptxas's count from the program's cubin for sm_XY (as XY: regs.cubin); 0: tpsim's model"},
        {.name = "regs_model", .kind = TP_STAT_U32, .unit = TP_UNIT_REGISTERS, .rule = TP_RULE_PROP, .off = R(regs_model),
         .doc = "tpsim's own count for the kernel (docs/REGISTERS.md), whichever regs_per_thread is"},
        {.name = "warp_instructions", .kind = TP_STAT_U64, .unit = TP_UNIT_WARP_INSTS, .rule = TP_RULE_ADD,
         .off = R(warp_insns), .col = {"warp insts", 15, 0, 0}, .doc = "warp instructions executed"},
        {.name = "thread_instructions", .kind = TP_STAT_U64, .unit = TP_UNIT_THREAD_INSTS, .rule = TP_RULE_ADD,
         .off = R(thread_insns), .col = {"thread insts", 15, 0, 0}, .doc = "thread instructions executed (active lanes)"},
        {.name = "status", .kind = TP_STAT_STR, .rule = TP_RULE_PROP, .off = R(status_name),
         .doc = "how the launch ended (a CUresult name)"},
        {.name = "mode", .kind = TP_STAT_STR, .rule = TP_RULE_PROP, .off = R(mode), .doc = "functional or performance"},
    };
    static const tp_stat_def failed = {.name = "reason", .kind = TP_STAT_STR, .rule = TP_RULE_PROP, .off = R(reason),
                                       .doc = "why the launch failed or was refused, in words with the numbers"};
    static const tp_stat_def func = {.name = "cycles_estimate", .kind = TP_STAT_U64, .unit = TP_UNIT_CYCLES,
                                     .rule = TP_RULE_ADD, .off = R(cycles), .col = {"cycles", 12, 0, GPU_SUMMARY_TIMED},
                                     .doc = "functional mode: warp instructions / SMs, an estimate (api.h)"};
#undef R
    tp_stats_init(&reg_common);
    tp_stats_add_defs(&reg_common, 0, common, TP_ARRAY_LEN(common));
    tp_stats_init(&reg_failed);
    tp_stats_add_def(&reg_failed, 0, &failed);
    tp_stats_init(&reg_func);
    tp_stats_add_def(&reg_func, 0, &func);
    tp_stats_init(&reg_perf);
    gpu_kstats_register(&reg_perf, 0);
    tp_stats_init(&reg_failures);
    api_fail_register(&reg_failures);
    tp_summary_init(&summary);
    tp_summary_add(&summary, &reg_common);
    tp_summary_add(&summary, &reg_func);
    tp_summary_add(&summary, &reg_perf);
}

/* ---- the text summary ---------------------------------------------------------- */

typedef struct api_ksum {
    char *name;
    uint64_t failed;
    tp_statval row[TP_SUMMARY_COLS];   /* the summary's columns, summed by their rules */
    uint64_t order, tie;   /* of its first launch in issue order */
} api_ksum;

/* Launch records in issue order: a launch the device ran comes at its
** operation's place (2 seq + 1), one refused when issued before the
** operation issued next (2 next_seq); ties in the order they were kept. */
static uint64_t next_tie;

static int order_cmp(uint64_t ao, uint64_t at, uint64_t bo, uint64_t bt)
{
    if (ao != bo) return ao < bo ? -1 : 1;
    return at < bt ? -1 : at > bt;
}

static int rec_cmp(const void *a, const void *b)
{
    const api_launch_rec *x = a, *y = b;
    return order_cmp(x->order, x->tie, y->order, y->tie);
}

static int ksum_cmp(const void *a, const void *b)
{
    const api_ksum *x = a, *y = b;
    return order_cmp(x->order, x->tie, y->order, y->tie);
}

/* Puts the records and the summary rows in issue order (before writing). */
static void sort_records(void)
{
    if (api_g.nlaunches > 1) qsort(api_g.launches, api_g.nlaunches, sizeof *api_g.launches, rec_cmp);
    if (api_g.nksums > 1) qsort(api_g.ksums, api_g.nksums, sizeof *api_g.ksums, ksum_cmp);
}

static void summary_write(void);

/* Adds launch record k to its kernel's summary row. */
static void summary_fold(const api_launch_rec *k)
{
    registries();
    uint32_t i = 0;
    while (i < api_g.nksums && strcmp(api_g.ksums[i].name, k->name) != 0) i++;
    if (i == api_g.nksums) {
        api_g.ksums = tp_realloc(api_g.ksums, (i + 1) * sizeof *api_g.ksums);
        memset(&api_g.ksums[i], 0, sizeof *api_g.ksums);
        api_g.ksums[i].name = tp_strdup(k->name);
        api_g.ksums[i].order = k->order;
        api_g.ksums[i].tie = k->tie;
        api_g.nksums++;
    }
    api_ksum *q = &api_g.ksums[i];
    if (order_cmp(k->order, k->tie, q->order, q->tie) < 0) {
        q->order = k->order;
        q->tie = k->tie;
    }
    if (k->status) q->failed++;
    tp_summary_fold(&summary, &reg_common, k, q->row);
    if (k->perf) tp_summary_fold(&summary, &reg_perf, k->perf, q->row);
    else tp_summary_fold(&summary, &reg_func, k, q->row);
}

void api_stats_init(void)
{
    static bool done;   /* cuInit, or the first failure (before any cuInit) */
    if (done) return;
    done = true;
    const char *sp = getenv("TPSIM_SUMMARY");
    if (sp && *sp) {
        api_g.summary_path = tp_strdup(sp);
        atexit(summary_write);
    }
    const char *p = getenv("TPSIM_STATS");
    if (!p || !*p) return;
    api_g.stats_path = tp_strdup(p);
    atexit(stats_write);
}

/* Keeps a launch record (the statistics file lists it) or, without a file
** or past its limit, frees it; either way the summary counts it. */
static void keep(api_launch_rec *k)
{
    k->tie = next_tie++;
    summary_fold(k);
    if (api_g.stats_path && api_g.nlaunches < API_STATS_MAX_KERNELS) {
        if (api_g.nlaunches == api_g.caplaunches) {
            api_g.caplaunches = api_g.caplaunches ? api_g.caplaunches * 2 : 64;
            api_g.launches = tp_realloc(api_g.launches, api_g.caplaunches * sizeof *api_g.launches);
        }
        api_g.launches[api_g.nlaunches++] = *k;
        return;
    }
    if (api_g.stats_path) api_g.launches_dropped++;
    free(k->name);
    free(k->status_name);
    free(k->mode);
    free(k->reason);
    if (k->perf) gpu_kstats_free(k->perf);
    free(k->perf);
    api_checks_free(k);
}

void api_stats_launch(const api_func *f, const exec_launch *l, const exec_result *r, uint64_t cycles,
                      CUresult status, double host_seconds, gpu_kstats *perf)
{
    api_g.launches_total++;
    if (status) api_g.launches_failed++;
    api_g.warp_insns += r->warp_insns;
    api_g.thread_insns += r->thread_insns;
    api_g.cycles += cycles;
    api_g.t_launch += host_seconds;
    api_launch_rec k;
    memset(&k, 0, sizeof k);
    k.launches = 1;
    k.name = tp_strdup(f->pf->name);
    memcpy(k.grid, l->grid, sizeof k.grid);
    memcpy(k.block, l->block, sizeof k.block);
    k.shared_dyn = l->shared_dyn;
    k.regs = r->regs_per_thread ? r->regs_per_thread : f->attr.regs;
    k.regs_model = f->attr.regs_model;
    k.regs_cubin_sm = f->attr.regs_cubin_sm;
    k.warp_insns = r->warp_insns;
    k.thread_insns = r->thread_insns;
    k.cycles = cycles;
    k.status = status;
    const char *st = api_result_name(status);
    k.status_name = tp_strdup(st ? st : "CUDA_ERROR_UNKNOWN");
    k.mode = tp_strdup(perf ? "performance" : "functional");
    k.perf = perf;
    k.order = 2 * api_op_seq_running() + 1;
    if (status && r->msg[0]) k.reason = tp_strdup(r->msg);
    api_checks_launch(&k);
    keep(&k);
}

void api_stats_refused(const char *kernel, const uint32_t grid[3], const uint32_t block[3], uint32_t shared_dyn,
                       uint32_t regs, CUresult status, const char *status_name, const char *why)
{
    api_g.launches_total++;
    api_g.launches_failed++;
    api_launch_rec k;
    memset(&k, 0, sizeof k);
    k.launches = 1;
    k.name = tp_strdup(kernel ? kernel : "?");
    memcpy(k.grid, grid, sizeof k.grid);
    memcpy(k.block, block, sizeof k.block);
    k.shared_dyn = shared_dyn;
    k.regs = regs;
    k.status = status;
    const char *st = status_name ? status_name : api_result_name(status);
    k.status_name = tp_strdup(st ? st : "CUDA_ERROR_UNKNOWN");
    k.mode = tp_strdup(api_g.opts.v && api_opt(OPT_MODE) == 1 ? "performance" : "functional");
    k.reason = why && why[0] ? tp_strdup(why) : NULL;
    k.order = 2 * api_g.next_seq;
    keep(&k);
}

static void summary_write(void)
{
    api_lock();
    if (!api_g.summary_path) {
        api_unlock();
        return;
    }
    sort_records();
    tp_sbuf b;
    tp_sbuf_init(&b);
    const char *kt = getenv("TPSIM_SUMMARY_KERNELS");
    bool kernels = !(kt && strcmp(kt, "0") == 0);
    bool perf = api_g.opts.v && api_opt(OPT_MODE) == 1;
    if (kernels) {
        uint32_t nk = api_g.nksums;
        uint64_t launches = api_g.launches_total;
        tp_sbuf_printf(&b, "tpsim: %u kernel%s, %llu launch%s, %llu warp instructions (%s mode)\n", nk,
                       nk == 1 ? "" : "s", (unsigned long long)launches, launches == 1 ? "" : "es",
                       (unsigned long long)api_g.warp_insns, perf ? "performance" : "functional");
        /* the columns the declarations name; the timed ones in performance mode */
        unsigned show = perf ? GPU_SUMMARY_TIMED : 0;
        if (nk) {
            tp_sbuf_putc(&b, ' ');
            tp_summary_head(&summary, show, &b);
            tp_sbuf_puts(&b, "  kernel\n");
        }
        for (uint32_t i = 0; i < nk; i++) {
            const api_ksum *q = &api_g.ksums[i];
            tp_sbuf_putc(&b, ' ');
            tp_summary_row(&summary, show, q->row, &b);
            tp_sbuf_printf(&b, "  %s", q->name);
            if (q->failed) tp_sbuf_printf(&b, " (%llu failed)", (unsigned long long)q->failed);
            tp_sbuf_putc(&b, '\n');
        }
        if (perf)
            tp_sbuf_printf(&b, "  (cycles at %.0f MHz; IPC = thread instructions per cycle, whole GPU)\n",
                           tp_opt_f(&api_g.opts, OPT_CLOCK_CORE_MHZ));
        api_sample_summary(&b);
    }
    uint32_t nf;
    uint64_t unlisted;
    const api_fail *f = api_fail_list(&nf, &unlisted);
    uint64_t total = unlisted;
    for (uint32_t i = 0; i < nf; i++) total += f[i].count;
    if (total) {
        tp_sbuf_printf(&b, "tpsim: %llu CUDA call%s returned an error:\n", (unsigned long long)total,
                       total == 1 ? "" : "s");
        for (uint32_t i = 0; i < nf; i++) {
            const api_fail *e = &f[i];
            tp_sbuf_printf(&b, "  %s%s%s%s%s%s: %s, %llu time%s\n", e->api, e->kernel ? " (kernel " : "",
                           e->kernel ? e->kernel : "", e->kernel ? ")" : "", e->lib ? " from " : "",
                           e->lib ? e->lib : "", e->error, (unsigned long long)e->count, e->count == 1 ? "" : "s");
            if (e->why) tp_sbuf_printf(&b, "      %s\n", e->why);
        }
        if (unlisted)
            tp_sbuf_printf(&b, "  (%llu more failed calls, of kinds past the list's limit)\n", (unsigned long long)unlisted);
    }
    FILE *out = fopen(api_g.summary_path, "wb");
    if (out) {
        if (b.len) fwrite(b.s, 1, b.len, out);   /* nothing to say: an empty file */
        fclose(out);
    }
    tp_sbuf_free(&b);
    api_unlock();
}

static void config_json(tp_sbuf *b)
{
    const tp_opts *o = &api_g.opts;
    tp_sbuf_puts(b, "{");
    for (uint32_t i = 0; o->v && i < o->n; i++) {
        tp_sbuf_puts(b, i ? ",\n    " : "\n    ");
        tp_sbuf_json_str(b, o->defs[i].name);
        tp_sbuf_puts(b, ": ");
        switch (o->defs[i].type) {
        case TP_OPT_INT: tp_sbuf_printf(b, "%lld", (long long)o->v[i].i); break;
        case TP_OPT_FLOAT: tp_sbuf_printf(b, "%.17g", o->v[i].f); break;
        case TP_OPT_BOOL: tp_sbuf_puts(b, o->v[i].i ? "true" : "false"); break;
        case TP_OPT_STR:
        case TP_OPT_ENUM: tp_sbuf_json_str(b, o->v[i].s ? o->v[i].s : ""); break;
        }
    }
    tp_sbuf_puts(b, o->v && o->n ? "\n  }" : "}");
}

static void kernels_json(tp_sbuf *b)
{
    registries();
    tp_sbuf_puts(b, "[");
    for (uint32_t i = 0; i < api_g.nlaunches; i++) {
        const api_launch_rec *k = &api_g.launches[i];
        tp_sbuf_puts(b, i ? ",\n    {" : "\n    {");
        tp_stats_json_members_at(&reg_common, k, b, 6, true);
        if (k->reason) tp_stats_json_members_at(&reg_failed, k, b, 6, false);
        if (k->perf) tp_stats_json_members_at(&reg_perf, k->perf, b, 6, false);
        else tp_stats_json_members_at(&reg_func, k, b, 6, false);
        api_checks_json(k, b);
        tp_sbuf_puts(b, "\n    }");
    }
    tp_sbuf_puts(b, api_g.nlaunches ? "\n  ]" : "]");
}

typedef struct api_totals {
    uint64_t launches, failed, dropped, warp, thread, cycles, failed_calls;
    double ms;
} api_totals;

typedef struct api_host {
    double wall, launch, ips;
    uint64_t rss;
} api_host;

static void stats_write(void)
{
    api_lock();
    if (!api_g.stats_path) {
        api_unlock();
        return;
    }
    sort_records();
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_sbuf_puts(&b, "{\n  \"tpsim_version\": ");
    tp_sbuf_json_str(&b, TPSIM_VERSION);
    tp_sbuf_puts(&b, ",\n  \"config\": ");
    config_json(&b);
    tp_sbuf_puts(&b, ",\n  \"kernels\": ");
    kernels_json(&b);
    tp_stats_json_members_at(&reg_failures, NULL, &b, 2, false);
    /* totals and host: records of their own, named by registries like the kernels */
    api_totals tot;
    api_host host;
    uint32_t nfail;
    const api_fail *fl = api_fail_list(&nfail, &tot.failed_calls);
    for (uint32_t i = 0; i < nfail; i++) tot.failed_calls += fl[i].count;
    /* cuInit may never have succeeded (the failures are then all there is) */
    double mhz = api_g.opts.v ? tp_opt_f(&api_g.opts, OPT_CLOCK_CORE_MHZ) : 0.0;
    tot.launches = api_g.launches_total;
    tot.failed = api_g.launches_failed;
    tot.dropped = api_g.launches_dropped;
    tot.warp = api_g.warp_insns;
    tot.thread = api_g.thread_insns;
    tot.cycles = api_g.cycles;
    tot.ms = mhz > 0 ? (double)api_g.cycles / (mhz * 1000.0) : 0.0;
    struct rusage ru;
    host.rss = getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss : 0;
    host.wall = api_now() - api_g.t_start;
    host.launch = api_g.t_launch;
    host.ips = api_g.t_launch > 0 ? (double)api_g.thread_insns / api_g.t_launch : 0.0;
    /* declared like the launch records' statistics: unit, rule, doc */
#define T(f, ...) {.off = offsetof(api_totals, f), __VA_ARGS__}
#define H(f, ...) {.off = offsetof(api_host, f), __VA_ARGS__}
#define U64 .kind = TP_STAT_U64
#define F64 .kind = TP_STAT_F64
    static const tp_stat_def totals[] = {
        T(launches, .name = "launches", U64, .unit = TP_UNIT_LAUNCHES, .rule = TP_RULE_ADD,
          .doc = "kernel launches, refused ones included"),
        T(failed, .name = "failed_launches", U64, .unit = TP_UNIT_LAUNCHES, .rule = TP_RULE_ADD,
          .doc = "launches that returned an error"),
        T(dropped, .name = "kernels_not_listed", U64, .unit = TP_UNIT_LAUNCHES, .rule = TP_RULE_ADD,
          .doc = "launches past the file's limit (counted here only)"),
        T(warp, .name = "warp_instructions", U64, .unit = TP_UNIT_WARP_INSTS, .rule = TP_RULE_ADD,
          .doc = "warp instructions, all launches"),
        T(thread, .name = "thread_instructions", U64, .unit = TP_UNIT_THREAD_INSTS, .rule = TP_RULE_ADD,
          .doc = "thread instructions, all launches"),
        T(cycles, .name = "cycles", U64, .unit = TP_UNIT_CYCLES, .rule = TP_RULE_ADD,
          .doc = "core cycles: performance mode's, or functional estimates"),
        T(ms, .name = "simulated_ms", F64, .unit = TP_UNIT_MILLISECONDS, .rule = TP_RULE_PROP,
          .doc = "cycles at clock.core_mhz, in milliseconds"),
        T(failed_calls, .name = "failed_calls", U64, .unit = TP_UNIT_CALLS, .rule = TP_RULE_ADD,
          .doc = "CUDA calls that returned an error"),
    };
    static const tp_stat_def hosts[] = {
        H(wall, .name = "wall_seconds", F64, .unit = TP_UNIT_SECONDS, .rule = TP_RULE_PROP, .doc = "host wall time since cuInit"),
        H(launch, .name = "launch_seconds", F64, .unit = TP_UNIT_SECONDS, .rule = TP_RULE_ADD,
          .doc = "host time inside kernel launches"),
        H(ips, .name = "thread_instructions_per_second", F64, .unit = TP_UNIT_INSTS_PER_SECOND, .rule = TP_RULE_PROP,
          .doc = "simulation speed"),
        H(rss, .name = "max_rss_kb", U64, .unit = TP_UNIT_KILOBYTES, .rule = TP_RULE_MAX,
          .doc = "peak resident memory of the process"),
    };
#undef T
#undef H
#undef U64
#undef F64
    tp_stats rt, rh;
    tp_stats_init(&rt);
    tp_stats_init(&rh);
    tp_stats_add_defs(&rt, 0, totals, TP_ARRAY_LEN(totals));
    tp_stats_add_defs(&rh, 0, hosts, TP_ARRAY_LEN(hosts));
    tp_sbuf_puts(&b, ",\n  \"totals\": ");
    tp_stats_json_line_at(&rt, &tot, &b);
    api_checks_totals_json(&b);
    tp_sbuf_puts(&b, ",\n  \"host\": ");
    tp_stats_json_line_at(&rh, &host, &b);
    tp_sbuf_puts(&b, "\n}\n");
    tp_stats_free(&rt);
    tp_stats_free(&rh);

    size_t n = strlen(api_g.stats_path) + 32;
    char *tmp = tp_malloc(n);
    snprintf(tmp, n, "%s.tmp.%ld", api_g.stats_path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(b.s, 1, b.len, f) == b.len;
    if (f && fclose(f) != 0) ok = false;
    if (ok && rename(tmp, api_g.stats_path) != 0) ok = false;
    if (!ok) {
        api_msg("cannot write the statistics file %s", api_g.stats_path);
        remove(tmp);
    }
    free(tmp);
    tp_sbuf_free(&b);
    free(api_g.stats_path);
    api_g.stats_path = NULL;
    api_unlock();
}
