/* lex.c -- the PTX lexer (see lex.h). */
#include "lex.h"
#include <stdio.h>
#include <stdlib.h>

#define CC_ALPHA(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
#define CC_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define CC_HEX(c) (CC_DIGIT(c) || ((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F'))
#define CC_OF(c)                                                                     \
    ((CC_ALPHA(c) || CC_DIGIT(c) || (c) == '_' || (c) == '$' ? PTX_CC_ID : 0) |      \
     (CC_ALPHA(c) ? PTX_CC_ALPHA : 0) | (CC_DIGIT(c) ? PTX_CC_DIGIT : 0) |           \
     (CC_HEX(c) ? PTX_CC_HEX : 0) |                                                  \
     ((c) == ' ' || (c) == '\t' || (c) == '\r' || (c) == '\f' || (c) == '\v' ? PTX_CC_SPACE : 0))
#define CC4(b) CC_OF(b), CC_OF((b) + 1), CC_OF((b) + 2), CC_OF((b) + 3)
#define CC16(b) CC4(b), CC4((b) + 4), CC4((b) + 8), CC4((b) + 12)
#define CC64(b) CC16(b), CC16((b) + 16), CC16((b) + 32), CC16((b) + 48)

const uint8_t ptx_lex_cc[256] = {CC64(0), CC64(64), CC64(128), CC64(192)};

#define IS_ID(c) (ptx_lex_cc[(unsigned char)(c)] & PTX_CC_ID)
#define IS_DIGIT(c) (ptx_lex_cc[(unsigned char)(c)] & PTX_CC_DIGIT)
#define IS_HEX(c) (ptx_lex_cc[(unsigned char)(c)] & PTX_CC_HEX)

void ptx_lex_init(ptx_lex *L, const char *text, size_t len, const char *file, tp_err *e)
{
    L->p = text;
    L->end = text + len;
    L->ls = text;
    L->line = 1;
    L->file = file;
    L->e = e;
}

static void lex_err(ptx_lex *L, ptx_tok *t, const char *at, const char *msg)
{
    tp_loc loc = {L->file, L->line, (uint32_t)(at - L->ls) + 1};
    char shown[8] = "";
    if (msg[0] == '?') { /* bad character: show it */
        unsigned char c = (unsigned char)*at;
        if (c > 32 && c < 127) snprintf(shown, sizeof shown, "'%c'", c);
        else snprintf(shown, sizeof shown, "0x%02x", c);
        tp_err_at(L->e, 1, loc, "unexpected character %s", shown);
    } else {
        tp_err_at(L->e, 1, loc, "%s", msg);
    }
    t->kind = PTX_TK_ERR;
    t->line = loc.line;
    t->col = loc.col;
    t->s = at;
    t->len = 1;
}

static int hexval(char c)
{
    if (c <= '9') return c - '0';
    return (c | 0x20) - 'a' + 10;
}

/* Reads a number starting at p (a digit). */
static void lex_number(ptx_lex *L, ptx_tok *t, const char *p)
{
    const char *s = p;
    uint64_t v = 0;
    if (p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        int nd = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
        p += 2;
        for (int i = 0; i < nd; i++, p++) {
            if (!IS_HEX(*p)) {
                lex_err(L, t, s, nd == 8 ? "malformed f32 constant (0f needs 8 hex digits)"
                                         : "malformed f64 constant (0d needs 16 hex digits)");
                return;
            }
            v = v << 4 | (uint64_t)hexval(*p);
        }
        if (IS_ID(*p)) {
            lex_err(L, t, s, "malformed floating-point constant");
            return;
        }
        t->kind = nd == 8 ? PTX_TK_F32 : PTX_TK_F64;
        t->u = v;
        t->s = s;
        t->len = (uint32_t)(p - s);
        L->p = p;
        return;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X' || p[1] == 'b' || p[1] == 'B')) {
        int bin = p[1] == 'b' || p[1] == 'B';
        p += 2;
        const char *d0 = p;
        for (; bin ? (*p == '0' || *p == '1') : IS_HEX(*p); p++) {
            if (v >> (bin ? 63 : 60)) {
                lex_err(L, t, s, "integer constant does not fit in 64 bits");
                return;
            }
            v = (v << (bin ? 1 : 4)) | (uint64_t)hexval(*p);
        }
        if (p == d0) {
            lex_err(L, t, s, "malformed integer constant");
            return;
        }
    } else {
        /* decimal float? */
        const char *q = p;
        while (IS_DIGIT(*q)) q++;
        if ((*q == '.' && IS_DIGIT(q[1])) ||
            ((*q == 'e' || *q == 'E') &&
             (IS_DIGIT(q[1]) || ((q[1] == '+' || q[1] == '-') && IS_DIGIT(q[2]))))) {
            if (*q == '.') {
                q++;
                while (IS_DIGIT(*q)) q++;
            }
            if ((*q == 'e' || *q == 'E') &&
                (IS_DIGIT(q[1]) || ((q[1] == '+' || q[1] == '-') && IS_DIGIT(q[2])))) {
                q += 2;
                while (IS_DIGIT(*q)) q++;
            }
            char *ep;
            double d = strtod(p, &ep);
            if (ep != q || IS_ID(*q)) {
                lex_err(L, t, s, "malformed floating-point constant");
                return;
            }
            t->kind = PTX_TK_DBL;
            t->d = d;
            t->s = s;
            t->len = (uint32_t)(q - s);
            L->p = q;
            return;
        }
        if (p[0] == '0') { /* octal (or plain 0) */
            for (p++; *p >= '0' && *p <= '7'; p++) {
                if (v >> 61) {
                    lex_err(L, t, s, "integer constant does not fit in 64 bits");
                    return;
                }
                v = v << 3 | (uint64_t)(*p - '0');
            }
        } else {
            for (; IS_DIGIT(*p); p++) {
                uint64_t d = (uint64_t)(*p - '0');
                if (v > (UINT64_MAX - d) / 10) {
                    lex_err(L, t, s, "integer constant does not fit in 64 bits");
                    return;
                }
                v = v * 10 + d;
            }
        }
    }
    if (*p == 'U') p++;
    if (IS_ID(*p)) {
        lex_err(L, t, s, "malformed integer constant");
        return;
    }
    t->kind = PTX_TK_INT;
    t->u = v;
    t->s = s;
    t->len = (uint32_t)(p - s);
    L->p = p;
}

