// mem.cu -- memory-space kernels of tpsim's kernel suite (see README.md):
// shared-memory tiling and reductions with bar.sync, atomics on global and
// shared memory, a lock-free stack and a lock, local arrays, constant memory,
// module globals, dynamic shared memory, structs passed by value, 3D grids,
// vector loads and stores.
// Compiled with: nvcc -ptx -arch=sm_75 -o mem.ptx mem.cu
#include <stdint.h>

#define GTID (blockIdx.x * blockDim.x + threadIdx.x)

// ---- matmul_tiled: C = A (M x K) * B (K x N), 16x16 tiles, 2D grid ---------
// Sizes need not be multiples of 16: tiles are padded with zeros.  Each
// output is acc = fma(A[r][k], B[k][c], acc) for k = 0, 1, ... in order, so
// the result is bit-exact (the host repeats the same fma sequence).
#define TILE 16
extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];   // padded: no bank conflicts on the column walk
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (col < N && t + ty < K) ? B[(t + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc = __fmaf_rn(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

// ---- reduce_block: tree reduction and the bar.red forms ----------------------
// Per block: the sum (mod 2^32) by a shared-memory tree, the float maximum,
// and __syncthreads_count/_and/_or of three predicates.  blockDim.x == 256.
extern "C" __global__ void reduce_block(const uint32_t *in, const float *fin, uint32_t *out)
{
    __shared__ uint32_t s[256];
    __shared__ float fm[256];
    unsigned t = threadIdx.x, i = GTID;
    uint32_t v = in[i];
    s[t] = v;
    fm[t] = fin[i];
    __syncthreads();
    for (unsigned h = 128; h > 0; h >>= 1) {
        if (t < h) {
            s[t] += s[t + h];
            fm[t] = fmaxf(fm[t], fm[t + h]);
        }
        __syncthreads();
    }
    int cnt = __syncthreads_count(v & 1);
    int all = __syncthreads_and(v != 0);
    int any = __syncthreads_or(v > 0xfff00000u);
    if (t == 0) {
        out[5 * blockIdx.x] = s[0];
        out[5 * blockIdx.x + 1] = __float_as_uint(fm[0]);
        out[5 * blockIdx.x + 2] = (uint32_t)cnt;
        out[5 * blockIdx.x + 3] = (uint32_t)all;
        out[5 * blockIdx.x + 4] = (uint32_t)any;
    }
}

// ---- atomics_global ------------------------------------------------------------
// g: the counters (layout mirrored in kt_mem.c); tick: per-thread returned
// values, 4 per thread, then the atomicAdd tickets.  Every final value is independent of the order the atomics run in.
struct GCounters {
    int iadd, isub, imin, imax;
    unsigned uadd, umin, umax, uinc, udec, uand, uor, uxor, exch, cas, ticket, pad0;
    unsigned long long ladd, lmin_u, lmax_u, land, lor, lxor;
    long long lmin_s, lmax_s;
    float fadd, pad1;
    double dadd;
};

extern "C" __global__ void atomics_global(GCounters *g, const int *iv, const float *fv, const double *dv,
                                          unsigned *tick, unsigned inc_limit, unsigned dec_limit)
{
    unsigned i = GTID;
    int x = iv[i];
    unsigned u = (unsigned)x;
    unsigned long long L = (unsigned long long)(long long)x * 0x9e3779b97f4a7c15ull;
    atomicAdd(&g->iadd, x);                               // red.global.add (result unused)
    atomicSub(&g->isub, x);
    atomicMin(&g->imin, x);                               // atom.global.min.s32
    atomicMax(&g->imax, x);
    atomicAdd(&g->uadd, u);
    atomicMin(&g->umin, u);
    atomicMax(&g->umax, u);
    unsigned oinc = atomicInc(&g->uinc, inc_limit);       // atom.global.inc.u32
    unsigned odec = atomicDec(&g->udec, dec_limit);       // atom.global.dec.u32
    atomicAnd(&g->uand, u | 0x00ff0000u);
    atomicOr(&g->uor, u & 0x0f0f0f0fu);
    atomicXor(&g->uxor, u);
    unsigned oexch = atomicExch(&g->exch, i + 1);         // atom.global.exch.b32
    atomicAdd(&g->ladd, L);
    atomicMin(&g->lmin_u, L);
    atomicMax(&g->lmax_u, L);
    atomicAnd(&g->land, L | 0xffff0000ffff0000ull);
    atomicOr(&g->lor, L & 0x0101010101010101ull);
    atomicXor(&g->lxor, L);
    atomicMin(&g->lmin_s, (long long)L);
    atomicMax(&g->lmax_s, (long long)L);
    atomicAdd(&g->fadd, fv[i]);                           // exact: multiples of 1/4
    atomicAdd(&g->dadd, dv[i]);                           // exact: multiples of 2^-10
    // a CAS loop: an increment that hands out every ticket once
    unsigned old = g->cas, seen;
    while ((seen = atomicCAS(&g->cas, old, old + 1)) != old) old = seen;
    unsigned t = atomicAdd(&g->ticket, 1u);               // atom.global.add (result used)
    tick[4 * i] = old;
    tick[4 * i + 1] = oinc;
    tick[4 * i + 2] = odec;
    tick[4 * i + 3] = oexch;
    tick[4 * blockDim.x * gridDim.x + i] = t;
}

// ---- atomics_shared: the same kinds of atomics on __shared__ variables -------
// Per block: counters in shared memory, then thread 0 copies them out.
extern "C" __global__ void atomics_shared(const int *iv, const float *fv, const double *dv,
                                          unsigned *out, unsigned long long *out64, float *outf,
                                          double *outd, unsigned *tick)
{
    __shared__ int s_iadd, s_imin, s_imax;
    __shared__ unsigned s_umax, s_inc, s_dec, s_and, s_or, s_xor, s_exch, s_cas;
    __shared__ unsigned long long s_ladd, s_lmin;
    __shared__ float s_f;
    __shared__ double s_d;
    unsigned t = threadIdx.x, i = GTID;
    if (t == 0) {
        s_iadd = 0; s_imin = 0x7fffffff; s_imax = (int)0x80000000; s_umax = 0; s_inc = 0; s_dec = 3;
        s_and = 0xffffffffu; s_or = 0; s_xor = 0; s_exch = 0; s_cas = 0; s_ladd = 0; s_lmin = ~0ull;
        s_f = 0.0f; s_d = 0.0;
    }
    __syncthreads();
    int x = iv[i];
    unsigned u = (unsigned)x;
    atomicAdd(&s_iadd, x);                                // atom.shared.add
    atomicMin(&s_imin, x);                                // atom.shared.min.s32
    atomicMax(&s_imax, x);
    atomicMax(&s_umax, u);                                // atom.shared.max.u32
    unsigned oinc = atomicInc(&s_inc, 6u);                // atom.shared.inc.u32
    unsigned odec = atomicDec(&s_dec, 9u);                // atom.shared.dec.u32
    atomicAnd(&s_and, u | 0x80808080u);
    atomicOr(&s_or, u & 0x11111111u);
    atomicXor(&s_xor, u);
    unsigned oexch = atomicExch(&s_exch, t + 1);          // atom.shared.exch.b32
    atomicAdd(&s_ladd, (unsigned long long)(long long)x);  // atom.shared.add.u64
    atomicMin(&s_lmin, (unsigned long long)u << 20);       // atom.shared.min.u64
    atomicAdd(&s_f, fv[i]);                               // atom.shared.add.f32
    atomicAdd(&s_d, dv[i]);                               // atom.shared.add.f64
    unsigned old = s_cas, seen;
    while ((seen = atomicCAS(&s_cas, old, old + 1)) != old) old = seen;   // atom.shared.cas.b32
    tick[4 * i] = old;
    tick[4 * i + 1] = oinc;
    tick[4 * i + 2] = odec;
    tick[4 * i + 3] = oexch;
    __syncthreads();
    if (t == 0) {
        unsigned *o = out + 12 * blockIdx.x;
        o[0] = (unsigned)s_iadd; o[1] = (unsigned)s_imin; o[2] = (unsigned)s_imax; o[3] = s_umax;
        o[4] = s_inc; o[5] = s_dec; o[6] = s_and; o[7] = s_or; o[8] = s_xor; o[9] = s_exch;
        o[10] = s_cas; o[11] = 0;
        out64[2 * blockIdx.x] = s_ladd;
        out64[2 * blockIdx.x + 1] = s_lmin;
        outf[blockIdx.x] = s_f;
        outd[blockIdx.x] = s_d;
    }
}

// ---- lockfree: a Treiber stack built with a CAS loop, and a spin lock ---------
// Every thread pushes its node; head == -1 is empty.  Thread 0 of every block
// then takes a global lock (only one thread per block spins, so no warp waits
// on itself), does a plain read-modify-write under it, and releases it.
extern "C" __global__ void lockfree(int *head, int *next, int *lock, unsigned long long *total,
                                    unsigned *order, unsigned *pos, const int *val)
{
    int i = GTID;
    int old = *(volatile int *)head, seen;
    do {
        next[i] = old;
        seen = atomicCAS(head, old, i);
        if (seen == old) break;
        old = seen;
    } while (true);
    __syncthreads();
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        __threadfence();
        volatile unsigned long long *vt = total;
        volatile unsigned *vp = pos;
        *vt = *vt + (unsigned long long)val[blockIdx.x];
        unsigned p = *vp;
        order[p] = blockIdx.x;
        *vp = p + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}

// ---- local_array: per-thread arrays indexed by data, so they live in .local --
extern "C" __global__ void local_array(const uint32_t *in, uint32_t *out)
{
    uint32_t buf[64];
    uint32_t perm[16];
    unsigned i = GTID;
    uint32_t x = in[i];
    for (int k = 0; k < 64; k++) buf[k] = x * (uint32_t)(k + 1) ^ (uint32_t)k;
    for (int k = 0; k < 16; k++) perm[k] = (x >> (k & 7)) & 63;
    uint32_t acc = 0;
    for (int k = 0; k < 16; k++) {
        uint32_t j = perm[k];
        buf[(j + k) & 63] += buf[j];                      // data-dependent index
        acc = acc * 31 + buf[(x + k * 7) & 63];
    }
    out[i] = acc;
}

// ---- const_mem: __constant__ arrays set by the host, and module globals -------
__constant__ float c_coef[8];                             // set by cuModuleGetGlobal + HtoD
__constant__ int c_table[256];                            // set by the host
__constant__ int c_init[4] = {7, -3, 1000000, 42};        // initialized in the module
__device__ int g_counter = 5;                             // .global with an initializer
__device__ unsigned long long g_big[3] = {1ull, 0x100000000ull, 0xffffffffffffffffull};

extern "C" __global__ void const_mem(const float *x, const int *k, float *y, int *z)
{
    unsigned i = GTID;
    float v = x[i], p = c_coef[7];
    for (int j = 6; j >= 0; j--) p = __fmaf_rn(p, v, c_coef[j]);   // Horner, bit-exact
    y[i] = p;
    int idx = k[i];
    z[i] = c_table[idx & 255] + c_init[idx & 3] + (int)g_big[idx % 3];
    atomicAdd(&g_counter, 1);
}

// ---- dyn_shared: extern __shared__ sized at launch ----------------------------
// Reverses each block's segment through dynamic shared memory; the second
// half of the dynamic area holds doubles at an 8-byte aligned offset.
extern "C" __global__ void dyn_shared(const int *in, int *out, double *dout, unsigned *size)
{
    extern __shared__ unsigned char dyn[];
    int *si = (int *)dyn;
    double *sd = (double *)(dyn + ((blockDim.x * sizeof(int) + 7) & ~7u));
    unsigned t = threadIdx.x, i = GTID;
    si[t] = in[i];
    sd[t] = (double)in[i] * 0.5;
    __syncthreads();
    out[i] = si[blockDim.x - 1 - t];
    dout[i] = sd[(t + 1) % blockDim.x];
    if (i == 0) {
        unsigned d;
        asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(d));
        size[0] = d;
    }
}

// ---- struct_param: structs passed by value ------------------------------------
struct Mixed {          // 40 bytes, with padding after c, s and t
    char c;
    double d;
    int i;
    float f;
    short s;
    char t[3];
    long long ll;
};
struct Inner { unsigned short a; unsigned char b; };
struct Outer {          // nested struct and an array
    float v[5];
    Inner in;
    double w;
    int tail;
};
extern "C" __global__ void struct_param(Mixed m, int scale, Outer o, unsigned long long *out)
{
    unsigned i = GTID;
    unsigned long long *r = out + 12 * i;
    r[0] = (unsigned long long)(long long)m.c;
    r[1] = (unsigned long long)__double_as_longlong(m.d * scale);
    r[2] = (unsigned long long)(long long)(m.i + (int)i);
    r[3] = __float_as_uint(m.f);
    r[4] = (unsigned long long)(long long)m.s;
    r[5] = (unsigned long long)(m.t[0] + 2 * m.t[1] + 3 * m.t[2]);
    r[6] = (unsigned long long)m.ll;
    r[7] = __float_as_uint(o.v[i % 5]);
    r[8] = o.in.a + o.in.b;
    r[9] = (unsigned long long)__double_as_longlong(o.w);
    r[10] = (unsigned long long)(long long)o.tail;
    r[11] = (unsigned long long)scale;
}

// The same kind of launch through the 'extra' parameter buffer.
extern "C" __global__ void extra_params(int *out, Mixed m, int k, double w)
{
    out[0] = m.i * k;
    out[1] = (int)m.c;
    out[2] = (int)(w * 4.0);
    out[3] = (int)m.ll;
}

// ---- grid3d: every index register in a 3D grid of 3D blocks -------------------
extern "C" __global__ void grid3d(uint32_t *out)
{
    unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
    unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    unsigned block = (bz * gridDim.y + by) * gridDim.x + bx;
    unsigned thread = (tz * blockDim.y + ty) * blockDim.x + tx;
    unsigned g = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
    out[2 * g] = bx | by << 4 | bz << 8 | tx << 12 | ty << 16 | tz << 20;
    out[2 * g + 1] = gridDim.x | gridDim.y << 4 | gridDim.z << 8 | blockDim.x << 12 | blockDim.y << 16 |
                     blockDim.z << 20;
}

// ---- vector_mem: v2/v4 loads and stores, ld.global.nc, shared vectors ---------
extern "C" __global__ void vector_mem(const float4 *a, const int2 *b, const double2 *c,
                                      const longlong2 *d, float4 *oa, int2 *ob, double2 *oc,
                                      longlong2 *od, const unsigned *ro, unsigned *oro)
{
    __shared__ float4 sh[64];
    unsigned t = threadIdx.x, i = GTID;
    float4 v = a[i];                                      // ld.global.v4.f32
    sh[t] = make_float4(v.w, v.z, v.y, v.x);              // st.shared.v4.f32
    __syncthreads();
    float4 w = sh[63 - t];                                // ld.shared.v4.f32
    oa[i] = w;                                            // st.global.v4.f32
    int2 p = b[i];
    ob[i] = make_int2(p.y, p.x + p.y);
    double2 q = c[i];
    oc[i] = make_double2(q.y, q.x);
    longlong2 r = d[i];
    od[i] = make_longlong2(r.x ^ r.y, r.y);
    oro[i] = __ldg(&ro[i]) + __ldg(&ro[(i + 1) % (blockDim.x * gridDim.x)]);   // ld.global.nc
}
