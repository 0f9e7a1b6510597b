/*
** parse_func.c -- PTX functions: headers and parameter lists, performance
** directives, bodies with their { } scopes, register declarations, labels
** (resolved when their scope closes), .callprototype / .calltargets /
** .branchtargets, and the frame layout of each function.
*/
#include "parse_int.h"
#include <stdio.h>

/* Limits that keep hostile input from exhausting memory or the stack. */
enum {
    MAX_DEPTH = 200,     /* { } nesting */
    MAX_RANGE = 1 << 22, /* registers in one %r<N> declaration */
};

/* ( .param [.align N] .type [.ptr [.space] [.align N]] name[N], ... ) */
static void parse_params(ptx_ps *P, bool ret, bool proto)
{
    ptx_paramvec *out = ret ? &P->prets : &P->pparams;
    out->n = 0;
    ptx_ps_expect(P, '(');
    if (ptx_ps_accept(P, ')')) return;
    for (;;) {
        uint32_t v;
        if (ptx_ps_is_dir(P, PTX_D_REG)) PTX_FAIL(P, "unsupported .reg parameter (use .param)");
        if (!ptx_ps_kw_cat(P, PTX_KW_SPACE, &v) || (v != PTX_SP_PARAM && v != PTX_SP_PARAM_ENTRY &&
                                              v != PTX_SP_PARAM_FUNC))
            PTX_FAIL(P, "expected .param, found %s", ptx_ps_tokdesc(P));
        ptx_ps_next(P);
        ptx_param p;
        memset(&p, 0, sizeof p);
        int type = -1;
        while (P->t.kind == PTX_TK_DIR) {
            if (ptx_ps_kw_cat(P, PTX_KW_DIR, &v)) {
                if (v == PTX_D_ALIGN) {
                    ptx_ps_next(P);
                    uint32_t a = ptx_ps_align(P);
                    if (!p.is_ptr) p.align = a; /* after .ptr it is the pointee's alignment */
                    continue;
                }
                if (v == PTX_D_PTR) {
                    p.is_ptr = 1;
                    ptx_ps_next(P);
                    continue;
                }
                if (v == PTX_D_ATTRIBUTE) {
                    ptx_ps_next(P);
                    ptx_ps_skip_group(P, '(', ')');
                    continue;
                }
            }
            if (p.is_ptr && ptx_ps_kw_cat(P, PTX_KW_SPACE, &v)) {
                p.ptr_space = (uint8_t)v;
                ptx_ps_next(P);
                continue;
            }
            if (type < 0 && ptx_ps_kw_cat(P, PTX_KW_TYPE, &v) && v != PTX_T_PRED) {
                type = (int)v;
                ptx_ps_next(P);
                continue;
            }
            PTX_FAIL(P, "unexpected %s in a parameter", ptx_ps_tokdesc(P));
        }
        if (type < 0) PTX_FAIL(P, "expected a parameter type, found %s", ptx_ps_tokdesc(P));
        ptx_ps_expect_id(P, "a parameter name");
        if (!proto && P->t.len == 1 && P->t.s[0] == '_') PTX_FAIL(P, "'_' is not a parameter name");
        p.name = ptx_ps_strdup(P, P->t.s, P->t.len);
        p.type = (uint8_t)type;
        ptx_ps_next(P);
        uint64_t n = 1;
        while (ptx_ps_accept(P, '[')) {
            uint32_t line = P->t.line, col = P->t.col;
            int64_t k = ptx_ps_int(P);
            if (k <= 0 || (uint64_t)k > (1u << 24) || n * (uint64_t)k > (1u << 24))
                ptx_ps_fail(P, line, col, "bad parameter array size");
            n *= (uint64_t)k;
            ptx_ps_expect(P, ']');
        }
        p.size = (uint32_t)(n * ptx_type_size((ptx_type)type));
        if (!p.align) p.align = ptx_type_size((ptx_type)type);
        tp_vec_push(out, p);
        if (out->n > 4096) PTX_FAIL(P, "too many parameters");
        if (ptx_ps_accept(P, ')')) return;
        ptx_ps_expect(P, ',');
    }
}

