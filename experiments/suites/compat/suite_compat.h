/* suite_compat.h -- what CUDA 13 removed that the public suites' programs
 * (experiments/suites.md) still use, so that they build unmodified with
 * nvcc 13: every source is compiled with `-include suite_compat.h`.
 * tpsim's own shim (the same ideas as tools/suite_ptx.sh's), not suite code.
 *   - cudaThreadSynchronize / cudaThreadExit / cudaThreadSetCacheConfig:
 *     the cudaDevice* calls that replaced them;
 *   - cudaDeviceProp fields gone in CUDA 13 (printed by host code only):
 *     read as `major` (not with -DSUITE_COMPAT_KEEP_PROPS: NVIDIA's
 *     samples, whose helper_cuda.h has variables of these names);
 *   - texture references (removed in CUDA 12): a file-scope
 *     `texture<T, dim, mode> name;` that nothing reads compiles (an inert
 *     host object: Parboil spmv declares one and reads x with plain loads);
 *     binding or fetching one (cudaBindTexture, tex1Dfetch: Rodinia kmeans)
 *     still does not build. */
#ifndef SUITE_COMPAT_H
#define SUITE_COMPAT_H
#ifdef __CUDACC__
#include <cuda_runtime.h>
#endif
#ifdef __cplusplus
#include <malloc.h>
#include <sys/time.h>
#endif
#ifdef __CUDACC__
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#define cudaThreadSetCacheConfig cudaDeviceSetCacheConfig
#ifndef SUITE_COMPAT_KEEP_PROPS /* NVIDIA's samples name these as variables */
#define clockRate major
#define memoryClockRate major
#define deviceOverlap major
#define computeMode major
#define kernelExecTimeoutEnabled major
#define maxTexture1DLinear major
#endif
#if defined(__cplusplus) && CUDART_VERSION >= 12000
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture {
    int normalized;
};
#endif
/* PolyBench-GPU's headers take their sizes from -D flags only when N is
 * defined; N is also a parameter name in CUDA's headers, so it is defined
 * here, after them, from -DSUITE_PB_N=VALUE. */
#ifdef SUITE_PB_N
#include <cuda.h>
#define N SUITE_PB_N
#endif
#endif
#endif
