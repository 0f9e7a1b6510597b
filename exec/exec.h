/*
** exec.h -- the public interface of the functional SIMT model.
** Module prefix: exec_.
**
** This is the only header api/ and gpu/ include from exec/.  A
** device (exec_dev) owns the simulated global memory and the configuration;
** modules (exec_mod) are parsed PTX loaded onto a device, with their .global
** and .const variables placed in device memory; a launch runs a kernel over
** its whole grid and reports how it ended.
**
** Device memory is identity-mapped: a device address is also a valid host
** address inside one large reservation made at a fixed virtual address, so
** addresses are the same on every run (determinism) and managed memory needs
** no copying.  Every simulated access is bounds-checked against the live
** allocations.
*/
#ifndef EXEC_H
#define EXEC_H

#include "../base/tp.h"
#include "../base/err.h"
#include "../base/opt.h"
#include "../ptx/ptx.h"
#include "options.h"
#include <stdio.h>

typedef struct exec_dev exec_dev;
typedef struct exec_mod exec_mod;

typedef enum exec_status {
    EXEC_OK = 0,
    EXEC_ERR_ILLEGAL_ADDRESS,  /* access outside every allocation / space */
    EXEC_ERR_MISALIGNED,       /* access not aligned to its size */
    EXEC_ERR_TRAP,             /* trap instruction */
    EXEC_ERR_ASSERT,           /* device-side assert() failed */
    EXEC_ERR_STACK_OVERFLOW,   /* call stack past exec.stack_bytes */
    EXEC_ERR_LIVELOCK,         /* lanes of a warp wait on each other forever */
    EXEC_ERR_DEADLOCK,         /* a barrier that can never complete */
    EXEC_ERR_UNSUPPORTED,      /* an instruction form the model does not execute */
    EXEC_ERR_INVALID_VALUE,    /* impossible launch (grid/block/shared size) */
    EXEC_ERR_OUT_OF_RESOURCES, /* launch needs more registers than the SM has */
    EXEC_ERR_COOP_TOO_LARGE,   /* a cooperative grid larger than the device holds at once */
    EXEC_ERR_LIMIT,            /* exec.max_warp_insns reached */
    EXEC_ERR_INVALID_PTX,      /* module failed to parse or check */
    EXEC_ERR_NO_BINARY,        /* module targets a newer GPU than device.cc */
    EXEC_ERR_NOT_FOUND,        /* no such kernel or symbol */
    EXEC_ERR_OOM,              /* device memory exhausted */
} exec_status;

const char *exec_status_name(exec_status s);

/* ---- device -------------------------------------------------------------- */

/* Creates a device from a configuration (copied).  Output of device printf
** goes to 'out' (stdout when NULL). */
exec_dev *exec_dev_create(const tp_opts *opts, FILE *out, tp_err *e);
void exec_dev_destroy(exec_dev *d);
const tp_opts *exec_dev_opts(const exec_dev *d);
/* Changes an option of a live device (e.g. exec.stack_bytes when a program
** sets cudaLimitStackSize); later launches see the new value.  Options that
** shape the device itself (device.global_mem ...) are refused. */
bool exec_dev_set_opt(exec_dev *d, const char *name, const char *value, tp_err *e);
/* device.cc as major*10 + minor (75 for 7.5). */
unsigned exec_dev_cc(const exec_dev *d);
/* Whether modules loaded under options o run their lowered code (ptx_lower:
** scheduled, over physical registers): regs.physical=1 in any mode, or
** exec.code=scheduled in performance mode. */
bool exec_runs_lowered(const tp_opts *o);
/* A pass over each module's lowered code (ptx_lower), run at load before it
** is decoded when the device runs physical registers (exec_runs_lowered, or a
** register-sharing policy: exec_regshare.lowered): it may rewrite the code,
** its allocation and ptx_func.rs.  The register-sharing compiler is one;
** whoever creates the device installs it (exec/ knows no pass).  Tests use
** the hook to inject allocation faults. */
typedef bool (*exec_code_pass)(ptx_module *low, const tp_opts *o, void *arg, tp_err *e);
void exec_dev_set_pass(exec_dev *d, exec_code_pass fn, void *arg);

/* ---- device memory -------------------------------------------------------- */

/* Allocates bytes (0 is allowed and gives a distinct address) aligned to
** align (a power of two, at least 256 is used).  Returns 0 when out of memory. */
uint64_t exec_mem_alloc(exec_dev *d, uint64_t bytes, uint64_t align);
/* Device-side malloc: the same, from a region of its own at the other end
** of device memory (align: at least 16). */
uint64_t exec_mem_alloc_heap(exec_dev *d, uint64_t bytes, uint64_t align);
/* Frees an allocation by its start address; false if addr starts none. */
bool exec_mem_free(exec_dev *d, uint64_t addr);
/* Host pointer for [addr, addr+bytes) if the range lies within one live
** allocation, else NULL. */
void *exec_mem_host(exec_dev *d, uint64_t addr, uint64_t bytes);
/* The live allocation containing addr. */
bool exec_mem_find(const exec_dev *d, uint64_t addr, uint64_t *base, uint64_t *bytes);
void exec_mem_info(const exec_dev *d, uint64_t *free_bytes, uint64_t *total_bytes);
/* Lets kernels access host memory [addr, addr+bytes) at its own address (as
** cuMemHostRegister does on a system with unified addressing).  The range
** must not overlap device memory or another registration. */
bool exec_mem_register(exec_dev *d, uint64_t addr, uint64_t bytes);
bool exec_mem_unregister(exec_dev *d, uint64_t addr);

