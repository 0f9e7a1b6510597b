/*
** sample.c -- sampled timing inside a launch (sample.mode=cta or both;
** docs/TIMING.md, "Sampled timing").
**
** A wave is ctas_per_sm x SMs = W CTAs: the CTAs the GPU holds at once.
** The launch runs in detail and the cycle at which each wave's worth of
** CTAs has finished is noted (the first wave ends at the W-th finished CTA,
** the second at the 2W-th ...).  The first wave holds the ramp-up and gives
** no sample.  Once the mean duration of the last sample.cta_window waves and
** that of the sample.cta_window before them agree within sample.tolerance
** percent, the rate is stable.  Then, in that cycle, the CTAs after those
** already started, but for the last R = W + (remaining mod W), run
** functionally (exec_warp_run, W resident at a time, as functional mode runs
** them) -- a whole number of waves; the CTAs in flight stay where they are,
** and the detailed simulation goes on with the last R CTAs, so that the
** kernel's end -- its last partial wave and the drain -- is simulated, not
** guessed.  The skipped CTAs' time is their count x the cycles per CTA: the
** least-squares slope of the cycle of every CTA end after the first wave
** against its rank (single ends jitter by a few per cent of a wave; the
** slope over hundreds of them does not).  It is added to the kernel's cycles
** and to the GPU's clock.  Its 95% confidence interval: the skipped waves x
** t(2 window - 1) x the standard deviation of the 2 x window durations /
** sqrt(2 window) -- conservative, as the jitter of the ends inflates that
** deviation.
**
** Not sampled: grids of fewer than 2 x window + 4 waves (nothing worth
** skipping), cooperative grids (one wave), and kernels a register-sharing
** policy marked (the SMs hand out their register sections; a functional CTA
** could not get one).  Program results are exact either way: every CTA
** executes, in an order functional mode could have chosen.
*/
#include "internal.h"
#include <math.h>
#include <stdlib.h>

struct gpu_sampler {
    uint64_t wave;             /* CTAs per wave */
    uint32_t window;           /* sample.cta_window */
    double tol;                /* a fraction */
    uint64_t next_mark;        /* ctas_done at the end of the next wave */
    uint64_t last_t;           /* the cycle the last wave ended */
    double *d;                 /* wave durations (the first wave's excluded) */
    uint32_t nd, capd;
    uint32_t nwaves;           /* waves ended so far */
    uint64_t seen;             /* ctas_done at the last call */
    double x0, y0;             /* the first point after the first wave (ctas_done, cycle) */
    double n, sx, sy, sxx, sxy;/* least squares of cycle on ctas_done since then, relative to it */
    bool done;                 /* projected already */
    uint64_t skipped;          /* CTAs run functionally */
    double proj, half;         /* projected cycles, their 95% half-width */
};

double gpu_sample_t95(uint32_t df)
{
    /* two-sided 95%: t_{0.975, df} (standard tables), 1.96 beyond 30 */
    static const double t[31] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                                 2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0) return 0;
    return df <= 30 ? t[df] : 1.96;
}

void gpu_sample_begin(gpu *g, gpu_launchctx *lx)
{
    lx->smp = NULL;
    int64_t mode = tp_opt_i(&g->opts, OPT_SAMPLE_MODE);
    if (mode != 2 && mode != 3) return; /* off|kernel|cta|both */
    if (exec_grid_kernel(lx->grid)->rs) return;
    uint64_t wave = (uint64_t)lx->ctas_per_sm * g->c.nsm;
    uint32_t window = (uint32_t)tp_opt_i(&g->opts, OPT_SAMPLE_CTA_WINDOW);
    if (!wave || lx->ctas < wave * (2 * window + 4)) return;
    struct gpu_sampler *s = tp_calloc(1, sizeof *s);
    s->wave = wave;
    s->window = window;
    s->tol = tp_opt_f(&g->opts, OPT_SAMPLE_TOLERANCE) / 100.0;
    s->next_mark = wave;
    s->last_t = lx->start;
    lx->smp = s;
}

