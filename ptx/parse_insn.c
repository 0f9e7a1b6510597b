/*
** parse_insn.c -- PTX instructions: opcode, modifiers, types and operands,
** checked against the operand roles of ptx_ops.def.
**
** The IR an instruction gets (what exec/ relies on):
**   op      the base name before the first dot (bar.warp.sync -> BAR).
**   type    the instruction type; type2 the second type of cvt (source),
**           set (compared), slct (c), tex/tld4 (coordinates), dp4a/dp2a (b).
**   m       modifiers (ptx_mods); m.vec is 1 unless .v2/.v4/.v8.
**   o[]     operands in source order; a d|p pair is two operands; ndst
**           leading operands are written.
** Layouts that are not one operand per role:
**   call    o[0] target (FUNC, or REG for an indirect call), o[1] CALL:
**           pool[r .. r+n) = return operands then arguments, imm = returns;
**           ndst = 0.  The prototype / .calltargets name is checked, not kept.
**   brx     o[0] index, o[1] VEC of LABEL operands (the .branchtargets list).
**   bar.red o[0] destination (ndst 1), o[1] barrier, [o[2] thread count], last
**           the predicate (PTX_OF_NEG for !p).
**   tex/tld4/suld  d[|p], then the texture/surface (REG handle or SYM), the
**           sampler only when given ([tex, smp, {..}]), the coordinates (VEC),
**           then tex's extra operands (lod, gradients, offsets) in order.
**   sust    surface, [sampler,] coordinates (VEC), value (VEC or register).
**   cvt.f16x2.f32 / cvt.bf16x2.f32 (packing) have two sources.
**   .L2::cache_hint loads/stores/atomics: the trailing policy operand is
**           checked and dropped.
** Predicate negation (!p, PTX_OF_NEG) is accepted where the roles say 'p'
** (setp/set c, selp c, bar.red c) and for vote's source predicate.
*/
#include "parse_int.h"
#include <stdio.h>

#define C(x) (1u << PTX_KW_##x)

/* Modifier categories and flags an opcode takes. */
static void op_accept(int op, uint32_t *cats, uint32_t *flags)
{
    uint32_t c = C(TYPE), f = 0;
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB:
        c |= C(RND); f = PTX_MF_FTZ | PTX_MF_SAT | PTX_MF_CC | PTX_MF_NOFTZ | PTX_MF_RELU; break;
    case PTX_OP_MUL: c |= C(RND) | C(SUBW); f = PTX_MF_FTZ | PTX_MF_SAT | PTX_MF_NOFTZ; break;
    case PTX_OP_MAD:
        c |= C(RND) | C(SUBW); f = PTX_MF_FTZ | PTX_MF_SAT | PTX_MF_CC | PTX_MF_NOFTZ; break;
    case PTX_OP_MUL24: case PTX_OP_MAD24: c |= C(SUBW); f = PTX_MF_SAT; break;
    case PTX_OP_DIV: c |= C(RND); f = PTX_MF_APPROX | PTX_MF_FULL | PTX_MF_FTZ; break;
    case PTX_OP_ABS: case PTX_OP_NEG: f = PTX_MF_FTZ; break;
    case PTX_OP_MIN: case PTX_OP_MAX:
        f = PTX_MF_FTZ | PTX_MF_NAN | PTX_MF_XORSIGN | PTX_MF_ABS | PTX_MF_RELU; break;
    case PTX_OP_FMA:
        c |= C(RND); f = PTX_MF_FTZ | PTX_MF_SAT | PTX_MF_RELU | PTX_MF_OOB | PTX_MF_NOFTZ; break;
    case PTX_OP_ADDC: case PTX_OP_SUBC: f = PTX_MF_CC; break;
    case PTX_OP_MADC: c |= C(SUBW); f = PTX_MF_CC; break;
    case PTX_OP_BFIND: f = PTX_MF_SHIFTAMT; break;
    case PTX_OP_SZEXT: case PTX_OP_BMSK: f = PTX_MF_WRAP | PTX_MF_CLAMP; break;
    case PTX_OP_DP2A: c |= C(SUBW); break;
    case PTX_OP_RCP: case PTX_OP_SQRT: c |= C(RND); f = PTX_MF_APPROX | PTX_MF_FTZ; break;
    case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2:
    case PTX_OP_TANH:
        f = PTX_MF_APPROX | PTX_MF_FTZ; break;
    case PTX_OP_TESTP: c |= C(SUBT); break;
    case PTX_OP_SET: case PTX_OP_SETP: c |= C(CMP) | C(BOP); f = PTX_MF_FTZ; break;
    case PTX_OP_SLCT: f = PTX_MF_FTZ; break;
    case PTX_OP_SHF: c |= C(SUBF); f = PTX_MF_WRAP | PTX_MF_CLAMP; break;
    case PTX_OP_PRMT: c |= C(SUBP); break;
    case PTX_OP_CVT:
        c |= C(RND); f = PTX_MF_FTZ | PTX_MF_SAT | PTX_MF_RELU | PTX_MF_SATFINITE; break;
    case PTX_OP_CVTA: c |= C(SPACE); f = PTX_MF_TO; break;
    case PTX_OP_ISSPACEP: c = C(SPACE); break;
    case PTX_OP_LD:
        c |= C(SPACE) | C(CACHE) | C(SEM) | C(SCOPE) | C(VEC) | C(HINT);
        f = PTX_MF_NC | PTX_MF_UNIFIED; break;
    case PTX_OP_LDU: c |= C(SPACE) | C(VEC) | C(HINT); break;
    case PTX_OP_ST: c |= C(SPACE) | C(CACHE) | C(SEM) | C(SCOPE) | C(VEC) | C(HINT); break;
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: c = C(SPACE) | C(HINT); break;
    case PTX_OP_ATOM: case PTX_OP_RED:
        c |= C(SPACE) | C(SEM) | C(SCOPE) | C(SUBA) | C(VEC) | C(HINT); f = PTX_MF_NOFTZ; break;
    case PTX_OP_TEX: c |= C(GEOM) | C(VEC) | C(MIP); break;
    case PTX_OP_TLD4: c |= C(GEOM) | C(VEC) | C(COMP) | C(MIP); break;
    case PTX_OP_TXQ: case PTX_OP_SUQ: c |= C(QUERY); break;
    case PTX_OP_SULD: case PTX_OP_SUST:
        c |= C(GEOM) | C(VEC) | C(CACHE);
        f = PTX_MF_B | PTX_MF_P | PTX_MF_TRAP | PTX_MF_CLAMP | PTX_MF_ZERO; break;
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: c = C(FLAG); f = PTX_MF_UNI; break;
    case PTX_OP_BRX: c = C(SUBSH); f = PTX_MF_UNI; break;
    case PTX_OP_EXIT: case PTX_OP_TRAP: case PTX_OP_BRKPT: case PTX_OP_PMEVENT: c = 0; break;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        c |= C(SUBB) | C(BOP) | C(SCOPE) | C(SEM); f = PTX_MF_ALIGNED; break;
    case PTX_OP_MEMBAR: c = C(SCOPE); break;
    case PTX_OP_FENCE: c = C(SEM) | C(SCOPE); break;
    case PTX_OP_VOTE: case PTX_OP_MATCH: c |= C(SUBV); f = PTX_MF_SYNC; break;
    case PTX_OP_SHFL: c |= C(SUBSH); f = PTX_MF_SYNC; break;
    case PTX_OP_REDUX: c |= C(SUBA); f = PTX_MF_SYNC | PTX_MF_ABS | PTX_MF_NAN; break;
    case PTX_OP_ELECT: c = 0; f = PTX_MF_SYNC; break;
    case PTX_OP_GETCTARANK: c |= C(SPACE); break;
    default: break;
    }
    if (f) c |= C(FLAG);
    *cats = c;
    *flags = f;
}

