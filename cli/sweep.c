/*
** sweep.c -- `tpsim sweep`: the command line (docs/SWEEPS.md).
**
**   tpsim sweep FILE [-j N] [--out DIR] [--results DIR] [--timeout SECONDS] [--memory BYTES]
**                    [--rerun] [--retry-failed] [--no-plot] [--quiet] [--report]
**   tpsim sweep FILE --list          the points, each with its state (cached, to run, error)
**   tpsim sweep FILE --gather        the CSV and figures from the cache, running nothing
**   tpsim sweep FILE --slurm [--partition P] [--time T] [--account A] [--batch N] [--dry-run] [--no-wait]
**   tpsim sweep FILE --slurm-task N  (what each task of the job array runs)
**
** DIR (default NAME.out, NAME the sweep's name) holds the cache, the work
** files of running points, NAME-runs.csv (per point: status, whether it came
** from the cache, wall seconds, exit status, host -- the figures that
** differ from run to run) and, for Slurm, the job's script, task list and
** logs.  The results -- NAME.csv and the figures NAME-FIGURE.png (with
** their .gp and .dat) -- go to --results DIR (default: the same DIR).
** NAME.csv is a function of the sweep file, the programs and tpsim's
** version only: the same bytes for any -j, for a resumed sweep, and from
** Slurm.  --report also writes tpsim report's HTML page of every point
** with GPU statistics and an index page linking them, in
** RESULTS/NAME-report/ (cli/sweep_report.c, docs/REPORT.md).
**
** Exit status: 0 when every point has a result (failed points are rows
** like the others), 1 on an error in the sweep file or its outputs, 2 on a
** bad command line, 130 when interrupted (finished points are kept: run the
** same command again to resume).
*/
#include "cli.h"
#include "sweep.h"
#include "args.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum {
    SWO_JOBS = CLI_HELP + 1, SWO_OUT, SWO_RESULTS, SWO_TIMEOUT, SWO_MEMORY, SWO_RERUN, SWO_RETRY, SWO_LIST, SWO_GATHER,
    SWO_NO_PLOT, SWO_QUIET, SWO_REPORT, SWO_SLURM, SWO_PARTITION, SWO_TIME, SWO_ACCOUNT, SWO_BATCH, SWO_DRY_RUN, SWO_NO_WAIT, SWO_TASK
};

static const cli_opt sweep_opts[] = {
    {SWO_JOBS, "-j", NULL, "N", "points at a time (default: the number of cores)", CLI_JOINED},
    {SWO_OUT, "--out", NULL, "DIR", "cache, work files, NAME-runs.csv, Slurm files (default NAME.out)"},
    {SWO_RESULTS, "--results", NULL, "DIR", "where NAME.csv and the figures go (default: --out DIR)"},
    {SWO_TIMEOUT, "--timeout", NULL, "S", "wall-time limit per point (s, m or h; overrides the file's)"},
    {SWO_MEMORY, "--memory", NULL, "B", "memory limit per point (k, M, G; 0: none; overrides the file's)"},
    {SWO_RERUN, "--rerun", NULL, NULL, "run every point again, ignoring the cache"},
    {SWO_RETRY, "--retry-failed", NULL, NULL, "run again the points whose cached result is not ok"},
    {SWO_LIST, "--list", NULL, NULL, "print the points and whether each is cached"},
    {SWO_GATHER, "--gather", NULL, NULL, "write the CSV from the cache only (points without a result: missing)"},
    {SWO_NO_PLOT, "--no-plot", NULL, NULL, "no figures"},
    {SWO_QUIET, "--quiet", NULL, NULL, "no progress line or summary"},
    {SWO_REPORT, "--report", NULL, NULL, "also an HTML page per point and an index (NAME-report/index.html)"},
    {SWO_SLURM, "--slurm", NULL, NULL, "run the points not cached as a Slurm job array, wait, write the CSV"},
    {SWO_PARTITION, "--partition", NULL, "P", "passed to sbatch"},
    {SWO_TIME, "--time", NULL, "T", "passed to sbatch"},
    {SWO_ACCOUNT, "--account", NULL, "A", "passed to sbatch"},
    {SWO_BATCH, "--batch", NULL, "N", "points per array task (default 1)"},
    {SWO_DRY_RUN, "--dry-run", NULL, NULL, "print the sbatch script instead of submitting it"},
    {SWO_NO_WAIT, "--no-wait", NULL, NULL, "submit and return; `tpsim sweep FILE --gather` writes the CSV later"},
    {SWO_TASK, "--slurm-task", NULL, "N", "run task N of the job array (what each task runs)"},
};

