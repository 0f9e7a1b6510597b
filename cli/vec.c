/*
** vec.c -- `tpsim vec`: run a VMIPS program on the vector machine.
**
**   tpsim vec [--config NAME|FILE] [-o KEY=VALUE]... [--set NAME=VALUE]...
**             [--print LABEL[:COUNT[:FMT]]]... [--trace] [--svg FILE] PROGRAM.s
**   tpsim vec [--config ...] [-o ...] [--set ...] --sweep NAME=A..B[:STEP]
**             --flops-per-element K [--scalar SCALAR.s] PROGRAM.s
**   tpsim vec --list-options
**
** - --config loads a built-in configuration (vmips, cray1, viram1) or a file
**   of "key = value" lines; -o then overrides single options (in order).
**   Without --config the defaults are VMIPS's (vector/options.def).
** - --set overrides an .equ constant of the program (an error if it has none
**   of that name).
** - Output: with --trace, the lecture's table (vector/trace.c); then the
**   statistics as "key: value" lines (vector/run.c), among them
**   "cycles: N" and the operations per element width; then, for each
**   --print, COUNT values from LABEL (1 by default), one per line, as FMT:
**   f64 (the default: doubles printed with %.17g), i64, u64, x64 ("0x" and
**   16 hex digits), i32, u32, i16, u16, i8, u8 (decimal); consecutive
**   values are the format's size apart.  --svg writes the SVG timeline to
**   FILE.  Both are checked before the run, after assembling: a label the
**   program does not have, an element outside memory or a FILE that cannot
**   be written is one line on stderr and exit status 2, with no results.
** - --sweep runs the program for each NAME = A, A+STEP, ..., B and prints a
**   header line, then "n Tn MFLOPS" rows (a fourth column Tscalar with
**   --scalar), then "R_inf: X MFLOPS (...)", "N_half: N" and, with --scalar,
**   "N_v: N"; then, for each element width W at which the program did
**   operations, "R_inf.W: X MOPS (from n = A and B)" and "N_half.W: N"
**   (vector/sweep.c defines them).
** - Exit status: 0 on success, 1 on an error in a configuration, option,
**   program or run ("file:line:col: message" on stderr), 2 on a bad command
**   line.
*/
#include "cli.h"
#include "args.h"
#include "../base/file.h"
#include "../vector/vec.h"
#include "../base/builtin.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#define TRACE_ROWS 200000

/* --print formats: name, bytes, and how the bits are written */
typedef enum { PF_F64, PF_I64, PF_U64, PF_X64, PF_I32, PF_U32, PF_I16, PF_U16, PF_I8, PF_U8 } pfmt;
static const struct {
    const char *name;
    unsigned bytes;
    bool is_signed;
} pformats[] = {{"f64", 8, false}, {"i64", 8, true}, {"u64", 8, false}, {"x64", 8, false}, {"i32", 4, true},
                {"u32", 4, false}, {"i16", 2, true}, {"u16", 2, false}, {"i8", 1, true}, {"u8", 1, false}};

typedef struct vprint {
    const char *label;
    int64_t count;
    int fmt; /* pfmt */
} vprint;

enum {
    VEC_CONFIG = CLI_HELP + 1, VEC_SET_OPT, VEC_SET_EQU, VEC_PRINT, VEC_TRACE, VEC_SVG, VEC_SWEEP, VEC_FPE, VEC_SCALAR,
    VEC_LIST_OPTIONS
};

static const cli_opt vec_opts[] = {
    {VEC_CONFIG, "--config", NULL, "NAME|FILE", "a built-in configuration (vmips, cray1, viram1) or a file"},
    {VEC_SET_OPT, "-o", NULL, "KEY=VALUE", "set an option (repeatable; also -oKEY=VALUE)", CLI_JOINED},
    {VEC_SET_EQU, "--set", NULL, "NAME=VALUE", "override an .equ constant of the program (repeatable)"},
    {VEC_PRINT, "--print", NULL, "LABEL[:COUNT[:FMT]]", "print COUNT values from LABEL after the run (repeatable)"},
    {VEC_TRACE, "--trace", NULL, NULL, "the lecture's table of the run"},
    {VEC_SVG, "--svg", NULL, "FILE", "write the SVG timeline to FILE"},
    {VEC_SWEEP, "--sweep", NULL, "NAME=A..B[:STEP]", "run the program for each value of NAME: Tn, R_inf, N_half"},
    {VEC_FPE, "--flops-per-element", NULL, "K", "with --sweep: the FLOPs each element costs"},
    {VEC_SCALAR, "--scalar", NULL, "SCALAR.s", "with --sweep: the scalar program, for N_v"},
    {VEC_LIST_OPTIONS, "--list-options", NULL, NULL, "every option of the vector machine and the built-in configurations"},
};

