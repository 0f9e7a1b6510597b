/*
** parse.c -- the PTX parser: tokens and errors, module directives, the
** module loop and its finishing (relocations, name indexes), and the public
** entry points (ptx_parse, ptx_module_free, ptx_find_func, ptx_find_var,
** ptx_func_of_pc).  Variables are parsed in parse_var.c, functions and
** their bodies in parse_func.c, instructions in parse_insn.c; name tables
** and constants live in symtab.c.
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
#include <sys/mman.h>

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

void *ptx_ps_arena_copy(tp_arena *A, const void *p, size_t n)
{
    if (!n) return NULL;
    void *d = tp_arena_alloc(A, n);
    memcpy(d, p, n);
    return d;
}

/* The first meaning of the current DIR/ID token in category cat. */
bool ptx_ps_kw_cat(ptx_ps *P, int cat, uint32_t *val)
{
    if (P->t.kind != PTX_TK_DIR && P->t.kind != PTX_TK_ID) return false;
    for (ptx_sym *k = ptx_ps_kw_find(P, P->t.s, P->t.len); k; k = ptx_ps_kw_other(P, k))
        if (k->count == (uint32_t)cat) {
            *val = (uint32_t)k->val;
            return true;
        }
    return false;
}

bool ptx_ps_is_dir(ptx_ps *P, int d)
{
    uint32_t v;
    return P->t.kind == PTX_TK_DIR && ptx_ps_kw_cat(P, PTX_KW_DIR, &v) && v == (uint32_t)d;
}

/* An unsigned integer literal (counts, sizes, versions). */
uint64_t ptx_ps_uint(ptx_ps *P, const char *what)
{
    if (P->t.kind != PTX_TK_INT) PTX_FAIL(P, "expected %s, found %s", what, ptx_ps_tokdesc(P));
    uint64_t v = P->t.u;
    ptx_ps_next(P);
    return v;
}

uint32_t ptx_ps_align(ptx_ps *P)
{
    uint32_t line = P->t.line, col = P->t.col;
    uint64_t a = ptx_ps_uint(P, "an alignment");
    if (a == 0 || (a & (a - 1)) || a > (1u << 16))
        ptx_ps_fail(P, line, col, "alignment %llu is not a power of two up to 65536",
                    (unsigned long long)a);
    return (uint32_t)a;
}

void ptx_ps_expect_id(ptx_ps *P, const char *what)
{
    if (P->t.kind != PTX_TK_ID) PTX_FAIL(P, "expected %s, found %s", what, ptx_ps_tokdesc(P));
}

/* Skips a balanced ( ... ) group starting at the current '('. */
void ptx_ps_skip_group(ptx_ps *P, char open, char close)
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
    if (maj > PTX_ISA_MAX_MAJOR || (maj == PTX_ISA_MAX_MAJOR && min > PTX_ISA_MAX_MINOR))
        PTX_FAIL(P, "PTX ISA version %u.%u is newer than tpsim reads (the newest is %u.%u, which nvcc 13.0 emits)", maj,
                 min, PTX_ISA_MAX_MAJOR, PTX_ISA_MAX_MINOR);
    P->m->version_major = maj;
    P->m->version_minor = min;
    ptx_ps_next(P);
}

bool ptx_ps_tok_is(const ptx_tok *t, const char *s)
{
    return t->len == strlen(s) && memcmp(t->s, s, t->len) == 0;
}

/* The PTX ISA version (major * 10 + minor) that introduced a target, from
** the PTX ISA manual's table of targets (suffix 0, 'a' or 'f'); 0 for a
** target not listed here (not checked). */
static uint32_t target_min_version(uint32_t sm, char suffix)
{
    static const struct { uint16_t sm; char suffix; uint8_t ver; } t[] = {
        {50, 0, 40},   {52, 0, 41},   {53, 0, 42},   {60, 0, 50},   {61, 0, 50},   {62, 0, 50},
        {70, 0, 60},   {72, 0, 61},   {75, 0, 63},   {80, 0, 70},   {86, 0, 71},   {87, 0, 74},
        {88, 0, 90},   {89, 0, 78},   {90, 0, 78},   {90, 'a', 80}, {100, 0, 86},  {100, 'a', 86},
        {100, 'f', 88}, {101, 0, 86}, {101, 'a', 86}, {101, 'f', 88}, {103, 0, 88}, {103, 'a', 88},
        {103, 'f', 88}, {110, 0, 90}, {110, 'a', 90}, {110, 'f', 90}, {120, 0, 87}, {120, 'a', 87},
        {120, 'f', 88}, {121, 0, 88}, {121, 'a', 88}, {121, 'f', 88}};
    for (size_t i = 0; i < TP_ARRAY_LEN(t); i++)
        if (t[i].sm == sm && t[i].suffix == suffix) return t[i].ver;
    return 0;
}