static const cli_cmd sweep_cmd = {
    "tpsim sweep",
    "usage: tpsim sweep FILE [-j N] [--out DIR] [--results DIR] [--timeout SECONDS] [--memory BYTES]\n"
    "                        [--rerun] [--retry-failed] [--no-plot] [--quiet] [--report]\n"
    "       tpsim sweep FILE --list | --gather\n"
    "       tpsim sweep FILE --slurm [--partition P] [--time T] [--account A] [--batch N]\n"
    "                        [--dry-run] [--no-wait]\n",
    "runs every point of a sweep file (docs/SWEEPS.md) and writes NAME.csv and its figures\n",
    CLI_OPTS(sweep_opts),
    CLI_DASH_ARG,
};

/* tpsim's own binary and its build directory (<bindir>/..) */
static bool self_paths(char *exe, size_t n, char *build, size_t bn)
{
    ssize_t k = readlink("/proc/self/exe", exe, n - 1);
    if (k <= 0) return false;
    exe[k] = 0;
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", exe);
    char *s = strrchr(tmp, '/');
    if (!s) return false;
    *s = 0;
    s = strrchr(tmp, '/');
    if (s) *s = 0;
    snprintf(build, bn, "%s", tmp);
    return true;
}

static bool parse_bytes(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9') return false;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned sh = 0;
    if (*end == 'k' || *end == 'K') sh = 10, end++;
    else if (*end == 'M') sh = 20, end++;
    else if (*end == 'G') sh = 30, end++;
    if (errno || *end) return false;
    *out = (uint64_t)v << sh;
    return true;
}

static bool parse_secs(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v >= 0)) return false;
    if (*end == 's') end++;
    else if (*end == 'm') v *= 60, end++;
    else if (*end == 'h') v *= 3600, end++;
    if (*end) return false;
    *out = v;
    return true;
}

static bool write_text(const char *path, const tp_sbuf *b)
{
    tp_err e;
    tp_err_clear(&e);
    if (sw_write_atomic(path, b->s ? b->s : "", b->len, &e)) return true;
    fprintf(stderr, "tpsim sweep: %s\n", e.msg);
    return false;
}

/* NAME-runs.csv: what differs from run to run */
static void runs_csv(const sw_plan *p, const sw_result *res, tp_sbuf *b)
{
    tp_sbuf_puts(b, "point,status,cached,wall_s,exit,host\n");
    for (uint32_t i = 0; i < p->n; i++) {
        const sw_result *r = &res[i];
        tp_sbuf_printf(b, "%s,%s,%s,%.3f,", p->pts[i].name, sw_status_name(r->status), r->cached ? "yes" : "no",
                       r->wall);
        if (r->exit >= 0) tp_sbuf_printf(b, "%d", r->exit);
        tp_sbuf_printf(b, ",%s\n", r->host ? r->host : "");
    }
}

/* Writes NAME.csv, NAME-runs.csv and the figures; returns 0 or 1. */
static int finish(const sw_file *f, const sw_plan *p, const sw_result *res, const char *out, const char *results,
                  bool plot, bool quiet)
{
    sw_table t;
    sw_table_build(&t, f, p, res);
    tp_sbuf b;
    tp_sbuf_init(&b);
    sw_table_csv(&t, &b);
    char path[PATH_MAX + 128];
    int rc = 0;
    if (!sw_mkdirs(results)) {
        fprintf(stderr, "tpsim sweep: cannot make %s: %s\n", results, strerror(errno));
        rc = 1;
    }
    snprintf(path, sizeof path, "%s/%s.csv", results, f->name);
    if (rc == 0 && !write_text(path, &b)) rc = 1;
    if (rc == 0 && !quiet) printf("%s\n", path);
    tp_sbuf_reset(&b);
    runs_csv(p, res, &b);
    snprintf(path, sizeof path, "%s/%s-runs.csv", out, f->name);
    if (rc == 0 && sw_mkdirs(out) && !write_text(path, &b)) rc = 1;
    tp_sbuf_free(&b);
    /* counts by status */
    uint32_t cnt[SW_MISSING + 1] = {0};
    for (uint32_t i = 0; i < p->n; i++) cnt[res[i].status]++;
    if (!quiet && cnt[SW_OK] != p->n) {
        fprintf(stderr, "tpsim sweep: %u ok", cnt[SW_OK]);
        for (int s = SW_FAILED; s <= SW_MISSING; s++)
            if (cnt[s]) fprintf(stderr, ", %u %s", cnt[s], sw_status_name((sw_status)s));
        fprintf(stderr, " (the CSV's status and message columns say why)\n");
    }
    if (rc == 0 && plot) {
        const char *dims[66];
        uint32_t nd = 0;
        dims[nd++] = "program";
        dims[nd++] = "config";
        for (uint32_t x = 0; x < f->naxes && nd < 66; x++) dims[nd++] = f->axes[x].name;
        sw_figure def = {0};
        const sw_figure *figs = f->figs;
        uint32_t nfigs = f->nfigs;
        if (!nfigs) {
            /* no [figure]: the last derived column, else the first column, per program */
            def.name = f->nders ? f->ders[f->nders - 1].name : f->cols[0].name;
            def.y = def.name;
            def.x = "program";
            figs = &def;
            nfigs = 1;
        }
        for (uint32_t i = 0; i < nfigs; i++) {
            const sw_figure *g = &figs[i];
            char name[300], title[300];
            snprintf(name, sizeof name, "%s-%s", f->name, g->name);
            snprintf(title, sizeof title, "%s: %s", f->name, g->y);
            const char *wd[64], *wv[64];
            uint32_t nw = 0;
            for (uint32_t k = 0; k < g->nwhere && k < 64; k++) wd[nw] = g->where[k].dim, wv[nw++] = g->where[k].value;
            sw_plotspec s = {name, g->type, g->y, g->x, wd, wv, nw, g->title ? g->title : title, g->xlabel,
                             g->ylabel, g->logy};
            char why[700] = "";
            sw_plotres r = sw_plot(&t, dims, nd, &s, results, why, sizeof why);
            if (r == SW_PLOT_OK && !quiet) printf("%s/%s.png\n", results, name);
            else if (r == SW_PLOT_SKIP) fprintf(stderr, "tpsim sweep: %s\n", why);
            else if (r == SW_PLOT_ERR) {
                fprintf(stderr, "tpsim sweep: %s\n", why);
                rc = 1;
            }
        }
    }
    sw_table_free(&t);
    return rc;
}

