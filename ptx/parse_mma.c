/*
** parse_mma.c -- the qualifiers and operands of the warp-level matrix
** instructions (wmma.load/.store/.mma, mma, ldmatrix, stmatrix, movmatrix),
** and their printing.  Module prefix: ptx_ps_.
**
** These instructions carry more than ptx_mods' ordinary fields: a shape,
** layouts, a fragment, up to four element types (some, .s4 .u4 .b1, are no
** PTX_TYPES type), a count and .trans.  Their qualifiers are read here, in
** any order as the other opcodes' modifiers are, into m.shape, m.tens and
** m.tty (ptx.h):
**   .row/.col      the first is the layout of wmma.load/.store and the a
**                  layout of wmma.mma/mma (PTX_TN_ACOL), the second the b
**                  layout (PTX_TN_BCOL)
**   types          in order: wmma.load/.store, ldmatrix, stmatrix,
**                  movmatrix one (tty[0]); mma four (d, a, b, c); wmma.mma
**                  four, or two (d, c) when a and b are f16
**   .and/.xor .popc   m.sub = PTX_SUB_AND/XOR, m.bop = PTX_BOP_POPC
** .sync and .aligned are mandatory.  ptx_tensor_form then decides whether
** the combination is a form the PTX ISA defines; what tpsim does not
** execute (mma.sp, fp8 types, ...) fails as "unsupported PTX instruction",
** naming it.  After the operands, each fragment must be a vector of as many
** registers of the right width as the form says (a single register where it
** says one).
*/
#include "parse_int.h"
#include <stdio.h>

static bool word_is(const ptx_tok *t, const char *w)
{
    size_t n = strlen(w);
    return t->len == n + 1 && memcmp(t->s + 1, w, n) == 0;
}

