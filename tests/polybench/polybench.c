/*
** polybench.c -- the host side of tpsim's PolyBench-style validation
** kernels: a plain C11 CUDA driver-API program (it runs unchanged on a GPU
** linked with NVIDIA's libcuda) that loads the committed PTX of one
** benchmark, initialises its inputs deterministically with the suite's usual
** formulas, launches its kernels with the suite's shapes, and checks every
** output element against a CPU reference.
**
**   polybench [--ptx DIR] [--list] [NAME...]
**
** NAME is one of 2mm gemm atax bicg gesummv 2dconv fdtd2d corr (all when
** none is given); DIR holds NAME.ptx (default tests/polybench).  One line
** per benchmark: "PASS NAME" or "FAIL NAME: why"; the exit status is 0 when
** every one passed.  Module prefix: pb_; the driver calls, buffers,
** argument parsing and checking are tests/harness's (th_).
**
** Checking.  The reference is computed in double from the float values the
** kernel actually read (for a kernel that consumes another's output, from
** the GPU's own result, downloaded), so each kernel is judged alone and
** errors do not compound across kernels.  Element k passes when
**   |got[k] - ref[k]| <= tol[k]
** where tol is the classic forward error bound of float arithmetic in any
** evaluation order, with or without fused multiply-add: a sum of products
** of n terms done with k roundings along its longest chain differs from the
** exact value by at most gamma(k) * sum |terms|, gamma(k) = k u / (1 - k u),
** u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
** ed., section 3.1).  Each benchmark counts its k and its terms below;
** divisions, square roots and conversions done in double on the device add
** one float rounding (u |result|) each where their result is rounded to
** float.  Elements a kernel must not write are compared exactly.  The bound
** is rigorous, not a fudge factor: a kernel that reads a wrong element, skips
** a term or drops a store misses it by orders of magnitude.
*/
#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- driver helpers: buffers of n floats, 2-D launches ------------------------------- */

static int pb_put(th_ctx *c, const float *h, size_t n, CUdeviceptr *p) { return th_upload(c, h, n * sizeof(float), p); }
static int pb_get(th_ctx *c, float *h, CUdeviceptr p, size_t n) { return th_download(c, h, p, n * sizeof(float)); }
static int pb_launch(th_ctx *c, CUfunction f, unsigned gx, unsigned gy, unsigned bx, unsigned by, void **args)
{
    return th_launch(c, f, gx, gy, 1, bx, by, 1, 0, args);
}

/* ---- checking --------------------------------------------------------------- */

#define PB_U 0x1p-24 /* unit roundoff of float */

/* gamma(k) = k u / (1 - k u): the bound on the relative error of k roundings. */
static double pb_gamma(int k) { return k * PB_U / (1.0 - k * PB_U); }

/* Compares got[0..n) with ref within tol (tol NULL: exactly).  cols > 0
** names a failing element as [row][col] of a matrix with that many columns. */
static int pb_check(th_ctx *c, const char *what, const float *got, const double *ref, const double *tol, size_t n,
                    size_t cols)
{
    th_tol t = {tol, 0.0, 0.0, cols};
    return th_check_f32(c, what, got, ref, n, tol ? &t : NULL);
}

/* Scratch arrays of a benchmark, freed with it (th_release). */
#define PB_NEWF(c, n) ((float *)th_host((c), (size_t)(n) * sizeof(float)))
#define PB_NEWD(c, n) ((double *)th_host((c), (size_t)(n) * sizeof(double)))

/* ---- matrix products: 2mm, gemm ------------------------------------------------ */

/* ref[i][j] = s * C0[i][j] + sum_k a * X[i][k] * Y[k][j] over n x n matrices
** (s = 0: no C0 term), with the bound of the device's evaluation: the scaled
** C0 term is one rounding, each product term at most two (a * X rounded, then
** the fma or multiply-add), and the running sum one per term. */
static void pb_ref_mm(int n, double s, const float *c0, double a, const float *x, const float *y, double *ref,
                      double *tol, int roundings_per_term)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = s ? s * c0[i * n + j] : 0.0, mag = fabs(v);
            for (int k = 0; k < n; k++) {
                double t = a * x[i * n + k] * y[k * n + j];
                v += t;
                mag += fabs(t);
            }
            ref[i * n + j] = v;
            tol[i * n + j] = pb_gamma(roundings_per_term * n + 1) * mag;
        }
}

