/*
** asm_lex.c -- the assembler's cursor, symbols, expressions and operands
** (asm.c drives the passes).  See asm.h for the syntax.
*/
#include "asm.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

bool vasm_err(vasm *a, const vasm_cur *c, uint32_t pos, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tp_loc loc = {a->file, c->line, pos + 1};
    tp_err_at(a->e, 1, loc, "%s", buf);
    return false;
}

/* ---- characters and words ---- */

bool vasm_is_ws(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; }
bool vasm_is_id0(int ch) { return isalpha((unsigned char)ch) || ch == '_' || ch == '.'; }
bool vasm_is_id(int ch) { return isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '$'; }

int vasm_peek(const vasm_cur *c) { return c->i < c->n ? (unsigned char)c->s[c->i] : -1; }

void vasm_skip_ws(vasm_cur *c)
{
    while (c->i < c->n && vasm_is_ws(c->s[c->i])) c->i++;
}

uint32_t vasm_word(const vasm_cur *c)
{
    uint32_t k = c->i;
    if (k >= c->n || !vasm_is_id0(c->s[k])) return 0;
    while (k < c->n && vasm_is_id(c->s[k])) k++;
    return k - c->i;
}

/* The text at pos for messages: up to the next blank or comma (bytes that
** are not printable are escaped when the message is made: base/err.c). */
const char *vasm_tok(const vasm_cur *c, uint32_t pos, char buf[40])
{
    if (pos >= c->n) return "end of line";
    uint32_t k = 0;
    while (pos < c->n && k < 32 && !vasm_is_ws(c->s[pos]) && (k == 0 || c->s[pos] != ',')) {
        buf[k++] = c->s[pos++];
    }
    if (k == 32) buf[k - 1] = '.', buf[k - 2] = '.', buf[k - 3] = '.';
    buf[k] = 0;
    return buf;
}

/* ---- registers ---- */

int vasm_reg_word(const char *w, uint32_t n, vec_reg *r)
{
    if (n == 3 && toupper((unsigned char)w[0]) == 'V' && toupper((unsigned char)w[1]) == 'L' &&
        toupper((unsigned char)w[2]) == 'R') {
        r->kind = VEC_RK_VLR, r->num = 0;
        return 1;
    }
    if (n == 2 && toupper((unsigned char)w[0]) == 'V' && toupper((unsigned char)w[1]) == 'M') {
        r->kind = VEC_RK_VM, r->num = 0;
        return 1;
    }
    if (n < 2) return 0;
    int k = toupper((unsigned char)w[0]);
    if (k != 'R' && k != 'F' && k != 'V') return 0;
    uint32_t num = 0;
    for (uint32_t i = 1; i < n; i++) {
        if (!isdigit((unsigned char)w[i])) return 0;
        if (num < 1000) num = num * 10 + (uint32_t)(w[i] - '0');
    }
    uint32_t max = k == 'V' ? 63 : 31;
    if (num > max) return -1;
    r->kind = (uint8_t)(k == 'R' ? VEC_RK_R : k == 'F' ? VEC_RK_F : VEC_RK_V);
    r->num = (uint8_t)num;
    return 1;
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case VEC_RK_R: return "an integer register (R0-R31)";
    case VEC_RK_F: return "an FP register (F0-F31)";
    case VEC_RK_V: return "a vector register";
    case VEC_RK_VLR: return "VLR";
    case VEC_RK_VM: return "VM";
    default: return "a register";
    }
}

bool vasm_reg(vasm *a, vasm_cur *c, int kind, vec_reg *r)
{
    char tb[40];
    vasm_skip_ws(c);
    uint32_t pos = c->i, n = vasm_word(c);
    int ok = n ? vasm_reg_word(c->s + pos, n, r) : 0;
    if (ok < 0) return vasm_err(a, c, pos, "no register '%.*s' (R0-R31, F0-F31, V0-V%u)", (int)n, c->s + pos, a->vregs - 1);
    if (!ok && n) {
        const vec_sym *s = vasm_sym_find(a, c->s + pos, n);
        if (s && s->kind == VEC_SYM_REG) *r = s->reg, ok = 1;
    }
    if (!ok || (kind != VEC_RK_NONE && r->kind != kind)) {
        if (kind == VEC_RK_V)
            return vasm_err(a, c, pos, "expected a vector register (V0-V%u), got '%s'", a->vregs - 1, vasm_tok(c, pos, tb));
        return vasm_err(a, c, pos, "expected %s, got '%s'", kind_name(kind), vasm_tok(c, pos, tb));
    }
    if (r->kind == VEC_RK_V && r->num >= a->vregs)
        return vasm_err(a, c, pos, "V%u does not exist: the machine has %u vector registers (V0-V%u)",
                        r->num, a->vregs, a->vregs - 1);
    c->i = pos + n;
    return true;
}

