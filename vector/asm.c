/*
** asm.c -- the VMIPS assembler: two passes over the lines (syntax: asm.h).
**
** Pass 1 defines labels and .equ constants, lays out .data (evaluating
** .double, .space, .align at once and .word when it can) and records each
** instruction's line.  Pass 2 fills the .word values that named later
** labels and parses every instruction's operands, when all names are known.
*/
#include "asm.h"
#include "../base/file.h"
#include <sys/stat.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define VASM_DATA_MAX (64u << 20)

static bool data_grow(vasm *a, const vasm_cur *c, uint32_t pos, uint64_t n)
{
    if (n > a->max_data || a->dsize > a->max_data - n)
        return vasm_err(a, c, pos, "the .data section would exceed %llu bytes", (unsigned long long)a->max_data);
    if (a->dsize + n > a->dcap) {
        uint64_t cap = a->dcap ? a->dcap : 4096;
        while (cap < a->dsize + n) cap *= 2;
        a->data = tp_realloc(a->data, (size_t)cap);
        memset(a->data + a->dcap, 0, (size_t)(cap - a->dcap));
        a->dcap = cap;
    }
    return true;
}

static void put_int(uint8_t *p, uint64_t v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v) { put_int(p, v, 8); }

/* Whether v fits in n bytes, read as signed or as unsigned. */
static bool int_fits(vasm *a, const vasm_cur *c, uint32_t pos, int64_t v, uint32_t n)
{
    if (n >= 8) return true;
    int64_t lo = -((int64_t)1 << (8 * n - 1)), hi = ((int64_t)1 << (8 * n)) - 1;
    if (v >= lo && v <= hi) return true;
    return vasm_err(a, c, pos, "value %lld does not fit in %u bits (%lld..%lld)", (long long)v, 8 * n, (long long)lo,
                    (long long)hi);
}

static bool need_data(vasm *a, const vasm_cur *c, uint32_t pos, const char *dir)
{
    if (a->in_data) return true;
    return vasm_err(a, c, pos, "%s belongs in .data (this is .text)", dir);
}

/* A decimal literal for .double: [+-]digits[.digits][e[+-]digits]. */
static bool dliteral(vasm *a, vasm_cur *c, double *v)
{
    char tb[40], buf[80];
    vasm_skip_ws(c);
    uint32_t pos = c->i, k = c->i, digits = 0;
    if (k < c->n && (c->s[k] == '+' || c->s[k] == '-')) k++;
    while (k < c->n && isdigit((unsigned char)c->s[k])) k++, digits++;
    if (k < c->n && c->s[k] == '.') {
        k++;
        while (k < c->n && isdigit((unsigned char)c->s[k])) k++, digits++;
    }
    if (digits && k < c->n && (c->s[k] == 'e' || c->s[k] == 'E')) {
        uint32_t m = k + 1;
        if (m < c->n && (c->s[m] == '+' || c->s[m] == '-')) m++;
        if (m < c->n && isdigit((unsigned char)c->s[m])) {
            while (m < c->n && isdigit((unsigned char)c->s[m])) m++;
            k = m;
        }
    }
    if (!digits || (k < c->n && vasm_is_id(c->s[k])))
        return vasm_err(a, c, pos, "expected a number (integer or decimal), got '%s'", vasm_tok(c, pos, tb));
    if (k - pos >= sizeof buf) return vasm_err(a, c, pos, "number too long");
    memcpy(buf, c->s + pos, k - pos);
    buf[k - pos] = 0;
    *v = strtod(buf, NULL);
    c->i = k;
    return true;
}

static const vec_equ_set *find_set(vasm *a, const char *name, uint32_t n, uint32_t *idx)
{
    for (uint32_t i = 0; i < (a->cfg ? a->cfg->nset : 0); i++) {
        const vec_equ_set *s = &a->cfg->set[i];
        if (strlen(s->name) == n && memcmp(s->name, name, n) == 0) {
            *idx = i;
            return s;
        }
    }
    return NULL;
}