enum { PB_MM = 128 };

static int pb_2mm(th_ctx *c)
{
    const int n = PB_MM;
    const float alpha = 32412.0f, beta = 2123.0f;
    float *A = PB_NEWF(c, n * n), *B = PB_NEWF(c, n * n), *C = PB_NEWF(c, n * n), *D = PB_NEWF(c, n * n);
    float *tmp = PB_NEWF(c, n * n), *Dgot = PB_NEWF(c, n * n);
    double *ref = PB_NEWD(c, n * n), *tol = PB_NEWD(c, n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)i * (float)j / (float)n;
            B[i * n + j] = (float)i * (float)(j + 1) / (float)n;
            C[i * n + j] = (float)i * (float)(j + 3) / (float)n;
            D[i * n + j] = (float)i * (float)(j + 2) / (float)n;
        }
    CUfunction k1, k2;
    CUdeviceptr dA, dB, dC, dD, dT;
    if (th_module(c, "2mm.ptx", NULL) || th_func(c, c->mod, "_Z11mm2_kernel1iiiiffPfS_S_", &k1) ||
        th_func(c, c->mod, "_Z11mm2_kernel2iiiiffPfS_S_", &k2) || pb_put(c, A, n * n, &dA) ||
        pb_put(c, B, n * n, &dB) || pb_put(c, C, n * n, &dC) || pb_put(c, D, n * n, &dD) || pb_put(c, NULL, n * n, &dT))
        return TH_FAIL;
    int ni = n, nj = n, nk = n, nl = n;
    float a = alpha, b = beta;
    void *args1[] = {&ni, &nj, &nk, &nl, &a, &b, &dT, &dA, &dB};
    void *args2[] = {&ni, &nj, &nk, &nl, &a, &b, &dT, &dC, &dD};
    if (pb_launch(c, k1, th_cdiv(n, 32), th_cdiv(n, 8), 32, 8, args1) ||
        pb_launch(c, k2, th_cdiv(n, 32), th_cdiv(n, 8), 32, 8, args2) || pb_get(c, tmp, dT, n * n) ||
        pb_get(c, Dgot, dD, n * n))
        return TH_FAIL;
    /* kernel 1: alpha * A[i][k] rounded, then accumulated: two roundings a term. */
    pb_ref_mm(n, 0.0, NULL, alpha, A, B, ref, tol, 2);
    if (pb_check(c, "tmp", tmp, ref, tol, n * n, n)) return TH_FAIL;
    /* kernel 2, from the device's tmp: one rounding a term. */
    pb_ref_mm(n, beta, D, 1.0, tmp, C, ref, tol, 1);
    if (pb_check(c, "D", Dgot, ref, tol, n * n, n)) return TH_FAIL;
    return TH_OK;
}

static int pb_gemm(th_ctx *c)
{
    const int n = PB_MM;
    const float alpha = 32412.0f, beta = 2123.0f;
    float *A = PB_NEWF(c, n * n), *B = PB_NEWF(c, n * n), *C = PB_NEWF(c, n * n), *got = PB_NEWF(c, n * n);
    double *ref = PB_NEWD(c, n * n), *tol = PB_NEWD(c, n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)i * (float)j / (float)n;
            B[i * n + j] = (float)i * (float)j / (float)n;
            C[i * n + j] = (float)i * (float)j / (float)n;
        }
    CUfunction k;
    CUdeviceptr dA, dB, dC;
    if (th_module(c, "gemm.ptx", NULL) || th_func(c, c->mod, "_Z11gemm_kerneliiiffPfS_S_", &k) ||
        pb_put(c, A, n * n, &dA) || pb_put(c, B, n * n, &dB) || pb_put(c, C, n * n, &dC))
        return TH_FAIL;
    int ni = n, nj = n, nk = n;
    float a = alpha, b = beta;
    void *args[] = {&ni, &nj, &nk, &a, &b, &dA, &dB, &dC};
    if (pb_launch(c, k, th_cdiv(n, 32), th_cdiv(n, 8), 32, 8, args) || pb_get(c, got, dC, n * n)) return TH_FAIL;
    pb_ref_mm(n, beta, C, alpha, A, B, ref, tol, 2);
    if (pb_check(c, "C", got, ref, tol, n * n, n)) return TH_FAIL;
    return TH_OK;
}

