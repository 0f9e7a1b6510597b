/* test_vec_width.c -- element widths on the vector machine (VPW, MVL) and
** the integer vector instructions: every VPW width for every integer
** arithmetic, logical, shift and compare instruction in its VV, VS and SV
** forms, masked and unmasked, against a C reference written here; loads and
** stores of VPW-wide elements at unit stride, with byte strides (negative
** and odd ones too) and indexed (unsigned VPW-bit offsets), masked and
** unmasked; MTC1/MFC1 of VPW and MVL, the reinterpretation of register bits
** when VPW changes, VM at widths below 64, the narrow scalar loads and
** stores, the faults, and the assembler's new syntax and its errors.
** vector/mach.c and vector/asm.h are the specification. */
#include "tests/unit/vec_helpers.h"

static const unsigned widths[] = {8, 16, 32, 64};

/* ---- helpers ---- */

/* Assembles and runs text; the caller frees both with done(). */
static bool run_text(vec_run *r, vec_prog *p, const char *text, const char *kvs, tp_err *e)
{
    tp_opts o;
    vt_opts(&o, kvs);
    memset(r, 0, sizeof *r);
    bool ok = vt_asm(p, text, (uint32_t)tp_opt_i(&o, VEC_OPT_VREGS), NULL, 0, e);
    if (!ok) {
        memset(p, 0, sizeof *p);
        tp_opts_free(&o);
        return false;
    }
    ok = vec_run_program(r, p, &o, -1, 0, e);
    tp_opts_free(&o);
    return ok;
}

static void done(vec_run *r, vec_prog *p)
{
    vec_run_free(r);
    vec_prog_free(p);
}

/* The run-time error of a program ("" when it runs). */
static const char *run_err(const char *text, const char *kvs)
{
    static tp_err e;
    vec_run r;
    vec_prog p;
    tp_err_clear(&e);
    bool ok = run_text(&r, &p, text, kvs, &e);
    done(&r, &p);
    return ok ? "" : e.msg;
}

