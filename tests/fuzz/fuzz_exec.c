/* fuzz_exec.c -- libFuzzer target for the functional model: PTX that parses
** is loaded and every kernel is launched (one block of 64 threads, a zeroed
** parameter buffer, an instruction limit), so the executor meets IR shapes
** no compiler emits.  It must report faults, never crash or leak. */
#include "exec/exec.h"
#include "exec/options.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static exec_dev *dev;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tp_err e;
    if (!dev) {
        tp_opts o;
        exec_opts_init(&o);
        tp_err_clear(&e);
        tp_opts_set_list(&o, "device.global_mem=64M exec.max_warp_insns=20000 exec.spin_limit=5000", TP_SRC_OVERRIDE, &e);
        dev = exec_dev_create(&o, NULL, &e);
        tp_opts_free(&o);
        if (!dev) abort();
    }
    tp_err_clear(&e);
    exec_status st;
    exec_mod *m = exec_mod_load(dev, (const char *)data, size, "fuzz.ptx", &st, &e);
    if (!m) return 0;
    const ptx_module *p = exec_mod_ptx(m);
    static uint8_t params[4096];
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        if (!p->funcs[f].is_entry || p->funcs[f].is_decl) continue;
        exec_launch l = {{2, 1, 1}, {64, 1, 1}, 256, params,
                         p->funcs[f].param_bytes < sizeof params ? p->funcs[f].param_bytes : (uint32_t)sizeof params};
        exec_result r;
        exec_launch_kernel(m, (int)f, &l, &r);
        if (r.status != EXEC_OK && !r.msg[0]) abort(); /* every failure says what happened */
    }
    exec_mod_unload(m);
    return 0;
}
