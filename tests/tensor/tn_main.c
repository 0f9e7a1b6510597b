/*
** tn_main.c -- the host side of the tensor-core tests: a plain C11
** driver-API program that loads tests/tensor's PTX (tensor.ptx sm_75,
** tensor80.ptx sm_80, tensor90.ptx sm_90, gemm.ptx sm_75), runs every
** kernel and checks every result against the CPU.  Prints one line per
** test: "PASS name", "FAIL name: why" or "SKIP name: why" (a module for a
** newer GPU than the device: "needs compute X.Y").  The same program checks
** a real GPU (link it with NVIDIA's libcuda).
**
**   runner DIR [--only NAME] [--list]
**
** The data keep every product and sum exact in the accumulator's type
** (small integers and halves, integer types over their whole range), so the
** expected values are plain arithmetic and every comparison is bit for bit;
** the rounding model itself is tested in tests/unit/test_exec_tensor.c.
*/
#include <cuda.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dir;
static CUcontext ctx;
static int cc;
static char why[512];

typedef enum { PASS, FAIL, SKIP } res;

#define CK(call)                                                                           \
    do {                                                                                   \
        CUresult r_ = (call);                                                              \
        if (r_ != CUDA_SUCCESS) {                                                          \
            const char *n_ = NULL;                                                         \
            cuGetErrorName(r_, &n_);                                                       \
            snprintf(why, sizeof why, "%s:%d: %s returned %s", __FILE__, __LINE__, #call, n_ ? n_ : "?"); \
            return FAIL;                                                                   \
        }                                                                                  \
    } while (0)

/* ---- modules and launches ----------------------------------------------------------- */

typedef struct mod { const char *file; int need; CUmodule m; CUresult r; bool tried; } mod;
static mod mods[] = {{"tensor.ptx", 75, 0, 0, false}, {"tensor80.ptx", 80, 0, 0, false},
                     {"tensor90.ptx", 90, 0, 0, false}, {"gemm.ptx", 75, 0, 0, false}};
enum { M75, M80, M90, MGEMM };

/* The kernel, or SKIP/FAIL with the reason in why. */
static res kernel(int mi, const char *name, CUfunction *f)
{
    mod *m = &mods[mi];
    if (!m->tried) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, m->file);
        m->r = cuModuleLoad(&m->m, path);
        m->tried = true;
    }
    if (m->r != CUDA_SUCCESS) {
        const char *n = NULL;
        cuGetErrorName(m->r, &n);
        if (cc < m->need) {
            snprintf(why, sizeof why, "needs compute %d.%d, the device is %d.%d (%s refused: %s)", m->need / 10,
                     m->need % 10, cc / 10, cc % 10, m->file, n ? n : "?");
            return SKIP;
        }
        snprintf(why, sizeof why, "cuModuleLoad(%s) returned %s", m->file, n ? n : "?");
        return FAIL;
    }
    if (cc < m->need) {
        snprintf(why, sizeof why, "device is compute %d.%d but accepted %s", cc / 10, cc % 10, m->file);
        return FAIL;
    }
    CK(cuModuleGetFunction(f, m->m, name));
    return PASS;
}

static res upload(const void *h, size_t n, CUdeviceptr *d)
{
    CK(cuMemAlloc(d, n ? n : 1));
    if (h) CK(cuMemcpyHtoD(*d, h, n));
    else CK(cuMemsetD8(*d, 0, n ? n : 1));
    return PASS;
}