/* ---- modules -------------------------------------------------------------- */

/* Parses and checks PTX text, places its .global and .const variables in
** device memory with their initializers.  On failure returns NULL with the
** reason in e and *status set (EXEC_ERR_INVALID_PTX, EXEC_ERR_NO_BINARY, ...). */
exec_mod *exec_mod_load(exec_dev *d, const char *ptx, size_t len, const char *name,
                        exec_status *status, tp_err *e);
/* The lowering options (registers per thread, regs.max, the register file
** launch bounds divide -- regs.bounds_file, else device.regs_per_sm --, the
** allocation unit, regs.schedule) that exec_mod_load lowers every module with. */
void exec_lower_opts(const tp_opts *o, ptx_lower_opts *lo);
void exec_mod_unload(exec_mod *m);
const ptx_module *exec_mod_ptx(const exec_mod *m);
exec_dev *exec_mod_dev(const exec_mod *m);
/* Index of the kernel (.entry) named name, or -1. */
int exec_mod_kernel(const exec_mod *m, const char *name);
/* Device address and size of a module-scope .global or .const variable. */
bool exec_mod_global(const exec_mod *m, const char *name, uint64_t *addr, uint64_t *bytes);

typedef struct exec_kattr {
    uint32_t regs;          /* 32-bit registers per thread a CTA is charged (register sharing: the base set) */
    uint32_t regs_code;     /* registers per thread the kernel's code uses (CU_FUNC_ATTRIBUTE_NUM_REGS):
                               regs, or under register sharing base and shared registers together */
    uint32_t shared_static; /* bytes of static shared memory */
    uint32_t const_bytes;   /* bytes of the module's constant bank the kernel may read */
    uint32_t local_bytes;   /* per-thread local memory of the kernel's own frame */
    uint32_t max_threads;   /* largest CTA this kernel can be launched with */
    uint32_t param_bytes;
    uint32_t ptx_version;   /* major*10 + minor */
    uint32_t binary_version;/* target sm: the PTX's, or the cubin's whose register count regs is */
    uint32_t regs_model;    /* the model's count (ptx_func.ra_regs: docs/REGISTERS.md), whatever regs is */
    uint32_t regs_cubin_sm; /* regs is ptxas's count from the program's cubin for sm_XY (as XY); 0: the model's */
} exec_kattr;
void exec_kernel_attrs(exec_mod *m, int kernel, exec_kattr *a);
/* Makes regs (registers per thread) the kernel's count, as ptxas wrote it in
** the program's cubin for sm_XY (sm = XY; regs.cubin: the caller, api/,
** reads the cubin): occupancy, the attributes and the timing model then see
** it instead of the model's count.  The code that runs is the same.  Under
** register sharing (regs.policy) the policy's own allocation still decides
** the charge.  False for a kernel index out of range or regs 0. */
bool exec_kernel_set_regs(exec_mod *m, int kernel, uint32_t regs, unsigned sm);

/* ---- texture and surface objects --------------------------------------------
** A texture or surface object is a 64-bit handle a kernel receives as a
** parameter (cudaTextureObject_t) and names in tex/tld4/txq or suld/sust/suq.
** The data is device memory in pitch-linear layout: element (x, y, z) of
** `bytes_per_elem` = channels * channel_bits / 8 bytes is at
** addr + z * pitch * height + y * pitch + x * bytes_per_elem. */
typedef enum exec_texfmt { EXEC_TEX_UNSIGNED, EXEC_TEX_SIGNED, EXEC_TEX_FLOAT } exec_texfmt;
typedef enum exec_texaddr { EXEC_TEX_WRAP, EXEC_TEX_CLAMP, EXEC_TEX_MIRROR, EXEC_TEX_BORDER } exec_texaddr;

#define EXEC_TEX_MAX_LEVELS 18   /* 1 + log2 of the largest extent, 131072 */

