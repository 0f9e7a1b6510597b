/* sbuf.c -- growable string buffer. */
#include "sbuf.h"
#include <stdio.h>
#include <stdlib.h>

void tp_sbuf_init(tp_sbuf *b) { b->s = NULL; b->len = b->cap = 0; }

void tp_sbuf_free(tp_sbuf *b)
{
    free(b->s);
    tp_sbuf_init(b);
}

void tp_sbuf_reset(tp_sbuf *b)
{
    b->len = 0;
    if (b->s) b->s[0] = 0;
}

void tp_sbuf_reserve(tp_sbuf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    if (need <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need) cap *= 2;
    b->s = tp_realloc(b->s, cap);
    b->cap = cap;
}

void tp_sbuf_put(tp_sbuf *b, const void *p, size_t n)
{
    tp_sbuf_reserve(b, n);
    if (n) memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = 0;
}

void tp_sbuf_puts(tp_sbuf *b, const char *s) { tp_sbuf_put(b, s, strlen(s)); }

void tp_sbuf_putc(tp_sbuf *b, char c) { tp_sbuf_put(b, &c, 1); }

void tp_sbuf_vprintf(tp_sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap2);
    va_end(ap2);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        tp_sbuf_put(b, tmp, (size_t)n);
        return;
    }
    tp_sbuf_reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void tp_sbuf_printf(tp_sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tp_sbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

void tp_sbuf_json_str(tp_sbuf *b, const char *s)
{
    tp_sbuf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            tp_sbuf_putc(b, '\\');
            tp_sbuf_putc(b, (char)c);
        } else if (c == '\n') {
            tp_sbuf_puts(b, "\\n");
        } else if (c == '\t') {
            tp_sbuf_puts(b, "\\t");
        } else if (c < 0x20) {
            tp_sbuf_printf(b, "\\u%04x", c);
        } else {
            tp_sbuf_putc(b, (char)c);
        }
    }
    tp_sbuf_putc(b, '"');
}

char *tp_sbuf_take(tp_sbuf *b)
{
    char *s = b->s ? b->s : tp_strdup("");
    tp_sbuf_init(b);
    return s;
}

const char *tp_sbuf_str(const tp_sbuf *b) { return b->s ? b->s : ""; }