static res launch(CUfunction f, unsigned gx, unsigned gy, unsigned threads, void **args)
{
    CK(cuLaunchKernel(f, gx, gy, 1, threads, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    return PASS;
}

#define TRY(x)                       \
    do {                             \
        res t_ = (x);                \
        if (t_ != PASS) return t_;   \
    } while (0)

/* ---- element types ---------------------------------------------------------------------- */

enum { F16, BF16, TF32, F32, F64, S8, U8, S4, U4, B1, S32 };
static const unsigned bits[] = {16, 16, 32, 32, 64, 8, 8, 4, 4, 1, 32};

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* An f16 holding v exactly (v a small multiple of 2^-k). */
static uint16_t f16(double v)
{
    if (v == 0) return 0;
    uint16_t s = v < 0 ? 0x8000 : 0;
    int e;
    double m = frexp(fabs(v), &e);
    return (uint16_t)(s | (e - 1 + 15) << 10 | ((uint16_t)ldexp(m, 11) & 0x3ff));
}
static double f16v(uint16_t h)
{
    int e = h >> 10 & 31, f = h & 0x3ff;
    double v = e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);
    return h & 0x8000 ? -v : v;
}

static uint64_t enc(int t, double v)
{
    switch (t) {
    case F16: return f16(v);
    case BF16: return f2u((float)v) >> 16;
    case TF32: case F32: return f2u((float)v);
    case F64: { uint64_t u; memcpy(&u, &v, 8); return u; }
    case S32: return (uint32_t)(int64_t)v;
    default: return (uint64_t)(int64_t)v & ((1u << bits[t]) - 1);
    }
}
static double dec(int t, uint64_t b)
{
    switch (t) {
    case F16: return f16v((uint16_t)b);
    case BF16: return u2f((uint32_t)b << 16);
    case TF32: case F32: return u2f((uint32_t)b);
    case F64: { double v; memcpy(&v, &b, 8); return v; }
    case S8: return (int8_t)b;
    case U8: return (uint8_t)b;
    case S4: return (int)((b & 15) ^ 8) - 8;
    case U4: return (double)(b & 15);
    case B1: return (double)(b & 1);
    default: return (int32_t)b;
    }
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 13);
}
static int rin(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

static double pick(int t, bool acc, bool sat)
{
    switch (t) {
    case S8: return rin(-128, 127);
    case U8: return rin(0, 255);
    case S4: return rin(-8, 7);
    case U4: return rin(0, 15);
    case B1: return rin(0, 1);
    case S32: /* near a limit when saturation is tested: the products push past it */
        if (!sat) return rin(-100000, 100000);
        return rnd() & 1 ? 2147483647.0 - rin(0, 300000) : -2147483648.0 + rin(0, 300000);
    default: return acc ? rin(-16, 16) : rin(-6, 6) * 0.5;
    }
}

/* The exact D[i][j] of A * B + C (A M x K, B K x N, C M x N, row-major words). */
static double ref(int ta, int tb, int tc, int bitop, bool sat, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                  int N, int K, int i, int j)
{
    double s = dec(tc, C[i * N + j]);
    for (int k = 0; k < K; k++) {
        double x = dec(ta, A[i * K + k]), y = dec(tb, B[k * N + j]);
        s += bitop == 'a' ? (double)((int)x & (int)y) : bitop == 'x' ? (double)((int)x ^ (int)y) : x * y;
    }
    if (sat) s = s > 2147483647.0 ? 2147483647.0 : s < -2147483648.0 ? -2147483648.0 : s;
    else if (tc == S32) s = (double)(int32_t)(uint32_t)(int64_t)s;
    return s;
}

/* ---- wmma through memory ------------------------------------------------------------------ */

typedef struct wtest {
    const char *kernel;
    int mod;
    int M, N, K;
    int ta, tc, td;
    int al, bl, cl;       /* 1: column-major */
    bool sat;
    int bitop;            /* 'a' and, 'x' xor, 0 */
} wtest;

static const wtest wtests[] = {
    {"wmma_f16_m16n16k16_rc_f32", M75, 16, 16, 16, F16, F32, F32, 0, 1, 0, false, 0},
    {"wmma_f16_m16n16k16_cr_f16", M75, 16, 16, 16, F16, F16, F16, 1, 0, 1, false, 0},
    {"wmma_f16_m32n8k16_rr_f32", M75, 32, 8, 16, F16, F32, F32, 0, 0, 0, false, 0},
    {"wmma_f16_m8n32k16_cc_f16f32", M75, 8, 32, 16, F16, F16, F32, 1, 1, 1, false, 0},
    {"wmma_s8_m16n16k16_rc", M75, 16, 16, 16, S8, S32, S32, 0, 1, 0, false, 0},
    {"wmma_u8_m32n8k16_cr", M75, 32, 8, 16, U8, S32, S32, 1, 0, 1, false, 0},
    {"wmma_s8_m8n32k16_rr_sat", M75, 8, 32, 16, S8, S32, S32, 0, 0, 0, true, 0},
    {"wmma_s4_m8n8k32", M75, 8, 8, 32, S4, S32, S32, 0, 1, 0, false, 0},
    {"wmma_u4_m8n8k32_sat", M75, 8, 8, 32, U4, S32, S32, 0, 1, 0, true, 0},
    {"wmma_b1_xor", M75, 8, 8, 128, B1, S32, S32, 0, 1, 0, false, 'x'},
    {"wmma_bf16_m16n16k16_rc", M80, 16, 16, 16, BF16, F32, F32, 0, 1, 0, false, 0},
    {"wmma_bf16_m32n8k16_cr", M80, 32, 8, 16, BF16, F32, F32, 1, 0, 1, false, 0},
    {"wmma_bf16_m8n32k16_rr", M80, 8, 32, 16, BF16, F32, F32, 0, 0, 0, false, 0},
    {"wmma_tf32_m16n16k8", M80, 16, 16, 8, TF32, F32, F32, 0, 1, 0, false, 0},
    {"wmma_f64_m8n8k4_rc", M80, 8, 8, 4, F64, F64, F64, 0, 1, 0, false, 0},
    {"wmma_f64_m8n8k4_cr", M80, 8, 8, 4, F64, F64, F64, 1, 0, 1, false, 0},
    {"wmma_b1_and", M80, 8, 8, 128, B1, S32, S32, 0, 1, 0, false, 'a'},
};

static void mput(uint8_t *p, int t, bool col, unsigned ld, unsigned r, unsigned c, uint64_t v)
{
    uint64_t i = col ? (uint64_t)c * ld + r : (uint64_t)r * ld + c;
    unsigned w = bits[t];
    if (w >= 8) {
        memcpy(p + i * w / 8, &v, w / 8);
        return;
    }
    uint64_t bit = i * w;
    uint8_t mask = (uint8_t)(((1u << w) - 1) << (bit % 8));
    p[bit / 8] = (uint8_t)((p[bit / 8] & ~mask) | ((v << (bit % 8)) & mask));
}
static uint64_t mget(const uint8_t *p, int t, bool col, unsigned ld, unsigned r, unsigned c)
{
    uint64_t i = col ? (uint64_t)c * ld + r : (uint64_t)r * ld + c, v = 0;
    unsigned w = bits[t];
    if (w >= 8) memcpy(&v, p + i * w / 8, w / 8);
    else v = (uint64_t)(p[i * w / 8] >> (i * w % 8)) & ((1u << w) - 1);
    return v;
}

static res run_wmma(const wtest *w)
{
    CUfunction f;
    TRY(kernel(w->mod, w->kernel, &f));
    unsigned M = (unsigned)w->M, N = (unsigned)w->N, K = (unsigned)w->K;
    /* strides: the leading dimension plus 32 bytes of elements (every line stays aligned) */
    unsigned pa = 256 / bits[w->ta], pc = 256 / bits[w->tc];
    unsigned lda = (w->al ? M : K) + pa, ldb = (w->bl ? K : N) + pa, ldc = (w->cl ? M : N) + pc;
    size_t sa = (size_t)(w->al ? K : M) * lda * bits[w->ta] / 8, sb = (size_t)(w->bl ? N : K) * ldb * bits[w->ta] / 8;
    size_t sc = (size_t)(w->cl ? N : M) * ldc * bits[w->tc] / 8, sd = (size_t)(w->cl ? N : M) * ldc * bits[w->td] / 8;
    uint8_t *ha = calloc(1, sa), *hb = calloc(1, sb), *hc = calloc(1, sc), *hd = calloc(1, sd);
    uint64_t *A = calloc(M * K, 8), *B = calloc(K * N, 8), *C = calloc(M * N, 8);
    /* tf32: the kernel rounds with __float_to_tf32 (to nearest, ties away): values of magnitude 1
    ** or more, with garbage below half an ulp (0x1000 in the f32 bits), round back to themselves */
    for (unsigned r = 0; r < M; r++)
        for (unsigned c = 0; c < K; c++) {
            double v = pick(w->ta, false, false);
            if (w->ta == TF32 && fabs(v) < 1) v = v < 0 ? -1 : 1;
            A[r * K + c] = enc(w->ta, v);
            mput(ha, w->ta, w->al, lda, r, c, w->ta == TF32 ? A[r * K + c] | (rnd() & 0xfff) : A[r * K + c]);
        }
    for (unsigned r = 0; r < K; r++)
        for (unsigned c = 0; c < N; c++) {
            double v = pick(w->ta, false, false);
            if (w->ta == TF32 && fabs(v) < 1) v = v < 0 ? -1 : 1;
            B[r * N + c] = enc(w->ta, v);
            mput(hb, w->ta, w->bl, ldb, r, c, w->ta == TF32 ? B[r * N + c] | (rnd() & 0xfff) : B[r * N + c]);
        }
    for (unsigned r = 0; r < M; r++)
        for (unsigned c = 0; c < N; c++) {
            C[r * N + c] = enc(w->tc, pick(w->tc, true, w->sat));
            mput(hc, w->tc, w->cl, ldc, r, c, C[r * N + c]);
        }
    CUdeviceptr da, db, dc, dd;
    res rr = PASS;
    if ((rr = upload(ha, sa, &da)) || (rr = upload(hb, sb, &db)) || (rr = upload(hc, sc, &dc)) ||
        (rr = upload(NULL, sd, &dd)))
        goto out;
    void *args[] = {&da, &db, &dc, &dd, &lda, &ldb, &ldc};
    if ((rr = launch(f, 1, 1, 32, args))) goto out;
    if (cuMemcpyDtoH(hd, dd, sd) != CUDA_SUCCESS) {
        snprintf(why, sizeof why, "cuMemcpyDtoH failed");
        rr = FAIL;
        goto out;
    }
    for (unsigned r = 0; r < M && rr == PASS; r++)
        for (unsigned c = 0; c < N; c++) {
            uint64_t want = enc(w->td, ref(w->ta, w->ta, w->tc, w->bitop, w->sat, A, B, C, (int)N, (int)K, (int)r, (int)c));
            uint64_t got = mget(hd, w->td, w->cl, ldc, r, c);
            if (got != want) {
                snprintf(why, sizeof why, "D[%u][%u] = 0x%llx, expected 0x%llx", r, c, (unsigned long long)got,
                         (unsigned long long)want);
                rr = FAIL;
                break;
            }
        }
out:
    free(ha), free(hb), free(hc), free(hd), free(A), free(B), free(C);
    return rr;
}

/* ---- mma with the ISA's fragments (tn_dev.cuh packs and unpacks) ------------------------------ */

typedef struct mtest {
    const char *kernel;
    int mod;
    int M, N, K;
    bool qp;              /* m8n8k4 .f16: four quad-pair products */
    int ta, tb, tc, td;
    bool sat;
    int bitop;
} mtest;

static const mtest mtests[] = {
    {"mma_m16n8k8_f16_f32", M75, 16, 8, 8, false, F16, F16, F32, F32, false, 0},
    {"mma_m16n8k8_f16_f16", M75, 16, 8, 8, false, F16, F16, F16, F16, false, 0},
    {"mma_m8n8k4_f16_rc_f32", M75, 8, 8, 4, true, F16, F16, F32, F32, false, 0},
    {"mma_m8n8k4_f16_cr_f16", M75, 8, 8, 4, true, F16, F16, F16, F16, false, 0},
    {"mma_m8n8k4_f16_rr_f32f16", M75, 8, 8, 4, true, F16, F16, F16, F32, false, 0},
    {"mma_m8n8k16_s8", M75, 8, 8, 16, false, S8, S8, S32, S32, false, 0},
    {"mma_m8n8k16_u8s8_sat", M75, 8, 8, 16, false, U8, S8, S32, S32, true, 0},
    {"mma_m8n8k32_s4", M75, 8, 8, 32, false, S4, S4, S32, S32, false, 0},
    {"mma_m8n8k128_b1_xor", M75, 8, 8, 128, false, B1, B1, S32, S32, false, 'x'},
    {"mma_m16n8k16_f16_f32", M80, 16, 8, 16, false, F16, F16, F32, F32, false, 0},
    {"mma_m16n8k16_f16_f16", M80, 16, 8, 16, false, F16, F16, F16, F16, false, 0},
    {"mma_m16n8k16_bf16", M80, 16, 8, 16, false, BF16, BF16, F32, F32, false, 0},
    {"mma_m16n8k8_bf16", M80, 16, 8, 8, false, BF16, BF16, F32, F32, false, 0},
    {"mma_m16n8k4_tf32", M80, 16, 8, 4, false, TF32, TF32, F32, F32, false, 0},
    {"mma_m16n8k8_tf32", M80, 16, 8, 8, false, TF32, TF32, F32, F32, false, 0},
    {"mma_m16n8k16_s8", M80, 16, 8, 16, false, S8, S8, S32, S32, false, 0},
    {"mma_m16n8k32_u8_sat", M80, 16, 8, 32, false, U8, U8, S32, S32, true, 0},
    {"mma_m16n8k32_s4", M80, 16, 8, 32, false, S4, S4, S32, S32, false, 0},
    {"mma_m16n8k64_u4", M80, 16, 8, 64, false, U4, U4, S32, S32, false, 0},
    {"mma_m16n8k128_b1_and", M80, 16, 8, 128, false, B1, B1, S32, S32, false, 'a'},
    {"mma_m16n8k256_b1_xor", M80, 16, 8, 256, false, B1, B1, S32, S32, false, 'x'},
    {"mma_m8n8k4_f64", M80, 8, 8, 4, false, F64, F64, F64, F64, false, 0},
    {"mma_m16n8k4_f64", M90, 16, 8, 4, false, F64, F64, F64, F64, false, 0},
    {"mma_m16n8k8_f64", M90, 16, 8, 8, false, F64, F64, F64, F64, false, 0},
    {"mma_m16n8k16_f64", M90, 16, 8, 16, false, F64, F64, F64, F64, false, 0},
};

static res run_mma(const mtest *t)
{
    CUfunction f;
    TRY(kernel(t->mod, t->kernel, &f));
    int sets = t->qp ? 4 : 1, M = t->M, N = t->N, K = t->K;
    size_t w = t->ta == F64 ? 8 : 4, na = (size_t)sets * M * K, nb = (size_t)sets * K * N, nc = (size_t)sets * M * N;
    uint64_t *A = calloc(na, 8), *B = calloc(nb, 8), *C = calloc(nc, 8);
    uint8_t *ha = calloc(na, w), *hb = calloc(nb, w), *hc = calloc(nc, w), *hd = calloc(nc, w);
    for (size_t i = 0; i < na; i++) A[i] = enc(t->ta, pick(t->ta, false, false));
    for (size_t i = 0; i < nb; i++) B[i] = enc(t->tb, pick(t->tb, false, false));
    for (size_t i = 0; i < nc; i++) C[i] = enc(t->tc, pick(t->tc, true, t->sat));
    for (size_t i = 0; i < na; i++) memcpy(ha + i * w, &A[i], w);
    for (size_t i = 0; i < nb; i++) memcpy(hb + i * w, &B[i], w);
    for (size_t i = 0; i < nc; i++) memcpy(hc + i * w, &C[i], w);
    CUdeviceptr da, db, dc, dd;
    res rr = PASS;
    if ((rr = upload(ha, na * w, &da)) || (rr = upload(hb, nb * w, &db)) || (rr = upload(hc, nc * w, &dc)) ||
        (rr = upload(NULL, nc * w, &dd)))
        goto out;
    void *args[] = {&da, &db, &dc, &dd};
    if ((rr = launch(f, 1, 1, 32, args))) goto out;
    if (cuMemcpyDtoH(hd, dd, nc * w) != CUDA_SUCCESS) {
        snprintf(why, sizeof why, "cuMemcpyDtoH failed");
        rr = FAIL;
        goto out;
    }
    for (int s = 0; s < sets && rr == PASS; s++)
        for (int i = 0; i < M && rr == PASS; i++)
            for (int j = 0; j < N; j++) {
                size_t o = (size_t)s * M * N;
                uint64_t want = enc(t->td, ref(t->ta, t->tb, t->tc, t->bitop, t->sat, A + (size_t)s * M * K,
                                               B + (size_t)s * K * N, C + o, N, K, i, j));
                uint64_t got = 0;
                memcpy(&got, hd + (o + (size_t)i * N + j) * w, w);
                if (t->td == F16) got &= 0xffff;
                if (got != want) {
                    snprintf(why, sizeof why, "D[%d][%d] (product %d) = 0x%llx, expected 0x%llx", i, j, s,
                             (unsigned long long)got, (unsigned long long)want);
                    rr = FAIL;
                    break;
                }
            }
out:
    free(A), free(B), free(C), free(ha), free(hb), free(hc), free(hd);
    return rr;
}

/* ---- ldmatrix, movmatrix, stmatrix, wmma fragment elements, GEMM ---------------------------------- */

static res t_ldsm_mma(void)
{
    CUfunction f;
    TRY(kernel(M75, "ldsm_mma", &f));
    uint16_t A[128], B[64];
    float D[128];
    for (int i = 0; i < 128; i++) A[i] = f16(rin(-6, 6) * 0.5);
    for (int i = 0; i < 64; i++) B[i] = f16(rin(-6, 6) * 0.5);
    CUdeviceptr da, db, dd;
    TRY(upload(A, sizeof A, &da));
    TRY(upload(B, sizeof B, &db));
    TRY(upload(NULL, sizeof D, &dd));
    void *args[] = {&da, &db, &dd};
    TRY(launch(f, 1, 1, 32, args));
    CK(cuMemcpyDtoH(D, dd, sizeof D));
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            double s = 0;
            for (int k = 0; k < 8; k++) s += f16v(A[i * 8 + k]) * f16v(B[k * 8 + j]);
            if (D[i * 8 + j] != (float)s) {
                snprintf(why, sizeof why, "D[%d][%d] = %g, expected %g", i, j, (double)D[i * 8 + j], s);
                return FAIL;
            }
        }
    return PASS;
}

