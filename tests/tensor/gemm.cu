// gemm.cu -- a tiled WMMA GEMM (nvcc -ptx -arch=sm_75; gemm.ptx is
// committed): C = A * B with A (M x K) and B (K x N) f16, row-major, C
// (M x N) f32, row-major.  A block of 128 threads (4 warps, 2 x 2) computes a
// 64 x 64 tile of C; each warp a 32 x 32 part, as 2 x 2 m16n16k16
// accumulators.  The K loop stages 64 x 32 of A and 32 x 64 of B in shared
// memory (each thread copies 16-byte pieces), then every warp loads its
// fragments from shared memory and issues 2 x 2 x 2 wmma.mma.  The shared
// rows are padded by 8 halves (16 bytes) so that a warp's fragment loads
// fall in different banks.  M, N multiples of 64, K a multiple of 32.
//
// The accumulation runs over k in increasing order for every element of C,
// so with tpsim's model (one fused multiply-add per k, rounded in f32) the
// result equals the CPU's fmaf chain bit for bit; tn_main.c's data keep
// every sum exact anyway, so a real GPU agrees too.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

enum { BM = 64, BN = 64, BK = 32, PAD = 8 };

extern "C" __global__ void __launch_bounds__(128) wmma_gemm(const half *A, const half *B, float *C, int M, int N, int K)
{
    __shared__ __align__(32) half sa[BM][BK + PAD];
    __shared__ __align__(32) half sb[BK][BN + PAD];
    int tid = threadIdx.x, warp = tid / 32;
    int wr = warp / 2, wc = warp % 2; // the warp's 32 x 32 part of the tile
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < K; k0 += BK) {
        // 64 x 32 halves of A and 32 x 64 of B: 256 pieces of 8 halves each, 2 per thread
        for (int p = tid; p < BM * BK / 8; p += 128) {
            int r = p / (BK / 8), c = p % (BK / 8) * 8;
            *(int4 *)&sa[r][c] = *(const int4 *)&A[(size_t)(row0 + r) * K + k0 + c];
        }
        for (int p = tid; p < BK * BN / 8; p += 128) {
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
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(&C[(size_t)(row0 + wr * 32 + i * 16) * N + col0 + wc * 32 + j * 16], acc[i][j], N,
                                    wmma::mem_row_major);
}
