// particlefilter.cu -- the likelihood stage of Rodinia's particle filter: each
// particle moves by its random offset, samples the frame at the object's
// PF_OBJ template points around its position, and weights itself by the
// likelihood ((I - 100)^2 - (I - 228)^2) / 50 summed over them.
#define PF_OBJ 37
extern "C" __global__ void __launch_bounds__(256)
pf_likelihood(float *arrayX, float *arrayY, const float *dx, const float *dy, const int *objxy,
              const unsigned char *frame, int rows, int cols, float *likelihood, float *weights, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = arrayX[i] + 1.0f + 5.0f * dx[i], y = arrayY[i] - 2.0f + 2.0f * dy[i];
    arrayX[i] = x;
    arrayY[i] = y;
    float sum = 0.0f;
    int xr = __float2int_rn(x), yr = __float2int_rn(y);
    for (int j = 0; j < PF_OBJ; j++) {
        int ix = xr + objxy[2 * j + 1], iy = yr + objxy[2 * j];
        ix = ix < 0 ? 0 : ix >= cols ? cols - 1 : ix;
        iy = iy < 0 ? 0 : iy >= rows ? rows - 1 : iy;
        float v = (float)frame[iy * cols + ix];
        sum += ((v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f)) / 50.0f;
    }
    float l = sum / (float)PF_OBJ;
    likelihood[i] = l;
    weights[i] = weights[i] * __expf(l);
}
