// devprintf.cu -- device printf from several kernels.
//
// Covers: printf from every thread of a multi-block grid, from a loop, from
// a __device__ function in a divergent branch, from more than one warp of a
// block on a non-default stream, with strings in global memory, in constant
// memory and literals, with twelve arguments, and the usual conversions and
// flags.  The output is flushed at synchronization points.  The lines this
// program prints that begin with "dev " are compared, sorted, with
// devprintf.expected by run_cuda.sh (the order of lines from different
// threads is not specified by CUDA).
#include "check.h"

__device__ char d_word[8];
__constant__ char c_msg[] = "from constant memory";

__global__ void hello() {
    printf("dev hello block %d thread %d of %dx%d\n", (int)blockIdx.x, (int)threadIdx.x, (int)gridDim.x,
           (int)blockDim.x);
}

__global__ void formats(int i, unsigned u, long long ll, double d, float f) {
    printf("dev ints %d %u %x %X %o %lld %llu\n", i, u, 255u, 0xbeefu, 64u, ll, 18446744073709551615ULL);
    printf("dev floats %f %.2f %e %.3e %g %g %g\n", d, 2.5, 1234.5, 0.000123456, 100000.0, 1000000.0, 0.0001);
    printf("dev misc [%5d] [%-5d] [%05d] [%+d] [%s] [%c] [%%] [%.3s] [%8.3f] [%f]\n", 42, 42, 42, 42, d_word,
           'Z', d_word, -2.5, f);
    printf("dev %s\n", c_msg);
    printf("dev %s and %s\n", "literal", d_word);
    printf("dev twelve %d %d %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
}

__global__ void loop() {
    for (int i = 0; i < 5; i++)
        printf("dev loop %d squared %d\n", i, i * i);
}

__device__ void report(int id, float v) { printf("dev odd %d %.1f\n", id, v); }

__global__ void divergent() {
    int t = threadIdx.x;
    if (t & 1)
        report(t, t * 0.5f);
    else
        printf("dev even %d\n", t);
}

__global__ void many() { printf("dev many %d.%02d\n", (int)blockIdx.x, (int)threadIdx.x); }

int main() {
    ck_start("devprintf");
    const char word[8] = "cuda";
    CK(cudaMemcpyToSymbol(d_word, word, sizeof word));
    printf("host: launching\n");
    hello<<<2, 3>>>();
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    formats<<<1, 1>>>(-7, 3000000000u, -9876543210LL, 3.14159, 0.1f);
    CK_LAUNCH();
    loop<<<1, 1>>>();
    CK_LAUNCH();
    divergent<<<1, 8>>>();
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    many<<<2, 40, 0, s>>>();
    CK_LAUNCH();
    CK(cudaStreamSynchronize(s));
    CK(cudaStreamDestroy(s));
    CK(cudaDeviceSynchronize());
    printf("host: done\n");
    return ck_finish();
}