/* Lays parameters out from start at their alignments; returns the end. */
static uint32_t layout_params(ptx_ps *P, ptx_param *p, uint32_t n, uint32_t start)
{
    uint64_t cur = start;
    for (uint32_t i = 0; i < n; i++) {
        cur = TP_ALIGN_UP(cur, p[i].align);
        p[i].offset = (uint32_t)cur;
        cur += p[i].size;
        if (cur > (1u << 30)) PTX_FAIL(P, "parameters too large");
    }
    return (uint32_t)cur;
}

/* Performance directives between the header and the body. */
static bool parse_perf(ptx_ps *P, ptx_func *f)
{
    uint32_t v;
    if (P->t.kind != PTX_TK_DIR || !ptx_ps_kw_cat(P, PTX_KW_DIR, &v)) return false;
    uint32_t *dst3 = NULL, *dst1 = NULL;
    switch (v) {
    case PTX_D_MAXNTID: dst3 = f->maxntid; break;
    case PTX_D_REQNTID: dst3 = f->reqntid; break;
    case PTX_D_REQNCTAPERCLUSTER: dst3 = f->reqnctapercluster; break;
    case PTX_D_MINNCTAPERSM: dst1 = &f->minnctapersm; break;
    case PTX_D_MAXNCTAPERSM: dst1 = &f->maxnctapersm; break;
    case PTX_D_MAXNREG: dst1 = &f->maxnreg; break;
    case PTX_D_MAXCLUSTERRANK: dst1 = &f->maxclusterrank; break;
    case PTX_D_NORETURN:
        f->noreturn = f->noreturn_attr = 1;
        ptx_ps_next(P);
        return true;
    case PTX_D_EXPLICITCLUSTER: case PTX_D_BLOCKSARECLUSTERS:
        ptx_ps_next(P);
        return true;
    case PTX_D_PRAGMA:
        ptx_ps_pragma(P);
        return true;
    default:
        return false;
    }
    ptx_ps_next(P);
    if (dst1) {
        *dst1 = (uint32_t)ptx_ps_uint(P, "a number");
        return true;
    }
    dst3[0] = (uint32_t)ptx_ps_uint(P, "a number");
    dst3[1] = dst3[2] = 1;
    for (int i = 1; i < 3 && ptx_ps_accept(P, ','); i++) dst3[i] = (uint32_t)ptx_ps_uint(P, "a number");
    return true;
}

static void parse_body(ptx_ps *P);

