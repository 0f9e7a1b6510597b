/*
** print.c -- instructions back to PTX text (traces, error messages, and the
** parser's round-trip tests).
**
** The text reparses to the same instruction: modifiers are printed from the
** ptx_mods fields, registers and symbols by name, labels by the name they
** were declared with, and immediates in a form that converts back to the
** same bits (floats as 0f/0d bit patterns; f16/bf16 as the 0f pattern of
** their exact f32 value; integers in decimal).  Pure hints (.L2::64B ...)
** and the cache-policy operand were dropped by the parser and do not
** reappear; indirect calls print without their prototype and brx with its
** target list in braces, so those two do not reparse.
*/
#include "parse_int.h"
#include <inttypes.h>
#include <stdio.h>

static const char *const sub_names[PTX_SUB_COUNT] = {
    [PTX_SUB_LO] = "lo", [PTX_SUB_HI] = "hi", [PTX_SUB_WIDE] = "wide",
    [PTX_SUB_ADD] = "add", [PTX_SUB_MIN] = "min", [PTX_SUB_MAX] = "max",
    [PTX_SUB_INC] = "inc", [PTX_SUB_DEC] = "dec", [PTX_SUB_CAS] = "cas",
    [PTX_SUB_EXCH] = "exch", [PTX_SUB_AND] = "and", [PTX_SUB_OR] = "or",
    [PTX_SUB_XOR] = "xor", [PTX_SUB_UP] = "up", [PTX_SUB_DOWN] = "down",
    [PTX_SUB_BFLY] = "bfly", [PTX_SUB_IDX] = "idx", [PTX_SUB_ALL] = "all",
    [PTX_SUB_ANY] = "any", [PTX_SUB_UNI] = "uni", [PTX_SUB_BALLOT] = "ballot",
    [PTX_SUB_SYNC] = "sync", [PTX_SUB_ARRIVE] = "arrive", [PTX_SUB_RED] = "red",
    [PTX_SUB_WARPSYNC] = "warp.sync", [PTX_SUB_F4E] = "f4e", [PTX_SUB_B4E] = "b4e",
    [PTX_SUB_RC8] = "rc8", [PTX_SUB_ECL] = "ecl", [PTX_SUB_ECR] = "ecr",
    [PTX_SUB_RC16] = "rc16", [PTX_SUB_FINITE] = "finite", [PTX_SUB_INFINITE] = "infinite",
    [PTX_SUB_NUMBER] = "number", [PTX_SUB_NOTANUMBER] = "notanumber",
    [PTX_SUB_NORMAL] = "normal", [PTX_SUB_SUBNORMAL] = "subnormal", [PTX_SUB_L] = "l",
    [PTX_SUB_R] = "r", [PTX_SUB_1D] = "1d", [PTX_SUB_2D] = "2d", [PTX_SUB_3D] = "3d",
    [PTX_SUB_A1D] = "a1d", [PTX_SUB_A2D] = "a2d", [PTX_SUB_CUBE] = "cube",
    [PTX_SUB_ACUBE] = "acube", [PTX_SUB_2DMS] = "2dms", [PTX_SUB_A2DMS] = "a2dms",
    [PTX_SUB_COMP_R] = "r", [PTX_SUB_COMP_G] = "g", [PTX_SUB_COMP_B] = "b",
    [PTX_SUB_COMP_A] = "a", [PTX_SUB_Q_WIDTH] = "width", [PTX_SUB_Q_HEIGHT] = "height",
    [PTX_SUB_Q_DEPTH] = "depth", [PTX_SUB_Q_CHANNEL_DATA_TYPE] = "channel_data_type",
    [PTX_SUB_Q_CHANNEL_ORDER] = "channel_order",
    [PTX_SUB_Q_NORMALIZED_COORDS] = "normalized_coords",
    [PTX_SUB_Q_FILTER_MODE] = "filter_mode", [PTX_SUB_Q_ADDR_MODE_0] = "addr_mode_0",
    [PTX_SUB_Q_ADDR_MODE_1] = "addr_mode_1", [PTX_SUB_Q_ADDR_MODE_2] = "addr_mode_2",
    [PTX_SUB_Q_ARRAY_SIZE] = "array_size",
    [PTX_SUB_Q_NUM_MIPMAP_LEVELS] = "num_mipmap_levels",
    [PTX_SUB_Q_NUM_SAMPLES] = "num_samples", [PTX_SUB_LEVEL] = "level",
    [PTX_SUB_GRAD] = "grad",
};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi",
                                        "rpi", "rna", "rs"};
