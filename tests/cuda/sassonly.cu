// sassonly.cu -- built with GPU machine code only, no PTX:
//   nvcc -cudart shared -gencode arch=compute_75,code=sm_75
// On a GPU that runs sm_75 code the kernel runs; anywhere else (tpsim
// simulates PTX) the launch must be refused with
// cudaErrorNoKernelImageForDevice and the program must go on working.
// Both end in "sassonly: PASS"; run_cuda.sh also requires, under tpsim, the
// refusal and a message on stderr that says what to rebuild (PTX).
#include "check.h"

__global__ void fill(int *out) { out[threadIdx.x] = 3 * threadIdx.x; }

int main() {
    ck_start("sassonly");
    int *d, h[64];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemset(d, 0, sizeof h));
    fill<<<1, 64>>>(d);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) {
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 64; i++)
            EXPECT(h[i] == 3 * i, "out[%d] = %d", i, h[i]);
        printf("the sm_75 machine code ran\n");
    } else {
        printf("launch refused: %s\n", cudaGetErrorName(e));
        EXPECT(e == cudaErrorNoKernelImageForDevice, "the launch failed with %s, expected "
               "cudaErrorNoKernelImageForDevice", cudaGetErrorName(e));
        // Not sticky: memory calls still work and nothing was written.
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 64; i++)
            EXPECT(h[i] == 0, "out[%d] = %d after a refused launch", i, h[i]);
    }
    CK(cudaFree(d));
    return ck_finish();
}
