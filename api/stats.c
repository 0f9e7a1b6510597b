/* stats.c -- the TPSIM_STATS file.
**
** When TPSIM_STATS names a path, the process writes there at exit one JSON
** object:
**   tpsim_version, config   (every option, resolved)
**   kernels                 one object per launch, in order: name, grid,
**                           block, shared_dyn, regs_per_thread,
**                           warp_instructions, thread_instructions,
**                           cycles_estimate (functional mode has no timing:
**                           the estimate of api.h, one warp instruction per
**                           SM per cycle), status (a CUresult name, or the
**                           runtime's cudaError_t name for a launch it
**                           refused itself); a failed or refused launch
**                           also has its reason
**   failures                every CUDA call that returned an error to the
**                           program (fail.c), once per distinct failure:
**                           api, error, kernel, caller (the library that
**                           made the call, null for the program), reason,
**                           count
**   totals                  sums over all launches; failed_calls
**   host                    wall time, simulation speed, peak memory
** Everything outside "host" is simulated, so two runs of a program write
** identical files apart from that member.  The file is written once,
** completely, through a temporary file renamed into place.  At most
** API_STATS_MAX_KERNELS launches are listed; the totals count them all.
*/
#include "api.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define API_STATS_MAX_KERNELS 100000

static void stats_write(void);

void api_stats_init(void)
{
    static bool done;
    if (done) return;
    done = true;
    const char *p = getenv("TPSIM_STATS");
    if (!p || !*p) return;
    api_g.stats_path = tp_strdup(p);
    atexit(stats_write);
}

/* A new launch record, or NULL past the file's limit. */
static api_launch_rec *new_rec(void)
{
    if (!api_g.stats_path) return NULL;
    if (api_g.nlaunches == API_STATS_MAX_KERNELS) {
        api_g.launches_dropped++;
        return NULL;
    }
    if (api_g.nlaunches == api_g.caplaunches) {
        api_g.caplaunches = api_g.caplaunches ? api_g.caplaunches * 2 : 64;
        api_g.launches = tp_realloc(api_g.launches, api_g.caplaunches * sizeof *api_g.launches);
    }
    api_launch_rec *k = &api_g.launches[api_g.nlaunches++];
    memset(k, 0, sizeof *k);
    return k;
}

void api_stats_refused(const char *kernel, const uint32_t grid[3], const uint32_t block[3], uint32_t shared_dyn,
                       uint32_t regs, CUresult status, const char *status_name, const char *why)
{
    api_g.launches_total++;
    api_g.launches_failed++;
    api_launch_rec *k = new_rec();
    if (!k) return;
    k->name = tp_strdup(kernel ? kernel : "?");
    memcpy(k->grid, grid, sizeof k->grid);
    memcpy(k->block, block, sizeof k->block);
    k->shared_dyn = shared_dyn;
    k->regs = regs;
    k->status = status;
    k->status_name = status_name ? tp_strdup(status_name) : NULL;
    k->reason = why && why[0] ? tp_strdup(why) : NULL;
}

void api_stats_launch(const api_func *f, const exec_launch *l, const exec_result *r, uint64_t cycles,
                      CUresult status, double host_seconds)
{
    api_g.launches_total++;
    if (status) api_g.launches_failed++;
    api_g.warp_insns += r->warp_insns;
    api_g.thread_insns += r->thread_insns;
    api_g.cycles += cycles;
    api_g.t_launch += host_seconds;
    api_launch_rec *k = new_rec();
    if (!k) return;
    k->name = tp_strdup(f->pf->name);
    memcpy(k->grid, l->grid, sizeof k->grid);
    memcpy(k->block, l->block, sizeof k->block);
    k->shared_dyn = l->shared_dyn;
    k->regs = r->regs_per_thread ? r->regs_per_thread : f->attr.regs;
    k->warp_insns = r->warp_insns;
    k->thread_insns = r->thread_insns;
    k->cycles = cycles;
    k->status = status;
    if (status && r->msg[0]) k->reason = tp_strdup(r->msg);
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
    tp_sbuf_puts(b, "[");
    for (uint32_t i = 0; i < api_g.nlaunches; i++) {
        const api_launch_rec *k = &api_g.launches[i];
        tp_sbuf_puts(b, i ? ",\n    {" : "\n    {");
        tp_sbuf_puts(b, "\"name\": ");
        tp_sbuf_json_str(b, k->name);
        tp_sbuf_printf(b, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]", k->grid[0], k->grid[1], k->grid[2],
                       k->block[0], k->block[1], k->block[2]);
        tp_sbuf_printf(b, ", \"shared_dyn\": %u, \"regs_per_thread\": %u", k->shared_dyn, k->regs);
        tp_sbuf_printf(b, ", \"warp_instructions\": %llu, \"thread_instructions\": %llu, \"cycles_estimate\": %llu",
                       (unsigned long long)k->warp_insns, (unsigned long long)k->thread_insns,
                       (unsigned long long)k->cycles);
        tp_sbuf_puts(b, ", \"status\": ");
        const char *st = k->status_name ? k->status_name : api_result_name(k->status);
        tp_sbuf_json_str(b, st ? st : "CUDA_ERROR_UNKNOWN");
        if (k->reason) {
            tp_sbuf_puts(b, ", \"reason\": ");
            tp_sbuf_json_str(b, k->reason);
        }
        tp_sbuf_puts(b, "}");
    }
    tp_sbuf_puts(b, api_g.nlaunches ? "\n  ]" : "]");
}

