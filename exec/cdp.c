/*
** cdp.c -- the device runtime of dynamic parallelism (CDP2, CUDA 12 and
** later): the calls a kernel built with -rdc=true -lcudadevrt makes to launch
** kernels, as system calls.
**
** nvcc turns `k<<<g, b, s, stream>>>(args)` in device code into
**   buf = __cudaCDP2GetParameterBufferV2(&k, g, b, s);   (NULL: no launch)
**   store args into buf;  __cudaCDP2LaunchDeviceV2(buf, stream);
** and cudaGetLastError, cudaStreamCreateWithFlags ... into __cudaCDP2*
** calls.  libcudadevrt defines those on top of driver "syscalls"; tpsim does
** not link it (api/ skips its PTX) and answers the __cudaCDP2* calls here,
** and the documented names (cudaGetParameterBuffer, cudaLaunchDevice, ...)
** a program may call itself.  Device attributes come from the API
** (exec_cdp_set_attributes), as the driver reports them.
**
** exec/ only records launches: a grid's device launches are queued on the
** device in the order its threads made them, and whoever ran the grid takes
** them (exec_cdp_take) and runs them after it -- children depth first, then
** tail launches -- which is one order CUDA's rules allow: a child may start
** any time after its launch and must finish before its parent counts as
** complete; launches into one stream run in order; a tail launch runs after
** its launching grid and all the grid's other work.
**
** Errors are the device runtime's: a nesting deeper than exec.cdp_max_depth
** (cudaErrorLaunchMaxDepthExceeded) or more than exec.cdp_pending_launches
** launches waiting (cudaErrorLaunchPendingCountExceeded) make the parameter
** buffer call return NULL, so the launch does not happen; an impossible
** configuration makes the launch return cudaErrorInvalidConfiguration.  Each
** also becomes the thread's last error (cudaGetLastError/PeekAtLastError).
*/
#include "check.h"
#include "options.h"
#include <stdlib.h>

/* cudaError_t values the device runtime returns */
enum {
    CDP_OK = 0,
    CDP_INVALID_VALUE = 1,
    CDP_MEMORY_ALLOCATION = 2,
    CDP_INVALID_CONFIGURATION = 9,
    CDP_INVALID_RESOURCE_HANDLE = 400,
    CDP_MAX_DEPTH = 65,
    CDP_PENDING_COUNT = 69,
    CDP_INVALID_DEVICE_FUNCTION = 98,
    CDP_INVALID_DEVICE = 101,
};

/* stream handles with a meaning of their own (cuda_device_runtime_api.h) */
#define CDP_STREAM_TAIL 0x3u
#define CDP_STREAM_FIRE_AND_FORGET 0x4u
#define CDP_HANDLE_BASE 0x7d000000ull /* streams and events the device creates */

typedef struct cdp_buf {
    uint64_t addr;
    exec_mod *m;
    int kernel;               /* -1: not known yet (cudaGetParameterBuffer) */
    uint32_t grid[3], block[3], shared, bytes, depth;
} cdp_buf;

typedef struct cdp_err {
    uint64_t gridid, thread;  /* the grid and the thread's linear id in it */
    uint32_t err;
} cdp_err;

struct exec_cdp {
    exec_cdp_launch *q;       /* launched, not yet taken */
    uint32_t nq, capq;
    cdp_buf *b;               /* parameter buffers handed out and not launched */
    uint32_t nb, capb;
    cdp_err *e;               /* threads whose last error is not cudaSuccess */
    uint32_t ne, cape;
    uint64_t next_handle;     /* streams and events created so far */
    int *attr;                /* device attributes by number (exec_cdp_set_attributes) */
    uint8_t *attr_ok;
    uint32_t nattr;
};

static struct exec_cdp *cdp_of(exec_dev *d)
{
    if (!d->cdp) d->cdp = tp_calloc(1, sizeof *d->cdp);
    return d->cdp;
}

void exec_cdp_free(exec_dev *d)
{
    struct exec_cdp *c = d->cdp;
    if (!c) return;
    free(c->q);
    free(c->b);
    free(c->e);
    free(c->attr);
    free(c->attr_ok);
    free(c);
    d->cdp = NULL;
}

void exec_cdp_set_attributes(exec_dev *d, const int *values, const uint8_t *ok, uint32_t n)
{
    struct exec_cdp *c = cdp_of(d);
    free(c->attr);
    free(c->attr_ok);
    c->attr = tp_malloc((n ? n : 1) * sizeof *c->attr);
    c->attr_ok = tp_malloc(n ? n : 1);
    if (n) {
        memcpy(c->attr, values, n * sizeof *c->attr);
        memcpy(c->attr_ok, ok, n);
    }
    c->nattr = n;
}

