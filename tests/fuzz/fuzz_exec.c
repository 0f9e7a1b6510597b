/* fuzz_exec.c -- libFuzzer target for the functional model: PTX that parses
** is loaded and every kernel is launched (two blocks of 64 threads, an
** instruction limit), so the executor meets IR shapes no compiler emits.
** It must report faults, never crash or leak.  The parameter buffer holds,
** in every 8-byte slot, the address of a 4 KiB buffer that initcheck tracks
** (half of it written), so that pointer parameters reach memory; inputs
** whose size is even run with every correctness check on (check.*), so that
** racecheck, initcheck and synccheck meet the same shapes; half of them are
** loaded with exec.contract=1 (ptx/contract.c); every module's lowering
** if-converts (exec.ifconvert=4, ptx/ifconv.c).  Texture handle
** 1 and surface handle 2 are live (layered, cubemap, mipmapped). */
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
        tp_opts_set_list(&o, "device.global_mem=64M exec.max_warp_insns=20000 exec.spin_limit=5000 exec.ifconvert=4", TP_SRC_OVERRIDE, &e);
        dev = exec_dev_create(&o, NULL, &e);
        tp_opts_free(&o);
        if (!dev) abort();
        exec_dev_set_opt(dev, "check.print_limit", "1", &e);
        exec_dev_set_opt(dev, "check.init", "1", &e);
        buf = exec_mem_alloc(dev, 4096, 256);
        exec_check_track(dev, buf);
        exec_check_written(dev, buf, 2048);
        /* handle 1: a layered cubemap (4 x 4 faces, 2 layers) with 3 mipmap
        ** levels, linear filters; handle 2: a surface on a 2D layered array
        ** (8 x 4, 3 layers); both in the buffer */
        exec_texdesc t = {0};
        t.addr = buf, t.dims = 2, t.width = 4, t.height = 4, t.depth = 12, t.pitch = 16;
        t.channels = 1, t.channel_bits = 32, t.fmt = EXEC_TEX_FLOAT, t.normalized_coords = true;
        t.linear_filter = true, t.layered = true, t.cubemap = true, t.levels = 3, t.mip_linear = true;
        t.level_addr[0] = buf, t.level_addr[1] = buf + 1024, t.level_addr[2] = buf + 1536, t.max_lod = 2;
        exec_tex_create(dev, &t, false);
        exec_texdesc s = {0};
        s.addr = buf + 2048, s.dims = 2, s.width = 8, s.height = 4, s.depth = 3, s.pitch = 32, s.layered = true;
        s.channels = 1, s.channel_bits = 32, s.fmt = EXEC_TEX_FLOAT;
        exec_tex_create(dev, &s, true);
    }
    static const char *const names[] = {"check.race", "check.race_intrawarp", "check.init", "check.sync"};
    for (int k = 0; k < 4; k++) exec_dev_set_opt(dev, names[k], size % 2 ? "0" : "1", &e);
    exec_dev_set_opt(dev, "exec.contract", size % 4 < 2 ? "1" : "0", &e); /* ptx/contract.c on half */
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
        exec_cdp_launch *q; /* device launches (dynamic parallelism) are dropped */
        uint32_t nq = exec_cdp_take(dev, &q);
        for (uint32_t i = 0; i < nq; i++) exec_mem_free(dev, q[i].params);
        free(q);
    }
    exec_mod_unload(m);
    return 0;
}