typedef struct exec_texdesc {
    uint64_t addr;           /* device address of element (0, 0, 0) */
    uint32_t dims;           /* 1, 2 or 3 */
    uint32_t width, height, depth;   /* in elements (height/depth 1 when unused) */
    uint64_t pitch;          /* bytes from one row to the next (2D/3D) */
    uint32_t channels;       /* 1, 2 or 4 */
    uint32_t channel_bits;   /* 8, 16 or 32 (16 with EXEC_TEX_FLOAT: half) */
    exec_texfmt fmt;
    bool read_normalized;    /* integer channels read as floats in [0,1] / [-1,1] */
    bool normalized_coords;  /* coordinates in [0,1) instead of texels */
    bool linear_filter;      /* bilinear/linear filtering instead of the nearest texel */
    exec_texaddr addr_mode[3];
    float border[4];
    /* Layered and cubemap arrays: the `depth` slices are layers (a 1D layered
    ** array has height 1), chosen by the instruction's array index (clamped);
    ** a cubemap's slices are its faces, 6 per layer (+x, -x, +y, -y, +z, -z),
    ** square.  dims is then 1 or 2, the dimensions of one slice. */
    bool layered;
    bool cubemap;
    /* Mipmaps: level l (0 < l < levels) is at level_addr[l], tightly packed
    ** (pitch = its width * bytes_per_elem), each extent max(1, extent >> l)
    ** (layers and faces keep their count).  levels 0 or 1: no mipmaps. */
    uint32_t levels;
    uint64_t level_addr[EXEC_TEX_MAX_LEVELS];
    bool mip_linear;         /* interpolate between the two nearest levels */
    float lod_bias, min_lod, max_lod;   /* lod = clamp(lod + bias, min, max) */
    uint32_t max_aniso;      /* for the level of detail of tex.grad: 0 or 1 isotropic */
} exec_texdesc;

/* Creates a texture (surface: is_surface) object; returns its handle, never 0. */
uint64_t exec_tex_create(exec_dev *d, const exec_texdesc *desc, bool is_surface);
bool exec_tex_destroy(exec_dev *d, uint64_t handle);

/* ---- launch -------------------------------------------------------------- */

typedef struct exec_launch {
    uint32_t grid[3], block[3];
    uint32_t shared_dyn;      /* bytes of dynamic shared memory */
    const void *params;       /* the parameter buffer, laid out at the offsets in ptx_func.params */
    uint32_t params_bytes;
    /* Cooperative launches: the device address of the grid workspace that
    ** cooperative groups' grid.sync() uses (u32 size, u32 barrier counter),
    ** which kernels read as %envreg1 (high 32 bits) : %envreg2 (low); 0 for
    ** other launches. */
    uint64_t grid_workspace;
    /* Dynamic parallelism: 0 for a launch from the host, the parent's + 1
    ** for a device launch (exec.cdp_max_depth bounds it). */
    uint32_t depth;
    /* Device launches not yet complete outside this grid's own when it runs
    ** (this grid if it is one, its incomplete ancestors, their launches
    ** still to run): they count against exec.cdp_pending_launches with the
    ** grid's own, as on a real GPU, where a chain of device launches fails
    ** at the pending-launch limit (2048 deep by default on an H200). */
    uint32_t cdp_pending;
} exec_launch;

/* ---- dynamic parallelism (exec/cdp.c) ----------------------------------------
** Kernels launch kernels through the device runtime's calls; exec/ records
** each launch and runs nothing.  Whoever ran a grid takes its launches with
** exec_cdp_take right after it and runs them: the EXEC_CDP_STREAM and
** EXEC_CDP_FIRE_AND_FORGET ones in order, each followed by its own launches
** (depth first), then the EXEC_CDP_TAIL ones in order.  The parameter buffer
** (params) is device memory the taker frees (exec_mem_free) after the launch. */
typedef enum exec_cdp_kind { EXEC_CDP_STREAM, EXEC_CDP_TAIL, EXEC_CDP_FIRE_AND_FORGET } exec_cdp_kind;
typedef struct exec_cdp_launch {
    exec_mod *m;
    int kernel;
    uint32_t grid[3], block[3];
    uint32_t shared;          /* dynamic shared memory */
    uint64_t params;          /* device address of the parameters */
    uint32_t params_bytes;
    uint64_t stream;          /* the device stream handle (0: the default stream) */
    exec_cdp_kind kind;
    uint32_t depth;           /* the child's depth (exec_launch.depth) */
    uint64_t parent_gridid;
} exec_cdp_launch;
/* Moves the launches recorded since the last call into *out (malloc'd, in
** launch order; NULL if none) and returns how many; frees parameter buffers
** that were never launched. */
uint32_t exec_cdp_take(exec_dev *d, exec_cdp_launch **out);
/* The device attributes device code reads (cudaDeviceGetAttribute): n values
** by attribute number, ok[i] false where attribute i does not exist. */
void exec_cdp_set_attributes(exec_dev *d, const int *values, const uint8_t *ok, uint32_t n);