/* ---- matrix-vector products: atax, bicg, gesummv ---------------------------------- */

/* out[i] = sum_j A[i][j] * v[j] (rows: transposed = 0) or
** out[j] = sum_i A[i][j] * v[i] (columns: transposed = 1) of an nr x nc matrix,
** with mag = sum |terms|.  pb_tol_mv turns mag into the bound of the device's
** evaluation: one fma (or multiply and add) per term, a chain of n + 1
** roundings. */
static void pb_ref_mv(int nr, int nc, const float *A, const float *v, int transposed, double *ref, double *mag_out)
{
    int nout = transposed ? nc : nr, nin = transposed ? nr : nc;
    for (int o = 0; o < nout; o++) {
        double s = 0.0, mag = 0.0;
        for (int k = 0; k < nin; k++) {
            double t = (double)(transposed ? A[k * nc + o] : A[o * nc + k]) * v[k];
            s += t;
            mag += fabs(t);
        }
        ref[o] = s;
        mag_out[o] = mag;
    }
}

static void pb_tol_mv(int n, int terms, double *mag)
{
    for (int o = 0; o < n; o++) mag[o] *= pb_gamma(terms + 1);
}

enum { PB_MV = 512 };

static int pb_atax(th_ctx *c)
{
    const int nx = PB_MV, ny = PB_MV;
    float *A = PB_NEWF(c, nx * ny), *x = PB_NEWF(c, ny), *tmp = PB_NEWF(c, nx), *y = PB_NEWF(c, ny);
    double *ref = PB_NEWD(c, nx + ny), *tol = PB_NEWD(c, nx + ny);
    for (int j = 0; j < ny; j++) x[j] = (float)j * (float)M_PI;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) A[i * ny + j] = (float)i * (float)(j + 1) / (float)nx;
    CUfunction k1, k2;
    CUdeviceptr dA, dx, dy, dt;
    if (th_module(c, "atax.ptx", NULL) || th_func(c, c->mod, "_Z12atax_kernel1iiPfS_S_", &k1) ||
        th_func(c, c->mod, "_Z12atax_kernel2iiPfS_S_", &k2) || pb_put(c, A, nx * ny, &dA) || pb_put(c, x, ny, &dx) ||
        pb_put(c, NULL, ny, &dy) || pb_put(c, NULL, nx, &dt))
        return TH_FAIL;
    int a0 = nx, a1 = ny;
    void *args1[] = {&a0, &a1, &dA, &dx, &dt};
    void *args2[] = {&a0, &a1, &dA, &dy, &dt};
    if (pb_launch(c, k1, th_cdiv(nx, 256), 1, 256, 1, args1) || pb_launch(c, k2, th_cdiv(ny, 256), 1, 256, 1, args2) ||
        pb_get(c, tmp, dt, nx) || pb_get(c, y, dy, ny))
        return TH_FAIL;
    pb_ref_mv(nx, ny, A, x, 0, ref, tol);
    pb_tol_mv(nx, ny, tol);
    if (pb_check(c, "tmp", tmp, ref, tol, nx, 0)) return TH_FAIL;
    pb_ref_mv(nx, ny, A, tmp, 1, ref, tol);
    pb_tol_mv(ny, nx, tol);
    if (pb_check(c, "y", y, ref, tol, ny, 0)) return TH_FAIL;
    return TH_OK;
}

