/*
** plot.c -- figures from a sweep's table, drawn by gnuplot, and the
** `tpsim plot` command.
**
**   tpsim plot CSV --y COLUMN [--x DIM] [--where DIM=VALUE]... [--type bar|line]
**              [--title T] [--xlabel T] [--ylabel T] [--logy] [-o FILE.png]
**
** A figure puts one dimension (program, config or an axis; default program)
** on the x axis and draws the column y: a cluster of bars per x value
** (bar), or a line over the x values (line).  Rows are first filtered by
** --where; every other dimension that still takes several values makes the
** series: one bar of each cluster, or one line, per combination of their
** values, named "dim=value ...".  Rows without a value for y (a failed
** point) leave a gap.  tpsim writes NAME.dat (the data, tab-separated) and
** NAME.gp (the gnuplot script) next to NAME.png and runs gnuplot on them, so
** a figure can be restyled by editing NAME.gp and running gnuplot again.
** Without gnuplot on PATH the figure is skipped with a message (exit
** status 0 for tpsim sweep, 3 for tpsim plot).
**
** Why gnuplot: it is one Debian package (gnuplot-nox, no X11) with a stable
** script language, so tpsim (C) writes a script and runs it; matplotlib
** would add Python and its modules to a C project's dependencies.
*/
#include "cli.h"
#include "sweep.h"
#include "args.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static bool have_gnuplot(char *path, size_t n)
{
    const char *env = getenv("PATH");
    if (!env || !*env) env = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = env; *p;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        snprintf(path, n, "%.*s/gnuplot", (int)len, p);
        if (len && access(path, X_OK) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

/* gnuplot strings in double quotes: escape \ and " */
static void gp_str(tp_sbuf *b, const char *s)
{
    tp_sbuf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') tp_sbuf_putc(b, '\\');
        if (*s == '\n' || *s == '\t') tp_sbuf_putc(b, ' ');
        else tp_sbuf_putc(b, *s);
    }
    tp_sbuf_putc(b, '"');
}

/* data-file fields: tabs and line breaks would break the layout */
static void dat_field(tp_sbuf *b, const char *s)
{
    if (!*s) {
        tp_sbuf_putc(b, '?');
        return;
    }
    for (; *s; s++) tp_sbuf_putc(b, *s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

static int find_str(char **list, uint32_t n, const char *s)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(list[i], s)) return (int)i;
    return -1;
}

static bool is_number(const char *s)
{
    char *end;
    if (!*s) return false;
    strtod(s, &end);
    return !*end;
}

/* A figure's data: the x values, the series, the value of each (x, series)
** and the rows that passed the filter. */
typedef struct plot_grid {
    int ycol, xcol;
    int *dcol;             /* the dimensions' columns */
    uint32_t nr;           /* rows that pass the filter */
    char **xs, **ss;       /* x values, series labels */
    uint32_t nx, ns;
    const char **val;      /* nx x ns: the y cell, or NULL */
    int only;              /* the one dimension that varies (its values are the series), or < 0 */
} plot_grid;

static void grid_free(plot_grid *g)
{
    for (uint32_t i = 0; i < g->nx; i++) free(g->xs[i]);
    for (uint32_t j = 0; j < g->ns; j++) free(g->ss[j]);
    free(g->xs);
    free(g->ss);
    free(g->val);
    free(g->dcol);
}

/* The columns the figure names; false (why says which is missing) if any is not in the table. */
static bool grid_cols(plot_grid *g, const sw_table *t, const char **dims, uint32_t ndims, const sw_plotspec *s,
                      int *wcol, char *why, size_t whyn)
{
    g->ycol = sw_table_col(t, s->y);
    g->xcol = sw_table_col(t, s->x);
    const char *missing = g->ycol < 0 ? s->y : g->xcol < 0 ? s->x : NULL;
    g->dcol = tp_calloc(ndims ? ndims : 1, sizeof *g->dcol);
    for (uint32_t d = 0; d < ndims && !missing; d++)
        if ((g->dcol[d] = sw_table_col(t, dims[d])) < 0) missing = dims[d];
    for (uint32_t w = 0; w < s->nwhere && !missing; w++)
        if ((wcol[w] = sw_table_col(t, s->where_dim[w])) < 0) missing = s->where_dim[w];
    if (missing) snprintf(why, whyn, "figure %s: the table has no column '%s'", s->name, missing);
    return !missing;
}

/* Index of s in the growing list *list of *n strings, added if new. */
static int intern(char ***list, uint32_t *n, const char *s)
{
    int i = find_str(*list, *n, s);
    if (i >= 0) return i;
    *list = tp_realloc(*list, (*n + 1) * sizeof **list);
    (*list)[*n] = tp_strdup(s);
    return (int)(*n)++;
}

/* The rows that pass the filter, laid out as x values by series: the
** dimensions that vary (other than x) make the series. */
static void grid_fill(plot_grid *g, const sw_table *t, const char **dims, uint32_t ndims, const sw_plotspec *s,
                      const int *wcol)
{
    uint32_t *rows = tp_calloc(t->nrows ? t->nrows : 1, sizeof *rows), nr = 0;
    for (uint32_t i = 0; i < t->nrows; i++) {
        bool keep = true;
        for (uint32_t w = 0; w < s->nwhere && keep; w++) keep = !strcmp(t->cell[i][wcol[w]], s->where_val[w]);
        if (keep) rows[nr++] = i;
    }
    bool *vary = tp_calloc(ndims ? ndims : 1, sizeof *vary);
    g->only = -1;
    for (uint32_t d = 0; d < ndims; d++) {
        if (g->dcol[d] == g->xcol) continue;
        for (uint32_t k = 1; k < nr && !vary[d]; k++)
            vary[d] = strcmp(t->cell[rows[k]][g->dcol[d]], t->cell[rows[0]][g->dcol[d]]) != 0;
        /* one varying dimension: the series are its values, the key's title its name */
        if (vary[d]) g->only = g->only == -1 ? (int)d : -2;
    }
    int *rx = tp_calloc(nr ? nr : 1, sizeof *rx), *rs = tp_calloc(nr ? nr : 1, sizeof *rs);
    tp_sbuf lab;
    tp_sbuf_init(&lab);
    for (uint32_t k = 0; k < nr; k++) {
        char **row = t->cell[rows[k]];
        tp_sbuf_reset(&lab);
        for (uint32_t d = 0; d < ndims; d++)
            if (vary[d] && g->only >= 0) tp_sbuf_puts(&lab, row[g->dcol[d]]);
            else if (vary[d]) tp_sbuf_printf(&lab, "%s%s=%s", lab.len ? " " : "", dims[d], row[g->dcol[d]]);
        if (!lab.len) tp_sbuf_puts(&lab, s->y);
        rx[k] = intern(&g->xs, &g->nx, row[g->xcol]);
        rs[k] = intern(&g->ss, &g->ns, tp_sbuf_str(&lab));
    }
    g->val = tp_calloc((size_t)(g->nx ? g->nx : 1) * (g->ns ? g->ns : 1), sizeof *g->val);
    for (uint32_t k = 0; k < nr; k++) g->val[(size_t)rx[k] * g->ns + (uint32_t)rs[k]] = t->cell[rows[k]][g->ycol];
    g->nr = nr;
    tp_sbuf_free(&lab);
    free(rx);
    free(rs);
    free(vary);
    free(rows);
}

/* The data file: x, then one column per series.  *numeric_x: every x is a
** number (a line figure then spaces them by value); returns the points
** with a value to draw. */
static uint32_t grid_dat(const plot_grid *g, const sw_plotspec *s, tp_sbuf *dat, bool *numeric_x)
{
    dat_field(dat, s->x);
    for (uint32_t j = 0; j < g->ns; j++) {
        tp_sbuf_putc(dat, '\t');
        dat_field(dat, g->ss[j]);
    }
    tp_sbuf_putc(dat, '\n');
    *numeric_x = s->type == SW_FIG_LINE && g->nx > 0;
    uint32_t npts = 0;
    for (uint32_t i = 0; i < g->nx; i++) {
        *numeric_x &= is_number(g->xs[i]);
        dat_field(dat, g->xs[i]);
        for (uint32_t j = 0; j < g->ns; j++) {
            tp_sbuf_putc(dat, '\t');
            const char *v = g->val[(size_t)i * g->ns + j];
            dat_field(dat, v && is_number(v) ? v : "");
            npts += v && is_number(v);
        }
        tp_sbuf_putc(dat, '\n');
    }
    return npts;
}

/* The gnuplot script that draws NAME.dat into NAME.png. */
static void grid_script(const plot_grid *g, const sw_plotspec *s, const char **dims, bool numeric_x, tp_sbuf *gp)
{
    size_t longest = 0;
    for (uint32_t i = 0; i < g->nx; i++) longest = TP_MAX(longest, strlen(g->xs[i]));
    tp_sbuf_printf(gp, "# %s.gp -- written by tpsim; run `gnuplot %s.gp` here to redraw %s.png\n", s->name, s->name,
                   s->name);
    tp_sbuf_printf(gp, "set terminal pngcairo size 1000,600 noenhanced font \"sans,11\"\n");
    tp_sbuf_printf(gp, "set output \"%s.png\"\n", s->name);
    tp_sbuf_puts(gp, "set datafile separator \"\\t\"\nset datafile missing \"?\"\n");
    tp_sbuf_puts(gp, "set title ");
    gp_str(gp, s->title ? s->title : s->y);
    tp_sbuf_puts(gp, "\nset xlabel ");
    gp_str(gp, s->xlabel ? s->xlabel : s->x);
    tp_sbuf_puts(gp, "\nset ylabel ");
    gp_str(gp, s->ylabel ? s->ylabel : s->y);
    tp_sbuf_puts(gp, "\nset grid ytics\nset key outside right top\nset border 3\nset tics nomirror\n");
    if (g->only >= 0) {
        tp_sbuf_puts(gp, "set key title ");
        gp_str(gp, dims[g->only]);
        tp_sbuf_putc(gp, '\n');
    }
    if (s->logy) tp_sbuf_puts(gp, "set logscale y\n");
    else tp_sbuf_puts(gp, "set yrange [0:*]\n");
    if (!numeric_x && (g->nx > 8 || longest > 8)) tp_sbuf_puts(gp, "set xtics rotate by -30 left\n");
    if (s->type == SW_FIG_BAR) {
        tp_sbuf_puts(gp, "set style data histogram\nset style histogram cluster gap 1\n"
                         "set style fill solid 0.85 border -1\nset boxwidth 0.9\n");
    }
    /* point types that stay apart where lines overlap: circle, square, triangles, diamond, pentagon */
    static const unsigned points[6] = {7, 5, 9, 11, 13, 15};
    tp_sbuf_printf(gp, "plot ");
    for (uint32_t j = 0; j < g->ns; j++) {
        if (j) tp_sbuf_puts(gp, ", \\\n     ");
        tp_sbuf_printf(gp, "\"%s.dat\"", s->name);
        if (s->type == SW_FIG_BAR)
            tp_sbuf_printf(gp, " using %u%s title columnheader(%u)", j + 2, j == 0 ? ":xtic(1)" : "", j + 2);
        else if (numeric_x)
            tp_sbuf_printf(gp, " using 1:%u with linespoints lw 2 pt %u ps 1.5 title columnheader(%u)", j + 2,
                           points[j % 6], j + 2);
        else
            tp_sbuf_printf(gp, " using 0:%u:xtic(1) with linespoints lw 2 pt %u ps 1.5 title columnheader(%u)", j + 2,
                           points[j % 6], j + 2);
    }
    if (!g->ns) tp_sbuf_puts(gp, "NaN notitle");
    tp_sbuf_putc(gp, '\n');
}

/* Runs gnuplot on NAME.gp in dir. */
static sw_plotres run_gnuplot(const char *gnuplot, const char *dir, const char *name, char *why, size_t whyn)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0) _exit(126);
        char script[PATH_MAX + 8];
        snprintf(script, sizeof script, "%s.gp", name);
        execl(gnuplot, "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(why, whyn, "figure %s: gnuplot failed on %s/%s.gp", name, dir, name);
        return SW_PLOT_ERR;
    }
    return SW_PLOT_OK;
}

