/*
** check_race.c -- racecheck: a happens-before data-race detector over shared
** and global memory (options check.race, check.race_intrawarp).
**
** Two accesses to the same byte race when at least one writes, they come
** from different threads, neither is an atomic, not both are strong
** (.relaxed/.acquire/.release/.volatile: "morally strong" in the PTX memory
** model; this exemption is for threads of different warps only), and
** nothing orders them.  docs/CHECKS.md explains the model; in
** short:
**
** Threads.  Happens-before is kept per warp: the lanes of a warp are one
** sequence of instructions.  Two lanes of one warp are ordered when a
** __syncwarp (bar.warp.sync), a barrier or a fence of the warp lies between
** their accesses; otherwise their conflict is an intra-warp race, a kind
** of its own, reported only with check.race_intrawarp=1.
**
** Clocks.  Each warp has a clock, stamped on its accesses and advanced at
** every barrier, __syncwarp and publication.  Within a CTA a warp knows the
** clocks of its CTA's warps up to a vector (at most 32 entries): a barrier
** joins the vectors of the warps that arrive (bar.arrive contributes
** without waiting) and gives the join to those that wait.
**
** Publications.  Ordering across CTAs goes through one sequence per launch:
** a warp *publishes* what it knows (its clock and its vector) at a fence or a
** release, and the publication gets the next number.  Each warp's history
** lists (clock, number) pairs: "clock k of this warp was published as
** number n".  A warp that acquires number n knows every publication up to
** n.  So an access stamped (warp a, clock k) is ordered before warp b's
** present when a is b's CTA-mate with k <= b's vector[a], or when a's first
** publication of a clock >= k has a number <= what b acquired.  Treating
** everything published earlier as acquired too makes the detector miss
** some races, never invent one.
**
** What publishes and acquires:
**   fence / membar          acquires every publication so far, then publishes
**                           (fences as fence.sc: they are totally ordered);
**   atom.release/.acq_rel,
**   st.release, red.release publishes; the location remembers the number;
**   atom, red, st.relaxed/
**   .volatile (no release)  the location remembers the warp's last
**                           publication (a fence before a relaxed write is
**                           the PTX "release pattern");
**   atom (any), ld.acquire,
**   ld.relaxed/.volatile    acquires the number the location remembers
**                           (lenient for relaxed/volatile reads and relaxed
**                           atoms: the PTX model wants a fence after them).
** A cooperative grid's grid.sync() (atom.release + ld.acquire on its
** workspace, between barriers) orders the whole grid this way.  A kernel
** boundary orders everything: the shadow lives for one launch.
**
** Shadow.  Every 4-byte word of memory touched has a cell: the last write
** and up to two reads (warp, clock, pc, lane, strong).  An access of whole
** words uses the word's cell; a 1- or 2-byte access splits the word into
** four byte cells for good.  A write checks the write and the reads, then
** replaces them; a read checks the write and takes a read slot from a
** read it is ordered after (two slots keep a reader other than a later
** writer).  Global memory has a page (1 KiB of memory) per page touched, in
** a hash table; shared memory a page array per CTA slot, cleared lazily
** when a new CTA touches it.
*/
#include "check.h"
#include "../base/map.h"
#include <stdio.h>
#include <stdlib.h>

enum {
    RK_PAGE_BITS = 10,                      /* bytes of memory per shadow page: 1 KiB */
    RK_PWORDS = 1 << (RK_PAGE_BITS - 2),
    RK_STRONG = 1u << 0,                    /* rk_rec.pcl flags */
    RK_PC_MAX = (1 << 24) - 1,
};

/* An access: warp (exec_check_gwarp + 1; 0: none), its clock, and
** pc << 8 | lane << 3 | flags. */
typedef struct rk_rec {
    uint32_t warp, clock, pcl;
} rk_rec;

typedef struct rk_cell {
    rk_rec w, r[2];
} rk_cell;

typedef struct rk_page {
    uint64_t tag;                 /* shared pages: the CTA that owns the contents */
    uint16_t split[RK_PWORDS];    /* 1 + group in bytes[] for a word split into byte cells; 0: whole */
    rk_cell *bytes;               /* groups of 4 byte cells */
    uint32_t nbytes, capbytes;    /* groups */
    rk_cell cell[RK_PWORDS];
} rk_page;

