/* test_ptx_cfg.c -- control-flow graphs and post-dominators on hand-written
** PTX; the printer round trip (print every instruction of the fixtures,
** reparse, compare); robustness (truncated and garbled input never crash). */
#include "tests/unit/tt.h"
#include "ptx/ptx.h"
#include "ptx/parse_int.h" /* label names, for the round trip */

static tp_err err;

static ptx_module *parse(const char *text)
{
    tp_err_clear(&err);
    return ptx_parse(text, strlen(text), "t.ptx", &err);
}

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"
#define REGS " .reg .pred %p<4>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"

/* Block containing pc. */
static int block_of(const ptx_func *f, uint32_t pc)
{
    for (uint32_t b = 0; b < f->nblocks; b++)
        if (pc >= f->blocks[b].start && pc < f->blocks[b].end) return (int)b;
    return -1;
}

static void t_cfg_if_else(void)
{
    ptx_module *m = parse(HEAD ".entry k()\n{\n" REGS
                          " setp.lt.s32 %p1, %r1, 0;\n"   /* 0 */
                          " @%p1 bra ELSE;\n"             /* 1 */
                          " add.s32 %r2, %r1, 1;\n"       /* 2 */
                          " bra.uni JOIN;\n"              /* 3 */
                          "ELSE:\n sub.s32 %r2, %r1, 1;\n" /* 4 */
                          "JOIN:\n st.global.u32 [%rd1], %r2;\n" /* 5 */
                          " ret;\n}\n");                  /* 6, FNEXIT 7 */
    if (!m) printf("    %s\n", err.msg);
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *f = &m->funcs[0];
    uint32_t s = f->start;
    TT_EQ_U(f->nblocks, 5);
    static const uint32_t starts[] = {0, 2, 4, 5, 7};
    for (int b = 0; b < 5; b++) TT_EQ_U(f->blocks[b].start, s + starts[b]);
    TT_EQ_I(f->blocks[0].succ[0], 2); /* taken first */
    TT_EQ_I(f->blocks[0].succ[1], 1);
    TT_EQ_I(f->blocks[1].succ[0], 3);
    TT_EQ_I(f->blocks[1].succ[1], -1);
    TT_EQ_I(f->blocks[3].succ[0], 4);
    TT_EQ_U(f->blocks[3].npreds, 2);
    TT_EQ_U(f->blocks[3].preds[0], 1);
    TT_EQ_U(f->blocks[3].preds[1], 2);
    TT_EQ_I(f->blocks[0].ipdom, 3);
    TT_EQ_I(f->blocks[1].ipdom, 3);
    TT_EQ_I(f->blocks[2].ipdom, 3);
    TT_EQ_I(f->blocks[3].ipdom, 4);
    TT_EQ_I(f->blocks[4].ipdom, -1);
    TT_EQ_U(m->insns[s + 1].rpc, s + 5);
    TT_EQ_U(m->insns[s + 3].rpc, s + 5);
    TT_EQ_U(m->insns[s + 6].rpc, s + 7);
    ptx_module_free(m);
}

static void t_cfg_nested_if(void)
{
    ptx_module *m = parse(HEAD ".entry k()\n{\n" REGS
                          " @%p1 bra OUT;\n"       /* 0 */
                          " add.s32 %r1, %r1, 1;\n" /* 1 */
                          " @%p2 bra IN;\n"        /* 2 */
                          " add.s32 %r1, %r1, 2;\n" /* 3 */
                          "IN:\n add.s32 %r1, %r1, 3;\n" /* 4 */
                          "OUT:\n ret;\n}\n");     /* 5, FNEXIT 6 */
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *f = &m->funcs[0];
    uint32_t s = f->start;
    TT_EQ_U(m->insns[s + 0].rpc, s + 5);
    TT_EQ_U(m->insns[s + 2].rpc, s + 4);
    TT_EQ_I(f->blocks[block_of(f, s + 2)].ipdom, block_of(f, s + 4));
    ptx_module_free(m);
}

