/*
** parse_int.h -- the PTX parser's private state, shared by parse.c (tokens,
** module directives, the public API), parse_var.c (variables and
** initializers), parse_func.c (functions, bodies, scopes, labels, frame
** layout), parse_insn.c (instructions and operands), symtab.c (hash tables,
** keywords, constants) and print.c (label names).  Module prefix: ptx_ps_.
**
** Errors: every parse routine reports through ptx_ps_fail(), which fills the
** tp_err with "file:line:col: message" and longjmps back to ptx_parse(),
** where everything allocated so far is released (the module arena and the
** temporary vectors below).
*/
#ifndef PTX_PARSE_INT_H
#define PTX_PARSE_INT_H

#include "ptx.h"
#include "lex.h"
#include "../base/vec.h"
#include <setjmp.h>

/* ---- hash tables ---------------------------------------------------------- */

/* A name: the key of a symbol table.  Ranges (%r<45>) are keyed by their
** prefix with range=1, so "%r" the register and "%r<..>" the range differ. */
typedef struct ptx_key {
    const char *s;
    uint32_t len, hash;
    int32_t head;      /* newest declaration of this name (index in syms), -1 none */
    uint32_t slot;     /* where it lives in slots[] */
    uint8_t range;
} ptx_key;

/* Symbol kinds. */
enum {
    PTX_SK_VAR,      /* module variable: val = index */
    PTX_SK_FUNC,     /* function: val = index */
    PTX_SK_REG,      /* register: val = row */
    PTX_SK_REGR,     /* register range: val = first row, count */
    PTX_SK_PRED,     /* predicate: val = index */
    PTX_SK_PREDR,    /* predicate range: val = first index, count */
    PTX_SK_FVAR,     /* function-scope variable: val = index in the function's vars */
    PTX_SK_PARAM,    /* parameter: val = index */
    PTX_SK_RET,      /* return parameter: val = index */
    PTX_SK_LABEL,    /* label: val = pc */
    PTX_SK_PROTO,    /* .callprototype */
    PTX_SK_CTARGETS, /* .calltargets: val = pool index, count */
    PTX_SK_BTARGETS, /* .branchtargets: val = pool index, count */
    PTX_SK_KW,       /* keyword table entry: val = index in ptx_ps_kw */
};

/* A declaration. */
typedef struct ptx_sym {
    uint32_t key;
    uint8_t kind, depth;
    uint8_t stride;    /* register ranges: rows per register (2 for .b128) */
    uint8_t pad;
    int32_t val;
    uint32_t count;
    int32_t shadow;    /* the declaration of the same name this one hides, -1 none */
    uint32_t line, col;
} ptx_sym;

typedef struct ptx_symtab {
    uint32_t *slots;   /* 0 = empty, else key index + 1 */
    uint32_t cap;      /* power of two */
    TP_VEC(ptx_key) keys;
    TP_VEC(ptx_sym) syms;
} ptx_symtab;

uint32_t ptx_ps_hash(const char *s, uint32_t len);
void ptx_ps_tab_free(ptx_symtab *t);
/* Forgets every name (keeps the memory). */
void ptx_ps_tab_clear(ptx_symtab *t);
/* The key for a name, created when absent. */
uint32_t ptx_ps_tab_key(ptx_symtab *t, const char *s, uint32_t len, uint32_t hash, bool range);
/* The newest declaration of a name, or NULL. */
ptx_sym *ptx_ps_tab_find(ptx_symtab *t, const char *s, uint32_t len, uint32_t hash, bool range);
/* Adds a declaration (shadowing any older one); returns its index in syms. */
uint32_t ptx_ps_tab_add(ptx_symtab *t, uint32_t key, int kind, int depth, int32_t val,
                        uint32_t count);

/* ---- keywords ------------------------------------------------------------- */

/* Keyword categories (modifier classes, opcodes, directives). */
enum {
    PTX_KW_OP, PTX_KW_UNSUP, PTX_KW_DIR, PTX_KW_TYPE, PTX_KW_SPACE, PTX_KW_CACHE,
    PTX_KW_SEM, PTX_KW_SCOPE, PTX_KW_VEC, PTX_KW_RND, PTX_KW_CMP, PTX_KW_BOP,
    PTX_KW_SUBW, PTX_KW_SUBA, PTX_KW_SUBSH, PTX_KW_SUBV, PTX_KW_SUBB, PTX_KW_SUBP,
    PTX_KW_SUBT, PTX_KW_SUBF, PTX_KW_GEOM, PTX_KW_COMP, PTX_KW_QUERY, PTX_KW_MIP,
    PTX_KW_FLAG, PTX_KW_HINT, PTX_KW_LINK, PTX_KW_COUNT
};

