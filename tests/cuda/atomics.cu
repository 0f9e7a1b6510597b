// atomics.cu -- atomics-heavy code, checked order-independently.
//
// Covers: a 256-bin histogram with shared-memory atomicAdd and a global
// merge; atomicAdd returning unique tickets (a compaction: the returned
// slots must be a permutation); atomicMin/atomicMax (int, unsigned, 64-bit);
// atomicCAS loops (a float max and a 64-bit checksum); atomicExch; atomicInc
// and atomicDec with wrap limits; atomicAnd/Or/Xor; float and double
// atomicAdd with values whose sums are exact in any order; a spin lock
// (atomicCAS/atomicExch with __threadfence) around a non-atomic update,
// one lock holder per block; and atomicAdd_block / atomicAdd_system.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "check.h"

__global__ void histogram(const unsigned char *data, int n, unsigned *hist) {
    __shared__ unsigned local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (local[i])
            atomicAdd(&hist[i], local[i]);
}

// Stream compaction: keeps the values divisible by 3, in any order.
__global__ void compact(const int *in, int n, int *out, int *count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] % 3 == 0) {
        int slot = atomicAdd(count, 1);
        out[slot] = in[i];
    }
}

struct Misc {
    int imin, imax;
    unsigned umin, umax;
    long long llmin;
    unsigned long long ullmax;
    float fmax;
    unsigned long long checksum;
    unsigned inc, dec;
    unsigned and_, or_, xor_;
    float fsum;
    double dsum;
    int exch;
    int block_sum, sys_sum;
};

__device__ float atomic_max_float(float *addr, float v) {  // CAS loop
    int *a = (int *)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v)
            break;
        old = atomicCAS(a, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

__device__ void atomic_mix64(unsigned long long *addr, unsigned long long v) {  // CAS loop: sum of v*odd
    unsigned long long old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed + v * 0x9e3779b97f4a7c15ULL);
    } while (old != assumed);
}

__global__ void misc(const int *in, int n, Misc *m, int *exch_seen) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    atomicMin(&m->imin, v);
    atomicMax(&m->imax, v);
    atomicMin(&m->umin, (unsigned)v);
    atomicMax(&m->umax, (unsigned)v);
    atomicMin(&m->llmin, (long long)v * 1000003LL);
    atomicMax(&m->ullmax, (unsigned long long)(unsigned)v << 20);
    atomic_max_float(&m->fmax, (float)v * 0.5f);
    atomic_mix64(&m->checksum, (unsigned long long)(unsigned)v);
    atomicInc(&m->inc, 99u);   // wraps to 0 after 99
    atomicDec(&m->dec, 999u);  // 0 wraps to 999
    atomicAnd(&m->and_, ~(1u << (i % 32)) | (unsigned)v);
    atomicOr(&m->or_, 1u << ((unsigned)v % 32));
    atomicXor(&m->xor_, (unsigned)v);
    atomicAdd(&m->fsum, (float)(v & 0xff) * 0.25f);
    atomicAdd(&m->dsum, (double)v * 0.125);
    exch_seen[i] = atomicExch(&m->exch, i);
    atomicAdd_block(&m->block_sum, 1);
    atomicAdd_system(&m->sys_sum, 2);
}

// One thread per block takes a global spin lock and does a non-atomic
// read-modify-write of two words; the lock makes it safe.
__global__ void locked(int *lock, int *data) {
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0)
            ;
        __threadfence();
        volatile int *d = data;
        int a = d[0], b = d[1];
        d[0] = a + 1;
        d[1] = b + (int)blockIdx.x;
        __threadfence();
        atomicExch(lock, 0);
    }
}