static bool dir_equ(vasm *a, vasm_cur *c)
{
    char tb[40];
    vasm_skip_ws(c);
    uint32_t npos = c->i, n = vasm_word(c);
    if (!n || c->s[npos] == '.') return vasm_err(a, c, npos, "expected a name after .equ, got '%s'", vasm_tok(c, npos, tb));
    c->i += n;
    vasm_skip_ws(c);
    if (vasm_peek(c) == ',') c->i++;
    vasm_skip_ws(c);
    uint32_t vpos = c->i, vn = vasm_word(c);
    vec_reg r = {0, 0}, tmp;
    const vec_sym *alias = vn ? vasm_sym_find(a, c->s + vpos, vn) : NULL;
    uint32_t si;
    const vec_equ_set *set = find_set(a, c->s + npos, n, &si);
    if (vn && (vasm_reg_word(c->s + vpos, vn, &tmp) != 0 || (alias && alias->kind == VEC_SYM_REG))) {
        if (!vasm_reg(a, c, VEC_RK_NONE, &r) || !vasm_end(a, c)) return false;
        if (set) return vasm_err(a, c, npos, "--set %s: '%s' names a register, not a value", set->name, set->name);
        return vasm_sym_define(a, c, npos, n, VEC_SYM_REG, 0, r);
    }
    int64_t v;
    if (vasm_peek(c) == '#') c->i++;
    vasm_ectx x = {false, NULL, ".equ uses names defined before it", 0};
    if (!vasm_expr(a, c, &x, &v) || !vasm_end(a, c)) return false;
    if (set) {
        v = set->value;
        a->set_used[si] = true;
    }
    return vasm_sym_define(a, c, npos, n, VEC_SYM_EQU, v, r);
}

static bool dir_include(vasm *a, vasm_cur *c, uint32_t pos);

static bool directive(vasm *a, vasm_cur *c, uint32_t pos, uint32_t n)
{
    char name[16];
    uint32_t k = 0;
    for (; k < n && k < sizeof name - 1; k++) name[k] = (char)tolower((unsigned char)c->s[pos + k]);
    name[k] = 0;
    if (n >= sizeof name) name[0] = 0;
    c->i = pos + n;
    if (!strcmp(name, ".data") || !strcmp(name, ".text") || !strcmp(name, ".code")) {
        a->in_data = name[1] == 'd';
        return vasm_end(a, c);
    }
    if (!strcmp(name, ".equ")) return dir_equ(a, c);
    if (!strcmp(name, ".include")) return dir_include(a, c, pos);
    if (!strcmp(name, ".double")) {
        if (!need_data(a, c, pos, ".double")) return false;
        for (;;) {
            double d = 0;
            uint32_t vpos = c->i;
            if (!dliteral(a, c, &d) || !data_grow(a, c, vpos, 8)) return false;
            uint64_t bits;
            memcpy(&bits, &d, 8);
            put64(a->data + a->dsize, bits);
            a->dsize += 8;
            if (vasm_at_end(c)) return true;
            if (!vasm_sep(a, c)) return false;
        }
    }
    uint32_t isize = !strcmp(name, ".word") ? 8 : !strcmp(name, ".word32") ? 4 : !strcmp(name, ".word16") ? 2
                   : !strcmp(name, ".byte") ? 1 : 0;
    if (isize) {
        if (!need_data(a, c, pos, name)) return false;
        for (;;) {
            vasm_skip_ws(c);
            uint32_t vpos = c->i;
            bool undef = false;
            int64_t v;
            vasm_ectx x = {true, &undef, NULL, 0};
            if (vasm_peek(c) == '#') c->i++;
            if (!vasm_expr(a, c, &x, &v) || !data_grow(a, c, vpos, isize)) return false;
            if (undef) {
                vasm_pword w = {c->s, a->file, c->n, c->line, vpos, a->dsize, isize};
                tp_vec_push(&a->words, w);
            } else if (!int_fits(a, c, vpos, v, isize)) {
                return false;
            }
            put_int(a->data + a->dsize, (uint64_t)v, isize);
            a->dsize += isize;
            if (vasm_at_end(c)) return true;
            if (!vasm_sep(a, c)) return false;
        }
    }
    if (!strcmp(name, ".space") || !strcmp(name, ".align")) {
        bool space = name[1] == 's';
        int64_t v;
        vasm_skip_ws(c);
        uint32_t vpos = c->i;
        if (vasm_peek(c) == '#') c->i++;
        vasm_ectx x = {false, NULL, space ? ".space uses names defined before it" : ".align uses names defined before it", 0};
        if (!vasm_expr(a, c, &x, &v) || !vasm_end(a, c)) return false;
        if (space) {
            if (!need_data(a, c, pos, ".space")) return false;
            if (v < 0) return vasm_err(a, c, vpos, ".space needs a size >= 0, got %lld", (long long)v);
            if (!data_grow(a, c, vpos, (uint64_t)v)) return false;
            a->dsize += (uint64_t)v; /* data_grow zeroed it */
            return true;
        }
        if (v < 0 || v > 16) return vasm_err(a, c, vpos, ".align takes 0..16 (a power of two of bytes), got %lld", (long long)v);
        if (!a->in_data) return true; /* instructions need no alignment */
        uint64_t al = (uint64_t)1 << v, pad = (al - a->dsize % al) % al;
        if (!data_grow(a, c, vpos, pad)) return false;
        a->dsize += pad;
        return true;
    }
    if (!strcmp(name, ".globl") || !strcmp(name, ".global")) return true; /* nothing to export */
    return vasm_err(a, c, pos, "unknown directive '%.*s'", (int)n, c->s + pos);
}