/* ---- symbols: open-addressing hash table over a->sym ---- */

static uint32_t hash(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

const vec_sym *vasm_sym_find(const vasm *a, const char *name, uint32_t n)
{
    if (!a->htcap) return NULL;
    for (uint32_t h = hash(name, n) & (a->htcap - 1);; h = (h + 1) & (a->htcap - 1)) {
        uint32_t k = a->ht[h];
        if (!k) return NULL;
        const vec_sym *s = &a->sym[k - 1];
        if (strlen(s->name) == n && memcmp(s->name, name, n) == 0) return s;
    }
}

static void ht_put(vasm *a, uint32_t idx)
{
    const char *nm = a->sym[idx].name;
    uint32_t h = hash(nm, (uint32_t)strlen(nm)) & (a->htcap - 1);
    while (a->ht[h]) h = (h + 1) & (a->htcap - 1);
    a->ht[h] = idx + 1;
}

bool vasm_sym_define(vasm *a, const vasm_cur *c, uint32_t pos, uint32_t n, int kind, int64_t value, vec_reg reg)
{
    const char *name = c->s + pos;
    vec_reg dummy;
    if (vasm_reg_word(name, n, &dummy) != 0)
        return vasm_err(a, c, pos, "'%.*s' is a register name; it cannot name a %s", (int)n, name,
                        kind == VEC_SYM_EQU || kind == VEC_SYM_REG ? "constant" : "label");
    const vec_sym *old = vasm_sym_find(a, name, n);
    if (old && old->file == a->file)
        return vasm_err(a, c, pos, "'%.*s' is already defined at line %u", (int)n, name, old->line);
    if (old) return vasm_err(a, c, pos, "'%.*s' is already defined at %s:%u", (int)n, name, old->file, old->line);
    if (a->nsym == a->capsym) {
        a->capsym = a->capsym ? a->capsym * 2 : 64;
        a->sym = tp_realloc(a->sym, a->capsym * sizeof *a->sym);
    }
    if (2 * (a->nsym + 1) > a->htcap) {
        uint32_t cap = a->htcap ? a->htcap * 2 : 128;
        while (2 * (a->nsym + 1) > cap) cap *= 2;
        free(a->ht);
        a->ht = tp_calloc(cap, sizeof *a->ht);
        a->htcap = cap;
        for (uint32_t i = 0; i < a->nsym; i++) ht_put(a, i);
    }
    vec_sym *s = &a->sym[a->nsym];
    s->name = tp_arena_strndup(a->arena, name, n);
    s->kind = (uint8_t)kind;
    s->value = value;
    s->reg = reg;
    s->file = a->file;
    s->line = c->line;
    s->col = pos + 1;
    ht_put(a, a->nsym++);
    return true;
}

/* ---- expressions: sums of products of numbers and names ---- */

static bool number(vasm *a, vasm_cur *c, int64_t *v)
{
    uint32_t pos = c->i;
    uint64_t x = 0;
    bool big = false;
    if (c->i + 1 < c->n && c->s[c->i] == '0' && (c->s[c->i + 1] == 'x' || c->s[c->i + 1] == 'X')) {
        c->i += 2;
        uint32_t start = c->i;
        while (c->i < c->n && isxdigit((unsigned char)c->s[c->i])) {
            int ch = tolower((unsigned char)c->s[c->i++]);
            if (x >> 60) big = true;
            x = (x << 4) | (uint64_t)(isdigit(ch) ? ch - '0' : ch - 'a' + 10);
        }
        if (c->i == start) return vasm_err(a, c, pos, "bad number '%.*s'", (int)(c->i - pos), c->s + pos);
    } else {
        while (c->i < c->n && isdigit((unsigned char)c->s[c->i])) {
            uint64_t d = (uint64_t)(c->s[c->i++] - '0');
            if (x > (UINT64_MAX - d) / 10) big = true;
            x = x * 10 + d;
        }
        if (x > (uint64_t)INT64_MAX) big = true;
    }
    if (c->i < c->n && vasm_is_id(c->s[c->i])) {
        char tb[40];
        return vasm_err(a, c, pos, "bad number '%s'", vasm_tok(c, pos, tb));
    }
    if (big) return vasm_err(a, c, pos, "number '%.*s' does not fit in 64 bits", (int)(c->i - pos), c->s + pos);
    *v = (int64_t)x; /* hex literals may set bit 63 */
    return true;
}

static bool atom(vasm *a, vasm_cur *c, const vasm_ectx *x, int64_t *v)
{
    char tb[40];
    uint32_t pos = c->i;
    int ch = vasm_peek(c);
    if (ch >= 0 && isdigit(ch)) return number(a, c, v);
    if (ch == '(') {
        if (x->depth >= 16) return vasm_err(a, c, pos, "expression nested too deeply");
        vasm_ectx in = *x;
        in.depth++;
        c->i++;
        return vasm_expr(a, c, &in, v) && vasm_expect(a, c, ')');
    }
    uint32_t n = vasm_word(c);
    if (!n) return vasm_err(a, c, pos, "expected a value, got '%s'", vasm_tok(c, pos, tb));
    vec_reg r;
    if (vasm_reg_word(c->s + pos, n, &r) != 0)
        return vasm_err(a, c, pos, "'%.*s' is a register; a value is expected here", (int)n, c->s + pos);
    const vec_sym *s = vasm_sym_find(a, c->s + pos, n);
    c->i = pos + n;
    if (!s) {
        if (x->lenient) {
            *v = 0;
            x->undef[0] = true;
            return true;
        }
        if (x->above)
            return vasm_err(a, c, pos, "'%.*s' is not defined above this line (%s)", (int)n, c->s + pos, x->above);
        return vasm_err(a, c, pos, "undefined name '%.*s'", (int)n, c->s + pos);
    }
    if (s->kind == VEC_SYM_CODE)
        return vasm_err(a, c, pos, "'%s' is a code label; only data labels and .equ constants have values", s->name);
    if (s->kind == VEC_SYM_REG)
        return vasm_err(a, c, pos, "'%s' names a register; a value is expected here", s->name);
    *v = s->value;
    return true;
}

static bool unary(vasm *a, vasm_cur *c, const vasm_ectx *x, int64_t *v)
{
    bool neg = false;
    uint32_t pos;
    for (;;) {
        vasm_skip_ws(c);
        int ch = vasm_peek(c);
        if (ch == '-') neg = !neg;
        else if (ch != '+') break;
        c->i++;
    }
    pos = c->i;
    if (!atom(a, c, x, v)) return false;
    if (neg) {
        if (*v == INT64_MIN) return vasm_err(a, c, pos, "arithmetic overflow");
        *v = -*v;
    }
    return true;
}

static bool term(vasm *a, vasm_cur *c, const vasm_ectx *x, int64_t *v)
{
    if (!unary(a, c, x, v)) return false;
    for (;;) {
        uint32_t save = c->i;
        vasm_skip_ws(c);
        int op = vasm_peek(c);
        if (op != '*' && op != '/') {
            c->i = save;
            return true;
        }
        uint32_t pos = c->i++;
        int64_t w;
        if (!unary(a, c, x, &w)) return false;
        if (op == '*') {
            if (__builtin_mul_overflow(*v, w, v)) return vasm_err(a, c, pos, "arithmetic overflow");
        } else if (w == 0) {
            if (!(x->lenient && x->undef[0])) return vasm_err(a, c, pos, "division by zero");
            *v = 0; /* an undefined name: pass 2 evaluates it again */
        } else if (*v == INT64_MIN && w == -1) {
            return vasm_err(a, c, pos, "arithmetic overflow");
        } else {
            *v /= w; /* truncating toward zero */
        }
    }
}

bool vasm_expr(vasm *a, vasm_cur *c, const vasm_ectx *x, int64_t *v)
{
    if (!term(a, c, x, v)) return false;
    for (;;) {
        uint32_t save = c->i;
        vasm_skip_ws(c);
        int ch = vasm_peek(c);
        if (ch != '+' && ch != '-') {
            c->i = save;
            return true;
        }
        uint32_t pos = c->i++;
        int64_t w;
        if (!term(a, c, x, &w)) return false;
        bool ovf = ch == '+' ? __builtin_add_overflow(*v, w, v) : __builtin_sub_overflow(*v, w, v);
        if (ovf) return vasm_err(a, c, pos, "arithmetic overflow");
    }
}

/* ---- operand shapes ---- */

bool vasm_sep(vasm *a, vasm_cur *c)
{
    char tb[40];
    vasm_skip_ws(c);
    if (vasm_peek(c) == ',') {
        c->i++;
        return true;
    }
    if (vasm_at_end(c)) return vasm_err(a, c, c->i, "missing operand: expected ','");
    return vasm_err(a, c, c->i, "expected ',' before '%s'", vasm_tok(c, c->i, tb));
}

bool vasm_at_end(const vasm_cur *c)
{
    uint32_t i = c->i;
    while (i < c->n && vasm_is_ws(c->s[i])) i++;
    if (i >= c->n || c->s[i] == ';') return true;
    /* '#' after a blank starts a comment here: no operand can follow */
    return c->s[i] == '#' && i > 0 && vasm_is_ws(c->s[i - 1]);
}

bool vasm_end(vasm *a, vasm_cur *c)
{
    char tb[40];
    if (vasm_at_end(c)) return true;
    vasm_skip_ws(c);
    return vasm_err(a, c, c->i, "unexpected '%s' after the operands", vasm_tok(c, c->i, tb));
}

bool vasm_expect(vasm *a, vasm_cur *c, char ch)
{
    char tb[40];
    vasm_skip_ws(c);
    if (vasm_peek(c) == ch) {
        c->i++;
        return true;
    }
    return vasm_err(a, c, c->i, "expected '%c', got '%s'", ch, vasm_tok(c, c->i, tb));
}

bool vasm_imm(vasm *a, vasm_cur *c, int64_t *v)
{
    vasm_skip_ws(c);
    if (vasm_peek(c) == '#') {
        c->i++;
        if (c->i >= c->n || vasm_is_ws(c->s[c->i])) return vasm_err(a, c, c->i - 1, "expected a value after '#'");
    }
    vasm_ectx x = {0};
    return vasm_expr(a, c, &x, v);
}

bool vasm_mem(vasm *a, vasm_cur *c, int64_t *off, uint8_t *base)
{
    vec_reg r;
    vasm_skip_ws(c);
    *off = 0;
    *base = 0;
    if (vasm_peek(c) == '#')
        return vasm_err(a, c, c->i, "a memory operand is a label or off(Rn), not an immediate");
    if (vasm_peek(c) != '(') {
        vasm_ectx x = {0};
        if (!vasm_expr(a, c, &x, off)) return false;
        uint32_t save = c->i;
        vasm_skip_ws(c);
        if (vasm_peek(c) != '(') {
            c->i = save;
            return true;
        }
    }
    c->i++; /* '(' */
    if (!vasm_reg(a, c, VEC_RK_R, &r) || !vasm_expect(a, c, ')')) return false;
    *base = r.num;
    return true;
}

bool vasm_vbase(vasm *a, vasm_cur *c, int64_t *off, uint8_t *base)
{
    vec_reg r;
    vasm_skip_ws(c);
    uint32_t n = vasm_word(c);
    if (n && (vasm_reg_word(c->s + c->i, n, &r) != 0 ||
              (vasm_sym_find(a, c->s + c->i, n) && vasm_sym_find(a, c->s + c->i, n)->kind == VEC_SYM_REG))) {
        if (!vasm_reg(a, c, VEC_RK_R, &r)) return false;
        *off = 0;
        *base = r.num;
        return true;
    }
    return vasm_mem(a, c, off, base);
}

bool vasm_label(vasm *a, vasm_cur *c, int64_t *pc)
{
    char tb[40];
    vasm_skip_ws(c);
    uint32_t pos = c->i, n = vasm_word(c);
    if (!n) return vasm_err(a, c, pos, "expected a label, got '%s'", vasm_tok(c, pos, tb));
    const vec_sym *s = vasm_sym_find(a, c->s + pos, n);
    if (!s) return vasm_err(a, c, pos, "undefined label '%.*s'", (int)n, c->s + pos);
    if (s->kind != VEC_SYM_CODE) return vasm_err(a, c, pos, "'%s' is not a code label", s->name);
    *pc = s->value;
    c->i = pos + n;
    return true;
}