/* Writes NAME.dat and NAME.gp into dir and draws NAME.png. */
static sw_plotres draw(const plot_grid *g, const sw_plotspec *s, const char **dims, const char *dir, char *why,
                       size_t whyn)
{
    tp_sbuf dat, gp;
    tp_sbuf_init(&dat);
    tp_sbuf_init(&gp);
    bool numeric_x;
    uint32_t npts = grid_dat(g, s, &dat, &numeric_x);
    grid_script(g, s, dims, numeric_x, &gp);
    sw_plotres res = SW_PLOT_OK;
    char path[PATH_MAX + 64], gnuplot[PATH_MAX];
    tp_err e;
    tp_err_clear(&e);
    snprintf(path, sizeof path, "%s/%s.dat", dir, s->name);
    bool ok = sw_write_atomic(path, dat.s ? dat.s : "", dat.len, &e);
    snprintf(path, sizeof path, "%s/%s.gp", dir, s->name);
    ok = ok && sw_write_atomic(path, gp.s ? gp.s : "", gp.len, &e);
    if (!ok) {
        snprintf(why, whyn, "%s", e.msg);
        res = SW_PLOT_ERR;
    } else if (!g->nr) {
        snprintf(why, whyn, "figure %s: no rows pass its filter", s->name);
        res = SW_PLOT_ERR;
    } else if (!npts) {
        /* nothing to draw: no empty figure, and none left from an earlier run */
        snprintf(path, sizeof path, "%s/%s.png", dir, s->name);
        unlink(path);
        snprintf(why, whyn, "SKIP figure %s: none of its %u row%s has a number in column '%s' (failed or empty "
                 "points: the CSV's status and message columns say why)", s->name, g->nr, g->nr == 1 ? "" : "s", s->y);
        res = SW_PLOT_SKIP;
    } else if (!have_gnuplot(gnuplot, sizeof gnuplot)) {
        snprintf(why, whyn, "SKIP figure %s: gnuplot is not installed (Debian: apt-get install gnuplot-nox); "
                 "its script and data are in %s/%s.gp and .dat", s->name, dir, s->name);
        res = SW_PLOT_SKIP;
    } else {
        res = run_gnuplot(gnuplot, dir, s->name, why, whyn);
    }
    tp_sbuf_free(&dat);
    tp_sbuf_free(&gp);
    return res;
}