static void t_cfg_loop_break_continue(void)
{
    ptx_module *m = parse(HEAD ".entry k()\n{\n" REGS
                          " mov.u32 %r1, 0;\n"             /* 0  B0 */
                          "LOOP:\n setp.ge.s32 %p1, %r1, 10;\n" /* 1  B1 */
                          " @%p1 bra DONE;\n"              /* 2 */
                          " and.b32 %r2, %r1, 1;\n"        /* 3  B2 */
                          " setp.eq.s32 %p2, %r2, 0;\n"    /* 4 */
                          " @%p2 bra CONT;\n"              /* 5  continue */
                          " setp.eq.s32 %p3, %r1, 7;\n"    /* 6  B3 */
                          " @%p3 bra DONE;\n"              /* 7  break */
                          " add.s32 %r3, %r3, %r1;\n"      /* 8  B4 */
                          "CONT:\n add.s32 %r1, %r1, 1;\n" /* 9  B5 */
                          " bra.uni LOOP;\n"               /* 10 */
                          "DONE:\n st.global.u32 [%rd1], %r3;\n" /* 11 B6 */
                          " ret;\n}\n");                   /* 12, FNEXIT 13 */
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *f = &m->funcs[0];
    uint32_t s = f->start;
    TT_EQ_U(f->nblocks, 8);
    /* every path leaves through DONE: it post-dominates the loop's branches */
    TT_EQ_U(m->insns[s + 2].rpc, s + 11);
    TT_EQ_U(m->insns[s + 5].rpc, s + 11);
    TT_EQ_U(m->insns[s + 7].rpc, s + 11);
    /* the back edge reconverges at the loop head */
    TT_EQ_U(m->insns[s + 10].rpc, s + 1);
    TT_EQ_I(f->blocks[block_of(f, s + 8)].ipdom, block_of(f, s + 9));
    TT_EQ_I(f->blocks[block_of(f, s + 9)].ipdom, block_of(f, s + 1));
    TT_EQ_I(f->blocks[0].ipdom, 1);
    /* the head has two predecessors: entry and back edge */
    TT_EQ_U(f->blocks[1].npreds, 2);
    ptx_module_free(m);
}

static void t_cfg_early_return(void)
{
    ptx_module *m = parse(HEAD ".entry k()\n{\n" REGS
                          " @%p1 bra SKIP;\n"       /* 0 B0 */
                          " ret;\n"                 /* 1 B1 */
                          "SKIP:\n add.s32 %r1, %r1, 1;\n" /* 2 B2 */
                          " @%p2 ret;\n"            /* 3 */
                          " add.s32 %r1, %r1, 2;\n" /* 4 B3 */
                          " exit;\n}\n");           /* 5, FNEXIT 6 */
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *f = &m->funcs[0];
    uint32_t s = f->start, x = f->end - 1;
    TT_EQ_U(x, s + 6);
    TT_EQ_U(m->insns[s + 0].rpc, x);
    TT_EQ_U(m->insns[s + 1].rpc, x);
    TT_EQ_U(m->insns[s + 3].rpc, x);
    TT_EQ_U(m->insns[s + 5].rpc, x);
    const ptx_block *b2 = &f->blocks[block_of(f, s + 3)];
    TT_EQ_I(b2->succ[0], (int)f->nblocks - 1); /* @p ret: to FNEXIT and on */
    TT_EQ_I(b2->succ[1], block_of(f, s + 4));
    TT_EQ_U(f->blocks[f->nblocks - 1].npreds, 3);
    TT_EQ_U(f->blocks[f->nblocks - 1].start, x);
    TT_EQ_U(f->blocks[f->nblocks - 1].end, x + 1);
    ptx_module_free(m);
}

