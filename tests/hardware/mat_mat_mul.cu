/*
** mat_mat_mul.cu -- the matrix-matrix suite of tools/reference/rtx2060-nvbench.csv:
** C = A B over uint32 (arithmetic modulo 2^32); A is m x k, B k x n, C m x n,
** each stored row by row.  Square blocks of t x t threads (t = 16 unless the
** series varies it); x indexes columns of C, y rows.
**
**   hw_mm_simple     one thread per element of C: the dot product of a row of
**                    A and a column of B, both from global memory.  Grid
**                    ceil(n/t) x ceil(m/t).
**   hw_mm_tiles      the same mapping; per phase the block copies a t x t tile
**                    of A and one of B into shared memory (dynamic, 2 t^2
**                    words), synchronises, and each thread accumulates t
**                    products from them.  Elements outside a matrix load as 0.
**   hw_mm_rect       rectangular tiles, t = 16: a block computes a 16-row,
**                    32-column piece of C (each thread two elements, columns
**                    c0 and c0 + 16); per phase it stages a 16x16 tile of A and
**                    a 16x32 tile of B (static shared memory).  The benchmark
**                    launches a grid of ceil(n/8) x ceil(m/16), four times the
**                    blocks in x that the columns need: blocks whose columns lie
**                    past n load zeros, compute, and store nothing.
*/

extern "C" __global__ void hw_mm_simple(const unsigned *A, const unsigned *B, unsigned *C, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        unsigned s = 0;
        for (int i = 0; i < k; i++) s += A[(size_t)row * k + i] * B[(size_t)i * n + col];
        C[(size_t)row * n + col] = s;
    }
}

extern "C" __global__ void hw_mm_tiles(const unsigned *A, const unsigned *B, unsigned *C, int m, int k, int n)
{
    extern __shared__ unsigned sh[];
    int t = blockDim.x;
    unsigned *as = sh, *bs = sh + t * t;
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * t + tx;
    int row = blockIdx.y * t + ty;
    unsigned s = 0;
    for (int p = 0; p < k; p += t) {
        as[ty * t + tx] = row < m && p + tx < k ? A[(size_t)row * k + p + tx] : 0u;
        bs[ty * t + tx] = p + ty < k && col < n ? B[(size_t)(p + ty) * n + col] : 0u;
        __syncthreads();
        for (int i = 0; i < t; i++) s += as[ty * t + i] * bs[i * t + tx];
        __syncthreads();
    }
    if (row < m && col < n) C[(size_t)row * n + col] = s;
}

#define RT 16

extern "C" __global__ void hw_mm_rect(const unsigned *A, const unsigned *B, unsigned *C, int m, int k, int n)
{
    __shared__ unsigned as[RT][RT];
    __shared__ unsigned bs[RT][2 * RT];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * RT + ty;
    int c0 = blockIdx.x * 2 * RT + tx, c1 = c0 + RT;
    unsigned s0 = 0, s1 = 0;
    for (int p = 0; p < k; p += RT) {
        as[ty][tx] = row < m && p + tx < k ? A[(size_t)row * k + p + tx] : 0u;
        bs[ty][tx] = p + ty < k && c0 < n ? B[(size_t)(p + ty) * n + c0] : 0u;
        bs[ty][tx + RT] = p + ty < k && c1 < n ? B[(size_t)(p + ty) * n + c1] : 0u;
        __syncthreads();
        for (int i = 0; i < RT; i++) {
            unsigned v = as[ty][i];
            s0 += v * bs[i][tx];
            s1 += v * bs[i][tx + RT];
        }
        __syncthreads();
    }
    if (row < m) {
        if (c0 < n) C[(size_t)row * n + c0] = s0;
        if (c1 < n) C[(size_t)row * n + c1] = s1;
    }
}
