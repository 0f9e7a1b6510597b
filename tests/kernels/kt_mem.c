/*
** kt_mem.c -- memory-space tests (kernels in mem.cu).
**
** Atomics are checked in ways that do not depend on the order threads ran
** in: final values of commutative operations, multisets of returned values
** (tickets form a permutation, exchanged values are all accounted for), and
** float sums whose every partial sum is exact.
*/
#include "kt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- matmul_tiled -----------------------------------------------------------------
** 2D grid and block, ld/st.shared, bar.sync, fma.rn.f32 in a fixed order;
** sizes not multiples of the tile, so the zero padding is exercised. */
static kt_res t_matmul_tiled(th_ctx *c)
{
    enum { M = 50, N = 70, K = 37, T = 16 };
    static float A[M * K], B[K * N], C[M * N], E[M * N];
    kt_rng r;
    kt_seed(&r, 3001);
    for (int i = 0; i < M * K; i++) A[i] = kt_f32_range(&r, -2.0f, 2.0f);
    for (int i = 0; i < K * N; i++) B[i] = kt_f32_range(&r, -2.0f, 2.0f);
    int kpad = (K + T - 1) / T * T;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int k = 0; k < kpad; k++)
                acc = kt_ffma(k < K ? A[i * K + k] : 0.0f, k < K ? B[k * N + j] : 0.0f, acc, KT_RN);
            E[i * N + j] = acc;
        }
    CUmodule m; CUfunction f;
    CUdeviceptr dA, dB, dC;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "matmul_tiled", &f));
    TH_TRY(th_upload(c, A, sizeof A, &dA)); TH_TRY(th_upload(c, B, sizeof B, &dB));
    TH_TRY(th_alloc(c, sizeof C, &dC));
    TH_CU(c, cuMemsetD32(dC, 0x7fc00000u, M * N));
    int mm = M, nn = N, kk = K;
    void *p[] = {&dA, &dB, &dC, &mm, &nn, &kk};
    TH_TRY(th_launch(c, f, (N + T - 1) / T, (M + T - 1) / T, 1, T, T, 1, 0, p));
    TH_TRY(th_download(c, C, dC, sizeof C));
    return kt_cmp_f32(c, "C (row*70+col)", (const uint32_t *)C, (const uint32_t *)E, M * N);
}

/* ---- reduce_block ---------------------------------------------------------------------
** A shared-memory tree with bar.sync, max.f32 with NaN and signed zeros, and
** bar.red.popc.u32 / bar.red.and.pred / bar.red.or.pred. */
static uint32_t fmax_bits(uint32_t a, uint32_t b)
{
    if (kt_isnan32(a)) return b;
    if (kt_isnan32(b)) return a;
    if (((a | b) & 0x7fffffffu) == 0) return a & b;
    return kt_bitsf(a) > kt_bitsf(b) ? a : b;
}

static kt_res t_reduce_block(th_ctx *c)
{
    enum { NB = 64, BS = 256, n = NB * BS };
    static uint32_t in[n], fin[n], o[5 * NB], e[5 * NB];
    kt_rng r;
    kt_seed(&r, 3002);
    for (int b = 0; b < NB; b++)
        for (int t = 0; t < BS; t++) {
            uint32_t v = kt_u32(&r);
            if (b % 4 == 0) v |= 1u << 7;                     /* all nonzero */
            else if (b % 4 == 1 && kt_below(&r, 50) == 0) v = 0;
            if (b % 4 != 2 && v > 0xfff00000u) v >>= 1;       /* the "or" predicate: rare */
            if (b % 4 == 2 && t == 77) v = 0xfff12345u;
            in[b * BS + t] = v;
            uint32_t fb = kt_f32_bits(&r);
            fin[b * BS + t] = fb;
        }
    for (int b = 0; b < NB; b++) {
        uint32_t sum = 0, cnt = 0, all = 1, any = 0, mx = 0x7fffffffu;
        for (int t = 0; t < BS; t++) {
            uint32_t v = in[b * BS + t];
            sum += v; cnt += v & 1; all &= v != 0; any |= v > 0xfff00000u;
            mx = t == 0 ? fin[b * BS] : fmax_bits(mx, fin[b * BS + t]);
        }
        e[5 * b] = sum; e[5 * b + 1] = mx; e[5 * b + 2] = cnt; e[5 * b + 3] = all; e[5 * b + 4] = any;
    }
    CUmodule m; CUfunction f;
    CUdeviceptr di, df, dO;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "reduce_block", &f));
    TH_TRY(th_upload(c, in, sizeof in, &di)); TH_TRY(th_upload(c, fin, sizeof fin, &df));
    TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, NB, BS, &di, &df, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    for (int b = 0; b < NB; b++) {
        o[5 * b + 3] = o[5 * b + 3] != 0;   /* _and/_or return "non-zero" */
        o[5 * b + 4] = o[5 * b + 4] != 0;
        if (kt_isnan32(o[5 * b + 1]) && kt_isnan32(e[5 * b + 1])) o[5 * b + 1] = e[5 * b + 1];
    }
    return th_check_u32(c, "block (block*5+{sum,fmax,count,and,or})", o, e, 5 * NB);
}

