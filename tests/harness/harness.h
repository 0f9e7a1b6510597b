/*
** harness.h -- what tpsim's whole-kernel driver-API programs share: the
** kernel suite's runner (tests/kernels), the PolyBench-style validation
** kernels (tests/polybench), the microbenchmarks (tests/ubench), the
** RegMutex and WarpPool experiments' hosts (experiments/regmutex/rmbench.c,
** experiments/warppool/wpbench.c).  Plain
** C11 against cuda.h (NVIDIA's when installed, else api/include/cuda.h), so
** each runs unchanged on a GPU.  Module prefix: th_.
**
** A program holds one th_ctx: the device (th_device), a context (th_open,
** or one of its own), and what a test or benchmark loaded and allocated,
** released together by th_release.  Every helper returns TH_OK, or TH_FAIL
** with c->msg saying what failed -- the call, its arguments and the
** CUresult's name and number -- so a program reports "FAIL NAME: msg".
*/
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Results: the helpers return TH_OK or TH_FAIL; a test may also SKIP. */
enum { TH_OK = 0, TH_FAIL = 1, TH_SKIP = 2 };

typedef struct th_ctx {
    const char *prog;   /* the program's name, in messages to stderr */
    const char *ptxdir; /* where th_module finds PTX files */
    bool small;         /* --small: the inputs of a quick functional run */
    CUdevice dev;
    int cc;             /* compute capability, major * 10 + minor */
    int nsm;            /* multiprocessor count */
    CUcontext ctx;      /* th_open's */
    CUmodule mod;       /* the module th_module loaded last */
    CUmodule *mods;     /* what th_release unloads and frees */
    int nmods, capmods;
    CUdeviceptr *allocs;
    int nallocs, capallocs;
    void **host;
    int nhost, caphost;
    char msg[1024];     /* why a helper failed (or a test was skipped) */
} th_ctx;

/* ---- results ------------------------------------------------------------------ */

/* Sets c->msg and returns rc (TH_FAIL, TH_SKIP). */
int th_msg(th_ctx *c, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define th_fail(c, ...) th_msg((c), TH_FAIL, __VA_ARGS__)
#define th_skip(c, ...) th_msg((c), TH_SKIP, __VA_ARGS__)
/* The CUresult's name (CUDA_ERROR_...), "?" when the driver has none. */
const char *th_errname(CUresult r);
/* Evaluates a driver call in a function returning int; on failure it
** returns TH_FAIL with "file:line: call returned NAME (number)". */
#define TH_CU(c, call)                                                                                     \
    do {                                                                                                   \
        CUresult th_r_ = (call);                                                                           \
        if (th_r_ != CUDA_SUCCESS)                                                                         \
            return th_fail((c), "%s:%d: %s returned %s (%d)", __FILE__, __LINE__, #call, th_errname(th_r_), \
                           (int)th_r_);                                                                    \
    } while (0)
/* Returns a helper's result when it is not TH_OK. */
#define TH_TRY(x)                         \
    do {                                  \
        int th_t_ = (x);                  \
        if (th_t_ != TH_OK) return th_t_; \
    } while (0)
/* Prints a test's line, "PASS name", "SKIP name: msg" or "FAIL name: msg",
** and flushes it. */
void th_report(const char *name, int rc, const char *msg);

/* ---- the device and a context ------------------------------------------------- */

/* cuInit, then device 0, its compute capability and multiprocessor count
** into c; TH_FAIL with "CALL returned NAME (number)" when one fails. */
int th_device(th_ctx *c);
/* A context of c's own on c->dev (cuCtxCreate). */
int th_open(th_ctx *c);
/* th_release, then destroys th_open's context. */
void th_close(th_ctx *c);
/* Frees every buffer and host array and unloads every module c holds. */
void th_release(th_ctx *c);

/* ---- modules and kernels ---------------------------------------------------------- */

/* Loads c->ptxdir/file (cuModuleLoad); the module goes to *m (when m is not
** NULL) and to c->mod. */
int th_module(th_ctx *c, const char *file, CUmodule *m);
/* The same through cuModuleLoadData, from the file's text read here. */
int th_module_data(th_ctx *c, const char *file, CUmodule *m);
int th_func(th_ctx *c, CUmodule m, const char *name, CUfunction *f);
/* cuLaunchKernel on a gx x gy x gz grid of bx x by x bz blocks with shmem
** bytes of dynamic shared memory, then cuCtxSynchronize. */
int th_launch(th_ctx *c, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
              unsigned shmem, void **args);
static inline unsigned th_cdiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

/* ---- buffers --------------------------------------------------------------------- */

int th_alloc(th_ctx *c, size_t bytes, CUdeviceptr *p);
/* A buffer of `bytes` holding a copy of h, or zeros when h is NULL. */
int th_upload(th_ctx *c, const void *h, size_t bytes, CUdeviceptr *p);
int th_download(th_ctx *c, void *h, CUdeviceptr p, size_t bytes);
/* `bytes` of zeroed host memory, freed by th_release; a program that cannot
** get it stops ("PROG: out of memory", exit status 2). */
void *th_host(th_ctx *c, size_t bytes);

/* ---- comparing with a CPU reference ----------------------------------------------- */

/* Integers: equal, element for element; the first difference is reported
** as "what[i]: got 0x... expected 0x...". */
int th_check_u16(th_ctx *c, const char *what, const uint16_t *got, const uint16_t *exp, size_t n);
int th_check_u32(th_ctx *c, const char *what, const uint32_t *got, const uint32_t *exp, size_t n);
int th_check_u64(th_ctx *c, const char *what, const uint64_t *got, const uint64_t *exp, size_t n);

/* The tolerance of th_check_f32: element k passes when
**   |got[k] - ref[k]| <= abs[k] + rel * (|ref[k]| + floor)
** (abs NULL: no absolute part; rel 0: no relative part).  cols > 0 names
** an element [row][col] of a matrix of that many columns. */
typedef struct th_tol {
    const double *abs;
    double rel, floor;
    size_t cols;
} th_tol;
/* got against a reference computed in double, within t (NULL: exactly);
** reports the first element out of bounds and how many are. */
int th_check_f32(th_ctx *c, const char *what, const float *got, const double *ref, size_t n, const th_tol *t);

/* ---- arguments ---------------------------------------------------------------------- */

/* The options a program takes (th_args_parse's `accept`). */
enum {
    TH_ARG_PTX = 1u << 0,   /* --ptx DIR */
    TH_ARG_SMALL = 1u << 1, /* --small */
    TH_ARG_LIST = 1u << 2,  /* --list */
    TH_ARG_ONLY = 1u << 3,  /* --only NAME */
    TH_ARG_DIR = 1u << 4,   /* a word is the PTX directory (one at most, no NAMEs) */
};

#define TH_ARGS_MAX 256 /* names at most on one command line */

typedef struct th_args {
    const char *ptxdir; /* --ptx, else the default given */
    bool small, list;
    const char *only;
    const char *names[TH_ARGS_MAX]; /* the other words, in order */
    int nnames;
} th_args;

/* Parses argv[1..]: the options `accept` names, in any place, and names.
** Returns 0, or 2 after printing "usage: USAGE" to stderr (an option not
** accepted, one missing its value, a second directory, more than
** TH_ARGS_MAX names). Allocates nothing. */
int th_args_parse(th_args *a, int argc, char **argv, unsigned accept, const char *ptxdir, const char *usage);

#endif
