/*
** wpbench.c -- the host side of the WarpPool experiments: a plain C11 CUDA
** driver-API program (it runs unchanged on a GPU linked with NVIDIA's
** libcuda) that runs one kernel of experiments/warppool/kernels per
** benchmark name, on deterministic inputs, and checks every output element
** against a CPU reference.
**
**   wpbench [--ptx DIR] [--small] [--list] [NAME...]
**
** NAME is one of the kernels the WarpPool paper's figures name (--list
** prints them: name, kernel, PTX file, the class the paper gives it); all
** when none is given.  DIR holds the .ptx files (default experiments/warppool/kernels).
** --small runs sizes meant for a quick functional test instead of the
** experiment's.  One line per benchmark: "PASS NAME" or "FAIL NAME: why";
** the exit status is 0 when every one passed.  Each benchmark launches its
** one kernel once (inputs another kernel of the application would make --
** a mean, a sorted sample list -- are made on the host), so its statistics
** are that kernel's.  Module prefix: wb_; the driver calls, buffers,
** argument parsing and checking are tests/harness's (th_).
**
** Checking.  Floating-point results are compared with a reference computed
** in double from the same float inputs: element k passes when
**   |got - ref| <= (t + 2) 2^-23 sum|terms| + 2^-60
** where t is the number of float operations along the element's longest
** chain of roundings (Higham's bound, gamma(t) ~ t u, with a margin of a few
** units); integers and copies are compared exactly.
*/
#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Launches the module's kernel on a gx x gy x gz grid of bx x by blocks. */
static int wb_launch(th_ctx *c, const char *kernel, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                     void **params)
{
    CUfunction f;
    TH_TRY(th_func(c, c->mod, kernel, &f));
    return th_launch(c, f, gx, gy, gz, bx, by, 1, 0, params);
}

/* ---- inputs and checks ---------------------------------------------------------------- */

/* A deterministic value in [0, 1) for (seed, i). */
static float wb_val(uint32_t seed, uint32_t i)
{
    uint32_t x = (seed + 1) * 2654435761u ^ (i + 0x9e3779b9u) * 2246822519u;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    return (float)(x >> 8) / 16777216.0f;
}

static float *wb_fill(th_ctx *c, uint32_t seed, size_t n)
{
    float *p = th_host(c, n * sizeof *p);
    for (size_t i = 0; i < n; i++) p[i] = wb_val(seed, (uint32_t)i);
    return p;
}

/* got[k] against ref[k] with magnitude mag[k] and t roundings (file header). */
static int wb_check(th_ctx *c, const char *what, const float *got, const double *ref, const double *mag, size_t n,
                    double t)
{
    double *tol = th_host(c, n * sizeof *tol);
    for (size_t k = 0; k < n; k++) tol[k] = (t + 2) * ldexp(1.0, -23) * mag[k] + ldexp(1.0, -60);
    th_tol bound = {tol, 0.0, 0.0, 0};
    return th_check_f32(c, what, got, ref, n, &bound);
}

static double *wb_dbl(th_ctx *c, size_t n) { return th_host(c, n * sizeof(double)); }

/* ---- the benchmarks ---------------------------------------------------------------------- */

/* SYR2K: C = alpha A B^T + alpha B A^T + beta C (syr2k.cu). */
static int b_syr2k(th_ctx *c)
{
    int n = c->small ? 64 : 192, m = c->small ? 32 : 64;
    float alpha = 1.5f, beta = 1.2f;
    float *a = wb_fill(c, 1, (size_t)n * m), *b = wb_fill(c, 2, (size_t)n * m), *cc = wb_fill(c, 3, (size_t)n * n);
    CUdeviceptr da, db, dc;
    TH_TRY(th_module(c, "syr2k.ptx", NULL));
    TH_TRY(th_upload(c, a, (size_t)n * m * 4, &da));
    TH_TRY(th_upload(c, b, (size_t)n * m * 4, &db));
    TH_TRY(th_upload(c, cc, (size_t)n * n * 4, &dc));
    void *p[] = {&n, &m, &alpha, &beta, &da, &db, &dc};
    TH_TRY(wb_launch(c, "syr2k_kernel", (unsigned)n / 32, (unsigned)n / 8, 1, 32, 8, p));
    float *got = th_host(c, (size_t)n * n * 4);
    TH_TRY(th_download(c, got, dc, (size_t)n * n * 4));
    double *ref = wb_dbl(c, (size_t)n * n), *mag = wb_dbl(c, (size_t)n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = (double)cc[i * n + j] * beta, g = fabs(s);
            for (int k = 0; k < m; k++) {
                double t1 = (double)alpha * a[i * m + k] * b[j * m + k], t2 = (double)alpha * b[i * m + k] * a[j * m + k];
                s += t1 + t2;
                g += fabs(t1) + fabs(t2);
            }
            ref[i * n + j] = s;
            mag[i * n + j] = g;
        }
    return wb_check(c, "c", got, ref, mag, (size_t)n * n, 4.0 * m + 2);
}