uint32_t exec_cdp_take(exec_dev *d, exec_cdp_launch **out)
{
    struct exec_cdp *c = d->cdp;
    *out = NULL;
    if (!c) return 0;
    /* buffers nobody launched are freed; last errors die with their grid */
    for (uint32_t i = 0; i < c->nb; i++) exec_mem_free(d, c->b[i].addr);
    c->nb = 0;
    c->ne = 0;
    uint32_t n = c->nq;
    *out = c->q;
    c->q = NULL;
    c->nq = c->capq = 0;
    return n;
}

/* ---- per-thread last error ------------------------------------------------ */

static uint64_t thread_of(exec_warp *w, int lane)
{
    return w->cta->linear * (uint64_t)w->g->cta_threads + w->tid0 + (uint64_t)lane;
}

static cdp_err *err_find(struct exec_cdp *c, exec_warp *w, int lane)
{
    uint64_t t = thread_of(w, lane);
    for (uint32_t i = 0; i < c->ne; i++)
        if (c->e[i].thread == t && c->e[i].gridid == w->g->gridid) return &c->e[i];
    return NULL;
}

static void err_set(struct exec_cdp *c, exec_warp *w, int lane, uint32_t err)
{
    if (!err) return;
    cdp_err *e = err_find(c, w, lane);
    if (!e) {
        if (c->ne == c->cape) {
            c->cape = c->cape ? 2 * c->cape : 16;
            c->e = tp_realloc(c->e, c->cape * sizeof *c->e);
        }
        e = &c->e[c->ne++];
        e->thread = thread_of(w, lane);
        e->gridid = w->g->gridid;
    }
    e->err = err;
}

static uint32_t err_get(struct exec_cdp *c, exec_warp *w, int lane, bool clear)
{
    cdp_err *e = err_find(c, w, lane);
    if (!e) return 0;
    uint32_t v = e->err;
    if (clear) *e = c->e[--c->ne];
    return v;
}

/* ---- arguments --------------------------------------------------------------- */

/* Argument i of a call, bytes [off, off+4) of it (a dim3's member). */
static uint32_t arg_u32_at(exec_warp *w, const ptx_insn *in, int lane, uint32_t i, uint32_t off)
{
    const ptx_opnd *co = &in->o[1];
    uint32_t nret = (uint32_t)co->imm;
    if (nret + i >= co->n) return 0;
    const ptx_opnd *a = &w->g->m->xpool[co->r + nret + i];
    if (a->kind != PTX_OK_SYM) return off ? 0 : (uint32_t)exec_call_arg(w, in, lane, i, 4);
    uint8_t sp;
    uint64_t src = exec_sym_addr(w, a->r, &sp) + (uint64_t)a->imm + off;
    uint32_t v = 0;
    if (sp == PTX_SP_LOCAL && src + 4 <= w->g->local_per_thread)
        memcpy(&v, w->local + (size_t)lane * w->g->local_per_thread + src, 4);
    return v;
}

static bool put_u64(exec_warp *w, int lane, uint64_t addr, uint64_t v, unsigned size)
{
    uint8_t *p = exec_lane_ptr(w, lane, PTX_SP_GENERIC, addr, size, true);
    if (!p) return false;
    memcpy(p, &v, size);
    return true;
}

/* The kernel a function address names, or -1. */
static int kernel_of(exec_mod *m, uint64_t fa)
{
    if (fa < EXEC_FUNC_ADDR_BASE || (fa - EXEC_FUNC_ADDR_BASE) % 16) return -1;
    uint64_t f = (fa - EXEC_FUNC_ADDR_BASE) / 16;
    if (f >= m->ptx->nfuncs || !m->ptx->funcs[f].is_entry || m->ptx->funcs[f].is_decl) return -1;
    return (int)f;
}

/* ---- launching ------------------------------------------------------------- */