typedef struct rk_hist {
    uint64_t *e;                  /* clock << 32 | publication number; both increasing */
    uint32_t n, cap;
} rk_hist;


struct rk_warp {
    uint32_t clock;               /* stamped on accesses */
    uint32_t gidx;                /* publications known: numbers 1..gidx */
    uint32_t lastpub;             /* this warp's last publication (0: none) */
    bool dirty;                   /* accessed memory or learned something since lastpub */
    uint32_t vc[32];              /* known clocks of the CTA's warps; vc[wid] == clock */
};

typedef struct rk_bar {
    uint32_t vc[32];
    uint32_t gidx;
} rk_bar;

struct rk_cta {
    uint32_t nw;                  /* warps */
    uint32_t base1;               /* rk_rec.warp of its warp 0 */
    uint64_t tag;                 /* launch and CTA: owner tag of its shared pages */
    rk_bar bar[EXEC_NBAR];
    uint32_t hist[32];            /* 1 + history index of each warp (0: not looked up yet) */
    rk_page **sh;                 /* shared memory pages */
    uint32_t nsh;
};

struct rk_grid {
    bool intrawarp;
    uint32_t pubcount;            /* publications so far */
    tp_map hidx;                  /* warp (record form) -> 1 + index in hists */
    rk_hist *hists;
    uint32_t nhists, caphists;
    tp_map sync;                  /* location -> number released to it */
    tp_map pages;                 /* global page number -> rk_page* */
    uint64_t last_pn;
    rk_page *last_page;
};

/* ---- launch, CTA, warp state -------------------------------------------------------- */

void rk_grid_open(exec_grid *g)
{
    struct rk_grid *s = tp_calloc(1, sizeof *s);
    s->intrawarp = (g->checks & EXEC_CK_INTRAWARP) != 0;
    s->last_pn = UINT64_MAX;
    g->rk = s;
}

/* Global-memory pages a launch gave back, kept by the device for the next
** launches (no page faults for memory already touched once; at most the
** most a launch used). */
typedef struct rk_pool {
    rk_page **a;
    uint32_t n, cap;
} rk_pool;

static void page_free(rk_page *p)
{
    if (!p) return;
    free(p->bytes);
    free(p);
}

static void page_release(exec_dev *d, rk_page *p)
{
    if (!d->rkpool) d->rkpool = tp_calloc(1, sizeof(rk_pool));
    rk_pool *pl = d->rkpool;
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? pl->cap * 2 : 256;
        pl->a = tp_realloc(pl->a, pl->cap * sizeof *pl->a);
    }
    pl->a[pl->n++] = p;
}

void rk_dev_free(exec_dev *d)
{
    rk_pool *pl = d->rkpool;
    if (!pl) return;
    for (uint32_t i = 0; i < pl->n; i++) page_free(pl->a[i]);
    free(pl->a);
    free(pl);
    d->rkpool = NULL;
}

void rk_grid_close(exec_grid *g)
{
    struct rk_grid *s = g->rk;
    if (!s) return;
    uint64_t p;
    for (uint32_t pos = 0; tp_map_next(&s->pages, &pos, NULL, &p);) page_release(g->dev, (rk_page *)(uintptr_t)p);
    tp_map_free(&s->pages);
    tp_map_free(&s->sync);
    tp_map_free(&s->hidx);
    for (uint32_t i = 0; i < s->nhists; i++) free(s->hists[i].e);
    free(s->hists);
    free(s);
    g->rk = NULL;
}

void rk_cta_start(exec_cta *c)
{
    exec_grid *g = c->g;
    if (!c->rk) c->rk = tp_calloc(1, sizeof *c->rk);
    struct rk_cta *ct = c->rk;
    ct->nw = c->nwarps;
    ct->base1 = (uint32_t)(c->linear * g->cta_warps) + 1;
    ct->tag = g->gridid << 32 | (c->linear & 0xffffffffu);
    memset(ct->bar, 0, sizeof ct->bar);
    memset(ct->hist, 0, sizeof ct->hist);
    uint32_t npages = (c->shsize + (1u << RK_PAGE_BITS) - 1) >> RK_PAGE_BITS;
    if (npages > ct->nsh) {
        ct->sh = tp_realloc(ct->sh, npages * sizeof *ct->sh);
        memset(ct->sh + ct->nsh, 0, (npages - ct->nsh) * sizeof *ct->sh);
        ct->nsh = npages;
    }
    for (uint32_t i = 0; i < c->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        if (!w->rk) w->rk = tp_malloc(sizeof *w->rk);
        memset(w->rk, 0, sizeof *w->rk);
        w->rk->clock = 1;
        w->rk->vc[i] = 1;
    }
}