/* SYRK: C = alpha A A^T + beta C (syrk.cu). */
static int b_syrk(th_ctx *c)
{
    int n = c->small ? 64 : 256, m = c->small ? 32 : 64;
    float alpha = 1.5f, beta = 1.2f;
    float *a = wb_fill(c, 4, (size_t)n * m), *cc = wb_fill(c, 5, (size_t)n * n);
    CUdeviceptr da, dc;
    TH_TRY(th_module(c, "syrk.ptx", NULL));
    TH_TRY(th_upload(c, a, (size_t)n * m * 4, &da));
    TH_TRY(th_upload(c, cc, (size_t)n * n * 4, &dc));
    void *p[] = {&n, &m, &alpha, &beta, &da, &dc};
    TH_TRY(wb_launch(c, "syrk_kernel", (unsigned)n / 32, (unsigned)n / 8, 1, 32, 8, p));
    float *got = th_host(c, (size_t)n * n * 4);
    TH_TRY(th_download(c, got, dc, (size_t)n * n * 4));
    double *ref = wb_dbl(c, (size_t)n * n), *mag = wb_dbl(c, (size_t)n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = (double)cc[i * n + j] * beta, g = fabs(s);
            for (int k = 0; k < m; k++) {
                double t = (double)alpha * a[i * m + k] * a[j * m + k];
                s += t;
                g += fabs(t);
            }
            ref[i * n + j] = s;
            mag[i * n + j] = g;
        }
    return wb_check(c, "c", got, ref, mag, (size_t)n * n, 2.0 * m + 2);
}

/* Matrix products C = alpha A B (+ beta C): gemm.cu, 2mm.cu (beta 0, alpha),
** 3mm.cu (alpha 1, beta 0). */
static int mm(th_ctx *c, const char *file, const char *kernel, int ni, int nj, int nk, bool has_alpha, bool has_beta)
{
    float alpha = has_alpha ? 1.25f : 1.0f, beta = has_beta ? 0.75f : 0.0f;
    float *a = wb_fill(c, 6, (size_t)ni * nk), *b = wb_fill(c, 7, (size_t)nk * nj), *cc = wb_fill(c, 8, (size_t)ni * nj);
    CUdeviceptr da, db, dc;
    TH_TRY(th_module(c, file, NULL));
    TH_TRY(th_upload(c, a, (size_t)ni * nk * 4, &da));
    TH_TRY(th_upload(c, b, (size_t)nk * nj * 4, &db));
    TH_TRY(th_upload(c, cc, (size_t)ni * nj * 4, &dc));
    if (has_beta) {
        void *p[] = {&ni, &nj, &nk, &alpha, &beta, &da, &db, &dc};
        TH_TRY(wb_launch(c, kernel, (unsigned)nj / 32, (unsigned)ni / 8, 1, 32, 8, p));
    } else if (has_alpha) {
        void *p[] = {&ni, &nj, &nk, &alpha, &da, &db, &dc};
        TH_TRY(wb_launch(c, kernel, (unsigned)nj / 32, (unsigned)ni / 8, 1, 32, 8, p));
    } else {
        void *p[] = {&ni, &nj, &nk, &da, &db, &dc};
        TH_TRY(wb_launch(c, kernel, (unsigned)nj / 32, (unsigned)ni / 8, 1, 32, 8, p));
    }
    float *got = th_host(c, (size_t)ni * nj * 4);
    TH_TRY(th_download(c, got, dc, (size_t)ni * nj * 4));
    double *ref = wb_dbl(c, (size_t)ni * nj), *mag = wb_dbl(c, (size_t)ni * nj);
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double s = has_beta ? (double)cc[i * nj + j] * beta : 0.0, g = fabs(s);
            for (int k = 0; k < nk; k++) {
                double t = (double)alpha * a[i * nk + k] * b[k * nj + j];
                s += t;
                g += fabs(t);
            }
            ref[i * nj + j] = s;
            mag[i * nj + j] = g;
        }
    return wb_check(c, "c", got, ref, mag, (size_t)ni * nj, 3.0 * nk + 2);
}

static int b_gemm(th_ctx *c)
{
    int n = c->small ? 64 : 256;
    return mm(c, "gemm.ptx", "gemm_kernel", n, n, n, true, true);
}

static int b_2mm(th_ctx *c)
{
    int n = c->small ? 64 : 256;
    return mm(c, "2mm.ptx", "mm2_kernel1", n, n, c->small ? 64 : 192, true, false);
}

static int b_3mm(th_ctx *c)
{
    int n = c->small ? 64 : 256;
    return mm(c, "3mm.ptx", "mm3_kernel1", n, n, n, false, false);
}

