// bugs.cu -- the three real-world bugs issue 12 cites, each written here
// as a small program of its own (not the benchmarks' code), with its fix
// (tests/check/run_check.sh).
//
//  mvt   a matrix-vector product launched with blocks of 32x8 threads whose
//        row index uses only the x index: the 8 warps of a block add into
//        the same rows (PolyBench/GPU's MVT).  A race between warps.
//  bfs   breadth-first search in one kernel per level that marks the next
//        frontier in the same array it reads the current one from, in the
//        same launch (the ISPASS BFS): a node marked by one thread is read
//        by its own thread in the same launch, or not, depending on timing.
//  srad  a stencil that loads the north neighbour of row 0 from one row
//        before the image and only then clamps it (Rodinia's srad_v2): the
//        load reads 1 KB before the allocation -- here, the end of a buffer
//        allocated just before it and never written, so initcheck names it
//        (tpsim places allocations next to each other in the order made,
//        page-aligned; with nothing before it the read is out of bounds and
//        tpsim stops the kernel saying so).
// The bfs run is checked for its central finding only (what else races
// depends on which thread sees a mark first); the others exactly.
//
//! EXPECT mvt: read-write race @mvt @mvt
//! EXPECT mvt: write-write race @mvt @mvt
//! EXPECT mvt_fixed:
//! EXPECT bfs: read-write race @bfs_r @bfs_w
//! SUBSET bfs
//! EXPECT bfs_fixed:
//! EXPECT srad: uninitialized read @srad
//! EXPECT srad_fixed:
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            printf("bugs: FAIL (%s: %s)\n", #call, cudaGetErrorString(e_));                   \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

static int failures;
#define EXPECT(c, ...)                                                                        \
    do {                                                                                      \
        if (!(c) && failures++ < 5) {                                                         \
            printf("check failed: %s: ", #c);                                                 \
            printf(__VA_ARGS__);                                                              \
            printf("\n");                                                                     \
        }                                                                                     \
    } while (0)

// ---- mvt ---------------------------------------------------------------------------------

// x += A y, one row per thread, the row taken from the x index only.
__global__ void mvt_rows(const float *A, const float *y, float *x, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    for (int j = 0; j < n; j++)
        x[row] += A[row * n + j] * y[j]; // @mvt
}

static void mvt(bool fixed)
{
    const int n = 128;
    std::vector<float> A(n * n), y(n), x(n, 1.0f), want(n);
    for (int i = 0; i < n * n; i++) A[i] = (float)(i % 7);
    for (int j = 0; j < n; j++) y[j] = (float)(j % 5);
    for (int i = 0; i < n; i++) {
        float s = 1.0f;
        for (int j = 0; j < n; j++) s += A[i * n + j] * y[j];
        want[i] = s;   // small integers: exact in any order
    }
    float *dA, *dy, *dx;
    CK(cudaMalloc(&dA, n * n * sizeof(float)));
    CK(cudaMalloc(&dy, n * sizeof(float)));
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMemcpy(dA, A.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    if (fixed) mvt_rows<<<n / 32, dim3(32, 1)>>>(dA, dy, dx, n);
    else mvt_rows<<<n / 32, dim3(32, 8)>>>(dA, dy, dx, n);
    CK(cudaMemcpy(x.data(), dx, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; fixed && i < n; i++) EXPECT(x[i] == want[i], "x[%d] = %g, want %g", i, x[i], want[i]);
    CK(cudaFree(dA));
    CK(cudaFree(dy));
    CK(cudaFree(dx));
}

// ---- bfs ---------------------------------------------------------------------------------

// One level: every node in the frontier leaves it, is visited, and puts its
// unvisited neighbours into the same frontier array.
__global__ void bfs_level(const int *start, const int *adj, int *frontier, int *visited, int *dist, int *grew, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v]) return; // @bfs_r
    frontier[v] = 0;
    visited[v] = 1;
    for (int e = start[v]; e < start[v + 1]; e++) {
        int u = adj[e];
        if (!visited[u]) {
            dist[u] = dist[v] + 1;
            frontier[u] = 1; // @bfs_w
            *grew = 1;
        }
    }
}

// The fix: the current frontier is only read, the next one written by the
// thread that claims the node (atomicCAS on its distance), one launch each.
__global__ void bfs_expand(const int *start, const int *adj, const int *cur, int *next, int *dist, int level, int *grew,
                           int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !cur[v]) return;
    for (int e = start[v]; e < start[v + 1]; e++) {
        int u = adj[e];
        if (atomicCAS(&dist[u], -1, level + 1) == -1) {
            next[u] = 1;
            atomicOr(grew, 1);
        }
    }
}

static void bfs(bool fixed)
{
    // a 16 x 16 grid graph, node r * 16 + c, edges to the 4 neighbours
    const int side = 16, n = side * side;
    std::vector<int> start(n + 1), adj;
    for (int v = 0; v < n; v++) {
        start[v] = (int)adj.size();
        int r = v / side, c = v % side;
        if (r > 0) adj.push_back(v - side);
        if (c > 0) adj.push_back(v - 1);
        if (c < side - 1) adj.push_back(v + 1);
        if (r < side - 1) adj.push_back(v + side);
    }
    start[n] = (int)adj.size();
    int *dstart, *dadj, *df, *dnext, *dvis, *ddist, *dgrew;
    CK(cudaMalloc(&dstart, (n + 1) * sizeof(int)));
    CK(cudaMalloc(&dadj, adj.size() * sizeof(int)));
    CK(cudaMalloc(&df, n * sizeof(int)));
    CK(cudaMalloc(&dnext, n * sizeof(int)));
    CK(cudaMalloc(&dvis, n * sizeof(int)));
    CK(cudaMalloc(&ddist, n * sizeof(int)));
    CK(cudaMalloc(&dgrew, sizeof(int)));
    CK(cudaMemcpy(dstart, start.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dadj, adj.data(), adj.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(df, 0, n * sizeof(int)));
    CK(cudaMemset(dnext, 0, n * sizeof(int)));
    CK(cudaMemset(dvis, 0, n * sizeof(int)));
    std::vector<int> dist(n, fixed ? -1 : 0);
    dist[0] = 0;
    CK(cudaMemcpy(ddist, dist.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    int one = 1;
    CK(cudaMemcpy(df, &one, sizeof(int), cudaMemcpyHostToDevice));
    for (int level = 0, grew = 1; grew && level < 2 * n; level++) {
        grew = 0;
        CK(cudaMemcpy(dgrew, &grew, sizeof(int), cudaMemcpyHostToDevice));
        if (fixed) {
            bfs_expand<<<n / 64, 64>>>(dstart, dadj, df, dnext, ddist, level, dgrew, n);
            CK(cudaMemset(df, 0, n * sizeof(int)));
            int *t = df;
            df = dnext;
            dnext = t;
        } else {
            bfs_level<<<n / 64, 64>>>(dstart, dadj, df, dvis, ddist, dgrew, n);
        }
        CK(cudaMemcpy(&grew, dgrew, sizeof(int), cudaMemcpyDeviceToHost));
    }
    CK(cudaMemcpy(dist.data(), ddist, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int v = 0; fixed && v < n; v++) EXPECT(dist[v] == v / side + v % side, "dist[%d] = %d", v, dist[v]);
    int *bufs[] = {dstart, dadj, df, dnext, dvis, ddist, dgrew};
    for (int *p : bufs) CK(cudaFree(p));
}

// ---- srad --------------------------------------------------------------------------------

// The difference to the north neighbour, row 0 taking itself as neighbour:
// the neighbours are staged in shared memory, row 0's replaced after a
// barrier (as srad_v2 does).
__global__ void srad_north(const float *J, float *dn, int cols, int fixed)
{
    __shared__ float north[256];
    int i = blockIdx.x * cols + threadIdx.x;
    if (fixed) north[threadIdx.x] = J[blockIdx.x == 0 ? i : i - cols];
    else north[threadIdx.x] = J[i - cols]; // @srad
    __syncthreads();
    if (!fixed && blockIdx.x == 0) north[threadIdx.x] = J[i];
    __syncthreads();
    dn[i] = J[i] - north[threadIdx.x];
}

static void srad(bool fixed)
{
    const int rows = 16, cols = 256, bytes = rows * cols * sizeof(float);   // 16 KiB each
    float *later, *J, *dn;
    CK(cudaMalloc(&later, bytes));   // for a later step; never written here
    CK(cudaMalloc(&J, bytes));
    CK(cudaMalloc(&dn, bytes));
    std::vector<float> h(rows * cols);
    for (int i = 0; i < rows * cols; i++) h[i] = (float)(i / cols);
    CK(cudaMemcpy(J, h.data(), bytes, cudaMemcpyHostToDevice));
    srad_north<<<rows, cols>>>(J, dn, cols, fixed);
    CK(cudaMemcpy(h.data(), dn, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < rows * cols; i++) EXPECT(h[i] == (i < cols ? 0.0f : 1.0f), "dn[%d] = %g", i, h[i]);
    CK(cudaFree(later));
    CK(cudaFree(J));
    CK(cudaFree(dn));
}

int main(int argc, char **argv)
{
    const char *v = argc > 1 ? argv[1] : "";
    if (!strcmp(v, "mvt") || !strcmp(v, "mvt_fixed")) mvt(!strcmp(v, "mvt_fixed"));
    else if (!strcmp(v, "bfs") || !strcmp(v, "bfs_fixed")) bfs(!strcmp(v, "bfs_fixed"));
    else if (!strcmp(v, "srad") || !strcmp(v, "srad_fixed")) srad(!strcmp(v, "srad_fixed"));
    else {
        printf("bugs: FAIL (no variant '%s')\n", v);
        return 2;
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (failures) {
        printf("bugs: FAIL (%s)\n", v);
        return 1;
    }
    printf("bugs: PASS\n");
    return 0;
}
