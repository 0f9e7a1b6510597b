/*
** test_gpu_sample.c -- the arithmetic of sampled timing inside a launch
** (gpu/sample.c, docs/TIMING.md "Sampled timing"): how the CTAs to skip are
** cut into strata with a check in each (gpu_sample_strata), the cycles per
** CTA from CTA ends (gpu_sample_rate), and Student's t of the confidence
** interval.  The sampler's decisions on whole kernels are
** tests/sample/run_sample.sh's.
*/
#include "tests/unit/tt.h"
#include "gpu/internal.h"

#define MAXC 64

/* sums of a plan: every wave to skip is in exactly one stretch or check */
static uint64_t planned(uint32_t c, uint32_t window, const uint64_t *prev, const uint64_t *next)
{
    uint64_t n = (uint64_t)c * (window + 1);
    for (uint32_t i = 0; i <= c; i++) n += prev[i] + next[i];
    return n;
}

/* How many checks fit: each of window + 1 waves (one settling, window
** measured), each stratum (the waves its check prices) at least 15 checks
** long, so that checks cost at most a sixteenth of what is skipped. */
static void t_strata_count(void)
{
    uint64_t prev[MAXC + 1], next[MAXC + 1];
    uint32_t c;
    /* 168 waves, window 4 (checks of 5, strata of 75 or more): 2 checks leave
    ** 158, 79 a stratum; 3 leave 153, 51 */
    gpu_sample_strata(168, 4, 4, 1, &c, prev, next);
    TT_EQ_U(c, 2);
    /* 700 waves: 6 leave 670, 111.7 a stratum */
    gpu_sample_strata(700, 4, 6, 1, &c, prev, next);
    TT_EQ_U(c, 6);
    /* 80 waves: one check leaves exactly 75 */
    gpu_sample_strata(80, 4, 4, 1, &c, prev, next);
    TT_EQ_U(c, 1);
    TT_EQ_U(prev[0] + next[0] + prev[1] + next[1], 75);
    /* 79: none fits; the one stretch is priced by the stable window (prev) */
    gpu_sample_strata(79, 4, 4, 1, &c, prev, next);
    TT_EQ_U(c, 0);
    TT_EQ_U(prev[0], 79);
    TT_EQ_U(next[0], 0);
    /* checks = 0: the first version, everything at once */
    gpu_sample_strata(700, 4, 0, 1, &c, prev, next);
    TT_EQ_U(c, 0);
    TT_EQ_U(prev[0], 700);
    /* window 1 (checks of 2 waves, strata of 30 or more): 700 waves allow 21 */
    gpu_sample_strata(700, 1, 64, 1, &c, prev, next);
    TT_EQ_U(c, 21); /* 21 leave 658, 31.3 a stratum; 22 leave 656, 29.8 */
}

/* Random plans: the waves add up, the first stretch has nothing priced before
** it and the last nothing after, strata differ by at most one wave, and the
** same seed gives the same plan. */
static void t_strata_sums(void)
{
    uint64_t x = 12345;
    int moved = 0;
    for (int it = 0; it < 5000; it++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t waves = (x >> 33) % 3000;
        uint32_t window = 1 + (uint32_t)((x >> 20) % 8), checks = (uint32_t)((x >> 8) % (MAXC + 1));
        uint64_t prev[MAXC + 1], next[MAXC + 1], p2[MAXC + 1], n2[MAXC + 1];
        uint32_t c, c2;
        gpu_sample_strata(waves, window, checks, x, &c, prev, next);
        gpu_sample_strata(waves, window, checks, x, &c2, p2, n2);
        TT_CHECK(c <= checks);
        TT_EQ_U(planned(c, window, prev, next), waves);
        TT_EQ_U(c2, c);
        for (uint32_t i = 0; i <= c; i++) {
            TT_EQ_U(p2[i], prev[i]);
            TT_EQ_U(n2[i], next[i]);
        }
        if (c == 0) continue;
        TT_EQ_U(prev[0], 0);
        TT_EQ_U(next[c], 0);
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint32_t i = 0; i < c; i++) {
            uint64_t q = next[i] + prev[i + 1];
            lo = q < lo ? q : lo;
            hi = q > hi ? q : hi;
            TT_CHECK(q >= 15 * (uint64_t)(window + 1));
        }
        TT_CHECK(hi - lo <= 1);
        /* another seed places the checks elsewhere (at least sometimes) */
        gpu_sample_strata(waves, window, checks, x + 1, &c2, p2, n2);
        for (uint32_t i = 0; i < c; i++) moved += n2[i] != next[i];
    }
    TT_CHECK(moved > 100);
}

