// syr2k.cu -- symmetric rank-2k update (PolyBench SYR2K), one thread per
// element of C:  C = alpha A B^T + alpha B A^T + beta C,  A and B n x m.
// Thread (i, j) reads row i and row j of A and B: across a warp j varies,
// so a[j*m + k] and b[j*m + k] are m floats apart per lane (one line per
// lane: memory-divergent), a[i*m + k] and b[i*m + k] are one word for the
// warp.  Launch: blocks of 32 x 8, grid (n/32, n/8).
extern "C" __global__ void syr2k_kernel(int n, int m, float alpha, float beta, const float *a, const float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n) return;
    float s = c[i * n + j] * beta;
    for (int k = 0; k < m; k++)
        s += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
    c[i * n + j] = s;
}
