/*
** mat_vec_mul.cu -- the matrix-vector suite of tools/reference/rtx2060-nvbench.csv:
** y = A x over uint32 (arithmetic modulo 2^32), A a rows x cols matrix stored
** row by row.  One thread per row, 1-D blocks of `bs` threads (512 unless the
** series varies it), a grid of ceil(rows / bs).
**
**   hw_mv_simple  each thread walks its row of A and the whole of x from
**                 global memory (neighbouring threads read A cols words
**                 apart; x is the same word for the whole warp).
**   hw_mv_shared  x is staged through shared memory, bs words per phase
**                 (dynamic shared memory of bs words): the block loads
**                 x[p*bs .. p*bs+bs) together, synchronises, and each thread
**                 multiplies its row's piece against it.  Threads past the last
**                 row still load and synchronise.
*/

extern "C" __global__ void hw_mv_simple(const unsigned *A, const unsigned *x, unsigned *y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const unsigned *a = A + (size_t)row * cols;
    unsigned s = 0;
    for (int c = 0; c < cols; c++) s += a[c] * x[c];
    y[row] = s;
}

extern "C" __global__ void hw_mv_shared(const unsigned *A, const unsigned *x, unsigned *y, int rows, int cols)
{
    extern __shared__ unsigned xs[];
    int bs = blockDim.x;
    int row = blockIdx.x * bs + threadIdx.x;
    const unsigned *a = A + (size_t)row * cols;
    unsigned s = 0;
    for (int base = 0; base < cols; base += bs) {
        int k = base + threadIdx.x;
        xs[threadIdx.x] = k < cols ? x[k] : 0u;
        __syncthreads();
        int m = cols - base < bs ? cols - base : bs;
        if (row < rows)
            for (int j = 0; j < m; j++) s += a[base + j] * xs[j];
        __syncthreads();
    }
    if (row < rows) y[row] = s;
}
