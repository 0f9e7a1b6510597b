/*
** kt_ctrl.c -- control-flow and whole-program tests (kernels in ctrl.cu).
*/
#include "kt.h"

#include <stdlib.h>
#include <string.h>

/* ---- calls ------------------------------------------------------------------------------
** call.uni of .func with scalar, struct (.param .align .b8) and pointer
** parameters and a struct return, recursion (fib, ackermann), and indirect
** calls through a __device__ table of function pointers (call with a
** .callprototype). */
#define CALLS_N 6
static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static uint32_t ack(uint32_t m, uint32_t n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static uint32_t op_ref(int k, uint32_t a, uint32_t b)
{
    switch (k & 3) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    default: return a ^ b;
    }
}
static uint32_t sar32(uint32_t x, unsigned s) { return (x & 0x80000000u) ? ~(~x >> s) : x >> s; }

static kt_res t_calls(th_ctx *c)
{
    enum { n = 256 };
    static int32_t in[n];
    static float fin[n];
    static double din[n];
    static uint64_t o[n * CALLS_N], e[n * CALLS_N];
    kt_rng r;
    kt_seed(&r, 5001);
    for (int i = 0; i < n; i++) {
        in[i] = (int32_t)kt_below(&r, 200000001) - 100000000;
        fin[i] = kt_f32_range(&r, -10.0f, 10.0f);
        din[i] = (double)kt_f32_range(&r, -3.0f, 3.0f) / 3.0;
    }
    for (int i = 0; i < n; i++) {
        int32_t x = in[i];
        uint64_t *q = e + i * CALLS_N;
        int32_t pa = x * 3;                               /* |x| <= 1e8: no overflow */
        float pb = kt_fadd(fin[i], 1.0f, KT_RN);
        double t = kt_dfma((double)x, din[i], (double)fin[i], KT_RN);
        t = kt_dadd(t, (double)kt_fmul(kt_i2f(pa, KT_RN), pb, KT_RN), KT_RN);
        t = kt_dadd(t, (double)x, KT_RN);
        t = kt_dadd(t, (double)(x & 0x7f), KT_RN);
        q[0] = kt_dbits(t);
        q[1] = (uint64_t)(uint32_t)pa | (uint64_t)kt_fbits(pb) << 32;
        q[2] = fib((uint32_t)i % 16);
        q[3] = ack((uint32_t)i % 3, (uint32_t)i % 4);
        q[4] = op_ref(x & 3, (uint32_t)x, (uint32_t)i);
        q[5] = op_ref((int)(sar32((uint32_t)x, 2) & 3), sar32((uint32_t)x, 4), 3);
    }
    CUmodule m; CUfunction f;
    CUdeviceptr di, df, dd, dO;
    TH_TRY(th_module(c, "ctrl.ptx", &m));
    TH_TRY(th_func(c, m, "calls", &f));
    TH_TRY(th_upload(c, in, sizeof in, &di)); TH_TRY(th_upload(c, fin, sizeof fin, &df));
    TH_TRY(th_upload(c, din, sizeof din, &dd)); TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, n / 64, 64, &di, &df, &dd, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u64(c, "calls (thread*6+{mix,pair,fib,ack,fnptr,fnptr})", o, e, n * CALLS_N);
}