/* Runs the next n CTAs of the grid functionally, W at a time resident, as
** exec_launch_kernel does. */
static void run_functional(gpu *g, gpu_launchctx *lx, uint64_t n)
{
    exec_grid *grid = lx->grid;
    uint32_t nsm = g->c.nsm;
    uint32_t quantum = (uint32_t)tp_opt_i(&g->opts, OPT_EXEC_QUANTUM);
    uint64_t res = lx->smp->wave < n ? lx->smp->wave : n;
    exec_cta **slot = tp_calloc(res, sizeof *slot);
    uint64_t started = 0, active = 0;
    while (exec_grid_status(grid) == EXEC_OK) {
        for (uint64_t k = 0; k < res; k++)
            if (!slot[k] && started < n) {
                slot[k] = exec_cta_start(grid, (uint32_t)((lx->ctas_started + started) % nsm));
                if (!slot[k]) break;
                started++;
                active++;
            }
        if (!active) break;
        bool ran = false;
        for (uint64_t k = 0; k < res && exec_grid_status(grid) == EXEC_OK; k++) {
            exec_cta *c = slot[k];
            if (!c) continue;
            uint32_t nw = exec_cta_nwarps(c);
            for (uint32_t i = 0; i < nw && exec_grid_status(grid) == EXEC_OK; i++)
                if (exec_warp_run(exec_cta_warp(c, i), quantum)) ran = true;
            if (exec_cta_done(c)) {
                exec_cta_release(c);
                slot[k] = NULL;
                active--;
            }
        }
        if (exec_grid_status(grid) != EXEC_OK) break;
        exec_grid_watchdog(grid, !ran && active);
    }
    free(slot);
    lx->ctas_started += started;
    lx->ctas_done += started;
    lx->smp->skipped = started;
}

void gpu_sample_ctas_done(gpu *g, gpu_launchctx *lx, uint64_t now)
{
    struct gpu_sampler *s = lx->smp;
    if (!s || s->done) return;
    /* every CTA end after the first wave is a point (ctas_done, cycle) of the line
    ** whose slope is the cycles per CTA */
    for (uint64_t x = s->seen + 1; x <= lx->ctas_done; x++) {
        if (x <= s->wave) continue;
        if (s->n == 0) s->x0 = (double)x, s->y0 = (double)now;
        double dx = (double)x - s->x0, dy = (double)now - s->y0;
        s->n += 1;
        s->sx += dx;
        s->sy += dy;
        s->sxx += dx * dx;
        s->sxy += dx * dy;
    }
    s->seen = lx->ctas_done;
    bool ended = false;
    while (lx->ctas_done >= s->next_mark) {
        if (s->nwaves++ > 0) {
            if (s->nd == s->capd) {
                s->capd = s->capd ? s->capd * 2 : 16;
                s->d = tp_realloc(s->d, s->capd * sizeof *s->d);
            }
            s->d[s->nd++] = (double)(now - s->last_t);
        }
        s->last_t = now;
        s->next_mark += s->wave;
        ended = true;
    }
    if (!ended || s->nd < 2 * s->window) return;
    /* two blocks of window waves: the older and the newer; a wave's end
    ** jitters by a few per cent, a block's mean is (end - start) / window */
    uint32_t k = s->window, n2 = 2 * k;
    const double *w = s->d + s->nd - n2;
    double older = 0, newer = 0;
    for (uint32_t i = 0; i < k; i++) older += w[i], newer += w[k + i];
    older /= k;
    newer /= k;
    double mean = (older + newer) / 2;
    if (mean <= 0 || fabs(newer - older) / mean > s->tol) return;
    /* stable: skip whole waves, keep the last R = W + (remaining mod W) CTAs in detail */
    uint64_t left = lx->ctas - lx->ctas_started;
    uint64_t keep = s->wave + left % s->wave;
    if (left < keep + s->wave) return; /* less than a wave to skip: go on measuring */
    s->done = true;
    uint64_t skip = left - keep;
    run_functional(g, lx, skip);
    double var = 0;
    for (uint32_t i = 0; i < n2; i++) var += (w[i] - mean) * (w[i] - mean);
    var /= n2 - 1;
    double waves = (double)s->skipped / (double)s->wave;
    /* the slope: jitter of single ends averages out over every CTA since the first wave */
    double sxx = s->sxx - s->sx * s->sx / s->n, sxy = s->sxy - s->sx * s->sy / s->n;
    double per_cta = sxx > 0 ? sxy / sxx : mean / (double)s->wave;
    s->proj = (double)s->skipped * per_cta;
    s->half = waves * gpu_sample_t95(n2 - 1) * sqrt(var / n2);
}

void gpu_sample_end(gpu *g, gpu_launchctx *lx, gpu_kstats *ks, bool failed)
{
    struct gpu_sampler *s = lx->smp;
    lx->smp = NULL;
    bool sampled = s && s->done && s->skipped && !failed;
    ks->sample_kind = tp_strdup(sampled ? "cta" : "full");
    ks->sample_functional_ctas = sampled ? s->skipped : 0;
    ks->sample_detailed_ctas = lx->ctas_started - ks->sample_functional_ctas;
    if (sampled) {
        uint64_t p = (uint64_t)llround(s->proj);
        ks->cycles += p;
        g->cycle += p;
        ks->sample_projected_cycles = p;
        ks->sample_ci95_cycles = (uint64_t)llround(s->half);
        ks->sample_samples = 2 * s->window;
    }
    if (s) free(s->d);
    free(s);
}

void gpu_sample_advance(gpu *g, uint64_t cycles) { g->cycle += cycles; }