static void t_cfg_switch_chain(void)
{
    ptx_module *m = parse(HEAD ".entry k()\n{\n" REGS
                          " setp.eq.s32 %p1, %r1, 0;\n" /* 0 */
                          " @%p1 bra C0;\n"             /* 1 */
                          " setp.eq.s32 %p2, %r1, 1;\n" /* 2 */
                          " @%p2 bra C1;\n"             /* 3 */
                          " mov.u32 %r2, 9;\n"          /* 4 */
                          " bra.uni END;\n"             /* 5 */
                          "C0:\n mov.u32 %r2, 5;\n"     /* 6 */
                          " bra.uni END;\n"             /* 7 */
                          "C1:\n mov.u32 %r2, 7;\n"     /* 8 */
                          "END:\n st.global.u32 [%rd1], %r2;\n" /* 9 */
                          " ret;\n}\n");
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *f = &m->funcs[0];
    uint32_t s = f->start;
    TT_EQ_U(m->insns[s + 1].rpc, s + 9);
    TT_EQ_U(m->insns[s + 3].rpc, s + 9);
    TT_EQ_U(m->insns[s + 5].rpc, s + 9);
    TT_EQ_U(m->insns[s + 7].rpc, s + 9);
    TT_EQ_U(f->blocks[block_of(f, s + 9)].npreds, 3);
    ptx_module_free(m);
}

static void t_cfg_infinite_loop(void)
{
    ptx_module *m = parse(HEAD ".entry k()\n{\n" REGS
                          " @%p1 bra SPIN;\n"          /* 0 */
                          " ret;\n"                    /* 1 */
                          "SPIN:\n add.s32 %r1, %r1, 1;\n" /* 2 */
                          " bra.uni SPIN;\n}\n");      /* 3, FNEXIT 4 */
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *f = &m->funcs[0];
    uint32_t s = f->start;
    int spin = block_of(f, s + 2);
    TT_EQ_I(f->blocks[spin].ipdom, -1);       /* cannot reach the exit */
    TT_EQ_U(m->insns[s + 3].rpc, s + 4);       /* so: the FNEXIT pc */
    TT_EQ_I(f->blocks[spin].succ[0], spin);
    /* the branch into the loop: only the other side reaches the exit */
    TT_EQ_U(m->insns[s + 0].rpc, s + 1);
    ptx_module_free(m);
}

static void t_cfg_brx(void)
{
    ptx_module *m = parse(HEAD ".entry k()\n{\n" REGS
                          " ts: .branchtargets A, B, A;\n"
                          " brx.idx %r1, ts;\n"       /* 0 */
                          "A:\n mov.u32 %r2, 1;\n"    /* 1 */
                          " bra.uni J;\n"             /* 2 */
                          "B:\n mov.u32 %r2, 2;\n"    /* 3 */
                          "J:\n ret;\n}\n");          /* 4 */
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *f = &m->funcs[0];
    uint32_t s = f->start;
    const ptx_block *b0 = &f->blocks[0];
    TT_EQ_I(b0->succ[0], block_of(f, s + 1));
    TT_EQ_I(b0->succ[1], block_of(f, s + 3));
    TT_EQ_U(m->insns[s].rpc, s + 4);
    TT_EQ_U(f->blocks[block_of(f, s + 1)].npreds, 1); /* A listed twice: one edge */
    ptx_module_free(m);
}

static void t_cfg_calls_do_not_split(void)
{
    ptx_module *m = parse(HEAD ".func g()\n{\n ret;\n}\n.entry k()\n{\n" REGS
                          " add.s32 %r1, %r1, 1;\n call.uni g;\n add.s32 %r1, %r1, 1;\n ret;\n}\n");
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *f = &m->funcs[ptx_find_func(m, "k")];
    TT_EQ_U(f->nblocks, 2);
    const ptx_func *g = &m->funcs[ptx_find_func(m, "g")];
    TT_EQ_U(g->nblocks, 2);
    TT_EQ_U(m->insns[g->start].rpc, g->start + 1);
    ptx_module_free(m);
}

