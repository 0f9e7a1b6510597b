/*
** parse.c -- the PTX parser: module directives, variables and their
** initializers, functions, register declarations, scopes and labels, frame
** layout, and the public entry points (ptx_parse, ptx_module_free,
** ptx_find_func, ptx_find_var, ptx_func_of_pc).  Instructions are parsed in
** parse_insn.c; name tables and constants live in symtab.c.
**
** The parser is a recursive-descent reader over the token stream of lex.c
** with one token of lookahead.  Names are resolved while parsing (PTX
** declares before use), except labels, which may be referenced before their
** definition and are patched when their scope closes, and the symbols of
** initializers, which are resolved at the end of the module.
*/
#include "parse_int.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Limits that keep hostile input from exhausting memory or the stack. */
enum {
    MAX_DEPTH = 200,                      /* { } nesting and initializer braces */
    MAX_RANGE = 1 << 22,                  /* registers in one %r<N> declaration */
};
#define MAX_INIT_BYTES ((uint64_t)1 << 28) /* an initialized variable */
#define MAX_VAR_BYTES ((uint64_t)1 << 48)

/* ---- errors and tokens ------------------------------------------------------ */

void ptx_ps_fail(ptx_ps *P, uint32_t line, uint32_t col, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tp_loc loc = {P->file, line, col};
    tp_err_at(P->e, 1, loc, "%s", buf);
    longjmp(P->jb, 1);
}

void ptx_ps_next(ptx_ps *P)
{
    if (P->has_la) {
        P->t = P->la;
        P->has_la = false;
    } else {
        ptx_lex_next(&P->lx, &P->t);
    }
    if (P->t.kind == PTX_TK_ERR) longjmp(P->jb, 1);
}

const ptx_tok *ptx_ps_peek(ptx_ps *P)
{
    if (!P->has_la) {
        ptx_lex_next(&P->lx, &P->la);
        P->has_la = true;
    }
    return &P->la;
}

const char *ptx_ps_tokdesc(ptx_ps *P)
{
    const ptx_tok *t = &P->t;
    switch (t->kind) {
    case PTX_TK_EOF: return "end of file";
    case PTX_TK_STR: return "a string";
    default: {
        uint32_t n = t->len < 40 ? t->len : 40;
        snprintf(P->namebuf, sizeof P->namebuf, "'%.*s%s'", (int)n, t->s, n < t->len ? "..." : "");
        return P->namebuf;
    }
    }
}

void ptx_ps_expect(ptx_ps *P, char c)
{
    if (!ptx_ps_is(P, c)) PTX_FAIL(P, "expected '%c', found %s", c, ptx_ps_tokdesc(P));
    ptx_ps_next(P);
}

bool ptx_ps_accept(ptx_ps *P, char c)
{
    if (!ptx_ps_is(P, c)) return false;
    ptx_ps_next(P);
    return true;
}

char *ptx_ps_strdup(ptx_ps *P, const char *s, uint32_t len)
{
    return tp_arena_strndup(P->A, s, len);
}

static void *arena_copy(tp_arena *A, const void *p, size_t n)
{
    if (!n) return NULL;
    void *d = tp_arena_alloc(A, n);
    memcpy(d, p, n);
    return d;
}

/* The first meaning of the current DIR/ID token in category cat. */
static bool kw_cat(ptx_ps *P, int cat, uint32_t *val)
{
    if (P->t.kind != PTX_TK_DIR && P->t.kind != PTX_TK_ID) return false;
    for (ptx_sym *k = ptx_ps_kw_find(P, P->t.s, P->t.len); k; k = ptx_ps_kw_other(P, k))
        if (k->count == (uint32_t)cat) {
            *val = (uint32_t)k->val;
            return true;
        }
    return false;
}

static bool is_dir(ptx_ps *P, int d)
{
    uint32_t v;
    return P->t.kind == PTX_TK_DIR && kw_cat(P, PTX_KW_DIR, &v) && v == (uint32_t)d;
}

