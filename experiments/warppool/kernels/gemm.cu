// gemm.cu -- general matrix multiply (PolyBench GEMM), one thread per
// element:  C = alpha A B + beta C,  A ni x nk, B nk x nj.  Across a warp j
// varies: b[k*nj + j] is one line, a[i*nk + k] one word; the warps of a
// block (i varies) read the same line of B in the same iteration -- the
// inter-warp locality WarpPool merges.  Blocks of 32 x 8.
extern "C" __global__ void gemm_kernel(int ni, int nj, int nk, float alpha, float beta, const float *a, const float *b,
                                       float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj) return;
    float s = c[i * nj + j] * beta;
    for (int k = 0; k < nk; k++) s += alpha * a[i * nk + k] * b[k * nj + j];
    c[i * nj + j] = s;
}