static int pb_bicg(th_ctx *c)
{
    const int nx = PB_MV, ny = PB_MV;
    float *A = PB_NEWF(c, nx * ny), *r = PB_NEWF(c, nx), *p = PB_NEWF(c, ny);
    float *s = PB_NEWF(c, ny), *q = PB_NEWF(c, nx);
    double *ref = PB_NEWD(c, nx + ny), *tol = PB_NEWD(c, nx + ny);
    for (int i = 0; i < nx; i++) r[i] = (float)i * (float)M_PI;
    for (int j = 0; j < ny; j++) p[j] = (float)j * (float)M_PI;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) A[i * ny + j] = (float)i * (float)j / (float)nx;
    CUfunction k1, k2;
    CUdeviceptr dA, dr, dp, ds, dq;
    if (th_module(c, "bicg.ptx", NULL) || th_func(c, c->mod, "_Z12bicg_kernel1iiPfS_S_", &k1) ||
        th_func(c, c->mod, "_Z12bicg_kernel2iiPfS_S_", &k2) || pb_put(c, A, nx * ny, &dA) || pb_put(c, r, nx, &dr) ||
        pb_put(c, p, ny, &dp) || pb_put(c, NULL, ny, &ds) || pb_put(c, NULL, nx, &dq))
        return TH_FAIL;
    int a0 = nx, a1 = ny;
    void *args1[] = {&a0, &a1, &dA, &dr, &ds};
    void *args2[] = {&a0, &a1, &dA, &dp, &dq};
    if (pb_launch(c, k1, th_cdiv(ny, 256), 1, 256, 1, args1) || pb_launch(c, k2, th_cdiv(nx, 256), 1, 256, 1, args2) ||
        pb_get(c, s, ds, ny) || pb_get(c, q, dq, nx))
        return TH_FAIL;
    pb_ref_mv(nx, ny, A, r, 1, ref, tol);
    pb_tol_mv(ny, nx, tol);
    if (pb_check(c, "s", s, ref, tol, ny, 0)) return TH_FAIL;
    pb_ref_mv(nx, ny, A, p, 0, ref, tol);
    pb_tol_mv(nx, ny, tol);
    if (pb_check(c, "q", q, ref, tol, nx, 0)) return TH_FAIL;
    return TH_OK;
}

static int pb_gesummv(th_ctx *c)
{
    const int n = PB_MV;
    const float alpha = 43532.0f, beta = 12313.0f;
    float *A = PB_NEWF(c, n * n), *B = PB_NEWF(c, n * n), *x = PB_NEWF(c, n);
    float *tmp = PB_NEWF(c, n), *y = PB_NEWF(c, n);
    double *ra = PB_NEWD(c, n), *ma = PB_NEWD(c, n), *rb = PB_NEWD(c, n), *mb = PB_NEWD(c, n);
    double *tol = PB_NEWD(c, n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)i / (float)n;
        for (int j = 0; j < n; j++) {
            A[i * n + j] = (float)i * (float)j / (float)n;
            B[i * n + j] = (float)i * (float)j / (float)n;
        }
    }
    CUfunction k;
    CUdeviceptr dA, dB, dt, dx, dy;
    if (th_module(c, "gesummv.ptx", NULL) || th_func(c, c->mod, "_Z14gesummv_kerneliffPfS_S_S_S_", &k) ||
        pb_put(c, A, n * n, &dA) || pb_put(c, B, n * n, &dB) || pb_put(c, NULL, n, &dt) || pb_put(c, x, n, &dx) ||
        pb_put(c, NULL, n, &dy))
        return TH_FAIL;
    int nn = n;
    float a = alpha, b = beta;
    void *args[] = {&nn, &a, &b, &dA, &dB, &dt, &dx, &dy};
    if (pb_launch(c, k, th_cdiv(n, 256), 1, 256, 1, args) || pb_get(c, tmp, dt, n) || pb_get(c, y, dy, n))
        return TH_FAIL;
    pb_ref_mv(n, n, A, x, 0, ra, ma);
    for (int i = 0; i < n; i++) tol[i] = pb_gamma(n + 1) * ma[i];
    if (pb_check(c, "tmp", tmp, ra, tol, n, 0)) return TH_FAIL;
    /* y = alpha * tmp + beta * (B x): each sum's chain, then a multiply and an
    ** fma; the bound is taken over the scaled terms of both sums. */
    pb_ref_mv(n, n, B, x, 0, rb, mb);
    for (int i = 0; i < n; i++) {
        rb[i] = alpha * ra[i] + beta * rb[i];
        tol[i] = pb_gamma(n + 3) * (fabs(alpha) * ma[i] + fabs(beta) * mb[i]);
    }
    if (pb_check(c, "y", y, rb, tol, n, 0)) return TH_FAIL;
    return TH_OK;
}