/* Statement directives (PTX_KW_DIR values). */
enum {
    PTX_D_VERSION, PTX_D_TARGET, PTX_D_ADDRESS_SIZE, PTX_D_FILE, PTX_D_LOC, PTX_D_SECTION,
    PTX_D_ENTRY, PTX_D_FUNC, PTX_D_REG, PTX_D_PRAGMA, PTX_D_ALIGN, PTX_D_PTR,
    PTX_D_MAXNTID, PTX_D_REQNTID, PTX_D_MINNCTAPERSM, PTX_D_MAXNCTAPERSM, PTX_D_MAXNREG,
    PTX_D_NORETURN, PTX_D_REQNCTAPERCLUSTER, PTX_D_MAXCLUSTERRANK, PTX_D_EXPLICITCLUSTER,
    PTX_D_BLOCKSARECLUSTERS, PTX_D_ALIAS, PTX_D_TEXREF, PTX_D_SAMPLERREF, PTX_D_SURFREF,
    PTX_D_CALLPROTOTYPE, PTX_D_CALLTARGETS, PTX_D_BRANCHTARGETS, PTX_D_ATTRIBUTE,
    PTX_D_DWARF,
};

/* Linkage directives (PTX_KW_LINK values). */
enum { PTX_L_VISIBLE, PTX_L_EXTERN, PTX_L_WEAK, PTX_L_COMMON };

/* Hint value for .L2::cache_hint (it brings an extra operand). */
enum { PTX_H_IGNORE, PTX_H_CACHE_HINT };


/* ---- parser state ----------------------------------------------------------- */

/* A label reference waiting for its label (forward branch). */
typedef struct ptx_fix {
    const char *s;
    uint32_t len, hash;
    uint32_t insn;     /* instruction index, or UINT32_MAX for a pool entry */
    uint32_t slot;     /* operand index, or pool index */
    uint8_t depth;
    uint32_t line, col;
} ptx_fix;

/* A relocation whose symbol is resolved at the end of the module. */
typedef struct ptx_pfix {
    uint32_t var;      /* module variable holding the initializer */
    uint32_t reloc;    /* its index in the variable's reloc list */
    const char *s;
    uint32_t len;
    uint32_t line, col;
} ptx_pfix;

/* A relocation of the initializer being parsed, with its symbol's name. */
typedef struct ptx_preloc {
    ptx_reloc r;
    const char *s;
    uint32_t len, line, col;
} ptx_preloc;

/* A masked byte of an address in an initializer: 0xFF00(generic(sym)+4). */
typedef struct ptx_mbyte {
    uint64_t offset;
    const char *s;
    uint32_t len;
    int64_t addend;
    uint8_t shift, generic;
    uint32_t line, col;
} ptx_mbyte;

typedef TP_VEC(ptx_param) ptx_paramvec;

/* A private trailer of the module: lookups by name and label names (for
** the printer).  ptx_module is its first member. */
typedef struct ptx_label { uint32_t pc; const char *name; } ptx_label;
typedef struct ptx_modx {
    ptx_module m;
    uint32_t *fslots, fcap; /* function name hash -> index + 1 */
    uint32_t *vslots, vcap; /* variable name hash -> index + 1 */
    const char **alias_name; int32_t *alias_func; uint32_t naliases;
    ptx_label *labels; uint32_t nlabels;  /* sorted by pc */
    uint32_t *defs; uint32_t ndefs;       /* defined functions, by start pc */
    ptx_insn *insns_owned;  /* the instruction array (malloc'd, not in the arena) */
    ptx_opnd *pool_owned;   /* lowered modules (lower.c): their operand pool (malloc'd) */
} ptx_modx;

/* A .loc location of the function being parsed and its outermost call site. */
typedef struct ptx_locmap {
    uint32_t f, l, c;
    ptx_srcloc outer;
} ptx_locmap;

