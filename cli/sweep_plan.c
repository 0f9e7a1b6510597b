/*
** sweep_plan.c -- the points of a sweep: the cross product of programs,
** configurations and axis values, in that order (the last axis varies
** fastest), each with its command, its effective configuration and its
** cache key.
**
** Effective configuration: the machine's option table (the GPU's for cuda
** and ptx programs, the vector machine's for vmips), then the
** configuration's base (for the GPU, rtx2060 when none is given, as for any
** CUDA program), then [sweep] mode (GPU), then the configuration's options,
** then each axis's options in the order of the axes.  Every value is checked
** here, so an option that does not exist or is out of range is an error at
** its line of the sweep file, before anything runs.
**
** Command: GPU programs run as
**   tpsim run --no-summary --config BASE --mode MODE [-o KEY=VALUE]... -- PROGRAM ARGS
** (the runner adds --stats FILE after "run"); vmips programs as
**   tpsim vec [--config BASE] [-o KEY=VALUE]... [--set NAME=VALUE]... OPTIONS FILE.s
** (--set for the equ.NAME lines of the configuration and the axes, one per
** NAME) with the working directory at the sweep's dir.
**
** Cache key: SHA-256 over "tpsim-sweep-point 1", TPSIM_VERSION, the kind,
** the command's words (after tpsim's own path), the name and SHA-256 of
** each file the program consists of (the program or runner binary, the
** PTX files, the VMIPS source, the inputs), and the effective configuration
** as `tpsim config --show` prints it (every option, resolved).  Paths are
** hashed as written, so a cache moves with a checkout or to a cluster.
*/
#include "sweep.h"
#include "../base/file.h"
#include "../gpu/options.h"
#include "../vector/vec.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* file hashes, computed once per path */
typedef struct fhash {
    char *path;
    char hex[65];
    int err;   /* errno when it could not be read */
} fhash;

typedef struct fcache {
    fhash *a;
    uint32_t n;
} fcache;

static const fhash *hash_file(fcache *c, const char *path)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (!strcmp(c->a[i].path, path)) return &c->a[i];
    c->a = tp_realloc(c->a, (c->n + 1) * sizeof *c->a);
    fhash *h = &c->a[c->n++];
    h->path = tp_strdup(path);
    h->err = 0;
    h->hex[0] = 0;
    struct stat st;
    tp_sha256 s;
    tp_sha256_init(&s);
    if (stat(path, &st) != 0) h->err = errno;
    else if (!S_ISREG(st.st_mode)) h->err = EISDIR;
    else if (!tp_sha256_file(&s, path)) h->err = errno ? errno : EIO;
    else tp_sha256_hex(&s, h->hex);
    return h;
}

/* The file a command word names: relative to dir, or found in PATH when it
** has no '/'.  Returns a malloc'd path. */
static char *locate(const char *dir, const char *word, bool search_path)
{
    char buf[PATH_MAX * 2];
    if (word[0] == '/') return tp_strdup(word);
    if (strchr(word, '/') || !search_path) {
        snprintf(buf, sizeof buf, "%s/%s", dir, word);
        return tp_strdup(buf);
    }
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, word);
        if (len && access(buf, X_OK) == 0) return tp_strdup(buf);
        if (!e) break;
        p = e + 1;
    }
    return tp_strdup(word);
}

typedef struct argv_b {
    char **a;
    uint32_t n;
} argv_b;

static void arg(argv_b *b, const char *s)
{
    b->a = tp_realloc(b->a, (b->n + 2) * sizeof *b->a);
    b->a[b->n++] = tp_strdup(s);
    b->a[b->n] = NULL;
}

static void argkv(argv_b *b, const char *k, const char *v)
{
    char *kv = tp_malloc(strlen(k) + strlen(v) + 2);
    sprintf(kv, "%s=%s", k, v);
    arg(b, "-o");
    b->a = tp_realloc(b->a, (b->n + 2) * sizeof *b->a);
    b->a[b->n++] = kv;
    b->a[b->n] = NULL;
}

static bool is_gpu(sw_kind k) { return k != SW_VMIPS; }

/* Sets name = val in the list of .equ values (replacing an earlier one). */
static void equ_put(const char **ek, const char **ev, uint32_t *n, const char *name, const char *val)
{
    for (uint32_t i = 0; i < *n; i++)
        if (!strcmp(ek[i], name)) {
            ev[i] = val;
            return;
        }
    ek[*n] = name;
    ev[(*n)++] = val;
}