/* n bytes at a data label + off after a run, little-endian. */
static uint64_t rd(const vec_run *r, const vec_prog *p, const char *label, uint64_t off, unsigned n)
{
    const vec_sym *s = vec_prog_sym(p, label);
    uint64_t v = 0;
    if (!s || !vec_mach_read_n(&r->m, (uint64_t)s->value + off, n, &v)) return 0xbadbadbadull;
    return v;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static uint64_t mask_w(unsigned w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
static int64_t sgn(uint64_t x, unsigned w) { return w == 64 ? (int64_t)x : (int64_t)(x << (64 - w)) / (1ll << (64 - w)); }

/* Edge values of a w-bit element and pseudo-random ones: element i. */
static uint64_t val(unsigned w, uint32_t i, uint32_t salt)
{
    uint64_t m = mask_w(w), h = 1ull << (w - 1);
    uint64_t e[] = {0, 1, 2, h - 1, h, h + 1, m - 1, m, 3, h - 2, 5};
    uint32_t k = (i * 7 + salt * 3) % 22;
    return k < TP_ARRAY_LEN(e) ? e[k] : next_rand() & m;
}

/* Element counts per width: beyond 64 below 64 bits (VM beyond one word). */
static uint32_t n_for(unsigned w) { return w == 8 ? 300 : w == 16 ? 150 : w == 32 ? 100 : 61; }

static void data_line(tp_sbuf *b, const char *label, unsigned w, const uint64_t *v, uint32_t n)
{
    static const char *dir[] = {".byte", ".word16", ".word32", ".word"};
    tp_sbuf_printf(b, "%s:\n", label);
    for (uint32_t i = 0; i < n; i++) tp_sbuf_printf(b, "        %s 0x%llx\n", dir[vec_wi(w)], (unsigned long long)v[i]);
    tp_sbuf_printf(b, "        .align 3\n");
}

/* ---- integer arithmetic, logic, shifts ---- */

typedef enum { O_ADD, O_SUB, O_MUL, O_ADDSS, O_ADDUS, O_SUBSS, O_SUBUS, O_AND, O_OR, O_XOR, O_SLL, O_SRL, O_SRA } iop;

static uint64_t iref(iop op, unsigned w, uint64_t x, uint64_t y)
{
    uint64_t m = mask_w(w);
    int64_t a = sgn(x, w), b = sgn(y, w), smax = w == 64 ? INT64_MAX : (int64_t)(m >> 1), smin = -smax - 1;
    __int128 t;
    switch (op) {
    case O_ADD: return (x + y) & m;
    case O_SUB: return (x - y) & m;
    case O_MUL: return (x * y) & m;
    case O_ADDSS: t = (__int128)a + b; return (uint64_t)(int64_t)(t > smax ? smax : t < smin ? smin : t) & m;
    case O_SUBSS: t = (__int128)a - b; return (uint64_t)(int64_t)(t > smax ? smax : t < smin ? smin : t) & m;
    case O_ADDUS: t = (__int128)x + y; return t > (__int128)m ? m : (uint64_t)t;
    case O_SUBUS: return x > y ? x - y : 0;
    case O_AND: return x & y;
    case O_OR: return x | y;
    case O_XOR: return x ^ y;
    case O_SLL: return y >= w ? 0 : (x << y) & m;
    case O_SRL: return y >= w ? 0 : x >> y;
    case O_SRA: {
        int64_t s = y >= w ? w - 1 : (int64_t)y;
        /* a / 2^s rounded toward minus infinity */
        int64_t q = a >= 0 ? (int64_t)((uint64_t)a >> s) : -(int64_t)(((uint64_t)(-(a + 1))) >> s) - 1;
        return (uint64_t)q & m;
    }
    }
    return 0;
}

static const struct {
    const char *vv, *vs, *sv; /* mnemonics; NULL: no such form */
    iop op;
} iops[] = {
    {"ADDV.I", "ADDVS.I", NULL, O_ADD},        {"SUBV.I", "SUBVS.I", "SUBSV.I", O_SUB},
    {"MULV.I", "MULVS.I", NULL, O_MUL},        {"ADDV.SS", "ADDVS.SS", NULL, O_ADDSS},
    {"ADDV.US", "ADDVS.US", NULL, O_ADDUS},    {"SUBV.SS", "SUBVS.SS", "SUBSV.SS", O_SUBSS},
    {"SUBV.US", "SUBVS.US", "SUBSV.US", O_SUBUS}, {"ANDV", "ANDVS", NULL, O_AND},
    {"ORV", "ORVS", NULL, O_OR},               {"XORV", "XORVS", NULL, O_XOR},
    {NULL, "SLLV", NULL, O_SLL},               {NULL, "SRLV", NULL, O_SRL},
    {NULL, "SRAV", NULL, O_SRA},
};

/* form: 0 VV, 1 VS (Rt, or #imm for shifts when imm >= 0), 2 SV. */
static void check_iop(const char *mn, iop op, unsigned w, int form, bool masked, int imm, uint64_t count)
{
    uint32_t n = n_for(w);
    static uint64_t a[512], b[512], d0[512], mk[512];
    for (uint32_t i = 0; i < n; i++) {
        a[i] = val(w, i, 1), b[i] = val(w, i, 2), d0[i] = next_rand() & mask_w(w), mk[i] = (i % 3 != 1) ? 1 : 0;
        if (op >= O_SLL) b[i] = 0;
    }
    /* the scalar: high bits above w that must be ignored (a count for shifts: taken whole) */
    uint64_t scal = op >= O_SLL ? count : (0xdead000000000000ull & ~mask_w(w)) | val(w, 7, 3);
    tp_sbuf t;
    tp_sbuf_init(&t);
    tp_sbuf_printf(&t, "        .data\n");
    data_line(&t, "A", w, a, n);
    data_line(&t, "B", w, b, n);
    data_line(&t, "D", w, d0, n);
    data_line(&t, "M", w, mk, n);
    tp_sbuf_printf(&t, "S:      .word 0x%llx\n        .text\n", (unsigned long long)scal);
    tp_sbuf_printf(&t, "        MTC1 VPW,#%u\n        DADDUI R1,R0,#%u\n        MTC1 VLR,R1\n", w, n);
    tp_sbuf_printf(&t, "        DADDUI R2,R0,#A\n        LV V1,R2\n        DADDUI R2,R0,#B\n        LV V2,R2\n"
                       "        DADDUI R2,R0,#D\n        LV V3,R2\n        DADDUI R2,R0,#M\n        LV V4,R2\n"
                       "        LD R5,S\n");
    if (masked) tp_sbuf_printf(&t, "        SNEVS.I V4,R0\n");
    if (form == 0) tp_sbuf_printf(&t, "        %s V3,V1,V2\n", mn);
    else if (form == 1 && imm >= 0) tp_sbuf_printf(&t, "        %s V3,V1,#%d\n", mn, imm);
    else if (form == 1) tp_sbuf_printf(&t, "        %s V3,V1,R5\n", mn);
    else tp_sbuf_printf(&t, "        %s V3,R5,V2\n", mn);
    tp_sbuf_printf(&t, "        CVM\n        DADDUI R2,R0,#D\n        SV R2,V3\n");
    vec_run r;
    vec_prog p;
    tp_err e;
    tt_nchecks++;
    if (!run_text(&r, &p, tp_sbuf_str(&t), NULL, &e)) {
        tt_fail_msg(__FILE__, __LINE__, "%s at %u bits: %s", mn, w, e.msg);
    } else {
        uint64_t s = imm >= 0 ? (uint64_t)imm : op >= O_SLL ? scal : scal & mask_w(w);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t x = form == 2 ? s : a[i], y = form == 0 ? b[i] : form == 1 ? s : b[i];
            uint64_t want = masked && !mk[i] ? d0[i] : iref(op, w, x, y);
            uint64_t got = rd(&r, &p, "D", (uint64_t)i * (w / 8), w / 8);
            if (got != want) {
                tt_fail_msg(__FILE__, __LINE__, "%s (form %d%s) at %u bits, element %u: 0x%llx op 0x%llx = 0x%llx, want 0x%llx",
                            mn, form, masked ? ", masked" : "", w, i, (unsigned long long)x, (unsigned long long)y,
                            (unsigned long long)got, (unsigned long long)want);
                break;
            }
        }
        uint64_t active = 0;
        for (uint32_t i = 0; i < n; i++) active += !masked || mk[i];
        TT_EQ_U(r.ops[vec_wi(w)], active + (masked ? n : 0)); /* the op, and the compare that made the mask */
    }
    done(&r, &p);
    tp_sbuf_free(&t);
}

static void t_int_ops(void)
{
    for (size_t w = 0; w < TP_ARRAY_LEN(widths); w++)
        for (size_t k = 0; k < TP_ARRAY_LEN(iops); k++)
            for (int masked = 0; masked < 2; masked++) {
                if (iops[k].vv) check_iop(iops[k].vv, iops[k].op, widths[w], 0, masked, -1, 0);
                if (iops[k].vs) check_iop(iops[k].vs, iops[k].op, widths[w], 1, masked, -1, widths[w] - 3);
                if (iops[k].sv) check_iop(iops[k].sv, iops[k].op, widths[w], 2, masked, -1, 0);
            }
    /* shift counts in a register are taken whole: w, w + 1, 2^40, -1 */
    for (size_t w = 0; w < TP_ARRAY_LEN(widths); w++) {
        uint64_t counts[] = {widths[w], widths[w] + 1, 1ull << 40, ~0ull, 1};
        for (size_t k = 0; k < TP_ARRAY_LEN(counts); k++) {
            check_iop("SLLV", O_SLL, widths[w], 1, false, -1, counts[k]);
            check_iop("SRLV", O_SRL, widths[w], 1, false, -1, counts[k]);
            check_iop("SRAV", O_SRA, widths[w], 1, true, -1, counts[k]);
        }
    }
    /* shifts by #imm, including counts at and beyond the width */
    static const int imms[] = {0, 1, 7, 8, 15, 16, 31, 32, 63};
    for (size_t w = 0; w < TP_ARRAY_LEN(widths); w++)
        for (size_t k = 0; k < TP_ARRAY_LEN(imms); k++) {
            check_iop("SLLV", O_SLL, widths[w], 1, false, imms[k], 0);
            check_iop("SRLV", O_SRL, widths[w], 1, k % 2 == 0, imms[k], 0);
            check_iop("SRAV", O_SRA, widths[w], 1, false, imms[k], 0);
        }
}

/* ---- compares ---- */

typedef enum { C_EQ, C_NE, C_GT, C_LT, C_GE, C_LE } cmpk;

static bool cref(cmpk k, bool uns, unsigned w, uint64_t x, uint64_t y)
{
    int c = uns ? (x > y) - (x < y) : (sgn(x, w) > sgn(y, w)) - (sgn(x, w) < sgn(y, w));
    switch (k) {
    case C_EQ: return c == 0;
    case C_NE: return c != 0;
    case C_GT: return c > 0;
    case C_LT: return c < 0;
    case C_GE: return c >= 0;
    default: return c <= 0;
    }
}

static void check_cmp(const char *mn, cmpk k, bool uns, unsigned w, bool vs)
{
    uint32_t n = n_for(w);
    static uint64_t a[512], b[512];
    for (uint32_t i = 0; i < n; i++) a[i] = val(w, i, 4), b[i] = val(w, i / 3, 5);
    uint64_t scal = (0x1234000000000000ull & ~mask_w(w)) | (1ull << (w - 1)); /* the sign boundary */
    tp_sbuf t;
    tp_sbuf_init(&t);
    tp_sbuf_printf(&t, "        .data\n");
    data_line(&t, "A", w, a, n);
    data_line(&t, "B", w, b, n);
    tp_sbuf_printf(&t, "R:      .space %u\nS:      .word 0x%llx\n        .text\n", n * w / 8, (unsigned long long)scal);
    /* V3 = 0; the compare; V3 = 1 where VM is 1 (a masked OR); POP counts */
    tp_sbuf_printf(&t, "        MTC1 VPW,#%u\n        DADDUI R1,R0,#%u\n        MTC1 VLR,R1\n        LD R5,S\n"
                       "        DADDUI R2,R0,#A\n        LV V1,R2\n        DADDUI R2,R0,#B\n        LV V2,R2\n"
                       "        XORV V3,V3,V3\n        DADDUI R6,R0,#1\n",
                   w, n);
    if (vs) tp_sbuf_printf(&t, "        %s V1,R5\n", mn);
    else tp_sbuf_printf(&t, "        %s V1,V2\n", mn);
    tp_sbuf_printf(&t, "        ORVS V3,V3,R6\n        POP R7,VM\n        CVM\n        DADDUI R2,R0,#R\n        SV R2,V3\n");
    vec_run r;
    vec_prog p;
    tp_err e;
    tt_nchecks++;
    if (!run_text(&r, &p, tp_sbuf_str(&t), NULL, &e)) {
        tt_fail_msg(__FILE__, __LINE__, "%s at %u bits: %s", mn, w, e.msg);
    } else {
        int64_t ones = 0;
        for (uint32_t i = 0; i < n; i++) {
            bool want = cref(k, uns, w, a[i], vs ? scal & mask_w(w) : b[i]);
            ones += want;
            if (rd(&r, &p, "R", (uint64_t)i * (w / 8), w / 8) != want) {
                tt_fail_msg(__FILE__, __LINE__, "%s at %u bits, element %u (0x%llx vs 0x%llx): want %d", mn, w, i,
                            (unsigned long long)a[i], (unsigned long long)(vs ? scal : b[i]), want);
                break;
            }
        }
        TT_EQ_I(r.m.r[7], ones);
    }
    done(&r, &p);
    tp_sbuf_free(&t);
}

static void t_compares(void)
{
    static const char *names[] = {"EQ", "NE", "GT", "LT", "GE", "LE"};
    char mn[16];
    for (size_t w = 0; w < TP_ARRAY_LEN(widths); w++)
        for (int k = 0; k < 6; k++)
            for (int uns = 0; uns < 2; uns++) {
                if (uns && k < 2) continue; /* EQ and NE have no .U */
                snprintf(mn, sizeof mn, "S%sV.%s", names[k], uns ? "U" : "I");
                check_cmp(mn, (cmpk)k, uns, widths[w], false);
                snprintf(mn, sizeof mn, "S%sVS.%s", names[k], uns ? "U" : "I");
                check_cmp(mn, (cmpk)k, uns, widths[w], true);
            }
    /* the convenience: SxxV.I with an R operand is SxxVS.I */
    vec_prog p;
    tp_err e;
    TT_CHECK(vt_asm(&p, "SGTV.U V1,R2\nSEQV.I V1,R3\nSLEV.I V1,V2\n", 8, NULL, 0, &e));
    TT_EQ_U(p.insn[0].op, VEC_OP_SGTVSU);
    TT_EQ_U(p.insn[1].op, VEC_OP_SEQVSI);
    TT_EQ_U(p.insn[2].op, VEC_OP_SLEVI);
    vec_prog_free(&p);
}

/* ---- memory ---- */

/* Byte k of the source area. */
static uint8_t src_byte(uint64_t k) { return (uint8_t)(k * 131 + (k >> 3) * 7 + 1); }

/* LVWS/LVI (kind 1, 2) or LV (0) of n elements at width w from SRC + base,
** masked or not, into a register holding OLD; stored unit-stride to OUT. */
static void check_load(unsigned w, int kind, int64_t stride, bool masked)
{
    uint32_t n = n_for(w) / 2, eb = w / 8;
    static uint64_t idx[512], old[512], mk[512];
    int64_t base = 4096;
    for (uint32_t i = 0; i < n; i++) {
        idx[i] = w == 8 ? (i * 37) % 251 : (uint64_t)((i * 97) % 1900); /* unsigned offsets, odd ones too */
        old[i] = next_rand() & mask_w(w);
        mk[i] = i % 4 != 2;
    }
    tp_sbuf t;
    tp_sbuf_init(&t);
    tp_sbuf_printf(&t, "        .data\nSRC:\n");
    for (uint32_t k = 0; k < 8192; k += 8) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--) v = v << 8 | src_byte(k + (uint32_t)j);
        tp_sbuf_printf(&t, "        .word 0x%llx\n", (unsigned long long)v);
    }
    data_line(&t, "I", w, idx, n);
    data_line(&t, "O", w, old, n);
    data_line(&t, "M", w, mk, n);
    tp_sbuf_printf(&t, "        .text\n        MTC1 VPW,#%u\n        DADDUI R1,R0,#%u\n        MTC1 VLR,R1\n", w, n);
    tp_sbuf_printf(&t, "        DADDUI R2,R0,#I\n        LV V2,R2\n        DADDUI R2,R0,#O\n        LV V1,R2\n"
                       "        DADDUI R2,R0,#M\n        LV V4,R2\n        DADDUI R3,R0,#SRC+%lld\n"
                       "        DADDUI R4,R0,#%lld\n",
                   (long long)base, (long long)stride);
    if (masked) tp_sbuf_printf(&t, "        SNEVS.I V4,R0\n");
    tp_sbuf_printf(&t, "        %s\n", kind == 0 ? "LV V1,R3" : kind == 1 ? "LVWS V1,(R3,R4)" : "LVI V1,(R3+V2)");
    tp_sbuf_printf(&t, "        CVM\n        DADDUI R2,R0,#O\n        SV R2,V1\n");
    vec_run r;
    vec_prog p;
    tp_err e;
    tt_nchecks++;
    if (!run_text(&r, &p, tp_sbuf_str(&t), NULL, &e)) {
        tt_fail_msg(__FILE__, __LINE__, "load %d at %u bits: %s", kind, w, e.msg);
    } else {
        for (uint32_t i = 0; i < n; i++) {
            int64_t off = kind == 0 ? (int64_t)(i * eb) : kind == 1 ? (int64_t)i * stride : (int64_t)idx[i];
            uint64_t want = 0;
            for (int j = (int)eb - 1; j >= 0; j--) want = want << 8 | src_byte((uint64_t)(base + off + j));
            if (masked && !mk[i]) want = old[i];
            uint64_t got = rd(&r, &p, "O", (uint64_t)i * eb, eb);
            if (got != want) {
                tt_fail_msg(__FILE__, __LINE__, "load %d (stride %lld%s) at %u bits, element %u: 0x%llx, want 0x%llx",
                            kind, (long long)stride, masked ? ", masked" : "", w, i, (unsigned long long)got,
                            (unsigned long long)want);
                break;
            }
        }
    }
    done(&r, &p);
    tp_sbuf_free(&t);
}

