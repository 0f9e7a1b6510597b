/*
** array_add_side.cu -- tests/hardware/array_add.cu's two kernels through the
** runtime API, for GPGPU-Sim 4.2 (whose driver-API support hwbench does
** not need to rely on): c = a + b over an n x n float array, 16x16 blocks,
** launched twice back to back on zeroed inputs (the card's rows time the
** launches after a warm-up; GPGPU-Sim prints each launch's gpu_sim_cycle).
**
**   nvcc -cudart shared -no-compress -arch=sm_75 -o array_add_side array_add_side.cu
**   ./array_add_side N NC      N: the axis size; NC: 1 not coalesced, 0 coalesced
**
** docs/VALIDATION.md ("The issue policy and the memory pipeline's rate",
** the not-coalesced family) gives what GPGPU-Sim's RTX 2060 model made of it.
*/
#include <cstdio>
#include <cstdlib>

extern "C" __global__ void add_c(const float *a, const float *b, float *c, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        size_t k = (size_t)row * n + col;
        c[k] = a[k] + b[k];
    }
}

extern "C" __global__ void add_nc(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        size_t k = (size_t)row * n + col;
        c[k] = a[k] + b[k];
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s N NC\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]), nc = atoi(argv[2]);
    if (n <= 0) {
        fprintf(stderr, "array_add_side: N must be positive\n");
        return 2;
    }
    size_t s = (size_t)n * n * sizeof(float);
    float *a, *b, *c;
    if (cudaMalloc(&a, s) || cudaMalloc(&b, s) || cudaMalloc(&c, s)) {
        fprintf(stderr, "array_add_side: cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(a, 0, s);
    cudaMemset(b, 0, s);
    cudaMemset(c, 0, s);
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    for (int i = 0; i < 2; i++) {
        if (nc) add_nc<<<grid, block>>>(a, b, c, n);
        else add_c<<<grid, block>>>(a, b, c, n);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("n=%d %s: %s\n", n, nc ? "not coalesced" : "coalesced", cudaGetErrorString(e));
    return e != cudaSuccess;
}