/* ---- atomics_global --------------------------------------------------------------------
** atom.global .add (.u32 .u64 .f32 .f64) .min/.max (.s32 .u32 .s64 .u64)
** .inc .dec .and/.or/.xor (.b32 .b64) .exch .cas, and atomicSub. */
typedef struct GCounters {
    int32_t iadd, isub, imin, imax;
    uint32_t uadd, umin, umax, uinc, udec, uand, uor, uxor, exch, cas, ticket, pad0;
    uint64_t ladd, lmin_u, lmax_u, land, lor, lxor;
    int64_t lmin_s, lmax_s;
    float fadd, pad1;
    double dadd;
} GCounters;

/* atom.inc / atom.dec as the PTX ISA defines them. */
static uint32_t inc_op(uint32_t x, uint32_t lim) { return x >= lim ? 0 : x + 1; }
static uint32_t dec_op(uint32_t x, uint32_t lim) { return (x == 0 || x > lim) ? lim : x - 1; }

/* Checks that the n returned values of repeated op from 'start' are, as a
** multiset, the first n values of the sequence start, op(start), ... */
static kt_res check_sequence(th_ctx *c, const char *what, const uint32_t *got, size_t stride, int n,
                             uint32_t start, uint32_t lim, int is_dec, uint32_t final_got)
{
    enum { H = 2048 };
    static int hist[H];
    memset(hist, 0, sizeof hist);
    uint32_t x = start;
    for (int k = 0; k < n; k++) {
        if (x >= H) return th_fail(c, "runner: %s sequence value too large", what);
        hist[x]++;
        x = is_dec ? dec_op(x, lim) : inc_op(x, lim);
    }
    if (final_got != x) return th_fail(c, "%s final value: got %u expected %u", what, final_got, x);
    for (int k = 0; k < n; k++) {
        uint32_t v = got[(size_t)k * stride];
        if (v >= H || --hist[v] < 0)
            return th_fail(c, "%s: returned value %u (thread %d) is not in the sequence or appears too often", what, v, k);
    }
    return KT_PASS;
}

/* Checks that got[k*stride] for k < n, plus final, are each of 0..n once. */
static kt_res check_perm(th_ctx *c, const char *what, const uint32_t *got, size_t stride, int n, uint32_t final)
{
    static unsigned char seen[1 << 16];
    if (n + 1 > (int)sizeof seen) return th_fail(c, "runner: %s too large", what);
    memset(seen, 0, (size_t)n + 1);
    for (int k = 0; k <= n; k++) {
        uint32_t v = k < n ? got[(size_t)k * stride] : final;
        if (v > (uint32_t)n || seen[v]++)
            return th_fail(c, "%s: value %u (thread %d) out of range or repeated", what, v, k);
    }
    return KT_PASS;
}

static kt_res t_atomics_global(th_ctx *c)
{
    enum { NB = 32, BS = 256, n = NB * BS };
    static int32_t iv[n];
    static float fv[n];
    static double dv[n];
    static uint32_t tick[5 * n];
    GCounters g0, g, e;
    memset(&g0, 0, sizeof g0);
    g0.imin = INT32_MAX; g0.imax = INT32_MIN; g0.umin = 0xffffffffu; g0.udec = 1000; g0.uand = 0xffffffffu;
    g0.lmin_u = ~0ull; g0.land = ~0ull; g0.lmin_s = INT64_MAX; g0.lmax_s = INT64_MIN;
    const uint32_t inc_limit = 100, dec_limit = 37;
    kt_rng r;
    kt_seed(&r, 3003);
    e = g0;
    for (int i = 0; i < n; i++) {
        uint32_t k = kt_below(&r, 8);
        iv[i] = k == 0 ? (int32_t)(0x80000000u + kt_below(&r, 4)) : k == 1 ? INT32_MAX - (int32_t)kt_below(&r, 4)
                                                                           : (int32_t)kt_u32(&r);
        fv[i] = 0.25f * (float)((int)kt_below(&r, 129) - 64);
        dv[i] = (double)((int)kt_below(&r, 2048001) - 1024000) / 1024.0;
        int32_t x = iv[i];
        uint32_t u = (uint32_t)x;
        uint64_t L = (uint64_t)(int64_t)x * 0x9e3779b97f4a7c15ull;
        e.iadd = (int32_t)((uint32_t)e.iadd + u);
        e.isub = (int32_t)((uint32_t)e.isub - u);
        if (x < e.imin) e.imin = x;
        if (x > e.imax) e.imax = x;
        e.uadd += u;
        if (u < e.umin) e.umin = u;
        if (u > e.umax) e.umax = u;
        e.uand &= u | 0x00ff0000u; e.uor |= u & 0x0f0f0f0fu; e.uxor ^= u;
        e.ladd += L;
        if (L < e.lmin_u) e.lmin_u = L;
        if (L > e.lmax_u) e.lmax_u = L;
        e.land &= L | 0xffff0000ffff0000ull; e.lor |= L & 0x0101010101010101ull; e.lxor ^= L;
        if ((int64_t)L < e.lmin_s) e.lmin_s = (int64_t)L;
        if ((int64_t)L > e.lmax_s) e.lmax_s = (int64_t)L;
        e.fadd += fv[i];                      /* exact: every partial sum fits */
        e.dadd += dv[i];
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dg, di, df, dd, dt;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "atomics_global", &f));
    TH_TRY(th_upload(c, &g0, sizeof g0, &dg)); TH_TRY(th_upload(c, iv, sizeof iv, &di));
    TH_TRY(th_upload(c, fv, sizeof fv, &df)); TH_TRY(th_upload(c, dv, sizeof dv, &dd));
    TH_TRY(th_alloc(c, sizeof tick, &dt));
    uint32_t il = inc_limit, dl = dec_limit;
    KT_LAUNCH1(f, NB, BS, &dg, &di, &df, &dd, &dt, &il, &dl);
    TH_TRY(th_download(c, &g, dg, sizeof g));
    TH_TRY(th_download(c, tick, dt, sizeof tick));