/* Opcodes that take no type, or two. */
static bool op_untyped(int op)
{
    switch (op) {
    case PTX_OP_BRA: case PTX_OP_BRX: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT:
    case PTX_OP_TRAP: case PTX_OP_BRKPT: case PTX_OP_PMEVENT: case PTX_OP_BAR:
    case PTX_OP_BARRIER: case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_ELECT:
    case PTX_OP_ISSPACEP: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
        return true;
    default:
        return false;
    }
}

static bool op_two_types(int op)
{
    switch (op) {
    case PTX_OP_CVT: case PTX_OP_SET: case PTX_OP_SLCT: case PTX_OP_TEX: case PTX_OP_TLD4:
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        return true;
    default:
        return false;
    }
}

static const char *const kw_cat_names[PTX_KW_COUNT] = {
    "opcode", "opcode", "directive", "type", "state space", "cache operator",
    "memory-ordering", "scope", "vector width", "rounding", "comparison", "boolean op",
    "sub-operation", "sub-operation", "sub-operation", "sub-operation", "sub-operation",
    "sub-operation", "sub-operation", "sub-operation", "geometry", "sub-operation",
    "sub-operation", "sub-operation", "flag", "hint", "linkage",
};

/* Sets a one-value modifier field, failing when it was already set. */
static void set_once(ptx_ps *P, uint8_t *field, uint32_t v, const char *what)
{
    if (*field && *field != v)
        PTX_FAIL(P, "conflicting %s modifier %s", what, ptx_ps_tokdesc(P));
    *field = (uint8_t)v;
}

typedef struct ibuild {
    ptx_insn in;
    uint32_t ntypes;
    uint8_t types[2];
    bool policy;          /* .L2::cache_hint: one more operand */
    const char *name;     /* dotted opcode text, for messages */
    uint32_t namelen;
} ibuild;