sw_plotres sw_plot(const sw_table *t, const char **dims, uint32_t ndims, const sw_plotspec *s, const char *dir,
                   char *why, size_t whyn)
{
    plot_grid g;
    memset(&g, 0, sizeof g);
    int *wcol = tp_calloc(s->nwhere ? s->nwhere : 1, sizeof *wcol);
    sw_plotres res = SW_PLOT_ERR;
    if (grid_cols(&g, t, dims, ndims, s, wcol, why, whyn)) {
        grid_fill(&g, t, dims, ndims, s, wcol);
        res = draw(&g, s, dims, dir, why, whyn);
    }
    grid_free(&g);
    free(wcol);
    return res;
}

/* ---- tpsim plot -------------------------------------------------------------------------- */

enum { PLOT_Y = CLI_HELP + 1, PLOT_X, PLOT_WHERE, PLOT_TYPE, PLOT_TITLE, PLOT_XLABEL, PLOT_YLABEL, PLOT_LOGY, PLOT_OUT };

static const cli_opt plot_opts[] = {
    {PLOT_Y, "--y", NULL, "COLUMN", "the column drawn"},
    {PLOT_X, "--x", NULL, "DIM", "the dimension along x: program (default), config or an axis"},
    {PLOT_WHERE, "--where", NULL, "DIM=VALUE", "only the rows with that value (repeatable)"},
    {PLOT_TYPE, "--type", NULL, "bar|line", "bars or lines"},
    {PLOT_TITLE, "--title", NULL, "T", "the title"},
    {PLOT_XLABEL, "--xlabel", NULL, "T", "the label of x"},
    {PLOT_YLABEL, "--ylabel", NULL, "T", "the label of y"},
    {PLOT_LOGY, "--logy", NULL, NULL, "a logarithmic y axis"},
    {PLOT_OUT, "-o", NULL, "FILE.png", "the figure (default: the CSV's name with -COLUMN.png)"},
};

