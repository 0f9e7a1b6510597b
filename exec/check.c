/*
** check.c -- what the correctness checkers share (check.h): which checks a
** launch runs, the hooks' dispatch to racecheck, initcheck and synccheck,
** and findings: their deduplication, their reports on stderr, the list the
** driver API puts into the statistics file, and the counts.
**
** A finding is identified by (kernel name, a, b, kind), where a and b are
** what the checker says makes it the same finding again: the two
** instructions of a race (in pc order, so which access came first does not
** matter), the allocation of an uninitialized read, the instruction of a
** barrier misuse.  Its first occurrence is recorded (text and all); every
** occurrence is counted.
**
** Reports.  An init or sync finding is printed when it is first seen.
** Races are printed when the launch ends, one report per group: the new
** findings of the launch with the same kind, what (read-write,
** write-write), memory space and pair of source lines (.loc, with the line
** they were inlined at; the pc where an instruction has none).  An
** unrolled loop's copies of one load, racing with one store, are one
** report: the first finding's text, then a line counting what the group
** covers -- instruction pairs, distinct addresses and threads, and the
** conflicting access pairs seen in the launch from its first finding on.
** At most check.print_limit reports are printed per process (the rest are
** counted, and still listed in the statistics).
**
** Reports start "tpsim: race: ", "tpsim: init: " or "tpsim: sync: " on one
** line that names the kind, the kernel and the address; further lines,
** indented by four spaces, name each side: block, thread, pc with the PTX
** instruction, its line in the PTX and, where the PTX has .loc, the source
** line.
*/
#include "check.h"
#include "../base/map.h"
#include <stdio.h>
#include <stdlib.h>

/* A finding's key: the kernel's name (hashed), two values that say where
** (pcs, a pair of them), and the kind.  Keys are kept in ck_dev.keys; a
** map from their hash leads to the first with that hash, and the others
** chain through next. */
typedef struct ck_key {
    uint64_t kh, a, b;
    uint32_t kind;
    uint32_t next;            /* 1 + index of the next key with the same hash, 0: none */
    uint32_t gen, grp;        /* races: the launch (ck_dev.gen) and 1 + group of its report there */
} ck_key;

/* A set of 64-bit values (value + 1 stored; 0 is empty). */
typedef struct ck_set {
    uint64_t *v;
    uint32_t n, cap;
} ck_set;

/* A race report being gathered: the group's key, its first finding, counts. */
typedef struct ck_group {
    exec_check_kind kind;
    const char *what, *space;
    uint64_t src[2][2];       /* the two sides' source lines (ck_src), in key order */
    uint32_t first;           /* index in ck_dev.launch */
    uint32_t npairs;
    uint64_t occ;
    ck_set addrs, threads;
} ck_group;

struct ck_dev {
    ck_key *keys;             /* every finding's key, in order of finding */
    uint32_t nkeys, capkeys;
    tp_map keyidx;            /* key_hash -> 1 + index in keys of the first with that hash */
    uint64_t findings[EXEC_CHECK_KINDS], occ[EXEC_CHECK_KINDS], reports[EXEC_CHECK_KINDS];
    uint32_t launch_counts[EXEC_CHECK_KINDS];
    uint64_t printed;
    bool limit_noted;
    exec_finding *launch;     /* this launch's findings */
    uint32_t nlaunch, caplaunch;
    uint32_t gen;             /* launches seen (groups belong to one) */
    ck_group *groups;         /* this launch's race reports */
    uint32_t ngroups, capgroups;
    exec_report *rep;         /* this launch's reports as made */
    uint32_t nrep, caprep;
    uint32_t pending_key;     /* the key ck_occurrence just made (index in keys) */
    ck_occ pending;           /* ... and its occurrence */
    bool has_pending;
};

