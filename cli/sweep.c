/*
** sweep.c -- `tpsim sweep`: the command line (docs/SWEEPS.md).
**
**   tpsim sweep FILE [-j N] [--out DIR] [--results DIR] [--timeout SECONDS] [--memory BYTES]
**                    [--rerun] [--retry-failed] [--no-plot] [--quiet]
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
** Slurm.
**
** Exit status: 0 when every point has a result (failed points are rows
** like the others), 1 on an error in the sweep file or its outputs, 2 on a
** bad command line, 130 when interrupted (finished points are kept: run the
** same command again to resume).
*/
#include "cli.h"
#include "sweep.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void sweep_usage(FILE *f)
{
    fprintf(f,
            "usage: tpsim sweep FILE [-j N] [--out DIR] [--results DIR] [--timeout SECONDS] [--memory BYTES]\n"
            "                        [--rerun] [--retry-failed] [--no-plot] [--quiet]\n"
            "       tpsim sweep FILE --list | --gather\n"
            "       tpsim sweep FILE --slurm [--partition P] [--time T] [--account A] [--batch N]\n"
            "                        [--dry-run] [--no-wait]\n"
            "runs every point of a sweep file (docs/SWEEPS.md) and writes NAME.csv and its figures\n"
            "  -j N             points at a time (default: the number of cores)\n"
            "  --out DIR        cache, work files, NAME-runs.csv, Slurm files (default NAME.out)\n"
            "  --results DIR    where NAME.csv and the figures go (default: --out DIR)\n"
            "  --timeout S      wall-time limit per point (s, m or h; overrides the file's)\n"
            "  --memory B       memory limit per point (k, M, G; 0: none; overrides the file's)\n"
            "  --rerun          run every point again, ignoring the cache\n"
            "  --retry-failed   run again the points whose cached result is not ok\n"
            "  --list           print the points and whether each is cached\n"
            "  --gather         write the CSV from the cache only (points without a result: missing)\n"
            "  --no-plot        no figures\n"
            "  --quiet          no progress line or summary\n"
            "  --slurm          run the points not cached as a Slurm job array, wait, write the CSV\n"
            "  --partition P, --time T, --account A   passed to sbatch\n"
            "  --batch N        points per array task (default 1)\n"
            "  --dry-run        print the sbatch script instead of submitting it\n"
            "  --no-wait        submit and return; `tpsim sweep FILE --gather` writes the CSV later\n");
}

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

