/*
** fdtd2d.cu -- 2-D finite-difference time-domain (PolyBench's fdtd-2d
** algorithm, float), fields ex, ey, hz of NX x NY, TMAX steps; at step t:
**   fdtd_step1_kernel:  ey[0][j] = fict[t];
**                       ey[i][j] -= 0.5 * (hz[i][j] - hz[i-1][j])         (i > 0)
**   fdtd_step2_kernel:  ex[i][j] -= 0.5 * (hz[i][j] - hz[i][j-1])         (j > 0)
**   fdtd_step3_kernel:  hz[i][j] -= 0.7 * (ex[i][j+1] - ex[i][j]
**                                          + ey[i+1][j] - ey[i][j])        (i < NX-1, j < NY-1)
** One thread per point (x: column j, y: row i; blocks of 32x8); the host
** launches the three kernels in order for t = 0 .. TMAX-1.
*/
#define NX 128
#define NY 128

__global__ void fdtd_step1_kernel(int nx, int ny, float *fict, float *ex, float *ey, float *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny) {
        if (i == 0)
            ey[i * NY + j] = fict[t];
        else
            ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
    }
}

__global__ void fdtd_step2_kernel(int nx, int ny, float *ex, float *ey, float *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny && j > 0)
        ex[i * NY + j] = ex[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
}

__global__ void fdtd_step3_kernel(int nx, int ny, float *ex, float *ey, float *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx - 1 && j < ny - 1)
        hz[i * NY + j] = hz[i * NY + j]
                       - 0.7f * (ex[i * NY + (j + 1)] - ex[i * NY + j] + ey[(i + 1) * NY + j] - ey[i * NY + j]);
}