const char *exec_check_kind_name(exec_check_kind k)
{
    switch (k) {
    case EXEC_CHECK_RACE: return "race";
    case EXEC_CHECK_RACE_INTRAWARP: return "race_intrawarp";
    case EXEC_CHECK_INIT: return "init";
    case EXEC_CHECK_SYNC: return "sync";
    default: return "?";
    }
}

uint32_t exec_check_flags(const exec_dev *d)
{
    const tp_opts *o = &d->opts;
    uint32_t f = 0;
    if (tp_opt_i(o, OPT_CHECK_RACE)) f |= EXEC_CK_RACE;
    if (tp_opt_i(o, OPT_CHECK_RACE_INTRAWARP)) f |= EXEC_CK_RACE | EXEC_CK_INTRAWARP;
    if (tp_opt_i(o, OPT_CHECK_INIT)) f |= EXEC_CK_INIT;
    if (tp_opt_i(o, OPT_CHECK_SYNC)) f |= EXEC_CK_SYNC;
    return f;
}

static struct ck_dev *dev_state(exec_dev *d)
{
    if (!d->ck) d->ck = tp_calloc(1, sizeof *d->ck);
    return d->ck;
}

static void set_free(ck_set *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}

static void set_add(ck_set *t, uint64_t x)
{
    x++;
    if ((t->n + 1) * 2 > t->cap) {
        uint32_t ncap = t->cap ? t->cap * 2 : 64;
        uint64_t *nv = tp_calloc(ncap, sizeof *nv);
        for (uint32_t i = 0; i < t->cap; i++) {
            if (!t->v[i]) continue;
            uint32_t j = (uint32_t)((t->v[i] * 0x9e3779b97f4a7c15ull) >> 32) & (ncap - 1);
            while (nv[j]) j = (j + 1) & (ncap - 1);
            nv[j] = t->v[i];
        }
        free(t->v);
        t->v = nv;
        t->cap = ncap;
    }
    uint32_t j = (uint32_t)((x * 0x9e3779b97f4a7c15ull) >> 32) & (t->cap - 1);
    for (; t->v[j]; j = (j + 1) & (t->cap - 1))
        if (t->v[j] == x) return;
    t->v[j] = x;
    t->n++;
}

static void groups_clear(struct ck_dev *s)
{
    for (uint32_t i = 0; i < s->ngroups; i++) {
        set_free(&s->groups[i].addrs);
        set_free(&s->groups[i].threads);
    }
    s->ngroups = 0;
}

static void launch_clear(struct ck_dev *s)
{
    for (uint32_t i = 0; i < s->nlaunch; i++) free(s->launch[i].text);
    s->nlaunch = 0;
    for (uint32_t i = 0; i < s->nrep; i++) free(s->rep[i].text);
    s->nrep = 0;
    groups_clear(s);
    memset(s->launch_counts, 0, sizeof s->launch_counts);
}

const exec_finding *exec_check_findings(const exec_dev *d, uint32_t *n)
{
    *n = d->ck ? d->ck->nlaunch : 0;
    return d->ck ? d->ck->launch : NULL;
}

const exec_report *exec_check_reports(const exec_dev *d, uint32_t *n)
{
    *n = d->ck ? d->ck->nrep : 0;
    return d->ck ? d->ck->rep : NULL;
}

void exec_check_report_totals(const exec_dev *d, uint64_t reports[EXEC_CHECK_KINDS])
{
    for (int k = 0; k < EXEC_CHECK_KINDS; k++) reports[k] = d->ck ? d->ck->reports[k] : 0;
}

void exec_check_totals(const exec_dev *d, uint64_t findings[EXEC_CHECK_KINDS], uint64_t occurrences[EXEC_CHECK_KINDS])
{
    for (int k = 0; k < EXEC_CHECK_KINDS; k++) {
        if (findings) findings[k] = d->ck ? d->ck->findings[k] : 0;
        if (occurrences) occurrences[k] = d->ck ? d->ck->occ[k] : 0;
    }
}

