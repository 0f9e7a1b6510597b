/*
** harness.c -- the driver-API programs' shared harness (harness.h).
*/
#include "harness.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- results ------------------------------------------------------------------ */

int th_msg(th_ctx *c, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return rc;
}

const char *th_errname(CUresult r)
{
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) return "?";
    return s;
}

void th_report(const char *name, int rc, const char *msg)
{
    switch (rc) {
    case TH_OK: printf("PASS %s\n", name); break;
    case TH_SKIP: printf("SKIP %s: %s\n", name, msg); break;
    default: printf("FAIL %s: %s\n", name, msg); break;
    }
    fflush(stdout);
}

/* ---- what a context holds ---------------------------------------------------------- */

static void th_oom(const th_ctx *c)
{
    fprintf(stderr, "%s: out of memory\n", c->prog ? c->prog : "harness");
    exit(2);
}

/* Makes room for one more element in the array *v of *n (capacity *cap). */
static void th_grow(th_ctx *c, void **v, int n, int *cap, size_t size)
{
    if (n < *cap) return;
    int ncap = *cap ? 2 * *cap : 16;
    void *nv = realloc(*v, (size_t)ncap * size);
    if (!nv) th_oom(c);
    *v = nv;
    *cap = ncap;
}

static void th_keep_module(th_ctx *c, CUmodule m)
{
    th_grow(c, (void **)&c->mods, c->nmods, &c->capmods, sizeof *c->mods);
    c->mods[c->nmods++] = m;
    c->mod = m;
}

void th_release(th_ctx *c)
{
    for (int i = 0; i < c->nallocs; i++) cuMemFree(c->allocs[i]);
    c->nallocs = 0;
    for (int i = 0; i < c->nhost; i++) free(c->host[i]);
    c->nhost = 0;
    for (int i = 0; i < c->nmods; i++) cuModuleUnload(c->mods[i]);
    c->nmods = 0;
    c->mod = NULL;
}

/* ---- the device and a context ------------------------------------------------- */

int th_device(th_ctx *c)
{
    int major = 0, minor = 0;
    const char *why = NULL;
    CUresult r;
    if ((r = cuInit(0)) != CUDA_SUCCESS) why = "cuInit";
    else if ((r = cuDeviceGet(&c->dev, 0)) != CUDA_SUCCESS) why = "cuDeviceGet";
    else if ((r = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, c->dev)) != CUDA_SUCCESS ||
             (r = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, c->dev)) != CUDA_SUCCESS ||
             (r = cuDeviceGetAttribute(&c->nsm, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, c->dev)) != CUDA_SUCCESS)
        why = "cuDeviceGetAttribute";
    c->cc = major * 10 + minor;
    if (why) return th_fail(c, "%s returned %s (%d)", why, th_errname(r), (int)r);
    return TH_OK;
}

int th_open(th_ctx *c)
{
    CUresult r = cuCtxCreate(&c->ctx, NULL, 0, c->dev);
    if (r != CUDA_SUCCESS) {
        c->ctx = NULL;
        return th_fail(c, "cuCtxCreate returned %s (%d)", th_errname(r), (int)r);
    }
    return TH_OK;
}

void th_close(th_ctx *c)
{
    th_release(c);
    if (c->ctx) cuCtxDestroy(c->ctx);
    c->ctx = NULL;
    free(c->allocs);
    free(c->host);
    free(c->mods);
    c->allocs = NULL;
    c->host = NULL;
    c->mods = NULL;
    c->capallocs = c->caphost = c->capmods = 0;
}

/* ---- modules and kernels ---------------------------------------------------------- */

/* Reads a whole file into a NUL-terminated malloc'ed buffer (NULL if it cannot). */
static char *th_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len + 1 < cap) break;
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (buf) buf[len] = '\0';
    return buf;
}

int th_module(th_ctx *c, const char *file, CUmodule *m)
{
    char path[4096];
    CUmodule mod;
    snprintf(path, sizeof path, "%s/%s", c->ptxdir, file);
    CUresult r = cuModuleLoad(&mod, path);
    if (r != CUDA_SUCCESS) return th_fail(c, "cuModuleLoad(%s) returned %s (%d)", path, th_errname(r), (int)r);
    th_keep_module(c, mod);
    if (m) *m = mod;
    return TH_OK;
}

int th_module_data(th_ctx *c, const char *file, CUmodule *m)
{
    char path[4096];
    CUmodule mod;
    snprintf(path, sizeof path, "%s/%s", c->ptxdir, file);
    char *text = th_read_file(path);
    if (!text) return th_fail(c, "cannot read %s", path);
    CUresult r = cuModuleLoadData(&mod, text);
    free(text);
    if (r != CUDA_SUCCESS) return th_fail(c, "cuModuleLoadData(%s) returned %s (%d)", path, th_errname(r), (int)r);
    th_keep_module(c, mod);
    if (m) *m = mod;
    return TH_OK;
}

int th_func(th_ctx *c, CUmodule m, const char *name, CUfunction *f)
{
    CUresult r = cuModuleGetFunction(f, m, name);
    if (r != CUDA_SUCCESS) return th_fail(c, "cuModuleGetFunction(%s) returned %s (%d)", name, th_errname(r), (int)r);
    return TH_OK;
}

