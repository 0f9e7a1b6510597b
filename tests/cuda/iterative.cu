// iterative.cu -- multi-kernel iterative algorithms with many launches.
//
// 1. k-means on integer points: per iteration an assignment kernel (counts
//    changed labels with an atomic), cudaMemset of the accumulators, an
//    accumulation kernel (shared-memory atomics, then global 64-bit
//    atomics) and an update kernel; the host reads the change count back
//    every iteration and stops at convergence.  Integer arithmetic and
//    lowest-index tie breaking make the result independent of the order of
//    the atomics, so the CPU's run must match exactly (labels, centroids,
//    number of iterations).
// 2. a Jacobi heat stencil on a 2D grid, 300 launches ping-ponging two
//    buffers, compared bit for bit with the same float operations on the CPU.
#include <cstdint>
#include <cstring>
#include <vector>

#include "check.h"

#define K 8

struct Pt {
    int x, y;
};

__global__ void assign(const Pt *p, int n, const Pt *cent, int *label, int *changed) {
    __shared__ Pt c[K];
    if (threadIdx.x < K)
        c[threadIdx.x] = cent[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long best = -1;
    int bk = 0;
    for (int k = 0; k < K; k++) {
        long long dx = p[i].x - c[k].x, dy = p[i].y - c[k].y;
        long long d = dx * dx + dy * dy;
        if (best < 0 || d < best) {
            best = d;
            bk = k;
        }
    }
    if (label[i] != bk) {
        label[i] = bk;
        atomicAdd(changed, 1);
    }
}

__global__ void accumulate(const Pt *p, int n, const int *label, unsigned long long *sx, unsigned long long *sy,
                           unsigned int *cnt) {
    __shared__ unsigned long long bx[K], by[K];
    __shared__ unsigned int bc[K];
    if (threadIdx.x < K) {
        bx[threadIdx.x] = by[threadIdx.x] = 0;
        bc[threadIdx.x] = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int k = label[i];
        atomicAdd(&bx[k], (unsigned long long)p[i].x);
        atomicAdd(&by[k], (unsigned long long)p[i].y);
        atomicAdd(&bc[k], 1u);
    }
    __syncthreads();
    if (threadIdx.x < K) {
        atomicAdd(&sx[threadIdx.x], bx[threadIdx.x]);
        atomicAdd(&sy[threadIdx.x], by[threadIdx.x]);
        atomicAdd(&cnt[threadIdx.x], bc[threadIdx.x]);
    }
}

__global__ void update(Pt *cent, const unsigned long long *sx, const unsigned long long *sy,
                       const unsigned int *cnt) {
    int k = threadIdx.x;
    if (k < K && cnt[k] > 0) {
        cent[k].x = (int)(sx[k] / cnt[k]);
        cent[k].y = (int)(sy[k] / cnt[k]);
    }
}

__global__ void jacobi(float *out, const float *in, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        out[y * w + x] = in[y * w + x];  // fixed boundary
    else
        out[y * w + x] =
            0.25f * ((in[y * w + x - 1] + in[y * w + x + 1]) + (in[(y - 1) * w + x] + in[(y + 1) * w + x]));
}

static uint64_t rng_state = 12345;
static uint32_t rng() {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}

static int kmeans_test() {
    const int n = 6000, max_iter = 60;
    std::vector<Pt> p(n);
    Pt truth[K];
    for (int k = 0; k < K; k++)
        truth[k] = {(int)(rng() % 9000) + 500, (int)(rng() % 9000) + 500};
    for (int i = 0; i < n; i++) {
        Pt c = truth[rng() % K];
        p[i] = {c.x + (int)(rng() % 1601) - 800, c.y + (int)(rng() % 1601) - 800};
    }
    // Initial centroids: the first K points.
    std::vector<Pt> cent(p.begin(), p.begin() + K), hcent = cent;
    std::vector<int> hlabel(n, -1), label(n);

    Pt *d_p, *d_cent;
    int *d_label, *d_changed;
    unsigned long long *d_sx, *d_sy;
    unsigned int *d_cnt;
    CK(cudaMalloc(&d_p, n * sizeof(Pt)));
    CK(cudaMalloc(&d_cent, K * sizeof(Pt)));
    CK(cudaMalloc(&d_label, n * sizeof(int)));
    CK(cudaMalloc(&d_changed, sizeof(int)));
    CK(cudaMalloc(&d_sx, K * sizeof(unsigned long long)));
    CK(cudaMalloc(&d_sy, K * sizeof(unsigned long long)));
    CK(cudaMalloc(&d_cnt, K * sizeof(unsigned int)));
    CK(cudaMemcpy(d_p, p.data(), n * sizeof(Pt), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_cent, cent.data(), K * sizeof(Pt), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_label, 0xff, n * sizeof(int)));  // -1: no label yet

    int dev_iters = 0, host_iters = 0, launches = 0;
    for (int it = 0; it < max_iter; it++) {
        CK(cudaMemset(d_changed, 0, sizeof(int)));
        assign<<<(n + 255) / 256, 256>>>(d_p, n, d_cent, d_label, d_changed);
        CK_LAUNCH();
        CK(cudaMemset(d_sx, 0, K * sizeof(unsigned long long)));
        CK(cudaMemset(d_sy, 0, K * sizeof(unsigned long long)));
        CK(cudaMemset(d_cnt, 0, K * sizeof(unsigned int)));
        accumulate<<<7, 128>>>(d_p, n, d_label, d_sx, d_sy, d_cnt);
        CK_LAUNCH();
        update<<<1, 32>>>(d_cent, d_sx, d_sy, d_cnt);
        CK_LAUNCH();
        launches += 3;
        int changed = -1;
        CK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
        dev_iters = it + 1;
        if (changed == 0)
            break;
    }
    // The CPU's run.
    for (int it = 0; it < max_iter; it++) {
        int changed = 0;
        for (int i = 0; i < n; i++) {
            long long best = -1;
            int bk = 0;
            for (int k = 0; k < K; k++) {
                long long dx = p[i].x - hcent[k].x, dy = p[i].y - hcent[k].y, d = dx * dx + dy * dy;
                if (best < 0 || d < best) {
                    best = d;
                    bk = k;
                }
            }
            if (hlabel[i] != bk) {
                hlabel[i] = bk;
                changed++;
            }
        }
        unsigned long long sx[K] = {0}, sy[K] = {0};
        unsigned cnt[K] = {0};
        for (int i = 0; i < n; i++) {
            sx[hlabel[i]] += (unsigned long long)p[i].x;
            sy[hlabel[i]] += (unsigned long long)p[i].y;
            cnt[hlabel[i]]++;
        }
        for (int k = 0; k < K; k++)
            if (cnt[k] > 0)
                hcent[k] = {(int)(sx[k] / cnt[k]), (int)(sy[k] / cnt[k])};
        host_iters = it + 1;
        if (changed == 0)
            break;
    }
    CK(cudaMemcpy(cent.data(), d_cent, K * sizeof(Pt), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(label.data(), d_label, n * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(dev_iters == host_iters, "k-means: %d iterations on the device, %d on the CPU", dev_iters, host_iters);
    for (int k = 0; k < K; k++)
        EXPECT(cent[k].x == hcent[k].x && cent[k].y == hcent[k].y, "centroid %d = (%d, %d), expected (%d, %d)", k,
               cent[k].x, cent[k].y, hcent[k].x, hcent[k].y);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (label[i] != hlabel[i] && bad++ < 3)
            EXPECT(false, "k-means: label[%d] = %d, expected %d", i, label[i], hlabel[i]);
    printf("k-means: %d points, %d clusters, converged in %d iterations (%d launches): %s\n", n, K, dev_iters,
           launches, bad ? "wrong" : "ok");
    EXPECT(host_iters < max_iter, "k-means did not converge in %d iterations", max_iter);
    CK(cudaFree(d_p));
    CK(cudaFree(d_cent));
    CK(cudaFree(d_label));
    CK(cudaFree(d_changed));
    CK(cudaFree(d_sx));
    CK(cudaFree(d_sy));
    CK(cudaFree(d_cnt));
    return 0;
}

static void jacobi_test() {
    const int w = 48, h = 40, steps = 300;
    std::vector<float> a(w * h, 0.0f), b(w * h);
    for (int x = 0; x < w; x++) {
        a[x] = 100.0f;                   // hot top edge
        a[(h - 1) * w + x] = -20.0f;     // cold bottom edge
    }
    for (int y = 0; y < h; y++)
        a[y * w + w - 1] = (float)y;     // a ramp on the right
    float *d_a, *d_b;
    CK(cudaMalloc(&d_a, w * h * sizeof(float)));
    CK(cudaMalloc(&d_b, w * h * sizeof(float)));
    CK(cudaMemcpy(d_a, a.data(), w * h * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    for (int s = 0; s < steps; s++) {
        jacobi<<<grid, block>>>(s % 2 ? d_a : d_b, s % 2 ? d_b : d_a, w, h);
        CK_LAUNCH();
    }
    std::vector<float> got(w * h);
    CK(cudaMemcpy(got.data(), steps % 2 ? d_b : d_a, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    for (int s = 0; s < steps; s++) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                b[y * w + x] = x == 0 || y == 0 || x == w - 1 || y == h - 1
                                   ? a[y * w + x]
                                   : 0.25f * ((a[y * w + x - 1] + a[y * w + x + 1]) +
                                              (a[(y - 1) * w + x] + a[(y + 1) * w + x]));
        a.swap(b);
    }
    int bad = 0;
    for (int i = 0; i < w * h; i++)
        if (memcmp(&got[i], &a[i], sizeof(float)) != 0 && bad++ < 3)
            EXPECT(false, "jacobi: cell (%d, %d) = %.9g, expected %.9g", i % w, i / w, got[i], a[i]);
    printf("jacobi: %dx%d grid, %d launches, bit-exact: %s; centre %.6f\n", w, h, steps, bad ? "wrong" : "ok",
           a[(h / 2) * w + w / 2]);
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
}

int main() {
    ck_start("iterative");
    kmeans_test();
    jacobi_test();
    return ck_finish();
}
