/*
** sweep_slurm.c -- a sweep as a Slurm job array.
**
** `tpsim sweep FILE --slurm` plans the sweep as usual, takes the points that
** have no usable result in the cache, and writes into OUT/slurm/:
**   tasks         one line per array task: the cache keys of its points
**                 (--batch N of them, in point order)
**   sweep.sbatch  the job script: #SBATCH --array=0-(T-1), the job name,
**                 --output OUT/slurm/task-%A_%a.log, and --partition,
**                 --time, --account when given; its body runs
**                   tpsim sweep FILE --out OUT --slurm-task $SLURM_ARRAY_TASK_ID
**                 with the timeout and memory limit of this run
** then submits it with `sbatch --parsable --wait` (with --no-wait, without
** --wait, and returns) and, while it runs, shows how many of the points
** have a result.  When sbatch returns, the CSV and figures are gathered
** from the cache exactly as a local run writes them (points that still have
** no result are rows with status missing).  --dry-run writes the files and
** prints the script without submitting it.
**
** A task finds its points by key, not by number, so a sweep file edited
** after submission cannot make a task run the wrong point (a key it no
** longer has is reported).  OUT must be on a file system every node sees,
** with tpsim, the sweep file and the programs at the same paths: results
** are written with write + rename into the one cache, so tasks on any
** number of nodes never see half a result.
*/
#include "sweep.h"
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* 'quoted' for sh */
static void sh_quote(tp_sbuf *b, const char *s)
{
    tp_sbuf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'') tp_sbuf_puts(b, "'\\''");
        else tp_sbuf_putc(b, *s);
    }
    tp_sbuf_putc(b, '\'');
}

