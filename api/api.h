/*
** api.h -- the internals of tpsim's CUDA driver API (libcuda.so.1).
** Module prefix: api_ (internal names); the exported names are CUDA's own.
**
** The library is a thin, strict front end over exec/: it keeps the driver's
** objects (contexts, modules, functions, streams, events, allocations),
** checks every argument the way NVIDIA's driver does, and runs each
** operation synchronously on the one simulated device.
**
** Objects.  CUcontext, CUmodule, CUfunction, CUstream, CUevent, CUlinkState,
** CUlibrary and CUarray point to the structs below; texture and surface
** objects are exec/'s handles, kept in their context's texobjs map.  Every live object is entered in
** a handle table with its kind, so a stale or made-up handle is recognised
** (CUDA_ERROR_INVALID_HANDLE / INVALID_CONTEXT) without being dereferenced.
** A CUkernel is the CUfunction of a library's module (CUDA lets a CUkernel
** be passed wherever a CUfunction is taken).  Context structs are never
** freed: a destroyed context stays in the table marked dead, so a thread
** that still has it current gets CUDA_ERROR_CONTEXT_IS_DESTROYED.
**
** Locking.  One recursive mutex serialises every entry point (API_LOCKED);
** host callbacks (cuLaunchHostFunc, cuStreamAddCallback) run after it is
** released.  The current-context stack is per thread.
**
** Failures.  An entry point that refuses a call says why in words with the
** numbers (api_why, api_why_kernel); API_LOCKED records every error that
** reaches the program (fail.c), and `tpsim run` prints them at exit.
**
** Time.  Each context has a simulated clock in core cycles (clock.core_mhz).
** A kernel adds its cycles: in performance mode the timing model's, in
** functional mode an estimate, ceil(warp instructions / device.num_sms) --
** every SM issuing one warp instruction per cycle.  Nothing else advances
** it.  Events record that clock; cuEventElapsedTime converts cycles at
** clock.core_mhz.  Wall time never enters a simulated quantity.
*/
#ifndef API_H
#define API_H

#include "../base/tp.h"
#include "../base/sbuf.h"
#include "../base/stats.h"
#include "../exec/exec.h"
#include "../exec/options.h"
#include "../gpu/options.h"
#include "../gpu/gpu.h"
#include "../regmutex/regmutex.h"

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

enum api_kind { API_K_CTX = 1, API_K_MOD, API_K_FUNC, API_K_STREAM, API_K_EVENT, API_K_LINK, API_K_LIB, API_K_ARRAY,
                API_K_MIPMAP };

/* u64 -> pointer hash map (open addressing, linear probing). */
typedef struct api_map {
    uint64_t *keys;
    void **vals;
    uint32_t cap, n;   /* cap is a power of two or 0 */
} api_map;
void *api_map_get(const api_map *m, uint64_t key);
void api_map_put(api_map *m, uint64_t key, void *val);   /* val != NULL */
void *api_map_del(api_map *m, uint64_t key);            /* returns the old value */
void api_map_free(api_map *m);

typedef struct CUstream_st api_stream;
typedef struct CUevent_st api_event;
typedef struct CUmod_st api_mod;
typedef struct CUfunc_st api_func;
typedef struct CUctx_st api_ctx;
typedef struct CUlib_st api_lib;
typedef struct CUarray_st api_array;
typedef struct CUmipmappedArray_st api_mipmap;

