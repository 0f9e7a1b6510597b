/* test_ptx.c -- the PTX parser on real nvcc output (the .ptx files of tests/ptx, made by
** tests/ptx/regen.sh): module structure, parameters and frames, registers,
** instruction fields, operands, call sequences, initializers and
** relocations.  Expected values are read off the fixture text and the PTX
** ISA rules (offsets, alignments, literal bits), not from parser output. */
#include "tests/unit/tt.h"
#include "ptx/ptx.h"

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

static ptx_module *load(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/ptx/%s", name);
    size_t len;
    char *text = slurp(path, &len);
    if (!text) {
        printf("cannot read %s (run the tests from the repository root)\n", path);
        return NULL;
    }
    tp_err e;
    tp_err_clear(&e);
    ptx_module *m = ptx_parse(text, len, path, &e);
    if (!m) printf("%s\n", e.msg);
    free(text);
    return m;
}

static const ptx_func *fn(const ptx_module *m, const char *name)
{
    int i = ptx_find_func(m, name);
    return i >= 0 ? &m->funcs[i] : NULL;
}

/* The nth instruction of f whose printed text starts with prefix (a test
** failure when there is none). */
#define find(m, f, prefix, nth) find_at(m, f, prefix, nth, __LINE__)
static const ptx_insn *find_at(const ptx_module *m, const ptx_func *f, const char *prefix, int nth,
                               int line)
{
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    const ptx_insn *r = NULL;
    for (uint32_t pc = f->start; pc < f->end && !r; pc++) {
        tp_sbuf_reset(&sb);
        ptx_insn_print(m, f, &m->insns[pc], &sb);
        if (strncmp(tp_sbuf_str(&sb), prefix, strlen(prefix)) == 0 && nth-- == 0) r = &m->insns[pc];
    }
    tp_sbuf_free(&sb);
    tt_nchecks++;
    if (!r) tt_fail_msg(__FILE__, line, "no instruction '%s'", prefix);
    return r;
}

static int32_t row(const ptx_func *f, const char *name)
{
    for (uint32_t r = 0; r < f->nrows; r++)
        if (strcmp(f->regs[r].name, name) == 0 && !f->regs[r].cont) return (int32_t)r;
    return -2;
}

static int32_t pred(const ptx_func *f, const char *name, int scope)
{
    for (uint32_t r = 0; r < f->npreds; r++)
        if (strcmp(f->preds[r].name, name) == 0 && f->preds[r].scope == scope) return (int32_t)r;
    return -2;
}

static int32_t fvar(const ptx_func *f, const char *name, int nth)
{
    for (uint32_t i = 0; i < f->nvars; i++)
        if (strcmp(f->vars[i].name, name) == 0 && nth-- == 0) return (int32_t)i;
    return -2;
}

#define KERNEL "_Z1kPiPKf1Sidyy"

static void t_basic_module(void)
{
    ptx_module *m = load("basic.sm_75.ptx");
    TT_CHECK(m != NULL);
    if (!m) return;
    TT_EQ_U(m->version_major, 9);
    TT_EQ_U(m->version_minor, 0);
    TT_EQ_U(m->target_sm, 75);
    TT_EQ_U(m->address_size, 64);
    /* _Z2f1i and _Z2f2i are declared first and defined later: one function each */
    int f1 = ptx_find_func(m, "_Z2f1i");
    TT_CHECK(f1 >= 0);
    TT_CHECK(!m->funcs[f1].is_decl && !m->funcs[f1].is_entry);
    int n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) n += strcmp(m->funcs[i].name, "_Z2f1i") == 0;
    TT_EQ_I(n, 1);
    TT_CHECK(fn(m, "vprintf") && fn(m, "vprintf")->is_decl && fn(m, "vprintf")->is_extern);
    TT_EQ_U(fn(m, "vprintf")->nrets, 1);
    TT_EQ_U(fn(m, "__assertfail")->nparams, 5);
    TT_CHECK(fn(m, "__assertfail")->is_decl);
    const ptx_func *k = fn(m, KERNEL);
    TT_CHECK(k && k->is_entry && k->is_visible && !k->is_decl);
    TT_EQ_I(ptx_find_func(m, "nope"), -1);
    /* every defined function ends with FNEXIT and ptx_func_of_pc finds it */
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (f->is_decl) {
            TT_EQ_U(f->start, 0);
            TT_EQ_U(f->end, 0);
            continue;
        }
        const ptx_insn *x = &m->insns[f->end - 1];
        TT_EQ_U(x->op, PTX_OP_FNEXIT);
        TT_EQ_U(x->ndst + x->nopnd, 0);
        TT_EQ_I(x->guard, -1);
        TT_CHECK(ptx_func_of_pc(m, f->start) == f);
        TT_CHECK(ptx_func_of_pc(m, f->end - 1) == f);
    }
    TT_CHECK(ptx_func_of_pc(m, m->ninsns) == NULL);
    ptx_module_free(m);
}

