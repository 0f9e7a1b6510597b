/*
** parse_var.c -- PTX variable declarations and their initializers: state
** space, alignment, vector and array shapes, initializer lists (nested
** braces padded per sub-array, integer and float constants, symbol
** addresses with generic() and offsets, byte masks of addresses), and the
** placement of function-scope variables in the frame.
*/
#include "parse_int.h"
#include <stdio.h>

/* Limits that keep hostile input from exhausting memory or the stack. */
enum { MAX_DEPTH = 200 };
#define MAX_INIT_BYTES ((uint64_t)1 << 28) /* an initialized variable */
#define MAX_VAR_BYTES ((uint64_t)1 << 48)

typedef struct vdecl {
    ptx_space space;
    ptx_type type;      /* scalar element type */
    uint32_t vec, align, texref;
    unsigned link;      /* 1 << PTX_L_* */
    uint32_t line, col;
} vdecl;

static void put_le(ptx_ps *P, uint64_t off, uint64_t v, uint32_t size)
{
    for (uint32_t i = 0; i < size; i++) P->ibytes.a[off + i] = (uint8_t)(v >> (8 * i));
}

/* A symbol reference in an initializer: sym, sym+N, generic(sym)+N. */
static void init_symref(ptx_ps *P, ptx_preloc *r)
{
    bool gen = false;
    if (ptx_ps_tok_is(&P->t, "generic") && ptx_ps_peek(P)->kind == PTX_TK_PUNCT &&
        ptx_ps_peek(P)->c == '(') {
        gen = true;
        ptx_ps_next(P);
        ptx_ps_next(P);
        ptx_ps_expect_id(P, "a symbol");
    }
    r->s = P->t.s;
    r->len = P->t.len;
    r->line = P->t.line;
    r->col = P->t.col;
    r->r.generic = gen;
    ptx_ps_next(P);
    int64_t add = 0;
    for (int pass = 0; pass < 2; pass++) {
        while (ptx_ps_is(P, '+') || ptx_ps_is(P, '-')) {
            bool neg = P->t.c == '-';
            ptx_ps_next(P);
            int64_t v = ptx_ps_int(P);
            add = neg ? (int64_t)((uint64_t)add - (uint64_t)v) : (int64_t)((uint64_t)add + (uint64_t)v);
        }
        if (pass == 0 && gen) ptx_ps_expect(P, ')');
        else if (pass == 0) break;
    }
    r->r.addend = add;
}

typedef struct ishape {
    ptx_type et;
    uint32_t esize;
    uint32_t ndims;
    uint64_t stride[10]; /* stride[l] = elements under a brace at level l */
    uint64_t nel;        /* elements (0 when unsized) */
    bool unsized;
} ishape;

static void init_leaf(ptx_ps *P, const ishape *sh, uint64_t *idx)
{
    if (!sh->unsized && *idx >= sh->nel) PTX_FAIL(P, "too many initializers");
    uint64_t off = *idx * sh->esize;
    if (off + sh->esize > MAX_INIT_BYTES) PTX_FAIL(P, "initialized variable too large");
    if (P->ibytes.n < off + sh->esize) {
        uint32_t old = P->ibytes.n;
        tp_vec_grow(&P->ibytes, (uint32_t)(off + sh->esize - old));
        memset(P->ibytes.a + old, 0, off + sh->esize - old);
        P->ibytes.n = (uint32_t)(off + sh->esize);
    }
    uint32_t line = P->t.line, col = P->t.col;
    uint64_t pre;
    if (P->t.kind == PTX_TK_ID && !ptx_ps_predef_const(P, &pre)) {
        if (sh->esize != 4 && sh->esize != 8)
            PTX_FAIL(P, "address of %s in a .%s initializer (needs 4 or 8 bytes, or a byte mask)",
                     ptx_ps_tokdesc(P), ptx_types[sh->et].name);
        ptx_preloc r = {{0}, 0, 0, 0, 0};
        init_symref(P, &r);
        r.r.offset = off;
        r.r.size = (uint8_t)sh->esize;
        tp_vec_push(&P->irelocs, r);
    } else if (P->t.kind == PTX_TK_INT && ptx_ps_peek(P)->kind == PTX_TK_PUNCT &&
               ptx_ps_peek(P)->c == '(') {
        /* 0xFF00(generic(sym)+4): one byte of an address */
        uint64_t mask = P->t.u;
        int k = 0;
        while (k < 8 && mask != (uint64_t)0xFF << (8 * k)) k++;
        if (k == 8) PTX_FAIL(P, "unsupported initializer mask %s", ptx_ps_tokdesc(P));
        if (sh->esize != 1) PTX_FAIL(P, "byte mask in a .%s initializer", ptx_types[sh->et].name);
        ptx_ps_next(P);
        ptx_ps_next(P);
        ptx_ps_expect_id(P, "a symbol");
        ptx_preloc r = {{0}, 0, 0, 0, 0};
        init_symref(P, &r);
        ptx_ps_expect(P, ')');
        ptx_mbyte mb = {off, r.s, r.len, r.r.addend, (uint8_t)k, r.r.generic, r.line, r.col};
        tp_vec_push(&P->imbytes, mb);
    } else {
        ptx_cval v;
        ptx_ps_const(P, &v);
        put_le(P, off, ptx_ps_const_bits(P, &v, sh->et, line, col), sh->esize);
    }
    ++*idx;
}

