/*
** rmbench.c -- the host side of the RegMutex experiments: a plain C11 CUDA
** driver-API program (it runs unchanged on a GPU) that loads one benchmark's
** committed PTX (experiments/regmutex/kernels/NAME.ptx), makes its inputs
** deterministically (a fixed linear congruential generator), launches its
** kernels as the original application does, and checks every output against
** a CPU reference.
**
**   rmbench [--ptx DIR] [--small] [--list] NAME...
**
** One line per benchmark: "PASS NAME" or "FAIL NAME: why"; exit status 0
** when every one passed.  --small runs inputs a few times smaller (the test
** suite's size); the default sizes are the experiments' (docs/EXPERIMENTS.md).
** Module prefix: rb_; the driver calls, buffers, argument parsing and
** checking are tests/harness's (th_).
**
** Checks: integer results exactly; floating-point ones against a reference
** in double within a relative tolerance stated per benchmark (the kernels
** use the fast approximate functions the original codes use -- __expf,
** rsqrtf, __sinf -- whose error dominates), or, where the device and host
** roundings may put a value on either side of a boundary (tpacf's bins), a
** count within a stated slack.
*/
#include "harness.h"
#include "../common/hotspot_ref.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------------- */

/* The inputs' generator, seeded anew for each benchmark (run_one). */
static uint64_t rb_seed;
static uint32_t rb_rand(void)
{
    rb_seed = rb_seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rb_seed >> 33);
}
static float rb_unit(void) { return (float)(rb_rand() & 0xffffff) / 16777216.0f; } /* [0, 1) */

/* got[i] against ref[i] within rel * (|ref| + floor) */
static int rb_check(th_ctx *c, const char *what, const float *got, const double *ref, size_t n, double rel,
                    double floor)
{
    th_tol t = {NULL, rel, floor, 0};
    return th_check_f32(c, what, got, ref, n, &t);
}

/* ---- bfs ---------------------------------------------------------------------- */

static int b_bfs(th_ctx *c)
{
    int n = c->small ? 8192 : 131072;
    int *starts = th_host(c, n * sizeof(int)), *deg = th_host(c, n * sizeof(int));
    int ne = 0;
    for (int i = 0; i < n; i++) {
        starts[i] = ne;
        deg[i] = 1 + (int)(rb_rand() % 6);
        ne += deg[i];
    }
    int *edges = th_host(c, ne * sizeof(int));
    for (int i = 0; i < ne; i++) edges[i] = (int)(rb_rand() % (uint32_t)n);
    unsigned char *mask = th_host(c, n), *vis = th_host(c, n);
    int *cost = th_host(c, n * sizeof(int));
    for (int i = 0; i < n; i++) cost[i] = -1;
    mask[0] = vis[0] = 1;
    cost[0] = 0;
    CUdeviceptr dst, ddeg, ded, dmask, dupd, dvis, dcost, dover;
    TH_TRY(th_upload(c, starts, n * 4, &dst));
    TH_TRY(th_upload(c, deg, n * 4, &ddeg));
    TH_TRY(th_upload(c, edges, ne * 4, &ded));
    TH_TRY(th_upload(c, mask, n, &dmask));
    TH_TRY(th_upload(c, NULL, n, &dupd));
    TH_TRY(th_upload(c, vis, n, &dvis));
    TH_TRY(th_upload(c, cost, n * 4, &dcost));
    TH_TRY(th_upload(c, NULL, 4, &dover));
    CUfunction fe, fu;
    TH_TRY(th_func(c, c->mod, "bfs_expand", &fe));
    TH_TRY(th_func(c, c->mod, "bfs_update", &fu));
    unsigned grid = th_cdiv((unsigned)n, 512 * 4);
    for (int level = 0; level < 64; level++) {
        int zero = 0, over;
        TH_CU(c, cuMemcpyHtoD(dover, &zero, 4));
        void *a1[] = {&dst, &ddeg, &ded, &dmask, &dupd, &dvis, &dcost, &n};
        TH_TRY(th_launch(c, fe, grid, 1, 1, 512, 1, 1, 0, a1));
        void *a2[] = {&dmask, &dupd, &dvis, &dover, &n};
        TH_TRY(th_launch(c, fu, grid, 1, 1, 512, 1, 1, 0, a2));
        TH_TRY(th_download(c, &over, dover, 4));
        if (!over) break;
    }
    /* reference: the same level-synchronous BFS */
    int *ref = th_host(c, n * sizeof(int)), *q = th_host(c, n * sizeof(int)), qh = 0, qt = 0;
    for (int i = 0; i < n; i++) ref[i] = -1;
    ref[0] = 0;
    q[qt++] = 0;
    while (qh < qt) {
        int u = q[qh++];
        for (int k = starts[u]; k < starts[u] + deg[u]; k++)
            if (ref[edges[k]] < 0) {
                ref[edges[k]] = ref[u] + 1;
                q[qt++] = edges[k];
            }
    }
    TH_TRY(th_download(c, cost, dcost, n * 4));
    return th_check_u32(c, "cost", (uint32_t *)cost, (uint32_t *)ref, n);
}

/* ---- cp ------------------------------------------------------------------------- */

static int b_cp(th_ctx *c)
{
    int natoms = c->small ? 24 : 64, width = 2048, rows = c->small ? 16 : 192;
    float spacing = 0.1f;
    float *atoms = th_host(c, natoms * 16);
    for (int a = 0; a < natoms; a++) {
        float z = 0.5f + 4.0f * rb_unit();
        atoms[4 * a] = 204.8f * rb_unit();
        atoms[4 * a + 1] = spacing * rows * rb_unit();
        atoms[4 * a + 2] = z * z;
        atoms[4 * a + 3] = rb_unit() - 0.5f;
    }
    CUdeviceptr cst, dgrid;
    size_t cb;
    TH_CU(c, cuModuleGetGlobal(&cst, &cb, c->mod, "cp_atoms"));
    TH_CU(c, cuMemcpyHtoD(cst, atoms, natoms * 16));
    TH_TRY(th_upload(c, NULL, (size_t)width * rows * 4, &dgrid));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "cp_kernel", &f));
    void *args[] = {&natoms, &spacing, &dgrid, &width};
    TH_TRY(th_launch(c, f, width / (128 * 8), rows, 1, 128, 1, 1, 0, args));
    float *got = th_host(c, (size_t)width * rows * 4);
    double *ref = th_host(c, (size_t)width * rows * 8);
    TH_TRY(th_download(c, got, dgrid, (size_t)width * rows * 4));
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < width; x++) {
            double e = 0;
            for (int a = 0; a < natoms; a++) {
                double dx = spacing * x - atoms[4 * a], dy = spacing * y - atoms[4 * a + 1];
                e += atoms[4 * a + 3] / sqrt(dx * dx + dy * dy + atoms[4 * a + 2]);
            }
            ref[y * width + x] = e;
        }
    return rb_check(c, "potential", got, ref, (size_t)width * rows, 1e-3, 1.0);
}

