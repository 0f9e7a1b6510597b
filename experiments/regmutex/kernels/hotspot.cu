// hotspot.cu -- the thermal simulation stencil of Rodinia's hotspot: a tile
// of temperatures and powers in shared memory, HS_ITERS time steps per
// launch on a shrinking (pyramid) valid region, written back once.
#define HS_B 16
#define HS_ITERS 2
extern "C" __global__ void __launch_bounds__(256)
hotspot_kernel(int iters, const float *power, const float *temp_src, float *temp_dst, int cols, int rows,
               int border_cols, int border_rows, float Cap, float Rx, float Ry, float Rz, float step)
{
    __shared__ float temp_on[HS_B][HS_B], power_on[HS_B][HS_B], temp_t[HS_B][HS_B];
    float amb_temp = 80.0f, step_div_Cap = step / Cap, Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz;
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int small_block_rows = HS_B - iters * 2, small_block_cols = HS_B - iters * 2;
    int blkY = small_block_rows * by - border_rows, blkX = small_block_cols * bx - border_cols;
    int blkYmax = blkY + HS_B - 1, blkXmax = blkX + HS_B - 1;
    int yidx = blkY + ty, xidx = blkX + tx;
    int loadYidx = yidx, loadXidx = xidx, index = cols * loadYidx + loadXidx;
    if (loadYidx >= 0 && loadYidx < rows && loadXidx >= 0 && loadXidx < cols) {
        temp_on[ty][tx] = temp_src[index];
        power_on[ty][tx] = power[index];
    }
    __syncthreads();
    int validYmin = blkY < 0 ? -blkY : 0, validYmax = blkYmax > rows - 1 ? HS_B - 1 - (blkYmax - rows + 1) : HS_B - 1;
    int validXmin = blkX < 0 ? -blkX : 0, validXmax = blkXmax > cols - 1 ? HS_B - 1 - (blkXmax - cols + 1) : HS_B - 1;
    int N = ty - 1, S = ty + 1, W = tx - 1, E = tx + 1;
    N = N < validYmin ? validYmin : N;
    S = S > validYmax ? validYmax : S;
    W = W < validXmin ? validXmin : W;
    E = E > validXmax ? validXmax : E;
    bool computed = false;
    for (int i = 0; i < iters; i++) {
        computed = false;
        if (tx >= i + 1 && tx <= HS_B - i - 2 && ty >= i + 1 && ty <= HS_B - i - 2 && tx >= validXmin &&
            tx <= validXmax && ty >= validYmin && ty <= validYmax) {
            computed = true;
            temp_t[ty][tx] = temp_on[ty][tx] +
                             step_div_Cap * (power_on[ty][tx] + (temp_on[S][tx] + temp_on[N][tx] - 2.0f * temp_on[ty][tx]) * Ry_1 +
                                             (temp_on[ty][E] + temp_on[ty][W] - 2.0f * temp_on[ty][tx]) * Rx_1 +
                                             (amb_temp - temp_on[ty][tx]) * Rz_1);
        }
        __syncthreads();
        if (i == iters - 1) break;
        if (computed) temp_on[ty][tx] = temp_t[ty][tx];
        __syncthreads();
    }
    if (computed) temp_dst[index] = temp_t[ty][tx];
}
