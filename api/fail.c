/*
** fail.c -- the account of the CUDA calls that failed.
**
** Every exported entry point of libcuda.so.1 runs inside API_LOCKED
** (api.h): api_enter takes the lock and counts the calling thread's
** nesting, api_leave gives it back.  When the outermost entry point returns
** an error -- CUDA_ERROR_NOT_READY is a status, not an error -- the failure
** is recorded here, unless tpsim's own runtime made the call: the program
** then sees the runtime's error, so the driver keeps the failure for the
** runtime to take (rtiface.h), and the runtime records its own, with the
** driver's reason.
**
** A failure is (entry point, error name, kernel, calling library, reason)
** with a count: the same failure again counts up.  The reason is the
** sentence the refusing code gave (api_why), or the error's description.
** At most API_FAIL_MAX distinct failures are listed; later new ones are
** only counted.  stats.c writes the list to the TPSIM_STATS file, from
** which `tpsim run` prints it at exit.
*/
#include "api.h"
#include "rtiface.h"
#include "../base/dso.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define API_FAIL_MAX 256
#define API_WHY_BYTES 1024
#define API_KERNEL_BYTES 256

typedef struct why_state {
    int depth;                      /* nesting of entry points on this thread */
    char why[API_WHY_BYTES];        /* the current call's reason ("" when none) */
    char kernel[API_KERNEL_BYTES];  /* the current call's kernel ("" when none) */
    /* the last failure of a driver call the runtime made */
    CUresult rt_result;
    char rt_why[API_WHY_BYTES];
    char rt_kernel[API_KERNEL_BYTES];
} why_state;

static _Thread_local why_state tls;

static api_fail fails[API_FAIL_MAX];
static uint32_t nfails;
static uint64_t unlisted;

/* Where tpsim's runtime is loaded (0, 0 until it says). */
static uintptr_t rt_lo, rt_hi;

