// side_ubench.cu -- component tests for experiments/side/ubench.sh: each
// test is one kernel that does one thing many times, so that the cycles
// two runs of different sizes take differ by (size difference) x (what one
// unit of that thing costs), in tpsim and in GPGPU-Sim 4.2 alike (issue 21:
// "find the component responsible with a small test that isolates it").
// The chains are written in inline PTX so that both simulators see exactly
// the instructions named (nvcc neither removes nor reorders them).
//
//   side_ubench TEST N     runs TEST once at size N; prints
//                          "side_ubench: TEST N ok" when its result is right
//
// Tests (one CTA unless said; ubench.sh runs them at 1 CTA per SM):
//   add      one warp: N x 8 dependent add.s32               unit: an add
//   fma      one warp: N x 8 dependent fma.rn.f32            unit: an fma
//   max      one warp: N x 8 dependent max.s32               unit: a max
//   shld     one warp: N x 8 dependent ld.shared.u32 (a chase, every lane on one word)
//   l1ld     one warp: N x 8 dependent ld.global.u64 in one 128-byte line (L1 hits)
//   l2ld     one warp: N x 8 dependent ld.global.u64 over 64 KB at a 128-byte stride,
//            more lines than the L1 holds (L1 misses, L2 hits after the first lap)
//   bar      256 threads: N x 8 bar.sync                      unit: a barrier
//   div      256 threads: N x 8 independent div.rn.f32         unit: a loop of
//            the 8 warps' 64 divisions (their throughput: the pipes they run on)
//   cta      N CTAs of 32 threads that each add one number    unit: a CTA (turnover)
//   ctast    as cta, and each thread stores its number         unit: a CTA whose warp
//            must wait for its store's acknowledgement before it ends
//   ctae     N CTAs of 32 threads of an empty kernel (PTX: ret) unit: a CTA; cta - ctae
//            is what cta's parameter loads, compare and branch add to a CTA
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>

#define REP8(s) s s s s s s s s

__global__ void k_add(int *out, int n)
{
    int x = threadIdx.x, y = 3;
    for (int i = 0; i < n; i++)
        asm volatile(REP8("add.s32 %0, %0, %1;\n\t") : "+r"(x) : "r"(y));
    out[threadIdx.x] = x;
}

__global__ void k_fma(float *out, int n)
{
    float x = threadIdx.x, a = 1.0f, b = 0.5f;
    for (int i = 0; i < n; i++)
        asm volatile(REP8("fma.rn.f32 %0, %0, %1, %2;\n\t") : "+f"(x) : "f"(a), "f"(b));
    out[threadIdx.x] = x;
}

__global__ void k_max(int *out, int n)
{
    int x = threadIdx.x, y = -1;
    for (int i = 0; i < n; i++)
        asm volatile(REP8("max.s32 %0, %0, %1;\n\t") : "+r"(x) : "r"(y));
    out[threadIdx.x] = x;
}

// a chase through 64 shared words: word i holds the address of word i + 1
__global__ void k_shld(int *out, int n)
{
    __shared__ unsigned s[64];
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    for (int i = threadIdx.x; i < 64; i += blockDim.x)
        s[i] = base + 4 * ((i + 1) % 64);
    __syncthreads();
    unsigned a = base;
    for (int i = 0; i < n; i++)
        asm volatile(REP8("ld.shared.u32 %0, [%0];\n\t") : "+r"(a));
    out[threadIdx.x] = (int)((a - base) / 4);
}

// a chase through p (each element the address of the next), every lane on one element
__global__ void k_ld(int *out, void **p, int n)
{
    void *a = p;
    for (int i = 0; i < n; i++)
        asm volatile(REP8("ld.global.u64 %0, [%0];\n\t") : "+l"(a));
    out[threadIdx.x] = (int)(((char *)a - (char *)p) / 8);
}

__global__ void k_bar(int *out, int n)
{
    for (int i = 0; i < n; i++)
        asm volatile(REP8("bar.sync 0;\n\t") ::: "memory");
    out[threadIdx.x] = n;
}

__global__ void k_cta(int *out, int store)
{
    int v = blockIdx.x + threadIdx.x;
    if (store) out[blockIdx.x * 32 + threadIdx.x] = v;
}

__global__ void k_empty() {}

// eight independent divisions a warp per iteration (each its own register)
__global__ void k_div(float *out, int n)
{
    float a = threadIdx.x + 1, b = 2.0f, r[8];
    for (int i = 0; i < n; i++)
        asm volatile("div.rn.f32 %0, %8, %9;\n\tdiv.rn.f32 %1, %8, %9;\n\t"
                     "div.rn.f32 %2, %8, %9;\n\tdiv.rn.f32 %3, %8, %9;\n\t"
                     "div.rn.f32 %4, %8, %9;\n\tdiv.rn.f32 %5, %8, %9;\n\t"
                     "div.rn.f32 %6, %8, %9;\n\tdiv.rn.f32 %7, %8, %9;\n\t"
                     : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3]), "=f"(r[4]), "=f"(r[5]), "=f"(r[6]), "=f"(r[7])
                     : "f"(a), "f"(b));
    out[threadIdx.x] = r[0] + r[1] + r[2] + r[3] + r[4] + r[5] + r[6] + r[7];
}