/* ---- correctness checks (exec/check*.c; docs/CHECKS.md) ----------------------
** The options check.race, check.race_intrawarp, check.init and check.sync
** make every launch look for data races, reads of device memory nobody
** wrote, and barrier misuse.  A finding is counted once per (kernel,
** instruction pair, kind) and reported on stderr ("tpsim: race: ...",
** "tpsim: init: ...", "tpsim: sync: ...", naming the kernel, the threads,
** the instructions with their source lines and the address): init and sync
** findings when first seen; races at the end of the launch, one report per
** pair of source lines (per instruction pair without .loc), so that an
** unrolled loop's copies of one access are one report, with what it
** covers (instruction pairs, addresses, threads, conflicting accesses).
** The kernel goes on running, exactly as it would without the checks. */
typedef enum exec_check_kind {
    EXEC_CHECK_RACE,            /* a data race between threads of different warps */
    EXEC_CHECK_RACE_INTRAWARP,  /* ... between lanes of one warp with no __syncwarp between (check.race_intrawarp) */
    EXEC_CHECK_INIT,            /* a read of device memory never written since its allocation */
    EXEC_CHECK_SYNC,            /* barrier or warp-synchronous misuse */
    EXEC_CHECK_KINDS
} exec_check_kind;

/* "race", "race_intrawarp", "init", "sync" */
const char *exec_check_kind_name(exec_check_kind k);

typedef struct exec_finding {
    exec_check_kind kind;
    const char *what;         /* e.g. "read-write race", "uninitialized read", "divergent barrier" (static) */
    const char *space;        /* "global", "shared", or "" (static) */
    uint32_t pc[2];           /* the two instructions (function-relative, as reports show them); equal when one */
    uint64_t addr;            /* global: device address; shared: offset in the CTA's shared memory; else 0 */
    char *text;               /* the report as printed, without its "tpsim: KIND: " prefix */
} exec_finding;

typedef struct exec_result {
    exec_status status;
    char msg[1024];           /* on failure: what happened, with kernel, block, thread, pc, address */
    uint64_t warp_insns;      /* warp instructions executed */
    uint64_t thread_insns;    /* thread instructions executed (active lanes) */
    uint32_t regs_per_thread;
    uint32_t findings[EXEC_CHECK_KINDS]; /* findings this launch reported first, per kind */
} exec_result;

/* The findings the last launch on d reported first (valid until the next launch). */
const exec_finding *exec_check_findings(const exec_dev *d, uint32_t *n);

/* A report as printed: one finding, or for races every new finding of a
** launch on the same pair of source lines. */
typedef struct exec_report {
    exec_check_kind kind;
    uint32_t findings;        /* findings (instruction pairs) it covers */
    uint64_t addresses;       /* races: distinct addresses of the conflicting accesses; else 0 */
    uint64_t threads;         /* races: distinct threads on either side; else 0 */
    uint64_t occurrences;     /* races: conflicting access pairs seen in the launch; else 0 */
    char *text;               /* as printed, without its "tpsim: KIND: " prefix */
} exec_report;

/* The reports of the last launch on d (valid until the next launch). */
const exec_report *exec_check_reports(const exec_dev *d, uint32_t *n);
/* Over the device's life, per kind: reports made (printed or, past
** check.print_limit, counted). */
void exec_check_report_totals(const exec_dev *d, uint64_t reports[EXEC_CHECK_KINDS]);
/* Over the device's life, per kind: distinct findings, and occurrences (every
** conflicting pair of accesses, uninitialized read or misuse seen, reported
** or not). */
void exec_check_totals(const exec_dev *d, uint64_t findings[EXEC_CHECK_KINDS], uint64_t occurrences[EXEC_CHECK_KINDS]);
/* initcheck's view of device memory written outside kernels (for the driver
** API; each does nothing unless check.init is on):
**   exec_check_track    the allocation starting at addr is device-only memory
**                       (cuMemAlloc): kernel reads of its bytes are checked;
**                       other memory (managed, host, arrays, module
**                       variables) is taken as initialized;
**   exec_check_written  the host wrote [addr, addr+bytes) (a copy, a memset);
**   exec_check_copied   a device-to-device copy: dst's bytes become written
**                       where src's were (untracked memory counts as written). */
void exec_check_track(exec_dev *d, uint64_t addr);
void exec_check_written(exec_dev *d, uint64_t addr, uint64_t bytes);
void exec_check_copied(exec_dev *d, uint64_t dst, uint64_t src, uint64_t bytes);

/* ---- occupancy ---------------------------------------------------------------
** How many CTAs of a kernel one SM holds at once, and which resource limits
** it.  The one place this is computed: the CUDA occupancy API, the
** functional driver and the timing model's CTA dispatch all call it. */
typedef enum exec_occ_limit {
    EXEC_OCC_CTAS,      /* device.max_ctas_per_sm */
    EXEC_OCC_WARPS,     /* device.max_threads_per_sm */
    EXEC_OCC_REGS,      /* device.regs_per_sm, allocated per warp in units of device.reg_alloc_unit */
    EXEC_OCC_SHARED,    /* device.shared_per_sm, allocated per CTA in units of device.shared_alloc_unit */
    EXEC_OCC_NONE,      /* the block cannot run at all (too many threads, registers or shared bytes) */
} exec_occ_limit;