static void init_list(ptx_ps *P, const ishape *sh, uint64_t *idx, uint32_t level)
{
    if (!ptx_ps_is(P, '{')) {
        init_leaf(P, sh, idx);
        return;
    }
    if (level > MAX_DEPTH) PTX_FAIL(P, "initializer nested too deeply");
    ptx_ps_next(P);
    uint64_t start = *idx;
    if (!ptx_ps_is(P, '}')) {
        for (;;) {
            init_list(P, sh, idx, level + 1);
            if (!ptx_ps_accept(P, ',')) break;
        }
    }
    uint32_t line = P->t.line, col = P->t.col;
    ptx_ps_expect(P, '}');
    if (level >= 1 && level < sh->ndims) { /* a sub-array: pad it to its size */
        uint64_t end = start + sh->stride[level];
        if (*idx > end) ptx_ps_fail(P, line, col, "too many initializers for a sub-array");
        *idx = end;
    }
}

/* Turns runs of masked address bytes into relocations. */
static void merge_mbytes(ptx_ps *P)
{
    uint32_t n = P->imbytes.n;
    for (uint32_t i = 0; i < n;) {
        const ptx_mbyte *b = &P->imbytes.a[i];
        uint32_t j = i + 1;
        while (j < n && j - i < 8) {
            const ptx_mbyte *c = &P->imbytes.a[j];
            if (c->offset != b->offset + (j - i) || c->shift != j - i || c->len != b->len ||
                memcmp(c->s, b->s, b->len) != 0 || c->addend != b->addend || c->generic != b->generic)
                break;
            j++;
        }
        if (b->shift != 0 || (j - i != 8 && j - i != 4))
            ptx_ps_fail(P, b->line, b->col, "unsupported partial address in an initializer");
        ptx_preloc r = {{b->offset, 0, (uint8_t)(j - i), b->generic, b->addend},
                        b->s, b->len, b->line, b->col};
        tp_vec_push(&P->irelocs, r);
        i = j;
    }
}

static uint32_t add_module_var(ptx_ps *P, const ptx_var *v, uint32_t line, uint32_t col)
{
    uint32_t len = (uint32_t)strlen(v->name);
    uint32_t h = ptx_ps_hash(v->name, len);
    ptx_sym *s = ptx_ps_tab_find(&P->ms, v->name, len, h, false);
    if (s) {
        if (s->kind == PTX_SK_VAR) {
            ptx_var *o = &P->vars.a[s->val];
            if (o->is_extern && !v->is_extern) { /* definition of an .extern variable */
                *o = *v;
                return (uint32_t)s->val;
            }
            if (v->is_extern) return (uint32_t)s->val;
        }
        ptx_ps_fail(P, line, col, "redefinition of '%s'", v->name);
    }
    tp_vec_push(&P->vars, *v);
    uint32_t k = ptx_ps_tab_key(&P->ms, v->name, len, h, false);
    ptx_ps_tab_add(&P->ms, k, PTX_SK_VAR, 0, (int32_t)(P->vars.n - 1), 0);
    return P->vars.n - 1;
}