typedef struct ptx_ps {
    ptx_lex lx;
    ptx_tok t;           /* current token */
    ptx_tok la;          /* lookahead (valid when has_la) */
    bool has_la;
    tp_err *e;
    jmp_buf jb;
    const char *file;
    ptx_modx *mx;
    ptx_module *m;
    tp_arena *A;

    ptx_symtab kw;       /* keywords */
    ptx_symtab ms;       /* module names */
    ptx_symtab fs;       /* function names (scoped) */

    TP_VEC(ptx_insn) insns;
    TP_VEC(ptx_opnd) pool;
    TP_VEC(ptx_var) vars;
    TP_VEC(ptx_func) funcs;
    TP_VEC(const char *) files;
    TP_VEC(ptx_pfix) pfix;
    TP_VEC(ptx_label) labels;
    TP_VEC(const char *) alias_name;
    TP_VEC(int32_t) alias_func;

    /* the function being parsed */
    int32_t fi;          /* index in funcs, -1 outside functions */
    uint8_t depth;       /* { } nesting inside the body (0 = body) */
    ptx_paramvec prets, pparams; /* parameter lists being parsed */
    TP_VEC(ptx_reg) regs;
    TP_VEC(ptx_reg) preds;
    TP_VEC(ptx_var) fvars;
    TP_VEC(uint32_t) scope_mark; /* per open scope: syms.n at its '{' */
    TP_VEC(uint32_t) cs_cursor;  /* per open scope: callseq .param cursor at its '{' */
    uint32_t cs_cur, cs_max, cs_align; /* callseq .param layout (relative) */
    uint64_t local_cur;          /* .local variables (relative) */
    uint32_t local_align;
    TP_VEC(ptx_fix) fixes;
    uint32_t srcfile, srcline;   /* the last .loc */
    uint8_t hint;                /* PTX_HINT_* for the next instruction (.pragma) */
    ptx_srcloc srccall;          /* ... its outermost inlined_at call site (file 0: none) */
    TP_VEC(ptx_srcloc) calls;    /* srccall of each instruction (parallel to insns) */
    bool any_inlined;
    /* this function's .loc locations (file, line, col) -> their outermost call site */
    TP_VEC(ptx_locmap) locs;
    uint32_t *locidx, loccap;    /* hash of locs: index + 1 */
    uint32_t cdepth;             /* nesting of constant expressions / initializers */
    /* initializer being built */
    TP_VEC(uint8_t) ibytes;
    TP_VEC(ptx_preloc) irelocs;
    TP_VEC(ptx_mbyte) imbytes;
    char namebuf[64];
} ptx_ps;

TP_NORETURN void ptx_ps_fail(ptx_ps *P, uint32_t line, uint32_t col, const char *fmt, ...)
    TP_PRINTF(4, 5);
/* Fails at the current token. */
#define PTX_FAIL(P, ...) ptx_ps_fail((P), (P)->t.line, (P)->t.col, __VA_ARGS__)

/* Tokens. */
void ptx_ps_next(ptx_ps *P);
const ptx_tok *ptx_ps_peek(ptx_ps *P);
static inline bool ptx_ps_is(const ptx_ps *P, char c)
{
    return P->t.kind == PTX_TK_PUNCT && P->t.c == c;
}
/* Consumes punctuation c or fails with "expected 'c'". */
void ptx_ps_expect(ptx_ps *P, char c);
/* Consumes punctuation c when present. */
bool ptx_ps_accept(ptx_ps *P, char c);
/* Describes the current token for messages ("'foo'", "end of file"). */
const char *ptx_ps_tokdesc(ptx_ps *P);
/* The keyword declarations of a name (an ID or a DIR with its dot), or NULL:
** sym->count is the PTX_KW_* category and sym->val the value; a name with
** several meanings (".lo": compare or width) chains them through
** ptx_ps_kw_other(). */
ptx_sym *ptx_ps_kw_find(ptx_ps *P, const char *s, uint32_t len);
static inline ptx_sym *ptx_ps_kw_other(ptx_ps *P, const ptx_sym *k)
{
    return k->shadow >= 0 ? &P->kw.syms.a[k->shadow] : NULL;
}
void ptx_ps_kw_init(ptx_symtab *kw);

