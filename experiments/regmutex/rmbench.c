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
** Module prefix: rb_.
**
** Checks: integer results exactly; floating-point ones against a reference
** in double within a relative tolerance stated per benchmark (the kernels
** use the fast approximate functions the original codes use -- __expf,
** rsqrtf, __sinf -- whose error dominates), or, where the device and host
** roundings may put a value on either side of a boundary (tpacf's bins), a
** count within a stated slack.
*/
#include <cuda.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rb_ctx {
    const char *ptxdir;
    bool small;
    CUmodule mod;
    CUdeviceptr allocs[32];
    int nallocs;
    void *host[32];
    int nhost;
    char msg[1024];
    uint64_t seed;
} rb_ctx;

static int rb_fail(rb_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rb_fail(rb_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *rb_err(CUresult r)
{
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) return "?";
    return s;
}

#define RB_CU(call)                                                                                  \
    do {                                                                                             \
        CUresult rb_r_ = (call);                                                                     \
        if (rb_r_ != CUDA_SUCCESS) return rb_fail(c, "%s:%d: %s returned %s", __FILE__, __LINE__, #call, rb_err(rb_r_)); \
    } while (0)
#define RB_TRY(x)                \
    do {                         \
        if ((x) != 0) return -1; \
    } while (0)

/* ---- helpers -------------------------------------------------------------- */

static uint32_t rb_rand(rb_ctx *c)
{
    c->seed = c->seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(c->seed >> 33);
}
static float rb_unit(rb_ctx *c) { return (float)(rb_rand(c) & 0xffffff) / 16777216.0f; } /* [0, 1) */

static void *rb_host(rb_ctx *c, size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p || c->nhost == 32) {
        fprintf(stderr, "rmbench: out of memory\n");
        exit(2);
    }
    c->host[c->nhost++] = p;
    return p;
}

static int rb_dev(rb_ctx *c, const void *h, size_t bytes, CUdeviceptr *p)
{
    if (c->nallocs == 32) return rb_fail(c, "too many allocations");
    RB_CU(cuMemAlloc(p, bytes ? bytes : 4));
    c->allocs[c->nallocs++] = *p;
    if (h) RB_CU(cuMemcpyHtoD(*p, h, bytes));
    else RB_CU(cuMemsetD8(*p, 0, bytes ? bytes : 4));
    return 0;
}

static int rb_get(rb_ctx *c, void *h, CUdeviceptr p, size_t bytes)
{
    RB_CU(cuMemcpyDtoH(h, p, bytes));
    return 0;
}

static int rb_func(rb_ctx *c, const char *name, CUfunction *f)
{
    CUresult r = cuModuleGetFunction(f, c->mod, name);
    if (r != CUDA_SUCCESS) return rb_fail(c, "kernel %s: %s", name, rb_err(r));
    return 0;
}

static int rb_launch(rb_ctx *c, CUfunction f, unsigned gx, unsigned gy, unsigned bx, unsigned by, void **args)
{
    RB_CU(cuLaunchKernel(f, gx, gy, 1, bx, by, 1, 0, NULL, args, NULL));
    RB_CU(cuCtxSynchronize());
    return 0;
}

/* got[i] against ref[i] within rel * (|ref| + floor) */
static int rb_check(rb_ctx *c, const char *what, const float *got, const double *ref, size_t n, double rel,
                    double floor)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        double err = fabs((double)got[i] - ref[i]);
        if (!(err <= rel * (fabs(ref[i]) + floor)) && bad++ == 0) first = i;
    }
    if (!bad) return 0;
    return rb_fail(c, "%s[%zu] = %.9g, expected %.9g (relative tolerance %.1g); %zu of %zu wrong", what, first,
                   (double)got[first], ref[first], rel, bad, n);
}

static int rb_check_u32(rb_ctx *c, const char *what, const uint32_t *got, const uint32_t *ref, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != ref[i]) return rb_fail(c, "%s[%zu] = %u, expected %u", what, i, got[i], ref[i]);
    return 0;
}

static unsigned rb_cdiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

/* ---- bfs ---------------------------------------------------------------------- */

static int b_bfs(rb_ctx *c)
{
    int n = c->small ? 8192 : 131072;
    int *starts = rb_host(c, n * sizeof(int)), *deg = rb_host(c, n * sizeof(int));
    int ne = 0;
    for (int i = 0; i < n; i++) {
        starts[i] = ne;
        deg[i] = 1 + (int)(rb_rand(c) % 6);
        ne += deg[i];
    }
    int *edges = rb_host(c, ne * sizeof(int));
    for (int i = 0; i < ne; i++) edges[i] = (int)(rb_rand(c) % (uint32_t)n);
    unsigned char *mask = rb_host(c, n), *vis = rb_host(c, n);
    int *cost = rb_host(c, n * sizeof(int));
    for (int i = 0; i < n; i++) cost[i] = -1;
    mask[0] = vis[0] = 1;
    cost[0] = 0;
    CUdeviceptr dst, ddeg, ded, dmask, dupd, dvis, dcost, dover;
    RB_TRY(rb_dev(c, starts, n * 4, &dst));
    RB_TRY(rb_dev(c, deg, n * 4, &ddeg));
    RB_TRY(rb_dev(c, edges, ne * 4, &ded));
    RB_TRY(rb_dev(c, mask, n, &dmask));
    RB_TRY(rb_dev(c, NULL, n, &dupd));
    RB_TRY(rb_dev(c, vis, n, &dvis));
    RB_TRY(rb_dev(c, cost, n * 4, &dcost));
    RB_TRY(rb_dev(c, NULL, 4, &dover));
    CUfunction fe, fu;
    RB_TRY(rb_func(c, "bfs_expand", &fe));
    RB_TRY(rb_func(c, "bfs_update", &fu));
    unsigned grid = rb_cdiv((unsigned)n, 512 * 4);
    for (int level = 0; level < 64; level++) {
        int zero = 0, over;
        RB_CU(cuMemcpyHtoD(dover, &zero, 4));
        void *a1[] = {&dst, &ddeg, &ded, &dmask, &dupd, &dvis, &dcost, &n};
        RB_TRY(rb_launch(c, fe, grid, 1, 512, 1, a1));
        void *a2[] = {&dmask, &dupd, &dvis, &dover, &n};
        RB_TRY(rb_launch(c, fu, grid, 1, 512, 1, a2));
        RB_TRY(rb_get(c, &over, dover, 4));
        if (!over) break;
    }
    /* reference: the same level-synchronous BFS */
    int *ref = rb_host(c, n * sizeof(int)), *q = rb_host(c, n * sizeof(int)), qh = 0, qt = 0;
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
    RB_TRY(rb_get(c, cost, dcost, n * 4));
    return rb_check_u32(c, "cost", (uint32_t *)cost, (uint32_t *)ref, n);
}