static void t_basic_params_frames(void)
{
    ptx_module *m = load("basic.sm_75.ptx");
    if (!m) {
        TT_CHECK(0);
        return;
    }
    const ptx_func *k = fn(m, KERNEL);
    /* u64, u64, .align 8 .b8[24], u32, f64, u64, u64 */
    static const uint32_t off[] = {0, 8, 16, 40, 48, 56, 64}, size[] = {8, 8, 24, 4, 8, 8, 8},
                          al[] = {8, 8, 8, 4, 8, 8, 8};
    TT_EQ_U(k->nparams, 7);
    for (int i = 0; i < 7 && i < (int)k->nparams; i++) {
        TT_EQ_U(k->params[i].offset, off[i]);
        TT_EQ_U(k->params[i].size, size[i]);
        TT_EQ_U(k->params[i].align, al[i]);
    }
    TT_EQ_STR(k->params[2].name, KERNEL "_param_2");
    TT_EQ_U(k->params[2].type, PTX_T_B8);
    TT_EQ_U(k->param_bytes, 72);
    /* kernel frame: __local_depot3 (48 bytes, .align 16) at 0, then the call
    ** sequences' .param variables; the largest one (callseq 1) has param0
    ** (b32 at 0), param1 (.align 8, 24 bytes at 8) and retval0 (b32 at 32):
    ** 36 bytes at 48 -> 84 -> rounded to 96 */
    int d = fvar(k, "__local_depot3", 0);
    TT_CHECK(d >= 0);
    if (d >= 0) {
        TT_EQ_U(k->vars[d].space, PTX_SP_LOCAL);
        TT_EQ_U(k->vars[d].offset, 0);
        TT_EQ_U(k->vars[d].size, 48);
        TT_EQ_U(k->vars[d].align, 16);
    }
    TT_EQ_U(k->local_bytes, 96);
    int p1 = fvar(k, "param1", 0), r1 = fvar(k, "retval0", 1), p0 = fvar(k, "param0", 1);
    TT_CHECK(p1 >= 0 && r1 >= 0 && p0 >= 0);
    if (p1 >= 0 && r1 >= 0 && p0 >= 0) {
        TT_EQ_U(k->vars[p0].offset, 48);
        TT_EQ_U(k->vars[p1].offset, 56);
        TT_EQ_U(k->vars[p1].size, 24);
        TT_EQ_U(k->vars[r1].offset, 80);
        TT_EQ_U(k->vars[r1].space, PTX_SP_PARAM);
    }
    /* the demoted shared array: function scope, offset 0 */
    int sh = fvar(k, "_ZZ1kPiPKf1SidyyE2sh", 0);
    TT_CHECK(sh >= 0);
    if (sh >= 0) {
        TT_EQ_U(k->vars[sh].space, PTX_SP_SHARED);
        TT_EQ_U(k->vars[sh].size, 256);
        TT_EQ_U(k->vars[sh].offset, 0);
    }
    /* .func frame: params (b32 at 0, .align 8 b8[24] at 8), then the return
    ** (b32 at 32): 36 -> 48 */
    const ptx_func *c = fn(m, "_Z6calleei1S");
    TT_EQ_U(c->params[0].offset, 0);
    TT_EQ_U(c->params[1].offset, 8);
    TT_EQ_U(c->param_bytes, 32);
    TT_EQ_U(c->nrets, 1);
    TT_EQ_U(c->rets[0].offset, 32);
    TT_EQ_U(c->ret_bytes, 4);
    TT_EQ_U(c->local_bytes, 48);
    ptx_module_free(m);
}

static void t_basic_registers(void)
{
    ptx_module *m = load("basic.sm_75.ptx");
    if (!m) {
        TT_CHECK(0);
        return;
    }
    const ptx_func *k = fn(m, KERNEL);
    /* declaration order: %SP, %SPL, %rs<22>, %f<50>, %r<166>, %fd<17>, %rd<60> */
    TT_EQ_I(row(k, "%SP"), 0);
    TT_EQ_I(row(k, "%SPL"), 1);
    TT_EQ_I(row(k, "%rs0"), 2);
    TT_EQ_I(row(k, "%rs9"), 11);
    TT_EQ_I(row(k, "%f0"), 24);
    TT_EQ_I(row(k, "%r0"), 74);
    TT_EQ_I(row(k, "%r2"), 76);
    TT_EQ_I(row(k, "%fd0"), 240);
    TT_EQ_I(row(k, "%rd0"), 257);
    TT_EQ_U(k->regs[76].type, PTX_T_B32);
    TT_EQ_U(k->regs[76].scope, 0);
    TT_EQ_U(k->regs[24].type, PTX_T_F32);
    /* predicates numbered apart; the inline { .reg .pred %p1; } blocks get
    ** their own predicates at scope 1 */
    TT_EQ_I(pred(k, "%p1", 0), 1);
    TT_EQ_U(k->preds[1].type, PTX_T_PRED);
    int32_t inner = pred(k, "%p1", 1);
    TT_CHECK(inner >= 23);
    /* each call sequence declares its own temp_param_reg (b32, scope 1) */
    int n = 0;
    for (uint32_t r = 0; r < k->nrows; r++)
        if (strcmp(k->regs[r].name, "temp_param_reg") == 0) {
            n++;
            TT_EQ_U(k->regs[r].scope, 1);
            TT_CHECK(r >= 317);
        }
    TT_EQ_I(n, 4);
    ptx_module_free(m);
}

