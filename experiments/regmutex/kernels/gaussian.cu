// gaussian.cu -- Gaussian elimination without pivoting (Rodinia's gaussian):
// for each pivot t, Fan1 computes the multipliers of the rows below it and
// Fan2 updates the submatrix and the right-hand side.  Fan2 takes GA_TILE x
// GA_TILE elements per thread (a coarsened form).
#define GA_TILE 2
extern "C" __global__ void __launch_bounds__(256)
fan1(float *m, const float *a, int size, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size - 1 - t) return;
    m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
}

extern "C" __global__ void __launch_bounds__(256)
fan2(const float *m, float *a, float *b, int size, int t)
{
    int xb = (blockIdx.x * blockDim.x + threadIdx.x) * GA_TILE, yb = (blockIdx.y * blockDim.y + threadIdx.y) * GA_TILE;
    float piv[GA_TILE], mul[GA_TILE];
#pragma unroll
    for (int k = 0; k < GA_TILE; k++) {
        int y = yb + k;
        piv[k] = y < size - t ? a[size * t + y + t] : 0.0f;
        mul[k] = xb + k < size - 1 - t ? m[size * (xb + k + 1 + t) + t] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < GA_TILE; i++) {
        int x = xb + i;
        if (x >= size - 1 - t) continue;
#pragma unroll
        for (int k = 0; k < GA_TILE; k++) {
            int y = yb + k;
            if (y >= size - t) continue;
            a[size * (x + 1 + t) + (y + t)] -= mul[i] * piv[k];
        }
        if (yb == 0) b[x + 1 + t] -= mul[i] * b[t];
    }
}
