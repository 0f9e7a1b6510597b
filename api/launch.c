/* launch.c -- kernel launches and the occupancy calculator.
**
** A launch is checked the way the driver checks it, then runs to the end
** inside the call (exec_launch_kernel).  A refused launch says why, with the
** numbers and the limit (option) it exceeds, in the failure account
** (fail.c), and is listed in the statistics file with its status.  Errors that poison a real context
** (an illegal or misaligned address, a trap or failed assert, a stack
** overflow, a livelock or deadlock, the instruction limit) are sticky: the
** context returns them from every later call that uses it, until it is
** destroyed or, for the primary context, reset.  exec/'s message -- kernel,
** block, thread, pc, address -- is printed as "tpsim: ...".
*/
#include "api.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

CUresult api_status_result(exec_status s, bool *sticky)
{
    *sticky = false;
    switch (s) {
    case EXEC_OK: return CUDA_SUCCESS;
    case EXEC_ERR_ILLEGAL_ADDRESS: *sticky = true; return CUDA_ERROR_ILLEGAL_ADDRESS;
    case EXEC_ERR_MISALIGNED: *sticky = true; return CUDA_ERROR_MISALIGNED_ADDRESS;
    case EXEC_ERR_TRAP: *sticky = true; return CUDA_ERROR_LAUNCH_FAILED;
    case EXEC_ERR_ASSERT: *sticky = true; return CUDA_ERROR_ASSERT;
    case EXEC_ERR_STACK_OVERFLOW: *sticky = true; return CUDA_ERROR_HARDWARE_STACK_ERROR;
    case EXEC_ERR_LIVELOCK:
    case EXEC_ERR_DEADLOCK:
    case EXEC_ERR_LIMIT: *sticky = true; return CUDA_ERROR_LAUNCH_TIMEOUT;
    case EXEC_ERR_UNSUPPORTED: return CUDA_ERROR_NOT_SUPPORTED;
    case EXEC_ERR_INVALID_VALUE: return CUDA_ERROR_INVALID_VALUE;
    case EXEC_ERR_OUT_OF_RESOURCES: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    case EXEC_ERR_COOP_TOO_LARGE: return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    case EXEC_ERR_INVALID_PTX: return CUDA_ERROR_INVALID_PTX;
    case EXEC_ERR_NO_BINARY: return CUDA_ERROR_NO_BINARY_FOR_GPU;
    case EXEC_ERR_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
    case EXEC_ERR_OOM: return CUDA_ERROR_OUT_OF_MEMORY;
    default: *sticky = true; return CUDA_ERROR_LAUNCH_FAILED;
    }
}

/* ---- occupancy ------------------------------------------------------------------ */

int api_occupancy(const api_func *f, int block_threads, size_t dyn_shared)
{
    if (block_threads <= 0 || (uint32_t)block_threads > f->attr.max_threads || dyn_shared > UINT32_MAX) return 0;
    /* a launch the driver would refuse has no blocks resident */
    if (dyn_shared > f->max_dyn_shared) return 0;
    exec_occ o;
    exec_occupancy(f->mod->em, (int)f->kidx, (uint32_t)block_threads, (uint32_t)dyn_shared, &o);
    return (int)o.ctas_per_sm;
}

static CUresult occ_blocks(int *nb, CUfunction h, int bs, size_t dyn, unsigned flags)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if (!nb || bs <= 0 || flags > CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE) return CUDA_ERROR_INVALID_VALUE;
    *nb = api_occupancy(f, bs, dyn);
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                     size_t dynamicSMemSize)
{
    API_LOCKED(occ_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0));
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                              size_t dynamicSMemSize, unsigned int flags)
{
    API_LOCKED(occ_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags));
}

