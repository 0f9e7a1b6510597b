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
** percent, the rate is stable (or earlier, sample.cta_early: the last 2 x h
** waves, h = window / 2, in two blocks of h within tolerance x h / window,
** a test as strict against end jitter and steady drift, taken only where a
** check will follow; see the comment at the test): its cycles per CTA are
** the slope between the
** mean (rank, cycle) of the CTA ends after the first wave in the first half
** of their waves and that of the second half (gpu_sample_rate: single ends
** jitter by a few per cent of a wave, which the means average out, and ends
** that come a wave at a time leave a least-squares line short).
**
** Then the CTAs still to start, but for the last R = W + (remaining mod W),
** are skipped in whole waves, stratified: they are cut into C strata of
** equal length (C = sample.cta_checks, fewer where a stratum would be under
** 15 checks long, so that the checks cost at most a sixteenth of what is
** skipped), and each stratum holds one check -- a wave that lets the resumed
** simulation settle, then sample.cta_window waves whose CTA ends give the
** stratum's own slope -- at a place drawn at random (splitmix64, seeded by
** the grid's size and the stable point: the same for every run).  The waves
** between two checks run functionally (exec_grid_run, W resident at a time,
** as functional mode runs them) in the cycle the earlier check ends; the
** CTAs in flight stay where they are and the detailed simulation goes on
** with the next check, and after the last stretch with the last R CTAs, so
** that the kernel's end -- its last partial wave and the drain -- is
** simulated, not guessed.  Each stratum's skipped CTAs are priced at its
** check's slope (with no check: all at the stable window's).  A start whose
** transient outlasted the stable window (a streaming kernel writing back the
** L2's dirty lines for its first 8 waves) or a slow drift is measured where
** it is not, instead of extrapolated; a rate that swings with the place in
** the grid (a transpose's DRAM pattern) is averaged over random places, not
** met at the same phase by evenly spaced ones.  The projected cycles are
** added to the kernel's and the GPU's clock.  The 95% confidence interval:
** the skipped waves x t(n - 1) x the standard deviation of the n sampled
** wave durations (the stable window's 2 x window and each check's window) /
** sqrt(n) -- conservative, as the jitter of the ends inflates it.
**
** Adaptive checks (sample.cta_adapt): where the first check's mean wave
** duration and the stable window's two block means agree within
** sample.tolerance, the kernel runs at one rate at two places far apart, and
** the checks between the first and the last are dropped: their strata and
** their waves run functionally as one stretch, priced at the mean of the rates
** of the first check and the last (the CTAs up to the first check's stratum's
** end at the first's, the last stratum's start at the last's, as before).  The
** last check stays, so that a drift along the grid is met at its end.  A
** kernel whose rate swings with the place has its three blocks apart and
** keeps every check (the transposes of 4096 and 8192 in tools/sample_check.sh:
** docs/PERFORMANCE.md, "Adaptive checks").
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

/* a stratum is at least this many checks long: the checks take at most a
** sixteenth of the waves that would be skipped, so that they cost a kernel
** of few waves little of its speed-up (7, an eighth, measured no more
** accurate on the workloads of tools/sample_check.sh, and took mmtiled 1024
** from 22 to 39 CPU seconds) */
#define CHECK_SPACING 15
/* a check's first wave lets the resumed simulation settle and is no sample
** (2 was tried: no better on the workloads of tools/sample_check.sh) */
#define SETTLE 1

struct gpu_sampler {
    uint64_t wave;             /* CTAs per wave */
    uint32_t window;           /* sample.cta_window */
    uint32_t checks;           /* sample.cta_checks */
    double tol;                /* a fraction */
    uint64_t next_mark;        /* ctas_done at the end of the next wave */
    uint64_t last_t;           /* the cycle the last wave ended */
    double *d;                 /* wave durations (the first wave's excluded) */
    uint32_t nd, capd;
    uint32_t nwaves;           /* waves ended so far */
    uint64_t seen;             /* ctas_done at the last call */
    uint64_t from;             /* ends after this ctas_done are points of the current slope */
    gpu_sample_group *grp;     /* the current rate's CTA ends, a group per wave of ranks after `from` */
    uint32_t ngrp, capgrp;
    bool stable;               /* the stable window was found: checks and stretches follow */
    bool done;                 /* every stretch has run: the tail is detailed */
    uint32_t stretch, nstretch;/* the next stretch to run, how many there are (checks + 1) */
    uint64_t *prev, *next;     /* each stretch's CTAs priced by the sample before it and by the check after it */
    uint64_t check_end;        /* ctas_done at which the current check ends */
    uint32_t check_d0;         /* d[] index of the current check's first wave */
    double rate;               /* cycles per CTA of the last sample (stable window or check) */
    uint64_t pending;          /* CTAs run before the current check, priced by it */
    uint64_t skipped;          /* CTAs run functionally */
    uint32_t nsamp;            /* wave durations the interval rests on */
    double ssum, ssq;          /* their sum and sum of squares */
    double proj, half;         /* projected cycles, their 95% half-width */
    bool adapt;                /* sample.cta_adapt */
    bool early;                /* sample.cta_early */
    double blk[2];             /* the stable window's two block means (wave durations) */
    uint64_t mid_n;            /* after a merge: the middle of the merged stretch (the next to run) */
    uint64_t mid;              /* the part of pending priced at the mean of the rates around it */
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
    uint32_t checks = (uint32_t)tp_opt_i(&g->opts, OPT_SAMPLE_CTA_CHECKS);
    if (!wave || lx->ctas < wave * (2 * window + 4)) return;
    struct gpu_sampler *s = tp_calloc(1, sizeof *s);
    s->wave = wave;
    s->window = window;
    s->checks = checks;
    s->from = wave;
    s->tol = tp_opt_f(&g->opts, OPT_SAMPLE_TOLERANCE) / 100.0;
    s->adapt = tp_opt_i(&g->opts, OPT_SAMPLE_CTA_ADAPT) != 0;
    s->early = tp_opt_i(&g->opts, OPT_SAMPLE_CTA_EARLY) != 0;
    s->next_mark = wave;
    s->last_t = lx->start;
    lx->smp = s;
}

/* Runs the next n CTAs of the grid functionally, W at a time resident, as
** exec_launch_kernel does. */
static void run_functional(gpu *g, gpu_launchctx *lx, uint64_t n)
{
    uint64_t started = exec_grid_run(lx->grid, n, lx->smp->wave, g->c.nsm, (uint32_t)tp_opt_i(&g->opts, OPT_EXEC_QUANTUM),
                                     (uint64_t)tp_opt_i(&g->opts, OPT_EXEC_CTA_PATIENCE));
    lx->ctas_started += started;
    lx->ctas_done += started;
    lx->smp->skipped += started;
}

double gpu_sample_rate(const gpu_sample_group *g, uint32_t k, double fallback)
{
    /* Wald's grouping: the line through the mean points of the first half of
    ** the groups and of the second.  A least-squares slope through CTA ends
    ** that come in clusters -- every CTA of a wave ending together, as in a
    ** kernel whose CTAs started together and take the same time -- is a
    ** staircase's, (k^2 - 1) / k^2 of the step rate over k steps (6% under for
    ** a check of 4 waves); split at a step, the means are a whole number of
    ** steps apart and the rate is exact.  Ends spread evenly give the same
    ** rate either way, and each mean averages the jitter of its ends. */
    double x1 = 0, y1 = 0, n1 = 0, x2 = 0, y2 = 0, n2 = 0;
    for (uint32_t j = 0; j < k; j++) {
        if (j < k / 2) x1 += g[j].sx, y1 += g[j].sy, n1 += g[j].n;
        else x2 += g[j].sx, y2 += g[j].sy, n2 += g[j].n;
    }
    if (n1 == 0 || n2 == 0) return fallback;
    double dx = x2 / n2 - x1 / n1;
    return dx > 0 ? (y2 / n2 - y1 / n1) / dx : fallback;
}

/* the rate of the ends since `from` (cycles per CTA), or fallback without two groups */
static double slope(const struct gpu_sampler *s, double fallback)
{
    return s->ngrp < 2 ? fallback : gpu_sample_rate(s->grp, s->ngrp, fallback);
}

static void slope_reset(struct gpu_sampler *s, uint64_t from)
{
    s->from = from;
    s->ngrp = 0;
}

/* the wave durations d[i0..nd) join the interval's samples */
static void add_samples(struct gpu_sampler *s, uint32_t i0)
{
    for (uint32_t i = i0; i < s->nd; i++) {
        s->nsamp++;
        s->ssum += s->d[i];
        s->ssq += s->d[i] * s->d[i];
    }
}

/* Runs the next stretch functionally -- the end of the last stratum and the
** start of the next -- then starts the next check (or, after the last
** stretch, leaves the tail to the detailed simulation). */
static void next_stretch(gpu *g, gpu_launchctx *lx, uint64_t now)
{
    struct gpu_sampler *s = lx->smp;
    uint32_t i = s->stretch++;
    uint64_t was = s->skipped;
    run_functional(g, lx, s->prev[i] + s->next[i]);
    uint64_t ran = s->skipped - was, a = ran < s->prev[i] ? ran : s->prev[i];
    s->proj += (double)a * s->rate; /* the last stratum's end: the sample just measured */
    s->pending = ran - a;           /* the next stratum's start: the check to come */
    s->mid = s->mid_n < s->pending ? s->mid_n : s->pending;
    s->mid_n = 0;
    s->seen = lx->ctas_done;
    s->last_t = now;
    s->next_mark = lx->ctas_done + s->wave;
    if (s->stretch == s->nstretch) {
        s->proj += (double)s->pending * s->rate;
        s->pending = 0;
        s->done = true;
        return;
    }
    /* the check's first wave settles the resumed simulation (the CTAs in flight
    ** and the new ones far apart in the grid) and is no sample, as the kernel's first */
    s->check_end = lx->ctas_done + (uint64_t)(s->window + SETTLE) * s->wave;
    s->check_d0 = s->nd + SETTLE;
    slope_reset(s, lx->ctas_done + SETTLE * s->wave);
}

/* splitmix64: the checks' places in their strata, the same for every run */
static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* How many checks a plan of `waves` waves to skip holds: C checks of window +
** 1 waves leave waves - C (window + 1) for C strata, each at least
** CHECK_SPACING checks long. */
static uint64_t strata_checks(uint64_t waves, uint32_t window, uint32_t checks)
{
    uint64_t c = checks, check = (uint64_t)window + SETTLE;
    while (c && (waves < c * check || (waves - c * check) / c < CHECK_SPACING * check)) c--;
    return c;
}

void gpu_sample_strata(uint64_t waves, uint32_t window, uint32_t checks, uint64_t seed, uint32_t *c_out,
                       uint64_t *prev, uint64_t *next)
{
    uint64_t c = strata_checks(waves, window, checks), check = (uint64_t)window + SETTLE;
    *c_out = (uint32_t)c;
    for (uint64_t i = 0; i <= c; i++) prev[i] = next[i] = 0;
    if (!c) {
        prev[0] = waves; /* one stretch, at the stable window's rate */
        return;
    }
    uint64_t rest = waves - c * check;
    for (uint64_t i = 0; i < c; i++) {
        uint64_t q = rest / c + (i < rest % c);
        next[i] = mix(&seed) % (q + 1); /* the check anywhere in its stratum */
        prev[i + 1] = q - next[i];
    }
}

uint64_t gpu_sample_merge(uint64_t *prev, uint64_t *next, uint32_t *n, uint32_t a, uint64_t check)
{
    if (*n < 3 || a + 3 > *n) return 0;
    uint32_t c = *n - 1; /* checks; a .. c - 1 are still to run, c - 1 is kept, one at least between */
    uint64_t mid = 0;
    for (uint32_t k = a; k + 2 <= c; k++) mid += next[k] + check + prev[k + 1];
    next[a] = mid + next[c - 1];
    prev[a + 1] = prev[c];
    next[a + 1] = next[c];
    *n = a + 2;
    return mid;
}

bool gpu_sample_agree(const double *m, uint32_t k, double tol)
{
    double lo = m[0], hi = m[0], sum = 0;
    for (uint32_t i = 0; i < k; i++) {
        if (m[i] < lo) lo = m[i];
        if (m[i] > hi) hi = m[i];
        sum += m[i];
    }
    return sum > 0 && (hi - lo) / (sum / k) <= tol;
}

/* After the first check (sample.cta_adapt): where its mean wave duration and the
** stable window's two agree within the tolerance, the kernel looks the same at
** two places far apart, and the middle checks are dropped; the last is kept, so
** that a drift along the grid is still met at its end. */
static void adapt(struct gpu_sampler *s)
{
    uint32_t k = s->nd - s->check_d0;
    if (!k) return;
    double m[3] = {s->blk[0], s->blk[1], 0};
    for (uint32_t i = s->check_d0; i < s->nd; i++) m[2] += s->d[i];
    m[2] /= k;
    if (!gpu_sample_agree(m, 3, s->tol)) return;
    s->mid_n = gpu_sample_merge(s->prev, s->next, &s->nstretch, s->stretch, (uint64_t)(s->window + SETTLE) * s->wave);
}

/* The whole waves a plan made now would skip: the CTAs still to start but
** the last R = W + (their number mod W), which stay detailed. */
static uint64_t waves_to_skip(const struct gpu_sampler *s, const gpu_launchctx *lx)
{
    uint64_t left = lx->ctas - lx->ctas_started;
    return (left - s->wave - left % s->wave) / s->wave;
}

/* The stable window, the last n2 wave durations, was found at cycle now:
** plans the strata and runs the first stretch. */
static void plan(gpu *g, gpu_launchctx *lx, uint64_t now, double older, double newer, uint32_t n2)
{
    double mean = (older + newer) / 2;
    struct gpu_sampler *s = lx->smp;
    uint64_t waves = waves_to_skip(s, lx);
    uint32_t c;
    s->prev = tp_calloc((size_t)s->checks + 1, sizeof *s->prev);
    s->next = tp_calloc((size_t)s->checks + 1, sizeof *s->next);
    gpu_sample_strata(waves, s->window, s->checks, lx->ctas * 0x100000001b3ull ^ lx->ctas_started, &c, s->prev,
                      s->next);
    for (uint32_t i = 0; i <= c; i++) s->prev[i] *= s->wave, s->next[i] *= s->wave;
    s->nstretch = c + 1;
    s->stable = true;
    s->rate = slope(s, mean / (double)s->wave);
    s->blk[0] = older;
    s->blk[1] = newer;
    add_samples(s, s->nd - n2);
    next_stretch(g, lx, now);
}

void gpu_sample_ctas_done(gpu *g, gpu_launchctx *lx, uint64_t now)
{
    struct gpu_sampler *s = lx->smp;
    if (!s || s->done) return;
    /* every CTA end after `from` (the first wave, or a check's start) is a point
    ** (ctas_done, cycle) of the line whose slope is the cycles per CTA */
    for (uint64_t x = s->seen + 1; x <= lx->ctas_done; x++) {
        if (x <= s->from) continue;
        uint64_t j = (x - s->from - 1) / s->wave;
        while (s->ngrp <= j) {
            if (s->ngrp == s->capgrp) {
                s->capgrp = s->capgrp ? s->capgrp * 2 : 16;
                s->grp = tp_realloc(s->grp, s->capgrp * sizeof *s->grp);
            }
            s->grp[s->ngrp++] = (gpu_sample_group){0, 0, 0};
        }
        s->grp[j].sx += (double)x;
        s->grp[j].sy += (double)now;
        s->grp[j].n++;
    }
    s->seen = lx->ctas_done;
    bool ended = false;
    while (lx->ctas_done >= s->next_mark) {
        if (s->stable || s->nwaves++ > 0) {
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
    if (!ended) return;
    if (s->stable) {
        /* in a check: at its end, its slope prices the stretch before it */
        if (lx->ctas_done < s->check_end) return;
        double before = s->rate;
        s->rate = slope(s, s->rate);
        /* the middle of a merged stretch lies between the two samples: their mean */
        s->proj += (double)(s->pending - s->mid) * s->rate + (double)s->mid * (before + s->rate) / 2;
        s->pending = 0;
        s->mid = 0;
        add_samples(s, s->check_d0);
        if (s->adapt && s->stretch == 1) adapt(s);
        next_stretch(g, lx, now);
        return;
    }
    /* two blocks of window waves: the older and the newer; a wave's end
    ** jitters by a few per cent, a block's mean is (end - start) / window.
    ** Before 2 x window waves have ended (sample.cta_early): two blocks of
    ** h = window / 2 waves, within tol x h / window.  The difference of two
    ** adjacent blocks' means is (e2 - 2 e1 + e0) / k for the ends e of their
    ** bounds: end jitter moves it by window / h times as much as the full
    ** blocks', and a drift of a fraction per wave puts the blocks that much
    ** times k apart: against both, the early test is as strict as the full. */
    uint32_t k = s->window;
    double tol = s->tol;
    if (s->nd < 2 * k) {
        if (!s->early || k < 2 || s->nd < 2 * (k / 2)) return;
        tol = tol * (double)(k / 2) / (double)k;
        k /= 2;
    }
    uint32_t n2 = 2 * k;
    const double *w = s->d + s->nd - n2;
    double older = 0, newer = 0;
    for (uint32_t i = 0; i < k; i++) older += w[i], newer += w[k + i];
    older /= k;
    newer /= k;
    double mean = (older + newer) / 2;
    if (mean <= 0 || fabs(newer - older) / mean > tol) return;
    /* stable: skip whole waves, keep the last R = W + (remaining mod W) CTAs in detail */
    uint64_t left = lx->ctas - lx->ctas_started;
    if (left < s->wave + left % s->wave + s->wave) return; /* less than a wave to skip: go on measuring */
    /* the early test only where a check will follow: a slow start that
    ** outlasts its 2 x h waves is the checks' to meet (conv2d 1024, 45
    ** waves and no check: -2.9% priced at an early window, -1.2% at the full) */
    if (k < s->window && !strata_checks(waves_to_skip(s, lx), s->window, s->checks)) return;
    plan(g, lx, now, older, newer, n2);
}

void gpu_sample_end(gpu *g, gpu_launchctx *lx, gpu_kstats *ks, bool failed)
{
    struct gpu_sampler *s = lx->smp;
    lx->smp = NULL;
    bool sampled = s && s->stable && s->skipped && !failed;
    ks->sample_kind = tp_strdup(sampled ? "cta" : "full");
    ks->sample_functional_ctas = sampled ? s->skipped : 0;
    ks->sample_detailed_ctas = lx->ctas_started - ks->sample_functional_ctas;
    if (sampled) {
        /* a check the kernel's end cut short: its stretch at the rate before it */
        double proj = s->proj + (double)s->pending * s->rate;
        double n = s->nsamp, var = n > 1 ? (s->ssq - s->ssum * s->ssum / n) / (n - 1) : 0;
        double waves = (double)s->skipped / (double)s->wave;
        double half = n > 1 && var > 0 ? waves * gpu_sample_t95(s->nsamp - 1) * sqrt(var / n) : 0;
        uint64_t p = (uint64_t)llround(proj);
        ks->cycles += p;
        g->cycle += p;
        ks->sample_projected_cycles = p;
        ks->sample_ci95_cycles = (uint64_t)llround(half);
        ks->sample_samples = s->nsamp;
    }
    if (s) free(s->d), free(s->prev), free(s->next), free(s->grp);
    free(s);
}

void gpu_sample_advance(gpu *g, uint64_t cycles) { g->cycle += cycles; }
