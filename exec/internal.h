/*
** internal.h -- the functional model's private structures.  Only the files of
** exec/ include this; everyone else uses exec.h.
**
** Execution state, from the outside in:
**
**   exec_dev     device memory (one identity-mapped reservation), options
**   exec_mod     a loaded ptx_module, its decoded instructions (exec_dinsn,
**                parallel to ptx_module.insns), constant rows, and the
**                device addresses of its variables
**   exec_grid    one launch: parameters, per-kernel layout, counters, error
**   exec_cta     a resident CTA: shared memory, barriers, its warps
**   exec_warp    32 lanes: register frames, predicate masks, the SIMT
**                reconvergence stack, call frames, per-lane local memory
**
** Registers: a frame is rows of uint64_t[32] (row r, lane l at
** fp[r * 32 + l]).  A row's bits above the register's declared width are
** don't-care: every reader truncates or extends from the width the
** instruction reads.  Immediates live in the module's constant rows (crows),
** so every source operand is a row pointer and semantics never branch on
** operand kinds inside the lane loop.
*/
#ifndef EXEC_INTERNAL_H
#define EXEC_INTERNAL_H

#include "exec.h"
#include "num.h"
#include "options.h"
#include "../base/sbuf.h"

/* ---- generic address windows --------------------------------------------
** Device memory lives at EXEC_DEV_BASE and above.  Shared, local and kernel
** parameter space appear in the generic address space as 4 GiB windows far
** below it; an address in a window means "this thread's own" local memory
** or "this CTA's" shared memory. */
#define EXEC_DEV_BASE 0x200000000000ull   /* first device's reservation */
#define EXEC_DEV_STRIDE 0x010000000000ull /* 1 TiB between devices */
#define EXEC_WIN_SHARED 0x100000000000ull
#define EXEC_WIN_LOCAL 0x100100000000ull
#define EXEC_WIN_PARAM 0x100200000000ull
#define EXEC_WIN_SIZE 0x000100000000ull
#define EXEC_FUNC_ADDR_BASE 0x0000f0000000ull /* function "addresses": base + 16 * index */

#define EXEC_FULL 0xffffffffu

/* ---- device ---------------------------------------------------------------- */

typedef struct exec_alloc {
    uint64_t base, size;   /* size as asked; the range [base, base+size) is valid */
    uint64_t span;         /* bytes reserved (rounded up); 0 for registered host memory */
    uint32_t track;        /* initcheck: serial of a tracked device-only allocation (exec_check_track), else 0 */
} exec_alloc;

typedef struct exec_free_rng {
    uint64_t base, size;
} exec_free_rng;

struct exec_dev {
    tp_opts opts;
    exec_code_pass pass;   /* run on lowered code at load (exec_dev_set_pass) */
    void *pass_arg;
    const exec_regshare *regshare; /* the register-sharing hooks (exec_dev_set_regshare), NULL: none */
    FILE *out;             /* device printf */
    unsigned cc;           /* 75 for 7.5 */
    int slot;              /* which reservation slot */
    uint64_t base, cap;    /* the reservation */
    uint64_t top;          /* bytes of the reservation ever handed out (bump pointer) */
    uint64_t used;         /* bytes live */
    exec_alloc *allocs;    /* live allocations sorted by base */
    uint32_t nallocs, capallocs;
    exec_free_rng *frees;  /* freed ranges below top, sorted by base */
    uint32_t nfrees, capfrees;
    /* device-side malloc's region: grows down from the end of the reservation */
    uint64_t htop;         /* bytes of it ever handed out */
    exec_free_rng *hfrees; /* freed ranges inside it, sorted by base */
    uint32_t nhfrees, caphfrees;
    size_t page;
    void *slots;           /* CTA slots kept between launches (grid.c) */
    void *textab;          /* texture and surface objects (tex.c) */
    struct exec_cdp *cdp;  /* dynamic parallelism: launches and buffers (cdp.c) */
    struct ck_dev *ck;     /* correctness checks: findings, counts (check.c); NULL until a check runs */
    struct ik_dev *ik;     /* initcheck's record of written bytes (check_init.c) */
    struct rk_pool *rkpool;/* racecheck's shadow pages kept between launches (check_race.c) */
};

