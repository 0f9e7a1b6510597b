// gesummv.cu -- y = alpha A x + beta B x (PolyBench GESUMMV), both sums in
// one loop, a thread per row of the n x m matrices (PolyBench's are square):
// two loads per iteration, each touching a line per lane.  Blocks of 256.
extern "C" __global__ void gesummv_kernel(int n, int m, float alpha, float beta, const float *a, const float *b,
                                          const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f, t = 0.0f;
    for (int j = 0; j < m; j++) {
        s += a[i * m + j] * x[j];
        t += b[i * m + j] * x[j];
    }
    y[i] = alpha * s + beta * t;
}
