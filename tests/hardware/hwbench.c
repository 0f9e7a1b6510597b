/*
** hwbench.c -- the host side of tpsim's real-hardware suite (tests/hardware):
** the textbook kernels of tools/reference/rtx2060-nvbench.csv (array add, 1-D
** and 2-D convolutions, matrix-matrix and matrix-vector products), run one at
** a time at a given parameter set with the launch shape the benchmark used,
** checked against a CPU reference.  A plain C11 program over the CUDA driver
** API: it runs unchanged on a GPU with NVIDIA's libcuda.
**
**   hwbench [--ptx DIR] [--zero] [--warmup N] KERNEL [KEY=VALUE...]
**   hwbench [--ptx DIR] [--zero] [--warmup N] [--dry] --row BENCHMARK PARAMS NUM_ELEMENTS
**   hwbench [--ptx DIR] --check [KERNEL...]
**   hwbench --list
**
** KERNEL is one of the names --list prints (hw_add_coalesced ...); the KEYs
** each takes (n, w, bs, ch, t, m, k, rows, cols) and their defaults are in
** hw_kernels below.  --row takes the benchmark, params and num_elements
** columns of a CSV row and derives the kernel and its parameters from them
** (hw_from_row); --dry prints what it would run and stops.
**
** Data.  By default the inputs are non-zero and chosen so that every result
** is exact (integer arithmetic modulo 2^32; float sums of multiples of 2^-8
** far below 2^24 ulps, so that any order of evaluation and fma contraction
** give the same bits), the output buffer starts filled with a sentinel, and
** every output element is compared with the CPU's, bit for bit.  --zero
** makes every input zero, as the card's benchmark did (value-initialised
** vectors), and checks that the output is all zero.  Every buffer is copied
** from the host (so that tpsim's l2.warm_copies leaves its last lines in the
** L2, as a previous launch of a batch would).
**
** Timing.  --warmup N launches the kernel N times (default 0) before the
** timed launch, which is bracketed by two events; the line printed is
**   KERNEL KEY=VALUE...: grid X,Y,Z block X,Y,Z shared B: T us, ok
** with T the events' elapsed time (on tpsim: simulated time at
** clock.core_mhz in performance mode).  The timed launch is the last one,
** so it is the last kernel record of a TPSIM_STATS file.  A wrong result
** prints "FAIL ..." instead and the exit status is 1; a bad command line
** exits 2.
**
** --check runs every kernel (or those named) on small sizes chosen to cover
** partial blocks, every mask width and several block shapes, with non-zero
** data: one line "PASS hw_NAME" or "FAIL hw_NAME: why" per kernel.
** Module prefix: hw_.
*/
#include <cuda.h>

#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parameters ------------------------------------------------------------- */

enum { P_N, P_W, P_BS, P_CH, P_T, P_M, P_K, P_ROWS, P_COLS, P_COUNT };
static const char *const hw_keys[P_COUNT] = {"n", "w", "bs", "ch", "t", "m", "k", "rows", "cols"};

typedef struct hw_params {
    long v[P_COUNT];
} hw_params;

typedef enum { F_ADD, F_CONV1, F_CONV2, F_MM, F_MV } hw_family;

typedef struct hw_kernel {
    const char *name;
    const char *module; /* DIR/module.ptx */
    hw_family family;
    unsigned keys;      /* bit per P_ key it takes */
    hw_params defaults; /* -1: not taken */
} hw_kernel;

#define K1(k) (1u << (k))
#define ADD_KEYS K1(P_N)
#define C1_KEYS (K1(P_N) | K1(P_W) | K1(P_BS))
#define C2_KEYS (K1(P_N) | K1(P_CH) | K1(P_W) | K1(P_T))
#define MM_KEYS (K1(P_M) | K1(P_K) | K1(P_N) | K1(P_T))
#define MV_KEYS (K1(P_ROWS) | K1(P_COLS) | K1(P_BS))
/*                                       n     w   bs  ch   t     m     k  rows  cols */
#define ADD_DEF {{1024, -1, -1, -1, -1, -1, -1, -1, -1}}
#define C1_DEF {{1 << 20, 5, 512, -1, -1, -1, -1, -1, -1}}
#define C2_DEF {{1024, 5, -1, 1, 16, -1, -1, -1, -1}}
#define MM_DEF {{128, -1, -1, -1, 16, 128, 128, -1, -1}}
#define MV_DEF {{-1, -1, 512, -1, -1, -1, -1, 1024, 1024}}