/* The block size (a multiple of 32, largest first) that keeps the most
** threads resident per SM; minGridSize fills every SM with such blocks. */
static CUresult occ_block_size(int *min_grid, int *block, CUfunction h, CUoccupancyB2DSize b2d, size_t dyn,
                               int limit, unsigned flags)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if (!min_grid || !block || limit < 0 || flags > CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
        return CUDA_ERROR_INVALID_VALUE;
    int64_t max = TP_MIN((int64_t)f->attr.max_threads, api_opt(OPT_DEVICE_MAX_THREADS_PER_BLOCK));
    if (limit > 0) max = TP_MIN(max, limit);
    int best_threads = 0, best_bs = 0, best_blocks = 0;
    int start = max >= 32 ? (int)(max / 32 * 32) : (int)max;
    for (int bs = start; bs > 0; bs -= (bs > 32 ? 32 : bs)) {
        size_t d = b2d ? b2d(bs) : dyn;
        int nb = api_occupancy(f, bs, d);
        if (nb * bs > best_threads) best_threads = nb * bs, best_bs = bs, best_blocks = nb;
        if (bs <= 32) break;
    }
    *block = best_bs;
    *min_grid = best_blocks * (int)api_opt(OPT_DEVICE_NUM_SMS);
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                          int blockSizeLimit)
{
    API_LOCKED(occ_block_size(minGridSize, blockSize, func, blockSizeToDynamicSMemSize, dynamicSMemSize,
                              blockSizeLimit, 0));
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                   CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                   size_t dynamicSMemSize, int blockSizeLimit, unsigned int flags)
{
    API_LOCKED(occ_block_size(minGridSize, blockSize, func, blockSizeToDynamicSMemSize, dynamicSMemSize,
                              blockSizeLimit, flags));
}

static CUresult occ_dyn_smem(size_t *out, CUfunction h, int nblocks, int bs)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if (!out || nblocks <= 0 || bs <= 0) return CUDA_ERROR_INVALID_VALUE;
    *out = 0;
    if (api_occupancy(f, bs, 0) < nblocks) return CUDA_SUCCESS;
    int64_t unit = api_opt(OPT_DEVICE_SHARED_ALLOC_UNIT);
    int64_t per = api_opt(OPT_DEVICE_SHARED_PER_SM) / nblocks / unit * unit - (int64_t)f->attr.shared_static;
    int64_t cap = exec_opt_shared_optin(&api_g.opts) - (int64_t)f->attr.shared_static;
    cap = TP_MIN(cap, (int64_t)f->max_dyn_shared);
    per = TP_MIN(per, cap);
    *out = per > 0 ? (size_t)per : 0;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func, int numBlocks,
                                                 int blockSize)
{
    API_LOCKED(occ_dyn_smem(dynamicSmemSize, func, numBlocks, blockSize));
}

/* ---- the timing model ------------------------------------------------------------ */

gpu *api_gpu(void)
{
    if (!api_g.gpu) api_g.gpu = gpu_new(&api_g.opts);
    return api_g.gpu;
}

void api_copied_in(uint64_t dst, uint64_t n)
{
    if (api_opt(OPT_MODE) == 1) gpu_copy_in(api_gpu(), dst, n);
}

/* ---- launches ----------------------------------------------------------------- */

/* Performance mode on a terminal: a live line per running kernel on stderr,
** at most twice a second, after the kernel has run for half a second. */
typedef struct progress_state {
    double t0, last;
    bool shown;
} progress_state;

static void progress(void *arg, const char *kernel, uint64_t done, uint64_t ctas, uint64_t cycles, uint64_t winsns)
{
    progress_state *p = arg;
    double now = api_now();
    if (now - p->last < 0.5) return;
    p->last = now;
    double secs = now - p->t0;
    fprintf(stderr, "\r\033[K[tpsim] %s: %llu/%llu CTAs, %llu cycles, %.2fM warp insts/s", kernel,
            (unsigned long long)done, (unsigned long long)ctas, (unsigned long long)cycles,
            secs > 0 ? (double)winsns / secs / 1e6 : 0.0);
    fflush(stderr);
    p->shown = true;
}

typedef api_launch_req launch_req;

/* Registers a block of `threads` threads needs at `regs` per thread: each
** warp's allocation rounds up to device.reg_alloc_unit. */
static uint64_t block_regs(uint32_t regs, uint64_t threads)
{
    uint64_t unit = (uint64_t)api_opt(OPT_DEVICE_REG_ALLOC_UNIT);
    return TP_ALIGN_UP((uint64_t)regs * 32, unit ? unit : 1) * ((threads + 31) / 32);
}

