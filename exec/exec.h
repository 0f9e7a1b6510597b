/*
** exec.h -- the public interface of the functional SIMT model.
** Module prefix: exec_.
**
** This is the only header api/ and (later) gpu/ include from exec/.  A
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

/* ---- device memory -------------------------------------------------------- */

/* Allocates bytes (0 is allowed and gives a distinct address) aligned to
** align (a power of two, at least 256 is used).  Returns 0 when out of memory. */
uint64_t exec_mem_alloc(exec_dev *d, uint64_t bytes, uint64_t align);
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
void exec_mod_unload(exec_mod *m);
const ptx_module *exec_mod_ptx(const exec_mod *m);
/* Index of the kernel (.entry) named name, or -1. */
int exec_mod_kernel(const exec_mod *m, const char *name);
/* Device address and size of a module-scope .global or .const variable. */
bool exec_mod_global(const exec_mod *m, const char *name, uint64_t *addr, uint64_t *bytes);

typedef struct exec_kattr {
    uint32_t regs;          /* allocated 32-bit registers per thread */
    uint32_t shared_static; /* bytes of static shared memory */
    uint32_t const_bytes;   /* bytes of the module's constant bank the kernel may read */
    uint32_t local_bytes;   /* per-thread local memory of the kernel's own frame */
    uint32_t max_threads;   /* largest CTA this kernel can be launched with */
    uint32_t param_bytes;
    uint32_t ptx_version;   /* major*10 + minor */
    uint32_t binary_version;/* target sm */
} exec_kattr;
void exec_kernel_attrs(exec_mod *m, int kernel, exec_kattr *a);

/* ---- texture and surface objects --------------------------------------------
** A texture or surface object is a 64-bit handle a kernel receives as a
** parameter (cudaTextureObject_t) and names in tex/tld4/txq or suld/sust/suq.
** The data is device memory in pitch-linear layout: element (x, y, z) of
** `bytes_per_elem` = channels * channel_bits / 8 bytes is at
** addr + z * pitch * height + y * pitch + x * bytes_per_elem. */
typedef enum exec_texfmt { EXEC_TEX_UNSIGNED, EXEC_TEX_SIGNED, EXEC_TEX_FLOAT } exec_texfmt;
typedef enum exec_texaddr { EXEC_TEX_WRAP, EXEC_TEX_CLAMP, EXEC_TEX_MIRROR, EXEC_TEX_BORDER } exec_texaddr;

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
} exec_texdesc;

/* Creates a texture (surface: is_surface) object; returns its handle, never 0. */
uint64_t exec_tex_create(exec_dev *d, const exec_texdesc *desc, bool is_surface);
bool exec_tex_destroy(exec_dev *d, uint64_t handle);
/* The description of a live handle. */
const exec_texdesc *exec_tex_get(const exec_dev *d, uint64_t handle);

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
} exec_launch;

typedef struct exec_result {
    exec_status status;
    char msg[1024];           /* on failure: what happened, with kernel, block, thread, pc, address */
    uint64_t warp_insns;      /* warp instructions executed */
    uint64_t thread_insns;    /* thread instructions executed (active lanes) */
    uint32_t regs_per_thread;
} exec_result;

/* CTAs of this kernel the whole device holds at once with this launch's
** block size and dynamic shared memory (occupancy per SM x SMs). */
uint32_t exec_max_resident_ctas(exec_mod *m, int kernel, const exec_launch *l);

/* Runs the kernel over the whole grid.  Returns r->status. */
exec_status exec_launch_kernel(exec_mod *m, int kernel, const exec_launch *l, exec_result *r);

#endif
