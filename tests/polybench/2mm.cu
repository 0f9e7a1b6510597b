/*
** 2mm.cu -- two chained matrix products, D := alpha*A*B*C + beta*D, as two
** kernels (PolyBench's 2mm algorithm, float data):
**   mm2_kernel1:  tmp[i][j] = sum_k alpha * A[i][k] * B[k][j]        (NI x NJ)
**   mm2_kernel2:  D[i][j]   = beta * D[i][j] + sum_k tmp[i][k] * C[k][j]  (NI x NL)
** One thread per output element (x: column j, y: row i; blocks of 32x8),
** accumulating directly into the global output element, as the GPU version
** of the suite does: nvcc must store the running sum at every step because
** the output may alias the inputs, which is what makes the instruction count
** comparable with the reference (tests/polybench/README.md).  Sizes are
** compile-time (row pitches); the loop bounds come as parameters.
** Runner: tests/polybench/polybench.c; PTX: regen.sh.
*/
#define NI 128
#define NJ 128
#define NK 128
#define NL 128

__global__ void mm2_kernel1(int ni, int nj, int nk, int nl, float alpha, float beta, float *tmp, float *A, float *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        tmp[i * NJ + j] = 0.0f;
        for (int k = 0; k < nk; k++)
            tmp[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
    }
}

__global__ void mm2_kernel2(int ni, int nj, int nk, int nl, float alpha, float beta, float *tmp, float *C, float *D)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        D[i * NL + j] *= beta;
        for (int k = 0; k < nj; k++)
            D[i * NL + j] += tmp[i * NJ + k] * C[k * NL + j];
    }
}