static void parse_target(ptx_ps *P)
{
    ptx_ps_next(P);
    bool first = true;
    for (;;) {
        ptx_ps_expect_id(P, "a target");
        const char *s = P->t.s;
        uint32_t n = P->t.len;
        if (n > 3 && (memcmp(s, "sm_", 3) == 0 || (n > 8 && memcmp(s, "compute_", 8) == 0))) {
            uint32_t v = 0, i = s[0] == 's' ? 3 : 8;
            for (; i < n && s[i] >= '0' && s[i] <= '9' && v < 100000; i++) v = v * 10 + (uint32_t)(s[i] - '0');
            if (first && !P->m->target_sm) P->m->target_sm = v;
            /* a target the declared PTX ISA version does not know yet */
            char suffix = i + 1 == n && (s[i] == 'a' || s[i] == 'f') ? s[i] : i == n ? 0 : '?';
            uint32_t need = target_min_version(v, suffix), maj = P->m->version_major, min = P->m->version_minor;
            if (need && maj && (maj < need / 10 || (maj == need / 10 && min < need % 10)))
                PTX_FAIL(P, "target %.*s needs PTX ISA version %u.%u or newer; this module declares .version %u.%u",
                         (int)n, s, need / 10, need % 10, P->m->version_major, P->m->version_minor);
        } else if (ptx_ps_tok_is(&P->t, "texmode_independent")) {
            P->m->target_flags |= 1;
        } else if (ptx_ps_tok_is(&P->t, "debug")) {
            P->m->target_flags |= 2;
        } else if (ptx_ps_tok_is(&P->t, "map_f64_to_f32")) {
            P->m->target_flags |= 4;
        } else if (!ptx_ps_tok_is(&P->t, "texmode_unified")) {
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
    uint64_t idx = ptx_ps_uint(P, "a file number");
    if (P->t.kind != PTX_TK_STR) PTX_FAIL(P, "expected a file name, found %s", ptx_ps_tokdesc(P));
    if (idx > 1000000) ptx_ps_fail(P, line, col, "file number too large");
    while (P->files.n <= idx) tp_vec_push(&P->files, (const char *)NULL);
    P->files.a[idx] = ptx_ps_strdup(P, P->t.s, P->t.len);
    ptx_ps_next(P);
    while (ptx_ps_accept(P, ',')) ptx_ps_uint(P, "a timestamp or size");
}

static uint32_t loc_hash(uint32_t f, uint32_t l, uint32_t c)
{
    return (f * 0x9e3779b1u) ^ (l * 0x85ebca6bu) ^ (c * 0xc2b2ae35u);
}

/* The entry of this function's location (f, l, c), or NULL; add makes it. */
static ptx_locmap *loc_find(ptx_ps *P, uint32_t f, uint32_t l, uint32_t c, bool add)
{
    if (add && (P->locs.n + 1) * 2 > P->loccap) {
        uint32_t cap = P->loccap ? P->loccap * 2 : 64;
        free(P->locidx);
        P->locidx = tp_calloc(cap, sizeof *P->locidx);
        P->loccap = cap;
        for (uint32_t i = 0; i < P->locs.n; i++) {
            uint32_t j = loc_hash(P->locs.a[i].f, P->locs.a[i].l, P->locs.a[i].c) & (cap - 1);
            while (P->locidx[j]) j = (j + 1) & (cap - 1);
            P->locidx[j] = i + 1;
        }
    }
    if (!P->loccap) return NULL;
    uint32_t j = loc_hash(f, l, c) & (P->loccap - 1);
    for (; P->locidx[j]; j = (j + 1) & (P->loccap - 1)) {
        ptx_locmap *e = &P->locs.a[P->locidx[j] - 1];
        if (e->f == f && e->l == l && e->c == c) return e;
    }
    if (!add) return NULL;
    ptx_locmap e = {f, l, c, {0, 0}};
    tp_vec_push(&P->locs, e);
    P->locidx[j] = P->locs.n;
    return &P->locs.a[P->locs.n - 1];
}

/* .loc file line col [, function_name label[+off], inlined_at f l c]
** An inlined_at names the call site, itself a location of an earlier .loc
** that may be inlined in turn: the outermost one is the line of the
** function being compiled, which is what reports show first. */
void ptx_ps_loc(ptx_ps *P)
{
    ptx_ps_next(P);
    uint32_t f = (uint32_t)ptx_ps_uint(P, "a file number");
    uint32_t l = (uint32_t)ptx_ps_uint(P, "a line number");
    uint32_t c = (uint32_t)ptx_ps_uint(P, "a column number");
    P->srcfile = f;
    P->srcline = l;
    P->srccall = (ptx_srcloc){0, 0};
    while (ptx_ps_is(P, ',')) {
        ptx_ps_next(P);
        ptx_ps_expect_id(P, "function_name or inlined_at");
        if (ptx_ps_tok_is(&P->t, "function_name")) {
            ptx_ps_next(P);
            ptx_ps_expect_id(P, "a label");
            ptx_ps_next(P);
            if (ptx_ps_accept(P, '+')) ptx_ps_uint(P, "an offset");
        } else if (ptx_ps_tok_is(&P->t, "inlined_at")) {
            ptx_ps_next(P);
            uint32_t at[3];
            for (int i = 0; i < 3; i++) at[i] = (uint32_t)ptx_ps_uint(P, "a location number");
            const ptx_locmap *e = loc_find(P, at[0], at[1], at[2], false);
            P->srccall = e && e->outer.file ? e->outer : (ptx_srcloc){at[0], at[1]};
            P->any_inlined = true;
        } else {
            PTX_FAIL(P, "unexpected %s in .loc", ptx_ps_tokdesc(P));
        }
    }
    if (P->srccall.file) loc_find(P, f, l, c, true)->outer = P->srccall;
}

void ptx_ps_pragma(ptx_ps *P)
{
    ptx_ps_next(P);
    do {
        if (P->t.kind != PTX_TK_STR) PTX_FAIL(P, "expected a string, found %s", ptx_ps_tokdesc(P));
        for (uint32_t k = 0; k + 8 <= P->t.len; k++)
            if (!memcmp(P->t.s + k, "nounroll", 8)) P->hint |= PTX_HINT_NOUNROLL;
        ptx_ps_next(P);
    } while (ptx_ps_accept(P, ','));
    ptx_ps_expect(P, ';');
}

/* ---- the module -------------------------------------------------------------- */

static void parse_alias(ptx_ps *P)
{
    ptx_ps_next(P);
    ptx_ps_expect_id(P, "an alias name");
    ptx_tok a = P->t;
    ptx_ps_next(P);
    ptx_ps_expect(P, ',');
    ptx_ps_expect_id(P, "a function name");
    ptx_sym *s = ptx_ps_tab_find(&P->ms, P->t.s, P->t.len, ptx_ps_hash(P->t.s, P->t.len), false);
    if (!s || s->kind != PTX_SK_FUNC) PTX_FAIL(P, "%s is not a declared function", ptx_ps_tokdesc(P));
    int32_t target = s->val; /* s dies when the table grows */
    uint32_t h = ptx_ps_hash(a.s, a.len);
    ptx_sym *o = ptx_ps_tab_find(&P->ms, a.s, a.len, h, false);
    if (o) {
        if (o->kind == PTX_SK_FUNC && P->funcs.a[o->val].is_decl) {
            o->val = target; /* the alias was declared by a prototype */
        } else {
            ptx_ps_fail(P, a.line, a.col, "redefinition of '%.*s'", (int)a.len, a.s);
        }
    } else {
        uint32_t k = ptx_ps_tab_key(&P->ms, a.s, a.len, h, false);
        ptx_ps_tab_add(&P->ms, k, PTX_SK_FUNC, 0, target, 0);
    }
    const char *an = ptx_ps_strdup(P, a.s, a.len);
    tp_vec_push(&P->alias_name, an);
    tp_vec_push(&P->alias_func, target);
    ptx_ps_next(P);
    ptx_ps_expect(P, ';');
}

static void parse_module(ptx_ps *P)
{
    ptx_ps_next(P);
    while (P->t.kind != PTX_TK_EOF) {
        uint32_t v;
        if (P->t.kind != PTX_TK_DIR) PTX_FAIL(P, "expected a directive, found %s", ptx_ps_tokdesc(P));
        if (ptx_ps_kw_cat(P, PTX_KW_DIR, &v)) {
            switch (v) {
            case PTX_D_VERSION: parse_version(P); continue;
            case PTX_D_TARGET: parse_target(P); continue;
            case PTX_D_ADDRESS_SIZE: {
                ptx_ps_next(P);
                uint32_t line = P->t.line, col = P->t.col;
                uint64_t a = ptx_ps_uint(P, "an address size");
                if (a != 32 && a != 64) ptx_ps_fail(P, line, col, "address size must be 32 or 64");
                P->m->address_size = (uint32_t)a;
                continue;
            }
            case PTX_D_FILE: parse_file(P); continue;
            case PTX_D_LOC: ptx_ps_loc(P); continue;
            case PTX_D_PRAGMA: ptx_ps_pragma(P); continue;
            case PTX_D_ALIAS: parse_alias(P); continue;
            case PTX_D_SECTION:
                ptx_ps_next(P);
                if (P->t.kind != PTX_TK_DIR && P->t.kind != PTX_TK_ID)
                    PTX_FAIL(P, "expected a section name, found %s", ptx_ps_tokdesc(P));
                ptx_ps_next(P);
                if (!ptx_ps_is(P, '{')) PTX_FAIL(P, "expected '{', found %s", ptx_ps_tokdesc(P));
                ptx_ps_skip_group(P, '{', '}');
                continue;
            case PTX_D_ENTRY: case PTX_D_FUNC: ptx_ps_func(P, 0); continue;
            case PTX_D_TEXREF: case PTX_D_SAMPLERREF: case PTX_D_SURFREF:
                ptx_ps_var(P, 0, false);
                continue;
            default:
                PTX_FAIL(P, "unexpected directive %s at module scope", ptx_ps_tokdesc(P));
            }
        }
        unsigned link = 0;
        while (ptx_ps_kw_cat(P, PTX_KW_LINK, &v)) {
            link |= 1u << v;
            ptx_ps_next(P);
        }
        if (ptx_ps_is_dir(P, PTX_D_ENTRY) || ptx_ps_is_dir(P, PTX_D_FUNC)) {
            ptx_ps_func(P, link);
        } else if (ptx_ps_kw_cat(P, PTX_KW_SPACE, &v) || ptx_ps_is_dir(P, PTX_D_TEXREF) ||
                   ptx_ps_is_dir(P, PTX_D_SAMPLERREF) || ptx_ps_is_dir(P, PTX_D_SURFREF)) {
            ptx_ps_var(P, link, false);
        } else if (P->t.kind == PTX_TK_DIR && !link) {
            PTX_FAIL(P, "unknown directive %s", ptx_ps_tokdesc(P));
        } else {
            PTX_FAIL(P, "expected a function or variable declaration, found %s", ptx_ps_tokdesc(P));
        }
    }
    /* A module starts with .version and .target (PTX ISA, "PTX module directives"). */
    if (!P->m->version_major)
        ptx_ps_fail(P, P->t.line, P->t.col, "missing .version directive (a PTX module starts with .version and .target)");
    else if (!P->m->target_sm)
        ptx_ps_fail(P, P->t.line, P->t.col, "missing .target directive");
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
    if (P->any_inlined && P->calls.n == P->insns.n)
        m->inlined_at = ptx_ps_arena_copy(A, P->calls.a, P->calls.n * sizeof *P->calls.a);
    m->insns = P->mx->insns_owned = P->insns.a;
    P->insns.a = NULL;
    P->insns.n = P->insns.cap = 0;
    m->npool = P->pool.n;
    m->pool = ptx_ps_arena_copy(A, P->pool.a, P->pool.n * sizeof *P->pool.a);
    m->nvars = P->vars.n;
    m->vars = ptx_ps_arena_copy(A, P->vars.a, P->vars.n * sizeof *P->vars.a);
    m->nfuncs = P->funcs.n;
    m->funcs = ptx_ps_arena_copy(A, P->funcs.a, P->funcs.n * sizeof *P->funcs.a);
    m->nfiles = P->files.n;
    m->files = ptx_ps_arena_copy(A, P->files.a, P->files.n * sizeof *P->files.a);
    ptx_modx *mx = P->mx;
    mx->fslots = build_index(A, m->nfuncs, func_name, m, &mx->fcap);
    mx->vslots = build_index(A, m->nvars, var_name, m, &mx->vcap);
    mx->naliases = P->alias_name.n;
    mx->alias_name = ptx_ps_arena_copy(A, P->alias_name.a, P->alias_name.n * sizeof *P->alias_name.a);
    mx->alias_func = ptx_ps_arena_copy(A, P->alias_func.a, P->alias_func.n * sizeof *P->alias_func.a);
    /* defined functions by start pc: bodies are numbered in file order */
    mx->defs = tp_arena_alloc(A, (m->ninsns + 1) * sizeof *mx->defs);
    for (uint32_t i = 0; i < m->ninsns; i++) mx->defs[i] = UINT32_MAX;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!m->funcs[i].is_decl) mx->defs[m->funcs[i].start] = i;
    for (uint32_t i = 0; i < m->ninsns; i++)
        if (mx->defs[i] != UINT32_MAX) mx->defs[mx->ndefs++] = mx->defs[i];
    mx->nlabels = P->labels.n;
    mx->labels = ptx_ps_arena_copy(A, P->labels.a, P->labels.n * sizeof *P->labels.a);
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
    tp_vec_free(&P->calls);
    tp_vec_free(&P->locs);
    free(P->locidx);
}

/* nvcc output has an instruction per 30-40 bytes of text: the array is
** reserved for that many (untouched pages cost nothing) so that it rarely
** moves.  A large reservation is 2 MiB-aligned and marked for transparent
** huge pages where Linux offers them: writing the instructions of a big
** module then takes a few page faults instead of thousands. */
static void reserve_insns(ptx_ps *P, size_t len)
{
    size_t n = len / 32 + 64, bytes = n * sizeof(ptx_insn), huge = (size_t)2 << 20;
#ifdef MADV_HUGEPAGE
    if (bytes >= 2 * huge) {
        bytes = (bytes + huge - 1) & ~(huge - 1);
        void *p = aligned_alloc(huge, bytes);
        if (p) {
            madvise(p, bytes, MADV_HUGEPAGE);
            P->insns.a = p;
            P->insns.cap = (uint32_t)(bytes / sizeof(ptx_insn));
            return;
        }
    }
#endif
    tp_vec_grow(&P->insns, (uint32_t)n);
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
    reserve_insns(P, len);
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
    free(mx->pool_owned);
    free(mx);
}

int ptx_find_func(const ptx_module *m, const char *name)
{
    const ptx_modx *mx = (const ptx_modx *)m;
    for (uint32_t i = 0; i < mx->naliases; i++) /* .alias wins over a prototype of its name */
        if (strcmp(mx->alias_name[i], name) == 0) return mx->alias_func[i];
    uint32_t len = (uint32_t)strlen(name);
    uint32_t j = ptx_ps_hash(name, len) & (mx->fcap - 1);
    for (uint32_t k; (k = mx->fslots[j]) != 0; j = (j + 1) & (mx->fcap - 1))
        if (strcmp(m->funcs[k - 1].name, name) == 0) return (int)(k - 1);
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