/* ---- cutcp ------------------------------------------------------------------------ */

static int b_cutcp(th_ctx *c)
{
    int nbx = c->small ? 3 : 6, nbins = nbx * nbx * nbx, gx = nbx * 8;
    float h = 0.5f, c2 = 4.0f * 4.0f * h * h;
    float *bins = th_host(c, (size_t)nbins * 8 * 16);
    for (int b = 0; b < nbins; b++) {
        int bx = b % nbx, by = (b / nbx) % nbx, bz = b / (nbx * nbx);
        for (int a = 0; a < 8; a++) {
            float *at = bins + ((size_t)b * 8 + a) * 4;
            at[0] = (bx + rb_unit()) * 8 * h;
            at[1] = (by + rb_unit()) * 8 * h;
            at[2] = (bz + rb_unit()) * 8 * h;
            at[3] = a < 6 ? rb_unit() - 0.5f : 0.0f; /* two padding slots per bin */
        }
    }
    size_t npts = (size_t)gx * gx * gx * 8;
    CUdeviceptr dbins, dgrid;
    TH_TRY(th_upload(c, bins, (size_t)nbins * 8 * 16, &dbins));
    TH_TRY(th_upload(c, NULL, npts * 4, &dgrid));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "cutcp_kernel", &f));
    void *args[] = {&dbins, &nbx, &h, &c2, &dgrid};
    TH_TRY(th_launch(c, f, (unsigned)nbins, 1, 1, 128, 1, 1, 0, args));
    float *got = th_host(c, npts * 4);
    double *ref = th_host(c, npts * 8);
    TH_TRY(th_download(c, got, dgrid, npts * 4));
    /* only the points threads write are compared (the grid is sparse) */
    size_t m = 0;
    float *g2 = th_host(c, npts * 4);
    for (int b = 0; b < nbins; b++)
        for (int t = 0; t < 128; t++) {
            int bx = b % nbx, by = (b / nbx) % nbx, bz = b / (nbx * nbx);
            int tx = t & 7, ty = (t >> 3) & 3, tz = t >> 5;
            int x = bx * 8 + tx, y = by * 8 + ty * 2, z = bz * 8 + tz * 2;
            double px = x * (double)h, py = y * (double)h;
            for (int k = 0; k < 8; k++) {
                double pz = (bz * 8 + tz * 2) * (double)h + k * 0.25 * h, e = 0;
                for (int nb = 0; nb < 27; nb++) {
                    int ox = bx + nb % 3 - 1, oy = by + (nb / 3) % 3 - 1, oz = bz + nb / 9 - 1;
                    if (ox < 0 || oy < 0 || oz < 0 || ox >= nbx || oy >= nbx || oz >= nbx) continue;
                    for (int a = 0; a < 8; a++) {
                        const float *at = bins + (((size_t)(oz * nbx + oy) * nbx + ox) * 8 + a) * 4;
                        double dx = px - at[0], dy = py - at[1], dz = pz - at[2], r2 = dx * dx + dy * dy + dz * dz;
                        if (r2 < c2) {
                            double s = 1 - r2 / c2;
                            e += at[3] / sqrt(r2) * s * s;
                        }
                    }
                }
                size_t idx = (((size_t)z * gx + y) * gx + x) * 8 + k;
                ref[m] = e;
                g2[m++] = got[idx];
            }
        }
    return rb_check(c, "potential", g2, ref, m, 2e-3, 1.0);
}

/* ---- dwt2d ------------------------------------------------------------------------ */

static void dwt_ref_line(double *s)
{
    const double a1 = -1.586134342, a2 = -0.05298011854, a3 = 0.8829110762, a4 = 0.4435068522, k = 1.149604398;
    int n = 16;
    for (int i = 1; i < n; i += 2) s[i] += a1 * (s[i - 1] + s[i + 1 < n ? i + 1 : i - 1]);
    for (int i = 0; i < n; i += 2) s[i] += a2 * (s[i > 0 ? i - 1 : i + 1] + s[i + 1]);
    for (int i = 1; i < n; i += 2) s[i] += a3 * (s[i - 1] + s[i + 1 < n ? i + 1 : i - 1]);
    for (int i = 0; i < n; i += 2) s[i] += a4 * (s[i > 0 ? i - 1 : i + 1] + s[i + 1]);
    for (int i = 0; i < n; i++) s[i] *= (i & 1) ? 1.0 / k : k;
}

static int b_dwt2d(th_ctx *c)
{
    int w = c->small ? 256 : 2048, h = c->small ? 128 : 1024;
    size_t n = (size_t)w * h;
    float *img = th_host(c, n * 4);
    for (size_t i = 0; i < n; i++) img[i] = (float)(rb_rand() % 256);
    CUdeviceptr din, dtmp, dout;
    TH_TRY(th_upload(c, img, n * 4, &din));
    TH_TRY(th_upload(c, NULL, n * 4, &dtmp));
    TH_TRY(th_upload(c, NULL, n * 4, &dout));
    CUfunction fc, fr;
    TH_TRY(th_func(c, c->mod, "dwt_cols", &fc));
    TH_TRY(th_func(c, c->mod, "dwt_rows", &fr));
    void *a1[] = {&din, &dtmp, &w};
    TH_TRY(th_launch(c, fc, w / 128, h / 16, 1, 128, 1, 1, 0, a1));
    void *a2[] = {&dtmp, &dout, &w};
    TH_TRY(th_launch(c, fr, h / 128, w / 16, 1, 128, 1, 1, 0, a2));
    double *t = th_host(c, n * 8), *ref = th_host(c, n * 8), s[16];
    for (int x = 0; x < w; x++)
        for (int y0 = 0; y0 < h; y0 += 16) {
            for (int i = 0; i < 16; i++) s[i] = img[(size_t)(y0 + i) * w + x];
            dwt_ref_line(s);
            for (int i = 0; i < 16; i++) t[(size_t)(y0 + (i & 1) * 8 + i / 2) * w + x] = s[i];
        }
    for (int y = 0; y < h; y++)
        for (int x0 = 0; x0 < w; x0 += 16) {
            for (int i = 0; i < 16; i++) s[i] = t[(size_t)y * w + x0 + i];
            dwt_ref_line(s);
            for (int i = 0; i < 16; i++) ref[(size_t)y * w + x0 + (i & 1) * 8 + i / 2] = s[i];
        }
    float *got = th_host(c, n * 4);
    TH_TRY(th_download(c, got, dout, n * 4));
    return rb_check(c, "coefficient", got, ref, n, 1e-4, 16.0);
}