static const cli_cmd plot_cmd = {
    "tpsim plot",
    "usage: tpsim plot CSV --y COLUMN [--x DIM] [--where DIM=VALUE]... [--type bar|line]\n"
    "                  [--title T] [--xlabel T] [--ylabel T] [--logy] [-o FILE.png]\n",
    "draws a column of a sweep's CSV (tpsim sweep) with gnuplot; DIM is program, config or an axis\n"
    "(default program); the other dimensions that vary make the series\n",
    CLI_OPTS(plot_opts),
    CLI_DASH_ARG,
};

/* One option of the command line into s (and *out); 0, or the exit status. */
static int plot_opt(int id, const char *v, sw_plotspec *s, const char **out, const char **wd, const char **wv)
{
    switch (id) {
    case PLOT_Y: s->y = v; break;
    case PLOT_X: s->x = v; break;
    case PLOT_TITLE: s->title = v; break;
    case PLOT_XLABEL: s->xlabel = v; break;
    case PLOT_YLABEL: s->ylabel = v; break;
    case PLOT_OUT: *out = v; break;
    case PLOT_LOGY: s->logy = true; break;
    case PLOT_TYPE:
        if (!strcmp(v, "bar")) s->type = SW_FIG_BAR;
        else if (!strcmp(v, "line")) s->type = SW_FIG_LINE;
        else return cli_error(&plot_cmd, "--type is bar or line, not '%s'", v);
        break;
    case PLOT_WHERE: {
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || s->nwhere == 32) return cli_error(&plot_cmd, "--where takes DIM=VALUE, not '%s'", v);
        wd[s->nwhere] = tp_strndup(v, (size_t)(eq - v));
        wv[s->nwhere++] = eq + 1;
        break;
    }
    }
    return 0;
}