/* ---- round trip ------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
    fclose(f);
    b[n] = 0;
    *len = (size_t)n;
    return b;
}

static void put_param(tp_sbuf *sb, const ptx_param *p)
{
    unsigned ts = ptx_type_size((ptx_type)p->type);
    if (p->size == ts) tp_sbuf_printf(sb, ".param .align %u .%s %s", p->align, ptx_types[p->type].name, p->name);
    else tp_sbuf_printf(sb, ".param .align %u .%s %s[%u]", p->align, ptx_types[p->type].name, p->name, p->size / ts);
}

static void put_header(tp_sbuf *sb, const ptx_func *f, bool body)
{
    tp_sbuf_puts(sb, f->is_entry ? ".entry " : ".func ");
    if (!f->is_entry && f->nrets) {
        tp_sbuf_putc(sb, '(');
        for (uint32_t i = 0; i < f->nrets; i++) {
            if (i) tp_sbuf_puts(sb, ", ");
            put_param(sb, &f->rets[i]);
        }
        tp_sbuf_puts(sb, ") ");
    }
    tp_sbuf_printf(sb, "%s(", f->name);
    for (uint32_t i = 0; i < f->nparams; i++) {
        if (i) tp_sbuf_puts(sb, ", ");
        put_param(sb, &f->params[i]);
    }
    tp_sbuf_puts(sb, body ? ")\n" : ");\n");
}

static bool seen_name(const char **names, uint32_t n, const char *s)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return true;
    return false;
}

/* A module text holding f's instructions, printed. */
static char *wrap(const ptx_module *m, const ptx_func *f, uint32_t *nskip)
{
    const ptx_modx *mx = (const ptx_modx *)m;
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    tp_sbuf_printf(&sb, ".version 9.0\n.target sm_%u\n.address_size 64\n", m->target_sm);
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        tp_sbuf_printf(&sb, "%s.%s .align %u .b8 %s[%llu];\n", v->is_extern ? ".extern " : "",
                       ptx_space_names[v->space], v->align, v->name,
                       (unsigned long long)(v->size ? v->size : 1));
    }
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (&m->funcs[i] != f) put_header(&sb, &m->funcs[i], false);
    put_header(&sb, f, true);
    tp_sbuf_puts(&sb, "{\n");
    const char **names = malloc((f->nrows + f->npreds + f->nvars + 1) * sizeof *names);
    uint32_t nn = 0;
    for (uint32_t r = 0; r < f->nrows; r++) {
        if (f->regs[r].cont || seen_name(names, nn, f->regs[r].name)) continue;
        names[nn++] = f->regs[r].name;
        tp_sbuf_printf(&sb, " .reg .%s %s;\n", ptx_types[f->regs[r].type].name, f->regs[r].name);
    }
    for (uint32_t r = 0; r < f->npreds; r++) {
        if (seen_name(names, nn, f->preds[r].name)) continue;
        names[nn++] = f->preds[r].name;
        tp_sbuf_printf(&sb, " .reg .pred %s;\n", f->preds[r].name);
    }
    for (uint32_t i = 0; i < f->nvars; i++) {
        const ptx_var *v = &f->vars[i];
        if (seen_name(names, nn, v->name)) continue;
        names[nn++] = v->name;
        tp_sbuf_printf(&sb, " .%s .align %u .b8 %s[%llu];\n", ptx_space_names[v->space], v->align,
                       v->name, (unsigned long long)(v->size ? v->size : 1));
    }
    free(names);
    tp_sbuf tmp;
    tp_sbuf_init(&tmp);
    uint32_t li = 0;
    *nskip = 0;
    for (uint32_t pc = f->start; pc < f->end; pc++) {
        while (li < mx->nlabels && mx->labels[li].pc < pc) li++;
        for (uint32_t j = li; j < mx->nlabels && mx->labels[j].pc == pc; j++)
            tp_sbuf_printf(&sb, "%s:\n", mx->labels[j].name);
        const ptx_insn *in = &m->insns[pc];
        if (in->op == PTX_OP_FNEXIT) break;
        tp_sbuf_reset(&tmp);
        ptx_insn_print(m, f, in, &tmp);
        bool skip = (in->op == PTX_OP_CALL && in->o[0].kind != PTX_OK_FUNC) || in->op == PTX_OP_BRX;
        if (skip) { /* not reparsable: keep the pc numbering with a filler */
            tp_sbuf_puts(&sb, " brkpt;\n");
            ++*nskip;
        } else {
            tp_sbuf_printf(&sb, " %s\n", tp_sbuf_str(&tmp));
        }
    }
    tp_sbuf_free(&tmp);
    tp_sbuf_puts(&sb, "}\n");
    return tp_sbuf_take(&sb);
}