/* An unsigned integer literal (counts, sizes, versions). */
static uint64_t expect_uint(ptx_ps *P, const char *what)
{
    if (P->t.kind != PTX_TK_INT) PTX_FAIL(P, "expected %s, found %s", what, ptx_ps_tokdesc(P));
    uint64_t v = P->t.u;
    ptx_ps_next(P);
    return v;
}

static uint32_t expect_align(ptx_ps *P)
{
    uint32_t line = P->t.line, col = P->t.col;
    uint64_t a = expect_uint(P, "an alignment");
    if (a == 0 || (a & (a - 1)) || a > (1u << 16))
        ptx_ps_fail(P, line, col, "alignment %llu is not a power of two up to 65536",
                    (unsigned long long)a);
    return (uint32_t)a;
}

static void expect_id(ptx_ps *P, const char *what)
{
    if (P->t.kind != PTX_TK_ID) PTX_FAIL(P, "expected %s, found %s", what, ptx_ps_tokdesc(P));
}

/* Skips a balanced ( ... ) group starting at the current '('. */
static void skip_group(ptx_ps *P, char open, char close)
{
    int depth = 0;
    do {
        if (P->t.kind == PTX_TK_EOF) PTX_FAIL(P, "unexpected end of file (unbalanced '%c')", open);
        if (ptx_ps_is(P, open)) depth++;
        else if (ptx_ps_is(P, close)) depth--;
        ptx_ps_next(P);
    } while (depth > 0);
}

/* ---- module directives ------------------------------------------------------- */

static void parse_version(ptx_ps *P)
{
    ptx_ps_next(P);
    const ptx_tok *t = &P->t;
    uint32_t maj = 0, min = 0;
    if (t->kind == PTX_TK_DBL) {
        const char *s = t->s, *e = t->s + t->len;
        while (s < e && *s != '.') maj = maj * 10 + (uint32_t)(*s++ - '0');
        for (s++; s < e && *s >= '0' && *s <= '9'; s++) min = min * 10 + (uint32_t)(*s - '0');
    } else if (t->kind == PTX_TK_INT) {
        maj = (uint32_t)t->u;
    } else {
        PTX_FAIL(P, "expected a version number, found %s", ptx_ps_tokdesc(P));
    }
    P->m->version_major = maj;
    P->m->version_minor = min;
    ptx_ps_next(P);
}

static bool tok_is(const ptx_tok *t, const char *s)
{
    return t->len == strlen(s) && memcmp(t->s, s, t->len) == 0;
}

static void parse_target(ptx_ps *P)
{
    ptx_ps_next(P);
    bool first = true;
    for (;;) {
        expect_id(P, "a target");
        const char *s = P->t.s;
        uint32_t n = P->t.len;
        if (n > 3 && (memcmp(s, "sm_", 3) == 0 || (n > 8 && memcmp(s, "compute_", 8) == 0))) {
            uint32_t v = 0, i = s[0] == 's' ? 3 : 8;
            for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) v = v * 10 + (uint32_t)(s[i] - '0');
            if (first && !P->m->target_sm) P->m->target_sm = v;
        } else if (tok_is(&P->t, "texmode_independent")) {
            P->m->target_flags |= 1;
        } else if (tok_is(&P->t, "debug")) {
            P->m->target_flags |= 2;
        } else if (tok_is(&P->t, "map_f64_to_f32")) {
            P->m->target_flags |= 4;
        } else if (!tok_is(&P->t, "texmode_unified")) {
            PTX_FAIL(P, "unknown target %s", ptx_ps_tokdesc(P));
        }
        first = false;
        ptx_ps_next(P);
        if (!ptx_ps_accept(P, ',')) break;
    }
}