/* ---- cp ------------------------------------------------------------------------- */

static int b_cp(rb_ctx *c)
{
    int natoms = c->small ? 24 : 64, width = 2048, rows = c->small ? 16 : 192;
    float spacing = 0.1f;
    float *atoms = rb_host(c, natoms * 16);
    for (int a = 0; a < natoms; a++) {
        float z = 0.5f + 4.0f * rb_unit(c);
        atoms[4 * a] = 204.8f * rb_unit(c);
        atoms[4 * a + 1] = spacing * rows * rb_unit(c);
        atoms[4 * a + 2] = z * z;
        atoms[4 * a + 3] = rb_unit(c) - 0.5f;
    }
    CUdeviceptr cst, dgrid;
    size_t cb;
    RB_CU(cuModuleGetGlobal(&cst, &cb, c->mod, "cp_atoms"));
    RB_CU(cuMemcpyHtoD(cst, atoms, natoms * 16));
    RB_TRY(rb_dev(c, NULL, (size_t)width * rows * 4, &dgrid));
    CUfunction f;
    RB_TRY(rb_func(c, "cp_kernel", &f));
    void *args[] = {&natoms, &spacing, &dgrid, &width};
    RB_TRY(rb_launch(c, f, width / (128 * 8), rows, 128, 1, args));
    float *got = rb_host(c, (size_t)width * rows * 4);
    double *ref = rb_host(c, (size_t)width * rows * 8);
    RB_TRY(rb_get(c, got, dgrid, (size_t)width * rows * 4));
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

static int b_cutcp(rb_ctx *c)
{
    int nbx = c->small ? 3 : 6, nbins = nbx * nbx * nbx, gx = nbx * 8;
    float h = 0.5f, c2 = 4.0f * 4.0f * h * h;
    float *bins = rb_host(c, (size_t)nbins * 8 * 16);
    for (int b = 0; b < nbins; b++) {
        int bx = b % nbx, by = (b / nbx) % nbx, bz = b / (nbx * nbx);
        for (int a = 0; a < 8; a++) {
            float *at = bins + ((size_t)b * 8 + a) * 4;
            at[0] = (bx + rb_unit(c)) * 8 * h;
            at[1] = (by + rb_unit(c)) * 8 * h;
            at[2] = (bz + rb_unit(c)) * 8 * h;
            at[3] = a < 6 ? rb_unit(c) - 0.5f : 0.0f; /* two padding slots per bin */
        }
    }
    size_t npts = (size_t)gx * gx * gx * 8;
    CUdeviceptr dbins, dgrid;
    RB_TRY(rb_dev(c, bins, (size_t)nbins * 8 * 16, &dbins));
    RB_TRY(rb_dev(c, NULL, npts * 4, &dgrid));
    CUfunction f;
    RB_TRY(rb_func(c, "cutcp_kernel", &f));
    void *args[] = {&dbins, &nbx, &h, &c2, &dgrid};
    RB_TRY(rb_launch(c, f, (unsigned)nbins, 1, 128, 1, args));
    float *got = rb_host(c, npts * 4);
    double *ref = rb_host(c, npts * 8);
    RB_TRY(rb_get(c, got, dgrid, npts * 4));
    /* only the points threads write are compared (the grid is sparse) */
    size_t m = 0;
    float *g2 = rb_host(c, npts * 4);
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

static int b_dwt2d(rb_ctx *c)
{
    int w = c->small ? 256 : 2048, h = c->small ? 128 : 1024;
    size_t n = (size_t)w * h;
    float *img = rb_host(c, n * 4);
    for (size_t i = 0; i < n; i++) img[i] = (float)(rb_rand(c) % 256);
    CUdeviceptr din, dtmp, dout;
    RB_TRY(rb_dev(c, img, n * 4, &din));
    RB_TRY(rb_dev(c, NULL, n * 4, &dtmp));
    RB_TRY(rb_dev(c, NULL, n * 4, &dout));
    CUfunction fc, fr;
    RB_TRY(rb_func(c, "dwt_cols", &fc));
    RB_TRY(rb_func(c, "dwt_rows", &fr));
    void *a1[] = {&din, &dtmp, &w};
    RB_TRY(rb_launch(c, fc, w / 128, h / 16, 128, 1, a1));
    void *a2[] = {&dtmp, &dout, &w};
    RB_TRY(rb_launch(c, fr, h / 128, w / 16, 128, 1, a2));
    double *t = rb_host(c, n * 8), *ref = rb_host(c, n * 8), s[16];
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
    float *got = rb_host(c, n * 4);
    RB_TRY(rb_get(c, got, dout, n * 4));
    return rb_check(c, "coefficient", got, ref, n, 1e-4, 16.0);
}

/* ---- hotspot ------------------------------------------------------------------------ */

static int b_hotspot(rb_ctx *c)
{
    int n = c->small ? 96 : 512, iters = 2, launches = 2;
    float Cap = 0.5f, Rx = 1.0f, Ry = 1.0f, Rz = 2.0f, step = 0.01f;
    size_t sz = (size_t)n * n;
    float *temp = rb_host(c, sz * 4), *power = rb_host(c, sz * 4);
    for (size_t i = 0; i < sz; i++) {
        temp[i] = 320.0f + 20.0f * rb_unit(c);
        power[i] = rb_unit(c);
    }
    CUdeviceptr dp, dt0, dt1;
    RB_TRY(rb_dev(c, power, sz * 4, &dp));
    RB_TRY(rb_dev(c, temp, sz * 4, &dt0));
    RB_TRY(rb_dev(c, temp, sz * 4, &dt1));
    CUfunction f;
    RB_TRY(rb_func(c, "hotspot_kernel", &f));
    int small_block = 16 - iters * 2, blocks = rb_cdiv((unsigned)n, (unsigned)small_block);
    int border = iters;
    CUdeviceptr src = dt0, dst = dt1;
    for (int l = 0; l < launches; l++) {
        void *args[] = {&iters, &dp, &src, &dst, &n, &n, &border, &border, &Cap, &Rx, &Ry, &Rz, &step};
        RB_TRY(rb_launch(c, f, (unsigned)blocks, (unsigned)blocks, 16, 16, args));
        CUdeviceptr t = src;
        src = dst;
        dst = t;
    }
    /* reference: the plain stencil, neighbours clamped at the borders */
    double *a = rb_host(c, sz * 8), *b = rb_host(c, sz * 8);
    for (size_t i = 0; i < sz; i++) a[i] = temp[i];
    double sdc = (double)step / Cap;
    for (int it = 0; it < iters * launches; it++) {
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int N = y > 0 ? y - 1 : 0, S = y < n - 1 ? y + 1 : n - 1, W = x > 0 ? x - 1 : 0, E = x < n - 1 ? x + 1 : n - 1;
                double t = a[(size_t)y * n + x];
                b[(size_t)y * n + x] = t + sdc * (power[(size_t)y * n + x] + (a[(size_t)S * n + x] + a[(size_t)N * n + x] - 2 * t) / Ry +
                                                  (a[(size_t)y * n + E] + a[(size_t)y * n + W] - 2 * t) / Rx + (80.0 - t) / Rz);
            }
        double *t = a;
        a = b;
        b = t;
    }
    float *got = rb_host(c, sz * 4);
    RB_TRY(rb_get(c, got, src, sz * 4));
    return rb_check(c, "temperature", got, a, sz, 1e-5, 0.0);
}

/* ---- md ---------------------------------------------------------------------------- */

static int b_md(rb_ctx *c)
{
    int n = c->small ? 4096 : 65536;
    float cutsq = 16.0f, lj1 = 1.5f, lj2 = 2.0f;
    float *pos = rb_host(c, (size_t)n * 16);
    for (int i = 0; i < n; i++) {
        pos[4 * i] = 40.0f * rb_unit(c);
        pos[4 * i + 1] = 40.0f * rb_unit(c);
        pos[4 * i + 2] = 40.0f * rb_unit(c);
    }
    int *nl = rb_host(c, (size_t)n * 32 * 4);
    for (int j = 0; j < 32; j++)
        for (int i = 0; i < n; i++) {
            int k = (i + 1 + (int)(rb_rand(c) % 64)) % n;
            nl[(size_t)j * n + i] = k;
            /* about half the neighbours within the cutoff */
            if (j & 1) {
                pos[4 * k] = pos[4 * i] + 2.0f * rb_unit(c) + 0.5f;
            }
        }
    CUdeviceptr df, dpos, dnl;
    RB_TRY(rb_dev(c, NULL, (size_t)n * 16, &df));
    RB_TRY(rb_dev(c, pos, (size_t)n * 16, &dpos));
    RB_TRY(rb_dev(c, nl, (size_t)n * 32 * 4, &dnl));
    CUfunction f;
    RB_TRY(rb_func(c, "md_kernel", &f));
    void *args[] = {&df, &dpos, &n, &dnl, &cutsq, &lj1, &lj2};
    RB_TRY(rb_launch(c, f, rb_cdiv((unsigned)n, 256), 1, 256, 1, args));
    float *got = rb_host(c, (size_t)n * 16), *g3 = rb_host(c, (size_t)n * 12);
    double *ref = rb_host(c, (size_t)n * 24);
    RB_TRY(rb_get(c, got, df, (size_t)n * 16));
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

static int b_mriq(rb_ctx *c)
{
    int numK = c->small ? 64 : 256, numX = c->small ? 8192 : 65536;
    float *k = rb_host(c, (size_t)numK * 16), *x = rb_host(c, numX * 4), *y = rb_host(c, numX * 4),
          *z = rb_host(c, numX * 4);
    for (int i = 0; i < numK; i++) {
        k[4 * i] = 0.5f * rb_unit(c) - 0.25f;
        k[4 * i + 1] = 0.5f * rb_unit(c) - 0.25f;
        k[4 * i + 2] = 0.5f * rb_unit(c) - 0.25f;
        k[4 * i + 3] = rb_unit(c);
    }
    for (int i = 0; i < numX; i++) {
        x[i] = rb_unit(c) - 0.5f;
        y[i] = rb_unit(c) - 0.5f;
        z[i] = rb_unit(c) - 0.5f;
    }
    CUdeviceptr ck, dx, dy, dz, dqr, dqi;
    size_t cb;
    RB_CU(cuModuleGetGlobal(&ck, &cb, c->mod, "ck"));
    RB_CU(cuMemcpyHtoD(ck, k, (size_t)numK * 16));
    RB_TRY(rb_dev(c, x, numX * 4, &dx));
    RB_TRY(rb_dev(c, y, numX * 4, &dy));
    RB_TRY(rb_dev(c, z, numX * 4, &dz));
    RB_TRY(rb_dev(c, NULL, numX * 4, &dqr));
    RB_TRY(rb_dev(c, NULL, numX * 4, &dqi));
    CUfunction f;
    RB_TRY(rb_func(c, "mriq_kernel", &f));
    int kbase = 0;
    void *args[] = {&numK, &kbase, &dx, &dy, &dz, &dqr, &dqi};
    RB_TRY(rb_launch(c, f, (unsigned)numX / (256 * 2), 1, 256, 1, args));
    float *qr = rb_host(c, numX * 4), *qi = rb_host(c, numX * 4);
    double *rr = rb_host(c, numX * 8), *ri = rb_host(c, numX * 8);
    RB_TRY(rb_get(c, qr, dqr, numX * 4));
    RB_TRY(rb_get(c, qi, dqi, numX * 4));
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
    RB_TRY(rb_check(c, "Qr", qr, rr, numX, 1e-3, 1.0));
    return rb_check(c, "Qi", qi, ri, numX, 1e-3, 1.0);
}

/* ---- radix sort (the block stage) ------------------------------------------------ */

static int b_radixsort(rb_ctx *c)
{
    int blocks = c->small ? 16 : 1024, n = blocks * 1024, startbit = 0, nbits = 4;
    uint32_t *keys = rb_host(c, n * 4), *ref = rb_host(c, n * 4), *got = rb_host(c, n * 4);
    for (int i = 0; i < n; i++) keys[i] = rb_rand(c);
    CUdeviceptr dk;
    RB_TRY(rb_dev(c, keys, n * 4, &dk));
    CUfunction f;
    RB_TRY(rb_func(c, "radix_local", &f));
    void *args[] = {&dk, &startbit, &nbits};
    RB_TRY(rb_launch(c, f, (unsigned)blocks, 1, 256, 1, args));
    RB_TRY(rb_get(c, got, dk, n * 4));
    /* reference: a stable counting sort of each block by the low nbits */
    for (int b = 0; b < blocks; b++) {
        int pos = 0;
        for (uint32_t d = 0; d < (1u << nbits); d++)
            for (int i = 0; i < 1024; i++)
                if ((keys[b * 1024 + i] & ((1u << nbits) - 1)) == d) ref[b * 1024 + pos++] = keys[b * 1024 + i];
    }
    return rb_check_u32(c, "keys", got, ref, n);
}

/* ---- particle filter (the likelihood stage) ----------------------------------------- */

static int b_particlefilter(rb_ctx *c)
{
    int n = c->small ? 8192 : 131072, rows = 128, cols = 128;
    int objxy[74], k = 0;
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++)
            if (dx * dx + dy * dy <= 10 && k < 37) objxy[2 * k] = dy, objxy[2 * k + 1] = dx, k++;
    float *ax = rb_host(c, n * 4), *ay = rb_host(c, n * 4), *dxr = rb_host(c, n * 4), *dyr = rb_host(c, n * 4),
          *w = rb_host(c, n * 4);
    unsigned char *frame = rb_host(c, (size_t)rows * cols);
    for (int i = 0; i < rows * cols; i++) frame[i] = (unsigned char)(rb_rand(c) % 256);
    for (int i = 0; i < n; i++) {
        ax[i] = 64.0f + 10.0f * rb_unit(c);
        ay[i] = 64.0f + 10.0f * rb_unit(c);
        dxr[i] = rb_unit(c) - 0.5f;
        dyr[i] = rb_unit(c) - 0.5f;
        w[i] = 1.0f / n;
    }
    CUdeviceptr dax, day, ddx, ddy, dobj, dfr, dl, dw;
    RB_TRY(rb_dev(c, ax, n * 4, &dax));
    RB_TRY(rb_dev(c, ay, n * 4, &day));
    RB_TRY(rb_dev(c, dxr, n * 4, &ddx));
    RB_TRY(rb_dev(c, dyr, n * 4, &ddy));
    RB_TRY(rb_dev(c, objxy, sizeof objxy, &dobj));
    RB_TRY(rb_dev(c, frame, (size_t)rows * cols, &dfr));
    RB_TRY(rb_dev(c, NULL, n * 4, &dl));
    RB_TRY(rb_dev(c, w, n * 4, &dw));
    CUfunction f;
    RB_TRY(rb_func(c, "pf_likelihood", &f));
    void *args[] = {&dax, &day, &ddx, &ddy, &dobj, &dfr, &rows, &cols, &dl, &dw, &n};
    RB_TRY(rb_launch(c, f, rb_cdiv((unsigned)n, 256), 1, 256, 1, args));
    float *gl = rb_host(c, n * 4);
    double *rl = rb_host(c, n * 8);
    RB_TRY(rb_get(c, gl, dl, n * 4));
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

static int b_sad(rb_ctx *c)
{
    int w = c->small ? 128 : 512, h = c->small ? 64 : 256, nblk = (w / 4) * (h / 4);
    uint16_t *cur = rb_host(c, (size_t)w * h * 2), *ref = rb_host(c, (size_t)w * h * 2);
    for (int i = 0; i < w * h; i++) {
        cur[i] = (uint16_t)(rb_rand(c) % 256);
        ref[i] = (uint16_t)(rb_rand(c) % 256);
    }
    CUdeviceptr dc, dr, ds;
    RB_TRY(rb_dev(c, cur, (size_t)w * h * 2, &dc));
    RB_TRY(rb_dev(c, ref, (size_t)w * h * 2, &dr));
    RB_TRY(rb_dev(c, NULL, (size_t)nblk * 81 * 2, &ds));
    CUfunction f;
    RB_TRY(rb_func(c, "sad_kernel", &f));
    void *args[] = {&dc, &dr, &w, &h, &ds};
    RB_TRY(rb_launch(c, f, (unsigned)nblk / 4, 1, 128, 1, args));
    uint16_t *got = rb_host(c, (size_t)nblk * 81 * 2);
    RB_TRY(rb_get(c, got, ds, (size_t)nblk * 81 * 2));
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
                    return rb_fail(c, "sad of block %d at (%d,%d) = %u, expected %u", b, dx, dy, g, s);
            }
    }
    return 0;
}

