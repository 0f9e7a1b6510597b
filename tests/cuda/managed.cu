// managed.cu -- unified (managed) memory.
//
// Covers: cudaMallocManaged buffers written by the host, updated by
// kernels and read by the host after cudaDeviceSynchronize, several rounds
// of that; __managed__ variables (a scalar counter and an array) used by
// name on both sides; a managed linked structure whose pointers are valid
// on host and device alike; cudaMallocManaged with cudaMemAttachGlobal; a
// managed buffer passed to cudaMemcpy and cudaMemset; the managed attribute
// of cudaDeviceGetAttribute.
#include <cstdint>

#include "check.h"

__managed__ int m_total;
__managed__ int m_hist[16];
__managed__ unsigned long long m_magic = 0xfeedfacecafebeefULL;

struct Node {
    int value;
    Node *next;  // managed: the same pointer on host and device
};

__global__ void square_add(int *a, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = (a[i] * a[i] + k) % 1000;
        atomicAdd(&m_total, 1);
        atomicAdd(&m_hist[a[i] & 15], 1);
    }
}

// Walks the list and doubles every value; one thread.
__global__ void walk(Node *head, int *sum) {
    int s = 0;
    for (Node *p = head; p; p = p->next) {
        p->value *= 2;
        s += p->value;
    }
    *sum = s;
    m_magic ^= 0xffffffffULL;
}

int main() {
    ck_start("managed");
    int managed_ok = 0;
    CK(cudaDeviceGetAttribute(&managed_ok, cudaDevAttrManagedMemory, 0));
    EXPECT(managed_ok == 1, "cudaDevAttrManagedMemory = %d", managed_ok);

    const int n = 3000;
    int *a;
    CK(cudaMallocManaged(&a, n * sizeof(int)));
    int ref[n];
    for (int i = 0; i < n; i++)
        a[i] = ref[i] = i % 100 - 50;
    m_total = 0;
    for (int h = 0; h < 16; h++)
        m_hist[h] = 0;
    int hist[16] = {0};

    for (int round = 0; round < 3; round++) {
        square_add<<<(n + 255) / 256, 256>>>(a, n, round);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        int bad = 0;
        for (int i = 0; i < n; i++) {
            ref[i] = (ref[i] * ref[i] + round) % 1000;
            hist[ref[i] & 15]++;
            if (a[i] != ref[i] && bad++ < 3)
                EXPECT(false, "round %d: a[%d] = %d, expected %d", round, i, a[i], ref[i]);
        }
        // The host changes the data between kernels.
        for (int i = 0; i < n; i += 7) {
            a[i] = i % 5;
            ref[i] = i % 5;
        }
    }
    EXPECT(m_total == 3 * n, "m_total = %d, expected %d", m_total, 3 * n);
    for (int h = 0; h < 16; h++)
        EXPECT(m_hist[h] == hist[h], "m_hist[%d] = %d, expected %d", h, m_hist[h], hist[h]);
    printf("managed buffer and __managed__ counters over 3 rounds: m_total = %d\n", m_total);

    // A linked list in managed memory, built on the host.
    Node *nodes;
    int *sum;
    CK(cudaMallocManaged(&nodes, 10 * sizeof(Node), cudaMemAttachGlobal));
    CK(cudaMallocManaged(&sum, sizeof(int)));
    // The list visits 0, 3, 6, 9, 2, 5, 8, 1, 4, 7.
    for (int i = 0; i < 10; i++) {
        nodes[i].value = i * i;
        nodes[i].next = i == 7 ? nullptr : &nodes[(i + 3) % 10];
    }
    EXPECT(m_magic == 0xfeedfacecafebeefULL, "m_magic initialized to %llx", m_magic);
    walk<<<1, 1>>>(nodes, sum);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    int want = 0;
    for (int i = 0; i < 10; i++) {
        EXPECT(nodes[i].value == 2 * i * i, "node %d = %d, expected %d", i, nodes[i].value, 2 * i * i);
        want += 2 * i * i;
    }
    EXPECT(*sum == want, "list sum = %d, expected %d", *sum, want);
    EXPECT(m_magic == (0xfeedfacecafebeefULL ^ 0xffffffffULL), "m_magic after the kernel = %llx", m_magic);

    // Managed memory with the copy and set calls.
    int *b;
    CK(cudaMallocManaged(&b, n * sizeof(int)));
    CK(cudaMemset(b, 0x01, n * sizeof(int)));
    CK(cudaDeviceSynchronize());
    EXPECT(b[0] == 0x01010101 && b[n - 1] == 0x01010101, "cudaMemset on managed: %08x %08x", b[0], b[n - 1]);
    CK(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDefault));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (b[i] != ref[i] && bad++ < 3)
            EXPECT(false, "cudaMemcpy managed to managed: b[%d] = %d, expected %d", i, b[i], ref[i]);
    printf("managed linked list, cudaMemset and cudaMemcpy on managed memory checked\n");

    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(nodes));
    CK(cudaFree(sum));
    return ck_finish();
}
