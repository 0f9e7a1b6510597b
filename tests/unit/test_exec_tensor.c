/*
** test_exec_tensor.c -- the warp-level matrix instructions through the whole
** functional model, on hand-written PTX (docs/TENSOR.md).
**
** mma: every shape and type.  Each lane loads its fragment registers from
** memory, the warp runs one mma, each lane stores its d registers.  The
** test packs the matrices into fragments with the PTX ISA's own formulas
** ("Matrix Fragments for mma.mMnNkK": groupID = laneid >> 2,
** threadID_in_group = laneid % 4, row/col of each element ai, bi, ci),
** written out here shape by shape independently of exec/sem_mma.c, and
** unpacks d the same way, so every fragment element is checked where the
** ISA puts it.  The matrices hold small integers (and, for tf32, garbage in
** the 13 low bits the ISA says are ignored), so every product and sum is
** exact and the reference is plain arithmetic; the accumulation model
** (one rounding per step at the accumulator's precision) is checked by
** cases built to tell it from one rounding at the end.
**
** wmma: every form through memory (row- and column-major, strides, the
** default stride, shared memory), compared with the CPU product; the
** fragment layout tpsim documents for wmma, element by element.  Then
** ldmatrix/stmatrix/movmatrix, NaN/Inf and signed zeros, integer
** saturation, f64 rounding modes, and the faults (a partial warp, a
** misaligned matrix).
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include "base/sbuf.h"
#include <math.h>

static exec_dev *dev;

/* ---- element encodings (exact for the small values used) ---------------------- */

enum { T_F16, T_BF16, T_TF32, T_F32, T_F64, T_S8, T_U8, T_S4, T_U4, T_B1, T_S32 };
static const char *const tname[] = {"f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4", "u4", "b1", "s32"};
static const unsigned tbits[] = {16, 16, 32, 32, 64, 8, 8, 4, 4, 1, 32};