/* Row kernels y[i] = sum_j A[i][j] x[j] (atax_kernel1, bicg_kernel2,
** mvt_kernel1 with y = x1 + ...): n rows of m. */
static int rowk(th_ctx *c, const char *file, const char *kernel, int n, int m, bool mvt)
{
    float *a = wb_fill(c, 9, (size_t)n * m), *x = wb_fill(c, 10, (size_t)m), *y0 = wb_fill(c, 11, (size_t)n);
    CUdeviceptr da, dx, dy;
    TH_TRY(th_module(c, file, NULL));
    TH_TRY(th_upload(c, a, (size_t)n * m * 4, &da));
    TH_TRY(th_upload(c, x, (size_t)m * 4, &dx));
    TH_TRY(th_upload(c, mvt ? y0 : NULL, (size_t)n * 4, &dy));
    if (mvt) {
        void *p[] = {&n, &m, &da, &dx, &dy};
        TH_TRY(wb_launch(c, kernel, (unsigned)(n + 255) / 256, 1, 1, 256, 1, p));
    } else {
        void *p[] = {&n, &m, &da, &dx, &dy};
        TH_TRY(wb_launch(c, kernel, (unsigned)(n + 255) / 256, 1, 1, 256, 1, p));
    }
    float *got = th_host(c, (size_t)n * 4);
    TH_TRY(th_download(c, got, dy, (size_t)n * 4));
    double *ref = wb_dbl(c, (size_t)n), *mag = wb_dbl(c, (size_t)n);
    for (int i = 0; i < n; i++) {
        double s = mvt ? y0[i] : 0.0, g = fabs(s);
        for (int j = 0; j < m; j++) {
            double t = (double)a[(size_t)i * m + j] * x[j];
            s += t;
            g += fabs(t);
        }
        ref[i] = s;
        mag[i] = g;
    }
    return wb_check(c, "y", got, ref, mag, (size_t)n, 2.0 * m + 1);
}

static int b_atax1(th_ctx *c) { return rowk(c, "atax.ptx", "atax_kernel1", c->small ? 512 : 7680, c->small ? 64 : 256, false); }
static int b_bicg(th_ctx *c) { return rowk(c, "bicg.ptx", "bicg_kernel2", c->small ? 512 : 7680, c->small ? 64 : 512, false); }
static int b_mvt1(th_ctx *c) { return rowk(c, "mvt.ptx", "mvt_kernel1", c->small ? 512 : 3840, c->small ? 64 : 1024, true); }

/* ATAX's column kernel: y[j] = sum_i A[i][j] tmp[i], A nx x ny. */
static int b_atax2(th_ctx *c)
{
    int nx = c->small ? 64 : 512, ny = c->small ? 512 : 7680;
    float *a = wb_fill(c, 12, (size_t)nx * ny), *tmp = wb_fill(c, 13, (size_t)nx);
    CUdeviceptr da, dt, dy;
    TH_TRY(th_module(c, "atax.ptx", NULL));
    TH_TRY(th_upload(c, a, (size_t)nx * ny * 4, &da));
    TH_TRY(th_upload(c, tmp, (size_t)nx * 4, &dt));
    TH_TRY(th_upload(c, NULL, (size_t)ny * 4, &dy));
    void *p[] = {&nx, &ny, &da, &dt, &dy};
    TH_TRY(wb_launch(c, "atax_kernel2", (unsigned)(ny + 255) / 256, 1, 1, 256, 1, p));
    float *got = th_host(c, (size_t)ny * 4);
    TH_TRY(th_download(c, got, dy, (size_t)ny * 4));
    double *ref = wb_dbl(c, (size_t)ny), *mag = wb_dbl(c, (size_t)ny);
    for (int j = 0; j < ny; j++) {
        double s = 0, g = 0;
        for (int i = 0; i < nx; i++) {
            double t = (double)a[(size_t)i * ny + j] * tmp[i];
            s += t;
            g += fabs(t);
        }
        ref[j] = s;
        mag[j] = g;
    }
    return wb_check(c, "y", got, ref, mag, (size_t)ny, 2.0 * nx + 1);
}

/* GESUMMV: y = alpha A x + beta B x, n x m. */
static int b_gesummv(th_ctx *c)
{
    int n = c->small ? 512 : 7680, m = c->small ? 64 : 256;
    float alpha = 1.5f, beta = 1.25f;
    float *a = wb_fill(c, 14, (size_t)n * m), *b = wb_fill(c, 15, (size_t)n * m), *x = wb_fill(c, 16, (size_t)m);
    CUdeviceptr da, db, dx, dy;
    TH_TRY(th_module(c, "gesummv.ptx", NULL));
    TH_TRY(th_upload(c, a, (size_t)n * m * 4, &da));
    TH_TRY(th_upload(c, b, (size_t)n * m * 4, &db));
    TH_TRY(th_upload(c, x, (size_t)m * 4, &dx));
    TH_TRY(th_upload(c, NULL, (size_t)n * 4, &dy));
    void *p[] = {&n, &m, &alpha, &beta, &da, &db, &dx, &dy};
    TH_TRY(wb_launch(c, "gesummv_kernel", (unsigned)(n + 255) / 256, 1, 1, 256, 1, p));
    float *got = th_host(c, (size_t)n * 4);
    TH_TRY(th_download(c, got, dy, (size_t)n * 4));
    double *ref = wb_dbl(c, (size_t)n), *mag = wb_dbl(c, (size_t)n);
    for (int i = 0; i < n; i++) {
        double s = 0, t = 0, gs = 0, gt = 0;
        for (int j = 0; j < m; j++) {
            s += (double)a[(size_t)i * m + j] * x[j];
            gs += fabs((double)a[(size_t)i * m + j] * x[j]);
            t += (double)b[(size_t)i * m + j] * x[j];
            gt += fabs((double)b[(size_t)i * m + j] * x[j]);
        }
        ref[i] = alpha * s + beta * t;
        mag[i] = alpha * gs + beta * gt;
    }
    return wb_check(c, "y", got, ref, mag, (size_t)n, 2.0 * m + 3);
}

