// dynshared.cu -- dynamic shared memory: <<<grid, block, bytes>>>.
//
// Covers: extern __shared__ arrays sized at launch (several sizes for the
// same kernel), one extern buffer carved into an int array and a double
// array (alignment), static and dynamic shared memory in the same kernel,
// a templated kernel whose extern buffer is viewed as T, a launch on a
// stream with dynamic shared memory, cudaFuncSetAttribute's
// cudaFuncAttributeMaxDynamicSharedMemorySize (within 48 KiB), and
// cudaFuncGetAttributes' sharedSizeBytes for the static part.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "check.h"

// Reverses each block's slice of d[] through shared memory; the slice is
// blockDim.x elements and the buffer is sized by the launch.
__global__ void reverse_block(int *d, int n) {
    extern __shared__ int s[];
    int base = blockIdx.x * blockDim.x, t = threadIdx.x;
    if (base + t < n)
        s[t] = d[base + t];
    __syncthreads();
    int len = min((int)blockDim.x, n - base);
    if (t < len)
        d[base + t] = s[len - 1 - t];
}

// One extern buffer holding nint ints then ndbl doubles (8-aligned).
// Thread t: ints[t] = t*t, dbls[t] = t/4; then out[t] = ints[nint-1-t] +
// dbls[ndbl-1-t] for t below both.
__global__ void carve(double *out, int nint, int ndbl) {
    extern __shared__ unsigned char raw[];
    int *ints = (int *)raw;
    size_t off = ((size_t)nint * sizeof(int) + 7) & ~(size_t)7;
    double *dbls = (double *)(raw + off);
    int t = threadIdx.x;
    if (t < nint)
        ints[t] = t * t;
    if (t < ndbl)
        dbls[t] = t / 4.0;
    __syncthreads();
    if (t < nint && t < ndbl)
        out[t] = ints[nint - 1 - t] + dbls[ndbl - 1 - t];
}

// Static and dynamic shared memory together: stat[] holds per-warp sums,
// dyn[] the block's inputs; out[block] = sum of inputs * number of warps.
__global__ void mixed(int *out, const int *in) {
    __shared__ int stat[32];
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    dyn[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t % 32 == 0) {
        int s = 0;
        for (int k = 0; k < (int)blockDim.x; k++)
            s += dyn[k];
        stat[t / 32] = s;
    }
    __syncthreads();
    if (t == 0) {
        int s = 0;
        for (int w = 0; w < (int)(blockDim.x + 31) / 32; w++)
            s += stat[w];
        out[blockIdx.x] = s;
    }
}

template <typename T>
__global__ void shift_sum(T *out, const T *in, int k) {
    extern __shared__ unsigned char raw_t[];
    T *s = reinterpret_cast<T *>(raw_t);
    int t = threadIdx.x, nt = blockDim.x;
    s[t] = in[blockIdx.x * nt + t];
    __syncthreads();
    out[blockIdx.x * nt + t] = s[t] + s[(t + k) % nt];
}