/* The opcode a mnemonic names, or -1 (asm.h lists the conveniences). */
static int find_op(const char *w, uint32_t n)
{
    char up[20];
    if (n > 12) return -1;
    for (uint32_t i = 0; i < n; i++) up[i] = (char)toupper((unsigned char)w[i]);
    up[n] = 0;
    if (!strcmp(up, "DADDIU")) return VEC_OP_DADDUI;
    for (int pass = 0; pass < 2; pass++) {
        for (int op = 0; op < VEC_NOPS; op++)
            if (!strcmp(vec_ops[op].name, up)) return op;
        /* a vector mnemonic without its ".D" */
        if (pass == 0 && up[n - 1] == 'V') memcpy(up + n, ".D", 3);
        else if (pass == 0 && n > 2 && (!strcmp(up + n - 2, "VS") || !strcmp(up + n - 2, "SV"))) memcpy(up + n, ".D", 3);
        else break;
    }
    return -1;
}

static bool statement(vasm *a, vasm_cur *c, uint32_t pos, uint32_t n)
{
    if (c->s[pos] == '.') return directive(a, c, pos, n);
    int op = find_op(c->s + pos, n);
    if (op < 0) return vasm_err(a, c, pos, "unknown instruction '%.*s'", (int)n, c->s + pos);
    if (a->in_data) return vasm_err(a, c, pos, "instructions belong in .text (this is .data)");
    if (a->depth)
        return vasm_err(a, c, pos, "instructions belong in the program's own file (an included file holds data, "
                                   "constants and labels)");
    if (a->ins.n == UINT32_MAX) return vasm_err(a, c, pos, "too many instructions");
    vasm_pend p = {c->s, c->n, c->line, pos, pos + n, (uint16_t)op, n};
    tp_vec_push(&a->ins, p);
    return true;
}

static bool pass1_line(vasm *a, vasm_cur *c)
{
    char tb[40];
    for (uint32_t i = 0; i < c->n; i++)
        if (c->s[i] == 0) return vasm_err(a, c, i, "NUL byte in the source");
    for (;;) {
        vasm_skip_ws(c);
        if (c->i >= c->n || c->s[c->i] == ';' || c->s[c->i] == '#') return true; /* comment */
        uint32_t pos = c->i, n = vasm_word(c);
        if (!n) return vasm_err(a, c, pos, "unexpected '%s'", vasm_tok(c, pos, tb));
        if (pos + n < c->n && c->s[pos + n] == ':') {
            vec_reg none = {0, 0};
            if (!vasm_sym_define(a, c, pos, n, a->in_data ? VEC_SYM_DATA : VEC_SYM_CODE,
                                 a->in_data ? (int64_t)a->dsize : (int64_t)a->ins.n, none))
                return false;
            c->i = pos + n + 1;
            continue;
        }
        return statement(a, c, pos, n);
    }
}

/* Pass 1 over one file's text (a->file names it). */
static bool pass1_text(vasm *a, const char *text, size_t len)
{
    if (len > UINT32_MAX) {
        tp_loc loc = {a->file, 0, 0};
        tp_err_at(a->e, 1, loc, "source too large");
        return false;
    }
    uint32_t line = 1;
    for (size_t i = 0; i <= len; line++) {
        size_t j = i;
        while (j < len && text[j] != '\n') j++;
        if (line == UINT32_MAX) {
            tp_loc loc = {a->file, line, 1};
            tp_err_at(a->e, 1, loc, "too many lines");
            return false;
        }
        vasm_cur c = {text + i, (uint32_t)(j - i), 0, line};
        if (!pass1_line(a, &c)) return false;
        i = j + 1;
    }
    return true;
}