static res t_movm(void)
{
    CUfunction f;
    TRY(kernel(M75, "movm", &f));
    uint16_t Mx[64];
    uint32_t out[32];
    for (int i = 0; i < 64; i++) Mx[i] = (uint16_t)(0x1000 + i);
    CUdeviceptr dm, dout;
    TRY(upload(Mx, sizeof Mx, &dm));
    TRY(upload(NULL, sizeof out, &dout));
    void *args[] = {&dm, &dout};
    TRY(launch(f, 1, 1, 32, args));
    CK(cuMemcpyDtoH(out, dout, sizeof out));
    for (int l = 0; l < 32; l++) {
        int g = l >> 2, t = l % 4;
        uint32_t want = (uint32_t)Mx[2 * t * 8 + g] | (uint32_t)Mx[(2 * t + 1) * 8 + g] << 16;
        if (out[l] != want) {
            snprintf(why, sizeof why, "lane %d: 0x%08x, expected 0x%08x (transpose)", l, out[l], want);
            return FAIL;
        }
    }
    return PASS;
}

/* tpsim's wmma accumulator layout (docs/TENSOR.md): element i of lane l of an
** m16n16k16 f32 accumulator is row g + 8 ((i/2) mod 2), column 2t + i mod 2 +
** 8 (i/4).  (A real GPU may lay it out otherwise: the PTX ISA leaves it
** unspecified, and a GPU that does reports the difference here.) */
static res t_wmma_elems(void)
{
    CUfunction f;
    TRY(kernel(M75, "wmma_elems", &f));
    uint16_t zero[256] = {0};
    float out[257];
    CUdeviceptr dz, dout;
    TRY(upload(zero, sizeof zero, &dz));
    TRY(upload(NULL, sizeof out, &dout));
    void *args[] = {&dz, &dout};
    TRY(launch(f, 1, 1, 32, args));
    CK(cuMemcpyDtoH(out, dout, sizeof out));
    if (out[256] != 0) {
        snprintf(why, sizeof why, "fill_fragment + mma with zero A and B did not leave every element 1");
        return FAIL;
    }
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 8; i++) {
            int g = l >> 2, t = l % 4, r = g + 8 * ((i >> 1) & 1), c = 2 * t + (i & 1) + 8 * (i >> 2);
            if (out[r * 16 + c] != (float)(l * 100 + i)) {
                snprintf(why, sizeof why, "C[%d][%d] = %g: lane %d's x[%d] belongs there (tpsim's layout)", r, c,
                         (double)out[r * 16 + c], l, i);
                return FAIL;
            }
        }
    return PASS;
}