/* SV/SVWS/SVI of n elements into a zeroed area; the bytes no element
** writes stay 0 (masked-off elements write nothing). */
static void check_store(unsigned w, int kind, int64_t stride, bool masked)
{
    uint32_t n = n_for(w) / 2, eb = w / 8;
    static uint64_t v[512], idx[512], mk[512];
    static uint8_t want[8192];
    int64_t base = 4096;
    memset(want, 0, sizeof want);
    for (uint32_t i = 0; i < n; i++) {
        v[i] = (next_rand() & mask_w(w)) | 1; /* never 0, so a write shows */
        idx[i] = w == 8 ? (i * 8) % 250 : (uint64_t)((i * 40) % 1900); /* distinct, not overlapping */
        mk[i] = i % 5 != 3;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (masked && !mk[i]) continue;
        int64_t off = kind == 0 ? (int64_t)(i * eb) : kind == 1 ? (int64_t)i * stride : (int64_t)idx[i];
        for (uint32_t j = 0; j < eb; j++) want[base + off + j] = (uint8_t)(v[i] >> (8 * j));
    }
    tp_sbuf t;
    tp_sbuf_init(&t);
    tp_sbuf_printf(&t, "        .data\nDST:    .space 8192\n");
    data_line(&t, "V", w, v, n);
    data_line(&t, "I", w, idx, n);
    data_line(&t, "M", w, mk, n);
    tp_sbuf_printf(&t, "        .text\n        MTC1 VPW,#%u\n        DADDUI R1,R0,#%u\n        MTC1 VLR,R1\n", w, n);
    tp_sbuf_printf(&t, "        DADDUI R2,R0,#I\n        LV V2,R2\n        DADDUI R2,R0,#V\n        LV V1,R2\n"
                       "        DADDUI R2,R0,#M\n        LV V4,R2\n        DADDUI R3,R0,#DST+%lld\n"
                       "        DADDUI R4,R0,#%lld\n",
                   (long long)base, (long long)stride);
    if (masked) tp_sbuf_printf(&t, "        SNEVS.I V4,R0\n");
    tp_sbuf_printf(&t, "        %s\n", kind == 0 ? "SV R3,V1" : kind == 1 ? "SVWS (R3,R4),V1" : "SVI (R3+V2),V1");
    vec_run r;
    vec_prog p;
    tp_err e;
    tt_nchecks++;
    if (!run_text(&r, &p, tp_sbuf_str(&t), NULL, &e)) {
        tt_fail_msg(__FILE__, __LINE__, "store %d at %u bits: %s", kind, w, e.msg);
    } else {
        for (uint32_t k = 0; k < 8192; k++) {
            uint64_t got = rd(&r, &p, "DST", k, 1);
            if (got != want[k]) {
                tt_fail_msg(__FILE__, __LINE__, "store %d (stride %lld%s) at %u bits, byte %u: 0x%llx, want 0x%x", kind,
                            (long long)stride, masked ? ", masked" : "", w, k, (unsigned long long)got, want[k]);
                break;
            }
        }
    }
    done(&r, &p);
    tp_sbuf_free(&t);
}