#define KT_EQ(field)                                                           \
    if (g.field != e.field)                                                    \
        return th_fail(c, "atomic %s: got 0x%llx expected 0x%llx", #field,    \
                       (unsigned long long)g.field, (unsigned long long)e.field)
    KT_EQ(iadd); KT_EQ(isub); KT_EQ(imin); KT_EQ(imax); KT_EQ(uadd); KT_EQ(umin); KT_EQ(umax);
    KT_EQ(uand); KT_EQ(uor); KT_EQ(uxor); KT_EQ(ladd); KT_EQ(lmin_u); KT_EQ(lmax_u); KT_EQ(land);
    KT_EQ(lor); KT_EQ(lxor); KT_EQ(lmin_s); KT_EQ(lmax_s);
#undef KT_EQ
    if (g.fadd != e.fadd) return th_fail(c, "atomic fadd: got %.9g expected %.9g", (double)g.fadd, (double)e.fadd);
    if (g.dadd != e.dadd) return th_fail(c, "atomic dadd: got %.17g expected %.17g", g.dadd, e.dadd);
    TH_TRY(check_perm(c, "atomicCAS loop tickets", tick, 4, n, g.cas));
    TH_TRY(check_perm(c, "atomicAdd tickets", tick + 4 * n, 1, n, g.ticket));
    TH_TRY(check_sequence(c, "atomicInc", tick + 1, 4, n, 0, inc_limit, 0, g.uinc));
    TH_TRY(check_sequence(c, "atomicDec", tick + 2, 4, n, 1000, dec_limit, 1, g.udec));
    /* atomicExch: the old values and the final value are {0, 1, ..., n} */
    return check_perm(c, "atomicExch values", tick + 3, 4, n, g.exch);
}