/* [.visible|.extern|.weak] (.entry|.func) [(rets)] name [(params)] perf* (; | {body}) */
void ptx_ps_func(ptx_ps *P, unsigned link)
{
    uint32_t v;
    ptx_ps_kw_cat(P, PTX_KW_DIR, &v);
    bool entry = v == PTX_D_ENTRY;
    uint32_t line = P->t.line, col = P->t.col;
    ptx_ps_next(P);
    P->prets.n = P->pparams.n = 0;
    if (!entry && ptx_ps_is(P, '(')) parse_params(P, true, false);
    ptx_ps_expect_id(P, "a function name");
    ptx_tok name = P->t;
    ptx_ps_next(P);
    if (ptx_ps_is(P, '(')) parse_params(P, false, false);
    ptx_func hdr;
    memset(&hdr, 0, sizeof hdr);
    while (parse_perf(P, &hdr)) {}
    bool body = ptx_ps_is(P, '{');
    if (!body && !ptx_ps_is(P, ';'))
        PTX_FAIL(P, "expected '{' or ';' after the function header, found %s", ptx_ps_tokdesc(P));

    uint32_t h = ptx_ps_hash(name.s, name.len);
    ptx_sym *s = ptx_ps_tab_find(&P->ms, name.s, name.len, h, false);
    int32_t fi;
    if (s) {
        if (s->kind != PTX_SK_FUNC)
            ptx_ps_fail(P, name.line, name.col, "redefinition of '%.*s' as a function",
                        (int)name.len, name.s);
        fi = s->val;
        ptx_func *f = &P->funcs.a[fi];
        if (f->is_entry != entry)
            ptx_ps_fail(P, name.line, name.col, "'%.*s' declared both as .entry and .func",
                        (int)name.len, name.s);
        if (body && !f->is_decl)
            ptx_ps_fail(P, name.line, name.col, "redefinition of function '%.*s'", (int)name.len,
                        name.s);
        if (!body) { /* another prototype: keep what we have */
            ptx_ps_next(P);
            return;
        }
    } else {
        ptx_func nf;
        memset(&nf, 0, sizeof nf);
        nf.name = ptx_ps_strdup(P, name.s, name.len);
        nf.is_entry = entry;
        nf.is_decl = 1;
        tp_vec_push(&P->funcs, nf);
        fi = (int32_t)(P->funcs.n - 1);
        uint32_t k = ptx_ps_tab_key(&P->ms, name.s, name.len, h, false);
        ptx_ps_tab_add(&P->ms, k, PTX_SK_FUNC, 0, fi, 0);
    }
    ptx_func *f = &P->funcs.a[fi];
    f->is_visible |= (link >> PTX_L_VISIBLE) & 1;
    f->is_extern = (link >> PTX_L_EXTERN) & 1;
    f->is_weak |= ((link >> PTX_L_WEAK) | (link >> PTX_L_COMMON)) & 1;
    f->line = line;
    f->col = col;
    memcpy(f->maxntid, hdr.maxntid, sizeof f->maxntid);
    memcpy(f->reqntid, hdr.reqntid, sizeof f->reqntid);
    memcpy(f->reqnctapercluster, hdr.reqnctapercluster, sizeof f->reqnctapercluster);
    f->minnctapersm = hdr.minnctapersm;
    f->maxnctapersm = hdr.maxnctapersm;
    f->maxnreg = hdr.maxnreg;
    f->maxclusterrank = hdr.maxclusterrank;
    f->noreturn |= hdr.noreturn;
    f->noreturn_attr |= hdr.noreturn_attr;
    f->nparams = P->pparams.n;
    f->params = ptx_ps_arena_copy(P->A, P->pparams.a, P->pparams.n * sizeof *f->params);
    f->nrets = P->prets.n;
    f->rets = ptx_ps_arena_copy(P->A, P->prets.a, P->prets.n * sizeof *f->rets);
    f->param_bytes = layout_params(P, f->params, f->nparams, 0);
    f->ret_bytes = layout_params(P, f->rets, f->nrets, f->param_bytes) - f->param_bytes;
    if (!body) {
        ptx_ps_next(P);
        return;
    }
    P->fi = fi;
    parse_body(P);
    P->fi = -1;
}

/* ---- function bodies ----------------------------------------------------------- */

static void open_scope(ptx_ps *P)
{
    if (P->depth >= MAX_DEPTH) PTX_FAIL(P, "blocks nested too deeply");
    P->depth++;
    tp_vec_push(&P->scope_mark, P->fs.syms.n);
    tp_vec_push(&P->cs_cursor, P->cs_cur);
}

static void patch_label(ptx_ps *P, const ptx_fix *x, uint32_t pc)
{
    ptx_opnd *o = x->insn == UINT32_MAX ? &P->pool.a[x->slot] : &P->insns.a[x->insn].o[x->slot];
    o->kind = PTX_OK_LABEL;
    o->r = (int32_t)pc;
}

