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

#define KT_USAGE "runner PTXDIR [--only NAME] [--list]"

/* Runs one test in a fresh context and prints its line.  Returns 1 on FAIL. */
static int kt_run_one(const kt_test *t, th_ctx *c)
{
    c->msg[0] = '\0';
    kt_res res = th_open(c);
    if (res == KT_PASS) {
        fflush(stdout); /* keep our lines and device printf output in order */
        res = t->run(c);
        if (res == KT_PASS && !(t->flags & KT_ISOLATE)) {
            CUresult r = cuCtxSynchronize();
            if (r != CUDA_SUCCESS)
                res = th_fail(c, "context left in error state %s (%d)", th_errname(r), (int)r);
        }
        th_close(c);
    }
    th_report(t->name, res, c->msg);
    return res == KT_FAIL;
}

int main(int argc, char **argv)
{
    th_args a;
    if (th_args_parse(&a, argc, argv, TH_ARG_DIR | TH_ARG_ONLY | TH_ARG_LIST, NULL, KT_USAGE)) return 2;
    if (!a.ptxdir && !a.list) {
        fprintf(stderr, "usage: %s\n", KT_USAGE);
        return 2;
    }
    const char *only = a.only;

    int found = 0;
    for (size_t k = 0; k < sizeof kt_tables / sizeof kt_tables[0]; k++)
        for (const kt_test *t = kt_tables[k]; t->name; t++) {
            if (only && strcmp(t->name, only)) continue;
            found++;
            if (a.list)
                printf("%s%s\n", t->name,
                       (t->flags & KT_ISOLATE) ? " isolate" : (t->flags & KT_STDOUT) ? " stdout" : "");
        }
    if (a.list) return 0;
    if (only && !found) {
        fprintf(stderr, "runner: no test named %s\n", only);
        return 2;
    }

    /* Everything below needs the driver; if it cannot start, every selected
    ** test fails with the reason. */
    th_ctx c = {.prog = "runner", .ptxdir = a.ptxdir};
    bool up = th_device(&c) == TH_OK;
    int failed = 0;
    if (up && !kt_fenv_works()) {
        fprintf(stderr, "runner: the host does not honour fesetround; references would be wrong\n");
        return 2;
    }
    for (size_t k = 0; k < sizeof kt_tables / sizeof kt_tables[0]; k++)
        for (const kt_test *t = kt_tables[k]; t->name; t++) {
            if (only ? strcmp(t->name, only) != 0 : (t->flags & (KT_ISOLATE | KT_STDOUT)) != 0) continue;
            if (up) {
                failed += kt_run_one(t, &c);
            } else {
                th_report(t->name, TH_FAIL, c.msg);
                failed++;
            }
        }
    return failed ? 1 : 0;
}
