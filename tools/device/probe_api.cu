/*
** probe_api.cu -- what a real GPU and NVIDIA's CUDA 13 runtime do where the
** tests of tests/cuda disagreed with them (docs/VALIDATION.md, "On a real
** GPU").  Built with -rdc=true -lcudadevrt; prints lines "probe NAME ...".
**   tex.impulse1d / tex.impulse2d  linear filtering of a one-texel impulse
**       (value 1, float cudaArray, clamp, unnormalized coordinates): the
**       weight the hardware gives texel (3) / (3,3) at each coordinate, in
**       steps of 1/64 texel, printed as weight * 65536.
**   tex.impulse3d  the same in 3D (8x8x8, texel (3,3,3)), steps of 1/16 texel.
**   tex.layer  tex2DLayered at layer indices outside 0..L-1 (3 layers whose
**       texels hold their layer number): the layer it reads.
**   cdp.depth  a chain of device launches N deep (argv[1], default 3000),
**       cudaLimitDevRuntimePendingLaunchCount set to argv[2] first when given:
**       the deepest level that ran and the error of the first launch that
**       failed.
**   cdp.pending  cudaLimitDevRuntimePendingLaunchCount read back after
**       setting it.
**   attr.reserved_shared  cudaDevAttrReservedSharedMemoryPerBlock.
**   graphmem  cudaGraphMemAttrUsedMemCurrent / ReservedMemCurrent of a graph
**       that allocates 4 KB and frees it: after a launch, after the
**       executable graph is destroyed, after cudaDeviceGraphMemTrim.
*/
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("probe error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void s1(float *out, cudaTextureObject_t t, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, x[i]);
}
__global__ void s2(float *out, cudaTextureObject_t t, const float2 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, q[i].x, q[i].y);
}
__global__ void s3(float *out, cudaTextureObject_t t, const float4 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, q[i].x, q[i].y, q[i].z);
}
__global__ void sl(float *out, cudaTextureObject_t t, const int *l, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLayered<float>(t, 0.5f, 0.5f, l[i]);
}
__global__ void chain(int *seen, int *err, int level, int max)
{
    seen[level] = level + 1;
    if (level + 1 < max) {
        chain<<<1, 1>>>(seen, err, level + 1, max);
        err[level] = (int)cudaGetLastError();
    }
}

