// ctrl.cu -- control and whole-program kernels of tpsim's kernel suite (see
// README.md): device-function calls (many parameters, structs, recursion,
// function pointers), BFS over a CSR graph, a linked-list walk, device
// printf, exit in some threads, a large grid, 1024-thread blocks, fences and
// the last-block reduction.
// Compiled with: nvcc -ptx -arch=sm_75 -o ctrl.ptx ctrl.cu
#include <stdint.h>
#include <stdio.h>

#define GTID (blockIdx.x * blockDim.x + threadIdx.x)

// ---- calls ---------------------------------------------------------------------
struct Pair { int a; float b; };

static __device__ __noinline__ double mix(int i, float f, double d, Pair p, const int *ptr, char c)
{
    double t = __fma_rn((double)i, d, (double)f);
    t = __dadd_rn(t, (double)__fmul_rn((float)p.a, p.b));
    t = __dadd_rn(t, (double)ptr[0]);
    return __dadd_rn(t, (double)c);
}
static __device__ __noinline__ Pair make_pair(int a, float b)
{
    Pair p;
    p.a = a * 3;
    p.b = __fadd_rn(b, 1.0f);
    return p;
}
static __device__ __noinline__ unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
static __device__ __noinline__ unsigned ack(unsigned m, unsigned n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static __device__ __noinline__ int op_add(int a, int b) { return a + b; }
static __device__ __noinline__ int op_sub(int a, int b) { return a - b; }
static __device__ __noinline__ int op_mul(int a, int b) { return a * b; }
static __device__ __noinline__ int op_xor(int a, int b) { return a ^ b; }
__device__ int (*ops[4])(int, int) = {op_add, op_sub, op_mul, op_xor};

#define CALLS_N 6
extern "C" __global__ void calls(const int *in, const float *fin, const double *din, uint64_t *o)
{
    unsigned i = GTID;
    int x = in[i];
    uint64_t *r = o + (size_t)i * CALLS_N;
    Pair p = make_pair(x, fin[i]);
    double m = mix(x, fin[i], din[i], p, in + i, (char)(x & 0x7f));
    r[0] = (uint64_t)__double_as_longlong(m);
    r[1] = (uint64_t)(uint32_t)p.a | (uint64_t)__float_as_uint(p.b) << 32;
    r[2] = fib(i % 16);                       // recursive, depth up to 15
    r[3] = ack(i % 3, i % 4);                 // ackermann(0..2, 0..3)
    int (*fn)(int, int) = ops[x & 3];         // call through a __device__ table
    r[4] = (uint64_t)(uint32_t)fn(x, (int)i);
    r[5] = (uint64_t)(uint32_t)ops[(x >> 2) & 3](x >> 4, 3);
}

// ---- bfs: one level of a level-synchronous BFS over a CSR graph ---------------
extern "C" __global__ void bfs_level(const int *rowptr, const int *cols, int *level, int nv, int cur,
                                     int *changed)
{
    int v = GTID;
    if (v >= nv || level[v] != cur) return;
    for (int e = rowptr[v]; e < rowptr[v + 1]; e++) {
        int u = cols[e];
        // one writer claims each node (plain stores from every finder would race)
        if (atomicCAS(&level[u], -1, cur + 1) == -1) atomicExch(changed, 1);
    }
}

// ---- list_walk: pointer chasing through device addresses ----------------------
struct Node { Node *next; int val; int pad; };

extern "C" __global__ void list_walk(Node *const *heads, long long *sum, int *len)
{
    unsigned i = GTID;
    long long s = 0;
    int n = 0;
    for (const Node *p = heads[i]; p; p = p->next) { s += p->val * (n + 1); n++; }
    sum[i] = s;
    len[i] = n;
}

// list_link: the device builds a ring of nodes in the order perm gives.
extern "C" __global__ void list_link(Node *nodes, const int *perm, int n)
{
    int i = GTID;
    if (i >= n) return;
    nodes[perm[i]].next = (i + 1 < n) ? &nodes[perm[i + 1]] : (Node *)0;
    nodes[perm[i]].val = i;
}

// ---- printf_formats: the conversions of device printf --------------------------
// run_kernels.sh compares the sorted "dp " lines with printf_formats.expected.
extern "C" __global__ void printf_formats(const char *word, int k)
{
    unsigned b = blockIdx.x, t = threadIdx.x;
    printf("dp blk %u thr %u val %d\n", b, t, (int)(b * 10 + t) - 5 * k);
    if (b == 1 && t == 2) {
        printf("dp int %d %i %u %x %X %o\n", -42, 17, 4000000000u, 0xbeefu, 0xcafeu, 8u);
        printf("dp long %ld %lld %llu %llx\n", -1234567890123L, 9000000000000000000LL,
               18446744073709551615ULL, 0x123456789abcdefULL);
        printf("dp float %f %e %g %g %.3f %10.2f|\n", 3.5f, 1234.5, 0.0001, 1e-5, 2.0 / 3.0, -1.5);
        printf("dp str %s %c%c %5d|%-5d| %%\n", word, 'o', 'k', 42, 7);
        printf("dp ptr %p\n", (void *)word);
    }
}

// ---- exit_partial: some threads execute exit, the others go on ----------------
extern "C" __global__ void exit_partial(const uint32_t *in, uint32_t *o)
{
    unsigned i = GTID;
    uint32_t x = in[i];
    if (x % 3 == 1) asm volatile("exit;");
    uint32_t m = __activemask();              // the lanes that did not exit
    o[2 * i] = x * 2 + 1;
    o[2 * i + 1] = m;
}

// ---- big_grid: more blocks than the device holds at once ------------------------
extern "C" __global__ void big_grid(uint32_t *o, int n)
{
    unsigned i = GTID;
    if (i < (unsigned)n) o[i] = (i * 2654435761u) ^ blockIdx.x;
}

// ---- block1024: 32 warps in one block ------------------------------------------
extern "C" __global__ void block1024(const uint32_t *in, uint32_t *o)
{
    __shared__ uint32_t part[32];
    unsigned t = threadIdx.x, i = GTID;
    uint32_t v = in[i];
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    if ((t & 31) == 0) part[t >> 5] = v;
    __syncthreads();
    if (t < 32) {
        uint32_t w = part[t];
        for (int d = 16; d > 0; d >>= 1) w += __shfl_xor_sync(0xffffffffu, w, d);
        if (t == 0) o[blockIdx.x] = w;
    }
    __syncthreads();
    o[gridDim.x + i] = in[1023 - t + blockIdx.x * 1024] + part[(t * 7) & 31];
}

// ---- fence_reduce: the threadFenceReduction pattern ----------------------------
// Each block writes its partial sum, fences, and takes a ticket; the block
// that takes the last ticket adds the partials.
extern "C" __global__ void fence_reduce(const uint32_t *in, uint32_t *partial, unsigned *count,
                                        uint32_t *total, unsigned long long *clk)
{
    __shared__ uint32_t s[128];
    __shared__ bool last;
    unsigned t = threadIdx.x, i = GTID;
    unsigned long long c0 = clock64();
    s[t] = in[i];
    __syncthreads();
    for (unsigned h = 64; h > 0; h >>= 1) {
        if (t < h) s[t] += s[t + h];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();                                  // membar.gl
        unsigned ticket = atomicInc(count, gridDim.x);
        last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (last && t == 0) {
        uint32_t sum = 0;
        for (unsigned b = 0; b < gridDim.x; b++) sum += ((volatile uint32_t *)partial)[b];
        __threadfence_block();                            // membar.cta
        total[0] = sum;
        __threadfence_system();                           // membar.sys
    }
    unsigned long long c1 = clock64();
    clk[2 * i] = c0;
    clk[2 * i + 1] = c1;
}