static void t_memory(void)
{
    for (size_t w = 0; w < TP_ARRAY_LEN(widths); w++) {
        unsigned eb = widths[w] / 8;
        int64_t strides[] = {eb, 2 * eb, 3, -(int64_t)eb, 24, 0};
        for (int masked = 0; masked < 2; masked++) {
            check_load(widths[w], 0, 0, masked);
            check_load(widths[w], 2, 0, masked);
            check_store(widths[w], 0, 0, masked);
            check_store(widths[w], 2, 0, masked);
            for (size_t s = 0; s < TP_ARRAY_LEN(strides); s++) {
                check_load(widths[w], 1, strides[s], masked);
                if (strides[s] != 0 && (strides[s] >= (int64_t)eb || strides[s] <= -(int64_t)eb))
                    check_store(widths[w], 1, strides[s], masked); /* elements that do not overlap */
            }
        }
    }
}

/* An 8-bit index of 200 is an offset of +200 (unsigned), not -56. */
static void t_index_unsigned(void)
{
    vec_run r;
    vec_prog p;
    tp_err e;
    TT_CHECK(run_text(&r, &p,
                      "        .data\nT:      .space 200\n        .byte 77\n        .align 3\nI:      .byte 200, 0\n"
                      "        .align 3\nO:      .space 8\n        .text\n"
                      "        MTC1 VPW,#8\n        DADDUI R1,R0,#2\n        MTC1 VLR,R1\n"
                      "        DADDUI R2,R0,#I\n        LV V2,R2\n        DADDUI R3,R0,#T\n        LVI V1,(R3+V2)\n"
                      "        DADDUI R2,R0,#O\n        SV R2,V1\n",
                      NULL, &e));
    TT_EQ_U(rd(&r, &p, "O", 0, 2), 77);
    done(&r, &p);
}

