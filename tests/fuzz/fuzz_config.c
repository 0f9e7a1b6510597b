/* fuzz_config.c -- libFuzzer target for configuration text (base/opt.c):
** any bytes are either accepted or rejected with a "file:line:col: message"
** error; never a crash, a leak, or an option left out of its range. */
#include "gpu/options.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    gpu_opts_init(&o);   /* the whole table: device, functional model, timing model */
    if (!tp_opts_load_text(&o, text, "fuzz.cfg", &e)) {
        if (!e.code || strncmp(e.msg, "fuzz.cfg", 8) != 0) abort();
    }
    for (uint32_t i = 0; i < o.n; i++) {
        const tp_optdef *d = &o.defs[i];
        if ((d->type == TP_OPT_INT || d->type == TP_OPT_FLOAT) && (o.v[i].f < d->min || o.v[i].f > d->max)) abort();
        if (!o.v[i].s) abort();
    }
    tp_opts_free(&o);
    free(text);
    return 0;
}