void ptx_lex_next(ptx_lex *L, ptx_tok *t)
{
    const char *p = L->p;
    uint8_t adj = 1;
    for (;;) {
        unsigned char c = (unsigned char)*p;
        if (ptx_lex_cc[c] & PTX_CC_SPACE) {
            p++;
            adj = 0;
        } else if (c == '\n') {
            p++;
            L->line++;
            L->ls = p;
            adj = 0;
        } else if (c == '/' && p[1] == '/') {
            p += 2;
            while (*p && *p != '\n') p++;
            if (!*p && p != L->end) {
                L->p = p;
                lex_err(L, t, p, "?");
                return;
            }
            adj = 0;
        } else if (c == '/' && p[1] == '*') {
            const char *s = p;
            uint32_t sline = L->line;
            const char *sls = L->ls;
            p += 2;
            for (;;) {
                if (*p == '*' && p[1] == '/') {
                    p += 2;
                    break;
                }
                if (*p == '\n') {
                    L->line++;
                    L->ls = p + 1;
                } else if (!*p && p == L->end) {
                    L->line = sline;
                    L->ls = sls;
                    L->p = p;
                    lex_err(L, t, s, "unterminated comment");
                    return;
                }
                p++;
            }
            adj = 0;
        } else {
            break;
        }
    }
    t->adj = adj;
    t->line = L->line;
    t->col = (uint32_t)(p - L->ls) + 1;
    t->s = p;
    unsigned char c = (unsigned char)*p;
    if (IS_ID(c) && !IS_DIGIT(c)) {
        /* identifier: a letter first, or _ $ followed by more */
        const char *s = p++;
        while (IS_ID(*p)) p++;
        t->kind = PTX_TK_ID;
        t->len = (uint32_t)(p - s);
        L->p = p;
        return;
    }
    if (c == '%' && IS_ID(p[1])) {
        const char *s = p++;
        while (IS_ID(*p)) p++;
        t->kind = PTX_TK_ID;
        t->len = (uint32_t)(p - s);
        L->p = p;
        return;
    }
    if (IS_DIGIT(c)) {
        lex_number(L, t, p);
        return;
    }
    if (c == '.' && IS_ID(p[1])) {
        const char *s = p++;
        for (;;) {
            while (IS_ID(*p)) p++;
            if (p[0] == ':' && p[1] == ':' && IS_ID(p[2])) p += 2;
            else break;
        }
        t->kind = PTX_TK_DIR;
        t->len = (uint32_t)(p - s);
        L->p = p;
        return;
    }
    if (c == '"') {
        const char *s = ++p;
        while (*p != '"') {
            if (*p == '\n' || (!*p && p == L->end)) {
                L->p = p;
                lex_err(L, t, s - 1, "unterminated string");
                return;
            }
            if (*p == '\\' && p[1] && p[1] != '\n') p++;
            p++;
        }
        t->kind = PTX_TK_STR;
        t->s = s;
        t->len = (uint32_t)(p - s);
        L->p = p + 1;
        return;
    }
    if (!c && p == L->end) {
        t->kind = PTX_TK_EOF;
        t->len = 0;
        L->p = p;
        return;
    }
    switch (c) {
    case ',': case ';': case ':': case '(': case ')': case '[': case ']': case '{':
    case '}': case '<': case '>': case '+': case '-': case '!': case '@': case '|':
    case '=': case '*': case '/': case '%': case '&': case '^': case '~': case '?':
        t->kind = PTX_TK_PUNCT;
        t->c = (char)c;
        t->len = 1;
        L->p = p + 1;
        return;
    default:
        L->p = p;
        lex_err(L, t, p, "?");
        return;
    }
}
