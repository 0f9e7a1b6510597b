// wmma.cu -- tensor cores from CUDA C++: a tiled GEMM with nvcuda::wmma
// (A and B staged in shared memory, each warp 2 x 2 m16n16k16
// accumulators, an alpha/beta epilogue on the fragments' elements) and an
// inline mma.sync.m16n8k8, each checked against the CPU.  Runs under
// `tpsim run` as nvcc builds it (-arch=sm_75), on the default RTX 2060 and
// on the GTX 480 (no tensor cores: the same results).
#include <cstdio>
#include <cstdint>
#include <cmath>
#include <vector>
#include <mma.h>
#include <cuda_fp16.h>
#include "check.h"
using namespace nvcuda;

enum { BM = 64, BN = 64, BK = 32, PAD = 8 };

// D = alpha * A * B + beta * C (A M x K, B K x N, f16 row-major; C, D f32 row-major)
__global__ void gemm(const half *A, const half *B, const float *C, float *D, int M, int N, int K, float alpha,
                     float beta)
{
    __shared__ __align__(32) half sa[BM][BK + PAD];
    __shared__ __align__(32) half sb[BK][BN + PAD];
    int tid = threadIdx.x, warp = tid / 32, wr = warp / 2, wc = warp % 2;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int p = tid; p < BM * BK / 8; p += blockDim.x) {
            int r = p / (BK / 8), c = p % (BK / 8) * 8;
            *(int4 *)&sa[r][c] = *(const int4 *)&A[(size_t)(row0 + r) * K + k0 + c];
        }
        for (int p = tid; p < BK * BN / 8; p += blockDim.x) {
            int r = p / (BN / 8), c = p % (BN / 8) * 8;
            *(int4 *)&sb[r][c] = *(const int4 *)&B[(size_t)(k0 + r) * N + col0 + c];
        }
        __syncthreads();
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
            for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], &sa[wr * 32 + i * 16][kk], BK + PAD);
            for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &sb[kk][wc * 32 + j * 16], BN + PAD);
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            size_t off = (size_t)(row0 + wr * 32 + i * 16) * N + col0 + wc * 32 + j * 16;
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
            wmma::load_matrix_sync(c, C + off, N, wmma::mem_row_major);
            for (int e = 0; e < c.num_elements; e++) c.x[e] = alpha * acc[i][j].x[e] + beta * c.x[e];
            wmma::store_matrix_sync(D + off, c, N, wmma::mem_row_major);
        }
}

// One mma.sync.m16n8k8 (f16 -> f32); fragments by the PTX ISA's layout.
__global__ void mma16n8k8(const half *A, const half *B, float *D)
{
    int l = threadIdx.x, g = l >> 2, t = l % 4;
    auto pk = [](half lo, half hi) {
        return (uint32_t)__half_as_ushort(lo) | (uint32_t)__half_as_ushort(hi) << 16;
    };
    uint32_t a0 = pk(A[g * 8 + 2 * t], A[g * 8 + 2 * t + 1]), a1 = pk(A[(g + 8) * 8 + 2 * t], A[(g + 8) * 8 + 2 * t + 1]);
    uint32_t b0 = pk(B[(2 * t) * 8 + g], B[(2 * t + 1) * 8 + g]);
    float d0, d1, d2, d3, z = 0.0f;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %7, %7, %7};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(a1), "r"(b0), "f"(z));
    D[g * 8 + 2 * t] = d0;
    D[g * 8 + 2 * t + 1] = d1;
    D[(g + 8) * 8 + 2 * t] = d2;
    D[(g + 8) * 8 + 2 * t + 1] = d3;
}

int main()
{
    ck_start("wmma");
    const int M = 128, N = 128, K = 128;
    const float alpha = 2.0f, beta = -0.5f;
    std::vector<half> hA(M * K), hB(K * N);
    std::vector<float> fA(M * K), fB(K * N), hC(M * N), hD(M * N);
    unsigned s = 12345;
    auto next = [&]() { s = s * 1103515245u + 12345u; return (int)((s >> 16) % 33) - 16; };
    for (int i = 0; i < M * K; i++) fA[i] = next() / 8.0f, hA[i] = __float2half(fA[i]);
    for (int i = 0; i < K * N; i++) fB[i] = next() / 8.0f, hB[i] = __float2half(fB[i]);
    for (int i = 0; i < M * N; i++) hC[i] = (float)next();
    half *dA, *dB;
    float *dC, *dD;
    CK(cudaMalloc(&dA, M * K * sizeof(half)));
    CK(cudaMalloc(&dB, K * N * sizeof(half)));
    CK(cudaMalloc(&dC, M * N * sizeof(float)));
    CK(cudaMalloc(&dD, M * N * sizeof(float)));
    CK(cudaMemcpy(dA, hA.data(), M * K * sizeof(half), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, hB.data(), K * N * sizeof(half), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, hC.data(), M * N * sizeof(float), cudaMemcpyHostToDevice));
    gemm<<<dim3(N / BN, M / BM), 128>>>(dA, dB, dC, dD, M, N, K, alpha, beta);
    CK_LAUNCH();
    CK(cudaMemcpy(hD.data(), dD, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    // multiples of 1/8 in [-2, 2]: every product and sum is exact in f32
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++) acc += fA[i * K + k] * fB[k * N + j];
            float want = alpha * acc + beta * hC[i * N + j];
            EXPECT(hD[i * N + j] == want, "D[%d][%d] = %g, expected %g", i, j, hD[i * N + j], want);
        }
    mma16n8k8<<<1, 32>>>(dA, dB, dD);
    CK_LAUNCH();
    CK(cudaMemcpy(hD.data(), dD, 16 * 8 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            float want = 0;
            for (int k = 0; k < 8; k++) want += fA[i * 8 + k] * fB[k * 8 + j];
            EXPECT(hD[i * 8 + j] == want, "mma D[%d][%d] = %g, expected %g", i, j, hD[i * 8 + j], want);
        }
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
    CK(cudaFree(dD));
    return ck_finish();
}