int cli_plot(int argc, char **argv)
{
    const char *csv = NULL, *out = NULL;
    sw_plotspec s = {0};
    s.x = "program";
    const char *wd[32], *wv[32];
    int rc = 0;
    cli_args it;
    cli_args_init(&it, &plot_cmd, argc, argv);
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == CLI_EXIT) return it.status;
        if (id == CLI_ARG && csv) return cli_error(&plot_cmd, "one CSV file only");
        if (id == CLI_ARG) csv = it.val;
        else if ((rc = plot_opt(id, it.val, &s, &out, wd, wv)) != 0) return rc;
    }
    if (!csv || !s.y) {
        cli_usage(&plot_cmd, stderr);
        for (uint32_t w = 0; w < s.nwhere; w++) free((char *)wd[w]);
        return 2;
    }
    s.where_dim = wd;
    s.where_val = wv;
    size_t len;
    char *text = sw_read_file(csv, &len);
    sw_table t;
    tp_err e;
    tp_err_clear(&e);
    if (!text) {
        fprintf(stderr, "tpsim plot: cannot read %s: %s\n", csv, strerror(errno));
        rc = 1;
    } else if (!sw_table_read_csv(&t, text, csv, &e)) {
        fprintf(stderr, "tpsim plot: %s\n", e.msg);
        rc = 1;
    } else {
        /* the dimensions: program, config and the axes, which the first
        ** row's point names: "program/config/axis=label/..." */
        const char *dims[64];
        uint32_t nd = 0;
        char *pt = tp_strdup(t.nrows && !strcmp(t.head[0], "point") ? t.cell[0][0] : "");
        if (sw_table_col(&t, "program") >= 0) dims[nd++] = "program";
        if (sw_table_col(&t, "config") >= 0) dims[nd++] = "config";
        char *seg = strchr(pt, '/');
        seg = seg ? strchr(seg + 1, '/') : NULL;
        while (seg && nd < 64) {
            char *name = seg + 1, *eq = strchr(name, '=');
            seg = strchr(name, '/');
            if (!eq || (seg && eq > seg)) break;
            *eq = 0;
            int c = sw_table_col(&t, name);
            if (c >= 0) dims[nd++] = t.head[c];
        }
        free(pt);
        /* the output: -o FILE.png, else the CSV's name with .png */
        char *base = tp_strdup(out ? out : csv);
        char *slash = strrchr(base, '/');
        char *dot = strrchr(slash ? slash : base, '.');
        if (dot && (out ? !strcmp(dot, ".png") : true)) *dot = 0;
        char *dir = slash ? tp_strndup(base, (size_t)(slash - base)) : tp_strdup(".");
        s.name = slash ? slash + 1 : base;
        if (!out) {
            /* NAME-Y.png beside the CSV */
            size_t n = strlen(s.name) + strlen(s.y) + 2;
            char *nm = tp_malloc(n);
            snprintf(nm, n, "%s-%s", s.name, s.y);
            s.name = nm;
        }
        char why[600] = "";
        sw_plotres r = sw_plot(&t, dims, nd, &s, dir, why, sizeof why);
        if (r == SW_PLOT_OK) printf("%s/%s.png\n", dir, s.name);
        else fprintf(stderr, "tpsim plot: %s\n", why);
        rc = r == SW_PLOT_OK ? 0 : r == SW_PLOT_SKIP ? 3 : 1;
        if (!out) free((char *)s.name);
        free(dir);
        free(base);
        sw_table_free(&t);
    }
    free(text);
    for (uint32_t w = 0; w < s.nwhere; w++) free((char *)wd[w]);
    return rc;
}
