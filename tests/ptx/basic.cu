// basic.cu -- fixture for the PTX parser tests (see regen.sh).
// A kernel that exercises what nvcc emits for ordinary CUDA code: struct
// parameters, static/dynamic shared memory, a local depot (printf), direct
// and indirect calls (call sequences, prototypes), atomics, warp intrinsics,
// barriers with reductions, texture/surface objects, f16 inline asm, loops.
#include <cassert>
#include <cstdio>
#include <cuda_fp16.h>

struct S { int a; double b; char c[3]; };
__device__ int g_counter;
__device__ float g_tab[4] = {1.0f, 2.5f, -0.0f, 3e10f};
__constant__ int c_arr[3][2] = {{1, 2}, {3, 4}, {5, 6}};
__device__ int f1(int x) { return x * 3; }
__device__ int f2(int x) { return x + 7; }
__device__ int (*ftab[2])(int) = {f1, f2};
__device__ __noinline__ int callee(int a, S s) { return a + s.a + (int)s.b; }

__global__ void k(int *out, const float *in, S s, int n, double d,
                  cudaTextureObject_t tobj, cudaSurfaceObject_t sobj)
{
    extern __shared__ float dyn[];
    __shared__ int sh[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sh[threadIdx.x & 63] = i;
    __syncthreads();
    if (i < n) {
        float v = in[i];
        int r = ftab[i & 1](i);
        r += callee(i, s);
        out[i] = r + (int)(v * 2.0f) + sh[(i + 1) & 63] + c_arr[i % 3][i & 1];
        dyn[threadIdx.x] = v;
        atomicAdd(&g_counter, 1);
        atomicCAS((unsigned long long *)out, 1ull, 2ull);
        atomicMax(out + 1, 3);
        atomicAdd((double *)out, d);
        if (i == 0) printf("hello %d %f\n", i, d);
        unsigned m = __ballot_sync(0xffffffff, v > 0);
        int s2 = __shfl_down_sync(0xffffffff, r, 1);
        out[i + 1] = m + s2 + __popc(m) + __clzll(m) + __brev(m) + __ffs(m);
        __half h = __float2half(v);
        __half h2 = __hadd(h, h);
        out[i + 2] = __half2float(h2);
        out[i + 3] = __any_sync(0xffffffff, r) + __all_sync(0xffffffff, r);
        out[i + 4] = tex2D<float>(tobj, v, v);
        out[i + 5] = __match_any_sync(0xffffffff, r);
        int pred;
        out[i + 6] = __match_all_sync(0xffffffff, r, &pred) + pred;
        out[i + 8] = __syncthreads_count(v > 0) + __syncthreads_and(v > 1) + __syncthreads_or(v > 2);
        __syncwarp();
        __threadfence();
        __threadfence_block();
        __threadfence_system();
        out[i + 9] = __activemask();
        assert(v < 1e30f);
        __nanosleep(100);
        out[i + 10] = (long long)clock64() + __funnelshift_l(r, m, 3) + __funnelshift_rc(r, m, 4);
        out[i + 11] = __dp4a(r, (int)m, 3) + __sad(r, 1, 2) + __mul24(r, 5) + __umulhi(r, m);
        out[i + 12] = sqrt(d) + 1.0 / d + rsqrtf(v) + __expf(v) + sinf(v) + __fdividef(v, 3.0f);
        out[i + 13] = __float2int_rn(v) + __double2uint_rz(d) + (unsigned short)(v) + __float2ll_rd(v);
        float4 f4;
        surf2Dread(&f4, sobj, i * 16, 0);
        surf2Dwrite(f4, sobj, 0, i);
    }
}
