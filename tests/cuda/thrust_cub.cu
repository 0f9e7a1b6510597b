// thrust_cub.cu -- Thrust and CUB, as shipped with the CUDA toolkit.
//
// Covers: thrust::device_vector, thrust::sequence, thrust::transform with a
// functor, thrust::sort (keys, and a descending sort with a comparator),
// thrust::sort_by_key, thrust::reduce (int and float), thrust::
// inclusive_scan; cub::DeviceReduce::Sum and ::Max, cub::DeviceScan::
// ExclusiveSum and ::InclusiveSum, cub::DeviceRadixSort::SortKeys and
// ::SortPairs (each with the two-call temporary-storage protocol).  All
// results are compared with std:: algorithms on the CPU; the float sums use
// small integers, so every partial sum is exact in any order.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <numeric>
#include <vector>

#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include "check.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint32_t rng() {  // xorshift64*
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

struct Hash {  // a functor for thrust::transform
    __host__ __device__ int operator()(int x) const {
        unsigned v = (unsigned)x * 2654435761u;
        return (int)(v >> 8) - (1 << 23);
    }
};

template <typename T> int count_diff(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
    int bad = 0;
    for (size_t i = 0; i < want.size(); i++)
        if (!(got[i] == want[i]) && bad++ < 3)
            EXPECT(false, "%s: element %zu differs", what, i);
    printf("%-40s n=%zu: %s\n", what, want.size(), bad ? "wrong" : "ok");
    return bad;
}

static void thrust_part(int n) {
    // sequence + transform
    thrust::device_vector<int> d(n);
    thrust::sequence(d.begin(), d.end(), 5, 3);
    thrust::transform(d.begin(), d.end(), d.begin(), Hash());
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = Hash()(5 + 3 * i);
    std::vector<int> got(n);
    thrust::copy(d.begin(), d.end(), got.begin());
    count_diff(got, h, "thrust::sequence + thrust::transform");

    // reduce (int, wrapping sum computed in unsigned on the CPU)
    int sum = thrust::reduce(d.begin(), d.end(), 0, thrust::plus<int>());
    unsigned want_sum = 0;
    for (int v : h)
        want_sum += (unsigned)v;
    EXPECT(sum == (int)want_sum, "thrust::reduce = %d, expected %d", sum, (int)want_sum);
    int mx = thrust::reduce(d.begin(), d.end(), INT32_MIN, thrust::maximum<int>());
    EXPECT(mx == *std::max_element(h.begin(), h.end()), "thrust::reduce(max) = %d", mx);

    // sort ascending, then descending with a comparator
    thrust::sort(d.begin(), d.end());
    std::vector<int> s = h;
    std::sort(s.begin(), s.end());
    thrust::copy(d.begin(), d.end(), got.begin());
    count_diff(got, s, "thrust::sort");
    thrust::sort(d.begin(), d.end(), thrust::greater<int>());
    std::sort(s.begin(), s.end(), std::greater<int>());
    thrust::copy(d.begin(), d.end(), got.begin());
    count_diff(got, s, "thrust::sort (greater)");

    // sort_by_key: keys with many duplicates, values = original positions
    std::vector<int> keys(n), vals(n);
    for (int i = 0; i < n; i++) {
        keys[i] = (int)(rng() % 1000);
        vals[i] = i;
    }
    thrust::device_vector<int> dk(keys.begin(), keys.end()), dv(vals.begin(), vals.end());
    thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
    std::vector<int> gk(n), gv(n);
    thrust::copy(dk.begin(), dk.end(), gk.begin());
    thrust::copy(dv.begin(), dv.end(), gv.begin());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
    // thrust::sort_by_key is not required to be stable: check that keys are
    // sorted and that each value still carries its own key.
    int bad = 0;
    for (int i = 0; i < n; i++)
        if ((gk[i] != keys[order[i]] || gv[i] < 0 || gv[i] >= n || keys[gv[i]] != gk[i]) && bad++ < 3)
            EXPECT(false, "thrust::sort_by_key: element %d: key %d value %d", i, gk[i], gv[i]);
    std::vector<int> seen(gv);
    std::sort(seen.begin(), seen.end());
    for (int i = 0; i < n; i++)
        if (seen[i] != i && bad++ < 3)
            EXPECT(false, "thrust::sort_by_key: values are not a permutation");
    printf("%-40s n=%d: %s\n", "thrust::sort_by_key", n, bad ? "wrong" : "ok");

    // float reduce and inclusive_scan on small integers (exact in any order)
    std::vector<float> f(n);
    for (int i = 0; i < n; i++)
        f[i] = (float)(rng() % 256);
    thrust::device_vector<float> df(f.begin(), f.end());
    float fsum = thrust::reduce(df.begin(), df.end());
    float want_f = 0;
    for (float v : f)
        want_f += v;
    EXPECT(fsum == want_f, "thrust::reduce(float) = %.1f, expected %.1f", fsum, want_f);
    thrust::inclusive_scan(df.begin(), df.end(), df.begin());
    std::vector<float> fs(n), gf(n);
    std::partial_sum(f.begin(), f.end(), fs.begin());
    thrust::copy(df.begin(), df.end(), gf.begin());
    count_diff(gf, fs, "thrust::inclusive_scan(float)");
}