/* stmatrix: matrix j's row r is row g = r of the fragments (lane 4r + t holds
** columns 2t, 2t + 1); .trans stores the transpose. */
static res t_stsm(void)
{
    CUfunction f;
    TRY(kernel(M90, "stsm", &f));
    uint32_t in[128], out[192];
    for (int i = 0; i < 128; i++) in[i] = 0x10001u * (uint32_t)i + 0x00100000u;
    CUdeviceptr din, dout;
    TRY(upload(in, sizeof in, &din));
    TRY(upload(NULL, sizeof out, &dout));
    void *args[] = {&din, &dout};
    TRY(launch(f, 1, 1, 32, args));
    CK(cuMemcpyDtoH(out, dout, sizeof out));
    const uint16_t *sh = (const uint16_t *)out; /* 48 rows of 8 halves */
    for (int j = 0; j < 4; j++)
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++) {
                /* element (r, c) of matrix j: lane 4r + c/2, half c % 2 of register j */
                uint32_t reg = in[j * 32 + 4 * r + c / 2];
                uint16_t want = (uint16_t)(reg >> (16 * (c % 2)));
                if (sh[(8 * j + r) * 8 + c] != want) {
                    snprintf(why, sizeof why, ".x4: matrix %d element (%d,%d) = 0x%04x, expected 0x%04x", j, r, c,
                             sh[(8 * j + r) * 8 + c], want);
                    return FAIL;
                }
                if (j < 2) { /* .x2.trans: stored row r of matrix j holds column r */
                    uint32_t regt = in[j * 32 + 4 * c + r / 2];
                    uint16_t wt = (uint16_t)(regt >> (16 * (r % 2)));
                    if (sh[(32 + 8 * j + r) * 8 + c] != wt) {
                        snprintf(why, sizeof why, ".x2.trans: matrix %d stored (%d,%d) = 0x%04x, expected 0x%04x", j, r,
                                 c, sh[(32 + 8 * j + r) * 8 + c], wt);
                        return FAIL;
                    }
                }
            }
    return PASS;
}