static void t_basic_insns(void)
{
    ptx_module *m = load("basic.sm_75.ptx");
    if (!m) {
        TT_CHECK(0);
        return;
    }
    const ptx_func *k = fn(m, KERNEL);
    const ptx_insn *in;
    /* mov.u64 %SPL, __local_depot3 */
    in = &m->insns[k->start];
    TT_EQ_U(in->op, PTX_OP_MOV);
    TT_EQ_U(in->type, PTX_T_U64);
    TT_EQ_U(in->ndst, 1);
    TT_EQ_U(in->nopnd, 2);
    TT_EQ_U(in->o[0].kind, PTX_OK_REG);
    TT_EQ_I(in->o[0].r, 1);
    TT_EQ_U(in->o[1].kind, PTX_OK_SYM);
    TT_EQ_I(in->o[1].r, PTX_SYM_FVAR + fvar(k, "__local_depot3", 0));
    TT_EQ_I(in->guard, -1);
    TT_EQ_U(in->line, 118);
    TT_EQ_U(in->col, 2);
    /* ld.param.v4.u8 {%rs9, %rs10, %rs11, %rs12}, [_Z1k..._param_2+16] */
    in = find(m, k, "ld.param.v4.u8", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_LD);
        TT_EQ_U(in->m.space, PTX_SP_PARAM);
        TT_EQ_U(in->m.vec, 4);
        TT_EQ_U(in->type, PTX_T_U8);
        TT_EQ_U(in->ndst, 1);
        TT_EQ_U(in->o[0].kind, PTX_OK_VEC);
        TT_EQ_U(in->o[0].n, 4);
        for (int i = 0; i < 4; i++) {
            TT_EQ_U(m->pool[in->o[0].r + i].kind, PTX_OK_REG);
            TT_EQ_I(m->pool[in->o[0].r + i].r, 11 + i);
        }
        TT_EQ_U(in->o[1].kind, PTX_OK_ADDR);
        TT_EQ_U(in->o[1].base, PTX_AB_SYM);
        TT_EQ_I(in->o[1].r, PTX_SYM_PARAM + 2);
        TT_EQ_I(in->o[1].imm, 16);
        TT_EQ_STR(ptx_sym_name(m, k, in->o[1].r), KERNEL "_param_2");
    }
    /* mov.u32 %r26, %ctaid.x */
    in = find(m, k, "mov.u32 %r26", 0);
    if (in) {
        TT_EQ_U(in->o[1].kind, PTX_OK_SREG);
        TT_EQ_I(in->o[1].r, PTX_SR_CTAID);
        TT_EQ_I(in->o[1].imm, 0);
    }
    /* st.shared.u32 [%r30], %r2 */
    in = find(m, k, "st.shared.u32", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_ST);
        TT_EQ_U(in->ndst, 0);
        TT_EQ_U(in->o[0].kind, PTX_OK_ADDR);
        TT_EQ_U(in->o[0].base, PTX_AB_REG);
        TT_EQ_I(in->o[0].r, 74 + 30);
        TT_EQ_I(in->o[0].imm, 0);
        TT_EQ_U(in->o[1].kind, PTX_OK_REG);
        TT_EQ_I(in->o[1].r, 76);
    }
    /* bar.sync 0 */
    in = find(m, k, "bar.sync", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_BAR);
        TT_EQ_U(in->m.sub, PTX_SUB_SYNC);
        TT_EQ_U(in->nopnd, 1);
        TT_EQ_U(in->o[0].kind, PTX_OK_IMM);
        TT_EQ_I(in->o[0].imm, 0);
        TT_EQ_I(in->o[0].r, -1);
    }
    /* @%p1 bra $L__BB3_18 jumps to the final ret */
    in = find(m, k, "@%p1 bra", 0);
    if (in) {
        TT_EQ_I(in->guard, 1);
        TT_EQ_I(in->guard_neg, 0);
        TT_EQ_U(in->o[0].kind, PTX_OK_LABEL);
        TT_EQ_U(m->insns[in->o[0].r].op, PTX_OP_RET);
        TT_EQ_U((uint32_t)in->o[0].r, k->end - 2);
        TT_EQ_U(in->col, 2); /* the '@' */
    }
    /* mul.wide.s32, mad.lo.s32, mul.hi.s32 */
    in = find(m, k, "mul.wide.s32", 0);
    if (in) {
        TT_EQ_U(in->m.sub, PTX_SUB_WIDE);
        TT_EQ_U(in->type, PTX_T_S32);
    }
    in = find(m, k, "mad.lo.s32", 0);
    if (in) {
        TT_EQ_U(in->m.sub, PTX_SUB_LO);
        TT_EQ_U(in->nopnd, 4);
    }
    /* mul.hi.s32 %r43, %r2, 1431655766 */
    in = find(m, k, "mul.hi.s32", 0);
    if (in) {
        TT_EQ_I(in->o[2].imm, 1431655766);
        TT_EQ_U(in->m.sub, PTX_SUB_HI);
    }
    /* and.b32 ..., -2147483648 is sign-extended */
    in = find(m, k, "or.b32 %r8, %r119, -2147483648", 0);
    if (in) TT_EQ_U(in->o[2].imm, 0xFFFFFFFF80000000ull);
    /* setp.gt.f32 %p10, %f1, 0f3F800000 */
    in = find(m, k, "setp.gt.f32 %p10", 0);
    if (in) {
        TT_EQ_U(in->o[2].imm, 0x3F800000);
        TT_EQ_U(in->m.cmp, PTX_CMP_GT);
    }
    /* float literals are bits */
    in = find(m, k, "setp.lt.f32 %p12, %f1, 0f7149F2CA", 0);
    if (in) {
        TT_EQ_U(in->o[2].imm, 0x7149F2CA);
        TT_EQ_U(in->m.cmp, PTX_CMP_LT);
    }
    in = find(m, k, "mul.f64", 0);
    if (in) TT_EQ_U(in->o[2].imm, 0x3BF921FB54442D19ull);
    /* ld.local.u32 %r?, [%rd50+-4] */
    in = find(m, k, "ld.local.u32", 1);
    if (in) {
        TT_EQ_I(in->o[1].imm, -4);
        TT_EQ_U(in->o[1].base, PTX_AB_REG);
    }
    /* atomics */
    in = find(m, k, "atom.global.add.u32", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_ATOM);
        TT_EQ_U(in->m.sub, PTX_SUB_ADD);
        TT_EQ_U(in->m.space, PTX_SP_GLOBAL);
        TT_EQ_U(in->ndst, 1);
        TT_EQ_U(in->nopnd, 3);
        TT_EQ_I(in->o[2].imm, 1);
    }
    in = find(m, k, "atom.global.cas.b64", 0);
    if (in) {
        TT_EQ_U(in->nopnd, 4);
        TT_EQ_U(in->m.sub, PTX_SUB_CAS);
        TT_EQ_U(in->type, PTX_T_B64);
    }
    in = find(m, k, "atom.global.add.f64", 0);
    if (in) TT_EQ_U(in->type, PTX_T_F64);
    ptx_module_free(m);
}