/* ---- decoded instructions ------------------------------------------------ */

typedef struct exec_warp exec_warp;
typedef struct exec_dinsn exec_dinsn;
typedef void (*exec_fn)(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m);

enum {
    EXEC_DK_CTRL = 1u << 0,   /* the handler sets the pc itself */
    EXEC_DK_SREG = 1u << 1,   /* some source is a special register: fill scratch rows first */
    EXEC_DK_WARP = 1u << 2,   /* reads other lanes (shfl/vote/...) */
    EXEC_DK_CONV = 1u << 3,   /* needs lanes converged: bar, bar.warp.sync, .sync warp ops (its) */
};

struct exec_dinsn {
    exec_fn fn;
    uint16_t kind;         /* EXEC_DK_* */
    uint8_t abase32;       /* the address base register is 32 bits wide */
    uint8_t space;         /* resolved state space for memory ops (ptx_space) */
    uint8_t size;          /* access size in bytes per element (ld/st/atom) */
    uint8_t sext;          /* loads: sign-extend the loaded value */
    uint8_t nsreg;         /* number of special-register operands to fill */
    uint8_t pad;
    uint16_t sreg[3];      /* special registers to fill (ptx_sreg << 5 | component or %envreg number) */
    uint32_t scratch[3];   /* scratch row for each filled special register */
    uint32_t flags;        /* num flags (NUM_FTZ...) precomputed */
};

/* ---- module ---------------------------------------------------------------- */

typedef struct exec_kinfo {
    bool ready;
    bool uses_dynamic;
    uint32_t shared_static;   /* bytes of static shared memory */
    uint32_t dyn_align;       /* alignment of the dynamic shared area */
    uint32_t dyn_base;        /* offset where dynamic shared memory starts */
    uint32_t *shared_off;     /* per module variable: offset in shared memory (shared vars only) */
    uint32_t **fvar_off;      /* per function, per function-scope var: shared offset (or NULL) */
} exec_kinfo;

typedef struct exec_fninfo {
    uint32_t rows;            /* frame rows: the function's registers + scratch rows */
    uint32_t preds;
    uint32_t frame_bytes;     /* local frame */
    uint32_t bin_regs;        /* registers per thread from the program's cubin (exec_kernel_set_regs); 0: the model's */
    uint32_t bin_sm;          /* that cubin's target */
} exec_fninfo;

/* Running physical registers (phys.c, regs.physical=1): per pc, the
** instruction's own handler and its register fix-ups. */
typedef struct exec_phys {
    exec_fn *fn;              /* per pc: the handler h_phys wraps */
    uint32_t *off;            /* per pc: fix-ups fx[off[pc] .. off[pc + 1]) */
    uint32_t *fx;             /* kind << 24 | register */
    uint8_t *rsf;             /* per pc: PTX_RS_* marks (ptx_func.rs), NULL when no kernel has them */
} exec_phys;

struct exec_mod {
    exec_dev *dev;
    ptx_module *ptx;          /* the code that runs: the parsed module, or with
                                 regs.physical=1 its lowered code (ptx_lower) */
    ptx_module *src;          /* the parsed module when ptx is its lowered code (else NULL) */
    exec_phys *phys;          /* regs.physical=1 */
    char *name;
    /* The functional model runs its own copy of the instructions and of the
    ** operand pool, in which every immediate's r is its constant row and every
    ** special-register source became a REG operand naming a scratch row
    ** (filled before the instruction runs).  The parsed IR stays untouched. */
    ptx_insn *xi;
    ptx_opnd *xpool;
    exec_dinsn *d;            /* parallel to ptx->insns */
    const char **why;         /* parallel to ptx->insns (NULL until needed): what an unsupported form is */
    exec_sinfo *si;           /* parallel to ptx->insns: static facts for timing models */
    exec_opreg *siregs;       /* the register lists si[].regs point into */
    uint64_t *oob_seen;       /* exec.oob=warn: a bit per pc already reported */
    uint64_t *crows;          /* constant rows, 32 lanes each */
    uint32_t ncrows;
    uint64_t *var_addr;       /* device address of each module .global/.const variable (0 otherwise) */
    uint64_t *allocs;         /* device allocations owned by the module */
    uint32_t nallocs;
    exec_kinfo *kinfo;        /* per function (kernels only are filled) */
    exec_fninfo *fninfo;      /* per function */
};