static const hw_kernel hw_kernels[] = {
    {"hw_add_coalesced", "array_add", F_ADD, ADD_KEYS, ADD_DEF},
    {"hw_add_not_coalesced", "array_add", F_ADD, ADD_KEYS, ADD_DEF},
    {"hw_conv1d_basic", "convolution", F_CONV1, C1_KEYS, C1_DEF},
    {"hw_conv1d_const", "convolution", F_CONV1, C1_KEYS, C1_DEF},
    {"hw_conv1d_tiled", "convolution", F_CONV1, C1_KEYS, C1_DEF},
    {"hw_conv1d_tiled_cache", "convolution", F_CONV1, C1_KEYS, C1_DEF},
    {"hw_conv2d_basic", "convolution", F_CONV2, C2_KEYS, C2_DEF},
    {"hw_conv2d_const", "convolution", F_CONV2, C2_KEYS, C2_DEF},
    {"hw_conv2d_tiled", "convolution", F_CONV2, C2_KEYS, C2_DEF},
    {"hw_mm_simple", "mat_mat_mul", F_MM, MM_KEYS, MM_DEF},
    {"hw_mm_tiles", "mat_mat_mul", F_MM, MM_KEYS, MM_DEF},
    {"hw_mm_rect", "mat_mat_mul", F_MM, MM_KEYS, MM_DEF},
    {"hw_mv_simple", "mat_vec_mul", F_MV, MV_KEYS, MV_DEF},
    {"hw_mv_shared", "mat_vec_mul", F_MV, MV_KEYS, MV_DEF},
};
#define HW_NKERNELS (sizeof hw_kernels / sizeof hw_kernels[0])

static const hw_kernel *hw_find(const char *name)
{
    for (size_t i = 0; i < HW_NKERNELS; i++)
        if (!strcmp(hw_kernels[i].name, name)) return &hw_kernels[i];
    return NULL;
}

static bool hw_is(const hw_kernel *k, const char *name) { return !strcmp(k->name, name); }

/* "n=1024 w=5" into p (starting from the kernel's defaults); 0 or -1 with a message. */
static int hw_set_param(const hw_kernel *k, hw_params *p, const char *kv, char *msg, size_t msz)
{
    const char *eq = strchr(kv, '=');
    if (!eq) return snprintf(msg, msz, "'%s' is not KEY=VALUE", kv), -1;
    for (int i = 0; i < P_COUNT; i++) {
        if (strlen(hw_keys[i]) != (size_t)(eq - kv) || strncmp(kv, hw_keys[i], (size_t)(eq - kv))) continue;
        if (!(k->keys & K1(i))) return snprintf(msg, msz, "%s takes no %s", k->name, hw_keys[i]), -1;
        char *end;
        long v = strtol(eq + 1, &end, 10);
        if (end == eq + 1 || *end || v < 1 || v > (1L << 30))
            return snprintf(msg, msz, "%s=%s: not a count from 1 to 2^30", hw_keys[i], eq + 1), -1;
        p->v[i] = v;
        return 0;
    }
    return snprintf(msg, msz, "no parameter named '%.*s'", (int)(eq - kv), kv), -1;
}

/* The shape rules; 0 or -1 with a message. */
static int hw_validate(const hw_kernel *k, const hw_params *p, char *msg, size_t msz)
{
    const long *v = p->v;
    switch (k->family) {
    case F_ADD:
        return 0;
    case F_CONV1:
        if (v[P_W] % 2 == 0 || v[P_W] > 63) return snprintf(msg, msz, "w must be odd and at most 63"), -1;
        if (v[P_BS] > 1024) return snprintf(msg, msz, "bs must be at most 1024"), -1;
        if (hw_is(k, "hw_conv1d_tiled") && v[P_W] / 2 > v[P_BS])
            return snprintf(msg, msz, "the halo (w/2) must not exceed bs"), -1;
        return 0;
    case F_CONV2:
        if (v[P_W] % 2 == 0 || v[P_W] * v[P_W] > 256) return snprintf(msg, msz, "w must be odd and at most 15"), -1;
        if (v[P_T] > 32) return snprintf(msg, msz, "t must be at most 32"), -1;
        if (hw_is(k, "hw_conv2d_tiled") && v[P_W] > v[P_T]) return snprintf(msg, msz, "w must not exceed t"), -1;
        return 0;
    case F_MM:
        if (v[P_T] > 32) return snprintf(msg, msz, "t must be at most 32"), -1;
        if (hw_is(k, "hw_mm_rect") && v[P_T] != 16) return snprintf(msg, msz, "hw_mm_rect takes t=16 only"), -1;
        return 0;
    case F_MV:
        if (v[P_BS] > 1024) return snprintf(msg, msz, "bs must be at most 1024"), -1;
        return 0;
    }
    return 0;
}

/* "KERNEL KEY=VALUE...", the keys in the family's order. */
static void hw_format(const hw_kernel *k, const hw_params *p, char *buf, size_t n)
{
    static const int order[][5] = {
        [F_ADD] = {P_N, -1},          [F_CONV1] = {P_N, P_W, P_BS, -1}, [F_CONV2] = {P_N, P_CH, P_W, P_T, -1},
        [F_MM] = {P_M, P_K, P_N, P_T, -1}, [F_MV] = {P_ROWS, P_COLS, P_BS, -1},
    };
    size_t o = (size_t)snprintf(buf, n, "%s", k->name);
    for (int i = 0; i < 5 && order[k->family][i] >= 0 && o < n; i++) {
        int key = order[k->family][i];
        o += (size_t)snprintf(buf + o, n - o, " %s=%ld", hw_keys[key], p->v[key]);
    }
}

