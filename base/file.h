/*
** file.h -- whole files for the commands and parsers that read them (PTX,
** VMIPS programs, sweep files, configuration files): one place for what
** goes wrong when a user names the wrong file.
**
**  - A directory is "a directory", not "Input/output error" (fopen opens
**    one on Linux; the read then fails with EISDIR).
**  - A file read as text that holds binary data (a NUL byte, or a control
**    character other than tab, line feed, vertical tab, form feed and
**    carriage return) is refused with one line naming where: an executable
**    or an image never reaches a parser that would echo its bytes.
**  - Messages never carry raw bytes: tp_escape writes bytes that are not
**    printable (control characters, DEL, bytes that are not UTF-8) as \xNN;
**    tp_err (err.c) passes every message through it.
*/
#ifndef TP_FILE_H
#define TP_FILE_H

#include "err.h"
#include "sbuf.h"

/* Reads the whole file at path: a malloc'ed buffer of *len bytes followed by
** a NUL.  NULL on failure with errno set (EISDIR for a directory). */
char *tp_file_read(const char *path, size_t *len);

/* Where the first byte that makes s[0..n) binary rather than text is (1-based
** line and column, and the byte); false when it is text. */
bool tp_text_binary(const char *s, size_t n, uint32_t *line, uint32_t *col, uint8_t *byte);

/* tp_file_read for text.  NULL on failure with e set to one line:
**   cannot read WHAT'PATH': REASON        (REASON: strerror's words, or
**                                           "it is a directory")
**   PATH:LINE:COL: binary data (byte 0xNN), not a text file
** where WHAT is what the caller reads ("the sweep file ") or "". */
char *tp_file_read_text(const char *path, const char *what, size_t *len, tp_err *e);

/* Appends s[0..n) to b with every byte that is not printable -- a control
** character, DEL, a byte outside a well-formed UTF-8 sequence -- written as
** \xNN.  Idempotent: its output passes through unchanged. */
void tp_escape(tp_sbuf *b, const char *s, size_t n);

#endif
