/*
** api.h -- the internals of tpsim's CUDA driver API (libcuda.so.1).
** Module prefix: api_ (internal names); the exported names are CUDA's own.
**
** The library is a thin, strict front end over exec/: it keeps the driver's
** objects (contexts, modules, functions, streams, events, allocations,
** graphs, memory pools), checks every argument the way NVIDIA's driver
** does, and hands the work it accepts to the one simulated device.
**
** Objects.  CUcontext, CUmodule, CUfunction, CUstream, CUevent, CUlinkState,
** CUlibrary, CUarray, CUgraph, CUgraphNode, CUgraphExec and CUmemoryPool
** point to the structs below; texture and surface
** objects are exec/'s handles, kept in their context's texobjs map.  Every live object is entered in
** a handle table with its kind, so a stale or made-up handle is recognised
** (CUDA_ERROR_INVALID_HANDLE / INVALID_CONTEXT) without being dereferenced.
** A CUkernel is the CUfunction of a library's module (CUDA lets a CUkernel
** be passed wherever a CUfunction is taken).  Context structs are never
** freed: a destroyed context stays in the table marked dead, so a thread
** that still has it current gets CUDA_ERROR_CONTEXT_IS_DESTROYED.  Streams
** and events are reference-counted: destroying one with work pending
** removes its handle at once and frees it when the work is done, as CUDA
** allows.
**
** Device work (queue.c).  Everything CUDA orders in a stream -- kernels,
** copies, memsets, host functions and callbacks, event records and waits,
** stream-ordered frees, graph launches -- is checked when it is issued and
** becomes an operation (api_op) holding what it needs (the kernel's
** parameters copied, both sides of a copy resolved).  Operations run on the
** device in issue order; a stream is an ordering of its own operations and
** the legacy default stream waits for (and is waited for by) every blocking
** stream, as in CUDA.  A stream that is capturing turns the same work into
** graph nodes instead (capture.c).
**
** Threads and locking.  With stream.async=1 (the default) a device thread
** runs the operations while the program goes on; with 0 the issuing thread
** runs them before the call returns.  Three locks, always taken in this order:
**   1. the API lock (api_lock): a mutex, recursive per thread, around every
**      entry point; it guards every api/ object and the queue.  A call that
**      waits (synchronize, a blocking copy) releases it while it waits.
**   2. the device lock (api_dev_lock): held by whoever calls into exec/ or
**      gpu/ -- the device thread while it runs one operation, the API for
**      the moments it changes the device (allocations, modules, textures).
**      The device thread never takes the API lock while it holds this one.
**   3. fail.c's and stats.c's own short sections.
** Host functions and callbacks run on the device thread (the issuing thread
** with stream.async=0) holding neither lock; a CUDA call from one that would
** wait for the device returns CUDA_ERROR_NOT_PERMITTED, as CUDA does.  The
** current-context stack is per thread.
**
** Determinism.  What the device does never depends on host timing: the
** operations run in one order, fixed by the order of the calls that issued
** them (within a run of launches on streams of different priorities, by
** priority -- see queue.c); allocations that the device makes (device-side
** malloc) come from their own region of device memory; a kernel's error
** becomes visible to the program only at a call that waits for the kernel
** (or a query that finds it done), which returns it from then on (sticky);
** device printf output reaches stdout when the program synchronizes.
**
** Failures.  An entry point that refuses a call says why in words with the
** numbers (api_why, api_why_kernel); API_LOCKED records every error that
** reaches the program (fail.c), and `tpsim run` prints them at exit.
**
** Time.  Each context has a simulated clock in core cycles (clock.core_mhz).
** A kernel adds its cycles: in performance mode the timing model's, in
** functional mode an estimate, ceil(warp instructions / device.num_sms) --
** every SM issuing one warp instruction per cycle.  Nothing else advances
** it.  Events record that clock when the device reaches them;
** cuEventElapsedTime converts cycles at clock.core_mhz.  Wall time never
** enters a simulated quantity.
*/
#ifndef API_H
#define API_H

#include "../base/tp.h"
#include "../base/sbuf.h"
#include "../base/stats.h"
#include "../base/map.h"
#include "../exec/exec.h"
#include "../exec/options.h"
#include "../gpu/options.h"
#include "../gpu/gpu.h"
#include "../regmutex/policy.h"

/* Every function cuda.h declares is exported (default visibility); the
** version script api/libcuda.map then keeps only cu* names global. */
#pragma GCC visibility push(default)
#include "include/cuda.h"
#pragma GCC visibility pop

#include <pthread.h>


