// rdc.h -- what rdc_lib.cu exports to rdc_main.cu (relocatable device code).
#pragma once
extern __device__ int rdc_calls;
extern __constant__ float rdc_table[8];
extern __device__ int rdc_bias;
__device__ float rdc_scale(float x, int k);
__device__ int rdc_collatz_steps(unsigned v);
