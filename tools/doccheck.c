/*
** doccheck.c -- keeps the documentation true: runs the command blocks of
** Markdown files that are marked as runnable and checks that the output and
** the numbers the text quotes beside them are the ones printed today.
**
**   doccheck [--list] [--timeout S] FILE.md...
**
** Markers are one-line HTML comments, invisible when the Markdown is shown:
**
**   <!-- doc-check run [timeout=S] [needs=CMD,...] [clean=FILE,...] -->
**       before a fenced block: the block is a shell script, run with sh -e
**       from the current directory (the repository's root); its stdout and
**       stderr together are "the output".  Skipped (a SKIP line) where a
**       program it needs is not on PATH; the files clean= names (the
**       block's own, in the current directory) are removed after it.
**   <!-- doc-check output [noise=P%] -->
**       before a fenced block or a Markdown table (the table's separator row
**       aside, as the command prints it): each of its lines (leading and trailing
**       blanks aside; "..." skips) must appear, in this order, inside lines of
**       the output of the last run block.
**   <!-- doc-check output exact -->
**       the same, but the block's lines must be the output's lines one for
**       one, in order and all of them (blank lines and a table's separator
**       row aside): for a table a command generates, which must not gain or
**       lose a row unnoticed.
**   <!-- doc-check expect [noise=P%] "TEXT" "TEXT" ... -->
**       each TEXT must appear in the output of the last run block, and in the
**       document's own text after that run block (before the next one), so
**       that a number written in a sentence cannot drift from what the
**       command prints.
**
** Numbers are compared as numbers: "76,918" and "76918" are equal; a number
** written with k decimals matches a printed one that rounds to it ("0.71"
** matches 0.7103); with noise=P% (for times and rates, which vary from run
** to run) any value within P% matches.  Everything else is compared as
** text.  With --list, the run blocks are listed and nothing is run.
**
** Output: "PASS doc FILE:LINE" or "FAIL doc FILE:LINE: ..." per run block
** (the form tests/run.sh counts), with, for a mismatch, the line printed
** today that has the expected words.  Exit status 1 if any failed.
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void buf_add(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s) {
            perror("doccheck");
            exit(2);
        }
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    buf b = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(&b, chunk, n);
    fclose(f);
    if (!b.s) buf_add(&b, "", 0);
    return b.s;
}

/* ---- numbers and text ------------------------------------------------------------------ */

/* A number at s: digits (with thousands commas: 1-3 digits, then groups of
** three), an optional fraction.  Its length, 0 if none; *v its value, *dec
** the count of decimals written. */
static size_t number_at(const char *s, double *v, int *dec)
{
    size_t i = 0;
    if (!isdigit((unsigned char)s[0])) return 0;
    char digits[128];
    size_t nd = 0;
    size_t lead = 0;
    while (isdigit((unsigned char)s[lead])) lead++;
    for (i = 0; i < lead && nd < sizeof digits - 2; i++) digits[nd++] = s[i];
    if (lead <= 3) {
        while (s[i] == ',' && isdigit((unsigned char)s[i + 1]) && isdigit((unsigned char)s[i + 2]) &&
               isdigit((unsigned char)s[i + 3]) && !isdigit((unsigned char)s[i + 4])) {
            if (nd < sizeof digits - 5) memcpy(digits + nd, s + i + 1, 3), nd += 3;
            i += 4;
        }
    }
    *dec = 0;
    if (s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
        digits[nd++] = '.';
        i++;
        while (isdigit((unsigned char)s[i])) {
            if (nd < sizeof digits - 1) digits[nd++] = s[i];
            i++;
            (*dec)++;
        }
    }
    digits[nd] = '\0';
    *v = strtod(digits, NULL);
    return i;
}

/* Does printed value a match written value w (with d decimals), within noise? */
static bool num_eq(double a, double w, int d, double noise)
{
    double half = 0.5 * pow(10.0, -d) * (1 + 1e-9);
    if (fabs(a - w) <= half) return true;
    return noise > 0 && fabs(a - w) <= noise * fabs(w);
}