static const cli_cmd vec_cmd = {
    "tpsim vec",
    "usage: tpsim vec [--config NAME|FILE] [-o KEY=VALUE]... [--set NAME=VALUE]...\n"
    "                 [--print LABEL[:COUNT[:FMT]]]... [--trace] [--svg FILE] PROGRAM.s\n"
    "                 (FMT: f64 i64 u64 x64 i32 u32 i16 u16 i8 u8)\n"
    "       tpsim vec [...] --sweep NAME=A..B[:STEP] --flops-per-element K [--scalar SCALAR.s] PROGRAM.s\n"
    "       tpsim vec --list-options\n",
    NULL,
    CLI_OPTS(vec_opts),
    CLI_DASH_ARG | CLI_SAY_FLAG,
};

static bool parse_i64(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 0);
    if (errno || end == s || *end) return false;
    *v = x;
    return true;
}

static int list_options(void)
{
    tp_opts o;
    tp_sbuf b;
    tp_sbuf_init(&b);
    vec_opts_init(&o);
    tp_opts_describe(&o, &b);
    fputs(tp_sbuf_str(&b), stdout);
    printf("\nbuilt-in configurations:");
    for (int i = 0; tp_builtin_config_name(i); i++) {
        tp_opts t;
        tp_err e;
        tp_err_clear(&e);
        vec_opts_init(&t);
        if (tp_opts_load_config(&t, tp_builtin_config_name(i), &e)) printf(" %s", tp_builtin_config_name(i));
        tp_opts_free(&t);
    }
    printf("\n");
    tp_opts_free(&o);
    tp_sbuf_free(&b);
    return 0;
}

static char *read_program(const char *path, size_t *len)
{
    tp_err e;
    tp_err_clear(&e);
    char *text = tp_file_read_text(path, NULL, len, &e);
    if (!text) fprintf(stderr, "tpsim vec: %s\n", e.msg);
    return text;
}

