/*
** lex.h -- the PTX lexer (private to ptx/).  Module prefix: ptx_lex_.
**
** The lexer walks a NUL-terminated copy of the PTX text and hands out one
** token at a time; it never allocates.  Token text points into the source.
**
** Tokens:
**   ID     identifier: [A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+, or the
**          lone "_" (the sink).  Opcodes stop at the first '.': "ld.global"
**          is ID "ld" then DIR ".global".
**   DIR    a dot word: '.' [A-Za-z0-9_]+ with "::" parts (".shared::cta",
**          ".L2::64B", ".b32", ".2d", ".reg").  s includes the dot.
**   INT    integer: decimal, 0x hex, 0b binary, 0 octal, optional U suffix;
**          u holds the value (an error if it does not fit 64 bits).
**   F32    0f/0F + 8 hex digits: u holds the f32 bits.
**   F64    0d/0D + 16 hex digits: u holds the f64 bits.
**   DBL    decimal float (1.5, 2e10, 9.0): d holds the value.
**   STR    "..." (s and len exclude the quotes).
**   PUNCT  one character: , ; : ( ) [ ] { } < > + - ! @ | = * / % & ^ ~ ?
** Comments (// and / * * /) and white space separate tokens; 'adj' is set
** when a token follows the previous one with nothing in between (modifiers
** must be glued to their opcode).  Errors (bad character, unterminated
** comment or string, malformed number) give the ERR token and fill e.
*/
#ifndef PTX_LEX_H
#define PTX_LEX_H

#include "../base/tp.h"
#include "../base/err.h"

typedef enum ptx_tk {
    PTX_TK_EOF, PTX_TK_ERR, PTX_TK_ID, PTX_TK_DIR, PTX_TK_INT, PTX_TK_F32,
    PTX_TK_F64, PTX_TK_DBL, PTX_TK_STR, PTX_TK_PUNCT
} ptx_tk;

typedef struct ptx_tok {
    uint8_t kind;     /* ptx_tk */
    uint8_t adj;      /* glued to the previous token */
    char c;           /* PUNCT: the character */
    uint8_t pad;
    uint32_t len;     /* bytes of text at s */
    const char *s;
    uint32_t line, col;
    uint64_t u;       /* INT value, F32/F64 bits */
    double d;         /* DBL value */
} ptx_tok;

typedef struct ptx_lex {
    const char *p, *end, *ls; /* cursor, end of text (a NUL), start of the line */
    uint32_t line;
    const char *file;
    tp_err *e;
} ptx_lex;

/* text[len] must be a NUL byte (NUL bytes before it are errors). */
void ptx_lex_init(ptx_lex *L, const char *text, size_t len, const char *file, tp_err *e);
/* Reads the next token into t. */
void ptx_lex_next(ptx_lex *L, ptx_tok *t);

/* Character classes: bit 1 identifier body [A-Za-z0-9_$], 2 letter, 4 digit,
** 8 hex digit, 16 white space. */
extern const uint8_t ptx_lex_cc[256];
enum { PTX_CC_ID = 1, PTX_CC_ALPHA = 2, PTX_CC_DIGIT = 4, PTX_CC_HEX = 8, PTX_CC_SPACE = 16 };

#endif
