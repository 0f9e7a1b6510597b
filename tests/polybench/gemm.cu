/*
** gemm.cu -- C := alpha*A*B + beta*C (PolyBench's gemm algorithm, float):
**   gemm_kernel:  C[i][j] = beta * C[i][j] + sum_k alpha * A[i][k] * B[k][j]
** One thread per element of C (x: column j, y: row i; blocks of 32x8),
** accumulating directly into C[i][j] in global memory (see 2mm.cu).
*/
#define NI 128
#define NJ 128
#define NK 128

__global__ void gemm_kernel(int ni, int nj, int nk, float alpha, float beta, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        c[i * NJ + j] *= beta;
        for (int k = 0; k < nk; k++)
            c[i * NJ + j] += alpha * a[i * NK + k] * b[k * NJ + j];
    }
}