/* ---- VPW, MVL, VM, reinterpretation ---- */

static void t_vpw_mvl(void)
{
    vec_run r;
    vec_prog p;
    tp_err e;
    const char *prog = "MFC1 R1,MVL\nMFC1 R2,VPW\nMTC1 VPW,#8\nMFC1 R3,MVL\nMFC1 R4,VPW\nMTC1 VPW,#16\nMFC1 R5,MVL\n"
                       "DADDUI R9,R0,#32\nMTC1 VPW,R9\nMFC1 R6,MVL\nMFC1 R7,VLR\nmfc1 r8,vpw\n";
    TT_CHECK(run_text(&r, &p, prog, NULL, &e));
    TT_EQ_I(r.m.r[1], 64); TT_EQ_I(r.m.r[2], 64);
    TT_EQ_I(r.m.r[3], 512); TT_EQ_I(r.m.r[4], 8);
    TT_EQ_I(r.m.r[5], 256);
    TT_EQ_I(r.m.r[6], 128); TT_EQ_I(r.m.r[7], 64); /* VLR keeps its value */
    TT_EQ_I(r.m.r[8], 32);
    done(&r, &p);
    /* VIRAM-1: MVL 32, 64, 128; no 8-bit mode */
    TT_CHECK(run_text(&r, &p, "MFC1 R1,MVL\nMTC1 VPW,#32\nMFC1 R2,MVL\nMTC1 VPW,#16\nMFC1 R3,MVL\n",
                      "mvl=32 vpw.8=0 vregs=32", &e));
    TT_EQ_I(r.m.r[1], 32); TT_EQ_I(r.m.r[2], 64); TT_EQ_I(r.m.r[3], 128);
    done(&r, &p);
}

/* The register's bits stay put: at 8 bits, element k is byte k of the
** 64-bit elements (little-endian), and back. */
static void t_reinterpret(void)
{
    vec_run r;
    vec_prog p;
    tp_err e;
    TT_CHECK(run_text(&r, &p,
                      "        .data\nX:      .word 0x0807060504030201, 0x100f0e0d0c0b0a09\nY:      .space 16\n"
                      "Z:      .space 16\n        .text\n"
                      "        DADDUI R1,R0,#2\n        MTC1 VLR,R1\n        DADDUI R2,R0,#X\n        LV V1,R2\n"
                      "        MTC1 VPW,#8\n        DADDUI R1,R0,#16\n        MTC1 VLR,R1\n"
                      "        DADDUI R3,R0,#1\n        ADDVS.I V1,V1,R3\n" /* each byte + 1 */
                      "        DADDUI R2,R0,#Y\n        SV R2,V1\n"
                      "        MTC1 VPW,#16\n        DADDUI R1,R0,#8\n        MTC1 VLR,R1\n"
                      "        DADDUI R2,R0,#Z\n        SV R2,V1\n",
                      NULL, &e));
    for (uint32_t k = 0; k < 16; k++) TT_EQ_U(rd(&r, &p, "Y", k, 1), k + 2); /* bytes 1..16, each + 1 */
    TT_EQ_U(rd(&r, &p, "Z", 0, 8), 0x0908070605040302ull);
    TT_EQ_U(rd(&r, &p, "Z", 14, 2), 0x1110); /* bytes 14, 15 = 16, 17 */
    done(&r, &p);
}

