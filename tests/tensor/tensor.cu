// tensor.cu -- tensor-core test kernels for sm_75 (nvcc -ptx -arch=sm_75;
// tensor.ptx is committed).  The host side is tn_main.c: every kernel's
// result is checked against the CPU.
//
//   wmma_*    nvcuda::wmma through memory: load a, b, c (row- or
//             column-major, with strides), mma, store d -- f16 (the three
//             shapes, f16 and f32 accumulators), s8/u8, s4/u4, b1
//   mma_*     inline mma.sync: fragments packed and unpacked with the PTX
//             ISA's layout formulas (tn_dev.cuh), so every element is
//             checked where the ISA puts it
//   ldsm_mma  ldmatrix (.x2, .x1.trans) feeding mma.m16n8k8, as CUTLASS-style
//             code does; movm: movmatrix; wmma_elems: a wmma accumulator's
//             elements by index after fill and mma (tpsim's documented
//             layout, docs/TENSOR.md)
#include <mma.h>
#include <cuda_fp16.h>
#include "tn_dev.cuh"
using namespace nvcuda;

// ---- wmma through memory ------------------------------------------------------------
#define COMMA_TRUE , true
// D = A * B + C for one tile; lda/ldb/ldc in elements; C and D share ldc and layout.
#define WMMA_TILE(NAME, M, N, K, TA, PA, LA, LB, TC, TD, LC, SATF)                             \
    extern "C" __global__ void NAME(const void *a, const void *b, const void *c, void *d,       \
                                    unsigned lda, unsigned ldb, unsigned ldc)                    \
    {                                                                                            \
        wmma::fragment<wmma::matrix_a, M, N, K, TA, wmma::LA> fa;                                \
        wmma::fragment<wmma::matrix_b, M, N, K, TA, wmma::LB> fb;                                \
        wmma::fragment<wmma::accumulator, M, N, K, TC> fc;                                       \
        wmma::fragment<wmma::accumulator, M, N, K, TD> fd;                                       \
        wmma::load_matrix_sync(fa, (const PA *)a, lda);                                          \
        wmma::load_matrix_sync(fb, (const PA *)b, ldb);                                          \
        wmma::load_matrix_sync(fc, (const TC *)c, ldc, wmma::LC);                                \
        wmma::mma_sync(fd, fa, fb, fc SATF);                                                     \
        wmma::store_matrix_sync((TD *)d, fd, ldc, wmma::LC);                                     \
    }

WMMA_TILE(wmma_f16_m16n16k16_rc_f32, 16, 16, 16, half, half, row_major, col_major, float, float, mem_row_major, )
WMMA_TILE(wmma_f16_m16n16k16_cr_f16, 16, 16, 16, half, half, col_major, row_major, half, half, mem_col_major, )
WMMA_TILE(wmma_f16_m32n8k16_rr_f32, 32, 8, 16, half, half, row_major, row_major, float, float, mem_row_major, )
WMMA_TILE(wmma_f16_m8n32k16_cc_f16f32, 8, 32, 16, half, half, col_major, col_major, half, float, mem_col_major, )
WMMA_TILE(wmma_s8_m16n16k16_rc, 16, 16, 16, signed char, signed char, row_major, col_major, int, int, mem_row_major, )
WMMA_TILE(wmma_u8_m32n8k16_cr, 32, 8, 16, unsigned char, unsigned char, col_major, row_major, int, int, mem_col_major, )
WMMA_TILE(wmma_s8_m8n32k16_rr_sat, 8, 32, 16, signed char, signed char, row_major, row_major, int, int, mem_row_major, COMMA_TRUE)

// sub-byte: s4, u4 (m8n8k32) and b1 (m8n8k128), a row-major, b column-major
#define WMMA_SUB(NAME, K, PREC, OPS)                                                             \
    extern "C" __global__ void NAME(const void *a, const void *b, const void *c, void *d,       \
                                    unsigned lda, unsigned ldb, unsigned ldc)                    \
    {                                                                                            \
        using namespace nvcuda::wmma::experimental;                                              \
        wmma::fragment<wmma::matrix_a, 8, 8, K, PREC, wmma::row_major> fa;                       \
        wmma::fragment<wmma::matrix_b, 8, 8, K, PREC, wmma::col_major> fb;                       \
        wmma::fragment<wmma::accumulator, 8, 8, K, int> fc;                                      \
        wmma::load_matrix_sync(fa, a, lda);                                                      \
        wmma::load_matrix_sync(fb, b, ldb);                                                      \
        wmma::load_matrix_sync(fc, (const int *)c, ldc, wmma::mem_row_major);                    \
        OPS;                                                                                     \
        wmma::store_matrix_sync((int *)d, fc, ldc, wmma::mem_row_major);                         \
    }
WMMA_SUB(wmma_s4_m8n8k32, 32, precision::s4, wmma::mma_sync(fc, fa, fb, fc))
WMMA_SUB(wmma_u4_m8n8k32_sat, 32, precision::u4, wmma::mma_sync(fc, fa, fb, fc, true))
WMMA_SUB(wmma_b1_xor, 128, precision::b1, wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpXOR, bmmaAccumulateOpPOPC))

