// cdp.cu -- dynamic parallelism (CDP2, as CUDA 12 and later define it),
// built with -rdc=true -lcudadevrt: kernels launching kernels.
//
// Checked against CUDA's rules, which hold on any GPU:
//   - launches from one thread into one stream (the default stream, or a
//     created cudaStreamNonBlocking one) run in order, so a child sees what
//     the children launched before it wrote;
//   - a child grid completes before its parent does, so the host sees every
//     descendant's work after cudaDeviceSynchronize;
//   - a cudaStreamTailLaunch grid starts after its parent grid and all the
//     parent's other launches have completed, so it sees all their writes,
//     including the parent's own writes made after the tail launch;
//   - cudaStreamFireAndForget grids run (completion with the parent);
//   - a quicksort whose parts are sorted by children in their own streams
//     (the shape of NVIDIA's cdpSimpleQuicksort) sorts;
//   - a device launch with an impossible block returns
//     cudaErrorInvalidConfiguration, which cudaGetLastError reports (once);
//   - nesting deeper than the device allows, if it has a limit, fails with
//     cudaErrorLaunchMaxDepthExceeded (the guide's 24 levels are not
//     enforced by CUDA 13: an H200 ran a chain of 5000 -- tools/device/);
//   - more pending launches than cudaLimitDevRuntimePendingLaunchCount may
//     fail with cudaErrorLaunchPendingCountExceeded, and a limit set below
//     32 reads back as 32 (an H200, again).
// The program prints how deep the recursion went and how many of the
// pending launches were accepted; run_cuda.sh checks tpsim's numbers.
#include "check.h"
#include <algorithm>
#include <cstring>
#include <vector>

static const char *NAME = "cdp";

// ---- ordering within a stream ----
__global__ void fill(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = v + i;
}

__global__ void twice(const int *a, int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = 2 * a[i];
}

// each block: fill its slice, then double it, in the default stream and in
// a created stream; the launches of one thread are ordered
__global__ void ordered(int *a, int *b, int *c, int *d, int n, int *err)
{
    if (threadIdx.x != 0) return;
    int off = blockIdx.x * n;
    fill<<<(n + 63) / 64, 64>>>(a + off, n, 1000 * blockIdx.x);
    twice<<<(n + 63) / 64, 64>>>(a + off, b + off, n);
    cudaStream_t s;
    int e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    fill<<<(n + 31) / 32, 32, 0, s>>>(c + off, n, 7 * blockIdx.x);
    twice<<<(n + 31) / 32, 32, 0, s>>>(c + off, d + off, n);
    if (!e) e = cudaStreamDestroy(s);
    if (!e) e = cudaGetLastError();
    err[blockIdx.x] = e;
}

// ---- tail launch ----
__global__ void sum_into(const int *a, int n, int *out)
{
    // one block: a tree sum in shared memory
    __shared__ int sh[256];
    int t = threadIdx.x, acc = 0;
    for (int i = t; i < n; i += blockDim.x) acc += a[i];
    sh[t] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) sh[t] += sh[t + s];
        __syncthreads();
    }
    if (t == 0) *out = sh[0];
}

__global__ void with_tail(int *a, int n, int *out, int *err)
{
    int t = threadIdx.x;
    if (t == 0) {
        fill<<<(n + 127) / 128, 128>>>(a, n, 1);                       // a[i] = 1 + i
        sum_into<<<1, 256, 0, cudaStreamTailLaunch>>>(a, n + 1, out);   // after everything
        *err = cudaGetLastError();
    }
    if (t == 0) a[n] = 100000;   // the parent writes after the tail launch: the tail sees it
}

// ---- fire and forget ----
__global__ void fire(int *a, int n)
{
    if (threadIdx.x < 4) {
        int part = n / 4;
        fill<<<(part + 63) / 64, 64, 0, cudaStreamFireAndForget>>>(a + threadIdx.x * part, part, threadIdx.x * 10000);
    }
}

// ---- recursion and the nesting limit ----
__global__ void recurse(int *level_seen, int *level_err, int depth, int max)
{
    level_seen[depth] = depth + 1;
    if (depth + 1 < max) {
        recurse<<<1, 1>>>(level_seen, level_err, depth + 1, max);
        level_err[depth] = cudaGetLastError();
    }
}

// ---- errors ----
__global__ void bad_config(int *a, int *err)
{
    fill<<<1, 2048>>>(a, 1, 5);          // more threads per block than any GPU has
    err[0] = cudaPeekAtLastError();
    err[1] = cudaGetLastError();
    err[2] = cudaGetLastError();          // reset by the previous call
    fill<<<1, 1>>>(a, 1, 5);              // fine
    err[3] = cudaGetLastError();
}