void rk_cta_free(exec_cta *c)
{
    struct rk_cta *ct = c->rk;
    if (!ct) return;
    for (uint32_t i = 0; i < ct->nsh; i++) page_free(ct->sh[i]);
    free(ct->sh);
    free(ct);
    c->rk = NULL;
}

void rk_warp_free(exec_warp *w)
{
    free(w->rk);
    w->rk = NULL;
}

/* ---- publications ------------------------------------------------------------------- */

/* 1 + the index in s->hists of warp1's history (made empty if new). */
static uint32_t hist_index(struct rk_grid *s, uint32_t warp1)
{
    uint64_t *v = tp_map_ref(&s->hidx, warp1, NULL);
    if (!*v) {
        if (s->nhists == s->caphists) {
            s->caphists = s->caphists ? s->caphists * 2 : 64;
            s->hists = tp_realloc(s->hists, s->caphists * sizeof *s->hists);
        }
        memset(&s->hists[s->nhists], 0, sizeof *s->hists);
        *v = ++s->nhists;
    }
    return (uint32_t)*v;
}

/* The number of the first publication of warp1's clock k or later, or UINT32_MAX. */
static uint32_t published(struct rk_grid *s, uint32_t warp1, uint32_t k)
{
    uint64_t *v = tp_map_find(&s->hidx, warp1);
    if (!v) return UINT32_MAX;
    const rk_hist *h = &s->hists[*v - 1];
    uint32_t lo = 0, hi = h->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if ((uint32_t)(h->e[mid] >> 32) < k) lo = mid + 1;
        else hi = mid;
    }
    return lo < h->n ? (uint32_t)h->e[lo] : UINT32_MAX;
}

/* Publishes what w knows (if anything changed since its last publication)
** and starts a new clock. */
static void publish(exec_warp *w)
{
    struct rk_warp *wk = w->rk;
    if (!wk->dirty) return;
    struct rk_grid *s = w->g->rk;
    struct rk_cta *ct = w->cta->rk;
    uint32_t idx = ++s->pubcount;
    for (uint32_t x = 0; x < ct->nw; x++) {
        uint32_t k = wk->vc[x];
        if (!k) continue;
        if (!ct->hist[x]) ct->hist[x] = hist_index(s, ct->base1 + x);
        rk_hist *h = &s->hists[ct->hist[x] - 1];
        if (h->n && (uint32_t)(h->e[h->n - 1] >> 32) >= k) continue;
        if (h->n == h->cap) {
            h->cap = h->cap ? h->cap * 2 : 8;
            h->e = tp_realloc(h->e, h->cap * sizeof *h->e);
        }
        h->e[h->n++] = (uint64_t)k << 32 | idx;
    }
    wk->lastpub = idx;
    wk->dirty = false;
    wk->clock++;
    wk->vc[w->wid] = wk->clock;
}

static uint64_t sync_key(const exec_warp *w, int space, uint64_t addr)
{
    if (space == PTX_SP_SHARED) return 1ull << 63 | (w->cta->linear & 0xffffffffu) << 24 | (addr & 0xffffff);
    return addr;
}

void rk_acquire(exec_warp *w, int space, uint64_t addr)
{
    uint64_t *v = tp_map_find(&w->g->rk->sync, sync_key(w, space, addr));
    if (v && *v > w->rk->gidx) {
        w->rk->gidx = (uint32_t)*v;
        w->rk->dirty = true;
    }
}

void rk_release(exec_warp *w, int space, uint64_t addr, bool do_publish)
{
    if (do_publish) publish(w);
    uint32_t idx = w->rk->lastpub;
    if (!idx) return;
    uint64_t *v = tp_map_ref(&w->g->rk->sync, sync_key(w, space, addr), NULL);
    if (*v < idx) *v = idx;
}