int th_launch(th_ctx *c, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
              unsigned shmem, void **args)
{
    CUresult r = cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, NULL, args, NULL);
    if (r != CUDA_SUCCESS)
        return th_fail(c, "cuLaunchKernel(grid %ux%ux%u, block %ux%ux%u) returned %s (%d)", gx, gy, gz, bx, by, bz,
                       th_errname(r), (int)r);
    r = cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return th_fail(c, "cuCtxSynchronize after the launch returned %s (%d)", th_errname(r), (int)r);
    return TH_OK;
}

/* ---- buffers --------------------------------------------------------------------- */

int th_alloc(th_ctx *c, size_t bytes, CUdeviceptr *p)
{
    CUresult r = cuMemAlloc(p, bytes ? bytes : 1);
    if (r != CUDA_SUCCESS) return th_fail(c, "cuMemAlloc(%zu) returned %s (%d)", bytes, th_errname(r), (int)r);
    th_grow(c, (void **)&c->allocs, c->nallocs, &c->capallocs, sizeof *c->allocs);
    c->allocs[c->nallocs++] = *p;
    return TH_OK;
}

int th_upload(th_ctx *c, const void *h, size_t bytes, CUdeviceptr *p)
{
    TH_TRY(th_alloc(c, bytes, p));
    CUresult r = h ? cuMemcpyHtoD(*p, h, bytes) : cuMemsetD8(*p, 0, bytes);
    if (r != CUDA_SUCCESS)
        return th_fail(c, "%s(%zu bytes) returned %s (%d)", h ? "cuMemcpyHtoD" : "cuMemsetD8", bytes, th_errname(r),
                       (int)r);
    return TH_OK;
}

int th_download(th_ctx *c, void *h, CUdeviceptr p, size_t bytes)
{
    CUresult r = cuMemcpyDtoH(h, p, bytes);
    if (r != CUDA_SUCCESS) return th_fail(c, "cuMemcpyDtoH(%zu bytes) returned %s (%d)", bytes, th_errname(r), (int)r);
    return TH_OK;
}

void *th_host(th_ctx *c, size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) th_oom(c);
    th_grow(c, (void **)&c->host, c->nhost, &c->caphost, sizeof *c->host);
    c->host[c->nhost++] = p;
    return p;
}

/* ---- comparing with a CPU reference ----------------------------------------------- */

int th_check_u16(th_ctx *c, const char *what, const uint16_t *got, const uint16_t *exp, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != exp[i]) return th_fail(c, "%s[%zu]: got 0x%04x expected 0x%04x", what, i, got[i], exp[i]);
    return TH_OK;
}

int th_check_u32(th_ctx *c, const char *what, const uint32_t *got, const uint32_t *exp, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != exp[i])
            return th_fail(c, "%s[%zu]: got 0x%08" PRIx32 " expected 0x%08" PRIx32, what, i, got[i], exp[i]);
    return TH_OK;
}

int th_check_u64(th_ctx *c, const char *what, const uint64_t *got, const uint64_t *exp, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != exp[i])
            return th_fail(c, "%s[%zu]: got 0x%016" PRIx64 " expected 0x%016" PRIx64, what, i, got[i], exp[i]);
    return TH_OK;
}

/* Element k's tolerance under t (t not NULL). */
static double th_tol_at(const th_tol *t, const double *ref, size_t k)
{
    double tol = t->abs ? t->abs[k] : 0.0;
    if (t->rel != 0.0) tol += t->rel * (fabs(ref[k]) + t->floor);
    return tol;
}

int th_check_f32(th_ctx *c, const char *what, const float *got, const double *ref, size_t n, const th_tol *t)
{
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < n; k++) {
        bool ok = t ? fabs((double)got[k] - ref[k]) <= th_tol_at(t, ref, k) : (double)got[k] == ref[k];
        if (!ok && bad++ == 0) first = k;
    }
    if (!bad) return TH_OK;
    char where[64];
    if (t && t->cols) snprintf(where, sizeof where, "[%zu][%zu]", first / t->cols, first % t->cols);
    else snprintf(where, sizeof where, "[%zu]", first);
    return th_fail(c, "%s%s = %.9g, expected %.9g (tolerance %.3g); %zu of %zu elements wrong", what, where,
                   (double)got[first], ref[first], t ? th_tol_at(t, ref, first) : 0.0, bad, n);
}

/* ---- arguments ---------------------------------------------------------------------- */

int th_args_parse(th_args *a, int argc, char **argv, unsigned accept, const char *ptxdir, const char *usage)
{
    bool dir = false;
    memset(a, 0, sizeof *a);
    a->ptxdir = ptxdir;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        bool value = i + 1 < argc;
        if ((accept & TH_ARG_PTX) && !strcmp(s, "--ptx") && value) a->ptxdir = argv[++i];
        else if ((accept & TH_ARG_ONLY) && !strcmp(s, "--only") && value) a->only = argv[++i];
        else if ((accept & TH_ARG_SMALL) && !strcmp(s, "--small")) a->small = true;
        else if ((accept & TH_ARG_LIST) && !strcmp(s, "--list")) a->list = true;
        else if (s[0] == '-' || ((accept & TH_ARG_DIR) && dir)) {
            fprintf(stderr, "usage: %s\n", usage);
            return 2;
        } else if (accept & TH_ARG_DIR) {
            a->ptxdir = s;
            dir = true;
        } else if (a->nnames < TH_ARGS_MAX) a->names[a->nnames++] = s;
        else {
            fprintf(stderr, "usage: %s (at most %d names)\n", usage, TH_ARGS_MAX);
            return 2;
        }
    }
    return 0;
}