/* ---- hotspot ------------------------------------------------------------------------ */

static int b_hotspot(th_ctx *c)
{
    int n = c->small ? 96 : 512, iters = 2, launches = 2;
    float Cap = 0.5f, Rx = 1.0f, Ry = 1.0f, Rz = 2.0f, step = 0.01f;
    size_t sz = (size_t)n * n;
    float *temp = th_host(c, sz * 4), *power = th_host(c, sz * 4);
    for (size_t i = 0; i < sz; i++) {
        temp[i] = 320.0f + 20.0f * rb_unit();
        power[i] = rb_unit();
    }
    CUdeviceptr dp, dt0, dt1;
    TH_TRY(th_upload(c, power, sz * 4, &dp));
    TH_TRY(th_upload(c, temp, sz * 4, &dt0));
    TH_TRY(th_upload(c, temp, sz * 4, &dt1));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "hotspot_kernel", &f));
    int small_block = 16 - iters * 2, blocks = th_cdiv((unsigned)n, (unsigned)small_block);
    int border = iters;
    CUdeviceptr src = dt0, dst = dt1;
    for (int l = 0; l < launches; l++) {
        void *args[] = {&iters, &dp, &src, &dst, &n, &n, &border, &border, &Cap, &Rx, &Ry, &Rz, &step};
        TH_TRY(th_launch(c, f, (unsigned)blocks, (unsigned)blocks, 1, 16, 16, 1, 0, args));
        CUdeviceptr t = src;
        src = dst;
        dst = t;
    }
    /* reference: the plain stencil, neighbours clamped at the borders (experiments/common) */
    const double *ref = hotspot_ref(temp, power, n, iters * launches, Cap, Rx, Ry, Rz, step, th_host(c, sz * 8),
                                    th_host(c, sz * 8));
    float *got = th_host(c, sz * 4);
    TH_TRY(th_download(c, got, src, sz * 4));
    return rb_check(c, "temperature", got, ref, sz, 1e-5, 0.0);
}

/* ---- md ---------------------------------------------------------------------------- */

static int b_md(th_ctx *c)
{
    int n = c->small ? 4096 : 65536;
    float cutsq = 16.0f, lj1 = 1.5f, lj2 = 2.0f;
    float *pos = th_host(c, (size_t)n * 16);
    for (int i = 0; i < n; i++) {
        pos[4 * i] = 40.0f * rb_unit();
        pos[4 * i + 1] = 40.0f * rb_unit();
        pos[4 * i + 2] = 40.0f * rb_unit();
    }
    int *nl = th_host(c, (size_t)n * 32 * 4);
    for (int j = 0; j < 32; j++)
        for (int i = 0; i < n; i++) {
            int k = (i + 1 + (int)(rb_rand() % 64)) % n;
            nl[(size_t)j * n + i] = k;
            /* about half the neighbours within the cutoff */
            if (j & 1) {
                pos[4 * k] = pos[4 * i] + 2.0f * rb_unit() + 0.5f;
            }
        }
    CUdeviceptr df, dpos, dnl;
    TH_TRY(th_upload(c, NULL, (size_t)n * 16, &df));
    TH_TRY(th_upload(c, pos, (size_t)n * 16, &dpos));
    TH_TRY(th_upload(c, nl, (size_t)n * 32 * 4, &dnl));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "md_kernel", &f));
    void *args[] = {&df, &dpos, &n, &dnl, &cutsq, &lj1, &lj2};
    TH_TRY(th_launch(c, f, th_cdiv((unsigned)n, 256), 1, 1, 256, 1, 1, 0, args));
    float *got = th_host(c, (size_t)n * 16), *g3 = th_host(c, (size_t)n * 12);
    double *ref = th_host(c, (size_t)n * 24);
    TH_TRY(th_download(c, got, df, (size_t)n * 16));
    for (int i = 0; i < n; i++) {
        double f3[3] = {0, 0, 0};
        for (int j = 0; j < 32; j++) {
            int k = nl[(size_t)j * n + i];
            double d[3] = {pos[4 * i] - pos[4 * k], pos[4 * i + 1] - pos[4 * k + 1], pos[4 * i + 2] - pos[4 * k + 2]};
            double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (r2 < cutsq) {
                double r2i = 1 / r2, r6 = r2i * r2i * r2i, fm = r2i * r6 * (lj1 * r6 - lj2);
                for (int q = 0; q < 3; q++) f3[q] += d[q] * fm;
            }
        }
        for (int q = 0; q < 3; q++) {
            ref[3 * i + q] = f3[q];
            g3[3 * i + q] = got[4 * i + q];
        }
    }
    return rb_check(c, "force", g3, ref, (size_t)n * 3, 1e-3, 1.0);
}

/* ---- mri-q ------------------------------------------------------------------------ */

static int b_mriq(th_ctx *c)
{
    int numK = c->small ? 64 : 256, numX = c->small ? 8192 : 65536;
    float *k = th_host(c, (size_t)numK * 16), *x = th_host(c, numX * 4), *y = th_host(c, numX * 4),
          *z = th_host(c, numX * 4);
    for (int i = 0; i < numK; i++) {
        k[4 * i] = 0.5f * rb_unit() - 0.25f;
        k[4 * i + 1] = 0.5f * rb_unit() - 0.25f;
        k[4 * i + 2] = 0.5f * rb_unit() - 0.25f;
        k[4 * i + 3] = rb_unit();
    }
    for (int i = 0; i < numX; i++) {
        x[i] = rb_unit() - 0.5f;
        y[i] = rb_unit() - 0.5f;
        z[i] = rb_unit() - 0.5f;
    }
    CUdeviceptr ck, dx, dy, dz, dqr, dqi;
    size_t cb;
    TH_CU(c, cuModuleGetGlobal(&ck, &cb, c->mod, "ck"));
    TH_CU(c, cuMemcpyHtoD(ck, k, (size_t)numK * 16));
    TH_TRY(th_upload(c, x, numX * 4, &dx));
    TH_TRY(th_upload(c, y, numX * 4, &dy));
    TH_TRY(th_upload(c, z, numX * 4, &dz));
    TH_TRY(th_upload(c, NULL, numX * 4, &dqr));
    TH_TRY(th_upload(c, NULL, numX * 4, &dqi));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "mriq_kernel", &f));
    int kbase = 0;
    void *args[] = {&numK, &kbase, &dx, &dy, &dz, &dqr, &dqi};
    TH_TRY(th_launch(c, f, (unsigned)numX / (256 * 2), 1, 1, 256, 1, 1, 0, args));
    float *qr = th_host(c, numX * 4), *qi = th_host(c, numX * 4);
    double *rr = th_host(c, numX * 8), *ri = th_host(c, numX * 8);
    TH_TRY(th_download(c, qr, dqr, numX * 4));
    TH_TRY(th_download(c, qi, dqi, numX * 4));
    for (int i = 0; i < numX; i++) {
        double a = 0, b = 0;
        for (int j = 0; j < numK; j++) {
            double arg = 6.2831853071795864769 * (k[4 * j] * (double)x[i] + k[4 * j + 1] * (double)y[i] + k[4 * j + 2] * (double)z[i]);
            a += k[4 * j + 3] * cos(arg);
            b += k[4 * j + 3] * sin(arg);
        }
        rr[i] = a;
        ri[i] = b;
    }
    TH_TRY(rb_check(c, "Qr", qr, rr, numX, 1e-3, 1.0));
    return rb_check(c, "Qi", qi, ri, numX, 1e-3, 1.0);
}

