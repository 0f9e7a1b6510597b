// rdc_a.cu, rdc_b.cu -- relocatable device code that the PTX linker must
// merge: both files instantiate the same template and inline device
// functions (weak definitions, kept once), both print from the device
// (each file has its own internal $str constants, renamed apart), and a
// kernel here calls a function and reads a table defined in rdc_b.cu.
//   nvcc -cudart shared -rdc=true rdc_a.cu rdc_b.cu
#include <cstdio>
#include "rdc_ab.h"

__global__ void from_a(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = twice_plus<int>(i) + b_table[i % 4] + b_square(i);
    if (i == 0) printf("a: out[0] = %d\n", out[0]);
}

int main()
{
    const int n = 64;
    int *d, h[n], bad = 0;
    cudaMalloc(&d, n * sizeof(int));
    from_a<<<2, 32>>>(d, n);
    launch_b(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        int want = (2 * i + 1) + (i % 4) * 10 + i * i + (2 * i + 1) + 3;
        if (h[i] != want) bad++;
    }
    printf("rdc: %s (%s)\n", bad ? "FAIL" : "PASS", cudaGetErrorName(cudaGetLastError()));
    cudaFree(d);
    return bad != 0;
}
