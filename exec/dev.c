/* dev.c -- the simulated device: creation, options, status names. */
#include "check.h"
#include <math.h>
#include <stdlib.h>

exec_dev *exec_dev_create(const tp_opts *opts, FILE *out, tp_err *e)
{
    exec_dev *d = tp_calloc(1, sizeof *d);
    tp_opts_copy(&d->opts, opts);
    d->out = out ? out : stdout;
    double cc = tp_opt_f(opts, OPT_DEVICE_CC);
    unsigned major = (unsigned)floor(cc + 1e-9);
    unsigned minor = (unsigned)lround((cc - major) * 10.0);
    d->cc = major * 10 + minor;
    if (!exec_mem_reserve(d, e)) {
        tp_opts_free(&d->opts);
        free(d);
        return NULL;
    }
    return d;
}

void exec_dev_destroy(exec_dev *d)
{
    if (!d) return;
    exec_slots_free(d);
    exec_check_dev_free(d);
    exec_tex_free_all(d);
    exec_cdp_free(d);
    exec_mem_release(d);
    tp_opts_free(&d->opts);
    free(d);
}

const tp_opts *exec_dev_opts(const exec_dev *d) { return &d->opts; }

bool exec_dev_set_opt(exec_dev *d, const char *name, const char *value, tp_err *e)
{
    if (strncmp(name, "device.", 7) == 0) {
        tp_err_set(e, 1, "option '%s' describes the device and cannot change while it exists", name);
        return false;
    }
    return tp_opts_set(&d->opts, name, value, TP_SRC_OVERRIDE, e);
}
unsigned exec_dev_cc(const exec_dev *d) { return d->cc; }

const char *exec_status_name(exec_status s)
{
    switch (s) {
    case EXEC_OK: return "ok";
    case EXEC_ERR_ILLEGAL_ADDRESS: return "illegal address";
    case EXEC_ERR_MISALIGNED: return "misaligned address";
    case EXEC_ERR_TRAP: return "trap";
    case EXEC_ERR_ASSERT: return "device-side assert failed";
    case EXEC_ERR_STACK_OVERFLOW: return "stack overflow";
    case EXEC_ERR_LIVELOCK: return "livelock";
    case EXEC_ERR_DEADLOCK: return "deadlock";
    case EXEC_ERR_UNSUPPORTED: return "unsupported instruction";
    case EXEC_ERR_INVALID_VALUE: return "invalid launch";
    case EXEC_ERR_OUT_OF_RESOURCES: return "out of resources";
    case EXEC_ERR_COOP_TOO_LARGE: return "cooperative launch too large";
    case EXEC_ERR_LIMIT: return "instruction limit reached";
    case EXEC_ERR_INVALID_PTX: return "invalid PTX";
    case EXEC_ERR_NO_BINARY: return "no binary for this GPU";
    case EXEC_ERR_NOT_FOUND: return "not found";
    case EXEC_ERR_OOM: return "out of device memory";
    }
    return "unknown";
}

void exec_dev_set_pass(exec_dev *d, exec_code_pass fn, void *arg)
{
    d->pass = fn;
    d->pass_arg = arg;
}

void exec_dev_set_regshare(exec_dev *d, const exec_regshare *h) { d->regshare = h; }