/* Resolves the pending label references made at depth >= the closing one;
** the others move out to the enclosing scope. */
static void resolve_fixes(ptx_ps *P, bool last)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < P->fixes.n; i++) {
        ptx_fix *x = &P->fixes.a[i];
        if (x->depth >= P->depth) {
            ptx_sym *s = ptx_ps_tab_find(&P->fs, x->s, x->len, x->hash, false);
            if (s && s->kind == PTX_SK_LABEL) {
                patch_label(P, x, (uint32_t)s->val);
                continue;
            }
            if (s && s->depth >= P->depth)
                ptx_ps_fail(P, x->line, x->col, "'%.*s' is not a label", (int)x->len, x->s);
            if (last)
                ptx_ps_fail(P, x->line, x->col, "undefined label '%.*s'", (int)x->len, x->s);
            if (P->depth) x->depth = (uint8_t)(P->depth - 1);
        }
        P->fixes.a[j++] = *x;
    }
    P->fixes.n = j;
}

static void close_scope(ptx_ps *P)
{
    resolve_fixes(P, false);
    uint32_t mark = P->scope_mark.a[--P->scope_mark.n];
    for (uint32_t i = P->fs.syms.n; i-- > mark;) {
        ptx_sym *s = &P->fs.syms.a[i];
        P->fs.keys.a[s->key].head = s->shadow;
    }
    P->fs.syms.n = mark;
    P->cs_cur = P->cs_cursor.a[--P->cs_cursor.n];
    P->depth--;
}

bool ptx_ps_label_ref(ptx_ps *P, const ptx_tok *name, uint32_t insn, uint32_t slot, int32_t *pc)
{
    uint32_t h = ptx_ps_hash(name->s, name->len);
    ptx_sym *s = ptx_ps_tab_find(&P->fs, name->s, name->len, h, false);
    if (s && s->kind == PTX_SK_LABEL) {
        *pc = s->val;
        return true;
    }
    ptx_fix x = {name->s, name->len, h, insn, slot, P->depth, name->line, name->col};
    tp_vec_push(&P->fixes, x);
    return false;
}

static void declare_name(ptx_ps *P, const ptx_tok *name, bool range, int kind, int32_t val,
                         uint32_t count)
{
    uint32_t h = ptx_ps_hash(name->s, name->len);
    uint32_t k = ptx_ps_tab_key(&P->fs, name->s, name->len, h, range);
    int32_t head = P->fs.keys.a[k].head;
    if (head >= 0) {
        const ptx_sym *o = &P->fs.syms.a[head];
        if (o->depth == P->depth && o->kind != PTX_SK_PARAM && o->kind != PTX_SK_RET)
            ptx_ps_fail(P, name->line, name->col, "redeclaration of '%.*s'", (int)name->len, name->s);
    }
    if (!range) { /* %r3 after %r<4> in the same scope */
        uint32_t el;
        ptx_sym *r = ptx_ps_lookup(P, name->s, name->len, &el);
        if (r && (r->kind == PTX_SK_REGR || r->kind == PTX_SK_PREDR) && r->depth == P->depth)
            ptx_ps_fail(P, name->line, name->col, "redeclaration of '%.*s'", (int)name->len, name->s);
    }
    uint32_t si = ptx_ps_tab_add(&P->fs, k, kind, P->depth, val, count);
    P->fs.syms.a[si].line = name->line;
    P->fs.syms.a[si].col = name->col;
}

/* Appends the decimal digits of n to buf; returns the new end. */
static char *put_uint(char *p, uint32_t n)
{
    char tmp[12];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (k) *p++ = tmp[--k];
    return p;
}

