// spmv.cu -- sparse matrix times vector in the jagged diagonal storage of
// Parboil's spmv (JDS): rows sorted by length, column-major diagonals; each
// thread produces SPMV_ROWS rows.
#define SPMV_ROWS 4
extern "C" __global__ void __launch_bounds__(256)
spmv_jds(float *dst, const float *data, const int *indices, const int *perm, const int *rowlen,
         const int *jds_ptr, const float *x, int dim)
{
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * SPMV_ROWS;
#pragma unroll
    for (int q = 0; q < SPMV_ROWS; q++) {
        int ix = base + q;
        if (ix >= dim) continue;
        float sum = 0.0f;
        int len = rowlen[ix];
        for (int k = 0; k < len; k++) {
            int j = jds_ptr[k] + ix;
            sum += data[j] * x[indices[j]];
        }
        dst[perm[ix]] = sum;
    }
}
