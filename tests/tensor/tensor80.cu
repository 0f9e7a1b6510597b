// tensor80.cu -- tensor-core test kernels for sm_80 (nvcc -ptx -arch=sm_80;
// tensor80.ptx is committed; the module needs a compute 8.0 device:
// tpsim -o device.cc=8.0).  Host side: tn_main.c.
//
//   wmma_*  bf16 (three shapes), tf32 (m16n16k8, elements rounded with
//           __float_to_tf32), f64 (m8n8k4), b1 .and.popc
//   mma_*   every sm_80 mma shape and type, fragments by the PTX ISA's
//           formulas (tn_dev.cuh)
#include <mma.h>
#include <cuda_bf16.h>
#include "tn_dev.cuh"
using namespace nvcuda;

#define WMMA_TILE(NAME, M, N, K, TA, PA, LA, LB, TC, LC)                                         \
    extern "C" __global__ void NAME(const void *a, const void *b, const void *c, void *d,       \
                                    unsigned lda, unsigned ldb, unsigned ldc)                    \
    {                                                                                            \
        wmma::fragment<wmma::matrix_a, M, N, K, TA, wmma::LA> fa;                                \
        wmma::fragment<wmma::matrix_b, M, N, K, TA, wmma::LB> fb;                                \
        wmma::fragment<wmma::accumulator, M, N, K, TC> fc;                                       \
        wmma::load_matrix_sync(fa, (const PA *)a, lda);                                          \
        wmma::load_matrix_sync(fb, (const PA *)b, ldb);                                          \
        wmma::load_matrix_sync(fc, (const TC *)c, ldc, wmma::LC);                                \
        wmma::mma_sync(fc, fa, fb, fc);                                                          \
        wmma::store_matrix_sync((TC *)d, fc, ldc, wmma::LC);                                     \
    }

WMMA_TILE(wmma_bf16_m16n16k16_rc, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, row_major, col_major, float, mem_row_major)
WMMA_TILE(wmma_bf16_m32n8k16_cr, 32, 8, 16, __nv_bfloat16, __nv_bfloat16, col_major, row_major, float, mem_col_major)
WMMA_TILE(wmma_bf16_m8n32k16_rr, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, row_major, row_major, float, mem_row_major)
WMMA_TILE(wmma_f64_m8n8k4_rc, 8, 8, 4, double, double, row_major, col_major, double, mem_row_major)
WMMA_TILE(wmma_f64_m8n8k4_cr, 8, 8, 4, double, double, col_major, row_major, double, mem_col_major)

// tf32: the loaded floats rounded to tf32 (cvt.rna.tf32.f32) before the product
extern "C" __global__ void wmma_tf32_m16n16k8(const void *a, const void *b, const void *c, void *d, unsigned lda,
                                              unsigned ldb, unsigned ldc)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fa, (const float *)a, lda);
    wmma::load_matrix_sync(fb, (const float *)b, ldb);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::load_matrix_sync(fc, (const float *)c, ldc, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((float *)d, fc, ldc, wmma::mem_row_major);
}

extern "C" __global__ void wmma_b1_and(const void *a, const void *b, const void *c, void *d, unsigned lda,
                                       unsigned ldb, unsigned ldc)
{
    using namespace nvcuda::wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, (const int *)c, ldc, wmma::mem_row_major);
    wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpAND, bmmaAccumulateOpPOPC);
    wmma::store_matrix_sync((int *)d, fc, ldc, wmma::mem_row_major);
}

#define G(M, N, K, FAM, AB, CB, DB) {M, N, K, FAM, AB, CB, DB, false, true}
TN_KERNEL(mma_m16n8k16_f16_f32, G(16, 8, 16, FAM_F16, 16, 32, 32), 4, 2, 4, 4,
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" TN_S4244, TN_O4244)
TN_KERNEL(mma_m16n8k16_f16_f16, G(16, 8, 16, FAM_F16, 16, 16, 16), 4, 2, 2, 2,
          "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16" TN_S4222, TN_O4222)
TN_KERNEL(mma_m16n8k16_bf16, G(16, 8, 16, FAM_F16, 16, 32, 32), 4, 2, 4, 4,
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" TN_S4244, TN_O4244)
TN_KERNEL(mma_m16n8k8_bf16, G(16, 8, 8, FAM_F16, 16, 32, 32), 2, 1, 4, 4,
          "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32" TN_S2144, TN_O2144)
TN_KERNEL(mma_m16n8k4_tf32, G(16, 8, 4, FAM_TF32, 32, 32, 32), 2, 1, 4, 4,
          "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32" TN_S2144, TN_O2144)
TN_KERNEL(mma_m16n8k8_tf32, G(16, 8, 8, FAM_TF32, 32, 32, 32), 4, 2, 4, 4,
          "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" TN_S4244, TN_O4244)
TN_KERNEL(mma_m16n8k16_s8, G(16, 8, 16, FAM_I8, 8, 32, 32), 2, 1, 4, 4,
          "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32" TN_S2144, TN_O2144)
TN_KERNEL(mma_m16n8k32_u8_sat, G(16, 8, 32, FAM_I8, 8, 32, 32), 4, 2, 4, 4,
          "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32" TN_S4244, TN_O4244)
TN_KERNEL(mma_m16n8k32_s4, G(16, 8, 32, FAM_I4, 4, 32, 32), 2, 1, 4, 4,
          "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32" TN_S2144, TN_O2144)
TN_KERNEL(mma_m16n8k64_u4, G(16, 8, 64, FAM_I4, 4, 32, 32), 4, 2, 4, 4,
          "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32" TN_S4244, TN_O4244)
TN_KERNEL(mma_m16n8k128_b1_and, G(16, 8, 128, FAM_B1, 1, 32, 32), 2, 1, 4, 4,
          "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc" TN_S2144, TN_O2144)
TN_KERNEL(mma_m16n8k256_b1_xor, G(16, 8, 256, FAM_B1, 1, 32, 32), 4, 2, 4, 4,
          "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc" TN_S4244, TN_O4244)
TN_KERNEL64(mma_m8n8k4_f64, G(8, 8, 4, FAM_F64, 64, 64, 64), 1, 1, 2, 2,
            "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64" TN_S1122, TN_D1122)