static void add_func_var(ptx_ps *P, ptx_var *v, const ptx_tok *name)
{
    ptx_sym *old = ptx_ps_tab_find(&P->fs, name->s, name->len, ptx_ps_hash(name->s, name->len), false);
    if (old && old->depth == P->depth && old->kind != PTX_SK_PARAM && old->kind != PTX_SK_RET)
        ptx_ps_fail(P, name->line, name->col, "redeclaration of '%.*s'", (int)name->len, name->s);
    uint64_t align = v->align;
    if (v->space == PTX_SP_LOCAL) {
        P->local_cur = TP_ALIGN_UP(P->local_cur, align);
        v->offset = P->local_cur;
        P->local_cur += v->size;
        if (align > P->local_align) P->local_align = (uint32_t)align;
        if (P->local_cur > UINT32_MAX) PTX_FAIL(P, "local variables too large");
    } else if (v->space == PTX_SP_PARAM) {
        uint64_t o = TP_ALIGN_UP(P->cs_cur, align);
        if (o + v->size > UINT32_MAX) PTX_FAIL(P, "parameter variables too large");
        v->offset = o;
        P->cs_cur = (uint32_t)(o + v->size);
        if (P->cs_cur > P->cs_max) P->cs_max = P->cs_cur;
        if (align > P->cs_align) P->cs_align = (uint32_t)align;
    }
    tp_vec_push(&P->fvars, *v);
    uint32_t k = ptx_ps_tab_key(&P->fs, name->s, name->len, ptx_ps_hash(name->s, name->len), false);
    uint32_t si = ptx_ps_tab_add(&P->fs, k, PTX_SK_FVAR, P->depth, (int32_t)(P->fvars.n - 1), 0);
    P->fs.syms.a[si].line = name->line;
    P->fs.syms.a[si].col = name->col;
}

