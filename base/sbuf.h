/*
** sbuf.h -- a growable byte/string buffer, used for messages, JSON and
** text reports.  The buffer is always NUL-terminated.
*/
#ifndef TP_SBUF_H
#define TP_SBUF_H

#include "tp.h"
#include <stdarg.h>

typedef struct tp_sbuf {
    char *s;     /* contents, NUL-terminated (NULL until first write) */
    size_t len;  /* bytes used, not counting the NUL */
    size_t cap;  /* bytes allocated */
} tp_sbuf;

void tp_sbuf_init(tp_sbuf *b);
void tp_sbuf_free(tp_sbuf *b);
void tp_sbuf_reset(tp_sbuf *b);
void tp_sbuf_reserve(tp_sbuf *b, size_t extra);
void tp_sbuf_put(tp_sbuf *b, const void *p, size_t n);
void tp_sbuf_puts(tp_sbuf *b, const char *s);
void tp_sbuf_putc(tp_sbuf *b, char c);
void tp_sbuf_printf(tp_sbuf *b, const char *fmt, ...) TP_PRINTF(2, 3);
void tp_sbuf_vprintf(tp_sbuf *b, const char *fmt, va_list ap);
/* Appends s as a JSON string literal (quotes and escapes included). */
void tp_sbuf_json_str(tp_sbuf *b, const char *s);
/* Returns the contents (never NULL) and leaves the buffer empty; the caller frees. */
char *tp_sbuf_take(tp_sbuf *b);
const char *tp_sbuf_str(const tp_sbuf *b);

#endif