__global__ void many(int *hits, int n, int *err)
{
    for (int i = 0; i < n; i++) {
        fill<<<1, 1, 0, cudaStreamFireAndForget>>>(hits + i, 1, 1);
        err[i] = cudaGetLastError();
    }
}

// ---- quicksort: partition, then each part sorted by a child in its own stream ----
__device__ void selection_sort(unsigned *a, int lo, int hi)
{
    for (int i = lo; i <= hi; i++) {
        int m = i;
        for (int j = i + 1; j <= hi; j++)
            if (a[j] < a[m]) m = j;
        unsigned t = a[i];
        a[i] = a[m];
        a[m] = t;
    }
}

// a part whose launch fails (too deep for the device) is sorted here
__global__ void quicksort(unsigned *a, int lo, int hi, int depth)
{
    if (hi - lo < 16 || depth >= 20) {   // small or deep: selection sort
        selection_sort(a, lo, hi);
        return;
    }
    unsigned pivot = a[(lo + hi) / 2];
    int l = lo, r = hi;
    while (l <= r) {
        while (a[l] < pivot) l++;
        while (a[r] > pivot) r--;
        if (l <= r) {
            unsigned t = a[l];
            a[l++] = a[r];
            a[r--] = t;
        }
    }
    if (lo < r) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(a, lo, r, depth + 1);
        if (cudaGetLastError() != cudaSuccess) selection_sort(a, lo, r);
        cudaStreamDestroy(s);
    }
    if (l < hi) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(a, l, hi, depth + 1);
        if (cudaGetLastError() != cudaSuccess) selection_sort(a, l, hi);
        cudaStreamDestroy(s);
    }
}

// ---- device attributes seen from device code ----
__global__ void attrs(int *out)
{
    out[0] = cudaDeviceGetAttribute(&out[1], cudaDevAttrMaxThreadsPerBlock, 0);
    out[2] = cudaDeviceGetAttribute(&out[3], cudaDevAttrMultiProcessorCount, 0);
    out[4] = cudaDeviceGetAttribute(&out[5], cudaDevAttrMaxThreadsPerBlock, 7);   // no device 7
    out[6] = cudaGetLastError();
}

// ---- device-side malloc through the runtime, and a child's printf ----
__global__ void child_print(int v) { printf("child %d\n", v); }
__global__ void use_malloc(int *out, int *err)
{
    int *p = nullptr;
    int e = cudaMalloc(&p, 16 * sizeof(int));
    if (!e) {
        for (int i = 0; i < 16; i++) p[i] = i * i;
        int s = 0;
        for (int i = 0; i < 16; i++) s += p[i];
        *out = s;
        e = cudaFree(p);
    }
    child_print<<<1, 1>>>(42);
    *err = e;
}

