// memops.cu -- the memory calls: set, copy, pitched 2D, host memory.
//
// Covers: cudaMemset (byte values, unaligned sub-ranges), cudaMemsetAsync,
// cudaMemset2D, cudaMallocPitch (pitch >= row bytes, and a kernel that
// indexes with it), cudaMemcpy2D host->device->device->host with different
// pitches and a sub-rectangle, cudaMemcpy device-to-device (overlap-free),
// cudaMemcpy with cudaMemcpyDefault (unified addressing), cudaMemcpyAsync
// with the default stream, cudaMallocHost/cudaHostAlloc/cudaFreeHost,
// cudaHostRegister/Unregister of ordinary memory, and cudaPointerGet-
// Attributes on device, pinned and ordinary host pointers.
#include <cstdint>
#include <cstring>
#include <vector>

#include "check.h"

// Each element of a pitched rows x cols float matrix: m[r][c] += r * 1000 + c.
__global__ void pitched_add(float *m, size_t pitch, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
    if (c < cols && r < rows) {
        float *row = (float *)((char *)m + r * pitch);
        row[c] += (float)(r * 1000 + c);
    }
}

__global__ void checksum(const unsigned char *p, int n, unsigned *out) {
    unsigned s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += p[i] * (unsigned)(i + 1);
    atomicAdd(out, s);
}