/* .reg [.v2] .type name[<N>] {, name[<N>]} ; */
static void parse_reg(ptx_ps *P)
{
    ptx_ps_next(P);
    uint32_t v;
    int type = -1;
    while (P->t.kind == PTX_TK_DIR) {
        if (ptx_ps_kw_cat(P, PTX_KW_VEC, &v)) PTX_FAIL(P, "unsupported vector register declaration");
        if (type >= 0 || !ptx_ps_kw_cat(P, PTX_KW_TYPE, &v))
            PTX_FAIL(P, "unexpected %s in a register declaration", ptx_ps_tokdesc(P));
        type = (int)v;
        ptx_ps_next(P);
    }
    if (type < 0) PTX_FAIL(P, "expected a register type, found %s", ptx_ps_tokdesc(P));
    bool pred = type == PTX_T_PRED;
    uint32_t rows = type == PTX_T_B128 ? 2 : 1;
    for (;;) {
        ptx_ps_expect_id(P, "a register name");
        ptx_tok name = P->t;
        if (name.len == 1 && name.s[0] == '_') PTX_FAIL(P, "'_' is not a register name");
        ptx_ps_next(P);
        uint32_t n = 1;
        bool range = false;
        if (ptx_ps_is(P, '<')) {
            ptx_ps_next(P);
            uint32_t line = P->t.line, col = P->t.col;
            uint64_t c = ptx_ps_uint(P, "a register count");
            if (c == 0 || c > MAX_RANGE) ptx_ps_fail(P, line, col, "bad register count %llu",
                                                     (unsigned long long)c);
            ptx_ps_expect(P, '>');
            n = (uint32_t)c;
            range = true;
        }
        TP_VEC(ptx_reg) *dst = pred ? (void *)&P->preds : (void *)&P->regs;
        uint32_t first = dst->n;
        if ((uint64_t)first + (uint64_t)n * rows > (1u << 24)) PTX_FAIL(P, "too many registers");
        /* names: one arena block holding "%r0\0%r1\0..." */
        size_t per = name.len + 11;
        char *buf = tp_arena_alloc(P->A, range ? per * n : name.len + 1);
        tp_vec_grow(dst, n * rows);
        for (uint32_t i = 0; i < n; i++) {
            char *nm = buf, *p = buf;
            memcpy(p, name.s, name.len);
            p += name.len;
            if (range) p = put_uint(p, i);
            *p++ = 0;
            buf = p;
            ptx_reg r = {nm, (uint8_t)type, 0, P->depth, 0};
            dst->a[dst->n++] = r;
            if (rows == 2) {
                r.cont = 1;
                dst->a[dst->n++] = r;
            }
        }
        declare_name(P, &name, range,
                     pred ? (range ? PTX_SK_PREDR : PTX_SK_PRED) : (range ? PTX_SK_REGR : PTX_SK_REG),
                     (int32_t)first, n);
        P->fs.syms.a[P->fs.syms.n - 1].stride = (uint8_t)rows;
        if (!ptx_ps_accept(P, ',')) break;
    }
    ptx_ps_expect(P, ';');
}