/* ---- the CSV row's columns into a kernel and parameters ---------------------- */

/* The value of KEY in "K1=V1;K2=V2..." (NULL when absent). */
static const char *hw_row_value(const char *params, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    const char *s = params;
    while (*s) {
        const char *end = strchr(s, ';');
        if (!end) end = s + strlen(s);
        if ((size_t)(end - s) > kl && !strncmp(s, key, kl) && s[kl] == '=') {
            size_t vl = (size_t)(end - s) - kl - 1;
            if (vl >= n) vl = n - 1;
            memcpy(out, s + kl + 1, vl);
            out[vl] = 0;
            return out;
        }
        s = *end ? end + 1 : end;
    }
    return NULL;
}

static int hw_row_long(const char *params, const char *key, long *v, char *msg, size_t msz)
{
    char buf[64], *end;
    if (!hw_row_value(params, key, buf, sizeof buf)) return snprintf(msg, msz, "params have no '%s'", key), -1;
    *v = strtol(buf, &end, 10);
    if (end == buf || *end || *v < 1) return snprintf(msg, msz, "'%s=%s' is not a count", key, buf), -1;
    return 0;
}

static long hw_isqrt(long x)
{
    long r = (long)sqrt((double)x);
    while (r * r > x) r--;
    while ((r + 1) * (r + 1) <= x) r++;
    return r;
}

/* The shapes of tools/reference/README.md for each series. */
static int hw_from_row(const char *bench, const char *params, const char *num, const hw_kernel **kout, hw_params *p,
                       char *msg, size_t msz)
{
    const char *name = NULL;
    if (strstr(bench, "Not Coalesced")) name = "hw_add_not_coalesced";
    else if (strstr(bench, "Coalesced")) name = "hw_add_coalesced";
    else if (strstr(bench, "Convolution 1D Basic")) name = "hw_conv1d_basic";
    else if (strstr(bench, "Convolution 1D Constant Memory")) name = "hw_conv1d_const";
    else if (strstr(bench, "Convolution 1D Tiled and Caching")) name = "hw_conv1d_tiled_cache";
    else if (strstr(bench, "Convolution 1D Tiled")) name = "hw_conv1d_tiled";
    else if (strstr(bench, "Convolution 2D Basic")) name = "hw_conv2d_basic";
    else if (strstr(bench, "Convolution 2D Constant Memory")) name = "hw_conv2d_const";
    else if (strstr(bench, "Convolution 2D Tiled")) name = "hw_conv2d_tiled";
    else if (strstr(bench, "Simple Matrix Matrix")) name = "hw_mm_simple";
    else if (strstr(bench, "Matrix Matrix Multiplication with Tiles")) name = "hw_mm_tiles";
    else if (strstr(bench, "Rectangular Tiles")) name = "hw_mm_rect";
    else if (strstr(bench, "Simple Matrix Vector")) name = "hw_mv_simple";
    else if (strstr(bench, "Matrix Vector Multiplication with Shared Memory")) name = "hw_mv_shared";
    if (!name) return snprintf(msg, msz, "no kernel for benchmark '%s'", bench), -1;
    const hw_kernel *k = hw_find(name);
    *kout = k;
    *p = k->defaults;
    long *v = p->v, ne = 0;
    if (num && *num) {
        char *end;
        ne = strtol(num, &end, 10);
        if (end == num || *end || ne < 1) return snprintf(msg, msz, "num_elements '%s' is not a count", num), -1;
    }
    switch (k->family) {
    case F_ADD:
        if (hw_row_long(params, "Axis Size", &v[P_N], msg, msz)) return -1;
        break;
    case F_CONV1:
        if (hw_row_long(params, "Array size", &v[P_N], msg, msz) || hw_row_long(params, "Mask width", &v[P_W], msg, msz) ||
            hw_row_long(params, "Block dim", &v[P_BS], msg, msz))
            return -1;
        break;
    case F_CONV2:
        /* params name only the mask width: the image is in num_elements, n x n
        ** for one channel, 4096 x 4096 x channels in the channel series */
        if (hw_row_long(params, "Mask width", &v[P_W], msg, msz)) return -1;
        if (strstr(bench, "Block and Grid"))
            return snprintf(msg, msz, "the block-size series of '%s' does not say its block sizes", bench), -1;
        if (!ne) return snprintf(msg, msz, "2-D convolution rows need num_elements"), -1;
        if (strstr(bench, "Num Channels")) {
            v[P_N] = 4096;
            v[P_CH] = ne / (4096L * 4096L);
            if (v[P_CH] < 1 || v[P_CH] * 4096L * 4096L != ne)
                return snprintf(msg, msz, "num_elements %ld is not a multiple of 4096^2", ne), -1;
        } else {
            v[P_N] = hw_isqrt(ne);
            if (v[P_N] * v[P_N] != ne) return snprintf(msg, msz, "num_elements %ld is not a square", ne), -1;
        }
        break;
    case F_MM:
        if (hw_row_long(params, "Num Rows 1", &v[P_M], msg, msz) ||
            hw_row_long(params, "Num Cols 1 / Rows 2", &v[P_K], msg, msz) ||
            hw_row_long(params, "Num Cols 2", &v[P_N], msg, msz) || hw_row_long(params, "Num Threads", &v[P_T], msg, msz))
            return -1;
        break;
    case F_MV:
        if (hw_row_long(params, "Num Rows", &v[P_ROWS], msg, msz) || hw_row_long(params, "Num Cols", &v[P_COLS], msg, msz) ||
            hw_row_long(params, "Num Threads", &v[P_BS], msg, msz))
            return -1;
        break;
    }
    return hw_validate(k, p, msg, msz);
}

