/* ptxlink.c -- links several PTX modules into one (see api_ptx_link in api.h).
**
** Relocatable device code (nvcc -rdc=true) compiles each .cu file to PTX
** that declares what it uses from the others (.extern .func prototypes,
** .extern variables) and defines what it exports (.visible).  A GPU driver
** links the machine code; tpsim links the PTX text, which the parser then
** reads as one module:
**
**   - each module is cut into top-level statements (header directives,
**     variables, function declarations and definitions, .file lines, debug
**     .sections), skipping comments and strings;
**   - one header is written: the highest .version and target, and the
**     address size;
**   - every statement follows in module order.  An .extern declaration
**     before or after the definition is left for the parser, which merges
**     them.  Of several definitions of a .weak (or .common) symbol -- the
**     template and inline functions every file instantiates -- the first is
**     kept and the others become prototypes (functions) or disappear
**     (variables).  Two .visible definitions are an error;
**   - internal names (no linkage directive: $str constants of printf,
**     static functions) that a module shares with an earlier one are
**     renamed in the later module, as NAME_tpsimN;
**   - .file numbers are made distinct by module (with the .loc lines that
**     use them) and debug .sections are dropped.
*/
#include "api.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- tokens ------------------------------------------------------------------ */

typedef enum tk_kind { TK_END, TK_ID, TK_DIR, TK_NUM, TK_STR, TK_PUNCT } tk_kind;

typedef struct tk {
    tk_kind kind;
    const char *s;   /* start in the module text */
    uint32_t len;
    bool nl_before;  /* a newline between the previous token and this one */
} tk;

static bool id_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%'; }
static bool id_char(int c) { return id_start(c) || (c >= '0' && c <= '9'); }

/* The next token at *p (end at e); comments and white space are skipped. */
static tk next_tok(const char **p, const char *e)
{
    const char *s = *p;
    bool nl = false;
    for (;;) {
        while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\f' || *s == '\v' || !*s)) {
            if (*s == '\n') nl = true;
            s++;
        }
        if (s + 1 < e && s[0] == '/' && s[1] == '/') {
            while (s < e && *s != '\n') s++;
            continue;
        }
        if (s + 1 < e && s[0] == '/' && s[1] == '*') {
            s += 2;
            while (s + 1 < e && !(s[0] == '*' && s[1] == '/')) {
                if (*s == '\n') nl = true;
                s++;
            }
            s = s + 1 < e ? s + 2 : e;
            continue;
        }
        break;
    }
    tk t = {TK_END, s, 0, nl};
    if (s >= e) {
        *p = s;
        return t;
    }
    const char *q = s;
    if (*q == '"') {
        q++;
        while (q < e && *q != '"' && *q != '\n') q += *q == '\\' && q + 1 < e ? 2 : 1;
        if (q < e && *q == '"') q++;
        t.kind = TK_STR;
    } else if (*q == '.' && q + 1 < e && id_start((unsigned char)q[1])) {
        q++;
        while (q < e && id_char((unsigned char)*q)) q++;
        t.kind = TK_DIR;
    } else if (id_start((unsigned char)*q)) {
        while (q < e && id_char((unsigned char)*q)) q++;
        t.kind = TK_ID;
    } else if (*q >= '0' && *q <= '9') {
        while (q < e && (id_char((unsigned char)*q) || *q == '.')) q++;
        t.kind = TK_NUM;
    } else {
        q++;
        t.kind = TK_PUNCT;
    }
    t.len = (uint32_t)(q - s);
    *p = q;
    return t;
}

static bool tok_is(const tk *t, const char *w) { return t->len == strlen(w) && memcmp(t->s, w, t->len) == 0; }

/* ---- statements ---------------------------------------------------------------- */

typedef enum st_kind { ST_VERSION, ST_TARGET, ST_ADDRSIZE, ST_FILE, ST_SECTION, ST_VAR, ST_FUNC, ST_OTHER } st_kind;

enum { LK_VISIBLE = 1, LK_EXTERN = 2, LK_WEAK = 4, LK_COMMON = 8 };

typedef struct stmt {
    st_kind kind;
    const char *s, *e;     /* the statement's text */
    const char *body;      /* ST_FUNC: its '{', or NULL for a declaration */
    unsigned link;         /* LK_* */
    const char *name;      /* the declared symbol (in the text) */
    uint32_t name_len;
    bool drop;             /* not written */
    bool proto;            /* written as a prototype (header and ';') */
} stmt;

typedef struct pmod {
    const char *text, *end;
    const char *name;
    stmt *st;
    uint32_t nst, cap;
    char **renames;        /* internal names renamed in this module (old, new pairs) */
    uint32_t nren;
} pmod;

static void fail(char **why, const char *fmt, ...) TP_PRINTF(2, 3);
static void fail(char **why, const char *fmt, ...)
{
    if (*why) return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    *why = tp_strdup(buf);
}