static CUresult check_dims(const api_func *f, const launch_req *q)
{
    int64_t maxtpb = api_opt(OPT_DEVICE_MAX_THREADS_PER_BLOCK);
    const uint32_t *b = q->block, *g = q->grid;
    if (!b[0] || !b[1] || !b[2] || !g[0] || !g[1] || !g[2]) {
        api_why("grid (%u, %u, %u), block (%u, %u, %u): every dimension must be at least 1", g[0], g[1], g[2], b[0],
                b[1], b[2]);
        return CUDA_ERROR_INVALID_VALUE;
    }
    static const char xyz[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++) {
        int64_t lim = TP_MIN(maxtpb, i < 2 ? 1024 : 64);
        if (b[i] > lim) {
            api_why("block dimension %c of %u exceeds %lld (%s)", xyz[i], b[i], (long long)lim,
                    i < 2 ? "device.max_threads_per_block" : "64 in z on every CUDA GPU");
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
    if (threads > (uint64_t)maxtpb) {
        api_why("block (%u, %u, %u) has %llu threads, the device allows %lld per block (%s limit "
                "device.max_threads_per_block)", b[0], b[1], b[2], (unsigned long long)threads, (long long)maxtpb,
                api_arch());
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (int i = 0; i < 3; i++) {
        int64_t lim = api_opt(i ? OPT_DEVICE_MAX_GRID_YZ : OPT_DEVICE_MAX_GRID_X);
        if (g[i] > (uint64_t)lim) {
            api_why("grid dimension %c of %u exceeds %lld (%s)", xyz[i], g[i], (long long)lim,
                    i ? "device.max_grid_yz" : "device.max_grid_x");
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    const ptx_func *pf = f->pf;
    if (pf->reqntid[0]) {
        uint32_t ry = pf->reqntid[1] ? pf->reqntid[1] : 1, rz = pf->reqntid[2] ? pf->reqntid[2] : 1;
        if (b[0] != pf->reqntid[0] || b[1] != ry || b[2] != rz) {
            api_why("the kernel requires blocks of (%u, %u, %u) threads (.reqntid), not (%u, %u, %u)", pf->reqntid[0],
                    ry, rz, b[0], b[1], b[2]);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (pf->maxntid[0]) {
        uint64_t m = (uint64_t)pf->maxntid[0] * (pf->maxntid[1] ? pf->maxntid[1] : 1) *
                     (pf->maxntid[2] ? pf->maxntid[2] : 1);
        if (threads > m) {
            api_why("block of %llu threads: the kernel allows at most %llu (.maxntid)", (unsigned long long)threads,
                    (unsigned long long)m);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    uint64_t shared = (uint64_t)f->attr.shared_static + q->shared;
    int64_t optin = exec_opt_shared_optin(&api_g.opts), per_block = api_opt(OPT_DEVICE_SHARED_PER_BLOCK);
    if (shared > (uint64_t)optin) {
        api_why("block needs %llu bytes of shared memory (%u static + %u dynamic), the device allows %lld per block "
                "(%s limit %s)", (unsigned long long)shared, f->attr.shared_static, q->shared, (long long)optin,
                api_arch(), optin > per_block ? "device.shared_per_block_optin" : "device.shared_per_block");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (q->shared > f->max_dyn_shared) {
        if (shared > (uint64_t)per_block && (int64_t)f->max_dyn_shared + f->attr.shared_static <= per_block)
            api_why("block needs %llu bytes of shared memory (%u static + %u dynamic), the device allows %lld per "
                    "block (%s limit device.shared_per_block) unless the kernel opts in to up to %lld with "
                    "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (cudaFuncAttributeMaxDynamicSharedMemorySize)",
                    (unsigned long long)shared, f->attr.shared_static, q->shared, (long long)per_block, api_arch(),
                    (long long)optin);
        else
            api_why("%u bytes of dynamic shared memory exceed the kernel's limit of %u "
                    "(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)", q->shared, f->max_dyn_shared);
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* registers: a block must fit in the register file (the hardware's
    ** CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) */
    uint64_t need = block_regs(f->attr.regs, threads);
    int64_t have = api_opt(OPT_DEVICE_REGS_PER_BLOCK);
    if (need > (uint64_t)have) {
        char unit[96] = "";
        if (need != (uint64_t)f->attr.regs * threads)
            snprintf(unit, sizeof unit, " (allocated per warp in units of %lld)",
                     (long long)api_opt(OPT_DEVICE_REG_ALLOC_UNIT));
        api_why("block of %llu threads x %u registers needs %llu registers%s, the device allows %lld per block "
                "(%s limit device.regs_per_block)", (unsigned long long)threads, f->attr.regs,
                (unsigned long long)need, unit, (long long)have, api_arch());
        return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    }
    return CUDA_SUCCESS;
}

/* Fills buf (param_bytes) from kernelParams or from the `extra` list. */
static CUresult build_params(const api_func *f, void **params, void **extra, uint8_t *buf)
{
    const ptx_func *pf = f->pf;
    if (params && extra) {
        api_why("both kernelParams and extra are given; a launch takes one of them");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (extra) {
        void *ptr = NULL;
        size_t *size = NULL;
        for (int i = 0;; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_END) break;
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) ptr = extra[i + 1];
            else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = extra[i + 1];
            else {
                api_why("extra[%d] is not a CU_LAUNCH_PARAM_* key", i);
                return CUDA_ERROR_INVALID_VALUE;
            }
            if (i > 64) {
                api_why("extra has no CU_LAUNCH_PARAM_END in its first 64 entries");
                return CUDA_ERROR_INVALID_VALUE;
            }
        }
        if (pf->param_bytes == 0) return CUDA_SUCCESS;
        if (!ptr || !size || *size < pf->param_bytes) {
            api_why("the kernel takes %u bytes of parameters; extra gives %s", pf->param_bytes,
                    !ptr || !size ? "no buffer and size" : "a smaller buffer");
            return CUDA_ERROR_INVALID_VALUE;
        }
        memcpy(buf, ptr, pf->param_bytes);
        return CUDA_SUCCESS;
    }
    if (pf->nparams == 0) return CUDA_SUCCESS;
    if (!params) {
        api_why("the kernel takes %u parameters and kernelParams is NULL", pf->nparams);
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (uint32_t i = 0; i < pf->nparams; i++) {
        const ptx_param *p = &pf->params[i];
        if (!params[i]) {
            api_why("kernelParams[%u] is NULL", i);
            return CUDA_ERROR_INVALID_VALUE;
        }
        memcpy(buf + p->offset, params[i], p->size);
    }
    return CUDA_SUCCESS;
}

CUresult api_kernel_prepare(api_ctx *c, const api_launch_req *q, api_kwork *k)
{
    api_func *f;
    CUresult r;
    memset(k, 0, sizeof *k);
    if ((r = api_func_arg(q->h, &f))) return r;
    k->f = f;
    api_why_kernel(f->pf->name);
    if (f->mod->ctx->dead) {
        api_why("the kernel's context was destroyed");
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    }
    if (!f->mod->lib && f->mod->ctx != c) {
        api_why("the kernel belongs to another context than the current one");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if ((r = check_dims(f, q))) return r;
    if (q->cooperative) {
        uint64_t blocks = (uint64_t)q->grid[0] * q->grid[1] * q->grid[2];
        int per_sm = api_occupancy(f, (int)(q->block[0] * q->block[1] * q->block[2]), q->shared);
        uint64_t fit = (uint64_t)per_sm * (uint64_t)api_opt(OPT_DEVICE_NUM_SMS);
        if (blocks > fit) {
            api_why("cooperative launch of %llu blocks: at most %llu are resident at once (%d per SM x %lld SMs)",
                    (unsigned long long)blocks, (unsigned long long)fit, per_sm,
                    (long long)api_opt(OPT_DEVICE_NUM_SMS));
            return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
        }
        /* one grid workspace serves every cooperative launch: they run one at a time */
        if (!api_g.coop_ws) {
            api_dev_lock();
            api_g.coop_ws = exec_mem_alloc(api_g.dev, 8, 256);
            api_dev_unlock();
            if (!api_g.coop_ws) return CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    uint32_t pbytes = f->pf->param_bytes;
    k->params = tp_calloc(1, pbytes ? pbytes : 1);
    k->pbytes = pbytes;
    if ((r = build_params(f, q->params, q->extra, k->params))) {
        free(k->params);
        k->params = NULL;
        return r;
    }
    memcpy(k->grid, q->grid, sizeof k->grid);
    memcpy(k->block, q->block, sizeof k->block);
    k->shared = q->shared;
    k->cooperative = q->cooperative;
    k->stack = c->limits[CU_LIMIT_STACK_SIZE];
    k->heap = c->limits[CU_LIMIT_MALLOC_HEAP_SIZE];
    return CUDA_SUCCESS;
}

/* Runs on the device (queue.c): the kernel to its end, then its record. */
void api_kernel_run(api_ctx *c, api_kwork *k)
{
    api_func *f = k->f;
    exec_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.grid, k->grid, sizeof l.grid);
    memcpy(l.block, k->block, sizeof l.block);
    l.shared_dyn = k->shared;
    l.params = k->params;
    l.params_bytes = k->pbytes;
    exec_result *res = tp_calloc(1, sizeof *res);
    gpu_kstats *perf = NULL;
    api_lock();
    bool timed = api_opt(OPT_MODE) == 1 && api_g.launches_total >= (uint64_t)api_opt(OPT_FASTFORWARD_KERNELS);
    api_unlock();

    api_dev_lock();
    api_dev_set_opt("exec.stack_bytes", k->stack);
    api_dev_set_opt("exec.heap_bytes", k->heap);
    if (k->cooperative) {
        /* the grid workspace, zeroed: u32 size, u32 barrier counter */
        l.grid_workspace = api_g.coop_ws;
        uint8_t *ws = exec_mem_host(api_g.dev, l.grid_workspace, 8);
        const uint32_t ws_size = 8;
        memset(ws, 0, 8);
        memcpy(ws, &ws_size, 4);
    }
    double t0 = api_now();
    exec_status st;
    /* sampled timing (sample.mode=kernel|both, api/sample.c): a stable group's launch runs functionally */
    bool projected = timed && api_sample_project(f, &l);
    if (projected) {
        st = exec_launch_kernel(f->mod->em, f->kidx, &l, res);
        if (st == EXEC_OK) perf = api_sample_projection(f, &l, res);
    } else if (timed) {
        perf = tp_calloc(1, sizeof *perf);
        progress_state ps = {t0, t0, false};
        st = gpu_launch(api_gpu(), f->mod->em, (int)f->kidx, &l, res, perf, isatty(2) ? progress : NULL, &ps);
        if (ps.shown) fputs("\r\033[K", stderr);
        if (st == EXEC_OK) api_sample_detailed(f, &l, res, perf);
    } else {
        st = exec_launch_kernel(f->mod->em, f->kidx, &l, res);
    }
    double dt = api_now() - t0;
    api_dev_unlock();

    bool sticky;
    CUresult r = api_status_result(st, &sticky);
    uint64_t sms = (uint64_t)api_opt(OPT_DEVICE_NUM_SMS);
    /* simulated time: the kernel's cycles and, in performance mode, its launch overhead */
    uint64_t cycles = perf ? perf->cycles + perf->launch_cycles : (res->warp_insns + sms - 1) / sms;
    api_lock();
    c->clock += cycles;
    api_sample_note(f->pf->name, perf);
    api_stats_launch(f, &l, res, cycles, r, dt, perf);
    if (r) {
        const char *name = api_result_name(r);
        if (res->msg[0]) api_msg("%s (%s)", res->msg, name);
        else api_msg("kernel %s: %s (%s)", f->pf->name, exec_status_name(st), name);
        api_async_err *p = &c->pending;
        if (!p->r) {
            p->r = r;
            p->sticky = sticky;
            p->seq = api_op_seq_running();
            p->why = tp_strdup(res->msg[0] ? res->msg : exec_status_name(st));
            p->kernel = tp_strdup(f->pf->name);
        }
        if (sticky) c->faulted = true;
    }
    api_unlock();
    free(res);
    /* the grids its threads launched (dynamic parallelism), under both locks
    ** (API, then device: the documented order) */
    api_lock();
    CUresult before = c->sticky;
    api_dev_lock();
    api_cdp_children(c, r, 0);
    api_dev_unlock();
    if (!before && c->sticky) {
        /* a device-launched grid's sticky error: seen at the next wait, like the parent's */
        api_async_err *p = &c->pending;
        if (!p->r) {
            p->r = c->sticky;
            p->sticky = true;
            p->seq = api_op_seq_running();
            p->why = tp_strdup("a grid launched from the device met a sticky error (reported above)");
            p->kernel = tp_strdup(f->pf->name);
        }
        c->sticky = CUDA_SUCCESS;
        c->faulted = true;
    }
    api_unlock();
}

/* A launch: checked, then issued; one refused before it was issued is
** listed in the statistics too. */
static CUresult launch(const launch_req *q)
{
    api_ctx *c;
    api_stream *s;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if ((r = api_stream_arg(c, q->stream, &s))) {
        api_why("the stream is not one of the current context's");
        return r;
    }
    api_work w = {.kind = API_W_KERNEL};
    r = api_kernel_prepare(c, q, &w.u.k);
    if (r) {
        if (w.u.k.f)
            api_stats_refused(w.u.k.f->pf->name, q->grid, q->block, q->shared, w.u.k.f->attr.regs, r, NULL,
                              api_why_text());
        return r;
    }
    if (q->completion) {
        w.u.k.completion = q->completion;
        q->completion->refs++;
        w.u.k.completion_gen = ++q->completion->gen;
    }
    if ((r = api_issue(c, s, &w, NULL, 0, NULL))) {
        if (q->completion) q->completion->gen--;
        api_work_free(&w);
    }
    return r;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    launch_req q = {f, {gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes, hStream,
                    kernelParams, extra, false, NULL};
    API_LOCKED(launch(&q));
}
API_ALIAS(cuLaunchKernel, "cuLaunchKernel_ptsz");

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                   unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                   void **kernelParams)
{
    launch_req q = {f, {gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes, hStream,
                    kernelParams, NULL, true, NULL};
    API_LOCKED(launch(&q));
}
API_ALIAS(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel_ptsz");

static CUresult launch_ex(const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!cfg || (cfg->numAttrs && !cfg->attrs)) {
        api_why(!cfg ? "the launch configuration is NULL" : "numAttrs is %u and attrs is NULL", cfg ? cfg->numAttrs : 0);
        return CUDA_ERROR_INVALID_VALUE;
    }
    launch_req q = {f, {cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ}, {cfg->blockDimX, cfg->blockDimY, cfg->blockDimZ},
                    cfg->sharedMemBytes, cfg->hStream, params, extra, false, NULL};
    for (unsigned i = 0; i < cfg->numAttrs; i++) {
        const CUlaunchAttribute *a = &cfg->attrs[i];
        switch (a->id) {
        case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: q.cooperative = a->value.cooperative != 0; break;
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION: {
            unsigned x = a->value.clusterDim.x, y = a->value.clusterDim.y, z = a->value.clusterDim.z;
            if ((x | y | z) > 1) {
                api_msg("cuLaunchKernelEx: thread block clusters need compute capability 9.0");
                api_why("a cluster of (%u, %u, %u) blocks: thread block clusters need compute capability 9.0", x, y, z);
                return CUDA_ERROR_NOT_SUPPORTED;
            }
            break;
        }
        case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT: {
            CUevent e = a->value.launchCompletionEvent.event;
            if (!api_handle_is(e, API_K_EVENT)) {
                api_why("the launch completion event is not an event");
                return CUDA_ERROR_INVALID_HANDLE;
            }
            q.completion = e;
            break;
        }
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
            if (!api_handle_is(a->value.programmaticEvent.event, API_K_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
            break;
        case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
            CUresult r2 = api_window_check(&a->value.accessPolicyWindow);
            if (r2) return r2;
            break;
        }
        case CU_LAUNCH_ATTRIBUTE_IGNORE:
        case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
        case CU_LAUNCH_ATTRIBUTE_PRIORITY:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
        case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING: break;   /* scheduling hints */
        default: api_why("unknown launch attribute %d", (int)a->id); return CUDA_ERROR_INVALID_VALUE;
        }
    }
    return launch(&q);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    API_LOCKED(launch_ex(config, f, kernelParams, extra));
}
API_ALIAS(cuLaunchKernelEx, "cuLaunchKernelEx_ptsz");

/* The checks of a host launch, for a device launch (dynamic parallelism, cdp.c). */
CUresult api_launch_check(const api_func *f, const uint32_t grid[3], const uint32_t block[3], uint32_t shared)
{
    launch_req q;
    memset(&q, 0, sizeof q);
    memcpy(q.grid, grid, sizeof q.grid);
    memcpy(q.block, block, sizeof q.block);
    q.shared = shared;
    return check_dims(f, &q);
}