/* ---- gaussian ---------------------------------------------------------------------- */

static int b_gaussian(rb_ctx *c)
{
    int n = c->small ? 48 : 384;
    size_t nn = (size_t)n * n;
    float *a = rb_host(c, nn * 4), *bv = rb_host(c, n * 4);
    for (size_t i = 0; i < nn; i++) a[i] = rb_unit(c) - 0.5f;
    for (int i = 0; i < n; i++) {
        a[(size_t)i * n + i] += (float)n; /* diagonally dominant: no pivoting needed */
        bv[i] = rb_unit(c);
    }
    CUdeviceptr dm, da, db;
    RB_TRY(rb_dev(c, NULL, nn * 4, &dm));
    RB_TRY(rb_dev(c, a, nn * 4, &da));
    RB_TRY(rb_dev(c, bv, n * 4, &db));
    CUfunction f1, f2;
    RB_TRY(rb_func(c, "fan1", &f1));
    RB_TRY(rb_func(c, "fan2", &f2));
    for (int t = 0; t < n - 1; t++) {
        void *a1[] = {&dm, &da, &n, &t};
        RB_TRY(rb_launch(c, f1, rb_cdiv((unsigned)n, 256), 1, 256, 1, a1));
        void *a2[] = {&dm, &da, &db, &n, &t};
        unsigned g = rb_cdiv((unsigned)n, 16 * 2);
        RB_TRY(rb_launch(c, f2, g, g, 16, 16, a2));
    }
    /* reference: the same elimination in double, then the upper triangle and b compared */
    double *ra = rb_host(c, nn * 8), *rbv = rb_host(c, n * 8);
    for (size_t i = 0; i < nn; i++) ra[i] = a[i];
    for (int i = 0; i < n; i++) rbv[i] = bv[i];
    for (int t = 0; t < n - 1; t++)
        for (int i = t + 1; i < n; i++) {
            double m = ra[(size_t)i * n + t] / ra[(size_t)t * n + t];
            for (int j = t; j < n; j++) ra[(size_t)i * n + j] -= m * ra[(size_t)t * n + j];
            rbv[i] -= m * rbv[t];
        }
    float *ga = rb_host(c, nn * 4), *gb = rb_host(c, n * 4);
    RB_TRY(rb_get(c, ga, da, nn * 4));
    RB_TRY(rb_get(c, gb, db, n * 4));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) ra[(size_t)i * n + j] = ga[(size_t)i * n + j]; /* below the diagonal: not compared */
    RB_TRY(rb_check(c, "a", ga, ra, nn, 1e-4, 1.0));
    return rb_check(c, "b", gb, rbv, n, 1e-4, 1.0);
}

