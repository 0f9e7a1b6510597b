// sysatomics.cu -- system-scope atomics racing with the host, in the shape of
// NVIDIA's systemWideAtomics sample: a kernel does atomic*_system on a
// managed int array while the host, at the same time, does the same
// operations with __sync builtins on the same addresses; then a managed
// struct updated by a kernel's atomicAdd_system on 32- and 64-bit integers
// and a float while two host threads update it with __atomic builtins.
// (Managed memory, as in the sample: CUDA does not promise that atomics on
// mapped page-locked memory are atomic for the host, so that is not
// tested here.)  Every final value is exact: each operation of either side must
// be one indivisible read-modify-write.  The host side starts only once the
// kernel has visibly begun, so the two really overlap (with
// `-o stream.async=0` the kernel is done by then and the test still holds).
#include "check.h"
#include <thread>

#define LOOP_NUM 50

__global__ void atomic_kernel(int *a)
{
    unsigned tid = blockDim.x * blockIdx.x + threadIdx.x;
    for (int i = 0; i < LOOP_NUM; i++) {
        atomicAdd_system(&a[0], 10);
        atomicExch_system(&a[1], (int)tid);
        atomicMax_system(&a[2], (int)tid);
        atomicMin_system(&a[3], (int)tid);
        atomicInc_system((unsigned *)&a[4], 17);
        atomicDec_system((unsigned *)&a[5], 137);
        atomicCAS_system(&a[6], (int)tid - 1, (int)tid);
        atomicAnd_system(&a[7], 2 * (int)tid + 7);
        atomicOr_system(&a[8], 1 << (tid % 32));
        atomicXor_system(&a[9], (int)tid);
    }
}

// The host's half: thread indices [n, 2n), as the sample's atomicKernel_CPU.
static void atomic_cpu(int *a, int n)
{
    for (int i = n; i < 2 * n; i++) {
        for (int j = 0; j < LOOP_NUM; j++) {
            __sync_fetch_and_add(&a[0], 10);
            __sync_lock_test_and_set(&a[1], i);
            int old, expected;
            do {
                expected = a[2];
                old = __sync_val_compare_and_swap(&a[2], expected, expected > i ? expected : i);
            } while (old != expected);
            do {
                expected = a[3];
                old = __sync_val_compare_and_swap(&a[3], expected, expected < i ? expected : i);
            } while (old != expected);
            do {
                expected = a[4];
                old = __sync_val_compare_and_swap(&a[4], expected, expected >= 17 ? 0 : expected + 1);
            } while (old != expected);
            do {
                expected = a[5];
                old = __sync_val_compare_and_swap(&a[5], expected, (expected == 0 || expected > 137) ? 137 : expected - 1);
            } while (old != expected);
            __sync_val_compare_and_swap(&a[6], i - 1, i);
            __sync_fetch_and_and(&a[7], 2 * i + 7);
            __sync_fetch_and_or(&a[8], 1 << (i % 32));
            __sync_fetch_and_xor(&a[9], i);
        }
    }
}

struct counters {
    int count;
    unsigned long long big;
    float sum;
};

__global__ void counters_kernel(counters *m, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        atomicAdd_system(&m->count, 3);
        atomicAdd_system(&m->big, 0x100000001ull);   // carries across the halves
        atomicAdd_system(&m->sum, 1.0f);
    }
}

static void counters_cpu(counters *m, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        __atomic_fetch_add(&m->count, 5, __ATOMIC_SEQ_CST);
        __atomic_fetch_add(&m->big, 0xffffffffull, __ATOMIC_SEQ_CST);
        float old, nv;
        __atomic_load(&m->sum, &old, __ATOMIC_SEQ_CST);
        do {
            nv = old + 2.0f;
        } while (!__atomic_compare_exchange(&m->sum, &old, &nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    }
}

// Waits (bounded) until *p differs from v: the kernel has begun.
static void wait_change(volatile int *p, int v)
{
    for (long k = 0; k < 2000000000L && *p == v; k++) std::this_thread::yield();
}

int main()
{
    ck_start("sysatomics");
    const unsigned threads = 256, blocks = 64, len = threads * blocks;

    // ---- the sample's shape: managed memory, one host thread ----------------
    int *a;
    CK(cudaMallocManaged(&a, 10 * sizeof(int)));
    for (int i = 0; i < 10; i++) a[i] = 0;
    a[7] = a[9] = 0xff;
    atomic_kernel<<<blocks, threads>>>(a);
    CK_LAUNCH();
    wait_change(a, 0);
    atomic_cpu(a, (int)len);
    CK(cudaDeviceSynchronize());

    long total = 2L * len * LOOP_NUM;   // operations of each kind, both sides
    EXPECT(a[0] == (int)(10 * total), "atomicAdd: %d, want %ld", a[0], 10 * total);
    EXPECT(a[1] >= 0 && a[1] < (int)(2 * len), "atomicExch: %d", a[1]);
    EXPECT(a[2] == (int)(2 * len - 1), "atomicMax: %d", a[2]);
    EXPECT(a[3] == 0, "atomicMin: %d", a[3]);
    EXPECT(a[4] == (int)(total % 18), "atomicInc: %d, want %ld", a[4], total % 18);
    EXPECT(a[5] == (int)((138 - total % 138) % 138), "atomicDec: %d, want %ld", a[5], (138 - total % 138) % 138);
    EXPECT(a[6] >= 0 && a[6] < (int)(2 * len), "atomicCAS: %d", a[6]);
    EXPECT(a[7] == 1, "atomicAnd: %d", a[7]);
    EXPECT(a[8] == -1, "atomicOr: %#x", (unsigned)a[8]);
    EXPECT(a[9] == 0xff, "atomicXor: %#x", (unsigned)a[9]);   // every value xored 50 times
    CK(cudaFree(a));

    // ---- managed counters of three widths, two host threads ----------------
    counters *m;
    CK(cudaMallocManaged(&m, sizeof *m));
    m->count = 0, m->big = 0, m->sum = 0;
    const int krounds = 40, hrounds = 100000;
    counters_kernel<<<32, 128>>>(m, krounds);
    CK_LAUNCH();
    wait_change(&m->count, 0);
    std::thread t1(counters_cpu, m, hrounds), t2(counters_cpu, m, hrounds);
    t1.join();
    t2.join();
    CK(cudaDeviceSynchronize());
    long kops = 32L * 128 * krounds, hops = 2L * hrounds;
    EXPECT(m->count == (int)(3 * kops + 5 * hops), "count %d, want %ld", m->count, 3 * kops + 5 * hops);
    unsigned long long want_big = (unsigned long long)kops * 0x100000001ull + (unsigned long long)hops * 0xffffffffull;
    EXPECT(m->big == want_big, "64-bit sum %#llx, want %#llx", m->big, want_big);
    EXPECT(m->sum == (float)(kops + 2 * hops), "float sum %.1f, want %ld", m->sum, kops + 2 * hops);
    CK(cudaFree(m));
    return ck_finish();
}