typedef struct exec_occ {
    uint32_t ctas_per_sm;    /* 0 when the block cannot run */
    exec_occ_limit limit;    /* the smallest bound (ties: the earlier in the enum) */
    uint32_t by_ctas, by_warps, by_regs, by_shared; /* each resource's own bound (UINT32_MAX: none) */
    uint32_t regs_per_thread;
    uint32_t regs_per_cta;   /* after allocation rounding */
    uint32_t shared_per_cta; /* bytes, static + dynamic, before rounding */
    uint32_t warps_per_cta;
    /* register sharing (ptx_func.rs; the policy's occupancy hook,
    ** exec_regshare): regs_per_thread is the base set's charge, and
    ** `sections` sections of section_regs x 32 registers per SM hold the
    ** registers >= the base set (exec keeps their storage when a timing
    ** model hands them out: exec_grid_section_pool); 0 otherwise */
    uint32_t sections, section_regs;
} exec_occ;

const char *exec_occ_limit_name(exec_occ_limit l);   /* "ctas", "warps", "registers", "shared", "none" */
/* Occupancy of `kernel` with blocks of block_threads threads and dyn_shared
** bytes of dynamic shared memory, on this device's configuration. */
void exec_occupancy(exec_mod *m, int kernel, uint32_t block_threads, uint32_t dyn_shared, exec_occ *o);
/* CTAs of this kernel the whole device holds at once with this launch's
** block size and dynamic shared memory (occupancy per SM x SMs). */
uint32_t exec_max_resident_ctas(exec_mod *m, int kernel, const exec_launch *l);
/* ctas_per_sm and limit from the four bounds: the smallest (ties: the
** earlier in exec_occ_limit's order); a bound of 0 gives EXEC_OCC_NONE. */
void exec_occ_settle(exec_occ *o);

/* ---- register sharing (regs.policy; the policies: regmutex/policy.h) -----------
** exec/ knows no policy.  Whoever creates a device installs the hooks the
** register-sharing interface answers with (api/: rs_exec_hooks()), and exec
** asks them at fixed points:
**   lowered    at load: whether the device's options select a policy; then
**              the lowered code runs (as with regs.physical=1) and the code
**              pass (exec_dev_set_pass) may mark kernels (ptx_func.rs)
**   occupancy  exec_occupancy of a kernel with ptx_func.rs: o holds the
**              charge (regs_per_thread, regs_per_cta, warps_per_cta) and
**              the other bounds (by_ctas, by_warps, by_shared); the hook
**              sets by_regs, ctas_per_sm, limit, sections and section_regs
**   max_warps  exec_kernel_attrs: the most warps a CTA of such a kernel may
**              have, each charged regs_per_warp (UINT32_MAX: no bound)
** Without hooks a kernel's ptx_func.rs only sets its charge. */
typedef struct exec_regshare {
    bool (*lowered)(const tp_opts *o);
    void (*occupancy)(const tp_opts *o, const ptx_func *kernel, exec_occ *occ);
    uint32_t (*max_warps)(const tp_opts *o, const ptx_func *kernel, uint32_t regs_per_warp);
} exec_regshare;
void exec_dev_set_regshare(exec_dev *d, const exec_regshare *h);

/* Runs the kernel over the whole grid in functional mode (exec/functional.c,
** a driver over the stepping interface below).  Returns r->status. */
exec_status exec_launch_kernel(exec_mod *m, int kernel, const exec_launch *l, exec_result *r);

/* ---- stepping: the door to the functional model --------------------------------
** A timing model drives execution one warp instruction at a time and decides
** which CTA runs on which SM and when each warp issues:
**
**   exec_grid_open      check the launch, lay out the kernel (as exec_launch_kernel does)
**   exec_cta_start      the next CTA in linear order (x fastest) becomes resident on an SM
**   exec_warp_next      what the warp runs next: its pc and that instruction's static facts
**   exec_warp_step      execute exactly that instruction, at a given cycle, and describe it
**   exec_cta_release    a finished CTA gives back its slot
**   exec_grid_close     the launch's result (status, message, counters)
**
** Execution is functional-first: an instruction's effects (registers,
** memory, barriers) happen entirely inside exec_warp_step; the caller only
** chooses the order and the cycle.  %clock and %clock64 read the cycle given
** to exec_warp_step.  Any interleaving the caller chooses gives a legal
** execution; the same choices give the same results.
**
** Static facts of an instruction (exec_sinfo) are computed once, at decode,
** from the same register lists liveness uses (ptx_insn_regs). */

typedef struct exec_grid exec_grid;
typedef struct exec_cta exec_cta;
typedef struct exec_warp exec_warp;

/* What kind of work an instruction is (the timing model maps these to its
** pipelines, latencies and initiation intervals). */
typedef enum exec_unit {
    EXEC_U_INT,    /* integer arithmetic, logic, shifts, moves, compares on integers, warp votes */
    EXEC_U_FP,     /* FP32 and FP16 arithmetic, compares and conversions */
    EXEC_U_DP,     /* FP64 arithmetic (and conversions to or from f64) */
    EXEC_U_SFU,    /* transcendentals, reciprocals and square roots (FP32) */
    EXEC_U_MEM,    /* ld, ldu, st, atom, red, prefetch, cvta, isspacep */
    EXEC_U_TEX,    /* texture and surface instructions */
    EXEC_U_CTRL,   /* bra, brx, call, ret, exit, trap, and the function-end pseudo instruction */
    EXEC_U_SYNC,   /* bar/barrier, membar/fence, nanosleep */
    EXEC_U_TENSOR, /* wmma.mma and mma: the tensor cores (lclass EXEC_L_TC_*, sinfo.macs) */
    EXEC_U_COUNT
} exec_unit;