static int do_sweep(const char *spec, const char *fpe, const char *scalar, const char *path, const tp_opts *o,
                    const vec_equ_set *set, uint32_t nset)
{
    char *name = tp_strdup(spec), *eq = strchr(name, '=');
    int64_t from, to, step = 1;
    double k = 0;
    char *end = NULL;
    bool good = eq && eq > name;
    if (good) {
        *eq = 0;
        char *dots = strstr(eq + 1, ".."), *colon;
        good = dots != NULL;
        if (good) {
            *dots = 0;
            colon = strchr(dots + 2, ':');
            if (colon) *colon = 0;
            good = parse_i64(eq + 1, &from) && parse_i64(dots + 2, &to) && (!colon || parse_i64(colon + 1, &step));
        }
    }
    if (!good) {
        fprintf(stderr, "tpsim vec: --sweep takes NAME=A..B[:STEP], got '%s'\n", spec);
        free(name);
        return 2;
    }
    if (!fpe || (k = strtod(fpe, &end), end == fpe || *end || !(k > 0))) {
        fprintf(stderr, "tpsim vec: --sweep needs --flops-per-element K (K > 0)\n");
        free(name);
        return 2;
    }
    size_t len = 0, slen = 0;
    char *text = read_program(path, &len), *stext = NULL;
    if (!text || (scalar && !(stext = read_program(scalar, &slen)))) {
        free(text);
        free(name);
        return 1;
    }
    vec_sweep_cfg c = {text, path, len, stext, scalar, slen, o, set, nset, name, from, to, step, k};
    vec_sweep_res r;
    tp_err e;
    tp_err_clear(&e);
    int rc = 0;
    if (!vec_sweep(&c, &r, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        rc = 1;
    } else {
        printf("# sweep %s=%lld..%lld:%lld, timing %s, %g MHz, %g FLOPs per element\n", name, (long long)from,
               (long long)to, (long long)step, tp_opt_i(o, VEC_OPT_TIMING) == VEC_TIMING_TEXTBOOK ? "textbook" : "pipelined",
               tp_opt_f(o, VEC_OPT_CLOCK_MHZ), k);
        printf(scalar ? "n Tn MFLOPS Tscalar\n" : "n Tn MFLOPS\n");
        for (uint32_t i = 0; i < r.pts.n; i++) {
            const vec_sweep_pt *p = &r.pts.a[i];
            printf("%lld %llu %.6g", (long long)p->n, (unsigned long long)p->t, p->mflops);
            if (scalar) printf(" %llu", (unsigned long long)p->ts);
            printf("\n");
        }
        if (r.rinf > 0)
            printf("R_inf: %.6g MFLOPS (from n = %lld and %lld)\n", r.rinf, (long long)r.rinf_n1, (long long)r.rinf_n2);
        else
            printf("R_inf: unknown (needs two points with growing Tn)\n");
        if (r.nhalf >= 0) printf("N_half: %lld\n", (long long)r.nhalf);
        else printf("N_half: none in %lld..%lld\n", (long long)from, (long long)to);
        if (scalar) {
            if (r.nv >= 0) printf("N_v: %lld\n", (long long)r.nv);
            else printf("N_v: none in %lld..%lld\n", (long long)from, (long long)to);
        }
        for (unsigned k = 0; k < 4; k++) {
            if (!r.pts.n || !r.pts.a[r.pts.n - 1].ops[k]) continue;
            unsigned w = 8u << k;
            if (r.rinf_w[k] > 0)
                printf("R_inf.%u: %.6g MOPS (from n = %lld and %lld)\n", w, r.rinf_w[k], (long long)r.rinf_w_n1[k],
                       (long long)r.rinf_w_n2[k]);
            else
                printf("R_inf.%u: unknown (needs two points with growing Tn and operations)\n", w);
            if (r.nhalf_w[k] >= 0) printf("N_half.%u: %lld\n", w, (long long)r.nhalf_w[k]);
            else printf("N_half.%u: none in %lld..%lld\n", w, (long long)from, (long long)to);
        }
    }
    vec_sweep_free(&r);
    free(text);
    free(stext);
    free(name);
    return rc;
}

/* Before the run: every --print names a data label of the program and
** stays inside the memory the machine will have (what vec_mach_init
** allocates: mem_size, at least the .data section).  Returns 0, or 2 after
** one line on stderr. */
static int check_prints(const vec_prog *p, const tp_opts *o, const vprint *pr, uint32_t npr)
{
    uint64_t size = (uint64_t)tp_opt_i(o, VEC_OPT_MEM_SIZE);
    if (p->data_size > size) size = p->data_size;
    size = (size + 7) & ~(uint64_t)7;
    for (uint32_t i = 0; i < npr; i++) {
        const vec_sym *s = vec_prog_sym(p, pr[i].label);
        if (!s || s->kind != VEC_SYM_DATA) {
            fprintf(stderr, "tpsim vec: --print %s: the program has no data label '%s'\n", pr[i].label, pr[i].label);
            return 2;
        }
        uint64_t n = pformats[pr[i].fmt].bytes, at = (uint64_t)s->value;
        if (at > size || (uint64_t)pr[i].count > (size - at) / n) {
            uint64_t k = at > size ? 0 : (size - at) / n;
            fprintf(stderr, "tpsim vec: --print %s:%lld: element %llu is outside memory (%llu bytes)\n", pr[i].label,
                    (long long)pr[i].count, (unsigned long long)k, (unsigned long long)size);
            return 2;
        }
    }
    return 0;
}

static int print_values(const vec_prog *p, const vec_mach *m, const vprint *pr, uint32_t npr)
{
    for (uint32_t i = 0; i < npr; i++) {
        const vec_sym *s = vec_prog_sym(p, pr[i].label);
        if (!s || s->kind != VEC_SYM_DATA) return 1;   /* check_prints said so */
        unsigned n = pformats[pr[i].fmt].bytes;
        for (int64_t k = 0; k < pr[i].count; k++) {
            uint64_t bits;
            if (!vec_mach_read_n(m, (uint64_t)s->value + n * (uint64_t)k, n, &bits)) {
                fprintf(stderr, "tpsim vec: --print %s:%lld: element %lld is outside memory\n", pr[i].label,
                        (long long)pr[i].count, (long long)k);
                return 1;
            }
            if (pr[i].fmt == PF_F64) {
                double d;
                memcpy(&d, &bits, 8);
                printf("%.17g\n", d);
            } else if (pr[i].fmt == PF_X64) {
                printf("0x%016llx\n", (unsigned long long)bits);
            } else if (pformats[pr[i].fmt].is_signed) {
                int64_t v = n == 8 ? (int64_t)bits : (int64_t)(bits ^ ((uint64_t)1 << (8 * n - 1))) - ((int64_t)1 << (8 * n - 1));
                printf("%lld\n", (long long)v);
            } else {
                printf("%llu\n", (unsigned long long)bits);
            }
        }
    }
    return 0;
}

/* LABEL[:COUNT[:FMT]] */
static bool parse_print(const char *val, vprint *p)
{
    p->count = 1;
    p->fmt = PF_F64;
    const char *colon = strchr(val, ':');
    if (!colon) {
        p->label = tp_strdup(val);
        return true;
    }
    const char *colon2 = strchr(colon + 1, ':');
    char *count = colon2 ? tp_strndup(colon + 1, (size_t)(colon2 - colon - 1)) : tp_strdup(colon + 1);
    bool ok = colon > val && parse_i64(count, &p->count) && p->count >= 1;
    free(count);
    if (ok && colon2) {
        ok = false;
        for (size_t k = 0; k < TP_ARRAY_LEN(pformats); k++)
            if (!strcmp(colon2 + 1, pformats[k].name)) p->fmt = (int)k, ok = true;
    }
    if (ok) p->label = tp_strndup(val, (size_t)(colon - val));
    return ok;
}

/* What the command line asked for. */
typedef struct vec_args {
    const char *config, *path, *svg, *sweep, *fpe, *scalar;
    bool trace;
    TP_VEC(const char *) kvs;
    TP_VEC(vec_equ_set) sets;
    TP_VEC(vprint) prints;
} vec_args;

static void vec_args_free(vec_args *a)
{
    for (uint32_t i = 0; i < a->sets.n; i++) free((char *)a->sets.a[i].name);
    for (uint32_t i = 0; i < a->prints.n; i++) free((char *)a->prints.a[i].label);
    tp_vec_free(&a->kvs);
    tp_vec_free(&a->sets);
    tp_vec_free(&a->prints);
}

/* --set NAME=VALUE: a later one of the same name wins, as a later -o does. */
static int add_set(vec_args *a, const char *val)
{
    const char *eq = strchr(val, '=');
    vec_equ_set s;
    if (!eq || eq == val || !parse_i64(eq + 1, &s.value))
        return cli_error(&vec_cmd, "--set takes NAME=INTEGER, got '%s'", val);
    s.name = tp_strndup(val, (size_t)(eq - val));
    uint32_t k = 0;
    while (k < a->sets.n && strcmp(a->sets.a[k].name, s.name) != 0) k++;
    if (k < a->sets.n) {
        free((char *)a->sets.a[k].name);
        a->sets.a[k] = s;
    } else {
        tp_vec_push(&a->sets, s);
    }
    return 0;
}

/* One option or argument into a; 0, else the exit status. */
static int vec_arg(vec_args *a, int id, const char *v)
{
    vprint p;
    switch (id) {
    case VEC_CONFIG: a->config = v; break;
    case VEC_SET_OPT: tp_vec_push(&a->kvs, v); break;
    case VEC_SET_EQU: return add_set(a, v);
    case VEC_PRINT:
        if (!parse_print(v, &p))
            return cli_error(&vec_cmd,
                             "--print takes LABEL[:COUNT[:FMT]] with COUNT >= 1 and FMT one of f64 i64 u64 x64 "
                             "i32 u32 i16 u16 i8 u8, got '%s'",
                             v);
        tp_vec_push(&a->prints, p);
        break;
    case VEC_TRACE: a->trace = true; break;
    case VEC_SVG: a->svg = v; break;
    case VEC_SWEEP: a->sweep = v; break;
    case VEC_FPE: a->fpe = v; break;
    case VEC_SCALAR: a->scalar = v; break;
    case CLI_ARG:
        if (a->path) return cli_error(&vec_cmd, "one program only ('%s' and '%s')", a->path, v);
        a->path = v;
        break;
    }
    return 0;
}

/* Reads the command line into a; 0 to go on, else the exit status (-1: done,
** exit 0). */
static int vec_args_parse(int argc, char **argv, vec_args *a)
{
    cli_args it;
    cli_args_init(&it, &vec_cmd, argc, argv);
    for (int id, rc; (id = cli_next(&it)) != CLI_END;) {
        if (id == CLI_EXIT) return it.status ? it.status : -1;
        if (id == VEC_LIST_OPTIONS) return list_options() ? 1 : -1;
        if ((rc = vec_arg(a, id, it.val)) != 0) return rc;
    }
    if (!a->path) return cli_usage_error(&vec_cmd);
    if (a->sweep && (a->trace || a->svg || a->prints.n))
        return cli_error(&vec_cmd, "--sweep cannot be combined with --trace, --svg or --print");
    if (!a->sweep && (a->fpe || a->scalar))
        return cli_error(&vec_cmd, "--flops-per-element and --scalar go with --sweep");
    return 0;
}

/* The timeline's file, opened before the run: a path that cannot be written
** is an error before anything is printed (and a file this run made is
** removed if the run fails). */
typedef struct svg_out {
    const char *path;
    FILE *f;
    bool existed;
} svg_out;

static void svg_drop(svg_out *s)
{
    if (!s->f) return;
    fclose(s->f);
    s->f = NULL;
    if (!s->existed) remove(s->path);
}

/* Writes the timeline of r; 0 or 1. */
static int svg_write(svg_out *s, const vec_run *r)
{
    tp_sbuf b;
    tp_sbuf_init(&b);
    vec_trace_svg(r, &b);
    bool bad = fwrite(b.s, 1, b.len, s->f) != b.len;
    if (fclose(s->f) != 0) bad = true;
    s->f = NULL;
    tp_sbuf_free(&b);
    if (!bad) return 0;
    fprintf(stderr, "tpsim vec: cannot write '%s': %s\n", s->path, strerror(errno));
    return 1;
}

/* Assembles and runs the program once: the statistics, the --print values,
** the trace and the timeline. */
static int run_once(const vec_args *a, const tp_opts *o)
{
    size_t len;
    char *text = read_program(a->path, &len);
    if (!text) return 1;
    tp_err e;
    tp_err_clear(&e);
    vec_prog p;
    vec_asm_cfg cfg = {(uint32_t)tp_opt_i(o, VEC_OPT_VREGS), a->sets.a, a->sets.n, 0, false};
    if (!vec_asm(&p, text, len, a->path, &cfg, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        free(text);
        return 1;
    }
    free(text);
    int rc = check_prints(&p, o, a->prints.a, a->prints.n);
    svg_out svg = {a->svg, NULL, false};
    struct stat st;
    if (!rc && svg.path && (svg.existed = stat(svg.path, &st) == 0, !(svg.f = fopen(svg.path, "wb")))) {
        fprintf(stderr, "tpsim vec: cannot write '%s': %s\n", svg.path, strerror(errno));
        rc = 2;
    }
    if (rc) {
        vec_prog_free(&p);
        return rc;
    }
    vec_run r;
    if (!vec_run_program(&r, &p, o, -1, a->trace || svg.f ? TRACE_ROWS : 0, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        svg_drop(&svg);
        rc = 1;
    } else {
        tp_sbuf b;
        tp_sbuf_init(&b);
        if (a->trace) vec_trace_table(&r, &b);
        tp_stats_text(&r.stats, &b);
        fputs(tp_sbuf_str(&b), stdout);
        tp_sbuf_free(&b);
        rc = print_values(&p, &r.m, a->prints.a, a->prints.n);
        if (svg.f && svg_write(&svg, &r)) rc = 1;
    }
    vec_run_free(&r);
    vec_prog_free(&p);
    return rc;
}

int cli_vec(int argc, char **argv)
{
    vec_args a;
    memset(&a, 0, sizeof a);
    int rc = vec_args_parse(argc, argv, &a);
    if (rc) {
        vec_args_free(&a);
        return rc < 0 ? 0 : rc;
    }
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    vec_opts_init(&o);
    bool ok = !a.config || tp_opts_load_config(&o, a.config, &e);
    for (uint32_t i = 0; ok && i < a.kvs.n; i++) ok = tp_opts_set_kv(&o, a.kvs.a[i], TP_SRC_OVERRIDE, &e);
    if (!ok) {
        /* the option table's hint names the GPU's listing: point at ours */
        char *hint = strstr(e.msg, "'tpsim config --list' shows them all");
        if (hint) snprintf(hint, sizeof e.msg - (size_t)(hint - e.msg), "'tpsim vec --list-options' shows them all)");
        fprintf(stderr, "tpsim vec: %s\n", e.msg);
        rc = 1;
    } else if (a.sweep) {
        rc = do_sweep(a.sweep, a.fpe, a.scalar, a.path, &o, a.sets.a, a.sets.n);
    } else {
        rc = run_once(&a, &o);
    }
    tp_opts_free(&o);
    vec_args_free(&a);
    return rc;
}
