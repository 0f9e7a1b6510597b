/* sample.c -- sampled timing across launches (sample.mode=kernel or both;
** docs/TIMING.md, "Sampled timing"), and the run summary's sampling lines.
**
** The launches of one kernel with the same grid, block and dynamic shared
** memory form a group.  A group's launches run in detail (performance mode;
** with sample.mode=both each may itself be CTA-sampled, gpu/sample.c) until
** the last sample.window of them have cycles per warp instruction (CPI:
** the kernel's cycles over its warp instructions) within sample.tolerance
** percent of each other ((max - min) / mean).  From then on the group is
** stable: its launches run in functional mode (every instruction executes,
** results are exact) and their cycles are projected: the window's mean
** cycles when every launch of the window and this one executed the same
** number of warp instructions, else the window's mean CPI x this launch's
** warp instructions.  The 95% confidence interval is t(window - 1) x the
** window's standard deviation / sqrt(window), of the cycles or of the CPI x
** the instructions.  A projected launch's record (gpu_kstats) holds the
** cycles, the instructions and their ratios, the occupancy, the launch
** overhead and the sample.* rows; its other counters are zero.
**
** Rechecks (sample.recheck = R, default 64; 0: none): a stable group's
** launch after 4 projected ones runs in detail again, the next after 8
** more, then 16, ... up to R apart; a recheck joins the window (so the
** projection follows it), and if the window no longer agrees the group runs
** in detail until it does again.  A group of n launches pays about
** log2(R / 4) + n / R rechecks; a phase change (the same kernel and grid
** doing other work, with the same instructions) is found within R
** launches, which until then are priced at the old phase's rate.
**
** Caches and DRAM: a projected launch leaves them as the last detailed
** launch left them (functional execution does not touch the timing model's
** state), and the GPU's clock advances by its cycles and launch overhead, so
** DRAM refresh and the program's time (cuEventElapsedTime, simulated_ms) go
** on as if it had run.  A group is stable only after window launches that
** each started with the caches as the launch before left them, so a stable
** group's launches see the steady state the projection assumes; a detailed
** launch of another kernel after projected ones finds the L2 as the group's
** last detailed launch left it -- usually the same buffers, which a launch
** of a group rewrites or rereads in the same way (docs/TIMING.md says where
** this fails).
*/
#include "api.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* a stable group's first recheck comes after this many projected launches,
** each later one twice as late as the one before, up to sample.recheck */
#define RECHECK_FIRST 4

typedef struct sgroup {
    const api_func *f;
    uint32_t grid[3], block[3], shared;
    uint32_t n, cap;
    double *cpi;               /* each detailed launch's cycles / warp instructions */
    uint64_t *cyc, *wi;        /* its cycles and warp instructions */
    bool stable;
    bool checking;             /* the launch running now is a recheck of the stable group */
    uint64_t since, gap;       /* projected launches since stability or the last recheck; the next recheck's */
    uint32_t ctas_per_sm;
    char *occ_limit;
} sgroup;

/* Per kernel name, for the summary lines. */
typedef struct skernel {
    char *name;
    uint64_t launches, projected, cta_sampled, cycles, projected_cycles, ci95;
} skernel;

static struct {
    sgroup *g;
    uint32_t ng;
    skernel *k;
    uint32_t nk;
} S;

static int64_t mode(void) { return api_opt(OPT_SAMPLE_MODE); } /* off|kernel|cta|both */

static sgroup *group_of(const api_func *f, const exec_launch *l)
{
    for (uint32_t i = 0; i < S.ng; i++) {
        sgroup *q = &S.g[i];
        if (q->f == f && !memcmp(q->grid, l->grid, sizeof q->grid) && !memcmp(q->block, l->block, sizeof q->block) &&
            q->shared == l->shared_dyn)
            return q;
    }
    S.g = tp_realloc(S.g, (S.ng + 1) * sizeof *S.g);
    sgroup *q = &S.g[S.ng++];
    memset(q, 0, sizeof *q);
    q->f = f;
    memcpy(q->grid, l->grid, sizeof q->grid);
    memcpy(q->block, l->block, sizeof q->block);
    q->shared = l->shared_dyn;
    return q;
}

