/*
** sweep.h -- `tpsim sweep` and `tpsim plot`: studies of many simulations.
** Module prefix sw_.  docs/SWEEPS.md is the user's guide; this header is
** the contract between the files:
**
**   sweep_file.c   the sweep file: text -> sw_file (syntax, names, counts;
**                  every error "file:line:col: message")
**   sweep_plan.c   sw_file -> points (the cross product), each with its
**                  command, its effective configuration and its cache key
**   sweep_run.c    running points: local worker processes with time and
**                  memory limits, the result cache, the progress line
**   sweep_table.c  results -> rows: statistics columns, derived columns, CSV
**   sweep_slurm.c  the Slurm job array (--slurm) and its tasks
**   plot.c         figures from a table through gnuplot (tpsim plot)
**   sweep.c        the command line
**
** A sweep is programs x configurations x axis values.  Point i of the cross
** product runs one program under one configuration with one value of each
** axis; its result (status, statistics) is stored in the cache under a key
** that hashes everything that determines it, so a point computed once is
** never computed again.
*/
#ifndef CLI_SWEEP_H
#define CLI_SWEEP_H

#include "../base/arena.h"
#include "../base/err.h"
#include "../base/json.h"
#include "../base/sha256.h"
#include "../base/sbuf.h"

enum { SW_ERR = 1 };

/* ---- the sweep file (sweep_file.c) ---------------------------------------- */

typedef enum sw_kind {
    SW_CUDA,   /* cuda = PROGRAM ARGS: run through `tpsim run` */
    SW_PTX,    /* ptx = FILES, run = RUNNER ARGS: a driver-API runner, through `tpsim run` */
    SW_VMIPS,  /* vmips = FILE.s [tpsim vec options]: `tpsim vec` */
} sw_kind;

typedef struct sw_words {
    char **w;
    uint32_t n;
} sw_words;

typedef struct sw_kv {
    const char *key, *val;
    tp_loc loc;       /* of the key */
    tp_loc vloc;      /* of the value */
} sw_kv;

typedef struct sw_program {
    const char *name;
    tp_loc loc;
    sw_kind kind;
    sw_words cmd;     /* cuda: program and arguments; ptx: runner and arguments; vmips: FILE.s then options */
    tp_loc cmd_loc;
    sw_words ptx;     /* ptx: the PTX files the runner loads */
    sw_words inputs;  /* other files whose content the results depend on */
    double timeout;   /* seconds (timeout =); < 0: the sweep's */
} sw_program;

typedef struct sw_config {
    const char *name;
    tp_loc loc;
    const char *base;  /* built-in name or file; NULL: the machine's default */
    tp_loc base_loc;
    sw_kv *set;        /* option overrides, in order */
    uint32_t nset;
} sw_config;

typedef struct sw_axis {
    const char *name;
    tp_loc loc;
    uint32_t nvals;
    const char **labels;  /* nvals: the names of the values (labels =, else the first option's values) */
    uint32_t nopts;
    sw_kv *opts;          /* the options the axis sets (key, loc; val unused) */
    const char ***vals;   /* vals[o][v]: option o's value for axis value v */
} sw_axis;

typedef enum sw_agg { SW_SUM, SW_MEAN, SW_MIN, SW_MAX, SW_COUNT, SW_FIRST, SW_LAST } sw_agg;

typedef struct sw_column {
    const char *name;
    tp_loc loc;
    sw_agg agg;
    bool stdout_table;   /* the path starts with "stdout." */
    const char **seg;    /* the path's segments */
    uint32_t nseg;
    const char *path;    /* as written */
} sw_column;

/* Derived-column expressions. */
typedef enum sw_op { SW_E_NUM, SW_E_REF, SW_E_NEG, SW_E_ADD, SW_E_SUB, SW_E_MUL, SW_E_DIV } sw_op;

typedef struct sw_sel {
    const char *dim;   /* "program", "config" or an axis name */
    const char *value; /* a program name, a configuration name or an axis label */
    int dim_idx;       /* -2 program, -1 config, else the axis index (set by the parser) */
    uint32_t val_idx;  /* index of the value in that dimension */
} sw_sel;

typedef struct sw_expr sw_expr;
struct sw_expr {
    sw_op op;
    double num;             /* NUM */
    uint32_t ref;           /* REF: index among columns, then derived columns */
    const sw_sel *sel;      /* REF: the other point's coordinates (nsel of them) */
    uint32_t nsel;
    sw_expr *l, *r;         /* operands */
};

