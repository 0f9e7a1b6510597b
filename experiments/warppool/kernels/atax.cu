// atax.cu -- y = A^T (A x) (PolyBench ATAX) in two kernels.
//   atax_kernel1: tmp[i] = sum_j A[i][j] x[j], a thread per row: lane l of a
//     warp reads row i + l, so each load touches a line per lane
//     (memory-divergent) and the next 31 iterations reuse those lines;
//   atax_kernel2: y[j] = sum_i A[i][j] tmp[i], a thread per column: one line
//     per warp per iteration.
// A is nx x ny; blocks of 256 threads.
extern "C" __global__ void atax_kernel1(int nx, int ny, const float *a, const float *x, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx) return;
    float s = 0.0f;
    for (int j = 0; j < ny; j++) s += a[i * ny + j] * x[j];
    tmp[i] = s;
}

extern "C" __global__ void atax_kernel2(int nx, int ny, const float *a, const float *tmp, float *y)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ny) return;
    float s = 0.0f;
    for (int i = 0; i < nx; i++) s += a[i * ny + j] * tmp[i];
    y[j] = s;
}
