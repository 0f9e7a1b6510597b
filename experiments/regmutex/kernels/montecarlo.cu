// montecarlo.cu -- European option pricing by Monte Carlo (the NVIDIA SDK's
// MonteCarlo): each thread simulates MC_PATHS paths of one option with a
// xorshift generator and Box-Muller normals, sums the payoffs and their
// squares; the block reduces them in shared memory.
#define MC_PATHS 64
extern "C" __global__ void __launch_bounds__(256)
mc_kernel(const float *S, const float *X, const float *T, float R, float V, float *sum_out, float *sq_out)
{
    __shared__ float ssum[256], ssq[256];
    int opt = blockIdx.x, t = threadIdx.x;
    float s = S[opt], x = X[opt], tt = T[opt];
    float mudt = (R - 0.5f * V * V) * tt, vsdt = V * sqrtf(tt);
    unsigned st = 2463534242u ^ (opt * 9781u + t * 6271u);
    float sum = 0.0f, sq = 0.0f;
    for (int p = 0; p < MC_PATHS; p += 2) {
        st ^= st << 13; st ^= st >> 17; st ^= st << 5;
        float u1 = ((st >> 8) + 1) * (1.0f / 16777217.0f);
        st ^= st << 13; st ^= st >> 17; st ^= st << 5;
        float u2 = (st >> 8) * (1.0f / 16777216.0f);
        float r = sqrtf(-2.0f * __logf(u1)), th = 6.283185307f * u2;
        float z0 = r * __cosf(th), z1 = r * __sinf(th);
        float e0 = s * __expf(mudt + vsdt * z0) - x, e1 = s * __expf(mudt + vsdt * z1) - x;
        float p0 = e0 > 0.0f ? e0 : 0.0f, p1 = e1 > 0.0f ? e1 : 0.0f;
        sum += p0 + p1;
        sq += p0 * p0 + p1 * p1;
    }
    ssum[t] = sum;
    ssq[t] = sq;
    for (int off = 128; off > 0; off >>= 1) {
        __syncthreads();
        if (t < off) {
            ssum[t] += ssum[t + off];
            ssq[t] += ssq[t + off];
        }
    }
    if (t == 0) {
        sum_out[opt] = ssum[0];
        sq_out[opt] = ssq[0];
    }
}
