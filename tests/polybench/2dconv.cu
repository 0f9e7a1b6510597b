/*
** 2dconv.cu -- a 3x3 convolution with fixed coefficients (PolyBench's
** 2D convolution algorithm, float) over an NI x NJ image:
**   B[i][j] = sum over di, dj in {-1,0,1} of c[di][dj] * A[i+di][j+dj]
** for interior points 0 < i < NI-1, 0 < j < NJ-1; border elements of B are
** not written.  Coefficients (row offset di, column offset dj):
**            dj=-1  dj=0  dj=+1
**   di=-1    +0.2   +0.5  -0.8
**   di= 0    -0.3   +0.6  -0.9
**   di=+1    +0.4   +0.7  +0.1
** One thread per point (x: column j, y: row i; blocks of 32x8).
*/
#define NI 512
#define NJ 512

__global__ void convolution2D_kernel(int ni, int nj, float *A, float *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    const float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
    const float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
    const float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
    if (i < ni - 1 && j < nj - 1 && i > 0 && j > 0) {
        B[i * NJ + j] = c11 * A[(i - 1) * NJ + (j - 1)] + c21 * A[(i - 1) * NJ + j] + c31 * A[(i - 1) * NJ + (j + 1)]
                      + c12 * A[i * NJ + (j - 1)] + c22 * A[i * NJ + j] + c32 * A[i * NJ + (j + 1)]
                      + c13 * A[(i + 1) * NJ + (j - 1)] + c23 * A[(i + 1) * NJ + j] + c33 * A[(i + 1) * NJ + (j + 1)];
    }
}