typedef struct sw_derived {
    const char *name;
    tp_loc loc;
    const char *text;
    sw_expr *e;
} sw_derived;

typedef enum sw_figtype { SW_FIG_BAR, SW_FIG_LINE } sw_figtype;

typedef struct sw_figure {
    const char *name;
    tp_loc loc;
    sw_figtype type;
    const char *y;        /* a column or derived column */
    tp_loc y_loc;
    const char *x;        /* "program", "config" or an axis; default "program" */
    tp_loc x_loc;
    sw_sel *where;        /* fixed coordinates */
    uint32_t nwhere;
    const char *title, *xlabel, *ylabel;
    bool logy;
} sw_figure;

typedef struct sw_file {
    tp_arena arena;      /* everything below lives here */
    const char *path;    /* as given */
    const char *name;    /* [sweep] name, default the file's base name without extension */
    bool performance;    /* [sweep] mode (default performance) */
    double timeout;      /* seconds; 0 = none */
    uint64_t memory;     /* bytes; 0 = none */
    const char *dir;     /* the directory paths and commands are relative to (absolute) */
    sw_program *progs;
    uint32_t nprogs;
    sw_config *cfgs;     /* at least one (an implicit "default") */
    uint32_t ncfgs;
    sw_axis *axes;
    uint32_t naxes;
    sw_column *cols;
    uint32_t ncols;
    sw_derived *ders;
    uint32_t nders;
    sw_figure *figs;
    uint32_t nfigs;
} sw_file;

/* Parses sweep-file text.  path names the file in messages and gives the
** directory relative paths start from; build is what ${build} expands to
** (tpsim's build directory).  On failure e holds "path:line:col: message"
** and f holds nothing to free. */
bool sw_parse(sw_file *f, const char *text, size_t len, const char *path, const char *build, tp_err *e);
bool sw_load(sw_file *f, const char *path, const char *build, tp_err *e);
void sw_free(sw_file *f);

/* Splits a command line into words: blanks separate words, '...' and "..."
** quote, backslash escapes the next character (outside '...').  Errors
** carry loc advanced to the offending character. */
bool sw_split(tp_arena *a, const char *s, tp_loc loc, sw_words *out, tp_err *e);

const char *sw_kind_name(sw_kind k);

/* ---- points (sweep_plan.c) -------------------------------------------------- */

typedef struct sw_point {
    uint32_t index;         /* in the cross product */
    uint32_t prog, cfg;     /* indices into the file's lists */
    uint32_t *val;          /* naxes: the value index of each axis */
    char *name;             /* "prog/config/axis=label/..." */
    char **argv;            /* the command (argv[0] is tpsim), NULL-terminated */
    char key[65];           /* cache key; "" when it could not be made */
    char *error;            /* why the point cannot run (a missing file...), or NULL */
} sw_point;

typedef struct sw_plan {
    sw_point *pts;
    uint32_t n;
    const char *tpsim;      /* this tpsim binary */
    char *work;             /* OUT/work */
    char *cache;            /* OUT/cache */
} sw_plan;

/* Builds every point: checks each option against the program's machine
** (errors at the file's line), resolves configurations, hashes inputs.
** out is the output directory (cache, work files).  False only for errors in
** the sweep file; a point that cannot run (missing program) carries its
** error instead. */
bool sw_plan_build(sw_plan *p, const sw_file *f, const char *tpsim, const char *out, tp_err *e);
void sw_plan_free(sw_plan *p);
/* The index of the point whose coordinates are pt's with sel applied, or -1. */
int sw_point_find(const sw_file *f, const sw_plan *p, const sw_point *pt, const sw_sel *sel, uint32_t nsel);

/* ---- results (sweep_run.c) ------------------------------------------------------ */

typedef enum sw_status { SW_OK, SW_FAILED, SW_TIMEOUT, SW_MEMORY, SW_ERROR, SW_MISSING } sw_status;
const char *sw_status_name(sw_status s);

typedef struct sw_result {
    sw_status status;
    char *message;          /* "" for ok */
    double wall;            /* seconds the point ran */
    int exit;               /* exit status (128 + signal), -1 if none */
    bool cached;            /* read from the cache, not run now */
    char *host;
    tp_json_doc doc;        /* the result file: "stats" and "stdout" members */
    bool have_doc;
} sw_result;