static void parse_file(ptx_ps *P)
{
    ptx_ps_next(P);
    uint32_t line = P->t.line, col = P->t.col;
    uint64_t idx = expect_uint(P, "a file number");
    if (P->t.kind != PTX_TK_STR) PTX_FAIL(P, "expected a file name, found %s", ptx_ps_tokdesc(P));
    if (idx > 1000000) ptx_ps_fail(P, line, col, "file number too large");
    while (P->files.n <= idx) tp_vec_push(&P->files, (const char *)NULL);
    P->files.a[idx] = ptx_ps_strdup(P, P->t.s, P->t.len);
    ptx_ps_next(P);
    while (ptx_ps_accept(P, ',')) expect_uint(P, "a timestamp or size");
}

/* .loc file line col [, function_name label[+off], inlined_at f l c] */
static void parse_loc(ptx_ps *P)
{
    ptx_ps_next(P);
    uint32_t f = (uint32_t)expect_uint(P, "a file number");
    uint32_t l = (uint32_t)expect_uint(P, "a line number");
    expect_uint(P, "a column number");
    P->srcfile = f;
    P->srcline = l;
    while (ptx_ps_is(P, ',')) {
        ptx_ps_next(P);
        expect_id(P, "function_name or inlined_at");
        if (tok_is(&P->t, "function_name")) {
            ptx_ps_next(P);
            expect_id(P, "a label");
            ptx_ps_next(P);
            if (ptx_ps_accept(P, '+')) expect_uint(P, "an offset");
        } else if (tok_is(&P->t, "inlined_at")) {
            ptx_ps_next(P);
            for (int i = 0; i < 3; i++) expect_uint(P, "a location number");
        } else {
            PTX_FAIL(P, "unexpected %s in .loc", ptx_ps_tokdesc(P));
        }
    }
}

static void parse_pragma(ptx_ps *P)
{
    ptx_ps_next(P);
    do {
        if (P->t.kind != PTX_TK_STR) PTX_FAIL(P, "expected a string, found %s", ptx_ps_tokdesc(P));
        ptx_ps_next(P);
    } while (ptx_ps_accept(P, ','));
    ptx_ps_expect(P, ';');
}