int cli_sweep(int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *results = NULL;
    sw_runopts o = {0};
    sw_slurmopts so = {0};
    bool list = false, gather = false, plot = true, quiet = false, slurm = false;
    bool have_timeout = false, have_memory = false;
    long task = -1;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    so.batch = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        static const char *valued[] = {"-j", "--out", "--results", "--timeout", "--memory", "--partition",
                                       "--time", "--account", "--batch", "--slurm-task"};
        bool takes = false;
        for (size_t k = 0; k < TP_ARRAY_LEN(valued); k++) takes |= !strcmp(a, valued[k]);
        if (takes && !v) {
            fprintf(stderr, "tpsim sweep: %s needs a value\n", a);
            return 2;
        }
        char *end = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            sweep_usage(stdout);
            return 0;
        } else if (!strcmp(a, "-j")) {
            jobs = strtol(v, &end, 10);
            if (*end || jobs < 1 || jobs > 4096) {
                fprintf(stderr, "tpsim sweep: -j takes a number of workers from 1 to 4096, not '%s'\n", v);
                return 2;
            }
            i++;
        } else if (!strncmp(a, "-j", 2) && a[2]) {
            jobs = strtol(a + 2, &end, 10);
            if (*end || jobs < 1 || jobs > 4096) {
                fprintf(stderr, "tpsim sweep: -j takes a number of workers from 1 to 4096, not '%s'\n", a + 2);
                return 2;
            }
        } else if (!strcmp(a, "--out")) out = v, i++;
        else if (!strcmp(a, "--results")) results = v, i++;
        else if (!strcmp(a, "--timeout")) {
            if (!parse_secs(v, &o.timeout)) {
                fprintf(stderr, "tpsim sweep: --timeout takes seconds (s, m or h), not '%s'\n", v);
                return 2;
            }
            have_timeout = true, i++;
        } else if (!strcmp(a, "--memory")) {
            if (!parse_bytes(v, &o.memory)) {
                fprintf(stderr, "tpsim sweep: --memory takes bytes (k, M or G), not '%s'\n", v);
                return 2;
            }
            have_memory = true, i++;
        } else if (!strcmp(a, "--rerun")) o.rerun = true;
        else if (!strcmp(a, "--retry-failed")) o.retry_failed = true;
        else if (!strcmp(a, "--list")) list = true;
        else if (!strcmp(a, "--gather")) gather = true;
        else if (!strcmp(a, "--no-plot")) plot = false;
        else if (!strcmp(a, "--quiet")) quiet = true;
        else if (!strcmp(a, "--slurm")) slurm = true;
        else if (!strcmp(a, "--partition")) so.partition = v, i++;
        else if (!strcmp(a, "--time")) so.time = v, i++;
        else if (!strcmp(a, "--account")) so.account = v, i++;
        else if (!strcmp(a, "--batch")) {
            long b = strtol(v, &end, 10);
            if (*end || b < 1 || b > 100000) {
                fprintf(stderr, "tpsim sweep: --batch takes a number of points per task, not '%s'\n", v);
                return 2;
            }
            so.batch = (uint32_t)b, i++;
        } else if (!strcmp(a, "--dry-run")) so.dry_run = true;
        else if (!strcmp(a, "--no-wait")) so.no_wait = true;
        else if (!strcmp(a, "--slurm-task")) {
            task = strtol(v, &end, 10);
            if (*end || task < 0) {
                fprintf(stderr, "tpsim sweep: --slurm-task takes a task number, not '%s'\n", v);
                return 2;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "tpsim sweep: unknown option '%s'\n", a);
            sweep_usage(stderr);
            return 2;
        } else if (file) {
            fprintf(stderr, "tpsim sweep: one sweep file only ('%s' and '%s')\n", file, a);
            return 2;
        } else {
            file = a;
        }
    }
    if (!file) {
        sweep_usage(stderr);
        return 2;
    }
    if ((so.partition || so.time || so.account || so.batch != 1 || so.dry_run || so.no_wait) && !slurm) {
        fprintf(stderr, "tpsim sweep: --partition, --time, --account, --batch, --dry-run and --no-wait go with --slurm\n");
        return 2;
    }
    if (slurm + gather + list + (task >= 0) > 1) {
        fprintf(stderr, "tpsim sweep: --slurm, --gather, --list and --slurm-task do not go together\n");
        return 2;
    }
    char exe[PATH_MAX], build[PATH_MAX];
    if (!self_paths(exe, sizeof exe, build, sizeof build)) {
        fprintf(stderr, "tpsim sweep: cannot find tpsim's own binary (/proc/self/exe)\n");
        return 1;
    }
    sw_file f;
    tp_err e;
    tp_err_clear(&e);
    if (!sw_load(&f, file, build, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    char outbuf[PATH_MAX];
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
    if (!results) results = outabs;
    if (!have_timeout) o.timeout = f.timeout;
    if (!have_memory) o.memory = f.memory;
    o.jobs = (uint32_t)jobs;
    o.progress = !quiet;
    sw_plan p;
    if (!sw_plan_build(&p, &f, exe, outabs, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        sw_free(&f);
        return 1;
    }
    int rc = 0;
    if (list) {
        list_points(&f, &p, &o);
    } else if (task >= 0) {
        rc = sw_slurm_task(&f, &p, &o, outabs, (uint32_t)task);
    } else {
        bool *fresh = tp_calloc(p.n ? p.n : 1, sizeof *fresh);
        if (slurm) {
            rc = sw_slurm_submit(&f, &p, &o, &so, file, outabs, fresh);
            if (rc != 0 || so.dry_run || so.no_wait) {
                free(fresh);
                sw_plan_free(&p);
                sw_free(&f);
                return rc;
            }
            gather = true;
            o.fresh = fresh;
        }
        o.gather_only = gather;
        sw_result *res = tp_calloc(p.n ? p.n : 1, sizeof *res);
        bool complete = sw_run(&f, &p, NULL, 0, &o, res);
        if (!complete) {
            fprintf(stderr, "tpsim sweep: interrupted; the finished points are kept: run the same command to resume\n");
            rc = 130;
        } else {
            rc = finish(&f, &p, res, outabs, results, plot, quiet);
        }
        sw_results_free(res, p.n);
        free(res);
        free(fresh);
    }
    sw_plan_free(&p);
    sw_free(&f);
    return rc;
}