/* A parameter buffer for a launch of kernel k (-1: not known) or 0 with the
** error in *err. */
static uint64_t get_buffer(exec_warp *w, struct exec_cdp *c, int k, uint64_t bytes, uint64_t align, uint32_t *err)
{
    exec_grid *g = w->g;
    const tp_opts *o = &g->dev->opts;
    uint32_t depth = g->l.depth + 1;
    if (depth > (uint64_t)tp_opt_i(o, OPT_EXEC_CDP_MAX_DEPTH)) {
        *err = CDP_MAX_DEPTH;
        return 0;
    }
    if ((uint64_t)g->l.cdp_pending + c->nq + c->nb >= (uint64_t)tp_opt_i(o, OPT_EXEC_CDP_PENDING)) {
        *err = CDP_PENDING_COUNT;
        return 0;
    }
    if (align < 64) align = 64;
    if (bytes > 65536 || (align & (align - 1)) || align > 4096) {
        *err = CDP_INVALID_VALUE;
        return 0;
    }
    uint64_t a = exec_mem_alloc(g->dev, bytes ? bytes : 8, align);
    if (!a) {
        *err = CDP_MEMORY_ALLOCATION;
        return 0;
    }
    if (c->nb == c->capb) {
        c->capb = c->capb ? 2 * c->capb : 16;
        c->b = tp_realloc(c->b, c->capb * sizeof *c->b);
    }
    cdp_buf *b = &c->b[c->nb++];
    memset(b, 0, sizeof *b);
    b->addr = a;
    b->m = g->m;
    b->kernel = k;
    b->bytes = (uint32_t)(bytes ? bytes : 8);
    b->depth = depth;
    exec_forget_windows(g);
    *err = CDP_OK;
    return a;
}

static bool config_ok(exec_mod *m, int k, const uint32_t grid[3], const uint32_t block[3])
{
    exec_kattr a;
    exec_kernel_attrs(m, k, &a);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !threads) return false;
    if (grid[1] > 65535 || grid[2] > 65535 || grid[0] > 0x7fffffffu) return false;
    if (block[0] > 1024 || block[1] > 1024 || block[2] > 64 || threads > a.max_threads) return false;
    return true;
}

/* Launches the grid described by buffer addr into stream s. */
static uint32_t launch(exec_warp *w, struct exec_cdp *c, uint64_t addr, uint64_t s)
{
    uint32_t i = 0;
    while (i < c->nb && c->b[i].addr != addr) i++;
    if (i == c->nb) return CDP_INVALID_VALUE;
    cdp_buf b = c->b[i];
    if (b.kernel < 0) return CDP_INVALID_DEVICE_FUNCTION;
    if (!config_ok(b.m, b.kernel, b.grid, b.block)) return CDP_INVALID_CONFIGURATION;
    if (s != 0 && s != CDP_STREAM_TAIL && s != CDP_STREAM_FIRE_AND_FORGET &&
        (s < CDP_HANDLE_BASE || s >= CDP_HANDLE_BASE + c->next_handle))
        return CDP_INVALID_RESOURCE_HANDLE;
    c->b[i] = c->b[--c->nb];
    if (c->nq == c->capq) {
        c->capq = c->capq ? 2 * c->capq : 16;
        c->q = tp_realloc(c->q, c->capq * sizeof *c->q);
    }
    exec_cdp_launch *q = &c->q[c->nq++];
    memset(q, 0, sizeof *q);
    q->m = b.m;
    q->kernel = b.kernel;
    memcpy(q->grid, b.grid, sizeof q->grid);
    memcpy(q->block, b.block, sizeof q->block);
    q->shared = b.shared;
    q->params = b.addr;
    q->params_bytes = b.m->ptx->funcs[b.kernel].param_bytes;
    q->stream = s;
    q->kind = s == CDP_STREAM_TAIL ? EXEC_CDP_TAIL : s == CDP_STREAM_FIRE_AND_FORGET ? EXEC_CDP_FIRE_AND_FORGET
                                                                                      : EXEC_CDP_STREAM;
    q->depth = b.depth;
    q->parent_gridid = w->g->gridid;
    return CDP_OK;
}

/* ---- the calls ------------------------------------------------------------- */

/* The name without the "__cudaCDP2" prefix (as "cuda..." would have it) and
** without the _ptsz suffix, into buf; false if it is not a device runtime name. */
static bool base_name(const char *name, char *buf, size_t n)
{
    if (strncmp(name, "__cudaCDP2", 10) == 0) snprintf(buf, n, "%s", name + 10);
    else if (strncmp(name, "cuda", 4) == 0) snprintf(buf, n, "%s", name + 4);
    else return false;
    size_t l = strlen(buf);
    if (l > 5 && strcmp(buf + l - 5, "_ptsz") == 0) buf[l - 5] = 0;
    return true;
}

