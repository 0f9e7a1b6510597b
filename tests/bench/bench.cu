// bench.cu -- kernels for `make bench`: the functional model's speed on
// compute-bound, memory-bound, shared-memory and divergent code.
// Regenerate bench.ptx with: sh tests/bench/regen.sh

// Compute-bound: a dependent FMA chain per thread.
extern "C" __global__ void fma_loop(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = i * 0.001f, b = 1.0001f, c = 0.5f;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, b, c);
        c = fmaf(c, 0.999f, a * 1e-6f);
    }
    out[i] = a + c;
}

// Compute-bound integer work: a hash mixing loop.
extern "C" __global__ void int_hash(unsigned *out, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = i * 2654435761u;
    for (int k = 0; k < iters; k++) {
        h ^= h >> 16;
        h *= 0x85ebca6bu;
        h ^= h >> 13;
        h += k;
    }
    out[i] = h;
}

// Memory-bound streaming.
extern "C" __global__ void saxpy(const float *x, float *y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

// Shared-memory tiling with barriers.
#define T 16
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[T][T], Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < n / T; t++) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * T + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * T + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// Divergent: per-pixel escape-time loop.
extern "C" __global__ void mandel(int *out, int w, int h, int maxit)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h, zr = 0, zi = 0;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * w + x] = it;
}
