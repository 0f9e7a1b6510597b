/*
** vec_helpers.h -- shared helpers of the vector machine's unit tests
** (test_vec_*.c).  Tests run from the repository root.
*/
#ifndef VEC_HELPERS_H
#define VEC_HELPERS_H

#include "tests/unit/tt.h"
#include "vector/vec.h"

/* Assembles text as file "t.s" with vregs registers; returns success. */
TP_UNUSED static bool vt_asm(vec_prog *p, const char *text, uint32_t vregs, const vec_equ_set *set, uint32_t nset, tp_err *e)
{
    vec_asm_cfg cfg = {vregs, set, nset, 0, false};
    tp_err_clear(e);
    return vec_asm(p, text, strlen(text), "t.s", &cfg, e);
}

/* The error message of assembling text (empty if it assembles). */
TP_UNUSED static const char *vt_asm_err(const char *text)
{
    static tp_err e;
    vec_prog p;
    if (vt_asm(&p, text, 8, NULL, 0, &e)) {
        vec_prog_free(&p);
        return "";
    }
    return e.msg;
}

/* Options: defaults (VMIPS), then "key=value ..." overrides. */
TP_UNUSED static void vt_opts(tp_opts *o, const char *kvs)
{
    tp_err e;
    tp_err_clear(&e);
    vec_opts_init(o);
    if (kvs && !tp_opts_set_list(o, kvs, TP_SRC_OVERRIDE, &e)) {
        printf("bad test options '%s': %s\n", kvs, e.msg);
        abort();
    }
}

/* Assembles an example of examples/vector with overrides. */
TP_UNUSED static bool vt_example(vec_prog *p, const char *name, const tp_opts *o, const vec_equ_set *set, uint32_t nset)
{
    char path[256];
    size_t len;
    snprintf(path, sizeof path, "examples/vector/%s", name);
    char *text = vec_read_file(path, &len);
    if (!text) {
        printf("cannot read %s\n", path);
        return false;
    }
    vec_asm_cfg cfg = {(uint32_t)tp_opt_i(o, VEC_OPT_VREGS), set, nset, 0, false};
    tp_err e;
    tp_err_clear(&e);
    bool ok = vec_asm(p, text, len, path, &cfg, &e);
    if (!ok) printf("%s\n", e.msg);
    free(text);
    return ok;
}

/* Runs text under options kvs with timing model `timing` (-1: the option);
** returns the cycles, or UINT64_MAX on an error.  trace: keep the rows. */
TP_UNUSED static uint64_t vt_cycles(const char *text, const char *kvs, int timing)
{
    tp_opts o;
    vt_opts(&o, kvs);
    vec_prog p;
    tp_err e;
    uint64_t c = UINT64_MAX;
    if (vt_asm(&p, text, (uint32_t)tp_opt_i(&o, VEC_OPT_VREGS), NULL, 0, &e)) {
        vec_run r;
        if (vec_run_program(&r, &p, &o, timing, 0, &e)) c = r.st.cycles;
        else printf("run: %s\n", e.msg);
        vec_run_free(&r);
        vec_prog_free(&p);
    } else {
        printf("asm: %s\n", e.msg);
    }
    tp_opts_free(&o);
    return c;
}

/* The double at a data label + 8*i after a run. */
TP_UNUSED static double vt_read(const vec_run *r, const vec_prog *p, const char *label, uint32_t i)
{
    const vec_sym *s = vec_prog_sym(p, label);
    uint64_t bits = 0;
    double d;
    if (!s || !vec_mach_read(&r->m, (uint64_t)s->value + 8 * i, &bits)) return -12345.678;
    memcpy(&d, &bits, 8);
    return d;
}

/* The double at a data label + 8*i in the assembled (initial) image. */
TP_UNUSED static double vt_init(const vec_prog *p, const char *label, uint32_t i)
{
    const vec_sym *s = vec_prog_sym(p, label);
    double d;
    if (!s || (uint64_t)s->value + 8 * (i + 1) > p->data_size) return -12345.678;
    memcpy(&d, p->data + s->value + 8 * i, 8);
    return d;
}

TP_UNUSED static int64_t vt_init_word(const vec_prog *p, const char *label, uint32_t i)
{
    const vec_sym *s = vec_prog_sym(p, label);
    int64_t v;
    if (!s || (uint64_t)s->value + 8 * (i + 1) > p->data_size) return -1;
    memcpy(&v, p->data + s->value + 8 * i, 8);
    return v;
}

TP_UNUSED static int64_t vt_equ(const vec_prog *p, const char *name)
{
    const vec_sym *s = vec_prog_sym(p, name);
    return s ? s->value : -1;
}

#endif