static void parse_mods(ptx_ps *P, ibuild *b)
{
    ptx_insn *in = &b->in;
    uint32_t cats, flags;
    op_accept(in->op, &cats, &flags);
    while (P->t.kind == PTX_TK_DIR && P->t.adj) {
        ptx_sym *k = ptx_ps_kw_find(P, P->t.s, P->t.len), *any = k;
        for (; k; k = ptx_ps_kw_other(P, k)) {
            if (!(cats & (1u << k->count))) continue;
            if (k->count == PTX_KW_FLAG && !(flags & (uint32_t)k->val)) continue;
            break;
        }
        b->namelen = (uint32_t)(P->t.s + P->t.len - b->name);
        if (!k) {
            bool known = false;
            for (ptx_sym *a = any; a; a = ptx_ps_kw_other(P, a)) {
                if (a->count == PTX_KW_UNSUP) PTX_FAIL(P, "unsupported type %s", ptx_ps_tokdesc(P));
                if (a->count != PTX_KW_DIR && a->count != PTX_KW_LINK) known = true;
            }
            if (known)
                PTX_FAIL(P, "modifier %s is not valid for '%s'", ptx_ps_tokdesc(P),
                         ptx_ops[in->op].name);
            PTX_FAIL(P, "unknown modifier %s", ptx_ps_tokdesc(P));
        }
        uint32_t v = (uint32_t)k->val;
        ptx_mods *m = &in->m;
        switch (k->count) {
        case PTX_KW_TYPE:
            if (b->ntypes == 2) PTX_FAIL(P, "too many types: %s", ptx_ps_tokdesc(P));
            b->types[b->ntypes++] = (uint8_t)v;
            break;
        case PTX_KW_SPACE: set_once(P, &m->space, v, kw_cat_names[k->count]); break;
        case PTX_KW_CACHE: set_once(P, &m->cache, v, kw_cat_names[k->count]); break;
        case PTX_KW_SEM: set_once(P, &m->sem, v, kw_cat_names[k->count]); break;
        case PTX_KW_SCOPE: set_once(P, &m->scope, v, kw_cat_names[k->count]); break;
        case PTX_KW_VEC:
            if (m->vec != 1) PTX_FAIL(P, "conflicting vector width %s", ptx_ps_tokdesc(P));
            m->vec = (uint8_t)v;
            break;
        case PTX_KW_RND: set_once(P, &m->rnd, v, kw_cat_names[k->count]); break;
        case PTX_KW_CMP: set_once(P, &m->cmp, v, kw_cat_names[k->count]); break;
        case PTX_KW_BOP: set_once(P, &m->bop, v, kw_cat_names[k->count]); break;
        case PTX_KW_COMP: case PTX_KW_MIP:
            if (v) set_once(P, &m->sub2, v, kw_cat_names[k->count]);
            break;
        case PTX_KW_FLAG: m->flags |= v; break;
        case PTX_KW_HINT: if (v == PTX_H_CACHE_HINT) b->policy = true; break;
        default: /* the sub-operation families */
            if (in->op == PTX_OP_BAR && m->sub == PTX_SUB_WARPSYNC && v == PTX_SUB_SYNC) break;
            set_once(P, &m->sub, v, kw_cat_names[k->count]);
            break;
        }
        ptx_ps_next(P);
    }
}

/* ---- operands ----------------------------------------------------------------- */

/* What an operand position accepts. */
enum {
    A_REG = 1, A_PRED = 2, A_IMM = 4, A_SREG = 8, A_SYM = 16, A_FUNC = 32, A_VEC = 64,
    A_SINK = 128, A_NEG = 256,
    A_DST = A_REG | A_PRED | A_VEC | A_SINK,
    A_SRC = A_REG | A_PRED | A_IMM | A_SREG | A_VEC,
};

static ptx_type bits_type(unsigned size)
{
    switch (size) {
    case 1: return PTX_T_B8;
    case 2: return PTX_T_B16;
    case 4: return PTX_T_B32;
    case 8: return PTX_T_B64;
    default: return PTX_T_B32;
    }
}

/* The type an immediate at role position rp takes (see ptx_ps_const_bits):
** the instruction type, except where PTX says otherwise. */
ptx_type ptx_ps_imm_type(const ptx_insn *in, uint32_t rp)
{
    ptx_type t = (ptx_type)in->type, t2 = (ptx_type)in->type2;
    switch (in->op) {
    case PTX_OP_CVT: return rp == 0 ? t : t2;
    case PTX_OP_SET: return rp == 0 ? t : rp <= 2 ? t2 : PTX_T_PRED;
    case PTX_OP_SLCT: return rp == 3 ? t2 : t;
    case PTX_OP_SETP: case PTX_OP_SELP: return rp == 3 ? PTX_T_PRED : t;
    case PTX_OP_SHL: case PTX_OP_SHR: return rp == 2 ? PTX_T_U32 : t;
    case PTX_OP_SHF: return rp == 3 ? PTX_T_U32 : PTX_T_B32;
    case PTX_OP_BFE: return rp >= 2 ? PTX_T_U32 : t;
    case PTX_OP_BFI: return rp >= 3 ? PTX_T_U32 : t;
    case PTX_OP_PRMT: case PTX_OP_LOP3: return PTX_T_B32;
    case PTX_OP_SHFL: case PTX_OP_MATCH: case PTX_OP_REDUX:
        return rp == 1 ? t : PTX_T_B32;
    case PTX_OP_VOTE: return rp == 1 ? PTX_T_PRED : rp == 0 ? t : PTX_T_B32;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        return rp == 0 && in->m.sub == PTX_SUB_RED ? t : PTX_T_U32;
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        if (rp == 2) return t2;
        if (rp == 3) return ptx_type_is_signed(t) || ptx_type_is_signed(t2) ? PTX_T_S32 : PTX_T_U32;
        return t;
    case PTX_OP_TEX: case PTX_OP_TLD4: return rp == 0 ? t : t2;
    case PTX_OP_SULD: case PTX_OP_SUST: return PTX_T_B32; /* coordinates; values use t */
    case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT: case PTX_OP_BRX: case PTX_OP_ELECT:
        return PTX_T_U32;
    case PTX_OP_ISSPACEP: case PTX_OP_CVTA:
        return t ? t : PTX_T_U64;
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA: case PTX_OP_MMA:
    case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_MOVMATRIX:
        return ptx_ps_tensor_imm_type(in, rp);
    default:
        if (t == PTX_T_NONE) return PTX_T_U32;
        return t;
    }
}

uint32_t ptx_ps_pool_add(ptx_ps *P, const ptx_opnd *o, uint32_t n)
{
    tp_vec_grow(&P->pool, n);
    memcpy(P->pool.a + P->pool.n, o, n * sizeof *o);
    P->pool.n += n;
    return P->pool.n - n;
}