typedef struct sw_runopts {
    uint32_t jobs;
    double timeout;         /* seconds, 0 = none */
    uint64_t memory;        /* bytes, 0 = none */
    bool rerun;             /* ignore cached results */
    bool retry_failed;      /* rerun cached results that are not ok */
    bool progress;          /* a live line on stderr */
    bool gather_only;       /* run nothing: missing results are SW_MISSING */
    const bool *fresh;      /* with gather_only: the points this command had run elsewhere (Slurm) */
} sw_runopts;

/* Runs the points of the plan whose indices are listed (all when list is
** NULL), at most o->jobs at a time, storing each result in the cache;
** then reads every point's result into res (n = p->n).  Returns false if
** interrupted (SIGINT/SIGTERM): finished points are kept. */
bool sw_run(const sw_file *f, const sw_plan *p, const uint32_t *list, uint32_t nlist, const sw_runopts *o,
            sw_result *res);
/* Whether point pt has a usable result in the cache (under o's rules). */
bool sw_cached(const sw_file *f, const sw_plan *p, const sw_point *pt, const sw_runopts *o);
/* The wall-time limit of a point: its program's timeout, else o's. */
double sw_timeout(const sw_file *f, const sw_point *pt, const sw_runopts *o);
void sw_results_free(sw_result *res, uint32_t n);

/* ---- the table (sweep_table.c) ----------------------------------------------------- */

typedef struct sw_table {
    uint32_t ncols, nrows;
    char **head;            /* ncols */
    char ***cell;           /* nrows x ncols ("" for none) */
    uint32_t first_value;   /* index of the first statistic column */
} sw_table;

/* point, program, config, axes..., columns..., derived..., status, message */
void sw_table_build(sw_table *t, const sw_file *f, const sw_plan *p, const sw_result *res);
void sw_table_free(sw_table *t);
void sw_table_csv(const sw_table *t, tp_sbuf *out);
/* Reads a CSV written by sw_table_csv (RFC 4180 quoting). */
bool sw_table_read_csv(sw_table *t, const char *text, const char *path, tp_err *e);
int sw_table_col(const sw_table *t, const char *name);
/* The value a column path selects in a result (exposed for tests). */
bool sw_column_value(const sw_column *c, const sw_result *r, tp_sbuf *out);

/* Writes path atomically: a temporary file in the same directory, then rename. */
bool sw_write_atomic(const char *path, const char *data, size_t n, tp_err *e);
/* Makes a directory and its parents. */
bool sw_mkdirs(const char *path);

/* --report (sweep_report.c): tpsim report's page of every point with GPU
** statistics and an index.html, in RESULTS/NAME-report/; 0 or 1. */
int sw_report(const sw_file *f, const sw_plan *p, const sw_result *res, const char *results, bool quiet);
char *sw_read_file(const char *path, size_t *len);

/* ---- figures (plot.c) ------------------------------------------------------------ */

typedef struct sw_plotspec {
    const char *name;      /* the output's base name */
    sw_figtype type;
    const char *y, *x;
    const char **where_dim, **where_val;
    uint32_t nwhere;
    const char *title, *xlabel, *ylabel;
    bool logy;
} sw_plotspec;

typedef enum sw_plotres { SW_PLOT_OK, SW_PLOT_SKIP, SW_PLOT_ERR } sw_plotres;

/* Draws one figure of table t into dir/NAME.png (with dir/NAME.gp and
** dir/NAME.dat, the gnuplot script and its data).  dims are the table's
** coordinate columns (point excluded).  SKIP: gnuplot is not installed
** (why says so). */
sw_plotres sw_plot(const sw_table *t, const char **dims, uint32_t ndims, const sw_plotspec *s, const char *dir,
                   char *why, size_t whyn);

/* ---- Slurm (sweep_slurm.c) ---------------------------------------------------------- */

typedef struct sw_slurmopts {
    const char *partition, *time, *account;
    uint32_t batch;         /* points per array task */
    bool dry_run, no_wait;
} sw_slurmopts;

/* Submits the points not yet cached as a job array and, unless no_wait,
** waits for it; dry_run prints the script instead.  fresh[i] (p->n of
** them) is set for each point submitted. */
int sw_slurm_submit(const sw_file *f, const sw_plan *p, const sw_runopts *o, const sw_slurmopts *so,
                    const char *sweep_path, const char *out, bool *fresh);
/* A task of the array: runs its batch of points (the list file, entry id). */
int sw_slurm_task(const sw_file *f, const sw_plan *p, const sw_runopts *o, const char *out, uint32_t task);

#endif