/* ---- heart wall (the tracking step) ----------------------------------------------- */

static int b_heartwall(rb_ctx *c)
{
    int np = c->small ? 30 : 480, fw = 512;
    float *frame = rb_host(c, (size_t)fw * fw * 4);
    /* a smooth random image: sums of a few waves plus noise */
    for (int y = 0; y < fw; y++)
        for (int x = 0; x < fw; x++)
            frame[(size_t)y * fw + x] = (float)(sin(x * 0.21) * cos(y * 0.17) + 0.5 * sin((x + 2 * y) * 0.05)) + 0.3f * rb_unit(c);
    int *px = rb_host(c, np * 4), *py = rb_host(c, np * 4), *want = rb_host(c, np * 4);
    float *tmpl = rb_host(c, (size_t)np * 81 * 4);
    for (int p = 0; p < np; p++) {
        px[p] = 32 + (int)(rb_rand(c) % (uint32_t)(fw - 64));
        py[p] = 32 + (int)(rb_rand(c) % (uint32_t)(fw - 64));
        int ox = (int)(rb_rand(c) % 16), oy = (int)(rb_rand(c) % 16); /* where the template really is */
        want[p] = oy * 16 + ox;
        for (int r = 0; r < 9; r++)
            for (int q = 0; q < 9; q++)
                tmpl[(size_t)p * 81 + r * 9 + q] = frame[(size_t)(py[p] - 8 + oy + r) * fw + px[p] - 8 + ox + q];
    }
    CUdeviceptr dfr, dt, dpx, dpy, db;
    RB_TRY(rb_dev(c, frame, (size_t)fw * fw * 4, &dfr));
    RB_TRY(rb_dev(c, tmpl, (size_t)np * 81 * 4, &dt));
    RB_TRY(rb_dev(c, px, np * 4, &dpx));
    RB_TRY(rb_dev(c, py, np * 4, &dpy));
    RB_TRY(rb_dev(c, NULL, np * 4, &db));
    CUfunction f;
    RB_TRY(rb_func(c, "hw_track", &f));
    void *args[] = {&dfr, &fw, &dt, &dpx, &dpy, &db};
    RB_TRY(rb_launch(c, f, (unsigned)np, 1, 128, 1, args));
    int *got = rb_host(c, np * 4);
    RB_TRY(rb_get(c, got, db, np * 4));
    return rb_check_u32(c, "best position", (uint32_t *)got, (uint32_t *)want, np);
}

