// tpacf.cu -- two-point angular correlation function (Parboil's tpacf): for
// pairs of points on the unit sphere, the histogram of their angular
// separations over TP_BINS logarithmic bins (bin edges as cosines in shared
// memory, found by binary search); block (x, y) histograms slab x of points
// against chunk y of the others (TP_CHUNK points) in a shared-memory
// sub-histogram.
#define TP_BINS 20
#define TP_T 256
#define TP_CHUNK 512
extern "C" __global__ void __launch_bounds__(TP_T)
tpacf_kernel(const float *x, const float *y, const float *z, int n, const float *binb, unsigned *hist)
{
    __shared__ float sb[TP_BINS + 1];
    __shared__ unsigned sh[TP_BINS + 2];
    __shared__ float sx[TP_T], sy[TP_T], sz[TP_T];
    int t = threadIdx.x, i = blockIdx.x * TP_T + t;
    if (t <= TP_BINS) sb[t] = binb[t];
    if (t < TP_BINS + 2) sh[t] = 0;
    float xi = x[i], yi = y[i], zi = z[i];
    int jend = (blockIdx.y + 1) * TP_CHUNK < n ? (blockIdx.y + 1) * TP_CHUNK : n;
    for (int j0 = blockIdx.y * TP_CHUNK; j0 < jend; j0 += TP_T) {
        __syncthreads();
        sx[t] = x[j0 + t];
        sy[t] = y[j0 + t];
        sz[t] = z[j0 + t];
        __syncthreads();
        for (int j = 0; j < TP_T; j++) {
            if (j0 + j <= i) continue;
            float d = xi * sx[j] + yi * sy[j] + zi * sz[j];
            /* the bin: edges decrease (cosines of growing angles) */
            int lo = 0, hi = TP_BINS;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (d >= sb[mid + 1]) hi = mid;
                else lo = mid + 1;
            }
            atomicAdd(&sh[lo], 1u);
        }
    }
    __syncthreads();
    if (t < TP_BINS + 1) atomicAdd(&hist[t], sh[t]);
}
