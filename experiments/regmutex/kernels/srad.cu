// srad.cu -- speckle-reducing anisotropic diffusion (Rodinia's srad, v2):
// srad1 computes each pixel's directional derivatives and diffusion
// coefficient, srad2 the divergence and the update.
extern "C" __global__ void __launch_bounds__(256)
srad1(const float *J, float *dN, float *dS, float *dW, float *dE, float *c, int rows, int cols, float q0sqr)
{
    int x = blockIdx.x * 16 + threadIdx.x % 16, y = blockIdx.y * 16 + threadIdx.x / 16;
    if (x >= cols || y >= rows) return;
    int k = y * cols + x;
    int n = (y > 0 ? y - 1 : 0) * cols + x, s = (y < rows - 1 ? y + 1 : rows - 1) * cols + x;
    int w = y * cols + (x > 0 ? x - 1 : 0), e = y * cols + (x < cols - 1 ? x + 1 : cols - 1);
    float Jc = J[k];
    float n0 = J[n] - Jc, s0 = J[s] - Jc, w0 = J[w] - Jc, e0 = J[e] - Jc;
    float G2 = (n0 * n0 + s0 * s0 + w0 * w0 + e0 * e0) / (Jc * Jc);
    float L = (n0 + s0 + w0 + e0) / Jc;
    float num = 0.5f * G2 - (1.0f / 16.0f) * L * L, den = 1.0f + 0.25f * L;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float cc = 1.0f / (1.0f + den);
    cc = cc < 0.0f ? 0.0f : cc > 1.0f ? 1.0f : cc;
    dN[k] = n0;
    dS[k] = s0;
    dW[k] = w0;
    dE[k] = e0;
    c[k] = cc;
}

extern "C" __global__ void __launch_bounds__(256)
srad2(float *J, const float *dN, const float *dS, const float *dW, const float *dE, const float *c, int rows,
      int cols, float lambda)
{
    int x = blockIdx.x * 16 + threadIdx.x % 16, y = blockIdx.y * 16 + threadIdx.x / 16;
    if (x >= cols || y >= rows) return;
    int k = y * cols + x;
    int s = (y < rows - 1 ? y + 1 : rows - 1) * cols + x, e = y * cols + (x < cols - 1 ? x + 1 : cols - 1);
    float cN = c[k], cS = c[s], cW = c[k], cE = c[e];
    float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
    J[k] = J[k] + 0.25f * lambda * D;
}
