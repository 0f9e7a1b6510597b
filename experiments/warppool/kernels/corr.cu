// corr.cu -- two kernels of the correlation matrix (PolyBench CORR) of an
// n x m data matrix (n observations of m variables):
//   corr_reduce (CORR's third kernel): data[i][j] = (data[i][j] - mean[j]) /
//     (sqrt(n) std[j]), a thread per element, blocks of 32 x 8: coalesced;
//   corr_corr (the fourth): for a column j1 < m - 1 per thread, symmat[j1][j2]
//     = symmat[j2][j1] = sum_i data[i][j1] data[i][j2] for j2 > j1; lanes run
//     triangles of different lengths (divergence) and the stores to
//     symmat[j2][j1] are a line per lane.  Blocks of 256.
extern "C" __global__ void corr_reduce(int m, int n, float sqrt_n, const float *mean, const float *stddev, float *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= m) return;
    data[i * m + j] = (data[i * m + j] - mean[j]) / (sqrt_n * stddev[j]);
}

extern "C" __global__ void corr_corr(int m, int n, const float *data, float *symmat)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 >= m - 1) return;
    symmat[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; j2++) {
        float s = 0.0f;
        for (int i = 0; i < n; i++) s += data[i * m + j1] * data[i * m + j2];
        symmat[j1 * m + j2] = s;
        symmat[j2 * m + j1] = s;
    }
}
