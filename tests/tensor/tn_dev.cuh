// tn_dev.cuh -- device helpers of the tensor-core test kernels (tensor.cu,
// tensor80.cu, tensor90.cu): the PTX ISA's mma fragment layouts, written
// from the ISA's figures ("Matrix Fragments for mma.mMnNkK": groupID =
// laneid >> 2, threadID_in_group = laneid % 4), and kernels that pack a
// matrix into fragments by them, run one mma in inline PTX and unpack d by
// them.  The matrices travel one element per 32-bit word (64-bit for f64),
// row-major: A is M x K, B is K x N, C and D are M x N (for mma.m8n8k4 with
// f16, four of each, one per quad-pair).  The same kernels check a real GPU.
#pragma once
#include <stdint.h>

enum { TN_A, TN_B, TN_C };
enum { FAM_F16, FAM_TF32, FAM_F64, FAM_I8, FAM_I4, FAM_B1, FAM_QP };

struct tn_geo {
    int M, N, K;
    int fam;               // FAM_*: which of the ISA's layout figures
    int abits, cbits, dbits;
    bool acol, bcol;       // m8n8k4 .f16 (FAM_QP): the layouts
};

// Row and column of element i of the lane's fragment of operand op.
__device__ inline void tn_rc(const tn_geo &g, int op, int lane, int i, bool f32acc, int *r, int *c)
{
    int gid = lane >> 2, t = lane % 4;
    if (g.fam == FAM_QP) {
        int hi = lane >= 16;
        if (op == TN_A) {
            if (!g.acol) *r = lane % 4 + 4 * hi, *c = i;
            else *r = i % 4 + 4 * hi, *c = lane % 4;
        } else if (op == TN_B) {
            if (g.bcol) *r = i, *c = lane % 4 + 4 * hi;
            else *r = lane % 4, *c = i % 4 + 4 * hi;
        } else if (!f32acc) {
            *r = lane % 4 + 4 * hi, *c = i;
        } else {
            *r = (lane & 1) + (i & 2) + 4 * hi;
            *c = (i & 4) + (lane & 2) + (i & 1);
        }
        return;
    }
    if (op == TN_C) {
        if (g.M == 8) *r = gid, *c = t * 2 + i;
        else *r = i < 2 ? gid : gid + 8, *c = t * 2 + (i & 1);
        return;
    }
    int K = g.K;
    if (g.M == 8) {
        int per = g.fam == FAM_F64 ? 1 : 32 / g.abits;
        if (op == TN_A) *r = gid, *c = t * per + i;
        else *r = t * per + i, *c = gid;
        return;
    }
    switch (g.fam) {
    case FAM_F16: // f16 and bf16
        if (K == 8) {
            if (op == TN_A) *r = i < 2 ? gid : gid + 8, *c = t * 2 + (i & 1);
            else *r = t * 2 + i, *c = gid;
        } else {
            if (op == TN_A) *r = (i < 2 || (i >= 4 && i < 6)) ? gid : gid + 8, *c = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
            else *r = t * 2 + (i & 1) + (i >= 2 ? 8 : 0), *c = gid;
        }
        return;
    case FAM_TF32:
    case FAM_F64:
        if (K == 4) {
            if (op == TN_A) *r = i == 0 ? gid : gid + 8, *c = t;
            else *r = t, *c = gid;
        } else if (K == 8) {
            if (op == TN_A) *r = (i == 0 || i == 2) ? gid : gid + 8, *c = i < 2 ? t : t + 4;
            else *r = i == 0 ? t : t + 4, *c = gid;
        } else {
            if (op == TN_A) *r = i % 2 == 0 ? gid : gid + 8, *c = i % 2 == 0 ? i * 2 + t : i * 2 - 2 + t;
            else *r = t + 4 * i, *c = gid;
        }
        return;
    case FAM_I8:
        if (K == 16) {
            if (op == TN_A) *r = i < 4 ? gid : gid + 8, *c = t * 4 + (i & 3);
            else *r = t * 4 + i, *c = gid;
        } else {
            if (op == TN_A) *r = (i < 4 || (i >= 8 && i < 12)) ? gid : gid + 8, *c = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
            else *r = t * 4 + (i & 3) + (i >= 4 ? 16 : 0), *c = gid;
        }
        return;
    case FAM_I4:
        if (K == 32) {
            if (op == TN_A) *r = i < 8 ? gid : gid + 8, *c = t * 8 + (i & 7);
            else *r = t * 8 + i, *c = gid;
        } else {
            if (op == TN_A) *r = (i < 8 || (i >= 16 && i < 24)) ? gid : gid + 8, *c = t * 8 + (i & 7) + (i >= 16 ? 32 : 0);
            else *r = t * 8 + (i & 7) + (i >= 8 ? 32 : 0), *c = gid;
        }
        return;
    default: // b1
        if (K == 128) {
            if (op == TN_A) *r = i < 32 ? gid : gid + 8, *c = t * 32 + (i & 31);
            else *r = t * 32 + i, *c = gid;
        } else {
            if (op == TN_A) *r = (i < 32 || (i >= 64 && i < 96)) ? gid : gid + 8, *c = t * 32 + (i & 31) + (i >= 64 ? 128 : 0);
            else *r = t * 32 + (i & 31) + (i >= 32 ? 128 : 0), *c = gid;
        }
        return;
    }
}