int main()
{
    ck_start(NAME);

    {   // ordering
        const int nb = 3, n = 150;
        int *a, *b, *c, *d, *err;
        CK(cudaMalloc(&a, nb * n * sizeof(int)));
        CK(cudaMalloc(&b, nb * n * sizeof(int)));
        CK(cudaMalloc(&c, nb * n * sizeof(int)));
        CK(cudaMalloc(&d, nb * n * sizeof(int)));
        CK(cudaMalloc(&err, nb * sizeof(int)));
        ordered<<<nb, 32>>>(a, b, c, d, n, err);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        std::vector<int> hb(nb * n), hd(nb * n), he(nb);
        CK(cudaMemcpy(hb.data(), b, hb.size() * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hd.data(), d, hd.size() * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(he.data(), err, nb * sizeof(int), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int k = 0; k < nb; k++) {
            EXPECT(he[k] == 0, "block %d: device runtime error %d", k, he[k]);
            for (int i = 0; i < n; i++) {
                if (hb[k * n + i] != 2 * (1000 * k + i) && bad++ < 3)
                    EXPECT(false, "default stream: b[%d][%d] = %d, expected %d", k, i, hb[k * n + i], 2 * (1000 * k + i));
                if (hd[k * n + i] != 2 * (7 * k + i) && bad++ < 3)
                    EXPECT(false, "created stream: d[%d][%d] = %d, expected %d", k, i, hd[k * n + i], 2 * (7 * k + i));
            }
        }
        printf("%-52s %s\n", "children in stream order (default, created stream)", bad ? "wrong" : "ok");
        CK(cudaFree(a));
        CK(cudaFree(b));
        CK(cudaFree(c));
        CK(cudaFree(d));
        CK(cudaFree(err));
    }

    {   // tail launch
        const int n = 1000;
        int *a, *out, *err;
        CK(cudaMalloc(&a, (n + 1) * sizeof(int)));
        CK(cudaMalloc(&out, sizeof(int)));
        CK(cudaMalloc(&err, sizeof(int)));
        CK(cudaMemset(a, 0, (n + 1) * sizeof(int)));
        with_tail<<<1, 64>>>(a, n, out, err);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        int hout, herr;
        CK(cudaMemcpy(&hout, out, sizeof hout, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&herr, err, sizeof herr, cudaMemcpyDeviceToHost));
        int want = 100000 + n * (n + 1) / 2;
        EXPECT(herr == 0 && hout == want, "tail launch: sum %d (error %d), expected %d", hout, herr, want);
        printf("%-52s %s\n", "tail launch sees the child's and the parent's writes", hout == want ? "ok" : "wrong");
        CK(cudaFree(a));
        CK(cudaFree(out));
        CK(cudaFree(err));
    }

    {   // fire and forget
        const int n = 400;
        int *a;
        CK(cudaMalloc(&a, n * sizeof(int)));
        CK(cudaMemset(a, 0xff, n * sizeof(int)));
        fire<<<1, 32>>>(a, n);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        std::vector<int> h(n);
        CK(cudaMemcpy(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int i = 0; i < n; i++)
            if (h[i] != (i / 100) * 10000 + i % 100 && bad++ < 3) EXPECT(false, "fire-and-forget: a[%d] = %d", i, h[i]);
        printf("%-52s %s\n", "fire-and-forget children ran", bad ? "wrong" : "ok");
        CK(cudaFree(a));
    }

    {   // recursion to the nesting limit
        const int max = 40;
        int *seen, *err;
        CK(cudaMalloc(&seen, max * sizeof(int)));
        CK(cudaMalloc(&err, max * sizeof(int)));
        CK(cudaMemset(seen, 0, max * sizeof(int)));
        CK(cudaMemset(err, 0, max * sizeof(int)));
        recurse<<<1, 1>>>(seen, err, 0, max);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        std::vector<int> hs(max), he(max);
        CK(cudaMemcpy(hs.data(), seen, max * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(he.data(), err, max * sizeof(int), cudaMemcpyDeviceToHost));
        int deepest = 0;
        while (deepest < max && hs[deepest] == deepest + 1) deepest++;
        // Either every level ran (no limit met: an H200 with CUDA 13 ran a
        // chain 200 deep), or levels 0 .. deepest-1 ran and the last of them
        // could not launch (tpsim at a smaller exec.cdp_max_depth).
        if (deepest == max) {
            for (int k = 0; k + 1 < max; k++) EXPECT(he[k] == 0, "level %d: launch error %d", k, he[k]);
            printf("depth: %d levels ran, no launch failed\n", deepest);
        } else {
            EXPECT(deepest >= 2, "recursion ran %d levels", deepest);
            for (int k = 0; k + 1 < deepest; k++)
                EXPECT(he[k] == 0, "level %d: launch error %d", k, he[k]);
            EXPECT(he[deepest - 1] == cudaErrorLaunchMaxDepthExceeded,
                   "level %d: error %d, expected cudaErrorLaunchMaxDepthExceeded", deepest - 1, he[deepest - 1]);
            for (int k = deepest; k < max; k++) EXPECT(hs[k] == 0, "level %d ran past the limit", k);
            printf("depth: %d levels ran, the launch from level %d failed with cudaErrorLaunchMaxDepthExceeded\n",
                   deepest, deepest - 1);
        }
        CK(cudaFree(seen));
        CK(cudaFree(err));
    }

    {   // errors: configuration, pending launches
        int *a, *err;
        CK(cudaMalloc(&a, sizeof(int)));
        CK(cudaMalloc(&err, 4 * sizeof(int)));
        CK(cudaMemset(a, 0, sizeof(int)));
        bad_config<<<1, 1>>>(a, err);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        int he[4], ha;
        CK(cudaMemcpy(he, err, sizeof he, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&ha, a, sizeof ha, cudaMemcpyDeviceToHost));
        EXPECT(he[0] == cudaErrorInvalidConfiguration && he[1] == cudaErrorInvalidConfiguration && he[2] == 0 &&
                   he[3] == 0 && ha == 5,
               "device launch of 2048 threads: peek %d, get %d, then %d, then %d; a = %d", he[0], he[1], he[2], he[3],
               ha);
        printf("%-52s %s\n", "device launch of 2048 threads: cudaErrorInvalidConfiguration",
               he[1] == cudaErrorInvalidConfiguration ? "ok" : "wrong");

        const int n = 40, limit = 16;
        size_t old;
        CK(cudaDeviceGetLimit(&old, cudaLimitDevRuntimePendingLaunchCount));
        CK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, limit));
        size_t now;
        CK(cudaDeviceGetLimit(&now, cudaLimitDevRuntimePendingLaunchCount));
        // a limit below 32 reads back as 32 (a real GPU's driver: an H200)
        EXPECT(now == 32, "cudaLimitDevRuntimePendingLaunchCount reads %zu after setting %d", now, limit);
        int *hits, *errs;
        CK(cudaMalloc(&hits, n * sizeof(int)));
        CK(cudaMalloc(&errs, n * sizeof(int)));
        CK(cudaMemset(hits, 0, n * sizeof(int)));
        many<<<1, 1>>>(hits, n, errs);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        std::vector<int> hh(n), hr(n);
        CK(cudaMemcpy(hh.data(), hits, n * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hr.data(), errs, n * sizeof(int), cudaMemcpyDeviceToHost));
        int accepted = 0;
        for (int i = 0; i < n; i++) {
            EXPECT(hr[i] == 0 || hr[i] == cudaErrorLaunchPendingCountExceeded, "launch %d: error %d", i, hr[i]);
            EXPECT(hh[i] == (hr[i] == 0 ? 1 : 0), "launch %d: error %d but ran %d", i, hr[i], hh[i]);
            accepted += hr[i] == 0;
        }
        EXPECT(accepted >= (int)now, "only %d of %d launches accepted with a limit of %zu", accepted, n, now);
        printf("pending: %d of %d launches accepted with a limit of %zu\n", accepted, n, now);
        CK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, old));
        CK(cudaFree(a));
        CK(cudaFree(err));
        CK(cudaFree(hits));
        CK(cudaFree(errs));
    }

    {   // quicksort
        const int n = 3000;
        std::vector<unsigned> h(n);
        unsigned x = 12345;
        for (int i = 0; i < n; i++) {
            x = x * 1664525u + 1013904223u;
            h[i] = x >> 8;
        }
        unsigned *d;
        CK(cudaMalloc(&d, n * sizeof(unsigned)));
        CK(cudaMemcpy(d, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
        quicksort<<<1, 1>>>(d, 0, n - 1, 0);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        std::vector<unsigned> got(n);
        CK(cudaMemcpy(got.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::sort(h.begin(), h.end());
        EXPECT(got == h, "quicksort: the result is not the sorted input");
        printf("%-52s %s\n", "quicksort with a child per part", got == h ? "ok" : "wrong");
        CK(cudaFree(d));
    }

    {   // device attributes
        int *d, h[7], tpb, sms;
        CK(cudaMalloc(&d, sizeof h));
        CK(cudaMemset(d, 0, sizeof h));
        attrs<<<1, 1>>>(d);
        CK_LAUNCH();
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        CK(cudaDeviceGetAttribute(&tpb, cudaDevAttrMaxThreadsPerBlock, 0));
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        EXPECT(h[0] == 0 && h[1] == tpb && h[2] == 0 && h[3] == sms,
               "device cudaDeviceGetAttribute: %d/%d threads per block, %d/%d SMs (host: %d, %d)", h[0], h[1], h[2],
               h[3], tpb, sms);
        EXPECT(h[4] == cudaErrorInvalidDevice && h[6] == cudaErrorInvalidDevice,
               "device cudaDeviceGetAttribute of device 7: %d, last error %d", h[4], h[6]);
        printf("%-52s %s\n", "device cudaDeviceGetAttribute", h[1] == tpb && h[3] == sms ? "ok" : "wrong");
        CK(cudaFree(d));
    }

    {   // device cudaMalloc/cudaFree, a child's printf
        int *out, *err;
        CK(cudaMalloc(&out, sizeof(int)));
        CK(cudaMalloc(&err, sizeof(int)));
        use_malloc<<<1, 1>>>(out, err);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        int ho, he;
        CK(cudaMemcpy(&ho, out, sizeof ho, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&he, err, sizeof he, cudaMemcpyDeviceToHost));
        EXPECT(he == 0 && ho == 1240, "device cudaMalloc: sum %d, error %d", ho, he);
        printf("%-52s %s\n", "device cudaMalloc / cudaFree", ho == 1240 ? "ok" : "wrong");
        CK(cudaFree(out));
        CK(cudaFree(err));
    }
    return ck_finish();
}