/* ---- radix sort (the block stage) ------------------------------------------------ */

static int b_radixsort(th_ctx *c)
{
    int blocks = c->small ? 16 : 1024, n = blocks * 1024, startbit = 0, nbits = 4;
    uint32_t *keys = th_host(c, n * 4), *ref = th_host(c, n * 4), *got = th_host(c, n * 4);
    for (int i = 0; i < n; i++) keys[i] = rb_rand();
    CUdeviceptr dk;
    TH_TRY(th_upload(c, keys, n * 4, &dk));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "radix_local", &f));
    void *args[] = {&dk, &startbit, &nbits};
    TH_TRY(th_launch(c, f, (unsigned)blocks, 1, 1, 256, 1, 1, 0, args));
    TH_TRY(th_download(c, got, dk, n * 4));
    /* reference: a stable counting sort of each block by the low nbits */
    for (int b = 0; b < blocks; b++) {
        int pos = 0;
        for (uint32_t d = 0; d < (1u << nbits); d++)
            for (int i = 0; i < 1024; i++)
                if ((keys[b * 1024 + i] & ((1u << nbits) - 1)) == d) ref[b * 1024 + pos++] = keys[b * 1024 + i];
    }
    return th_check_u32(c, "keys", got, ref, n);
}

/* ---- particle filter (the likelihood stage) ----------------------------------------- */

static int b_particlefilter(th_ctx *c)
{
    int n = c->small ? 8192 : 131072, rows = 128, cols = 128;
    int objxy[74], k = 0;
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++)
            if (dx * dx + dy * dy <= 10 && k < 37) objxy[2 * k] = dy, objxy[2 * k + 1] = dx, k++;
    float *ax = th_host(c, n * 4), *ay = th_host(c, n * 4), *dxr = th_host(c, n * 4), *dyr = th_host(c, n * 4),
          *w = th_host(c, n * 4);
    unsigned char *frame = th_host(c, (size_t)rows * cols);
    for (int i = 0; i < rows * cols; i++) frame[i] = (unsigned char)(rb_rand() % 256);
    for (int i = 0; i < n; i++) {
        ax[i] = 64.0f + 10.0f * rb_unit();
        ay[i] = 64.0f + 10.0f * rb_unit();
        dxr[i] = rb_unit() - 0.5f;
        dyr[i] = rb_unit() - 0.5f;
        w[i] = 1.0f / n;
    }
    CUdeviceptr dax, day, ddx, ddy, dobj, dfr, dl, dw;
    TH_TRY(th_upload(c, ax, n * 4, &dax));
    TH_TRY(th_upload(c, ay, n * 4, &day));
    TH_TRY(th_upload(c, dxr, n * 4, &ddx));
    TH_TRY(th_upload(c, dyr, n * 4, &ddy));
    TH_TRY(th_upload(c, objxy, sizeof objxy, &dobj));
    TH_TRY(th_upload(c, frame, (size_t)rows * cols, &dfr));
    TH_TRY(th_upload(c, NULL, n * 4, &dl));
    TH_TRY(th_upload(c, w, n * 4, &dw));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "pf_likelihood", &f));
    void *args[] = {&dax, &day, &ddx, &ddy, &dobj, &dfr, &rows, &cols, &dl, &dw, &n};
    TH_TRY(th_launch(c, f, th_cdiv((unsigned)n, 256), 1, 1, 256, 1, 1, 0, args));
    float *gl = th_host(c, n * 4);
    double *rl = th_host(c, n * 8);
    TH_TRY(th_download(c, gl, dl, n * 4));
    for (int i = 0; i < n; i++) {
        float x = ax[i] + 1.0f + 5.0f * dxr[i], y = ay[i] - 2.0f + 2.0f * dyr[i];
        int xr = (int)lrintf(x), yr = (int)lrintf(y);
        double s = 0;
        for (int j = 0; j < 37; j++) {
            int ix = xr + objxy[2 * j + 1], iy = yr + objxy[2 * j];
            ix = ix < 0 ? 0 : ix >= cols ? cols - 1 : ix;
            iy = iy < 0 ? 0 : iy >= rows ? rows - 1 : iy;
            double v = frame[iy * cols + ix];
            s += ((v - 100) * (v - 100) - (v - 228) * (v - 228)) / 50;
        }
        rl[i] = s / 37;
    }
    return rb_check(c, "likelihood", gl, rl, n, 1e-4, 10.0);
}

/* ---- sad --------------------------------------------------------------------------- */