// ---- mma.sync, fragments by the ISA's formulas ------------------------------------------
#define G(M, N, K, FAM, AB, CB, DB, AC, BC) {M, N, K, FAM, AB, CB, DB, AC, BC}
TN_KERNEL(mma_m16n8k8_f16_f32, G(16, 8, 8, FAM_F16, 16, 32, 32, false, true), 2, 1, 4, 4,
          "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32" TN_S2144, TN_O2144)
TN_KERNEL(mma_m16n8k8_f16_f16, G(16, 8, 8, FAM_F16, 16, 16, 16, false, true), 2, 1, 2, 2,
          "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16" TN_S2122, TN_O2122)
TN_KERNEL(mma_m8n8k4_f16_rc_f32, G(8, 8, 4, FAM_QP, 16, 32, 32, false, true), 2, 2, 8, 8,
          "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32" TN_S2288, TN_O2288)
TN_KERNEL(mma_m8n8k4_f16_cr_f16, G(8, 8, 4, FAM_QP, 16, 16, 16, true, false), 2, 2, 4, 4,
          "mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16" TN_S2244, TN_O2244)
TN_KERNEL(mma_m8n8k4_f16_rr_f32f16, G(8, 8, 4, FAM_QP, 16, 16, 32, false, false), 2, 2, 4, 8,
          "mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f16" TN_S2248, TN_O2248)
TN_KERNEL(mma_m8n8k16_s8, G(8, 8, 16, FAM_I8, 8, 32, 32, false, true), 1, 1, 2, 2,
          "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32" TN_S1122, TN_O1122)
TN_KERNEL(mma_m8n8k16_u8s8_sat, G(8, 8, 16, FAM_I8, 8, 32, 32, false, true), 1, 1, 2, 2,
          "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32" TN_S1122, TN_O1122)
TN_KERNEL(mma_m8n8k32_s4, G(8, 8, 32, FAM_I4, 4, 32, 32, false, true), 1, 1, 2, 2,
          "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32" TN_S1122, TN_O1122)
TN_KERNEL(mma_m8n8k128_b1_xor, G(8, 8, 128, FAM_B1, 1, 32, 32, false, true), 1, 1, 2, 2,
          "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc" TN_S1122, TN_O1122)

// ---- ldmatrix feeding mma, movmatrix ---------------------------------------------------------
// A (16 x 8 f16, row-major) and B (8 x 8 f16, row-major: B[k][n]) in global;
// through shared memory, ldmatrix.x2 gives the A fragment, ldmatrix.x1.trans
// the B fragment (B's rows are k, the fragment wants columns); D = A * B
// (f32, row-major).
extern "C" __global__ void ldsm_mma(const half *A, const half *B, float *D)
{
    __shared__ __align__(16) half sa[16 * 8], sb[8 * 8];
    int l = threadIdx.x;
    for (int i = l; i < 128; i += 32) sa[i] = A[i];
    for (int i = l; i < 64; i += 32) sb[i] = B[i];
    __syncwarp();
    uint32_t a0, a1, b0;
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(l % 16) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(l % 8) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(a0), "=r"(a1) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(b0) : "r"(pb));
    float d[4];
    float z = 0.0f;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %7, %7, %7};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a0), "r"(a1), "r"(b0), "f"(z));
    int g = l >> 2, t = l % 4;
    D[g * 8 + 2 * t] = d[0];
    D[g * 8 + 2 * t + 1] = d[1];
    D[(g + 8) * 8 + 2 * t] = d[2];
    D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

// M (8 x 8 b16, row-major) -> each lane's fragment (row g, columns 2t, 2t+1) ->
// movmatrix.trans -> out[lane] (the fragment of M transposed).
extern "C" __global__ void movm(const uint16_t *M, uint32_t *out)
{
    int l = threadIdx.x, g = l >> 2, t = l % 4;
    uint32_t a = (uint32_t)M[g * 8 + 2 * t] | (uint32_t)M[g * 8 + 2 * t + 1] << 16, d;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
    out[l] = d;
}

// A wmma accumulator's elements by index: fill with 1, mma with A = B = 0
// (16 x 16 f16) -- the elements stay 1 -- then element i of lane l is set to
// l * 100 + i and the fragment stored row-major: where each value lands is
// the fragment layout (tpsim's, docs/TENSOR.md).
extern "C" __global__ void wmma_elems(const half *zero, float *out)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 1.0f);
    wmma::load_matrix_sync(fa, zero, 16);
    wmma::load_matrix_sync(fb, zero, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    bool ones = true;
    for (int i = 0; i < fc.num_elements; i++) {
        ones = ones && fc.x[i] == 1.0f;
        fc.x[i] = (float)(threadIdx.x * 100 + i);
    }
    wmma::store_matrix_sync(out, fc, 16, wmma::mem_row_major);
    if (!ones) out[256] = -1.0f;
}
