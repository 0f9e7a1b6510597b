/*
** sampwork.cu -- the kernels of the sampled-timing workloads (sampwork.c),
** with every size a run-time parameter (the PolyBench kernels of
** tests/polybench fix their row pitch at compile time).  regen.sh remakes
** sampwork.ptx from this file.
**   mm_naive   C = alpha A B + beta C, one thread per element of C (x: column,
**              y: row; blocks of 32x8), the dot product in a register
**   mm_tiled   C = A B, 16x16 tiles staged through shared memory (the
**              textbook tiled product), n a multiple of 16
**   conv2d     a 3x3 convolution (PolyBench's coefficients), border left as is
**   jacobi     one step of a 5-point heat stencil, in to out
*/
__global__ void mm_naive(int n, float alpha, float beta, const float *a, const float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float s = 0.0f;
        for (int k = 0; k < n; k++) s += a[(size_t)i * n + k] * b[(size_t)k * n + j];
        c[(size_t)i * n + j] = alpha * s + beta * c[(size_t)i * n + j];
    }
}

#define TILE 16
__global__ void mm_tiled(int n, const float *a, const float *b, float *c)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float s = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        ta[ty][tx] = a[(size_t)row * n + k0 + tx];
        tb[ty][tx] = b[(size_t)(k0 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) s += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    c[(size_t)row * n + col] = s;
}

__global__ void conv2d(int n, const float *A, float *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && i < n - 1 && j < n - 1) {
        size_t r = (size_t)i * n;
        B[r + j] = 0.2f * A[r - n + j - 1] + 0.5f * A[r - n + j] - 0.8f * A[r - n + j + 1]
                 - 0.3f * A[r + j - 1] + 0.6f * A[r + j] - 0.9f * A[r + j + 1]
                 + 0.4f * A[r + n + j - 1] + 0.7f * A[r + n + j] + 0.1f * A[r + n + j + 1];
    }
}

__global__ void jacobi(int n, const float *in, float *out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && i < n - 1 && j < n - 1) {
        size_t r = (size_t)i * n;
        out[r + j] = 0.25f * (in[r - n + j] + in[r + n + j] + in[r + j - 1] + in[r + j + 1]);
    }
}
