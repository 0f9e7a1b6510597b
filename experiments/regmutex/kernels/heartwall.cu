// heartwall.cu -- the tracking step of Rodinia's heart wall: for every sample
// point, the normalised cross-correlation of its template (HW_T x HW_T) with
// every position of a search window, and the best position.  One block per
// point; each thread computes the correlation at HW_PER positions, holding
// the template's statistics and running sums in registers.
#define HW_T 9
#define HW_S 16               /* search window: 16 x 16 positions */
#define HW_PER 2
extern "C" __global__ void __launch_bounds__(128)
hw_track(const float *frame, int fw, const float *tmpl, const int *px, const int *py, int *best)
{
    __shared__ float st[HW_T * HW_T];
    __shared__ float score[HW_S * HW_S];
    int p = blockIdx.x, t = threadIdx.x;
    const float *tp = tmpl + p * HW_T * HW_T;
    for (int i = t; i < HW_T * HW_T; i += blockDim.x) st[i] = tp[i];
    __syncthreads();
    float tsum = 0.0f, tsq = 0.0f;
    for (int i = 0; i < HW_T * HW_T; i++) {
        tsum += st[i];
        tsq += st[i] * st[i];
    }
    float tmean = tsum / (HW_T * HW_T), tvar = tsq - tsum * tmean;
    int x0 = px[p] - HW_S / 2, y0 = py[p] - HW_S / 2;
#pragma unroll
    for (int q = 0; q < HW_PER; q++) {
        int pos = t * HW_PER + q, sx = x0 + pos % HW_S, sy = y0 + pos / HW_S;
        float fs = 0.0f, fq = 0.0f, ft = 0.0f;
        for (int r = 0; r < HW_T; r++)
#pragma unroll
            for (int c = 0; c < HW_T; c++) {
                float v = frame[(sy + r) * fw + sx + c], w = st[r * HW_T + c];
                fs += v;
                fq += v * v;
                ft += v * w;
            }
        float fmean = fs / (HW_T * HW_T), fvar = fq - fs * fmean, cov = ft - fs * tmean;
        score[pos] = cov * rsqrtf(fvar * tvar + 1e-6f);
    }
    __syncthreads();
    if (t == 0) {
        int b = 0;
        for (int i = 1; i < HW_S * HW_S; i++)
            if (score[i] > score[b]) b = i;
        best[p] = b;
    }
}