static int b_sad(th_ctx *c)
{
    int w = c->small ? 128 : 512, h = c->small ? 64 : 256, nblk = (w / 4) * (h / 4);
    uint16_t *cur = th_host(c, (size_t)w * h * 2), *ref = th_host(c, (size_t)w * h * 2);
    for (int i = 0; i < w * h; i++) {
        cur[i] = (uint16_t)(rb_rand() % 256);
        ref[i] = (uint16_t)(rb_rand() % 256);
    }
    CUdeviceptr dc, dr, ds;
    TH_TRY(th_upload(c, cur, (size_t)w * h * 2, &dc));
    TH_TRY(th_upload(c, ref, (size_t)w * h * 2, &dr));
    TH_TRY(th_upload(c, NULL, (size_t)nblk * 81 * 2, &ds));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "sad_kernel", &f));
    void *args[] = {&dc, &dr, &w, &h, &ds};
    TH_TRY(th_launch(c, f, (unsigned)nblk / 4, 1, 1, 128, 1, 1, 0, args));
    uint16_t *got = th_host(c, (size_t)nblk * 81 * 2);
    TH_TRY(th_download(c, got, ds, (size_t)nblk * 81 * 2));
    for (int b = 0; b < nblk; b++) {
        int bx = (b % (w / 4)) * 4, by = (b / (w / 4)) * 4;
        for (int dy = -4; dy <= 4; dy++)
            for (int dx = -4; dx <= 4; dx++) {
                unsigned s = 0;
                for (int i = 0; i < 16; i++) {
                    int yy = by + i / 4 + dy, xx = bx + i % 4 + dx;
                    yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
                    xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
                    s += (unsigned)abs((int)cur[(by + i / 4) * w + bx + i % 4] - (int)ref[yy * w + xx]);
                }
                uint16_t g = got[(size_t)b * 81 + (dy + 4) * 9 + dx + 4];
                if (g != (uint16_t)s)
                    return th_fail(c, "sad of block %d at (%d,%d) = %u, expected %u", b, dx, dy, g, s);
            }
    }
    return 0;
}

/* ---- gaussian ---------------------------------------------------------------------- */

static int b_gaussian(th_ctx *c)
{
    int n = c->small ? 48 : 576; /* fan2: 18 x 18 CTAs, 4.3 waves at 5 per SM (issue 21: four or more) */
    size_t nn = (size_t)n * n;
    float *a = th_host(c, nn * 4), *bv = th_host(c, n * 4);
    for (size_t i = 0; i < nn; i++) a[i] = rb_unit() - 0.5f;
    for (int i = 0; i < n; i++) {
        a[(size_t)i * n + i] += (float)n; /* diagonally dominant: no pivoting needed */
        bv[i] = rb_unit();
    }
    CUdeviceptr dm, da, db;
    TH_TRY(th_upload(c, NULL, nn * 4, &dm));
    TH_TRY(th_upload(c, a, nn * 4, &da));
    TH_TRY(th_upload(c, bv, n * 4, &db));
    CUfunction f1, f2;
    TH_TRY(th_func(c, c->mod, "fan1", &f1));
    TH_TRY(th_func(c, c->mod, "fan2", &f2));
    for (int t = 0; t < n - 1; t++) {
        void *a1[] = {&dm, &da, &n, &t};
        TH_TRY(th_launch(c, f1, th_cdiv((unsigned)n, 256), 1, 1, 256, 1, 1, 0, a1));
        void *a2[] = {&dm, &da, &db, &n, &t};
        unsigned g = th_cdiv((unsigned)n, 16 * 2);
        TH_TRY(th_launch(c, f2, g, g, 1, 16, 16, 1, 0, a2));
    }
    /* reference: the same elimination in double, then the upper triangle and b compared */
    double *ra = th_host(c, nn * 8), *rbv = th_host(c, n * 8);
    for (size_t i = 0; i < nn; i++) ra[i] = a[i];
    for (int i = 0; i < n; i++) rbv[i] = bv[i];
    for (int t = 0; t < n - 1; t++)
        for (int i = t + 1; i < n; i++) {
            double m = ra[(size_t)i * n + t] / ra[(size_t)t * n + t];
            for (int j = t; j < n; j++) ra[(size_t)i * n + j] -= m * ra[(size_t)t * n + j];
            rbv[i] -= m * rbv[t];
        }
    float *ga = th_host(c, nn * 4), *gb = th_host(c, n * 4);
    TH_TRY(th_download(c, ga, da, nn * 4));
    TH_TRY(th_download(c, gb, db, n * 4));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) ra[(size_t)i * n + j] = ga[(size_t)i * n + j]; /* below the diagonal: not compared */
    TH_TRY(rb_check(c, "a", ga, ra, nn, 1e-4, 1.0));
    return rb_check(c, "b", gb, rbv, n, 1e-4, 1.0);
}

/* ---- heart wall (the tracking step) ----------------------------------------------- */

static int b_heartwall(th_ctx *c)
{
    int np = c->small ? 30 : 480, fw = 512;
    float *frame = th_host(c, (size_t)fw * fw * 4);
    /* a smooth random image: sums of a few waves plus noise */
    for (int y = 0; y < fw; y++)
        for (int x = 0; x < fw; x++)
            frame[(size_t)y * fw + x] = (float)(sin(x * 0.21) * cos(y * 0.17) + 0.5 * sin((x + 2 * y) * 0.05)) + 0.3f * rb_unit();
    int *px = th_host(c, np * 4), *py = th_host(c, np * 4), *want = th_host(c, np * 4);
    float *tmpl = th_host(c, (size_t)np * 81 * 4);
    for (int p = 0; p < np; p++) {
        px[p] = 32 + (int)(rb_rand() % (uint32_t)(fw - 64));
        py[p] = 32 + (int)(rb_rand() % (uint32_t)(fw - 64));
        int ox = (int)(rb_rand() % 16), oy = (int)(rb_rand() % 16); /* where the template really is */
        want[p] = oy * 16 + ox;
        for (int r = 0; r < 9; r++)
            for (int q = 0; q < 9; q++)
                tmpl[(size_t)p * 81 + r * 9 + q] = frame[(size_t)(py[p] - 8 + oy + r) * fw + px[p] - 8 + ox + q];
    }
    CUdeviceptr dfr, dt, dpx, dpy, db;
    TH_TRY(th_upload(c, frame, (size_t)fw * fw * 4, &dfr));
    TH_TRY(th_upload(c, tmpl, (size_t)np * 81 * 4, &dt));
    TH_TRY(th_upload(c, px, np * 4, &dpx));
    TH_TRY(th_upload(c, py, np * 4, &dpy));
    TH_TRY(th_upload(c, NULL, np * 4, &db));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "hw_track", &f));
    void *args[] = {&dfr, &fw, &dt, &dpx, &dpy, &db};
    TH_TRY(th_launch(c, f, (unsigned)np, 1, 1, 128, 1, 1, 0, args));
    int *got = th_host(c, np * 4);
    TH_TRY(th_download(c, got, db, np * 4));
    return th_check_u32(c, "best position", (uint32_t *)got, (uint32_t *)want, np);
}

/* ---- lavaMD -------------------------------------------------------------------------- */