static bool near(double a, double b) { return a > b * (1 - 1e-12) && a < b * (1 + 1e-12); }

/* groups of W ends a wave, from the points (rank, cycle) */
static uint32_t group(const double *x, const double *y, uint32_t n, uint32_t w, gpu_sample_group *g)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i / w;
        if (j == k) g[k++] = (gpu_sample_group){0, 0, 0};
        g[j].sx += x[i], g[j].sy += y[i], g[j].n++;
    }
    return k;
}

/* The rate from CTA ends.  Ends in clusters (a wave of W CTAs ending in one
** cycle, H cycles apart): W CTAs per H cycles exactly, where a least-squares
** line through the same staircase of 4 steps gives 15/16 of it (computed
** here, the reason the sampler does not use one).  Ends spread evenly, with
** or without jitter that cancels in pairs: the rate exactly. */
static void t_rate(void)
{
    enum { W = 30, K = 4, N = W * K };
    double x[N + 7], y[N + 7], H = 245000;
    gpu_sample_group g[K + 2];
    for (uint32_t i = 0; i < N; i++) x[i] = 1000 + i, y[i] = 5e6 + H * (i / W);
    uint32_t k = group(x, y, N, W, g);
    TT_EQ_U(k, K);
    TT_CHECK(near(gpu_sample_rate(g, k, -1), H / W));
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (uint32_t i = 0; i < N; i++) mx += x[i] / N, my += y[i] / N;
    for (uint32_t i = 0; i < N; i++) sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (y[i] - my);
    double ls = sxy / sxx, want = H / W * (K * K - 1) * W * W / ((double)K * K * W * W - 1);
    TT_CHECK(ls < 0.94 * H / W && ls > 0.93 * H / W);
    TT_CHECK(ls > want * (1 - 1e-9) && ls < want * (1 + 1e-9)); /* (K^2 - 1) / (K^2 - 1 / W^2) of it */
    /* evenly spread, 8166.5 cycles a CTA, jitter +-100 alternating within each group */
    for (uint32_t i = 0; i < N; i++) y[i] = 8166.5 * i + (i % 2 ? 100 : -100);
    k = group(x, y, N, W, g);
    TT_CHECK(near(gpu_sample_rate(g, k, -1), 8166.5));
    /* a partial last group (ends past the last wave mark) joins the second half */
    for (uint32_t i = 0; i < N + 7; i++) x[i] = i, y[i] = 20.0 * i;
    k = group(x, y, N + 7, W, g);
    TT_EQ_U(k, K + 1);
    TT_CHECK(near(gpu_sample_rate(g, k, -1), 20.0));
    /* one group, or ranks that do not advance: the fallback */
    TT_CHECK(gpu_sample_rate(g, 1, -1) == -1);
    g[1] = g[0];
    TT_CHECK(gpu_sample_rate(g, 2, -1) == -1);
}