static void add_stmt(pmod *m, const stmt *s)
{
    if (m->nst == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->st = tp_realloc(m->st, m->cap * sizeof *m->st);
    }
    m->st[m->nst++] = *s;
}

/* Cuts a module into statements. */
static bool split(pmod *m, char **why)
{
    const char *p = m->text, *e = m->end;
    for (;;) {
        tk t = next_tok(&p, e);
        if (t.kind == TK_END) return true;
        stmt st;
        memset(&st, 0, sizeof st);
        st.s = t.s;
        if (t.kind == TK_DIR && (tok_is(&t, ".version") || tok_is(&t, ".target") || tok_is(&t, ".address_size") ||
                                 tok_is(&t, ".file"))) {
            st.kind = tok_is(&t, ".version") ? ST_VERSION : tok_is(&t, ".target") ? ST_TARGET
                      : tok_is(&t, ".file")  ? ST_FILE    : ST_ADDRSIZE;
            /* to the end of the line */
            const char *q = p;
            for (;;) {
                const char *save = q;
                tk u = next_tok(&q, e);
                if (u.kind == TK_END || u.nl_before) {
                    q = save;
                    break;
                }
            }
            st.e = q;
            p = q;
            add_stmt(m, &st);
            continue;
        }
        if (t.kind == TK_DIR && tok_is(&t, ".section")) {
            int depth = 0;
            for (;;) {
                tk u = next_tok(&p, e);
                if (u.kind == TK_END) break;
                if (u.kind == TK_PUNCT && *u.s == '{') depth++;
                if (u.kind == TK_PUNCT && *u.s == '}' && --depth == 0) break;
            }
            st.kind = ST_SECTION;
            st.e = p;
            add_stmt(m, &st);
            continue;
        }
        /* a declaration: linkage directives, then .func/.entry or a variable */
        st.kind = ST_OTHER;
        bool is_func = false, after_eq = false, want_name = false;
        int paren = 0, brace = 0;
        tk cur = t;
        for (;;) {
            if (cur.kind == TK_END) {
                fail(why, "%s: unexpected end of the PTX in a declaration", m->name);
                return false;
            }
            if (cur.kind == TK_DIR && paren == 0 && !st.name) {
                if (tok_is(&cur, ".visible")) st.link |= LK_VISIBLE;
                else if (tok_is(&cur, ".extern")) st.link |= LK_EXTERN;
                else if (tok_is(&cur, ".weak")) st.link |= LK_WEAK;
                else if (tok_is(&cur, ".common")) st.link |= LK_COMMON;
                else if (tok_is(&cur, ".func") || tok_is(&cur, ".entry")) is_func = want_name = true, st.kind = ST_FUNC;
                else if (st.kind == ST_OTHER && (tok_is(&cur, ".global") || tok_is(&cur, ".const") ||
                                                 tok_is(&cur, ".shared") || tok_is(&cur, ".tex") ||
                                                 tok_is(&cur, ".local")))
                    st.kind = ST_VAR, want_name = true;
            } else if (cur.kind == TK_ID && want_name && paren == 0 && !st.name && !after_eq) {
                st.name = cur.s;
                st.name_len = cur.len;
            } else if (cur.kind == TK_PUNCT) {
                char c = *cur.s;
                if (c == '(') paren++;
                else if (c == ')') paren--;
                else if (c == '=' && paren == 0) after_eq = true;
                else if (c == '{' && paren == 0 && is_func && brace == 0) {
                    /* a function body: to its matching brace */
                    st.body = cur.s;
                    int depth = 1;
                    while (depth > 0) {
                        tk u = next_tok(&p, e);
                        if (u.kind == TK_END) {
                            fail(why, "%s: unterminated function body", m->name);
                            return false;
                        }
                        if (u.kind == TK_PUNCT && *u.s == '{') depth++;
                        if (u.kind == TK_PUNCT && *u.s == '}') depth--;
                    }
                    break;
                } else if (c == '{') {
                    brace++;
                } else if (c == '}') {
                    brace--;
                } else if (c == ';' && paren == 0 && brace == 0) {
                    break;
                }
            }
            cur = next_tok(&p, e);
        }
        st.e = p;
        if ((st.kind == ST_FUNC || st.kind == ST_VAR) && !st.name) {
            fail(why, "%s: a declaration without a name", m->name);
            return false;
        }
        add_stmt(m, &st);
    }
}

/* ---- symbols across modules ------------------------------------------------------ */

typedef struct def {
    uint32_t mod, idx;     /* the kept definition */
    bool strong;           /* .visible (not weak/common) */
} def;

/* A set of names with a value each: an tp_map from the name's hash to a
** chain of entries, compared by their text. */
typedef struct nent {
    const char *s;
    uint32_t n;
    void *val;
    struct nent *next;
} nent;