struct CUctx_st {
    uint64_t id;
    unsigned flags;
    bool primary;        /* the device's primary context */
    bool dead;           /* destroyed (or a primary context not active) */
    unsigned refs;       /* primary: retain count */
    CUresult sticky;     /* an error that poisons the context (illegal address...) */
    size_t limits[CU_LIMIT_MAX];
    CUfunc_cache cache_cfg;
    CUsharedconfig shmem_cfg;
    uint64_t clock;      /* simulated core cycles of the work done so far */
    api_mod *mods;       /* loaded modules (list) */
    api_stream *streams;
    api_event *events;
    api_array *arrays;   /* CUDA arrays (list), mipmap levels included */
    api_mipmap *mipmaps; /* mipmapped arrays (list) */
    api_map texobjs;     /* texture/surface object handle -> api_texobj */
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

struct CUstream_st {
    api_ctx *ctx;
    unsigned flags;
    int priority;
    uint64_t id;
    /* attributes kept for cuStreamGetAttribute (scheduling hints only) */
    CUsynchronizationPolicy sync_policy;
    CUaccessPolicyWindow window;
    CUlaunchMemSyncDomainMap domain_map;
    CUlaunchMemSyncDomain domain;
    api_stream *next, *prev;
};

struct CUevent_st {
    api_ctx *ctx;
    unsigned flags;
    bool recorded;
    uint64_t clock;      /* the context's clock when last recorded */
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
** API_MEM_REGISTERED: host memory made device-accessible by cuMemHostRegister. */
typedef enum api_mem_kind {
    API_MEM_DEVICE = 1, API_MEM_HOST, API_MEM_MANAGED, API_MEM_ARRAY, API_MEM_REGISTERED
} api_mem_kind;

typedef struct api_alloc {
    uint64_t base, size;
    api_mem_kind kind;
    unsigned flags;      /* cuMemHostAlloc flags / cuMemAllocManaged flags */
    uint64_t id;         /* CU_POINTER_ATTRIBUTE_BUFFER_ID */
    api_ctx *ctx;
} api_alloc;

/* ---- per-launch record (TPSIM_STATS) ------------------------------------------ */

typedef struct api_launch_rec {
    char *name;
    uint32_t grid[3], block[3];
    uint32_t shared_dyn, regs;
    uint64_t warp_insns, thread_insns, cycles;
    CUresult status;
    char *status_name, *mode;   /* status: a CUresult name, or the runtime's cudaError_t name for a launch it refused */
    char *reason;          /* a failed or refused launch: why, in words (else NULL) */
    gpu_kstats *perf;      /* performance mode: the timing model's statistics (owned) */
    struct api_checks_rec *checks; /* with correctness checks on: the launch's findings (checks.c; owned) */
} api_launch_rec;

/* ---- the process-wide state --------------------------------------------------- */

typedef struct api_state {
    bool initialized;      /* cuInit succeeded */
    tp_opts opts;          /* the resolved configuration */
    exec_dev *dev;         /* created with the first context */
    api_ctx primary;       /* device 0's primary context (dead until retained) */
    uint64_t next_id;      /* context/stream/buffer ids */
    api_map handles;       /* live handle -> (void *)kind */
    api_map allocs;        /* allocation base -> api_alloc */
    gpu *gpu;              /* the timing model (performance mode), made at the first timed launch */
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

void api_lock(void);
void api_unlock(void);
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

/* ---- launches (launch.c) and dynamic parallelism (cdp.c) --------------------------- */

/* Hands every device attribute to exec/ for device code (device.c). */
void api_dev_attributes_to_exec(void);
/* check_dims of a host launch, for a device launch. */
CUresult api_launch_check(const api_func *f, const uint32_t grid[3], const uint32_t block[3], uint32_t shared);
/* After a grid that ended with r: runs (r == 0) or drops the grids it
** launched, depth first, tail launches last; returns r or a child's sticky error. */
CUresult api_cdp_children(api_ctx *c, CUresult r);
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

/* ---- statistics (stats.c) ------------------------------------------------------ */

void api_stats_init(void);                 /* reads TPSIM_STATS, registers atexit (once) */
/* Records a launch; takes ownership of perf (performance-mode statistics, or NULL). */
void api_stats_launch(const api_func *f, const exec_launch *l, const exec_result *r,
                      uint64_t cycles, CUresult status, double host_seconds, gpu_kstats *perf);
/* A launch refused before it ran: status is a CUresult, or (status_name
** non-NULL) the runtime's error. */
void api_stats_refused(const char *kernel, const uint32_t grid[3], const uint32_t block[3], uint32_t shared_dyn,
                       uint32_t regs, CUresult status, const char *status_name, const char *why);

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