void rk_fence(exec_warp *w)
{
    struct rk_warp *wk = w->rk;
    uint32_t all = w->g->rk->pubcount;
    if (all > wk->gidx) {
        wk->gidx = all;
        wk->dirty = true;
    }
    publish(w);
}

void rk_warpsync(exec_warp *w)
{
    w->rk->clock++;
    w->rk->vc[w->wid] = w->rk->clock;
}

void rk_bar_arrive(exec_warp *w, uint32_t id, bool arrive_only)
{
    struct rk_cta *ct = w->cta->rk;
    struct rk_warp *wk = w->rk;
    rk_bar *b = &ct->bar[id];
    for (uint32_t x = 0; x < ct->nw; x++)
        if (wk->vc[x] > b->vc[x]) b->vc[x] = wk->vc[x];
    if (wk->gidx > b->gidx) b->gidx = wk->gidx;
    if (arrive_only) rk_warpsync(w);
}

void rk_bar_release(exec_cta *c, uint32_t id)
{
    struct rk_cta *ct = c->rk;
    rk_bar *b = &ct->bar[id];
    for (uint32_t i = 0; i < c->nwarps; i++) {
        exec_warp *w = &c->warps[i];
        if (w->state != EXEC_W_BAR || w->bar_id != id) continue;
        struct rk_warp *wk = w->rk;
        for (uint32_t x = 0; x < ct->nw; x++)
            if (b->vc[x] > wk->vc[x]) wk->vc[x] = b->vc[x];
        if (b->gidx > wk->gidx) wk->gidx = b->gidx;
        wk->dirty = true;
        rk_warpsync(w);
    }
    memset(b, 0, sizeof *b);
}

/* ---- the shadow ------------------------------------------------------------------------ */

static void page_clear(rk_page *p, uint64_t tag)
{
    p->tag = tag;
    memset(p->split, 0, sizeof p->split);
    memset(p->cell, 0, sizeof p->cell);
    p->nbytes = 0;
}

/* A clear page: from the device's pool, else new. */
static rk_page *page_new(exec_dev *d)
{
    rk_pool *pl = d->rkpool;
    if (pl && pl->n) {
        rk_page *p = pl->a[--pl->n];
        page_clear(p, 0);
        return p;
    }
    return tp_calloc(1, sizeof(rk_page));
}

static rk_page *page_at(exec_warp *w, int space, uint64_t addr)
{
    if (space == PTX_SP_SHARED) {
        struct rk_cta *ct = w->cta->rk;
        uint64_t i = addr >> RK_PAGE_BITS;
        if (i >= ct->nsh) return NULL;
        rk_page *p = ct->sh[i];
        if (!p) p = ct->sh[i] = page_new(w->g->dev);
        if (p->tag != ct->tag) page_clear(p, ct->tag);
        return p;
    }
    struct rk_grid *s = w->g->rk;
    uint64_t pn = addr >> RK_PAGE_BITS;
    if (pn == s->last_pn) return s->last_page;
    uint64_t *v = tp_map_ref(&s->pages, pn + 1, NULL);
    if (!*v) *v = (uint64_t)(uintptr_t)page_new(w->g->dev);
    s->last_pn = pn;
    s->last_page = (rk_page *)(uintptr_t)*v;
    return s->last_page;
}

/* The four byte cells of word i of p (made from its word cell on first use). */
static rk_cell *split_cells(rk_page *p, uint32_t i)
{
    if (!p->split[i]) {
        if (p->nbytes == p->capbytes) {
            p->capbytes = p->capbytes ? p->capbytes * 2 : 8;
            p->bytes = tp_realloc(p->bytes, (size_t)p->capbytes * 4 * sizeof *p->bytes);
        }
        rk_cell *b = &p->bytes[(size_t)p->nbytes * 4];
        for (int k = 0; k < 4; k++) b[k] = p->cell[i];
        p->split[i] = (uint16_t)++p->nbytes;
    }
    return &p->bytes[(size_t)(p->split[i] - 1) * 4];
}

/* The access being checked. */
typedef struct rk_cur {
    exec_warp *w;
    struct rk_warp *wk;
    struct rk_grid *s;
    uint32_t warp, lane, pcl;
    uint32_t base1, nw;
    bool write, strong;
    int space;
    uint64_t addr;
    unsigned size;
} rk_cur;

