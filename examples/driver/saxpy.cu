// saxpy.cu -- the kernel of the driver-API demo (examples/driver/saxpy.c).
// Regenerate saxpy.ptx with: nvcc -ptx -arch=sm_75 -o saxpy.ptx saxpy.cu
#include <cstdio>

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
    if (i == 0) printf("hello from thread %d of block %d: y[0] = %g\n", threadIdx.x, blockIdx.x, y[0]);
}
