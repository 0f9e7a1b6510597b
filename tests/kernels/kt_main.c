/*
** kt_main.c -- the runner's entry point.
**
**   runner PTXDIR            runs every test not marked KT_ISOLATE or KT_STDOUT
**   runner PTXDIR --only N   runs test N alone (the way those two kinds run)
**   runner PTXDIR --list     prints "name" or "name isolate" / "name stdout"
**
** Each test runs in a context of its own, created before and destroyed after
** it, so a test that leaves memory or a failed launch behind does not touch
** the next.  One line per test: "PASS name", "FAIL name: reason" or
** "SKIP name: reason".  The exit status is 0 when nothing failed.
*/
#include "kt.h"

#include <stdio.h>
#include <string.h>

static const kt_test *const kt_tables[] = {
    kt_tests_int, kt_tests_float, kt_tests_half, kt_tests_mem, kt_tests_warp, kt_tests_ctrl, kt_tests_err,
};

static int kt_usage(void)
{
    fprintf(stderr, "usage: runner PTXDIR [--only NAME] [--list]\n");
    return 2;
}

/* Runs one test in a fresh context and prints its line.  Returns 1 on FAIL. */
static int kt_run_one(const kt_test *t, const char *ptxdir, CUdevice dev, int cc, int nsm)
{
    static kt_ctx c;
    memset(&c, 0, sizeof c);
    c.ptxdir = ptxdir;
    c.dev = dev;
    c.cc = cc;
    c.nsm = nsm;
    kt_res res;
    CUresult r = cuCtxCreate(&c.ctx, NULL, 0, dev);
    if (r != CUDA_SUCCESS) {
        res = kt_fail(&c, "cuCtxCreate returned %s (%d)", kt_errname(r), (int)r);
    } else {
        fflush(stdout); /* keep our lines and device printf output in order */
        res = t->run(&c);
        if (res == KT_PASS && !(t->flags & KT_ISOLATE)) {
            r = cuCtxSynchronize();
            if (r != CUDA_SUCCESS)
                res = kt_fail(&c, "context left in error state %s (%d)", kt_errname(r), (int)r);
        }
        kt_release(&c);
        cuCtxDestroy(c.ctx);
    }
    switch (res) {
    case KT_PASS: printf("PASS %s\n", t->name); break;
    case KT_SKIP: printf("SKIP %s: %s\n", t->name, c.msg); break;
    default: printf("FAIL %s: %s\n", t->name, c.msg); break;
    }
    fflush(stdout);
    return res == KT_FAIL;
}

int main(int argc, char **argv)
{
    const char *ptxdir = NULL, *only = NULL;
    int list = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = 1;
        else if (argv[i][0] == '-' || ptxdir) return kt_usage();
        else ptxdir = argv[i];
    }
    if (!ptxdir && !list) return kt_usage();

    int found = 0;
    for (size_t k = 0; k < sizeof kt_tables / sizeof kt_tables[0]; k++)
        for (const kt_test *t = kt_tables[k]; t->name; t++) {
            if (only && strcmp(t->name, only)) continue;
            found++;
            if (list)
                printf("%s%s\n", t->name,
                       (t->flags & KT_ISOLATE) ? " isolate" : (t->flags & KT_STDOUT) ? " stdout" : "");
        }
    if (list) return 0;
    if (only && !found) {
        fprintf(stderr, "runner: no test named %s\n", only);
        return 2;
    }

    /* Everything below needs the driver; if it cannot start, every selected
    ** test fails with the reason. */
    CUdevice dev = 0;
    int major = 0, minor = 0, nsm = 0;
    const char *why = NULL;
    CUresult r = cuInit(0);
    if (r != CUDA_SUCCESS) why = "cuInit";
    else if ((r = cuDeviceGet(&dev, 0)) != CUDA_SUCCESS) why = "cuDeviceGet";
    else if ((r = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)) != CUDA_SUCCESS ||
             (r = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)) != CUDA_SUCCESS ||
             (r = cuDeviceGetAttribute(&nsm, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev)) != CUDA_SUCCESS)
        why = "cuDeviceGetAttribute";

    int failed = 0;
    if (!why && !kt_fenv_works()) {
        fprintf(stderr, "runner: the host does not honour fesetround; references would be wrong\n");
        return 2;
    }
    for (size_t k = 0; k < sizeof kt_tables / sizeof kt_tables[0]; k++)
        for (const kt_test *t = kt_tables[k]; t->name; t++) {
            if (only ? strcmp(t->name, only) != 0 : (t->flags & (KT_ISOLATE | KT_STDOUT)) != 0) continue;
            if (why) {
                printf("FAIL %s: %s returned %s (%d)\n", t->name, why, kt_errname(r), (int)r);
                failed++;
                continue;
            }
            failed += kt_run_one(t, ptxdir, dev, major * 10 + minor, nsm);
        }
    return failed ? 1 : 0;
}