/* The tiled WMMA GEMM: C = A * B, 128 x 128 x 256. */
static res t_gemm(void)
{
    CUfunction f;
    TRY(kernel(MGEMM, "wmma_gemm", &f));
    int M = 128, N = 128, K = 256;
    uint16_t *A = malloc((size_t)M * K * 2), *B = malloc((size_t)K * N * 2);
    float *C = malloc((size_t)M * N * 4);
    /* multiples of 1/8 in [-2, 2]: products are multiples of 1/64 and every
    ** sum stays below 2^11 in magnitude, exact in f32 */
    for (int i = 0; i < M * K; i++) A[i] = f16(rin(-16, 16) / 8.0);
    for (int i = 0; i < K * N; i++) B[i] = f16(rin(-16, 16) / 8.0);
    CUdeviceptr da, db, dc;
    res rr = PASS;
    if ((rr = upload(A, (size_t)M * K * 2, &da)) || (rr = upload(B, (size_t)K * N * 2, &db)) ||
        (rr = upload(NULL, (size_t)M * N * 4, &dc)))
        goto out;
    void *args[] = {&da, &db, &dc, &M, &N, &K};
    if ((rr = launch(f, (unsigned)N / 64, (unsigned)M / 64, 128, args))) goto out;
    if (cuMemcpyDtoH(C, dc, (size_t)M * N * 4) != CUDA_SUCCESS) {
        rr = FAIL;
        snprintf(why, sizeof why, "cuMemcpyDtoH failed");
        goto out;
    }
    for (int i = 0; i < M && rr == PASS; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++) acc = fmaf((float)f16v(A[i * K + k]), (float)f16v(B[k * N + j]), acc);
            if (C[i * N + j] != acc) {
                snprintf(why, sizeof why, "C[%d][%d] = %.9g, expected %.9g", i, j, (double)C[i * N + j], (double)acc);
                rr = FAIL;
                break;
            }
        }