static void cub_part(int n) {
    std::vector<unsigned> keys(n), vals(n);
    for (int i = 0; i < n; i++) {
        keys[i] = rng();
        vals[i] = (unsigned)i;
    }
    unsigned *d_keys, *d_keys_out, *d_vals, *d_vals_out, *d_result;
    CK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_keys_out, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_vals, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_vals_out, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_result, sizeof(unsigned)));
    CK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_vals, vals.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

    void *temp = nullptr;
    size_t temp_bytes = 0, need = 0;
    auto ensure = [&](size_t bytes) {  // grows the temporary storage
        if (bytes > temp_bytes) {
            if (temp)
                CK(cudaFree(temp));
            CK(cudaMalloc(&temp, bytes));
            temp_bytes = bytes;
        }
    };

    // DeviceReduce::Sum and ::Max (unsigned: the sum wraps)
    CK(cub::DeviceReduce::Sum(nullptr, need, d_keys, d_result, n));
    ensure(need);
    CK(cub::DeviceReduce::Sum(temp, need, d_keys, d_result, n));
    unsigned got = 0, want = 0;
    CK(cudaMemcpy(&got, d_result, sizeof got, cudaMemcpyDeviceToHost));
    for (unsigned k : keys)
        want += k;
    EXPECT(got == want, "cub::DeviceReduce::Sum = %u, expected %u", got, want);
    printf("%-40s n=%d: %s\n", "cub::DeviceReduce::Sum", n, got == want ? "ok" : "wrong");
    CK(cub::DeviceReduce::Max(nullptr, need, d_keys, d_result, n));
    ensure(need);
    CK(cub::DeviceReduce::Max(temp, need, d_keys, d_result, n));
    CK(cudaMemcpy(&got, d_result, sizeof got, cudaMemcpyDeviceToHost));
    want = *std::max_element(keys.begin(), keys.end());
    EXPECT(got == want, "cub::DeviceReduce::Max = %u, expected %u", got, want);

    // DeviceScan::ExclusiveSum and ::InclusiveSum
    std::vector<unsigned> out(n), ref(n);
    CK(cub::DeviceScan::ExclusiveSum(nullptr, need, d_keys, d_keys_out, n));
    ensure(need);
    CK(cub::DeviceScan::ExclusiveSum(temp, need, d_keys, d_keys_out, n));
    CK(cudaMemcpy(out.data(), d_keys_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned acc = 0;
    for (int i = 0; i < n; i++) {
        ref[i] = acc;
        acc += keys[i];
    }
    count_diff(out, ref, "cub::DeviceScan::ExclusiveSum");
    CK(cub::DeviceScan::InclusiveSum(nullptr, need, d_keys, d_keys_out, n));
    ensure(need);
    CK(cub::DeviceScan::InclusiveSum(temp, need, d_keys, d_keys_out, n));
    CK(cudaMemcpy(out.data(), d_keys_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    std::partial_sum(keys.begin(), keys.end(), ref.begin());
    count_diff(out, ref, "cub::DeviceScan::InclusiveSum");

    // DeviceRadixSort::SortKeys
    CK(cub::DeviceRadixSort::SortKeys(nullptr, need, d_keys, d_keys_out, n));
    ensure(need);
    CK(cub::DeviceRadixSort::SortKeys(temp, need, d_keys, d_keys_out, n));
    CK(cudaMemcpy(out.data(), d_keys_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    ref = keys;
    std::sort(ref.begin(), ref.end());
    count_diff(out, ref, "cub::DeviceRadixSort::SortKeys");

    // DeviceRadixSort::SortPairs on 10-bit keys (many ties): radix sort is
    // stable, so the values must come out exactly as std::stable_sort's.
    for (auto &k : keys)
        k &= 1023;
    CK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cub::DeviceRadixSort::SortPairs(nullptr, need, d_keys, d_keys_out, d_vals, d_vals_out, n));
    ensure(need);
    CK(cub::DeviceRadixSort::SortPairs(temp, need, d_keys, d_keys_out, d_vals, d_vals_out, n));
    std::vector<unsigned> ok(n), ov(n);
    CK(cudaMemcpy(ok.data(), d_keys_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ov.data(), d_vals_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    std::vector<unsigned> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
    std::vector<unsigned> rk(n);
    for (int i = 0; i < n; i++)
        rk[i] = keys[order[i]];
    count_diff(ok, rk, "cub::DeviceRadixSort::SortPairs keys");
    count_diff(ov, order, "cub::DeviceRadixSort::SortPairs values");

    CK(cudaFree(temp));
    CK(cudaFree(d_keys));
    CK(cudaFree(d_keys_out));
    CK(cudaFree(d_vals));
    CK(cudaFree(d_vals_out));
    CK(cudaFree(d_result));
}

int main() {
    ck_start("thrust_cub");
    try {  // Thrust reports failed runtime calls as exceptions
        thrust_part(50000);
    } catch (const std::exception &e) {
        EXPECT(false, "Thrust threw: %s", e.what());
    }
    cub_part(70001);
    CK(cudaDeviceSynchronize());
    return ck_finish();
}