/* 0: ordered (or the same thread); 1: a race; 2: an intra-warp race. */
#if defined(__GNUC__)
#define RK_INLINE static inline __attribute__((always_inline))
#define RK_COLD __attribute__((noinline, cold))
#else
#define RK_INLINE static inline
#define RK_COLD
#endif

/* The cross-warp part of order(): knowledge of a CTA-mate, then publications. */
static RK_COLD int order_other(const rk_cur *c, const rk_rec *r)
{
    uint32_t x = r->warp - c->base1;
    if (x < c->nw && c->wk->vc[x] >= r->clock) return 0;
    if (c->wk->gidx && published(c->s, r->warp, r->clock) <= c->wk->gidx) return 0;
    return 1;
}

RK_INLINE int order(const rk_cur *c, const rk_rec *r)
{
    if (r->warp == c->warp) {
        if (((r->pcl >> 3) & 31) == c->lane) return 0;
        if (c->wk->clock > r->clock || !c->s->intrawarp) return 0;
        return 2;
    }
    return order_other(c, r);
}

static RK_COLD void report(const rk_cur *c, const rk_rec *r, bool r_write, int how)
{
    exec_grid *g = c->w->g;
    uint32_t pc = c->pcl >> 8, opc = r->pcl >> 8;
    exec_check_kind kind = how == 2 ? EXEC_CHECK_RACE_INTRAWARP : EXEC_CHECK_RACE;
    uint64_t a = pc < opc ? pc : opc, b = pc < opc ? opc : pc;
    ck_occ o = {c->addr, {(uint64_t)(c->warp - 1) * 32 + c->lane, (uint64_t)(r->warp - 1) * 32 + ((r->pcl >> 3) & 31)}};
    if (!ck_occurrence(g, kind, a, b, &o)) return;
    bool ww = c->write && r_write;
    const char *what = ww ? "write-write race" : "read-write race";
    const char *space = c->space == PTX_SP_SHARED ? "shared" : "global";
    ck_side me = {c->warp - 1, (int)c->lane, pc, c->write ? (c->strong ? "strong write" : "write") : (c->strong ? "strong read" : "read")};
    ck_side other = {r->warp - 1, (int)((r->pcl >> 3) & 31), opc,
                     r_write ? ((r->pcl & RK_STRONG) ? "strong write" : "write") : ((r->pcl & RK_STRONG) ? "strong read" : "read")};
    /* in pc order (then writes first), so that which came first does not show */
    const ck_side *s0 = &me, *s1 = &other;
    if (opc < pc || (opc == pc && r_write && !c->write)) s0 = &other, s1 = &me;
    tp_sbuf t;
    tp_sbuf_init(&t);
    tp_sbuf_printf(&t, "%s%s on %s memory in kernel '%s', ", how == 2 ? "intra-warp " : "", what, space, g->kf->name);
    if (c->space == PTX_SP_SHARED) ck_shared_addr(g, c->addr, &t);
    else ck_global_addr(g, c->addr, &t);
    if (how == 2) tp_sbuf_puts(&t, "; lanes of one warp with no __syncwarp between the accesses (independent thread scheduling may reorder them)");
    tp_sbuf_putc(&t, '\n');
    ck_side_text(g, s0, &t);
    tp_sbuf_putc(&t, '\n');
    ck_side_text(g, s1, &t);
    ck_emit(g, kind, what, space, s0->pc, s1->pc, c->addr, tp_sbuf_str(&t));
    tp_sbuf_free(&t);
}

/* Two strong accesses of different warps do not race (morally strong);
** between lanes of one warp they still conflict: volatile warp-synchronous
** code needs __syncwarp under independent thread scheduling. */
RK_INLINE void check(const rk_cur *c, const rk_rec *r, bool r_write)
{
    int o = order(c, r);
    if (o == 1 && c->strong && (r->pcl & RK_STRONG)) return;
    if (o) report(c, r, r_write, o);
}

