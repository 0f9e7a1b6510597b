// 2mm.cu -- the first kernel of two matrix multiplications (PolyBench 2MM):
// tmp = alpha A B, A ni x nk, B nk x nj, one thread per element of tmp,
// blocks of 32 x 8 (the second kernel, D = beta D + tmp C, has the same
// shape).  As in PolyBench the sum accumulates in the output element.
extern "C" __global__ void mm2_kernel1(int ni, int nj, int nk, float alpha, const float *a, const float *b, float *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj) return;
    tmp[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; k++) tmp[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
}