static bool on_path(const char *prog)
{
    const char *env = getenv("PATH");
    char buf[PATH_MAX];
    if (!env) return false;
    for (const char *p = env; *p;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, prog);
        if (len && access(buf, X_OK) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

static uint32_t count_results(const sw_plan *p, const uint32_t *todo, uint32_t n)
{
    uint32_t k = 0;
    char path[PATH_MAX + 128];
    for (uint32_t i = 0; i < n; i++) {
        const sw_point *pt = &p->pts[todo[i]];
        snprintf(path, sizeof path, "%s/%.2s/%s.json", p->cache, pt->key, pt->key);
        k += access(path, F_OK) == 0;
    }
    return k;
}

/* A job array being submitted. */
typedef struct slurm_job {
    const sw_file *f;
    const sw_plan *p;
    const sw_runopts *o;
    const sw_slurmopts *so;
    const uint32_t *todo;         /* the points to run */
    uint32_t n, ntasks;
    char dir[PATH_MAX + 16];      /* OUT/slurm */
    char script[PATH_MAX + 64];   /* its sweep.sbatch */
} slurm_job;

/* Writes the task list and the script (kept in b); false after a message. */
static bool write_job(const slurm_job *j, const char *sweep_abs, const char *out, tp_sbuf *b)
{
    const sw_slurmopts *so = j->so;
    for (uint32_t t = 0; t < j->ntasks; t++) {
        for (uint32_t k = t * so->batch; k < j->n && k < (t + 1) * so->batch; k++)
            tp_sbuf_printf(b, "%s%s", k > t * so->batch ? " " : "", j->p->pts[j->todo[k]].key);
        tp_sbuf_putc(b, '\n');
    }
    tp_err e;
    tp_err_clear(&e);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/tasks", j->dir);
    bool ok = sw_write_atomic(path, b->s, b->len, &e);
    tp_sbuf_reset(b);
    tp_sbuf_printf(b, "#!/bin/sh\n# %s/sweep.sbatch -- written by tpsim sweep --slurm: %u point%s of %s in %u task%s\n",
                   j->dir, j->n, j->n == 1 ? "" : "s", j->f->name, j->ntasks, j->ntasks == 1 ? "" : "s");
    tp_sbuf_printf(b, "#SBATCH --job-name=tpsim-%s\n", j->f->name);
    tp_sbuf_printf(b, "#SBATCH --array=0-%u\n", j->ntasks - 1);
    tp_sbuf_printf(b, "#SBATCH --output=%s/task-%%A_%%a.log\n", j->dir);
    tp_sbuf_puts(b, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    if (so->partition) tp_sbuf_printf(b, "#SBATCH --partition=%s\n", so->partition);
    if (so->time) tp_sbuf_printf(b, "#SBATCH --time=%s\n", so->time);
    if (so->account) tp_sbuf_printf(b, "#SBATCH --account=%s\n", so->account);
    tp_sbuf_puts(b, "exec ");
    sh_quote(b, j->p->tpsim);
    tp_sbuf_puts(b, " sweep ");
    sh_quote(b, sweep_abs);
    tp_sbuf_puts(b, " --out ");
    sh_quote(b, out);
    tp_sbuf_printf(b, " --timeout %.17gs --memory %llu --quiet --slurm-task \"$SLURM_ARRAY_TASK_ID\"\n", j->o->timeout,
                   (unsigned long long)j->o->memory);
    ok = ok && sw_write_atomic(j->script, b->s, b->len, &e);
    if (!ok) fprintf(stderr, "tpsim sweep: %s\n", e.msg);
    else chmod(j->script, 0755);
    return ok;
}

/* The job's id as sbatch --parsable wrote it into idfile ("" if not yet). */
static void read_jobid(const char *idfile, char *jobid)
{
    size_t len;
    char *t = sw_read_file(idfile, &len);
    if (t) sscanf(t, "%63[^;\n]", jobid), free(t);
}

/* Waits for sbatch (with --wait: for the whole job), showing progress;
** its wait status, the job's id in jobid[64]. */
static int wait_sbatch(const slurm_job *j, pid_t pid, const char *idfile, char *jobid)
{
    bool tty = j->o->progress && isatty(2);
    int st = 0;
    time_t t0 = time(NULL);
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) break;
        if (!jobid[0]) {
            read_jobid(idfile, jobid);
            if (jobid[0] && j->o->progress)
                fprintf(stderr, "tpsim sweep: submitted Slurm job %s: %u point%s in %u task%s\n", jobid, j->n,
                        j->n == 1 ? "" : "s", j->ntasks, j->ntasks == 1 ? "" : "s");
        }
        if (tty)
            fprintf(stderr, "\r\033[Ktpsim sweep: Slurm job %s: %u/%u points done, %lds", jobid[0] ? jobid : "?",
                    count_results(j->p, j->todo, j->n), j->n, (long)(time(NULL) - t0));
        struct timespec ts = {0, 500 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (tty) fprintf(stderr, "\r\033[K");
    if (!jobid[0]) read_jobid(idfile, jobid);
    return st;
}

/* Submits the job with sbatch and waits as asked; 0 or 1. */
static int submit(const slurm_job *j, const char *sweep_path, const char *out)
{
    if (!on_path("sbatch")) {
        fprintf(stderr, "tpsim sweep: sbatch is not on PATH: --slurm needs a Slurm client (Debian: slurm-client); "
                        "the script is %s\n", j->script);
        return 1;
    }
    char idfile[PATH_MAX + 64];
    snprintf(idfile, sizeof idfile, "%s/sbatch.out", j->dir);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(idfile, "w", stdout)) _exit(126);
        if (j->so->no_wait) execlp("sbatch", "sbatch", "--parsable", j->script, (char *)NULL);
        else execlp("sbatch", "sbatch", "--parsable", "--wait", j->script, (char *)NULL);
        fprintf(stderr, "tpsim sweep: cannot run sbatch: %s\n", strerror(errno));
        _exit(127);
    }
    if (pid < 0) {
        fprintf(stderr, "tpsim sweep: cannot start sbatch: %s\n", strerror(errno));
        return 1;
    }
    char jobid[64] = "";
    int st = wait_sbatch(j, pid, idfile, jobid);
    if (!jobid[0]) {
        fprintf(stderr, "tpsim sweep: sbatch did not submit the job (exit status %d); the script is %s\n",
                WIFEXITED(st) ? WEXITSTATUS(st) : -1, j->script);
        return 1;
    }
    if (j->so->no_wait) {
        if (j->o->progress)
            fprintf(stderr, "tpsim sweep: submitted Slurm job %s; when it is done, `tpsim sweep %s --out %s --gather` "
                            "writes the CSV\n", jobid, sweep_path, out);
    } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "tpsim sweep: Slurm job %s ended with an error (sbatch status %d); its logs are %s/task-*.log\n",
                jobid, WIFEXITED(st) ? WEXITSTATUS(st) : -1, j->dir);
    }
    return 0;
}