/* A special register: %tid.x, %laneid, %envreg3, %pm2, %pm2_64 (component
** 8 + 2), %reserved_smem_offset_1. */
static void sreg_operand(ptx_ps *P, ptx_opnd *o)
{
    const char *s = P->t.s;
    uint32_t len = P->t.len;
    int found = -1;
    int64_t comp = 0;
    for (int i = 0; i < PTX_SR_COUNT; i++) {
        const char *n = ptx_sreg_names[i];
        uint32_t nl = (uint32_t)strlen(n);
        if (nl == len && memcmp(n, s, len) == 0) {
            found = i;
            break;
        }
        if (ptx_sreg_family(i) && len > nl && memcmp(n, s, nl) == 0 && s[nl] >= '0' && s[nl] <= '9') {
            uint32_t k = nl, v = 0;
            while (k < len && s[k] >= '0' && s[k] <= '9' && v < 1000) v = v * 10 + (uint32_t)(s[k++] - '0');
            bool pm64 = i == PTX_SR_PM && len - k == 3 && memcmp(s + k, "_64", 3) == 0;
            if ((k == len || pm64) && v < ptx_sreg_family(i) && (k == nl + 1 || s[nl] != '0')) {
                found = i;
                comp = v + (pm64 ? 8 : 0);
                break;
            }
        }
    }
    if (found < 0) PTX_FAIL(P, "undefined register %s", ptx_ps_tokdesc(P));
    uint32_t line = P->t.line, col = P->t.col;
    bool xyz = false;
#define X(id, name, c) if (found == PTX_SR_##id) xyz = c;
    PTX_SREGS(X)
#undef X
    ptx_ps_next(P);
    if (xyz) {
        if (P->t.kind != PTX_TK_DIR || !P->t.adj || P->t.len != 2 ||
            (P->t.s[1] != 'x' && P->t.s[1] != 'y' && P->t.s[1] != 'z'))
            ptx_ps_fail(P, line, col, "%s needs a component .x, .y or .z", ptx_sreg_names[found]);
        comp = P->t.s[1] - 'x';
        ptx_ps_next(P);
    }
    o->kind = PTX_OK_SREG;
    o->r = found;
    o->imm = comp;
}

static bool starts_const(ptx_ps *P)
{
    uint64_t v;
    switch (P->t.kind) {
    case PTX_TK_INT: case PTX_TK_F32: case PTX_TK_F64: case PTX_TK_DBL: return true;
    case PTX_TK_ID: return ptx_ps_predef_const(P, &v);
    case PTX_TK_PUNCT:
        if (P->t.c == '!') return ptx_ps_peek(P)->kind != PTX_TK_ID;
        return P->t.c == '-' || P->t.c == '+' || P->t.c == '(' || P->t.c == '~';
    default: return false;
    }
}

static void vec_operand(ptx_ps *P, ptx_insn *in, ptx_type ity, unsigned allow, ptx_opnd *o);

/* A register, predicate, symbol, function or special register. */
static void ident_operand(ptx_ps *P, ptx_insn *in, unsigned allow, ptx_opnd *o)
{
    const ptx_tok t = P->t;
    if (t.len == 1 && t.s[0] == '_') {
        if (!(allow & A_SINK)) PTX_FAIL(P, "'_' is not allowed here");
        o->kind = PTX_OK_SINK;
        o->r = -1;
        ptx_ps_next(P);
        return;
    }
    uint32_t el;
    ptx_sym *s = ptx_ps_lookup(P, t.s, t.len, &el);
    if (!s) {
        if (t.s[0] == '%') {
            sreg_operand(P, o); /* fails on names that are not special registers */
            if (!(allow & A_SREG))
                ptx_ps_fail(P, t.line, t.col, "special register '%.*s' cannot be written here",
                            (int)t.len, t.s);
            return;
        }
        PTX_FAIL(P, "undefined identifier %s", ptx_ps_tokdesc(P));
    }
    switch (s->kind) {
    case PTX_SK_REG: case PTX_SK_REGR:
        if (!(allow & A_REG)) PTX_FAIL(P, "expected a predicate, found %s", ptx_ps_tokdesc(P));
        o->kind = PTX_OK_REG;
        o->r = s->val + (int32_t)(el * s->stride);
        break;
    case PTX_SK_PRED: case PTX_SK_PREDR:
        if (!(allow & A_PRED))
            PTX_FAIL(P, "predicate %s used where a data register is expected", ptx_ps_tokdesc(P));
        o->kind = PTX_OK_PRED;
        o->r = s->val + (int32_t)el;
        break;
    case PTX_SK_VAR: case PTX_SK_FVAR: case PTX_SK_PARAM: case PTX_SK_RET:
        if (!(allow & A_SYM))
            PTX_FAIL(P, "symbol %s cannot be an operand of '%s'", ptx_ps_tokdesc(P), ptx_ops[in->op].name);
        o->kind = PTX_OK_SYM;
        o->r = s->kind == PTX_SK_VAR ? s->val
             : s->kind == PTX_SK_FVAR ? PTX_SYM_FVAR + s->val
             : s->kind == PTX_SK_PARAM ? PTX_SYM_PARAM + s->val : PTX_SYM_RET + s->val;
        ptx_ps_next(P);
        while (ptx_ps_is(P, '+') || ptx_ps_is(P, '-')) {
            bool neg = P->t.c == '-';
            ptx_ps_next(P);
            int64_t v = ptx_ps_int(P);
            o->imm = (int64_t)((uint64_t)o->imm + (neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v));
        }
        return;
    case PTX_SK_FUNC:
        if (!(allow & A_FUNC))
            PTX_FAIL(P, "function %s cannot be an operand of '%s'", ptx_ps_tokdesc(P), ptx_ops[in->op].name);
        o->kind = PTX_OK_FUNC;
        o->r = s->val;
        break;
    case PTX_SK_LABEL:
        PTX_FAIL(P, "label %s used as an operand", ptx_ps_tokdesc(P));
    default:
        PTX_FAIL(P, "%s is not a value", ptx_ps_tokdesc(P));
    }
    ptx_ps_next(P);
}