/* A configuration base that names a file relative to the sweep's dir
** becomes an absolute path; otherwise it is a built-in name. */
static char *base_path(const sw_file *f, const char *base)
{
    if (!base) return NULL;
    char buf[PATH_MAX * 2];
    if (base[0] != '/') {
        snprintf(buf, sizeof buf, "%s/%s", f->dir, base);
        struct stat st;
        if (stat(buf, &st) == 0 && S_ISREG(st.st_mode)) return tp_strdup(buf);
    }
    return tp_strdup(base);
}

/* ---- .equ constants of VMIPS programs ----------------------------------------------
** A configuration or axis line "equ.NAME = VALUE" sets the program's .equ
** NAME, as `tpsim vec --set NAME=VALUE` does (and the program's own words
** may say --set NAME=VALUE).  Before anything runs, every such NAME is
** checked against the program: a missing .equ is an error at the sweep
** file's line, naming the program and the .equ. */

static bool is_equ(const char *k) { return !strncmp(k, "equ.", 4); }

/* The program as assembled (no overrides), for its .equ names; NULL when it
** cannot be assembled here (the point's run then reports why). */
typedef struct vcache {
    vec_prog *p;
    bool *tried;
    uint32_t n;
} vcache;

static const vec_prog *vmips_prog(vcache *vc, const sw_file *f, uint32_t idx)
{
    if (vc->tried[idx]) return vc->p[idx].file ? &vc->p[idx] : NULL;
    vc->tried[idx] = true;
    char *path = locate(f->dir, f->progs[idx].cmd.w[0], false);
    size_t len;
    char *text = tp_file_read(path, &len);
    tp_err e;
    tp_err_clear(&e);
    vec_asm_cfg cfg = {64, NULL, 0, 0, false};
    if (!text || !vec_asm(&vc->p[idx], text, len, path, &cfg, &e)) memset(&vc->p[idx], 0, sizeof vc->p[idx]);
    free(text);
    free(path);
    return vc->p[idx].file ? &vc->p[idx] : NULL;
}

/* Why program g (assembled as vp) cannot take an .equ NAME, or NULL. */
static const char *equ_missing(const vec_prog *vp, const char *name)
{
    if (!vp) return NULL;
    const vec_sym *s = vec_prog_sym(vp, name);
    if (!s || s->kind == VEC_SYM_DATA || s->kind == VEC_SYM_CODE) return "has no .equ named";
    if (s->kind == VEC_SYM_REG) return "names a register, not a value, with its .equ";
    return NULL;
}

/* The value of a --set word of the program's own options ("NAME=VALUE"), or NULL. */
static const char *own_set(const sw_program *g, const char *name)
{
    size_t n = strlen(name);
    for (uint32_t k = 1; k + 1 < g->cmd.n; k++)
        if (!strcmp(g->cmd.w[k], "--set") && !strncmp(g->cmd.w[k + 1], name, n) && g->cmd.w[k + 1][n] == '=')
            return g->cmd.w[k + 1];
    return NULL;
}

/* Checks a configuration's or axis's "equ.NAME = v" for program g. */
static bool equ_at(const char *k, const char *v, tp_loc kloc, tp_loc vloc, const sw_program *g, const vec_prog *vp,
                   tp_err *e)
{
    const char *name = k + 4;
    if (g->kind != SW_VMIPS) {
        tp_err_at(e, SW_ERR, kloc, "%s sets an .equ of a VMIPS program, but program %s runs on the GPU", k, g->name);
        return false;
    }
    if (!*name) {
        tp_err_at(e, SW_ERR, kloc, "equ. names the .equ it sets: equ.NAME");
        return false;
    }
    char *end;
    errno = 0;
    (void)strtoll(v, &end, 0);
    if (errno || end == v || *end) {
        tp_err_at(e, SW_ERR, vloc, "%s takes an integer (the value of .equ %s), not '%s'", k, name, v);
        return false;
    }
    const char *why = equ_missing(vp, name);
    if (why) {
        tp_err_at(e, SW_ERR, kloc, "%s: program %s (%s) %s '%s'", k, g->name, g->cmd.w[0], why, name);
        return false;
    }
    const char *own = own_set(g, name);
    if (own) {
        tp_err_at(e, SW_ERR, kloc, "%s: program %s sets it already (--set %s)", k, g->name, own);
        return false;
    }
    return true;
}

