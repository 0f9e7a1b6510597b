// multifile_mat.cu -- part of the multifile program (see multifile_main.cu).
#include "check.h"
#include "multifile.h"

#define TILE 16

static __constant__ int coef[4];  // same name as multifile_vec.cu's

static __global__ void matmul_bias(int *c, const int *a, const int *b, int n) {
    __shared__ int ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    int acc = 0;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        ta[threadIdx.y][threadIdx.x] = row < n && k0 + threadIdx.x < n ? a[row * n + k0 + threadIdx.x] : 0;
        tb[threadIdx.y][threadIdx.x] = col < n && k0 + threadIdx.y < n ? b[(k0 + threadIdx.y) * n + col] : 0;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = acc + coef[(row + col) % 4];
}

static __global__ void transpose(int *t, const int *a, int n) {
    __shared__ int tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = a[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < n && y < n)
        t[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

static __global__ void scale(int *d, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = (int)((unsigned)d[i] + (unsigned)k);  // wraps
}

void mat_set_coef(const int c[4]) { CK(cudaMemcpyToSymbol(coef, c, 4 * sizeof(int))); }

void mat_mul_bias(int *d_c, const int *d_a, const int *d_b, int n) {
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE), block(TILE, TILE);
    matmul_bias<<<grid, block>>>(d_c, d_a, d_b, n);
    CK_LAUNCH();
}

void mat_transpose(int *d_t, const int *d_a, int n) {
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE), block(TILE, TILE);
    transpose<<<grid, block>>>(d_t, d_a, n);
    CK_LAUNCH();
}

void mat_scale(int *d, int n, int k) {
    scale<<<(n + 31) / 32, 32>>>(d, n, k);
    CK_LAUNCH();
}