/* Does exp[0..en) match text at t (a prefix of it)?  Returns the length of
** text matched, or -1. */
static long match_at(const char *exp, size_t en, const char *t, double noise)
{
    size_t i = 0, j = 0;
    while (i < en) {
        double wv, av;
        int wd, ad;
        /* a number in the expectation starts where the previous character is not a digit */
        bool at_num = isdigit((unsigned char)exp[i]) && (i == 0 || !isdigit((unsigned char)exp[i - 1]));
        if (at_num) {
            size_t wl = number_at(exp + i, &wv, &wd);
            if (wl > en - i) wl = en - i;
            if (j > 0 && isdigit((unsigned char)t[j - 1])) return -1;
            size_t al = number_at(t + j, &av, &ad);
            if (!al || !num_eq(av, wv, wd, noise)) return -1;
            i += wl;
            j += al;
            continue;
        }
        if (!t[j] || t[j] != exp[i]) return -1;
        i++;
        j++;
    }
    return (long)j;
}

/* Does exp[0..en) appear anywhere in text?  Returns its position or NULL. */
static const char *find(const char *text, const char *exp, size_t en, double noise)
{
    bool num = en && isdigit((unsigned char)exp[0]);
    for (const char *t = text; *t; t++) {
        if (num && t > text && (isdigit((unsigned char)t[-1]) || (t[-1] == '.' && t - 1 > text && isdigit((unsigned char)t[-2]))))
            continue;   /* inside a number */
        if (match_at(exp, en, t, noise) >= 0) return t;
    }
    return NULL;
}

/* The words of exp (its letters, numbers dropped), to find the line that
** should have matched: the output line sharing the most characters of them. */
static void closest_line(const char *out, const char *exp, size_t en, char *res, size_t rn)
{
    char key[64] = "";
    size_t k = 0;
    for (size_t i = 0; i < en && k < sizeof key - 1; i++) {
        if (isalpha((unsigned char)exp[i]) || exp[i] == '_' || exp[i] == ':') key[k++] = exp[i];
        else if (k > 3) break;
        else k = 0;
    }
    key[k] = '\0';
    res[0] = '\0';
    if (k < 3) return;
    const char *p = strstr(out, key);
    if (!p) return;
    const char *b = p, *e = p;
    while (b > out && b[-1] != '\n') b--;
    while (*e && *e != '\n') e++;
    snprintf(res, rn, "%.*s", (int)(e - b > 200 ? 200 : e - b), b);
}

/* ---- running a block ------------------------------------------------------------------- */

static volatile sig_atomic_t timed_out;
static void on_alarm(int sig) { (void)sig, timed_out = 1; }