static const char *const cmp_names[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                        "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const bop_names[] = {"", "and", "or", "xor", "popc"};
static const char *const sem_names[] = {"", "weak", "relaxed", "acquire", "release", "acq_rel",
                                        "sc", "volatile", "mmio"};
static const char *const scope_names[] = {"", "cta", "cluster", "gpu", "sys"};
static const char *const cache_names[] = {"", "ca", "cg", "cs", "lu", "cv", "wb", "wt"};
/* PTX_MF_* bits in order */
static const char *const flag_names[] = {"ftz", "sat", "approx", "full", "cc", "uni", "to",
                                         "nc", "shiftamt", "wrap", "clamp", "sync", "aligned",
                                         "relu", "NaN", "xorsign", "abs", "satfinite", "noftz",
                                         "oob", "trap", "zero", "b", "p", "shifted", "unified"};

#define NAME(tab, v) ((unsigned)(v) < TP_ARRAY_LEN(tab) ? tab[v] : "?")

const char *ptx_sym_name(const ptx_module *m, const ptx_func *f, int32_t sym)
{
    uint32_t kind = (uint32_t)sym & PTX_SYM_KIND_MASK, i = (uint32_t)sym & ~PTX_SYM_KIND_MASK;
    if (sym < 0) return "?";
    switch (kind) {
    case 0: return i < m->nvars ? m->vars[i].name : "?";
    case PTX_SYM_FVAR: return f && i < f->nvars ? f->vars[i].name : "?";
    case PTX_SYM_PARAM: return f && i < f->nparams ? f->params[i].name : "?";
    case PTX_SYM_RET: return f && i < f->nrets ? f->rets[i].name : "?";
    case PTX_SYM_FUNC: return i < m->nfuncs ? m->funcs[i].name : "?";
    default: return "?";
    }
}

static const char *label_name(const ptx_module *m, uint32_t pc)
{
    const ptx_modx *mx = (const ptx_modx *)m;
    uint32_t lo = 0, hi = mx->nlabels;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (mx->labels[mid].pc < pc) lo = mid + 1;
        else hi = mid;
    }
    return lo < mx->nlabels && mx->labels[lo].pc == pc ? mx->labels[lo].name : NULL;
}

const char *ptx_label_at(const ptx_module *m, uint32_t pc)
{
    return label_name(m, pc);
}

static uint32_t f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, e = h >> 10 & 0x1f, f = h & 0x3ff;
    if (e == 0x1f) return sign | 0x7f800000u | f << 13;
    if (e == 0) {
        if (!f) return sign;
        int sh = 0;
        while (!(f & 0x400)) {
            f <<= 1;
            sh++;
        }
        return sign | (uint32_t)(127 - 14 - sh) << 23 | (f & 0x3ff) << 13;
    }
    return sign | (e - 15 + 127) << 23 | f << 13;
}

static void put_imm(tp_sbuf *out, int64_t v, ptx_type t)
{
    switch (t) {
    case PTX_T_F32: case PTX_T_TF32:
        tp_sbuf_printf(out, "0f%08" PRIX32, (uint32_t)v);
        return;
    case PTX_T_F64:
        tp_sbuf_printf(out, "0d%016" PRIX64, (uint64_t)v);
        return;
    case PTX_T_F16:
        tp_sbuf_printf(out, "0f%08" PRIX32, f16_to_f32((uint16_t)v));
        return;
    case PTX_T_BF16:
        tp_sbuf_printf(out, "0f%08" PRIX32, (uint32_t)(uint16_t)v << 16);
        return;
    case PTX_T_F16X2: case PTX_T_BF16X2:
        tp_sbuf_printf(out, "0x%08" PRIX32, (uint32_t)v);
        return;
    default:
        tp_sbuf_printf(out, "%" PRId64, v);
        return;
    }
}

