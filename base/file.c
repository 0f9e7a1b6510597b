/* file.c -- whole files for the commands and parsers (file.h). */
#include "file.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *tp_file_read(const char *path, size_t *len)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    tp_sbuf b;
    tp_sbuf_init(&b);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) tp_sbuf_put(&b, buf, n);
    int err = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (err) {
        tp_sbuf_free(&b);
        errno = err;
        return NULL;
    }
    *len = b.len;
    return tp_sbuf_take(&b);
}

bool tp_text_binary(const char *s, size_t n, uint32_t *line, uint32_t *col, uint8_t *byte)
{
    uint32_t ln = 1;
    size_t bol = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = (uint8_t)s[i];
        if (c == '\n') {
            ln++;
            bol = i + 1;
        } else if ((c < 0x20 && c != '\t' && c != '\v' && c != '\f' && c != '\r') || c == 0x7f) {
            *line = ln;
            *col = (uint32_t)(i - bol) + 1;
            *byte = c;
            return true;
        }
    }
    return false;
}

char *tp_file_read_text(const char *path, const char *what, size_t *len, tp_err *e)
{
    char *text = tp_file_read(path, len);
    if (!text) {
        tp_err_set(e, 1, "cannot read %s'%s': %s", what ? what : "", path,
                   errno == EISDIR ? "it is a directory" : strerror(errno));
        return NULL;
    }
    uint32_t line, col;
    uint8_t byte;
    if (tp_text_binary(text, *len, &line, &col, &byte)) {
        free(text);
        tp_loc loc = {path, line, col};
        tp_err_at(e, 1, loc, "binary data (byte 0x%02x), not a text file", byte);
        return NULL;
    }
    return text;
}

/* The length of the well-formed UTF-8 sequence at s[0..n) (2 to 4 bytes), or 0. */
static size_t utf8_len(const uint8_t *s, size_t n)
{
    size_t k = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    if (!k || k > n) return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (k == 3 && s[0] == 0xe0 && s[1] < 0xa0) return 0;   /* overlong */
    if (k == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))) return 0;
    return k;
}

void tp_escape(tp_sbuf *b, const char *s, size_t n)
{
    const uint8_t *u = (const uint8_t *)s;
    for (size_t i = 0; i < n;) {
        uint8_t c = u[i];
        if (c >= 0x20 && c < 0x7f) {
            size_t j = i;
            while (j < n && u[j] >= 0x20 && u[j] < 0x7f) j++;
            tp_sbuf_put(b, s + i, j - i);
            i = j;
            continue;
        }
        size_t k = c >= 0x80 ? utf8_len(u + i, n - i) : 0;
        if (k) {
            tp_sbuf_put(b, s + i, k);
            i += k;
        } else {
            tp_sbuf_printf(b, "\\x%02x", c);
            i++;
        }
    }
}