static void t_basic_warp_and_calls(void)
{
    ptx_module *m = load("basic.sm_75.ptx");
    if (!m) {
        TT_CHECK(0);
        return;
    }
    const ptx_func *k = fn(m, KERNEL);
    const ptx_insn *in;
    /* shfl.sync.down.b32 %r61|%p5, %r3, %r60, %r59, %r58 */
    in = find(m, k, "shfl.sync.down.b32", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_SHFL);
        TT_EQ_U(in->m.sub, PTX_SUB_DOWN);
        TT_CHECK(in->m.flags & PTX_MF_SYNC);
        TT_EQ_U(in->ndst, 2);
        TT_EQ_U(in->nopnd, 6);
        TT_EQ_U(in->o[0].kind, PTX_OK_REG);
        TT_EQ_U(in->o[1].kind, PTX_OK_PRED);
        TT_EQ_I(in->o[1].r, 5);
    }
    in = find(m, k, "vote.sync.ballot.b32", 0);
    if (in) {
        TT_EQ_U(in->m.sub, PTX_SUB_BALLOT);
        TT_EQ_U(in->o[0].kind, PTX_OK_REG);
        TT_EQ_U(in->o[1].kind, PTX_OK_PRED);
        TT_EQ_U(in->ndst, 1);
    }
    in = find(m, k, "vote.sync.any.pred", 0);
    if (in) {
        TT_EQ_U(in->type, PTX_T_PRED);
        TT_EQ_U(in->o[0].kind, PTX_OK_PRED);
        TT_EQ_U(in->m.sub, PTX_SUB_ANY);
    }
    in = find(m, k, "match.sync.all.b32", 0);
    if (in) {
        TT_EQ_U(in->ndst, 2);
        TT_EQ_U(in->m.sub, PTX_SUB_ALL);
        TT_EQ_U(in->o[1].kind, PTX_OK_PRED);
    }
    /* bar.red.popc.u32 %r84, 0, %p1 -- the %p1 of the inner { } block */
    in = find(m, k, "bar.red.popc.u32", 0);
    if (in) {
        TT_EQ_U(in->m.sub, PTX_SUB_RED);
        TT_EQ_U(in->m.bop, PTX_BOP_POPC);
        TT_EQ_U(in->ndst, 1);
        TT_EQ_U(in->nopnd, 3);
        TT_EQ_U(in->o[2].kind, PTX_OK_PRED);
        TT_CHECK(in->o[2].r != 1);
        TT_EQ_U(k->preds[in->o[2].r].scope, 1);
    }
    in = find(m, k, "bar.red.and.pred", 0);
    if (in) {
        TT_EQ_U(in->o[0].kind, PTX_OK_PRED);
        TT_EQ_U(in->type, PTX_T_PRED);
        TT_EQ_U(in->m.bop, PTX_BOP_AND);
    }
    in = find(m, k, "bar.warp.sync", 0);
    if (in) {
        TT_EQ_U(in->m.sub, PTX_SUB_WARPSYNC);
        TT_EQ_I(in->o[0].imm, -1);
    }
    in = find(m, k, "membar.gl", 0);
    if (in) {
        TT_EQ_U(in->m.scope, PTX_SCOPE_GPU);
        TT_EQ_U(in->nopnd, 0);
    }
    in = find(m, k, "membar.cta", 0);
    if (in) TT_EQ_U(in->m.scope, PTX_SCOPE_CTA);
    in = find(m, k, "membar.sys", 0);
    if (in) TT_EQ_U(in->m.scope, PTX_SCOPE_SYS);
    /* indirect call: call (retval0), %rd24, (param0), prototype_0 */
    in = find(m, k, "call (retval0), %rd24", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_CALL);
        TT_EQ_U(in->ndst, 0);
        TT_EQ_U(in->nopnd, 2);
        TT_EQ_U(in->o[0].kind, PTX_OK_REG);
        TT_EQ_I(in->o[0].r, 257 + 24);
        TT_EQ_U(in->o[1].kind, PTX_OK_CALL);
        TT_EQ_U(in->o[1].n, 2);
        TT_EQ_I(in->o[1].imm, 1);
        const ptx_opnd *p = &m->pool[in->o[1].r];
        TT_EQ_U(p[0].kind, PTX_OK_SYM);
        TT_EQ_I(p[0].r, PTX_SYM_FVAR + fvar(k, "retval0", 0));
        TT_EQ_I(p[1].r, PTX_SYM_FVAR + fvar(k, "param0", 0));
        TT_CHECK(!(in->m.flags & PTX_MF_UNI));
    }
    /* direct call of the struct-taking callee */
    in = find(m, k, "call.uni (retval0), _Z6calleei1S", 0);
    if (in) {
        TT_EQ_U(in->o[0].kind, PTX_OK_FUNC);
        TT_EQ_I(in->o[0].r, ptx_find_func(m, "_Z6calleei1S"));
        TT_EQ_U(in->o[1].n, 3);
        TT_CHECK(in->m.flags & PTX_MF_UNI);
        const ptx_opnd *p = &m->pool[in->o[1].r];
        TT_EQ_I(p[2].r, PTX_SYM_FVAR + fvar(k, "param1", 0));
    }
    /* __assertfail returns nothing: no return operands */
    in = find(m, k, "call.uni __assertfail", 0);
    if (in) {
        TT_EQ_U(in->o[1].n, 5);
        TT_EQ_I(in->o[1].imm, 0);
    }
    /* st.param.b32 [param2+0], 55 (the line of the assert) */
    in = find(m, k, "st.param.b32 [param2], 55", 0);
    if (in) {
        TT_EQ_I(in->o[1].imm, 55);
        TT_EQ_U(in->o[0].base, PTX_AB_SYM);
    }
    /* texture and surface */
    in = find(m, k, "tex.2d.v4.f32.f32", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_TEX);
        TT_EQ_U(in->m.sub, PTX_SUB_2D);
        TT_EQ_U(in->type, PTX_T_F32);
        TT_EQ_U(in->type2, PTX_T_F32);
        TT_EQ_U(in->nopnd, 3);
        TT_EQ_U(in->o[0].kind, PTX_OK_VEC);
        TT_EQ_U(in->o[1].kind, PTX_OK_REG);
        TT_EQ_I(in->o[1].r, 257 + 12);
        TT_EQ_U(in->o[2].kind, PTX_OK_VEC);
        TT_EQ_U(in->o[2].n, 2);
    }
    in = find(m, k, "suld.b.2d.v4.b32.trap", 0);
    if (in) {
        TT_CHECK((in->m.flags & (PTX_MF_B | PTX_MF_TRAP)) == (PTX_MF_B | PTX_MF_TRAP));
        TT_EQ_U(in->ndst, 1);
    }
    in = find(m, k, "sust.b.2d.v4.b32.trap", 0);
    if (in) {
        TT_EQ_U(in->ndst, 0);
        TT_EQ_U(in->o[0].kind, PTX_OK_REG);
        TT_EQ_U(in->o[2].kind, PTX_OK_VEC);
    }
    /* the f16 inline asm */
    in = find(m, k, "cvt.rn.f16.f32", 0);
    if (in) {
        TT_EQ_U(in->type, PTX_T_F16);
        TT_EQ_U(in->type2, PTX_T_F32);
        TT_EQ_U(in->m.rnd, PTX_RND_RN);
    }
    in = find(m, k, "add.f16", 0);
    if (in) TT_EQ_U(in->type, PTX_T_F16);
    in = find(m, k, "cvta.to.global.u64", 0);
    if (in) {
        TT_CHECK(in->m.flags & PTX_MF_TO);
        TT_EQ_U(in->m.space, PTX_SP_GLOBAL);
    }
    in = find(m, k, "ld.global.nc.u32", 0);
    if (in) TT_CHECK(in->m.flags & PTX_MF_NC);
    in = find(m, k, "mov.u64 %rd22, ftab", 0);
    if (in) {
        TT_EQ_U(in->o[1].kind, PTX_OK_SYM);
        TT_EQ_I(in->o[1].r, ptx_find_var(m, "ftab"));
    }
    ptx_module_free(m);
}