/* One operand; ity types its immediates. */
static void operand(ptx_ps *P, ptx_insn *in, ptx_type ity, unsigned allow, ptx_opnd *o)
{
    memset(o, 0, sizeof *o);
    if (ptx_ps_is(P, '{')) {
        if (!(allow & A_VEC)) PTX_FAIL(P, "unexpected vector operand");
        vec_operand(P, in, ity, allow, o);
        return;
    }
    if (ptx_ps_is(P, '!') && ptx_ps_peek(P)->kind == PTX_TK_ID) {
        if (!(allow & A_NEG)) PTX_FAIL(P, "predicate negation is not allowed here");
        ptx_ps_next(P);
        ident_operand(P, in, A_PRED, o);
        o->flags = PTX_OF_NEG;
        return;
    }
    if (P->t.kind == PTX_TK_ID && !starts_const(P)) {
        ident_operand(P, in, allow, o);
        return;
    }
    if (starts_const(P)) {
        if (!(allow & A_IMM)) {
            if (allow & A_PRED && !(allow & A_REG)) PTX_FAIL(P, "expected a predicate, found %s", ptx_ps_tokdesc(P));
            PTX_FAIL(P, "expected a register, found %s", ptx_ps_tokdesc(P));
        }
        uint32_t line = P->t.line, col = P->t.col;
        ptx_cval v;
        ptx_ps_const(P, &v);
        o->kind = PTX_OK_IMM;
        o->r = -1;
        o->imm = (int64_t)ptx_ps_const_bits(P, &v, ity, line, col);
        return;
    }
    PTX_FAIL(P, "expected an operand, found %s", ptx_ps_tokdesc(P));
}

/* { a, b, ... } into the pool.  Immediates inside are typed once the count
** is known: for mov (packing) by the element width, type size / count. */
static void vec_operand(ptx_ps *P, ptx_insn *in, ptx_type ity, unsigned allow, ptx_opnd *o)
{
    uint32_t line = P->t.line, col = P->t.col;
    ptx_ps_next(P);
    ptx_opnd el[PTX_MAX_OPND];
    ptx_cval cv[PTX_MAX_OPND];
    uint32_t cl[PTX_MAX_OPND], cc[PTX_MAX_OPND];
    unsigned eallow = allow & (A_REG | A_PRED | A_IMM | A_SINK);
    uint32_t n = 0;
    for (;;) {
        if (n == PTX_MAX_OPND) PTX_FAIL(P, "too many vector elements");
        memset(&el[n], 0, sizeof el[n]);
        if (eallow & A_IMM && starts_const(P)) {
            cl[n] = P->t.line;
            cc[n] = P->t.col;
            ptx_ps_const(P, &cv[n]);
            el[n].kind = PTX_OK_IMM;
            el[n].r = -1;
        } else {
            operand(P, in, ity, eallow, &el[n]);
        }
        n++;
        if (ptx_ps_accept(P, '}')) break;
        ptx_ps_expect(P, ',');
    }
    for (uint32_t i = 0; i < n; i++) {
        if (el[i].kind != PTX_OK_IMM) continue;
        ptx_type et = ity;
        if (in->op == PTX_OP_MOV && n > 1 && ptx_type_size((ptx_type)in->type) % n == 0)
            et = bits_type(ptx_type_size((ptx_type)in->type) / n);
        if ((in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4) && i == 0 &&
            (in->m.sub == PTX_SUB_A1D || in->m.sub == PTX_SUB_A2D || in->m.sub == PTX_SUB_ACUBE ||
             in->m.sub == PTX_SUB_A2DMS) && ity == (ptx_type)in->type2)
            et = PTX_T_U32; /* the array index */
        el[i].imm = (int64_t)ptx_ps_const_bits(P, &cv[i], et, cl[i], cc[i]);
    }
    (void)line;
    (void)col;
    o->kind = PTX_OK_VEC;
    o->n = (uint8_t)n;
    o->r = (int32_t)ptx_ps_pool_add(P, el, n);
}

/* [reg], [reg+imm], [sym], [sym+imm], [imm] */
static void addr_operand(ptx_ps *P, ptx_opnd *o)
{
    memset(o, 0, sizeof *o);
    o->kind = PTX_OK_ADDR;
    ptx_ps_expect(P, '[');
    uint64_t pre;
    if (P->t.kind == PTX_TK_ID && !ptx_ps_predef_const(P, &pre)) {
        uint32_t el;
        ptx_sym *s = ptx_ps_lookup(P, P->t.s, P->t.len, &el);
        if (!s) PTX_FAIL(P, "undefined identifier %s", ptx_ps_tokdesc(P));
        switch (s->kind) {
        case PTX_SK_REG: case PTX_SK_REGR:
            o->base = PTX_AB_REG;
            o->r = s->val + (int32_t)(el * s->stride);
            break;
        case PTX_SK_VAR: o->base = PTX_AB_SYM; o->r = s->val; break;
        case PTX_SK_FVAR: o->base = PTX_AB_SYM; o->r = PTX_SYM_FVAR + s->val; break;
        case PTX_SK_PARAM: o->base = PTX_AB_SYM; o->r = PTX_SYM_PARAM + s->val; break;
        case PTX_SK_RET: o->base = PTX_AB_SYM; o->r = PTX_SYM_RET + s->val; break;
        case PTX_SK_PRED: case PTX_SK_PREDR:
            PTX_FAIL(P, "predicate %s cannot be an address", ptx_ps_tokdesc(P));
        default:
            PTX_FAIL(P, "%s cannot be an address", ptx_ps_tokdesc(P));
        }
        ptx_ps_next(P);
        if (ptx_ps_is(P, '+') || ptx_ps_is(P, '-')) {
            bool neg = P->t.c == '-';
            ptx_ps_next(P);
            int64_t v = ptx_ps_int(P);
            o->imm = neg ? (int64_t)((uint64_t)0 - (uint64_t)v) : v;
        }
    } else {
        o->base = PTX_AB_NONE;
        o->r = -1;
        o->imm = ptx_ps_int(P);
    }
    ptx_ps_expect(P, ']');
}

