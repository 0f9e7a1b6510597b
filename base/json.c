/* json.c -- the strict JSON reader and writer of json.h. */
#include "json.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

enum { JSON_ERR = 1 };

typedef struct jparse {
    const char *s, *p, *e; /* text, cursor, end */
    const char *file;
    tp_arena *arena;
    tp_err *err;
    tp_sbuf tmp;           /* string decoding */
} jparse;

/* Sets the error at byte q (line and column counted from the start). */
static bool jp_fail(jparse *j, const char *q, const char *fmt, const char *what)
{
    uint32_t line = 1, col = 1;
    for (const char *r = j->s; r < q && r < j->e; r++) {
        if (*r == '\n') line++, col = 1;
        else col++;
    }
    tp_loc loc = {j->file ? j->file : "<json>", line, col};
    tp_err_at(j->err, JSON_ERR, loc, fmt, what);
    return false;
}

static void jp_ws(jparse *j)
{
    while (j->p < j->e && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

/* What the byte at p is, for messages. */
static const char *jp_what(const jparse *j, const char *p, char buf[8])
{
    if (p >= j->e) return "end of input";
    unsigned char c = (unsigned char)*p;
    if (c >= 0x21 && c < 0x7f) snprintf(buf, 8, "'%c'", c);
    else snprintf(buf, 8, "0x%02x", c);
    return buf;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool jp_hex4(jparse *j, uint32_t *out)
{
    if (j->e - j->p < 4) return jp_fail(j, j->p, "%s", "\\u needs four hexadecimal digits");
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hexval(j->p[k]);
        if (h < 0) return jp_fail(j, j->p + k, "%s", "\\u needs four hexadecimal digits");
        v = v * 16 + (uint32_t)h;
    }
    j->p += 4;
    *out = v;
    return true;
}

static void put_utf8(tp_sbuf *b, uint32_t cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) u[0] = (char)cp, n = 1;
    else if (cp < 0x800) u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
    else if (cp < 0x10000)
        u[0] = (char)(0xe0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3f)), u[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
    else
        u[0] = (char)(0xf0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3f)),
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), u[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
    tp_sbuf_put(b, u, n);
}