/* CORR's third kernel: data = (data - mean) / (sqrt(n) std), n x m. */
static int b_corr3(th_ctx *c)
{
    int m = c->small ? 128 : 1024, n = c->small ? 64 : 1024;
    float *data = wb_fill(c, 17, (size_t)n * m), *mean = wb_fill(c, 18, (size_t)m), *sd = wb_fill(c, 19, (size_t)m);
    for (int j = 0; j < m; j++) sd[j] += 0.5f; /* away from 0 */
    float sqrt_n = sqrtf((float)n);
    CUdeviceptr dd, dm, ds;
    TH_TRY(th_module(c, "corr.ptx", NULL));
    TH_TRY(th_upload(c, data, (size_t)n * m * 4, &dd));
    TH_TRY(th_upload(c, mean, (size_t)m * 4, &dm));
    TH_TRY(th_upload(c, sd, (size_t)m * 4, &ds));
    void *p[] = {&m, &n, &sqrt_n, &dm, &ds, &dd};
    TH_TRY(wb_launch(c, "corr_reduce", (unsigned)m / 32, (unsigned)n / 8, 1, 32, 8, p));
    float *got = th_host(c, (size_t)n * m * 4);
    TH_TRY(th_download(c, got, dd, (size_t)n * m * 4));
    double *ref = wb_dbl(c, (size_t)n * m), *mag = wb_dbl(c, (size_t)n * m);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double d = (double)data[i * m + j] - mean[j], q = (double)sqrt_n * sd[j];
            ref[i * m + j] = d / q;
            mag[i * m + j] = (fabs((double)data[i * m + j]) + fabs((double)mean[j])) / fabs(q);
        }
    return wb_check(c, "data", got, ref, mag, (size_t)n * m, 4);
}

/* CORR's fourth kernel: symmat[j1][j2] = sum_i data[i][j1] data[i][j2]. */
static int b_corr4(th_ctx *c)
{
    int m = c->small ? 64 : 512, n = c->small ? 64 : 64;
    float *data = wb_fill(c, 20, (size_t)n * m);
    CUdeviceptr dd, ds;
    TH_TRY(th_module(c, "corr.ptx", NULL));
    TH_TRY(th_upload(c, data, (size_t)n * m * 4, &dd));
    TH_TRY(th_upload(c, NULL, (size_t)m * m * 4, &ds));
    void *p[] = {&m, &n, &dd, &ds};
    TH_TRY(wb_launch(c, "corr_corr", (unsigned)(m + 255) / 256, 1, 1, 256, 1, p));
    float *got = th_host(c, (size_t)m * m * 4);
    TH_TRY(th_download(c, got, ds, (size_t)m * m * 4));
    double *ref = wb_dbl(c, (size_t)m * m), *mag = wb_dbl(c, (size_t)m * m);
    for (int j1 = 0; j1 < m; j1++)
        for (int j2 = 0; j2 < m; j2++) {
            double s = 0, g = 0;
            if (j1 == m - 1 && j2 == m - 1) {
                s = g = 0; /* the kernel has no thread for the last column: untouched */
            } else if (j1 == j2) {
                s = g = 1;
            } else {
                for (int i = 0; i < n; i++) {
                    double t = (double)data[i * m + j1] * data[i * m + j2];
                    s += t;
                    g += fabs(t);
                }
            }
            ref[j1 * m + j2] = s;
            mag[j1 * m + j2] = g;
        }
    return wb_check(c, "symmat", got, ref, mag, (size_t)m * m, 2.0 * n + 1);
}

