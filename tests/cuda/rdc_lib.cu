// rdc_lib.cu -- the device library half of the rdc program (see
// rdc_main.cu): a device function, a __device__ counter and a __constant__
// table that rdc_main.cu uses through extern declarations.
#include "rdc.h"

__device__ int rdc_calls;           // how many times rdc_scale ran
__constant__ float rdc_table[8];    // set by the host through rdc_main.cu
__device__ int rdc_bias = 1000;     // initialized here, read from main

__device__ float rdc_scale(float x, int k) {
    atomicAdd(&rdc_calls, 1);
    return x * rdc_table[k & 7];
}

__device__ int rdc_collatz_steps(unsigned v) {  // recursion across the link
    if (v <= 1)
        return 0;
    return 1 + rdc_collatz_steps(v & 1 ? 3 * v + 1 : v / 2);
}