/* ---- atomics_shared ----------------------------------------------------------------------
** atom.shared .add (.u32 .u64 .f32 .f64) .min/.max (.s32 .u32 .u64) .inc .dec
** .and .or .xor .exch .cas, per block. */
static kt_res t_atomics_shared(th_ctx *c)
{
    enum { NB = 16, BS = 256, n = NB * BS };
    static int32_t iv[n];
    static float fv[n];
    static double dv[n];
    static uint32_t out[12 * NB], tick[4 * n];
    static uint64_t out64[2 * NB];
    static float outf[NB];
    static double outd[NB];
    kt_rng r;
    kt_seed(&r, 3004);
    for (int i = 0; i < n; i++) {
        iv[i] = kt_below(&r, 16) == 0 ? (int32_t)(0x80000000u | kt_below(&r, 16)) : (int32_t)kt_u32(&r);
        fv[i] = 0.5f * (float)((int)kt_below(&r, 2001) - 1000);
        dv[i] = (double)((int)kt_below(&r, 200001) - 100000) / 4096.0;
    }
    CUmodule m; CUfunction f;
    CUdeviceptr di, df, dd, dO, dO64, dOf, dOd, dt;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "atomics_shared", &f));
    TH_TRY(th_upload(c, iv, sizeof iv, &di)); TH_TRY(th_upload(c, fv, sizeof fv, &df));
    TH_TRY(th_upload(c, dv, sizeof dv, &dd));
    TH_TRY(th_alloc(c, sizeof out, &dO)); TH_TRY(th_alloc(c, sizeof out64, &dO64));
    TH_TRY(th_alloc(c, sizeof outf, &dOf)); TH_TRY(th_alloc(c, sizeof outd, &dOd));
    TH_TRY(th_alloc(c, sizeof tick, &dt));
    KT_LAUNCH1(f, NB, BS, &di, &df, &dd, &dO, &dO64, &dOf, &dOd, &dt);
    TH_TRY(th_download(c, out, dO, sizeof out)); TH_TRY(th_download(c, out64, dO64, sizeof out64));
    TH_TRY(th_download(c, outf, dOf, sizeof outf)); TH_TRY(th_download(c, outd, dOd, sizeof outd));
    TH_TRY(th_download(c, tick, dt, sizeof tick));
    for (int b = 0; b < NB; b++) {
        uint32_t e[12] = {0, 0x7fffffffu, 0x80000000u, 0, 0, 3, 0xffffffffu, 0, 0, 0, 0, 0};
        uint64_t ladd = 0, lmin = ~0ull;
        float fs = 0.0f;
        double ds = 0.0;
        for (int t = 0; t < BS; t++) {
            int32_t x = iv[b * BS + t];
            uint32_t u = (uint32_t)x;
            e[0] += u;
            if (x < (int32_t)e[1]) e[1] = u;
            if (x > (int32_t)e[2]) e[2] = u;
            if (u > e[3]) e[3] = u;
            e[4] = inc_op(e[4], 6);
            e[5] = dec_op(e[5], 9);
            e[6] &= u | 0x80808080u; e[7] |= u & 0x11111111u; e[8] ^= u;
            ladd += (uint64_t)(int64_t)x;
            if ((uint64_t)u << 20 < lmin) lmin = (uint64_t)u << 20;
            fs += fv[b * BS + t];
            ds += dv[b * BS + t];
        }
        e[9] = out[12 * b + 9];   /* exch and cas: checked below as permutations */
        e[10] = BS;
        char what[64];
        snprintf(what, sizeof what, "block %d shared counters", b);
        TH_TRY(th_check_u32(c, what, out + 12 * b, e, 12));
        if (out64[2 * b] != ladd || out64[2 * b + 1] != lmin)
            return th_fail(c, "block %d shared u64 add/min: got 0x%llx 0x%llx expected 0x%llx 0x%llx", b,
                           (unsigned long long)out64[2 * b], (unsigned long long)out64[2 * b + 1],
                           (unsigned long long)ladd, (unsigned long long)lmin);
        if (outf[b] != fs || outd[b] != ds)
            return th_fail(c, "block %d shared float sums: got %.9g %.17g expected %.9g %.17g", b,
                           (double)outf[b], outd[b], (double)fs, ds);
        snprintf(what, sizeof what, "block %d CAS tickets", b);
        TH_TRY(check_perm(c, what, tick + 4 * b * BS, 4, BS, out[12 * b + 10]));
        snprintf(what, sizeof what, "block %d atomicInc", b);
        TH_TRY(check_sequence(c, what, tick + 4 * b * BS + 1, 4, BS, 0, 6, 0, out[12 * b + 4]));
        snprintf(what, sizeof what, "block %d atomicDec", b);
        TH_TRY(check_sequence(c, what, tick + 4 * b * BS + 2, 4, BS, 3, 9, 1, out[12 * b + 5]));
        snprintf(what, sizeof what, "block %d atomicExch", b);
        TH_TRY(check_perm(c, what, tick + 4 * b * BS + 3, 4, BS, out[12 * b + 9]));
    }
    return KT_PASS;
}

/* ---- lockfree ----------------------------------------------------------------------------
** A Treiber-stack push with an atom.cas loop (every node must end up in the
** list exactly once), then a spin lock (atom.cas / atom.exch, membar.gl)
** guarding plain volatile read-modify-writes. */
static kt_res t_lockfree(th_ctx *c)
{
    enum { NB = 16, BS = 128, n = NB * BS };
    static int32_t next[n], val[NB];
    static uint32_t order[NB];
    int32_t head = -1, lock = 0;
    uint64_t total = 0, etotal = 0;
    uint32_t pos = 0;
    kt_rng r;
    kt_seed(&r, 3005);
    for (int b = 0; b < NB; b++) { val[b] = (int32_t)kt_below(&r, 1000000); etotal += (uint64_t)val[b]; }
    CUmodule m; CUfunction f;
    CUdeviceptr dh, dn, dl, dt, dor, dp, dv;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "lockfree", &f));
    TH_TRY(th_upload(c, &head, sizeof head, &dh)); TH_TRY(th_alloc(c, sizeof next, &dn));
    TH_TRY(th_upload(c, &lock, sizeof lock, &dl)); TH_TRY(th_upload(c, &total, sizeof total, &dt));
    TH_TRY(th_alloc(c, sizeof order, &dor)); TH_TRY(th_upload(c, &pos, sizeof pos, &dp));
    TH_TRY(th_upload(c, val, sizeof val, &dv));
    TH_CU(c, cuMemsetD8(dor, 0xff, sizeof order));
    KT_LAUNCH1(f, NB, BS, &dh, &dn, &dl, &dt, &dor, &dp, &dv);
    TH_TRY(th_download(c, &head, dh, sizeof head)); TH_TRY(th_download(c, next, dn, sizeof next));
    TH_TRY(th_download(c, &lock, dl, sizeof lock)); TH_TRY(th_download(c, &total, dt, sizeof total));
    TH_TRY(th_download(c, order, dor, sizeof order)); TH_TRY(th_download(c, &pos, dp, sizeof pos));
    static unsigned char seen[n];
    memset(seen, 0, sizeof seen);
    int len = 0;
    for (int32_t v = head; v != -1; v = next[v]) {
        if (v < 0 || v >= n) return th_fail(c, "stack: link %d out of range after %d nodes", v, len);
        if (seen[v]++) return th_fail(c, "stack: node %d reached twice", v);
        len++;
    }
    if (len != n) return th_fail(c, "stack: %d nodes linked, expected %d", len, n);
    if (lock != 0) return th_fail(c, "lock left at %d", lock);
    if (total != etotal) return th_fail(c, "locked total: got %llu expected %llu", (unsigned long long)total,
                                        (unsigned long long)etotal);
    if (pos != NB) return th_fail(c, "locked position: got %u expected %d", pos, NB);
    static unsigned char bseen[NB];
    memset(bseen, 0, sizeof bseen);
    for (int k = 0; k < NB; k++)
        if (order[k] >= NB || bseen[order[k]]++) return th_fail(c, "lock order[%d] = %u", k, order[k]);
    return KT_PASS;
}

