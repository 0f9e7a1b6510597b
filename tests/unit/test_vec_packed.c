/* test_vec_packed.c -- every packed (MMX) instruction of the vector machine
** against a C reference written here from Intel's definitions (not from
** vector/alu.c): saturation at both bounds, signed and unsigned boundaries,
** packs of out-of-range values, unpack halves, shift counts in a register
** and as #imm.  Each instruction runs in a program over a table of operand
** pairs: the edge values of its element width in every combination, then
** pseudo-random ones.  A few results are also pinned by hand. */
#include "tests/unit/vec_helpers.h"

/* ---- the reference ---- */

typedef enum {
    R_ADD, R_ADDS, R_ADDUS, R_SUB, R_SUBS, R_SUBUS, R_MULL, R_MULH, R_MADD, R_CMPEQ, R_CMPGT,
    R_PACKSS, R_PACKUS, R_UNPL, R_UNPH, R_SLL, R_SRL, R_SRA, R_AND, R_ANDN, R_OR, R_XOR
} rop;

/* Lane j of x as a signed / unsigned w-bit number. */
static int64_t lane_s(uint64_t x, int j, int w)
{
    switch (w) {
    case 8: return (int8_t)(uint8_t)(x >> (8 * j));
    case 16: return (int16_t)(uint16_t)(x >> (16 * j));
    case 32: return (int32_t)(uint32_t)(x >> (32 * j));
    default: return (int64_t)x;
    }
}
static uint64_t lane_u(uint64_t x, int j, int w) { return w == 64 ? x : (x >> (w * j)) & ((1ull << w) - 1); }
static uint64_t put(uint64_t v, int j, int w) { return w == 64 ? v : (v & ((1ull << w) - 1)) << (w * j); }
static int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static uint64_t ref(rop op, int w, uint64_t x, uint64_t y)
{
    int n = 64 / w;
    int64_t smax = w == 64 ? INT64_MAX : (1ll << (w - 1)) - 1, smin = -smax - 1;
    int64_t umax = w >= 32 ? (int64_t)0xffffffffll : (1ll << w) - 1;
    uint64_t r = 0;
    switch (op) {
    case R_PACKSS:
    case R_PACKUS:
        for (int j = 0; j < n; j++) {
            int64_t lo = op == R_PACKSS ? -(1ll << (w / 2 - 1)) : 0;
            int64_t hi = op == R_PACKSS ? (1ll << (w / 2 - 1)) - 1 : (1ll << (w / 2)) - 1;
            r |= put((uint64_t)clamp(lane_s(x, j, w), lo, hi), j, w / 2);
            r |= put((uint64_t)clamp(lane_s(y, j, w), lo, hi), n + j, w / 2);
        }
        return r;
    case R_UNPL:
    case R_UNPH:
        for (int j = 0; j < n / 2; j++) {
            int src = op == R_UNPL ? j : n / 2 + j;
            r |= put(lane_u(x, src, w), 2 * j, w) | put(lane_u(y, src, w), 2 * j + 1, w);
        }
        return r;
    case R_MADD:
        for (int k = 0; k < 2; k++) {
            int64_t s = lane_s(x, 2 * k, 16) * lane_s(y, 2 * k, 16) + lane_s(x, 2 * k + 1, 16) * lane_s(y, 2 * k + 1, 16);
            r |= put((uint64_t)s, k, 32);
        }
        return r;
    case R_AND: return x & y;
    case R_ANDN: return ~x & y;
    case R_OR: return x | y;
    case R_XOR: return x ^ y;
    default: break;
    }
    for (int j = 0; j < n; j++) {
        int64_t a = lane_s(x, j, w), b = lane_s(y, j, w);
        uint64_t ua = lane_u(x, j, w), ub = lane_u(y, j, w), v = 0;
        switch (op) {
        case R_ADD: v = ua + ub; break;
        case R_SUB: v = ua - ub; break;
        case R_ADDS: v = (uint64_t)clamp(a + b, smin, smax); break;
        case R_SUBS: v = (uint64_t)clamp(a - b, smin, smax); break;
        case R_ADDUS: v = (uint64_t)clamp((int64_t)(ua + ub), 0, umax); break;
        case R_SUBUS: v = (uint64_t)clamp((int64_t)ua - (int64_t)ub, 0, umax); break;
        case R_MULL: v = (uint64_t)(a * b); break;
        case R_MULH: v = (uint64_t)((a * b) >> 16); break; /* w = 16: a*b fits in 32 bits */
        case R_CMPEQ: v = a == b ? ~0ull : 0; break;
        case R_CMPGT: v = a > b ? ~0ull : 0; break;
        /* shifts: y is the whole count */
        case R_SLL: v = y >= (uint64_t)w ? 0 : ua << y; break;
        case R_SRL: v = y >= (uint64_t)w ? 0 : ua >> y; break;
        case R_SRA: v = a < 0 ? (y >= (uint64_t)w ? ~0ull : ~(~(uint64_t)a >> y)) : (y >= (uint64_t)w ? 0 : (uint64_t)a >> y); break;
        default: break;
        }
        r |= put(v, j, w);
    }
    return r;
}

