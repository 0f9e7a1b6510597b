// rdc_main.cu -- separate compilation with device linking:
//   nvcc -cudart shared -rdc=true rdc_main.cu rdc_lib.cu
// The kernel here calls device functions defined in rdc_lib.cu (one of
// them recursive) and uses that file's __device__ and __constant__
// variables, which the host reaches through cudaMemcpyToSymbol/FromSymbol
// on the extern declarations.
#include <cstring>
#include <vector>

#include "check.h"
#include "rdc.h"

__global__ void apply(float *y, int *steps, const float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = rdc_scale(x[i], i) + (float)rdc_bias;
        steps[i] = rdc_collatz_steps((unsigned)i + 1);
    }
}

static int collatz(unsigned v) {
    int s = 0;
    while (v > 1) {
        v = v & 1 ? 3 * v + 1 : v / 2;
        s++;
    }
    return s;
}

int main() {
    ck_start("rdc");
    const int n = 1000;
    const float table[8] = {0.5f, 1.0f, 2.0f, -1.0f, 0.25f, 3.0f, -4.0f, 8.0f};
    CK(cudaMemcpyToSymbol(rdc_table, table, sizeof table));
    int zero = 0, bias = 0;
    CK(cudaMemcpyToSymbol(rdc_calls, &zero, sizeof zero));
    CK(cudaMemcpyFromSymbol(&bias, rdc_bias, sizeof bias));
    EXPECT(bias == 1000, "rdc_bias read back as %d, initialized to 1000", bias);

    std::vector<float> x(n), y(n);
    std::vector<int> steps(n);
    for (int i = 0; i < n; i++)
        x[i] = (float)(i - 500) / 8.0f;
    float *d_x, *d_y;
    int *d_steps;
    CK(cudaMalloc(&d_x, n * sizeof(float)));
    CK(cudaMalloc(&d_y, n * sizeof(float)));
    CK(cudaMalloc(&d_steps, n * sizeof(int)));
    CK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    apply<<<(n + 127) / 128, 128>>>(d_y, d_steps, d_x, n);
    CK_LAUNCH();
    CK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(steps.data(), d_steps, n * sizeof(int), cudaMemcpyDeviceToHost));
    int calls = -1;
    CK(cudaMemcpyFromSymbol(&calls, rdc_calls, sizeof calls));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        // x*table is exact (powers of two and 3 times a short fraction), and
        // so is the sum with 1000: one result whatever the rounding.
        float want = x[i] * table[i & 7] + 1000.0f;
        if (y[i] != want && bad++ < 3)
            EXPECT(false, "y[%d] = %g, expected %g", i, y[i], want);
        if (steps[i] != collatz(i + 1) && bad++ < 3)
            EXPECT(false, "steps[%d] = %d, expected %d", i, steps[i], collatz(i + 1));
    }
    EXPECT(calls == n, "rdc_calls = %d, expected %d", calls, n);
    printf("cross-file device calls and variables: %s; rdc_calls = %d\n", bad ? "wrong" : "ok", calls);
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    CK(cudaFree(d_steps));
    return ck_finish();
}