/* ---- 2dconv ------------------------------------------------------------------------ */

enum { PB_CONV = 512 };

static int pb_2dconv(th_ctx *c)
{
    const int n = PB_CONV;
    /* The coefficients as the device holds them (float constants), row offset
    ** di = -1..1 first, column offset dj = -1..1 second. */
    static const float coef[3][3] = {{+0.2f, +0.5f, -0.8f}, {-0.3f, +0.6f, -0.9f}, {+0.4f, +0.7f, +0.10f}};
    float *A = PB_NEWF(c, n * n), *B = PB_NEWF(c, n * n);
    double *ref = PB_NEWD(c, n * n), *tol = PB_NEWD(c, n * n);
    /* The suite draws A from rand(); a fixed formula in [0, 1) keeps every
    ** run and every host identical. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) A[i * n + j] = (float)((i * 37 + j * 101 + i * j) % 1021) / 1021.0f;
    CUfunction k;
    CUdeviceptr dA, dB;
    if (th_module(c, "2dconv.ptx", NULL) || th_func(c, c->mod, "_Z20convolution2D_kerneliiPfS_", &k) ||
        pb_put(c, A, n * n, &dA) || pb_put(c, NULL, n * n, &dB))
        return TH_FAIL;
    int ni = n, nj = n;
    void *args[] = {&ni, &nj, &dA, &dB};
    if (pb_launch(c, k, th_cdiv(n, 32), th_cdiv(n, 8), 32, 8, args) || pb_get(c, B, dB, n * n)) return TH_FAIL;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = 0.0, mag = 0.0;
            if (i > 0 && i < n - 1 && j > 0 && j < n - 1)
                for (int di = -1; di <= 1; di++)
                    for (int dj = -1; dj <= 1; dj++) {
                        double t = (double)coef[di + 1][dj + 1] * A[(i + di) * n + (j + dj)];
                        v += t;
                        mag += fabs(t);
                    }
            ref[i * n + j] = v;           /* the border stays 0 */
            tol[i * n + j] = pb_gamma(10) * mag; /* 9 products, 8 additions at most, fused or not */
        }
    if (pb_check(c, "B", B, ref, tol, n * n, n)) return TH_FAIL;
    return TH_OK;
}

/* ---- fdtd2d --------------------------------------------------------------------------- */

enum { PB_FDTD = 128, PB_TMAX = 10 };