/* Runs script with sh -e; its output (stdout and stderr) into *out, its
** status as a shell gives it (124 after the timeout). */
static int run_script(const char *script, unsigned timeout, buf *out)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execl("/bin/sh", "sh", "-ec", script, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    timed_out = 0;
    alarm(timeout);
    char chunk[8192];
    for (;;) {
        ssize_t n = read(fd[0], chunk, sizeof chunk);
        if (n > 0) {
            buf_add(out, chunk, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR && !timed_out) continue;
        break;
    }
    if (timed_out) kill(-pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        if (timed_out) kill(-pid, SIGKILL);
    }
    alarm(0);
    close(fd[0]);
    if (!out->s) buf_add(out, "", 0);
    if (timed_out) return 124;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* ---- the document ---------------------------------------------------------------------- */

typedef struct doc {
    const char *path;
    char **line;
    size_t n;
} doc;

static void doc_split(doc *d, char *text)
{
    size_t cap = 256;
    d->line = malloc(cap * sizeof *d->line);
    d->n = 0;
    for (char *p = text; *p;) {
        char *e = strchr(p, '\n');
        if (e) *e = '\0';
        if (d->n == cap) d->line = realloc(d->line, (cap *= 2) * sizeof *d->line);
        d->line[d->n++] = p;
        if (!e) break;
        p = e + 1;
    }
}

/* The marker on line s: "run", "output" or "expect" in *kind and the rest in
** *args; false if s is not a marker. */
static bool marker(const char *s, char *kind, size_t kn, const char **args)
{
    while (*s == ' ') s++;
    if (strncmp(s, "<!-- doc-check ", 15) != 0) return false;
    s += 15;
    size_t k = 0;
    while (isalpha((unsigned char)s[k]) && k < kn - 1) kind[k] = s[k], k++;
    kind[k] = '\0';
    *args = s + k;
    return true;
}

/* clean=PATH[,PATH]: files the block leaves in the current directory,
** removed after it (relative paths without "..", for safety). */
static void clean(const char *args)
{
    const char *p = strstr(args, "clean=");
    if (!p) return;
    char name[256];
    for (p += 6;;) {
        size_t k = 0;
        while (*p && *p != ',' && *p != ' ' && k < sizeof name - 1) name[k++] = *p++;
        name[k] = '\0';
        if (k && name[0] != '/' && !strstr(name, "..")) unlink(name);
        if (*p != ',') break;
        p++;
    }
}

static double noise_of(const char *args)
{
    const char *p = strstr(args, "noise=");
    return p ? strtod(p + 6, NULL) / 100.0 : 0;
}

/* The fenced block that starts at or after line i (blank lines skipped):
** its first content line in *b, one past its last in *e, the line after the
** closing fence returned; 0 if there is none. */
static size_t fence(const doc *d, size_t i, size_t *b, size_t *e)
{
    while (i < d->n && !*d->line[i]) i++;
    if (i < d->n && d->line[i][0] == '|') {
        /* a Markdown table: its rows, the separator row aside */
        *b = i;
        while (i < d->n && d->line[i][0] == '|') i++;
        *e = i;
        return i;
    }
    if (i >= d->n || strncmp(d->line[i], "```", 3) != 0) return 0;
    *b = i + 1;
    for (size_t j = i + 1; j < d->n; j++)
        if (strncmp(d->line[j], "```", 3) == 0) {
            *e = j;
            return j + 1;
        }
    return 0;
}

typedef struct check {
    const doc *d;
    size_t line;      /* the run marker's line (1-based) */
    bool ran, failed;
    bool skipped;     /* the run block was skipped: so are its checks */
    buf out;
    char why[600];
} check;

static void fail(check *c, const char *fmt, const char *a, const char *b)
{
    if (c->failed) return;
    c->failed = true;
    snprintf(c->why, sizeof c->why, fmt, a, b);
}

/* The output block's lines must appear in order in the output. */
static void check_output(check *c, const doc *d, size_t b, size_t e, double noise)
{
    const char *pos = c->out.s;
    for (size_t i = b; i < e && !c->failed; i++) {
        const char *l = d->line[i];
        while (*l == ' ' || *l == '\t') l++;
        size_t n = strlen(l);
        while (n && (l[n - 1] == ' ' || l[n - 1] == '\t' || l[n - 1] == '\r')) n--;
        if (!n || (n == 3 && strncmp(l, "...", 3) == 0)) continue;
        if (l[0] == '|' && strspn(l, "|-: ") == n) continue;   /* a table's separator row */
        const char *at = find(pos, l, n, noise);
        if (!at) {
            char want[300], got[220];
            snprintf(want, sizeof want, "%.*s", (int)(n > 250 ? 250 : n), l);
            closest_line(pos, l, n, got, sizeof got);
            fail(c, "the output has no line with '%s'%s", want, "");
            if (got[0]) {
                size_t k = strlen(c->why);
                snprintf(c->why + k, sizeof c->why - k, " (printed today: '%s')", got);
            }
            return;
        }
        pos = strchr(at, '\n');
        pos = pos ? pos + 1 : at + strlen(at);
    }
}

/* The next line of *pos worth comparing (blank lines and a table's
** separator row aside), trimmed: its start, length in *n; NULL at the end. */
static const char *next_line(const char **pos, size_t *n)
{
    while (**pos) {
        const char *l = *pos, *end = strchr(l, '\n');
        *pos = end ? end + 1 : l + strlen(l);
        size_t k = end ? (size_t)(end - l) : strlen(l);
        while (k && (*l == ' ' || *l == '\t')) l++, k--;
        while (k && (l[k - 1] == ' ' || l[k - 1] == '\t' || l[k - 1] == '\r')) k--;
        if (!k || (l[0] == '|' && strspn(l, "|-: ") >= k)) continue;
        *n = k;
        return l;
    }
    return NULL;
}

/* exact: the block's lines are the output's, one for one, none left over
** (blank lines and separator rows aside): a generated table. */
static void check_exact(check *c, const doc *d, size_t b, size_t e)
{
    const char *pos = c->out.s ? c->out.s : "";
    size_t i = b;
    for (;;) {
        const char *want = NULL;
        size_t wn = 0;
        while (i < e && !want) {
            const char *p = d->line[i++];
            want = next_line(&p, &wn);
        }
        size_t gn = 0;
        const char *got = next_line(&pos, &gn);
        if (!want && !got) return;
        char w[260], g[260];
        snprintf(w, sizeof w, "%.*s", want ? (int)(wn > 250 ? 250 : wn) : 0, want ? want : "");
        snprintf(g, sizeof g, "%.*s", got ? (int)(gn > 250 ? 250 : gn) : 0, got ? got : "");
        if (!want) {
            fail(c, "the output has a line the document lacks: '%s'%s", g, "");
            return;
        }
        if (!got) {
            fail(c, "the output ends before the document's line '%s'%s", w, "");
            return;
        }
        if (wn != gn || strncmp(want, got, wn) != 0) {
            fail(c, "the document's line '%s' is printed today as '%s'", w, g);
            return;
        }
    }
}

/* Each "TEXT" of args must appear in the output and in the text [tb, te). */
static void check_expect(check *c, const doc *d, const char *args, size_t tb, size_t te, double noise)
{
    buf prose = {0};
    for (size_t i = tb; i < te; i++) {
        char kind[16];
        const char *a;
        if (marker(d->line[i], kind, sizeof kind, &a)) continue;
        buf_add(&prose, d->line[i], strlen(d->line[i]));
        buf_add(&prose, " ", 1);
    }
    if (!prose.s) buf_add(&prose, "", 0);
    /* a sentence wraps: compare with runs of blanks as one */
    for (char *p = prose.s, *q = prose.s;; q++) {
        if (*q == ' ' && p > prose.s && p[-1] == ' ') continue;
        *p++ = *q;
        if (!*q) break;
    }
    for (const char *p = args; (p = strchr(p, '"')) != NULL && !c->failed;) {
        const char *q = strchr(p + 1, '"');
        if (!q) break;
        size_t n = (size_t)(q - p - 1);
        char want[300];
        snprintf(want, sizeof want, "%.*s", (int)(n > 250 ? 250 : n), p + 1);
        if (!find(prose.s, p + 1, n, 0)) {
            fail(c, "'%s' is checked but the text beside the command does not say it%s", want, "");
        } else if (!find(c->out.s, p + 1, n, noise)) {
            char got[220];
            closest_line(c->out.s, p + 1, n, got, sizeof got);
            fail(c, "the text says '%s' but the command printed %s", want, got[0] ? "" : "nothing like it");
            if (got[0]) {
                size_t k = strlen(c->why);
                snprintf(c->why + k, sizeof c->why - k, "'%s'", got);
            }
        }
        p = q + 1;
    }
    free(prose.s);
}

static void report(check *c)
{
    if (!c->ran) return;
    if (c->failed) printf("FAIL doc %s:%zu: %s\n", c->d->path, c->line, c->why);
    else printf("PASS doc %s:%zu\n", c->d->path, c->line);
    free(c->out.s);
    memset(&c->out, 0, sizeof c->out);
    c->ran = false;
}

static int check_doc(const char *path, bool list, unsigned timeout)
{
    char *text = read_all(path);
    if (!text) {
        printf("FAIL doc %s: cannot read it: %s\n", path, strerror(errno));
        return 1;
    }
    doc d = {path, NULL, 0};
    doc_split(&d, text);
    int bad = 0;
    check c;
    memset(&c, 0, sizeof c);
    c.d = &d;
    size_t run_end = 0;   /* the line after the current run block */
    for (size_t i = 0; i < d.n; i++) {
        char kind[16];
        const char *args;
        if (!marker(d.line[i], kind, sizeof kind, &args)) continue;
        size_t b = 0, e = 0, next = fence(&d, i + 1, &b, &e);
        if (!strcmp(kind, "run")) {
            if (c.ran) bad += c.failed, report(&c);
            if (!next) {
                printf("FAIL doc %s:%zu: a run marker must come before a fenced block\n", path, i + 1);
                bad++;
                continue;
            }
            c.line = i + 1;
            c.skipped = false;
            run_end = next;
            if (list) {
                printf("%s:%zu\n", path, i + 1);
                continue;
            }
            /* needs=CMD[,CMD]: skipped where a program it needs is not installed */
            const char *nd = strstr(args, "needs=");
            if (nd) {
                char cmd[256];
                size_t k = 0;
                for (nd += 6; *nd && *nd != ' ' && k < 100; nd++) cmd[k++] = *nd == ',' ? ' ' : *nd;
                cmd[k] = '\0';
                char probe[400];
                snprintf(probe, sizeof probe, "for c in %s; do command -v $c >/dev/null || { echo $c; exit 1; }; done", cmd);
                buf o = {0};
                if (run_script(probe, 10, &o) != 0) {
                    printf("SKIP doc %s:%zu: needs %s", path, i + 1, o.s ? o.s : "a program that is not installed\n");
                    free(o.s);
                    c.skipped = true;
                    continue;
                }
                free(o.s);
            }
            buf script = {0};
            for (size_t k = b; k < e; k++) {
                buf_add(&script, d.line[k], strlen(d.line[k]));
                buf_add(&script, "\n", 1);
            }
            const char *t = strstr(args, "timeout=");
            unsigned tmo = t ? (unsigned)strtoul(t + 8, NULL, 10) : timeout;
            c.ran = true;
            c.failed = false;
            int st = run_script(script.s ? script.s : "", tmo, &c.out);
            free(script.s);
            clean(args);
            if (st == 124) {
                char s[32];
                snprintf(s, sizeof s, "%u", tmo);
                fail(&c, "the command did not finish in %s s%s", s, "");
            } else if (st != 0) {
                char s[32], tail[300];
                snprintf(s, sizeof s, "%d", st);
                size_t k = c.out.len > 280 ? c.out.len - 280 : 0;
                snprintf(tail, sizeof tail, "%s", c.out.s + k);
                fail(&c, "the command exited with status %s: %s", s, tail);
            }
        } else if (list || c.skipped) {
            continue;
        } else if (!c.ran) {
            printf("FAIL doc %s:%zu: a doc-check %s marker with no run block before it\n", path, i + 1, kind);
            bad++;
        } else if (!strcmp(kind, "output")) {
            if (!next) fail(&c, "the output marker must come before a fenced block%s%s", "", "");
            else if (strstr(args, "exact")) check_exact(&c, &d, b, e);
            else check_output(&c, &d, b, e, noise_of(args));
        } else if (!strcmp(kind, "expect")) {
            /* the text after the run block, to the next run marker */
            size_t te = run_end;
            while (te < d.n) {
                char k2[16];
                const char *a2;
                if (marker(d.line[te], k2, sizeof k2, &a2) && !strcmp(k2, "run")) break;
                te++;
            }
            check_expect(&c, &d, args, run_end, te, noise_of(args));
        } else {
            printf("FAIL doc %s:%zu: unknown doc-check marker '%s' (run, output or expect)\n", path, i + 1, kind);
            bad++;
        }
    }
    if (c.ran) bad += c.failed, report(&c);
    free(d.line);
    free(text);
    return bad;
}

int main(int argc, char **argv)
{
    bool list = false;
    unsigned timeout = 600;
    int i = 1, bad = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--list")) list = true;
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = (unsigned)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: doccheck [--list] [--timeout S] FILE.md...\n");
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "usage: doccheck [--list] [--timeout S] FILE.md...\n");
        return 2;
    }
    for (; i < argc; i++) bad += check_doc(argv[i], list, timeout);
    return bad ? 1 : 0;
}