/* Particle-filter likelihood (pf.cu). */
static int b_pf(th_ctx *c)
{
    int np = c->small ? 512 : 15360, ix = 128, iy = 128, nfr = 10, k = 3, rad = 5;
    int *disk = th_host(c, (size_t)(2 * rad + 1) * (2 * rad + 1) * 2 * sizeof(int)), ndisk = 0;
    for (int dx = -rad; dx <= rad; dx++)
        for (int dy = -rad; dy <= rad; dy++)
            if (dx * dx + dy * dy <= rad * rad) {
                disk[2 * ndisk] = dx;
                disk[2 * ndisk + 1] = dy;
                ndisk++;
            }
    float *video = th_host(c, (size_t)ix * iy * nfr * 4);
    for (size_t i = 0; i < (size_t)ix * iy * nfr; i++) video[i] = floorf(wb_val(21, (uint32_t)i) * 256.0f);
    /* particles around (64, 64): a sum of uniforms, spread about +-8 pixels */
    float *px = th_host(c, (size_t)np * 4), *py = th_host(c, (size_t)np * 4);
    for (int p = 0; p < np; p++) {
        px[p] = 64.0f + 8.0f * (wb_val(22, (uint32_t)p) + wb_val(23, (uint32_t)p) - 1.0f);
        py[p] = 64.0f + 8.0f * (wb_val(24, (uint32_t)p) + wb_val(25, (uint32_t)p) - 1.0f);
    }
    CUdeviceptr dpx, dpy, dd, dv, dl;
    TH_TRY(th_module(c, "pf.ptx", NULL));
    TH_TRY(th_upload(c, px, (size_t)np * 4, &dpx));
    TH_TRY(th_upload(c, py, (size_t)np * 4, &dpy));
    TH_TRY(th_upload(c, disk, (size_t)ndisk * 2 * sizeof(int), &dd));
    TH_TRY(th_upload(c, video, (size_t)ix * iy * nfr * 4, &dv));
    TH_TRY(th_upload(c, NULL, (size_t)np * 4, &dl));
    void *p[] = {&np, &ndisk, &ix, &iy, &nfr, &k, &dpx, &dpy, &dd, &dv, &dl};
    TH_TRY(wb_launch(c, "pf_likelihood", (unsigned)(np + 255) / 256, 1, 1, 256, 1, p));
    float *got = th_host(c, (size_t)np * 4);
    TH_TRY(th_download(c, got, dl, (size_t)np * 4));
    double *ref = wb_dbl(c, (size_t)np), *mag = wb_dbl(c, (size_t)np);
    for (int q = 0; q < np; q++) {
        int x0 = (int)roundf(px[q]), y0 = (int)roundf(py[q]);
        double s = 0, g = 0;
        for (int d = 0; d < ndisk; d++) {
            int x = x0 + disk[2 * d], y = y0 + disk[2 * d + 1];
            x = x < 0 ? 0 : x >= ix ? ix - 1 : x;
            y = y < 0 ? 0 : y >= iy ? iy - 1 : y;
            double v = video[(x * iy + y) * nfr + k];
            double t = ((v - 100) * (v - 100) - (v - 228) * (v - 228)) / 50;
            s += t;
            g += ((v - 100) * (v - 100) + (v - 228) * (v - 228)) / 50;
        }
        ref[q] = s / ndisk;
        mag[q] = g / ndisk;
    }
    return wb_check(c, "likelihood", got, ref, mag, (size_t)np, ndisk + 8.0);
}

/* MRI gridding (mrig.cu): samples binned and sorted on the host. */
static int b_mrig(th_ctx *c)
{
    int g = c->small ? 32 : 128, w = 1, per = 4;
    float r = 1.5f;
    int nb = g * g, ns = nb * per;
    /* every bin gets `per` samples at jittered positions inside it, stored bin by bin */
    int *start = th_host(c, (size_t)(nb + 1) * sizeof(int));
    float *smp = th_host(c, (size_t)ns * 16);
    for (int b = 0, s = 0; b < nb; b++) {
        start[b] = s;
        int cnt = 1 + (int)(wb_val(26, (uint32_t)b) * (float)(2 * per - 1)); /* 1 .. 2 per - 1 */
        if (s + cnt > ns) cnt = ns - s;
        for (int q = 0; q < cnt; q++, s++) {
            smp[4 * s] = (float)(b % g) - 0.5f + wb_val(27, (uint32_t)s);
            smp[4 * s + 1] = (float)(b / g) - 0.5f + wb_val(28, (uint32_t)s);
            smp[4 * s + 2] = wb_val(29, (uint32_t)s) - 0.5f;
            smp[4 * s + 3] = wb_val(30, (uint32_t)s) - 0.5f;
        }
        start[b + 1] = s;
    }
    CUdeviceptr dst, dsm, dg;
    TH_TRY(th_module(c, "mrig.ptx", NULL));
    TH_TRY(th_upload(c, start, (size_t)(nb + 1) * sizeof(int), &dst));
    TH_TRY(th_upload(c, smp, (size_t)ns * 16, &dsm));
    TH_TRY(th_upload(c, NULL, (size_t)nb * 8, &dg));
    void *p[] = {&g, &w, &r, &dst, &dsm, &dg};
    TH_TRY(wb_launch(c, "mrig_gridding", (unsigned)g / 32, (unsigned)g / 8, 1, 32, 8, p));
    float *got = th_host(c, (size_t)nb * 8);
    TH_TRY(th_download(c, got, dg, (size_t)nb * 8));
    double *ref = wb_dbl(c, (size_t)nb * 2), *mag = wb_dbl(c, (size_t)nb * 2);
    float r2 = r * r;
    for (int gy = 0; gy < g; gy++)
        for (int gx = 0; gx < g; gx++) {
            double re = 0, im = 0, gre = 0, gim = 0;
            for (int by = gy - w; by <= gy + w; by++)
                for (int bx = gx - w; bx <= gx + w; bx++) {
                    if (bx < 0 || by < 0 || bx >= g || by >= g) continue;
                    for (int s = start[by * g + bx]; s < start[by * g + bx + 1]; s++) {
                        /* the weight is computed in float, as the kernel does; the
                        ** comparison d2 < r2 decides in float too */
                        float dx = smp[4 * s] - (float)gx, dy = smp[4 * s + 1] - (float)gy, d2 = dx * dx + dy * dy;
                        if (!(d2 < r2)) continue;
                        double t = 1.0 - (double)d2 / r2;
                        re += t * t * smp[4 * s + 2];
                        im += t * t * smp[4 * s + 3];
                        gre += t * t * fabs(smp[4 * s + 2]) + 1e-6;
                        gim += t * t * fabs(smp[4 * s + 3]) + 1e-6;
                    }
                }
            ref[2 * (gy * g + gx)] = re;
            ref[2 * (gy * g + gx) + 1] = im;
            mag[2 * (gy * g + gx)] = gre;
            mag[2 * (gy * g + gx) + 1] = gim;
        }
    return wb_check(c, "grid", got, ref, mag, (size_t)nb * 2, 9.0 * 2 * per * 8 + 16);
}

