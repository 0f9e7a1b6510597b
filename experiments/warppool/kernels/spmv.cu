// spmv.cu -- sparse matrix times dense vector, y = A x, A in compressed
// sparse rows (the scalar CSR kernel): a thread per row walks its own
// nonzeros, so the lanes of a warp read val[] and col[] at different offsets
// (a line or two per lane: memory-divergent) and gather x[col].  Blocks of
// 256.
extern "C" __global__ void spmv_csr(int rows, const int *rowptr, const int *col, const float *val, const float *x,
                                    float *y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.0f;
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) s += val[j] * x[col[j]];
    y[r] = s;
}