void exec_check_dev_free(exec_dev *d)
{
    if (d->ck) {
        launch_clear(d->ck);
        free(d->ck->launch);
        free(d->ck->groups);
        free(d->ck->rep);
        free(d->ck->keys);
        tp_map_free(&d->ck->keyidx);
        free(d->ck);
        d->ck = NULL;
    }
    ik_dev_free(d);
    rk_dev_free(d);
}

/* ---- launch boundaries ------------------------------------------------------------ */

void exec_check_grid_open(exec_grid *g)
{
    uint32_t f = exec_check_flags(g->dev);
    if (f && (g->ncta > UINT32_MAX / (g->cta_warps ? g->cta_warps : 1))) {
        /* warps are numbered in 32 bits in the race shadow */
        if (f & EXEC_CK_RACE)
            fprintf(stderr, "tpsim: racecheck: kernel '%s': %llu blocks are too many; this launch is not checked for races\n",
                    g->kf->name, (unsigned long long)g->ncta);
        f &= ~(uint32_t)(EXEC_CK_RACE | EXEC_CK_INTRAWARP);
    }
    g->checks = (uint8_t)f;
    g->conv_hook = (uint8_t)(g->its || f);
    g->x0.mem_hook = f != 0;
    if (g->dev->ck) {
        launch_clear(g->dev->ck);   /* exec_check_findings: this launch's */
        g->dev->ck->gen++;
    }
    if (!f) return;
    if (f & EXEC_CK_RACE) rk_grid_open(g);
}

static void report_done(exec_grid *g, exec_check_kind kind, const char *text, uint32_t findings, const ck_group *grp);

/* The launch's race reports, in the order their first findings came. */
static void flush_groups(exec_grid *g, struct ck_dev *s)
{
    for (uint32_t i = 0; i < s->ngroups; i++) {
        const ck_group *gr = &s->groups[i];
        tp_sbuf t;
        tp_sbuf_init(&t);
        tp_sbuf_puts(&t, s->launch[gr->first].text);
        tp_sbuf_printf(&t, "\n    in all: %u instruction pair%s%s, %u address%s, %u thread%s, %llu conflicting access%s",
                       gr->npairs, gr->npairs == 1 ? "" : "s", gr->npairs == 1 ? "" : " on these source lines",
                       gr->addrs.n, gr->addrs.n == 1 ? "" : "es", gr->threads.n, gr->threads.n == 1 ? "" : "s",
                       (unsigned long long)gr->occ, gr->occ == 1 ? "" : "es");
        report_done(g, gr->kind, tp_sbuf_str(&t), gr->npairs, gr);
        tp_sbuf_free(&t);
    }
    groups_clear(s);
}

void exec_check_grid_close(exec_grid *g, exec_result *r)
{
    if (!g->checks) return;
    struct ck_dev *s = dev_state(g->dev);
    flush_groups(g, s);
    for (int k = 0; k < EXEC_CHECK_KINDS; k++) r->findings[k] = s->launch_counts[k];
    if (g->rk) rk_grid_close(g);
}

void exec_check_cta_start(exec_cta *c)
{
    if (c->g->checks & EXEC_CK_RACE) rk_cta_start(c);
    if (c->g->checks & EXEC_CK_SYNC) sk_cta_start(c);
}

void exec_check_warp_free(exec_warp *w) { rk_warp_free(w); }

void exec_check_cta_free(exec_cta *c)
{
    rk_cta_free(c);
    sk_cta_free(c);
}

void exec_check_mem_freed(exec_dev *d, uint64_t base, uint64_t size) { ik_freed(d, base, size); }

void exec_check_heap_free(exec_grid *g, uint64_t base, uint64_t size)
{
    g->ck_lo = g->ck_hi = 0;   /* the allocation table changes */
    if (g->rk) rk_forget(g, base, size);
}

/* ---- the hooks ----------------------------------------------------------------------- */