static void push(ptx_ps *P, ptx_insn *in, const ptx_opnd *o)
{
    if (in->nopnd == PTX_MAX_OPND) PTX_FAIL(P, "too many operands");
    in->o[in->nopnd++] = *o;
}

/* [tex, {coords}] or [tex, sampler, {coords}] */
static void tex_operand(ptx_ps *P, ptx_insn *in)
{
    ptx_opnd o;
    ptx_ps_expect(P, '[');
    operand(P, in, PTX_T_U64, A_REG | A_SYM, &o);
    push(P, in, &o);
    ptx_ps_expect(P, ',');
    if (!ptx_ps_is(P, '{')) {
        operand(P, in, PTX_T_U64, A_REG | A_SYM, &o);
        push(P, in, &o);
        ptx_ps_expect(P, ',');
    }
    if (!ptx_ps_is(P, '{')) PTX_FAIL(P, "expected coordinates {..}, found %s", ptx_ps_tokdesc(P));
    bool surf = in->op == PTX_OP_SULD || in->op == PTX_OP_SUST;
    operand(P, in, surf ? PTX_T_S32 : (ptx_type)in->type2, A_REG | A_IMM | A_VEC, &o);
    push(P, in, &o);
    ptx_ps_expect(P, ']');
}

static void label_operand(ptx_ps *P, ptx_insn *in)
{
    if (P->t.kind != PTX_TK_ID) PTX_FAIL(P, "expected a label, found %s", ptx_ps_tokdesc(P));
    ptx_opnd o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OK_LABEL;
    o.r = -1;
    int32_t pc;
    if (ptx_ps_label_ref(P, &P->t, P->insns.n, in->nopnd, &pc)) o.r = pc;
    push(P, in, &o);
    ptx_ps_next(P);
}

/* call[.uni] [(rets),] target [, (args)] [, proto]; */
static void call_operands(ptx_ps *P, ptx_insn *in)
{
    ptx_opnd list[256], o;
    uint32_t n = 0, nret = 0;
    uint32_t line = P->t.line, col = P->t.col;
    if (ptx_ps_is(P, '(')) {
        ptx_ps_next(P);
        while (!ptx_ps_is(P, ')')) {
            if (n) ptx_ps_expect(P, ',');
            if (n == 255) PTX_FAIL(P, "too many call operands");
            operand(P, in, PTX_T_B32, A_REG | A_PRED | A_SYM, &list[n++]);
        }
        ptx_ps_next(P);
        ptx_ps_expect(P, ',');
        nret = n;
    }
    if (P->t.kind != PTX_TK_ID) PTX_FAIL(P, "expected a call target, found %s", ptx_ps_tokdesc(P));
    ptx_tok target = P->t;
    operand(P, in, PTX_T_U64, A_REG | A_FUNC, &o);
    push(P, in, &o);
    bool direct = o.kind == PTX_OK_FUNC;
    const ptx_func *callee = direct ? &P->funcs.a[o.r] : NULL;
    bool has_args = false, has_proto = false;
    while (ptx_ps_accept(P, ',')) {
        if (ptx_ps_is(P, '(') && !has_args && !has_proto) {
            has_args = true;
            ptx_ps_next(P);
            uint32_t k = 0;
            while (!ptx_ps_is(P, ')')) {
                if (k) ptx_ps_expect(P, ',');
                if (n == 255) PTX_FAIL(P, "too many call operands");
                ptx_type at = callee && k < callee->nparams ? (ptx_type)callee->params[k].type : PTX_T_B32;
                operand(P, in, at, A_REG | A_PRED | A_IMM | A_SYM, &list[n++]);
                k++;
            }
            ptx_ps_next(P);
        } else if (P->t.kind == PTX_TK_ID && !has_proto) {
            uint32_t el;
            ptx_sym *s = ptx_ps_lookup(P, P->t.s, P->t.len, &el);
            if (!s || (s->kind != PTX_SK_PROTO && s->kind != PTX_SK_CTARGETS))
                PTX_FAIL(P, "%s is not a .callprototype or .calltargets", ptx_ps_tokdesc(P));
            has_proto = true;
            ptx_ps_next(P);
        } else {
            PTX_FAIL(P, "unexpected %s in call", ptx_ps_tokdesc(P));
        }
    }
    for (uint32_t i = 0; i < n; i++) /* call operands name .param variables or registers */
        if (list[i].kind == PTX_OK_SYM && (list[i].r & PTX_SYM_KIND_MASK) != PTX_SYM_FVAR &&
            (list[i].r & PTX_SYM_KIND_MASK) != PTX_SYM_PARAM && (list[i].r & PTX_SYM_KIND_MASK) != PTX_SYM_RET)
            ptx_ps_fail(P, line, col, "call operands must be .param variables or registers");
    if (!direct && !has_proto)
        ptx_ps_fail(P, target.line, target.col, "indirect call needs a .callprototype or .calltargets");
    if (callee && ((nret && nret != callee->nrets) || n - nret != callee->nparams))
        ptx_ps_fail(P, target.line, target.col,
                    "call of '%s' with %u argument(s) and %u return value(s); it takes %u and %u",
                    callee->name, n - nret, nret, callee->nparams, callee->nrets);
    memset(&o, 0, sizeof o);
    o.kind = PTX_OK_CALL;
    o.n = (uint8_t)n;
    o.imm = nret;
    o.r = n ? (int32_t)ptx_ps_pool_add(P, list, n) : (int32_t)P->pool.n;
    push(P, in, &o);
}