static int pb_fdtd2d(th_ctx *c)
{
    const int n = PB_FDTD, nn = PB_FDTD * PB_FDTD;
    float *fict = PB_NEWF(c, PB_TMAX), *ex = PB_NEWF(c, nn), *ey = PB_NEWF(c, nn), *hz = PB_NEWF(c, nn);
    float *got = PB_NEWF(c, nn);
    double *ref = PB_NEWD(c, nn), *tol = PB_NEWD(c, nn);
    for (int t = 0; t < PB_TMAX; t++) fict[t] = (float)t;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            ex[i * n + j] = (float)i * (float)(j + 1) / (float)n;
            ey[i * n + j] = (float)(i - 1) * (float)(j + 2) / (float)n;
            hz[i * n + j] = (float)i * (float)(j + 3) / (float)n;
        }
    CUfunction k1, k2, k3;
    CUdeviceptr dfict, dex, dey, dhz;
    if (th_module(c, "fdtd2d.ptx", NULL) || th_func(c, c->mod, "_Z17fdtd_step1_kerneliiPfS_S_S_i", &k1) ||
        th_func(c, c->mod, "_Z17fdtd_step2_kerneliiPfS_S_i", &k2) ||
        th_func(c, c->mod, "_Z17fdtd_step3_kerneliiPfS_S_i", &k3) || pb_put(c, fict, PB_TMAX, &dfict) ||
        pb_put(c, ex, nn, &dex) || pb_put(c, ey, nn, &dey) || pb_put(c, hz, nn, &dhz))
        return TH_FAIL;
    int nx = n, ny = n;
    /* Every kernel is checked against the previous state (ex, ey, hz hold
    ** the device's values so far); each update is a subtraction, a scaling
    ** by 0.5 (exact) or 0.7f, and a final subtraction or fma. */
    for (int t = 0; t < PB_TMAX; t++) {
        char what[32];
        void *args1[] = {&nx, &ny, &dfict, &dex, &dey, &dhz, &t};
        void *args23[] = {&nx, &ny, &dex, &dey, &dhz, &t};
        if (pb_launch(c, k1, th_cdiv(n, 32), th_cdiv(n, 8), 32, 8, args1) || pb_get(c, got, dey, nn)) return TH_FAIL;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int e = i * n + j;
                if (i == 0) {
                    ref[e] = fict[t];
                    tol[e] = 0.0;
                } else {
                    double d = (double)hz[e] - hz[e - n];
                    ref[e] = ey[e] - 0.5 * d;
                    tol[e] = pb_gamma(2) * (fabs(ey[e]) + 0.5 * (fabs(hz[e]) + fabs(hz[e - n])));
                }
            }
        snprintf(what, sizeof what, "ey (t=%d)", t);
        if (pb_check(c, what, got, ref, tol, nn, n)) return TH_FAIL;
        memcpy(ey, got, nn * sizeof(float));

        if (pb_launch(c, k2, th_cdiv(n, 32), th_cdiv(n, 8), 32, 8, args23) || pb_get(c, got, dex, nn)) return TH_FAIL;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int e = i * n + j;
                if (j == 0) {
                    ref[e] = ex[e];
                    tol[e] = 0.0;
                } else {
                    double d = (double)hz[e] - hz[e - 1];
                    ref[e] = ex[e] - 0.5 * d;
                    tol[e] = pb_gamma(2) * (fabs(ex[e]) + 0.5 * (fabs(hz[e]) + fabs(hz[e - 1])));
                }
            }
        snprintf(what, sizeof what, "ex (t=%d)", t);
        if (pb_check(c, what, got, ref, tol, nn, n)) return TH_FAIL;
        memcpy(ex, got, nn * sizeof(float));

        if (pb_launch(c, k3, th_cdiv(n, 32), th_cdiv(n, 8), 32, 8, args23) || pb_get(c, got, dhz, nn)) return TH_FAIL;
        const double k07 = 0.7f; /* the float constant the device multiplies by */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int e = i * n + j;
                if (i == n - 1 || j == n - 1) {
                    ref[e] = hz[e];
                    tol[e] = 0.0;
                } else {
                    double s = (double)ex[e + 1] - ex[e] + ey[e + n] - ey[e];
                    ref[e] = hz[e] - k07 * s;
                    /* three additions, the product and the final subtraction */
                    tol[e] = pb_gamma(5) * (fabs(hz[e]) + k07 * (fabs(ex[e + 1]) + fabs(ex[e]) + fabs(ey[e + n]) +
                                                                 fabs(ey[e])));
                }
            }
        snprintf(what, sizeof what, "hz (t=%d)", t);
        if (pb_check(c, what, got, ref, tol, nn, n)) return TH_FAIL;
        memcpy(hz, got, nn * sizeof(float));
    }
    return TH_OK;
}

/* ---- corr ------------------------------------------------------------------------------- */

enum { PB_CM = 256, PB_CN = 256 };
/* The algorithm's constants, as the float constants the device uses. */
#define PB_FLOAT_N 3214212.01f
#define PB_EPS 0.005f

