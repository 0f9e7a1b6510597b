// tensor90.cu -- tensor-core test kernels for sm_90 (nvcc -ptx -arch=sm_90;
// tensor90.ptx is committed; the module needs a compute 9.0 device).  Host
// side: tn_main.c.
//
//   mma_*_f64   the f64 shapes sm_90 adds (m16n8k4, m16n8k8, m16n8k16),
//               fragments by the PTX ISA's formulas (tn_dev.cuh)
//   stsm        stmatrix (.x4 and .x2.trans) of fragments, read back from
//               shared memory
#include "tn_dev.cuh"

#define G(M, N, K) {M, N, K, FAM_F64, 64, 64, 64, false, true}
TN_KERNEL64(mma_m16n8k4_f64, G(16, 8, 4), 2, 1, 4, 4,
            "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64" TN_S2144, TN_D2144)
TN_KERNEL64(mma_m16n8k8_f64, G(16, 8, 8), 4, 2, 4, 4,
            "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64" TN_S4244, TN_D4244)
TN_KERNEL64(mma_m16n8k16_f64, G(16, 8, 16), 8, 4, 4, 4,
            "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64" TN_S8444, TN_D8444)

// Lane l's fragment registers r_j = in[j * 32 + l] (j < 4) are stored with
// stmatrix.x4 (matrix j's row r at shared row 8j + r, 16 bytes each) and
// with stmatrix.x2.trans (rows 32 + 8j + r); out gets the 48 shared rows.
extern "C" __global__ void stsm(const uint32_t *in, uint32_t *out)
{
    __shared__ __align__(16) uint32_t sm[48 * 4];
    int l = threadIdx.x;
    uint32_t r0 = in[l], r1 = in[32 + l], r2 = in[64 + l], r3 = in[96 + l];
    unsigned p = (unsigned)__cvta_generic_to_shared(&sm[l * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(p), "r"(r0), "r"(r1),
                 "r"(r2), "r"(r3));
    unsigned q = (unsigned)__cvta_generic_to_shared(&sm[(32 + l % 16) * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(q), "r"(r0), "r"(r1));
    __syncwarp();
    for (int i = l; i < 48 * 4; i += 32) out[i] = sm[i];
}