/* CSR sparse matrix-vector product (spmv.cu): a banded random matrix. */
static int b_spmv(th_ctx *c)
{
    int rows = c->small ? 512 : 15360, band = 512;
    int *rowptr = th_host(c, (size_t)(rows + 1) * sizeof(int));
    int nnz = 0;
    for (int r = 0; r < rows; r++) {
        rowptr[r] = nnz;
        nnz += 8 + (int)(wb_val(31, (uint32_t)r) * 17.0f); /* 8 .. 24 */
    }
    rowptr[rows] = nnz;
    int *col = th_host(c, (size_t)nnz * sizeof(int));
    float *val = wb_fill(c, 32, (size_t)nnz), *x = wb_fill(c, 33, (size_t)rows);
    for (int r = 0; r < rows; r++)
        for (int j = rowptr[r]; j < rowptr[r + 1]; j++) {
            int cc = r - band / 2 + (int)(wb_val(34, (uint32_t)j) * (float)band);
            col[j] = cc < 0 ? cc + rows : cc >= rows ? cc - rows : cc;
        }
    CUdeviceptr drp, dcol, dval, dx, dy;
    TH_TRY(th_module(c, "spmv.ptx", NULL));
    TH_TRY(th_upload(c, rowptr, (size_t)(rows + 1) * sizeof(int), &drp));
    TH_TRY(th_upload(c, col, (size_t)nnz * sizeof(int), &dcol));
    TH_TRY(th_upload(c, val, (size_t)nnz * 4, &dval));
    TH_TRY(th_upload(c, x, (size_t)rows * 4, &dx));
    TH_TRY(th_upload(c, NULL, (size_t)rows * 4, &dy));
    void *p[] = {&rows, &drp, &dcol, &dval, &dx, &dy};
    TH_TRY(wb_launch(c, "spmv_csr", (unsigned)(rows + 255) / 256, 1, 1, 256, 1, p));
    float *got = th_host(c, (size_t)rows * 4);
    TH_TRY(th_download(c, got, dy, (size_t)rows * 4));
    double *ref = wb_dbl(c, (size_t)rows), *mag = wb_dbl(c, (size_t)rows);
    for (int r = 0; r < rows; r++) {
        double s = 0, g = 0;
        for (int j = rowptr[r]; j < rowptr[r + 1]; j++) {
            s += (double)val[j] * x[col[j]];
            g += fabs((double)val[j] * x[col[j]]);
        }
        ref[r] = s;
        mag[r] = g;
    }
    return wb_check(c, "y", got, ref, mag, (size_t)rows, 2.0 * 24 + 1);
}