static uint64_t name_key(const char *s, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
    return h;
}

static nent *ns_find(const tp_map *m, const char *s, uint32_t n)
{
    for (nent *e = tp_map_getp(m, name_key(s, n)); e; e = e->next)
        if (e->n == n && memcmp(e->s, s, n) == 0) return e;
    return NULL;
}

static void *ns_get(const tp_map *m, const char *s, uint32_t n)
{
    nent *e = ns_find(m, s, n);
    return e ? e->val : NULL;
}

static void ns_put(tp_map *m, const char *s, uint32_t n, void *val)
{
    nent *e = ns_find(m, s, n);
    if (e) {
        e->val = val;
        return;
    }
    e = tp_calloc(1, sizeof *e);
    e->s = s, e->n = n, e->val = val;
    uint64_t k = name_key(s, n);
    e->next = tp_map_getp(m, k);
    tp_map_putp(m, k, e);
}

/* Frees the set; free_vals: the values too. */
static void ns_free(tp_map *m, bool free_vals)
{
    uint64_t v;
    for (uint32_t pos = 0; tp_map_next(m, &pos, NULL, &v);)
        for (nent *e = (nent *)(uintptr_t)v, *nx; e; e = nx) {
            nx = e->next;
            if (free_vals) free(e->val);
            free(e);
        }
    tp_map_free(m);
}

static bool is_def(const stmt *s)
{
    if (s->kind == ST_FUNC) return s->body != NULL;
    return s->kind == ST_VAR && !(s->link & LK_EXTERN);
}

static void buf_ident(tp_sbuf *b, const pmod *m, const tk *t)
{
    for (uint32_t i = 0; i < m->nren; i++) {
        const char *o = m->renames[2 * i];
        if (strlen(o) == t->len && memcmp(o, t->s, t->len) == 0) {
            tp_sbuf_puts(b, m->renames[2 * i + 1]);
            return;
        }
    }
    tp_sbuf_put(b, t->s, t->len);
}

/* Writes text [s, e) of module m with its renames and .file/.loc numbers
** shifted by file_base; whitespace and comments are kept as they are. */
static void emit(tp_sbuf *b, const pmod *m, const char *s, const char *e, unsigned file_base)
{
    const char *p = s;
    bool renum = false;
    while (p < e) {
        const char *before = p;
        tk t = next_tok(&p, e);
        if (t.kind == TK_END) {
            tp_sbuf_put(b, before, (size_t)(e - before));
            break;
        }
        tp_sbuf_put(b, before, (size_t)(t.s - before));   /* the gap: spaces, comments */
        if (t.kind == TK_ID && m->nren) {
            buf_ident(b, m, &t);
        } else if (t.kind == TK_NUM && renum && file_base) {
            tp_sbuf_printf(b, "%lu", strtoul(t.s, NULL, 10) + file_base);
        } else {
            tp_sbuf_put(b, t.s, t.len);
        }
        renum = t.kind == TK_DIR && (tok_is(&t, ".file") || tok_is(&t, ".loc"));
    }
}

/* The numbers of a ".version X.Y" or ".target sm_XY[a]" statement. */
static unsigned version_of(const stmt *s)
{
    const char *p = s->s;
    tk t = next_tok(&p, s->e);
    t = next_tok(&p, s->e);
    unsigned maj = 0, min = 0;
    if (t.kind == TK_NUM) sscanf(t.s, "%u.%u", &maj, &min);
    return maj * 10 + min;
}

static unsigned target_of(const stmt *s)
{
    const char *p = s->s;
    tk t = next_tok(&p, s->e);
    t = next_tok(&p, s->e);
    unsigned sm = 0;
    if (t.kind == TK_ID && t.len > 3 && memcmp(t.s, "sm_", 3) == 0) sm = (unsigned)strtoul(t.s + 3, NULL, 10);
    return sm;
}

