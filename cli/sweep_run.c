/*
** sweep_run.c -- running the points of a sweep and keeping their results.
**
** Workers.  Each point runs as its own process (its own process group, so a
** time-out kills everything it started), at most `jobs` at a time, with the
** working directory at the sweep's dir, standard input from /dev/null, its
** output in OUT/work/KEY.HOST.PID/ (stdout, stderr, stats.json), no core dumps,
** and a memory limit: RLIMIT_DATA, the bytes of writable private memory, so
** that the simulator's large PROT_NONE address reservations do not count
** (not in sanitizer builds, whose shadow memory would).  The TPSIM_*
** variables of the environment are removed: a point's configuration is the
** one the sweep file gives, whatever the shell says.  A point still running
** at its time limit is killed (SIGKILL to its group).  If tpsim sweep
** itself is killed, its children get SIGKILL too (PR_SET_PDEATHSIG).
**
** Results.  When a point ends, its result -- status, message, exit status,
** wall seconds, the statistics (the TPSIM_STATS JSON of GPU programs, the
** "key: value" lines of tpsim vec) and the numbers of its standard output
** ("stdout": each line "NAME VALUE ..." or "NAME: VALUE ..." whose VALUE is
** a number, the first such line of each NAME) -- is written to
** OUT/cache/KK/KEY.json atomically (a temporary file, then rename), and its
** work directory is removed.  A sweep interrupted at any moment therefore
** has, for each point, either a complete result or none.
**
** Statuses: ok (exit status 0, statistics read), failed (the program or the
** simulator failed: the message is the last line of its stderr and the exit
** status or signal), timeout, memory (ended by an allocation failure under
** the memory limit), error (the point could not start: a program file is
** missing; never cached), missing (no result yet: --gather).
**
** Reuse.  A cached result is used as it is, except: --rerun ignores the
** cache, --retry-failed runs again every result that is not ok, and a
** timeout or memory result is run again when the limit has been raised
** since.  A point's time limit is its program's timeout when it has one,
** else the sweep's (or --timeout's).
*/
#include "sweep.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

const char *sw_status_name(sw_status s)
{
    switch (s) {
    case SW_OK: return "ok";
    case SW_FAILED: return "failed";
    case SW_TIMEOUT: return "timeout";
    case SW_MEMORY: return "memory";
    case SW_ERROR: return "error";
    case SW_MISSING: return "missing";
    }
    return "?";
}

static sw_status status_from(const char *s)
{
    for (int k = SW_OK; k <= SW_MISSING; k++)
        if (!strcmp(s, sw_status_name((sw_status)k))) return (sw_status)k;
    return SW_FAILED;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- files ---------------------------------------------------------------------- */

bool sw_mkdirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return false;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
        *p = '/';
    }
    return mkdir(buf, 0777) == 0 || errno == EEXIST;
}

