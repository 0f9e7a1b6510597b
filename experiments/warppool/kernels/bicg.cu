// bicg.cu -- the row kernel of BiCG's two matrix-vector products (PolyBench
// BICG, bicg_kernel2): q[i] = sum_j A[i][j] p[j], a thread per row of the
// nx x ny matrix: each warp load touches a line per lane, reused by the
// following iterations if the L1 keeps them.  Blocks of 256 threads.
extern "C" __global__ void bicg_kernel2(int nx, int ny, const float *a, const float *p, float *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx) return;
    float s = 0.0f;
    for (int j = 0; j < ny; j++) s += a[i * ny + j] * p[j];
    q[i] = s;
}