/* ---- bfs -------------------------------------------------------------------------------
** A level-synchronous BFS over a CSR graph: one launch per level (more than
** a hundred), cuMemsetD32 of the flag between launches, benign races
** (several threads store the same level). */
static kt_res t_bfs(th_ctx *c)
{
    enum { V = 4096, CHAIN = 100, MAXE = 8 * V };
    static int32_t rowptr[V + 1], cols[MAXE], level[V], elevel[V], queue[V];
    kt_rng r;
    kt_seed(&r, 5002);
    int ne = 0;
    for (int v = 0; v < V; v++) {
        rowptr[v] = ne;
        if (v < CHAIN - 1) cols[ne++] = v + 1;                    /* a long path */
        else if (v == CHAIN - 1) for (int k = 0; k < 6; k++) cols[ne++] = CHAIN + (int)kt_below(&r, V - CHAIN);
        else {
            int deg = (int)kt_below(&r, 5);
            for (int k = 0; k < deg; k++) cols[ne++] = CHAIN + (int)kt_below(&r, V - CHAIN);
        }
    }
    rowptr[V] = ne;
    for (int v = 0; v < V; v++) elevel[v] = -1;
    int qh = 0, qt = 0;
    elevel[0] = 0;
    queue[qt++] = 0;
    while (qh < qt) {
        int v = queue[qh++];
        for (int e2 = rowptr[v]; e2 < rowptr[v + 1]; e2++)
            if (elevel[cols[e2]] < 0) { elevel[cols[e2]] = elevel[v] + 1; queue[qt++] = cols[e2]; }
    }
    int depth = 0;
    for (int v = 0; v < V; v++) if (elevel[v] > depth) depth = elevel[v];
    for (int v = 0; v < V; v++) level[v] = v == 0 ? 0 : -1;
    CUmodule m; CUfunction f;
    CUdeviceptr dr, dcols, dl, dch;
    TH_TRY(th_module(c, "ctrl.ptx", &m));
    TH_TRY(th_func(c, m, "bfs_level", &f));
    TH_TRY(th_upload(c, rowptr, sizeof rowptr, &dr)); TH_TRY(th_upload(c, cols, (size_t)ne * 4, &dcols));
    TH_TRY(th_upload(c, level, sizeof level, &dl)); TH_TRY(th_alloc(c, 4, &dch));
    int nv = V, cur = 0, launches = 0;
    for (;;) {
        int32_t changed = 0;
        TH_CU(c, cuMemsetD32(dch, 0, 1));
        KT_LAUNCH1(f, V / 256, 256, &dr, &dcols, &dl, &nv, &cur, &dch);
        launches++;
        TH_TRY(th_download(c, &changed, dch, 4));
        if (!changed) break;
        if (++cur > V) return th_fail(c, "bfs does not terminate");
    }
    TH_TRY(th_download(c, level, dl, sizeof level));
    if (launches != depth + 1) return th_fail(c, "bfs took %d launches, expected %d", launches, depth + 1);
    return th_check_u32(c, "bfs levels", (const uint32_t *)level, (const uint32_t *)elevel, V);
}