static void bar_red_operands(ptx_ps *P, ptx_insn *in)
{
    ptx_opnd o;
    operand(P, in, (ptx_type)in->type, A_REG | A_PRED, &o);
    push(P, in, &o);
    in->ndst = 1;
    uint32_t k = 0;
    while (ptx_ps_accept(P, ',')) {
        operand(P, in, PTX_T_U32, A_REG | A_IMM | A_PRED | A_NEG, &o);
        push(P, in, &o);
        k++;
    }
    if (k < 2 || k > 3 || in->o[in->nopnd - 1].kind != PTX_OK_PRED)
        PTX_FAIL(P, "bar.red takes d, a, [b,] {!}c");
    for (uint32_t i = 1; i + 1 < in->nopnd; i++)
        if (in->o[i].kind == PTX_OK_PRED) PTX_FAIL(P, "bar.red: predicate where a number is expected");
}

static bool has_neg_vote(const ptx_insn *in, uint32_t rp)
{
    return in->op == PTX_OP_VOTE && rp == 1;
}

static void parse_operands(ptx_ps *P, ibuild *b)
{
    ptx_insn *in = &b->in;
    const char *opn = ptx_ops[in->op].name;
    ptx_opnd o;
    if (in->op == PTX_OP_CALL) {
        call_operands(P, in);
        ptx_ps_expect(P, ';');
        return;
    }
    if (in->op == PTX_OP_BRX) {
        operand(P, in, PTX_T_U32, A_REG | A_IMM, &o);
        push(P, in, &o);
        ptx_ps_expect(P, ',');
        uint32_t el;
        ptx_sym *s = P->t.kind == PTX_TK_ID ? ptx_ps_lookup(P, P->t.s, P->t.len, &el) : NULL;
        if (!s || s->kind != PTX_SK_BTARGETS)
            PTX_FAIL(P, "expected a .branchtargets list, found %s", ptx_ps_tokdesc(P));
        memset(&o, 0, sizeof o);
        o.kind = PTX_OK_VEC;
        o.r = s->val;
        o.n = (uint8_t)s->count;
        push(P, in, &o);
        ptx_ps_next(P);
        ptx_ps_expect(P, ';');
        return;
    }
    if ((in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) && in->m.sub == PTX_SUB_RED) {
        bar_red_operands(P, in);
        ptx_ps_expect(P, ';');
        return;
    }
    const char *roles = ptx_ops[in->op].roles;
    if (in->op == PTX_OP_CVT && (in->type == PTX_T_F16X2 || in->type == PTX_T_BF16X2) &&
        in->type2 == PTX_T_F32)
        roles = "d,s,s";
    /* predicates: where the instruction type is .pred (and.pred, mov.pred,
    ** vote.any.pred's result), setp/testp/isspacep/vote results, vote's
    ** source; elsewhere only through the p roles and the |p halves */
    bool ptype = in->type == PTX_T_PRED && in->op != PTX_OP_VOTE;
    bool pdst = ptype || in->op == PTX_OP_SETP || in->op == PTX_OP_TESTP ||
                in->op == PTX_OP_ISSPACEP || (in->op == PTX_OP_VOTE && in->m.sub != PTX_SUB_BALLOT);
    uint32_t rp = 0;
    for (const char *r = roles; *r; rp++) {
        char c = *r++;
        bool opt = *r == '?';
        if (opt) r++;
        if (*r == ',') r++;
        if (ptx_ps_is(P, ';')) {
            if (opt) break;
            PTX_FAIL(P, "missing operand for '%s'", opn);
        }
        if (rp) ptx_ps_expect(P, ',');
        switch (c) {
        case 'd': case 'D':
            operand(P, in, ptx_ps_imm_type(in, rp), pdst ? A_DST & ~(ptype ? A_REG : 0) : A_DST & ~A_PRED, &o);
            push(P, in, &o);
            in->ndst++;
            if ((c == 'D' || in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4) && ptx_ps_accept(P, '|')) {
                operand(P, in, PTX_T_PRED, A_PRED | A_SINK, &o);
                push(P, in, &o);
                in->ndst++;
            }
            break;
        case 's': {
            unsigned allow = A_SRC;
            if (in->op == PTX_OP_MOV || in->op == PTX_OP_CVTA) allow |= A_SYM | A_FUNC;
            if (has_neg_vote(in, rp)) allow |= A_NEG;
            else if (ptype) allow &= ~(A_REG | A_SREG | A_VEC);
            else allow &= ~A_PRED;
            operand(P, in, ptx_ps_imm_type(in, rp), allow, &o);
            push(P, in, &o);
            break;
        }
        case 'p':
            operand(P, in, PTX_T_PRED, A_PRED | A_NEG, &o);
            push(P, in, &o);
            break;
        case 'a':
            addr_operand(P, &o);
            push(P, in, &o);
            break;
        case 't':
            tex_operand(P, in);
            break;
        case 'l':
            label_operand(P, in);
            break;
        default:
            PTX_FAIL(P, "internal error: role '%c'", c);
        }
    }
    if (in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4) {
        while (ptx_ps_accept(P, ',')) {
            operand(P, in, (ptx_type)in->type2, A_SRC, &o);
            push(P, in, &o);
        }
    }
    if (b->policy && (in->op == PTX_OP_LD || in->op == PTX_OP_ST || in->op == PTX_OP_ATOM ||
                      in->op == PTX_OP_RED || in->op == PTX_OP_PREFETCH)) {
        ptx_ps_expect(P, ',');
        operand(P, in, PTX_T_B64, A_REG | A_IMM, &o); /* the cache policy: checked, dropped */
    }
    if (ptx_ps_is(P, ',')) PTX_FAIL(P, "too many operands for '%s'", opn);
    ptx_ps_expect(P, ';');
}