/* ---- launch ---------------------------------------------------------------- */

enum { EXEC_NBAR = 16 };

typedef struct exec_slot exec_slot;

/* A step context: what running an instruction reads and writes beyond its
** warp, its CTA and memory.  The grid has its own (x0: the functional path,
** exec_warp_step) and, for a timing model that runs SMs on several host
** threads, one per SM (exec_grid_contexts, exec_warp_step_in): instructions
** of different SMs then run at once, and exec_grid_merge adds an SM's counts
** to the grid's in the order the model chooses. */
typedef struct exec_xs {
    _Alignas(64) exec_rec *rec; /* a cache line each: SMs on other threads write their own */            /* exec_warp_step's record while an instruction runs, else NULL */
    uint8_t mem_hook;         /* rec or checks: memory instructions take their slow path (sem_mem.c) */
    bool yield;               /* the running warp asked to let others run */
    bool progressed;          /* an SM's context: since_progress restarted since the last merge */
    uint64_t clock;           /* %clock64 source: the cycle given to exec_warp_step, or
                                 warp instructions executed so far (exec_warp_run) */
    uint64_t warp_insns, thread_insns;
    uint64_t since_progress;  /* warp instructions since memory last changed etc. */
} exec_xs;

struct exec_grid {
    exec_mod *m;
    exec_dev *dev;
    const ptx_func *kf;
    uint32_t kidx;
    exec_kinfo *ki;
    exec_launch l;
    uint8_t *params;          /* the kernel parameter buffer (copy) */
    uint32_t params_bytes;
    uint32_t cta_threads, cta_warps;
    uint64_t ncta;            /* CTAs in the grid */
    uint64_t next_cta;        /* next CTA (linear) to start */
    uint32_t local_per_thread;/* bytes of local memory per thread (frames + stack) */
    uint32_t shared_bytes;    /* per CTA */
    _Atomic(exec_status) status; /* atomic: SMs on other host threads read it (exec_warp_step_in) */
    char msg[1024];           /* error message */
    bool trace;
    exec_xs x0;               /* the grid's step context and its counts */
    exec_xs *xs;              /* exec_grid_contexts: one per SM */
    uint32_t nxs;
    uint64_t spin_limit, max_insns;
    uint32_t quantum;
    double clock_mhz;         /* turns clock into %globaltimer nanoseconds */
    uint32_t nsm;
    uint64_t gridid;
    uint64_t cache_lo, cache_hi; /* last device allocation an access hit */
    uint64_t cache2_lo, cache2_hi; /* the one before it (a kernel reading one array and writing another) */
    exec_occ occ;             /* this launch's occupancy */
    exec_slot **res;          /* resident CTAs' slots (unordered) */
    uint32_t nres, capres;
    bool oob_warn;            /* exec.oob=warn */
    uint8_t oob_buf[32];      /* exec.oob=warn: what out-of-bounds accesses read and write */
    bool its;                 /* independent thread scheduling (exec.its) */
    uint64_t heap_used, heap_limit; /* device-side malloc */
    uint32_t envreg[3];       /* %envreg0..2 (cooperative launches: the grid workspace address) */
    /* shared-register sections (ptx_func.rs of the kernel) */
    const ptx_rshare *rs;
    bool sec_pool;            /* a timing model assigns sections (exec_grid_section_pool) */
    uint64_t *sec_store;      /* sec_pool: nsm x occ.sections sections of rs->ext rows */
    uint64_t *xaddr;          /* exec_rec.xaddr of wmma.load/.store (sem_mma.c), made on first use */
    uint64_t *mmabuf;         /* the matrices of wmma.mma/mma (sem_mma.c), made on first use */
    uint8_t checks;           /* EXEC_CK_* (check.h): the correctness checks this launch runs */
    uint8_t conv_hook;        /* exec.its or a check: converging instructions take the slow path */
    uint32_t ck_track;        /* checks: the last allocation an access hit ([ck_lo, ck_hi), its initcheck serial) */
    uint64_t ck_lo, ck_hi;
    struct rk_grid *rk;       /* racecheck's state for this launch (check_race.c) */
};