static uint32_t f32b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t f64b(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static double bf64(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

/* An f16 holding v exactly (|v| < 65504, at most 11 significant bits). */
static uint16_t f16b(double v)
{
    if (v == 0) return signbit(v) ? 0x8000 : 0;
    uint16_t s = v < 0 ? 0x8000 : 0;
    double a = fabs(v);
    int e;
    double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    int be = e - 1 + 15;
    if (be <= 0) return (uint16_t)(s | (uint16_t)ldexp(a, 24));
    return (uint16_t)(s | be << 10 | ((uint16_t)ldexp(m, 11) & 0x3ff));
}
static double f16v(uint16_t h)
{
    int e = h >> 10 & 31, f = h & 0x3ff;
    double v = e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);
    if (e == 31) v = f ? NAN : INFINITY;
    return h & 0x8000 ? -v : v;
}

static uint64_t enc(int t, double v)
{
    switch (t) {
    case T_F16: return f16b(v);
    case T_BF16: return f32b((float)v) >> 16;
    case T_TF32: case T_F32: return f32b((float)v);
    case T_F64: return f64b(v);
    default: return (uint64_t)(int64_t)v & (tbits[t] == 32 ? 0xffffffffu : (1u << tbits[t]) - 1);
    }
}
static double dec(int t, uint64_t b)
{
    switch (t) {
    case T_F16: return f16v((uint16_t)b);
    case T_BF16: return bf32((uint32_t)b << 16);
    case T_TF32: return bf32((uint32_t)b & 0xffffe000u);
    case T_F32: return bf32((uint32_t)b);
    case T_F64: return bf64(b);
    case T_S8: return (int8_t)b;
    case T_U8: return (uint8_t)b;
    case T_S4: return (int)((b & 15) ^ 8) - 8;
    case T_U4: return (double)(b & 15);
    case T_B1: return (double)(b & 1);
    default: return (int32_t)b;
    }
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}
static int rnd_in(int lo, int hi) { return lo + (int)(rnd32() % (uint32_t)(hi - lo + 1)); }

/* A random multiplicand / accumulator value of type t (small, exact). */
static double pick(int t, bool acc)
{
    switch (t) {
    case T_S8: return rnd_in(-128, 127);
    case T_U8: return rnd_in(0, 255);
    case T_S4: return rnd_in(-8, 7);
    case T_U4: return rnd_in(0, 15);
    case T_B1: return rnd_in(0, 1);
    case T_S32: return rnd_in(-100000, 100000);
    default: return acc ? rnd_in(-16, 16) : rnd_in(-6, 6) * 0.5;
    }
}

/* ---- the PTX ISA's fragment layouts, shape by shape -------------------------------- */

enum { OP_D, OP_A, OP_B, OP_C };

typedef struct mcase {
    const char *quals;     /* after "mma.sync.aligned." */
    int M, N, K;
    int td, ta, tb, tc;
    bool acol, bcol;       /* m8n8k4 f16 layouts */
} mcase;

static bool quadpair(const mcase *mc) { return mc->K == 4 && mc->ta == T_F16; }

/* Row and column of element i of lane's fragment of operand op (OP_A, OP_B,
** OP_C/OP_D), as the PTX ISA's figures give them. */
static void isa_rc(const mcase *mc, int op, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane % 4;
    int M = mc->M, K = mc->K, ta = mc->ta;
    if (quadpair(mc)) { /* mma.m8n8k4 with .f16: per quad-pair */
        int hi = lane >= 16;
        if (op == OP_A) {
            if (!mc->acol) *r = lane % 4 + 4 * hi, *c = i;
            else *r = i % 4 + 4 * hi, *c = lane % 4;
        } else if (op == OP_B) {
            if (mc->bcol) *r = i, *c = lane % 4 + 4 * hi;
            else *r = lane % 4, *c = i % 4 + 4 * hi;
        } else if ((op == OP_C ? mc->tc : mc->td) == T_F16) {
            *r = lane % 4 + 4 * hi, *c = i;
        } else {
            int X = (lane & 1) + (i & 2);
            *r = X + 4 * hi;
            *c = (i & 4) + (lane & 2) + (i & 1);
        }
        return;
    }
    if (op == OP_C || op == OP_D) {
        if (M == 8) *r = g, *c = t * 2 + i;
        else *r = i < 2 ? g : g + 8, *c = t * 2 + (i & 1);
        return;
    }
    if (M == 8) { /* m8n8k4 f64, m8n8k16, m8n8k32, m8n8k128 */
        int per = ta == T_F64 ? 1 : 32 / (int)tbits[ta];
        if (op == OP_A) *r = g, *c = t * per + i;
        else *r = t * per + i, *c = g;
        return;
    }
    if (ta == T_F16 || ta == T_BF16) {
        if (K == 8) {
            if (op == OP_A) *r = i < 2 ? g : g + 8, *c = t * 2 + (i & 1);
            else *r = t * 2 + i, *c = g;
        } else {
            if (op == OP_A) *r = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8, *c = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
            else *r = t * 2 + (i & 1) + (i >= 2 ? 8 : 0), *c = g;
        }
        return;
    }
    if (ta == T_TF32 || ta == T_F64) {
        if (K == 4) {
            if (op == OP_A) *r = i == 0 ? g : g + 8, *c = t;
            else *r = t, *c = g;
        } else if (K == 8) {
            if (op == OP_A) *r = (i == 0 || i == 2) ? g : g + 8, *c = i < 2 ? t : t + 4;
            else *r = i == 0 ? t : t + 4, *c = g;
        } else { /* m16n8k16 .f64 */
            if (op == OP_A) *r = i % 2 == 0 ? g : g + 8, *c = i % 2 == 0 ? i * 2 + t : i * 2 - 2 + t;
            else *r = t + 4 * i, *c = g;
        }
        return;
    }
    if (ta == T_S8 || ta == T_U8) {
        if (K == 16) {
            if (op == OP_A) *r = i < 4 ? g : g + 8, *c = t * 4 + (i & 3);
            else *r = t * 4 + i, *c = g;
        } else {
            if (op == OP_A) *r = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8, *c = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
            else *r = t * 4 + (i & 3) + (i >= 4 ? 16 : 0), *c = g;
        }
        return;
    }
    if (ta == T_S4 || ta == T_U4) {
        if (K == 32) {
            if (op == OP_A) *r = i < 8 ? g : g + 8, *c = t * 8 + (i & 7);
            else *r = t * 8 + i, *c = g;
        } else {
            if (op == OP_A) *r = (i < 8 || (i >= 16 && i < 24)) ? g : g + 8, *c = t * 8 + (i & 7) + (i >= 16 ? 32 : 0);
            else *r = t * 8 + (i & 7) + (i >= 8 ? 32 : 0), *c = g;
        }
        return;
    }
    /* b1 */
    if (K == 128) {
        if (op == OP_A) *r = i < 32 ? g : g + 8, *c = t * 32 + (i & 31);
        else *r = t * 32 + i, *c = g;
    } else {
        if (op == OP_A) *r = (i < 32 || (i >= 64 && i < 96)) ? g : g + 8, *c = t * 32 + (i & 31) + (i >= 64 ? 128 : 0);
        else *r = t * 32 + (i & 31) + (i >= 32 ? 128 : 0), *c = g;
    }
}

/* Elements and registers of an operand, per lane. */
static int nelem(const mcase *mc, int op)
{
    if (quadpair(mc)) return op == OP_A || op == OP_B ? 4 : 8;
    int rows = op == OP_B ? mc->K : mc->M, cols = op == OP_A ? mc->K : mc->N;
    return rows * cols / 32;
}
static int optype(const mcase *mc, int op)
{
    return op == OP_D ? mc->td : op == OP_A ? mc->ta : op == OP_B ? mc->tb : mc->tc;
}
static int nregs(const mcase *mc, int op)
{
    int t = optype(mc, op);
    if (t == T_F64) return nelem(mc, op);
    return (nelem(mc, op) * (int)tbits[t] + 31) / 32;
}

/* ---- running one warp --------------------------------------------------------------- */

/* Lane l's record: 32 slots of 8 bytes; a at 0.., b at 8.., c at 16.., d at 24.. */
enum { SLOTS = 32, REC = SLOTS * 8 };

static exec_status launch(exec_mod *m, unsigned threads, uint64_t p0, uint64_t p1, exec_result *r)
{
    uint64_t params[2] = {p0, p1};
    return exec_rig_launch(m, "t", 1, threads, params, sizeof params, r);
}

static const char *head =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry t(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .b32 %r<40>;\n  .reg .b64 %x<40>;\n  .reg .b64 %in, %out, %o;\n  .reg .b32 %lane;\n"
    "  .reg .pred %p;\n"
    "  ld.param.u64 %in, [pin];\n  ld.param.u64 %out, [pout];\n"
    "  mov.u32 %lane, %laneid;\n  mul.wide.u32 %o, %lane, 256;\n"
    "  add.u64 %in, %in, %o;\n  add.u64 %out, %out, %o;\n";

/* The register list "{%r0, %r1}" of operand op (8-byte registers: %x). */
static void reglist(tp_sbuf *b, const mcase *mc, int op)
{
    int n = nregs(mc, op), base = op * 8;
    bool wide = optype(mc, op) == T_F64;
    tp_sbuf_putc(b, '{');
    for (int i = 0; i < n; i++) tp_sbuf_printf(b, "%s%%%c%d", i ? ", " : "", wide ? 'x' : 'r', base + i);
    tp_sbuf_putc(b, '}');
}

static char *mma_kernel(const mcase *mc, const char *quals)
{
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_sbuf_puts(&b, head);
    for (int op = OP_A; op <= OP_C; op++) {
        bool wide = optype(mc, op) == T_F64;
        for (int i = 0; i < nregs(mc, op); i++)
            tp_sbuf_printf(&b, "  ld.global.b%d %%%c%d, [%%in+%d];\n", wide ? 64 : 32, wide ? 'x' : 'r', op * 8 + i,
                           ((op - 1) * 8 + i) * 8);
    }
    tp_sbuf_printf(&b, "  %s ", quals);
    reglist(&b, mc, OP_D);
    for (int op = OP_A; op <= OP_C; op++) {
        tp_sbuf_puts(&b, ", ");
        reglist(&b, mc, op);
    }
    tp_sbuf_puts(&b, ";\n");
    bool wide = optype(mc, OP_D) == T_F64;
    for (int i = 0; i < nregs(mc, OP_D); i++)
        tp_sbuf_printf(&b, "  st.global.b%d [%%out+%d], %%%c%d;\n", wide ? 64 : 32, (24 + i) * 8, wide ? 'x' : 'r', i);
    tp_sbuf_puts(&b, "  ret;\n}\n");
    return b.s;
}

/* Sets element i of a lane's operand in its record (packing into registers). */
static void rec_put(uint64_t *recl, const mcase *mc, int op, int i, uint64_t bits)
{
    int t = optype(mc, op);
    uint64_t *slot = &recl[op == OP_D ? 24 : (op - 1) * 8];
    if (t == T_F64) { slot[i] = bits; return; }
    unsigned w = tbits[t], per = 32 / w;
    uint64_t mask = w == 32 ? 0xffffffffu : (1u << w) - 1;
    slot[i / per] |= (bits & mask) << (i % per * w);
}
static uint64_t rec_get(const uint64_t *recl, const mcase *mc, int op, int i)
{
    int t = optype(mc, op);
    const uint64_t *slot = &recl[op == OP_D ? 24 : (op - 1) * 8];
    if (t == T_F64) return slot[i];
    unsigned w = tbits[t], per = 32 / w;
    uint64_t mask = w == 32 ? 0xffffffffu : (1u << w) - 1;
    return (slot[i / per] >> (i % per * w)) & mask;
}

/* Runs one mma case with the given A, B, C (row-major, per quad-pair for
** m8n8k4 f16: 4 sets); returns false (after reporting) if it did not run. */
typedef struct mats {
    uint64_t A[4][16 * 256], B[4][256 * 8], C[4][16 * 8], D[4][16 * 8];
} mats;

static bool run_mma(const mcase *mc, mats *x, const char *quals)
{
    char *ptx = mma_kernel(mc, quals);
    exec_mod *m = exec_rig_load(dev, ptx, "tensor.ptx");
    if (!m) {
        TT_CHECK(m != NULL);
        printf("    %s\n", quals);
        free(ptx);
        return false;
    }
    free(ptx);
    uint64_t in = exec_mem_alloc(dev, 32 * REC, 256), out = exec_mem_alloc(dev, 32 * REC, 256);
    uint64_t *pin = exec_mem_host(dev, in, 32 * REC), *pout = exec_mem_host(dev, out, 32 * REC);
    memset(pin, 0, 32 * REC);
    memset(pout, 0xee, 32 * REC);
    int qn = quadpair(mc) ? 4 : 1;
    int M = qn == 4 ? 8 : mc->M, N = qn == 4 ? 8 : mc->N, K = mc->K;
    for (int l = 0; l < 32; l++) {
        int q = qn == 4 ? (l >> 2) & 3 : 0;
        for (int op = OP_A; op <= OP_C; op++)
            for (int i = 0; i < nelem(mc, op); i++) {
                int r, c;
                isa_rc(mc, op, l, i, &r, &c);
                uint64_t v = op == OP_A ? x->A[q][r * K + c] : op == OP_B ? x->B[q][r * N + c] : x->C[q][r * N + c];
                rec_put(pin + l * SLOTS, mc, op, i, v);
            }
    }
    (void)M;
    exec_result res;
    exec_status st = launch(m, 32, in, out, &res);
    TT_EQ_U(st, EXEC_OK);
    if (st != EXEC_OK) printf("    %s: %s\n", quals, res.msg);
    for (int l = 0; l < 32 && st == EXEC_OK; l++) {
        int q = qn == 4 ? (l >> 2) & 3 : 0;
        for (int i = 0; i < nelem(mc, OP_D); i++) {
            int r, c;
            isa_rc(mc, OP_D, l, i, &r, &c);
            x->D[q][r * N + c] = rec_get(pout + l * SLOTS, mc, OP_D, i);
        }
    }
    exec_mem_free(dev, in);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
    return st == EXEC_OK;
}

/* The reference: plain arithmetic on exact values. */
static double ref_el(const mcase *mc, mats *x, int q, int i, int j)
{
    int N = quadpair(mc) ? 8 : mc->N, K = mc->K;
    double s = dec(mc->tc, x->C[q][i * N + j]);
    for (int k = 0; k < K; k++) {
        double a = dec(mc->ta, x->A[q][i * K + k]), b = dec(mc->tb, x->B[q][k * N + j]);
        if (mc->ta == T_B1) s += strstr(mc->quals, "and") ? (double)((int)a & (int)b) : (double)((int)a ^ (int)b);
        else s += a * b;
    }
    return s;
}

static const mcase mcases[] = {
    {"m8n8k4.row.col.f32.f16.f16.f32", 8, 8, 4, T_F32, T_F16, T_F16, T_F32, false, true},
    {"m8n8k4.col.row.f16.f16.f16.f16", 8, 8, 4, T_F16, T_F16, T_F16, T_F16, true, false},
    {"m8n8k4.row.row.f32.f16.f16.f16", 8, 8, 4, T_F32, T_F16, T_F16, T_F16, false, false},
    {"m8n8k4.col.col.f16.f16.f16.f32", 8, 8, 4, T_F16, T_F16, T_F16, T_F32, true, true},
    {"m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, T_F32, T_F16, T_F16, T_F32, false, true},
    {"m16n8k8.row.col.f16.f16.f16.f16", 16, 8, 8, T_F16, T_F16, T_F16, T_F16, false, true},
    {"m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, T_F32, T_F16, T_F16, T_F32, false, true},
    {"m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, T_F16, T_F16, T_F16, T_F16, false, true},
    {"m16n8k16.row.col.f32.f16.f16.f16", 16, 8, 16, T_F32, T_F16, T_F16, T_F16, false, true},
    {"m16n8k8.row.col.f32.bf16.bf16.f32", 16, 8, 8, T_F32, T_BF16, T_BF16, T_F32, false, true},
    {"m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, T_F32, T_BF16, T_BF16, T_F32, false, true},
    {"m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, 4, T_F32, T_TF32, T_TF32, T_F32, false, true},
    {"m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, T_F32, T_TF32, T_TF32, T_F32, false, true},
    {"m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, false, true},
    {"m16n8k4.row.col.f64.f64.f64.f64", 16, 8, 4, T_F64, T_F64, T_F64, T_F64, false, true},
    {"m16n8k8.row.col.f64.f64.f64.f64", 16, 8, 8, T_F64, T_F64, T_F64, T_F64, false, true},
    {"m16n8k16.row.col.f64.f64.f64.f64", 16, 8, 16, T_F64, T_F64, T_F64, T_F64, false, true},
    {"m8n8k16.row.col.s32.s8.s8.s32", 8, 8, 16, T_S32, T_S8, T_S8, T_S32, false, true},
    {"m8n8k16.row.col.s32.u8.s8.s32", 8, 8, 16, T_S32, T_U8, T_S8, T_S32, false, true},
    {"m16n8k16.row.col.s32.s8.u8.s32", 16, 8, 16, T_S32, T_S8, T_U8, T_S32, false, true},
    {"m16n8k32.row.col.s32.u8.u8.s32", 16, 8, 32, T_S32, T_U8, T_U8, T_S32, false, true},
    {"m16n8k32.row.col.satfinite.s32.s8.s8.s32", 16, 8, 32, T_S32, T_S8, T_S8, T_S32, false, true},
    {"m8n8k32.row.col.s32.s4.s4.s32", 8, 8, 32, T_S32, T_S4, T_S4, T_S32, false, true},
    {"m8n8k32.row.col.s32.u4.u4.s32", 8, 8, 32, T_S32, T_U4, T_U4, T_S32, false, true},
    {"m16n8k32.row.col.s32.u4.s4.s32", 16, 8, 32, T_S32, T_U4, T_S4, T_S32, false, true},
    {"m16n8k64.row.col.s32.s4.u4.s32", 16, 8, 64, T_S32, T_S4, T_U4, T_S32, false, true},
    {"m8n8k128.row.col.s32.b1.b1.s32.xor.popc", 8, 8, 128, T_S32, T_B1, T_B1, T_S32, false, true},
    {"m8n8k128.row.col.s32.b1.b1.s32.and.popc", 8, 8, 128, T_S32, T_B1, T_B1, T_S32, false, true},
    {"m16n8k128.row.col.s32.b1.b1.s32.and.popc", 16, 8, 128, T_S32, T_B1, T_B1, T_S32, false, true},
    {"m16n8k256.row.col.s32.b1.b1.s32.xor.popc", 16, 8, 256, T_S32, T_B1, T_B1, T_S32, false, true},
};

static mats X;

/* Every mma shape and type: the ISA's fragment layout and the product. */
static void t_mma_forms(void)
{
    for (size_t n = 0; n < TP_ARRAY_LEN(mcases); n++) {
        const mcase *mc = &mcases[n];
        int qn = quadpair(mc) ? 4 : 1;
        int M = qn == 4 ? 8 : mc->M, N = qn == 4 ? 8 : mc->N, K = mc->K;
        memset(&X, 0, sizeof X);
        for (int q = 0; q < qn; q++) {
            for (int i = 0; i < M * K; i++) {
                X.A[q][i] = enc(mc->ta, pick(mc->ta, false));
                if (mc->ta == T_TF32) X.A[q][i] |= rnd32() & 0x1fff; /* ignored */
            }
            for (int i = 0; i < K * N; i++) {
                X.B[q][i] = enc(mc->tb, pick(mc->tb, false));
                if (mc->tb == T_TF32) X.B[q][i] |= rnd32() & 0x1fff;
            }
            for (int i = 0; i < M * N; i++) X.C[q][i] = enc(mc->tc, pick(mc->tc, true));
        }
        char q[128];
        snprintf(q, sizeof q, "mma.sync.aligned.%s", mc->quals);
        if (!run_mma(mc, &X, q)) continue;
        int bad = 0;
        for (int k = 0; k < qn; k++)
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    uint64_t want = enc(mc->td, ref_el(mc, &X, k, i, j)), got = X.D[k][i * N + j];
                    if (got != want && bad++ < 3)
                        printf("    %s: D[%d][%d][%d] = 0x%llx, want 0x%llx\n", mc->quals, k, i, j,
                               (unsigned long long)got, (unsigned long long)want);
                }
        TT_EQ_I(bad, 0);
    }
}

/* The accumulation model: each step rounds (to nearest even) at the
** accumulator's precision, in the order k = 0 .. K-1.  f32: 2^24 + 1 + 1 +
** ... stays 2^24 (each +1 is a tie, to even), where one rounding of the
** exact sum would give 2^24 + 14; f16 the same at 2^11; f64 at 2^53. */
static void t_mma_rounding(void)
{
    static const mcase c32 = {"m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, T_F32, T_F16, T_F16, T_F32, false, true};
    static const mcase c16 = {"m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, T_F16, T_F16, T_F16, T_F16, false, true};
    static const mcase c64 = {"m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, T_F64, T_F64, T_F64, T_F64, false, true};
    const mcase *cs[3] = {&c32, &c16, &c64};
    double big[3] = {16777216.0, 2048.0, 9007199254740992.0};
    for (int n = 0; n < 3; n++) {
        const mcase *mc = cs[n];
        memset(&X, 0, sizeof X);
        int M = mc->M, N = mc->N, K = mc->K;
        for (int i = 0; i < M * K; i++) X.A[0][i] = enc(mc->ta, 1.0);
        for (int i = 0; i < K * N; i++) X.B[0][i] = enc(mc->tb, 1.0);
        for (int i = 0; i < M * N; i++) X.C[0][i] = enc(mc->tc, big[n]);
        if (!run_mma(mc, &X, n == 2 ? "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64" :
                                     n == 0 ? "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" :
                                              "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"))
            continue;
        TT_EQ_U(X.D[0][0], enc(mc->td, big[n]));
        TT_EQ_U(X.D[0][M * N - 1], enc(mc->td, big[n]));
    }
    /* f32 accumulation of f16 products: exact products, so 1.0 + 2^-24 * 2^-1
    ** ... a product below half an ulp of the accumulator vanishes at each step
    ** (2^-12 * 2^-13 = 2^-25 against 1.0) */
    memset(&X, 0, sizeof X);
    for (int i = 0; i < 16 * 16; i++) X.A[0][i] = f16b(ldexp(1, -12));
    for (int i = 0; i < 16 * 8; i++) X.B[0][i] = f16b(ldexp(1, -13));
    for (int i = 0; i < 16 * 8; i++) X.C[0][i] = f32b(1.0f);
    if (run_mma(&c32, &X, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")) TT_EQ_U(X.D[0][5], f32b(1.0f));
    /* ... but 16 of them summed first would have made 2^-21: 1 + 2^-21 is exact */
}

/* NaN, infinities and signed zeros. */
static void t_mma_special(void)
{
    static const mcase c32 = {"m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, T_F32, T_F16, T_F16, T_F32, false, true};
    static const mcase c16 = {"m16n8k8.row.col.f16.f16.f16.f16", 16, 8, 8, T_F16, T_F16, T_F16, T_F16, false, true};
    memset(&X, 0, sizeof X);
    /* row 0: inf * 0 -> NaN; row 1: inf + (-inf) -> NaN; row 2: +0*x + -0 -> +0 (x > 0);
    ** row 3: -0 * x + -0 -> -0; row 4: a NaN input; row 5: inf * 1 -> inf; row 6: 65504*2 (f16: inf) */
    for (int i = 0; i < 16 * 8; i++) X.A[0][i] = 0, X.B[0][i] = f16b(1.0);
    X.A[0][0 * 8 + 0] = 0x7c00; X.B[0][0 * 8 + 0] = 0;               /* inf * 0, column 0 */
    X.A[0][1 * 8 + 0] = 0x7c00; X.A[0][1 * 8 + 1] = 0xfc00;           /* inf - inf */
    for (int k = 0; k < 8; k++) X.A[0][3 * 8 + k] = 0x8000;           /* row 3: every product -0 */
    X.A[0][4 * 8 + 2] = 0x7e01;                                       /* a NaN */
    X.A[0][5 * 8 + 0] = 0x7c00;                                       /* inf */
    X.A[0][6 * 8 + 0] = f16b(65504); X.A[0][6 * 8 + 1] = f16b(65504); /* 131008 */
    for (int i = 0; i < 16 * 8; i++) X.C[0][i] = 0;
    for (int j = 0; j < 8; j++) X.C[0][3 * 8 + j] = 0x80000000u;      /* row 3: C = -0 */
    for (int j = 0; j < 8; j++) X.C[0][2 * 8 + j] = 0x80000000u;      /* row 2: C = -0, products +0 */
    if (run_mma(&c32, &X, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32")) {
        TT_EQ_U(X.D[0][0 * 8 + 0], 0x7fffffff); /* canonical NaN */
        TT_EQ_U(X.D[0][0 * 8 + 1], 0x7f800000); /* column 1: B[0][1] = 1: inf */
        TT_EQ_U(X.D[0][1 * 8 + 3], 0x7fffffff);
        TT_EQ_U(X.D[0][2 * 8 + 0], 0);          /* -0 + (+0) = +0 */
        TT_EQ_U(X.D[0][3 * 8 + 0], 0x80000000); /* -0 + (-0 * 1) = -0 */
        TT_EQ_U(X.D[0][4 * 8 + 7], 0x7fffffff);
        TT_EQ_U(X.D[0][5 * 8 + 4], 0x7f800000);
        TT_EQ_U(X.D[0][6 * 8 + 1], f32b(131008.0f)); /* f32 holds it (column 0: B[0][0] = 0) */
    }
    for (int i = 0; i < 16 * 8; i++) X.C[0][i] = X.C[0][i] ? 0x8000 : 0;
    if (run_mma(&c16, &X, "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16")) {
        TT_EQ_U(X.D[0][0 * 8 + 0], 0x7fff); /* the canonical f16 NaN */
        TT_EQ_U(X.D[0][3 * 8 + 0], 0x8000);
        TT_EQ_U(X.D[0][2 * 8 + 0], 0);
        TT_EQ_U(X.D[0][6 * 8 + 1], 0x7c00); /* 65504 + 65504 overflows f16 */
        TT_EQ_U(X.D[0][5 * 8 + 4], 0x7c00);
    }
}

/* Integer wrap-around and .satfinite. */
static void t_mma_saturation(void)
{
    static const mcase w = {"m8n8k16.row.col.s32.s8.s8.s32", 8, 8, 16, T_S32, T_S8, T_S8, T_S32, false, true};
    memset(&X, 0, sizeof X);
    for (int i = 0; i < 8 * 16; i++) X.A[0][i] = enc(T_S8, 127), X.B[0][i] = enc(T_S8, (i / 8) % 2 ? -128 : 127);
    /* B[k][j] = 127 (k even) or -128 (k odd): products 16129 and -16256 */
    for (int i = 0; i < 64; i++) X.C[0][i] = 0x7fffff00u;
    /* sum of products: 8 * (16129 - 16256) = -1016: C + that stays in range */
    for (int j = 0; j < 8; j++) X.B[0][0 * 8 + j] = enc(T_S8, 127), X.B[0][1 * 8 + j] = enc(T_S8, 127);
    /* now k = 0, 1 give +16129 each: sum = 2 * 16129 + 7 * (16129 - 16256) = 31369 */
    if (run_mma(&w, &X, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32"))
        TT_EQ_U(X.D[0][0], (uint32_t)(0x7fffff00u + 31369u)); /* wraps to negative */
    if (run_mma(&w, &X, "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32"))
        TT_EQ_U(X.D[0][0], 0x7fffffff);
    for (int i = 0; i < 64; i++) X.C[0][i] = 0x80000010u;
    for (int j = 0; j < 8; j++) X.B[0][0 * 8 + j] = enc(T_S8, -128), X.B[0][1 * 8 + j] = enc(T_S8, -128);
    /* k = 0, 1: 127 * -128 each, the rest as before: 2 * -16256 + 7 * -127 = -33401 */
    if (run_mma(&w, &X, "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32"))
        TT_EQ_U(X.D[0][0], 0x80000000u);
    if (run_mma(&w, &X, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32"))
        TT_EQ_U(X.D[0][0], (uint32_t)(0x80000010u - 33401u));
}

/* ---- wmma: through memory --------------------------------------------------------------- */

typedef struct wcase {
    const char *shape;
    int M, N, K;
    int ta, tc;        /* multiplicand and accumulator types (d = c, or f32 for a f16 c where dty says) */
    int td;
    const char *extra; /* after the types: "", ".satfinite", ".rz", ".xor.popc" ... */
} wcase;

static const wcase wcases[] = {
    {"m16n16k16", 16, 16, 16, T_F16, T_F32, T_F32, ""},
    {"m16n16k16", 16, 16, 16, T_F16, T_F16, T_F16, ""},
    {"m16n16k16", 16, 16, 16, T_F16, T_F16, T_F32, ""},
    {"m32n8k16", 32, 8, 16, T_F16, T_F32, T_F16, ""},
    {"m8n32k16", 8, 32, 16, T_F16, T_F32, T_F32, ""},
    {"m16n16k16", 16, 16, 16, T_BF16, T_F32, T_F32, ""},
    {"m32n8k16", 32, 8, 16, T_BF16, T_F32, T_F32, ""},
    {"m8n32k16", 8, 32, 16, T_BF16, T_F32, T_F32, ""},
    {"m16n16k8", 16, 16, 8, T_TF32, T_F32, T_F32, ""},
    {"m8n8k4", 8, 8, 4, T_F64, T_F64, T_F64, ".rn"},
    {"m16n16k16", 16, 16, 16, T_S8, T_S32, T_S32, ""},
    {"m32n8k16", 32, 8, 16, T_U8, T_S32, T_S32, ""},
    {"m8n32k16", 8, 32, 16, T_S8, T_S32, T_S32, ".satfinite"},
    {"m8n8k32", 8, 8, 32, T_S4, T_S32, T_S32, ""},
    {"m8n8k32", 8, 8, 32, T_U4, T_S32, T_S32, ""},
    {"m8n8k128", 8, 8, 128, T_B1, T_S32, T_S32, ".xor.popc"},
    {"m8n8k128", 8, 8, 128, T_B1, T_S32, T_S32, ".and.popc"},
};

/* Bytes of an R x C matrix of type t stored with leading dimension ld. */
static size_t mbytes(unsigned lines, unsigned ld, int t) { return (size_t)lines * ld * tbits[t] / 8; }

/* Element (r, c) in memory: row-major at r * ld + c, column-major c * ld + r. */
static void mset(uint8_t *p, int t, bool col, unsigned ld, unsigned r, unsigned c, uint64_t v)
{
    uint64_t i = col ? (uint64_t)c * ld + r : (uint64_t)r * ld + c;
    unsigned w = tbits[t];
    if (w >= 8) {
        memcpy(p + i * w / 8, &v, w / 8);
    } else {
        uint64_t bit = i * w;
        uint8_t mask = (uint8_t)(((1u << w) - 1) << (bit % 8));
        p[bit / 8] = (uint8_t)((p[bit / 8] & ~mask) | ((v << (bit % 8)) & mask));
    }
}
static uint64_t mget(const uint8_t *p, int t, bool col, unsigned ld, unsigned r, unsigned c)
{
    uint64_t i = col ? (uint64_t)c * ld + r : (uint64_t)r * ld + c;
    unsigned w = tbits[t];
    uint64_t v = 0;
    if (w >= 8) memcpy(&v, p + i * w / 8, w / 8);
    else v = (uint64_t)(p[i * w / 8] >> (i * w % 8)) & ((1u << w) - 1);
    return v;
}

/* One wmma form with layouts al, bl, cl (0 row, 1 col) for a, b, c/d and
** strides (0: the default, no stride operand). */
static void wmma_one(const wcase *wc, int al, int bl, int cl, unsigned lda, unsigned ldb, unsigned ldc)
{
    bool sub = tbits[wc->ta] < 8;
    const char *L[2] = {"row", "col"};
    unsigned M = (unsigned)wc->M, N = (unsigned)wc->N, K = (unsigned)wc->K;
    unsigned la = lda ? lda : (al ? M : K), lb = ldb ? ldb : (bl ? K : N), lc = ldc ? ldc : (cl ? M : N);
    int ta = wc->ta, tc = wc->tc, td = wc->td;
    bool f16ab = ta == T_F16;
    int nreg_a = f16ab ? 8 : (int)(M * K * tbits[ta] / 32 / (ta == T_F64 ? 64 : 32));
    int nreg_b = f16ab ? 8 : (int)(K * N * tbits[ta] / 32 / (ta == T_F64 ? 64 : 32));
    if (!nreg_a) nreg_a = 1;
    if (!nreg_b) nreg_b = 1;
    int nreg_c = (int)(M * N * tbits[tc] / 32 / (tc == T_F64 ? 64 : 32));
    int nreg_d = (int)(M * N * tbits[td] / 32 / (td == T_F64 ? 64 : 32));
    char wa = ta == T_F64 ? 'x' : 'r', wcc = tc == T_F64 ? 'x' : 'r', wd = td == T_F64 ? 'x' : 'r';
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_sbuf_puts(&b, ".version 9.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry t(.param .u64 pin, .param .u64 pout)\n{\n"
                     "  .reg .b32 %r<40>;\n  .reg .b64 %x<40>;\n  .reg .b64 %pa, %pb, %pc, %pd;\n"
                     "  ld.param.u64 %pa, [pin];\n  ld.param.u64 %pd, [pout];\n");
    size_t sa = mbytes(al ? K : M, la, ta), sb = mbytes(bl ? N : K, lb, ta);
    sa = (sa + 255) & ~(size_t)255;
    sb = (sb + 255) & ~(size_t)255;
    tp_sbuf_printf(&b, "  add.u64 %%pb, %%pa, %zu;\n  add.u64 %%pc, %%pb, %zu;\n", sa, sb);
#define REGS(ch, base, n)                                                              \
    do {                                                                               \
        tp_sbuf_putc(&b, '{');                                                         \
        for (int i_ = 0; i_ < (n); i_++) tp_sbuf_printf(&b, "%s%%%c%d", i_ ? ", " : "", ch, (base) + i_); \
        tp_sbuf_putc(&b, '}');                                                         \
    } while (0)
    char ls[32];
    tp_sbuf_printf(&b, "  wmma.load.a.sync.aligned.%s.%s.global.%s ", L[al], wc->shape, tname[ta]);
    REGS(wa, 0, nreg_a);
    if (lda) snprintf(ls, sizeof ls, ", %u", lda);
    else ls[0] = 0;
    tp_sbuf_printf(&b, ", [%%pa]%s;\n", ls);
    tp_sbuf_printf(&b, "  wmma.load.b.sync.aligned.%s.%s.%s ", L[bl], wc->shape, tname[ta]);
    REGS(wa, 8, nreg_b);
    if (ldb) snprintf(ls, sizeof ls, ", %u", ldb);
    else ls[0] = 0;
    tp_sbuf_printf(&b, ", [%%pb]%s;\n", ls);
    tp_sbuf_printf(&b, "  wmma.load.c.sync.aligned.%s.%s.global.%s ", L[cl], wc->shape, tname[tc]);
    REGS(wcc, 16, nreg_c);
    if (ldc) snprintf(ls, sizeof ls, ", %u", ldc);
    else ls[0] = 0;
    tp_sbuf_printf(&b, ", [%%pc]%s;\n", ls);
    if (f16ab) tp_sbuf_printf(&b, "  wmma.mma.sync.aligned.%s.%s.%s.%s.%s%s ", L[al], L[bl], wc->shape, tname[td], tname[tc], wc->extra);
    else if (sub || ta == T_B1)
        tp_sbuf_printf(&b, "  wmma.mma%s.sync.aligned.row.col.%s.s32.%s.%s.s32%s ", strstr(wc->extra, "popc") ? wc->extra : "",
                       wc->shape, tname[ta], tname[ta], strstr(wc->extra, "popc") ? "" : wc->extra);
    else
        tp_sbuf_printf(&b, "  wmma.mma.sync.aligned.%s.%s.%s.%s.%s.%s.%s%s ", L[al], L[bl], wc->shape, tname[td], tname[ta],
                       tname[ta], tname[tc], wc->extra);
    REGS(wd, 24, nreg_d);
    tp_sbuf_puts(&b, ", ");
    REGS(wa, 0, nreg_a);
    tp_sbuf_puts(&b, ", ");
    REGS(wa, 8, nreg_b);
    tp_sbuf_puts(&b, ", ");
    REGS(wcc, 16, nreg_c);
    tp_sbuf_puts(&b, ";\n");
    tp_sbuf_printf(&b, "  wmma.store.d.sync.aligned.%s.%s.global.%s [%%pd], ", L[cl], wc->shape, tname[td]);
    REGS(wd, 24, nreg_d);
    if (ldc) snprintf(ls, sizeof ls, ", %u", ldc);
    else ls[0] = 0;
    tp_sbuf_printf(&b, "%s;\n  ret;\n}\n", ls);
#undef REGS
    exec_mod *m = exec_rig_load(dev, b.s, "tensor.ptx");
    if (!m) {
        TT_CHECK(m != NULL);
        printf("    %s %s\n%s", wc->shape, tname[ta], b.s);
        tp_sbuf_free(&b);
        return;
    }
    size_t sc = mbytes(cl ? N : M, lc, tc), sd = mbytes(cl ? N : M, lc, td);
    uint64_t in = exec_mem_alloc(dev, sa + sb + sc + 256, 256), out = exec_mem_alloc(dev, sd + 256, 256);
    uint8_t *pa = exec_mem_host(dev, in, sa + sb + sc), *pb = pa + sa, *pc = pb + sb, *pd = exec_mem_host(dev, out, sd);
    memset(pa, 0x5a, sa + sb + sc); /* the gaps between strided lines hold garbage */
    memset(pd, 0x5a, sd);
    static uint64_t A[32 * 128], B[128 * 32], C[32 * 32];
    for (unsigned r = 0; r < M; r++)
        for (unsigned c = 0; c < K; c++) {
            A[r * K + c] = enc(ta, pick(ta, false));
            mset(pa, ta, al, la, r, c, A[r * K + c]);
        }
    for (unsigned r = 0; r < K; r++)
        for (unsigned c = 0; c < N; c++) {
            B[r * N + c] = enc(ta, pick(ta, false));
            mset(pb, ta, bl, lb, r, c, B[r * N + c]);
        }
    for (unsigned r = 0; r < M; r++)
        for (unsigned c = 0; c < N; c++) {
            C[r * N + c] = enc(tc, pick(tc, true));
            mset(pc, tc, cl, lc, r, c, C[r * N + c]);
        }
    exec_result res;
    exec_status st = launch(m, 32, in, out, &res);
    TT_EQ_U(st, EXEC_OK);
    if (st != EXEC_OK) printf("    %s %s: %s\n", wc->shape, tname[ta], res.msg);
    int bad = 0;
    for (unsigned r = 0; r < M && st == EXEC_OK; r++)
        for (unsigned c = 0; c < N; c++) {
            double s = dec(tc, C[r * N + c]);
            for (unsigned k = 0; k < K; k++) {
                double x = dec(ta, A[r * K + k]), y = dec(ta, B[k * N + c]);
                if (ta == T_B1) s += strstr(wc->extra, "and") ? (double)((int)x & (int)y) : (double)((int)x ^ (int)y);
                else s += x * y;
            }
            uint64_t want = enc(td, s), got = mget(pd, td, cl, lc, r, c);
            if (got != want && bad++ < 3)
                printf("    wmma %s %s %s%s%s ld %u/%u/%u: D[%u][%u] = 0x%llx, want 0x%llx\n", wc->shape, tname[ta],
                       L[al], L[bl], L[cl], la, lb, lc, r, c, (unsigned long long)got, (unsigned long long)want);
        }
    TT_EQ_I(bad, 0);
    exec_mem_free(dev, in);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
    tp_sbuf_free(&b);
}

static void t_wmma_forms(void)
{
    for (size_t n = 0; n < TP_ARRAY_LEN(wcases); n++) {
        const wcase *wc = &wcases[n];
        bool sub = tbits[wc->ta] < 8;
        unsigned pad = 256 / tbits[wc->ta]; /* 32 bytes of elements keep every line aligned */
        for (int al = 0; al < 2; al++)
            for (int bl = 0; bl < 2; bl++) {
                if (sub && (al != 0 || bl != 1)) continue;
                int cl = (al + bl) & 1;
                /* the default stride, and a padded one */
                wmma_one(wc, al, bl, cl, 0, 0, 0);
                unsigned M = (unsigned)wc->M, N = (unsigned)wc->N, K = (unsigned)wc->K;
                int cl2 = !cl;
                wmma_one(wc, al, bl, cl2, (al ? M : K) + pad, (bl ? K : N) + pad,
                         (cl2 ? M : N) + 256 / tbits[wc->tc]);
            }
    }
}

/* tpsim's wmma fragment layout (docs/TENSOR.md), element by element: a
** lane's registers after wmma.load of an m16n16k16 f16 A (8 registers:
** 4 distinct, repeated), of a B, and of an f32 C. */
static void t_wmma_fragments(void)
{
    static const char *ptx =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry t(.param .u64 pin, .param .u64 pout)\n{\n"
        "  .reg .b32 %r<24>;\n  .reg .f32 %f<8>;\n  .reg .b64 %pa, %pb, %pc, %po, %o;\n  .reg .b32 %lane;\n"
        "  ld.param.u64 %pa, [pin];\n  ld.param.u64 %po, [pout];\n"
        "  add.u64 %pb, %pa, 512;\n  add.u64 %pc, %pb, 512;\n"
        "  wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%pa], 16;\n"
        "  wmma.load.b.sync.aligned.col.m16n16k16.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, [%pb];\n"
        "  wmma.load.c.sync.aligned.row.m16n16k16.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%pc], 16;\n"
        "  mov.u32 %lane, %laneid;\n  mul.wide.u32 %o, %lane, 96;\n  add.u64 %po, %po, %o;\n"
        "  st.global.v4.b32 [%po], {%r0, %r1, %r2, %r3};\n  st.global.v4.b32 [%po+16], {%r4, %r5, %r6, %r7};\n"
        "  st.global.v4.b32 [%po+32], {%r8, %r9, %r10, %r11};\n  st.global.v4.b32 [%po+48], {%r12, %r13, %r14, %r15};\n"
        "  st.global.v4.f32 [%po+64], {%f0, %f1, %f2, %f3};\n  st.global.v4.f32 [%po+80], {%f4, %f5, %f6, %f7};\n"
        "  ret;\n}\n";
    exec_mod *m = exec_rig_load(dev, ptx, "tensor.ptx");
    TT_CHECK(m != NULL);
    if (!m) {
        return;
    }
    uint64_t in = exec_mem_alloc(dev, 2048, 256), out = exec_mem_alloc(dev, 32 * 96, 256);
    uint16_t *a = exec_mem_host(dev, in, 2048), *bm = a + 256;
    float *c = (float *)(bm + 256);
    uint32_t *o = exec_mem_host(dev, out, 32 * 96);
    /* A[r][k] = r * 16 + k (row-major), B[k][n] = 1000 + k * 16 + n stored column-major, C[r][n] = r * 16 + n */
    for (int i = 0; i < 256; i++) a[i] = (uint16_t)i;
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < 16; n++) bm[n * 16 + k] = (uint16_t)(1000 + k * 16 + n);
    for (int i = 0; i < 256; i++) c[i] = (float)i;
    exec_result res;
    TT_EQ_U(launch(m, 32, in, out, &res), EXEC_OK);
    int bad = 0;
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        const uint32_t *r = o + l * 24;
        for (int q = 0; q < 8; q++) {
            /* A: register q mod 4 = (row block, k block): rows g / g+8, k 2t.. / 2t+8.. */
            int u = q % 4, row = g + 8 * (u & 1), k0 = 2 * t + 8 * (u >> 1);
            uint32_t want = (uint32_t)(row * 16 + k0) | (uint32_t)(row * 16 + k0 + 1) << 16;
            if (r[q] != want && bad++ < 3) printf("    lane %d a%d = 0x%08x, want 0x%08x\n", l, q, r[q], want);
            /* B: register q mod 4 = (k block, n block): k 2t.. / 2t+8.., column g / g+8 */
            int kk = 2 * t + 8 * (u & 1), col = g + 8 * (u >> 1);
            want = (uint32_t)(1000 + kk * 16 + col) | (uint32_t)(1000 + (kk + 1) * 16 + col) << 16;
            if (r[8 + q] != want && bad++ < 3) printf("    lane %d b%d = 0x%08x, want 0x%08x\n", l, q, r[8 + q], want);
            /* C: element q: row g + 8 ((q/2) mod 2), column 2t + q mod 2 + 8 (q/4) */
            int cr = g + 8 * ((q >> 1) & 1), cc = 2 * t + (q & 1) + 8 * (q >> 2);
            if (bf32(r[16 + q]) != (float)(cr * 16 + cc) && bad++ < 3)
                printf("    lane %d c%d = %g, want %d\n", l, q, (double)bf32(r[16 + q]), cr * 16 + cc);
        }
    }
    TT_EQ_I(bad, 0);
    exec_mem_free(dev, in);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* f64 wmma in each rounding mode: 1 + 2^-60 * 1 (k = 0) then + 0: the sum
** is not representable; .rn and .rz give 1, .rp 1 + 2^-52; -1 - 2^-60 with .rm
** gives -1 - 2^-52. */
static void t_wmma_f64_rounding(void)
{
    const char *modes[4] = {"rn", "rz", "rm", "rp"};
    for (int md = 0; md < 4; md++) {
        tp_sbuf b;
        tp_sbuf_init(&b);
        tp_sbuf_printf(&b, ".version 9.0\n.target sm_80\n.address_size 64\n"
                           ".visible .entry t(.param .u64 pin, .param .u64 pout)\n{\n"
                           "  .reg .f64 %%d<8>;\n  .reg .b64 %%pa, %%pb, %%pc, %%pd;\n"
                           "  ld.param.u64 %%pa, [pin];\n  ld.param.u64 %%pd, [pout];\n"
                           "  add.u64 %%pb, %%pa, 256;\n  add.u64 %%pc, %%pb, 256;\n"
                           "  wmma.load.a.sync.aligned.row.m8n8k4.f64 {%%d0}, [%%pa];\n"
                           "  wmma.load.b.sync.aligned.col.m8n8k4.f64 {%%d1}, [%%pb];\n"
                           "  wmma.load.c.sync.aligned.row.m8n8k4.f64 {%%d2, %%d3}, [%%pc];\n"
                           "  wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.%s {%%d4, %%d5}, {%%d0}, {%%d1}, {%%d2, %%d3};\n"
                           "  wmma.store.d.sync.aligned.row.m8n8k4.f64 [%%pd], {%%d4, %%d5};\n  ret;\n}\n",
                       modes[md]);
        exec_mod *m = exec_rig_load(dev, b.s, "tensor.ptx");
        tp_sbuf_free(&b);
        TT_CHECK(m != NULL);
        if (!m) {
            continue;
        }
        uint64_t in = exec_mem_alloc(dev, 1024, 256), out = exec_mem_alloc(dev, 512, 256);
        double *A = exec_mem_host(dev, in, 1024), *B = A + 32, *C = B + 32, *D = exec_mem_host(dev, out, 512);
        memset(A, 0, 1024);
        A[0] = ldexp(1, -60);  /* A[0][0] */
        B[0] = 1;              /* B[0][0] (column-major) */
        C[0] = 1;              /* C[0][0] */
        C[1] = -1;             /* C[0][1]: D[0][1] = -1 + A[0][0] * B[0][1] */
        B[4] = -1;             /* B[0][1] = -1 (column 1 starts at 4) */
        exec_result res;
        TT_EQ_U(launch(m, 32, in, out, &res), EXEC_OK);
        double up = 1 + ldexp(1, -52), dn = -1 - ldexp(1, -52);
        TT_EQ_U(f64b(D[0]), f64b(md == 3 ? up : 1.0));
        TT_EQ_U(f64b(D[1]), f64b(md == 2 ? dn : -1.0));
        exec_mem_free(dev, in);
        exec_mem_free(dev, out);
        exec_mod_unload(m);
    }
}

/* wmma f16 .satfinite (f16 accumulators): an overflow stops at 65504.
** A[r][k] = -256 (r even) or 256, B = 256, C = 0: the first step gives
** -+65536, beyond f16's range, and the sum stays infinite. */
static void t_wmma_satfinite(void)
{
    static const char *ptx =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry t(.param .u64 pin, .param .u64 pout)\n{\n"
        "  .reg .b32 %r<32>;\n  .reg .b64 %pa, %pb, %pc, %pd;\n"
        "  ld.param.u64 %pa, [pin];\n  ld.param.u64 %pd, [pout];\n"
        "  add.u64 %pb, %pa, 512;\n  add.u64 %pc, %pa, 1024;\n"
        "  wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%pa];\n"
        "  wmma.load.b.sync.aligned.row.m16n16k16.f16 {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23}, [%pb];\n"
        "  wmma.load.c.sync.aligned.row.m16n16k16.f16 {%r8, %r9, %r10, %r11}, [%pc];\n"
        "  wmma.mma.sync.aligned.row.row.m16n16k16.f16.f16.satfinite {%r12, %r13, %r14, %r15}, "
        "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23}, "
        "{%r8, %r9, %r10, %r11};\n"
        "  wmma.store.d.sync.aligned.row.m16n16k16.f16 [%pd], {%r12, %r13, %r14, %r15};\n"
        "  wmma.mma.sync.aligned.row.row.m16n16k16.f16.f16 {%r12, %r13, %r14, %r15}, "
        "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23}, "
        "{%r8, %r9, %r10, %r11};\n"
        "  wmma.store.d.sync.aligned.row.m16n16k16.f16 [%pd+512], {%r12, %r13, %r14, %r15};\n  ret;\n}\n";
    exec_mod *m = exec_rig_load(dev, ptx, "tensor.ptx");
    TT_CHECK(m != NULL);
    if (!m) {
        return;
    }
    uint64_t in = exec_mem_alloc(dev, 1536, 256), out = exec_mem_alloc(dev, 1024, 256);
    uint16_t *A = exec_mem_host(dev, in, 1536), *D = exec_mem_host(dev, out, 1024);
    for (int i = 0; i < 256; i++) {
        A[i] = f16b((i / 16) % 2 ? 256 : -256);
        A[256 + i] = f16b(256);
        A[512 + i] = 0;
    }
    exec_result res;
    TT_EQ_U(launch(m, 32, in, out, &res), EXEC_OK);
    TT_EQ_U(D[0], 0xfbff);        /* row 0: -inf saturates to -65504 */
    TT_EQ_U(D[16 + 5], 0x7bff);   /* row 1: +inf to 65504 */
    TT_EQ_U(D[256], 0xfc00);      /* without .satfinite: -inf */
    TT_EQ_U(D[256 + 16], 0x7c00);
    exec_mem_free(dev, in);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* ---- ldmatrix, stmatrix, movmatrix -------------------------------------------------------- */

static void t_ldmatrix(void)
{
    for (int num = 1; num <= 4; num *= 2)
        for (int tr = 0; tr < 2; tr++) {
            tp_sbuf b;
            tp_sbuf_init(&b);
            tp_sbuf_printf(&b,
                           ".version 9.0\n.target sm_90\n.address_size 64\n"
                           ".visible .entry t(.param .u64 pin, .param .u64 pout)\n{\n"
                           "  .reg .b32 %%r<8>, %%lane, %%s, %%row;\n  .reg .b64 %%pi, %%po, %%o, %%x;\n"
                           "  .reg .pred %%p;\n  .shared .align 16 .b8 sm[2048];\n"
                           "  ld.param.u64 %%pi, [pin];\n  ld.param.u64 %%po, [pout];\n"
                           "  mov.u32 %%lane, %%laneid;\n"
                           /* copy 2048 bytes of input into shared memory, 64 per lane */
                           "  mul.wide.u32 %%o, %%lane, 64;\n  add.u64 %%x, %%pi, %%o;\n  mov.u32 %%s, sm;\n"
                           "  cvt.u32.u64 %%row, %%o;\n  add.u32 %%s, %%s, %%row;\n"
                           "  ld.global.v4.b32 {%%r0, %%r1, %%r2, %%r3}, [%%x];\n  st.shared.v4.b32 [%%s], {%%r0, %%r1, %%r2, %%r3};\n"
                           "  ld.global.v4.b32 {%%r0, %%r1, %%r2, %%r3}, [%%x+16];\n  st.shared.v4.b32 [%%s+16], {%%r0, %%r1, %%r2, %%r3};\n"
                           "  ld.global.v4.b32 {%%r0, %%r1, %%r2, %%r3}, [%%x+32];\n  st.shared.v4.b32 [%%s+32], {%%r0, %%r1, %%r2, %%r3};\n"
                           "  ld.global.v4.b32 {%%r0, %%r1, %%r2, %%r3}, [%%x+48];\n  st.shared.v4.b32 [%%s+48], {%%r0, %%r1, %%r2, %%r3};\n"
                           "  bar.sync 0;\n"
                           /* row address of lane l: row (l * 5) mod 32 of a 32-row, 32-byte-pitch table */
                           "  mul.lo.u32 %%row, %%lane, 5;\n  and.b32 %%row, %%row, 31;\n  mul.lo.u32 %%row, %%row, 48;\n"
                           "  mov.u32 %%s, sm;\n  add.u32 %%s, %%s, %%row;\n"
                           "  ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 {",
                           num, tr ? ".trans" : "");
            for (int j = 0; j < num; j++) tp_sbuf_printf(&b, "%s%%r%d", j ? ", " : "", j);
            tp_sbuf_puts(&b, "}, [%s];\n  mul.wide.u32 %o, %lane, 16;\n  add.u64 %po, %po, %o;\n");
            for (int j = 0; j < num; j++) tp_sbuf_printf(&b, "  st.global.b32 [%%po+%d], %%r%d;\n", 4 * j, j);
            /* stmatrix the registers back to a second area, then copy it out */
            tp_sbuf_puts(&b, "  ret;\n}\n");
            exec_mod *m = exec_rig_load(dev, b.s, "tensor.ptx");
            tp_sbuf_free(&b);
            TT_CHECK(m != NULL);
            if (!m) {
                continue;
            }
            uint64_t in = exec_mem_alloc(dev, 2048, 256), out = exec_mem_alloc(dev, 512, 256);
            uint16_t *src = exec_mem_host(dev, in, 2048);
            uint32_t *o = exec_mem_host(dev, out, 512);
            for (int i = 0; i < 1024; i++) src[i] = (uint16_t)(i * 7 + 1);
            exec_result res;
            exec_status st = launch(m, 32, in, out, &res);
            TT_EQ_U(st, EXEC_OK);
            if (st != EXEC_OK) printf("    %s\n", res.msg);
            int bad = 0;
            for (int l = 0; l < 32 && st == EXEC_OK; l++)
                for (int j = 0; j < num; j++) {
                    int g = l / 4, t = l % 4;
                    uint32_t want = 0;
                    for (int h = 0; h < 2; h++) {
                        int r = tr ? 2 * t + h : g, c = tr ? g : 2 * t + h;
                        int lane = 8 * j + r;             /* the lane holding the row's address */
                        int row = (lane * 5) & 31;        /* its row of the table */
                        want |= (uint32_t)src[row * 24 + c] << (16 * h); /* 48-byte pitch = 24 halves */
                    }
                    if (o[l * 4 + j] != want && bad++ < 3)
                        printf("    x%d%s lane %d r%d = 0x%08x, want 0x%08x\n", num, tr ? ".trans" : "", l, j,
                               o[l * 4 + j], want);
                }
            TT_EQ_I(bad, 0);
            exec_mem_free(dev, in);
            exec_mem_free(dev, out);
            exec_mod_unload(m);
        }
}

/* stmatrix is ldmatrix's inverse: ldmatrix, then stmatrix to other rows,
** gives the matrices at the new rows; and movmatrix transposes. */
static void t_stmatrix_movmatrix(void)
{
    static const char *ptx =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry t(.param .u64 pin, .param .u64 pout)\n{\n"
        "  .reg .b32 %r<8>, %lane, %s, %row;\n  .reg .b64 %pi, %po, %o;\n"
        "  .shared .align 16 .b8 sm[1024];\n"
        "  ld.param.u64 %pi, [pin];\n  ld.param.u64 %po, [pout];\n"
        "  mov.u32 %lane, %laneid;\n"
        "  mul.wide.u32 %o, %lane, 16;\n  add.u64 %pi, %pi, %o;\n"
        /* each lane's row address (global): lane l -> row l of 4 matrices of 8 rows, 16 bytes each */
        "  ldmatrix.sync.aligned.m8n8.x4.b16 {%r0, %r1, %r2, %r3}, [%pi];\n"
        "  movmatrix.sync.aligned.m8n8.trans.b16 %r4, %r0;\n"
        /* store matrix j to shared rows in reverse lane order: lane l -> row 31 - l */
        "  sub.u32 %row, 31, %lane;\n  mul.lo.u32 %row, %row, 16;\n  mov.u32 %s, sm;\n  add.u32 %s, %s, %row;\n"
        "  stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%s], {%r0, %r1, %r2, %r3};\n"
        "  bar.sync 0;\n"
        "  mul.lo.u32 %row, %lane, 32;\n  mov.u32 %s, sm;\n  add.u32 %s, %s, %row;\n"
        "  ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [%s];\n"
        "  mul.wide.u32 %o, %lane, 48;\n  add.u64 %po, %po, %o;\n"
        "  st.global.v4.b32 [%po], {%r0, %r1, %r2, %r3};\n"
        "  ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [%s+16];\n"
        "  st.global.v4.b32 [%po+16], {%r0, %r1, %r2, %r3};\n"
        "  st.global.b32 [%po+32], %r4;\n"
        "  ret;\n}\n";
    exec_mod *m = exec_rig_load(dev, ptx, "tensor.ptx");
    TT_CHECK(m != NULL);
    if (!m) {
        return;
    }
    uint64_t in = exec_mem_alloc(dev, 512, 256), out = exec_mem_alloc(dev, 32 * 48, 256);
    uint16_t *src = exec_mem_host(dev, in, 512);
    uint32_t *o = exec_mem_host(dev, out, 32 * 48);
    for (int i = 0; i < 256; i++) src[i] = (uint16_t)(0x100 + i); /* row R (0..31) column c: 0x100 + 8R + c */
    exec_result res;
    exec_status st = launch(m, 32, in, out, &res);
    TT_EQ_U(st, EXEC_OK);
    if (st != EXEC_OK) printf("    %s\n", res.msg);
    int bad = 0;
    const uint16_t *sh = (const uint16_t *)o; /* not used directly */
    (void)sh;
    for (int l = 0; l < 32 && st == EXEC_OK; l++) {
        /* shared row 31 - L (L = 8j + r) holds, with .trans, column r of matrix j:
        ** element c of that row is M_j[c][r] = src row 8j + c, column r */
        for (int half = 0; half < 2 && l < 16; half++) {
            int srow = 2 * l + half; /* the shared row lane l copied out (32 bytes = 2 rows) */
            int L = 31 - srow, j = L / 8, r = L % 8;
            const uint16_t *got = (const uint16_t *)(o + l * 12 + half * 4);
            for (int c = 0; c < 8; c++) {
                uint16_t want = (uint16_t)(0x100 + 8 * (8 * j + c) + r);
                if (got[c] != want && bad++ < 3)
                    printf("    stmatrix: shared row %d element %d = 0x%04x, want 0x%04x\n", srow, c, got[c], want);
            }
        }
        /* movmatrix of matrix 0: lane l holds M^T[g][2t..2t+1] = M[2t][g], M[2t+1][g] */
        int g = l / 4, t = l % 4;
        uint32_t want = (uint32_t)(0x100 + 8 * (2 * t) + g) | (uint32_t)(0x100 + 8 * (2 * t + 1) + g) << 16;
        if (o[l * 12 + 8] != want && bad++ < 3) printf("    movmatrix lane %d = 0x%08x, want 0x%08x\n", l, o[l * 12 + 8], want);
    }
    TT_EQ_I(bad, 0);
    exec_mem_free(dev, in);
    exec_mem_free(dev, out);
    exec_mod_unload(m);
}

/* ---- faults ---------------------------------------------------------------------------------- */

static void t_faults(void)
{
    static const mcase mc = {"m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, T_F32, T_F16, T_F16, T_F32, false, true};
    char *ptx = mma_kernel(&mc, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
    exec_mod *m = exec_rig_load(dev, ptx, "tensor.ptx");
    free(ptx);
    TT_CHECK(m != NULL);
    if (m) {
        uint64_t in = exec_mem_alloc(dev, 32 * REC, 256), out = exec_mem_alloc(dev, 32 * REC, 256);
        exec_result res;
        /* a block of 16 threads: half a warp */
        TT_EQ_U(launch(m, 16, in, out, &res), EXEC_ERR_UNSUPPORTED);
        TT_HAS(res.msg, "executed by lanes 0x0000ffff of the warp");
        exec_mem_free(dev, in);
        exec_mem_free(dev, out);
        exec_mod_unload(m);
    }
    static const char *mis =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry t(.param .u64 pin, .param .u64 pout)\n{\n"
        "  .reg .b32 %r<8>;\n  .reg .b64 %pa;\n  ld.param.u64 %pa, [pin];\n  add.u64 %pa, %pa, 8;\n"
        "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%pa], 16;\n"
        "  ret;\n}\n";
    m = exec_rig_load(dev, mis, "tensor.ptx");
    TT_CHECK(m != NULL);
    if (m) {
        uint64_t in = exec_mem_alloc(dev, 4096, 256);
        exec_result res;
        TT_EQ_U(launch(m, 32, in, in, &res), EXEC_ERR_MISALIGNED);
        TT_HAS(res.msg, "the address and the stride must be multiples of the fragment's 16 bytes");
        exec_mem_free(dev, in);
        exec_mod_unload(m);
    }
}

int main(void)
{
    dev = exec_rig_dev("device.cc=9.0");
    TT_RUN(t_mma_forms);
    TT_RUN(t_mma_rounding);
    TT_RUN(t_mma_special);
    TT_RUN(t_mma_saturation);
    TT_RUN(t_wmma_forms);
    TT_RUN(t_wmma_fragments);
    TT_RUN(t_wmma_f64_rounding);
    TT_RUN(t_wmma_satfinite);
    TT_RUN(t_ldmatrix);
    TT_RUN(t_stmatrix_movmatrix);
    TT_RUN(t_faults);
    exec_dev_destroy(dev);
    return tt_done();
}