/* ---- local_array ---------------------------------------------------------------------
** Per-thread arrays indexed by data (ld.local/st.local). */
static kt_res t_local_array(th_ctx *c)
{
    enum { n = 512 };
    static uint32_t in[n], o[n], e[n];
    kt_rng r;
    kt_seed(&r, 3006);
    for (int i = 0; i < n; i++) {
        in[i] = kt_u32(&r);
        uint32_t x = in[i], buf[64], perm[16], acc = 0;
        for (uint32_t k = 0; k < 64; k++) buf[k] = (x * (k + 1)) ^ k;
        for (uint32_t k = 0; k < 16; k++) perm[k] = (x >> (k & 7)) & 63;
        for (uint32_t k = 0; k < 16; k++) {
            uint32_t j = perm[k];
            buf[(j + k) & 63] += buf[j];
            acc = acc * 31 + buf[(x + k * 7) & 63];
        }
        e[i] = acc;
    }
    CUmodule m; CUfunction f;
    CUdeviceptr di, dO;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "local_array", &f));
    TH_TRY(th_upload(c, in, sizeof in, &di)); TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, n / 128, 128, &di, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u32(c, "local", o, e, n);
}

/* ---- const_mem -----------------------------------------------------------------------
** ld.const with computed indices, __constant__ set through cuModuleGetGlobal
** + cuMemcpyHtoD, initialized .const and .global module variables, and
** atom.global.add on a module variable read back with cuMemcpyDtoH. */
static kt_res t_const_mem(th_ctx *c)
{
    enum { n = 512 };
    static float x[n], y[n], ey[n];
    static int32_t k[n], z[n], ez[n];
    float coef[8];
    int32_t table[256];
    const int32_t cinit[4] = {7, -3, 1000000, 42};
    const uint64_t big[3] = {1ull, 0x100000000ull, 0xffffffffffffffffull};
    kt_rng r;
    kt_seed(&r, 3007);
    for (int j = 0; j < 8; j++) coef[j] = kt_f32_range(&r, -1.0f, 1.0f);
    for (int j = 0; j < 256; j++) table[j] = (int32_t)kt_u32(&r);
    for (int i = 0; i < n; i++) {
        x[i] = kt_f32_range(&r, -2.0f, 2.0f);
        k[i] = (int32_t)(kt_u32(&r) >> 2);
        float p = coef[7];
        for (int j = 6; j >= 0; j--) p = kt_ffma(p, x[i], coef[j], KT_RN);
        ey[i] = p;
        ez[i] = (int32_t)((uint32_t)table[k[i] & 255] + (uint32_t)cinit[k[i] & 3] + (uint32_t)big[k[i] % 3]);
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dc, dt, dg, db, dx, dk, dy, dz;
    size_t bytes;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "const_mem", &f));
    TH_CU(c, cuModuleGetGlobal(&dc, &bytes, m, "c_coef"));
    if (bytes != sizeof coef) return th_fail(c, "c_coef has %zu bytes, expected %zu", bytes, sizeof coef);
    TH_CU(c, cuMemcpyHtoD(dc, coef, sizeof coef));
    TH_CU(c, cuModuleGetGlobal(&dt, &bytes, m, "c_table"));
    if (bytes != sizeof table) return th_fail(c, "c_table has %zu bytes, expected %zu", bytes, sizeof table);
    TH_CU(c, cuMemcpyHtoD(dt, table, sizeof table));
    int32_t counter = 0;
    uint64_t gbig[3];
    TH_CU(c, cuModuleGetGlobal(&dg, &bytes, m, "g_counter"));
    if (bytes != 4) return th_fail(c, "g_counter has %zu bytes, expected 4", bytes);
    TH_CU(c, cuMemcpyDtoH(&counter, dg, 4));
    if (counter != 5) return th_fail(c, "g_counter initial value %d, expected 5 (module initializer)", counter);
    TH_CU(c, cuModuleGetGlobal(&db, &bytes, m, "g_big"));
    TH_CU(c, cuMemcpyDtoH(gbig, db, sizeof gbig));
    TH_TRY(th_check_u64(c, "g_big initializer", gbig, big, 3));
    CUdeviceptr dci;
    TH_CU(c, cuModuleGetGlobal(&dci, &bytes, m, "c_init"));
    if (bytes != sizeof cinit) return th_fail(c, "c_init has %zu bytes, expected %zu", bytes, sizeof cinit);
    TH_TRY(th_upload(c, x, sizeof x, &dx)); TH_TRY(th_upload(c, k, sizeof k, &dk));
    TH_TRY(th_alloc(c, sizeof y, &dy)); TH_TRY(th_alloc(c, sizeof z, &dz));
    KT_LAUNCH1(f, n / 128, 128, &dx, &dk, &dy, &dz);
    TH_TRY(th_download(c, y, dy, sizeof y)); TH_TRY(th_download(c, z, dz, sizeof z));
    TH_CU(c, cuMemcpyDtoH(&counter, dg, 4));
    TH_TRY(kt_cmp_f32(c, "polynomial", (const uint32_t *)y, (const uint32_t *)ey, n));
    TH_TRY(th_check_u32(c, "table lookups", (const uint32_t *)z, (const uint32_t *)ez, n));
    if (counter != 5 + n) return th_fail(c, "g_counter after the kernel: %d, expected %d", counter, 5 + n);
    return KT_PASS;
}