void api_why(const char *fmt, ...)
{
    if (tls.why[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tls.why, sizeof tls.why, fmt, ap);
    va_end(ap);
}

const char *api_why_text(void) { return tls.why[0] ? tls.why : NULL; }

void api_why_kernel(const char *name)
{
    if (!tls.kernel[0] && name) snprintf(tls.kernel, sizeof tls.kernel, "%s", name);
}

/* The API's name for an exported symbol: cuMemAlloc_v2 -> cuMemAlloc,
** cuLaunchKernel_ptsz -> cuLaunchKernel. */
static void api_name(const char *fn, char *out, size_t n)
{
    snprintf(out, n, "%s", fn);
    for (;;) {
        size_t len = strlen(out);
        if (len > 5 && (strcmp(out + len - 5, "_ptds") == 0 || strcmp(out + len - 5, "_ptsz") == 0)) {
            out[len - 5] = '\0';
            continue;
        }
        char *v = strrchr(out, '_');
        if (v && v[1] == 'v' && v[2] && strspn(v + 2, "0123456789") == strlen(v + 2)) {
            *v = '\0';
            continue;
        }
        break;
    }
}

static bool same(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

void api_fail_add(const char *api, const char *error, const char *kernel, const char *why, const void *caller)
{
    char name[128], lib[256];
    api_name(api ? api : "?", name, sizeof name);
    const char *l = tp_dso_lib_name(caller, lib, sizeof lib) ? lib : NULL;
    if (kernel && !kernel[0]) kernel = NULL;
    if (!error) error = "CUDA_ERROR_UNKNOWN";
    if (!why || !why[0]) why = "(no reason given)";
    api_lock();
    uint32_t i = 0;
    while (i < nfails && !(same(fails[i].api, name) && same(fails[i].error, error) && same(fails[i].kernel, kernel) &&
                           same(fails[i].lib, l) && same(fails[i].why, why)))
        i++;
    if (i < nfails) {
        fails[i].count++;
    } else if (nfails < API_FAIL_MAX) {
        api_fail *f = &fails[nfails++];
        f->api = tp_strdup(name);
        f->error = tp_strdup(error);
        f->kernel = kernel ? tp_strdup(kernel) : NULL;
        f->lib = l ? tp_strdup(l) : NULL;
        f->why = tp_strdup(why);
        f->count = 1;
    } else {
        unlisted++;
    }
    api_stats_init();   /* the statistics file lists failures even without cuInit */
    api_unlock();
}

static api_fail *fail_rows = fails;   /* the table's row pointer */
static tp_stat_col fail_cols[6];
static tp_stat_table fail_table;

void api_fail_register(tp_stats *s)
{
    static const struct { const char *name; tp_stat_kind kind; size_t off; } cols[6] = {
        {"api", TP_STAT_STR, offsetof(api_fail, api)},      {"error", TP_STAT_STR, offsetof(api_fail, error)},
        {"kernel", TP_STAT_STR, offsetof(api_fail, kernel)}, {"caller", TP_STAT_STR, offsetof(api_fail, lib)},
        {"reason", TP_STAT_STR, offsetof(api_fail, why)},   {"count", TP_STAT_U64, offsetof(api_fail, count)},
    };
    for (int i = 0; i < 6; i++) fail_cols[i] = (tp_stat_col){cols[i].name, cols[i].kind, cols[i].off};
    fail_table = (tp_stat_table){fail_cols, 6, sizeof(api_fail), (size_t)(uintptr_t)&fail_rows,
                                 (size_t)(uintptr_t)&nfails};
    tp_stats_table(s, "failures", &fail_table,
                   "CUDA calls that returned an error to the program: entry point, error, kernel, calling "
                   "library (\"\" for the program), reason, count");
}

const api_fail *api_fail_list(uint32_t *n, uint64_t *not_listed)
{
    *n = nfails;
    *not_listed = unlisted;
    return fails;
}

static bool from_runtime(const void *caller)
{
    uintptr_t a = (uintptr_t)caller;
    return rt_hi && a >= rt_lo && a < rt_hi;
}

void api_enter(void)
{
    api_lock();
    if (tls.depth++ == 0) tls.why[0] = tls.kernel[0] = '\0';
}

CUresult api_leave(const char *fn, CUresult r, const void *caller)
{
    if (--tls.depth == 0) {
        if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY) {
            const char *why = tls.why[0] ? tls.why : api_result_desc(r);
            if (from_runtime(caller)) {
                tls.rt_result = r;
                snprintf(tls.rt_why, sizeof tls.rt_why, "%s", why ? why : "");
                snprintf(tls.rt_kernel, sizeof tls.rt_kernel, "%s", tls.kernel);
            } else {
                api_fail_add(fn, api_result_name(r), tls.kernel, why, caller);
            }
        }
        tls.why[0] = tls.kernel[0] = '\0';
    }
    api_unlock();
    return r;
}

/* ---- the runtime's table ------------------------------------------------------ */

static void rt_runtime_is(const void *addr)
{
    uintptr_t lo, hi;
    if (!tp_dso_range(addr, &lo, &hi)) return;
    api_lock();
    rt_lo = lo;
    rt_hi = hi;
    api_unlock();
}

static int rt_take_failure(char *kernel, size_t kn, char *why, size_t wn)
{
    int r = (int)tls.rt_result;
    if (kernel && kn) snprintf(kernel, kn, "%s", r ? tls.rt_kernel : "");
    if (why && wn) snprintf(why, wn, "%s", r ? tls.rt_why : "");
    tls.rt_result = CUDA_SUCCESS;
    tls.rt_why[0] = tls.rt_kernel[0] = '\0';
    return r;
}

static void rt_note_refused_launch(const char *kernel, const unsigned grid[3], const unsigned block[3], size_t shared,
                                   const char *error, const char *why)
{
    uint32_t g[3] = {grid[0], grid[1], grid[2]}, b[3] = {block[0], block[1], block[2]};
    api_lock();
    api_stats_refused(kernel, g, b, (uint32_t)TP_MIN(shared, (size_t)UINT32_MAX), 0, CUDA_ERROR_INVALID_VALUE, error,
                      why);
    api_unlock();
}

static const api_rtiface rtiface = {
    sizeof(api_rtiface), rt_runtime_is, rt_take_failure, api_fail_add, rt_note_refused_launch,
};

const void *api_rtiface_table(void) { return &rtiface; }