/* .include "FILE": FILE's lines in place of this one. */
static bool dir_include(vasm *a, vasm_cur *c, uint32_t pos)
{
    vasm_skip_ws(c);
    uint32_t q = c->i;
    if (vasm_peek(c) != '"') return vasm_err(a, c, q, ".include needs a file name in double quotes");
    uint32_t k = q + 1;
    while (k < c->n && c->s[k] != '"') k++;
    if (k >= c->n) return vasm_err(a, c, q, "unterminated file name");
    if (k == q + 1) return vasm_err(a, c, q, ".include needs a file name");
    c->i = k + 1;
    if (!vasm_end(a, c)) return false;
    if (a->cfg && a->cfg->no_include) return vasm_err(a, c, pos, ".include is not allowed here");
    if (a->depth >= 8) return vasm_err(a, c, q, ".include nests more than 8 deep (does a file include itself?)");
    const char *name = c->s + q + 1;
    uint32_t nlen = k - q - 1;
    const char *slash = strrchr(a->file, '/');
    size_t dlen = name[0] != '/' && slash ? (size_t)(slash - a->file) + 1 : 0;
    char *path = tp_arena_alloc(a->arena, dlen + nlen + 1);
    memcpy(path, a->file, dlen);
    memcpy(path + dlen, name, nlen);
    path[dlen + nlen] = 0;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return vasm_err(a, c, q, "'%s' is not a regular file", path);
    size_t len;
    char *text = vec_read_file(path, &len);
    if (!text) return vasm_err(a, c, q, "cannot read '%s'", path);
    uint32_t bl, bc;
    uint8_t bb;
    if (tp_text_binary(text, len, &bl, &bc, &bb)) {
        free(text);
        return vasm_err(a, c, q, "'%s' holds binary data (byte 0x%02x at line %u, column %u), not text", path, bb, bl, bc);
    }
    tp_vec_push(&a->texts, text);
    const char *outer = a->file;
    a->file = path;
    a->depth++;
    bool ok = pass1_text(a, text, len);
    a->depth--;
    a->file = outer;
    return ok;
}

/* ---- pass 2: operands ---- */

/* The family of a vector arithmetic or compare opcode, from the names of
** vec_ops.def: fam[0] the VV form (stem "XV"), fam[1] the VS form ("XVS"),
** fam[2] the SV form ("XSV"), each with op's suffix (".D", ".I", ...); -1
** where the table has none.  Returns which member op is. */
static int family(int op, int fam[3])
{
    const vec_opinfo *oi = &vec_ops[op];
    const char *nm = oi->name, *dot = strchr(nm, '.');
    const char *suffix = dot ? dot : "";
    size_t stem = dot ? (size_t)(dot - nm) : strlen(nm);
    int member = oi->form == VEC_FM_VVV || oi->form == VEC_FM_VV ? 0
                 : oi->form == VEC_FM_VFV || oi->form == VEC_FM_VRS ? 2 : 1;
    size_t base = stem - (member == 0 ? 1 : 2);
    static const char *marks[3] = {"V", "VS", "SV"};
    for (int k = 0; k < 3; k++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)base, nm, marks[k], suffix);
        fam[k] = vec_op_find(buf);
    }
    TP_ASSERT(fam[member] == op);
    return member;
}

/* The scalar register kind of a family: F for .D, R otherwise. */
static int family_scalar(const int fam[3])
{
    for (int k = 0; k < 3; k++)
        if (fam[k] >= 0 && (vec_ops[fam[k]].flags & VEC_FL_D)) return VEC_RK_F;
    return VEC_RK_R;
}