static cudaTextureObject_t tex(cudaArray_t a)
{
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

int main(int argc, char **argv)
{
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    const int W = 8, K = 3 * 64 + 1;          /* coordinates 2.0 .. 5.0 */
    float *dx, *dout;
    CK(cudaMalloc(&dx, K * K * sizeof(float2)));
    CK(cudaMalloc(&dout, K * K * sizeof(float)));
    static float out[K * K];
    {   /* 1-D impulse */
        float h[W] = {0};
        h[3] = 1;
        cudaArray_t a;
        CK(cudaMallocArray(&a, &cd, W, 0));
        CK(cudaMemcpy2DToArray(a, 0, 0, h, sizeof h, sizeof h, 1, cudaMemcpyHostToDevice));
        float xs[K];
        for (int k = 0; k < K; k++) xs[k] = 2.0f + k / 64.0f;
        CK(cudaMemcpy(dx, xs, sizeof xs, cudaMemcpyHostToDevice));
        s1<<<(K + 127) / 128, 128>>>(dout, tex(a), dx, K);
        CK(cudaMemcpy(out, dout, K * sizeof(float), cudaMemcpyDeviceToHost));
        printf("probe tex.impulse1d");
        for (int k = 0; k < K; k++) printf(" %.1f", out[k] * 65536.0);
        printf("\n");
    }
    {   /* 2-D impulse */
        float h[W][W];
        memset(h, 0, sizeof h);
        h[3][3] = 1;
        cudaArray_t a;
        CK(cudaMallocArray(&a, &cd, W, W));
        CK(cudaMemcpy2DToArray(a, 0, 0, h, W * 4, W * 4, W, cudaMemcpyHostToDevice));
        static float2 q[K * K];
        for (int j = 0; j < K; j++)
            for (int k = 0; k < K; k++) q[j * K + k] = make_float2(2.0f + k / 64.0f, 2.0f + j / 64.0f);
        CK(cudaMemcpy(dx, q, sizeof q, cudaMemcpyHostToDevice));
        s2<<<(K * K + 127) / 128, 128>>>(dout, tex(a), (const float2 *)dx, K * K);
        CK(cudaMemcpy(out, dout, K * K * sizeof(float), cudaMemcpyDeviceToHost));
        for (int j = 0; j < K; j++) {
            printf("probe tex.impulse2d y=%d/64", 128 + j);
            for (int k = 0; k < K; k++) printf(" %.1f", out[j * K + k] * 65536.0);
            printf("\n");
        }
    }
    {   /* 3-D impulse */
        const int M = 3 * 16 + 1, N3 = M * M * M;
        static float h[W][W][W];
        h[3][3][3] = 1;
        cudaArray_t a;
        CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, W, W), 0));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(h, W * sizeof(float), W, W);
        p.dstArray = a;
        p.extent = make_cudaExtent(W, W, W);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        float4 *q = (float4 *)malloc(N3 * sizeof(float4)), *dq;
        float *o3 = (float *)malloc(N3 * sizeof(float)), *d3;
        for (int z = 0; z < M; z++)
            for (int y = 0; y < M; y++)
                for (int x = 0; x < M; x++)
                    q[(z * M + y) * M + x] = make_float4(2.0f + x / 16.0f, 2.0f + y / 16.0f, 2.0f + z / 16.0f, 0);
        CK(cudaMalloc(&dq, N3 * sizeof(float4)));
        CK(cudaMalloc(&d3, N3 * sizeof(float)));
        CK(cudaMemcpy(dq, q, N3 * sizeof(float4), cudaMemcpyHostToDevice));
        s3<<<(N3 + 127) / 128, 128>>>(d3, tex(a), dq, N3);
        CK(cudaMemcpy(o3, d3, N3 * sizeof(float), cudaMemcpyDeviceToHost));
        for (int z = 0; z < M; z++)
            for (int y = 0; y < M; y++) {
                printf("probe tex.impulse3d z=%d/16 y=%d/16", 32 + z, 32 + y);
                for (int x = 0; x < M; x++) printf(" %.1f", o3[(z * M + y) * M + x] * 65536.0 * 256.0);
                printf("\n");
            }
        free(q);
        free(o3);
    }
    {   /* layers out of range */
        const int L = 3;
        float h[L][2][2];
        for (int l = 0; l < L; l++)
            for (int i = 0; i < 4; i++) h[l][i / 2][i % 2] = (float)l;
        cudaArray_t a;
        CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(2, 2, L), cudaArrayLayered));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(h, 2 * sizeof(float), 2, 2);
        p.dstArray = a;
        p.extent = make_cudaExtent(2, 2, L);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        int ls[] = {-100000, -3, -2, -1, 0, 1, 2, 3, 4, 100, 65535, 65536, 65538, 1 << 30};
        int n = sizeof ls / sizeof ls[0];
        int *dl;
        CK(cudaMalloc(&dl, sizeof ls));
        CK(cudaMemcpy(dl, ls, sizeof ls, cudaMemcpyHostToDevice));
        sl<<<1, 32>>>(dout, tex(a), dl, n);
        CK(cudaMemcpy(out, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
        printf("probe tex.layer (3 layers)");
        for (int i = 0; i < n; i++) printf(" %d->%g", ls[i], out[i]);
        printf("\n");
    }
    {   /* CDP nesting depth */
        const int max = argc > 1 ? atoi(argv[1]) : 3000;
        if (argc > 2) CK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, (size_t)atoll(argv[2])));
        int *seen, *err, *hs = (int *)calloc(max, sizeof(int)), *he = (int *)calloc(max, sizeof(int));
        CK(cudaMalloc(&seen, max * sizeof(int)));
        CK(cudaMalloc(&err, max * sizeof(int)));
        CK(cudaMemset(seen, 0, max * sizeof(int)));
        CK(cudaMemset(err, 0, max * sizeof(int)));
        chain<<<1, 1>>>(seen, err, 0, max);
        cudaError_t e = cudaDeviceSynchronize();
        printf("probe cdp.sync %s\n", cudaGetErrorName(e));
        CK(cudaMemcpy(hs, seen, max * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(he, err, max * sizeof(int), cudaMemcpyDeviceToHost));
        int deep = 0, firsterr = -1;
        while (deep < max && hs[deep] == deep + 1) deep++;
        for (int k = 0; k < max; k++)
            if (he[k] != 0) { firsterr = k; break; }
        printf("probe cdp.depth chain %d pending_limit %s levels_ran %d first_failing_level %d error %d\n", max,
               argc > 2 ? argv[2] : "default", deep, firsterr, firsterr >= 0 ? he[firsterr] : 0);
        free(hs);
        free(he);
    }
    {
        size_t v[] = {1, 16, 31, 32, 33, 100, 2048, 5000};
        printf("probe cdp.pending");
        for (size_t s : v) {
            size_t r = 0;
            cudaError_t e = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, s);
            CK(cudaDeviceGetLimit(&r, cudaLimitDevRuntimePendingLaunchCount));
            printf(" %zu->%zu(%d)", s, r, (int)e);
        }
        printf("\n");
    }
    {
        cudaGraph_t g;
        CK(cudaGraphCreate(&g, 0));
        cudaMemAllocNodeParams ap = {};
        ap.poolProps.allocType = cudaMemAllocationTypePinned;
        ap.poolProps.location.type = cudaMemLocationTypeDevice;
        ap.poolProps.location.id = 0;
        ap.bytesize = 4096;
        cudaGraphNode_t na, nf;
        CK(cudaGraphAddMemAllocNode(&na, g, NULL, 0, &ap));
        CK(cudaGraphAddMemFreeNode(&nf, g, &na, 1, ap.dptr));
        cudaGraphExec_t x;
        CK(cudaGraphInstantiate(&x, g, 0));
        size_t u, rs;
        auto show = [&](const char *when) {
            CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &u));
            CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &rs));
            printf("probe graphmem %s used %zu reserved %zu\n", when, u, rs);
        };
        show("instantiated");
        CK(cudaGraphLaunch(x, 0));
        CK(cudaDeviceSynchronize());
        show("launched");
        CK(cudaGraphExecDestroy(x));
        show("exec_destroyed");
        CK(cudaDeviceGraphMemTrim(0));
        show("trimmed");
        CK(cudaGraphDestroy(g));
    }
    int r = 0;
    CK(cudaDeviceGetAttribute(&r, cudaDevAttrReservedSharedMemoryPerBlock, 0));
    printf("probe attr.reserved_shared %d\n", r);
    printf("probe done\n");
    return 0;
}
