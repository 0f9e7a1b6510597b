/*
** kt_warp.c -- warp-level tests (kernels in warp.cu).
**
** The shuffle reference is the PTX ISA's shfl.sync pseudo-code; the CUDA
** intrinsics pack c as ((32 - width) << 8) | 0x1f, or (32 - width) << 8 for
** __shfl_up_sync.  Warps are the aligned groups of 32 threads of 1D blocks.
*/
#include "kt.h"

#include <string.h>

#define FULL 0xffffffffu

enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };

/* The lane a shuffle reads from (PTX ISA, shfl.sync semantics). */
static int shfl_src(int lane, int mode, uint32_t b, uint32_t cc)
{
    int bval = (int)(b & 31), cval = (int)(cc & 31), seg = (int)((cc >> 8) & 31);
    int maxl = (lane & seg) | (cval & ~seg), minl = lane & seg, j;
    bool ok;
    switch (mode) {
    case SH_UP: j = lane - bval; ok = j >= maxl; break;
    case SH_DOWN: j = lane + bval; ok = j <= maxl; break;
    case SH_BFLY: j = lane ^ bval; ok = j <= maxl; break;
    default: j = minl | (bval & ~seg); ok = j <= maxl; break;
    }
    return ok ? j : lane;
}
static uint32_t cw(int width) { return ((uint32_t)(32 - width) << 8) | 0x1f; }
static uint32_t cw_up(int width) { return (uint32_t)(32 - width) << 8; }

/* ---- shfl ------------------------------------------------------------------------------
** shfl.sync .idx/.up/.down/.bfly with widths 32/16/8/4, per-lane and
** out-of-range lane operands, a half-warp member mask, 64-bit values. */
#define SHFL_N 16
static kt_res t_shfl(th_ctx *c)
{
    enum { n = 256 };
    static uint32_t v[n], o[n * SHFL_N], e[n * SHFL_N];
    static double d[n], od[2 * n], ed[2 * n];
    kt_rng r;
    kt_seed(&r, 4001);
    for (int i = 0; i < n; i++) { v[i] = kt_u32(&r); d[i] = (double)kt_f32_range(&r, -1e6f, 1e6f) / 7.0; }
    for (int i = 0; i < n; i++) {
        int lane = i & 31, w = i - lane;
        uint32_t x = v[i], *q = e + i * SHFL_N;
#define SRC(mode, b, cc) v[w + shfl_src(lane, (mode), (b), (cc))]
        q[0] = SRC(SH_IDX, (uint32_t)(lane * 7 + 3) & 31, cw(32));
        q[1] = SRC(SH_IDX, x & 63, cw(32));
        q[2] = SRC(SH_IDX, 5, cw(8));
        q[3] = SRC(SH_IDX, (uint32_t)lane + 3, cw(16));
        q[4] = SRC(SH_UP, 1, cw_up(32));
        q[5] = SRC(SH_UP, 5, cw_up(16));
        q[6] = SRC(SH_UP, x & 7, cw_up(8));
        q[7] = SRC(SH_DOWN, 1, cw(32));
        q[8] = SRC(SH_DOWN, 3, cw(8));
        q[9] = SRC(SH_DOWN, 17, cw(32));
        q[10] = SRC(SH_BFLY, 1, cw(32));
        q[11] = SRC(SH_BFLY, 22, cw(32));
        q[12] = SRC(SH_BFLY, 3, cw(4));
        q[13] = SRC(SH_BFLY, 8, cw(8));
        q[14] = SRC(SH_DOWN, 2, cw(16));
        q[15] = lane < 16 ? SRC(SH_BFLY, 5, cw(32)) : 0;
#undef SRC
        ed[2 * i] = d[w + shfl_src(lane, SH_IDX, (uint32_t)(31 - lane), cw(32))];
        ed[2 * i + 1] = d[w + shfl_src(lane, SH_UP, 2, cw_up(32))];
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dv, dd, dO, dOd;
    TH_TRY(th_module(c, "warp.ptx", &m));
    TH_TRY(th_func(c, m, "shfl", &f));
    TH_TRY(th_upload(c, v, sizeof v, &dv)); TH_TRY(th_upload(c, d, sizeof d, &dd));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof od, &dOd));
    KT_LAUNCH1(f, n / 128, 128, &dv, &dd, &dO, &dOd);
    TH_TRY(th_download(c, o, dO, sizeof o)); TH_TRY(th_download(c, od, dOd, sizeof od));
    TH_TRY(th_check_u32(c, "shfl (thread*16+case)", o, e, n * SHFL_N));
    return th_check_u64(c, "shfl f64 (thread*2+case)", (const uint64_t *)od, (const uint64_t *)ed, 2 * n);
}