/* A SIMT stack entry.  With independent thread scheduling (exec.its) the
** entries are instead the warp's thread groups (its.c): lanes sharing a pc and
** a call frame; the running group is on top, rpc is the pc of its function's
** FNEXIT, call is its frame, and a group may wait for other lanes to converge. */
typedef struct exec_stk {
    uint32_t pc, rpc, mask;
    uint32_t call;            /* stack: 0, or 1 + index of the call frame this entry returns from;
                                 its: the group's frame index */
    uint32_t wait;            /* its: lanes this group waits for before it can run its pc (0: runnable) */
} exec_stk;

typedef struct exec_frame {
    uint32_t func;            /* function index */
    uint32_t call_pc;         /* pc of the call instruction in the caller */
    uint32_t rows_off, preds_off; /* where this frame's registers start in the warp's stacks */
    uint32_t sp;              /* local-memory offset where this frame's bytes start */
    int32_t parent;           /* its: the caller's frame (-1 for the kernel's); -2: free slot */
    uint64_t *rows_p;         /* its: registers of a callee frame (own allocation) */
    uint32_t *preds_p;
} exec_frame;

enum { EXEC_W_RUN, EXEC_W_BAR, EXEC_W_DONE };

struct exec_warp {
    /* hot state first */
    uint64_t *fp;             /* current frame's rows */
    uint32_t *pp;             /* current frame's predicates */
    const uint64_t *crows;    /* module constant rows */
    exec_grid *g;
    exec_xs *x;               /* the step context of the warp's last (or running) instruction */
    exec_cta *cta;
    uint32_t pc;              /* cached top-of-stack pc while running */
    uint32_t sp;              /* local-memory offset of the current frame */
    uint32_t carry;           /* CC.CF, one bit per lane */
    uint32_t state;           /* EXEC_W_* */
    uint32_t wid;             /* warp index within the CTA */
    uint32_t valid;           /* lanes that are real threads */
    uint32_t exited;          /* lanes that have exited */
    uint32_t tid0;            /* linear thread id of lane 0 within the CTA */
    /* SIMT stack */
    exec_stk *stk;
    uint32_t nstk, capstk;
    /* call frames: a stack, or (its) a pool of frames linked by parent */
    exec_frame *frames;
    uint32_t nframes, capframes;
    uint32_t cf;              /* the running code's frame */
    uint32_t its_spin;        /* its: backward branches since the running group last changed */
    uint32_t its_stop;        /* its: the next pc where another group of this frame waits (merge there) */
    /* register storage (all frames) */
    uint64_t *rows;
    uint32_t nrows_used, caprows;
    uint32_t *preds;
    uint32_t npreds_used, cappreds;
    /* local memory: lane l's bytes at local + l * g->local_per_thread */
    uint8_t *local;
    /* barrier bookkeeping */
    uint32_t bar_id;
    int32_t bar_dst;          /* bar.red destination: row, or -1 */
    uint8_t bar_dst_pred;     /* destination is a predicate */
    uint8_t bar_op;           /* ptx_bop of bar.red */
    uint32_t bar_mask;        /* lanes that executed the bar.red */
    uint64_t insns;           /* warp instructions executed by this warp */
    /* shared registers: the held section's storage (rs->ext rows of 32 lanes) */
    uint64_t *sec;
    uint8_t sec_held;
    uint64_t *sec_priv;       /* functional mode: the warp's own section */
    uint32_t sec_priv_cap;
    struct rk_warp *rk;       /* racecheck: the warp's clocks (check_race.c) */
};

typedef struct exec_bar {
    uint32_t arrived;         /* warps arrived */
    uint32_t expected;        /* warps expected (0: all live warps) */
    uint32_t red_count;       /* bar.red: popc accumulation */
    uint32_t red_and, red_or; /* bar.red.and / .or accumulation (as booleans) */
} exec_bar;