int main(int argc, char **argv)
{
    if (argc != 3 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: side_ubench add|fma|max|shld|l1ld|l2ld|bar|div|cta|ctast|ctae N>=1\n");
        return 2;
    }
    const char *t = argv[1];
    int n = atoi(argv[2]);
    int *d_out;
    size_t outn = (strcmp(t, "cta") == 0 || strcmp(t, "ctast") == 0) ? (size_t)n * 32 : 256;
    cudaMalloc(&d_out, outn * sizeof(int));
    cudaMemset(d_out, 0, outn * sizeof(int));
    void **d_p = NULL; // l1ld, l2ld: the pointer chain
    long long want = -1; // the value every thread must write (when one)
    int threads = 32;
    if (strcmp(t, "add") == 0) {
        k_add<<<1, 32>>>(d_out, n);
    } else if (strcmp(t, "fma") == 0) {
        k_fma<<<1, 32>>>((float *)d_out, n);
    } else if (strcmp(t, "max") == 0) {
        k_max<<<1, 32>>>(d_out, n);
    } else if (strcmp(t, "shld") == 0) {
        k_shld<<<1, 32>>>(d_out, n);
        want = (8LL * n) % 64;
    } else if (strcmp(t, "l1ld") == 0 || strcmp(t, "l2ld") == 0) {
        // l1ld: 16 pointers in one 128-byte line; l2ld: 512 lines of 128 bytes (64 KB)
        int lines = t[1] == '1' ? 1 : 512, per = t[1] == '1' ? 16 : 1, m = lines * per;
        size_t bytes = (size_t)lines * 128;
        cudaMalloc(&d_p, bytes);
        void **h = (void **)calloc(bytes / 8, 8);
        for (int i = 0; i < m; i++) {
            int cur = t[1] == '1' ? i : i * 16, next = t[1] == '1' ? (i + 1) % m : ((i + 1) % m) * 16;
            h[cur] = (void *)(d_p + next);
        }
        cudaMemcpy(d_p, h, bytes, cudaMemcpyHostToDevice);
        free(h);
        k_ld<<<1, 32>>>(d_out, d_p, n);
        want = (long long)((8LL * n) % m) * (t[1] == '1' ? 1 : 16);
    } else if (strcmp(t, "bar") == 0) {
        k_bar<<<1, 256>>>(d_out, n);
        threads = 256;
        want = n;
    } else if (strcmp(t, "div") == 0) {
        k_div<<<1, 256>>>((float *)d_out, n);
        threads = 256;
    } else if (strcmp(t, "cta") == 0 || strcmp(t, "ctast") == 0) {
        k_cta<<<n, 32>>>(d_out, t[3] == 's');
        threads = 0;
    } else if (strcmp(t, "ctae") == 0) {
        k_empty<<<n, 32>>>();
        threads = 0;
    } else {
        fprintf(stderr, "side_ubench: unknown test %s\n", t);
        return 2;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "side_ubench: %s\n", cudaGetErrorString(e));
        return 1;
    }
    int *h = (int *)malloc(outn * sizeof(int));
    cudaMemcpy(h, d_out, outn * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    if (strcmp(t, "add") == 0) {
        for (int i = 0; i < 32; i++) bad += h[i] != i + 24 * n;
    } else if (strcmp(t, "max") == 0) {
        for (int i = 0; i < 32; i++) bad += h[i] != i;
    } else if (strcmp(t, "fma") == 0) {
        for (int i = 0; i < 32; i++) {
            float x = (float)i;
            for (int j = 0; j < 8 * n; j++) x = fmaf(x, 1.0f, 0.5f);
            bad += ((float *)h)[i] != x;
        }
    } else if (strcmp(t, "div") == 0) {
        for (int i = 0; i < 256; i++) bad += ((float *)h)[i] != 4.0f * (i + 1); // (i + 1) / 2, eight times
    } else if (strcmp(t, "ctast") == 0) {
        for (int b = 0; b < n; b++)
            for (int i = 0; i < 32; i++) bad += h[b * 32 + i] != b + i;
    } else if (want >= 0) {
        for (int i = 0; i < threads; i++) bad += h[i] != want;
    }
    printf("side_ubench: %s %d %s\n", t, n, bad ? "WRONG" : "ok");
    free(h);
    if (d_p) cudaFree(d_p);
    cudaFree(d_out);
    return bad ? 1 : 0;
}