/* Fails naming the whole instruction (the rest of its dotted name included). */
TP_NORETURN static void unsupported(ptx_ps *P, uint32_t line, uint32_t col, const char *name, const char *why)
{
    const char *end = name;
    while (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r' && *end != '{' &&
           *end != '[' && *end != ';' && end - name < 200)
        end++;
    ptx_ps_fail(P, line, col, "unsupported PTX instruction '%.*s': %s", (int)(end - name), name, why);
}

static const char *const unsup_words[] = {
    "e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "ue8m0", "ue4m3", "f8f6f4", "b8", "b6x16_p32", "b4x16_p64",
    "sp", "sp::ordered_metadata", "kind::f8f6f4", "kind::mxf4", "kind::mxf4nvf4", "kind::mxf8f6f4",
    "kind::f16", "kind::i8", "block_scale", "scale_vec::1X", "scale_vec::2X", "scale_vec::4X",
    "m16n16", "m8n16", "m16n8",
};

void ptx_ps_tensor_mods(ptx_ps *P, ptx_insn *in, const char *name, uint32_t line, uint32_t col)
{
    ptx_mods *m = &in->m;
    /* wmma: the second word picks the row (wmma.load / wmma.store / wmma.mma) */
    if (strchr(ptx_ops[in->op].name, '.')) {
        const char *base = ptx_ops[in->op].name;
        size_t bl = (size_t)(strchr(base, '.') - base);
        int found = -1;
        if (P->t.kind == PTX_TK_DIR && P->t.adj)
            for (int op = 0; op < PTX_OP_COUNT && found < 0; op++) {
                const char *n = ptx_ops[op].name;
                if (strlen(n) == bl + P->t.len && memcmp(n, base, bl) == 0 && memcmp(n + bl, P->t.s, P->t.len) == 0)
                    found = op;
            }
        if (found < 0) {
            if (P->t.kind == PTX_TK_DIR && P->t.adj) unsupported(P, line, col, name, "no such operation");
            ptx_ps_fail(P, line, col, "'%.*s' needs an operation (.load, .store or .mma)", (int)bl, base);
        }
        in->op = (uint16_t)found;
        ptx_ps_next(P);
    }
    const char *opn = ptx_ops[in->op].name;
    uint32_t nlay = 0, nty = 0, nnum = 0;
    bool frag = false, popc = false;
    uint8_t ty[4] = {0};
    while (P->t.kind == PTX_TK_DIR && P->t.adj) {
        const ptx_tok *t = &P->t;
        uint32_t v;
        int hit = -1;
        if (word_is(t, "sync")) {
            m->flags |= PTX_MF_SYNC;
        } else if (word_is(t, "aligned")) {
            m->flags |= PTX_MF_ALIGNED;
        } else if ((in->op == PTX_OP_WMMA_LOAD || in->op == PTX_OP_WMMA_STORE) && t->len == 2 && !frag &&
                   t->s[1] >= 'a' && t->s[1] <= 'd') {
            m->tens = (uint8_t)(m->tens | (t->s[1] - 'a'));
            frag = true;
        } else if (word_is(t, "row") || word_is(t, "col")) {
            if (nlay == 2) PTX_FAIL(P, "too many layouts for '%s'", opn);
            if (word_is(t, "col")) m->tens |= nlay ? PTX_TN_BCOL : PTX_TN_ACOL;
            nlay++;
        } else if (word_is(t, "satfinite")) {
            m->flags |= PTX_MF_SATFINITE;
        } else if (word_is(t, "trans")) {
            m->tens |= PTX_TN_TRANS;
        } else if (word_is(t, "x1") || word_is(t, "x2") || word_is(t, "x4")) {
            if (nnum++) PTX_FAIL(P, "conflicting count %s", ptx_ps_tokdesc(P));
            m->tens = (uint8_t)(m->tens | (t->s[2] == '1' ? 0 : t->s[2] == '2' ? 1 : 2) << PTX_TN_NUM_SHIFT);
        } else if (word_is(t, "and") || word_is(t, "xor")) {
            if (m->sub) PTX_FAIL(P, "conflicting bit operation %s", ptx_ps_tokdesc(P));
            m->sub = word_is(t, "and") ? PTX_SUB_AND : PTX_SUB_XOR;
        } else if (word_is(t, "popc")) {
            popc = true;
            m->bop = PTX_BOP_POPC;
        } else if (ptx_ps_kw_cat(P, PTX_KW_RND, &v)) {
            if (m->rnd) PTX_FAIL(P, "conflicting rounding modifier %s", ptx_ps_tokdesc(P));
            m->rnd = (uint8_t)v;
        } else if (ptx_ps_kw_cat(P, PTX_KW_SPACE, &v)) {
            if (in->op == PTX_OP_WMMA_MMA || in->op == PTX_OP_MMA || in->op == PTX_OP_MOVMATRIX)
                PTX_FAIL(P, "modifier %s is not valid for '%s'", ptx_ps_tokdesc(P), opn);
            if (m->space) PTX_FAIL(P, "conflicting state space modifier %s", ptx_ps_tokdesc(P));
            m->space = (uint8_t)v;
        } else {
            for (int i = 1; i < PTX_SH_COUNT && hit < 0; i++)
                if (word_is(t, ptx_shapes[i].name)) hit = i;
            if (hit >= 0) {
                if (m->shape) PTX_FAIL(P, "conflicting shape %s", ptx_ps_tokdesc(P));
                m->shape = (uint8_t)hit;
            } else {
                for (int i = 1; i < PTX_TT_COUNT && hit < 0; i++)
                    if (word_is(t, ptx_ttypes[i].name)) hit = i;
                if (hit >= 0) {
                    if (nty == 4) PTX_FAIL(P, "too many types for '%s'", opn);
                    ty[nty++] = (uint8_t)hit;
                } else {
                    for (uint32_t i = 0; i < TP_ARRAY_LEN(unsup_words); i++)
                        if (word_is(t, unsup_words[i])) unsupported(P, line, col, name, "tpsim does not execute this form");
                    if (t->len > 3 && t->s[1] == 'm' && t->s[2] >= '0' && t->s[2] <= '9')
                        unsupported(P, line, col, name, "no such shape for this instruction");
                    PTX_FAIL(P, "modifier %s is not valid for '%s'", ptx_ps_tokdesc(P), opn);
                }
            }
        }
        ptx_ps_next(P);
    }
    /* what every form needs */
    if (!(m->flags & PTX_MF_SYNC) || !(m->flags & PTX_MF_ALIGNED))
        ptx_ps_fail(P, line, col, "'%s' needs .sync.aligned", opn);
    if (!m->shape) ptx_ps_fail(P, line, col, "'%s' needs a shape (.m16n16k16, ...)", opn);
    if (m->sub && !popc) ptx_ps_fail(P, line, col, "'%s': .and/.xor needs .popc", opn);
    if (popc && !m->sub) ptx_ps_fail(P, line, col, "'%s': .popc needs .and or .xor", opn);
    uint32_t want_lay = 0, want_ty = 1;
    switch (in->op) {
    case PTX_OP_WMMA_LOAD:
    case PTX_OP_WMMA_STORE:
        if (!frag) ptx_ps_fail(P, line, col, "'%s' needs a fragment (%s)", opn,
                               in->op == PTX_OP_WMMA_LOAD ? ".a, .b or .c" : ".d");
        want_lay = 1;
        break;
    case PTX_OP_WMMA_MMA:
        want_lay = 2;
        want_ty = nty == 2 ? 2 : 4;
        break;
    case PTX_OP_MMA: want_lay = 2; want_ty = 4; break;
    case PTX_OP_LDMATRIX:
    case PTX_OP_STMATRIX:
        if (!nnum) ptx_ps_fail(P, line, col, "'%s' needs a count (.x1, .x2 or .x4)", opn);
        break;
    default: break;
    }
    if (nlay != want_lay)
        ptx_ps_fail(P, line, col, "'%s' needs %u layout%s (.row or .col), found %u", opn, want_lay,
                    want_lay == 1 ? "" : "s", nlay);
    if (nty != want_ty) ptx_ps_fail(P, line, col, "'%s' needs %u type%s, found %u", opn, want_ty, want_ty == 1 ? "" : "s", nty);
    if (in->op == PTX_OP_WMMA_MMA && nty == 2) {
        m->tty[0] = ty[0];
        m->tty[1] = m->tty[2] = PTX_TT_F16;
        m->tty[3] = ty[1];
    } else {
        memcpy(m->tty, ty, sizeof m->tty);
    }
    if (m->space == PTX_SP_SHARED_CLUSTER) ptx_ps_fail(P, line, col, "'%s': .shared::cluster is not a valid state space here", opn);
    ptx_tform f;
    const char *why = ptx_tensor_form(in, &f);
    if (why) unsupported(P, line, col, name, why);
}

/* The element type of operand rp's vector (immediates in it take this type). */
ptx_type ptx_ps_tensor_imm_type(const ptx_insn *in, uint32_t rp)
{
    int t = PTX_TT_NONE;
    switch (in->op) {
    case PTX_OP_WMMA_LOAD: if (rp == 2) return PTX_T_U32; t = in->m.tty[0]; break;
    case PTX_OP_WMMA_STORE: if (rp != 1) return PTX_T_U32; t = in->m.tty[0]; break;
    case PTX_OP_WMMA_MMA: case PTX_OP_MMA: t = rp < 4 ? in->m.tty[rp] : 0; break;
    default: return PTX_T_B32;
    }
    switch (t) {
    case PTX_TT_F32: case PTX_TT_TF32: return PTX_T_F32;
    case PTX_TT_F64: return PTX_T_F64;
    case PTX_TT_S32: return PTX_T_S32;
    default: return PTX_T_B32;
    }
}

void ptx_ps_tensor_opnds(ptx_ps *P, const ptx_insn *in)
{
    ptx_tform f;
    if (ptx_tensor_form(in, &f)) return; /* checked before the operands */
    static const char *const names[4] = {"d", "a", "b", "c"};
    int8_t pos[4] = {-1, -1, -1, -1}; /* operand index of fragment d, a, b, c */
    switch (in->op) {
    case PTX_OP_WMMA_LOAD: case PTX_OP_LDMATRIX: pos[0] = 0; break;
    case PTX_OP_WMMA_STORE: case PTX_OP_STMATRIX: pos[0] = 1; break;
    case PTX_OP_MOVMATRIX: pos[0] = 0; pos[1] = 1; break;
    default: pos[0] = 0; pos[1] = 1; pos[2] = 2; pos[3] = 3; break;
    }
    const char *opn = ptx_ops[in->op].name;
    for (int i = 0; i < 4; i++) {
        if (pos[i] < 0 || pos[i] >= in->nopnd) continue;
        const ptx_opnd *o = &in->o[pos[i]];
        const ptx_opnd *el = o;
        uint32_t n = 1;
        if (o->kind == PTX_OK_VEC) {
            el = &P->pool.a[o->r];
            n = o->n;
        }
        bool dst = pos[i] < in->ndst;
        if (n != f.regs[i])
            ptx_ps_fail(P, in->line, in->col, "'%s': fragment %s has %u register%s, this form needs %u", opn,
                        in->op == PTX_OP_WMMA_LOAD || in->op == PTX_OP_WMMA_STORE || in->op == PTX_OP_LDMATRIX ||
                                in->op == PTX_OP_STMATRIX ? "operand" : names[i],
                        n, n == 1 ? "" : "s", f.regs[i]);
        for (uint32_t k = 0; k < n; k++) {
            const ptx_opnd *e = &el[k];
            if (e->kind == PTX_OK_IMM && !dst) continue;
            if (e->kind != PTX_OK_REG)
                ptx_ps_fail(P, in->line, in->col, "'%s': fragment elements must be registers", opn);
            unsigned sz = ptx_type_size((ptx_type)P->regs.a[e->r].type);
            if (sz != f.rbytes[i])
                ptx_ps_fail(P, in->line, in->col, "'%s': fragment register %s is %u bits wide, this form needs %u",
                            opn, P->regs.a[e->r].name, sz * 8, f.rbytes[i] * 8u);
        }
    }
}

static const char *const rnd_words[] = {"", "rn", "rz", "rm", "rp"};

void ptx_ps_tensor_print_mods(const ptx_insn *in, tp_sbuf *out)
{
    const ptx_mods *m = &in->m;
    const char *lay_a = (m->tens & PTX_TN_ACOL) ? ".col" : ".row", *lay_b = (m->tens & PTX_TN_BCOL) ? ".col" : ".row";
    const char *shape = m->shape < PTX_SH_COUNT ? ptx_shapes[m->shape].name : "?";
    const char *bit = m->sub == PTX_SUB_AND ? ".and.popc" : m->sub == PTX_SUB_XOR ? ".xor.popc" : "";
    const char *space = m->space && m->space < PTX_SP_COUNT ? ptx_space_names[m->space] : NULL;
    const char *rnd = m->rnd < TP_ARRAY_LEN(rnd_words) ? rnd_words[m->rnd] : "";
#define TY(i) (m->tty[i] < PTX_TT_COUNT ? ptx_ttypes[m->tty[i]].name : "?")
    switch (in->op) {
    case PTX_OP_WMMA_LOAD:
    case PTX_OP_WMMA_STORE:
        tp_sbuf_printf(out, ".%c.sync.aligned%s.%s", 'a' + (m->tens & PTX_TN_FRAG), lay_a, shape);
        if (space) tp_sbuf_printf(out, ".%s", space);
        tp_sbuf_printf(out, ".%s", TY(0));
        break;
    case PTX_OP_WMMA_MMA:
        tp_sbuf_printf(out, "%s.sync.aligned%s%s.%s", bit, lay_a, lay_b, shape);
        if (m->tty[1] == PTX_TT_F16) tp_sbuf_printf(out, ".%s.%s", TY(0), TY(3));
        else tp_sbuf_printf(out, ".%s.%s.%s.%s", TY(0), TY(1), TY(2), TY(3));
        if (*rnd) tp_sbuf_printf(out, ".%s", rnd);
        if (m->flags & PTX_MF_SATFINITE) tp_sbuf_puts(out, ".satfinite");
        break;
    case PTX_OP_MMA:
        tp_sbuf_printf(out, ".sync.aligned.%s%s%s", shape, lay_a, lay_b);
        if (m->flags & PTX_MF_SATFINITE) tp_sbuf_puts(out, ".satfinite");
        if (*rnd) tp_sbuf_printf(out, ".%s", rnd);
        tp_sbuf_printf(out, ".%s.%s.%s.%s%s", TY(0), TY(1), TY(2), TY(3), bit);
        break;
    default: /* ldmatrix, stmatrix, movmatrix */
        tp_sbuf_printf(out, ".sync.aligned.%s", shape);
        if (in->op != PTX_OP_MOVMATRIX) tp_sbuf_printf(out, ".x%u", 1u << (m->tens >> PTX_TN_NUM_SHIFT & 3));
        if (m->tens & PTX_TN_TRANS) tp_sbuf_puts(out, ".trans");
        if (space) tp_sbuf_printf(out, ".%s", space);
        tp_sbuf_printf(out, ".%s", TY(0));
        break;
    }
#undef TY
}
