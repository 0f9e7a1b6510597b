/* stats.c -- `tpsim stats`: the statistics a performance-mode launch records.
**
**   tpsim stats --list             every statistic of a launch's record in the
**                                  statistics file's order: name, unit, rule
**                                  (how it sums across SMs and launches; a
**                                  ratio's formula), description
**   tpsim stats --list --markdown  the same as a Markdown table (docs/TIMING.md
**                                  holds it; tests/docs checks it is today's)
**
** Everything comes from the declarations (gpu/kstats.def, the LD/ST front
** ends', regmutex/'s policies') through the registry gpu_kstats_registry: a
** statistic declared there is listed here without a line of this file.
** Operands (declared hidden: summed, never written in the file) are listed
** with "(operand)" after their rule.
*/
#include "cli.h"
#include "args.h"
#include "../base/stats.h"
#include "../gpu/gpu.h"
#include <stdio.h>
#include <string.h>

enum { STATS_LIST = CLI_HELP + 1, STATS_MARKDOWN };

static const cli_opt stats_opts[] = {
    {STATS_LIST, "--list", NULL, NULL, "every statistic of a launch's record: name, unit, rule, description"},
    {STATS_MARKDOWN, "--markdown", NULL, NULL, "with --list: as a Markdown table (docs/TIMING.md)"},
};

static const cli_cmd stats_cmd = {
    "tpsim stats", "usage: tpsim stats --list [--markdown]\n", NULL, CLI_OPTS(stats_opts), CLI_TERSE,
};

/* The rule column: add, max, prop, "ratio: num / den"; "(operand)" for a hidden one. */
static void rule_of(const tp_stats *s, const tp_stat *st, tp_sbuf *out)
{
    tp_sbuf_reset(out);
    tp_stats_rule_text(s, st, out);
    if (st->flags & TP_STAT_HIDDEN) tp_sbuf_puts(out, " (operand)");
}

/* A Markdown cell: '|' escaped. */
static void cell(const char *s)
{
    for (; *s; s++) {
        if (*s == '|') putchar('\\');
        putchar(*s);
    }
}

static void list(bool markdown)
{
    const tp_stats *s = gpu_kstats_registry();
    tp_sbuf r;
    tp_sbuf_init(&r);
    int wn = 4, wu = 4, wr = 4;
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *st = &s->a[i];
        rule_of(s, st, &r);
        int n = (int)strlen(st->name), u = (int)strlen(tp_stat_unit_name(st->unit)), k = (int)r.len;
        wn = n > wn ? n : wn;
        wu = u > wu ? u : wu;
        wr = k > wr ? k : wr;
    }
    if (markdown) printf("| name | unit | rule | description |\n|---|---|---|---|\n");
    for (uint32_t i = 0; i < s->n; i++) {
        const tp_stat *st = &s->a[i];
        rule_of(s, st, &r);
        const char *doc = st->doc ? st->doc : "";
        if (markdown) {
            printf("| `%s` | %s | ", st->name, tp_stat_unit_name(st->unit));
            cell(tp_sbuf_str(&r));
            printf(" | ");
            cell(doc);
            printf(" |\n");
        } else {
            printf("%-*s  %-*s  %-*s  %s\n", wn, st->name, wu, tp_stat_unit_name(st->unit), wr, tp_sbuf_str(&r), doc);
        }
    }
    tp_sbuf_free(&r);
}

int cli_stats(int argc, char **argv)
{
    cli_args it;
    cli_args_init(&it, &stats_cmd, argc, argv);
    bool want_list = false, markdown = false;
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        switch (id) {
        case CLI_EXIT: return it.status;
        case STATS_LIST: want_list = true; break;
        case STATS_MARKDOWN: markdown = true; break;
        default: return cli_usage_error(&stats_cmd);
        }
    }
    if (!want_list) return cli_usage_error(&stats_cmd);
    list(markdown);
    return 0;
}
