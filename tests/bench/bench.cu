// bench.cu -- kernels for `make bench`: the functional model's speed on
// compute-bound, memory-bound, shared-memory and divergent code.
// Regenerate bench.ptx with: sh tests/bench/regen.sh
#include <mma.h>
#include <cuda_fp16.h>

// Compute-bound: a dependent FMA chain per thread.
extern "C" __global__ void fma_loop(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = i * 0.001f, b = 1.0001f, c = 0.5f;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, b, c);
        c = fmaf(c, 0.999f, a * 1e-6f);
    }
    out[i] = a + c;
}

// Compute-bound integer work: a hash mixing loop.
extern "C" __global__ void int_hash(unsigned *out, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = i * 2654435761u;
    for (int k = 0; k < iters; k++) {
        h ^= h >> 16;
        h *= 0x85ebca6bu;
        h ^= h >> 13;
        h += k;
    }
    out[i] = h;
}

// Memory-bound streaming.
extern "C" __global__ void saxpy(const float *x, float *y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

// Shared-memory tiling with barriers.
#define T 16
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[T][T], Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < n / T; t++) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * T + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * T + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// Divergent: per-pixel escape-time loop.
extern "C" __global__ void mandel(int *out, int w, int h, int maxit)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h, zr = 0, zi = 0;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * w + x] = it;
}

// Memory-bound, uncoalesced: PolyBench's atax/gesummv/mvt walk, a thread per
// row of a matrix with a 4096-float row pitch (their real size), so the 32
// lanes of a warp touch 32 rows 16 KB apart at every step: y[i] = sum over
// the first cols columns of A[i][j] * x[j].
#define ATAX_PITCH 4096
extern "C" __global__ void atax_row(const float *A, const float *x, float *y, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows) return;
    float s = 0;
    for (int j = 0; j < cols; j++) s += A[(size_t)i * ATAX_PITCH + j] * x[j];
    y[i] = s;
}

// Tensor cores: a tiled WMMA GEMM, C = A * B (f16 in, f32 out), 64 x 64 tiles
// per block of 4 warps (each 2 x 2 m16n16k16 accumulators), A and B staged
// in shared memory 32 columns / rows at a time: the kernel of
// tests/tensor/gemm.cu itself (one copy; it is checked for exact results there).
#include "../tensor/gemm.cu"

// Tensor cores at their rate: each warp keeps 4 independent m16n16k16
// accumulators busy for iters rounds (fragments in registers, no memory
// traffic in the loop); C gets one tile per warp.
extern "C" __global__ void __launch_bounds__(128) wmma_peak(const half *A, float *C, int iters)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4];
    wmma::load_matrix_sync(fa, A, 16);
    wmma::load_matrix_sync(fb, A, 16);
    for (int j = 0; j < 4; j++) wmma::fill_fragment(acc[j], 0.0f);
    for (int i = 0; i < iters; i++)
        for (int j = 0; j < 4; j++) wmma::mma_sync(acc[j], fa, fb, acc[j]);
    for (int j = 1; j < 4; j++)
        for (int e = 0; e < acc[0].num_elements; e++) acc[0].x[e] += acc[j].x[e];
    wmma::store_matrix_sync(C + (size_t)(blockIdx.x * 4 + threadIdx.x / 32) * 256, acc[0], 16, wmma::mem_row_major);
}
