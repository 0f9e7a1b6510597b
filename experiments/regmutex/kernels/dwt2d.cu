// dwt2d.cu -- one level of the 2D CDF 9/7 forward wavelet transform (the
// transform of Rodinia's dwt2d, fdwt97): the lifting steps (predict, update,
// predict, update, scale) on strips of DWT_N samples held in registers,
// first down the columns, then along the rows; each strip is transformed on
// its own with symmetric extension at its ends (as tiled implementations do
// at tile borders).
#define DWT_N 16
#define DWT_A1 (-1.586134342f)
#define DWT_A2 (-0.05298011854f)
#define DWT_A3 (0.8829110762f)
#define DWT_A4 (0.4435068522f)
#define DWT_K (1.149604398f)

__device__ __forceinline__ void dwt_lift(float *s)
{
#pragma unroll
    for (int i = 1; i < DWT_N; i += 2) s[i] += DWT_A1 * (s[i - 1] + s[i + 1 < DWT_N ? i + 1 : i - 1]);
#pragma unroll
    for (int i = 0; i < DWT_N; i += 2) s[i] += DWT_A2 * (s[i > 0 ? i - 1 : i + 1] + s[i + 1]);
#pragma unroll
    for (int i = 1; i < DWT_N; i += 2) s[i] += DWT_A3 * (s[i - 1] + s[i + 1 < DWT_N ? i + 1 : i - 1]);
#pragma unroll
    for (int i = 0; i < DWT_N; i += 2) s[i] += DWT_A4 * (s[i > 0 ? i - 1 : i + 1] + s[i + 1]);
#pragma unroll
    for (int i = 0; i < DWT_N; i++) s[i] *= (i & 1) ? 1.0f / DWT_K : DWT_K;
}

/* thread (x, strip): column x, rows strip * DWT_N .. + DWT_N */
extern "C" __global__ void __launch_bounds__(128)
dwt_cols(const float *in, float *out, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y0 = blockIdx.y * DWT_N;
    float s[DWT_N];
#pragma unroll
    for (int i = 0; i < DWT_N; i++) s[i] = in[(y0 + i) * width + x];
    dwt_lift(s);
    /* low-pass coefficients to the top half of the strip, high-pass below */
#pragma unroll
    for (int i = 0; i < DWT_N; i++) out[(y0 + (i & 1) * (DWT_N / 2) + i / 2) * width + x] = s[i];
}

/* thread (strip, y): row y, columns strip * DWT_N .. + DWT_N */
extern "C" __global__ void __launch_bounds__(128)
dwt_rows(const float *in, float *out, int width)
{
    int y = blockIdx.x * blockDim.x + threadIdx.x, x0 = blockIdx.y * DWT_N;
    float s[DWT_N];
#pragma unroll
    for (int i = 0; i < DWT_N; i++) s[i] = in[y * width + x0 + i];
    dwt_lift(s);
#pragma unroll
    for (int i = 0; i < DWT_N; i++) out[y * width + x0 + (i & 1) * (DWT_N / 2) + i / 2] = s[i];
}