static int pb_corr(th_ctx *c)
{
    const int mm = PB_CM, n = PB_CN;
    float *data = PB_NEWF(c, n * mm), *mean = PB_NEWF(c, mm), *sd = PB_NEWF(c, mm);
    float *red = PB_NEWF(c, n * mm), *sym = PB_NEWF(c, mm * mm);
    double *ref = PB_NEWD(c, mm * mm), *tol = PB_NEWD(c, mm * mm);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < mm; j++) data[i * mm + j] = (float)i * (float)j / (float)mm;
    CUfunction kmean, kstd, kred, kcorr;
    CUdeviceptr ddata, dmean, dstd, dsym;
    if (th_module(c, "corr.ptx", NULL) || th_func(c, c->mod, "_Z11mean_kerneliiPfS_", &kmean) ||
        th_func(c, c->mod, "_Z10std_kerneliiPfS_S_", &kstd) || th_func(c, c->mod, "_Z13reduce_kerneliiPfS_S_", &kred) ||
        th_func(c, c->mod, "_Z11corr_kerneliiPfS_", &kcorr) || pb_put(c, data, n * mm, &ddata) ||
        pb_put(c, NULL, mm, &dmean) || pb_put(c, NULL, mm, &dstd) || pb_put(c, NULL, mm * mm, &dsym))
        return TH_FAIL;
    int am = mm, an = n;
    void *a_mean[] = {&am, &an, &dmean, &ddata};
    void *a_std[] = {&am, &an, &dmean, &dstd, &ddata};
    void *a_corr[] = {&am, &an, &dsym, &ddata};
    if (pb_launch(c, kmean, th_cdiv(mm, 256), 1, 256, 1, a_mean) ||
        pb_launch(c, kstd, th_cdiv(mm, 256), 1, 256, 1, a_std) ||
        pb_launch(c, kred, th_cdiv(mm, 32), th_cdiv(n, 8), 32, 8, a_std) ||
        pb_launch(c, kcorr, th_cdiv(mm, 256), 1, 256, 1, a_corr) || pb_get(c, mean, dmean, mm) ||
        pb_get(c, sd, dstd, mm) || pb_get(c, red, ddata, n * mm) || pb_get(c, sym, dsym, mm * mm))
        return TH_FAIL;
    sym[(mm - 1) * mm + (mm - 1)] = 1.0f; /* the algorithm's last statement, done on the host */

    /* mean: a float sum of n terms, then a float division. */
    for (int j = 0; j < mm; j++) {
        double s = 0.0, mag = 0.0;
        for (int i = 0; i < n; i++) {
            s += data[i * mm + j];
            mag += fabs(data[i * mm + j]);
        }
        ref[j] = s / PB_FLOAT_N;
        tol[j] = pb_gamma(n) * mag / PB_FLOAT_N + PB_U * fabs(ref[j]);
    }
    if (pb_check(c, "mean", mean, ref, tol, mm, 0)) return TH_FAIL;

    /* std, from the device's mean: S = sum (d - mean)^2 with a rounded
    ** difference, product and sum per term (n + 2 roundings along the chain,
    ** relative to sum (|d| + |mean|)^2), then a float division by FLOAT_N and a
    ** float square root, which halves S's relative error and adds a rounding;
    ** values <= EPS become exactly 1.  A column whose exact value lies within
    ** the bound of EPS could go either way: the data keep every column far
    ** from it (column 0 is 0, column 1 is about 0.0051), which is checked. */
    for (int j = 0; j < mm; j++) {
        double s = 0.0, big = 0.0;
        for (int i = 0; i < n; i++) {
            double d = (double)data[i * mm + j] - mean[j];
            s += d * d;
            big += (fabs(data[i * mm + j]) + fabs(mean[j])) * (fabs(data[i * mm + j]) + fabs(mean[j]));
        }
        double v = sqrt(s / PB_FLOAT_N);
        double rel = s > 0 ? 0.5 * pb_gamma(n + 2) * big / s + 3 * PB_U : 0.0;
        if (fabs(v - PB_EPS) <= 2 * rel * v) {
            return th_fail(c, "std[%d] = %.9g lies within rounding of EPS: change the data", j, v);
        }
        ref[j] = v <= PB_EPS ? 1.0 : v;
        tol[j] = v <= PB_EPS ? 0.0 : rel * v;
    }
    if (pb_check(c, "std", sd, ref, tol, mm, 0)) return TH_FAIL;

    /* reduce, from the original data and the device's mean and std: a float
    ** subtraction, a float product sqrtf(FLOAT_N) * std and a float division
    ** (sqrtf(FLOAT_N) is folded by nvcc; the host's sqrtf is correctly rounded
    ** too, so both use the same float). */
    const double sqrt_n = sqrtf(PB_FLOAT_N);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < mm; j++) {
            int e = i * mm + j;
            double den = sqrt_n * sd[j];
            ref[e] = ((double)data[e] - mean[j]) / den;
            tol[e] = PB_U * (fabs(data[e]) + fabs(mean[j])) / den + 3 * PB_U * fabs(ref[e]);
        }
    if (pb_check(c, "data (reduced)", red, ref, tol, n * mm, mm)) return TH_FAIL;

    /* corr, from the device's reduced data: n fmas per element; the lower
    ** triangle is a copy of the upper one and the diagonal is 1, exactly. */
    for (int j1 = 0; j1 < mm; j1++)
        for (int j2 = j1; j2 < mm; j2++) {
            double s = 0.0, mag = 0.0;
            for (int i = 0; i < n; i++) {
                double t = (double)red[i * mm + j1] * red[i * mm + j2];
                s += t;
                mag += fabs(t);
            }
            if (j1 == j2) {
                ref[j1 * mm + j1] = 1.0;
                tol[j1 * mm + j1] = 0.0;
            } else {
                ref[j1 * mm + j2] = s;
                tol[j1 * mm + j2] = pb_gamma(n + 1) * mag;
                ref[j2 * mm + j1] = sym[j1 * mm + j2]; /* the copy: exact */
                tol[j2 * mm + j1] = 0.0;
            }
        }
    if (pb_check(c, "symmat", sym, ref, tol, mm * mm, mm)) return TH_FAIL;
    return TH_OK;
}