static int b_lavamd(th_ctx *c)
{
    int nb = c->small ? 2 : 7, nbox = nb * nb * nb, np = nbox * 128;
    float alpha = 0.5f;
    float *rv = th_host(c, (size_t)np * 16), *qv = th_host(c, np * 4);
    for (int i = 0; i < np; i++) {
        float x = rb_unit(), y = rb_unit(), z = rb_unit();
        rv[4 * i] = x;
        rv[4 * i + 1] = y;
        rv[4 * i + 2] = z;
        rv[4 * i + 3] = x * x + y * y + z * z;
        qv[i] = rb_unit();
    }
    CUdeviceptr drv, dqv, dfv;
    TH_TRY(th_upload(c, rv, (size_t)np * 16, &drv));
    TH_TRY(th_upload(c, qv, np * 4, &dqv));
    TH_TRY(th_upload(c, NULL, (size_t)np * 16, &dfv));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "lavamd_kernel", &f));
    void *args[] = {&nb, &alpha, &drv, &dqv, &dfv};
    TH_TRY(th_launch(c, f, (unsigned)nbox, 1, 1, 128, 1, 1, 0, args));
    float *got = th_host(c, (size_t)np * 16);
    double *ref = th_host(c, (size_t)np * 32);
    TH_TRY(th_download(c, got, dfv, (size_t)np * 16));
    double a2 = 2.0 * alpha * alpha;
    for (int box = 0; box < nbox; box++) {
        int bx = box % nb, by = (box / nb) % nb, bz = box / (nb * nb);
        for (int t = 0; t < 128; t++) {
            const float *ri = rv + ((size_t)box * 128 + t) * 4;
            double f4[4] = {0, 0, 0, 0};
            for (int k = 0; k < 27; k++) {
                int nx = bx + k % 3 - 1, ny = by + (k / 3) % 3 - 1, nz = bz + k / 9 - 1;
                if (nx < 0 || ny < 0 || nz < 0 || nx >= nb || ny >= nb || nz >= nb) continue;
                int nbox2 = (nz * nb + ny) * nb + nx;
                for (int j = 0; j < 128; j++) {
                    const float *rj = rv + ((size_t)nbox2 * 128 + j) * 4;
                    double r2 = (double)ri[3] + rj[3] - ((double)ri[0] * rj[0] + (double)ri[1] * rj[1] + (double)ri[2] * rj[2]);
                    double vij = exp(-a2 * r2), fs = 2 * vij, q = qv[nbox2 * 128 + j];
                    f4[3] += q * vij;
                    f4[0] += q * fs * ((double)ri[0] - rj[0]);
                    f4[1] += q * fs * ((double)ri[1] - rj[1]);
                    f4[2] += q * fs * ((double)ri[2] - rj[2]);
                }
            }
            for (int q = 0; q < 4; q++) ref[((size_t)box * 128 + t) * 4 + q] = f4[q];
        }
    }
    return rb_check(c, "force", got, ref, (size_t)np * 4, 1e-3, 10.0);
}

/* ---- merge sort (the block stage) ----------------------------------------------------- */

static int b_mergesort(th_ctx *c)
{
    int blocks = c->small ? 16 : 512, n = blocks * 512;
    uint32_t *k = th_host(c, n * 4), *v = th_host(c, n * 4), *gk = th_host(c, n * 4), *gv = th_host(c, n * 4);
    for (int i = 0; i < n; i++) {
        k[i] = rb_rand() % 4096; /* repeated keys: stability matters */
        v[i] = (uint32_t)i;
    }
    CUdeviceptr dk, dv;
    TH_TRY(th_upload(c, k, n * 4, &dk));
    TH_TRY(th_upload(c, v, n * 4, &dv));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "merge_block", &f));
    void *args[] = {&dk, &dv};
    TH_TRY(th_launch(c, f, (unsigned)blocks, 1, 1, 256, 1, 1, 0, args));
    TH_TRY(th_download(c, gk, dk, n * 4));
    TH_TRY(th_download(c, gv, dv, n * 4));
    /* a stable sort of each block: values (the original positions) ascending among equal keys */
    for (int b = 0; b < blocks; b++)
        for (int i = 1; i < 512; i++) {
            uint32_t k0 = gk[b * 512 + i - 1], k1 = gk[b * 512 + i], v0 = gv[b * 512 + i - 1], v1 = gv[b * 512 + i];
            if (k0 > k1 || (k0 == k1 && v0 >= v1)) return th_fail(c, "block %d not sorted stably at %d", b, i);
        }
    for (int i = 0; i < n; i++)
        if (gv[i] / 512 != (uint32_t)(i / 512) || k[gv[i]] != gk[i]) return th_fail(c, "element %d lost", i);
    return 0;
}

/* ---- Monte Carlo --------------------------------------------------------------------- */

static int b_montecarlo(th_ctx *c)
{
    int nopt = c->small ? 48 : 384;
    float R = 0.06f, V = 0.10f;
    float *S = th_host(c, nopt * 4), *X = th_host(c, nopt * 4), *T = th_host(c, nopt * 4);
    for (int i = 0; i < nopt; i++) {
        S[i] = 5.0f + 25.0f * rb_unit();
        X[i] = 1.0f + 99.0f * rb_unit();
        T[i] = 0.25f + 9.75f * rb_unit();
    }
    CUdeviceptr dS, dX, dT, dsum, dsq;
    TH_TRY(th_upload(c, S, nopt * 4, &dS));
    TH_TRY(th_upload(c, X, nopt * 4, &dX));
    TH_TRY(th_upload(c, T, nopt * 4, &dT));
    TH_TRY(th_upload(c, NULL, nopt * 4, &dsum));
    TH_TRY(th_upload(c, NULL, nopt * 4, &dsq));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "mc_kernel", &f));
    void *args[] = {&dS, &dX, &dT, &R, &V, &dsum, &dsq};
    TH_TRY(th_launch(c, f, (unsigned)nopt, 1, 1, 256, 1, 1, 0, args));
    float *gs = th_host(c, nopt * 4);
    double *rs = th_host(c, nopt * 8);
    TH_TRY(th_download(c, gs, dsum, nopt * 4));
    for (int o = 0; o < nopt; o++) {
        double sum = 0, mudt = (R - 0.5 * V * V) * T[o], vsdt = V * sqrt((double)T[o]);
        for (int t = 0; t < 256; t++) {
            uint32_t st = 2463534242u ^ ((uint32_t)o * 9781u + (uint32_t)t * 6271u);
            for (int p = 0; p < 64; p += 2) {
                st ^= st << 13; st ^= st >> 17; st ^= st << 5;
                double u1 = ((st >> 8) + 1) * (1.0 / 16777217.0);
                st ^= st << 13; st ^= st >> 17; st ^= st << 5;
                double u2 = (st >> 8) * (1.0 / 16777216.0);
                double r = sqrt(-2 * log(u1)), th = 6.283185307 * u2;
                double e0 = S[o] * exp(mudt + vsdt * r * cos(th)) - X[o], e1 = S[o] * exp(mudt + vsdt * r * sin(th)) - X[o];
                sum += (e0 > 0 ? e0 : 0) + (e1 > 0 ? e1 : 0);
            }
        }
        rs[o] = sum;
    }
    return rb_check(c, "payoff sum", gs, rs, nopt, 2e-3, 1.0);
}