typedef enum exec_lclass {
    EXEC_L_ADD,    /* the short class: add, logic, move, compare, convert ... */
    EXEC_L_MUL,
    EXEC_L_MAD,    /* multiply-add and fma */
    EXEC_L_DIV,    /* divide, remainder */
    EXEC_L_SFU,
    EXEC_L_MEM,
    EXEC_L_CTRL,
    EXEC_L_MAX,    /* min and max: their own class (GPGPU-Sim's "MAX"; lat.*_max) */
    EXEC_L_CVT64,  /* cvt to or from an f64 (lat.dp_cvt) */
    EXEC_L_RCP64,  /* rcp, sqrt, rsqrt of an f64 (lat.dp_rcp) */
    /* EXEC_U_TENSOR: what the multiply-accumulates are (ptx_tclass order) */
    EXEC_L_TC_F16,     /* f16 inputs, f16 accumulation */
    EXEC_L_TC_F16F32,  /* f16 or bf16 inputs, f32 accumulation */
    EXEC_L_TC_TF32,
    EXEC_L_TC_F64,
    EXEC_L_TC_I8,      /* s8/u8 inputs, s32 accumulation */
    EXEC_L_TC_I4,      /* s4/u4 inputs */
    EXEC_L_TC_B1,      /* b1 inputs (.and/.xor.popc) */
    EXEC_L_COUNT
} exec_lclass;

/* A register an instruction reads or writes.  Registers are the rows of the
** function's register table (ptx_insn_regs), predicates their own numbers,
** and the carry flag CC.CF one pseudo register. */
enum { EXEC_R_REG = 0, EXEC_R_PRED = 1, EXEC_R_CC = 2 };
typedef struct exec_opreg {
    uint16_t r;      /* row, predicate index, 0 for CC */
    uint8_t kind;    /* EXEC_R_* */
    uint8_t units;   /* 32-bit registers it occupies: 1, 2 (64-bit) or 4 (b128); 0 for predicates and CC */
} exec_opreg;

enum {
    EXEC_SI_LOAD = 1u << 0,     /* reads memory (ld, ldu, atom, tex, suld) */
    EXEC_SI_STORE = 1u << 1,    /* writes memory (st, atom, red, sust) */
    EXEC_SI_ATOMIC = 1u << 2,   /* atom, red */
    EXEC_SI_BRANCH = 1u << 3,   /* may change the pc other than to pc + 1 */
    EXEC_SI_BARRIER = 1u << 4,  /* bar/barrier (CTA-wide) */
    EXEC_SI_FENCE = 1u << 5,    /* membar/fence */
    EXEC_SI_WARPWIDE = 1u << 6, /* reads other lanes (shfl, vote, match, redux) */
    EXEC_SI_REGS_PARTIAL = 1u << 7, /* more registers than listed (a call's arguments): wait for all */
};

typedef struct exec_sinfo {
    uint8_t unit;      /* exec_unit */
    uint8_t lclass;    /* exec_lclass */
    uint8_t ndst;      /* regs[0 .. ndst): written */
    uint8_t nsrc;      /* regs[ndst .. ndst + nsrc): read (the guard predicate included) */
    uint8_t flags;     /* EXEC_SI_* */
    uint8_t space;     /* memory instructions: the ptx_space named (PTX_SP_GENERIC for generic) */
    uint8_t alone;     /* 1: reads and writes only its warp's registers, predicates and pc, and
                          cannot fault (arithmetic, logic, conversions, warp-wide register
                          exchanges, bra): may run beside other SMs' instructions (exec_warp_step_in) */
    uint16_t bytes;    /* memory instructions: bytes per lane (all vector elements);
                          wmma.load/.store: bytes per lane of each pass (exec_rec.npass) */
    uint32_t macs;     /* EXEC_U_TENSOR: multiply-accumulates of the warp instruction */
    const exec_opreg *regs;
} exec_sinfo;

/* Static facts of instruction pc of the module (module-global pc). */
const exec_sinfo *exec_mod_sinfo(const exec_mod *m, uint32_t pc);

/* What one exec_warp_step did. */
enum {
    EXEC_EV_BAR_WAIT = 1u << 0,     /* the warp now waits at barrier bar_id */
    EXEC_EV_BAR_RELEASE = 1u << 1,  /* a barrier of the CTA opened: warps that waited may run */
    EXEC_EV_WARP_DONE = 1u << 2,    /* the warp has no lanes left */
    EXEC_EV_CTA_DONE = 1u << 3,     /* ... and it was the CTA's last: exec_cta_release it */
    EXEC_EV_FAULT = 1u << 4,        /* the grid stopped with an error (exec_grid_status) */
    EXEC_EV_YIELD = 1u << 5,        /* nanosleep: the warp asks to let others run */
    EXEC_EV_WAIT_CONVERGE = 1u << 6,/* exec.its: the lanes' group waits to converge; another group runs */
    EXEC_EV_MIXED_SPACE = 1u << 7,  /* a generic access whose lanes hit different spaces: see lspace */
    EXEC_EV_SECTION_FREE = 1u << 8, /* register sharing: the warp gave its section back before the instruction */
};