static void put_opnd(const ptx_module *m, const ptx_func *f, const ptx_insn *in,
                     const ptx_opnd *o, ptx_type t, tp_sbuf *out);

static void put_vec(const ptx_module *m, const ptx_func *f, const ptx_insn *in,
                    const ptx_opnd *o, ptx_type t, tp_sbuf *out)
{
    tp_sbuf_putc(out, '{');
    for (uint32_t i = 0; i < o->n; i++) {
        if (i) tp_sbuf_puts(out, ", ");
        if (o->r < 0 || (uint32_t)o->r + i >= m->npool) {
            tp_sbuf_puts(out, "?");
            continue;
        }
        ptx_type et = t;
        if (in->op == PTX_OP_MOV && o->n > 1 && ptx_type_size((ptx_type)in->type) % o->n == 0) {
            unsigned sz = ptx_type_size((ptx_type)in->type) / o->n;
            et = sz == 1 ? PTX_T_B8 : sz == 2 ? PTX_T_B16 : sz == 4 ? PTX_T_B32 : PTX_T_B64;
        }
        if ((in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4) && i == 0 && t == (ptx_type)in->type2 &&
            (in->m.sub == PTX_SUB_A1D || in->m.sub == PTX_SUB_A2D || in->m.sub == PTX_SUB_ACUBE ||
             in->m.sub == PTX_SUB_A2DMS))
            et = PTX_T_U32;
        put_opnd(m, f, in, &m->pool[o->r + i], et, out);
    }
    tp_sbuf_putc(out, '}');
}

static void put_opnd(const ptx_module *m, const ptx_func *f, const ptx_insn *in,
                     const ptx_opnd *o, ptx_type t, tp_sbuf *out)
{
    switch (o->kind) {
    case PTX_OK_REG:
        if (f && o->r >= 0 && (uint32_t)o->r < f->nrows) tp_sbuf_puts(out, f->regs[o->r].name);
        else tp_sbuf_printf(out, "%%row%d", o->r);
        return;
    case PTX_OK_PRED:
        if (o->flags & PTX_OF_NEG) tp_sbuf_putc(out, '!');
        if (f && o->r >= 0 && (uint32_t)o->r < f->npreds) tp_sbuf_puts(out, f->preds[o->r].name);
        else tp_sbuf_printf(out, "%%pred%d", o->r);
        return;
    case PTX_OK_IMM:
        put_imm(out, o->imm, t);
        return;
    case PTX_OK_SREG:
        if (o->r < 0 || o->r >= PTX_SR_COUNT) {
            tp_sbuf_puts(out, "%?");
            return;
        }
        tp_sbuf_puts(out, ptx_sreg_names[o->r]);
        if (o->r == PTX_SR_PM) {
            tp_sbuf_printf(out, "%" PRId64 "%s", o->imm & 7, o->imm >= 8 ? "_64" : "");
        } else if (ptx_sreg_family(o->r)) {
            tp_sbuf_printf(out, "%" PRId64, o->imm);
        } else {
            bool xyz = false;
#define X(id, name, c) if (o->r == PTX_SR_##id) xyz = c;
            PTX_SREGS(X)
#undef X
            if (xyz) tp_sbuf_printf(out, ".%c", (char)('x' + (o->imm & 3)));
        }
        return;
    case PTX_OK_SYM:
        tp_sbuf_puts(out, ptx_sym_name(m, f, o->r));
        if (o->imm) tp_sbuf_printf(out, "+%" PRId64, o->imm);
        return;
    case PTX_OK_ADDR:
        tp_sbuf_putc(out, '[');
        if (o->base == PTX_AB_NONE) {
            tp_sbuf_printf(out, "%" PRId64 "]", o->imm);
            return;
        }
        if (o->base == PTX_AB_REG) {
            ptx_opnd r = *o;
            r.kind = PTX_OK_REG;
            put_opnd(m, f, in, &r, t, out);
        } else {
            tp_sbuf_puts(out, ptx_sym_name(m, f, o->r));
        }
        if (o->imm) tp_sbuf_printf(out, "+%" PRId64, o->imm);
        tp_sbuf_putc(out, ']');
        return;
    case PTX_OK_VEC:
        put_vec(m, f, in, o, t, out);
        return;
    case PTX_OK_LABEL: {
        const char *n = o->r >= 0 ? label_name(m, (uint32_t)o->r) : NULL;
        if (n) tp_sbuf_puts(out, n);
        else tp_sbuf_printf(out, "$pc%d", o->r);
        return;
    }
    case PTX_OK_FUNC:
        tp_sbuf_puts(out, o->r >= 0 && (uint32_t)o->r < m->nfuncs ? m->funcs[o->r].name : "?");
        return;
    case PTX_OK_SINK:
        tp_sbuf_putc(out, '_');
        return;
    default:
        tp_sbuf_puts(out, "?");
        return;
    }
}