/* ---- dyn_shared ----------------------------------------------------------------------
** extern __shared__ sized by cuLaunchKernel's sharedMemBytes (two launches
** of different sizes), int and double views of it, %dynamic_smem_size. */
static kt_res dyn_run(th_ctx *c, CUfunction f, unsigned bs, unsigned nb, unsigned extra)
{
    unsigned n = bs * nb;
    int32_t *in = calloc(n, 4), *o = calloc(n, 4);
    double *od = calloc(n, 8);
    if (!in || !o || !od) { free(in); free(o); free(od); return th_fail(c, "runner: out of memory"); }
    kt_rng r;
    kt_seed(&r, 3008 + bs);
    for (unsigned i = 0; i < n; i++) in[i] = (int32_t)kt_u32(&r) >> 3;
    CUdeviceptr di, dO, dd, ds;
    kt_res res = th_upload(c, in, n * 4, &di);
    if (res == KT_PASS) res = th_alloc(c, n * 4, &dO);
    if (res == KT_PASS) res = th_alloc(c, n * 8, &dd);
    if (res == KT_PASS) res = th_alloc(c, 4, &ds);
    unsigned bytes = ((bs * 4 + 7) & ~7u) + bs * 8 + extra;
    if (res == KT_PASS) {
        void *p[] = {&di, &dO, &dd, &ds};
        res = th_launch(c, f, nb, 1, 1, bs, 1, 1, bytes, p);
    }
    uint32_t size = 0;
    if (res == KT_PASS) res = th_download(c, o, dO, n * 4);
    if (res == KT_PASS) res = th_download(c, od, dd, n * 8);
    if (res == KT_PASS) res = th_download(c, &size, ds, 4);
    for (unsigned i = 0; res == KT_PASS && i < n; i++) {
        unsigned b = i / bs, t = i % bs;
        int32_t ev = in[b * bs + bs - 1 - t];
        double ed = (double)in[b * bs + (t + 1) % bs] * 0.5;
        if (o[i] != ev) res = th_fail(c, "block size %u: out[%u] = %d expected %d", bs, i, o[i], ev);
        else if (od[i] != ed) res = th_fail(c, "block size %u: dout[%u] = %.17g expected %.17g", bs, i, od[i], ed);
    }
    if (res == KT_PASS && size != bytes)
        res = th_fail(c, "%%dynamic_smem_size = %u, launched with %u", size, bytes);
    free(in); free(o); free(od);
    return res;
}

static kt_res t_dyn_shared(th_ctx *c)
{
    CUmodule m; CUfunction f;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "dyn_shared", &f));
    TH_TRY(dyn_run(c, f, 96, 8, 0));
    return dyn_run(c, f, 64, 5, 256);
}

/* ---- struct_param / launch_extra ------------------------------------------------------
** Structs with char/short/int/float/double/long long fields and padding, a
** nested struct with an array, passed by value (ld.param at offsets, and
** the local copy a dynamic index forces); the same kind of parameters
** through cuLaunchKernel's 'extra' buffer. */
typedef struct Mixed { int8_t c; double d; int32_t i; float f; int16_t s; int8_t t[3]; int64_t ll; } Mixed;
typedef struct Inner { uint16_t a; uint8_t b; } Inner;
typedef struct Outer { float v[5]; Inner in; double w; int32_t tail; } Outer;

