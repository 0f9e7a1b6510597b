// multifile_main.cu -- a program made of three .cu files compiled
// separately (whole-program device code, no -rdc) and linked together:
//   nvcc -cudart shared multifile_main.cu multifile_vec.cu multifile_mat.cu
// Each file registers its own fatbinary.  Two files hold a static
// __constant__ array and a static kernel of the same names (coef, scale),
// so the runtime must keep each symbol with its own module.  Covers several
// kernels per file (five kernels in all), tiled shared-memory matrix
// multiply and transpose, and calls interleaved between the modules.
#include <cstdint>
#include <vector>

#include "check.h"
#include "multifile.h"

__global__ void iota(int *d, int n, int start) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = start + i * 3;
}

int main() {
    ck_start("multifile");
    const int n = 5000, m = 45;  // m: matrix side, not a multiple of the tile
    const int vc[4] = {7, -3, 2, 1}, mc[4] = {1000, 2000, 3000, 4000};

    // Set mat's coefficients first and vec's second: a runtime that mixed
    // up the two `coef` symbols would give vec's values to both.
    mat_set_coef(mc);
    vec_set_coef(vc);

    int *d_x, *d_y;
    CK(cudaMalloc(&d_x, n * sizeof(int)));
    CK(cudaMalloc(&d_y, n * sizeof(int)));
    iota<<<(n + 255) / 256, 256>>>(d_x, n, -2500);
    CK_LAUNCH();
    vec_poly(d_y, d_x, n);
    vec_scale(d_y, n, 3);  // vec's scale multiplies
    mat_scale(d_y, n, 5);  // mat's scale adds
    std::vector<int> y(n);
    CK(cudaMemcpy(y.data(), d_y, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        uint32_t v = (uint32_t)(-2500 + i * 3);
        uint32_t p = (((uint32_t)vc[3] * v + (uint32_t)vc[2]) * v + (uint32_t)vc[1]) * v + (uint32_t)vc[0];
        int want = (int)(p * 3u + 5u);
        if (y[i] != want && bad++ < 3)
            EXPECT(false, "vector: y[%d] = %d, expected %d", i, y[i], want);
    }
    printf("vector part (iota, poly, scale*3, scale+5): %s\n", bad ? "wrong" : "ok");

    std::vector<int> a(m * m), b(m * m), c(m * m), t(m * m);
    for (int i = 0; i < m * m; i++) {
        a[i] = (i * 37) % 101 - 50;
        b[i] = (i * 53) % 89 - 44;
    }
    int *d_a, *d_b, *d_c, *d_t;
    CK(cudaMalloc(&d_a, m * m * sizeof(int)));
    CK(cudaMalloc(&d_b, m * m * sizeof(int)));
    CK(cudaMalloc(&d_c, m * m * sizeof(int)));
    CK(cudaMalloc(&d_t, m * m * sizeof(int)));
    CK(cudaMemcpy(d_a, a.data(), m * m * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, b.data(), m * m * sizeof(int), cudaMemcpyHostToDevice));
    mat_mul_bias(d_c, d_a, d_b, m);
    mat_transpose(d_t, d_a, m);
    CK(cudaMemcpy(c.data(), d_c, m * m * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(t.data(), d_t, m * m * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            int want = mc[(i + j) % 4];
            for (int k = 0; k < m; k++)
                want += a[i * m + k] * b[k * m + j];
            if (c[i * m + j] != want && bad++ < 3)
                EXPECT(false, "matmul: C[%d][%d] = %d, expected %d", i, j, c[i * m + j], want);
            if (t[j * m + i] != a[i * m + j] && bad++ < 3)
                EXPECT(false, "transpose: T[%d][%d] = %d, expected %d", j, i, t[j * m + i], a[i * m + j]);
        }
    printf("matrix part (matmul_bias, transpose), %dx%d: %s\n", m, m, bad ? "wrong" : "ok");

    // Change vec's coefficients again and rerun: mat's must be untouched.
    const int vc2[4] = {1, 1, 0, 0};
    vec_set_coef(vc2);
    vec_poly(d_y, d_x, n);
    mat_mul_bias(d_c, d_a, d_b, m);
    CK(cudaMemcpy(y.data(), d_y, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> c2(m * m);
    CK(cudaMemcpy(c2.data(), d_c, m * m * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++)
        if (y[i] != 1 + (-2500 + i * 3) && bad++ < 3)
            EXPECT(false, "vector (new coef): y[%d] = %d, expected %d", i, y[i], 1 + (-2500 + i * 3));
    for (int i = 0; i < m * m; i++)
        if (c2[i] != c[i] && bad++ < 3)
            EXPECT(false, "matmul after vec_set_coef: C[%d] = %d, was %d", i, c2[i], c[i]);
    printf("modules keep their own coef: %s\n", bad ? "wrong" : "ok");

    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    CK(cudaFree(d_c));
    CK(cudaFree(d_t));
    return ck_finish();
}