static const char *rname(const ptx_func *f, const ptx_opnd *o)
{
    if (o->kind == PTX_OK_REG) return o->r >= 0 && (uint32_t)o->r < f->nrows ? f->regs[o->r].name : "?";
    return o->r >= 0 && (uint32_t)o->r < f->npreds ? f->preds[o->r].name : "?";
}

static bool same_opnd(const ptx_module *a, const ptx_func *fa, const ptx_opnd *x, const ptx_module *b,
                      const ptx_func *fb, const ptx_opnd *y)
{
    if (x->kind != y->kind || x->n != y->n || x->flags != y->flags || x->base != y->base ||
        x->imm != y->imm)
        return false;
    switch (x->kind) {
    case PTX_OK_REG: case PTX_OK_PRED:
        return strcmp(rname(fa, x), rname(fb, y)) == 0;
    case PTX_OK_ADDR:
        if (x->base == PTX_AB_REG) {
            ptx_opnd rx = *x, ry = *y;
            rx.kind = ry.kind = PTX_OK_REG;
            return strcmp(rname(fa, &rx), rname(fb, &ry)) == 0;
        }
        if (x->base == PTX_AB_SYM) return strcmp(ptx_sym_name(a, fa, x->r), ptx_sym_name(b, fb, y->r)) == 0;
        return true;
    case PTX_OK_SYM:
        return strcmp(ptx_sym_name(a, fa, x->r), ptx_sym_name(b, fb, y->r)) == 0;
    case PTX_OK_LABEL:
        return x->r - (int32_t)fa->start == y->r - (int32_t)fb->start;
    case PTX_OK_FUNC:
        return strcmp(a->funcs[x->r].name, b->funcs[y->r].name) == 0;
    case PTX_OK_VEC: case PTX_OK_CALL:
        for (uint32_t i = 0; i < x->n; i++)
            if (!same_opnd(a, fa, &a->pool[x->r + i], b, fb, &b->pool[y->r + i])) return false;
        return true;
    default:
        return x->r == y->r;
    }
}