/* A strong (morally strong, in the PTX memory model's words) non-atomic
** access: .relaxed, .acquire, .release, .volatile, .mmio. */
static bool is_strong(const ptx_insn *in)
{
    switch (in->m.sem) {
    case PTX_SEM_RELAXED:
    case PTX_SEM_ACQUIRE:
    case PTX_SEM_RELEASE:
    case PTX_SEM_ACQ_REL:
    case PTX_SEM_SC:
    case PTX_SEM_VOLATILE:
    case PTX_SEM_MMIO: return true;
    default: return false;
    }
}

/* The lane's space and address (generic addresses resolved through the
** windows), and whether the access lies in memory the checks cover: a live
** global allocation (*track: its initcheck serial, 0 if untracked) or the
** CTA's shared memory.  The last allocation hit is cached by value (device
** malloc may move the allocation table during a launch). */
static bool resolve(exec_warp *w, int space, uint64_t addr, unsigned size, uint8_t *sp, uint64_t *ad, uint32_t *track)
{
    if (space == PTX_SP_GENERIC) {
        if (addr - EXEC_WIN_SHARED < EXEC_WIN_SIZE) space = PTX_SP_SHARED, addr -= EXEC_WIN_SHARED;
        else if (addr - EXEC_WIN_LOCAL < EXEC_WIN_SIZE) return false;
        else if (addr - EXEC_WIN_PARAM < EXEC_WIN_SIZE) return false;
        else space = PTX_SP_GLOBAL;
    }
    *sp = (uint8_t)space;
    *ad = addr;
    *track = 0;
    if (space == PTX_SP_SHARED) return addr < w->cta->shsize && size <= w->cta->shsize - addr;
    if (space != PTX_SP_GLOBAL) return false;
    exec_grid *g = w->g;
    if (!(addr >= g->ck_lo && addr < g->ck_hi && size <= g->ck_hi - addr)) {
        const exec_alloc *a = exec_mem_lookup(g->dev, addr, size);
        if (!a) return false;
        g->ck_lo = a->base;
        g->ck_hi = a->base + a->size;
        g->ck_track = a->track;
    }
    *track = g->ck_track;
    return true;
}

void exec_check_mem(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, int space, uint32_t m,
                    const uint64_t *addr)
{
    if (space != PTX_SP_GLOBAL && space != PTX_SP_SHARED && space != PTX_SP_GENERIC) return;   /* local, const, param */
    exec_grid *g = w->g;
    uint32_t ck = g->checks;
    int op = in->op;
    bool atomic = op == PTX_OP_ATOM || op == PTX_OP_RED;
    bool reads = op != PTX_OP_ST && op != PTX_OP_RED;
    bool writes = op == PTX_OP_ST || atomic;
    unsigned size = d->size * (in->m.vec ? in->m.vec : 1);
    bool strong = !atomic && is_strong(in);
    uint32_t pc = exec_check_pc(w, in);
    uint8_t sp[32];
    uint64_t adbuf[32];
    uint32_t tr[32];
    const uint64_t *ad = addr;
    uint32_t ok = 0;
    /* Which lanes touch covered memory.  The fast path: a global or shared
    ** access (or a generic one outside the shared, local and parameter
    ** windows) whose lanes all lie inside one allocation (the one hit last)
    ** or the CTA's shared memory; otherwise lane by lane. */
    uint64_t lo = UINT64_MAX, hi = 0;
    EXEC_LANES(m, {
        uint64_t a = addr[l];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    });
    if (space == PTX_SP_GENERIC && (lo >= EXEC_WIN_PARAM + EXEC_WIN_SIZE || hi < EXEC_WIN_SHARED)) space = PTX_SP_GLOBAL;
    if (space == PTX_SP_GLOBAL || space == PTX_SP_SHARED) {
        bool inside;
        if (space == PTX_SP_SHARED) {
            inside = hi < w->cta->shsize && size <= w->cta->shsize - hi;
        } else {
            uint8_t s1;
            uint64_t a1;
            uint32_t t1;
            if (!(lo >= g->ck_lo && lo < g->ck_hi)) resolve(w, space, lo, size, &s1, &a1, &t1);
            inside = lo >= g->ck_lo && hi < g->ck_hi && size <= g->ck_hi - hi;
        }
        if (inside) {
            ok = m;
            memset(sp, space, sizeof sp);
            uint32_t t = space == PTX_SP_GLOBAL ? g->ck_track : 0;
            if (t && (ck & EXEC_CK_INIT)) EXEC_LANES(m, tr[l] = t);
            else memset(tr, 0, sizeof tr);
        }
    }
    if (!ok) {
        EXEC_LANES(m, if (resolve(w, space, addr[l], size, &sp[l], &adbuf[l], &tr[l])) ok |= 1u << l);
        ad = adbuf;
    }
    if (!ok) return;
    if (ck & EXEC_CK_RACE) {
        /* Synchronization: an atom, or a strong load, acquires what was
        ** released to its location; an atom/red or a strong store releases
        ** (docs/CHECKS.md: which are exact and which lenient). */
        bool acq = op == PTX_OP_ATOM || (strong && reads);
        bool rel = atomic || (strong && writes);
        if (acq) EXEC_LANES(ok, rk_acquire(w, sp[l], ad[l]));
        if (!atomic) rk_accesses(w, pc, ok, sp, ad, size, writes, strong);
        if (rel) {
            bool publish = in->m.sem == PTX_SEM_RELEASE || in->m.sem == PTX_SEM_ACQ_REL || in->m.sem == PTX_SEM_SC;
            EXEC_LANES(ok, rk_release(w, sp[l], ad[l], publish));
        }
    }
    if (ck & EXEC_CK_INIT) {
        EXEC_LANES(ok, {
            if (tr[l]) {
                if (reads) ik_read(w, l, pc, ad[l], size, tr[l]);
                if (writes) ik_write(g->dev, ad[l], size);
            }
        });
    }
}

