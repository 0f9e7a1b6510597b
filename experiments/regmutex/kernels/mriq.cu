// mriq.cu -- MRI-Q (Parboil): for every voxel, Q = sum over k-space samples of
// phi_mag(k) (cos, sin)(2 pi k . x).  Samples in constant memory in chunks;
// each thread computes MRIQ_VOX voxels.
#define MRIQ_CHUNK 1024
#define MRIQ_VOX 2
struct kvals { float kx, ky, kz, phimag; };
__constant__ kvals ck[MRIQ_CHUNK];
extern "C" __global__ void __launch_bounds__(256)
mriq_kernel(int numK, int kbase, const float *x, const float *y, const float *z, float *Qr, float *Qi)
{
    int t = (blockIdx.x * blockDim.x + threadIdx.x) * MRIQ_VOX;
    float sx[MRIQ_VOX], sy[MRIQ_VOX], sz[MRIQ_VOX], qr[MRIQ_VOX], qi[MRIQ_VOX];
#pragma unroll
    for (int v = 0; v < MRIQ_VOX; v++) {
        sx[v] = x[t + v];
        sy[v] = y[t + v];
        sz[v] = z[t + v];
        qr[v] = Qr[t + v];
        qi[v] = Qi[t + v];
    }
    for (int k = 0; k < numK; k++) {
        kvals kv = ck[k];
#pragma unroll
        for (int v = 0; v < MRIQ_VOX; v++) {
            float arg = 6.2831853071795864769f * (kv.kx * sx[v] + kv.ky * sy[v] + kv.kz * sz[v]);
            qr[v] += kv.phimag * __cosf(arg);
            qi[v] += kv.phimag * __sinf(arg);
        }
    }
#pragma unroll
    for (int v = 0; v < MRIQ_VOX; v++) {
        Qr[t + v] = qr[v];
        Qi[t + v] = qi[v];
    }
    (void)kbase;
}
