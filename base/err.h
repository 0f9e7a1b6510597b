/*
** err.h -- errors with source locations.
**
** Parsers and loaders never print or exit: they fill a tp_err and return
** failure.  The message has the form "file:line:col: message" when the error
** has a location, which is what editors and users expect.
*/
#ifndef TP_ERR_H
#define TP_ERR_H

#include "tp.h"

typedef struct tp_loc {
    const char *file; /* not owned; NULL if unknown */
    uint32_t line;    /* 1-based; 0 if unknown */
    uint32_t col;     /* 1-based; 0 if unknown */
} tp_loc;

typedef struct tp_err {
    int code;         /* 0 = no error; otherwise a module-specific code */
    char msg[512];    /* formatted "file:line:col: message" */
} tp_err;

void tp_err_clear(tp_err *e);
/* Sets the error unless one is already set (the first error wins). */
void tp_err_set(tp_err *e, int code, const char *fmt, ...) TP_PRINTF(3, 4);
void tp_err_at(tp_err *e, int code, tp_loc loc, const char *fmt, ...) TP_PRINTF(4, 5);
static inline bool tp_err_isset(const tp_err *e) { return e->code != 0; }

#endif