void exec_check_lane(exec_warp *w, const ptx_insn *in, int lane, int space, uint64_t addr, unsigned size, bool write)
{
    if (space != PTX_SP_GLOBAL && space != PTX_SP_SHARED && space != PTX_SP_GENERIC) return;
    uint8_t sp[32];
    uint64_t ad[32];
    uint32_t track, pc = exec_check_pc(w, in);
    if (!resolve(w, space, addr, size, &sp[lane], &ad[lane], &track)) return;
    if (w->g->checks & EXEC_CK_RACE) rk_accesses(w, pc, 1u << lane, sp, ad, size, write, false);
    if ((w->g->checks & EXEC_CK_INIT) && track) {
        if (write) ik_write(w->g->dev, ad[lane], size);
        else ik_read(w, lane, pc, ad[lane], size, track);
    }
}

void exec_check_fence(exec_warp *w, const ptx_insn *in, uint32_t m)
{
    (void)in;
    (void)m;
    if (w->g->checks & EXEC_CK_RACE) rk_fence(w);
}

void exec_check_bar(exec_warp *w, const ptx_insn *in, uint32_t id, uint32_t count, bool arrive, uint32_t m)
{
    if (w->g->checks & EXEC_CK_RACE) rk_bar_arrive(w, id, arrive);
    if (w->g->checks & EXEC_CK_SYNC) sk_bar(w, in, id, count, m);
}

void exec_check_bar_release(exec_cta *c, uint32_t id)
{
    if (c->g->checks & EXEC_CK_RACE) rk_bar_release(c, id);
    if (c->g->checks & EXEC_CK_SYNC) sk_bar_release(c, id);
}

void exec_check_conv(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    bool warpsync = (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) && in->m.sub == PTX_SUB_WARPSYNC;
    if (warpsync && (w->g->checks & EXEC_CK_RACE)) rk_warpsync(w);
    if (w->g->checks & EXEC_CK_SYNC) sk_conv(w, in, d, m);
}

/* ---- findings ------------------------------------------------------------------------ */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