/* ---- running an instruction over operand pairs ---- */

#define NMAX 400

/* Runs "OP F4,F0,F2" (or "OP F4,F0,#imm" when imm >= 0) on the pairs
** x[i], y[i]; out[i] gets the results.  Returns success. */
static bool run_packed(const char *op, const uint64_t *x, const uint64_t *y, uint32_t n, int imm, uint64_t *out)
{
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_sbuf_printf(&b, "        .data\na:\n");
    for (uint32_t i = 0; i < n; i++) tp_sbuf_printf(&b, "        .word 0x%llx\n", (unsigned long long)x[i]);
    tp_sbuf_printf(&b, "b:\n");
    for (uint32_t i = 0; i < n; i++) tp_sbuf_printf(&b, "        .word 0x%llx\n", (unsigned long long)y[i]);
    tp_sbuf_printf(&b, "r:      .space %u\n        .text\n", 8 * n);
    tp_sbuf_printf(&b, "        DADDUI R1,R0,#a\n        DADDUI R2,R0,#b\n        DADDUI R3,R0,#r\n"
                       "        DADDUI R4,R0,#%u\n"
                       "loop:   L.D F0,0(R1)\n        L.D F2,0(R2)\n",
                   n);
    if (imm >= 0) tp_sbuf_printf(&b, "        %s F4,F0,#%d\n", op, imm);
    else tp_sbuf_printf(&b, "        %s F4,F0,F2\n", op);
    tp_sbuf_printf(&b, "        S.D F4,0(R3)\n        DADDUI R1,R1,#8\n        DADDUI R2,R2,#8\n"
                       "        DADDUI R3,R3,#8\n        DSUBUI R4,R4,#1\n        BNEZ R4,loop\n");
    vec_prog p;
    tp_err e;
    bool ok = vt_asm(&p, tp_sbuf_str(&b), 8, NULL, 0, &e);
    if (!ok) printf("%s: %s\n", op, e.msg);
    tp_sbuf_free(&b);
    if (!ok) return false;
    tp_opts o;
    vt_opts(&o, NULL);
    vec_run r;
    ok = vec_run_program(&r, &p, &o, -1, 0, &e);
    if (!ok) printf("%s: %s\n", op, e.msg);
    const vec_sym *s = vec_prog_sym(&p, "r");
    for (uint32_t i = 0; ok && i < n; i++) ok = vec_mach_read(&r.m, (uint64_t)s->value + 8 * i, &out[i]);
    vec_run_free(&r);
    vec_prog_free(&p);
    tp_opts_free(&o);
    return ok;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* Edge values of a w-bit lane: 0, 1, 2, the signed and unsigned bounds and
** their neighbours, and a few from the middle. */
static uint32_t edges(int w, uint64_t *e)
{
    uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1, h = 1ull << (w - 1);
    uint64_t v[] = {0, 1, 2, h - 2, h - 1, h, h + 1, m - 1, m, h >> 1, (h >> 1) * 3, 0x35 & m, m - 0x35};
    memcpy(e, v, sizeof v);
    return TP_ARRAY_LEN(v);
}

/* Operand pairs: every pair of edge values, lane by lane, then random. */
static uint32_t pairs(int w, uint64_t *x, uint64_t *y)
{
    uint64_t e[16];
    uint32_t ne = edges(w, e), lanes = (uint32_t)(64 / w), n = 0, npairs = ne * ne;
    for (uint32_t p = 0; p < npairs; n++) {
        x[n] = y[n] = 0;
        for (uint32_t j = 0; j < lanes; j++, p++) {
            x[n] |= put(e[p % ne], (int)j, w);
            y[n] |= put(e[(p / ne) % ne], (int)j, w);
        }
    }
    for (uint32_t k = 0; k < 48; k++, n++) x[n] = next_rand(), y[n] = next_rand();
    return n;
}

static const struct {
    const char *name;
    rop op;
    int w;
} ops[] = {
    {"PADDB", R_ADD, 8}, {"PADDW", R_ADD, 16}, {"PADDD", R_ADD, 32},
    {"PADDSB", R_ADDS, 8}, {"PADDSW", R_ADDS, 16}, {"PADDUSB", R_ADDUS, 8}, {"PADDUSW", R_ADDUS, 16},
    {"PSUBB", R_SUB, 8}, {"PSUBW", R_SUB, 16}, {"PSUBD", R_SUB, 32},
    {"PSUBSB", R_SUBS, 8}, {"PSUBSW", R_SUBS, 16}, {"PSUBUSB", R_SUBUS, 8}, {"PSUBUSW", R_SUBUS, 16},
    {"PMULLW", R_MULL, 16}, {"PMULHW", R_MULH, 16}, {"PMADDWD", R_MADD, 16},
    {"PCMPEQB", R_CMPEQ, 8}, {"PCMPEQW", R_CMPEQ, 16}, {"PCMPEQD", R_CMPEQ, 32},
    {"PCMPGTB", R_CMPGT, 8}, {"PCMPGTW", R_CMPGT, 16}, {"PCMPGTD", R_CMPGT, 32},
    {"PACKSSWB", R_PACKSS, 16}, {"PACKSSDW", R_PACKSS, 32}, {"PACKUSWB", R_PACKUS, 16},
    {"PUNPCKLBW", R_UNPL, 8}, {"PUNPCKLWD", R_UNPL, 16}, {"PUNPCKLDQ", R_UNPL, 32},
    {"PUNPCKHBW", R_UNPH, 8}, {"PUNPCKHWD", R_UNPH, 16}, {"PUNPCKHDQ", R_UNPH, 32},
    {"PAND", R_AND, 64}, {"PANDN", R_ANDN, 64}, {"POR", R_OR, 64}, {"PXOR", R_XOR, 64},
    {"PSLLW", R_SLL, 16}, {"PSLLD", R_SLL, 32}, {"PSLLQ", R_SLL, 64},
    {"PSRLW", R_SRL, 16}, {"PSRLD", R_SRL, 32}, {"PSRLQ", R_SRL, 64},
    {"PSRAW", R_SRA, 16}, {"PSRAD", R_SRA, 32},
};

static bool is_shift(rop op) { return op == R_SLL || op == R_SRL || op == R_SRA; }

static void check(const char *name, rop op, int w, const uint64_t *x, const uint64_t *y, uint32_t n, int imm)
{
    static uint64_t out[NMAX];
    tt_nchecks++;
    if (!run_packed(name, x, y, n, imm, out)) {
        tt_fail_msg(__FILE__, __LINE__, "%s did not run", name);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t want = ref(op, w, x[i], imm >= 0 ? (uint64_t)imm : y[i]);
        if (out[i] != want) {
            tt_fail_msg(__FILE__, __LINE__, "%s 0x%016llx, 0x%016llx%s: got 0x%016llx, want 0x%016llx", name,
                        (unsigned long long)x[i], (unsigned long long)(imm >= 0 ? (uint64_t)imm : y[i]),
                        imm >= 0 ? " (#imm)" : "", (unsigned long long)out[i], (unsigned long long)want);
            return;
        }
    }
}

/* Every instruction on every pair of edge values and on random values. */
static void t_every_instruction(void)
{
    static uint64_t x[NMAX], y[NMAX];
    TT_EQ_U(TP_ARRAY_LEN(ops), 44); /* the 44 packed rows of vec_ops.def */
    for (size_t k = 0; k < TP_ARRAY_LEN(ops); k++) {
        uint32_t n = pairs(ops[k].w, x, y);
        if (is_shift(ops[k].op)) { /* counts: every edge of the element and of 64 bits */
            static const uint64_t counts[] = {0, 1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256,
                                              1ull << 32, 1ull << 63, ~0ull};
            for (uint32_t i = 0; i < n; i++) y[i] = counts[i % TP_ARRAY_LEN(counts)];
        }
        check(ops[k].name, ops[k].op, ops[k].w, x, y, n, -1);
        if (is_shift(ops[k].op)) {
            static const int imms[] = {0, 1, 5, 15, 16, 31, 32, 63, 64, 255};
            for (size_t j = 0; j < TP_ARRAY_LEN(imms); j++) check(ops[k].name, ops[k].op, ops[k].w, x, y, n, imms[j]);
        }
    }
}

/* Every packed row of the opcode table is tested above. */
static void t_table_covered(void)
{
    int packed = 0;
    for (int op = 0; op < VEC_NOPS; op++) {
        if (vec_ops[op].cls != VEC_C_MEDIA && vec_ops[op].cls != VEC_C_MMUL) continue;
        packed++;
        bool found = false;
        for (size_t k = 0; k < TP_ARRAY_LEN(ops); k++) found |= !strcmp(ops[k].name, vec_ops[op].name);
        if (!found) tt_fail_msg(__FILE__, __LINE__, "%s is not tested", vec_ops[op].name);
        tt_nchecks++;
    }
    TT_EQ_I(packed, (int64_t)TP_ARRAY_LEN(ops));
}

/* Results worked out by hand from Intel's definitions. */
static void t_by_hand(void)
{
    static const struct {
        const char *op;
        uint64_t x, y, want;
    } c[] = {
        /* unsigned saturation at 255 and at 0; wrapping for comparison */
        {"PADDUSB", 0x00ff80017f00fe01ull, 0x0101808001010203ull, 0x01ffff818001ff04ull},
        {"PADDB", 0x00ff80017f00fe01ull, 0x0101808001010203ull, 0x0100008180010004ull},
        {"PSUBUSB", 0x0001ff8000000203ull, 0x0102010102000101ull, 0x0000fe7f00000102ull},
        /* signed saturation: 127 + 1 = 127, -128 + -128 = -128, -128 + -1 = -128, 127 + 127 = 127 */
        {"PADDSB", 0x7f80807f00000000ull, 0x0180ff7f00000000ull, 0x7f80807f00000000ull},
        {"PSUBSB", 0x807f000000000000ull, 0x0180000000000000ull, 0x807f000000000000ull},
        {"PADDSW", 0x7fff8000000100ffull, 0x00018000ffff0001ull, 0x7fff800000000100ull},
        /* PMULHW: 0x8000 * 0x8000 = 2^30: high half 0x4000; -1 * 1 = -1: 0xffff */
        {"PMULHW", 0x8000ffff00020000ull, 0x8000000100030000ull, 0x4000ffff00000000ull},
        {"PMULLW", 0x8000ffff00020000ull, 0x8000000100030000ull, 0x0000ffff00060000ull},
        /* PMADDWD: four -32768 wrap to 0x80000000; 1*2 + 3*4 = 14 */
        {"PMADDWD", 0x8000800000030001ull, 0x8000800000040002ull, 0x800000000000000eull},
        /* PACKSSWB F4,F2,F0: F2's words (x) in the low half: 0x0100 -> 0x7f,
        ** 0xff00 = -256 -> 0x80, -1 -> 0xff, 5 -> 5; y = 0 gives 0 */
        {"PACKSSWB", 0x00050100ff00ffffull, 0, 0x00000000057f80ffull},
        {"PACKUSWB", 0x00050100ff00ffffull, 0x00ff000000000000ull, 0xff00000005ff0000ull},
        {"PACKSSDW", 0x8000000000007fffull, 0xfffe0000ffffffffull, 0x8000ffff80007fffull},
        /* unpack: low bytes of x and y interleaved, x first */
        {"PUNPCKLBW", 0x0807060504030201ull, 0x1817161514131211ull, 0x1404130312021101ull},
        {"PUNPCKHBW", 0x0807060504030201ull, 0x1817161514131211ull, 0x1808170716061505ull},
        {"PUNPCKLDQ", 0x0807060504030201ull, 0x1817161514131211ull, 0x1413121104030201ull},
        {"PUNPCKHWD", 0x0807060504030201ull, 0x1817161514131211ull, 0x1817080716150605ull},
        /* PANDN: ~x & y */
        {"PANDN", 0x00ff00ff00ff00ffull, 0x0f0f0f0f0f0f0f0full, 0x0f000f000f000f00ull},
        /* compares give whole-element masks; 0x80 < 0x7f signed */
        {"PCMPGTB", 0x7f80000000000000ull, 0x807f000000000000ull, 0xff00000000000000ull},
        {"PCMPEQW", 0x1234567800000000ull, 0x1234000000000001ull, 0xffff0000ffff0000ull},
    };
    for (size_t k = 0; k < TP_ARRAY_LEN(c); k++) {
        uint64_t out = 0;
        TT_CHECK(run_packed(c[k].op, &c[k].x, &c[k].y, 1, -1, &out));
        if (out != c[k].want)
            tt_fail_msg(__FILE__, __LINE__, "%s: got 0x%016llx, want 0x%016llx", c[k].op, (unsigned long long)out,
                        (unsigned long long)c[k].want);
        tt_nchecks++;
    }
    /* shifts by #imm and by a register: PSRAW by 16 or more fills with the sign */
    uint64_t x = 0x80007fff00018001ull, out = 0, cnt = 40;
    TT_CHECK(run_packed("PSRAW", &x, &x, 1, 16, &out));
    TT_EQ_U(out, 0xffff00000000ffffull);
    TT_CHECK(run_packed("PSRAW", &x, &cnt, 1, -1, &out));
    TT_EQ_U(out, 0xffff00000000ffffull);
    TT_CHECK(run_packed("PSRLW", &x, &x, 1, 15, &out));
    TT_EQ_U(out, 0x0001000000000001ull);
    TT_CHECK(run_packed("PSLLQ", &x, &x, 1, 64, &out));
    TT_EQ_U(out, 0);
}

/* Packed instructions count their result elements as operations. */
static void t_ops_counted(void)
{
    tp_opts o;
    vt_opts(&o, NULL);
    vec_prog p;
    tp_err e;
    TT_CHECK(vt_asm(&p, "PADDB F1,F2,F3\nPADDW F1,F2,F3\nPACKSSWB F1,F2,F3\nPMADDWD F1,F2,F3\nPAND F1,F2,F3\n", 8,
                    NULL, 0, &e));
    vec_run r;
    TT_CHECK(vec_run_program(&r, &p, &o, -1, 0, &e));
    TT_EQ_U(r.ops[0], 8 + 8); /* PADDB, PACKSSWB's 8 bytes */
    TT_EQ_U(r.ops[1], 4);     /* PADDW */
    TT_EQ_U(r.ops[2], 2);     /* PMADDWD's 2 doublewords */
    TT_EQ_U(r.ops[3], 1);     /* PAND */
    TT_EQ_U(r.flops, 0);
    vec_run_free(&r);
    vec_prog_free(&p);
    tp_opts_free(&o);
}

int main(void)
{
    TT_RUN(t_every_instruction);
    TT_RUN(t_table_covered);
    TT_RUN(t_by_hand);
    TT_RUN(t_ops_counted);
    return tt_done();
}