bool sw_write_atomic(const char *path, const char *data, size_t n, tp_err *e)
{
    char tmp[PATH_MAX + 64];
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = 0;
    /* unique among processes and hosts sharing the directory */
    snprintf(tmp, sizeof tmp, "%s.tmp.%.40s.%ld", path, host, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        tp_err_set(e, SW_ERR, "cannot write %s: %s", tmp, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, n, f) == n;
    ok &= fflush(f) == 0;
    ok &= fsync(fileno(f)) == 0 || errno == EINVAL;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        tp_err_set(e, SW_ERR, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return false;
    }
    return true;
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        char p[PATH_MAX + 256];
        while ((de = readdir(d))) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
            snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) rm_tree(p);
            else unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

static char *result_path(const sw_plan *p, const sw_point *pt)
{
    size_t n = strlen(p->cache) + 80;
    char *r = tp_malloc(n);
    snprintf(r, n, "%s/%.2s/%s.json", p->cache, pt->key, pt->key);
    return r;
}

/* ---- reading a result ---------------------------------------------------------------- */

static bool read_result(const sw_plan *p, const sw_point *pt, sw_result *r)
{
    char *path = result_path(p, pt);
    size_t len;
    char *text = sw_read_file(path, &len);
    free(path);
    if (!text) return false;
    tp_err e;
    tp_err_clear(&e);
    bool ok = tp_json_parse(&r->doc, text, len, NULL, &e);
    free(text);
    if (!ok) return false;
    const tp_json *root = r->doc.root;
    const tp_json *st = tp_json_get(root, "status"), *msg = tp_json_get(root, "message");
    if (!st || st->type != TP_JSON_STR || !msg || msg->type != TP_JSON_STR) {
        tp_json_free(&r->doc);
        return false;
    }
    r->have_doc = true;
    r->status = status_from(st->text);
    r->message = tp_strdup(msg->text);
    const tp_json *w = tp_json_get(root, "wall_s"), *x = tp_json_get(root, "exit"), *h = tp_json_get(root, "host");
    r->wall = w && w->type == TP_JSON_NUM ? w->num : 0;
    r->exit = x && x->type == TP_JSON_NUM ? (int)x->num : -1;
    r->host = tp_strdup(h && h->type == TP_JSON_STR ? h->text : "");
    return true;
}

static void result_clear(sw_result *r)
{
    if (r->have_doc) tp_json_free(&r->doc);
    free(r->message);
    free(r->host);
    memset(r, 0, sizeof *r);
}

void sw_results_free(sw_result *res, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) result_clear(&res[i]);
}

static double json_num(const tp_json *root, const char *k)
{
    const tp_json *v = tp_json_get(root, k);
    return v && v->type == TP_JSON_NUM ? v->num : 0;
}

double sw_timeout(const sw_file *f, const sw_point *pt, const sw_runopts *o)
{
    double t = f->progs[pt->prog].timeout;
    return t >= 0 ? t : o->timeout;
}

bool sw_cached(const sw_file *f, const sw_plan *p, const sw_point *pt, const sw_runopts *o)
{
    if (!pt->key[0] || o->rerun) return false;
    sw_result r = {0};
    if (!read_result(p, pt, &r)) return false;
    bool use = true;
    if (r.status != SW_OK && o->retry_failed) use = false;
    if (r.status == SW_TIMEOUT) {
        double was = json_num(r.doc.root, "timeout_s"), now = sw_timeout(f, pt, o);
        if (now == 0 || now > was) use = false;
    }
    if (r.status == SW_MEMORY) {
        double was = json_num(r.doc.root, "memory");
        if (o->memory == 0 || (double)o->memory > was) use = false;
    }
    result_clear(&r);
    return use;
}

/* ---- a point's outputs ---------------------------------------------------------------- */

/* s as a JSON string; bytes that are not valid UTF-8 (a program's output
** may have any) become '?', so that the result always reads back. */
static void json_str_safe(tp_sbuf *b, const char *s)
{
    tp_sbuf t;
    tp_sbuf_init(&t);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        bool ok = n > 0;
        for (size_t k = 1; ok && k < n; k++) ok = (p[k] & 0xc0) == 0x80;
        /* overlong forms, surrogates and code points past U+10FFFF */
        if (ok && n == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0))) ok = false;
        if (ok && n == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))) ok = false;
        if (ok) tp_sbuf_put(&t, p, n), p += n;
        else tp_sbuf_putc(&t, '?'), p++;
    }
    tp_sbuf_json_str(b, tp_sbuf_str(&t));
    tp_sbuf_free(&t);
}

/* Is s (to end or to a blank) a JSON number?  Its length, or 0. */
static size_t json_number_len(const char *s)
{
    const char *q = s;
    if (*q == '-') q++;
    if (*q == '0') q++;
    else if (*q >= '1' && *q <= '9') while (*q >= '0' && *q <= '9') q++;
    else return 0;
    if (*q == '.') {
        q++;
        if (!(*q >= '0' && *q <= '9')) return 0;
        while (*q >= '0' && *q <= '9') q++;
    }
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-') q++;
        if (!(*q >= '0' && *q <= '9')) return 0;
        while (*q >= '0' && *q <= '9') q++;
    }
    if (*q && *q != ' ' && *q != '\t' && *q != '\r') return 0;
    return (size_t)(q - s);
}

