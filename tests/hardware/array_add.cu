/*
** array_add.cu -- the array-add suite of tools/reference/rtx2060-nvbench.csv:
** c = a + b, element by element, over an n x n float array stored row by row
** (element (row, col) at row * n + col).  Launch: 16x16 blocks, a grid of
** ceil(n/16) x ceil(n/16); one thread per element, threads outside the array
** do nothing.
**
**   hw_add_coalesced      threadIdx.x walks a row: the 16 threads of a
**                         half-warp read 16 neighbouring floats (64 bytes).
**   hw_add_not_coalesced  threadIdx.x walks a column: neighbouring threads
**                         are n floats apart, every lane its own line.
*/

extern "C" __global__ void hw_add_coalesced(const float *a, const float *b, float *c, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        size_t k = (size_t)row * n + col;
        c[k] = a[k] + b[k];
    }
}

extern "C" __global__ void hw_add_not_coalesced(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        size_t k = (size_t)row * n + col;
        c[k] = a[k] + b[k];
    }
}