/* name: .callprototype / .calltargets / .branchtargets, or a label. */
static void parse_labelish(ptx_ps *P)
{
    ptx_tok name = P->t;
    ptx_ps_next(P); /* name */
    ptx_ps_next(P); /* ':' */
    uint32_t v;
    if (P->t.kind == PTX_TK_DIR && ptx_ps_kw_cat(P, PTX_KW_DIR, &v)) {
        if (v == PTX_D_CALLPROTOTYPE) {
            ptx_ps_next(P);
            if (ptx_ps_is(P, '(')) parse_params(P, true, true);
            if (P->t.kind != PTX_TK_ID || P->t.len != 1 || P->t.s[0] != '_')
                PTX_FAIL(P, "expected '_' in .callprototype, found %s", ptx_ps_tokdesc(P));
            ptx_ps_next(P);
            if (ptx_ps_is(P, '(')) parse_params(P, false, true);
            while (P->t.kind == PTX_TK_DIR && ptx_ps_is_dir(P, PTX_D_NORETURN)) ptx_ps_next(P);
            ptx_ps_expect(P, ';');
            declare_name(P, &name, false, PTX_SK_PROTO, 0, 0);
            return;
        }
        if (v == PTX_D_CALLTARGETS || v == PTX_D_BRANCHTARGETS) {
            bool br = v == PTX_D_BRANCHTARGETS;
            ptx_ps_next(P);
            uint32_t first = P->pool.n, n = 0;
            for (;;) {
                ptx_ps_expect_id(P, br ? "a label" : "a function");
                ptx_opnd o;
                memset(&o, 0, sizeof o);
                if (br) {
                    o.kind = PTX_OK_LABEL;
                    uint32_t pi = ptx_ps_pool_add(P, &o, 1);
                    int32_t pc;
                    if (ptx_ps_label_ref(P, &P->t, UINT32_MAX, pi, &pc)) P->pool.a[pi].r = pc;
                } else {
                    uint32_t el;
                    ptx_sym *s = ptx_ps_lookup(P, P->t.s, P->t.len, &el);
                    if (!s || s->kind != PTX_SK_FUNC)
                        PTX_FAIL(P, "%s is not a declared function", ptx_ps_tokdesc(P));
                    o.kind = PTX_OK_FUNC;
                    o.r = s->val;
                    ptx_ps_pool_add(P, &o, 1);
                }
                n++;
                ptx_ps_next(P);
                if (!ptx_ps_accept(P, ',')) break;
            }
            ptx_ps_expect(P, ';');
            if (n > 255) ptx_ps_fail(P, name.line, name.col, "more than 255 targets");
            declare_name(P, &name, false, br ? PTX_SK_BTARGETS : PTX_SK_CTARGETS, (int32_t)first, n);
            return;
        }
    }
    declare_name(P, &name, false, PTX_SK_LABEL, (int32_t)P->insns.n, 0);
    ptx_label l = {P->insns.n, NULL};
    l.name = ptx_ps_strdup(P, name.s, name.len);
    tp_vec_push(&P->labels, l);
}

static void start_function(ptx_ps *P)
{
    ptx_func *f = &P->funcs.a[P->fi];
    ptx_ps_tab_clear(&P->fs);
    P->regs.n = P->preds.n = P->fvars.n = 0;
    P->scope_mark.n = P->cs_cursor.n = 0;
    P->fixes.n = 0;
    P->depth = 0;
    P->cs_cur = P->cs_max = 0;
    P->cs_align = 1;
    P->local_cur = 0;
    P->local_align = 1;
    P->srcfile = P->srcline = 0;
    P->srccall = (ptx_srcloc){0, 0};
    P->locs.n = 0;
    if (P->loccap) memset(P->locidx, 0, P->loccap * sizeof *P->locidx);
    for (uint32_t i = 0; i < f->nparams + f->nrets; i++) {
        bool ret = i >= f->nparams;
        const ptx_param *p = ret ? &f->rets[i - f->nparams] : &f->params[i];
        ptx_tok t;
        memset(&t, 0, sizeof t);
        t.s = p->name;
        t.len = (uint32_t)strlen(p->name);
        t.line = f->line;
        t.col = f->col;
        uint32_t k = ptx_ps_tab_key(&P->fs, t.s, t.len, ptx_ps_hash(t.s, t.len), false);
        if (P->fs.keys.a[k].head >= 0)
            ptx_ps_fail(P, f->line, f->col, "duplicate parameter '%s'", p->name);
        ptx_ps_tab_add(&P->fs, k, ret ? PTX_SK_RET : PTX_SK_PARAM, 0,
                       (int32_t)(ret ? i - f->nparams : i), 0);
    }
}