/* Constants: a literal or integer constant expression. */
typedef struct ptx_cval {
    uint8_t kind;      /* PTX_TK_INT, F32, F64 or DBL */
    uint8_t is_unsigned;
    uint64_t u;        /* INT value or F32/F64 bits */
    double d;          /* DBL */
} ptx_cval;
void ptx_ps_const(ptx_ps *P, ptx_cval *v);
/* True if the current token is the predefined constant WARP_SZ (ptx.h) and
** no declaration shadows it; *v receives its value.  Constant expressions
** take it as an integer; the operand, initializer and address parsers ask
** here before treating an identifier as a name. */
bool ptx_ps_predef_const(ptx_ps *P, uint64_t *v);
/* Integer constant expression (fails on floats). */
int64_t ptx_ps_int(ptx_ps *P);
/* A constant's bits as an operand of type ty (see parse_insn.c). */
uint64_t ptx_ps_const_bits(ptx_ps *P, const ptx_cval *v, ptx_type ty, uint32_t line,
                           uint32_t col);
/* Float format conversions (round to nearest even). */
uint32_t ptx_ps_f64_to_f32(uint64_t bits);
uint64_t ptx_ps_f32_to_f64(uint32_t bits);
uint16_t ptx_ps_f64_to_f16(uint64_t bits, bool bf16);

/* Small readers shared by the parse*.c files (parse.c). */
void *ptx_ps_arena_copy(tp_arena *A, const void *p, size_t n); /* NULL when n == 0 */
/* The first meaning of the current DIR/ID token in keyword category cat. */
bool ptx_ps_kw_cat(ptx_ps *P, int cat, uint32_t *val);
bool ptx_ps_is_dir(ptx_ps *P, int d);             /* the current token is directive d */
bool ptx_ps_tok_is(const ptx_tok *t, const char *s);
uint64_t ptx_ps_uint(ptx_ps *P, const char *what); /* an integer literal */
uint32_t ptx_ps_align(ptx_ps *P);                 /* a power of two up to 65536 */
void ptx_ps_expect_id(ptx_ps *P, const char *what);
void ptx_ps_skip_group(ptx_ps *P, char open, char close); /* a balanced ( ) or { } */
void ptx_ps_loc(ptx_ps *P);                       /* .loc ... */
void ptx_ps_pragma(ptx_ps *P);                    /* .pragma "..."; */

/* Declarations: the current token is the state space (or .texref...):
** one declaration statement, at module or function scope (parse_var.c). */
void ptx_ps_var(ptx_ps *P, unsigned link, bool in_func);
/* The current token is .entry or .func: a prototype or a definition with
** its body (parse_func.c); link is a set of 1 << PTX_L_*. */
void ptx_ps_func(ptx_ps *P, unsigned link);

/* Names. */
char *ptx_ps_strdup(ptx_ps *P, const char *s, uint32_t len);
/* Resolves an identifier in the current function, then the module.  Returns
** the declaration or NULL.  Register ranges are looked up by prefix. */
ptx_sym *ptx_ps_lookup(ptx_ps *P, const char *s, uint32_t len, uint32_t *elem);

/* Instructions (parse_insn.c): the current token is the opcode (or '@').
** Appends one instruction. */
void ptx_ps_insn(ptx_ps *P);
/* Tensor instructions (parse_mma.c): the qualifiers after the opcode (name:
** the opcode's text, line/col its position), checked against the forms the
** PTX ISA defines; then the fragment operands; the immediate type of operand
** rp; the qualifiers back as text. */
void ptx_ps_tensor_mods(ptx_ps *P, ptx_insn *in, const char *name, uint32_t line, uint32_t col);
void ptx_ps_tensor_opnds(ptx_ps *P, const ptx_insn *in);
ptx_type ptx_ps_tensor_imm_type(const ptx_insn *in, uint32_t rp);
void ptx_ps_tensor_print_mods(const ptx_insn *in, tp_sbuf *out);
/* The type of an immediate at role position rp of in (parse_insn.c). */
ptx_type ptx_ps_imm_type(const ptx_insn *in, uint32_t rp);
/* Appends operands to the pool; returns the index of the first. */
uint32_t ptx_ps_pool_add(ptx_ps *P, const ptx_opnd *o, uint32_t n);
/* A reference to label name from operand slot of instruction insn (not
** yet appended), or from pool entry slot when insn is UINT32_MAX.  Returns
** true with *pc when the label is already known; otherwise remembers the
** reference and patches it when the label's scope closes. */
bool ptx_ps_label_ref(ptx_ps *P, const ptx_tok *name, uint32_t insn, uint32_t slot, int32_t *pc);

#endif