static void put_mods(const ptx_insn *in, tp_sbuf *out)
{
    const ptx_mods *m = &in->m;
    uint32_t flags = m->flags;
    bool su = in->op == PTX_OP_SULD || in->op == PTX_OP_SUST;
    uint32_t late = su ? (PTX_MF_TRAP | PTX_MF_CLAMP | PTX_MF_ZERO) : 0;
    uint32_t early = PTX_MF_SYNC | PTX_MF_TO | PTX_MF_B | PTX_MF_P;
    if (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) early &= ~PTX_MF_SYNC;
    for (uint32_t b = 0; b < TP_ARRAY_LEN(flag_names); b++)
        if (flags & early & (1u << b)) tp_sbuf_printf(out, ".%s", flag_names[b]);
    if (m->sem) tp_sbuf_printf(out, ".%s", NAME(sem_names, m->sem));
    if (m->scope) {
        if (in->op == PTX_OP_MEMBAR && m->scope == PTX_SCOPE_GPU) tp_sbuf_puts(out, ".gl");
        else tp_sbuf_printf(out, ".%s", NAME(scope_names, m->scope));
    }
    if (m->space && m->space < PTX_SP_COUNT) tp_sbuf_printf(out, ".%s", ptx_space_names[m->space]);
    if (m->cache) tp_sbuf_printf(out, ".%s", NAME(cache_names, m->cache));
    bool tx = in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4;
    if (tx && m->sub2) tp_sbuf_printf(out, ".%s", NAME(sub_names, m->sub2));
    if (m->sub) tp_sbuf_printf(out, ".%s", NAME(sub_names, m->sub));
    if (!tx && m->sub2) tp_sbuf_printf(out, ".%s", NAME(sub_names, m->sub2));
    if (m->cmp) tp_sbuf_printf(out, ".%s", NAME(cmp_names, m->cmp));
    if (m->bop) tp_sbuf_printf(out, ".%s", NAME(bop_names, m->bop));
    if (m->rnd) tp_sbuf_printf(out, ".%s", NAME(rnd_names, m->rnd));
    for (uint32_t b = 0; b < TP_ARRAY_LEN(flag_names); b++)
        if (flags & ~early & ~late & (1u << b)) tp_sbuf_printf(out, ".%s", flag_names[b]);
    if (m->vec > 1) tp_sbuf_printf(out, ".v%u", m->vec);
    if (in->type && in->type < PTX_T_COUNT) tp_sbuf_printf(out, ".%s", ptx_types[in->type].name);
    if (in->type2 && in->type2 < PTX_T_COUNT) tp_sbuf_printf(out, ".%s", ptx_types[in->type2].name);
    for (uint32_t b = 0; b < TP_ARRAY_LEN(flag_names); b++)
        if (flags & late & (1u << b)) tp_sbuf_printf(out, ".%s", flag_names[b]);
}

/* The immediate type of operand i (in o[] order). */
static ptx_type opnd_type(const ptx_insn *in, uint32_t i)
{
    if ((in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) && in->m.sub == PTX_SUB_RED)
        return i == 0 ? (ptx_type)in->type : PTX_T_U32;
    uint32_t rp = in->ndst == 2 && i >= 1 ? i - 1 : i;
    return ptx_ps_imm_type(in, rp);
}