static bool arith(vasm *a, vasm_cur *c, vec_insn *in)
{
    vec_reg d, x, y;
    uint32_t xpos, ypos;
    if (!vasm_reg(a, c, VEC_RK_V, &d) || !vasm_sep(a, c)) return false;
    vasm_skip_ws(c);
    xpos = c->i;
    if (!vasm_reg(a, c, VEC_RK_NONE, &x) || !vasm_sep(a, c)) return false;
    vasm_skip_ws(c);
    ypos = c->i;
    if (!vasm_reg(a, c, VEC_RK_NONE, &y)) return false;
    int fam[3], v = family(in->op, fam), sk = family_scalar(fam);
    bool fp = sk == VEC_RK_F;
    const char *what = fp ? "expected a vector or FP register" : "expected a vector or integer register";
    if (x.kind != VEC_RK_V && x.kind != sk) return vasm_err(a, c, xpos, "%s", what);
    if (y.kind != VEC_RK_V && y.kind != sk) return vasm_err(a, c, ypos, "%s", what);
    if (x.kind == sk && y.kind == sk) return vasm_err(a, c, ypos, "%s needs a vector operand", vec_ops[in->op].name);
    int want = x.kind == VEC_RK_V && y.kind == VEC_RK_V ? 0 : x.kind == VEC_RK_V ? 1 : 2;
    bool commutes = fam[2] < 0;
    if (v == 0) { /* ADDV.D & co take whatever the operands say */
        v = want == 2 && commutes ? 1 : want;
        if (fam[v] < 0)
            return vasm_err(a, c, want == 1 ? ypos : xpos, "%s has no form with a scalar operand",
                            vec_ops[in->op].name);
    } else if (want == 0) {
        return vasm_err(a, c, v == 1 ? ypos : xpos, "%s takes a scalar %s register here (%s operates on two vectors)",
                        vec_ops[in->op].name, fp ? "F" : "R", vec_ops[fam[0]].name);
    } else if (want != v && !(commutes && want == 2)) {
        char vs[16], sv[16];
        snprintf(vs, sizeof vs, "Vs op %ss", fp ? "F" : "R");
        snprintf(sv, sizeof sv, "%ss op Vt", fp ? "F" : "R");
        char fvs[16], fsv[16];
        snprintf(fvs, sizeof fvs, "Vd,Vs,%ss", fp ? "F" : "R");
        snprintf(fsv, sizeof fsv, "Vd,%ss,Vt", fp ? "F" : "R");
        return vasm_err(a, c, xpos, "%s computes %s: write %s (or use %s)", vec_ops[in->op].name, v == 1 ? vs : sv,
                        v == 1 ? fvs : fsv, vec_ops[fam[v == 1 ? 2 : 1]].name);
    }
    in->op = (uint16_t)fam[v];
    in->d = d.num;
    if (v == 1 && x.kind == sk) { /* commuted: Vd,Fs,Vt */
        in->a = y.num, in->b = x.num;
    } else {
        in->a = x.num, in->b = y.num;
    }
    return true;
}

static bool compare(vasm *a, vasm_cur *c, vec_insn *in)
{
    vec_reg x, y;
    uint32_t ypos;
    if (!vasm_reg(a, c, VEC_RK_V, &x) || !vasm_sep(a, c)) return false;
    vasm_skip_ws(c);
    ypos = c->i;
    if (!vasm_reg(a, c, VEC_RK_NONE, &y)) return false;
    int fam[3], sk;
    bool vs = family(in->op, fam) == 1;
    sk = family_scalar(fam);
    if (y.kind == sk && !vs && fam[1] >= 0) in->op = (uint16_t)fam[1], vs = true;
    if (vs && y.kind != sk)
        return vasm_err(a, c, ypos, "%s compares with a scalar: expected %s", vec_ops[in->op].name,
                        sk == VEC_RK_F ? "an FP register (F0-F31)" : "an integer register (R0-R31)");
    if (!vs && y.kind != VEC_RK_V)
        return vasm_err(a, c, ypos, "%s", sk == VEC_RK_F ? "expected a vector or FP register"
                                                        : "expected a vector or integer register");
    in->a = x.num, in->b = y.num;
    return true;
}

/* A vector control register: VLR, VPW (MTC1 and MFC1) or MVL (MFC1 only). */
static bool ctl_reg(vasm *a, vasm_cur *c, bool write, uint8_t *kind)
{
    char tb[40];
    vasm_skip_ws(c);
    uint32_t pos = c->i, n = vasm_word(c);
    char up[4] = {0};
    for (uint32_t k = 0; k < n && k < 3; k++) up[k] = (char)toupper((unsigned char)c->s[pos + k]);
    if (n == 3 && (!strcmp(up, "VPW") || !strcmp(up, "MVL"))) {
        if (write && up[0] == 'M')
            return vasm_err(a, c, pos, "MVL is read-only: it follows VPW (MVL = mvl * 64 / VPW)");
        *kind = up[0] == 'M' ? VEC_RK_MVL : VEC_RK_VPW;
        c->i = pos + n;
        return true;
    }
    vec_reg r;
    const vec_sym *sy = n ? vasm_sym_find(a, c->s + pos, n) : NULL;
    if (n && ((vasm_reg_word(c->s + pos, n, &r) == 1 && r.kind == VEC_RK_VLR) ||
              (sy && sy->kind == VEC_SYM_REG && sy->reg.kind == VEC_RK_VLR))) {
        *kind = VEC_RK_VLR;
        c->i = pos + n;
        return true;
    }
    return vasm_err(a, c, pos, "expected %s, got '%s'", write ? "VLR or VPW" : "VLR, VPW or MVL", vasm_tok(c, pos, tb));
}

