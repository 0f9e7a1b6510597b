// templates.cu -- templated kernels and templated host code.
//
// Covers: a block reduction templated on the element type, the block size
// (a non-type parameter sizing static shared memory) and a functor type;
// a map kernel templated on a functor with state; a compile-time recursive
// template (Horner's rule unrolled by the compiler); a class template with
// device member functions passed by value; a variadic kernel (a C++17 fold);
// and host function templates instantiated for int, unsigned long long,
// float and double.  Every float result is bit-exact: the CPU repeats the
// device's order of operations, and multiply-adds are written fma() on both
// sides, so contraction cannot change them.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <cuda/std/limits>

#include "check.h"

// ---- functors -----------------------------------------------------------

template <typename T> struct Plus {
    static __host__ __device__ T identity() { return T(0); }
    __host__ __device__ T operator()(T a, T b) const { return a + b; }
};

template <typename T> struct Max {
    static __host__ __device__ T identity() { return cuda::std::numeric_limits<T>::lowest(); }
    __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

template <typename T> struct Min {
    static __host__ __device__ T identity() { return cuda::std::numeric_limits<T>::max(); }
    __host__ __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};

// mad(a, b, c) = a*b + c, rounded once for floating types (fma), wrapping
// for unsigned integers.
template <typename T> __host__ __device__ T mad(T a, T b, T c) { return a * b + c; }
template <> __host__ __device__ float mad<float>(float a, float b, float c) { return fmaf(a, b, c); }
template <> __host__ __device__ double mad<double>(double a, double b, double c) { return fma(a, b, c); }

template <typename T> struct Axpb {  // a functor with state
    T a, b;
    __host__ __device__ T operator()(T x) const { return mad(a, x, b); }
};

// ---- kernels ------------------------------------------------------------

// Each block reduces a grid-strided slice of in[] into out[blockIdx.x]:
// thread t folds in[t], in[t + BLOCK*grid], ... then a shared-memory tree.
template <typename T, int BLOCK, typename Op>
__global__ void block_reduce(const T *in, T *out, int n, Op op) {
    __shared__ T buf[BLOCK];
    T acc = Op::identity();
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
        acc = op(acc, in[i]);
    buf[threadIdx.x] = acc;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] = op(buf[threadIdx.x], buf[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = buf[0];
}

template <typename T, typename F>
__global__ void map(T *y, const T *x, int n, F f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = f(x[i]);
}

// Horner<N>::eval(c, x) = c[0]*x^N + c[1]*x^(N-1) + ... + c[N] (mod 2^32).
template <int N> struct Horner {
    static __host__ __device__ uint32_t eval(const uint32_t *c, uint32_t x) {
        return Horner<N - 1>::eval(c, x) * x + c[N];
    }
};
template <> struct Horner<0> {
    static __host__ __device__ uint32_t eval(const uint32_t *c, uint32_t) { return c[0]; }
};

template <int N>
__global__ void poly(uint32_t *y, const uint32_t *x, int n, const uint32_t *coef) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = Horner<N>::eval(coef, x[i]);
}

template <typename T> struct Vec3 {
    T x, y, z;
    __host__ __device__ Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
    __host__ __device__ T dot(const Vec3 &o) const { return mad(x, o.x, mad(y, o.y, z * o.z)); }
    __host__ __device__ Vec3 cross(const Vec3 &o) const {
        return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x};
    }
};

// out[i] = (v[i] + shift) . (v[i] x axis): `shift` and `axis` by value.
template <typename T>
__global__ void vec3_kernel(T *out, const Vec3<T> *v, int n, Vec3<T> shift, Vec3<T> axis) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (v[i] + shift).dot(v[i].cross(axis));
}

template <typename... Args>
__global__ void sum_args(long long *out, Args... args) {
    out[threadIdx.x] = (static_cast<long long>(args) + ...) * (threadIdx.x + 1);
}

// ---- host side ----------------------------------------------------------

