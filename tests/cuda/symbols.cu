// symbols.cu -- __constant__ and __device__ variables through the runtime's
// symbol calls.
//
// Covers: cudaMemcpyToSymbol (whole, at an offset, from device memory, async
// on a stream), cudaMemcpyFromSymbol (whole, at an offset, async),
// cudaGetSymbolAddress (the address used by cudaMemcpy, cudaMemset and as a
// kernel argument, and equal to what the kernel itself sees as &var),
// cudaGetSymbolSize; initialized module variables; a struct in constant
// memory; a __device__ counter updated with atomics; 2D __device__ arrays.
#include <cstdint>
#include <cstring>
#include <vector>

#include "check.h"

struct Params {
    int a;
    float b;
    double c;
    char tag[8];
};

__constant__ float c_coef[16];
__constant__ int c_offset = 17;  // initialized
__constant__ Params c_params;
__device__ int d_counter;
__device__ float d_table[256];
__device__ unsigned long long d_big = 0x0123456789abcdefULL;  // initialized
__device__ short d_grid[4][6] = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
__device__ void *d_seen_addr[3];  // where the kernel sees the variables

// d_table[i] = c_coef[i % 16] * i + c_offset; counts its threads.
__global__ void fill_table(void) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 256) {
        d_table[i] = c_coef[i % 16] * (float)i + (float)c_offset;
        atomicAdd(&d_counter, 1);
    }
    if (i == 0) {
        d_seen_addr[0] = d_table;
        d_seen_addr[1] = &d_counter;
        d_seen_addr[2] = d_grid;
    }
}

// out[i] = table[i] (a pointer from cudaGetSymbolAddress) plus the params.
__global__ void use_params(double *out, const float *table) {
    int i = threadIdx.x;
    out[i] = (double)table[i] + c_params.a + c_params.b + c_params.c + c_params.tag[i % 8];
}

__global__ void grid_sum(int *out) {
    int r = threadIdx.x;
    if (r < 4) {
        int s = 0;
        for (int c = 0; c < 6; c++)
            s += d_grid[r][c];
        out[r] = s;
    }
}

