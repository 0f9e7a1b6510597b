/* args.c -- the subcommands' table-driven command line (args.h). */
#include "args.h"
#include <stdarg.h>
#include <string.h>

void cli_args_init(cli_args *it, const cli_cmd *c, int argc, char **argv)
{
    memset(it, 0, sizeof *it);
    it->cmd = c;
    it->argc = argc;
    it->argv = argv;
    it->ind = 1;   /* argv[0] is the subcommand's name */
}

/* Every subcommand's -h/--help, after its own options. */
static const cli_opt help_opt = {CLI_HELP, "--help", "-h", NULL, "print this help"};

/* The option a is the name or alias of, or one whose value is joined to
** its name (-j4); *joined then points at the value. */
static const cli_opt *find_opt(const cli_cmd *c, const char *a, const char **joined)
{
    *joined = NULL;
    if (strcmp(a, help_opt.name) == 0 || strcmp(a, help_opt.alias) == 0) return &help_opt;
    for (uint32_t k = 0; k < c->nopts; k++) {
        const cli_opt *o = &c->opts[k];
        if (strcmp(a, o->name) == 0 || (o->alias && strcmp(a, o->alias) == 0)) return o;
    }
    for (uint32_t k = 0; k < c->nopts; k++) {
        const cli_opt *o = &c->opts[k];
        size_t n = strlen(o->name);
        if ((o->flags & CLI_JOINED) && strncmp(a, o->name, n) == 0 && a[n]) {
            *joined = a + n;
            return o;
        }
    }
    return NULL;
}

/* An option tpsim does not know (missing: one that lacks its value), in the
** subcommand's words. */
static int bad_option(cli_args *it, bool missing)
{
    const cli_cmd *c = it->cmd;
    bool last = it->ind + 1 >= it->argc;
    it->status = 2;
    if (c->style & CLI_TERSE) {
        cli_usage_error(c);
    } else if (c->style & CLI_MISSING_AS_UNKNOWN) {
        fprintf(stderr, "%s: unknown option '%s'%s\n", c->name, it->arg, last ? " (or a missing value)" : "");
        cli_usage(c, stderr);
    } else if (missing) {
        fprintf(stderr, "%s: %s needs a value\n", c->name, it->arg);
    } else if (c->style & CLI_SAY_FLAG) {
        fprintf(stderr, "%s: unknown flag '%s'\n", c->name, it->arg);
    } else {
        fprintf(stderr, "%s: unknown option '%s'\n", c->name, it->arg);
        cli_usage(c, stderr);
    }
    return CLI_EXIT;
}

int cli_next(cli_args *it)
{
    const cli_cmd *c = it->cmd;
    it->val = NULL;
    if (it->ind >= it->argc) return CLI_END;
    const char *a = it->arg = it->argv[it->ind];
    bool option = a[0] == '-' && (a[1] || !(c->style & CLI_DASH_ARG));
    if (!option && (c->style & CLI_STOP_AT_ARG)) return CLI_END;
    if (!option) {
        it->ind++;
        it->val = a;
        return CLI_ARG;
    }
    if ((c->style & CLI_STOP_AT_ARG) && strcmp(a, "--") == 0) {
        it->ind++;
        return CLI_END;
    }
    const char *joined;
    const cli_opt *o = find_opt(c, a, &joined);
    if (!o) return bad_option(it, false);
    if (joined) {
        it->val = joined;
    } else if (o->arg) {
        if (it->ind + 1 >= it->argc) return bad_option(it, true);
        it->val = it->argv[++it->ind];
    }
    it->ind++;
    if (o->id == CLI_HELP) {
        cli_usage(c, stdout);
        it->status = 0;
        return CLI_EXIT;
    }
    return o->id;
}

/* An option as its help shows it: "-h, --help", "--config NAME|FILE". */
static int opt_label(const cli_opt *o, char *buf, size_t n)
{
    return snprintf(buf, n, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
                    o->arg ? " " : "", o->arg ? o->arg : "");
}

void cli_usage(const cli_cmd *c, FILE *f)
{
    fputs(c->synopsis, f);
    if (c->about) fputs(c->about, f);
    char label[128];
    int width = opt_label(&help_opt, label, sizeof label);
    for (uint32_t k = 0; k < c->nopts; k++) {
        int n = opt_label(&c->opts[k], label, sizeof label);
        if (n > width) width = n;
    }
    width += 2;
    for (uint32_t k = 0; k <= c->nopts; k++) {
        const cli_opt *o = k < c->nopts ? &c->opts[k] : &help_opt;
        opt_label(o, label, sizeof label);
        const char *h = o->help ? o->help : "";
        for (bool first = true; first || *h; first = false) {
            size_t len = strcspn(h, "\n");
            fprintf(f, "  %-*s%.*s\n", width, first ? label : "", (int)len, h);
            h += len + (h[len] == '\n');
        }
    }
}

int cli_usage_error(const cli_cmd *c)
{
    fputs(c->synopsis, stderr);
    return 2;
}

int cli_error(const cli_cmd *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", c->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}