/* Per-lane addresses of a memory access, each in the space it hits (generic
** addresses resolved; local addresses are offsets in the lane's own local
** memory, shared ones offsets in the CTA's shared memory, parameter ones
** offsets in the kernel's parameter buffer, global and constant ones device
** addresses).  Lanes outside `active` are not filled. */
typedef struct exec_rec {
    uint32_t pc;          /* module-global pc */
    uint32_t mask;        /* lanes at this pc (the SIMT entry's mask) */
    uint32_t active;      /* lanes that executed it (mask and the guard) */
    uint32_t events;      /* EXEC_EV_* */
    uint32_t bar_id;      /* EXEC_EV_BAR_WAIT */
    const exec_sinfo *si;
    /* memory instructions that executed in at least one lane: */
    uint8_t space;        /* PTX_SP_GLOBAL, _SHARED, _LOCAL, _CONST or _PARAM (the first active lane's when mixed) */
    uint8_t lspace[32];   /* EXEC_EV_MIXED_SPACE only: each active lane's space */
    uint64_t addr[32];
    /* wmma.load/.store: the access is npass warp-wide accesses of si->bytes
    ** per lane, in the one space `space`: pass 0 in addr, pass p > 0 at
    ** xaddr[(p - 1) * 32 + lane], valid until the next exec_warp_step.
    ** Every other instruction: npass 0, xaddr NULL. */
    uint8_t npass;
    const uint64_t *xaddr;
} exec_rec;
enum { EXEC_REC_MAXPASS = 16 };

typedef enum exec_wstate {
    EXEC_WS_READY,        /* has an instruction to run (exec_warp_next filled it in) */
    EXEC_WS_BARRIER,      /* waits at a CTA barrier */
    EXEC_WS_DONE,         /* finished */
} exec_wstate;

typedef struct exec_next {
    uint32_t pc;
    uint32_t mask;        /* lanes at the pc (before the guard) */
    const exec_sinfo *si;
    bool needs_section;   /* register sharing: the warp must hold a section to run it and holds
                             none (exec_warp_set_section gives it one) */
} exec_next;

/* Checks and lays out a launch like exec_launch_kernel.  On failure returns
** NULL with r->status and r->msg set. */
exec_grid *exec_grid_open(exec_mod *m, int kernel, const exec_launch *l, exec_result *r);
uint64_t exec_grid_ctas(const exec_grid *g);           /* CTAs in the grid */
uint64_t exec_grid_ctas_started(const exec_grid *g);
const exec_occ *exec_grid_occ(const exec_grid *g);      /* this launch's occupancy */
uint32_t exec_grid_warps_per_cta(const exec_grid *g);
uint32_t exec_grid_local_bytes(const exec_grid *g);     /* local memory per thread */
const char *exec_grid_kernel_name(const exec_grid *g);
const ptx_func *exec_grid_kernel(const exec_grid *g);   /* the kernel (of exec_mod_ptx) */
exec_status exec_grid_status(const exec_grid *g);
/* The watchdogs, to be called now and then (every few thousand
** instructions): livelock (exec.spin_limit instructions without a change to
** memory, a finished warp or an opened barrier; exec_warp_run runs no
** further and exec_warp_step reports it at the instruction that reaches the
** limit, so both modes stop at the same count), exec.max_warp_insns, and --
** when the caller says it is stuck (it can run nothing and start no CTA) --
** barrier deadlock.  They stop the grid with a report that says what every
** resident warp was doing.  Returns the grid's status. */
exec_status exec_grid_watchdog(exec_grid *g, bool stuck);
/* The clock %globaltimer counts in (default: device.clock_mhz). */
void exec_grid_set_clock_mhz(exec_grid *g, double mhz);
/* Ends the launch; fills r (status, message, counters); frees the grid. */
exec_status exec_grid_close(exec_grid *g, exec_result *r);

/* Starts the next CTA of the grid on SM sm (reported as %smid); NULL when
** every CTA has started.  The caller decides how many are resident. */
exec_cta *exec_cta_start(exec_grid *g, uint32_t sm);
uint32_t exec_cta_nwarps(const exec_cta *c);
exec_warp *exec_cta_warp(exec_cta *c, uint32_t i);
bool exec_cta_done(const exec_cta *c);
/* Gives a finished CTA's slot back (its memory is reused by later CTAs). */
void exec_cta_release(exec_cta *c);