// Fills n 32-bit registers of the lane's fragment of op from the one-word-per-element matrix m.
__device__ inline void tn_pack(const tn_geo &g, int op, const uint32_t *m, uint32_t *reg, int n, int bits, bool f32acc)
{
    int lane = threadIdx.x % 32, per = 32 / bits;
    int qp = g.fam == FAM_QP ? (lane >> 2) & 3 : 0;
    int rows = op == TN_B ? g.K : g.M, cols = op == TN_A ? g.K : g.N;
    if (g.fam == FAM_QP) rows = op == TN_B ? 4 : 8, cols = op == TN_A ? 4 : 8;
    const uint32_t *base = m + qp * rows * cols;
    for (int k = 0; k < n; k++) reg[k] = 0;
    for (int i = 0; i < n * per; i++) {
        int r, c;
        tn_rc(g, op, lane, i, f32acc, &r, &c);
        uint32_t v = base[r * cols + c];
        if (bits < 32) v &= (1u << bits) - 1;
        reg[i / per] |= v << (i % per * bits);
    }
}

__device__ inline void tn_unpack(const tn_geo &g, uint32_t *m, const uint32_t *reg, int n, int bits, bool f32acc)
{
    int lane = threadIdx.x % 32, per = 32 / bits;
    int qp = g.fam == FAM_QP ? (lane >> 2) & 3 : 0;
    int cols = g.fam == FAM_QP ? 8 : g.N, rows = g.fam == FAM_QP ? 8 : g.M;
    uint32_t *base = m + qp * rows * cols;
    for (int i = 0; i < n * per; i++) {
        int r, c;
        tn_rc(g, TN_C, lane, i, f32acc, &r, &c);
        uint32_t v = reg[i / per] >> (i % per * bits);
        base[r * cols + c] = bits < 32 ? v & ((1u << bits) - 1) : v;
    }
}

__device__ inline void tn_pack64(const tn_geo &g, int op, const uint64_t *m, double *reg, int n)
{
    int lane = threadIdx.x % 32;
    int cols = op == TN_A ? g.K : g.N;
    for (int i = 0; i < n; i++) {
        int r, c;
        tn_rc(g, op, lane, i, false, &r, &c);
        reg[i] = __longlong_as_double((long long)m[r * cols + c]);
    }
}

__device__ inline void tn_unpack64(const tn_geo &g, uint64_t *m, const double *reg, int n)
{
    int lane = threadIdx.x % 32;
    for (int i = 0; i < n; i++) {
        int r, c;
        tn_rc(g, TN_C, lane, i, false, &r, &c);
        m[r * g.N + c] = (uint64_t)__double_as_longlong(reg[i]);
    }
}

#define TN_R(i) "r"(a[i])
// One mma kernel with na, nb, nc, nd 32-bit registers.  GEO: the tn_geo
// initializer; the asm operand lists are spelled out per register pattern.
#define TN_KERNEL(NAME, GEO, NA, NB, NC, ND, ASM, ...)                                       \
    extern "C" __global__ void NAME(const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D) \
    {                                                                                        \
        const tn_geo g = GEO;                                                                \
        uint32_t a[8], b[4], c[8], d[8];                                                     \
        tn_pack(g, TN_A, A, a, NA, g.abits, false);                                          \
        tn_pack(g, TN_B, B, b, NB, g.abits, false);                                          \
        tn_pack(g, TN_C, C, c, NC, g.cbits, g.cbits == 32 && g.fam == FAM_QP);               \
        asm volatile(ASM : __VA_ARGS__);                                                     \
        tn_unpack(g, D, d, ND, g.dbits, g.dbits == 32 && g.fam == FAM_QP);                   \
    }

// Register patterns (a, b, c, d counts) as asm operand lists.
#define TN_O2144 "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
#define TN_S2144 " {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
#define TN_O2122 "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1])
#define TN_S2122 " {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
#define TN_O4244 "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
#define TN_S4244 " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
#define TN_O4222 "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1])
#define TN_S4222 " {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
#define TN_O1122 "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1])
#define TN_S1122 " {%0, %1}, {%2}, {%3}, {%4, %5};"
#define TN_O2288 "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7])
#define TN_S2288 " {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};"
#define TN_O2244 "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
#define TN_S2244 " {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
#define TN_O2248 "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
#define TN_S2248 " {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15};"

// f64 kernels: registers are doubles.
#define TN_KERNEL64(NAME, GEO, NA, NB, NC, ND, ASM, ...)                                     \
    extern "C" __global__ void NAME(const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D) \
    {                                                                                        \
        const tn_geo g = GEO;                                                                \
        double a[8], b[4], c[4], d[4];                                                       \
        tn_pack64(g, TN_A, A, a, NA);                                                        \
        tn_pack64(g, TN_B, B, b, NB);                                                        \
        tn_pack64(g, TN_C, C, c, NC);                                                        \
        asm volatile(ASM : __VA_ARGS__);                                                     \
        tn_unpack64(g, D, d, ND);                                                            \
    }
#define TN_D1122 "=d"(d[0]), "=d"(d[1]) : "d"(a[0]), "d"(b[0]), "d"(c[0]), "d"(c[1])
#define TN_D2144 "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3])
#define TN_D4244 "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3])
#define TN_D8444 "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3])
#define TN_S8444 " {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};"