out:
    free(A), free(B), free(C);
    return rr;
}

/* ---- the table and main -------------------------------------------------------------------------- */

typedef struct test { const char *name; res (*fn)(void); const wtest *w; const mtest *m; } test;

static res run(const test *t)
{
    if (t->w) return run_wmma(t->w);
    if (t->m) return run_mma(t->m);
    return t->fn();
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: runner DIR [--only NAME] [--list]\n");
        return 2;
    }
    dir = argv[1];
    const char *only = NULL;
    bool list = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = true;
    }
    enum { NT = 5 + sizeof wtests / sizeof *wtests + sizeof mtests / sizeof *mtests };
    test tests[NT];
    int n = 0;
    for (size_t i = 0; i < sizeof wtests / sizeof *wtests; i++) tests[n++] = (test){wtests[i].kernel, NULL, &wtests[i], NULL};
    for (size_t i = 0; i < sizeof mtests / sizeof *mtests; i++) tests[n++] = (test){mtests[i].kernel, NULL, NULL, &mtests[i]};
    tests[n++] = (test){"ldsm_mma", t_ldsm_mma, NULL, NULL};
    tests[n++] = (test){"movmatrix", t_movm, NULL, NULL};
    tests[n++] = (test){"wmma_elems", t_wmma_elems, NULL, NULL};
    tests[n++] = (test){"stmatrix", t_stsm, NULL, NULL};
    tests[n++] = (test){"wmma_gemm", t_gemm, NULL, NULL};
    if (list) {
        for (int i = 0; i < n; i++) printf("%s\n", tests[i].name);
        return 0;
    }
    CUdevice dev;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
        cuCtxCreate(&ctx, NULL, 0, dev) != CUDA_SUCCESS) {
        printf("FAIL tensor: no device\n");
        return 1;
    }
    int ma = 0, mi = 0;
    cuDeviceGetAttribute(&ma, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&mi, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    cc = ma * 10 + mi;
    int failed = 0;
    for (int i = 0; i < n; i++) {
        if (only && strcmp(only, tests[i].name) != 0) continue;
        why[0] = 0;
        res r = run(&tests[i]);
        if (r == PASS) printf("PASS tensor_%s\n", tests[i].name);
        else if (r == SKIP) printf("SKIP tensor_%s: %s\n", tests[i].name, why);
        else printf("FAIL tensor_%s: %s\n", tests[i].name, why), failed++;
        fflush(stdout);
    }
    cuCtxDestroy(ctx);
    return failed ? 1 : 0;
}