/* VM has a bit per 8-bit element; CVM sets them all; MVTM/MVFM move bits
** 0..63 below MVL; a compare clears the bits from VLR up. */
static void t_vm_wide(void)
{
    vec_run r;
    vec_prog p;
    tp_err e;
    /* MVL 4 at 64 bits: MVFM reads 4 bits; at 8 bits MVL is 32 */
    TT_CHECK(run_text(&r, &p, "CVM\nMVFM F1,VM\nMTC1 VPW,#8\nMVFM F2,VM\nL.D F3,M\nMVTM VM,F3\nMVFM F4,VM\n"
                              "MTC1 VPW,#16\nMVFM F5,VM\n.data\nM: .word -1\n",
                      "mvl=4", &e));
    TT_EQ_U(r.m.f[1], 0xF);
    TT_EQ_U(r.m.f[2], 0xFFFFFFFF);
    TT_EQ_U(r.m.f[4], 0xFFFFFFFF); /* MVTM kept bits below MVL (32) */
    TT_EQ_U(r.m.f[5], 0xFFFF);
    done(&r, &p);
    /* 300 8-bit elements: the masked add reaches every one (VM all ones) */
    TT_CHECK(run_text(&r, &p, "MTC1 VPW,#8\nDADDUI R1,R0,#300\nMTC1 VLR,R1\nDADDUI R2,R0,#3\nADDVS.I V1,V1,R2\n"
                              "POP R3,VM\nSEQVS.I V1,R2\nPOP R4,VM\nDADDUI R1,R0,#500\nMTC1 VLR,R1\nPOP R5,VM\n",
                      NULL, &e));
    TT_EQ_I(r.m.r[3], 300);
    TT_EQ_I(r.m.r[4], 300);
    TT_EQ_I(r.m.r[5], 300); /* the compare cleared bits 300.. */
    TT_EQ_U(r.ops[0], 300 + 300);
    done(&r, &p);
}

/* CVI at 8 bits keeps the low 8 bits of i * Rs. */
static void t_cvi_narrow(void)
{
    vec_run r;
    vec_prog p;
    tp_err e;
    TT_CHECK(run_text(&r, &p, "        .data\nO: .space 100\n        .text\n        MTC1 VPW,#8\n"
                              "        DADDUI R1,R0,#100\n        MTC1 VLR,R1\n        CVI V1,#3\n"
                              "        DADDUI R2,R0,#O\n        SV R2,V1\n",
                      NULL, &e));
    for (uint32_t i = 0; i < 100; i++) TT_EQ_U(rd(&r, &p, "O", i, 1), (3 * i) & 0xff);
    done(&r, &p);
}

/* ---- scalar narrow memory, DSRA, SLTU ---- */

static void t_scalar_narrow(void)
{
    vec_run r;
    vec_prog p;
    tp_err e;
    TT_CHECK(run_text(&r, &p,
                      "        .data\nX:      .byte 0x80, 0x7f\n        .word16 0x8001\n        .word32 0x80000002\n"
                      "Y:      .space 16\n        .text\n"
                      "        LB R1,X\n        LBU R2,X\n        LB R3,X+1\n        LH R4,X+2\n        LHU R5,X+2\n"
                      "        LW R6,X+4\n        LWU R7,X+4\n        DADDUI R8,R0,#-2\n        SB R8,Y\n"
                      "        SH R8,Y+2\n        SW R8,Y+4\n        DSRA R9,R8,#1\n        DSRL R10,R8,#1\n"
                      "        SLTU R11,R8,R2\n        SLT R12,R8,R2\n        DADDUI R13,R0,#60\n        DSRA R14,R6,R13\n",
                      NULL, &e));
    TT_EQ_I(r.m.r[1], -128); TT_EQ_I(r.m.r[2], 128); TT_EQ_I(r.m.r[3], 127);
    TT_EQ_I(r.m.r[4], -32767); TT_EQ_I(r.m.r[5], 0x8001);
    TT_EQ_I(r.m.r[6], (int64_t)(int32_t)0x80000002u); TT_EQ_I(r.m.r[7], 0x80000002ll);
    TT_EQ_U(rd(&r, &p, "Y", 0, 8), 0xfffffffefffe00feull /* SB fe; SH fe ff at 2; SW fe ff ff ff at 4 */);
    TT_EQ_I(r.m.r[9], -1); TT_EQ_U((uint64_t)r.m.r[10], 0x7fffffffffffffffull);
    TT_EQ_I(r.m.r[11], 0); TT_EQ_I(r.m.r[12], 1);
    TT_EQ_I(r.m.r[14], -1);
    done(&r, &p);
}

/* ---- faults ---- */

