/* cdp.c -- dynamic parallelism (CDP2) on the API side: the grids a kernel's
** threads launched run right after it (exec/cdp.c records them).
**
** Order: a grid's launches into streams (the default one, created ones,
** cudaStreamFireAndForget) run one after another in launch order, each
** followed at once by everything it launched in turn (depth first); the
** grid's cudaStreamTailLaunch launches run last, in launch order.  This is
** one of the orders CUDA allows: a child may start any time after its
** launch and must complete before its parent does, launches into one
** stream are ordered, and a tail launch starts after its parent and all the
** parent's other work.  Each device launch is listed in the statistics as a
** launch of its kernel.  A device launch the checks of a host launch would
** refuse (registers, shared memory) is reported on stderr and skipped: its
** parent thread has finished by then, so it cannot be told.
**
** The device runtime library (libcudadevrt) that `-rdc=true -lcudadevrt`
** links is not loaded: its PTX targets a newer GPU than most devices
** (sm_121 in CUDA 13) and calls the driver's private entry points; tpsim
** answers the __cudaCDP2* calls that user code makes instead.
*/
#include "api.h"
#include "fatbin.h"
#include <stdlib.h>

bool api_cdp_is_devrt(const void *fatbin, size_t size, const char *ptx)
{
    char *text = NULL, *why = NULL;
    if (!ptx) {
        size_t len;
        unsigned sm;
        api_fatbin_err fe;
        text = api_fatbin_ptx(fatbin, size, 10000, &len, &sm, &why, &fe);
        ptx = text;
    }
    bool is = ptx && strstr(ptx, ".visible .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2(") != NULL;
    free(text);
    free(why);
    return is;
}

/* The api_func of kernel k of exec module m, or NULL. */
static api_func *func_of(api_ctx *c, exec_mod *m, int k)
{
    for (api_mod *am = c->mods; am; am = am->next) {
        if (am->em != m) continue;
        for (uint32_t i = 0; i < am->nfuncs; i++)
            if (am->funcs[i] && am->funcs[i]->kidx == k) return am->funcs[i];
    }
    return NULL;
}

static CUresult run_child(api_ctx *c, const exec_cdp_launch *q, uint32_t pending)
{
    api_func *f = func_of(c, q->m, q->kernel);
    if (!f) return CUDA_SUCCESS;   /* the module is gone */
    CUresult r = api_launch_check(f, q->grid, q->block, q->shared);
    if (r) {
        api_msg("a device launch of kernel %s (grid %u x %u x %u, block %u x %u x %u) was refused: %s (%s)",
                f->pf->name, q->grid[0], q->grid[1], q->grid[2], q->block[0], q->block[1], q->block[2],
                api_why_text(), api_result_name(r));
        api_stats_refused(f->pf->name, q->grid, q->block, q->shared, f->attr.regs, r, NULL, api_why_text());
        return CUDA_SUCCESS;
    }
    exec_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.grid, q->grid, sizeof l.grid);
    memcpy(l.block, q->block, sizeof l.block);
    l.shared_dyn = q->shared;
    l.params = exec_mem_host(api_g.dev, q->params, q->params_bytes ? q->params_bytes : 1);
    l.params_bytes = q->params_bytes;
    l.depth = q->depth;
    l.cdp_pending = pending;
    if (!l.params) return CUDA_ERROR_ILLEGAL_ADDRESS;
    /* run and record it as launch.c does a host launch */
    exec_result *res = tp_calloc(1, sizeof *res);
    gpu_kstats *perf = NULL;
    double t0 = api_now();
    exec_status st;
    if (api_opt(OPT_MODE) == 1 && api_g.launches_total >= (uint64_t)api_opt(OPT_FASTFORWARD_KERNELS)) {
        perf = tp_calloc(1, sizeof *perf);
        st = gpu_launch(api_gpu(), f->mod->em, (int)f->kidx, &l, res, perf, NULL, NULL);
    } else {
        st = exec_launch_kernel(f->mod->em, f->kidx, &l, res);
    }
    double dt = api_now() - t0;
    bool sticky;
    r = api_status_result(st, &sticky);
    uint64_t sms = (uint64_t)api_opt(OPT_DEVICE_NUM_SMS);
    uint64_t cycles = perf ? perf->cycles + perf->launch_cycles : (res->warp_insns + sms - 1) / sms;
    c->clock += cycles;
    api_stats_launch(f, &l, res, cycles, r, dt, perf);
    if (r) {
        const char *name = api_result_name(r);
        if (res->msg[0]) api_msg("%s (%s; a device launch)", res->msg, name);
        else api_msg("kernel %s (a device launch): %s (%s)", f->pf->name, exec_status_name(st), name);
        if (sticky) c->sticky = r;
    }
    free(res);
    return api_cdp_children(c, r, pending);   /* its own launches, depth first */
}

/* Runs the launches of the grid that just finished; pending: the device
** launches outside it not yet complete (exec_launch.cdp_pending: it, if it
** was one, and its ancestors' still to run).  Each child starts with those
** plus its siblings not yet complete, itself included. */
CUresult api_cdp_children(api_ctx *c, CUresult r, uint32_t pending)
{
    exec_cdp_launch *q;
    uint32_t n = exec_cdp_take(api_g.dev, &q);
    if (!n) return r;
    bool ok = !r;
    uint32_t done = 0;
    for (int tail = 0; tail < 2; tail++)
        for (uint32_t i = 0; i < n; i++) {
            if ((q[i].kind == EXEC_CDP_TAIL) != (tail == 1)) continue;
            if (ok) {
                CUresult cr = run_child(c, &q[i], pending + (n - done));
                if (cr && c->sticky) {
                    ok = false;      /* the context is poisoned: the rest never run */
                    r = c->sticky;
                }
            }
            exec_mem_free(api_g.dev, q[i].params);
            done++;
        }
    free(q);
    return r;
}
