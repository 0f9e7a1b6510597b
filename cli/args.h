/*
** args.h -- the command line of a tpsim subcommand, read from a table.
**
** Each subcommand describes its options once, as a table of cli_opt, and
** reads its arguments with cli_next, which returns the id of each option
** met (its value in it->val), CLI_ARG for an argument that is not an option,
** and a negative CLI_END/CLI_EXIT at the end.  The parser prints the
** messages every subcommand shares -- an unknown option, a missing value,
** the help -- in the words that subcommand has always used (the CLI_*
** style flags); what an option's value means is the subcommand's to check.
** `tpsim CMD --help` (-h) lists the options from the same table.
**
**   static const cli_opt opts[] = {{OPT_X, "--x", NULL, "N", "what x does"}, ...};
**   cli_args it;
**   cli_args_init(&it, &cmd, argc, argv);
**   for (int id; (id = cli_next(&it)) != CLI_END;) {
**       if (id == CLI_EXIT) return it.status;      -- --help (0) or an error (2)
**       switch (id) { case OPT_X: ...it.val...; break; case CLI_ARG: ...; }
**   }
**
** Our own rather than getopt_long: the subcommands' messages are their own
** words (tests check them), an option is never abbreviated, -j4 and -okey=v
** are taken only where a table says so, `tpsim run` stops at its program,
** and the same table gives the --help text.
*/
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include "../base/tp.h"
#include <stdio.h>

enum {
    CLI_HELP = 1,   /* -h/--help, which every subcommand has without a row: cli_next prints the help */
};

enum {
    CLI_JOINED = 1u << 0,   /* cli_opt.flags: the value may follow the name directly (-j4, -okey=v) */
};

typedef struct cli_opt {
    int id;              /* what cli_next returns for it (> CLI_HELP) */
    const char *name;    /* "--config", "-o" */
    const char *alias;   /* another spelling ("-h"), or NULL */
    const char *arg;     /* the value's name in the help ("NAME|FILE"); NULL: takes none */
    const char *help;    /* its lines in the help ('\n' between them) */
    unsigned flags;      /* CLI_JOINED */
} cli_opt;

/* How a subcommand's errors read (cli_cmd.style). */
enum {
    CLI_STOP_AT_ARG = 1u << 0,   /* the first argument (or "--", dropped) ends the options: it->ind */
    CLI_DASH_ARG = 1u << 1,      /* "-" alone is an argument, not an option */
    CLI_SAY_FLAG = 1u << 2,      /* "unknown flag 'X'", no usage after it */
    CLI_TERSE = 1u << 3,         /* an unknown option or a missing value: the synopsis alone */
    CLI_MISSING_AS_UNKNOWN = 1u << 4, /* "unknown option 'X' (or a missing value)" when X is last */
};

typedef struct cli_cmd {
    const char *name;       /* "tpsim run": every message starts "tpsim run: " */
    const char *synopsis;   /* the usage lines, each ending in '\n' */
    const char *about;      /* lines between the synopsis and the options, or NULL */
    const cli_opt *opts;    /* CLI_OPTS(table) */
    uint32_t nopts;
    unsigned style;         /* CLI_* above */
} cli_cmd;

/* A table as the cli_cmd fields opts, nopts. */
#define CLI_OPTS(table) (table), TP_ARRAY_LEN(table)

enum { CLI_ARG = 0, CLI_END = -1, CLI_EXIT = -2 };

typedef struct cli_args {
    const cli_cmd *cmd;
    int argc, ind;          /* ind: the next argument to read */
    char **argv;
    const char *arg;        /* the option or argument just read, as written */
    const char *val;        /* its value (an option's) or the argument itself (CLI_ARG) */
    int status;             /* with CLI_EXIT: 0 after the help, 2 after an error */
} cli_args;

void cli_args_init(cli_args *it, const cli_cmd *c, int argc, char **argv);
/* The next option's id, CLI_ARG, CLI_END, or CLI_EXIT with it->status (the
** help or the error message printed). */
int cli_next(cli_args *it);

/* The synopsis, then the about lines and every option with its help. */
void cli_usage(const cli_cmd *c, FILE *f);
/* The synopsis alone on stderr; returns 2, the status of a usage error. */
int cli_usage_error(const cli_cmd *c);
/* "NAME: " and the message on stderr; returns 2. */
int cli_error(const cli_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