/* Appends to obj (a JSON object being written, "{" already there) the
** lines of text of the form "NAME[:] VALUE": numbers only (numbers_only), or
** for "NAME: VALUE" lines any value, as a string when it is not a number
** (tpsim vec's statistics).  The first line of each NAME wins. */
static void lines_to_json(const char *text, bool numbers_only, tp_sbuf *obj)
{
    char **seen = NULL;
    uint32_t nseen = 0;
    bool first = true;
    for (const char *l = text; l && *l;) {
        const char *eol = strchr(l, '\n');
        size_t n = eol ? (size_t)(eol - l) : strlen(l);
        char *ln = tp_strndup(l, n);
        l = eol ? eol + 1 : NULL;
        char *s = ln;
        while (*s == ' ' || *s == '\t') s++;
        char *name = s;
        while (*s && *s != ' ' && *s != '\t' && *s != ':') s++;
        size_t nlen = (size_t)(s - name);
        bool colon = *s == ':';
        if (colon) s++;
        if (nlen == 0 || (*s != ' ' && *s != '\t')) {
            free(ln);
            continue;
        }
        while (*s == ' ' || *s == '\t') s++;
        size_t vlen = json_number_len(s);
        char *end = s + strlen(s);
        while (end > s && (end[-1] == ' ' || end[-1] == '\r' || end[-1] == '\t')) *--end = 0;
        if (!vlen && (numbers_only || !colon || !*s)) {
            free(ln);
            continue;
        }
        name[nlen] = 0;
        bool dup = false;
        for (uint32_t i = 0; i < nseen && !dup; i++) dup = !strcmp(seen[i], name);
        if (!dup) {
            seen = tp_realloc(seen, (nseen + 1) * sizeof *seen);
            seen[nseen++] = tp_strdup(name);
            if (!first) tp_sbuf_putc(obj, ',');
            first = false;
            json_str_safe(obj, name);
            tp_sbuf_putc(obj, ':');
            if (vlen) tp_sbuf_put(obj, s, vlen);
            else json_str_safe(obj, s);
        }
        free(ln);
    }
    for (uint32_t i = 0; i < nseen; i++) free(seen[i]);
    free(seen);
}

/* The last non-empty line of text, at most 300 bytes. */
static char *last_line(const char *text)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ')) end--;
    const char *start = end;
    while (start > text && start[-1] != '\n') start--;
    if (end - start > 300) start = end - 300;
    return tp_strndup(start, (size_t)(end - start));
}

/* A point's output file: at most the first (head) or last (!head) max
** bytes of it, as a string. */
static char *read_or_empty(const char *dir, const char *name, size_t max, bool head)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return tp_strdup("");
    off_t size = fseeko(f, 0, SEEK_END) == 0 ? ftello(f) : 0;
    if (size < 0) size = 0;
    size_t want = (size_t)size < max ? (size_t)size : max;
    fseeko(f, head ? 0 : size - (off_t)want, SEEK_SET);
    char *t = tp_malloc(want + 1);
    size_t len = fread(t, 1, want, f);
    fclose(f);
    t[len] = 0;
    /* outputs are text; a NUL would cut them short */
    for (size_t i = 0; i < len; i++)
        if (!t[i]) t[i] = ' ';
    return t;
}

typedef struct finished {
    int wstatus;
    bool timed_out;
    double wall;
} finished;