static void roundtrip_file(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/ptx/%s", name);
    size_t len;
    char *text = slurp(path, &len);
    TT_CHECK(text != NULL);
    if (!text) return;
    tp_err_clear(&err);
    ptx_module *m = ptx_parse(text, len, path, &err);
    free(text);
    TT_CHECK(m != NULL);
    if (!m) return;
    uint32_t compared = 0, expected = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func *f = &m->funcs[fi];
        if (f->is_decl) continue;
        uint32_t nskip;
        char *w = wrap(m, f, &nskip);
        expected += f->end - f->start - 1 - nskip;
        tp_err_clear(&err);
        ptx_module *m2 = ptx_parse(w, strlen(w), "roundtrip.ptx", &err);
        tt_nchecks++;
        if (!m2) {
            tt_fail_msg(__FILE__, __LINE__, "%s %s: %s", name, f->name, err.msg);
            free(w);
            continue;
        }
        const ptx_func *g = &m2->funcs[ptx_find_func(m2, f->name)];
        TT_EQ_U(g->end - g->start, f->end - f->start);
        tp_sbuf s1;
        tp_sbuf_init(&s1);
        for (uint32_t i = 0; i + 1 < f->end - f->start && i + 1 < g->end - g->start; i++) {
            const ptx_insn *x = &m->insns[f->start + i], *y = &m2->insns[g->start + i];
            if ((x->op == PTX_OP_CALL && x->o[0].kind != PTX_OK_FUNC) || x->op == PTX_OP_BRX) continue;
            bool ok = x->op == y->op && x->type == y->type && x->type2 == y->type2 &&
                      memcmp(&x->m, &y->m, sizeof x->m) == 0 && x->nopnd == y->nopnd &&
                      x->ndst == y->ndst && x->guard_neg == y->guard_neg &&
                      (x->guard < 0) == (y->guard < 0) &&
                      (x->rpc == 0 ? y->rpc == 0 : x->rpc - f->start == y->rpc - g->start);
            if (ok && x->guard >= 0) {
                ptx_opnd gx = {PTX_OK_PRED, 0, 0, 0, x->guard, 0}, gy = {PTX_OK_PRED, 0, 0, 0, y->guard, 0};
                ok = same_opnd(m, f, &gx, m2, g, &gy);
            }
            for (uint32_t k = 0; ok && k < x->nopnd; k++) ok = same_opnd(m, f, &x->o[k], m2, g, &y->o[k]);
            tt_nchecks++;
            compared++;
            if (!ok) {
                tp_sbuf_reset(&s1);
                ptx_insn_print(m, f, x, &s1);
                tt_fail_msg(__FILE__, __LINE__, "%s: '%s' does not reparse the same", name, tp_sbuf_str(&s1));
            }
        }
        tp_sbuf_free(&s1);
        ptx_module_free(m2);
        free(w);
    }
    TT_EQ_U(compared, expected);
    TT_CHECK(compared >= 20);
    ptx_module_free(m);
}

static void t_roundtrip(void)
{
    roundtrip_file("basic.sm_75.ptx");
    roundtrip_file("half.sm_80.ptx");
    roundtrip_file("half.sm_90.ptx");
    roundtrip_file("globals.sm_75.ptx");
    roundtrip_file("tex.sm_75.ptx");
    roundtrip_file("debug.sm_75.ptx");
    /* the tensor-core instructions nvcc emits (tests/tensor) */
    roundtrip_file("../tensor/tensor.ptx");
    roundtrip_file("../tensor/tensor80.ptx");
    roundtrip_file("../tensor/tensor90.ptx");
    roundtrip_file("../tensor/gemm.ptx");
}

/* ---- robustness --------------------------------------------------------------- */

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

static void exercise(ptx_module *m)
{
    /* print everything that parsed */
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        for (uint32_t pc = f->start; pc < f->end; pc++) ptx_insn_print(m, f, &m->insns[pc], &sb);
        tp_sbuf_reset(&sb);
    }
    tp_sbuf_free(&sb);
}

static void t_truncations(void)
{
    static const char *const files[] = {"tex.sm_75.ptx", "globals.sm_75.ptx", "basic.sm_75.ptx"};
    for (int fi = 0; fi < 3; fi++) {
        char path[128];
        snprintf(path, sizeof path, "tests/ptx/%s", files[fi]);
        size_t len;
        char *text = slurp(path, &len);
        TT_CHECK(text != NULL);
        if (!text) continue;
        uint32_t ok = 0, step = fi == 2 ? 5 : 1;
        for (size_t n = 0; n <= len; n += step) {
            tp_err e;
            tp_err_clear(&e);
            char *cut = malloc(n ? n : 1); /* exactly n bytes, so ASan sees overreads */
            memcpy(cut, text, n);
            ptx_module *m = ptx_parse(cut, n, "cut.ptx", &e);
            if (m) {
                ok++;
                exercise(m);
                ptx_module_free(m);
            } else {
                tt_nchecks++;
                if (strncmp(e.msg, "cut.ptx:", 8) != 0) tt_fail_msg(__FILE__, __LINE__, "message '%s'", e.msg);
            }
            free(cut);
        }
        TT_CHECK(ok >= 1); /* at least the whole file */
        free(text);
    }
}