/* [.space] [.align N] [.v4] .type name[dims] [= init] {, ...} ;  The current
** token is the state space (or .texref and friends). */
void ptx_ps_var(ptx_ps *P, unsigned link, bool in_func)
{
    vdecl d = {PTX_SP_GLOBAL, PTX_T_NONE, 1, 0, 0, link, P->t.line, P->t.col};
    uint32_t v;
    bool has_type = false;
    if (ptx_ps_kw_cat(P, PTX_KW_SPACE, &v)) {
        d.space = (ptx_space)v;
        ptx_ps_next(P);
    }
    while (P->t.kind == PTX_TK_DIR) {
        if (ptx_ps_kw_cat(P, PTX_KW_DIR, &v)) {
            if (v == PTX_D_ALIGN) {
                ptx_ps_next(P);
                d.align = ptx_ps_align(P);
                continue;
            }
            if (v == PTX_D_ATTRIBUTE) {
                ptx_ps_next(P);
                ptx_ps_skip_group(P, '(', ')');
                continue;
            }
            if (v == PTX_D_TEXREF || v == PTX_D_SAMPLERREF || v == PTX_D_SURFREF) {
                d.texref = v == PTX_D_TEXREF ? 1 : v == PTX_D_SAMPLERREF ? 2 : 3;
                ptx_ps_next(P);
                continue;
            }
        }
        if (ptx_ps_kw_cat(P, PTX_KW_VEC, &v)) {
            d.vec = v;
            ptx_ps_next(P);
            continue;
        }
        if (ptx_ps_kw_cat(P, PTX_KW_TYPE, &v)) {
            if (has_type) PTX_FAIL(P, "second type %s in a variable declaration", ptx_ps_tokdesc(P));
            d.type = (ptx_type)v;
            has_type = true;
            ptx_ps_next(P);
            continue;
        }
        PTX_FAIL(P, "unexpected %s in a variable declaration", ptx_ps_tokdesc(P));
    }
    if (d.texref) {
        d.type = PTX_T_B64;
    } else if (!has_type) {
        PTX_FAIL(P, "expected a type, found %s", ptx_ps_tokdesc(P));
    } else if (d.type == PTX_T_PRED) {
        ptx_ps_fail(P, d.line, d.col, ".pred variables are not allowed in memory");
    }
    if (in_func && d.space != PTX_SP_LOCAL && d.space != PTX_SP_SHARED && d.space != PTX_SP_PARAM)
        ptx_ps_fail(P, d.line, d.col, "unsupported function-scope .%s variable",
                    ptx_space_names[d.space]);
    if (!in_func && (d.space == PTX_SP_PARAM || d.space == PTX_SP_PARAM_ENTRY ||
                     d.space == PTX_SP_PARAM_FUNC))
        ptx_ps_fail(P, d.line, d.col, ".param variables are only allowed in functions");
    uint32_t esize = ptx_type_size(d.type);
    for (;;) {
        ptx_ps_expect_id(P, "a variable name");
        ptx_tok name = P->t;
        ptx_ps_next(P);
        ishape sh = {d.type, esize, 0, {0}, 1, false};
        uint64_t dims[10];
        uint32_t nd = 0;
        while (ptx_ps_is(P, '[')) {
            if (nd == 8) PTX_FAIL(P, "too many array dimensions");
            ptx_ps_next(P);
            if (ptx_ps_is(P, ']')) {
                if (nd) PTX_FAIL(P, "only the first array dimension may be empty");
                sh.unsized = true;
                dims[nd++] = 0;
            } else {
                uint32_t line = P->t.line, col = P->t.col;
                int64_t n = ptx_ps_int(P);
                if (n <= 0 || (uint64_t)n > MAX_VAR_BYTES)
                    ptx_ps_fail(P, line, col, "bad array size %lld", (long long)n);
                dims[nd++] = (uint64_t)n;
            }
            ptx_ps_expect(P, ']');
        }
        if (d.vec > 1) dims[nd++] = d.vec;
        sh.ndims = nd;
        uint64_t total = 1;
        for (uint32_t i = nd; i-- > 0;) {
            if (dims[i] && total > MAX_VAR_BYTES / dims[i]) PTX_FAIL(P, "array too large");
            if (dims[i]) total *= dims[i];
            sh.stride[i] = total;
        }
        sh.nel = sh.unsized ? 0 : total;
        if (total > MAX_VAR_BYTES / (esize ? esize : 1)) PTX_FAIL(P, "array too large");
        ptx_var var;
        memset(&var, 0, sizeof var);
        var.name = ptx_ps_strdup(P, name.s, name.len);
        var.space = (uint8_t)d.space;
        var.type = (uint8_t)d.type;
        var.is_extern = (link >> PTX_L_EXTERN) & 1;
        var.is_visible = (link >> PTX_L_VISIBLE) & 1;
        var.is_weak = ((link >> PTX_L_WEAK) | (link >> PTX_L_COMMON)) & 1;
        var.is_array_unsized = sh.unsized;
        var.align = d.align ? d.align : esize * d.vec;
        if (!var.align) var.align = 1;
        var.texref = d.texref;
        var.size = sh.unsized ? 0 : total * esize;
        var.line = name.line;
        var.col = name.col;
        P->irelocs.n = 0;
        P->imbytes.n = 0;
        if (ptx_ps_is(P, '=')) {
            uint32_t line = P->t.line, col = P->t.col;
            ptx_ps_next(P);
            if (in_func) ptx_ps_fail(P, line, col, "function-scope variables cannot be initialized");
            if (d.texref) {
                ptx_ps_skip_group(P, '{', '}');
            } else {
                if (var.size > MAX_INIT_BYTES) ptx_ps_fail(P, line, col, "initialized variable too large");
                P->ibytes.n = 0;
                uint64_t idx = 0;
                P->cdepth = 0;
                init_list(P, &sh, &idx, 0);
                merge_mbytes(P);
                if (sh.unsized) {
                    uint64_t inner = nd > 1 ? sh.stride[1] : 1;
                    uint64_t n = (idx + inner - 1) / inner * inner;
                    var.size = n * esize;
                    var.is_array_unsized = 0;
                }
                var.has_init = 1;
                var.init = tp_arena_alloc(P->A, var.size ? var.size : 1);
                memcpy(var.init, P->ibytes.a, TP_MIN((uint64_t)P->ibytes.n, var.size));
            }
        }
        if (in_func) {
            add_func_var(P, &var, &name);
        } else {
            uint32_t vi;
            if (P->irelocs.n) {
                var.nrelocs = P->irelocs.n;
                var.relocs = tp_arena_alloc(P->A, P->irelocs.n * sizeof *var.relocs);
            }
            vi = add_module_var(P, &var, name.line, name.col);
            for (uint32_t i = 0; i < P->irelocs.n; i++) {
                const ptx_preloc *r = &P->irelocs.a[i];
                P->vars.a[vi].relocs[i] = r->r;
                ptx_pfix f = {vi, i, r->s, r->len, r->line, r->col};
                tp_vec_push(&P->pfix, f);
            }
        }
        if (!ptx_ps_accept(P, ',')) break;
    }
    ptx_ps_expect(P, ';');
}