bool api_sample_project(const api_func *f, const exec_launch *l)
{
    int64_t m = mode();
    if (m != 1 && m != 3) return false;
    sgroup *q = group_of(f, l);
    if (!q->stable) return false;
    if (api_opt(OPT_SAMPLE_RECHECK) && q->since >= q->gap) {
        q->checking = true; /* this one in detail */
        return false;
    }
    q->since++;
    return true;
}

/* The window's last launches: mean and standard deviation of x[n - w .. n). */
static void window_stats(const double *x, uint32_t n, uint32_t w, double *mean, double *sd)
{
    double s = 0, v = 0;
    for (uint32_t i = n - w; i < n; i++) s += x[i];
    *mean = s / w;
    for (uint32_t i = n - w; i < n; i++) v += (x[i] - *mean) * (x[i] - *mean);
    *sd = w > 1 ? sqrt(v / (w - 1)) : 0;
}

void api_sample_detailed(const api_func *f, const exec_launch *l, const exec_result *r, const gpu_kstats *ks)
{
    int64_t m = mode();
    if ((m != 1 && m != 3) || !r->warp_insns) return;
    sgroup *q = group_of(f, l);
    if (q->stable && !q->checking) return;
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 8;
        q->cpi = tp_realloc(q->cpi, q->cap * sizeof *q->cpi);
        q->cyc = tp_realloc(q->cyc, q->cap * sizeof *q->cyc);
        q->wi = tp_realloc(q->wi, q->cap * sizeof *q->wi);
    }
    q->cpi[q->n] = (double)ks->cycles / (double)r->warp_insns;
    q->cyc[q->n] = ks->cycles;
    q->wi[q->n] = r->warp_insns;
    q->n++;
    q->ctas_per_sm = (uint32_t)ks->ctas_per_sm;
    free(q->occ_limit);
    q->occ_limit = tp_strdup(ks->occupancy_limit ? ks->occupancy_limit : "");
    uint32_t w = (uint32_t)api_opt(OPT_SAMPLE_WINDOW);
    if (q->n < w) return;
    double lo = q->cpi[q->n - w], hi = lo, mean, sd;
    for (uint32_t i = q->n - w; i < q->n; i++) {
        lo = q->cpi[i] < lo ? q->cpi[i] : lo;
        hi = q->cpi[i] > hi ? q->cpi[i] : hi;
    }
    window_stats(q->cpi, q->n, w, &mean, &sd);
    bool agree = mean > 0 && (hi - lo) / mean <= tp_opt_f(&api_g.opts, OPT_SAMPLE_TOLERANCE) / 100.0;
    if (q->checking) {
        /* a recheck: it joins the window; agreeing, the next comes twice as late,
        ** disagreeing, the group runs in detail until a window agrees again */
        q->checking = false;
        q->stable = agree;
        uint64_t cap = (uint64_t)api_opt(OPT_SAMPLE_RECHECK);
        q->gap = !agree ? RECHECK_FIRST : 2 * q->gap < cap ? 2 * q->gap : cap;
        q->since = 0;
        return;
    }
    if (agree) {
        q->stable = true;
        q->since = 0;
        q->gap = RECHECK_FIRST < api_opt(OPT_SAMPLE_RECHECK) ? RECHECK_FIRST : (uint64_t)api_opt(OPT_SAMPLE_RECHECK);
    }
}