int main() {
    ck_start("symbols");

    // Sizes come from the module, not from the host shadows' sizes alone.
    size_t sz = 0;
    CK(cudaGetSymbolSize(&sz, c_coef));
    EXPECT(sz == 64, "cudaGetSymbolSize(c_coef) = %zu, expected 64", sz);
    CK(cudaGetSymbolSize(&sz, d_table));
    EXPECT(sz == 1024, "cudaGetSymbolSize(d_table) = %zu, expected 1024", sz);
    CK(cudaGetSymbolSize(&sz, c_params));
    EXPECT(sz == sizeof(Params), "cudaGetSymbolSize(c_params) = %zu, expected %zu", sz, sizeof(Params));
    CK(cudaGetSymbolSize(&sz, d_big));
    EXPECT(sz == 8, "cudaGetSymbolSize(d_big) = %zu, expected 8", sz);
    CK(cudaGetSymbolSize(&sz, d_grid));
    EXPECT(sz == 48, "cudaGetSymbolSize(d_grid) = %zu, expected 48", sz);

    // Initializers.
    unsigned long long big = 0;
    int off = 0;
    CK(cudaMemcpyFromSymbol(&big, d_big, sizeof big));
    EXPECT(big == 0x0123456789abcdefULL, "d_big initialized to %llx", big);
    CK(cudaMemcpyFromSymbol(&off, c_offset, sizeof off));
    EXPECT(off == 17, "c_offset initialized to %d", off);
    short g[4][6];
    CK(cudaMemcpyFromSymbol(g, d_grid, sizeof g));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 6; c++)
            EXPECT(g[r][c] == (r < 2 ? r * 6 + c + 1 : 0), "d_grid[%d][%d] = %d", r, c, g[r][c]);
    // Part of a variable: bytes 2..5 of d_big (little-endian 0xef 0xcd ...).
    unsigned char part[4];
    CK(cudaMemcpyFromSymbol(part, d_big, 4, 2));
    EXPECT(part[0] == 0xab && part[1] == 0x89 && part[2] == 0x67 && part[3] == 0x45,
           "d_big bytes 2..5 = %02x %02x %02x %02x", part[0], part[1], part[2], part[3]);

    // c_coef: whole, then entries 4..7 replaced at a byte offset.
    float coef[16];
    for (int i = 0; i < 16; i++)
        coef[i] = 0.5f * (float)(i + 1);
    CK(cudaMemcpyToSymbol(c_coef, coef, sizeof coef));
    const float four[4] = {-1.0f, -2.0f, -4.0f, -8.0f};
    CK(cudaMemcpyToSymbol(c_coef, four, sizeof four, 4 * sizeof(float)));
    for (int i = 0; i < 4; i++)
        coef[4 + i] = four[i];
    int zero = 0;
    CK(cudaMemcpyToSymbol(d_counter, &zero, sizeof zero));

    fill_table<<<4, 64>>>();
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    float table[256];
    CK(cudaMemcpyFromSymbol(table, d_table, sizeof table));
    int bad = 0;
    for (int i = 0; i < 256; i++) {
        // coef*i is exact (a half-integer times an integer < 2^24), and so
        // is the sum with 17: no contraction or rounding can change it.
        float want = coef[i % 16] * (float)i + 17.0f;
        if (table[i] != want && bad++ < 3)
            EXPECT(false, "d_table[%d] = %g, expected %g", i, table[i], want);
    }
    int counter = 0;
    CK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof counter));
    EXPECT(counter == 256, "d_counter = %d, expected 256", counter);

    // Addresses: the host's view equals the kernel's.
    void *a_table = nullptr, *a_counter = nullptr, *a_grid = nullptr, *seen[3];
    CK(cudaGetSymbolAddress(&a_table, d_table));
    CK(cudaGetSymbolAddress(&a_counter, d_counter));
    CK(cudaGetSymbolAddress(&a_grid, d_grid));
    CK(cudaMemcpyFromSymbol(seen, d_seen_addr, sizeof seen));
    EXPECT(a_table && a_table == seen[0], "&d_table: host %p, kernel %p", a_table, seen[0]);
    EXPECT(a_counter && a_counter == seen[1], "&d_counter: host %p, kernel %p", a_counter, seen[1]);
    EXPECT(a_grid && a_grid == seen[2], "&d_grid: host %p, kernel %p", a_grid, seen[2]);

    // The address works with cudaMemcpy/cudaMemset.
    float t5[5];
    CK(cudaMemcpy(t5, (float *)a_table + 100, sizeof t5, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 5; i++)
        EXPECT(t5[i] == table[100 + i], "cudaMemcpy from &d_table[%d]: %g vs %g", 100 + i, t5[i], table[100 + i]);
    CK(cudaMemset(a_counter, 0xff, sizeof(int)));
    CK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof counter));
    EXPECT(counter == -1, "d_counter after cudaMemset 0xff = %d", counter);

    // A struct in constant memory, and a symbol address as a kernel argument.
    Params p = {3, 0.25f, 1e9, {1, 2, 3, 4, 5, 6, 7, 8}};
    CK(cudaMemcpyToSymbol(c_params, &p, sizeof p));
    double *d_out, out[64];
    CK(cudaMalloc(&d_out, sizeof out));
    use_params<<<1, 64>>>(d_out, (const float *)a_table);
    CK_LAUNCH();
    CK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) {
        double want = (double)table[i] + p.a + p.b + p.c + p.tag[i % 8];
        if (out[i] != want && bad++ < 3)
            EXPECT(false, "use_params out[%d] = %.17g, expected %.17g", i, out[i], want);
    }

    // Symbol copies from device memory, and the async forms on a stream.
    float *d_src;
    CK(cudaMalloc(&d_src, 16 * sizeof(float)));
    float neg[16];
    for (int i = 0; i < 16; i++)
        neg[i] = -(float)i;
    CK(cudaMemcpy(d_src, neg, sizeof neg, cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(c_coef, d_src, sizeof neg, 0, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpyFromSymbol(d_src, d_table, 16 * sizeof(float), 32 * sizeof(float), cudaMemcpyDeviceToDevice));
    float back[16];
    CK(cudaMemcpy(back, d_src, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++)
        EXPECT(back[i] == table[32 + i], "d_table[%d] via a device-to-device symbol copy: %g vs %g", 32 + i,
               back[i], table[32 + i]);

    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    int *pinned;
    CK(cudaMallocHost(&pinned, 2 * sizeof(int)));
    pinned[0] = 5;
    pinned[1] = -1;
    CK(cudaMemcpyToSymbolAsync(c_offset, &pinned[0], sizeof(int), 0, cudaMemcpyHostToDevice, s));
    CK(cudaMemcpyToSymbolAsync(d_counter, &zero, sizeof(int), 0, cudaMemcpyHostToDevice, s));
    fill_table<<<2, 128, 0, s>>>();
    CK_LAUNCH();
    CK(cudaMemcpyFromSymbolAsync(&pinned[1], d_counter, sizeof(int), 0, cudaMemcpyDeviceToHost, s));
    CK(cudaMemcpyFromSymbolAsync(table, d_table, sizeof table, 0, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(pinned[1] == 256, "d_counter via async copies = %d, expected 256", pinned[1]);
    for (int i = 0; i < 256; i++) {
        float want = neg[i % 16] * (float)i + 5.0f;
        if (table[i] != want && bad++ < 3)
            EXPECT(false, "d_table[%d] after async update = %g, expected %g", i, table[i], want);
    }

    int sums[4], *d_sums;
    CK(cudaMalloc(&d_sums, sizeof sums));
    grid_sum<<<1, 32>>>(d_sums);
    CK_LAUNCH();
    CK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost));
    EXPECT(sums[0] == 21 && sums[1] == 57 && sums[2] == 0 && sums[3] == 0, "d_grid row sums %d %d %d %d",
           sums[0], sums[1], sums[2], sums[3]);

    printf("symbol sizes, initializers, offsets, addresses, async copies checked\n");
    CK(cudaStreamDestroy(s));
    CK(cudaFreeHost(pinned));
    CK(cudaFree(d_src));
    CK(cudaFree(d_out));
    CK(cudaFree(d_sums));
    return ck_finish();
}