static void t_garbled(void)
{
    static const char junk[] = "{}[]()<>;:,.%$_@!|=+-0123456789fdxU\"/*\n \t.reg.b32%r.global@%p!";
    size_t len;
    char *text = slurp("tests/ptx/basic.sm_75.ptx", &len);
    TT_CHECK(text != NULL);
    if (!text) return;
    char *buf = malloc(len + 64);
    uint32_t parsed = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(buf, text, len);
        size_t n = len;
        int edits = 1 + (int)(rnd() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = rnd() % n;
            switch (rnd() % 4) {
            case 0: buf[at] = junk[rnd() % (sizeof junk - 1)]; break;
            case 1: buf[at] = (char)(rnd() & 0xff); break;
            case 2: /* delete a run */
                if (n > 10) {
                    size_t k = 1 + rnd() % 8;
                    if (at + k > n) k = n - at;
                    memmove(buf + at, buf + at + k, n - at - k);
                    n -= k;
                }
                break;
            default: /* duplicate a run */
                if (n + 16 < len + 64) {
                    size_t k = 1 + rnd() % 16;
                    if (at + k > n) k = n - at;
                    memmove(buf + at + k, buf + at, n - at);
                    n += k;
                }
                break;
            }
        }
        tp_err e;
        tp_err_clear(&e);
        ptx_module *m = ptx_parse(buf, n, "g.ptx", &e);
        if (m) {
            parsed++;
            exercise(m);
            ptx_module_free(m);
        } else {
            tt_nchecks++;
            if (strncmp(e.msg, "g.ptx", 5) != 0) tt_fail_msg(__FILE__, __LINE__, "message '%s'", e.msg);
        }
    }
    TT_CHECK(parsed < 3000);
    free(buf);
    free(text);
}

static void t_hostile(void)
{
    /* deep nesting, huge counts, embedded NULs */
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    tp_sbuf_puts(&sb, HEAD ".entry k()\n{\n");
    for (int i = 0; i < 100000; i++) tp_sbuf_putc(&sb, '{');
    ptx_module *m = parse(tp_sbuf_str(&sb));
    TT_CHECK(m == NULL);
    TT_HAS(err.msg, "nested too deeply");
    tp_sbuf_reset(&sb);
    tp_sbuf_puts(&sb, HEAD ".global .u32 a = ");
    for (int i = 0; i < 100000; i++) tp_sbuf_putc(&sb, '(');
    m = parse(tp_sbuf_str(&sb));
    TT_CHECK(m == NULL);
    tp_sbuf_reset(&sb);
    tp_sbuf_puts(&sb, HEAD ".global .u32 a[2] = ");
    for (int i = 0; i < 100000; i++) tp_sbuf_putc(&sb, '{');
    m = parse(tp_sbuf_str(&sb));
    TT_CHECK(m == NULL);
    tp_sbuf_free(&sb);
    m = parse(HEAD ".entry k()\n{\n .reg .b32 %r<99999999>;\n ret;\n}\n");
    TT_CHECK(m == NULL);
    m = parse(HEAD ".global .b8 big[1099511627776] = {1};\n");
    TT_CHECK(m == NULL);
    m = parse(HEAD ".global .b8 big[1099511627776];\n");
    TT_CHECK(m != NULL);
    if (m) {
        TT_EQ_U(m->vars[0].size, 1099511627776ull);
        ptx_module_free(m);
    }
    static const char nul[] = ".version 9.0\n\0.target sm_75\n";
    tp_err_clear(&err);
    m = ptx_parse(nul, sizeof nul - 1, "nul.ptx", &err);
    TT_CHECK(m == NULL);
    TT_EQ_STR(err.msg, "nul.ptx:2:1: unexpected character 0x00");
    tp_err_clear(&err);
    m = ptx_parse("", 0, "empty.ptx", &err);
    TT_CHECK(m == NULL); /* a module needs .version and .target */
    TT_HAS(err.msg, "empty.ptx:1:1: missing .version directive");
    m = parse(HEAD);
    TT_CHECK(m != NULL); /* a module with no functions */
    if (m) {
        TT_EQ_U(m->nfuncs, 0);
        ptx_module_free(m);
    }
}