int main() {
    ck_start("memops");
    int bad = 0;

    // cudaMemset on sub-ranges of a byte buffer.
    const int n = 4099;
    unsigned char *d_b, h_b[n], ref[n];
    CK(cudaMalloc(&d_b, n));
    CK(cudaMemset(d_b, 0xa5, n));
    CK(cudaMemset(d_b + 3, 0x00, 1000));
    CK(cudaMemset(d_b + 1001, 0x7f, 7));
    CK(cudaMemsetAsync(d_b + 4000, 0x11, 99, 0));
    memset(ref, 0xa5, n);
    memset(ref + 3, 0x00, 1000);
    memset(ref + 1001, 0x7f, 7);
    memset(ref + 4000, 0x11, 99);
    CK(cudaMemcpy(h_b, d_b, n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h_b[i] != ref[i] && bad++ < 3)
            EXPECT(false, "memset: byte %d = %02x, expected %02x", i, h_b[i], ref[i]);
    // A kernel reads the same bytes.
    unsigned *d_sum, sum = 0, want = 0;
    CK(cudaMalloc(&d_sum, sizeof(unsigned)));
    CK(cudaMemset(d_sum, 0, sizeof(unsigned)));
    checksum<<<1, 128>>>(d_b, n, d_sum);
    CK_LAUNCH();
    CK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        want += ref[i] * (unsigned)(i + 1);
    EXPECT(sum == want, "checksum of the memset bytes = %u, expected %u", sum, want);
    printf("cudaMemset/cudaMemsetAsync on sub-ranges: %s\n", bad ? "wrong" : "ok");

    // Pitched 2D: rows x cols floats.
    const int rows = 37, cols = 53;
    float *d_m;
    size_t pitch = 0;
    CK(cudaMallocPitch(&d_m, &pitch, cols * sizeof(float), rows));
    printf("cudaMallocPitch(%zu bytes x %d rows): pitch %zu\n", cols * sizeof(float), rows, pitch);
    EXPECT(pitch >= cols * sizeof(float) && pitch % sizeof(float) == 0, "pitch %zu", pitch);
    // The host matrix has its own pitch: cols + 3 floats per row.
    const int hp = cols + 3;
    std::vector<float> h_m(rows * hp, -1.0f), back(rows * hp, -2.0f);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            h_m[r * hp + c] = (float)(r - c) * 0.5f;
    CK(cudaMemset2D(d_m, pitch, 0xff, cols * sizeof(float), rows));
    CK(cudaMemcpy2D(d_m, pitch, h_m.data(), hp * sizeof(float), cols * sizeof(float), rows,
                    cudaMemcpyHostToDevice));
    pitched_add<<<dim3((cols + 31) / 32, rows), 32>>>(d_m, pitch, rows, cols);
    CK_LAUNCH();
    // Device to device into a tight copy, then back to the host.
    float *d_t;
    CK(cudaMalloc(&d_t, rows * cols * sizeof(float)));
    CK(cudaMemcpy2D(d_t, cols * sizeof(float), d_m, pitch, cols * sizeof(float), rows, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy2D(back.data(), hp * sizeof(float), d_t, cols * sizeof(float), cols * sizeof(float), rows,
                    cudaMemcpyDeviceToHost));
    bad = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < hp; c++) {
            // Padding columns of the host buffer must be untouched (-2).
            float w = c < cols ? (float)(r - c) * 0.5f + (float)(r * 1000 + c) : -2.0f;
            if (back[r * hp + c] != w && bad++ < 3)
                EXPECT(false, "2D copy: [%d][%d] = %g, expected %g", r, c, back[r * hp + c], w);
        }
    // A sub-rectangle: rows 5..14, columns 10..29 of the pitched matrix.
    float sub[10][20];
    CK(cudaMemcpy2D(sub, 20 * sizeof(float), (char *)d_m + 5 * pitch + 10 * sizeof(float), pitch,
                    20 * sizeof(float), 10, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 10; r++)
        for (int c = 0; c < 20; c++) {
            int R = r + 5, C = c + 10;
            float w = (float)(R - C) * 0.5f + (float)(R * 1000 + C);
            if (sub[r][c] != w && bad++ < 3)
                EXPECT(false, "2D sub-rectangle [%d][%d] = %g, expected %g", R, C, sub[r][c], w);
        }
    // cudaMemset2D over a 3-column band.
    CK(cudaMemset2D((char *)d_m + 4 * sizeof(float), pitch, 0, 3 * sizeof(float), rows));
    CK(cudaMemcpy2D(back.data(), hp * sizeof(float), d_m, pitch, cols * sizeof(float), rows,
                    cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float w = c >= 4 && c < 7 ? 0.0f : (float)(r - c) * 0.5f + (float)(r * 1000 + c);
            if (back[r * hp + c] != w && bad++ < 3)
                EXPECT(false, "after cudaMemset2D: [%d][%d] = %g, expected %g", r, c, back[r * hp + c], w);
        }
    printf("cudaMallocPitch, cudaMemcpy2D (H2D, D2D, D2H, sub-rectangle), cudaMemset2D: %s\n",
           bad ? "wrong" : "ok");

    // Host memory kinds, device-to-device copies, cudaMemcpyDefault.
    const int m = 10000;
    int *pinned, *mapped, *d1, *d2;
    CK(cudaMallocHost(&pinned, m * sizeof(int)));
    CK(cudaHostAlloc(&mapped, m * sizeof(int), cudaHostAllocPortable));
    CK(cudaMalloc(&d1, m * sizeof(int)));
    CK(cudaMalloc(&d2, m * sizeof(int)));
    std::vector<int> plain(m);
    for (int i = 0; i < m; i++)
        pinned[i] = i * i - 77;
    CK(cudaMemcpyAsync(d1, pinned, m * sizeof(int), cudaMemcpyHostToDevice, 0));
    CK(cudaMemcpy(d2, d1, m * sizeof(int), cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(d1 + 10, d2, 100 * sizeof(int), cudaMemcpyDefault));  // d1[10..109] = d2[0..99]
    CK(cudaMemcpy(mapped, d1, m * sizeof(int), cudaMemcpyDefault));
    CK(cudaMemcpy(plain.data(), d2, m * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < m; i++) {
        int w1 = i >= 10 && i < 110 ? (i - 10) * (i - 10) - 77 : i * i - 77;
        if ((mapped[i] != w1 || plain[i] != i * i - 77) && bad++ < 3)
            EXPECT(false, "host copies: [%d] = %d / %d, expected %d / %d", i, mapped[i], plain[i], w1, i * i - 77);
    }
    std::vector<int> reg(m, 5);
    CK(cudaHostRegister(reg.data(), m * sizeof(int), cudaHostRegisterDefault));
    CK(cudaMemcpyAsync(reg.data(), d2, m * sizeof(int), cudaMemcpyDeviceToHost, 0));
    CK(cudaStreamSynchronize(0));
    for (int i = 0; i < m; i++)
        if (reg[i] != i * i - 77 && bad++ < 3)
            EXPECT(false, "registered host memory [%d] = %d", i, reg[i]);
    CK(cudaHostUnregister(reg.data()));
    printf("pinned, portable, registered host memory; D2D and cudaMemcpyDefault copies: %s\n",
           bad ? "wrong" : "ok");

    // Pointer attributes.
    cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, d1 + 5));
    EXPECT(pa.type == cudaMemoryTypeDevice && pa.device == 0 && pa.devicePointer == (void *)(d1 + 5),
           "attributes of a device pointer: type %d device %d devicePointer %p", (int)pa.type, pa.device,
           pa.devicePointer);
    CK(cudaPointerGetAttributes(&pa, pinned));
    EXPECT(pa.type == cudaMemoryTypeHost && pa.hostPointer == (void *)pinned,
           "attributes of a pinned pointer: type %d hostPointer %p", (int)pa.type, pa.hostPointer);
    CK(cudaPointerGetAttributes(&pa, plain.data()));
    EXPECT(pa.type == cudaMemoryTypeUnregistered, "attributes of ordinary host memory: type %d", (int)pa.type);

    CK(cudaFreeHost(pinned));
    CK(cudaFreeHost(mapped));
    CK(cudaFree(d1));
    CK(cudaFree(d2));
    CK(cudaFree(d_t));
    CK(cudaFree(d_m));
    CK(cudaFree(d_b));
    CK(cudaFree(d_sum));
    return ck_finish();
}