/* Whether the next operand is register-shaped (a register or a name for one). */
static bool reg_next(vasm *a, vasm_cur *c)
{
    vec_reg r;
    vasm_skip_ws(c);
    uint32_t pos = c->i, n = vasm_word(c);
    const vec_sym *sy = n ? vasm_sym_find(a, c->s + pos, n) : NULL;
    return n && (vasm_reg_word(c->s + pos, n, &r) != 0 || (sy && sy->kind == VEC_SYM_REG));
}

/* The last operand of MTC1, FFX and VVX: a register of `kind` (into in->field) or
** an immediate in lo..hi (in->imm, in->alt = 1). */
static bool reg_or_imm(vasm *a, vasm_cur *c, vec_insn *in, int kind, uint8_t *field, int64_t lo, int64_t hi,
                       const char *what)
{
    vec_reg r;
    if (reg_next(a, c)) {
        if (!vasm_reg(a, c, kind, &r)) return false;
        *field = r.num;
        return true;
    }
    vasm_skip_ws(c);
    uint32_t pos = c->i;
    in->alt = 1;
    if (!vasm_imm(a, c, &in->imm)) return false;
    if (in->imm < lo || in->imm > hi)
        return vasm_err(a, c, pos, "%s %lld is outside %lld..%lld", what, (long long)in->imm, (long long)lo,
                        (long long)hi);
    return true;
}

static bool rrx_last(vasm *a, vasm_cur *c, vec_insn *in)
{
    vec_reg r;
    vasm_skip_ws(c);
    uint32_t pos = c->i, n = vasm_word(c);
    const vec_sym *s = n ? vasm_sym_find(a, c->s + pos, n) : NULL;
    if (n && (vasm_reg_word(c->s + pos, n, &r) != 0 || (s && s->kind == VEC_SYM_REG))) {
        if (!vasm_reg(a, c, VEC_RK_R, &r)) return false;
        in->b = r.num;
        return true;
    }
    in->alt = 1;
    if (!vasm_imm(a, c, &in->imm)) return false;
    if ((in->op == VEC_OP_DSLL || in->op == VEC_OP_DSRL) && (in->imm < 0 || in->imm > 63))
        return vasm_err(a, c, pos, "shift amount %lld is outside 0..63", (long long)in->imm);
    return true;
}