/* Builds and stores the result of a point that ended. */
static void store_result(const sw_file *f, const sw_plan *p, const sw_point *pt, const char *dir, const finished *fin,
                         const sw_runopts *o)
{
    const sw_program *g = &f->progs[pt->prog];
    /* the numbers a program prints are near its start; why it failed, at the end of stderr */
    char *out = read_or_empty(dir, "stdout", (size_t)16 << 20, true);
    char *err = read_or_empty(dir, "stderr", (size_t)64 << 10, false);
    int code = WIFEXITED(fin->wstatus) ? WEXITSTATUS(fin->wstatus)
               : WIFSIGNALED(fin->wstatus) ? 128 + WTERMSIG(fin->wstatus) : -1;
    sw_status st = SW_OK;
    tp_sbuf msg, stats;
    tp_sbuf_init(&msg);
    tp_sbuf_init(&stats);
    if (g->kind == SW_VMIPS) {
        tp_sbuf_putc(&stats, '{');
        lines_to_json(out, false, &stats);
        tp_sbuf_putc(&stats, '}');
    } else {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/stats.json", dir);
        size_t len;
        char *t = sw_read_file(path, &len);
        tp_json_doc d;
        tp_err e;
        tp_err_clear(&e);
        if (t && tp_json_parse(&d, t, len, "stats.json", &e)) {
            tp_json_write(d.root, &stats);
            tp_json_free(&d);
        } else {
            tp_sbuf_puts(&stats, "{}");
            if (t) tp_sbuf_printf(&msg, "the statistics file is not JSON: %s", e.msg);
            else if (code == 0 && !fin->timed_out) tp_sbuf_puts(&msg, "the program wrote no statistics (it made no CUDA calls)");
            if (code == 0 && !fin->timed_out) st = SW_FAILED;
        }
        free(t);
    }
    if (fin->timed_out) {
        st = SW_TIMEOUT;
        tp_sbuf_reset(&msg);
        tp_sbuf_printf(&msg, "timed out after %g s", sw_timeout(f, pt, o));
    } else if (code != 0) {
        char *ll = last_line(err);
        bool oom = o->memory && (strstr(err, "out of memory") || strstr(err, "out of host memory") || strstr(err, "memory exhausted") || strstr(err, "Cannot allocate memory") ||
                                 strstr(err, "bad_alloc") || strstr(err, "CUDA_ERROR_OUT_OF_MEMORY"));
        st = oom ? SW_MEMORY : SW_FAILED;
        tp_sbuf_reset(&msg);
        if (oom) tp_sbuf_printf(&msg, "over the memory limit of %llu bytes: ", (unsigned long long)o->memory);
        if (*ll) tp_sbuf_printf(&msg, "%s ", ll);
        if (WIFSIGNALED(fin->wstatus))
            tp_sbuf_printf(&msg, "(signal %d, %s)", WTERMSIG(fin->wstatus), strsignal(WTERMSIG(fin->wstatus)));
        else tp_sbuf_printf(&msg, "(exit status %d)", code);
        free(ll);
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    tp_sbuf r;
    tp_sbuf_init(&r);
    tp_sbuf_puts(&r, "{\"tpsim_sweep_result\":1,\"key\":");
    tp_sbuf_json_str(&r, pt->key);
    tp_sbuf_puts(&r, ",\"point\":");
    json_str_safe(&r, pt->name);
    tp_sbuf_printf(&r, ",\"status\":\"%s\",\"message\":", sw_status_name(st));
    json_str_safe(&r, tp_sbuf_str(&msg));
    tp_sbuf_printf(&r, ",\"exit\":%d,\"wall_s\":%.3f,\"timeout_s\":%.17g,\"memory\":%llu,\"host\":", code, fin->wall,
                   sw_timeout(f, pt, o), (unsigned long long)o->memory);
    json_str_safe(&r, host);
    tp_sbuf_puts(&r, ",\"stderr_tail\":");
    size_t elen = strlen(err);
    json_str_safe(&r, elen > 2000 ? err + elen - 2000 : err);
    tp_sbuf_puts(&r, ",\"stdout\":{");
    lines_to_json(out, true, &r);
    tp_sbuf_puts(&r, "},\"stats\":");
    tp_sbuf_put(&r, stats.s ? stats.s : "{}", stats.len ? stats.len : 2);
    tp_sbuf_puts(&r, "}\n");
    char *path = result_path(p, pt);
    char *slash = strrchr(path, '/');
    *slash = 0;
    sw_mkdirs(path);
    *slash = '/';
    tp_err e;
    tp_err_clear(&e);
    /* the strings came from outputs that may not be UTF-8: check that the
    ** result reads back before it replaces anything */
    tp_json_doc chk;
    if (!tp_json_parse(&chk, r.s, r.len, NULL, &e)) {
        fprintf(stderr, "tpsim sweep: point %s: its result does not read back (%s); not stored\n", pt->name, e.msg);
    } else {
        tp_json_free(&chk);
        if (!sw_write_atomic(path, r.s, r.len, &e)) fprintf(stderr, "tpsim sweep: %s\n", e.msg);
    }
    free(path);
    tp_sbuf_free(&r);
    tp_sbuf_free(&msg);
    tp_sbuf_free(&stats);
    free(out);
    free(err);
}

/* ---- the workers --------------------------------------------------------------------------- */

static volatile sig_atomic_t sw_stop;

static void on_signal(int sig)
{
    sw_stop = sig;
}

typedef struct slot {
    pid_t pid;
    uint32_t pt;
    double start;
    bool timed_out;
    char *dir;
} slot;

static pid_t start_point(const sw_file *f, const sw_plan *p, const sw_point *pt, const char *dir, const sw_runopts *o)
{
    const sw_program *g = &f->progs[pt->prog];
    /* the command, with --stats for GPU programs */
    uint32_t n = 0;
    while (pt->argv[n]) n++;
    char **av = tp_calloc(n + 3, sizeof *av);
    char stats[PATH_MAX + 64];
    snprintf(stats, sizeof stats, "%s/stats.json", dir);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        av[k++] = pt->argv[i];
        if (i == 1 && g->kind != SW_VMIPS) {
            av[k++] = "--stats";
            av[k++] = stats;
        }
    }
    av[k] = NULL;
    char outp[PATH_MAX + 64], errp[PATH_MAX + 64];
    snprintf(outp, sizeof outp, "%s/stdout", dir);
    snprintf(errp, sizeof errp, "%s/stderr", dir);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        int in = open("/dev/null", O_RDONLY);
        int fo = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        int fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (in < 0 || fo < 0 || fe < 0 || dup2(in, 0) < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0) _exit(126);
        close(in), close(fo), close(fe);
        if (chdir(f->dir) != 0) {
            fprintf(stderr, "tpsim sweep: cannot enter %s: %s\n", f->dir, strerror(errno));
            _exit(126);
        }
        unsetenv("TPSIM_CONFIG");
        unsetenv("TPSIM_OPTIONS");
        unsetenv("TPSIM_MODE");
        unsetenv("TPSIM_STATS");
        unsetenv("TPSIM_TRACE");
        struct rlimit rl = {0, 0};
        setrlimit(RLIMIT_CORE, &rl);
#ifndef TP_SAN_BUILD
        if (o->memory) {
            rl.rlim_cur = rl.rlim_max = (rlim_t)o->memory;
            setrlimit(RLIMIT_DATA, &rl);
        }
#endif
        execv(p->tpsim, av);
        fprintf(stderr, "tpsim sweep: cannot run %s: %s\n", p->tpsim, strerror(errno));
        _exit(126);
    }
    if (pid > 0) setpgid(pid, pid);
    free(av);
    return pid;
}

