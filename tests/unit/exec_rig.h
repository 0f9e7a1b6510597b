/*
** exec_rig.h -- what the unit tests that run PTX text on the functional
** model share (test_exec*.c, test_check.c, test_lower.c, test_regmutex.c,
** and through gpu_rig.h the whole-kernel timing tests): the PTX header, a
** device on the option tables' defaults plus "key=value ..." overrides, a
** module from PTX text, a 1-D launch, and a rig of a device and a module
** (with a code pass and the register-sharing hooks, and in timing tests the
** timing model) that one call
** closes.
*/
#ifndef TESTS_UNIT_EXEC_RIG_H
#define TESTS_UNIT_EXEC_RIG_H

#include "tests/unit/tt.h"
#include "exec/exec.h"
#include "exec/options.h"
#include "regmutex/policy.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* A device on exec's option defaults with opts ("key=value ...", NULL:
** none) over them; without one the test program stops (exit status 1). */
static inline exec_dev *exec_rig_dev(const char *opts)
{
    tp_opts o;
    tp_err e;
    exec_opts_init(&o);
    tp_err_clear(&e);
    if (opts && !tp_opts_set_list(&o, opts, TP_SRC_OVERRIDE, &e)) {
        printf("bad options: %s\n", e.msg);
        exit(1);
    }
    exec_dev *d = exec_dev_create(&o, stdout, &e);
    tp_opts_free(&o);
    if (!d) {
        printf("FAIL device: %s\n", e.msg);
        exit(1);
    }
    return d;
}

/* ptx loaded as the module `name` (in messages); NULL when it does not
** load, which fails the running test with the reason. */
static inline exec_mod *exec_rig_load(exec_dev *d, const char *ptx, const char *name)
{
    tp_err e;
    tp_err_clear(&e);
    exec_status st;
    exec_mod *m = exec_mod_load(d, ptx, strlen(ptx), name, &st, &e);
    if (!m) tt_fail_msg(__FILE__, __LINE__, "%s did not load: %s", name, e.msg); /* its test returns early: a failure */
    return m;
}

/* Kernel k of m on grid CTAs of block threads with the parameter buffer
** params (bytes long); the result goes to *r when r is not NULL. */
static inline exec_status exec_rig_launch(exec_mod *m, const char *k, uint32_t grid, uint32_t block,
                                          const void *params, uint32_t bytes, exec_result *r)
{
    exec_launch l = {{grid, 1, 1}, {block, 1, 1}, 0, params, bytes, 0, 0};
    exec_result res;
    return exec_launch_kernel(m, exec_mod_kernel(m, k), &l, r ? r : &res);
}

/* The same with one u64 parameter (most often the output's address). */
static inline exec_status exec_rig_launch1(exec_mod *m, const char *k, uint32_t grid, uint32_t block, uint64_t p0,
                                           exec_result *r)
{
    return exec_rig_launch(m, k, grid, block, &p0, sizeof p0, r);
}

/* A device and a module of its own, with the options they were made from;
** g is the timing model of gpu_rig.h's rigs (NULL in functional ones). */
typedef struct exec_rig {
    exec_dev *dev;
    exec_mod *m;
    struct gpu *g;
    tp_opts o;
} exec_rig;

/* Opens r: the options init makes (exec_opts_init, or gpu_opts_init for a
** timing rig) with opts over them, a device running the code pass `pass`
** (NULL: none) and ptx loaded as `name`.  False, the reason printed, when
** one of them fails; exec_rig_close is right either way. */
static inline bool exec_rig_open_with(exec_rig *r, void (*init)(tp_opts *), const char *ptx, const char *opts,
                                      const char *name, exec_code_pass pass)
{
    tp_err e;
    tp_err_clear(&e);
    memset(r, 0, sizeof *r);
    init(&r->o);
    /* a rig that does not open fails its test (which then returns early) */
    if (opts && !tp_opts_set_list(&r->o, opts, TP_SRC_OVERRIDE, &e)) {
        tt_fail_msg(__FILE__, __LINE__, "rig options: %s", e.msg);
        return false;
    }
    r->dev = exec_dev_create(&r->o, stdout, &e);
    if (!r->dev) {
        tt_fail_msg(__FILE__, __LINE__, "rig device: %s", e.msg);
        return false;
    }
    if (pass) {
        /* a code pass with the register-sharing hooks, as api/ installs them */
        exec_dev_set_pass(r->dev, pass, NULL);
        exec_dev_set_regshare(r->dev, rs_exec_hooks());
    }
    r->m = exec_rig_load(r->dev, ptx, name); /* a module that does not load fails the test there */
    return r->m != NULL;
}

/* A functional rig: exec's options. */
static inline bool exec_rig_open(exec_rig *r, const char *ptx, const char *opts, const char *name,
                                 exec_code_pass pass)
{
    return exec_rig_open_with(r, exec_opts_init, ptx, opts, name, pass);
}

/* Closes what r holds (the timing model is gpu_rig_close's); closing twice
** is harmless. */
static inline void exec_rig_close(exec_rig *r)
{
    if (r->m) exec_mod_unload(r->m);
    exec_dev_destroy(r->dev);
    tp_opts_free(&r->o);
    memset(r, 0, sizeof *r);
}

#endif
