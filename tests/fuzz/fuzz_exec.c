/* fuzz_exec.c -- libFuzzer target for the functional model: PTX that parses
** is loaded and every kernel is launched (two blocks of 64 threads, an
** instruction limit), so the executor meets IR shapes no compiler emits.
** It must report faults, never crash or leak.  The parameter buffer holds,
** in every 8-byte slot, the address of a 4 KiB buffer that initcheck tracks
** (half of it written), so that pointer parameters reach memory; inputs
** whose size is even run with every correctness check on (check.*), so that
** racecheck, initcheck and synccheck meet the same shapes. */
#include "exec/exec.h"
#include "exec/options.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static exec_dev *dev;
static uint64_t buf;

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
        exec_dev_set_opt(dev, "check.print_limit", "1", &e);
        exec_dev_set_opt(dev, "check.init", "1", &e);
        buf = exec_mem_alloc(dev, 4096, 256);
        exec_check_track(dev, buf);
        exec_check_written(dev, buf, 2048);
    }
    static const char *const names[] = {"check.race", "check.race_intrawarp", "check.init", "check.sync"};
    for (int k = 0; k < 4; k++) exec_dev_set_opt(dev, names[k], size % 2 ? "0" : "1", &e);
    tp_err_clear(&e);
    exec_status st;
    exec_mod *m = exec_mod_load(dev, (const char *)data, size, "fuzz.ptx", &st, &e);
    if (!m) return 0;
    const ptx_module *p = exec_mod_ptx(m);
    static uint8_t params[4096];
    for (size_t k = 0; k + 8 <= sizeof params; k += 8) memcpy(params + k, &buf, 8);
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