/* ---- the table and main ----------------------------------------------------------------- */

typedef struct pb_bench {
    const char *name;
    int (*run)(th_ctx *c);
} pb_bench;

static const pb_bench pb_benches[] = {
    {"2mm", pb_2mm},         {"gemm", pb_gemm},     {"atax", pb_atax},     {"bicg", pb_bicg},
    {"gesummv", pb_gesummv}, {"2dconv", pb_2dconv}, {"fdtd2d", pb_fdtd2d}, {"corr", pb_corr},
};
#define PB_NBENCH (sizeof pb_benches / sizeof pb_benches[0])

/* Runs one benchmark in a context of its own (when the device is up: else
** c->msg says why not); prints its line; returns 1 on FAIL. */
static int pb_run_one(const pb_bench *b, th_ctx *c, bool up)
{
    int rc = up ? th_open(c) : TH_FAIL;
    if (rc == TH_OK) {
        rc = b->run(c);
        th_close(c);
    }
    th_report(b->name, rc, c->msg);
    return rc != TH_OK;
}

int main(int argc, char **argv)
{
    th_args a;
    if (th_args_parse(&a, argc, argv, TH_ARG_PTX | TH_ARG_LIST, "tests/polybench",
                      "polybench [--ptx DIR] [--list] [NAME...]"))
        return 2;
    if (a.list) {
        for (size_t k = 0; k < PB_NBENCH; k++) printf("%s\n", pb_benches[k].name);
        return 0;
    }
    bool want[PB_NBENCH] = {0};
    for (int i = 0; i < a.nnames; i++) {
        size_t k = 0;
        while (k < PB_NBENCH && strcmp(pb_benches[k].name, a.names[i])) k++;
        if (k == PB_NBENCH) {
            fprintf(stderr, "polybench: no benchmark named %s (--list shows them)\n", a.names[i]);
            return 2;
        }
        want[k] = true;
    }
    th_ctx c = {.prog = "polybench", .ptxdir = a.ptxdir};
    bool up = th_device(&c) == TH_OK;
    int failed = 0;
    for (size_t k = 0; k < PB_NBENCH; k++) {
        if (!a.nnames || want[k]) failed += pb_run_one(&pb_benches[k], &c, up);
    }
    return failed ? 1 : 0;
}
