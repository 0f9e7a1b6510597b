// mvt.cu -- the first kernel of MVT (PolyBench): x1[i] += sum_j A[i][j] y1[j],
// a thread per row of the n x m matrix (PolyBench's is square; here the
// shape is free so that the rows fill the GPU without a huge matrix).  Each
// load touches a line per lane; the next iterations reuse the lines if the
// L1 keeps them.  Blocks of 256 threads.
extern "C" __global__ void mvt_kernel1(int n, int m, const float *a, const float *y1, float *x1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = x1[i];
    for (int j = 0; j < m; j++) s += a[i * m + j] * y1[j];
    x1[i] = s;
}
