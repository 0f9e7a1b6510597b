/*
** gesummv.cu -- y := alpha*A*x + beta*B*x (PolyBench's gesummv algorithm,
** float), A and B are N x N:
**   gesummv_kernel:  tmp[i] = sum_j A[i][j] * x[j];  y[i] = sum_j B[i][j] * x[j];
**                    y[i] = alpha * tmp[i] + beta * y[i]
** One thread per row i (1-D blocks of 256); both sums accumulate into their
** global elements (tmp[i], y[i], zero on entry), interleaved in one loop.
*/
#define N 512

__global__ void gesummv_kernel(int n, float alpha, float beta, float *A, float *B, float *tmp, float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) {
            tmp[i] += A[i * N + j] * x[j];
            y[i] += B[i * N + j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