/* The access (c) to the byte or word of one cell. */
RK_INLINE void cell_op(const rk_cur *c, rk_cell *cell)
{
    rk_rec me = {c->warp, c->wk->clock, c->pcl};
    /* the common case: the last write was this thread's, or none */
    if (cell->w.warp && (cell->w.warp != c->warp || ((cell->w.pcl ^ c->pcl) & 0xf8))) check(c, &cell->w, true);
    if (c->write) {
        for (int k = 0; k < 2; k++)
            if (cell->r[k].warp) check(c, &cell->r[k], false);
        cell->w = me;
        cell->r[0].warp = cell->r[1].warp = 0;
        return;
    }
    for (int k = 0; k < 2; k++)
        if (cell->r[k].warp == c->warp && ((cell->r[k].pcl >> 3) & 31) == c->lane) {
            cell->r[k] = me;
            return;
        }
    for (int k = 0; k < 2; k++)
        if (!cell->r[k].warp) {
            cell->r[k] = me;
            return;
        }
    for (int k = 0; k < 2; k++)
        if (order(c, &cell->r[k]) == 0) {
            cell->r[k] = me;
            return;
        }
    /* both slots hold reads concurrent with this one: keep them */
}

/* One access of c's lane at c->addr (c->size bytes): whole words use their
** word cell, parts of words their byte cells. */
static void access_slow(rk_cur *c)
{
    uint64_t addr = c->addr, end = addr + c->size;
    for (uint64_t a = addr & ~3ull; a < end; a += 4) {
        rk_page *p = page_at(c->w, c->space, a);
        if (!p) return;
        uint32_t i = (uint32_t)(a >> 2) & (RK_PWORDS - 1);
        if (a >= addr && a + 4 <= end && !p->split[i]) {
            cell_op(c, &p->cell[i]);
            continue;
        }
        rk_cell *bc = split_cells(p, i);
        uint64_t lo = a < addr ? addr : a, hi = a + 4 > end ? end : a + 4;
        for (uint64_t x = lo; x < hi; x++) cell_op(c, &bc[x - a]);
    }
}

void rk_accesses(exec_warp *w, uint32_t pc, uint32_t m, const uint8_t *sp, const uint64_t *ad, unsigned size, bool write,
                 bool strong)
{
    struct rk_warp *wk = w->rk;
    struct rk_cta *ct = w->cta->rk;
    uint32_t pcl = (pc > RK_PC_MAX ? RK_PC_MAX : pc) << 8 | (strong ? RK_STRONG : 0);
    rk_cur c = {w, wk, w->g->rk, (uint32_t)exec_check_gwarp(w) + 1, 0, pcl, ct->base1, ct->nw, write, strong, 0, 0, size};
    wk->dirty = true;
    /* the page of the lane before: lanes mostly touch neighbouring words */
    rk_page *pg = NULL;
    uint64_t pg_num = UINT64_MAX;
    int pg_space = -1;
    EXEC_LANES(m, {
        uint64_t a = ad[l];
        c.lane = (uint32_t)l;
        c.pcl = pcl | (uint32_t)l << 3;
        c.space = sp[l];
        c.addr = a;
        if (size == 4 && !(a & 3)) {
            if ((a >> RK_PAGE_BITS) != pg_num || c.space != pg_space) {
                pg = page_at(w, c.space, a);
                pg_num = a >> RK_PAGE_BITS;
                pg_space = c.space;
            }
            uint32_t i = (uint32_t)(a >> 2) & (RK_PWORDS - 1);
            if (pg && !pg->split[i]) {
                cell_op(&c, &pg->cell[i]);
                continue;
            }
        }
        access_slow(&c);
    });
}

void rk_forget(exec_grid *g, uint64_t base, uint64_t size)
{
    struct rk_grid *s = g->rk;
    for (uint64_t a = base & ~3ull; a < base + size; a += 4) {
        uint64_t *v = tp_map_find(&s->pages, (a >> RK_PAGE_BITS) + 1);
        if (!v) {
            a = (((a >> RK_PAGE_BITS) + 1) << RK_PAGE_BITS) - 4;   /* to the next page */
            continue;
        }
        rk_page *p = (rk_page *)(uintptr_t)*v;
        uint32_t i = (uint32_t)(a >> 2) & (RK_PWORDS - 1);
        memset(&p->cell[i], 0, sizeof p->cell[i]);
        if (p->split[i]) memset(&p->bytes[(size_t)(p->split[i] - 1) * 4], 0, 4 * sizeof *p->bytes);
    }
}