/* The program's own --set words: each must name an .equ of the program. */
static bool own_sets_ok(const sw_program *g, const vec_prog *vp, tp_err *e)
{
    for (uint32_t k = 1; k + 1 < g->cmd.n; k++) {
        if (strcmp(g->cmd.w[k], "--set") != 0) continue;
        const char *w = g->cmd.w[k + 1], *eq = strchr(w, '=');
        if (!eq) continue;   /* tpsim vec says what --set takes */
        char *name = tp_strndup(w, (size_t)(eq - w));
        const char *why = equ_missing(vp, name);
        if (why) tp_err_at(e, SW_ERR, g->cmd_loc, "--set %s: program %s (%s) %s '%s'", name, g->name, g->cmd.w[0], why, name);
        free(name);
        if (why) return false;
    }
    return true;
}

/* Sets one option; the error is at the key when the option does not exist,
** else at the value, and names the program's machine. */
static bool set_at(tp_opts *o, const char *k, const char *v, tp_loc kloc, tp_loc vloc, const sw_program *g,
                   const vec_prog *vp, tp_err *e)
{
    if (is_equ(k)) return equ_at(k, v, kloc, vloc, g, vp, e);
    tp_err sub;
    tp_err_clear(&sub);
    if (tp_opts_set(o, k, v, TP_SRC_OVERRIDE, &sub)) return true;
    tp_loc loc = tp_opts_find(o, k) < 0 ? kloc : vloc;
    char *hint = strstr(sub.msg, "'tpsim config --list' shows them all");
    if (hint && !is_gpu(g->kind))
        snprintf(hint, sizeof sub.msg - (size_t)(hint - sub.msg), "'tpsim vec --list-options' shows them all)");
    tp_err_at(e, SW_ERR, loc, "%s (program %s runs on the %s)", sub.msg, g->name,
              is_gpu(g->kind) ? "GPU" : "vector machine");
    return false;
}

static bool point_opts(const sw_file *f, const sw_point *pt, const vec_prog *vp, tp_opts *o, tp_err *e)
{
    const sw_program *g = &f->progs[pt->prog];
    const sw_config *c = &f->cfgs[pt->cfg];
    if (is_gpu(g->kind)) gpu_opts_init(o);
    else vec_opts_init(o);
    char *base = base_path(f, c->base);
    const char *b = base ? base : is_gpu(g->kind) ? EXEC_DEFAULT_CONFIG : NULL;
    tp_err sub;
    tp_err_clear(&sub);
    if (b && !tp_opts_load_config(o, b, &sub)) {
        tp_err_at(e, SW_ERR, c->base_loc.line ? c->base_loc : c->loc, "%s (program %s)", sub.msg, g->name);
        free(base);
        return false;
    }
    free(base);
    if (is_gpu(g->kind)) {
        tp_err_clear(&sub);
        if (!tp_opts_set(o, "mode", f->performance ? "performance" : "functional", TP_SRC_OVERRIDE, &sub)) {
            tp_err_set(e, SW_ERR, "%s", sub.msg);
            return false;
        }
    }
    for (uint32_t i = 0; i < c->nset; i++)
        if (!set_at(o, c->set[i].key, c->set[i].val, c->set[i].loc, c->set[i].vloc, g, vp, e)) return false;
    for (uint32_t x = 0; x < f->naxes; x++) {
        const sw_axis *ax = &f->axes[x];
        for (uint32_t k = 0; k < ax->nopts; k++)
            if (!set_at(o, ax->opts[k].key, ax->vals[k][pt->val[x]], ax->opts[k].loc, ax->opts[k].vloc, g, vp, e))
                return false;
    }
    return true;
}

int sw_point_find(const sw_file *f, const sw_plan *p, const sw_point *pt, const sw_sel *sel, uint32_t nsel)
{
    uint32_t prog = pt->prog, cfg = pt->cfg;
    uint32_t idx;
    uint32_t vals[64];
    if (f->naxes > 64) return -1;
    for (uint32_t x = 0; x < f->naxes; x++) vals[x] = pt->val[x];
    for (uint32_t i = 0; i < nsel; i++) {
        if (sel[i].dim_idx == -2) prog = sel[i].val_idx;
        else if (sel[i].dim_idx == -1) cfg = sel[i].val_idx;
        else vals[sel[i].dim_idx] = sel[i].val_idx;
    }
    idx = prog * f->ncfgs + cfg;
    for (uint32_t x = 0; x < f->naxes; x++) idx = idx * f->axes[x].nvals + vals[x];
    return idx < p->n ? (int)idx : -1;
}

static char *join_path(const char *a, const char *b)
{
    char *r = tp_malloc(strlen(a) + strlen(b) + 2);
    sprintf(r, "%s/%s", a, b);
    return r;
}