int sw_slurm_submit(const sw_file *f, const sw_plan *p, const sw_runopts *o, const sw_slurmopts *so,
                    const char *sweep_path, const char *out, bool *fresh)
{
    uint32_t *todo = tp_calloc(p->n ? p->n : 1, sizeof *todo), n = 0;
    for (uint32_t i = 0; i < p->n; i++)
        if (!p->pts[i].error && !sw_cached(f, p, &p->pts[i], o)) todo[n++] = i, fresh[i] = true;
    if (!n) {
        if (o->progress) fprintf(stderr, "tpsim sweep: every point has its result in the cache: nothing to submit\n");
        free(todo);
        return 0;
    }
    slurm_job j = {f, p, o, so, todo, n, (n + so->batch - 1) / so->batch, "", ""};
    snprintf(j.dir, sizeof j.dir, "%s/slurm", out);
    snprintf(j.script, sizeof j.script, "%s/sweep.sbatch", j.dir);
    if (!sw_mkdirs(j.dir)) {
        fprintf(stderr, "tpsim sweep: cannot make %s: %s\n", j.dir, strerror(errno));
        free(todo);
        return 1;
    }
    char sweep_abs[PATH_MAX];
    if (!realpath(sweep_path, sweep_abs)) snprintf(sweep_abs, sizeof sweep_abs, "%s", sweep_path);
    tp_sbuf b;
    tp_sbuf_init(&b);
    int rc = 0;
    if (!write_job(&j, sweep_abs, out, &b)) rc = 1;
    else if (so->dry_run) fputs(tp_sbuf_str(&b), stdout);
    else rc = submit(&j, sweep_path, out);
    tp_sbuf_free(&b);
    free(todo);
    return rc;
}

int sw_slurm_task(const sw_file *f, const sw_plan *p, const sw_runopts *o, const char *out, uint32_t task)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/slurm/tasks", out);
    size_t len;
    char *text = sw_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "tpsim sweep: cannot read the task list %s: %s\n", path, strerror(errno));
        return 1;
    }
    /* line number task */
    char *line = text;
    for (uint32_t t = 0; t < task && line; t++) {
        line = strchr(line, '\n');
        if (line) line++;
    }
    if (!line || !*line) {
        fprintf(stderr, "tpsim sweep: the task list %s has no task %u\n", path, task);
        free(text);
        return 1;
    }
    char *eol = strchr(line, '\n');
    if (eol) *eol = 0;
    uint32_t *list = tp_calloc(p->n ? p->n : 1, sizeof *list), n = 0;
    int rc = 0;
    for (char *k = strtok(line, " "); k; k = strtok(NULL, " ")) {
        uint32_t i = 0;
        while (i < p->n && strcmp(p->pts[i].key, k)) i++;
        if (i == p->n) {
            fprintf(stderr, "tpsim sweep: task %u: no point of %s has the key %s (was the sweep file changed after "
                            "submitting?)\n", task, f->path, k);
            rc = 1;
        } else if (n < p->n) {
            list[n++] = i;
        }
    }
    free(text);
    sw_runopts to = *o;
    to.jobs = 1;
    to.progress = false;
    for (uint32_t i = 0; i < n; i++) fprintf(stderr, "tpsim sweep: task %u: point %s\n", task, p->pts[list[i]].name);
    if (!sw_run(f, p, list, n, &to, NULL)) rc = 130;
    free(list);
    return rc;
}