void ptx_insn_print(const ptx_module *m, const ptx_func *f, const ptx_insn *in, tp_sbuf *out)
{
    if (in->op >= PTX_OP_COUNT) {
        tp_sbuf_puts(out, "<bad opcode>");
        return;
    }
    if (in->guard >= 0) {
        ptx_opnd g;
        memset(&g, 0, sizeof g);
        g.kind = PTX_OK_PRED;
        g.r = in->guard;
        tp_sbuf_puts(out, in->guard_neg ? "@!" : "@");
        put_opnd(m, f, in, &g, PTX_T_PRED, out);
        tp_sbuf_putc(out, ' ');
    }
    tp_sbuf_puts(out, ptx_ops[in->op].name);
    if (in->op == PTX_OP_FNEXIT) return;
    if (ptx_op_is_tensor(in->op)) ptx_ps_tensor_print_mods(in, out);
    else put_mods(in, out);
    const char *sep = " ";
    switch (in->op) {
    case PTX_OP_CALL: {
        if (in->nopnd < 2) break;
        const ptx_opnd *c = &in->o[1];
        uint32_t nret = (uint32_t)c->imm;
        const ptx_func *callee = in->o[0].kind == PTX_OK_FUNC && in->o[0].r >= 0 &&
                                 (uint32_t)in->o[0].r < m->nfuncs ? &m->funcs[in->o[0].r] : NULL;
        tp_sbuf_putc(out, ' ');
        if (nret) {
            tp_sbuf_putc(out, '(');
            for (uint32_t i = 0; i < nret && c->r + i < m->npool; i++) {
                if (i) tp_sbuf_puts(out, ", ");
                put_opnd(m, f, in, &m->pool[c->r + i], PTX_T_B32, out);
            }
            tp_sbuf_puts(out, "), ");
        }
        put_opnd(m, f, in, &in->o[0], PTX_T_U64, out);
        if (c->n > nret) {
            tp_sbuf_puts(out, ", (");
            for (uint32_t i = nret; i < c->n && c->r + i < m->npool; i++) {
                uint32_t k = i - nret;
                ptx_type at = callee && k < callee->nparams ? (ptx_type)callee->params[k].type : PTX_T_B32;
                if (i > nret) tp_sbuf_puts(out, ", ");
                put_opnd(m, f, in, &m->pool[c->r + i], at, out);
            }
            tp_sbuf_putc(out, ')');
        }
        tp_sbuf_putc(out, ';');
        return;
    }
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_SULD: case PTX_OP_SUST: {
        uint32_t i = 0;
        bool st = in->op == PTX_OP_SUST;
        bool su = st || in->op == PTX_OP_SULD;
        if (!st) {
            for (; i < in->ndst && i < in->nopnd; i++) {
                tp_sbuf_puts(out, i ? "|" : " ");
                put_opnd(m, f, in, &in->o[i], (ptx_type)in->type, out);
            }
            tp_sbuf_puts(out, ",");
        }
        tp_sbuf_puts(out, " [");
        for (bool first = true; i < in->nopnd; i++) {
            if (!first) tp_sbuf_puts(out, ", ");
            first = false;
            bool coords = in->o[i].kind == PTX_OK_VEC;
            put_opnd(m, f, in, &in->o[i],
                     coords ? (su ? PTX_T_S32 : (ptx_type)in->type2) : PTX_T_U64, out);
            if (coords) {
                i++;
                break;
            }
        }
        tp_sbuf_putc(out, ']');
        for (; i < in->nopnd; i++) {
            tp_sbuf_puts(out, ", ");
            put_opnd(m, f, in, &in->o[i], st ? (ptx_type)in->type : (ptx_type)in->type2, out);
        }
        tp_sbuf_putc(out, ';');
        return;
    }
    default:
        break;
    }
    bool pair = in->ndst == 2;
    for (uint32_t i = 0; i < in->nopnd; i++) {
        tp_sbuf_puts(out, i == 1 && pair ? "|" : sep);
        sep = ", ";
        put_opnd(m, f, in, &in->o[i], opnd_type(in, i), out);
    }
    tp_sbuf_putc(out, ';');
}