static void list_points(const sw_file *f, const sw_plan *p, const sw_runopts *o)
{
    uint32_t cached = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        const sw_point *pt = &p->pts[i];
        const char *state = pt->error ? "error" : sw_cached(f, p, pt, o) ? "cached" : "to-run";
        cached += !strcmp(state, "cached");
        printf("%5u  %-7s %.12s  %s", i, state, pt->key[0] ? pt->key : "-", pt->name);
        if (pt->error) printf("  (%s)", pt->error);
        printf("\n");
    }
    printf("%u point%s (%u program%s x %u configuration%s", p->n, p->n == 1 ? "" : "s", f->nprogs,
           f->nprogs == 1 ? "" : "s", f->ncfgs, f->ncfgs == 1 ? "" : "s");
    for (uint32_t x = 0; x < f->naxes; x++) printf(" x %u %s", f->axes[x].nvals, f->axes[x].name);
    printf("), %u cached\n", cached);
}

/* What the command line asked for. */
typedef struct sweep_args {
    const char *file, *out, *results;
    sw_runopts o;
    sw_slurmopts so;
    bool list, gather, plot, quiet, slurm, report;
    bool have_timeout, have_memory;
    long task, jobs;
} sweep_args;

/* One option into a; 0, or the exit status of a bad value. */
static int sweep_opt(int id, const char *v, sweep_args *a)
{
    char *end = NULL;
    switch (id) {
    case SWO_JOBS:
        a->jobs = strtol(v, &end, 10);
        if (*end || a->jobs < 1 || a->jobs > 4096)
            return cli_error(&sweep_cmd, "-j takes a number of workers from 1 to 4096, not '%s'", v);
        break;
    case SWO_OUT: a->out = v; break;
    case SWO_RESULTS: a->results = v; break;
    case SWO_TIMEOUT:
        if (!parse_secs(v, &a->o.timeout))
            return cli_error(&sweep_cmd, "--timeout takes seconds (s, m or h), not '%s'", v);
        a->have_timeout = true;
        break;
    case SWO_MEMORY:
        if (!parse_bytes(v, &a->o.memory)) return cli_error(&sweep_cmd, "--memory takes bytes (k, M or G), not '%s'", v);
        a->have_memory = true;
        break;
    case SWO_RERUN: a->o.rerun = true; break;
    case SWO_RETRY: a->o.retry_failed = true; break;
    case SWO_LIST: a->list = true; break;
    case SWO_GATHER: a->gather = true; break;
    case SWO_NO_PLOT: a->plot = false; break;
    case SWO_QUIET: a->quiet = true; break;
    case SWO_REPORT: a->report = true; break;
    case SWO_SLURM: a->slurm = true; break;
    case SWO_PARTITION: a->so.partition = v; break;
    case SWO_TIME: a->so.time = v; break;
    case SWO_ACCOUNT: a->so.account = v; break;
    case SWO_BATCH: {
        long b = strtol(v, &end, 10);
        if (*end || b < 1 || b > 100000)
            return cli_error(&sweep_cmd, "--batch takes a number of points per task, not '%s'", v);
        a->so.batch = (uint32_t)b;
        break;
    }
    case SWO_DRY_RUN: a->so.dry_run = true; break;
    case SWO_NO_WAIT: a->so.no_wait = true; break;
    case SWO_TASK:
        a->task = strtol(v, &end, 10);
        if (*end || a->task < 0) return cli_error(&sweep_cmd, "--slurm-task takes a task number, not '%s'", v);
        break;
    }
    return 0;
}

