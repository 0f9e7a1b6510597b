/* err.c -- errors with locations.  A message never carries raw bytes: what
** is not printable is written as \xNN (tp_escape), so a parser that quotes
** a token of a binary file prints something a terminal shows. */
#include "err.h"
#include "file.h"
#include <stdarg.h>
#include <stdio.h>

void tp_err_clear(tp_err *e)
{
    e->code = 0;
    e->msg[0] = 0;
}

static void tp_err_vset(tp_err *e, int code, tp_loc loc, const char *fmt, va_list ap)
{
    if (e->code) return;
    e->code = code ? code : 1;
    size_t n = 0;
    if (loc.file) {
        if (loc.line)
            n = (size_t)snprintf(e->msg, sizeof e->msg, "%s:%u:%u: ", loc.file,
                                 loc.line, loc.col ? loc.col : 1);
        else
            n = (size_t)snprintf(e->msg, sizeof e->msg, "%s: ", loc.file);
        if (n >= sizeof e->msg) n = sizeof e->msg - 1;
    }
    vsnprintf(e->msg + n, sizeof e->msg - n, fmt, ap);
    size_t len = strlen(e->msg);
    for (size_t i = 0; i < len; i++) {
        uint8_t c = (uint8_t)e->msg[i];
        if (c < 0x20 || c >= 0x7f) {
            /* something to escape (or UTF-8 to keep) */
            tp_sbuf b;
            tp_sbuf_init(&b);
            tp_escape(&b, e->msg, len);
            snprintf(e->msg, sizeof e->msg, "%s", tp_sbuf_str(&b));
            tp_sbuf_free(&b);
            break;
        }
    }
}

void tp_err_set(tp_err *e, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tp_loc none = {0, 0, 0};
    tp_err_vset(e, code, none, fmt, ap);
    va_end(ap);
}

void tp_err_at(tp_err *e, int code, tp_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tp_err_vset(e, code, loc, fmt, ap);
    va_end(ap);
}