bool exec_cdp_is_call(const char *name)
{
    static const char *const known[] = {
        "GetParameterBuffer", "GetParameterBufferV2", "LaunchDevice", "LaunchDeviceV2", "GetLastError",
        "PeekAtLastError", "StreamCreateWithFlags", "StreamDestroy", "StreamWaitEvent", "EventCreateWithFlags",
        "EventRecord", "EventDestroy", "Malloc", "Free", "GetDevice", "GetDeviceCount", "RuntimeGetVersion",
        "DeviceGetAttribute", "DeviceGetLimit", "DeviceGetCacheConfig", "DeviceGetSharedMemConfig",
        "FuncGetAttributes", "GetErrorName", "GetErrorString", "MemcpyAsync", "Memcpy2DAsync", "Memcpy3DAsync",
        "MemsetAsync", "Memset2DAsync", "Memset3DAsync", "OccupancyMaxActiveBlocksPerMultiprocessor",
        "OccupancyMaxActiveBlocksPerMultiprocessorWithFlags"};
    char b[96];
    if (!base_name(name, b, sizeof b)) return false;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(b, known[i]) == 0) return true;
    return false;
}

bool exec_cdp_call(exec_warp *w, const ptx_insn *in, const char *name, uint32_t mask)
{
    struct exec_cdp *c = cdp_of(w->g->dev);
    char b[96];
    base_name(name, b, sizeof b);
    if (strcmp(b, "GetParameterBufferV2") == 0) {
        EXEC_LANES(mask, {
            uint64_t fa = exec_call_arg(w, in, l, 0, 8);
            int k = kernel_of(w->g->m, fa);
            uint32_t err = CDP_INVALID_DEVICE_FUNCTION;
            uint64_t a = 0;
            if (k >= 0) a = get_buffer(w, c, k, w->g->m->ptx->funcs[k].param_bytes, 64, &err);
            if (a) {
                cdp_buf *bb = &c->b[c->nb - 1];
                for (uint32_t j = 0; j < 3; j++) {
                    bb->grid[j] = arg_u32_at(w, in, l, 1, 4 * j);
                    bb->block[j] = arg_u32_at(w, in, l, 2, 4 * j);
                }
                bb->shared = (uint32_t)exec_call_arg(w, in, l, 3, 4);
            }
            err_set(c, w, l, err);
            exec_call_ret(w, in, l, a, 8);
        });
        exec_progress(w);
        return true;
    }
    if (strcmp(b, "GetParameterBuffer") == 0) {
        EXEC_LANES(mask, {
            uint64_t align = exec_call_arg(w, in, l, 0, 8), size = exec_call_arg(w, in, l, 1, 8);
            uint32_t err;
            uint64_t a = get_buffer(w, c, -1, size, align, &err);
            err_set(c, w, l, err);
            exec_call_ret(w, in, l, a, 8);
        });
        exec_progress(w);
        return true;
    }
    if (strcmp(b, "LaunchDeviceV2") == 0) {
        EXEC_LANES(mask, {
            uint32_t err = launch(w, c, exec_call_arg(w, in, l, 0, 8), exec_call_arg(w, in, l, 1, 8));
            err_set(c, w, l, err);
            exec_call_ret(w, in, l, err, 4);
        });
        return true;
    }
    if (strcmp(b, "LaunchDevice") == 0) {
        /* (func, buffer, dim3 grid, dim3 block, shared, stream) */
        EXEC_LANES(mask, {
            uint64_t fa = exec_call_arg(w, in, l, 0, 8), addr = exec_call_arg(w, in, l, 1, 8);
            int k = kernel_of(w->g->m, fa);
            uint32_t err = CDP_INVALID_DEVICE_FUNCTION;
            if (k >= 0) {
                for (uint32_t i = 0; i < c->nb; i++)
                    if (c->b[i].addr == addr) {
                        c->b[i].kernel = k;
                        for (uint32_t j = 0; j < 3; j++) {
                            c->b[i].grid[j] = arg_u32_at(w, in, l, 2, 4 * j);
                            c->b[i].block[j] = arg_u32_at(w, in, l, 3, 4 * j);
                        }
                        c->b[i].shared = (uint32_t)exec_call_arg(w, in, l, 4, 4);
                    }
                err = launch(w, c, addr, exec_call_arg(w, in, l, 5, 8));
            }
            err_set(c, w, l, err);
            exec_call_ret(w, in, l, err, 4);
        });
        return true;
    }
    if (strcmp(b, "GetLastError") == 0 || strcmp(b, "PeekAtLastError") == 0) {
        bool clear = b[0] == 'G';
        EXEC_LANES(mask, { exec_call_ret(w, in, l, err_get(c, w, l, clear), 4); });
        return true;
    }
    if (strcmp(b, "StreamCreateWithFlags") == 0 || strcmp(b, "EventCreateWithFlags") == 0) {
        bool ok = true;
        EXEC_LANES(mask, {
            uint64_t h = CDP_HANDLE_BASE + c->next_handle++;
            if (ok && !put_u64(w, l, exec_call_arg(w, in, l, 0, 8), h, 8)) ok = false;
            exec_call_ret(w, in, l, CDP_OK, 4);
        });
        exec_progress(w);
        return ok;
    }
    if (strcmp(b, "StreamDestroy") == 0 || strcmp(b, "EventDestroy") == 0 || strcmp(b, "EventRecord") == 0 ||
        strcmp(b, "StreamWaitEvent") == 0) {
        /* every launch runs after its grid in launch order: ordering through
        ** events holds already */
        EXEC_LANES(mask, { exec_call_ret(w, in, l, CDP_OK, 4); });
        return true;
    }
    if (strcmp(b, "GetDevice") == 0 || strcmp(b, "GetDeviceCount") == 0 || strcmp(b, "RuntimeGetVersion") == 0) {
        uint64_t v = b[0] == 'R' ? 13000 : strcmp(b, "GetDevice") == 0 ? 0 : 1;
        bool ok = true;
        EXEC_LANES(mask, {
            if (ok && !put_u64(w, l, exec_call_arg(w, in, l, 0, 8), v, 4)) ok = false;
            exec_call_ret(w, in, l, CDP_OK, 4);
        });
        exec_progress(w);
        return ok;
    }
    if (strcmp(b, "DeviceGetAttribute") == 0) {
        /* (int *value, cudaDeviceAttr attr, int device) */
        bool ok = true;
        EXEC_LANES(mask, {
            uint32_t a = (uint32_t)exec_call_arg(w, in, l, 1, 4), dv = (uint32_t)exec_call_arg(w, in, l, 2, 4);
            uint32_t err = dv != 0 ? CDP_INVALID_DEVICE : a < c->nattr && c->attr_ok[a] ? CDP_OK : CDP_INVALID_VALUE;
            if (!err && ok && !put_u64(w, l, exec_call_arg(w, in, l, 0, 8), (uint32_t)c->attr[a], 4)) ok = false;
            err_set(c, w, l, err);
            exec_call_ret(w, in, l, err, 4);
        });
        exec_progress(w);
        return ok;
    }
    if (strcmp(b, "Malloc") == 0) {
        exec_grid *g = w->g;
        bool ok = true;
        EXEC_LANES(mask, {
            uint64_t n = exec_call_arg(w, in, l, 1, 8), p = 0;
            if (g->heap_used + n <= g->heap_limit) {
                p = exec_mem_alloc(g->dev, n ? n : 1, 256);
                if (p) g->heap_used += n;
            }
            if (ok && !put_u64(w, l, exec_call_arg(w, in, l, 0, 8), p, 8)) ok = false;
            exec_call_ret(w, in, l, p ? CDP_OK : CDP_MEMORY_ALLOCATION, 4);
            err_set(c, w, l, p ? CDP_OK : CDP_MEMORY_ALLOCATION);
        });
        exec_forget_windows(g);
        exec_progress(w);
        return ok;
    }
    if (strcmp(b, "Free") == 0) {
        exec_grid *g = w->g;
        EXEC_LANES(mask, {
            uint64_t p = exec_call_arg(w, in, l, 0, 8), base, bytes;
            uint32_t err = CDP_OK;
            if (p && exec_mem_find(g->dev, p, &base, &bytes) && base == p) {
                exec_mem_free(g->dev, p);
                g->heap_used -= bytes < g->heap_used ? bytes : g->heap_used;
            } else if (p) {
                err = CDP_INVALID_VALUE;
            }
            err_set(c, w, l, err);
            exec_call_ret(w, in, l, err, 4);
        });
        exec_forget_windows(g);
        exec_progress(w);
        return true;
    }
    exec_fault(w, __builtin_ctz(mask), EXEC_ERR_UNSUPPORTED,
               "device runtime call '%s' (dynamic parallelism) is not supported by tpsim; supported: kernel launches "
               "(cudaGetParameterBuffer[V2], cudaLaunchDevice[V2]), cudaGetLastError, cudaPeekAtLastError, "
               "cudaStreamCreateWithFlags, cudaStreamDestroy, cudaStreamWaitEvent, cudaEvent{CreateWithFlags,Record,"
               "Destroy}, cudaMalloc, cudaFree, cudaGetDevice, cudaGetDeviceCount, cudaRuntimeGetVersion, "
               "cudaDeviceGetAttribute",
               name);
    return false;
}
