// syrk.cu -- symmetric rank-k update (PolyBench SYRK), one thread per
// element of C:  C = alpha A A^T + beta C,  A n x m.  Thread (i, j) reads
// rows i and j of A: a[j*m + k] is m floats apart across a warp's lanes
// (memory-divergent), a[i*m + k] one word per warp.  Blocks of 32 x 8.
extern "C" __global__ void syrk_kernel(int n, int m, float alpha, float beta, const float *a, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n) return;
    float s = c[i * n + j] * beta;
    for (int k = 0; k < m; k++) s += alpha * a[i * m + k] * a[j * m + k];
    c[i * n + j] = s;
}