static bool operands(vasm *a, vasm_cur *c, vec_insn *in)
{
    vec_reg r, s;
    const vec_opinfo *oi = &vec_ops[in->op];
#define REG(kind, field) (vasm_reg(a, c, kind, &r) && ((in->field = r.num), true))
#define SEP vasm_sep(a, c)
    switch ((vec_form)oi->form) {
    case VEC_FM_NONE: return true;
    case VEC_FM_RRX: return REG(VEC_RK_R, d) && SEP && REG(VEC_RK_R, a) && SEP && rrx_last(a, c, in);
    case VEC_FM_RRI: return REG(VEC_RK_R, d) && SEP && REG(VEC_RK_R, a) && SEP && vasm_imm(a, c, &in->imm);
    case VEC_FM_RMEM: return REG(VEC_RK_R, d) && SEP && vasm_mem(a, c, &in->imm, &in->a);
    case VEC_FM_FMEM: return REG(VEC_RK_F, d) && SEP && vasm_mem(a, c, &in->imm, &in->a);
    case VEC_FM_FFF: return REG(VEC_RK_F, d) && SEP && REG(VEC_RK_F, a) && SEP && REG(VEC_RK_F, b);
    case VEC_FM_FFX:
        return REG(VEC_RK_F, d) && SEP && REG(VEC_RK_F, a) && SEP &&
               reg_or_imm(a, c, in, VEC_RK_F, &in->b, 0, 255, "shift count");
    case VEC_FM_RL: return REG(VEC_RK_R, a) && SEP && vasm_label(a, c, &in->imm);
    case VEC_FM_RRL: return REG(VEC_RK_R, a) && SEP && REG(VEC_RK_R, b) && SEP && vasm_label(a, c, &in->imm);
    case VEC_FM_L: return vasm_label(a, c, &in->imm);
    case VEC_FM_MTC1: {
        if (!ctl_reg(a, c, true, &in->b) || !SEP) return false;
        vasm_skip_ws(c);
        uint32_t pos = c->i;
        if (!reg_or_imm(a, c, in, VEC_RK_R, &in->a, INT64_MIN, INT64_MAX, "")) return false;
        if (in->alt && in->b == VEC_RK_VPW && in->imm != 8 && in->imm != 16 && in->imm != 32 && in->imm != 64)
            return vasm_err(a, c, pos, "VPW takes 8, 16, 32 or 64, got %lld", (long long)in->imm);
        if (in->alt && in->b == VEC_RK_VLR && in->imm < 0)
            return vasm_err(a, c, pos, "VLR takes 0..MVL, got %lld", (long long)in->imm);
        return true;
    }
    case VEC_FM_MFC1: return REG(VEC_RK_R, d) && SEP && ctl_reg(a, c, false, &in->b);
    case VEC_FM_MVTM: return vasm_reg(a, c, VEC_RK_VM, &s) && SEP && REG(VEC_RK_F, a);
    case VEC_FM_MVFM: return REG(VEC_RK_F, d) && SEP && vasm_reg(a, c, VEC_RK_VM, &s);
    case VEC_FM_POP: return REG(VEC_RK_R, d) && SEP && vasm_reg(a, c, VEC_RK_VM, &s);
    case VEC_FM_VVV:
    case VEC_FM_VVF:
    case VEC_FM_VFV:
    case VEC_FM_VVR:
    case VEC_FM_VRS: return arith(a, c, in);
    case VEC_FM_VVX:
        return REG(VEC_RK_V, d) && SEP && REG(VEC_RK_V, a) && SEP &&
               reg_or_imm(a, c, in, VEC_RK_R, &in->b, 0, 63, "shift count");
    case VEC_FM_VR: return REG(VEC_RK_V, d) && SEP && vasm_vbase(a, c, &in->imm, &in->a);
    case VEC_FM_RV: return vasm_vbase(a, c, &in->imm, &in->a) && SEP && REG(VEC_RK_V, d);
    case VEC_FM_VRR:
        return REG(VEC_RK_V, d) && SEP && vasm_expect(a, c, '(') && REG(VEC_RK_R, a) && SEP && REG(VEC_RK_R, b) &&
               vasm_expect(a, c, ')');
    case VEC_FM_RRV:
        return vasm_expect(a, c, '(') && REG(VEC_RK_R, a) && SEP && REG(VEC_RK_R, b) && vasm_expect(a, c, ')') &&
               SEP && REG(VEC_RK_V, d);
    case VEC_FM_VRV:
        return REG(VEC_RK_V, d) && SEP && vasm_expect(a, c, '(') && REG(VEC_RK_R, a) && vasm_expect(a, c, '+') &&
               REG(VEC_RK_V, b) && vasm_expect(a, c, ')');
    case VEC_FM_RVV:
        return vasm_expect(a, c, '(') && REG(VEC_RK_R, a) && vasm_expect(a, c, '+') && REG(VEC_RK_V, b) &&
               vasm_expect(a, c, ')') && SEP && REG(VEC_RK_V, d);
    case VEC_FM_VV:
    case VEC_FM_VF:
    case VEC_FM_VSR: return compare(a, c, in);
    case VEC_FM_VX: {
        if (!REG(VEC_RK_V, d) || !SEP) return false;
        vasm_skip_ws(c);
        uint32_t pos = c->i, n = vasm_word(c);
        const vec_sym *sy = n ? vasm_sym_find(a, c->s + pos, n) : NULL;
        if (n && (vasm_reg_word(c->s + pos, n, &s) != 0 || (sy && sy->kind == VEC_SYM_REG))) return REG(VEC_RK_R, a);
        in->alt = 1;
        return vasm_imm(a, c, &in->imm);
    }
    }
#undef REG
#undef SEP
    return false;
}