char *api_ptx_link(const char *const *texts, const size_t *lens, const char *const *names, unsigned n, char **why)
{
    *why = NULL;
    pmod *mods = tp_calloc(n ? n : 1, sizeof *mods);
    tp_map defs = {0};       /* name -> def (the kept definitions) */
    tp_map names_seen = {0}; /* module-scope names taken so far */
    unsigned version = 0, target = 0;
    const stmt *target_st = NULL;
    char *out = NULL;
    /* every symbol with linkage, whichever module declares it */
    for (unsigned i = 0; i < n && !*why; i++) {
        pmod *m = &mods[i];
        m->text = texts[i];
        m->end = texts[i] + lens[i];
        m->name = names && names[i] ? names[i] : "PTX";
        if (!split(m, why)) break;
        for (uint32_t k = 0; k < m->nst; k++) {
            const stmt *s = &m->st[k];
            if ((s->kind == ST_FUNC || s->kind == ST_VAR) && s->link)
                ns_put(&names_seen, s->name, s->name_len, (void *)1);
        }
    }
    for (unsigned i = 0; i < n && !*why; i++) {
        pmod *m = &mods[i];
        /* internal names an earlier module or a symbol with linkage already has */
        for (uint32_t k = 0; k < m->nst; k++) {
            stmt *s = &m->st[k];
            if (s->kind == ST_VERSION && version_of(s) > version) version = version_of(s);
            if (s->kind == ST_TARGET && (!target_st || target_of(s) > target)) target = target_of(s), target_st = s;
            if (s->kind != ST_FUNC && s->kind != ST_VAR) continue;
            if (s->link == 0) {
                bool is_prev_rename = false;
                for (uint32_t r = 0; r < m->nren; r++)
                    if (strlen(m->renames[2 * r]) == s->name_len && !memcmp(m->renames[2 * r], s->name, s->name_len))
                        is_prev_rename = true;
                if (ns_get(&names_seen, s->name, s->name_len) && !is_prev_rename) {
                    if (m->nren % 16 == 0) m->renames = tp_realloc(m->renames, (m->nren + 16) * 2 * sizeof(char *));
                    char nn[300];
                    snprintf(nn, sizeof nn, "%.*s_tpsim%u", (int)TP_MIN(s->name_len, 250u), s->name, i);
                    m->renames[2 * m->nren] = tp_strndup(s->name, s->name_len);
                    m->renames[2 * m->nren + 1] = tp_strdup(nn);
                    m->nren++;
                }
                continue;
            }
            if (!is_def(s)) continue;
            def *d = ns_get(&defs, s->name, s->name_len);
            bool strong = (s->link & LK_VISIBLE) && !(s->link & (LK_WEAK | LK_COMMON));
            if (!d) {
                d = tp_calloc(1, sizeof *d);
                *d = (def){i, k, strong};
                ns_put(&defs, s->name, s->name_len, d);
            } else if (strong && d->strong) {
                fail(why, "%s: multiple definition of '%.*s' (also defined in %s)", m->name, (int)s->name_len,
                     s->name, mods[d->mod].name);
            } else {
                /* the first definition stays; this one becomes a declaration */
                if (s->kind == ST_FUNC) s->proto = true;
                else s->drop = true;
            }
        }
        /* this module's internal names become known to the next */
        for (uint32_t k = 0; k < m->nst; k++) {
            const stmt *s = &m->st[k];
            bool renamed = false;
            for (uint32_t r = 0; r < m->nren; r++)
                if (strlen(m->renames[2 * r]) == s->name_len && !memcmp(m->renames[2 * r], s->name, s->name_len))
                    renamed = true;
            if ((s->kind == ST_FUNC || s->kind == ST_VAR) && !s->link && !renamed)
                ns_put(&names_seen, s->name, s->name_len, (void *)1);
        }
        for (uint32_t r = 0; r < m->nren; r++) {
            const char *nn = m->renames[2 * r + 1];
            ns_put(&names_seen, nn, (uint32_t)strlen(nn), (void *)1);
        }
    }
    if (!*why) {
        tp_sbuf b;
        tp_sbuf_init(&b);
        tp_sbuf_printf(&b, ".version %u.%u\n", version / 10, version % 10);
        if (target_st) {
            tp_sbuf_put(&b, target_st->s, (size_t)(target_st->e - target_st->s));
            tp_sbuf_puts(&b, "\n");
        }
        tp_sbuf_puts(&b, ".address_size 64\n");
        unsigned file_base = 0;
        for (unsigned i = 0; i < n; i++) {
            const pmod *m = &mods[i];
            unsigned max_file = 0;
            tp_sbuf_printf(&b, "\n// ---- %s\n", m->name);
            for (uint32_t k = 0; k < m->nst; k++) {
                const stmt *s = &m->st[k];
                if (s->kind == ST_VERSION || s->kind == ST_TARGET || s->kind == ST_ADDRSIZE || s->kind == ST_SECTION ||
                    s->drop)
                    continue;
                if (s->kind == ST_FILE) {
                    unsigned f = (unsigned)strtoul(s->s + 5, NULL, 10);
                    if (f > max_file) max_file = f;
                }
                emit(&b, m, s->s, s->proto ? s->body : s->e, file_base);
                tp_sbuf_puts(&b, s->proto ? ";\n" : "\n");
            }
            file_base += max_file;
        }
        out = tp_sbuf_take(&b);
    }
    ns_free(&defs, true);
    ns_free(&names_seen, false);
    for (unsigned i = 0; i < n; i++) {
        free(mods[i].st);
        for (uint32_t r = 0; r < 2 * mods[i].nren; r++) free(mods[i].renames[r]);
        free(mods[i].renames);
    }
    free(mods);
    return out;
}