static uint64_t key_hash(const ck_key *k)
{
    uint64_t h = k->kh ^ (k->a * 0x9e3779b97f4a7c15ull) ^ (k->b * 0xc2b2ae3d27d4eb4full) ^ k->kind;
    h ^= h >> 29;
    return h * 0xbf58476d1ce4e5b9ull;
}

/* Adds k unless an equal key is there; false if it was.  *idx: its index in
** s->keys. */
static bool key_insert(struct ck_dev *s, const ck_key *k, uint32_t *idx)
{
    bool added;
    uint64_t *first = tp_map_ref(&s->keyidx, key_hash(k), &added);
    for (uint32_t i = (uint32_t)*first; i; i = s->keys[i - 1].next) {
        const ck_key *o = &s->keys[i - 1];
        if (o->kh == k->kh && o->a == k->a && o->b == k->b && o->kind == k->kind) {
            *idx = i - 1;
            return false;
        }
    }
    if (s->nkeys == s->capkeys) {
        s->capkeys = s->capkeys ? s->capkeys * 2 : 256;
        s->keys = tp_realloc(s->keys, s->capkeys * sizeof *s->keys);
    }
    ck_key *n = &s->keys[s->nkeys];
    *n = *k;
    n->next = (uint32_t)*first;
    *first = ++s->nkeys;
    *idx = s->nkeys - 1;
    return true;
}

static void group_add(ck_group *gr, const ck_occ *o)
{
    gr->occ++;
    set_add(&gr->addrs, o->addr);
    set_add(&gr->threads, o->thread[0]);
    set_add(&gr->threads, o->thread[1]);
}

bool ck_occurrence(exec_grid *g, exec_check_kind kind, uint64_t a, uint64_t b, const ck_occ *o)
{
    struct ck_dev *s = dev_state(g->dev);
    s->occ[kind]++;
    ck_key k = {hash_str(g->kf->name), a, b, (uint32_t)kind, 0, 0, 0};
    uint32_t ki;
    if (!key_insert(s, &k, &ki)) {
        const ck_key *f = &s->keys[ki];
        if (o && f->grp && f->gen == s->gen) group_add(&s->groups[f->grp - 1], o);
        return false;
    }
    s->findings[kind]++;
    s->pending_key = ki;
    s->has_pending = o != NULL;
    if (o) s->pending = *o;
    return true;
}

/* An instruction's source line for grouping race reports: (file, line) and
** the (file, line) it was inlined at; without a .loc, the pc itself. */
static void ck_src(const exec_grid *g, uint32_t pc, uint64_t key[2])
{
    const ptx_module *p = g->m->ptx;
    const ptx_insn *in = pc < p->ninsns ? &p->insns[pc] : NULL;
    if (!in || !in->srcline || in->srcfile >= p->nfiles || !p->files[in->srcfile]) {
        key[0] = 1ull << 63 | pc;
        key[1] = 0;
        return;
    }
    const ptx_srcloc *call = p->inlined_at ? &p->inlined_at[pc] : NULL;
    key[0] = (uint64_t)in->srcfile << 32 | in->srcline;
    key[1] = call ? (uint64_t)call->file << 32 | call->line : 0;
}