static bool pass2_insn(vasm *a, const vasm_pend *p, vec_insn *in)
{
    vasm_cur c = {p->s, p->n, p->opos, p->line};
    in->op = p->op;
    in->line = p->line;
    in->col = p->mpos + 1;
    if (vec_ops[in->op].form != VEC_FM_NONE) {
        /* operands follow the mnemonic after a blank */
        if (c.i < c.n && !vasm_is_ws(c.s[c.i]) && c.s[c.i] != ';')
            return vasm_err(a, &c, c.i, "expected a blank after '%.*s'", (int)p->mlen, p->s + p->mpos);
        if (vasm_at_end(&c)) return vasm_err(a, &c, c.i, "%s needs operands", vec_ops[in->op].name);
    }
    if (!operands(a, &c, in)) return false;
    uint32_t end = c.i;
    if (!vasm_end(a, &c)) return false;
    /* the statement's text, blanks collapsed */
    char *t = tp_arena_alloc(a->arena, end - p->mpos + 1);
    uint32_t k = 0;
    for (uint32_t i = p->mpos; i < end; i++) {
        char ch = p->s[i];
        if (vasm_is_ws(ch)) {
            if (k && t[k - 1] != ' ') t[k++] = ' ';
        } else {
            t[k++] = ch;
        }
    }
    while (k && t[k - 1] == ' ') k--;
    t[k] = 0;
    in->text = t;
    vec_insn_deps(in);
    return true;
}

static void vasm_free(vasm *a)
{
    free(a->sym);
    free(a->ht);
    free(a->data);
    free(a->set_used);
    for (uint32_t i = 0; i < a->texts.n; i++) free(a->texts.a[i]);
    tp_vec_free(&a->texts);
    tp_vec_free(&a->ins);
    tp_vec_free(&a->words);
}

bool vec_asm(vec_prog *p, const char *text, size_t len, const char *file, const vec_asm_cfg *cfg, tp_err *e)
{
    vasm a;
    memset(&a, 0, sizeof a);
    memset(p, 0, sizeof *p);
    tp_arena_init(&p->arena);
    a.file = tp_arena_strdup(&p->arena, file ? file : "");
    a.cfg = cfg;
    a.vregs = cfg && cfg->vregs ? cfg->vregs : 64;
    if (a.vregs > 64) a.vregs = 64;
    a.max_data = cfg && cfg->max_data ? cfg->max_data : VASM_DATA_MAX;
    a.e = e;
    a.arena = &p->arena;
    a.set_used = tp_calloc(cfg && cfg->nset ? cfg->nset : 1, sizeof *a.set_used);
    const char *main_file = a.file;
    bool ok = pass1_text(&a, text, len);
    for (uint32_t i = 0; ok && cfg && i < cfg->nset; i++) {
        if (a.set_used[i]) continue;
        tp_loc loc = {file, 0, 0};
        tp_err_at(e, 1, loc, "--set %s: the program has no .equ named '%s'", cfg->set[i].name, cfg->set[i].name);
        ok = false;
    }
    /* pass 2 */
    for (uint32_t i = 0; ok && i < a.words.n; i++) {
        const vasm_pword *w = &a.words.a[i];
        vasm_cur c = {w->s, w->n, w->pos, w->line};
        a.file = w->file;
        int64_t v;
        if (vasm_peek(&c) == '#') c.i++;
        vasm_ectx x = {0};
        ok = vasm_expr(&a, &c, &x, &v) && int_fits(&a, &c, w->pos, v, w->size);
        if (ok) put_int(a.data + w->off, (uint64_t)v, w->size);
    }
    a.file = main_file;
    if (ok) {
        p->ninsn = a.ins.n;
        p->insn = tp_arena_alloc(&p->arena, (size_t)a.ins.n * sizeof *p->insn + 1);
        for (uint32_t i = 0; ok && i < a.ins.n; i++) ok = pass2_insn(&a, &a.ins.a[i], &p->insn[i]);
    }
    if (!ok) {
        vasm_free(&a);
        tp_arena_free(&p->arena);
        memset(p, 0, sizeof *p);
        return false;
    }
    p->file = main_file;
    p->data_size = a.dsize;
    p->data = tp_arena_alloc(&p->arena, (size_t)a.dsize + 1);
    if (a.dsize) memcpy(p->data, a.data, (size_t)a.dsize);
    p->nsym = a.nsym;
    p->sym = tp_arena_alloc(&p->arena, (size_t)a.nsym * sizeof *p->sym + 1);
    if (a.nsym) memcpy(p->sym, a.sym, a.nsym * sizeof *p->sym);
    vasm_free(&a);
    return true;
}

void vec_prog_free(vec_prog *p)
{
    tp_arena_free(&p->arena);
    memset(p, 0, sizeof *p);
}

const vec_sym *vec_prog_sym(const vec_prog *p, const char *name)
{
    for (uint32_t i = 0; i < p->nsym; i++)
        if (!strcmp(p->sym[i].name, name)) return &p->sym[i];
    return NULL;
}

char *vec_read_file(const char *path, size_t *len) { return tp_file_read(path, len); }