uint32_t exec_warp_index(const exec_warp *w);    /* within its CTA */
/* The pcs at which the warp's lanes run next, one per group of lanes: the
** running entry's first, then every other SIMT stack entry that still has
** lanes (with exec.its: every thread group), at most max of them into pcs;
** returns how many there are. */
uint32_t exec_warp_pcs(const exec_warp *w, uint32_t *pcs, uint32_t max);
/* Brings the warp to its next instruction (finished reconvergence entries are
** popped, exec.its groups switched) and says what it is. */
exec_wstate exec_warp_next(exec_warp *w, exec_next *n);
/* Executes the instruction exec_warp_next named, as at core cycle `cycle`;
** rec (may be NULL) receives what happened.  The warp must be READY. */
void exec_warp_step(exec_warp *w, uint64_t cycle, exec_rec *rec);
/* A hint, no effect on results: asks the host to bring into its caches the
** register rows that instruction pc (the warp's next, or one after it in
** the same function) reads and writes, so that a timing model can call it
** a few simulated cycles before exec_warp_step. */
void exec_warp_prefetch(const exec_warp *w, uint32_t pc);

/* SMs on several host threads (a timing model's choice).  The grid keeps n
** step contexts, one per SM and any the model uses for partial sums
** (exec_grid_contexts); exec_warp_step_in runs an
** instruction as exec_warp_step does, counting it (warp and thread
** instructions, the livelock watchdog's count) in SM sm's context, and
** exec_grid_merge adds that context's counts to the grid's, in the order
** the model merges the SMs.  While no other host thread runs instructions,
** stepping in SM order and merging each SM after its steps gives exactly
** exec_warp_step's counts, faults and watchdog.  Instructions whose
** exec_sinfo.alone is set may run at once on other threads, beside one
** thread that runs the others; they also run after an instruction's fault
** has stopped the grid (the timing model's issue stage then counts them as
** issued, on any number of threads alike), but not after the livelock
** watchdog stopped it.  Between merges the watchdog counts from the grid's
** count at the last merge, so a model runs SMs together only while
** exec_grid_spin_room exceeds the instructions its cycle can run (and the
** watchdog then fires only while the SMs run in turn).  exec_grid_parallel_ok: false when the launch's
** instructions share more than the rules above allow (exec.its, a
** correctness check, exec.trace, shared-register sections). */
void exec_grid_contexts(exec_grid *g, uint32_t n);
void exec_warp_step_in(exec_warp *w, uint32_t sm, uint64_t cycle, exec_rec *rec);
void exec_grid_merge(exec_grid *g, uint32_t sm);
/* Adds context from's counts to context to's, as if from's instructions came
** after to's (a partial sum: a thread's SMs, merged later with
** exec_grid_merge(g, to)); merging in SM order this way gives what merging
** each SM into the grid in SM order gives. */
void exec_grid_merge_into(exec_grid *g, uint32_t from, uint32_t to);
uint64_t exec_grid_spin_room(const exec_grid *g);
bool exec_grid_parallel_ok(const exec_grid *g);
/* The functional fast path: runs up to budget instructions of the warp
** without records (%clock counts warp instructions), stopping early when it
** waits, finishes or yields.  Returns how many ran. */
uint32_t exec_warp_run(exec_warp *w, uint32_t budget);
/* One CTA's turn in functional mode: its warps in rounds of up to quantum
** instructions each, until none runs, one yields, the grid stops or the CTA
** has run patience instructions without progress (memory written, a warp
** finished, a barrier opened); patience 0 is one round.  Returns the
** instructions run.  Functional mode and sampling's skipped CTAs use it. */
uint64_t exec_cta_run(exec_cta *c, uint32_t quantum, uint64_t patience);
/* Runs the next n CTAs of the grid functionally, res of them resident at
** once in slots taken in turn (a CTA on SM "CTAs started so far" mod nsm),
** each slot's CTA one exec_cta_run turn in each walk over the slots, the
** watchdog after each walk.  Returns the CTAs started (fewer than n if the
** grid stopped).  exec_launch_kernel is this over the whole grid. */
uint64_t exec_grid_run(exec_grid *g, uint64_t n, uint64_t res, uint32_t nsm, uint32_t quantum, uint64_t patience);

/* ---- shared-register sections (ptx_func.rs) ---------------------------------------
** A kernel a register-sharing policy marked (ptx_func.rs) keeps each warp's
** registers >= its base set in a section of storage shared by the SM's
** warps, which the warp holds between an acquire point and a release point
** (PTX_RS_*).  Without a timing model (functional mode) exec gives every
** warp a private section when it acquires.  A timing model that hands the
** sections out calls exec_grid_section_pool once after exec_grid_open: then
** exec keeps exec_occ.sections sections of storage per SM, a warp whose next
** instruction says needs_section (exec_next) must be given one with
** exec_warp_set_section before it is stepped (else the step faults), and
** EXEC_EV_SECTION_FREE says when it gave it back (a warp that finishes gives
** it back too).  A warp that reads or writes a register >= the base set
** without a section faults; two warps given the same section corrupt each
** other. */
void exec_grid_section_pool(exec_grid *g);
void exec_warp_set_section(exec_warp *w, uint32_t section);

#endif