/* The launch's group for a new race finding (made if new). */
static uint32_t group_of(exec_grid *g, struct ck_dev *s, exec_check_kind kind, const char *what, const char *space,
                         uint32_t pc0, uint32_t pc1)
{
    uint64_t k0[2], k1[2];
    ck_src(g, pc0, k0);
    ck_src(g, pc1, k1);
    if (k1[0] < k0[0] || (k1[0] == k0[0] && k1[1] < k0[1])) {
        uint64_t t0 = k0[0], t1 = k0[1];
        k0[0] = k1[0], k0[1] = k1[1], k1[0] = t0, k1[1] = t1;
    }
    for (uint32_t i = 0; i < s->ngroups; i++) {
        const ck_group *gr = &s->groups[i];
        if (gr->kind == kind && !strcmp(gr->what, what) && !strcmp(gr->space, space) && gr->src[0][0] == k0[0] &&
            gr->src[0][1] == k0[1] && gr->src[1][0] == k1[0] && gr->src[1][1] == k1[1])
            return i;
    }
    if (s->ngroups == s->capgroups) {
        s->capgroups = s->capgroups ? s->capgroups * 2 : 8;
        s->groups = tp_realloc(s->groups, s->capgroups * sizeof *s->groups);
    }
    ck_group *gr = &s->groups[s->ngroups];
    memset(gr, 0, sizeof *gr);
    gr->kind = kind;
    gr->what = what;
    gr->space = space;
    gr->src[0][0] = k0[0], gr->src[0][1] = k0[1], gr->src[1][0] = k1[0], gr->src[1][1] = k1[1];
    gr->first = s->nlaunch - 1;
    return s->ngroups++;
}

/* Keeps a report of this launch and prints it (within check.print_limit). */
static void report_done(exec_grid *g, exec_check_kind kind, const char *text, uint32_t findings, const ck_group *grp)
{
    struct ck_dev *s = dev_state(g->dev);
    if (s->nrep == s->caprep) {
        s->caprep = s->caprep ? s->caprep * 2 : 16;
        s->rep = tp_realloc(s->rep, s->caprep * sizeof *s->rep);
    }
    exec_report *r = &s->rep[s->nrep++];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->findings = findings;
    if (grp) {
        r->addresses = grp->addrs.n;
        r->threads = grp->threads.n;
        r->occurrences = grp->occ;
    }
    r->text = tp_strdup(text);
    s->reports[kind]++;
    uint64_t limit = (uint64_t)tp_opt_i(&g->dev->opts, OPT_CHECK_PRINT_LIMIT);
    const char *word = kind == EXEC_CHECK_INIT ? "init" : kind == EXEC_CHECK_SYNC ? "sync" : "race";
    if (!limit || s->printed < limit) {
        s->printed++;
        fprintf(stderr, "tpsim: %s: %s\n", word, text);
    } else if (!s->limit_noted) {
        s->limit_noted = true;
        fprintf(stderr, "tpsim: %s: check.print_limit (%llu) reached: further findings are counted, not printed\n", word,
                (unsigned long long)limit);
    }
}

void ck_emit(exec_grid *g, exec_check_kind kind, const char *what, const char *space, uint32_t pc0, uint32_t pc1,
             uint64_t addr, const char *text)
{
    struct ck_dev *s = dev_state(g->dev);
    if (s->nlaunch == s->caplaunch) {
        s->caplaunch = s->caplaunch ? s->caplaunch * 2 : 16;
        s->launch = tp_realloc(s->launch, s->caplaunch * sizeof *s->launch);
    }
    exec_finding *f = &s->launch[s->nlaunch++];
    f->kind = kind;
    f->what = what;
    f->space = space ? space : "";
    f->pc[0] = ck_fpc(g, pc0);
    f->pc[1] = ck_fpc(g, pc1);
    f->addr = addr;
    f->text = tp_strdup(text);
    s->launch_counts[kind]++;
    if (kind == EXEC_CHECK_RACE || kind == EXEC_CHECK_RACE_INTRAWARP) {
        uint32_t gi = group_of(g, s, kind, f->what, f->space, pc0, pc1);
        ck_group *gr = &s->groups[gi];
        gr->npairs++;
        if (s->has_pending) group_add(gr, &s->pending);
        s->keys[s->pending_key].gen = s->gen;
        s->keys[s->pending_key].grp = gi + 1;
        s->has_pending = false;
        return;
    }
    report_done(g, kind, text, 1, NULL);
}

/* ---- text ------------------------------------------------------------------------------ */

uint32_t ck_fpc(const exec_grid *g, uint32_t pc)
{
    const ptx_func *f = ptx_func_of_pc(g->m->ptx, pc);
    return f && pc >= f->start ? pc - f->start : pc;
}

