/*
** corr.cu -- the correlation matrix of M variables over N observations
** (PolyBench's correlation algorithm, float), data is N x M:
**   mean_kernel:    mean[j] = sum_i data[i][j] / FLOAT_N                  thread per column
**   std_kernel:     std[j]  = sqrt(sum_i (data[i][j] - mean[j])^2 / FLOAT_N),
**                   replaced by 1 where it is <= EPS                       thread per column
**   reduce_kernel:  data[i][j] = (data[i][j] - mean[j]) / (sqrt(FLOAT_N) * std[j])
**                                                                          thread per element, 32x8
**   corr_kernel:    symmat[j1][j1] = 1; for j2 > j1:
**                   symmat[j1][j2] = symmat[j2][j1] = sum_i data[i][j1] * data[i][j2]
**                                                                          thread per j1 < M-1
** FLOAT_N (3214212.01) and EPS (0.005) are float constants (DATA_TYPE), so
** every operation is done in float; sqrt(FLOAT_N) folds to a constant.  With
** double constants nvcc would convert to double and back around each division
** and comparison (2 to 3 more instructions per thread, which the reference's
** counts show it did not do).  symmat[M-1][M-1] = 1 is set by the host.  The 1-D
** kernels use blocks of 256; sums accumulate into their global elements.
*/
#define M 256
#define N 256
#define FLOAT_N 3214212.01f
#define EPS 0.005f

__global__ void mean_kernel(int m, int n, float *mean, float *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        mean[j] = 0.0f;
        for (int i = 0; i < n; i++)
            mean[j] += data[i * M + j];
        mean[j] /= FLOAT_N;
    }
}

__global__ void std_kernel(int m, int n, float *mean, float *std, float *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        std[j] = 0.0f;
        for (int i = 0; i < n; i++)
            std[j] += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
        std[j] /= FLOAT_N;
        std[j] = sqrt(std[j]);
        if (std[j] <= EPS)
            std[j] = 1.0f;
    }
}

__global__ void reduce_kernel(int m, int n, float *mean, float *std, float *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m) {
        data[i * M + j] -= mean[j];
        data[i * M + j] /= sqrt(FLOAT_N) * std[j];
    }
}

__global__ void corr_kernel(int m, int n, float *symmat, float *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < m - 1) {
        symmat[j1 * M + j1] = 1.0f;
        for (int j2 = j1 + 1; j2 < m; j2++) {
            symmat[j1 * M + j2] = 0.0f;
            for (int i = 0; i < n; i++)
                symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
            symmat[j2 * M + j1] = symmat[j1 * M + j2];
        }
    }
}