/* Length of the valid UTF-8 sequence at p (non-ASCII lead byte), or 0. */
static size_t utf8_len(const unsigned char *p, const unsigned char *e)
{
    unsigned c = p[0];
    size_t n;
    uint32_t min, cp;
    if (c >= 0xc2 && c <= 0xdf) n = 2, min = 0x80, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef) n = 3, min = 0x800, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4) n = 4, min = 0x10000, cp = c & 0x07;
    else return 0;
    if ((size_t)(e - p) < n) return 0;
    for (size_t k = 1; k < n; k++) {
        if ((p[k] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (p[k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

/* A string at j->p (the opening quote); the decoded bytes go to j->tmp. */
static bool jp_string(jparse *j)
{
    tp_sbuf_reset(&j->tmp);
    const char *start = j->p++;
    for (;;) {
        if (j->p >= j->e) return jp_fail(j, start, "%s", "string not closed");
        unsigned char c = (unsigned char)*j->p;
        if (c == '"') {
            j->p++;
            return true;
        }
        if (c < 0x20) return jp_fail(j, j->p, "%s", "control character in a string (escape it)");
        if (c >= 0x80) {
            size_t n = utf8_len((const unsigned char *)j->p, (const unsigned char *)j->e);
            if (!n) return jp_fail(j, j->p, "%s", "invalid UTF-8 in a string");
            tp_sbuf_put(&j->tmp, j->p, n);
            j->p += n;
            continue;
        }
        if (c != '\\') {
            tp_sbuf_putc(&j->tmp, (char)c);
            j->p++;
            continue;
        }
        const char *esc = j->p++;
        if (j->p >= j->e) return jp_fail(j, start, "%s", "string not closed");
        char x = *j->p++;
        switch (x) {
        case '"': tp_sbuf_putc(&j->tmp, '"'); break;
        case '\\': tp_sbuf_putc(&j->tmp, '\\'); break;
        case '/': tp_sbuf_putc(&j->tmp, '/'); break;
        case 'b': tp_sbuf_putc(&j->tmp, '\b'); break;
        case 'f': tp_sbuf_putc(&j->tmp, '\f'); break;
        case 'n': tp_sbuf_putc(&j->tmp, '\n'); break;
        case 'r': tp_sbuf_putc(&j->tmp, '\r'); break;
        case 't': tp_sbuf_putc(&j->tmp, '\t'); break;
        case 'u': {
            uint32_t cp;
            if (!jp_hex4(j, &cp)) return false;
            if (cp >= 0xdc00 && cp <= 0xdfff) return jp_fail(j, esc, "%s", "unpaired low surrogate in \\u escape");
            if (cp >= 0xd800 && cp <= 0xdbff) {
                uint32_t lo;
                if (j->e - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u')
                    return jp_fail(j, esc, "%s", "high surrogate in \\u escape without its low half");
                j->p += 2;
                if (!jp_hex4(j, &lo)) return false;
                if (lo < 0xdc00 || lo > 0xdfff)
                    return jp_fail(j, esc, "%s", "high surrogate in \\u escape without its low half");
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            put_utf8(&j->tmp, cp);
            break;
        }
        default: return jp_fail(j, esc, "%s", "unknown escape in a string");
        }
    }
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool jp_number(jparse *j, tp_json *v)
{
    const char *q = j->p;
    if (q < j->e && *q == '-') q++;
    if (q >= j->e || !is_digit(*q)) return jp_fail(j, j->p, "%s", "a number needs a digit here");
    if (*q == '0') {
        q++;
        if (q < j->e && is_digit(*q)) return jp_fail(j, j->p, "%s", "a number cannot start with 0 (leading zero)");
    } else {
        while (q < j->e && is_digit(*q)) q++;
    }
    if (q < j->e && *q == '.') {
        q++;
        if (q >= j->e || !is_digit(*q)) return jp_fail(j, q, "%s", "a digit must follow the decimal point");
        while (q < j->e && is_digit(*q)) q++;
    }
    if (q < j->e && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < j->e && (*q == '+' || *q == '-')) q++;
        if (q >= j->e || !is_digit(*q)) return jp_fail(j, q, "%s", "an exponent needs digits");
        while (q < j->e && is_digit(*q)) q++;
    }
    char *text = tp_arena_strndup(j->arena, j->p, (size_t)(q - j->p));
    v->type = TP_JSON_NUM;
    v->text = text;
    v->num = strtod(text, NULL); /* the grammar above is a subset of strtod's */
    j->p = q;
    return true;
}

static bool jp_value(jparse *j, tp_json *v, int depth);

/* The children of an array or object, gathered before they are copied to
** the arena (their count is not known in advance). */
typedef struct jkids {
    tp_json *items;
    const char **keys;
    uint32_t n, cap;
} jkids;

static void kids_push(jkids *k, const tp_json *item, const char *key)
{
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 8;
        k->items = tp_realloc(k->items, k->cap * sizeof *k->items);
        k->keys = tp_realloc(k->keys, k->cap * sizeof *k->keys);
    }
    k->items[k->n] = *item;
    k->keys[k->n++] = key;
}

static bool jp_container(jparse *j, tp_json *v, int depth)
{
    bool obj = *j->p == '{';
    char close = obj ? '}' : ']';
    const char *open = j->p++;
    if (depth >= TP_JSON_MAX_DEPTH) return jp_fail(j, open, "%s", "nesting too deep");
    jkids k = {0};
    bool ok = true;
    jp_ws(j);
    if (j->p < j->e && *j->p == close) {
        j->p++;
    } else {
        for (;;) {
            const char *key = NULL;
            char buf[8];
            if (obj) {
                jp_ws(j);
                if (j->p >= j->e || *j->p != '"') {
                    ok = jp_fail(j, j->p, "expected a string key, found %s", jp_what(j, j->p, buf));
                    break;
                }
                if (!(ok = jp_string(j))) break;
                key = tp_arena_strndup(j->arena, tp_sbuf_str(&j->tmp), j->tmp.len);
                jp_ws(j);
                if (j->p >= j->e || *j->p != ':') {
                    ok = jp_fail(j, j->p, "expected ':' after the key, found %s", jp_what(j, j->p, buf));
                    break;
                }
                j->p++;
            }
            tp_json item;
            if (!(ok = jp_value(j, &item, depth + 1))) break;
            kids_push(&k, &item, key);
            jp_ws(j);
            if (j->p < j->e && *j->p == ',') {
                j->p++;
                jp_ws(j);
                if (j->p < j->e && *j->p == close) {
                    ok = jp_fail(j, j->p, "%s", "trailing comma");
                    break;
                }
                continue;
            }
            if (j->p < j->e && *j->p == close) {
                j->p++;
                break;
            }
            ok = jp_fail(j, j->p, obj ? "expected ',' or '}', found %s" : "expected ',' or ']', found %s",
                         jp_what(j, j->p, buf));
            break;
        }
    }
    if (ok) {
        v->type = obj ? TP_JSON_OBJ : TP_JSON_ARR;
        v->len = k.n;
        if (k.n) {
            v->items = tp_arena_alloc(j->arena, k.n * sizeof *v->items);
            memcpy(v->items, k.items, k.n * sizeof *v->items);
            if (obj) {
                v->keys = tp_arena_alloc(j->arena, k.n * sizeof *v->keys);
                memcpy(v->keys, k.keys, k.n * sizeof *v->keys);
            }
        }
    }
    free(k.items);
    free(k.keys);
    return ok;
}

static bool jp_word(jparse *j, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(j->e - j->p) < n || memcmp(j->p, w, n) != 0) return false;
    j->p += n;
    return true;
}

static bool jp_value(jparse *j, tp_json *v, int depth)
{
    memset(v, 0, sizeof *v);
    jp_ws(j);
    char buf[8];
    if (j->p >= j->e) return jp_fail(j, j->p, "expected a value, found %s", "end of input");
    switch (*j->p) {
    case '{':
    case '[': return jp_container(j, v, depth);
    case '"':
        if (!jp_string(j)) return false;
        v->type = TP_JSON_STR;
        v->len = (uint32_t)j->tmp.len;
        v->text = tp_arena_strndup(j->arena, tp_sbuf_str(&j->tmp), j->tmp.len);
        return true;
    case 't':
    case 'f':
    case 'n':
        if (jp_word(j, "true")) v->type = TP_JSON_BOOL, v->b = true;
        else if (jp_word(j, "false")) v->type = TP_JSON_BOOL;
        else if (jp_word(j, "null")) v->type = TP_JSON_NULL;
        else return jp_fail(j, j->p, "expected a value, found %s", jp_what(j, j->p, buf));
        return true;
    default:
        if (*j->p == '-' || is_digit(*j->p)) return jp_number(j, v);
        return jp_fail(j, j->p, "expected a value, found %s", jp_what(j, j->p, buf));
    }
}

bool tp_json_parse(tp_json_doc *d, const char *text, size_t len, const char *filename, tp_err *e)
{
    tp_arena_init(&d->arena);
    d->root = NULL;
    jparse j = {text, text, text + len, filename, &d->arena, e, {0}};
    tp_sbuf_init(&j.tmp);
    const char *nul = memchr(text, 0, len);
    tp_json *root = tp_arena_alloc(&d->arena, sizeof *root);
    bool ok;
    if (nul) ok = jp_fail(&j, nul, "%s", "NUL byte in JSON text");
    else ok = jp_value(&j, root, 0);
    if (ok) {
        jp_ws(&j);
        char buf[8];
        if (j.p < j.e) ok = jp_fail(&j, j.p, "unexpected %s after the JSON value", jp_what(&j, j.p, buf));
    }
    tp_sbuf_free(&j.tmp);
    if (!ok) {
        tp_arena_free(&d->arena);
        return false;
    }
    d->root = root;
    return true;
}

void tp_json_free(tp_json_doc *d)
{
    tp_arena_free(&d->arena);
    d->root = NULL;
}

const tp_json *tp_json_get(const tp_json *v, const char *key)
{
    if (!v || v->type != TP_JSON_OBJ) return NULL;
    for (uint32_t i = 0; i < v->len; i++)
        if (strcmp(v->keys[i], key) == 0) return &v->items[i];
    return NULL;
}

bool tp_json_int(const tp_json *v, int64_t *out)
{
    if (!v || v->type != TP_JSON_NUM || strpbrk(v->text, ".eE")) return false;
    errno = 0;
    char *end;
    long long x = strtoll(v->text, &end, 10);
    if (errno || *end) return false;
    *out = x;
    return true;
}

static void write_str(tp_sbuf *out, const char *s, size_t n)
{
    tp_sbuf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            tp_sbuf_putc(out, '\\');
            tp_sbuf_putc(out, (char)c);
        } else if (c == '\n') {
            tp_sbuf_puts(out, "\\n");
        } else if (c == '\t') {
            tp_sbuf_puts(out, "\\t");
        } else if (c < 0x20) {
            tp_sbuf_printf(out, "\\u%04x", c);
        } else {
            tp_sbuf_putc(out, (char)c);
        }
    }
    tp_sbuf_putc(out, '"');
}

void tp_json_write(const tp_json *v, tp_sbuf *out)
{
    switch (v->type) {
    case TP_JSON_NULL: tp_sbuf_puts(out, "null"); break;
    case TP_JSON_BOOL: tp_sbuf_puts(out, v->b ? "true" : "false"); break;
    case TP_JSON_NUM: tp_sbuf_puts(out, v->text); break;
    case TP_JSON_STR: write_str(out, v->text, v->len); break;
    case TP_JSON_ARR:
    case TP_JSON_OBJ:
        tp_sbuf_putc(out, v->type == TP_JSON_OBJ ? '{' : '[');
        for (uint32_t i = 0; i < v->len; i++) {
            if (i) tp_sbuf_putc(out, ',');
            if (v->type == TP_JSON_OBJ) {
                write_str(out, v->keys[i], strlen(v->keys[i]));
                tp_sbuf_putc(out, ':');
            }
            tp_json_write(&v->items[i], out);
        }
        tp_sbuf_putc(out, v->type == TP_JSON_OBJ ? '}' : ']');
        break;
    }
}