/* .version newer than tpsim reads is refused at its location, older ones
** are accepted; a target the declared version does not know yet is refused. */
static void t_versions(void)
{
    ptx_module *m = parse(".version 9.9\n.target sm_75\n.address_size 64\n");
    TT_CHECK(m == NULL);
    TT_EQ_STR(err.msg, "t.ptx:1:10: PTX ISA version 9.9 is newer than tpsim reads (the newest is 9.0, which nvcc 13.0 "
                       "emits)");
    m = parse("// new\n  .version 10.0\n.target sm_75\n");
    TT_CHECK(m == NULL);
    TT_EQ_STR(err.msg, "t.ptx:2:12: PTX ISA version 10.0 is newer than tpsim reads (the newest is 9.0, which nvcc 13.0 "
                       "emits)");
    m = parse(".version 9.1\n.target sm_75\n");
    TT_CHECK(m == NULL);
    TT_HAS(err.msg, "t.ptx:1:10: PTX ISA version 9.1 is newer");
    static const char *const ok[] = {
        ".version 9.0\n.target sm_75\n",  ".version 8.8\n.target sm_121\n", ".version 7.0\n.target sm_75\n",
        ".version 6.3\n.target sm_75\n",  ".version 7.8\n.target sm_90\n",  ".version 8.0\n.target sm_90a\n",
        ".version 8.7\n.target sm_120\n", ".version 9.0\n.target sm_110f\n", ".version 4.3\n.target sm_30\n",
        ".version 9\n.target sm_88\n",    ".version 7.5\n.target sm_75, texmode_independent\n"};
    for (size_t i = 0; i < TP_ARRAY_LEN(ok); i++) {
        m = parse(ok[i]);
        if (!m) printf("    %s: %s\n", ok[i], err.msg);
        TT_CHECK(m != NULL);
        if (m) ptx_module_free(m);
    }
    m = parse(".version 7.0\n.target sm_90\n");
    TT_CHECK(m == NULL);
    TT_EQ_STR(err.msg, "t.ptx:2:9: target sm_90 needs PTX ISA version 7.8 or newer; this module declares .version 7.0");
    m = parse(".version 7.8\n.target sm_90a\n");
    TT_CHECK(m == NULL);
    TT_EQ_STR(err.msg, "t.ptx:2:9: target sm_90a needs PTX ISA version 8.0 or newer; this module declares .version 7.8");
    m = parse(".version 6.2\n.target sm_75\n");
    TT_CHECK(m == NULL);
    TT_HAS(err.msg, "target sm_75 needs PTX ISA version 6.3 or newer");
    m = parse(".version 8.7\n.target sm_120f\n");
    TT_CHECK(m == NULL);
    TT_HAS(err.msg, "target sm_120f needs PTX ISA version 8.8 or newer");
}

int main(void)
{
    TT_RUN(t_cfg_if_else);
    TT_RUN(t_cfg_nested_if);
    TT_RUN(t_cfg_loop_break_continue);
    TT_RUN(t_cfg_early_return);
    TT_RUN(t_cfg_switch_chain);
    TT_RUN(t_cfg_infinite_loop);
    TT_RUN(t_cfg_brx);
    TT_RUN(t_cfg_calls_do_not_split);
    TT_RUN(t_roundtrip);
    TT_RUN(t_truncations);
    TT_RUN(t_garbled);
    TT_RUN(t_hostile);
    TT_RUN(t_versions);
    return tt_done();
}