gpu_kstats *api_sample_projection(const api_func *f, const exec_launch *l, const exec_result *r)
{
    sgroup *q = group_of(f, l);
    uint32_t w = (uint32_t)api_opt(OPT_SAMPLE_WINDOW);
    bool same = true;
    for (uint32_t i = q->n - w; i < q->n; i++) same = same && q->wi[i] == r->warp_insns;
    double mean, sd, est, half, t = gpu_sample_t95(w - 1);
    if (same) {
        double c[64];
        for (uint32_t i = 0; i < w; i++) c[i] = (double)q->cyc[q->n - w + i];
        window_stats(c, w, w, &mean, &sd);
        est = mean;
        half = t * sd / sqrt(w);
    } else {
        window_stats(q->cpi, q->n, w, &mean, &sd);
        est = mean * (double)r->warp_insns;
        half = t * sd / sqrt(w) * (double)r->warp_insns;
    }
    gpu_kstats *ks = tp_calloc(1, sizeof *ks);
    ks->cycles = (uint64_t)llround(est);
    if (!ks->cycles) ks->cycles = 1;
    uint64_t lmin = (uint64_t)api_opt(OPT_LAUNCH_MIN_CYCLES), lc = (uint64_t)api_opt(OPT_LAUNCH_CYCLES);
    ks->launch_cycles = lmin > ks->cycles ? lmin - ks->cycles : 0;
    if (ks->launch_cycles < lc) ks->launch_cycles = lc;
    ks->warp_insns = r->warp_insns;
    ks->thread_insns = r->thread_insns;
    ks->regs_per_thread = r->regs_per_thread;
    ks->ctas_per_sm = q->ctas_per_sm;
    ks->occupancy_limit = tp_strdup(q->occ_limit ? q->occ_limit : "");
    ks->sample_kind = tp_strdup("kernel");
    ks->sample_functional_ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    ks->sample_projected_cycles = ks->cycles;
    ks->sample_ci95_cycles = (uint64_t)llround(half);
    ks->sample_samples = w;
    tp_stats_ratios_at(gpu_kstats_registry(), ks);
    /* the GPU's clock is the program's: DRAM refresh and later launches see the time pass */
    gpu_sample_advance(api_gpu(), ks->cycles + ks->launch_cycles);
    return ks;
}

void api_sample_note(const char *name, const gpu_kstats *ks)
{
    if (!ks || mode() == 0) return;
    uint32_t i = 0;
    while (i < S.nk && strcmp(S.k[i].name, name) != 0) i++;
    if (i == S.nk) {
        S.k = tp_realloc(S.k, (S.nk + 1) * sizeof *S.k);
        memset(&S.k[i], 0, sizeof *S.k);
        S.k[i].name = tp_strdup(name);
        S.nk++;
    }
    skernel *k = &S.k[i];
    k->launches++;
    const char *kind = ks->sample_kind ? ks->sample_kind : "full";
    if (!strcmp(kind, "kernel")) k->projected++;
    if (!strcmp(kind, "cta")) k->cta_sampled++;
    k->cycles += ks->cycles;
    k->projected_cycles += ks->sample_projected_cycles;
    k->ci95 += ks->sample_ci95_cycles;
}

void api_sample_summary(tp_sbuf *b)
{
    if (!S.nk) return;
    static const char *const names[] = {"off", "kernel", "cta", "both"};
    int64_t m = mode();
    tp_sbuf_printf(b, "tpsim: sampled timing (sample.mode=%s): per kernel, launches projected from their group, "
                      "launches CTA-sampled, projected share of cycles, 95%% confidence interval\n",
                   names[m >= 0 && m < 4 ? m : 0]);
    for (uint32_t i = 0; i < S.nk; i++) {
        const skernel *k = &S.k[i];
        double share = k->cycles ? 100.0 * (double)k->projected_cycles / (double)k->cycles : 0;
        double ci = k->cycles ? 100.0 * (double)k->ci95 / (double)k->cycles : 0;
        tp_sbuf_printf(b, "  %s: %llu of %llu launches projected, %llu CTA-sampled; %.1f%% of %llu cycles projected, "
                          "+-%.2f%% (95%% CI)\n",
                       k->name, (unsigned long long)k->projected, (unsigned long long)k->launches,
                       (unsigned long long)k->cta_sampled, share, (unsigned long long)k->cycles, ci);
    }
}
