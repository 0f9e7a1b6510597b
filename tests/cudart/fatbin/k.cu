// k.cu -- the kernels of the committed test fatbinaries (regen.sh).
__constant__ float k_scale[4];

extern "C" __global__ void k_saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] * k_scale[0] + y[i];
}

extern "C" __global__ void k_sum(const int *x, int *out, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = t < n ? x[t] : 0;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) *out = s[0];
}