/* ---- linked_list ------------------------------------------------------------------------
** Pointer chasing: lists linked by device addresses the host computed, and a
** list the device links itself (generic addresses of array elements). */
static kt_res t_linked_list(th_ctx *c)
{
    enum { NN = 4096, NL = 64, LEN = NN / NL };
    typedef struct { uint64_t next; int32_t val, pad; } Node;
    static Node nodes[NN];
    static int32_t perm[NN], len[NL], elen[NL];
    static int64_t sum[NL], esum[NL];
    static uint64_t heads[NL];
    kt_rng r;
    kt_seed(&r, 5003);
    for (int i = 0; i < NN; i++) perm[i] = i;
    for (int i = NN - 1; i > 0; i--) { int j = (int)kt_below(&r, (uint32_t)i + 1), t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
    CUmodule m; CUfunction fw, fl;
    CUdeviceptr dn, dh, ds, dlen, dn2, dp, dh2;
    TH_TRY(th_module(c, "ctrl.ptx", &m));
    TH_TRY(th_func(c, m, "list_walk", &fw));
    TH_TRY(th_func(c, m, "list_link", &fl));
    TH_TRY(th_alloc(c, sizeof nodes, &dn));
    for (int l = 0; l < NL; l++) {
        int lenl = LEN - (l % 7);                                  /* lists of different lengths */
        int64_t s = 0;
        for (int k = 0; k < LEN; k++) {
            int id = perm[l * LEN + k];
            nodes[id].val = (int32_t)kt_below(&r, 100000) - 50000;
            nodes[id].pad = 0;
            nodes[id].next = k + 1 < lenl ? (uint64_t)dn + 16u * (uint64_t)perm[l * LEN + k + 1] : 0;
            if (k < lenl) s += (int64_t)nodes[id].val * (k + 1);
        }
        heads[l] = (uint64_t)dn + 16u * (uint64_t)perm[l * LEN];
        esum[l] = s;
        elen[l] = lenl;
    }
    TH_CU(c, cuMemcpyHtoD(dn, nodes, sizeof nodes));
    TH_TRY(th_upload(c, heads, sizeof heads, &dh));
    TH_TRY(th_alloc(c, sizeof sum, &ds)); TH_TRY(th_alloc(c, sizeof len, &dlen));
    KT_LAUNCH1(fw, 1, NL, &dh, &ds, &dlen);
    TH_TRY(th_download(c, sum, ds, sizeof sum)); TH_TRY(th_download(c, len, dlen, sizeof len));
    TH_TRY(th_check_u32(c, "list lengths", (const uint32_t *)len, (const uint32_t *)elen, NL));
    TH_TRY(th_check_u64(c, "list sums", (const uint64_t *)sum, (const uint64_t *)esum, NL));
    /* the device links all NN nodes in perm order; one thread walks them */
    int nn = NN;
    TH_TRY(th_alloc(c, sizeof nodes, &dn2)); TH_TRY(th_upload(c, perm, sizeof perm, &dp));
    KT_LAUNCH1(fl, NN / 256, 256, &dn2, &dp, &nn);
    uint64_t h2 = (uint64_t)dn2 + 16u * (uint64_t)perm[0];
    TH_TRY(th_upload(c, &h2, sizeof h2, &dh2));
    KT_LAUNCH1(fw, 1, 1, &dh2, &ds, &dlen);
    TH_TRY(th_download(c, sum, ds, 8)); TH_TRY(th_download(c, len, dlen, 4));
    int64_t es = 0;
    for (int k = 0; k < NN; k++) es += (int64_t)k * (k + 1);
    if (len[0] != NN || sum[0] != es)
        return th_fail(c, "device-linked list: length %d sum %lld, expected %d %lld", len[0], (long long)sum[0], NN,
                       (long long)es);
    return KT_PASS;
}

/* ---- printf_formats (output checked by run_kernels.sh) -------------------------------
** vprintf with %d %i %u %x %X %o %ld %lld %llu %llx %f %e %g %.3f %10.2f %s %c
** %5d %-5d %% %p from 2 blocks of 4 threads.  The runner only launches and
** synchronizes (the driver prints then); run_kernels.sh compares the sorted
** lines that start with "dp " against printf_formats.expected. */
static kt_res t_printf_formats(th_ctx *c)
{
    static const char word[] = "tpsim";
    CUmodule m; CUfunction f;
    CUdeviceptr dw;
    TH_TRY(th_module(c, "ctrl.ptx", &m));
    TH_TRY(th_func(c, m, "printf_formats", &f));
    TH_TRY(th_upload(c, word, sizeof word, &dw));
    int k = 3;
    KT_LAUNCH1(f, 2, 4, &dw, &k);
    return KT_PASS;
}

/* ---- exit_partial -----------------------------------------------------------------------
** exit in a third of the threads; the others store and report the lanes
** still active (activemask after the exits). */
static kt_res t_exit_partial(th_ctx *c)
{
    enum { n = 512 };
    static uint32_t v[n], o[2 * n], e[2 * n];
    kt_rng r;
    kt_seed(&r, 5004);
    for (int i = 0; i < n; i++) v[i] = kt_u32(&r);
    for (int l = 0; l < 32; l++) v[64 + l] = 3u * kt_below(&r, 1000) + 1;      /* warp 2 exits whole */
    for (int i = 0; i < n; i++) {
        if (v[i] % 3 == 1) { e[2 * i] = e[2 * i + 1] = 0xdeadbeefu; continue; }
        uint32_t w0 = (uint32_t)i & ~31u, mask = 0;
        for (uint32_t k = 0; k < 32; k++) if (v[w0 + k] % 3 != 1) mask |= 1u << k;
        e[2 * i] = v[i] * 2 + 1;
        e[2 * i + 1] = mask;
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dv, dO;
    TH_TRY(th_module(c, "ctrl.ptx", &m));
    TH_TRY(th_func(c, m, "exit_partial", &f));
    TH_TRY(th_upload(c, v, sizeof v, &dv)); TH_TRY(th_alloc(c, sizeof o, &dO));
    TH_CU(c, cuMemsetD32(dO, 0xdeadbeefu, 2 * n));
    KT_LAUNCH1(f, n / 128, 128, &dv, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u32(c, "exit (thread*2+{value,mask})", o, e, 2 * n);
}

/* ---- big_grid ---------------------------------------------------------------------------
** 10000 blocks: more than any device holds at once. */
static kt_res t_big_grid(th_ctx *c)
{
    enum { NB = 10000, BS = 64, n = NB * BS };
    uint32_t *o = malloc(sizeof(uint32_t) * n);
    if (!o) return th_fail(c, "runner: out of memory");
    CUmodule m; CUfunction f;
    CUdeviceptr dO;
    kt_res res = th_module(c, "ctrl.ptx", &m);
    if (res == KT_PASS) res = th_func(c, m, "big_grid", &f);
    if (res == KT_PASS) res = th_alloc(c, sizeof(uint32_t) * n, &dO);
    int nn = n - 5;                         /* the last threads skip their store */
    if (res == KT_PASS && cuMemsetD32(dO, 0x12345678u, n) != CUDA_SUCCESS) res = th_fail(c, "cuMemsetD32 failed");
    if (res == KT_PASS) {
        void *p[] = {&dO, &nn};
        res = th_launch(c, f, NB, 1, 1, BS, 1, 1, 0, p);
    }
    if (res == KT_PASS) res = th_download(c, o, dO, sizeof(uint32_t) * n);
    for (uint32_t i = 0; res == KT_PASS && i < (uint32_t)n; i++) {
        uint32_t want = i < (uint32_t)nn ? (i * 2654435761u) ^ (i / BS) : 0x12345678u;
        if (o[i] != want) res = th_fail(c, "out[%u] = 0x%08x expected 0x%08x", i, o[i], want);
    }
    free(o);
    return res;
}

/* ---- block1024 ---------------------------------------------------------------------------
** 1024-thread blocks: 32 warps, bar.sync across all of them, shuffle
** reductions, shared memory read back by every thread. */
static kt_res t_block1024(th_ctx *c)
{
    enum { NB = 4, BS = 1024, n = NB * BS };
    static uint32_t v[n], o[NB + n], e[NB + n];
    kt_rng r;
    kt_seed(&r, 5005);
    for (int i = 0; i < n; i++) v[i] = kt_u32(&r);
    for (int b = 0; b < NB; b++) {
        uint32_t part[32] = {0}, sum = 0;
        for (int t = 0; t < BS; t++) { part[t >> 5] += v[b * BS + t]; sum += v[b * BS + t]; }
        e[b] = sum;
        for (int t = 0; t < BS; t++) e[NB + b * BS + t] = v[b * BS + 1023 - t] + part[(t * 7) & 31];
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dv, dO;
    TH_TRY(th_module(c, "ctrl.ptx", &m));
    TH_TRY(th_func(c, m, "block1024", &f));
    TH_TRY(th_upload(c, v, sizeof v, &dv)); TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, NB, BS, &dv, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u32(c, "block1024 ({sums}, then per thread)", o, e, NB + n);
}

/* ---- fence_reduce ------------------------------------------------------------------------
** membar.gl / membar.cta / membar.sys, the last-block pattern with
** atom.global.inc, ld.volatile, and %clock64 non-decreasing per thread. */
static kt_res t_fence_reduce(th_ctx *c)
{
    enum { NB = 64, BS = 128, n = NB * BS };
    static uint32_t v[n], partial[NB], epart[NB];
    static uint64_t clk[2 * n];
    uint32_t count = 0, total = 0, etotal = 0;
    kt_rng r;
    kt_seed(&r, 5006);
    memset(epart, 0, sizeof epart);
    for (int i = 0; i < n; i++) { v[i] = kt_u32(&r); etotal += v[i]; epart[i / BS] += v[i]; }
    CUmodule m; CUfunction f;
    CUdeviceptr dv, dp, dc, dt, dclk;
    TH_TRY(th_module(c, "ctrl.ptx", &m));
    TH_TRY(th_func(c, m, "fence_reduce", &f));
    TH_TRY(th_upload(c, v, sizeof v, &dv)); TH_TRY(th_alloc(c, sizeof partial, &dp));
    TH_TRY(th_upload(c, &count, 4, &dc)); TH_TRY(th_upload(c, &total, 4, &dt));
    TH_TRY(th_alloc(c, sizeof clk, &dclk));
    KT_LAUNCH1(f, NB, BS, &dv, &dp, &dc, &dt, &dclk);
    TH_TRY(th_download(c, partial, dp, sizeof partial)); TH_TRY(th_download(c, &count, dc, 4));
    TH_TRY(th_download(c, &total, dt, 4)); TH_TRY(th_download(c, clk, dclk, sizeof clk));
    TH_TRY(th_check_u32(c, "partial sums", partial, epart, NB));
    if (count != NB) return th_fail(c, "ticket counter %u, expected %d", count, NB);
    if (total != etotal) return th_fail(c, "last-block total 0x%08x, expected 0x%08x", total, etotal);
    for (int i = 0; i < n; i++)
        if (clk[2 * i] > clk[2 * i + 1])
            return th_fail(c, "thread %d: clock64 went back (%llu then %llu)", i, (unsigned long long)clk[2 * i],
                           (unsigned long long)clk[2 * i + 1]);
    return KT_PASS;
}

const kt_test kt_tests_ctrl[] = {
    {"calls", t_calls, 0},
    {"bfs", t_bfs, 0},
    {"linked_list", t_linked_list, 0},
    {"printf_formats", t_printf_formats, KT_STDOUT},
    {"exit_partial", t_exit_partial, 0},
    {"big_grid", t_big_grid, 0},
    {"block1024", t_block1024, 0},
    {"fence_reduce", t_fence_reduce, 0},
    {0},
};
