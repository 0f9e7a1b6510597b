/*
** array_add_side.cu -- tests/hardware/array_add.cu's two kernels (included) through the
** runtime API, for GPGPU-Sim 4.2, which runs runtime-API programs (hwbench
** uses the driver API): c = a + b over an n x n float array, 16x16 blocks,
** launched twice back to back on zeroed inputs (the card's rows time the
** launches after a warm-up; GPGPU-Sim prints each launch's gpu_sim_cycle).
**
**   nvcc -cudart shared -no-compress -arch=sm_75 -o array_add_side array_add_side.cu
**   ./array_add_side N NC      N: the axis size; NC: 1 not coalesced, 0 coalesced
**
** On GPGPU-Sim (../shared/gpgpusim/README.md builds it in SRC), in a run
** directory DIR with its RTX 2060 configuration:
**   . ../shared/gpgpusim/env.sh SRC
**   cp SRC/configs/tested-cfgs/SM75_RTX2060/* DIR && cd DIR && ./array_add_side 512 1
**
** docs/VALIDATION.md ("The issue policy and the memory pipeline's rate",
** the not-coalesced family) gives what GPGPU-Sim's RTX 2060 model made of it.
*/
#include <cstdio>
#include <cstdlib>

/* the kernels themselves, as the card's rows run them */
#include "../../tests/hardware/array_add.cu"

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
        if (nc) hw_add_not_coalesced<<<grid, block>>>(a, b, c, n);
        else hw_add_coalesced<<<grid, block>>>(a, b, c, n);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("n=%d %s: %s\n", n, nc ? "not coalesced" : "coalesced", cudaGetErrorString(e));
    return e != cudaSuccess;
}
