// warp.cu -- warp-level kernels of tpsim's kernel suite (see README.md):
// shuffles, votes, match, active masks under divergence, partial warps,
// divergent control flow of every shape, and the special registers.
// Compiled with: nvcc -ptx -arch=sm_75 -o warp.ptx warp.cu
#include <stdint.h>

#define GTID (blockIdx.x * blockDim.x + threadIdx.x)
#define FULL 0xffffffffu

// ---- shfl: every mode, several widths, 32- and 64-bit values -----------------
#define SHFL_N 16
extern "C" __global__ void shfl(const uint32_t *in, const double *din, uint32_t *o, double *od)
{
    unsigned i = GTID, lane = threadIdx.x & 31;
    uint32_t v = in[i];
    uint32_t *r = o + (size_t)i * SHFL_N;
    r[0] = __shfl_sync(FULL, v, (lane * 7 + 3) & 31);          // shfl.sync.idx
    r[1] = __shfl_sync(FULL, v, v & 63);                        // data-dependent lane, past 31
    r[2] = __shfl_sync(FULL, v, 5, 8);                          // width 8
    r[3] = __shfl_sync(FULL, v, lane + 3, 16);                  // wraps within 16
    r[4] = __shfl_up_sync(FULL, v, 1);                          // shfl.sync.up
    r[5] = __shfl_up_sync(FULL, v, 5, 16);
    r[6] = __shfl_up_sync(FULL, v, v & 7, 8);                   // per-lane delta
    r[7] = __shfl_down_sync(FULL, v, 1);                        // shfl.sync.down
    r[8] = __shfl_down_sync(FULL, v, 3, 8);
    r[9] = __shfl_down_sync(FULL, v, 17);
    r[10] = __shfl_xor_sync(FULL, v, 1);                        // shfl.sync.bfly
    r[11] = __shfl_xor_sync(FULL, v, 22);
    r[12] = __shfl_xor_sync(FULL, v, 3, 4);
    r[13] = __shfl_xor_sync(FULL, v, 8, 8);                     // mask >= width: earlier segment only
    float f = __uint_as_float(v);
    r[14] = __float_as_uint(__shfl_down_sync(FULL, f, 2, 16));
    // a shuffle among the low half of the warp only (mask 0xffff)
    uint32_t h = 0;
    if (lane < 16) h = __shfl_xor_sync(0x0000ffffu, v, 5);
    r[15] = h;
    od[2 * i] = __shfl_sync(FULL, din[i], 31 - lane);           // 64-bit: two shfl
    od[2 * i + 1] = __shfl_up_sync(FULL, din[i], 2, 32);
}

// ---- vote: all/any/ballot/match and the active mask under divergence ---------
#define VOTE_N 12
extern "C" __global__ void vote(const uint32_t *in, uint32_t *o)
{
    unsigned i = GTID, lane = threadIdx.x & 31;
    uint32_t v = in[i];
    uint32_t *r = o + (size_t)i * VOTE_N;
    r[0] = __all_sync(FULL, v != 0);                            // vote.sync.all.pred
    r[1] = __any_sync(FULL, v > 0xf0000000u);                   // vote.sync.any.pred
    r[2] = __ballot_sync(FULL, v & 1);                          // vote.sync.ballot.b32
    r[3] = __activemask();                                      // activemask.b32: all 32
    uint32_t am = 0, bal = 0, any = 0;
    if (lane % 3 == 0) {                                        // divergent
        am = __activemask();
        bal = __ballot_sync(am, v & 2);
        any = __any_sync(am, v & 4);
    } else if (v & 8) {                                         // data-dependent divergence
        am = __activemask() | 0x80000000u;
    }
    r[4] = am;
    r[5] = bal;
    r[6] = any;
    unsigned key = v & 3;
    r[7] = __match_any_sync(FULL, key);                         // match.any.sync.b32
    int pred;
    r[8] = __match_all_sync(FULL, v >> 30, &pred);              // match.all.sync.b32
    r[9] = (uint32_t)pred;
    uint64_t k64 = (uint64_t)(v & 1) << 40 | (lane >> 3);
    r[10] = __match_any_sync(FULL, k64);                        // match.any.sync.b64
    r[11] = __popc(__ballot_sync(FULL, lane < (v & 31)));
}

// ---- partial_warp: a block of 48 threads: the second warp has 16 lanes -------
extern "C" __global__ void partial_warp(const uint32_t *in, uint32_t *o)
{
    unsigned i = GTID;
    uint32_t m = __activemask();
    uint32_t v = in[i];
    o[3 * i] = m;
    o[3 * i + 1] = __ballot_sync(m, v & 1);
    o[3 * i + 2] = __shfl_down_sync(m, v, 1, 16);               // lane 15 of a segment reads itself
}

