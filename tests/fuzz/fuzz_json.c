/* fuzz_json.c -- libFuzzer target for the strict JSON reader (base/json.c):
** any bytes are either accepted or refused with a "fuzz.json:line:col:
** message" error; never a crash or a leak.  What is accepted, written back
** with tp_json_write, reads again and writes the very same text. */
#include "base/json.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tp_json_doc d;
    tp_err e;
    tp_err_clear(&e);
    if (!tp_json_parse(&d, (const char *)data, size, "fuzz.json", &e)) {
        if (!e.code || strncmp(e.msg, "fuzz.json:", 10) != 0 || d.root) abort();
        return 0;
    }
    tp_sbuf a, b;
    tp_sbuf_init(&a);
    tp_sbuf_init(&b);
    tp_json_write(d.root, &a);
    tp_json_doc d2;
    tp_err_clear(&e);
    if (!tp_json_parse(&d2, tp_sbuf_str(&a), a.len, "fuzz.json", &e)) abort();
    tp_json_write(d2.root, &b);
    if (a.len != b.len || memcmp(tp_sbuf_str(&a), tp_sbuf_str(&b), a.len) != 0) abort();
    tp_json_free(&d2);
    tp_json_free(&d);
    tp_sbuf_free(&a);
    tp_sbuf_free(&b);
    return 0;
}