/* ---- spmv (JDS) ---------------------------------------------------------------------- */

static int b_spmv(th_ctx *c)
{
    int dim = c->small ? 8192 : 327680, maxlen = 24;
    int *len = th_host(c, dim * 4), *perm = th_host(c, dim * 4);
    /* rows sorted by length, longest first (jagged diagonal storage) */
    for (int i = 0; i < dim; i++) len[i] = 2 + (int)((uint64_t)(dim - i) * (maxlen - 2) / dim) ;
    for (int i = 0; i < dim; i++) perm[i] = (int)(((uint64_t)i * 2654435761u) % (uint32_t)dim);
    /* perm must be a permutation: i -> (a i) mod dim with a prime to dim (a is odd and not a multiple of 5) */
    int *ptr = th_host(c, maxlen * 4), nnz = 0;
    for (int k = 0; k < maxlen; k++) {
        ptr[k] = nnz;
        for (int i = 0; i < dim && len[i] > k; i++) nnz++;
    }
    float *data = th_host(c, nnz * 4), *x = th_host(c, dim * 4);
    int *idx = th_host(c, nnz * 4);
    for (int i = 0; i < nnz; i++) {
        data[i] = rb_unit() - 0.5f;
        idx[i] = (int)(rb_rand() % (uint32_t)dim);
    }
    for (int i = 0; i < dim; i++) x[i] = rb_unit();
    CUdeviceptr dd, ddata, didx, dperm, dlen, dptr, dx;
    TH_TRY(th_upload(c, NULL, dim * 4, &dd));
    TH_TRY(th_upload(c, data, nnz * 4, &ddata));
    TH_TRY(th_upload(c, idx, nnz * 4, &didx));
    TH_TRY(th_upload(c, perm, dim * 4, &dperm));
    TH_TRY(th_upload(c, len, dim * 4, &dlen));
    TH_TRY(th_upload(c, ptr, maxlen * 4, &dptr));
    TH_TRY(th_upload(c, x, dim * 4, &dx));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "spmv_jds", &f));
    void *args[] = {&dd, &ddata, &didx, &dperm, &dlen, &dptr, &dx, &dim};
    TH_TRY(th_launch(c, f, th_cdiv((unsigned)dim, 256 * 4), 1, 1, 256, 1, 1, 0, args));
    float *got = th_host(c, dim * 4);
    double *ref = th_host(c, dim * 8);
    TH_TRY(th_download(c, got, dd, dim * 4));
    for (int i = 0; i < dim; i++) {
        double s = 0;
        for (int k = 0; k < len[i]; k++) s += (double)data[ptr[k] + i] * x[idx[ptr[k] + i]];
        ref[perm[i]] = s;
    }
    return rb_check(c, "y", got, ref, dim, 1e-4, 1.0);
}

/* ---- srad ---------------------------------------------------------------------------- */

static int b_srad(th_ctx *c)
{
    int n = c->small ? 64 : 384, iters = 2;
    float lambda = 0.5f;
    size_t sz = (size_t)n * n;
    float *J = th_host(c, sz * 4);
    for (size_t i = 0; i < sz; i++) J[i] = expf(rb_unit());
    CUdeviceptr dJ, dN, dS, dW, dE, dc;
    TH_TRY(th_upload(c, J, sz * 4, &dJ));
    TH_TRY(th_upload(c, NULL, sz * 4, &dN));
    TH_TRY(th_upload(c, NULL, sz * 4, &dS));
    TH_TRY(th_upload(c, NULL, sz * 4, &dW));
    TH_TRY(th_upload(c, NULL, sz * 4, &dE));
    TH_TRY(th_upload(c, NULL, sz * 4, &dc));
    CUfunction f1, f2;
    TH_TRY(th_func(c, c->mod, "srad1", &f1));
    TH_TRY(th_func(c, c->mod, "srad2", &f2));
    double *r = th_host(c, sz * 8), *rn = th_host(c, sz * 8), *rs = th_host(c, sz * 8), *rw = th_host(c, sz * 8),
           *re = th_host(c, sz * 8), *rc = th_host(c, sz * 8);
    for (size_t i = 0; i < sz; i++) r[i] = J[i];
    float *cur = th_host(c, sz * 4);
    for (int it = 0; it < iters; it++) {
        /* q0^2 from the image's statistics (the whole image is the region of interest) */
        TH_TRY(th_download(c, cur, dJ, sz * 4));
        double sum = 0, sum2 = 0;
        for (size_t i = 0; i < sz; i++) sum += cur[i], sum2 += (double)cur[i] * cur[i];
        double mean = sum / sz, var = sum2 / sz - mean * mean;
        float q0sqr = (float)(var / (mean * mean));
        void *a1[] = {&dJ, &dN, &dS, &dW, &dE, &dc, &n, &n, &q0sqr};
        TH_TRY(th_launch(c, f1, th_cdiv((unsigned)n, 16), th_cdiv((unsigned)n, 16), 1, 256, 1, 1, 0, a1));
        void *a2[] = {&dJ, &dN, &dS, &dW, &dE, &dc, &n, &n, &lambda};
        TH_TRY(th_launch(c, f2, th_cdiv((unsigned)n, 16), th_cdiv((unsigned)n, 16), 1, 256, 1, 1, 0, a2));
        /* reference step from the same input (each step judged alone) */
        for (size_t i = 0; i < sz; i++) r[i] = cur[i];
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                size_t k = (size_t)y * n + x;
                double Jc = r[k];
                double n0 = r[(size_t)(y > 0 ? y - 1 : 0) * n + x] - Jc, s0 = r[(size_t)(y < n - 1 ? y + 1 : n - 1) * n + x] - Jc;
                double w0 = r[(size_t)y * n + (x > 0 ? x - 1 : 0)] - Jc, e0 = r[(size_t)y * n + (x < n - 1 ? x + 1 : n - 1)] - Jc;
                double G2 = (n0 * n0 + s0 * s0 + w0 * w0 + e0 * e0) / (Jc * Jc), L = (n0 + s0 + w0 + e0) / Jc;
                double num = 0.5 * G2 - L * L / 16, den = 1 + 0.25 * L, q = num / (den * den);
                den = (q - q0sqr) / (q0sqr * (1 + q0sqr));
                double cc = 1 / (1 + den);
                rc[k] = cc < 0 ? 0 : cc > 1 ? 1 : cc;
                rn[k] = n0, rs[k] = s0, rw[k] = w0, re[k] = e0;
            }
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                size_t k = (size_t)y * n + x;
                double D = rc[k] * rn[k] + rc[(size_t)(y < n - 1 ? y + 1 : n - 1) * n + x] * rs[k] + rc[k] * rw[k] +
                           rc[(size_t)y * n + (x < n - 1 ? x + 1 : n - 1)] * re[k];
                r[k] = r[k] + 0.25 * lambda * D;
            }
        float *got = th_host(c, sz * 4);
        TH_TRY(th_download(c, got, dJ, sz * 4));
        TH_TRY(rb_check(c, "J", got, r, sz, 1e-4, 1.0));
    }
    return 0;
}