void ck_thread(const exec_grid *g, uint64_t gwarp, int lane, tp_sbuf *b)
{
    uint64_t cta = gwarp / g->cta_warps;
    uint32_t t = (uint32_t)(gwarp % g->cta_warps) * 32 + (uint32_t)lane;
    const uint32_t *gd = g->l.grid, *bd = g->l.block;
    tp_sbuf_printf(b, "block (%u,%u,%u) thread (%u,%u,%u)", (uint32_t)(cta % gd[0]), (uint32_t)(cta / gd[0] % gd[1]),
                   (uint32_t)(cta / ((uint64_t)gd[0] * gd[1])), t % bd[0], t / bd[0] % bd[1], t / (bd[0] * bd[1]));
}

void ck_pc(const exec_grid *g, uint32_t pc, tp_sbuf *b) { exec_describe_pc(g->m, pc, b); }

void ck_side_text(const exec_grid *g, const ck_side *s, tp_sbuf *b)
{
    if (*s->op) tp_sbuf_printf(b, "    %-5s by ", s->op);
    else tp_sbuf_puts(b, "    ");
    ck_thread(g, s->gwarp, s->lane, b);
    tp_sbuf_printf(b, " (warp %u, lane %d), ", (uint32_t)(s->gwarp % g->cta_warps), s->lane);
    ck_pc(g, s->pc, b);
}

void ck_global_addr(const exec_grid *g, uint64_t addr, tp_sbuf *b)
{
    uint64_t base, bytes;
    tp_sbuf_printf(b, "global address 0x%llx", (unsigned long long)addr);
    if (exec_mem_find(g->dev, addr, &base, &bytes)) {
        /* name a module variable if it is one */
        const ptx_module *p = g->m->ptx;
        for (uint32_t i = 0; i < p->nvars; i++)
            if (g->m->var_addr[i] == base) {
                tp_sbuf_printf(b, " ('%s' + %llu)", p->vars[i].name, (unsigned long long)(addr - base));
                return;
            }
        tp_sbuf_printf(b, " (the %llu-byte allocation at 0x%llx + %llu)", (unsigned long long)bytes,
                       (unsigned long long)base, (unsigned long long)(addr - base));
    }
}

void ck_shared_addr(const exec_grid *g, uint64_t off, tp_sbuf *b)
{
    tp_sbuf_printf(b, "shared address 0x%llx", (unsigned long long)off);
    const ptx_module *p = g->m->ptx;
    const exec_kinfo *ki = g->ki;
    for (uint32_t i = 0; i < p->nvars; i++) {
        const ptx_var *v = &p->vars[i];
        if ((v->space != PTX_SP_SHARED && v->space != PTX_SP_SHARED_CLUSTER) || v->is_extern || v->is_array_unsized)
            continue;
        if (off >= ki->shared_off[i] && off - ki->shared_off[i] < v->size) {
            tp_sbuf_printf(b, " ('%s' + %llu)", v->name, (unsigned long long)(off - ki->shared_off[i]));
            return;
        }
    }
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        if (!ki->fvar_off || !ki->fvar_off[f]) continue;
        const ptx_func *fn = &p->funcs[f];
        for (uint32_t i = 0; i < fn->nvars; i++) {
            const ptx_var *v = &fn->vars[i];
            if ((v->space != PTX_SP_SHARED && v->space != PTX_SP_SHARED_CLUSTER) || v->is_extern ||
                v->is_array_unsized)
                continue;
            if (off >= ki->fvar_off[f][i] && off - ki->fvar_off[f][i] < v->size) {
                tp_sbuf_printf(b, " ('%s' + %llu)", v->name, (unsigned long long)(off - ki->fvar_off[f][i]));
                return;
            }
        }
    }
    if (ki->uses_dynamic && off >= ki->dyn_base)
        tp_sbuf_printf(b, " (dynamic shared memory + %llu)", (unsigned long long)(off - ki->dyn_base));
}
