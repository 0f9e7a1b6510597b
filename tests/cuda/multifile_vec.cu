// multifile_vec.cu -- part of the multifile program (see multifile_main.cu).
#include "check.h"
#include "multifile.h"

static __constant__ int coef[4];  // same name as multifile_mat.cu's

static __global__ void poly(int *y, const int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = (unsigned)x[i];
        y[i] = (int)(((((unsigned)coef[3] * v + (unsigned)coef[2]) * v + (unsigned)coef[1]) * v) +
                     (unsigned)coef[0]);
    }
}

static __global__ void scale(int *d, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = (int)((unsigned)d[i] * (unsigned)k);  // wraps
}

void vec_set_coef(const int c[4]) { CK(cudaMemcpyToSymbol(coef, c, 4 * sizeof(int))); }

void vec_poly(int *d_y, const int *d_x, int n) {
    poly<<<(n + 255) / 256, 256>>>(d_y, d_x, n);
    CK_LAUNCH();
}

void vec_scale(int *d, int n, int k) {
    scale<<<(n + 127) / 128, 128>>>(d, n, k);
    CK_LAUNCH();
}