/* ---- tpacf ------------------------------------------------------------------------------ */

static int b_tpacf(th_ctx *c)
{
    int n = c->small ? 1024 : 6144;
    float *x = th_host(c, n * 4), *y = th_host(c, n * 4), *z = th_host(c, n * 4), binb[21];
    for (int i = 0; i < n; i++) {
        double u = 2 * rb_unit() - 1, ph = 6.283185307 * rb_unit(), s = sqrt(1 - u * u);
        x[i] = (float)(s * cos(ph));
        y[i] = (float)(s * sin(ph));
        z[i] = (float)u;
    }
    /* edges: cosines of angles from 0.01 to 180 degrees, logarithmic */
    for (int b = 0; b <= 20; b++) binb[b] = (float)cos(0.01 * pow(18000.0, b / 20.0) * 3.14159265358979 / 180);
    CUdeviceptr dx, dy, dz, db, dh;
    TH_TRY(th_upload(c, x, n * 4, &dx));
    TH_TRY(th_upload(c, y, n * 4, &dy));
    TH_TRY(th_upload(c, z, n * 4, &dz));
    TH_TRY(th_upload(c, binb, sizeof binb, &db));
    TH_TRY(th_upload(c, NULL, 22 * 4, &dh));
    CUfunction f;
    TH_TRY(th_func(c, c->mod, "tpacf_kernel", &f));
    void *args[] = {&dx, &dy, &dz, &n, &db, &dh};
    TH_TRY(th_launch(c, f, (unsigned)n / 256, (unsigned)n / 512, 1, 256, 1, 1, 0, args));
    uint32_t got[22];
    TH_TRY(th_download(c, got, dh, sizeof got));
    uint64_t ref[22] = {0}, total = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            float d = x[i] * x[j] + y[i] * y[j] + z[i] * z[j];
            int lo = 0, hi = 20;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (d >= binb[mid + 1]) hi = mid;
                else lo = mid + 1;
            }
            ref[lo]++;
        }
    for (int b = 0; b <= 20; b++) {
        total += got[b];
        /* a pair whose cosine rounds across an edge may land in the next bin */
        double slack = 2 + 1e-3 * (double)ref[b];
        if (fabs((double)got[b] - (double)ref[b]) > slack)
            return th_fail(c, "bin %d: %u pairs, expected %llu", b, got[b], (unsigned long long)ref[b]);
    }
    if (total != (uint64_t)n * (n - 1) / 2) return th_fail(c, "%llu pairs counted, expected %llu", (unsigned long long)total,
                                                          (unsigned long long)n * (n - 1) / 2);
    return 0;
}

/* ---- main -------------------------------------------------------------------------------- */

typedef struct rb_bench {
    const char *name;
    int (*run)(th_ctx *);
} rb_bench;

static const rb_bench benches[] = {
    {"bfs", b_bfs}, {"cp", b_cp}, {"cutcp", b_cutcp}, {"dwt2d", b_dwt2d}, {"hotspot", b_hotspot}, {"md", b_md},
    {"mriq", b_mriq}, {"radixsort", b_radixsort}, {"particlefilter", b_particlefilter}, {"sad", b_sad},
    {"gaussian", b_gaussian}, {"heartwall", b_heartwall}, {"lavamd", b_lavamd}, {"mergesort", b_mergesort},
    {"montecarlo", b_montecarlo}, {"spmv", b_spmv}, {"srad", b_srad}, {"tpacf", b_tpacf},
};

/* Runs one benchmark in the shared context: its module (DIR/NAME.ptx), its
** inputs from a seed of its own; prints its line; returns 1 on FAIL. */
static int run_one(const rb_bench *b, th_ctx *c)
{
    char file[256];
    snprintf(file, sizeof file, "%s.ptx", b->name);
    rb_seed = 0x5eed0000u + (uint64_t)strlen(b->name);
    int rc = th_module(c, file, NULL);
    if (rc == TH_OK) rc = b->run(c);
    th_release(c);
    th_report(b->name, rc, c->msg);
    return rc != TH_OK;
}

int main(int argc, char **argv)
{
    th_args a;
    if (th_args_parse(&a, argc, argv, TH_ARG_PTX | TH_ARG_SMALL | TH_ARG_LIST, "experiments/regmutex/kernels",
                      "rmbench [--ptx DIR] [--small] [--list] [NAME...]"))
        return 2;
    size_t nb = sizeof benches / sizeof benches[0];
    if (a.list) {
        for (size_t i = 0; i < nb; i++) printf("%s\n", benches[i].name);
        return 0;
    }
    th_ctx c = {.prog = "rmbench", .ptxdir = a.ptxdir, .small = a.small};
    if (th_device(&c) != TH_OK || th_open(&c) != TH_OK) {
        fprintf(stderr, "rmbench: no CUDA device\n");
        return 2;
    }
    int failed = 0;
    for (size_t i = 0; i < nb; i++) {
        bool want = a.nnames == 0;
        for (int k = 0; k < a.nnames; k++)
            if (!strcmp(a.names[k], benches[i].name)) want = true;
        if (want) failed += run_one(&benches[i], &c);
    }
    for (int k = 0; k < a.nnames; k++) {
        bool known = false;
        for (size_t i = 0; i < nb; i++) known |= !strcmp(a.names[k], benches[i].name);
        if (!known) {
            printf("FAIL %s: no such benchmark\n", a.names[k]);
            failed++;
        }
    }
    th_close(&c);
    return failed ? 1 : 0;
}