/* Streamcluster's gain (sc.cu). */
static int b_sc(th_ctx *c)
{
    int num = c->small ? 512 : 61440, dim = 16, k = 15, x = 7, ncentre = 37;
    float *coord = wb_fill(c, 35, (size_t)num * dim), *weight = wb_fill(c, 36, (size_t)num);
    float *cost = wb_fill(c, 37, (size_t)num);
    int *assign = th_host(c, (size_t)num * sizeof(int)), *center = th_host(c, (size_t)ncentre * sizeof(int));
    for (int p = 0; p < num; p++) {
        assign[p] = (int)(wb_val(38, (uint32_t)p) * (float)ncentre);
        cost[p] *= 2.0f;
    }
    for (int q = 0; q < ncentre; q++) center[q] = q % k;
    CUdeviceptr dc, dw, dcost, da, dcen, dsw, dwork;
    TH_TRY(th_module(c, "sc.ptx", NULL));
    TH_TRY(th_upload(c, coord, (size_t)num * dim * 4, &dc));
    TH_TRY(th_upload(c, weight, (size_t)num * 4, &dw));
    TH_TRY(th_upload(c, cost, (size_t)num * 4, &dcost));
    TH_TRY(th_upload(c, assign, (size_t)num * sizeof(int), &da));
    TH_TRY(th_upload(c, center, (size_t)ncentre * sizeof(int), &dcen));
    TH_TRY(th_upload(c, NULL, (size_t)num * sizeof(int), &dsw));
    TH_TRY(th_upload(c, NULL, (size_t)num * (k + 1) * 4, &dwork));
    void *p[] = {&num, &dim, &k, &x, &dc, &dw, &dcost, &da, &dcen, &dsw, &dwork};
    TH_TRY(wb_launch(c, "sc_pgain", (unsigned)(num + 255) / 256, 1, 1, 256, 1, p));
    int *gsw = th_host(c, (size_t)num * sizeof(int));
    float *gwork = th_host(c, (size_t)num * (k + 1) * 4);
    TH_TRY(th_download(c, gsw, dsw, (size_t)num * sizeof(int)));
    TH_TRY(th_download(c, gwork, dwork, (size_t)num * (k + 1) * 4));
    double *ref = wb_dbl(c, (size_t)num * (k + 1)), *mag = wb_dbl(c, (size_t)num * (k + 1));
    int switched = 0;
    for (int q = 0; q < num; q++) {
        /* the distance in float, in the kernel's order (it decides the branch) */
        float d = 0.0f;
        double dm = 0;
        for (int i = 0; i < dim; i++) {
            float t = coord[i * num + q] - coord[i * num + x];
            d = fmaf(t, t, d);
            dm += (double)t * t;
        }
        float dd = d * weight[q];
        double mg = (dm * weight[q] + cost[q]) * 1.0001;
        for (int j = 0; j <= k; j++) ref[q * (k + 1) + j] = 0, mag[q * (k + 1) + j] = 0;
        bool sw = dd < cost[q];
        if (gsw[q] != (sw ? 1 : 0)) return th_fail(c, "switch[%d] = %d, expected %d", q, gsw[q], sw ? 1 : 0);
        switched += sw;
        int j = sw ? k : center[assign[q]];
        ref[q * (k + 1) + j] = sw ? (double)dd - cost[q] : (double)cost[q] - dd;
        mag[q * (k + 1) + j] = mg;
    }
    if (switched == 0 || switched == num) return th_fail(c, "inputs: %d of %d points switch", switched, num);
    return wb_check(c, "work", gwork, ref, mag, (size_t)num * (k + 1), 2.0 * dim + 4);
}

/* k-means's feature transposition (kmeans.cu): exact. */
static int b_kmeans(th_ctx *c)
{
    int np = c->small ? 512 : 15360, nf = 34;
    float *in = wb_fill(c, 39, (size_t)np * nf);
    CUdeviceptr di, dout;
    TH_TRY(th_module(c, "kmeans.ptx", NULL));
    TH_TRY(th_upload(c, in, (size_t)np * nf * 4, &di));
    TH_TRY(th_upload(c, NULL, (size_t)np * nf * 4, &dout));
    void *p[] = {&np, &nf, &di, &dout};
    TH_TRY(wb_launch(c, "kmeans_invert", (unsigned)(np + 255) / 256, 1, 1, 256, 1, p));
    float *got = th_host(c, (size_t)np * nf * 4);
    TH_TRY(th_download(c, got, dout, (size_t)np * nf * 4));
    for (int q = 0; q < np; q++)
        for (int i = 0; i < nf; i++)
            if (got[(size_t)i * np + q] != in[(size_t)q * nf + i])
                return th_fail(c, "out[%d][%d] = %g, expected %g", i, q, (double)got[(size_t)i * np + q],
                               (double)in[(size_t)q * nf + i]);
    return 0;
}

/* Lattice Boltzmann, one step (lbm.cu). */
static const int lbm_ex[19] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const int lbm_ey[19] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
static const int lbm_ez[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};

static int b_lbm(th_ctx *c)
{
    int nx = 128, ny = c->small ? 4 : 16, nz = c->small ? 4 : 16;
    float omega = 1.2f;
    size_t cells = (size_t)nx * ny * nz;
    static const double w[19] = {1.0 / 3,  1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18,
                                 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36,
                                 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36};
    float *src = th_host(c, cells * 20 * 4);
    for (size_t q = 0; q < cells; q++)
        for (int e = 0; e < 19; e++) src[q * 20 + e] = (float)(w[e] * (1.0 + 0.1 * (wb_val(40, (uint32_t)(q * 20 + e)) - 0.5)));
    CUdeviceptr ds, dd;
    TH_TRY(th_module(c, "lbm.ptx", NULL));
    TH_TRY(th_upload(c, src, cells * 20 * 4, &ds));
    TH_TRY(th_upload(c, NULL, cells * 20 * 4, &dd));
    void *p[] = {&nx, &ny, &nz, &omega, &ds, &dd};
    TH_TRY(wb_launch(c, "lbm_step", 1, (unsigned)ny, (unsigned)nz, 128, 1, p));
    float *got = th_host(c, cells * 20 * 4);
    TH_TRY(th_download(c, got, dd, cells * 20 * 4));
    double *ref = wb_dbl(c, cells * 20), *mag = wb_dbl(c, cells * 20);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t q = ((size_t)z * ny + y) * nx + x;
                double rho = 0, ux = 0, uy = 0, uz = 0;
                for (int e = 0; e < 19; e++) {
                    double f = src[q * 20 + e];
                    rho += f;
                    ux += f * lbm_ex[e];
                    uy += f * lbm_ey[e];
                    uz += f * lbm_ez[e];
                }
                ux /= rho;
                uy /= rho;
                uz /= rho;
                double u2 = 1.5 * (ux * ux + uy * uy + uz * uz);
                for (int e = 0; e < 19; e++) {
                    double eu = 3.0 * (lbm_ex[e] * ux + lbm_ey[e] * uy + lbm_ez[e] * uz);
                    double feq = w[e] * rho * (1.0 + eu + 0.5 * eu * eu - u2);
                    int xn = (x + lbm_ex[e] + nx) % nx, yn = (y + lbm_ey[e] + ny) % ny, zn = (z + lbm_ez[e] + nz) % nz;
                    size_t d = (((size_t)zn * ny + yn) * nx + xn) * 20 + e;
                    double f = src[q * 20 + e];
                    ref[d] = f + omega * (feq - f);
                    /* every term is below rho in size; the chain is some 40 roundings */
                    mag[d] = 4.0 * rho;
                }
            }
    for (size_t q = 0; q < cells; q++) ref[q * 20 + 19] = 0, mag[q * 20 + 19] = 0; /* the unused slot */
    return wb_check(c, "dst", got, ref, mag, cells * 20, 60);
}

