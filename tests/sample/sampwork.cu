/*
** sampwork.cu -- the kernels of the sampled-timing workloads (sampwork.c),
** with every size a run-time parameter (the PolyBench kernels of
** tests/polybench fix their row pitch at compile time).  regen.sh remakes
** sampwork.ptx from this file.
**   mm_naive   C = alpha A B + beta C, one thread per element of C (x: column,
**              y: row; blocks of 32x8), the dot product in a register
**   mm_tiled   C = A B, 16x16 tiles staged through shared memory (the
**              textbook tiled product), n a multiple of 16
**   mm_reg     C = A B, register-blocked: a CTA of 16x16 threads computes a
**              64x64 tile of C, each thread 4x4 of it, from 16-deep slices of A
**              and B staged through shared memory (16 FMAs per two 16-byte
**              shared loads, as tuned SGEMM kernels do); n a multiple of 64
**   conv2d     a 3x3 convolution (PolyBench's coefficients), border left as is
**   jacobi     one step of a 5-point heat stencil, in to out
**   triad      a = b + s c over n floats, one thread an element (1-D blocks
**              of 256): the STREAM triad, bound by DRAM bandwidth
**   transpose  out = in transposed, n x n floats, one thread an element
**              (blocks of 32x8): a warp reads one row piece (coalesced) and
**              writes 32 rows apart, one 4-byte word in each of 32 lines
**   gather     out[i] = in[i s mod n], n a power of two, one thread an
**              element: stride 1 is coalesced, 33 puts every lane of a warp
**              in its own line -- the same instructions, other cycles
*/
__global__ void mm_naive(int n, float alpha, float beta, const float *a, const float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float s = 0.0f;
        for (int k = 0; k < n; k++) s += a[(size_t)i * n + k] * b[(size_t)k * n + j];
        c[(size_t)i * n + j] = alpha * s + beta * c[(size_t)i * n + j];
    }
}

#define TILE 16
__global__ void mm_tiled(int n, const float *a, const float *b, float *c)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float s = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        ta[ty][tx] = a[(size_t)row * n + k0 + tx];
        tb[ty][tx] = b[(size_t)(k0 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) s += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    c[(size_t)row * n + col] = s;
}

__global__ void mm_reg(int n, const float *a, const float *b, float *c)
{
    __shared__ float4 as[16][16], bs[16][16]; /* as[k][i]: rows 4i..4i+3 of the slice's column k */
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < n; k0 += 16) {
        /* 64x16 of A and 16x64 of B, four floats a thread each */
        int ar = t / 4, ak = (t % 4) * 4;
        float4 va = *(const float4 *)&a[(size_t)(row0 + ar) * n + k0 + ak];
        ((float *)&as[ak + 0][ar / 4])[ar % 4] = va.x;
        ((float *)&as[ak + 1][ar / 4])[ar % 4] = va.y;
        ((float *)&as[ak + 2][ar / 4])[ar % 4] = va.z;
        ((float *)&as[ak + 3][ar / 4])[ar % 4] = va.w;
        int bk = t / 16, bc = (t % 16) * 4;
        bs[bk][bc / 4] = *(const float4 *)&b[(size_t)(k0 + bk) * n + col0 + bc];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; k++) {
            float4 x = as[k][ty], y = bs[k][tx];
            float xa[4] = {x.x, x.y, x.z, x.w}, ya[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) acc[i][j] += xa[i] * ya[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        *(float4 *)&c[(size_t)(row0 + ty * 4 + i) * n + col0 + tx * 4] =
            make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
}

__global__ void conv2d(int n, const float *A, float *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && i < n - 1 && j < n - 1) {
        size_t r = (size_t)i * n;
        B[r + j] = 0.2f * A[r - n + j - 1] + 0.5f * A[r - n + j] - 0.8f * A[r - n + j + 1]
                 - 0.3f * A[r + j - 1] + 0.6f * A[r + j] - 0.9f * A[r + j + 1]
                 + 0.4f * A[r + n + j - 1] + 0.7f * A[r + n + j] + 0.1f * A[r + n + j + 1];
    }
}

__global__ void jacobi(int n, const float *in, float *out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && i < n - 1 && j < n - 1) {
        size_t r = (size_t)i * n;
        out[r + j] = 0.25f * (in[r - n + j] + in[r + n + j] + in[r + j - 1] + in[r + j + 1]);
    }
}

__global__ void triad(long long n, float s, const float *b, const float *c, float *a)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = b[i] + s * c[i];
}

__global__ void transpose(int n, const float *in, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n) out[(size_t)x * n + y] = in[(size_t)y * n + x];
}

__global__ void gather(int n, int s, const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(unsigned)i * (unsigned)s & (unsigned)(n - 1)];
}
