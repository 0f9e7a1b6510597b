/*
** atax.cu -- y := A^T (A x) (PolyBench's atax algorithm, float), A is NX x NY:
**   atax_kernel1:  tmp[i] = sum_j A[i][j] * x[j]    one thread per row i
**   atax_kernel2:  y[j]   = sum_i A[i][j] * tmp[i]  one thread per column j
** 1-D blocks of 256 threads; each thread accumulates into its global output
** element (tmp[i], y[j]), which starts at zero.
*/
#define NX 512
#define NY 512

__global__ void atax_kernel1(int nx, int ny, float *A, float *x, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        tmp[i] = 0.0f;
        for (int j = 0; j < ny; j++)
            tmp[i] += A[i * NY + j] * x[j];
    }
}

__global__ void atax_kernel2(int nx, int ny, float *A, float *y, float *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        y[j] = 0.0f;
        for (int i = 0; i < nx; i++)
            y[j] += A[i * NY + j] * tmp[i];
    }
}