static void t_basic_vars(void)
{
    ptx_module *m = load("basic.sm_75.ptx");
    if (!m) {
        TT_CHECK(0);
        return;
    }
    int t = ptx_find_var(m, "g_tab");
    TT_CHECK(t >= 0);
    if (t >= 0) {
        const ptx_var *v = &m->vars[t];
        /* 1.0f, 2.5f, -0.0f, 3e10f little-endian */
        static const uint8_t want[16] = {0, 0, 128, 63, 0, 0, 32, 64, 0, 0, 0, 128, 118, 132, 223, 80};
        TT_EQ_U(v->space, PTX_SP_GLOBAL);
        TT_EQ_U(v->size, 16);
        TT_EQ_U(v->align, 4);
        TT_CHECK(v->has_init && memcmp(v->init, want, 16) == 0);
    }
    int c = ptx_find_var(m, "c_arr");
    if (c >= 0) {
        TT_EQ_U(m->vars[c].space, PTX_SP_CONST);
        TT_EQ_U(m->vars[c].size, 24);
        TT_EQ_U(m->vars[c].init[20], 6); /* c_arr[2][1] */
    }
    int f = ptx_find_var(m, "ftab");
    TT_CHECK(f >= 0);
    if (f >= 0) {
        const ptx_var *v = &m->vars[f];
        TT_EQ_U(v->type, PTX_T_U64);
        TT_EQ_U(v->size, 16);
        TT_EQ_U(v->nrelocs, 2);
        if (v->nrelocs == 2) {
            TT_EQ_U(v->relocs[0].offset, 0);
            TT_EQ_U(v->relocs[0].size, 8);
            TT_EQ_I(v->relocs[0].sym, PTX_SYM_FUNC + ptx_find_func(m, "_Z2f1i"));
            TT_EQ_U(v->relocs[1].offset, 8);
            TT_EQ_I(v->relocs[1].sym, PTX_SYM_FUNC + ptx_find_func(m, "_Z2f2i"));
            TT_EQ_U(v->relocs[1].generic, 0);
            TT_EQ_I(v->relocs[1].addend, 0);
        }
    }
    int d = ptx_find_var(m, "dyn");
    if (d >= 0) {
        TT_EQ_U(m->vars[d].space, PTX_SP_SHARED);
        TT_CHECK(m->vars[d].is_extern && m->vars[d].is_array_unsized);
        TT_EQ_U(m->vars[d].size, 0);
        TT_EQ_U(m->vars[d].align, 16);
    }
    int s = ptx_find_var(m, "$str");
    if (s >= 0) {
        TT_EQ_U(m->vars[s].size, 13);
        TT_CHECK(m->vars[s].has_init && memcmp(m->vars[s].init, "hello %d %f\n", 13) == 0);
    }
    TT_EQ_I(ptx_find_var(m, "g_counter") >= 0, 1);
    TT_CHECK(!m->vars[ptx_find_var(m, "g_counter")].has_init);
    ptx_module_free(m);
}

