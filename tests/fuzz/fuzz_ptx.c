/* fuzz_ptx.c -- libFuzzer target for the PTX parser: any bytes must either
** parse (then every instruction is printed, exercising the IR's invariants)
** or fail with a "file:line:col: message" error; never crash or leak.
**   make fuzz BUILD=build-fuzz && sh tests/fuzz/run.sh build-fuzz 60 */
#include "ptx/ptx.h"
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tp_err e;
    tp_err_clear(&e);
    ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &e);
    if (!m) {
        if (!e.code || strncmp(e.msg, "fuzz.ptx", 8) != 0) abort(); /* failures must say where */
        return 0;
    }
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (f->is_decl) continue;
        if (f->end <= f->start || m->insns[f->end - 1].op != PTX_OP_FNEXIT) abort();
        if (ptx_func_of_pc(m, f->start) != f || !f->nblocks) abort();
        for (uint32_t pc = f->start; pc < f->end; pc++) {
            const ptx_insn *in = &m->insns[pc];
            if (in->ndst > in->nopnd || in->nopnd > PTX_MAX_OPND) abort();
            tp_sbuf_reset(&sb);
            ptx_insn_print(m, f, in, &sb);
        }
        for (uint32_t b = 0; b < f->nblocks; b++)
            if (f->blocks[b].ipdom >= (int32_t)f->nblocks) abort();
    }
    tp_sbuf_free(&sb);
    ptx_module_free(m);
    return 0;
}