static void finish_function(ptx_ps *P, uint32_t start, uint32_t line, uint32_t col)
{
    resolve_fixes(P, true);
    ptx_insn fx;
    memset(&fx, 0, sizeof fx);
    fx.op = PTX_OP_FNEXIT;
    fx.guard = -1;
    fx.m.vec = 1;
    fx.line = line;
    fx.col = col;
    fx.srcfile = P->srcfile;
    fx.srcline = P->srcline;
    tp_vec_push(&P->insns, fx);
    tp_vec_push(&P->calls, P->srccall);
    ptx_func *f = &P->funcs.a[P->fi];
    f->is_decl = 0;
    f->start = start;
    f->end = P->insns.n;
    /* frame: [params, rets (.func)] [.local vars] [callseq .param vars] */
    uint64_t base = f->is_entry ? 0 : (uint64_t)f->param_bytes + f->ret_bytes;
    uint64_t lbase = TP_ALIGN_UP(base, P->local_align);
    uint64_t cbase = TP_ALIGN_UP(lbase + P->local_cur, P->cs_align);
    uint64_t total = TP_ALIGN_UP(cbase + P->cs_max, 16);
    if (total > UINT32_MAX) ptx_ps_fail(P, line, col, "frame too large");
    for (uint32_t i = 0; i < P->fvars.n; i++) {
        ptx_var *v = &P->fvars.a[i];
        if (v->space == PTX_SP_LOCAL) v->offset += lbase;
        else if (v->space == PTX_SP_PARAM) v->offset += cbase;
    }
    f->local_bytes = (uint32_t)total;
    f->nrows = P->regs.n;
    f->regs = P->regs.n ? tp_arena_alloc(P->A, P->regs.n * sizeof *f->regs) : NULL;
    if (P->regs.n) memcpy(f->regs, P->regs.a, P->regs.n * sizeof *f->regs);
    f->npreds = P->preds.n;
    f->preds = P->preds.n ? tp_arena_alloc(P->A, P->preds.n * sizeof *f->preds) : NULL;
    if (P->preds.n) memcpy(f->preds, P->preds.a, P->preds.n * sizeof *f->preds);
    f->nvars = P->fvars.n;
    f->vars = P->fvars.n ? tp_arena_alloc(P->A, P->fvars.n * sizeof *f->vars) : NULL;
    if (P->fvars.n) memcpy(f->vars, P->fvars.a, P->fvars.n * sizeof *f->vars);
}

static void parse_body(ptx_ps *P)
{
    uint32_t start = P->insns.n;
    start_function(P);
    ptx_ps_next(P); /* '{' */
    for (;;) {
        const ptx_tok *t = &P->t;
        uint32_t v;
        switch (t->kind) {
        case PTX_TK_PUNCT:
            if (t->c == '{') {
                open_scope(P);
                ptx_ps_next(P);
                continue;
            }
            if (t->c == '}') {
                if (P->depth == 0) {
                    uint32_t line = t->line, col = t->col;
                    finish_function(P, start, line, col);
                    ptx_ps_next(P);
                    return;
                }
                close_scope(P);
                ptx_ps_next(P);
                continue;
            }
            if (t->c == ';') {
                ptx_ps_next(P);
                continue;
            }
            if (t->c == '@') {
                ptx_ps_insn(P);
                continue;
            }
            break;
        case PTX_TK_ID:
            if (ptx_ps_peek(P)->kind == PTX_TK_PUNCT && ptx_ps_peek(P)->c == ':') {
                parse_labelish(P);
                continue;
            }
            ptx_ps_insn(P);
            continue;
        case PTX_TK_DIR:
            if (ptx_ps_kw_cat(P, PTX_KW_DIR, &v)) {
                if (v == PTX_D_REG) {
                    parse_reg(P);
                    continue;
                }
                if (v == PTX_D_PRAGMA) {
                    ptx_ps_pragma(P);
                    continue;
                }
                if (v == PTX_D_LOC) {
                    ptx_ps_loc(P);
                    continue;
                }
            }
            if (ptx_ps_kw_cat(P, PTX_KW_SPACE, &v)) {
                ptx_ps_var(P, 0, true);
                continue;
            }
            PTX_FAIL(P, "unexpected directive %s in a function body", ptx_ps_tokdesc(P));
        case PTX_TK_EOF:
            PTX_FAIL(P, "unexpected end of file in the body of '%s'", P->funcs.a[P->fi].name);
        default:
            break;
        }
        PTX_FAIL(P, "expected an instruction, found %s", ptx_ps_tokdesc(P));
    }
}