/* ---- driver plumbing ---------------------------------------------------------- */

#define HW_MAX_BUFS 8

typedef struct hw_ctx {
    const char *ptxdir;
    CUcontext ctx;
    CUmodule mod;
    CUdeviceptr bufs[HW_MAX_BUFS];
    int nbufs;
    char msg[512];
} hw_ctx;

static int hw_fail(hw_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int hw_fail(hw_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *hw_errname(CUresult r)
{
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) return "?";
    return s;
}

#define HW_CU(call)                                                                                   \
    do {                                                                                              \
        CUresult hw_r_ = (call);                                                                      \
        if (hw_r_ != CUDA_SUCCESS)                                                                    \
            return hw_fail(c, "%s:%d: %s returned %s", __FILE__, __LINE__, #call, hw_errname(hw_r_)); \
    } while (0)

/* A device buffer holding the host's bytes. */
static int hw_put(hw_ctx *c, const void *h, size_t bytes, CUdeviceptr *p)
{
    if (c->nbufs == HW_MAX_BUFS) return hw_fail(c, "too many buffers");
    HW_CU(cuMemAlloc(p, bytes));
    c->bufs[c->nbufs++] = *p;
    HW_CU(cuMemcpyHtoD(*p, h, bytes));
    return 0;
}

static int hw_set_const(hw_ctx *c, const char *sym, const void *h, size_t bytes)
{
    CUdeviceptr p;
    size_t size;
    HW_CU(cuModuleGetGlobal(&p, &size, c->mod, sym));
    if (bytes > size) return hw_fail(c, "%s holds %zu bytes, %zu given", sym, size, bytes);
    HW_CU(cuMemcpyHtoD(p, h, bytes));
    return 0;
}

typedef struct hw_launch {
    unsigned grid[3], block[3], shared;
} hw_launch;

/* warmup launches, then one timed between two events; *us its time. */
static int hw_run(hw_ctx *c, const char *kname, const hw_launch *l, void **args, int warmup, double *us)
{
    CUfunction f;
    CUresult r = cuModuleGetFunction(&f, c->mod, kname);
    if (r != CUDA_SUCCESS) return hw_fail(c, "kernel %s: %s", kname, hw_errname(r));
    for (int i = 0; i < warmup; i++)
        HW_CU(cuLaunchKernel(f, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->shared,
                             NULL, args, NULL));
    CUevent e0, e1;
    HW_CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    HW_CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    HW_CU(cuEventRecord(e0, NULL));
    HW_CU(cuLaunchKernel(f, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->shared, NULL,
                         args, NULL));
    HW_CU(cuEventRecord(e1, NULL));
    HW_CU(cuEventSynchronize(e1));
    float ms = 0;
    HW_CU(cuEventElapsedTime(&ms, e0, e1));
    cuEventDestroy(e0);
    cuEventDestroy(e1);
    *us = (double)ms * 1000.0;
    return 0;
}

static int hw_get(hw_ctx *c, void *h, CUdeviceptr p, size_t bytes)
{
    HW_CU(cuMemcpyDtoH(h, p, bytes));
    return 0;
}

static unsigned hw_cdiv(long a, long b) { return (unsigned)((a + b - 1) / b); }

/* ---- data ------------------------------------------------------------------------ */

static uint64_t hw_rng = 0x243f6a8885a308d3ull;
static uint32_t hw_rand(void)
{
    hw_rng ^= hw_rng << 13, hw_rng ^= hw_rng >> 7, hw_rng ^= hw_rng << 17;
    return (uint32_t)(hw_rng >> 16);
}

static void *hw_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "hwbench: out of host memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

#define HW_SENTINEL 0xa5 /* the byte an output buffer starts with (non-zero data) */

/* Floats k / 16, k in 0..15 (inputs) or (k - 4) / 16, k in 0..8 (masks); 0 with zero. */
static void hw_fill_f(float *a, size_t n, bool zero, bool mask)
{
    for (size_t i = 0; i < n; i++)
        a[i] = zero ? 0.0f : mask ? (float)((int)(hw_rand() % 9) - 4) / 16.0f : (float)(hw_rand() % 16) / 16.0f;
}

static void hw_fill_u(uint32_t *a, size_t n, bool zero)
{
    for (size_t i = 0; i < n; i++) a[i] = zero ? 0u : hw_rand();
}

static float hw_clamp01(double v) { return (float)fmin(fmax(v, 0.0), 1.0); }

/* got[0..n) against ref, bit for bit. */
static int hw_compare(hw_ctx *c, const void *got, const void *ref, size_t n, const char *what)
{
    const uint32_t *g = got, *r = ref;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (g[i] != r[i] && bad++ == 0) first = i;
    if (!bad) return 0;
    float gf, rf;
    memcpy(&gf, &g[first], 4);
    memcpy(&rf, &r[first], 4);
    return hw_fail(c, "%s[%zu] = 0x%08x (%g as a float), expected 0x%08x (%g); %zu of %zu elements wrong", what, first,
                   (unsigned)g[first], (double)gf, (unsigned)r[first], (double)rf, bad, n);
}

/* ---- the families ---------------------------------------------------------------- */

typedef struct hw_result {
    hw_launch l;
    double us;
} hw_result;

static int hw_add(hw_ctx *c, const hw_kernel *k, const hw_params *p, bool zero, int warmup, hw_result *res)
{
    long n = p->v[P_N];
    size_t e = (size_t)n * (size_t)n, bytes = e * 4;
    float *a = hw_alloc(bytes), *b = hw_alloc(bytes), *got = hw_alloc(bytes), *ref = hw_alloc(bytes);
    hw_fill_f(a, e, zero, false);
    hw_fill_f(b, e, zero, false);
    for (size_t i = 0; i < e; i++) ref[i] = a[i] + b[i];
    memset(got, zero ? 0 : HW_SENTINEL, bytes);
    CUdeviceptr da, db, dc;
    int rc = -1;
    int ni = (int)n;
    void *args[] = {&da, &db, &dc, &ni};
    res->l = (hw_launch){{hw_cdiv(n, 16), hw_cdiv(n, 16), 1}, {16, 16, 1}, 0};
    if (!hw_put(c, a, bytes, &da) && !hw_put(c, b, bytes, &db) && !hw_put(c, got, bytes, &dc) &&
        !hw_run(c, k->name, &res->l, args, warmup, &res->us) && !hw_get(c, got, dc, bytes))
        rc = hw_compare(c, got, ref, e, "c");
    free(a), free(b), free(got), free(ref);
    return rc;
}

static int hw_conv1(hw_ctx *c, const hw_kernel *k, const hw_params *p, bool zero, int warmup, hw_result *res)
{
    long n = p->v[P_N], w = p->v[P_W], bs = p->v[P_BS], r = w / 2;
    size_t bytes = (size_t)n * 4;
    float *in = hw_alloc(bytes), *got = hw_alloc(bytes), *ref = hw_alloc(bytes), mask[64];
    hw_fill_f(in, (size_t)n, zero, false);
    hw_fill_f(mask, (size_t)w, zero, true);
    for (long i = 0; i < n; i++) {
        double s = 0.0;
        for (long j = 0; j < w && !zero; j++)
            if (i - r + j >= 0 && i - r + j < n) s += (double)in[i - r + j] * mask[j];
        ref[i] = hw_clamp01(s);
    }
    memset(got, zero ? 0 : HW_SENTINEL, bytes);
    CUdeviceptr din, dm = 0, dout;
    int ni = (int)n, wi = (int)w;
    void *basic[] = {&din, &dm, &dout, &ni, &wi}, *other[] = {&din, &dout, &ni, &wi};
    bool is_basic = hw_is(k, "hw_conv1d_basic");
    unsigned sh = hw_is(k, "hw_conv1d_tiled") ? (unsigned)(bs + 2 * r) * 4 : hw_is(k, "hw_conv1d_tiled_cache") ? (unsigned)bs * 4 : 0;
    res->l = (hw_launch){{hw_cdiv(n, bs), 1, 1}, {(unsigned)bs, 1, 1}, sh};
    int rc = -1;
    if (!hw_put(c, in, bytes, &din) && !hw_put(c, got, bytes, &dout) &&
        !(is_basic ? hw_put(c, mask, (size_t)w * 4, &dm) : hw_set_const(c, "hw_mask1d", mask, (size_t)w * 4)) &&
        !hw_run(c, k->name, &res->l, is_basic ? basic : other, warmup, &res->us) && !hw_get(c, got, dout, bytes))
        rc = hw_compare(c, got, ref, (size_t)n, "out");
    free(in), free(got), free(ref);
    return rc;
}

static int hw_conv2(hw_ctx *c, const hw_kernel *k, const hw_params *p, bool zero, int warmup, hw_result *res)
{
    long n = p->v[P_N], w = p->v[P_W], ch = p->v[P_CH], t = p->v[P_T], r = w / 2;
    size_t e = (size_t)n * (size_t)n * (size_t)ch, bytes = e * 4;
    float *in = hw_alloc(bytes), *got = hw_alloc(bytes), *ref = hw_alloc(bytes), mask[256];
    hw_fill_f(in, e, zero, false);
    hw_fill_f(mask, (size_t)(w * w), zero, true);
    for (long cc = 0; cc < ch; cc++)
        for (long y = 0; y < n; y++)
            for (long x = 0; x < n; x++) {
                const float *pl = in + (size_t)cc * n * n;
                double s = 0.0; /* zero data: clamp(0) = 0, without the w^2 loop (8192^2 images) */
                for (long i = 0; i < w && !zero; i++)
                    for (long j = 0; j < w; j++) {
                        long yy = y - r + i, xx = x - r + j;
                        if (yy >= 0 && yy < n && xx >= 0 && xx < n) s += (double)pl[yy * n + xx] * mask[i * w + j];
                    }
                ref[((size_t)cc * n + y) * n + x] = hw_clamp01(s);
            }
    memset(got, zero ? 0 : HW_SENTINEL, bytes);
    CUdeviceptr din, dm = 0, dout;
    int ni = (int)n, ci = (int)ch, wi = (int)w;
    void *basic[] = {&din, &dm, &dout, &ni, &ci, &wi}, *other[] = {&din, &dout, &ni, &ci, &wi};
    bool is_basic = hw_is(k, "hw_conv2d_basic"), tiled = hw_is(k, "hw_conv2d_tiled");
    unsigned g = tiled ? (unsigned)((n + t - w) / (t - w + 1)) : hw_cdiv(n, t);
    res->l = (hw_launch){{g, g, 1}, {(unsigned)t, (unsigned)t, 1}, tiled ? (unsigned)(t * t) * 4 : 0};
    int rc = -1;
    if (!hw_put(c, in, bytes, &din) && !hw_put(c, got, bytes, &dout) &&
        !(is_basic ? hw_put(c, mask, (size_t)(w * w) * 4, &dm) : hw_set_const(c, "hw_mask2d", mask, (size_t)(w * w) * 4)) &&
        !hw_run(c, k->name, &res->l, is_basic ? basic : other, warmup, &res->us) && !hw_get(c, got, dout, bytes))
        rc = hw_compare(c, got, ref, e, "out");
    free(in), free(got), free(ref);
    return rc;
}

static int hw_mm(hw_ctx *c, const hw_kernel *k, const hw_params *p, bool zero, int warmup, hw_result *res)
{
    long m = p->v[P_M], kk = p->v[P_K], n = p->v[P_N], t = p->v[P_T];
    size_t ea = (size_t)m * kk, eb = (size_t)kk * n, ec = (size_t)m * n;
    uint32_t *A = hw_alloc(ea * 4), *B = hw_alloc(eb * 4), *got = hw_alloc(ec * 4), *ref = hw_alloc(ec * 4);
    hw_fill_u(A, ea, zero);
    hw_fill_u(B, eb, zero);
    if (zero) memset(ref, 0, ec * 4);
    else
        for (long i = 0; i < m; i++)
            for (long j = 0; j < n; j++) {
                uint32_t s = 0;
                for (long q = 0; q < kk; q++) s += A[i * kk + q] * B[q * n + j];
                ref[i * n + j] = s;
            }
    memset(got, zero ? 0 : HW_SENTINEL, ec * 4);
    CUdeviceptr dA, dB, dC;
    int mi = (int)m, ki = (int)kk, nI = (int)n;
    void *args[] = {&dA, &dB, &dC, &mi, &ki, &nI};
    if (hw_is(k, "hw_mm_rect")) /* the benchmark's grid: ceil(n/8) x ceil(m/16) */
        res->l = (hw_launch){{hw_cdiv(n, 8), hw_cdiv(m, 16), 1}, {16, 16, 1}, 0};
    else
        res->l = (hw_launch){{hw_cdiv(n, t), hw_cdiv(m, t), 1}, {(unsigned)t, (unsigned)t, 1},
                             hw_is(k, "hw_mm_tiles") ? (unsigned)(2 * t * t) * 4 : 0};
    int rc = -1;
    if (!hw_put(c, A, ea * 4, &dA) && !hw_put(c, B, eb * 4, &dB) && !hw_put(c, got, ec * 4, &dC) &&
        !hw_run(c, k->name, &res->l, args, warmup, &res->us) && !hw_get(c, got, dC, ec * 4))
        rc = hw_compare(c, got, ref, ec, "C");
    free(A), free(B), free(got), free(ref);
    return rc;
}

static int hw_mv(hw_ctx *c, const hw_kernel *k, const hw_params *p, bool zero, int warmup, hw_result *res)
{
    long rows = p->v[P_ROWS], cols = p->v[P_COLS], bs = p->v[P_BS];
    size_t ea = (size_t)rows * cols;
    uint32_t *A = hw_alloc(ea * 4), *x = hw_alloc((size_t)cols * 4), *got = hw_alloc((size_t)rows * 4),
             *ref = hw_alloc((size_t)rows * 4);
    hw_fill_u(A, ea, zero);
    hw_fill_u(x, (size_t)cols, zero);
    for (long i = 0; i < rows; i++) {
        uint32_t s = 0;
        for (long j = 0; j < cols; j++) s += A[i * cols + j] * x[j];
        ref[i] = s;
    }
    memset(got, zero ? 0 : HW_SENTINEL, (size_t)rows * 4);
    CUdeviceptr dA, dx, dy;
    int ri = (int)rows, ci = (int)cols;
    void *args[] = {&dA, &dx, &dy, &ri, &ci};
    res->l = (hw_launch){{hw_cdiv(rows, bs), 1, 1}, {(unsigned)bs, 1, 1}, hw_is(k, "hw_mv_shared") ? (unsigned)bs * 4 : 0};
    int rc = -1;
    if (!hw_put(c, A, ea * 4, &dA) && !hw_put(c, x, (size_t)cols * 4, &dx) && !hw_put(c, got, (size_t)rows * 4, &dy) &&
        !hw_run(c, k->name, &res->l, args, warmup, &res->us) && !hw_get(c, got, dy, (size_t)rows * 4))
        rc = hw_compare(c, got, ref, (size_t)rows, "y");
    free(A), free(x), free(got), free(ref);
    return rc;
}

/* One kernel at one parameter set in a context of its own; 0, or -1 with c->msg. */
static int hw_one(hw_ctx *c, CUdevice dev, const hw_kernel *k, const hw_params *p, bool zero, int warmup,
                  hw_result *res)
{
    memset(c->bufs, 0, sizeof c->bufs);
    c->nbufs = 0;
    c->mod = NULL;
    HW_CU(cuCtxCreate(&c->ctx, NULL, 0, dev));
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.ptx", c->ptxdir, k->module);
    CUresult r = cuModuleLoad(&c->mod, path);
    int rc;
    if (r != CUDA_SUCCESS) {
        rc = hw_fail(c, "cuModuleLoad %s: %s", path, hw_errname(r));
    } else {
        switch (k->family) {
        case F_ADD: rc = hw_add(c, k, p, zero, warmup, res); break;
        case F_CONV1: rc = hw_conv1(c, k, p, zero, warmup, res); break;
        case F_CONV2: rc = hw_conv2(c, k, p, zero, warmup, res); break;
        case F_MM: rc = hw_mm(c, k, p, zero, warmup, res); break;
        default: rc = hw_mv(c, k, p, zero, warmup, res); break;
        }
    }
    for (int i = 0; i < c->nbufs; i++) cuMemFree(c->bufs[i]);
    if (c->mod) cuModuleUnload(c->mod);
    cuCtxDestroy(c->ctx);
    return rc;
}

/* ---- --check: small cases per kernel ------------------------------------------------ */

typedef struct hw_case {
    const char *kernel;
    const char *params; /* KEY=VALUE ... */
} hw_case;

static const hw_case hw_cases[] = {
    {"hw_add_coalesced", "n=1"},        {"hw_add_coalesced", "n=50"},         {"hw_add_coalesced", "n=64"},
    {"hw_add_not_coalesced", "n=1"},    {"hw_add_not_coalesced", "n=50"},     {"hw_add_not_coalesced", "n=64"},
#define C1(K)                                                                                                 \
    {K, "n=1000 w=5 bs=128"}, {K, "n=37 w=11 bs=32"}, {K, "n=3 w=7 bs=512"}, {K, "n=4096 w=3 bs=1024"}, \
        {K, "n=700 w=9 bs=64"}
    C1("hw_conv1d_basic"), C1("hw_conv1d_const"), C1("hw_conv1d_tiled"), C1("hw_conv1d_tiled_cache"),
#define C2(K)                                                                                                          \
    {K, "n=37 ch=2 w=5 t=16"}, {K, "n=20 ch=1 w=11 t=16"}, {K, "n=50 ch=1 w=3 t=8"}, {K, "n=70 ch=1 w=7 t=32"}, \
        {K, "n=3 ch=3 w=5 t=16"}
    C2("hw_conv2d_basic"), C2("hw_conv2d_const"), C2("hw_conv2d_tiled"),
#define MM(K) {K, "m=33 k=33 n=33 t=16"}, {K, "m=20 k=45 n=37 t=8"}, {K, "m=64 k=40 n=64 t=32"}, {K, "m=5 k=7 n=3 t=2"}
    MM("hw_mm_simple"), MM("hw_mm_tiles"),
    {"hw_mm_rect", "m=33 k=33 n=33 t=16"}, {"hw_mm_rect", "m=20 k=45 n=70 t=16"}, {"hw_mm_rect", "m=64 k=64 n=64 t=16"},
#define MV(K) {K, "rows=100 cols=77 bs=32"}, {K, "rows=513 cols=600 bs=512"}, {K, "rows=3 cols=5 bs=2"}, \
        {K, "rows=1030 cols=40 bs=1024"}
    MV("hw_mv_simple"), MV("hw_mv_shared"),
};
#define HW_NCASES (sizeof hw_cases / sizeof hw_cases[0])

static int hw_parse_list(const hw_kernel *k, hw_params *p, const char *list, char *msg, size_t msz)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        if (hw_set_param(k, p, tok, msg, msz)) return -1;
    return hw_validate(k, p, msg, msz);
}

static int hw_check(hw_ctx *c, CUdevice dev, char **names, int nnames)
{
    int failed = 0;
    for (size_t i = 0; i < HW_NKERNELS; i++) {
        const hw_kernel *k = &hw_kernels[i];
        bool want = nnames == 0;
        for (int j = 0; j < nnames; j++) want |= !strcmp(names[j], k->name);
        if (!want) continue;
        int ncases = 0, bad = 0;
        for (size_t j = 0; j < HW_NCASES && !bad; j++) {
            if (strcmp(hw_cases[j].kernel, k->name)) continue;
            hw_params p = k->defaults;
            hw_result res;
            char what[256], m[256];
            ncases++;
            if (hw_parse_list(k, &p, hw_cases[j].params, m, sizeof m)) {
                printf("FAIL %s: case '%s': %s\n", k->name, hw_cases[j].params, m);
                bad = 1;
            } else if (hw_one(c, dev, k, &p, false, 0, &res)) {
                hw_format(k, &p, what, sizeof what);
                printf("FAIL %s: %s: %s\n", k->name, what, c->msg);
                bad = 1;
            }
        }
        if (!bad) printf("PASS %s (%d sizes)\n", k->name, ncases);
        failed += bad;
        fflush(stdout);
    }
    return failed ? 1 : 0;
}

/* ---- main ----------------------------------------------------------------------- */

static int hw_usage(void)
{
    fprintf(stderr, "usage: hwbench [--ptx DIR] [--zero] [--warmup N] KERNEL [KEY=VALUE...]\n"
                    "       hwbench [--ptx DIR] [--zero] [--warmup N] [--dry] --row BENCHMARK PARAMS NUM_ELEMENTS\n"
                    "       hwbench [--ptx DIR] --check [KERNEL...]\n"
                    "       hwbench --list\n");
    return 2;
}

int main(int argc, char **argv)
{
    hw_ctx c;
    memset(&c, 0, sizeof c);
    c.ptxdir = "tests/hardware";
    bool zero = false, dry = false, check = false, row = false;
    int warmup = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--ptx") && i + 1 < argc) {
            c.ptxdir = argv[++i];
        } else if (!strcmp(a, "--zero")) {
            zero = true;
        } else if (!strcmp(a, "--dry")) {
            dry = true;
        } else if (!strcmp(a, "--check")) {
            check = true;
        } else if (!strcmp(a, "--row")) {
            row = true;
        } else if (!strcmp(a, "--warmup") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 100) return fprintf(stderr, "hwbench: --warmup takes 0 to 100\n"), 2;
            warmup = (int)v;
        } else if (!strcmp(a, "--list")) {
            for (size_t k = 0; k < HW_NKERNELS; k++) {
                char buf[256];
                hw_format(&hw_kernels[k], &hw_kernels[k].defaults, buf, sizeof buf);
                printf("%s\n", buf);
            }
            return 0;
        } else {
            return hw_usage();
        }
    }
    const hw_kernel *k = NULL;
    hw_params p;
    char msg[512];
    if (!check) {
        if (row) {
            if (argc - i != 3) return hw_usage();
            if (hw_from_row(argv[i], argv[i + 1], argv[i + 2], &k, &p, msg, sizeof msg))
                return fprintf(stderr, "hwbench: %s\n", msg), 2;
        } else {
            if (i == argc) return hw_usage();
            k = hw_find(argv[i]);
            if (!k) return fprintf(stderr, "hwbench: no kernel named %s (--list)\n", argv[i]), 2;
            p = k->defaults;
            for (int j = i + 1; j < argc; j++)
                if (hw_set_param(k, &p, argv[j], msg, sizeof msg)) return fprintf(stderr, "hwbench: %s\n", msg), 2;
            if (hw_validate(k, &p, msg, sizeof msg)) return fprintf(stderr, "hwbench: %s\n", msg), 2;
        }
        if (dry) {
            hw_format(k, &p, msg, sizeof msg);
            printf("%s\n", msg);
            return 0;
        }
    }
    CUdevice dev = 0;
    CUresult r = cuInit(0);
    if (r == CUDA_SUCCESS) r = cuDeviceGet(&dev, 0);
    if (r != CUDA_SUCCESS) {
        printf("FAIL hwbench: cuInit/cuDeviceGet returned %s\n", hw_errname(r));
        return 1;
    }
    if (check) return hw_check(&c, dev, argv + i, argc - i);
    hw_result res;
    char what[256];
    hw_format(k, &p, what, sizeof what);
    if (hw_one(&c, dev, k, &p, zero, warmup, &res)) {
        printf("FAIL %s: %s\n", what, c.msg);
        return 1;
    }
    printf("%s: grid %u,%u,%u block %u,%u,%u shared %u: %.3f us, ok\n", what, res.l.grid[0], res.l.grid[1],
           res.l.grid[2], res.l.block[0], res.l.block[1], res.l.block[2], res.l.shared, res.us);
    return 0;
}
