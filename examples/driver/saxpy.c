/*
** saxpy.c -- the tpsim demo: a plain C program that uses NVIDIA's CUDA driver
** API (cuda.h), linked against tpsim's build/lib/libcuda.so.1 instead of
** NVIDIA's, so it runs on the simulator unchanged.
**
**   cc -I/usr/local/cuda/include saxpy.c -Lbuild/lib -lcuda -o saxpy
**   ./saxpy examples/driver/saxpy.ptx
*/
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        CUresult r_ = (call);                                                            \
        if (r_ != CUDA_SUCCESS) {                                                        \
            const char *name_ = "?";                                                     \
            cuGetErrorName(r_, &name_);                                                  \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, name_); \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

int main(int argc, char **argv)
{
    const char *ptx = argc > 1 ? argv[1] : "saxpy.ptx";
    int n = 1 << 20;
    float a = 2.5f;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.5f;
        y[i] = (float)(i % 7);
    }

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    char name[256];
    int major, minor, sms;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceGetName(name, sizeof name, dev));
    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    printf("device: %s, compute capability %d.%d, %d SMs\n", name, major, minor, sms);

    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    CHECK(cuModuleLoad(&mod, ptx));
    CHECK(cuModuleGetFunction(&fn, mod, "saxpy"));

    CUdeviceptr dx, dy;
    CHECK(cuMemAlloc(&dx, n * sizeof(float)));
    CHECK(cuMemAlloc(&dy, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dx, x, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dy, y, n * sizeof(float)));

    void *args[] = {&a, &dx, &dy, &n};
    unsigned block = 256, grid = (n + block - 1) / block;
    printf("launching saxpy<<<%u, %u>>> on %d elements\n", grid, block, n);
    CHECK(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, NULL, args, NULL));
    CHECK(cuCtxSynchronize());

    float *out = malloc(n * sizeof *out);
    CHECK(cuMemcpyDtoH(out, dy, n * sizeof(float)));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (out[i] != a * x[i] + y[i]) bad++;
    printf("y[1] = %g, y[2] = %g, y[%d] = %g\n", out[1], out[2], n - 1, out[n - 1]);
    printf("%s: %d of %d results differ from the CPU\n", bad ? "FAILED" : "ok", bad, n);

    CHECK(cuMemFree(dx));
    CHECK(cuMemFree(dy));
    CHECK(cuModuleUnload(mod));
    CHECK(cuCtxDestroy(ctx));
    free(x);
    free(y);
    free(out);
    return bad ? 1 : 0;
}