static kt_res t_struct_param(th_ctx *c)
{
    enum { n = 64 };
    Mixed mx;
    Outer ot;
    memset(&mx, 0, sizeof mx);
    memset(&ot, 0, sizeof ot);
    if (sizeof mx != 40 || sizeof ot != 40) return th_fail(c, "runner: host struct layout differs from the kernel's");
    mx.c = -5; mx.d = 3.25; mx.i = 1000; mx.f = -0.5f; mx.s = -300; mx.t[0] = 1; mx.t[1] = -2; mx.t[2] = 3;
    mx.ll = 0x123456789abcdef0ll;
    for (int j = 0; j < 5; j++) ot.v[j] = 1.5f + (float)j;
    ot.in.a = 65535; ot.in.b = 200; ot.w = -7.125; ot.tail = -99;
    int32_t scale = 3;
    static uint64_t o[12 * n], e[12 * n];
    for (int i = 0; i < n; i++) {
        uint64_t *q = e + 12 * i;
        q[0] = (uint64_t)(int64_t)mx.c;
        q[1] = kt_dbits(kt_dmul(mx.d, (double)scale, KT_RN));
        q[2] = (uint64_t)(int64_t)(mx.i + i);
        q[3] = kt_fbits(mx.f);
        q[4] = (uint64_t)(int64_t)mx.s;
        q[5] = (uint64_t)(int64_t)(mx.t[0] + 2 * mx.t[1] + 3 * mx.t[2]);
        q[6] = (uint64_t)mx.ll;
        q[7] = kt_fbits(ot.v[i % 5]);
        q[8] = (uint64_t)(ot.in.a + ot.in.b);
        q[9] = kt_dbits(ot.w);
        q[10] = (uint64_t)(int64_t)ot.tail;
        q[11] = (uint64_t)scale;
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dO;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "struct_param", &f));
    TH_TRY(th_alloc(c, sizeof o, &dO));
    KT_LAUNCH1(f, 1, n, &mx, &scale, &ot, &dO);
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u64(c, "struct fields (thread*12+field)", o, e, 12 * n);
}

static kt_res t_launch_extra(th_ctx *c)
{
    /* The parameter buffer: each parameter at its natural alignment. */
    unsigned char buf[64];
    Mixed mx;
    memset(buf, 0, sizeof buf);
    memset(&mx, 0, sizeof mx);
    mx.c = 'A'; mx.i = -12; mx.ll = 77777;
    int32_t k = 9;
    double w = 2.75;
    CUmodule m; CUfunction f;
    CUdeviceptr dO;
    TH_TRY(th_module_data(c, "mem.ptx", &m));   /* this test loads the module from memory */
    TH_TRY(th_func(c, m, "extra_params", &f));
    TH_TRY(th_alloc(c, 16, &dO));
    TH_CU(c, cuMemsetD32(dO, 0, 4));
    memcpy(buf + 0, &dO, 8);
    memcpy(buf + 8, &mx, 40);
    memcpy(buf + 48, &k, 4);
    memcpy(buf + 56, &w, 8);
    size_t size = sizeof buf;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    TH_CU(c, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, extra));
    TH_CU(c, cuCtxSynchronize());
    int32_t o[4];
    TH_TRY(th_download(c, o, dO, sizeof o));
    const int32_t e[4] = {-108, 'A', 11, 77777};
    return th_check_u32(c, "extra-launched results", (const uint32_t *)o, (const uint32_t *)e, 4);
}

/* ---- grid3d -------------------------------------------------------------------------
** %ctaid.{x,y,z} %tid.{x,y,z} %nctaid.{x,y,z} %ntid.{x,y,z} in a 3x2x2 grid
** of 4x3x2 blocks: every thread writes once, at its own index. */
static kt_res t_grid3d(th_ctx *c)
{
    enum { GX = 3, GY = 2, GZ = 2, BX = 4, BY = 3, BZ = 2, n = GX * GY * GZ * BX * BY * BZ };
    static uint32_t o[2 * n], e[2 * n];
    for (unsigned bz = 0; bz < GZ; bz++) for (unsigned by = 0; by < GY; by++) for (unsigned bx = 0; bx < GX; bx++)
    for (unsigned tz = 0; tz < BZ; tz++) for (unsigned ty = 0; ty < BY; ty++) for (unsigned tx = 0; tx < BX; tx++) {
        unsigned g = ((bz * GY + by) * GX + bx) * (BX * BY * BZ) + (tz * BY + ty) * BX + tx;
        e[2 * g] = bx | by << 4 | bz << 8 | tx << 12 | ty << 16 | tz << 20;
        e[2 * g + 1] = GX | GY << 4 | GZ << 8 | BX << 12 | BY << 16 | BZ << 20;
    }
    CUmodule m; CUfunction f;
    CUdeviceptr dO;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "grid3d", &f));
    TH_TRY(th_alloc(c, sizeof o, &dO));
    TH_CU(c, cuMemsetD32(dO, 0xffffffffu, 2 * n));
    void *p[] = {&dO};
    TH_TRY(th_launch(c, f, GX, GY, GZ, BX, BY, BZ, 0, p));
    TH_TRY(th_download(c, o, dO, sizeof o));
    return th_check_u32(c, "ids (thread*2+{ids,dims})", o, e, 2 * n);
}

