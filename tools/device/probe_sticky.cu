/*
** probe_sticky.cu -- after a sticky error (an illegal address), what
** cudaDeviceReset gives back on a real GPU: the last error, and whether a
** cudaMalloc works right after and after waiting.  Prints "probe sticky ...".
*/
#include <cuda_runtime.h>
#include <stdio.h>
#include <unistd.h>

__global__ void poke(int *p) { *p = 1; }

int main(void)
{
    poke<<<1, 1>>>((int *)0x10);
    cudaError_t e = cudaDeviceSynchronize();
    printf("probe sticky fault %s\n", cudaGetErrorName(e));
    e = cudaDeviceReset();
    printf("probe sticky reset %s\n", cudaGetErrorName(e));
    printf("probe sticky last_error_after_reset %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("probe sticky last_error_again %s\n", cudaGetErrorName(cudaGetLastError()));
    int waits_ms[] = {0, 100, 1000, 3000};
    for (int w : waits_ms) {
        usleep(w * 1000);
        int *d = NULL;
        e = cudaMalloc(&d, 256);
        printf("probe sticky malloc_after_%dms %s\n", w, cudaGetErrorName(e));
        if (e == cudaSuccess) {
            cudaFree(d);
            break;
        }
        cudaGetLastError();
        cudaDeviceReset();
    }
    return 0;
}