struct exec_cta {
    uint32_t id[3];
    uint64_t linear;
    uint8_t *shmem;
    uint32_t shsize;
    exec_warp *warps;
    uint32_t nwarps;
    uint32_t live;            /* warps not done */
    uint32_t bar_releases;    /* barriers opened so far (exec_bar_check) */
    exec_bar bar[EXEC_NBAR];
    uint8_t *local;           /* all lanes' local memory */
    uint32_t sm;              /* %smid reported */
    exec_grid *g;
    exec_slot *slot;
    struct rk_cta *rk;        /* racecheck: shared-memory shadow, barrier clocks (check_race.c) */
    struct sk_cta *sk;        /* synccheck: the barriers' arrivals (check_sync.c) */
};

/* A CTA slot: a resident CTA and its buffers, kept by the device between
** launches (grid.c), so a program that launches many small kernels does not
** allocate and fault in fresh memory every time. */
struct exec_slot {
    exec_cta cta;
    bool busy;
    uint32_t res_idx;         /* index in the grid's res[] while busy */
    uint32_t cap_warps;
    uint32_t sh_cap;
    size_t local_cap;
};

/* ---- helpers used by the semantics files ------------------------------- */

/* Forgets the device allocations accesses last hit (g->cache_lo ...): after a
** device-side malloc or free, which may move or end them. */
static inline void exec_forget_windows(exec_grid *g) { g->cache_lo = g->cache_hi = g->cache2_lo = g->cache2_hi = 0; }

/* Row pointers for operands. */
static inline uint64_t *exec_dst(exec_warp *w, const ptx_opnd *o)
{
    return w->fp + (size_t)o->r * 32;
}
static inline const uint64_t *exec_src(const exec_warp *w, const ptx_opnd *o)
{
    return (o->kind == PTX_OK_REG ? w->fp : w->crows) + (size_t)o->r * 32;
}

/* Loop over the lanes of mask m; the all-lanes case is a plain counted loop
** the compiler can vectorise.  'l' is the lane inside body. */
#define EXEC_LANES(m, ...)                                                    \
    do {                                                                      \
        uint32_t m_ = (m);                                                    \
        if (m_ == EXEC_FULL) {                                                \
            for (int l = 0; l < 32; l++) { __VA_ARGS__; }                     \
        } else {                                                              \
            while (m_) {                                                      \
                int l = __builtin_ctz(m_);                                    \
                m_ &= m_ - 1;                                                 \
                __VA_ARGS__;                                                  \
            }                                                                 \
        }                                                                     \
    } while (0)

/* shfl: the source lane lane reads for operands b and c in mode (PTX_SUB_UP,
** _DOWN, _BFLY, else .idx), with the PTX ISA's clamp (c bits 0-4) and
** segment mask (c bits 8-12); *ok is false when it is out of range (the lane
** then keeps its own value). */
static inline int exec_shfl_src(int mode, int lane, uint64_t b, uint64_t c, bool *ok)
{
    int bval = (int)(b & 31), cval = (int)(c & 31), seg = (int)((c >> 8) & 31);
    int maxl = (lane & seg) | (cval & ~seg), minl = lane & seg, j;
    switch (mode) {
    case PTX_SUB_UP: j = lane - bval; *ok = j >= maxl; break;
    case PTX_SUB_DOWN: j = lane + bval; *ok = j <= maxl; break;
    case PTX_SUB_BFLY: j = lane ^ bval; *ok = j <= maxl; break;
    default: j = minl | (bval & ~seg); *ok = j <= maxl; break;
    }
    return *ok ? j & 31 : lane;
}

static inline uint32_t exec_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float exec_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t exec_d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline double exec_u2d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

/* Sign-extends the low 'bits' bits of v. */
static inline uint64_t exec_sext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}
static inline uint64_t exec_zext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/* Reports an error for the running grid (the first one wins) and stops the
** grid: "<what> in kernel 'k' block (x,y,z) thread (x,y,z) pc N (insn) [file:line]: detail". */
void exec_fault(exec_warp *w, int lane, exec_status st, const char *fmt, ...) TP_PRINTF(4, 5);

/* Module-level symbol address (global/const variables: device address;
** shared variables: offset for the running kernel; kernel params: offset in
** the parameter buffer; frame symbols: offset in the thread's local memory). */
uint64_t exec_sym_addr(exec_warp *w, int32_t sym, uint8_t *space_out);

