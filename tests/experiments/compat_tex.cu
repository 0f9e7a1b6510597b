// compat_tex.cu -- tests/experiments/run_suite_compat.sh's program: what
// experiments/suites/compat/suite_compat.h's -DSUITE_COMPAT_MANAGED_TEX
// gives the suites' old code (Rodinia kmeans): three texture references of
// one type declared in one file, each bound to its own array and read by one
// kernel, and a __constant__ array copied by its name (a string); a name
// that no variable has is refused.  Prints "compat_tex: ok" when every value
// read is the one bound or copied.
#include <stdio.h>

texture<float, 1, cudaReadModeElementType> t_a;
texture<float, 1, cudaReadModeElementType> t_b;
texture<float, 1, cudaReadModeElementType> t_c;
__constant__ float c_k[4];

__global__ void k(float *out)
{
    int i = threadIdx.x;
    out[i] = tex1Dfetch(t_a, i) + 10 * tex1Dfetch(t_b, i) + 100 * tex1Dfetch(t_c, i) + c_k[i % 4];
}

int main()
{
    float h[32], *d[3], *o;
    for (int t = 0; t < 3; t++) {
        for (int i = 0; i < 32; i++) h[i] = (float)(t + 1);
        cudaMalloc(&d[t], sizeof h);
        cudaMemcpy(d[t], h, sizeof h, cudaMemcpyHostToDevice);
    }
    cudaMalloc(&o, sizeof h);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    int bad = 0;
    bad += cudaBindTexture(NULL, &t_a, d[0], &desc, sizeof h) != cudaSuccess;
    bad += cudaBindTexture(NULL, &t_b, d[1], &desc, sizeof h) != cudaSuccess;
    bad += cudaBindTexture(NULL, &t_c, d[2], &desc, sizeof h) != cudaSuccess;
    float kk[4] = {1000, 2000, 3000, 4000};
    bad += cudaMemcpyToSymbol("c_k", kk, sizeof kk, 0, cudaMemcpyHostToDevice) != cudaSuccess;
    bad += cudaMemcpyToSymbol("no_such_symbol", kk, sizeof kk, 0, cudaMemcpyHostToDevice) != cudaErrorInvalidSymbol;
    k<<<1, 32>>>(o);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++) bad += h[i] != 1 + 20 + 300 + kk[i % 4];
    cudaUnbindTexture(&t_a);
    printf("compat_tex: %s\n", bad ? "WRONG" : "ok");
    return bad != 0;
}