static void t_faults(void)
{
    TT_EQ_STR(run_err("MTC1 VPW,#16\nMULV.D V1,V2,V3\n", NULL),
              "t.s:2:1: MULV.D V1,V2,V3: MULV.D works on 64-bit elements, but VPW is 16");
    TT_EQ_STR(run_err("MTC1 VPW,#32\nSEQVS.D V1,F0\n", NULL),
              "t.s:2:1: SEQVS.D V1,F0: SEQVS.D works on 64-bit elements, but VPW is 32");
    TT_EQ_STR(run_err("DADDUI R1,R0,#12\nMTC1 VPW,R1\n", NULL),
              "t.s:2:1: MTC1 VPW,R1: R1 = 12 is not an element width (8, 16, 32 or 64)");
    TT_EQ_STR(run_err("MTC1 VPW,#8\n", "vpw.8=0"), "t.s:1:1: MTC1 VPW,#8: this machine has no 8-bit elements (option vpw.8 = 0)");
    TT_EQ_STR(run_err("MTC1 VPW,#16\n", "vpw.16=0"),
              "t.s:1:1: MTC1 VPW,#16: this machine has no 16-bit elements (option vpw.16 = 0)");
    TT_EQ_STR(run_err("MTC1 VPW,#8\nDADDUI R1,R0,#300\nMTC1 VLR,R1\nMTC1 VPW,#64\n", NULL),
              "t.s:4:1: MTC1 VPW,#64: VLR = 300 is above the MVL at 64 bits (64): lower VLR first");
    TT_EQ_STR(run_err("MTC1 VPW,#16\nDADDUI R1,R0,#257\nMTC1 VLR,R1\n", NULL),
              "t.s:3:1: MTC1 VLR,R1: R1 = 257 is outside 0..MVL (256)");
    TT_EQ_STR(run_err("MTC1 VLR,#65\n", NULL), "t.s:1:1: MTC1 VLR,#65: #65 is outside 0..MVL (64)");
    TT_EQ_STR(run_err("MTC1 VPW,#16\nDADDUI R1,R0,#256\nMTC1 VLR,R1\nLV V1,R2\n", "mem_size=64"),
              "t.s:4:1: LV V1,R2: element 32 at address 0x40 is outside memory (0x0-0x3f)");
    TT_EQ_STR(run_err("LH R1,63(R0)\n", "mem_size=64"), "t.s:1:1: LH R1,63(R0): address 0x3f is outside memory (0x0-0x3f)");
    /* the same program is fine where the width exists */
    TT_EQ_STR(run_err("MTC1 VPW,#8\nADDV.I V1,V2,V3\nMTC1 VPW,#64\nADDV.D V1,V2,V3\n", NULL), "");
}

/* ---- the assembler ---- */

static void t_asm_forms(void)
{
    vec_prog p;
    tp_err e;
    TT_CHECK(vt_asm(&p,
                    "MTC1 VPW,R1\nMTC1 VPW,#16\nMFC1 R2,MVL\nMFC1 R3,VPW\nMTC1 VLR,#5\n"
                    "ADDV.I V1,V2,R3\nADDV.I V1,R3,V2\nSUBV.I V1,R3,V2\nSUBV.US V1,V2,R3\nANDV V1,V2,R4\n"
                    "SLLV V1,V2,#3\nSRAV V1,V2,R5\nPSLLW F1,F2,#4\nPSRLQ F1,F2,F3\nPADDUSB F4,F2,F0\n",
                    8, NULL, 0, &e));
    const vec_insn *in = p.insn;
    TT_EQ_U(in[0].op, VEC_OP_MTC1); TT_EQ_U(in[0].b, VEC_RK_VPW); TT_EQ_U(in[0].a, 1); TT_EQ_U(in[0].alt, 0);
    TT_EQ_U(in[0].dst.kind, VEC_RK_VPW);
    TT_EQ_U(in[1].alt, 1); TT_EQ_I(in[1].imm, 16);
    TT_EQ_U(in[2].b, VEC_RK_MVL); TT_EQ_U(in[2].src[0].kind, VEC_RK_VPW);
    TT_EQ_U(in[3].b, VEC_RK_VPW);
    TT_EQ_U(in[4].b, VEC_RK_VLR); TT_EQ_I(in[4].imm, 5); TT_EQ_U(in[4].dst.kind, VEC_RK_VLR); TT_EQ_U(in[4].nsrc, 0);
    TT_EQ_U(in[5].op, VEC_OP_ADDVSI); TT_EQ_U(in[5].a, 2); TT_EQ_U(in[5].b, 3);
    TT_EQ_U(in[6].op, VEC_OP_ADDVSI); TT_EQ_U(in[6].a, 2); TT_EQ_U(in[6].b, 3); /* commuted */
    TT_EQ_U(in[7].op, VEC_OP_SUBSVI); TT_EQ_U(in[7].a, 3); TT_EQ_U(in[7].b, 2);
    TT_EQ_U(in[8].op, VEC_OP_SUBVSUS);
    TT_EQ_U(in[9].op, VEC_OP_ANDVS);
    TT_EQ_U(in[10].op, VEC_OP_SLLV); TT_EQ_U(in[10].alt, 1); TT_EQ_I(in[10].imm, 3);
    TT_EQ_U(in[11].alt, 0); TT_EQ_U(in[11].b, 5); TT_EQ_U(in[11].nsrc, 3); /* V2, R5, VM */
    TT_EQ_U(in[12].op, VEC_OP_PSLLW); TT_EQ_U(in[12].alt, 1); TT_EQ_U(in[12].nsrc, 1);
    TT_EQ_U(in[13].nsrc, 2); TT_EQ_U(in[13].dst.kind, VEC_RK_F);
    TT_EQ_U(in[14].op, VEC_OP_PADDUSB); TT_EQ_U(in[14].d, 4); TT_EQ_U(in[14].a, 2); TT_EQ_U(in[14].b, 0);
    vec_prog_free(&p);
    /* data directives of the narrow widths, little-endian, signed or unsigned values */
    TT_CHECK(vt_asm(&p, ".data\na: .byte 1, -1, 255, x\n.word16 -2, 0xffff\n.word32 -1, 0x12345678\nx:\n", 8, NULL, 0, &e));
    TT_EQ_U(p.data_size, 4 + 4 + 8);
    TT_EQ_U(p.data[0], 1); TT_EQ_U(p.data[1], 0xff); TT_EQ_U(p.data[2], 0xff); TT_EQ_U(p.data[3], 16);
    TT_EQ_U(p.data[4], 0xfe); TT_EQ_U(p.data[5], 0xff); TT_EQ_U(p.data[6], 0xff); TT_EQ_U(p.data[7], 0xff);
    TT_EQ_U(p.data[12], 0x78); TT_EQ_U(p.data[15], 0x12);
    vec_prog_free(&p);
    /* '/' divides, truncating toward zero, left to right with '*' */
    TT_CHECK(vt_asm(&p, ".equ A, 7/2\n.equ B, -7/2\n.equ C, 2*9/4\n.equ D, (1+2*3)/-2\n.data\nw: .word z/8\n"
                        ".space 8\nz:\n", 8, NULL, 0, &e));
    TT_EQ_I(vt_equ(&p, "A"), 3); TT_EQ_I(vt_equ(&p, "B"), -3); TT_EQ_I(vt_equ(&p, "C"), 4); TT_EQ_I(vt_equ(&p, "D"), -3);
    TT_EQ_I(vt_init_word(&p, "w", 0), 2); /* a forward reference: z = 16 */
    vec_prog_free(&p);
    /* MVL and VPW are names only where MTC1/MFC1 expect a control register */
    TT_CHECK(vt_asm(&p, ".equ MVL, 64\n.equ VPW, 8\nDADDUI R1,R0,#MVL*VPW\nMFC1 R2,MVL\n", 8, NULL, 0, &e));
    TT_EQ_I(p.insn[0].imm, 512);
    vec_prog_free(&p);
}