static void json_str_or_null(tp_sbuf *b, const char *s)
{
    if (s) tp_sbuf_json_str(b, s);
    else tp_sbuf_puts(b, "null");
}

/* The failed calls (fail.c); *total receives their count. */
static void failures_json(tp_sbuf *b, uint64_t *total)
{
    uint32_t n;
    uint64_t unlisted;
    const api_fail *f = api_fail_list(&n, &unlisted);
    *total = unlisted;
    tp_sbuf_puts(b, "[");
    for (uint32_t i = 0; i < n; i++) {
        tp_sbuf_puts(b, i ? ",\n    {\"api\": " : "\n    {\"api\": ");
        tp_sbuf_json_str(b, f[i].api);
        tp_sbuf_puts(b, ", \"error\": ");
        tp_sbuf_json_str(b, f[i].error);
        tp_sbuf_puts(b, ", \"kernel\": ");
        json_str_or_null(b, f[i].kernel);
        tp_sbuf_puts(b, ", \"caller\": ");
        json_str_or_null(b, f[i].lib);
        tp_sbuf_puts(b, ", \"reason\": ");
        tp_sbuf_json_str(b, f[i].why);
        tp_sbuf_printf(b, ", \"count\": %llu}", (unsigned long long)f[i].count);
        *total += f[i].count;
    }
    tp_sbuf_puts(b, n ? "\n  ]" : "]");
}

static void stats_write(void)
{
    api_lock();
    if (!api_g.stats_path) {
        api_unlock();
        return;
    }
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_sbuf_puts(&b, "{\n  \"tpsim_version\": ");
    tp_sbuf_json_str(&b, TPSIM_VERSION);
    tp_sbuf_puts(&b, ",\n  \"config\": ");
    config_json(&b);
    tp_sbuf_puts(&b, ",\n  \"kernels\": ");
    kernels_json(&b);
    uint64_t failed_calls;
    tp_sbuf_puts(&b, ",\n  \"failures\": ");
    failures_json(&b, &failed_calls);
    double mhz = api_g.opts.v ? (double)api_opt(OPT_DEVICE_CLOCK_MHZ) : 0.0;
    double ms = mhz > 0 ? (double)api_g.cycles / (mhz * 1000.0) : 0.0;
    tp_sbuf_printf(&b,
                   ",\n  \"totals\": {\"launches\": %llu, \"failed_launches\": %llu, \"kernels_not_listed\": %llu, "
                   "\"warp_instructions\": %llu, \"thread_instructions\": %llu, \"cycles_estimate\": %llu, "
                   "\"simulated_ms_estimate\": %.6f, \"failed_calls\": %llu}",
                   (unsigned long long)api_g.launches_total, (unsigned long long)api_g.launches_failed,
                   (unsigned long long)api_g.launches_dropped, (unsigned long long)api_g.warp_insns,
                   (unsigned long long)api_g.thread_insns, (unsigned long long)api_g.cycles, ms,
                   (unsigned long long)failed_calls);
    struct rusage ru;
    long rss = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
    double wall = api_now() - api_g.t_start;
    double ips = api_g.t_launch > 0 ? (double)api_g.thread_insns / api_g.t_launch : 0.0;
    tp_sbuf_printf(&b,
                   ",\n  \"host\": {\"wall_seconds\": %.6f, \"launch_seconds\": %.6f, "
                   "\"thread_instructions_per_second\": %.0f, \"max_rss_kb\": %ld}\n}\n",
                   wall, api_g.t_launch, ips, rss);

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