static void fmt_time(double s, char *buf, size_t n)
{
    if (s < 60) snprintf(buf, n, "%.0fs", s);
    else if (s < 3600) snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(buf, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

/* A sweep being run: the points to run, the workers, the counts. */
typedef struct runner {
    const sw_file *f;
    const sw_plan *p;
    const sw_runopts *o;
    uint32_t *todo, ntodo, next;   /* points to run (indices in p), the next to start */
    uint32_t total, ncached, nerror, done, running, failed, jobs;
    bool *ran;                     /* per point: run (or, from Slurm, run fresh) by this call */
    slot *slots;                   /* jobs workers; pid 0: free */
    double busy;                   /* seconds the finished points took */
    bool tty;
    char shown[200];               /* the progress line on the terminal */
    double shown_at;
} runner;

/* Sorts the points of list (all without it) into those that cannot start,
** those cached (or, gathering, fresh from Slurm) and those to run. */
static void runner_plan(runner *r, const uint32_t *list, uint32_t nlist)
{
    const sw_plan *p = r->p;
    const sw_runopts *o = r->o;
    r->total = list ? nlist : p->n;
    r->todo = tp_calloc(r->total ? r->total : 1, sizeof *r->todo);
    r->ran = tp_calloc(p->n ? p->n : 1, sizeof *r->ran);
    for (uint32_t i = 0; i < r->total; i++) {
        uint32_t idx = list ? list[i] : i;
        if (idx >= p->n) continue;
        const sw_point *pt = &p->pts[idx];
        if (pt->error) r->nerror++;
        else if (o->gather_only && o->fresh && o->fresh[idx]) r->ran[idx] = true, r->done++;
        else if (o->gather_only || sw_cached(r->f, p, pt, o)) r->ncached++;
        else r->todo[r->ntodo++] = idx;
    }
    r->jobs = o->jobs ? o->jobs : 1;
    r->slots = tp_calloc(r->jobs, sizeof *r->slots);
}

/* Starts the next point on a free worker; false (and sw_stop set) if it
** could not be started. */
static bool runner_start(runner *r)
{
    const sw_plan *p = r->p;
    uint32_t s = 0;
    while (r->slots[s].pid) s++;
    const sw_point *pt = &p->pts[r->todo[r->next]];
    /* unique among the hosts and processes sharing OUT (Slurm tasks) */
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = 0;
    for (char *h = host; *h; h++)
        if (*h == '/') *h = '_';
    size_t dn = strlen(p->work) + 200;
    char *dir = tp_malloc(dn);
    snprintf(dir, dn, "%s/%s.%s.%ld", p->work, pt->key, host, (long)getpid());
    rm_tree(dir);
    if (!sw_mkdirs(dir)) {
        fprintf(stderr, "tpsim sweep: cannot make %s: %s\n", dir, strerror(errno));
        free(dir);
        sw_stop = SIGTERM;
        return false;
    }
    pid_t pid = start_point(r->f, p, pt, dir, r->o);
    if (pid < 0) {
        fprintf(stderr, "tpsim sweep: cannot start a process: %s\n", strerror(errno));
        rm_tree(dir);
        free(dir);
        sw_stop = SIGTERM;
        return false;
    }
    r->slots[s] = (slot){pid, r->todo[r->next], now_s(), false, dir};
    r->ran[r->todo[r->next]] = true;
    r->running++;
    r->next++;
    return true;
}

/* Stores the results of the points that have finished. */
static void runner_reap(runner *r)
{
    int ws;
    pid_t pid;
    while (r->running && (pid = waitpid(-1, &ws, WNOHANG)) > 0) {
        uint32_t s = 0;
        while (s < r->jobs && r->slots[s].pid != pid) s++;
        if (s == r->jobs) continue;
        slot *sl = &r->slots[s];
        /* the group may have members left (a program's own children) */
        kill(-sl->pid, SIGKILL);
        finished fin = {ws, sl->timed_out, now_s() - sl->start};
        r->busy += fin.wall;
        store_result(r->f, r->p, &r->p->pts[sl->pt], sl->dir, &fin, r->o);
        if (fin.timed_out || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) r->failed++;
        rm_tree(sl->dir);
        free(sl->dir);
        memset(sl, 0, sizeof *sl);
        r->running--;
        r->done++;
    }
}

/* Kills the points past their time limit. */
static void runner_limits(runner *r, double t)
{
    for (uint32_t s = 0; s < r->jobs; s++) {
        slot *sl = &r->slots[s];
        double lim = sl->pid ? sw_timeout(r->f, &r->p->pts[sl->pt], r->o) : 0;
        if (sl->pid && !sl->timed_out && lim > 0 && t - sl->start > lim) {
            sl->timed_out = true;
            kill(-sl->pid, SIGKILL);
        }
    }
}

/* The progress line, redrawn when it changes and every second for the estimate. */
static void runner_progress(runner *r, double t)
{
    char eta[32] = "?", line[200];
    uint32_t left = r->ntodo - r->done;
    if (r->done) fmt_time(r->busy / r->done * (double)left / (double)TP_MIN(r->jobs, TP_MAX(1u, left)), eta, sizeof eta);
    snprintf(line, sizeof line, "tpsim sweep: %u/%u done (%u cached), %u running, %u failed, about %s left",
             r->done + r->ncached, r->total, r->ncached, r->running, r->failed, r->done ? eta : "?");
    if (strcmp(line, r->shown) != 0 || t - r->shown_at >= 1.0) {
        fprintf(stderr, "\r\033[K%s", line);
        snprintf(r->shown, sizeof r->shown, "%s", line);
        r->shown_at = t;
    }
}

/* Every point's result, from the cache (after the run). */
static void collect_results(const sw_plan *p, const bool *ran, sw_result *res)
{
    for (uint32_t i = 0; i < p->n; i++) {
        const sw_point *pt = &p->pts[i];
        sw_result *r = &res[i];
        memset(r, 0, sizeof *r);
        r->exit = -1;
        if (pt->error) {
            r->status = SW_ERROR;
            r->message = tp_strdup(pt->error);
            r->host = tp_strdup("");
        } else if (!read_result(p, pt, r)) {
            r->status = SW_MISSING;
            r->message = tp_strdup("no result yet");
            r->host = tp_strdup("");
        } else {
            r->cached = !ran[i];
        }
    }
}

bool sw_run(const sw_file *f, const sw_plan *p, const uint32_t *list, uint32_t nlist, const sw_runopts *o,
            sw_result *res)
{
    runner r;
    memset(&r, 0, sizeof r);
    r.f = f, r.p = p, r.o = o;
    runner_plan(&r, list, nlist);
    double t0 = now_s();
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sw_stop = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    r.tty = o->progress && isatty(2);
    if (r.ntodo) sw_mkdirs(p->work);
    while ((r.next < r.ntodo || r.running) && !sw_stop) {
        while (r.running < r.jobs && r.next < r.ntodo && !sw_stop)
            if (!runner_start(&r)) break;
        runner_reap(&r);
        double t = now_s();
        runner_limits(&r, t);
        /* not while free workers are about to take points */
        if (r.tty && !(r.running < r.jobs && r.next < r.ntodo && !sw_stop)) runner_progress(&r, t);
        if (r.running) {
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    bool interrupted = sw_stop != 0;
    if (interrupted) {
        for (uint32_t s = 0; s < r.jobs; s++)
            if (r.slots[s].pid) {
                kill(-r.slots[s].pid, SIGKILL);
                while (waitpid(r.slots[s].pid, NULL, 0) < 0 && errno == EINTR) {}
                rm_tree(r.slots[s].dir);
                free(r.slots[s].dir);
            }
    }
    if (r.tty) fprintf(stderr, "\r\033[K");
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    rmdir(p->work);
    if (o->progress) {
        char tb[32];
        fmt_time(now_s() - t0, tb, sizeof tb);
        fprintf(stderr, "tpsim sweep: %u point%s: %u run now%s, %u from the cache, %u could not start; %s\n", r.total,
                r.total == 1 ? "" : "s", r.done, interrupted ? " (interrupted)" : "", r.ncached, r.nerror, tb);
    }
    free(r.slots);
    free(r.todo);
    if (res) collect_results(p, r.ran, res);
    free(r.ran);
    return !interrupted;
}