// ---- divergence: branches, loops, early return, switches, calls, atomics -----
static __device__ __noinline__ uint32_t div_f1(uint32_t x) { return x * 3 + 1; }
static __device__ __noinline__ uint32_t div_f2(uint32_t x) { return (x >> 1) ^ 0x5a5a5a5au; }

#define DIV_N 8
extern "C" __global__ void divergence(const uint32_t *in, uint32_t *o, unsigned *hist)
{
    unsigned i = GTID, lane = threadIdx.x & 31;
    uint32_t x = in[i];
    uint32_t *r = o + (size_t)i * DIV_N;
    // nested if/else on lane id and data
    uint32_t a;
    if (lane & 1) {
        if (x & 2) a = x + lane;
        else if (x & 4) a = x ^ 0xffu;
        else a = 7;
    } else {
        if (lane < 8) a = x >> 3;
        else a = (x & 0x10) ? 100 : 200;
    }
    r[0] = a;
    // a loop with break and continue and a per-lane trip count
    uint32_t s = 0, n = x & 31;
    for (uint32_t k = 0; k < 40; k++) {
        if (k >= n) break;
        if ((k ^ x) & 1) continue;
        s += k * k + (x >> 8);
    }
    r[1] = s;
    // switches: dense and sparse
    uint32_t d;
    switch (x % 9) {
    case 0: d = 11; break;
    case 1: d = x; break;
    case 2: d = x * 2; break;
    case 3: d = ~x; break;
    case 4: d = 44; break;
    case 5: d = x >> 5; break;
    case 6: d = 66; // fall through
    case 7: d = 77 + lane; break;
    default: d = 99; break;
    }
    r[2] = d;
    uint32_t e;
    switch (x & 0xffff) {
    case 1: e = 1; break;
    case 100: e = 2; break;
    case 1000: e = 3; break;
    case 12345: e = 4; break;
    case 65535: e = 5; break;
    default: e = 0; break;
    }
    r[3] = e;
    // a while loop whose lanes leave at different iterations, then __syncwarp
    uint32_t y = x, it = 0;
    while (y > 1 && it < 100) { y = (y & 1) ? 3 * y + 1 : y >> 1; it++; }
    __syncwarp();
    r[4] = it + __shfl_xor_sync(FULL, it, 1);                   // all lanes back together
    // divergent calls
    r[5] = (x & 1) ? div_f1(x) : div_f2(x);
    // a divergent loop with atomics: the histogram does not depend on order
    for (uint32_t k = 0; k < (x & 7); k++) atomicAdd(&hist[(x + k) & 15], 1u);
    r[6] = 0;
    // early return for some lanes; the others go on
    if (x % 5 == 0) return;
    r[7] = __popc(__activemask()) + x;
}

// ---- special_regs: %laneid %warpid %nwarpid %smid %nsmid %lanemask_*, clocks --
#define SREG_N 12
extern "C" __global__ void special_regs(uint32_t *o, unsigned long long *clk)
{
    unsigned i = GTID;
    uint32_t lane, warp, nwarp, sm, nsm, eq, lt, le, gt, ge, c0, c1;
    unsigned long long t0, t1, t2;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
    asm volatile("mov.u32 %0, %%clock;" : "=r"(c0));
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%warpid;" : "=r"(warp));
    asm("mov.u32 %0, %%nwarpid;" : "=r"(nwarp));
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    asm("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1));
    uint32_t spin = 0;
    for (uint32_t k = 0; k < (i & 15) * 8; k++) spin = spin * 1664525u + 1013904223u;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t2));
    asm volatile("mov.u32 %0, %%clock;" : "=r"(c1));
    uint32_t *r = o + (size_t)i * SREG_N;
    r[0] = lane; r[1] = warp; r[2] = nwarp; r[3] = sm; r[4] = nsm;
    r[5] = eq; r[6] = lt; r[7] = le; r[8] = gt; r[9] = ge;
    r[10] = spin;
    r[11] = c1 - c0;
    clk[3 * i] = t0; clk[3 * i + 1] = t1; clk[3 * i + 2] = t2;
}

// ---- warp_size: warpSize read where nvcc cannot fold it ------------------------
// nvcc turns warpSize into the PTX ISA's predefined constant WARP_SZ
// (`mov.u32 %r, WARP_SZ;`); the reduction, scan and HyperQ samples of
// NVIDIA's cuda-samples read it this way.  Per thread: warpSize, the lane and
// warp from it, and a width-warpSize tree sum of the lane numbers.
#define WSZ_N 4
extern "C" __global__ void warp_size(uint32_t *o)
{
    unsigned i = GTID;
    uint32_t *r = o + (size_t)i * WSZ_N;
    uint32_t s = threadIdx.x % warpSize;
    for (int d = warpSize / 2; d > 0; d >>= 1) s += __shfl_xor_sync(FULL, s, d);
    r[0] = warpSize;
    r[1] = threadIdx.x % warpSize;
    r[2] = threadIdx.x / warpSize;
    r[3] = s;
}
