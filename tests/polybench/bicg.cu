/*
** bicg.cu -- the two products of BiCG's inner step (PolyBench's bicg
** algorithm, float), A is NX x NY:
**   bicg_kernel1:  s[j] = sum_i r[i] * A[i][j]   one thread per column j
**   bicg_kernel2:  q[i] = sum_j A[i][j] * p[j]   one thread per row i
** 1-D blocks of 256 threads; each thread accumulates into its global output
** element, which starts at zero.
*/
#define NX 512
#define NY 512

__global__ void bicg_kernel1(int nx, int ny, float *A, float *r, float *s)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        s[j] = 0.0f;
        for (int i = 0; i < nx; i++)
            s[j] += r[i] * A[i * NY + j];
    }
}

__global__ void bicg_kernel2(int nx, int ny, float *A, float *p, float *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        q[i] = 0.0f;
        for (int j = 0; j < ny; j++)
            q[i] += A[i * NY + j] * p[j];
    }
}
