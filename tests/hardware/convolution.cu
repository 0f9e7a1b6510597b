/*
** convolution.cu -- the convolution suite of tools/reference/rtx2060-nvbench.csv.
** Float data; the mask width w is odd (3 to 11), r = w / 2; input elements
** outside the array count as 0 (ghost cells).  Every output is clamped to
** [0, 1] through double precision, as the benchmark does it:
**     out = (float)fmin(fmax((double)sum, 0.0), 1.0)
** (a float widened to double, FP64 max and min, narrowed back: FP64 runs at
** 1/32 of the FP32 rate on Turing).  The sum runs over the mask from its
** first element to its last (nvcc contracts each step to an fma).
**
** 1-D: out[i] = clamp(sum_j in[i - r + j] * mask[j]), n elements, 1-D blocks
** of bs threads (512 unless the series varies it), a grid of ceil(n / bs), one
** thread per output element.
**   hw_conv1d_basic        the mask read from global memory (a parameter)
**   hw_conv1d_const        the mask read from __constant__ memory (hw_mask1d)
**   hw_conv1d_tiled        the block first loads a tile of bs + w - 1 inputs
**                          (its own bs elements and r halo elements on each
**                          side, the halo loaded by the first r and the last
**                          r threads) into shared memory (dynamic, bs + 2r
**                          floats), synchronises, and computes from it alone;
**                          mask from constant memory
**   hw_conv1d_tiled_cache  the block loads only its own bs elements into
**                          shared memory (dynamic, bs floats); a mask element
**                          whose input lies outside the block's range is read
**                          from global memory (through the L1/L2: the
**                          neighbouring block has just read it); mask from
**                          constant memory
**
** 2-D: an n x n image of ch channels stored plane after plane (channel c,
** row y, column x at (c * n + y) * n + x), a w x w mask (row-major) shared by
** all channels:
**   out[c][y][x] = clamp(sum_{i,j} in[c][y - r + i][x - r + j] * mask[i][j])
** One thread per output pixel, looping over the channels.
**   hw_conv2d_basic   16x16 blocks (any t x t), grid ceil(n / t)^2; mask from
**                     global memory (a parameter)
**   hw_conv2d_const   the same, mask from __constant__ memory (hw_mask2d)
**   hw_conv2d_tiled   a t x t block (t = 16) loads a t x t input tile into
**                     shared memory (dynamic, t*t floats), one element per
**                     thread; the t - w + 1 square of threads at its top left
**                     then compute an output tile of t - w + 1 pixels a side.
**                     Grid (n + t - w) / (t - w + 1) per axis, i.e.
**                     ceil(n / (t - w + 1)); mask from constant memory.
*/

#define MAX_MASK1D 64
#define MAX_MASK2D (16 * 16)

__constant__ float hw_mask1d[MAX_MASK1D];
__constant__ float hw_mask2d[MAX_MASK2D];

static __device__ __forceinline__ float clamp01(float v)
{
    return (float)fmin(fmax((double)v, 0.0), 1.0);
}

/* ---- 1-D ------------------------------------------------------------------------ */

extern "C" __global__ void hw_conv1d_basic(const float *in, const float *mask, float *out, int n, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int start = i - w / 2;
    float s = 0.0f;
    for (int j = 0; j < w; j++) {
        int k = start + j;
        if (k >= 0 && k < n) s += in[k] * mask[j];
    }
    out[i] = clamp01(s);
}

extern "C" __global__ void hw_conv1d_const(const float *in, float *out, int n, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int start = i - w / 2;
    float s = 0.0f;
    for (int j = 0; j < w; j++) {
        int k = start + j;
        if (k >= 0 && k < n) s += in[k] * hw_mask1d[j];
    }
    out[i] = clamp01(s);
}