/* Reads the command line into a; 0 to go on, else the exit status. */
static int sweep_args_parse(int argc, char **argv, sweep_args *a)
{
    memset(a, 0, sizeof *a);
    a->plot = true;
    a->task = -1;
    a->jobs = sysconf(_SC_NPROCESSORS_ONLN);
    a->so.batch = 1;
    cli_args it;
    cli_args_init(&it, &sweep_cmd, argc, argv);
    for (int id, rc; (id = cli_next(&it)) != CLI_END;) {
        if (id == CLI_EXIT) return it.status ? it.status : -1;
        if (id == CLI_ARG && a->file)
            return cli_error(&sweep_cmd, "one sweep file only ('%s' and '%s')", a->file, it.val);
        if (id == CLI_ARG) a->file = it.val;
        else if ((rc = sweep_opt(id, it.val, a)) != 0) return rc;
    }
    if (!a->file) {
        cli_usage(&sweep_cmd, stderr);
        return 2;
    }
    const sw_slurmopts *so = &a->so;
    if ((so->partition || so->time || so->account || so->batch != 1 || so->dry_run || so->no_wait) && !a->slurm)
        return cli_error(&sweep_cmd, "--partition, --time, --account, --batch, --dry-run and --no-wait go with --slurm");
    if (a->slurm + a->gather + a->list + (a->task >= 0) > 1)
        return cli_error(&sweep_cmd, "--slurm, --gather, --list and --slurm-task do not go together");
    return 0;
}

/* Runs (or, from Slurm, gathers) the points and writes the results. */
static int run_points(sweep_args *a, const sw_file *f, const sw_plan *p, const char *outabs, const char *results)
{
    bool *fresh = tp_calloc(p->n ? p->n : 1, sizeof *fresh);
    if (a->slurm) {
        int rc = sw_slurm_submit(f, p, &a->o, &a->so, a->file, outabs, fresh);
        if (rc != 0 || a->so.dry_run || a->so.no_wait) {
            free(fresh);
            return rc;
        }
        a->gather = true;
        a->o.fresh = fresh;
    }
    a->o.gather_only = a->gather;
    sw_result *res = tp_calloc(p->n ? p->n : 1, sizeof *res);
    int rc;
    if (!sw_run(f, p, NULL, 0, &a->o, res)) {
        fprintf(stderr, "tpsim sweep: interrupted; the finished points are kept: run the same command to resume\n");
        rc = 130;
    } else {
        rc = finish(f, p, res, outabs, results, a->plot, a->quiet);
        if (rc == 0 && a->report) rc = sw_report(f, p, res, results, a->quiet);
    }
    sw_results_free(res, p->n);
    free(res);
    free(fresh);
    return rc;
}

int cli_sweep(int argc, char **argv)
{
    sweep_args a;
    int rc = sweep_args_parse(argc, argv, &a);
    if (rc) return rc < 0 ? 0 : rc;
    char exe[PATH_MAX], build[PATH_MAX];
    if (!self_paths(exe, sizeof exe, build, sizeof build)) {
        fprintf(stderr, "tpsim sweep: cannot find tpsim's own binary (/proc/self/exe)\n");
        return 1;
    }
    sw_file f;
    tp_err e;
    tp_err_clear(&e);
    if (!sw_load(&f, a.file, build, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    char outbuf[PATH_MAX];
    const char *out = a.out;
    if (!out) {
        snprintf(outbuf, sizeof outbuf, "%s.out", f.name);
        out = outbuf;
    }
    /* absolute, since points run in the sweep's dir */
    char outabs[PATH_MAX];
    if (!sw_mkdirs(out) || !realpath(out, outabs)) {
        fprintf(stderr, "tpsim sweep: cannot make the output directory %s: %s\n", out, strerror(errno));
        sw_free(&f);
        return 1;
    }
    if (!a.have_timeout) a.o.timeout = f.timeout;
    if (!a.have_memory) a.o.memory = f.memory;
    a.o.jobs = (uint32_t)a.jobs;
    a.o.progress = !a.quiet;
    sw_plan p;
    if (!sw_plan_build(&p, &f, exe, outabs, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        sw_free(&f);
        return 1;
    }
    if (a.list) list_points(&f, &p, &a.o);
    else if (a.task >= 0) rc = sw_slurm_task(&f, &p, &a.o, outabs, (uint32_t)a.task);
    else rc = run_points(&a, &f, &p, outabs, a.results ? a.results : outabs);
    sw_plan_free(&p);
    sw_free(&f);
    return rc;
}