/* Checks that predicates are where PTX wants them. */
static void check_preds(ptx_ps *P, const ptx_insn *in)
{
    const char *opn = ptx_ops[in->op].name;
    bool pdst = false;
    switch (in->op) {
    case PTX_OP_SETP: case PTX_OP_TESTP: case PTX_OP_ISSPACEP: pdst = true; break;
    case PTX_OP_VOTE:
        pdst = in->m.sub != PTX_SUB_BALLOT;
        if (in->nopnd > 1 && in->o[1].kind != PTX_OK_PRED)
            ptx_ps_fail(P, in->line, in->col, "vote needs a predicate source");
        break;
    default: break;
    }
    for (uint32_t i = 0; i < in->ndst; i++) {
        uint8_t k = in->o[i].kind;
        if (k == PTX_OK_SINK) continue;
        if (pdst && k != PTX_OK_PRED)
            ptx_ps_fail(P, in->line, in->col, "the destination of '%s' must be a predicate", opn);
    }
}

void ptx_ps_insn(ptx_ps *P)
{
    ibuild b;
    memset(&b, 0, sizeof b);
    ptx_insn *in = &b.in;
    in->guard = -1;
    in->m.vec = 1;
    in->line = P->t.line;
    in->col = P->t.col;
    in->srcfile = P->srcfile;
    in->srcline = P->srcline;
    in->hint = P->hint;
    P->hint = 0;
    if (ptx_ps_is(P, '@')) {
        ptx_ps_next(P);
        if (ptx_ps_accept(P, '!')) in->guard_neg = 1;
        if (P->t.kind != PTX_TK_ID) PTX_FAIL(P, "expected a guard predicate, found %s", ptx_ps_tokdesc(P));
        uint32_t el;
        ptx_sym *s = ptx_ps_lookup(P, P->t.s, P->t.len, &el);
        if (!s) PTX_FAIL(P, "undefined predicate %s", ptx_ps_tokdesc(P));
        if (s->kind != PTX_SK_PRED && s->kind != PTX_SK_PREDR)
            PTX_FAIL(P, "guard %s is not a predicate", ptx_ps_tokdesc(P));
        in->guard = s->val + (int32_t)el;
        ptx_ps_next(P);
    }
    if (P->t.kind != PTX_TK_ID) PTX_FAIL(P, "expected an instruction, found %s", ptx_ps_tokdesc(P));
    uint32_t oline = P->t.line, ocol = P->t.col;
    b.name = P->t.s;
    b.namelen = P->t.len;
    ptx_sym *k = ptx_ps_kw_find(P, P->t.s, P->t.len);
    while (k && k->count != PTX_KW_OP && k->count != PTX_KW_UNSUP) k = ptx_ps_kw_other(P, k);
    if (!k || k->count == PTX_KW_UNSUP) {
        bool unsup = k != NULL;
        ptx_ps_next(P);
        while (P->t.kind == PTX_TK_DIR && P->t.adj) {
            b.namelen = (uint32_t)(P->t.s + P->t.len - b.name);
            ptx_ps_next(P);
        }
        ptx_ps_fail(P, oline, ocol, "%s PTX instruction '%.*s'", unsup ? "unsupported" : "unknown",
                    (int)TP_MIN(b.namelen, 200u), b.name);
    }
    in->op = (uint16_t)k->val;
    ptx_ps_next(P);
    if (ptx_op_is_tensor(in->op)) {
        /* wmma, mma, ldmatrix, ...: their own qualifiers (parse_mma.c) */
        ptx_ps_tensor_mods(P, in, b.name, oline, ocol);
        if (!P->t.adj && P->t.kind == PTX_TK_DIR)
            PTX_FAIL(P, "unexpected %s (modifiers must follow the opcode without spaces)", ptx_ps_tokdesc(P));
        parse_operands(P, &b);
        ptx_ps_tensor_opnds(P, in);
        tp_vec_push(&P->insns, *in);
        return;
    }
    parse_mods(P, &b);
    const char *opn = ptx_ops[in->op].name;
    if (op_two_types(in->op)) {
        if (b.ntypes != 2) ptx_ps_fail(P, oline, ocol, "'%s' needs two types", opn);
        in->type = b.types[0];
        in->type2 = b.types[1];
    } else {
        if (b.ntypes == 2)
            ptx_ps_fail(P, oline, ocol, "'%s' takes one type, found .%s and .%s", opn,
                        ptx_types[b.types[0]].name, ptx_types[b.types[1]].name);
        if (b.ntypes == 1) in->type = b.types[0];
        else if (!op_untyped(in->op) ||
                 ((in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) && in->m.sub == PTX_SUB_RED))
            ptx_ps_fail(P, oline, ocol, "missing type for '%.*s'", (int)TP_MIN(b.namelen, 200u), b.name);
    }
    if (!P->t.adj && P->t.kind == PTX_TK_DIR)
        PTX_FAIL(P, "unexpected %s (modifiers must follow the opcode without spaces)", ptx_ps_tokdesc(P));
    parse_operands(P, &b);
    check_preds(P, in);
    tp_vec_push(&P->insns, *in);
    tp_vec_push(&P->calls, P->srccall);
}
