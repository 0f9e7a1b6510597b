/* fuzz_sweep.c -- libFuzzer target for sweep files (cli/sweep_file.c): any
** bytes are either accepted or refused with a "fuzz.sweep:..." error (at a
** line and column, or for the whole file); never a crash or a leak.  An
** accepted file is consistent: every axis has as many labels and values per
** option as it says, every derived column's expression refers only to the
** columns before it, and every selector to a value of its dimension. */
#include "cli/sweep.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_expr(const sw_file *f, const sw_expr *e, uint32_t self)
{
    if (!e) abort();
    switch (e->op) {
    case SW_E_NUM: return;
    case SW_E_REF:
        if (e->ref >= self) abort();
        for (uint32_t i = 0; i < e->nsel; i++) {
            const sw_sel *s = &e->sel[i];
            uint32_t n = s->dim_idx == -2 ? f->nprogs : s->dim_idx == -1 ? f->ncfgs
                         : s->dim_idx >= 0 && (uint32_t)s->dim_idx < f->naxes ? f->axes[s->dim_idx].nvals : 0;
            if (s->val_idx >= n) abort();
        }
        return;
    case SW_E_NEG: check_expr(f, e->l, self); return;
    default: check_expr(f, e->l, self); check_expr(f, e->r, self); return;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sw_file f;
    tp_err e;
    tp_err_clear(&e);
    if (!sw_parse(&f, (const char *)data, size, "fuzz.sweep", "/build", &e)) {
        if (!e.code || strncmp(e.msg, "fuzz.sweep", 10) != 0) abort();
        return 0;
    }
    if (!f.nprogs || !f.ncfgs || !f.ncols) abort();
    for (uint32_t x = 0; x < f.naxes; x++) {
        const sw_axis *a = &f.axes[x];
        if (!a->nvals || !a->nopts || !a->labels) abort();
        for (uint32_t v = 0; v < a->nvals; v++) {
            if (!a->labels[v]) abort();
            for (uint32_t o = 0; o < a->nopts; o++)
                if (!a->vals[o][v]) abort();
        }
    }
    for (uint32_t d = 0; d < f.nders; d++) check_expr(&f, f.ders[d].e, f.ncols + d);
    for (uint32_t c = 0; c < f.ncols; c++)
        if (!f.cols[c].nseg) abort();
    sw_free(&f);
    return 0;
}