/* ---- lavaMD -------------------------------------------------------------------------- */

static int b_lavamd(rb_ctx *c)
{
    int nb = c->small ? 2 : 4, nbox = nb * nb * nb, np = nbox * 128;
    float alpha = 0.5f;
    float *rv = rb_host(c, (size_t)np * 16), *qv = rb_host(c, np * 4);
    for (int i = 0; i < np; i++) {
        float x = rb_unit(c), y = rb_unit(c), z = rb_unit(c);
        rv[4 * i] = x;
        rv[4 * i + 1] = y;
        rv[4 * i + 2] = z;
        rv[4 * i + 3] = x * x + y * y + z * z;
        qv[i] = rb_unit(c);
    }
    CUdeviceptr drv, dqv, dfv;
    RB_TRY(rb_dev(c, rv, (size_t)np * 16, &drv));
    RB_TRY(rb_dev(c, qv, np * 4, &dqv));
    RB_TRY(rb_dev(c, NULL, (size_t)np * 16, &dfv));
    CUfunction f;
    RB_TRY(rb_func(c, "lavamd_kernel", &f));
    void *args[] = {&nb, &alpha, &drv, &dqv, &dfv};
    RB_TRY(rb_launch(c, f, (unsigned)nbox, 1, 128, 1, args));
    float *got = rb_host(c, (size_t)np * 16);
    double *ref = rb_host(c, (size_t)np * 32);
    RB_TRY(rb_get(c, got, dfv, (size_t)np * 16));
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

static int b_mergesort(rb_ctx *c)
{
    int blocks = c->small ? 16 : 512, n = blocks * 512;
    uint32_t *k = rb_host(c, n * 4), *v = rb_host(c, n * 4), *gk = rb_host(c, n * 4), *gv = rb_host(c, n * 4);
    for (int i = 0; i < n; i++) {
        k[i] = rb_rand(c) % 4096; /* repeated keys: stability matters */
        v[i] = (uint32_t)i;
    }
    CUdeviceptr dk, dv;
    RB_TRY(rb_dev(c, k, n * 4, &dk));
    RB_TRY(rb_dev(c, v, n * 4, &dv));
    CUfunction f;
    RB_TRY(rb_func(c, "merge_block", &f));
    void *args[] = {&dk, &dv};
    RB_TRY(rb_launch(c, f, (unsigned)blocks, 1, 256, 1, args));
    RB_TRY(rb_get(c, gk, dk, n * 4));
    RB_TRY(rb_get(c, gv, dv, n * 4));
    /* a stable sort of each block: values (the original positions) ascending among equal keys */
    for (int b = 0; b < blocks; b++)
        for (int i = 1; i < 512; i++) {
            uint32_t k0 = gk[b * 512 + i - 1], k1 = gk[b * 512 + i], v0 = gv[b * 512 + i - 1], v1 = gv[b * 512 + i];
            if (k0 > k1 || (k0 == k1 && v0 >= v1)) return rb_fail(c, "block %d not sorted stably at %d", b, i);
        }
    for (int i = 0; i < n; i++)
        if (gv[i] / 512 != (uint32_t)(i / 512) || k[gv[i]] != gk[i]) return rb_fail(c, "element %d lost", i);
    return 0;
}

/* ---- Monte Carlo --------------------------------------------------------------------- */

static int b_montecarlo(rb_ctx *c)
{
    int nopt = c->small ? 48 : 384;
    float R = 0.06f, V = 0.10f;
    float *S = rb_host(c, nopt * 4), *X = rb_host(c, nopt * 4), *T = rb_host(c, nopt * 4);
    for (int i = 0; i < nopt; i++) {
        S[i] = 5.0f + 25.0f * rb_unit(c);
        X[i] = 1.0f + 99.0f * rb_unit(c);
        T[i] = 0.25f + 9.75f * rb_unit(c);
    }
    CUdeviceptr dS, dX, dT, dsum, dsq;
    RB_TRY(rb_dev(c, S, nopt * 4, &dS));
    RB_TRY(rb_dev(c, X, nopt * 4, &dX));
    RB_TRY(rb_dev(c, T, nopt * 4, &dT));
    RB_TRY(rb_dev(c, NULL, nopt * 4, &dsum));
    RB_TRY(rb_dev(c, NULL, nopt * 4, &dsq));
    CUfunction f;
    RB_TRY(rb_func(c, "mc_kernel", &f));
    void *args[] = {&dS, &dX, &dT, &R, &V, &dsum, &dsq};
    RB_TRY(rb_launch(c, f, (unsigned)nopt, 1, 256, 1, args));
    float *gs = rb_host(c, nopt * 4);
    double *rs = rb_host(c, nopt * 8);
    RB_TRY(rb_get(c, gs, dsum, nopt * 4));
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

static int b_spmv(rb_ctx *c)
{
    int dim = c->small ? 8192 : 65536, maxlen = 24;
    int *len = rb_host(c, dim * 4), *perm = rb_host(c, dim * 4);
    /* rows sorted by length, longest first (jagged diagonal storage) */
    for (int i = 0; i < dim; i++) len[i] = 2 + (int)((uint64_t)(dim - i) * (maxlen - 2) / dim) ;
    for (int i = 0; i < dim; i++) perm[i] = (int)(((uint64_t)i * 2654435761u) % (uint32_t)dim);
    /* perm must be a permutation: use i -> (a i) mod dim with a odd and dim a power of two */
    int *ptr = rb_host(c, maxlen * 4), nnz = 0;
    for (int k = 0; k < maxlen; k++) {
        ptr[k] = nnz;
        for (int i = 0; i < dim && len[i] > k; i++) nnz++;
    }
    float *data = rb_host(c, nnz * 4), *x = rb_host(c, dim * 4);
    int *idx = rb_host(c, nnz * 4);
    for (int i = 0; i < nnz; i++) {
        data[i] = rb_unit(c) - 0.5f;
        idx[i] = (int)(rb_rand(c) % (uint32_t)dim);
    }
    for (int i = 0; i < dim; i++) x[i] = rb_unit(c);
    CUdeviceptr dd, ddata, didx, dperm, dlen, dptr, dx;
    RB_TRY(rb_dev(c, NULL, dim * 4, &dd));
    RB_TRY(rb_dev(c, data, nnz * 4, &ddata));
    RB_TRY(rb_dev(c, idx, nnz * 4, &didx));
    RB_TRY(rb_dev(c, perm, dim * 4, &dperm));
    RB_TRY(rb_dev(c, len, dim * 4, &dlen));
    RB_TRY(rb_dev(c, ptr, maxlen * 4, &dptr));
    RB_TRY(rb_dev(c, x, dim * 4, &dx));
    CUfunction f;
    RB_TRY(rb_func(c, "spmv_jds", &f));
    void *args[] = {&dd, &ddata, &didx, &dperm, &dlen, &dptr, &dx, &dim};
    RB_TRY(rb_launch(c, f, rb_cdiv((unsigned)dim, 256 * 4), 1, 256, 1, args));
    float *got = rb_host(c, dim * 4);
    double *ref = rb_host(c, dim * 8);
    RB_TRY(rb_get(c, got, dd, dim * 4));
    for (int i = 0; i < dim; i++) {
        double s = 0;
        for (int k = 0; k < len[i]; k++) s += (double)data[ptr[k] + i] * x[idx[ptr[k] + i]];
        ref[perm[i]] = s;
    }
    return rb_check(c, "y", got, ref, dim, 1e-4, 1.0);
}

/* ---- srad ---------------------------------------------------------------------------- */

static int b_srad(rb_ctx *c)
{
    int n = c->small ? 64 : 384, iters = 2;
    float lambda = 0.5f;
    size_t sz = (size_t)n * n;
    float *J = rb_host(c, sz * 4);
    for (size_t i = 0; i < sz; i++) J[i] = expf(rb_unit(c));
    CUdeviceptr dJ, dN, dS, dW, dE, dc;
    RB_TRY(rb_dev(c, J, sz * 4, &dJ));
    RB_TRY(rb_dev(c, NULL, sz * 4, &dN));
    RB_TRY(rb_dev(c, NULL, sz * 4, &dS));
    RB_TRY(rb_dev(c, NULL, sz * 4, &dW));
    RB_TRY(rb_dev(c, NULL, sz * 4, &dE));
    RB_TRY(rb_dev(c, NULL, sz * 4, &dc));
    CUfunction f1, f2;
    RB_TRY(rb_func(c, "srad1", &f1));
    RB_TRY(rb_func(c, "srad2", &f2));
    double *r = rb_host(c, sz * 8), *rn = rb_host(c, sz * 8), *rs = rb_host(c, sz * 8), *rw = rb_host(c, sz * 8),
           *re = rb_host(c, sz * 8), *rc = rb_host(c, sz * 8);
    for (size_t i = 0; i < sz; i++) r[i] = J[i];
    float *cur = rb_host(c, sz * 4);
    for (int it = 0; it < iters; it++) {
        /* q0^2 from the image's statistics (the whole image is the region of interest) */
        RB_TRY(rb_get(c, cur, dJ, sz * 4));
        double sum = 0, sum2 = 0;
        for (size_t i = 0; i < sz; i++) sum += cur[i], sum2 += (double)cur[i] * cur[i];
        double mean = sum / sz, var = sum2 / sz - mean * mean;
        float q0sqr = (float)(var / (mean * mean));
        void *a1[] = {&dJ, &dN, &dS, &dW, &dE, &dc, &n, &n, &q0sqr};
        RB_TRY(rb_launch(c, f1, rb_cdiv((unsigned)n, 16), rb_cdiv((unsigned)n, 16), 256, 1, a1));
        void *a2[] = {&dJ, &dN, &dS, &dW, &dE, &dc, &n, &n, &lambda};
        RB_TRY(rb_launch(c, f2, rb_cdiv((unsigned)n, 16), rb_cdiv((unsigned)n, 16), 256, 1, a2));
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
        float *got = rb_host(c, sz * 4);
        RB_TRY(rb_get(c, got, dJ, sz * 4));
        RB_TRY(rb_check(c, "J", got, r, sz, 1e-4, 1.0));
    }
    return 0;
}

/* ---- tpacf ------------------------------------------------------------------------------ */

static int b_tpacf(rb_ctx *c)
{
    int n = c->small ? 1024 : 4096;
    float *x = rb_host(c, n * 4), *y = rb_host(c, n * 4), *z = rb_host(c, n * 4), binb[21];
    for (int i = 0; i < n; i++) {
        double u = 2 * rb_unit(c) - 1, ph = 6.283185307 * rb_unit(c), s = sqrt(1 - u * u);
        x[i] = (float)(s * cos(ph));
        y[i] = (float)(s * sin(ph));
        z[i] = (float)u;
    }
    /* edges: cosines of angles from 0.01 to 180 degrees, logarithmic */
    for (int b = 0; b <= 20; b++) binb[b] = (float)cos(0.01 * pow(18000.0, b / 20.0) * 3.14159265358979 / 180);
    CUdeviceptr dx, dy, dz, db, dh;
    RB_TRY(rb_dev(c, x, n * 4, &dx));
    RB_TRY(rb_dev(c, y, n * 4, &dy));
    RB_TRY(rb_dev(c, z, n * 4, &dz));
    RB_TRY(rb_dev(c, binb, sizeof binb, &db));
    RB_TRY(rb_dev(c, NULL, 22 * 4, &dh));
    CUfunction f;
    RB_TRY(rb_func(c, "tpacf_kernel", &f));
    void *args[] = {&dx, &dy, &dz, &n, &db, &dh};
    RB_TRY(rb_launch(c, f, (unsigned)n / 256, (unsigned)n / 512, 256, 1, args));
    uint32_t got[22];
    RB_TRY(rb_get(c, got, dh, sizeof got));
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
            return rb_fail(c, "bin %d: %u pairs, expected %llu", b, got[b], (unsigned long long)ref[b]);
    }
    if (total != (uint64_t)n * (n - 1) / 2) return rb_fail(c, "%llu pairs counted, expected %llu", (unsigned long long)total,
                                                          (unsigned long long)n * (n - 1) / 2);
    return 0;
}

/* ---- main -------------------------------------------------------------------------------- */

typedef struct rb_bench {
    const char *name;
    int (*run)(rb_ctx *);
} rb_bench;

static const rb_bench benches[] = {
    {"bfs", b_bfs}, {"cp", b_cp}, {"cutcp", b_cutcp}, {"dwt2d", b_dwt2d}, {"hotspot", b_hotspot}, {"md", b_md},
    {"mriq", b_mriq}, {"radixsort", b_radixsort}, {"particlefilter", b_particlefilter}, {"sad", b_sad},
    {"gaussian", b_gaussian}, {"heartwall", b_heartwall}, {"lavamd", b_lavamd}, {"mergesort", b_mergesort},
    {"montecarlo", b_montecarlo}, {"spmv", b_spmv}, {"srad", b_srad}, {"tpacf", b_tpacf},
};

static int run_one(const rb_bench *b, const char *dir, bool small, CUcontext ctx)
{
    rb_ctx c;
    memset(&c, 0, sizeof c);
    c.ptxdir = dir;
    c.small = small;
    c.seed = 0x5eed0000u + (uint64_t)strlen(b->name);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.ptx", dir, b->name);
    CUresult r = cuModuleLoad(&c.mod, path);
    int rc;
    if (r != CUDA_SUCCESS) rc = rb_fail(&c, "cuModuleLoad(%s): %s", path, rb_err(r));
    else rc = b->run(&c);
    for (int i = 0; i < c.nallocs; i++) cuMemFree(c.allocs[i]);
    for (int i = 0; i < c.nhost; i++) free(c.host[i]);
    if (c.mod) cuModuleUnload(c.mod);
    (void)ctx;
    if (rc) printf("FAIL %s: %s\n", b->name, c.msg);
    else printf("PASS %s\n", b->name);
    fflush(stdout);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dir = "experiments/regmutex/kernels";
    bool small = false, list = false;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--ptx") && first + 1 < argc) dir = argv[++first];
        else if (!strcmp(argv[first], "--small")) small = true;
        else if (!strcmp(argv[first], "--list")) list = true;
        else {
            fprintf(stderr, "usage: rmbench [--ptx DIR] [--small] [--list] [NAME...]\n");
            return 2;
        }
    }
    size_t nb = sizeof benches / sizeof benches[0];
    if (list) {
        for (size_t i = 0; i < nb; i++) printf("%s\n", benches[i].name);
        return 0;
    }
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS || cuCtxCreate(&ctx, NULL, 0, dev) != CUDA_SUCCESS) {
        fprintf(stderr, "rmbench: no CUDA device\n");
        return 2;
    }
    int failed = 0;
    for (size_t i = 0; i < nb; i++) {
        bool want = first == argc;
        for (int a = first; a < argc; a++)
            if (!strcmp(argv[a], benches[i].name)) want = true;
        if (want && run_one(&benches[i], dir, small, ctx)) failed++;
    }
    for (int a = first; a < argc; a++) {
        bool known = false;
        for (size_t i = 0; i < nb; i++) known |= !strcmp(argv[a], benches[i].name);
        if (!known) {
            printf("FAIL %s: no such benchmark\n", argv[a]);
            failed++;
        }
    }
    cuCtxDestroy(ctx);
    return failed ? 1 : 0;
}
