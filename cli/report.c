/* report.c -- `tpsim report STATS.json -o FILE.html` (report.h,
** docs/REPORT.md): the command, reading the statistics file and writing
** the page that report_page.c makes of it; `tpsim run --report` and
** `tpsim sweep --report` come here too. */
#include "cli.h"
#include "args.h"
#include "report.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool rp_writable(const char *cmd, const char *html)
{
    struct stat st;
    if (stat(html, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: cannot write the report %s: it is a directory\n", cmd, html);
        return false;
    }
    char dir[4096];
    const char *slash = strrchr(html, '/');
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - html) + (slash == html), html);
    else snprintf(dir, sizeof dir, ".");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: cannot write the report %s: no directory %s\n", cmd, html, dir);
        return false;
    }
    if (access(dir, W_OK) != 0) {
        fprintf(stderr, "%s: cannot write the report %s: %s\n", cmd, html, strerror(errno));
        return false;
    }
    return true;
}

/* Writes text to path through path.tmp.PID renamed into place. */
static bool write_file(const char *cmd, const char *path, const tp_sbuf *text)
{
    size_t n = strlen(path) + 32;
    char *tmp = tp_malloc(n);
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(text->s, 1, text->len, f) == text->len;
    if (f && fclose(f) != 0) ok = false;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "%s: cannot write the report %s: %s\n", cmd, path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok;
}

int rp_file(const char *cmd, const char *stats, const char *html, const char *label)
{
    size_t len;
    char *text = cli_read_file(cmd, stats, &len);
    if (!text) return 1;
    tp_json_doc d;
    tp_err e;
    tp_err_clear(&e);
    bool ok = tp_json_parse(&d, text, len, stats, &e);
    free(text);
    if (!ok) {
        fprintf(stderr, "%s: %s\n", cmd, e.msg);
        return 1;
    }
    tp_sbuf b;
    tp_sbuf_init(&b);
    ok = rp_page(d.root, label ? label : stats, &b, &e);
    if (!ok) fprintf(stderr, "%s: %s\n", cmd, e.msg);
    else ok = write_file(cmd, html, &b);
    tp_sbuf_free(&b);
    tp_json_free(&d);
    return ok ? 0 : 1;
}

/* ---- the command ---------------------------------------------------------------------- */

enum { REP_OUT = CLI_HELP + 1 };

static const cli_opt report_opts[] = {
    {REP_OUT, "-o", "--output", "FILE.html", "write the page to FILE.html"},
};

static const cli_cmd report_cmd = {
    "tpsim report",
    "usage: tpsim report STATS.json -o FILE.html\n",
    "one self-contained HTML page (inline SVG and CSS, no network) from a statistics file\n"
    "(tpsim run --stats); docs/REPORT.md\n",
    CLI_OPTS(report_opts),
    0,
};

int cli_report(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    cli_args it;
    cli_args_init(&it, &report_cmd, argc, argv);
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        if (id == CLI_EXIT) return it.status;
        if (id == REP_OUT) out = it.val;
        if (id == CLI_ARG) {
            if (in) return cli_error(&report_cmd, "one statistics file, not '%s' too", it.val);
            in = it.val;
        }
    }
    if (!in || !out) {
        cli_error(&report_cmd, "%s", !in ? "no statistics file given" : "no output given (-o FILE.html)");
        cli_usage(&report_cmd, stderr);
        return 2;
    }
    if (!rp_writable(report_cmd.name, out)) return 1;
    return rp_file(report_cmd.name, in, out, NULL);
}