/* The point's name: "program/config/axis=label/...". */
static char *point_name(const sw_file *f, const sw_point *pt)
{
    tp_sbuf nm;
    tp_sbuf_init(&nm);
    tp_sbuf_printf(&nm, "%s/%s", f->progs[pt->prog].name, f->cfgs[pt->cfg].name);
    for (uint32_t x = 0; x < f->naxes; x++) tp_sbuf_printf(&nm, "/%s=%s", f->axes[x].name, f->axes[x].labels[pt->val[x]]);
    return tp_sbuf_take(&nm);
}

/* The point's options as -o KEY=VALUE and its .equ values as --set
** NAME=VALUE, one per name (an axis overrides the configuration, a later
** axis an earlier). */
static void point_settings(const sw_file *f, const sw_point *pt, argv_b *av)
{
    const sw_config *c = &f->cfgs[pt->cfg];
    uint32_t ne = 0, cap = c->nset;
    for (uint32_t x = 0; x < f->naxes; x++) cap += f->axes[x].nopts;
    const char **ek = tp_malloc((cap + 1) * sizeof *ek), **ev = tp_malloc((cap + 1) * sizeof *ev);
    for (uint32_t k = 0; k < c->nset; k++) {
        if (is_equ(c->set[k].key)) equ_put(ek, ev, &ne, c->set[k].key + 4, c->set[k].val);
        else argkv(av, c->set[k].key, c->set[k].val);
    }
    for (uint32_t x = 0; x < f->naxes; x++)
        for (uint32_t k = 0; k < f->axes[x].nopts; k++) {
            const char *key = f->axes[x].opts[k].key, *val = f->axes[x].vals[k][pt->val[x]];
            if (is_equ(key)) equ_put(ek, ev, &ne, key + 4, val);
            else argkv(av, key, val);
        }
    for (uint32_t k = 0; k < ne; k++) {
        char *kv = tp_malloc(strlen(ek[k]) + strlen(ev[k]) + 2);
        sprintf(kv, "%s=%s", ek[k], ev[k]);
        arg(av, "--set");
        arg(av, kv);
        free(kv);
    }
    free(ek);
    free(ev);
}

/* The command that runs the point: tpsim run ... -- PROGRAM, or tpsim vec ... PROGRAM.s. */
static char **point_argv(const sw_file *f, const sw_point *pt, const char *tpsim, uint32_t *n)
{
    const sw_program *g = &f->progs[pt->prog];
    argv_b av = {0};
    arg(&av, tpsim);
    char *base = base_path(f, f->cfgs[pt->cfg].base);
    if (is_gpu(g->kind)) {
        arg(&av, "run");
        arg(&av, "--no-summary");
        arg(&av, "--config");
        arg(&av, base ? base : EXEC_DEFAULT_CONFIG);
        arg(&av, "--mode");
        arg(&av, f->performance ? "performance" : "functional");
    } else {
        arg(&av, "vec");
        if (base) {
            arg(&av, "--config");
            arg(&av, base);
        }
    }
    free(base);
    point_settings(f, pt, &av);
    if (is_gpu(g->kind)) {
        arg(&av, "--");
        for (uint32_t k = 0; k < g->cmd.n; k++) arg(&av, g->cmd.w[k]);
    } else {
        for (uint32_t k = 1; k < g->cmd.n; k++) arg(&av, g->cmd.w[k]);
        arg(&av, g->cmd.w[0]);
    }
    *n = av.n;
    return av.a;
}

/* Adds "file NAME HASH" to k for a file the point reads (program: the
** program itself, found as locate finds it with in_path); the first file
** that cannot be read becomes the point's error. */
static void key_file(sw_point *pt, fcache *fc, const sw_file *f, const char *name, bool program, bool in_path,
                     tp_sbuf *k)
{
    char *fp = locate(f->dir, name, in_path);
    const fhash *fh = hash_file(fc, fp);
    free(fp);
    if (fh->err && !pt->error) {
        /* the repository's test and experiment runners come from `make unit` */
        bool unit = program && fh->err == ENOENT && (strstr(name, "/tests/") || strstr(name, "/experiments/"));
        const char *hint = unit ? " (tpsim's test and experiment programs are built by `make unit`)" : "";
        size_t len = strlen(name) + strlen(strerror(fh->err)) + strlen(hint) + 64;
        pt->error = tp_malloc(len);
        snprintf(pt->error, len, "cannot read %s%s: %s%s", program ? "the program " : "", name, strerror(fh->err), hint);
    }
    tp_sbuf_printf(k, "file %s %s\n", name, fh->hex);
}

