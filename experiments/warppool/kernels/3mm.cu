// 3mm.cu -- the first kernel of three matrix multiplications (PolyBench
// 3MM): E = A B, A ni x nk, B nk x nj, one thread per element of E, blocks of
// 32 x 8; the sum accumulates in E's element.
extern "C" __global__ void mm3_kernel1(int ni, int nj, int nk, const float *a, const float *b, float *e)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj) return;
    e[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; k++) e[i * nj + j] += a[i * nk + k] * b[k * nj + j];
}