/* ---- vote -------------------------------------------------------------------------------
** vote.sync .all/.any/.ballot, activemask under two levels of divergence,
** votes with the divergent branch's mask, match.any.sync (.b32 .b64),
** match.all.sync with its predicate. */
#define VOTE_N 12
static kt_res t_vote(th_ctx *c)
{
    enum { n = 256 };
    static uint32_t v[n], o[n * VOTE_N], e[n * VOTE_N];
    kt_rng r;
    kt_seed(&r, 4002);
    for (int i = 0; i < n; i++) v[i] = kt_u32(&r);
    for (int l = 0; l < 32; l++) v[l] = (v[l] & 0x3fffffffu) | 0x80000000u;   /* warp 0: match.all true */
    for (int l = 0; l < 32; l++) v[32 + l] |= 1;                            /* warp 1: all nonzero */
    for (int l = 0; l < 32; l++) v[64 + l] &= 0x0fffffffu;                  /* warp 2: any false */
    for (int w = 0; w < n; w += 32) {
        uint32_t all = 1, any = 0, bal = 0, m3 = 0, m8 = 0, bal2 = 0, any4 = 0, cnt = 0;
        bool same = true;
        for (int l = 0; l < 32; l++) {
            uint32_t x = v[w + l];
            all &= x != 0; any |= x > 0xf0000000u; bal |= (x & 1u) << l;
            if (l % 3 == 0) { m3 |= 1u << l; bal2 |= ((x >> 1) & 1u) << l; any4 |= (x & 4) != 0; }
            else if (x & 8) m8 |= 1u << l;
            if ((x >> 30) != (v[w] >> 30)) same = false;
        }
        for (int l = 0; l < 32; l++) {
            uint32_t x = v[w + l], *q = e + (w + l) * VOTE_N, mk = 0, mk64 = 0;
            q[0] = all; q[1] = any; q[2] = bal; q[3] = FULL;
            q[4] = l % 3 == 0 ? m3 : (x & 8) ? m8 | 0x80000000u : 0;
            q[5] = l % 3 == 0 ? bal2 : 0;
            q[6] = l % 3 == 0 ? any4 : 0;
            for (int k = 0; k < 32; k++) {
                uint32_t y = v[w + k];
                if ((y & 3) == (x & 3)) mk |= 1u << k;
                if ((y & 1) == (x & 1) && (k >> 3) == (l >> 3)) mk64 |= 1u << k;
            }
            q[7] = mk;
            q[8] = same ? FULL : 0;
            q[9] = same;
            q[10] = mk64;
            cnt = 0;   /* each lane k votes k < (its own value & 31) */
            for (int k = 0; k < 32; k++) cnt += (uint32_t)k < (v[w + k] & 31);
            q[11] = cnt;
        }
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dv, dO;
    TH_TRY(th_module(c, "warp.ptx", &m));
    TH_TRY(th_func(c, m, "vote", &f));
    TH_TRY(th_upload(c, v, sizeof v, &dv)); TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, n / 128, 128, &dv, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    for (int i = 0; i < n; i++) {   /* the boolean votes return "non-zero" */
        uint32_t *q = o + i * VOTE_N;
        q[0] = q[0] != 0; q[1] = q[1] != 0; q[6] = q[6] != 0; q[9] = q[9] != 0;
    }
    return th_check_u32(c, "vote (thread*12+case)", o, e, n * VOTE_N);
}

/* ---- partial_warp ------------------------------------------------------------------------
** Blocks of 48 threads: activemask is 0xffff in the second warp; a ballot
** and a width-16 shuffle with that mask. */
static kt_res t_partial_warp(th_ctx *c)
{
    enum { BS = 48, NB = 3, n = BS * NB };
    static uint32_t v[n], o[3 * n], e[3 * n];
    kt_rng r;
    kt_seed(&r, 4003);
    for (int i = 0; i < n; i++) v[i] = kt_u32(&r);
    for (int b = 0; b < NB; b++)
        for (int t = 0; t < BS; t++) {
            int i = b * BS + t, w0 = b * BS + (t & ~31), nl = t < 32 ? 32 : 16, lane = t & 31;
            uint32_t m = nl == 32 ? FULL : 0xffffu, bal = 0;
            for (int k = 0; k < nl; k++) bal |= (v[w0 + k] & 1u) << k;
            e[3 * i] = m;
            e[3 * i + 1] = bal;
            e[3 * i + 2] = v[w0 + shfl_src(lane, SH_DOWN, 1, cw(16))];
        }
    CUmodule m; CUfunction f;
    CUdeviceptr dv, dO;
    TH_TRY(th_module(c, "warp.ptx", &m));
    TH_TRY(th_func(c, m, "partial_warp", &f));
    TH_TRY(th_upload(c, v, sizeof v, &dv)); TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, NB, BS, &dv, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u32(c, "partial warp (thread*3+{mask,ballot,shfl})", o, e, 3 * n);
}

/* ---- divergence ----------------------------------------------------------------------------
** Nested if/else on lane and data, a loop with break/continue and per-lane
** trip counts, a dense and a sparse switch (setp/bra chains), a while loop
** whose lanes leave at different iterations followed by bar.warp.sync and a
** shuffle, divergent calls, a divergent loop of atomics, an early return.
** Lanes that returned early leave their last output untouched (the host
** filled it with 0xdeadbeef); the others count the lanes still active. */
#define DIV_N 8
static uint32_t collatz(uint32_t y)
{
    uint32_t it = 0;
    while (y > 1 && it < 100) { y = (y & 1) ? 3 * y + 1 : y >> 1; it++; }
    return it;
}

static kt_res t_divergence(th_ctx *c)
{
    enum { n = 512 };
    static uint32_t v[n], o[n * DIV_N], e[n * DIV_N], hist[16], ehist[16];
    kt_rng r;
    kt_seed(&r, 4004);
    for (int i = 0; i < n; i++) {
        uint32_t k = kt_below(&r, 8);
        v[i] = k == 0 ? kt_below(&r, 20) : k == 1 ? 1000u * kt_below(&r, 3) + (kt_below(&r, 2) ? 100 : 12345)
                                                  : kt_u32(&r);
    }
    v[3] = 65535; v[4] = 1; v[5] = 100; v[6] = 12345; v[7] = 1000;
    memset(ehist, 0, sizeof ehist);
    for (int i = 0; i < n; i++) {
        uint32_t x = v[i], lane = (uint32_t)i & 31, *q = e + i * DIV_N, a, s = 0, nn = x & 31, d, ee;
        if (lane & 1) a = (x & 2) ? x + lane : (x & 4) ? x ^ 0xffu : 7;
        else a = lane < 8 ? x >> 3 : (x & 0x10) ? 100 : 200;
        q[0] = a;
        for (uint32_t k = 0; k < 40; k++) {
            if (k >= nn) break;
            if ((k ^ x) & 1) continue;
            s += k * k + (x >> 8);
        }
        q[1] = s;
        switch (x % 9) {
        case 0: d = 11; break;
        case 1: d = x; break;
        case 2: d = x * 2; break;
        case 3: d = ~x; break;
        case 4: d = 44; break;
        case 5: d = x >> 5; break;
        case 6: case 7: d = 77 + lane; break;
        default: d = 99; break;
        }
        q[2] = d;
        switch (x & 0xffff) {
        case 1: ee = 1; break;
        case 100: ee = 2; break;
        case 1000: ee = 3; break;
        case 12345: ee = 4; break;
        case 65535: ee = 5; break;
        default: ee = 0; break;
        }
        q[3] = ee;
        q[4] = collatz(x) + collatz(v[i ^ 1]);
        q[5] = (x & 1) ? x * 3 + 1 : (x >> 1) ^ 0x5a5a5a5au;
        for (uint32_t k = 0; k < (x & 7); k++) ehist[(x + k) & 15]++;
        q[6] = 0;
        if (x % 5 == 0) { q[7] = 0xdeadbeefu; continue; }
        uint32_t w0 = (uint32_t)i & ~31u, cnt = 0;
        for (uint32_t k = 0; k < 32; k++) cnt += v[w0 + k] % 5 != 0;
        q[7] = cnt + x;
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dv, dO, dh;
    TH_TRY(th_module(c, "warp.ptx", &m));
    TH_TRY(th_func(c, m, "divergence", &f));
    TH_TRY(th_upload(c, v, sizeof v, &dv)); TH_TRY(th_alloc(c, sizeof o, &dO));
    TH_TRY(th_alloc(c, sizeof hist, &dh));
    TH_CU(c, cuMemsetD32(dO, 0xdeadbeefu, n * DIV_N));
    TH_CU(c, cuMemsetD32(dh, 0, 16));
    KT_LAUNCH1(f, n / 128, 128, &dv, &dO, &dh);
    TH_TRY(th_download(c, o, dO, sizeof o)); TH_TRY(th_download(c, hist, dh, sizeof hist));
    TH_TRY(th_check_u32(c, "divergence (thread*8+case)", o, e, n * DIV_N));
    return th_check_u32(c, "atomic histogram", hist, ehist, 16);
}

/* ---- special_regs ---------------------------------------------------------------------------
** %laneid, %warpid < %nwarpid, %smid < %nsmid (and the same for a whole
** block), %lanemask_eq/lt/le/gt/ge, %clock and %clock64 (non-decreasing
** within a thread: only that is checked). */
#define SREG_N 12
static kt_res t_special_regs(th_ctx *c)
{
    enum { BS = 128, NB = 4, n = BS * NB };
    static uint32_t o[n * SREG_N];
    static uint64_t clk[3 * n];
    CUmodule m; CUfunction f;
    CUdeviceptr dO, dc;
    TH_TRY(th_module(c, "warp.ptx", &m));
    TH_TRY(th_func(c, m, "special_regs", &f));
    TH_TRY(th_alloc(c, sizeof o, &dO)); TH_TRY(th_alloc(c, sizeof clk, &dc));
    KT_LAUNCH1(f, NB, BS, &dO, &dc);
    TH_TRY(th_download(c, o, dO, sizeof o)); TH_TRY(th_download(c, clk, dc, sizeof clk));
    for (int i = 0; i < n; i++) {
        const uint32_t *q = o + i * SREG_N;
        uint32_t lane = (uint32_t)i & 31, spin = 0;
        uint32_t lt = (1u << lane) - 1, le = lane == 31 ? FULL : (2u << lane) - 1;
        for (uint32_t k = 0; k < ((uint32_t)i & 15) * 8; k++) spin = spin * 1664525u + 1013904223u;
        if (q[0] != lane) return th_fail(c, "thread %d: %%laneid = %u", i, q[0]);
        if (q[1] >= q[2]) return th_fail(c, "thread %d: %%warpid %u not below %%nwarpid %u", i, q[1], q[2]);
        if (q[3] >= q[4]) return th_fail(c, "thread %d: %%smid %u not below %%nsmid %u", i, q[3], q[4]);
        if (q[3] != o[(i - i % BS) * SREG_N + 3])
            return th_fail(c, "thread %d: %%smid %u differs from its block's first thread (%u)", i, q[3],
                           o[(i - i % BS) * SREG_N + 3]);
        if (q[5] != 1u << lane || q[6] != lt || q[7] != le || q[8] != ~le || q[9] != ~lt)
            return th_fail(c, "thread %d (lane %u): lanemasks eq/lt/le/gt/ge = %08x %08x %08x %08x %08x", i, lane,
                           q[5], q[6], q[7], q[8], q[9]);
        if (q[10] != spin) return th_fail(c, "thread %d: loop result %u expected %u", i, q[10], spin);
        if (clk[3 * i] > clk[3 * i + 1] || clk[3 * i + 1] > clk[3 * i + 2])
            return th_fail(c, "thread %d: %%clock64 went back: %llu %llu %llu", i, (unsigned long long)clk[3 * i],
                           (unsigned long long)clk[3 * i + 1], (unsigned long long)clk[3 * i + 2]);
    }
    return KT_PASS;
}

/* ---- warp_size -------------------------------------------------------------------------
** warpSize as nvcc compiles it when it cannot fold it: the predefined PTX
** constant WARP_SZ.  Blocks of 96 threads, so a warp is never a block. */
#define WSZ_N 4
static kt_res t_warp_size(th_ctx *c)
{
    enum { bs = 96, n = 3 * bs };
    static uint32_t o[n * WSZ_N], e[n * WSZ_N];
    for (int i = 0; i < n; i++) {
        uint32_t t = (uint32_t)(i % bs);
        e[i * WSZ_N + 0] = 32;
        e[i * WSZ_N + 1] = t % 32;
        e[i * WSZ_N + 2] = t / 32;
        e[i * WSZ_N + 3] = 31 * 32 / 2;   /* lanes 0..31 summed by the butterfly */
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dO;
    TH_TRY(th_module(c, "warp.ptx", &m));
    TH_TRY(th_func(c, m, "warp_size", &f));
    TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, n / bs, bs, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u32(c, "warp_size (thread*4+word)", o, e, n * WSZ_N);
}

const kt_test kt_tests_warp[] = {
    {"shfl", t_shfl, 0},
    {"vote", t_vote, 0},
    {"partial_warp", t_partial_warp, 0},
    {"divergence", t_divergence, 0},
    {"special_regs", t_special_regs, 0},
    {"warp_size", t_warp_size, 0},
    {0},
};
