/*
** json.h -- a small, strict JSON reader (RFC 8259) and writer.
**
** tp_json_parse reads one JSON text into a tree that lives in the
** document's arena (tp_json_free releases all of it at once).  It accepts
** exactly RFC 8259: one value, surrounded by optional whitespace (space, tab,
** CR, LF); objects, arrays, strings, numbers, true, false, null.  Refused,
** with a "file:line:col: message" error at the offending byte: trailing
** commas, comments, single quotes, leading zeros ("01"), "+1", ".5", "1.",
** hexadecimal, NaN/Infinity, control characters inside strings, bad escapes,
** unpaired UTF-16 surrogates in \u escapes, invalid UTF-8, anything after
** the value, and nesting deeper than TP_JSON_MAX_DEPTH.  Duplicate object
** keys are kept in order (tp_json_get finds the first).
**
** Strings are decoded to UTF-8 and NUL-terminated; len is their length in
** bytes (a \u0000 escape makes a NUL inside).  Numbers keep both their
** value as a double and their text exactly as written (text, which
** tp_json_int uses for exact 64-bit integers and the writer for exact
** output).  Lines and columns count from 1; a column is a byte offset in the
** line plus 1.
*/
#ifndef TP_JSON_H
#define TP_JSON_H

#include "tp.h"
#include "arena.h"
#include "err.h"
#include "sbuf.h"

#define TP_JSON_MAX_DEPTH 256

typedef enum tp_json_type {
    TP_JSON_NULL,
    TP_JSON_BOOL,
    TP_JSON_NUM,
    TP_JSON_STR,
    TP_JSON_ARR,
    TP_JSON_OBJ,
} tp_json_type;

typedef struct tp_json tp_json;
struct tp_json {
    tp_json_type type;
    bool b;             /* BOOL */
    double num;         /* NUM */
    const char *text;   /* NUM: the number as written; STR: the decoded string */
    uint32_t len;       /* STR: bytes; ARR, OBJ: elements */
    tp_json *items;     /* ARR, OBJ: the values, in order */
    const char **keys;  /* OBJ: the keys (decoded, NUL-terminated), parallel to items */
};

typedef struct tp_json_doc {
    tp_arena arena;
    tp_json *root;      /* NULL until a parse succeeds */
} tp_json_doc;

/* Parses text[0..len) (NUL bytes in it are errors).  On failure the
** document holds nothing and e says where and why; filename may be NULL. */
bool tp_json_parse(tp_json_doc *d, const char *text, size_t len, const char *filename, tp_err *e);
void tp_json_free(tp_json_doc *d);

/* The member of an object by key (the first of duplicates), or NULL (also
** when v is NULL or not an object). */
const tp_json *tp_json_get(const tp_json *v, const char *key);
/* A number as an exact signed 64-bit integer: true when v is a number
** written without fraction or exponent that fits. */
bool tp_json_int(const tp_json *v, int64_t *out);

/* Writes v as compact JSON (no spaces); numbers as they were written,
** strings with the escapes JSON needs. */
void tp_json_write(const tp_json *v, tp_sbuf *out);

#endif