/* Per-kernel layout (module.c), computed on first use. */
exec_kinfo *exec_kernel_info(exec_mod *m, uint32_t kidx);
uint32_t exec_kernel_regs(exec_mod *m, uint32_t kidx);
uint64_t exec_func_addr(uint32_t fidx);

/* Physical registers (phys.c): the first frame row after a lowered
** function's registers and constant-bank rows (where scratch rows start);
** rewriting the decoded operands through the allocation and wrapping the
** handlers; freeing. */
uint32_t exec_phys_frame_base(const ptx_func *fn);
bool exec_phys_build(exec_mod *m, tp_err *e);
void exec_phys_free(exec_phys *ph);
/* The section marks (PTX_RS_*) before the instruction at pc (release, acquire);
** false when the warp faulted (no section to acquire). */
bool exec_section_point(exec_warp *w, uint32_t pc);
/* Releases the warp's section (finished warps). */
static inline void exec_section_drop(exec_warp *w) { w->sec_held = 0; w->sec = NULL; }

/* Decoding: picks the handler for every instruction of a module. */
bool exec_decode_module(exec_mod *m, tp_err *e);
/* Handler tables of the semantics files: return NULL when the form is not
** theirs; set *why when it is theirs but unsupported. */
exec_fn exec_pick_alu(const ptx_insn *in, exec_dinsn *d, const char **why);
exec_fn exec_pick_fp(const ptx_insn *in, exec_dinsn *d, const char **why);
/* Hot loops compiled twice on x86-64 (sem_fp.c, sem_mem.c): for any
** x86-64 (SSE2), and with EXEC_VEC_TARGET for hosts with AVX2 and FMA3,
** where they vectorise; exec_host_vec() says which one to take.  The two
** give the same bits.  exec_host_portable(true) makes every later choice
** the portable one, even on an AVX2 host (for the tests, which check both;
** sem_fp.c picks its handlers when a module is loaded, sem_mem.c at each
** access). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EXEC_HOST_VEC 1
#define EXEC_VEC_TARGET __attribute__((target("avx2,fma")))
extern bool exec_portable;
static inline bool exec_host_vec(void)
{
    return !exec_portable && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
/* A handler picked at decode: name##_vec on such hosts, else name. */
#define EXEC_HOST_FN(name) (exec_host_vec() ? name##_vec : name)
#include <immintrin.h>
/* The low 32-bit words of eight lanes' rows p[0..7], in lane order (the
** value of a 32-bit register, or the bytes a 4-byte store writes). */
EXEC_VEC_TARGET static inline __m256i exec_low32x8(const uint64_t *p)
{
    __m256 lo = _mm256_loadu_ps((const float *)p), hi = _mm256_loadu_ps((const float *)(p + 4));
    __m256 s = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));   /* lanes 0 1 4 5 | 2 3 6 7 */
    return _mm256_castpd_si256(_mm256_permute4x64_pd(_mm256_castps_pd(s), _MM_SHUFFLE(3, 1, 2, 0)));
}
#else
#define EXEC_HOST_FN(name) name
#endif
void exec_host_portable(bool on);
exec_fn exec_pick_mem(const ptx_module *pm, const ptx_func *f, const ptx_insn *in, exec_dinsn *d, const char **why);
exec_fn exec_pick_ctrl(const ptx_module *pm, const ptx_insn *in, exec_dinsn *d, const char **why);
exec_fn exec_pick_warp(const ptx_insn *in, exec_dinsn *d, const char **why);
exec_fn exec_pick_tex(const ptx_insn *in, exec_dinsn *d, const char **why);
exec_fn exec_pick_mma(const ptx_insn *in, exec_dinsn *d, const char **why);
void exec_tex_free_all(exec_dev *d);

/* Control-flow helpers (simt.c). */
void exec_push(exec_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t call);
void exec_branch(exec_warp *w, uint32_t taken, uint32_t target, uint32_t fallthrough, uint32_t rpc);
void exec_exit_lanes(exec_warp *w, uint32_t lanes);
bool exec_call(exec_warp *w, const ptx_insn *in, uint32_t fidx, uint32_t mask);
void exec_fnexit(exec_warp *w);
/* Pops finished stack entries; returns false when the warp has no lanes left. */
bool exec_settle(exec_warp *w);