#define API_DRIVER_VERSION 13000
#define API_CTX_API_VERSION 3020
#define API_EXPORT __attribute__((visibility("default")))
#define API_CAT2(a, b) a##b
#define API_CAT(a, b) API_CAT2(a, b)
/* Exports another symbol name for an already defined function (the
** _ptds/_ptsz twins and the older versions that kept the signature). */
#define API_ALIAS(target, sym)                                                 \
    extern __typeof__(target) API_CAT(api_alias_, __LINE__) __asm__(sym)        \
        __attribute__((alias(#target), visibility("default")))

/* ---- handle kinds and objects ---------------------------------------------- */

enum api_kind {
    API_K_CTX = 1, API_K_MOD, API_K_FUNC, API_K_STREAM, API_K_EVENT, API_K_LINK, API_K_LIB, API_K_ARRAY,
    API_K_GRAPH, API_K_GNODE, API_K_GEXEC, API_K_POOL, API_K_MIPMAP
};


typedef struct CUstream_st api_stream;
typedef struct CUevent_st api_event;
typedef struct CUmod_st api_mod;
typedef struct CUfunc_st api_func;
typedef struct CUctx_st api_ctx;
typedef struct CUlib_st api_lib;
typedef struct CUarray_st api_array;
typedef struct CUgraph_st api_graph;
typedef struct CUgraphNode_st api_gnode;
typedef struct CUgraphExec_st api_gexec;
typedef struct CUmemPoolHandle_st api_pool;
typedef struct api_op api_op;
typedef struct api_capture api_capture;

/* A kernel error the device met, waiting for the program to see it (at a
** call that waits for the kernel; api_ctx_result). */
typedef struct api_async_err {
    CUresult r;          /* CUDA_SUCCESS: none */
    uint64_t seq;        /* the operation that met it */
    bool sticky;
    char *why, *kernel;
} api_async_err;

struct CUstream_st {
    api_ctx *ctx;
    unsigned flags;
    int priority;
    uint64_t id;
    bool implicit;       /* the context's legacy stream or a thread's per-thread stream */
    bool legacy;         /* the legacy default stream (CU_STREAM_LEGACY, NULL) */
    bool dead;           /* destroyed by the program; freed when its work is done */
    uint32_t refs;       /* 1 for the handle (unless dead) + one per operation */
    uint32_t npending;   /* operations issued and not done */
    uint64_t last_seq;   /* the sequence number of its newest operation */
    api_op *last;        /* its newest operation in the open batch (queue.c), else NULL */
    api_capture *cap;    /* the capture it takes part in (capture.c), else NULL */
    api_gnode **cap_deps;/* capturing: the nodes its next work depends on */
    uint32_t ncap_deps, capcap_deps;
    /* attributes kept for cuStreamGetAttribute (scheduling hints only) */
    CUsynchronizationPolicy sync_policy;
    CUaccessPolicyWindow window;
    CUlaunchMemSyncDomainMap domain_map;
    CUlaunchMemSyncDomain domain;
    api_stream *next, *prev;
};
typedef struct CUmipmappedArray_st api_mipmap;

struct CUctx_st {
    uint64_t id;
    unsigned flags;
    bool primary;        /* the device's primary context */
    bool dead;           /* destroyed (or a primary context not active) */
    unsigned refs;       /* primary: retain count */
    CUresult sticky;     /* an error that poisons the context (illegal address...), as the program has seen it */
    char *sticky_why;    /* its reason, and the kernel */
    char *sticky_kernel;
    api_async_err pending; /* an error the device met that the program has not seen yet */
    bool faulted;        /* the device met a sticky error: later work of the context is skipped */
    uint64_t epoch;      /* bumped at each teardown (per-thread streams of the old life are gone) */
    size_t limits[CU_LIMIT_MAX];
    CUfunc_cache cache_cfg;
    CUsharedconfig shmem_cfg;
    uint64_t clock;      /* simulated core cycles of the work done so far */
    uint32_t npending;   /* operations issued and not done */
    uint32_t prio_streams; /* live streams with a priority other than 0 (queue.c holds their work) */
    api_stream legacy;   /* the legacy default stream */
    api_mod *mods;       /* loaded modules (list) */
    api_stream *streams;
    api_event *events;
    api_array *arrays;   /* CUDA arrays (list), mipmap levels included */
    api_mipmap *mipmaps; /* mipmapped arrays (list) */
    tp_map texobjs;      /* texture/surface object handle -> api_texobj */
};

struct CUmod_st {
    api_ctx *ctx;
    exec_mod *em;
    const ptx_module *pm;
    api_func **funcs;    /* one per kernel, in module order */
    uint32_t nfuncs;
    api_lib *lib;        /* the library that owns it, if any */
    api_mod *next, *prev;
};

struct CUfunc_st {
    api_mod *mod;
    int kidx;            /* exec/ kernel index (ptx function index) */
    const ptx_func *pf;
    exec_kattr attr;
    uint32_t max_dyn_shared;   /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
    int carveout;              /* CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT */
    CUfunc_cache cache_cfg;
    CUsharedconfig shmem_cfg;
};

struct CUevent_st {
    api_ctx *ctx;
    unsigned flags;
    bool recorded;       /* recorded at least once (by the device) */
    bool dead;           /* destroyed by the program; freed when no operation refers to it */
    uint32_t refs;       /* 1 for the handle (unless dead) + one per operation or graph node */
    uint64_t gen;        /* records issued so far (the newest is the one that counts) */
    uint64_t done_gen;   /* the newest record the device has reached */
    uint64_t clock;      /* the context's clock at that record */
    uint64_t rec_seq;    /* the sequence number of the operation of its newest record */
    api_op *last;        /* the operation of its newest record if in the open batch (queue.c) */
    /* recorded in a capturing stream: the capture and the nodes it stands for */
    api_capture *cap;
    api_gnode **cap_nodes;
    uint32_t ncap_nodes;
    api_event *next, *prev;
};

struct CUlib_st {
    api_mod *mod;
    bool retained_primary;     /* the library holds a primary context reference */
};

/* A CUDA array: device memory in pitch-linear layout (texture.c). */
struct CUarray_st {
    api_ctx *ctx;
    CUDA_ARRAY3D_DESCRIPTOR desc;   /* Height and Depth 0 for 1D and 2D arrays, as given */
    uint64_t addr;       /* element (0, 0, 0) */
    uint64_t pitch;      /* bytes per row: Width * elem */
    uint32_t elem;       /* bytes per element */
    api_mipmap *owner;   /* the mipmapped array this is a level of, or NULL */
    api_array *next, *prev;
};

/* A mipmapped array: one array per level (texture.c). */
struct CUmipmappedArray_st {
    api_ctx *ctx;
    CUDA_ARRAY3D_DESCRIPTOR desc;   /* of level 0 */
    uint32_t nlevels;
    api_array *level[EXEC_TEX_MAX_LEVELS];
    api_mipmap *next, *prev;
};

/* ---- allocations ------------------------------------------------------------ */

/* API_MEM_ARRAY: the memory of a CUDA array (freed with it);
** API_MEM_REGISTERED: host memory made device-accessible by cuMemHostRegister;
** API_MEM_POOL: a block of a memory pool (pool.c), handed out by
** cuMemAllocAsync and given back by cuMemFreeAsync;
** API_MEM_GRAPH: the memory of a graph's allocation node (graph.c). */
typedef enum api_mem_kind {
    API_MEM_DEVICE = 1, API_MEM_HOST, API_MEM_MANAGED, API_MEM_ARRAY, API_MEM_REGISTERED, API_MEM_POOL,
    API_MEM_GRAPH
} api_mem_kind;

typedef struct api_alloc {
    uint64_t base, size;
    api_mem_kind kind;
    unsigned flags;      /* cuMemHostAlloc flags / cuMemAllocManaged flags */
    uint64_t id;         /* CU_POINTER_ATTRIBUTE_BUFFER_ID */
    api_ctx *ctx;
    api_pool *pool;      /* API_MEM_POOL: its pool */
    bool in_use;         /* API_MEM_POOL, API_MEM_GRAPH: handed out and not freed */
    uint64_t free_seq;   /* API_MEM_POOL: given back by the operation of this sequence number */
    api_stream *free_stream; /* ... on this stream (may be reused there at once) */
    uint32_t grefs;      /* API_MEM_GRAPH: the allocation node and executable graphs holding it */
    api_gexec *gexec;    /* API_MEM_GRAPH: the executable graph instantiated with it, if any */
} api_alloc;

/* ---- device work (queue.c) -----------------------------------------------------
** A unit of device work, as a stream operation or a graph node holds it: all
** checked and resolved when it was issued, so running it needs nothing else. */

typedef enum api_work_kind {
    API_W_NOP,       /* ordering only: an empty node, an event wait, a stream-ordered allocation */
    API_W_KERNEL,
    API_W_COPY,
    API_W_MEMSET,
    API_W_HOST,      /* cuLaunchHostFunc, a host node */
    API_W_CALLBACK,  /* cuStreamAddCallback: gets the stream and its status */
    API_W_RECORD,    /* an event record */
    API_W_GRAPH,     /* an executable graph's launch */
    API_W_MEMFREE,   /* a stream-ordered free or a graph's free node: the block is free from here on */
    API_W_MEMALLOC,  /* a graph's allocation node: the block is in use from here on */
} api_work_kind;

/* A kernel launch. */
typedef struct api_kwork {
    api_func *f;
    uint32_t grid[3], block[3], shared;
    uint8_t *params;     /* the parameter buffer (owned) */
    uint32_t pbytes;
    bool cooperative;
    size_t stack, heap;  /* the launching context's limits */
    api_event *completion;   /* CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT (a reference), or NULL */
    uint64_t completion_gen;
} api_kwork;

/* A copy of depth slices of rows rows of width bytes (device memory is
** host-addressable, so both sides are plain pointers). */
typedef struct api_cwork {
    uint8_t *dst, *src;
    uint64_t dpitch, dslice, spitch, sslice;
    uint64_t width, rows, depth;
    bool to_device;      /* from host memory into device memory: the timing model's L2 sees it */
} api_cwork;

typedef struct api_swork {
    uint8_t *dst;
    uint64_t pitch, width, height;   /* width in elements */
    uint32_t value;
    uint32_t esz;        /* 1, 2 or 4 */
} api_swork;

typedef struct api_work {
    api_work_kind kind;
    union {
        api_kwork k;
        api_cwork c;
        api_swork s;
        struct { CUhostFn fn; void *user; } host;
        struct { CUstreamCallback fn; void *user; CUstream stream; } cb;
        struct { api_event *ev; uint64_t gen; } rec;   /* ev: a reference */
        struct { api_gexec *gx; uint64_t *gens; } graph;   /* gens: one per record node of the launch */
        struct { api_alloc *a; } mem;
    } u;
} api_work;

/* Frees what a work owns (parameters, references). */
void api_work_free(api_work *w);
/* Runs w on the device for context c, holding no lock (takes the device
** lock for what touches exec/ and gpu/, the API lock to record results);
** skips it when the context has faulted. */
void api_work_run(api_ctx *c, api_work *w, api_stream *s);

/* A stream operation: issued by the API, run by the device. */
struct api_op {
    api_work w;
    api_ctx *ctx;
    api_stream *stream;  /* a reference (the context's legacy stream for the default one) */
    uint64_t seq;        /* issue order */
    uint64_t batch;      /* submission (queue.c) */
    int prio;
    api_op **deps;       /* operations of the same batch that must finish first */
    uint32_t ndeps;
    uint32_t refs;       /* the queue's + waiters' */
    bool done, running;
    api_op *next;
};

/* ---- per-launch record (TPSIM_STATS) ------------------------------------------ */

typedef struct api_launch_rec {
    char *name;
    uint32_t grid[3], block[3];
    uint32_t shared_dyn, regs;
    uint32_t regs_model, regs_cubin_sm; /* the model's count; the cubin regs came from (0: regs is the model's) */
    uint64_t launches;     /* 1: the summary's launches column sums it (stats.c) */
    uint64_t warp_insns, thread_insns, cycles;
    CUresult status;
    char *status_name, *mode;   /* status: a CUresult name, or the runtime's cudaError_t name for a launch it refused */
    char *reason;          /* a failed or refused launch: why, in words (else NULL) */
    gpu_kstats *perf;      /* performance mode: the timing model's statistics (owned) */
    struct api_checks_rec *checks; /* with correctness checks on: the launch's findings (checks.c; owned) */
    uint64_t order, tie;   /* where it comes in issue order (stats.c sorts by these: the device
                              thread's launches and refused ones interleave by host timing) */
} api_launch_rec;

/* ---- the process-wide state --------------------------------------------------- */

typedef struct api_state {
    bool initialized;      /* cuInit succeeded */
    tp_opts opts;          /* the resolved configuration */
    exec_dev *dev;         /* created with the first context */
    api_ctx primary;       /* device 0's primary context (dead until retained) */
    uint64_t next_id;      /* context/stream/buffer ids */
    tp_map handles;        /* live handle -> (void *)kind */
    tp_map allocs;         /* allocation base -> api_alloc */
    gpu *gpu;              /* the timing model (performance mode), made at the first timed launch */
    /* the index of device memory the API checks ranges against (memory.c): sorted by base */
    struct api_range *ranges;
    uint32_t nranges, capranges;
    uint64_t coop_ws;      /* the grid workspace of cooperative launches (made at the first) */
    /* the queue (queue.c) */
    api_op *q_head, *q_tail;     /* submitted operations in issue order (done ones until their batch is) */
    api_op *open_head, *open_tail; /* the open batch: held, not yet submitted */
    uint32_t nopen;
    uint64_t next_seq, next_batch;
    bool async;            /* stream.async */
    /* memory pools (pool.c) and graph memory (graph.c) */
    api_pool *pools;       /* every pool; the first is the device's default pool */
    api_pool *cur_pool;    /* cuDeviceSetMemPool */
    uint64_t gmem_used, gmem_used_high, gmem_reserved, gmem_reserved_high;
    /* statistics */
    char *stats_path;      /* TPSIM_STATS */
    api_launch_rec *launches;
    uint32_t nlaunches, caplaunches;
    struct api_ksum *ksums;   /* per kernel name: the summary's rows (stats.c) */
    uint32_t nksums;
    char *summary_path;       /* TPSIM_SUMMARY: where `tpsim run` wants the text summary */
    uint64_t launches_total, launches_failed, launches_dropped;
    uint64_t warp_insns, thread_insns, cycles;
    double t_start, t_launch;  /* host seconds (monotonic) */
} api_state;

extern api_state api_g;

/* The API lock (recursive per thread; see the top of this file). */
void api_lock(void);
void api_unlock(void);
/* Gives up every level of the calling thread's hold (returns how many) and
** takes them back. */
int api_unlock_all(void);
void api_relock(int depth);
/* Waits on cv, giving up the API lock (every level) meanwhile. */
void api_cond_wait(pthread_cond_t *cv);
/* The device lock: around every call into exec/ and gpu/ that touches the
** device's state (memory, modules, textures, the timing model). */
void api_dev_lock(void);
void api_dev_unlock(void);
/* The body of every exported entry point: `API_LOCKED(impl(args));` runs
** impl under the lock and returns its result; when the outermost entry
** point of the calling thread returns an error, fail.c records it with the
** entry point's name (__func__) and the address it was called from. */
#define API_LOCKED(call)                                                       \
    do {                                                                       \
        api_enter();                                                           \
        CUresult api_r_ = (call);                                              \
        return api_leave(__func__, api_r_, __builtin_return_address(0));       \
    } while (0)
void api_enter(void);
CUresult api_leave(const char *fn, CUresult r, const void *caller);

/* Host seconds since an arbitrary origin (CLOCK_MONOTONIC). */
double api_now(void);

/* Prints "tpsim: message" on stderr. */
void api_msg(const char *fmt, ...) TP_PRINTF(1, 2);
/* An entry point tpsim does not implement, called from caller: prints
** "tpsim: NAME is not supported yet" once per name (naming the library that
** called it when that is not the program), records the failure and returns
** CUDA_ERROR_NOT_SUPPORTED. */
CUresult api_unsupported(const char *name, int *once, const void *caller);

/* ---- failures (fail.c) -----------------------------------------------------------
** The reason the current call fails, in words with the numbers ("block of
** 1024 threads x 64 registers needs 65536 registers, the device allows
** 32768 per block"); the first reason set in a call is kept.  A call that
** gives none is recorded with its error's description. */
void api_why(const char *fmt, ...) TP_PRINTF(1, 2);
/* The kernel the current call is about. */
void api_why_kernel(const char *name);
/* The current call's reason so far, or NULL. */
const char *api_why_text(void);
/* The generation of the device's limits, for messages: "Turing", "Fermi". */
static inline const char *api_arch(void) { return tp_opt_s(&api_g.opts, OPT_DEVICE_ARCH); }
/* Records a failure: entry point (a _vN/_ptds/_ptsz suffix is dropped),
** error name, kernel or NULL, reason, and the address it was called from
** (naming the calling library when it is not the program). */
void api_fail_add(const char *api, const char *error, const char *kernel, const char *why, const void *caller);

typedef struct api_fail {
    char *api, *error, *kernel, *lib, *why;   /* kernel and lib may be NULL */
    uint64_t count;
} api_fail;
/* The failures recorded so far, in first-seen order; *unlisted counts those
** past the list's limit. */
const api_fail *api_fail_list(uint32_t *n, uint64_t *unlisted);
/* Registers the list in s (absolute): "failures", a table of api, error,
** kernel, caller, reason, count (stats.c dumps it). */
void api_fail_register(tp_stats *s);
/* The private table of rtiface.h. */
const void *api_rtiface_table(void);

/* ---- handles ----------------------------------------------------------------- */

void api_handle_add(const void *p, enum api_kind k);
void api_handle_del(const void *p);
bool api_handle_is(const void *p, enum api_kind k);

/* ---- checks shared by the entry points ---------------------------------------
** Each returns CUDA_SUCCESS or the error the driver gives. */

CUresult api_check_init(void);
CUresult api_check_dev(CUdevice d);        /* initialized and d == 0 */
/* The calling thread's current context: NOT_INITIALIZED, INVALID_CONTEXT
** (none), CONTEXT_IS_DESTROYED, or -- with sticky -- the context's sticky
** error.  *c is set whenever a live context is current. */
CUresult api_current(api_ctx **c, bool sticky);
/* A context handle given as an argument (NULL: the current one). */
CUresult api_ctx_arg(CUcontext h, api_ctx **c);
/* A stream argument of context c: NULL, CU_STREAM_LEGACY and
** CU_STREAM_PER_THREAD name the default stream (*s = NULL). */
CUresult api_stream_arg(api_ctx *c, CUstream h, api_stream **s);
/* Any stream argument: its context and stream (see stream.c). */
CUresult api_stream_of(CUstream h, api_ctx **c, api_stream **s);
/* Creates the simulated device on first need. */
CUresult api_need_dev(void);

/* ---- context internals (context.c) -------------------------------------------- */

void api_ctx_stack_remove(api_ctx *c);     /* from the calling thread's stack */
void api_ctx_teardown(api_ctx *c);         /* frees everything the context owns */
CUresult api_primary_retain(api_ctx **out);
CUresult api_primary_release(void);
/* Sets a device option on the live device (exec.stack_bytes ...). */
bool api_dev_set_opt(const char *name, uint64_t value);

/* ---- modules (module.c) ------------------------------------------------------- */

void api_mod_destroy(api_mod *m);
/* The function handle h (a CUfunction or a library's CUkernel). */
CUresult api_func_arg(CUfunction h, api_func **f);
/* Links n PTX modules (texts[i] of lens[i] bytes, named names[i] in
** messages) into one PTX text (ptxlink.c); NULL with a malloc'ed reason in
** *why when two modules define the same symbol or a text is cut short. */
char *api_ptx_link(const char *const *texts, const size_t *lens, const char *const *names, unsigned n, char **why);

/* ---- memory (memory.c) ------------------------------------------------------- */

void api_alloc_free_ctx(api_ctx *c);       /* frees every allocation of c */
api_alloc *api_alloc_find(uint64_t addr);  /* the api allocation containing addr */
/* Allocates device memory of the given kind for context c (zeroed). */
CUresult api_alloc_new(api_ctx *c, uint64_t bytes, api_mem_kind kind, unsigned flags, uint64_t *out);
void api_alloc_release(api_alloc *a);

/* The index of device memory (allocations and module variables) the API
** checks ranges against without touching exec/ (whose table the device
** thread may be changing).  Device-side malloc's blocks are not in it: CUDA
** calls may not use them. */
typedef struct api_range {
    uint64_t base, size;
    api_alloc *a;        /* NULL for a module variable */
} api_range;
void api_range_add(uint64_t base, uint64_t size, api_alloc *a);
void api_range_del(uint64_t base);
/* The range containing addr (a 0-byte allocation contains its base). */
const api_range *api_range_find(uint64_t addr);
/* [addr, addr + n) inside one range (n > 0): its host pointer, else NULL. */
void *api_range_host(uint64_t addr, uint64_t n);
/* Runs a copy or a memset on the device (api_work_run). */
void api_copy_run(const api_cwork *c);
void api_memset_run(const api_swork *s);
/* Resolves a CUDA_MEMCPY3D into a copy (checked as cuMemcpy3D checks it). */
CUresult api_copy3d_work(const CUDA_MEMCPY3D *c3, api_cwork *out);
/* Checks a memset (cuMemsetD2D*) into a work. */
CUresult api_memset_work(uint64_t dst, uint64_t pitch, uint32_t value, unsigned esz, uint64_t width,
                         uint64_t height, api_swork *out);
/* ---- launches (launch.c) and dynamic parallelism (cdp.c) --------------------------- */

/* Hands every device attribute to exec/ for device code (device.c). */
void api_dev_attributes_to_exec(void);
/* check_dims of a host launch, for a device launch. */
CUresult api_launch_check(const api_func *f, const uint32_t grid[3], const uint32_t block[3], uint32_t shared);
/* After a grid that ended with r: runs (r == 0) or drops the grids it
** launched, depth first, tail launches last; returns r or a child's sticky error. */
CUresult api_cdp_children(api_ctx *c, CUresult r, uint32_t pending);
/* Is this fatbinary (its PTX for the device, or NULL) the CUDA device runtime
** (libcudadevrt), whose entry points tpsim provides itself? */
bool api_cdp_is_devrt(const void *fatbin, size_t size, const char *ptx);

/* ---- arrays, texture and surface objects (texture.c) ------------------------------ */

/* The array handle h of a live context. */
CUresult api_array_arg(CUarray h, api_array **a);
void api_tex_free_ctx(api_ctx *c);         /* destroys c's arrays and texture/surface objects */

/* ---- streams and events (stream.c) ---------------------------------------------- */

void api_stream_destroy(api_stream *s);
/* An access-policy window (stream or launch attribute) the device takes:
** num_bytes up to device.access_policy_max_window (0 on devices without
** one, below compute capability 8.0; an empty window always passes), a hit
** ratio in [0, 1], known properties, and a miss that does not persist. */
CUresult api_window_check(const CUaccessPolicyWindow *w);
void api_event_destroy(api_event *e);
/* Drop a reference (an operation's or a node's); the last frees a dead one. */
void api_stream_unref(api_stream *s);
void api_event_unref(api_event *e);
/* The calling thread's per-thread default stream in c (made on first use). */
api_stream *api_ptds(api_ctx *c);

/* ---- the queue (queue.c) ------------------------------------------------------------
** How work reaches the device; the waits that make its results (and errors)
** visible to the program. */

/* Issues w on stream s of c (NULL: the legacy default stream).  A capturing
** stream turns it into a graph node (capture.c); otherwise it becomes an
** operation, which waits for the newest record of each of the nwaits events
** (cuStreamWaitEvent, a graph's wait nodes).  On success what w owns belongs
** to the queue (or the graph) and, when op is given, *op receives a reference
** to the operation (NULL if captured) for api_wait_op.  On failure w is left
** to the caller. */
CUresult api_issue(api_ctx *c, api_stream *s, api_work *w, api_event *const *waits, uint32_t nwaits, api_op **op);
/* The waits.  Each first hands the device whatever is held, waits, flushes
** device printf output and returns the context's error that the wait makes
** visible (api_ctx_result): a kernel error of work issued up to the awaited
** point.  From a host function or stream callback they refuse
** (CUDA_ERROR_NOT_PERMITTED). */
CUresult api_wait_op(api_op *op);          /* drops the reference */
CUresult api_wait_stream(api_ctx *c, api_stream *s);
CUresult api_wait_event(api_event *e);
CUresult api_wait_ctx(api_ctx *c);
/* Waits until the device has nothing of c to do (every context: NULL)
** before its memory or modules go away; errors stay for a later wait. */
void api_drain(api_ctx *c);
/* Queries: CUDA_ERROR_NOT_READY while work is pending, else as a wait. */
CUresult api_query_stream(api_ctx *c, api_stream *s);
CUresult api_query_event(api_event *e);
/* The error the program may see now: a kernel error of c the device met in
** work issued up to sequence number seq becomes the result (sticky ones for
** good), else the context's sticky error. */
CUresult api_ctx_result(api_ctx *c, uint64_t seq);
/* The sequence number of the operation on the device (the device thread). */
uint64_t api_op_seq_running(void);
/* True on the device thread or inside a host function. */
bool api_in_device_work(void);
/* The FILE device printf writes to: buffered until a wait flushes it. */
FILE *api_print_file(void);
void api_print_flush(void);
/* Stream capture refuses what would synchronize (capture.c): NULL when the
** call may go on, else the error (the capture is invalidated). */
CUresult api_capture_sync_check(api_ctx *c, api_stream *s);

/* ---- graphs (graph.c) ---------------------------------------------------------------- */

api_graph *api_graph_new(api_ctx *c);
void api_graph_free(api_graph *g);
/* A node holding work w (taken over; W_NOP makes an empty node, W_RECORD an
** event record node), of the given type, depending on deps. */
CUresult api_gnode_add(api_graph *g, CUgraphNodeType type, api_work *w, api_gnode *const *deps, uint32_t ndeps,
                       api_gnode **out);
/* A graph memory allocation node of bytes (its block reserved now: *dptr). */
CUresult api_gnode_add_alloc(api_graph *g, uint64_t bytes, api_gnode *const *deps, uint32_t ndeps, api_gnode **out,
                             CUdeviceptr *dptr);
/* A wait node for event e. */
CUresult api_gnode_add_wait(api_graph *g, api_event *e, api_gnode *const *deps, uint32_t ndeps, api_gnode **out);
/* Whether `from` is `to` or one of its ancestors. */
bool api_gnode_reaches(const api_gnode *from, const api_gnode *to);
void api_gexec_unref(api_gexec *gx);
/* Calls fn for each event a launch of gx records (queue.c). */
void api_gexec_events(api_gexec *gx, api_op *op, void (*fn)(api_event *, api_op *));
/* Runs a launch of gx on the device (api_work_run). */
void api_gexec_run(api_ctx *c, api_gexec *gx, const uint64_t *gens, api_stream *s);
/* A graph allocation node's block: made for a node (grefs 1) ... */
CUresult api_gmem_new(api_ctx *c, uint64_t bytes, api_alloc **out);
void api_gmem_unref(api_alloc *a);
/* ... in use from its allocation node's launch to its free (at issue). */
void api_gmem_use(api_alloc *a, bool in_use);

/* ---- stream capture (capture.c) ------------------------------------------------------ */

/* Before work is issued on q: the legacy stream while a blocking stream of
** c captures is an implicit dependency (CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
** an invalidated capture refuses more work. */
CUresult api_capture_issue_check(api_ctx *c, api_stream *q);
/* Work issued on a capturing stream: a node after the stream's dependencies. */
CUresult api_capture_add(api_stream *q, api_work *w, api_event *const *waits, uint32_t nwaits);
/* cuMemAllocAsync on a capturing stream: an allocation node. */
CUresult api_capture_alloc(api_stream *q, uint64_t bytes, CUdeviceptr *dptr);
/* An event recorded in, or waited for from, a capturing stream. */
CUresult api_capture_record(api_ctx *c, api_stream *s, api_event *e, unsigned flags);
CUresult api_capture_wait_event(api_ctx *c, api_stream *s, api_event *e, unsigned flags);
void api_capture_invalidate(api_capture *cap);
/* A stream destroyed while it takes part in a capture: it leaves the capture,
** its work stays (and must have been joined back); the origin stream's
** destruction abandons the capture. */
void api_capture_stream_gone(api_stream *s);
/* A call CUDA calls potentially unsafe during capture (it may synchronize):
** refused under the capture modes that forbid it (the captures invalidated). */
CUresult api_capture_unsafe(api_ctx *c, const char *what);
void api_capture_ctx_gone(api_ctx *c);

/* ---- memory pools (pool.c) ------------------------------------------------------------ */

/* cuMemFreeAsync of a stream-ordered or graph allocation. */
CUresult api_free_async(api_ctx *c, api_stream *s, api_alloc *a);
/* A synchronization point that saw work up to seq of c (on stream s, or the
** whole context when s is NULL) done: pools release what they keep above
** their release threshold. */
void api_pool_sync(api_ctx *c, api_stream *s, uint64_t seq);
void api_pool_ctx_gone(api_ctx *c);

/* ---- launches (launch.c) ---------------------------------------------------- */

/* Blocks per SM for f at this block size and dynamic shared memory. */
int api_occupancy(const api_func *f, int block_threads, size_t dyn_shared);
/* CUDA error for an exec/ status; *sticky says whether it poisons the context. */
CUresult api_status_result(exec_status s, bool *sticky);

/* Performance mode: a host-to-device copy wrote [dst, dst + n) (launch.c):
** the timing model's L2 sees it (gpu_copy_in). */
void api_copied_in(uint64_t dst, uint64_t n);
/* The timing model, made on first use in performance mode (launch.c). */
gpu *api_gpu(void);

/* Checks a launch and fills k (the parameters copied); refused launches
** are listed in the statistics with their reason. */
typedef struct api_launch_req {
    CUfunction h;
    uint32_t grid[3], block[3];
    uint32_t shared;
    CUstream stream;
    void **params, **extra;
    bool cooperative;
    api_event *completion;   /* CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT */
} api_launch_req;
CUresult api_kernel_prepare(api_ctx *c, const api_launch_req *q, api_kwork *k);
/* Runs a kernel on the device (api_work_run). */
void api_kernel_run(api_ctx *c, api_kwork *k);

/* ---- statistics (stats.c) ------------------------------------------------------ */

void api_stats_init(void);                 /* reads TPSIM_STATS, registers atexit (once) */
/* Records a launch; takes ownership of perf (performance-mode statistics, or NULL). */
void api_stats_launch(const api_func *f, const exec_launch *l, const exec_result *r,
                      uint64_t cycles, CUresult status, double host_seconds, gpu_kstats *perf);
/* A launch refused before it ran: status is a CUresult, or (status_name
** non-NULL) the runtime's error. */
void api_stats_refused(const char *kernel, const uint32_t grid[3], const uint32_t block[3], uint32_t shared_dyn,
                       uint32_t regs, CUresult status, const char *status_name, const char *why);

/* ---- sampled timing across launches (sample.c; sample.mode=kernel|both) ---------------------- */

/* Whether this launch's group (kernel, grid, block, dynamic shared memory) is
** stable: then it runs functionally and api_sample_projection gives its record. */
bool api_sample_project(const api_func *f, const exec_launch *l);
/* A detailed launch that succeeded: its cycles per warp instruction join its group's. */
void api_sample_detailed(const api_func *f, const exec_launch *l, const exec_result *r, const gpu_kstats *ks);
/* The record of a projected launch r (run functionally), the GPU's clock advanced by its cycles. */
gpu_kstats *api_sample_projection(const api_func *f, const exec_launch *l, const exec_result *r);
/* Every performance-mode launch record (sample.mode not off), for the summary's sampling lines. */
void api_sample_note(const char *name, const gpu_kstats *ks);
/* Those lines (nothing when sampling is off). */
void api_sample_summary(tp_sbuf *b);

/* ---- correctness checks (checks.c) ------------------------------------------------ */

/* At cuInit: with a check on, prints the closing count per kind at exit. */
void api_checks_init(void);
/* The findings of the launch just recorded in k (nothing when checks are off). */
void api_checks_launch(api_launch_rec *k);
void api_checks_free(api_launch_rec *k);   /* a record not kept */
/* The statistics file: a launch's "checks" member, and the totals' (nothing when off). */
void api_checks_json(const api_launch_rec *k, tp_sbuf *b);
void api_checks_totals_json(tp_sbuf *b);

/* ---- errors (core.c) ------------------------------------------------------------ */

const char *api_result_name(CUresult r);   /* NULL if r is no CUresult */
const char *api_result_desc(CUresult r);   /* its description, NULL if r is no CUresult */

/* Option values of the configuration. */
static inline int64_t api_opt(int id) { return tp_opt_i(&api_g.opts, id); }

#endif