int main() {
    ck_start("atomics");
    int bad = 0;

    // Histogram of 1,000,000 skewed bytes.
    {
        const int n = 1000000;
        std::vector<unsigned char> data(n);
        uint32_t s = 7;
        for (int i = 0; i < n; i++) {
            s = s * 1103515245u + 12345u;
            unsigned r = s >> 16;
            data[i] = (unsigned char)((r & 1) ? r % 16 : r % 256);  // bins 0..15 are hot
        }
        unsigned char *d_data;
        unsigned *d_hist, hist[256], ref[256] = {0};
        CK(cudaMalloc(&d_data, n));
        CK(cudaMalloc(&d_hist, sizeof hist));
        CK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
        CK(cudaMemset(d_hist, 0, sizeof hist));
        histogram<<<30, 256>>>(d_data, n, d_hist);
        CK_LAUNCH();
        CK(cudaMemcpy(hist, d_hist, sizeof hist, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            ref[data[i]]++;
        for (int b = 0; b < 256; b++)
            if (hist[b] != ref[b] && bad++ < 3)
                EXPECT(false, "histogram bin %d = %u, expected %u", b, hist[b], ref[b]);
        printf("histogram of %d bytes (shared + global atomicAdd): %s\n", n, bad ? "wrong" : "ok");
        CK(cudaFree(d_data));
        CK(cudaFree(d_hist));
    }

    const int n = 20000;
    std::vector<int> in(n);
    uint64_t z = 99;
    for (int i = 0; i < n; i++) {
        z = z * 6364136223846793005ULL + 1442695040888963407ULL;
        in[i] = (int)(z >> 32) % 100000;  // in (-100000, 100000)
    }
    int *d_in;
    CK(cudaMalloc(&d_in, n * sizeof(int)));
    CK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    // Compaction with atomicAdd tickets.
    {
        int *d_out, *d_count, count = 0;
        CK(cudaMalloc(&d_out, n * sizeof(int)));
        CK(cudaMalloc(&d_count, sizeof(int)));
        CK(cudaMemset(d_count, 0, sizeof(int)));
        compact<<<(n + 255) / 256, 256>>>(d_in, n, d_out, d_count);
        CK_LAUNCH();
        CK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
        std::vector<int> want;
        for (int v : in)
            if (v % 3 == 0)
                want.push_back(v);
        EXPECT(count == (int)want.size(), "compaction kept %d, expected %zu", count, want.size());
        if (count == (int)want.size()) {
            std::vector<int> got(count);
            CK(cudaMemcpy(got.data(), d_out, count * sizeof(int), cudaMemcpyDeviceToHost));
            std::sort(got.begin(), got.end());
            std::sort(want.begin(), want.end());
            EXPECT(got == want, "compaction: the kept values differ (as multisets)");
        }
        printf("compaction with atomicAdd tickets: %d of %d kept\n", count, n);
        CK(cudaFree(d_out));
        CK(cudaFree(d_count));
    }

    // Everything else.
    {
        Misc init;
        memset(&init, 0, sizeof init);
        init.imin = INT32_MAX;
        init.imax = INT32_MIN;
        init.umin = 0xffffffffu;
        init.umax = 0;
        init.llmin = INT64_MAX;
        init.ullmax = 0;
        init.fmax = -1e30f;
        init.checksum = 0;
        init.inc = 0;
        init.dec = 5;
        init.and_ = 0xffffffffu;
        init.or_ = 0;
        init.xor_ = 0x5a5a5a5au;
        init.exch = -1;
        Misc *d_m, m;
        int *d_seen;
        CK(cudaMalloc(&d_m, sizeof m));
        CK(cudaMalloc(&d_seen, n * sizeof(int)));
        CK(cudaMemcpy(d_m, &init, sizeof init, cudaMemcpyHostToDevice));
        misc<<<(n + 127) / 128, 128>>>(d_in, n, d_m, d_seen);
        CK_LAUNCH();
        CK(cudaMemcpy(&m, d_m, sizeof m, cudaMemcpyDeviceToHost));
        std::vector<int> seen(n);
        CK(cudaMemcpy(seen.data(), d_seen, n * sizeof(int), cudaMemcpyDeviceToHost));

        Misc r = init;
        for (int i = 0; i < n; i++) {
            int v = in[i];
            r.imin = std::min(r.imin, v);
            r.imax = std::max(r.imax, v);
            r.umin = std::min(r.umin, (unsigned)v);
            r.umax = std::max(r.umax, (unsigned)v);
            r.llmin = std::min(r.llmin, (long long)v * 1000003LL);
            r.ullmax = std::max(r.ullmax, (unsigned long long)(unsigned)v << 20);
            r.fmax = std::max(r.fmax, (float)v * 0.5f);
            r.checksum += (unsigned long long)(unsigned)v * 0x9e3779b97f4a7c15ULL;
            r.and_ &= ~(1u << (i % 32)) | (unsigned)v;
            r.or_ |= 1u << ((unsigned)v % 32);
            r.xor_ ^= (unsigned)v;
            r.fsum += (float)(v & 0xff) * 0.25f;  // every partial sum < 2^24 / 4: exact
            r.dsum += (double)v * 0.125;          // exact in double
        }
        // atomicInc(limit 99): n increments from 0 wrap to n % 100.
        // atomicDec(limit 999): from 5, n decrements: ((5 - n) mod 1000).
        r.inc = n % 100;
        r.dec = (unsigned)(((5 - n) % 1000 + 1000) % 1000);
        EXPECT(m.imin == r.imin && m.imax == r.imax, "atomicMin/Max int: %d %d, expected %d %d", m.imin, m.imax,
               r.imin, r.imax);
        EXPECT(m.umin == r.umin && m.umax == r.umax, "atomicMin/Max unsigned: %u %u, expected %u %u", m.umin,
               m.umax, r.umin, r.umax);
        EXPECT(m.llmin == r.llmin && m.ullmax == r.ullmax, "atomicMin/Max 64-bit: %lld %llu, expected %lld %llu",
               m.llmin, m.ullmax, r.llmin, r.ullmax);
        EXPECT(m.fmax == r.fmax, "CAS float max %g, expected %g", m.fmax, r.fmax);
        EXPECT(m.checksum == r.checksum, "CAS 64-bit checksum %llx, expected %llx", m.checksum, r.checksum);
        EXPECT(m.inc == r.inc, "atomicInc with limit 99: %u, expected %u", m.inc, r.inc);
        EXPECT(m.dec == r.dec, "atomicDec with limit 999: %u, expected %u", m.dec, r.dec);
        EXPECT(m.and_ == r.and_ && m.or_ == r.or_ && m.xor_ == r.xor_,
               "atomicAnd/Or/Xor: %08x %08x %08x, expected %08x %08x %08x", m.and_, m.or_, m.xor_, r.and_, r.or_,
               r.xor_);
        EXPECT(m.fsum == r.fsum, "float atomicAdd: %.3f, expected %.3f", m.fsum, r.fsum);
        EXPECT(m.dsum == r.dsum, "double atomicAdd: %.3f, expected %.3f", m.dsum, r.dsum);
        EXPECT(m.block_sum == n && m.sys_sum == 2 * n, "atomicAdd_block %d, atomicAdd_system %d", m.block_sum,
               m.sys_sum);
        // atomicExch: the returned values form a chain -1 -> i1 -> i2 ...:
        // every value in -1..n-1 except the final one appears exactly once.
        std::vector<int> cnt(n + 1, 0);
        int chain_bad = 0;
        for (int i = 0; i < n; i++) {
            if (seen[i] < -1 || seen[i] >= n || seen[i] == i)
                chain_bad++;
            else
                cnt[seen[i] + 1]++;
        }
        EXPECT(m.exch >= 0 && m.exch < n && cnt[m.exch + 1] == 0, "atomicExch final value %d", m.exch);
        for (int k = 0; k <= n; k++)
            if (k != m.exch + 1 && cnt[k] != 1)
                chain_bad++;
        EXPECT(chain_bad == 0, "atomicExch returned values do not form one chain (%d problems)", chain_bad);
        printf("atomicMin/Max/CAS/Exch/Inc/Dec/And/Or/Xor, float and double atomicAdd checked\n");
        CK(cudaFree(d_m));
        CK(cudaFree(d_seen));
    }

    // The spin lock, one contender per block.
    {
        int *d_lock, *d_data, data[2];
        CK(cudaMalloc(&d_lock, sizeof(int)));
        CK(cudaMalloc(&d_data, 2 * sizeof(int)));
        CK(cudaMemset(d_lock, 0, sizeof(int)));
        CK(cudaMemset(d_data, 0, 2 * sizeof(int)));
        const int blocks = 64;
        locked<<<blocks, 32>>>(d_lock, d_data);
        CK_LAUNCH();
        CK(cudaMemcpy(data, d_data, sizeof data, cudaMemcpyDeviceToHost));
        EXPECT(data[0] == blocks && data[1] == blocks * (blocks - 1) / 2, "spin lock: %d %d, expected %d %d",
               data[0], data[1], blocks, blocks * (blocks - 1) / 2);
        printf("spin lock across %d blocks: %d %d\n", blocks, data[0], data[1]);
        CK(cudaFree(d_lock));
        CK(cudaFree(d_data));
    }
    CK(cudaFree(d_in));
    return ck_finish();
}