static uint64_t rng_state = 0x243f6a8885a308d3ULL;
static uint64_t rng() {  // splitmix64
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

template <typename T> T random_value();
template <> int random_value<int>() { return (int)(rng() % 2000001) - 1000000; }
template <> unsigned long long random_value<unsigned long long>() { return rng(); }
template <> float random_value<float>() { return (float)((int64_t)(rng() % 2000001) - 1000000) / 1024.0f; }
template <> double random_value<double>() { return (double)((int64_t)(rng() >> 11) - (1LL << 52)) / 3.0; }

template <typename T> bool same(T a, T b) { return a == b; }
template <> bool same<float>(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }
template <> bool same<double>(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

template <typename T> double as_double(T v) { return (double)v; }

// Runs block_reduce<T, BLOCK, Op> over n values and checks every block's
// result against the same fold and tree computed here.
template <typename T, int BLOCK, typename Op>
void test_reduce(const char *what, int n, int grid) {
    std::vector<T> h(n);
    for (auto &v : h)
        v = random_value<T>();
    T *d_in, *d_out;
    CK(cudaMalloc(&d_in, n * sizeof(T)));
    CK(cudaMalloc(&d_out, grid * sizeof(T)));
    CK(cudaMemcpy(d_in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    block_reduce<T, BLOCK, Op><<<grid, BLOCK>>>(d_in, d_out, n, Op());
    CK_LAUNCH();
    std::vector<T> got(grid);
    CK(cudaMemcpy(got.data(), d_out, grid * sizeof(T), cudaMemcpyDeviceToHost));
    Op op;
    int bad = 0;
    for (int b = 0; b < grid; b++) {
        T buf[BLOCK];
        for (int t = 0; t < BLOCK; t++) {
            T acc = Op::identity();
            for (int i = b * BLOCK + t; i < n; i += BLOCK * grid)
                acc = op(acc, h[i]);
            buf[t] = acc;
        }
        for (int s = BLOCK / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++)
                buf[t] = op(buf[t], buf[t + s]);
        if (!same(got[b], buf[0]) && bad++ < 3)
            EXPECT(false, "%s: block %d: got %.17g, expected %.17g", what, b,
                   as_double(got[b]), as_double(buf[0]));
    }
    printf("reduce %-28s n=%d grid=%d block=%d: %s\n", what, n, grid, BLOCK, bad ? "wrong" : "ok");
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
}

template <typename T>
void test_map(const char *what, int n, T a, T b) {
    std::vector<T> h(n), got(n);
    for (auto &v : h)
        v = random_value<T>();
    T *d_x, *d_y;
    CK(cudaMalloc(&d_x, n * sizeof(T)));
    CK(cudaMalloc(&d_y, n * sizeof(T)));
    CK(cudaMemcpy(d_x, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    Axpb<T> f{a, b};
    map<<<(n + 127) / 128, 128>>>(d_y, d_x, n, f);
    CK_LAUNCH();
    CK(cudaMemcpy(got.data(), d_y, n * sizeof(T), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (!same(got[i], f(h[i])) && bad++ < 3)
            EXPECT(false, "%s: y[%d]: got %.17g, expected %.17g", what, i,
                   as_double(got[i]), as_double(f(h[i])));
    printf("map    %-28s n=%d: %s\n", what, n, bad ? "wrong" : "ok");
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
}

template <int N> void test_poly(int n) {
    std::vector<uint32_t> x(n), got(n), coef(N + 1);
    for (auto &v : x)
        v = (uint32_t)rng();
    for (auto &v : coef)
        v = (uint32_t)rng();
    uint32_t *d_x, *d_y, *d_c;
    CK(cudaMalloc(&d_x, n * 4));
    CK(cudaMalloc(&d_y, n * 4));
    CK(cudaMalloc(&d_c, (N + 1) * 4));
    CK(cudaMemcpy(d_x, x.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_c, coef.data(), (N + 1) * 4, cudaMemcpyHostToDevice));
    poly<N><<<(n + 63) / 64, 64>>>(d_y, d_x, n, d_c);
    CK_LAUNCH();
    CK(cudaMemcpy(got.data(), d_y, n * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        // The reference is written out longhand, not with Horner<N>.
        uint32_t want = 0;
        for (int k = 0; k <= N; k++) {
            uint32_t p = coef[k];
            for (int e = 0; e < N - k; e++)
                p *= x[i];
            want += p;
        }
        if (got[i] != want && bad++ < 3)
            EXPECT(false, "poly<%d>: y[%d] = %u, expected %u", N, i, got[i], want);
    }
    printf("poly<%d> n=%d: %s\n", N, n, bad ? "wrong" : "ok");
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    CK(cudaFree(d_c));
}

template <typename T> void test_vec3(const char *what, int n) {
    std::vector<Vec3<T>> v(n);
    std::vector<T> got(n);
    // Integers stay within [-300, 300] so that no product overflows.
    auto val = []() -> T {
        return std::numeric_limits<T>::is_integer ? (T)((int)(rng() % 601) - 300) : random_value<T>();
    };
    for (auto &e : v)
        e = {val(), val(), val()};
    Vec3<T> shift{val(), val(), val()};
    Vec3<T> axis{val(), val(), val()};
    Vec3<T> *d_v;
    T *d_out;
    CK(cudaMalloc(&d_v, n * sizeof(Vec3<T>)));
    CK(cudaMalloc(&d_out, n * sizeof(T)));
    CK(cudaMemcpy(d_v, v.data(), n * sizeof(Vec3<T>), cudaMemcpyHostToDevice));
    vec3_kernel<T><<<(n + 95) / 96, 96>>>(d_out, d_v, n, shift, axis);
    CK_LAUNCH();
    CK(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        // Vec3's members are __host__ __device__: the same expression here.
        // The products in cross() may be contracted into fmas by nvcc, so
        // floating types are checked with a relative bound, integers exactly.
        T want = (v[i] + shift).dot(v[i].cross(axis));
        bool ok;
        if (std::numeric_limits<T>::is_integer) {
            ok = got[i] == want;
        } else {
            double scale = 0;
            const T c[6] = {v[i].x, v[i].y, v[i].z, axis.x, axis.y, axis.z};
            double m1 = 0, m2 = 0;
            for (int k = 0; k < 3; k++) m1 = fmax(m1, fabs((double)c[k]));
            for (int k = 3; k < 6; k++) m2 = fmax(m2, fabs((double)c[k]));
            double m0 = fmax(fabs((double)(v[i].x + shift.x)),
                             fmax(fabs((double)(v[i].y + shift.y)), fabs((double)(v[i].z + shift.z))));
            scale = 6 * m0 * m1 * m2;  // bounds every term of the sum
            double eps = std::numeric_limits<T>::epsilon();
            ok = fabs((double)got[i] - (double)want) <= 8 * eps * scale;
        }
        if (!ok && bad++ < 3)
            EXPECT(false, "vec3 %s: out[%d] = %.17g, expected %.17g", what, i,
                   as_double(got[i]), as_double(want));
    }
    printf("vec3   %-28s n=%d: %s\n", what, n, bad ? "wrong" : "ok");
    CK(cudaFree(d_v));
    CK(cudaFree(d_out));
}

template <typename... Args> void test_variadic(const char *what, long long expect, Args... args) {
    long long *d, h[32];
    CK(cudaMalloc(&d, sizeof h));
    sum_args<<<1, 32>>>(d, args...);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < 32; t++)
        if (h[t] != expect * (t + 1) && bad++ < 3)
            EXPECT(false, "sum_args %s: out[%d] = %lld, expected %lld", what, t, h[t], expect * (t + 1));
    printf("sum_args %s: %s\n", what, bad ? "wrong" : "ok");
    CK(cudaFree(d));
}

int main() {
    ck_start("templates");
    test_reduce<int, 256, Plus<int>>("Plus<int>", 100000, 13);
    test_reduce<int, 128, Max<int>>("Max<int>", 54321, 7);
    test_reduce<unsigned long long, 64, Plus<unsigned long long>>("Plus<unsigned long long>", 30001, 9);
    test_reduce<unsigned long long, 32, Min<unsigned long long>>("Min<unsigned long long>", 4097, 5);
    test_reduce<float, 256, Plus<float>>("Plus<float>", 77777, 11);
    test_reduce<float, 512, Min<float>>("Min<float>", 10000, 3);
    test_reduce<double, 128, Plus<double>>("Plus<double>", 50000, 6);
    test_reduce<double, 64, Max<double>>("Max<double>", 1000, 1);

    test_map<int>("Axpb<int>", 10007, 7, -3);
    test_map<float>("Axpb<float>", 10007, 1.1f, -0.3f);
    test_map<double>("Axpb<double>", 5003, 3.3, 1e-3);

    test_poly<1>(1000);
    test_poly<5>(1000);
    test_poly<12>(2000);

    test_vec3<int>("Vec3<int>", 3000);
    test_vec3<float>("Vec3<float>", 3000);
    test_vec3<double>("Vec3<double>", 3000);

    test_variadic("(int)", 42, 42);
    test_variadic("(int, char, short)", 1 + 'A' + 300, 1, 'A', (short)300);
    test_variadic("(double, unsigned, long long, float)", 3 + 7 + 5000000000LL + 2, 3.75, 7u,
                  5000000000LL, 2.5f);
    return ck_finish();
}