/* The point's cache key: a hash of tpsim's version, the command, the files
** the program consists of and the resolved configuration o. */
static void point_key(sw_point *pt, const sw_file *f, fcache *fc, uint32_t argc, const tp_opts *o)
{
    const sw_program *g = &f->progs[pt->prog];
    tp_sbuf k;
    tp_sbuf_init(&k);
    tp_sbuf_printf(&k, "tpsim-sweep-point 1\nversion %s\nkind %s\n", TPSIM_VERSION, sw_kind_name(g->kind));
    for (uint32_t a = 1; a < argc; a++) tp_sbuf_printf(&k, "arg %zu %s\n", strlen(pt->argv[a]), pt->argv[a]);
    key_file(pt, fc, f, g->cmd.w[0], true, g->kind != SW_VMIPS, &k);
    const sw_words *lists[2] = {&g->ptx, &g->inputs};
    for (int l = 0; l < 2; l++)
        for (uint32_t w = 0; w < lists[l]->n; w++) key_file(pt, fc, f, lists[l]->w[w], false, false, &k);
    tp_sbuf_puts(&k, "config\n");
    tp_opts_dump(o, &k);
    tp_sha256 h;
    tp_sha256_init(&h);
    tp_sha256_put(&h, k.s, k.len);
    tp_sbuf_free(&k);
    if (pt->error) pt->key[0] = 0;
    else tp_sha256_hex(&h, pt->key);
}

bool sw_plan_build(sw_plan *p, const sw_file *f, const char *tpsim, const char *out, tp_err *e)
{
    memset(p, 0, sizeof *p);
    p->tpsim = tpsim;
    p->work = join_path(out, "work");
    p->cache = join_path(out, "cache");
    uint64_t n = (uint64_t)f->nprogs * f->ncfgs;
    for (uint32_t x = 0; x < f->naxes; x++) n *= f->axes[x].nvals;
    if (f->naxes > 64 || n > 10000000) {
        tp_err_set(e, SW_ERR, "%s: the sweep has %llu points; tpsim sweep takes at most 10 million (and 64 axes)",
                   f->path, (unsigned long long)n);
        return false;
    }
    p->n = (uint32_t)n;
    p->pts = tp_calloc(p->n ? p->n : 1, sizeof *p->pts);
    fcache fc = {0};
    bool ok = true;
    vcache vc = {tp_calloc(f->nprogs ? f->nprogs : 1, sizeof(vec_prog)), tp_calloc(f->nprogs ? f->nprogs : 1, sizeof(bool)),
                 f->nprogs};
    for (uint32_t i = 0; i < f->nprogs && ok; i++)
        if (f->progs[i].kind == SW_VMIPS) ok = own_sets_ok(&f->progs[i], vmips_prog(&vc, f, i), e);
    if (!ok) p->n = 0;
    for (uint32_t i = 0; i < p->n && ok; i++) {
        sw_point *pt = &p->pts[i];
        pt->index = i;
        pt->val = tp_calloc(f->naxes ? f->naxes : 1, sizeof *pt->val);
        uint32_t r = i;
        for (uint32_t x = f->naxes; x-- > 0;) {
            pt->val[x] = r % f->axes[x].nvals;
            r /= f->axes[x].nvals;
        }
        pt->cfg = r % f->ncfgs;
        pt->prog = r / f->ncfgs;
        pt->name = point_name(f, pt);
        tp_opts o;
        const vec_prog *vp = f->progs[pt->prog].kind == SW_VMIPS ? vmips_prog(&vc, f, pt->prog) : NULL;
        if (!(ok = point_opts(f, pt, vp, &o, e))) {
            tp_opts_free(&o);
            break;
        }
        uint32_t argc;
        pt->argv = point_argv(f, pt, tpsim, &argc);
        point_key(pt, f, &fc, argc, &o);
        tp_opts_free(&o);
    }
    for (uint32_t i = 0; i < fc.n; i++) free(fc.a[i].path);
    free(fc.a);
    for (uint32_t i = 0; i < vc.n; i++)
        if (vc.p[i].file) vec_prog_free(&vc.p[i]);
    free(vc.p);
    free(vc.tried);
    if (!ok) sw_plan_free(p);
    return ok;
}

void sw_plan_free(sw_plan *p)
{
    for (uint32_t i = 0; i < p->n; i++) {
        sw_point *pt = &p->pts[i];
        free(pt->val);
        free(pt->name);
        free(pt->error);
        if (pt->argv)
            for (char **a = pt->argv; *a; a++) free(*a);
        free(pt->argv);
    }
    free(p->pts);
    free(p->work);
    free(p->cache);
    memset(p, 0, sizeof *p);
}