static const ptx_var *var(const ptx_module *m, const char *name)
{
    int i = ptx_find_var(m, name);
    if (i < 0) printf("    (no variable %s)\n", name);
    return i >= 0 ? &m->vars[i] : NULL;
}

static void t_globals_initializers(void)
{
    ptx_module *m = load("globals.sm_75.ptx");
    if (!m) {
        TT_CHECK(0);
        return;
    }
    int xs = ptx_find_var(m, "xs"), dd = ptx_find_var(m, "dd");
    const ptx_var *v;
    /* pp[4] = {3, generic(xs)+4, 120, 0} (.u64) */
    if ((v = var(m, "pp"))) {
        TT_EQ_U(v->size, 32);
        TT_EQ_U(v->init[0], 3);
        TT_EQ_U(v->init[16], 120);
        TT_EQ_U(v->nrelocs, 1);
        TT_EQ_U(v->relocs[0].offset, 8);
        TT_EQ_U(v->relocs[0].size, 8);
        TT_EQ_I(v->relocs[0].sym, xs);
        TT_EQ_U(v->relocs[0].generic, 1);
        TT_EQ_I(v->relocs[0].addend, 4);
    }
    /* q[9] = {97, 0XFF(generic(xs)+4), 0xFF00(...), ...}: one 8-byte reloc at 1 */
    if ((v = var(m, "q"))) {
        TT_EQ_U(v->size, 9);
        TT_EQ_U(v->init[0], 97);
        TT_EQ_U(v->nrelocs, 1);
        TT_EQ_U(v->relocs[0].offset, 1);
        TT_EQ_U(v->relocs[0].size, 8);
        TT_EQ_I(v->relocs[0].sym, xs);
        TT_EQ_I(v->relocs[0].addend, 4);
        TT_EQ_U(v->align, 1);
    }
    if ((v = var(m, "ptr"))) {
        TT_EQ_I(v->relocs[0].addend, 12);
        TT_EQ_U(v->nrelocs, 1);
    }
    if ((v = var(m, "vp"))) {
        TT_EQ_I(v->relocs[0].sym, dd);
        TT_EQ_I(v->relocs[0].addend, 0);
    }
    if ((v = var(m, "fp"))) {
        TT_EQ_I(v->relocs[0].sym, PTX_SYM_FUNC + ptx_find_func(m, "_Z1gi"));
        TT_EQ_U(v->relocs[0].generic, 0);
    }
    /* ll = -5 as .u64; sh = -3 as .u16; big = -1; dd = 0d3FF8000000000000 */
    if ((v = var(m, "ll"))) {
        static const uint8_t w[8] = {0xFB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
        TT_CHECK(memcmp(v->init, w, 8) == 0);
    }
    if ((v = var(m, "sh"))) {
        TT_EQ_U(v->size, 2);
        TT_EQ_U(v->init[0], 0xFD);
        TT_EQ_U(v->init[1], 0xFF);
    }
    if ((v = var(m, "big"))) {
        TT_EQ_U(v->space, PTX_SP_CONST);
        TT_EQ_U(v->init[7], 0xFF);
    }
    if ((v = var(m, "dd"))) {
        uint64_t b;
        memcpy(&b, v->init, 8);
        TT_EQ_U(b, 0x3FF8000000000000ull);
        TT_EQ_U(v->type, PTX_T_F64);
    }
    /* str[3] = {104, 105}: the rest zero */
    if ((v = var(m, "str"))) {
        TT_EQ_U(v->size, 3);
        TT_EQ_U(v->init[1], 105);
        TT_EQ_U(v->init[2], 0);
    }
    /* ys[24]: floats 1..6 as bytes; ys[1][2] = 6.0f = 0x40C00000 */
    if ((v = var(m, "ys"))) {
        uint32_t b;
        memcpy(&b, v->init + 20, 4);
        TT_EQ_U(b, 0x40C00000u);
    }
    /* .attribute(.managed) is accepted */
    if ((v = var(m, "managed_x"))) {
        TT_EQ_U(v->init[0], 7);
        TT_EQ_U(v->type, PTX_T_U32);
    }
    ptx_module_free(m);
}

static void t_half_fixtures(void)
{
    static const char *const files[] = {"half.sm_80.ptx", "half.sm_90.ptx"};
    for (int fi = 0; fi < 2; fi++) {
        ptx_module *m = load(files[fi]);
        TT_CHECK(m != NULL);
        if (!m) continue;
        TT_EQ_U(m->target_sm, fi ? 90 : 80);
        const ptx_func *k = &m->funcs[0];
        const ptx_insn *in;
        in = find(m, k, "fma.rn.bf16 ", 0);
        if (in) {
            TT_EQ_U(in->op, PTX_OP_FMA);
            TT_EQ_U(in->type, PTX_T_BF16);
            TT_EQ_U(in->m.rnd, PTX_RND_RN);
        }
        in = find(m, k, "fma.rn.f16x2", 0);
        if (in) TT_EQ_U(in->type, PTX_T_F16X2);
        in = find(m, k, "cvt.rn.bf16x2.f32", 0);
        if (in) {
            TT_EQ_U(in->nopnd, 3);
            TT_EQ_U(in->type, PTX_T_BF16X2);
            TT_EQ_U(in->type2, PTX_T_F32);
        }
        /* { .reg .f16 low,high; mov.b32 {low,high}, %r..; }: unpack into the scoped registers */
        in = find(m, k, "mov.b32 {low, high}", 0);
        if (in) {
            TT_EQ_U(in->o[0].kind, PTX_OK_VEC);
            TT_EQ_U(in->o[0].n, 2);
            int32_t lo = m->pool[in->o[0].r].r;
            TT_EQ_STR(k->regs[lo].name, "low");
            TT_EQ_U(k->regs[lo].type, PTX_T_F16);
            TT_EQ_U(k->regs[lo].scope, 1);
        }
        /* { .reg .b16 c; mov.b16 c, 0x3f80U; fma.rn.bf16 d, a, b, c; } */
        in = fi ? NULL : find(m, k, "mov.b16 c, ", 0);
        if (in) {
            TT_EQ_I(in->o[1].imm, 0x3f80);
            TT_EQ_STR(k->regs[in->o[0].r].name, "c");
        }
        in = find(m, k, "set.nan.f16.f16", 0);
        if (fi == 0 && in) {
            TT_EQ_U(in->m.cmp, PTX_CMP_NAN);
            TT_EQ_U(in->type2, PTX_T_F16);
        }
        ptx_module_free(m);
    }
}

static void t_tex_fixture(void)
{
    ptx_module *m = load("tex.sm_75.ptx");
    if (!m) {
        TT_CHECK(0);
        return;
    }
    const ptx_func *k = &m->funcs[0];
    const ptx_insn *in;
    /* tex.level.2d.v4.f32.f32 {..}, [%rd1, {%f2, %f2}], %f3 */
    in = find(m, k, "tex.level.2d.v4.f32.f32", 0);
    if (in) {
        TT_EQ_U(in->m.sub, PTX_SUB_2D);
        TT_EQ_U(in->m.sub2, PTX_SUB_LEVEL);
        TT_EQ_U(in->nopnd, 4);
        TT_EQ_U(in->o[3].kind, PTX_OK_REG);
    }
    in = find(m, k, "tex.grad.2d", 0);
    if (in) {
        TT_EQ_U(in->nopnd, 5);
        TT_EQ_U(in->m.sub2, PTX_SUB_GRAD);
        TT_EQ_U(in->o[4].kind, PTX_OK_VEC);
    }
    in = find(m, k, "tld4.b.2d.v4.f32.f32", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_TLD4);
        TT_EQ_U(in->m.sub2, PTX_SUB_COMP_B);
        TT_EQ_U(in->m.sub, PTX_SUB_2D);
    }
    in = find(m, k, "tex.1d.v4.s32.s32", 0);
    if (in) {
        TT_EQ_U(in->type, PTX_T_S32);
        TT_EQ_U(in->o[2].n, 1);
    }
    in = find(m, k, "tex.a2d.v4.f32.f32", 0);
    if (in) {
        TT_EQ_U(in->m.sub, PTX_SUB_A2D);
        TT_EQ_U(in->o[2].n, 4);
    }
    in = find(m, k, "tex.cube", 0);
    if (in) TT_EQ_U(in->m.sub, PTX_SUB_CUBE);
    in = find(m, k, "txq.width.b32", 0);
    if (in) {
        TT_EQ_U(in->op, PTX_OP_TXQ);
        TT_EQ_U(in->m.sub, PTX_SUB_Q_WIDTH);
        TT_EQ_U(in->o[1].kind, PTX_OK_ADDR);
        TT_EQ_U(in->o[1].base, PTX_AB_REG);
    }
    in = find(m, k, "suq.width.b32", 0);
    if (in) TT_EQ_U(in->op, PTX_OP_SUQ);
    in = find(m, k, "sust.b.1d.b32.trap", 0);
    if (in) {
        TT_EQ_U(in->nopnd, 3);
        TT_EQ_U(in->o[2].kind, PTX_OK_VEC);
        TT_EQ_U(in->o[2].n, 1);
    }
    in = find(m, k, "suld.b.1d.b32.zero", 0);
    if (in) {
        TT_CHECK(in->m.flags & PTX_MF_ZERO);
        TT_EQ_U(in->o[0].kind, PTX_OK_VEC);
    }
    in = find(m, k, "sust.b.3d.v4.b32.clamp", 0);
    if (in) {
        TT_CHECK(in->m.flags & PTX_MF_CLAMP);
        TT_EQ_U(in->o[1].n, 4);
    }
    ptx_module_free(m);
}