/* ---- the table --------------------------------------------------------------------------- */

/* In the order of the paper's figures, with the class it gives each. */
typedef int (*wb_fn)(th_ctx *c);
static const struct wb_bench {
    const char *name, *kernel, *file, *cls;
    wb_fn fn;
} wb_benches[] = {
    {"syr2k", "syr2k_kernel", "syr2k.ptx", "memory-divergent", b_syr2k},
    {"pf_1", "pf_likelihood", "pf.ptx", "memory-divergent", b_pf},
    {"syrk", "syrk_kernel", "syrk.ptx", "memory-divergent", b_syrk},
    {"mri-g_3", "mrig_gridding", "mrig.ptx", "memory-divergent", b_mrig},
    {"spmv", "spmv_csr", "spmv.ptx", "memory-divergent", b_spmv},
    {"sc", "sc_pgain", "sc.ptx", "memory-divergent", b_sc},
    {"3mm_1", "mm3_kernel1", "3mm.ptx", "bandwidth-limited", b_3mm},
    {"gemm", "gemm_kernel", "gemm.ptx", "bandwidth-limited", b_gemm},
    {"2mm_1", "mm2_kernel1", "2mm.ptx", "bandwidth-limited", b_2mm},
    {"corr_3", "corr_reduce", "corr.ptx", "bandwidth-limited", b_corr3},
    {"atax_1", "atax_kernel1", "atax.ptx", "bandwidth-limited", b_atax1},
    {"atax_2", "atax_kernel2", "atax.ptx", "bandwidth-limited", b_atax2},
    {"kmeans_1", "kmeans_invert", "kmeans.ptx", "bandwidth-limited", b_kmeans},
    {"corr_4", "corr_corr", "corr.ptx", "cache-limited", b_corr4},
    {"mvt_1", "mvt_kernel1", "mvt.ptx", "cache-limited", b_mvt1},
    {"bicg", "bicg_kernel2", "bicg.ptx", "cache-limited", b_bicg},
    {"gesummv_2", "gesummv_kernel", "gesummv.ptx", "cache-limited", b_gesummv},
    {"lbm", "lbm_step", "lbm.ptx", "cache-limited", b_lbm},
};
enum { WB_NBENCH = sizeof wb_benches / sizeof wb_benches[0] };

/* Runs one benchmark in the shared context; prints its line; returns 1 on FAIL. */
static int run_one(th_ctx *c, const struct wb_bench *b)
{
    c->msg[0] = 0;
    int rc = b->fn(c);
    th_release(c);
    th_report(b->name, rc, c->msg);
    return rc != TH_OK;
}

int main(int argc, char **argv)
{
    th_args a;
    if (th_args_parse(&a, argc, argv, TH_ARG_PTX | TH_ARG_SMALL | TH_ARG_LIST, "experiments/warppool/kernels",
                      "wpbench [--ptx DIR] [--small] [--list] [NAME...]"))
        return 2;
    if (a.list) {
        for (int k = 0; k < WB_NBENCH; k++)
            printf("%-10s %-15s %-12s %s\n", wb_benches[k].name, wb_benches[k].kernel, wb_benches[k].file,
                   wb_benches[k].cls);
        return 0;
    }
    th_ctx c = {.prog = "wpbench", .ptxdir = a.ptxdir, .small = a.small};
    if (th_device(&c) != TH_OK || th_open(&c) != TH_OK) {
        fprintf(stderr, "wpbench: no CUDA context (%s)\n", c.msg);
        return 1;
    }
    int failed = 0;
    if (!a.nnames) {
        for (int k = 0; k < WB_NBENCH; k++) failed += run_one(&c, &wb_benches[k]);
    } else {
        for (int i = 0; i < a.nnames; i++) {
            int k = 0;
            while (k < WB_NBENCH && strcmp(wb_benches[k].name, a.names[i]) != 0) k++;
            if (k == WB_NBENCH) {
                printf("FAIL %s: no such benchmark (wpbench --list)\n", a.names[i]);
                failed++;
                continue;
            }
            failed += run_one(&c, &wb_benches[k]);
        }
    }
    th_close(&c);
    return failed ? 1 : 0;
}