/* ---- variables and initializers ----------------------------------------------- */

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
    if (tok_is(&P->t, "generic") && ptx_ps_peek(P)->kind == PTX_TK_PUNCT &&
        ptx_ps_peek(P)->c == '(') {
        gen = true;
        ptx_ps_next(P);
        ptx_ps_next(P);
        expect_id(P, "a symbol");
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
    if (P->t.kind == PTX_TK_ID) {
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
        expect_id(P, "a symbol");
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
static void parse_var(ptx_ps *P, unsigned link, bool in_func)
{
    vdecl d = {PTX_SP_GLOBAL, PTX_T_NONE, 1, 0, 0, link, P->t.line, P->t.col};
    uint32_t v;
    bool has_type = false;
    if (kw_cat(P, PTX_KW_SPACE, &v)) {
        d.space = (ptx_space)v;
        ptx_ps_next(P);
    }
    while (P->t.kind == PTX_TK_DIR) {
        if (kw_cat(P, PTX_KW_DIR, &v)) {
            if (v == PTX_D_ALIGN) {
                ptx_ps_next(P);
                d.align = expect_align(P);
                continue;
            }
            if (v == PTX_D_ATTRIBUTE) {
                ptx_ps_next(P);
                skip_group(P, '(', ')');
                continue;
            }
            if (v == PTX_D_TEXREF || v == PTX_D_SAMPLERREF || v == PTX_D_SURFREF) {
                d.texref = v == PTX_D_TEXREF ? 1 : v == PTX_D_SAMPLERREF ? 2 : 3;
                ptx_ps_next(P);
                continue;
            }
        }
        if (kw_cat(P, PTX_KW_VEC, &v)) {
            d.vec = v;
            ptx_ps_next(P);
            continue;
        }
        if (kw_cat(P, PTX_KW_TYPE, &v)) {
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
        expect_id(P, "a variable name");
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
                skip_group(P, '{', '}');
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

/* ---- functions --------------------------------------------------------------- */


/* ( .param [.align N] .type [.ptr [.space] [.align N]] name[N], ... ) */
static void parse_params(ptx_ps *P, bool ret, bool proto)
{
    ptx_paramvec *out = ret ? &P->prets : &P->pparams;
    out->n = 0;
    ptx_ps_expect(P, '(');
    if (ptx_ps_accept(P, ')')) return;
    for (;;) {
        uint32_t v;
        if (is_dir(P, PTX_D_REG)) PTX_FAIL(P, "unsupported .reg parameter (use .param)");
        if (!kw_cat(P, PTX_KW_SPACE, &v) || (v != PTX_SP_PARAM && v != PTX_SP_PARAM_ENTRY &&
                                              v != PTX_SP_PARAM_FUNC))
            PTX_FAIL(P, "expected .param, found %s", ptx_ps_tokdesc(P));
        ptx_ps_next(P);
        ptx_param p;
        memset(&p, 0, sizeof p);
        int type = -1;
        while (P->t.kind == PTX_TK_DIR) {
            if (kw_cat(P, PTX_KW_DIR, &v)) {
                if (v == PTX_D_ALIGN) {
                    ptx_ps_next(P);
                    uint32_t a = expect_align(P);
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
                    skip_group(P, '(', ')');
                    continue;
                }
            }
            if (p.is_ptr && kw_cat(P, PTX_KW_SPACE, &v)) {
                p.ptr_space = (uint8_t)v;
                ptx_ps_next(P);
                continue;
            }
            if (type < 0 && kw_cat(P, PTX_KW_TYPE, &v) && v != PTX_T_PRED) {
                type = (int)v;
                ptx_ps_next(P);
                continue;
            }
            PTX_FAIL(P, "unexpected %s in a parameter", ptx_ps_tokdesc(P));
        }
        if (type < 0) PTX_FAIL(P, "expected a parameter type, found %s", ptx_ps_tokdesc(P));
        expect_id(P, "a parameter name");
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

static uint32_t layout_params(ptx_param *p, uint32_t n, uint32_t start)
{
    uint64_t cur = start;
    for (uint32_t i = 0; i < n; i++) {
        cur = TP_ALIGN_UP(cur, p[i].align);
        p[i].offset = (uint32_t)cur;
        cur += p[i].size;
    }
    return (uint32_t)cur;
}

/* Performance directives between the header and the body. */
static bool parse_perf(ptx_ps *P, ptx_func *f)
{
    uint32_t v;
    if (P->t.kind != PTX_TK_DIR || !kw_cat(P, PTX_KW_DIR, &v)) return false;
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
        parse_pragma(P);
        return true;
    default:
        return false;
    }
    ptx_ps_next(P);
    if (dst1) {
        *dst1 = (uint32_t)expect_uint(P, "a number");
        return true;
    }
    dst3[0] = (uint32_t)expect_uint(P, "a number");
    dst3[1] = dst3[2] = 1;
    for (int i = 1; i < 3 && ptx_ps_accept(P, ','); i++) dst3[i] = (uint32_t)expect_uint(P, "a number");
    return true;
}

static void parse_body(ptx_ps *P);

/* [.visible|.extern|.weak] (.entry|.func) [(rets)] name [(params)] perf* (; | {body}) */
static void parse_func(ptx_ps *P, unsigned link)
{
    uint32_t v;
    kw_cat(P, PTX_KW_DIR, &v);
    bool entry = v == PTX_D_ENTRY;
    uint32_t line = P->t.line, col = P->t.col;
    ptx_ps_next(P);
    P->prets.n = P->pparams.n = 0;
    if (!entry && ptx_ps_is(P, '(')) parse_params(P, true, false);
    expect_id(P, "a function name");
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
    f->params = arena_copy(P->A, P->pparams.a, P->pparams.n * sizeof *f->params);
    f->nrets = P->prets.n;
    f->rets = arena_copy(P->A, P->prets.a, P->prets.n * sizeof *f->rets);
    f->param_bytes = layout_params(f->params, f->nparams, 0);
    f->ret_bytes = layout_params(f->rets, f->nrets, f->param_bytes) - f->param_bytes;
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
        if (kw_cat(P, PTX_KW_VEC, &v)) PTX_FAIL(P, "unsupported vector register declaration");
        if (type >= 0 || !kw_cat(P, PTX_KW_TYPE, &v))
            PTX_FAIL(P, "unexpected %s in a register declaration", ptx_ps_tokdesc(P));
        type = (int)v;
        ptx_ps_next(P);
    }
    if (type < 0) PTX_FAIL(P, "expected a register type, found %s", ptx_ps_tokdesc(P));
    bool pred = type == PTX_T_PRED;
    uint32_t rows = type == PTX_T_B128 ? 2 : 1;
    for (;;) {
        expect_id(P, "a register name");
        ptx_tok name = P->t;
        if (name.len == 1 && name.s[0] == '_') PTX_FAIL(P, "'_' is not a register name");
        ptx_ps_next(P);
        uint32_t n = 1;
        bool range = false;
        if (ptx_ps_is(P, '<')) {
            ptx_ps_next(P);
            uint32_t line = P->t.line, col = P->t.col;
            uint64_t c = expect_uint(P, "a register count");
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
    if (P->t.kind == PTX_TK_DIR && kw_cat(P, PTX_KW_DIR, &v)) {
        if (v == PTX_D_CALLPROTOTYPE) {
            ptx_ps_next(P);
            if (ptx_ps_is(P, '(')) parse_params(P, true, true);
            if (P->t.kind != PTX_TK_ID || P->t.len != 1 || P->t.s[0] != '_')
                PTX_FAIL(P, "expected '_' in .callprototype, found %s", ptx_ps_tokdesc(P));
            ptx_ps_next(P);
            if (ptx_ps_is(P, '(')) parse_params(P, false, true);
            while (P->t.kind == PTX_TK_DIR && is_dir(P, PTX_D_NORETURN)) ptx_ps_next(P);
            ptx_ps_expect(P, ';');
            declare_name(P, &name, false, PTX_SK_PROTO, 0, 0);
            return;
        }
        if (v == PTX_D_CALLTARGETS || v == PTX_D_BRANCHTARGETS) {
            bool br = v == PTX_D_BRANCHTARGETS;
            ptx_ps_next(P);
            uint32_t first = P->pool.n, n = 0;
            for (;;) {
                expect_id(P, br ? "a label" : "a function");
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
            if (kw_cat(P, PTX_KW_DIR, &v)) {
                if (v == PTX_D_REG) {
                    parse_reg(P);
                    continue;
                }
                if (v == PTX_D_PRAGMA) {
                    parse_pragma(P);
                    continue;
                }
                if (v == PTX_D_LOC) {
                    parse_loc(P);
                    continue;
                }
            }
            if (kw_cat(P, PTX_KW_SPACE, &v)) {
                parse_var(P, 0, true);
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

/* ---- the module -------------------------------------------------------------- */

static void parse_alias(ptx_ps *P)
{
    ptx_ps_next(P);
    expect_id(P, "an alias name");
    ptx_tok a = P->t;
    ptx_ps_next(P);
    ptx_ps_expect(P, ',');
    expect_id(P, "a function name");
    ptx_sym *s = ptx_ps_tab_find(&P->ms, P->t.s, P->t.len, ptx_ps_hash(P->t.s, P->t.len), false);
    if (!s || s->kind != PTX_SK_FUNC) PTX_FAIL(P, "%s is not a declared function", ptx_ps_tokdesc(P));
    uint32_t h = ptx_ps_hash(a.s, a.len);
    ptx_sym *o = ptx_ps_tab_find(&P->ms, a.s, a.len, h, false);
    if (o) {
        if (o->kind == PTX_SK_FUNC && P->funcs.a[o->val].is_decl) {
            o->val = s->val; /* the alias was declared by a prototype */
        } else {
            ptx_ps_fail(P, a.line, a.col, "redefinition of '%.*s'", (int)a.len, a.s);
        }
    } else {
        uint32_t k = ptx_ps_tab_key(&P->ms, a.s, a.len, h, false);
        ptx_ps_tab_add(&P->ms, k, PTX_SK_FUNC, 0, s->val, 0);
    }
    const char *an = ptx_ps_strdup(P, a.s, a.len);
    tp_vec_push(&P->alias_name, an);
    tp_vec_push(&P->alias_func, s->val);
    ptx_ps_next(P);
    ptx_ps_expect(P, ';');
}

static void parse_module(ptx_ps *P)
{
    ptx_ps_next(P);
    while (P->t.kind != PTX_TK_EOF) {
        uint32_t v;
        if (P->t.kind != PTX_TK_DIR) PTX_FAIL(P, "expected a directive, found %s", ptx_ps_tokdesc(P));
        if (kw_cat(P, PTX_KW_DIR, &v)) {
            switch (v) {
            case PTX_D_VERSION: parse_version(P); continue;
            case PTX_D_TARGET: parse_target(P); continue;
            case PTX_D_ADDRESS_SIZE: {
                ptx_ps_next(P);
                uint32_t line = P->t.line, col = P->t.col;
                uint64_t a = expect_uint(P, "an address size");
                if (a != 32 && a != 64) ptx_ps_fail(P, line, col, "address size must be 32 or 64");
                P->m->address_size = (uint32_t)a;
                continue;
            }
            case PTX_D_FILE: parse_file(P); continue;
            case PTX_D_LOC: parse_loc(P); continue;
            case PTX_D_PRAGMA: parse_pragma(P); continue;
            case PTX_D_ALIAS: parse_alias(P); continue;
            case PTX_D_SECTION:
                ptx_ps_next(P);
                if (P->t.kind != PTX_TK_DIR && P->t.kind != PTX_TK_ID)
                    PTX_FAIL(P, "expected a section name, found %s", ptx_ps_tokdesc(P));
                ptx_ps_next(P);
                if (!ptx_ps_is(P, '{')) PTX_FAIL(P, "expected '{', found %s", ptx_ps_tokdesc(P));
                skip_group(P, '{', '}');
                continue;
            case PTX_D_ENTRY: case PTX_D_FUNC: parse_func(P, 0); continue;
            case PTX_D_TEXREF: case PTX_D_SAMPLERREF: case PTX_D_SURFREF:
                parse_var(P, 0, false);
                continue;
            default:
                PTX_FAIL(P, "unexpected directive %s at module scope", ptx_ps_tokdesc(P));
            }
        }
        unsigned link = 0;
        while (kw_cat(P, PTX_KW_LINK, &v)) {
            link |= 1u << v;
            ptx_ps_next(P);
        }
        if (is_dir(P, PTX_D_ENTRY) || is_dir(P, PTX_D_FUNC)) {
            parse_func(P, link);
        } else if (kw_cat(P, PTX_KW_SPACE, &v) || is_dir(P, PTX_D_TEXREF) ||
                   is_dir(P, PTX_D_SAMPLERREF) || is_dir(P, PTX_D_SURFREF)) {
            parse_var(P, link, false);
        } else if (P->t.kind == PTX_TK_DIR && !link) {
            PTX_FAIL(P, "unknown directive %s", ptx_ps_tokdesc(P));
        } else {
            PTX_FAIL(P, "expected a function or variable declaration, found %s", ptx_ps_tokdesc(P));
        }
    }
}

/* Resolves initializer symbols (they may name later declarations). */
static void resolve_relocs(ptx_ps *P)
{
    for (uint32_t i = 0; i < P->pfix.n; i++) {
        const ptx_pfix *x = &P->pfix.a[i];
        ptx_sym *s = ptx_ps_tab_find(&P->ms, x->s, x->len, ptx_ps_hash(x->s, x->len), false);
        if (!s) ptx_ps_fail(P, x->line, x->col, "undefined symbol '%.*s'", (int)x->len, x->s);
        P->vars.a[x->var].relocs[x->reloc].sym =
            s->kind == PTX_SK_FUNC ? PTX_SYM_FUNC + s->val : s->val;
    }
}

/* Builds the private name indexes of the finished module. */
static uint32_t *build_index(tp_arena *A, uint32_t n, const char *(*name)(const ptx_module *, uint32_t),
                             const ptx_module *m, uint32_t *capp)
{
    uint32_t cap = 16;
    while (cap < n * 2) cap *= 2;
    uint32_t *slots = tp_arena_alloc(A, cap * sizeof *slots);
    for (uint32_t i = 0; i < n; i++) {
        const char *s = name(m, i);
        uint32_t j = ptx_ps_hash(s, (uint32_t)strlen(s)) & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = i + 1;
    }
    *capp = cap;
    return slots;
}

static const char *func_name(const ptx_module *m, uint32_t i) { return m->funcs[i].name; }
static const char *var_name(const ptx_module *m, uint32_t i) { return m->vars[i].name; }


static void finish_module(ptx_ps *P)
{
    ptx_module *m = P->m;
    tp_arena *A = P->A;
    resolve_relocs(P);
    /* The instruction array is the module's own (not copied: for large
    ** modules the copy costs more in page faults than the parse). */
    m->ninsns = P->insns.n;
    m->insns = P->mx->insns_owned = P->insns.a;
    P->insns.a = NULL;
    P->insns.n = P->insns.cap = 0;
    m->npool = P->pool.n;
    m->pool = arena_copy(A, P->pool.a, P->pool.n * sizeof *P->pool.a);
    m->nvars = P->vars.n;
    m->vars = arena_copy(A, P->vars.a, P->vars.n * sizeof *P->vars.a);
    m->nfuncs = P->funcs.n;
    m->funcs = arena_copy(A, P->funcs.a, P->funcs.n * sizeof *P->funcs.a);
    m->nfiles = P->files.n;
    m->files = arena_copy(A, P->files.a, P->files.n * sizeof *P->files.a);
    ptx_modx *mx = P->mx;
    mx->fslots = build_index(A, m->nfuncs, func_name, m, &mx->fcap);
    mx->vslots = build_index(A, m->nvars, var_name, m, &mx->vcap);
    mx->naliases = P->alias_name.n;
    mx->alias_name = arena_copy(A, P->alias_name.a, P->alias_name.n * sizeof *P->alias_name.a);
    mx->alias_func = arena_copy(A, P->alias_func.a, P->alias_func.n * sizeof *P->alias_func.a);
    /* defined functions by start pc: bodies are numbered in file order */
    mx->defs = tp_arena_alloc(A, (m->ninsns + 1) * sizeof *mx->defs);
    for (uint32_t i = 0; i < m->ninsns; i++) mx->defs[i] = UINT32_MAX;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!m->funcs[i].is_decl) mx->defs[m->funcs[i].start] = i;
    for (uint32_t i = 0; i < m->ninsns; i++)
        if (mx->defs[i] != UINT32_MAX) mx->defs[mx->ndefs++] = mx->defs[i];
    mx->nlabels = P->labels.n;
    mx->labels = arena_copy(A, P->labels.a, P->labels.n * sizeof *P->labels.a);
}

static void ps_free(ptx_ps *P)
{
    ptx_ps_tab_free(&P->kw);
    ptx_ps_tab_free(&P->ms);
    ptx_ps_tab_free(&P->fs);
    tp_vec_free(&P->insns);
    tp_vec_free(&P->pool);
    tp_vec_free(&P->vars);
    tp_vec_free(&P->funcs);
    tp_vec_free(&P->files);
    tp_vec_free(&P->pfix);
    tp_vec_free(&P->labels);
    tp_vec_free(&P->alias_name);
    tp_vec_free(&P->alias_func);
    tp_vec_free(&P->prets);
    tp_vec_free(&P->pparams);
    tp_vec_free(&P->regs);
    tp_vec_free(&P->preds);
    tp_vec_free(&P->fvars);
    tp_vec_free(&P->scope_mark);
    tp_vec_free(&P->cs_cursor);
    tp_vec_free(&P->fixes);
    tp_vec_free(&P->ibytes);
    tp_vec_free(&P->irelocs);
    tp_vec_free(&P->imbytes);
}

ptx_module *ptx_parse(const char *text, size_t len, const char *filename, tp_err *e)
{
    if (len > UINT32_MAX - 16) {
        tp_err_set(e, 1, "%s: PTX text too large", filename ? filename : "<ptx>");
        return NULL;
    }
    /* A NUL-terminated copy lets the lexer look ahead without bounds checks. */
    char *src = tp_malloc(len + 1);
    memcpy(src, text, len);
    src[len] = 0;
    ptx_ps *P = tp_calloc(1, sizeof *P);
    ptx_modx *mx = tp_calloc(1, sizeof *mx);
    tp_arena_init(&mx->m.arena);
    P->mx = mx;
    P->m = &mx->m;
    P->A = &mx->m.arena;
    P->e = e;
    P->fi = -1;
    P->m->filename = tp_arena_strdup(P->A, filename ? filename : "<ptx>");
    P->file = P->m->filename;
    P->m->address_size = 64;
    ptx_lex_init(&P->lx, src, len, P->file, e);
    /* nvcc output has an instruction per 30-40 bytes: reserve that much
    ** (untouched pages cost nothing) so the array rarely moves. */
    tp_vec_grow(&P->insns, (uint32_t)(len / 32 + 64));
    ptx_ps_kw_init(&P->kw);
    ptx_module *volatile m = NULL;
    if (setjmp(P->jb) == 0) {
        parse_module(P);
        finish_module(P);
        m = P->m;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            if (m->funcs[i].is_decl) continue;
            if (!ptx_cfg_build(m, &m->funcs[i], e)) {
                m = NULL;
                break;
            }
        }
    }
    if (!m) {
        if (!tp_err_isset(e)) tp_err_set(e, 1, "%s: cannot parse PTX", P->file);
        tp_arena_free(&mx->m.arena);
        free(mx->insns_owned);
        free(mx);
    }
    ps_free(P);
    free(P);
    free(src);
    return m;
}

void ptx_module_free(ptx_module *m)
{
    if (!m) return;
    ptx_modx *mx = (ptx_modx *)m;
    tp_arena_free(&m->arena);
    free(mx->insns_owned);
    free(mx);
}

int ptx_find_func(const ptx_module *m, const char *name)
{
    const ptx_modx *mx = (const ptx_modx *)m;
    uint32_t len = (uint32_t)strlen(name);
    uint32_t j = ptx_ps_hash(name, len) & (mx->fcap - 1);
    for (uint32_t k; (k = mx->fslots[j]) != 0; j = (j + 1) & (mx->fcap - 1))
        if (strcmp(m->funcs[k - 1].name, name) == 0) return (int)(k - 1);
    for (uint32_t i = 0; i < mx->naliases; i++)
        if (strcmp(mx->alias_name[i], name) == 0) return mx->alias_func[i];
    return -1;
}

int ptx_find_var(const ptx_module *m, const char *name)
{
    const ptx_modx *mx = (const ptx_modx *)m;
    uint32_t len = (uint32_t)strlen(name);
    uint32_t j = ptx_ps_hash(name, len) & (mx->vcap - 1);
    for (uint32_t k; (k = mx->vslots[j]) != 0; j = (j + 1) & (mx->vcap - 1))
        if (strcmp(m->vars[k - 1].name, name) == 0) return (int)(k - 1);
    return -1;
}

const ptx_func *ptx_func_of_pc(const ptx_module *m, uint32_t pc)
{
    const ptx_modx *mx = (const ptx_modx *)m;
    uint32_t lo = 0, hi = mx->ndefs; /* defs are sorted by start pc */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const ptx_func *f = &m->funcs[mx->defs[mid]];
        if (pc < f->start) hi = mid;
        else if (pc >= f->end) lo = mid + 1;
        else return f;
    }
    return NULL;
}