static void t_asm_errors(void)
{
    static const struct { const char *src, *msg; } cases[] = {
        {"MTC1 VPW,#12\n", "t.s:1:10: VPW takes 8, 16, 32 or 64, got 12"},
        {"MTC1 VPW,#128\n", "t.s:1:10: VPW takes 8, 16, 32 or 64, got 128"},
        {"MTC1 MVL,R1\n", "t.s:1:6: MVL is read-only: it follows VPW (MVL = mvl * 64 / VPW)"},
        {"MFC1 R1,V2\n", "t.s:1:9: expected VLR, VPW or MVL, got 'V2'"},
        {"MTC1 VLR,#-1\n", "t.s:1:10: VLR takes 0..MVL, got -1"},
        {"ADDV.I V1,F0,V2\n", "t.s:1:11: expected a vector or integer register"},
        {"ADDVS.I V1,V2,V3\n", "t.s:1:15: ADDVS.I takes a scalar R register here (ADDV.I operates on two vectors)"},
        {"SUBVS.I V1,R1,V2\n", "t.s:1:12: SUBVS.I computes Vs op Rs: write Vd,Vs,Rs (or use SUBSV.I)"},
        {"MULV.I V1,R1,R2\n", "t.s:1:14: MULV.I needs a vector operand"},
        {"SEQVS.I V1,F0\n", "t.s:1:12: SEQVS.I compares with a scalar: expected an integer register (R0-R31)"},
        {"SGTV.U V1,F0\n", "t.s:1:11: expected a vector or integer register"},
        {"SLLV V1,V2,#64\n", "t.s:1:12: shift count 64 is outside 0..63"},
        {"SLLV V1,V2,F1\n", "t.s:1:12: expected an integer register (R0-R31), got 'F1'"},
        {"PSLLW F1,F2,#256\n", "t.s:1:13: shift count 256 is outside 0..255"},
        {"PSLLW F1,F2,R3\n", "t.s:1:13: expected an FP register (F0-F31), got 'R3'"},
        {"PADDB F1,F2,V3\n", "t.s:1:13: expected an FP register (F0-F31), got 'V3'"},
        {"PADDB F1,F2\n", "t.s:1:12: missing operand: expected ','"},
        {".data\n .byte 256\n", "t.s:2:8: value 256 does not fit in 8 bits (-128..255)"},
        {".data\n .word16 -32769\n", "t.s:2:10: value -32769 does not fit in 16 bits (-32768..65535)"},
        {".data\n .byte x\n .space 300\nx:\n", "t.s:2:8: value 301 does not fit in 8 bits (-128..255)"},
        {".byte 1\n", "t.s:1:1: .byte belongs in .data (this is .text)"},
        {"LBU R1,F2\n", "t.s:1:8: 'F2' is a register; a value is expected here"},
        {".equ N, 4/0\n", "t.s:1:10: division by zero"},
        {".data\n.word x/0\nx:\n", "t.s:2:8: division by zero"},
        {".equ N, (0-9223372036854775807-1)/-1\n", "t.s:1:34: arithmetic overflow"}, /* the '/' */
    };
    for (size_t i = 0; i < TP_ARRAY_LEN(cases); i++) {
        const char *got = vt_asm_err(cases[i].src);
        if (strcmp(got, cases[i].msg) != 0)
            tt_fail_msg(__FILE__, __LINE__, "case %zu: got \"%s\", want \"%s\"", i, got, cases[i].msg);
        tt_nchecks++;
    }
}

int main(void)
{
    TT_RUN(t_int_ops);
    TT_RUN(t_compares);
    TT_RUN(t_memory);
    TT_RUN(t_index_unsigned);
    TT_RUN(t_vpw_mvl);
    TT_RUN(t_reinterpret);
    TT_RUN(t_vm_wide);
    TT_RUN(t_cvi_narrow);
    TT_RUN(t_scalar_narrow);
    TT_RUN(t_faults);
    TT_RUN(t_asm_forms);
    TT_RUN(t_asm_errors);
    return tt_done();
}