/* Argument and return-value copies of a call (simt.c). */
bool exec_copy_args(exec_warp *w, const ptx_insn *in, const ptx_func *callee, uint32_t mask, uint64_t nsp);
void exec_copy_rets(exec_warp *w, const ptx_insn *call, const ptx_func *callee, uint64_t callee_sp, uint32_t mask);

/* Independent thread scheduling (its.c). */
void exec_its_branch(exec_warp *w, uint32_t taken, uint32_t target, uint32_t fallthrough);
bool exec_its_call(exec_warp *w, const ptx_insn *in, uint32_t fidx, uint32_t mask);
bool exec_its_settle(exec_warp *w);
/* Splits the running group: lanes of its mask outside keep become a new group at pc. */
void exec_its_split(exec_warp *w, uint32_t keep, uint32_t pc);
/* Whether the running group holds every lane instruction in needs converged;
** if not, the group waits and another runs. */
bool exec_its_converged(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m);
void exec_its_free(exec_warp *w);
/* Points fp/pp/sp at frame f. */
void exec_set_frame(exec_warp *w, uint32_t f);
static inline exec_stk *exec_top(exec_warp *w) { return &w->stk[w->nstk - 1]; }

/* Call arguments and results for system calls (simt.c). */
uint64_t exec_call_arg(exec_warp *w, const ptx_insn *in, int lane, uint32_t i, uint32_t size);
void exec_call_ret(exec_warp *w, const ptx_insn *in, int lane, uint64_t v, uint32_t size);
/* Releases a CTA barrier whose warps have all arrived (sem_ctrl.c). */
void exec_bar_check(exec_cta *c, uint32_t id);

/* System calls by name (vprintf, malloc, free, __assertfail). */
bool exec_syscall(exec_warp *w, const ptx_insn *in, const ptx_func *callee, uint32_t mask);
/* The device runtime's calls (cdp.c): is name one; run it for the lanes in mask. */
bool exec_cdp_is_call(const char *name);
bool exec_cdp_call(exec_warp *w, const ptx_insn *in, const char *name, uint32_t mask);
void exec_cdp_free(exec_dev *d);
/* printf formatting of one lane's vprintf call into out. */
bool exec_format_printf(exec_warp *w, int lane, uint64_t fmt, uint64_t args, tp_sbuf *out);

/* Memory access for one lane: host pointer for [addr, addr+size) in the given
** space, or NULL after reporting the fault (write: true for stores). */
uint8_t *exec_lane_ptr(exec_warp *w, int lane, int space, uint64_t addr, unsigned size, bool write);
/* Notes that simulated memory changed (resets the livelock watchdog). */
static inline void exec_progress(exec_warp *w)
{
    w->x->since_progress = 0;
    w->x->progressed = true;
}

/* Frees the CTA slots a device keeps between launches (grid.c). */
void exec_slots_free(exec_dev *d);

/* Device memory internals (mem.c). */
bool exec_mem_reserve(exec_dev *d, tp_err *e);
void exec_mem_release(exec_dev *d);
/* The allocation containing [addr, addr+size), or NULL. */
const exec_alloc *exec_mem_lookup(const exec_dev *d, uint64_t addr, uint64_t size);

/* Records whether the address base register of a memory instruction is 32 bits wide. */
void exec_mem_set_abase(const ptx_func *f, const ptx_insn *in, exec_dinsn *d);

/* Fills the scratch rows of the special registers an instruction reads. */
void exec_fill_sregs(exec_warp *w, const exec_dinsn *d);

/* Trace one instruction (trace.c). */
void exec_trace(exec_warp *w, const ptx_insn *in, uint32_t mask);
/* Stops the grid with a report of what every resident warp is doing: a
** barrier deadlock, or (deadlock false) a livelock (fault.c). */
void exec_stuck_report(exec_grid *g, bool deadlock);
/* Describes the instruction at pc: "pc N (text) [file:line]". */
void exec_describe_pc(const exec_mod *m, uint32_t pc, tp_sbuf *out);

#endif
