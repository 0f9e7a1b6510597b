// err.cu -- kernels for the error paths of tpsim's kernel suite: a store to
// an unmapped address, a misaligned store, a trap, and a trivial kernel for
// the launch-configuration checks.
// Compiled with: nvcc -ptx -arch=sm_75 -o err.ptx err.cu
#include <stdint.h>

// Stores through the pointer it is given (the host passes an address no
// allocation covers).
extern "C" __global__ void err_store(int *p, int v)
{
    p[threadIdx.x] = v;
}

// A 4-byte store at an address that is 2 mod 4.
extern "C" __global__ void err_misaligned(char *p, int v)
{
    *(volatile int *)(p + 2 + 4 * threadIdx.x) = v;
}

extern "C" __global__ void err_trap(int *p)
{
    if (threadIdx.x == 3) asm volatile("trap;");
    p[threadIdx.x] = 1;
}

extern "C" __global__ void err_ok(int *p)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = (int)(blockIdx.x * 1000 + threadIdx.x);
}