static void t_debug_fixture(void)
{
    ptx_module *m = load("debug.sm_75.ptx");
    if (!m) {
        TT_CHECK(0);
        return;
    }
    TT_CHECK(m->target_flags & 2); /* .target sm_75, debug */
    TT_CHECK(m->nfiles >= 2);
    if (m->nfiles >= 2) {
        const char *f1 = m->files[1];
        TT_CHECK(f1 && strlen(f1) >= 8 && strcmp(f1 + strlen(f1) - 8, "debug.cu") == 0);
    }
    /* sq is defined on line 3 of debug.cu; its multiply has .loc 1 3 .. */
    const ptx_func *sq = fn(m, "_Z2sqi");
    TT_CHECK(sq != NULL);
    if (sq) {
        const ptx_insn *in = find(m, sq, "mul.lo.s32", 0);
        if (in) {
            TT_EQ_U(in->srcfile, 1);
            TT_EQ_U(in->srcline, 3);
        }
    }
    const ptx_func *k = fn(m, "_Z2dkPii");
    if (k) {
        const ptx_insn *in = find(m, k, "call", 0);
        if (in) TT_EQ_U(in->srcline, 7);
    }
    ptx_module_free(m);
}

int main(void)
{
    TT_RUN(t_basic_module);
    TT_RUN(t_basic_params_frames);
    TT_RUN(t_basic_registers);
    TT_RUN(t_basic_insns);
    TT_RUN(t_basic_warp_and_calls);
    TT_RUN(t_basic_vars);
    TT_RUN(t_globals_initializers);
    TT_RUN(t_half_fixtures);
    TT_RUN(t_tex_fixture);
    TT_RUN(t_debug_fixture);
    return tt_done();
}