/* Dropping the middle checks (sample.cta_adapt): a plan of 4 checks (5
** stretches) of which stretch 0 and check 0 have run; stretches 1-3 and checks
** 1-2 become one stretch that ends at check 3, then the last stretch.  Worked by
** hand: checks of 5 waves; next = {10, 20, 30, 40, 0}, prev = {0, 70, 60, 50,
** 40}.  The middle is next[1] + 5 + prev[2] + next[2] + 5 + prev[3] = 20 + 5 + 60
** + 30 + 5 + 50 = 170; the merged stretch keeps prev[1] = 70 (priced at check 0)
** and ends with next[3] = 40 (priced at check 3).  Nothing is lost: the plan
** still covers every wave, with 2 checks instead of 4. */
static void t_merge(void)
{
    uint64_t prev[5] = {0, 70, 60, 50, 40}, next[5] = {10, 20, 30, 40, 0};
    uint32_t n = 5;
    uint64_t before = planned(n - 1, 4, prev, next);
    TT_EQ_U(gpu_sample_merge(prev, next, &n, 1, 5), 170);
    TT_EQ_U(n, 3);
    TT_EQ_U(prev[1], 70);
    TT_EQ_U(next[1], 170 + 40);
    TT_EQ_U(prev[2], 40);
    TT_EQ_U(next[2], 0);
    TT_EQ_U(planned(n - 1, 4, prev, next), before);
    /* 2 checks, or 3 with one run: no check in the middle, nothing changes */
    uint64_t p2[3] = {0, 8, 9}, n2[3] = {3, 4, 0};
    n = 3;
    TT_EQ_U(gpu_sample_merge(p2, n2, &n, 1, 5), 0);
    TT_EQ_U(n, 3);
    TT_EQ_U(n2[1], 4);
    uint64_t p3[4] = {0, 8, 9, 7}, n3[4] = {3, 4, 5, 0};
    n = 4;
    TT_EQ_U(gpu_sample_merge(p3, n3, &n, 2, 5), 0);
    TT_EQ_U(n, 4);
    /* 3 checks, one run: check 1 is dropped, 4 + 5 + 9 in the middle */
    TT_EQ_U(gpu_sample_merge(p3, n3, &n, 1, 5), 18);
    TT_EQ_U(n, 3);
    TT_EQ_U(n3[1], 18 + 5);
    TT_EQ_U(p3[2], 7);
    /* random plans: the merged plan covers the same waves */
    uint64_t x = 99;
    for (int it = 0; it < 2000; it++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t pv[MAXC + 1], nx[MAXC + 1];
        uint32_t c, window = 1 + (uint32_t)((x >> 20) % 8);
        gpu_sample_strata((x >> 33) % 5000, window, (uint32_t)((x >> 8) % (MAXC + 1)), x, &c, pv, nx);
        uint64_t all = planned(c, window, pv, nx);
        uint32_t m = c + 1, a = 1 + (uint32_t)((x >> 40) % 3);
        uint64_t mid = gpu_sample_merge(pv, nx, &m, a, window + 1);
        if (c >= a + 2) {
            TT_EQ_U(m, a + 2);
            TT_CHECK(mid > 0);
        } else {
            TT_EQ_U(m, c + 1);
            TT_EQ_U(mid, 0);
        }
        TT_EQ_U(planned(m - 1, window, pv, nx), all);
    }
}

/* Block means agree when (largest - smallest) / mean <= tol: 100, 101, 102
** spread 2 over a mean of 101 (1.98%) */
static void t_agree(void)
{
    double m[3] = {100, 101, 102};
    TT_CHECK(gpu_sample_agree(m, 3, 0.02));
    TT_CHECK(!gpu_sample_agree(m, 3, 0.0197));
    m[2] = 98;
    TT_CHECK(!gpu_sample_agree(m, 3, 0.02)); /* 3 / 99.67 */
    TT_CHECK(gpu_sample_agree(m, 2, 0.01));
    double z[2] = {0, 0};
    TT_CHECK(!gpu_sample_agree(z, 2, 0.5)); /* no durations: never */
}

static void t_t95(void)
{
    TT_CHECK(gpu_sample_t95(0) == 0);
    TT_CHECK(gpu_sample_t95(1) == 12.706);
    TT_CHECK(gpu_sample_t95(7) == 2.365);
    TT_CHECK(gpu_sample_t95(30) == 2.042);
    TT_CHECK(gpu_sample_t95(31) == 1.96);
}

int main(void)
{
    TT_RUN(t_strata_count);
    TT_RUN(t_strata_sums);
    TT_RUN(t_rate);
    TT_RUN(t_merge);
    TT_RUN(t_agree);
    TT_RUN(t_t95);
    return tt_done();
}