// A big dynamic buffer: bytes/4 words, each thread strides through them;
// each block writes its own part of out.
__global__ void big_buffer(unsigned *out, int words) {
    extern __shared__ unsigned w[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        w[i] = (unsigned)i * 2654435761u;
    __syncthreads();
    unsigned x = 0;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        x ^= w[words - 1 - i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int main() {
    ck_start("dynshared");
    int bad = 0;

    // reverse_block with three block sizes (dynamic size = block * 4 bytes).
    const int n = 1000;
    std::vector<int> h(n), got(n);
    int *d;
    CK(cudaMalloc(&d, n * sizeof(int)));
    for (int bs : {32, 100, 256}) {
        for (int i = 0; i < n; i++)
            h[i] = i * 7 + 1;
        CK(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        reverse_block<<<(n + bs - 1) / bs, bs, bs * sizeof(int)>>>(d, n);
        CK_LAUNCH();
        CK(cudaMemcpy(got.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            int base = i / bs * bs, len = std::min(bs, n - base);
            int want = h[base + len - 1 - (i - base)];
            if (got[i] != want && bad++ < 3)
                EXPECT(false, "reverse_block(%d): d[%d] = %d, expected %d", bs, i, got[i], want);
        }
    }
    printf("reverse_block with 128, 400, 1024 bytes: %s\n", bad ? "wrong" : "ok");

    // carve: 37 ints (148 bytes, padded to 152) then 50 doubles.
    {
        const int nint = 37, ndbl = 50;
        size_t bytes = ((nint * sizeof(int) + 7) & ~(size_t)7) + ndbl * sizeof(double);
        double *d_out, out[64];
        CK(cudaMalloc(&d_out, sizeof out));
        CK(cudaMemset(d_out, 0, sizeof out));
        carve<<<1, 64, bytes>>>(d_out, nint, ndbl);
        CK_LAUNCH();
        CK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
        for (int t = 0; t < 64; t++) {
            double want = t < nint ? (double)((nint - 1 - t) * (nint - 1 - t)) + (ndbl - 1 - t) / 4.0 : 0.0;
            EXPECT(out[t] == want, "carve out[%d] = %g, expected %g", t, out[t], want);
        }
        CK(cudaFree(d_out));
    }

    // mixed static + dynamic; cudaFuncGetAttributes reports the static part.
    {
        cudaFuncAttributes fa;
        CK(cudaFuncGetAttributes(&fa, mixed));
        EXPECT(fa.sharedSizeBytes == 32 * sizeof(int), "mixed: sharedSizeBytes = %zu, expected 128",
               fa.sharedSizeBytes);
        const int blocks = 6, bs = 96;
        std::vector<int> in(blocks * bs);
        for (int i = 0; i < blocks * bs; i++)
            in[i] = (i % 13) - 6 + i / 50;
        int *d_in, *d_out, out[blocks];
        CK(cudaMalloc(&d_in, in.size() * sizeof(int)));
        CK(cudaMalloc(&d_out, sizeof out));
        CK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
        mixed<<<blocks, bs, bs * sizeof(int)>>>(d_out, d_in);
        CK_LAUNCH();
        CK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++) {
            int s = 0;
            for (int t = 0; t < bs; t++)
                s += in[b * bs + t];
            EXPECT(out[b] == s * 3, "mixed: block %d = %d, expected %d", b, out[b], s * 3);
        }
        CK(cudaFree(d_in));
        CK(cudaFree(d_out));
    }

    // Templated views of the same extern buffer, on a stream.
    {
        cudaStream_t st;
        CK(cudaStreamCreate(&st));
        const int blocks = 3, bs = 64;
        std::vector<double> hd(blocks * bs), gd(blocks * bs);
        std::vector<short> hs(blocks * bs), gs(blocks * bs);
        for (int i = 0; i < blocks * bs; i++) {
            hd[i] = i * 0.125;
            hs[i] = (short)(i * 3 - 200);
        }
        double *dd_in, *dd_out;
        short *ds_in, *ds_out;
        CK(cudaMalloc(&dd_in, hd.size() * sizeof(double)));
        CK(cudaMalloc(&dd_out, hd.size() * sizeof(double)));
        CK(cudaMalloc(&ds_in, hs.size() * sizeof(short)));
        CK(cudaMalloc(&ds_out, hs.size() * sizeof(short)));
        CK(cudaMemcpyAsync(dd_in, hd.data(), hd.size() * sizeof(double), cudaMemcpyHostToDevice, st));
        CK(cudaMemcpyAsync(ds_in, hs.data(), hs.size() * sizeof(short), cudaMemcpyHostToDevice, st));
        shift_sum<double><<<blocks, bs, bs * sizeof(double), st>>>(dd_out, dd_in, 5);
        CK_LAUNCH();
        shift_sum<short><<<blocks, bs, bs * sizeof(short), st>>>(ds_out, ds_in, 60);
        CK_LAUNCH();
        CK(cudaMemcpyAsync(gd.data(), dd_out, gd.size() * sizeof(double), cudaMemcpyDeviceToHost, st));
        CK(cudaMemcpyAsync(gs.data(), ds_out, gs.size() * sizeof(short), cudaMemcpyDeviceToHost, st));
        CK(cudaStreamSynchronize(st));
        for (int i = 0; i < blocks * bs; i++) {
            int b = i / bs, t = i % bs;
            double wd = hd[i] + hd[b * bs + (t + 5) % bs];
            short ws = (short)(hs[i] + hs[b * bs + (t + 60) % bs]);
            if ((gd[i] != wd || gs[i] != ws) && bad++ < 3)
                EXPECT(false, "shift_sum[%d]: %g %d, expected %g %d", i, gd[i], gs[i], wd, ws);
        }
        CK(cudaFree(dd_in));
        CK(cudaFree(dd_out));
        CK(cudaFree(ds_in));
        CK(cudaFree(ds_out));
        CK(cudaStreamDestroy(st));
    }

    // 40000 bytes of dynamic shared memory, after raising the kernel's limit
    // (at most 48 KiB needs no opt-in; setting it must still be accepted).
    {
        const int bytes = 40000, words = bytes / 4, bs = 128;
        CK(cudaFuncSetAttribute(big_buffer, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        unsigned *d_out, out[2 * bs];
        CK(cudaMalloc(&d_out, sizeof out));
        big_buffer<<<2, bs, bytes>>>(d_out, words);
        CK_LAUNCH();
        CK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
        for (int t = 0; t < 2 * bs; t++) {
            unsigned x = 0;
            for (int i = t % bs; i < words; i += bs)
                x ^= (unsigned)(words - 1 - i) * 2654435761u;
            EXPECT(out[t] == x, "big_buffer out[%d] = %08x, expected %08x", t, out[t], x);
        }
        CK(cudaFree(d_out));
    }

    CK(cudaFree(d));
    return ck_finish();
}