/* ---- vector_mem -----------------------------------------------------------------------
** ld/st.global.v2/.v4 (.f32 .u32 .f64 .u64), ld/st.shared.v4, ld.global.nc. */
static kt_res t_vector_mem(th_ctx *c)
{
    enum { BS = 64, NB = 4, n = BS * NB };
    static float a[4 * n], oa[4 * n], ea[4 * n];
    static int32_t b[2 * n], ob[2 * n], eb[2 * n];
    static double cc[2 * n], oc[2 * n], ec[2 * n];
    static int64_t d[2 * n], od[2 * n], ed[2 * n];
    static uint32_t ro[n], oro[n], ero[n];
    kt_rng r;
    kt_seed(&r, 3009);
    for (int i = 0; i < 4 * n; i++) a[i] = kt_f32_range(&r, -100.0f, 100.0f);
    for (int i = 0; i < 2 * n; i++) {
        b[i] = (int32_t)kt_u32(&r); cc[i] = (double)kt_f32_range(&r, -9.0f, 9.0f) / 3.0;
        d[i] = (int64_t)kt_next(&r);
    }
    for (int i = 0; i < n; i++) ro[i] = kt_u32(&r);
    for (int i = 0; i < n; i++) {
        int blk = i / BS, t = i % BS, j = blk * BS + (BS - 1 - t);
        for (int k = 0; k < 4; k++) ea[4 * i + k] = a[4 * j + 3 - k];
        eb[2 * i] = b[2 * i + 1];
        eb[2 * i + 1] = (int32_t)((uint32_t)b[2 * i] + (uint32_t)b[2 * i + 1]);
        ec[2 * i] = cc[2 * i + 1]; ec[2 * i + 1] = cc[2 * i];
        ed[2 * i] = d[2 * i] ^ d[2 * i + 1]; ed[2 * i + 1] = d[2 * i + 1];
        ero[i] = ro[i] + ro[(i + 1) % n];
    }
    CUmodule m; CUfunction f;
    CUdeviceptr da, db, dc, dd, doa, dob, doc, dod, dro, doro;
    TH_TRY(th_module(c, "mem.ptx", &m));
    TH_TRY(th_func(c, m, "vector_mem", &f));
    TH_TRY(th_upload(c, a, sizeof a, &da)); TH_TRY(th_upload(c, b, sizeof b, &db));
    TH_TRY(th_upload(c, cc, sizeof cc, &dc)); TH_TRY(th_upload(c, d, sizeof d, &dd));
    TH_TRY(th_upload(c, ro, sizeof ro, &dro));
    TH_TRY(th_alloc(c, sizeof oa, &doa)); TH_TRY(th_alloc(c, sizeof ob, &dob));
    TH_TRY(th_alloc(c, sizeof oc, &doc)); TH_TRY(th_alloc(c, sizeof od, &dod));
    TH_TRY(th_alloc(c, sizeof oro, &doro));
    KT_LAUNCH1(f, NB, BS, &da, &db, &dc, &dd, &doa, &dob, &doc, &dod, &dro, &doro);
    TH_TRY(th_download(c, oa, doa, sizeof oa)); TH_TRY(th_download(c, ob, dob, sizeof ob));
    TH_TRY(th_download(c, oc, doc, sizeof oc)); TH_TRY(th_download(c, od, dod, sizeof od));
    TH_TRY(th_download(c, oro, doro, sizeof oro));
    TH_TRY(th_check_u32(c, "float4", (const uint32_t *)oa, (const uint32_t *)ea, 4 * n));
    TH_TRY(th_check_u32(c, "int2", (const uint32_t *)ob, (const uint32_t *)eb, 2 * n));
    TH_TRY(th_check_u64(c, "double2", (const uint64_t *)oc, (const uint64_t *)ec, 2 * n));
    TH_TRY(th_check_u64(c, "longlong2", (const uint64_t *)od, (const uint64_t *)ed, 2 * n));
    return th_check_u32(c, "ld.global.nc", oro, ero, n);
}

const kt_test kt_tests_mem[] = {
    {"matmul_tiled", t_matmul_tiled, 0},
    {"reduce_block", t_reduce_block, 0},
    {"atomics_global", t_atomics_global, 0},
    {"atomics_shared", t_atomics_shared, 0},
    {"lockfree", t_lockfree, 0},
    {"local_array", t_local_array, 0},
    {"const_mem", t_const_mem, 0},
    {"dyn_shared", t_dyn_shared, 0},
    {"struct_param", t_struct_param, 0},
    {"launch_extra", t_launch_extra, 0},
    {"grid3d", t_grid3d, 0},
    {"vector_mem", t_vector_mem, 0},
    {0},
};