extern "C" __global__ void hw_conv1d_tiled(const float *in, float *out, int n, int w)
{
    extern __shared__ float tile[]; /* bs + 2r */
    int bs = blockDim.x, t = threadIdx.x, r = w / 2;
    int i = blockIdx.x * bs + t;
    tile[r + t] = i < n ? in[i] : 0.0f;
    if (t < r) {
        int k = i - r; /* left halo */
        tile[t] = k >= 0 && k < n ? in[k] : 0.0f;
    }
    if (t >= bs - r) {
        int k = i + r; /* right halo */
        tile[t + 2 * r] = k < n ? in[k] : 0.0f;
    }
    __syncthreads();
    if (i >= n) return;
    float s = 0.0f;
    for (int j = 0; j < w; j++) s += tile[t + j] * hw_mask1d[j];
    out[i] = clamp01(s);
}

extern "C" __global__ void hw_conv1d_tiled_cache(const float *in, float *out, int n, int w)
{
    extern __shared__ float tile[]; /* bs */
    int bs = blockDim.x, t = threadIdx.x;
    int first = blockIdx.x * bs, i = first + t;
    tile[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i >= n) return;
    int start = i - w / 2;
    float s = 0.0f;
    for (int j = 0; j < w; j++) {
        int k = start + j;
        if (k >= first && k < first + bs) s += tile[k - first] * hw_mask1d[j];
        else if (k >= 0 && k < n) s += in[k] * hw_mask1d[j];
    }
    out[i] = clamp01(s);
}

/* ---- 2-D ------------------------------------------------------------------------ */

extern "C" __global__ void hw_conv2d_basic(const float *in, const float *mask, float *out, int n, int ch, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n) return;
    int r = w / 2;
    for (int c = 0; c < ch; c++) {
        const float *plane = in + (size_t)c * n * n;
        float s = 0.0f;
        for (int i = 0; i < w; i++) {
            int yy = y - r + i;
            if (yy < 0 || yy >= n) continue;
            for (int j = 0; j < w; j++) {
                int xx = x - r + j;
                if (xx >= 0 && xx < n) s += plane[(size_t)yy * n + xx] * mask[i * w + j];
            }
        }
        out[((size_t)c * n + y) * n + x] = clamp01(s);
    }
}

extern "C" __global__ void hw_conv2d_const(const float *in, float *out, int n, int ch, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n) return;
    int r = w / 2;
    for (int c = 0; c < ch; c++) {
        const float *plane = in + (size_t)c * n * n;
        float s = 0.0f;
        for (int i = 0; i < w; i++) {
            int yy = y - r + i;
            if (yy < 0 || yy >= n) continue;
            for (int j = 0; j < w; j++) {
                int xx = x - r + j;
                if (xx >= 0 && xx < n) s += plane[(size_t)yy * n + xx] * hw_mask2d[i * w + j];
            }
        }
        out[((size_t)c * n + y) * n + x] = clamp01(s);
    }
}

extern "C" __global__ void hw_conv2d_tiled(const float *in, float *out, int n, int ch, int w)
{
    extern __shared__ float tile[]; /* t * t */
    int t = blockDim.x, r = w / 2, to = t - w + 1;
    int tx = threadIdx.x, ty = threadIdx.y;
    int xo = blockIdx.x * to + tx, yo = blockIdx.y * to + ty; /* the output pixel, if tx, ty < to */
    int xi = xo - r, yi = yo - r;                             /* the input element this thread loads */
    bool inside = xi >= 0 && xi < n && yi >= 0 && yi < n;
    bool computes = tx < to && ty < to && xo < n && yo < n;
    for (int c = 0; c < ch; c++) {
        const float *plane = in + (size_t)c * n * n;
        tile[ty * t + tx] = inside ? plane[(size_t)yi * n + xi] : 0.0f;
        __syncthreads();
        if (computes) {
            float s = 0.0f;
            for (int i = 0; i < w; i++)
                for (int j = 0; j < w; j++) s += tile[(ty + i) * t + tx + j] * hw_mask2d[i * w + j];
            out[((size_t)c * n + yo) * n + xo] = clamp01(s);
        }
        __syncthreads();
    }
}
