/*
** rfv.c -- Register File Virtualization as a register-sharing policy
** (policy.h; Jeon, Ravi, Kim, Annavaram, "GPU Register File
** Virtualization", MICRO 2015).  The paper's idea: a warp's architected
** registers are renamed onto a shared physical register file, a physical
** register is allocated when its architected register is written and freed
** after the value's last use, which the compiler marks from liveness, so
** the physical file holds only live values and more warps fit than the
** architected registers allow.  What tpsim models (docs/REGISTERS.md,
** "Register File Virtualization"):
**
**   compile    over the lowered, allocated code (its registers are the
**              architected ones): per instruction the registers live into
**              it, those it writes, those whose last use it is (live into it
**              or written by it, dead after it: the paper's release flags),
**              and at a block's first instruction those that die on the
**              edge into it (live out of a predecessor, dead in the block:
**              the paper's branch releases).  Kernels that call functions
**              are left alone (a callee's frame has its own registers).
**   occupancy  a CTA is admitted against an architected register space of
**              rfv.ratio x the physical file (device.regs_per_sm), charged
**              as without sharing; and one CTA's architected registers must
**              fit the physical file (the throttle below needs them)
**   may_issue  an instruction that writes registers not yet mapped (and a
**              warp's first, which also maps the kernel's reserve: the
**              registers ptxas keeps for itself, live throughout) needs as
**              many free physical registers; without them the warp waits
**              (issue.regmutex, rfv.stall_cycles).  Deadlock: warps that
**              all hold registers and all wait for more would wait forever
**              (and a CTA barrier makes a CTA wait for its slowest warp),
**              so the physical registers the SM's oldest CTA may still
**              need (its architected registers less those it holds) are
**              kept for it: another CTA's warp allocates only above that
**              reserve (rfv.throttle_cycles).  The oldest CTA can then
**              always finish, after which the next is the oldest and can.
**              (The paper's own throttle is described as keeping programs
**              deadlock-free on an under-provisioned file; this rule is
**              tpsim's, rfv.reserve=0 turns it off.)
**   issue      the registers it writes are mapped at issue (renaming)
**   issued     after it issues, the registers whose last use it was, those
**              that died on the edge into the warp's next pc and those
**              deferred before are freed -- unless lanes of the warp still
**              waiting elsewhere (SIMT divergence: exec_warp_pcs) have them
**              live, then the release waits (rfv.deferred); a warp that
**              finishes frees all its registers
** Physical registers are warp registers (32 lanes of 32 bits): the file
** has device.regs_per_sm / 32 of them.  Not modelled: the renaming table's
** read latency and ports, the metadata instructions that carry the release
** flags in the paper (no fetch or issue slots), register-file power.
*/
#include "policy.h"
#include <stdlib.h>

enum { RFV_WORDS = 4 };       /* up to 256 architected registers per thread */

/* The compiler's tables of one kernel: per instruction, RFV_WORDS-word
** bitsets of the lowered code's registers. */
typedef struct rfv_code {
    uint32_t n;               /* instructions (the kernel's range from f->start) */
    uint32_t reserve;         /* registers per thread ptxas keeps beyond the code's (ra_regs - ra_own) */
    uint64_t *lin, *def, *rel, *ent;
} rfv_code;

static inline const uint64_t *row(const uint64_t *t, uint32_t i) { return t + (size_t)i * RFV_WORDS; }

/* ---- the compiler ---------------------------------------------------------------------- */

/* The registers rows of `set` occupy, into out (or'ed). */
static void regs_of(const ptx_func *g, const uint64_t *set, uint32_t words, uint64_t *out)
{
    for (uint32_t k = 0; k < words; k++)
        for (uint64_t x = set[k]; x; x &= x - 1) {
            uint32_t r = k * 64 + (uint32_t)__builtin_ctzll(x);
            if (r >= g->nrows || g->ra_map[r] < 0) continue;
            for (uint32_t u = 0, p = (uint32_t)g->ra_map[r]; u < ptx_row_units(g, r); u++, p++)
                if (p < RFV_WORDS * 64) out[p / 64] |= 1ull << (p % 64);
        }
}

static bool kernel(ptx_module *m, ptx_func *g, tp_err *e)
{
    uint32_t n = g->end - g->start, s = g->start;
    ptx_live lv;
    if (!ptx_liveness(m, g, PTX_LIVE_ALLOC, &lv, e)) return false;
    rfv_code *c = tp_arena_alloc(&m->arena, sizeof *c);
    size_t bytes = ((size_t)n + 1) * RFV_WORDS * sizeof(uint64_t);
    c->n = n;
    c->reserve = g->ra_regs > g->ra_own ? g->ra_regs - g->ra_own : 0;
    c->lin = tp_arena_alloc(&m->arena, bytes);
    c->def = tp_arena_alloc(&m->arena, bytes);
    c->rel = tp_arena_alloc(&m->arena, bytes);
    c->ent = tp_arena_alloc(&m->arena, bytes);
    memset(c->lin, 0, bytes);
    memset(c->def, 0, bytes);
    memset(c->rel, 0, bytes);
    memset(c->ent, 0, bytes);
    uint32_t *bof = tp_malloc((n + 1) * sizeof *bof);
    for (uint32_t b = 0; b < g->nblocks; b++)
        for (uint32_t pc = g->blocks[b].start; pc < g->blocks[b].end; pc++) bof[pc - s] = b;
    for (uint32_t i = 0; i < n; i++) regs_of(g, lv.in + (size_t)i * lv.words, lv.words, c->lin + (size_t)i * RFV_WORDS);
    /* live-out: the next instruction's live-in, or the successors' (blocks
    ** whose predecessors list this one) */
    uint64_t *lout = tp_calloc(((size_t)n + 1) * RFV_WORDS, sizeof *lout);
    for (uint32_t i = 0; i < n; i++)
        if (s + i + 1 < g->blocks[bof[i]].end) memcpy(lout + (size_t)i * RFV_WORDS, row(c->lin, i + 1), RFV_WORDS * 8);
    for (uint32_t b = 0; b < g->nblocks; b++) {
        const ptx_block *bl = &g->blocks[b];
        if (bl->start >= bl->end) continue;
        for (uint32_t j = 0; j < bl->npreds; j++) {
            uint32_t p = bl->preds[j];
            if (p >= g->nblocks || g->blocks[p].end <= g->blocks[p].start) continue;
            uint64_t *o = lout + (size_t)(g->blocks[p].end - 1 - s) * RFV_WORDS;
            for (uint32_t k = 0; k < RFV_WORDS; k++) o[k] |= row(c->lin, bl->start - s)[k];
        }
    }
    ptx_regocc oc[256];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = ptx_insn_regs(m, g, &m->insns[s + i], 0, oc, TP_ARRAY_LEN(oc));
        if (k > TP_ARRAY_LEN(oc)) k = TP_ARRAY_LEN(oc);
        uint64_t *d = c->def + (size_t)i * RFV_WORDS;
        for (uint32_t j = 0; j < k; j++) {
            uint32_t r = oc[j].row;
            if (oc[j].kind != PTX_RO_DEF || r >= g->nrows || g->ra_map[r] < 0) continue;
            for (uint32_t u = 0, p = (uint32_t)g->ra_map[r]; u < ptx_row_units(g, r); u++, p++)
                if (p < RFV_WORDS * 64) d[p / 64] |= 1ull << (p % 64);
        }
        /* the last uses: live into it or written by it, not live after it */
        const uint64_t *li = row(c->lin, i), *lo = lout + (size_t)i * RFV_WORDS;
        for (uint32_t w = 0; w < RFV_WORDS; w++) c->rel[(size_t)i * RFV_WORDS + w] = (li[w] | d[w]) & ~lo[w];
    }
    /* deaths on edges: live out of a predecessor, not into the block */
    for (uint32_t b = 0; b < g->nblocks; b++) {
        const ptx_block *bl = &g->blocks[b];
        if (bl->start >= bl->end) continue;
        uint64_t *en = c->ent + (size_t)(bl->start - s) * RFV_WORDS;
        for (uint32_t j = 0; j < bl->npreds; j++) {
            uint32_t p = bl->preds[j];
            if (p >= g->nblocks || g->blocks[p].end <= g->blocks[p].start) continue;
            const uint64_t *o = lout + (size_t)(g->blocks[p].end - 1 - s) * RFV_WORDS;
            for (uint32_t w = 0; w < RFV_WORDS; w++) en[w] |= o[w];
        }
        for (uint32_t w = 0; w < RFV_WORDS; w++) en[w] &= ~row(c->lin, bl->start - s)[w];
    }
    free(lout);
    free(bof);
    ptx_live_free(&lv);
    ptx_rshare *rs = rs_mark(m, g, rs_policy_find("rfv"));
    rs->base = g->ra_own;     /* every register is the warp's own, renamed */
    rs->base_regs = g->ra_regs;
    rs->data = c;
    return true;
}

static bool rfv_compile(ptx_module *low, const tp_opts *o, tp_err *e)
{
    (void)o;
    for (uint32_t i = 0; i < low->nfuncs; i++) {
        ptx_func *g = &low->funcs[i];
        if (!g->is_entry || g->is_decl || !g->ra_map || g->ra_ncalls || g->ra_own > RFV_WORDS * 64) continue;
        if (!kernel(low, g, e)) return false;
    }
    return true;
}

/* ---- occupancy ------------------------------------------------------------------------ */

static void rfv_occupancy(const tp_opts *op, const ptx_func *f, exec_occ *o)
{
    (void)f;
    uint64_t rf = (uint64_t)tp_opt_i(op, OPT_DEVICE_REGS_PER_SM), regs_cta = o->regs_per_cta;
    uint64_t space = (uint64_t)((double)rf * tp_opt_f(op, RS_OPT_RFV_RATIO));
    if (!regs_cta) o->by_regs = UINT32_MAX;
    else if (regs_cta > rf) o->by_regs = 0; /* the oldest CTA's registers must fit the physical file */
    else o->by_regs = space / regs_cta > UINT32_MAX ? UINT32_MAX : (uint32_t)(space / regs_cta);
    exec_occ_settle(o);
}

static uint32_t rfv_max_warps(const tp_opts *op, const ptx_func *f, uint32_t per_warp)
{
    (void)f;
    uint64_t w = (uint64_t)tp_opt_i(op, OPT_DEVICE_REGS_PER_SM) / per_warp;
    return w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

/* ---- the SM: renaming table, free list, the oldest CTA's reserve ------------------------ */

typedef struct rfv_warp {
    uint64_t held[RFV_WORDS]; /* architected registers mapped (the renaming table's valid bits) */
    uint64_t defer[RFV_WORDS];/* releases waiting for other lanes of the warp */
    uint32_t nheld;           /* physical registers it holds (the reserve included) */
    bool started;             /* it has issued (its reserve is mapped) */
} rfv_warp;

typedef struct rfv_sm {
    const rfv_code *code;
    uint32_t start;           /* the kernel's first pc */
    uint32_t phys, free;      /* physical registers (warp registers), free ones */
    uint32_t cta_need;        /* one CTA's architected registers: warps x ra_regs */
    bool reserve_on;          /* rfv.reserve */
    uint32_t max_warps, max_ctas;
    rfv_warp *w;
    uint32_t *cta_held;       /* per CTA slot: physical registers its warps hold */
    uint64_t *cta_seq;        /* per CTA slot: start order + 1 (0: free slot) */
    uint64_t seq;
    int32_t oldest;           /* the oldest resident CTA's slot, -1 none */
    bool waited, throttled;   /* in this cycle: a warp waited for registers / for the reserve */
    /* statistics */
    uint64_t allocs, releases, deferred, stall_cycles, throttle_cycles, used_cycles;
    uint64_t peak;
} rfv_sm;

static void *rfv_sm_new(const rs_smcfg *c)
{
    rfv_sm *s = tp_calloc(1, sizeof *s);
    s->code = c->kernel && c->kernel->rs ? c->kernel->rs->data : NULL;
    s->start = c->kernel ? c->kernel->start : 0;
    s->phys = s->free = (uint32_t)(tp_opt_i(c->opts, OPT_DEVICE_REGS_PER_SM) / 32);
    s->cta_need = exec_grid_warps_per_cta(c->grid) * c->occ->regs_per_thread;
    s->reserve_on = tp_opt_i(c->opts, RS_OPT_RFV_RESERVE) != 0;
    s->max_warps = c->max_warps;
    s->max_ctas = c->max_ctas;
    s->w = tp_calloc(c->max_warps + 1, sizeof *s->w);
    s->cta_held = tp_calloc(c->max_ctas + 1, sizeof *s->cta_held);
    s->cta_seq = tp_calloc(c->max_ctas + 1, sizeof *s->cta_seq);
    s->oldest = -1;
    return s;
}

static void rfv_sm_free(void *st)
{
    rfv_sm *s = st;
    free(s->w);
    free(s->cta_held);
    free(s->cta_seq);
    free(s);
}

static void find_oldest(rfv_sm *s)
{
    s->oldest = -1;
    for (uint32_t c = 0; c < s->max_ctas; c++)
        if (s->cta_seq[c] && (s->oldest < 0 || s->cta_seq[c] < s->cta_seq[s->oldest])) s->oldest = (int32_t)c;
}

static void rfv_cta_start(void *st, uint32_t cta)
{
    rfv_sm *s = st;
    if (cta >= s->max_ctas) return;
    s->cta_seq[cta] = ++s->seq;
    s->cta_held[cta] = 0;
    if (s->oldest < 0) s->oldest = (int32_t)cta;
}

static void rfv_cta_done(void *st, uint32_t cta)
{
    rfv_sm *s = st;
    if (cta >= s->max_ctas) return;
    s->cta_seq[cta] = 0;
    if (s->oldest == (int32_t)cta) find_oldest(s);
}

/* Physical registers warp w needs to issue pc: its unmapped destinations,
** and the reserve at its first instruction. */
static uint32_t need_of(const rfv_sm *s, const rs_warp *w, uint32_t pc)
{
    const rfv_warp *x = &s->w[w->slot];
    uint32_t need = x->started ? 0 : s->code->reserve;
    if (pc - s->start < s->code->n) {
        const uint64_t *d = row(s->code->def, pc - s->start);
        for (uint32_t k = 0; k < RFV_WORDS; k++) need += (uint32_t)__builtin_popcountll(d[k] & ~x->held[k]);
    }
    return need;
}

/* Free registers warp w may take: all of them in the oldest CTA, else those
** above what the oldest may still need. */
static uint32_t avail(const rfv_sm *s, const rs_warp *w)
{
    if (!s->reserve_on || s->oldest < 0 || w->cta == (uint32_t)s->oldest) return s->free;
    uint32_t held = s->cta_held[s->oldest], keep = s->cta_need > held ? s->cta_need - held : 0;
    return s->free > keep ? s->free - keep : 0;
}

static bool rfv_may_issue(void *st, const rs_warp *w, uint32_t pc)
{
    rfv_sm *s = st;
    if (!s->code || w->slot >= s->max_warps) return true;
    uint32_t need = need_of(s, w, pc);
    if (!need || need <= avail(s, w)) return true;
    s->waited = true;
    if (need <= s->free) s->throttled = true;
    return false;
}

static bool rfv_issue(void *st, const rs_warp *w, const exec_next *n)
{
    rfv_sm *s = st;
    if (!s->code || w->slot >= s->max_warps) return true;
    uint32_t need = need_of(s, w, n->pc);
    if (need > avail(s, w)) return false;
    rfv_warp *x = &s->w[w->slot];
    if (n->pc - s->start < s->code->n) {
        const uint64_t *d = row(s->code->def, n->pc - s->start);
        for (uint32_t k = 0; k < RFV_WORDS; k++) x->held[k] |= d[k];
    }
    x->started = true;
    x->nheld += need;
    s->free -= need;
    if (w->cta < s->max_ctas) s->cta_held[w->cta] += need;
    s->allocs += need;
    if (s->phys - s->free > s->peak) s->peak = s->phys - s->free;
    return true;
}

static void give_back(rfv_sm *s, const rs_warp *w, uint32_t k)
{
    s->w[w->slot].nheld -= k;
    s->free += k;
    if (w->cta < s->max_ctas) s->cta_held[w->cta] -= k;
    s->releases += k;
}

static void rfv_issued(void *st, const rs_warp *w, const exec_rec *rec)
{
    rfv_sm *s = st;
    if (!s->code || w->slot >= s->max_warps) return;
    rfv_warp *x = &s->w[w->slot];
    if (rec->events & EXEC_EV_WARP_DONE) {
        give_back(s, w, x->nheld);
        memset(x, 0, sizeof *x);
        return;
    }
    uint32_t pcs[64], np = exec_warp_pcs(w->ew, pcs, TP_ARRAY_LEN(pcs));
    if (np > TP_ARRAY_LEN(pcs)) np = TP_ARRAY_LEN(pcs);
    uint64_t cand[RFV_WORDS], any = 0;
    for (uint32_t k = 0; k < RFV_WORDS; k++) cand[k] = x->defer[k];
    if (rec->pc - s->start < s->code->n)
        for (uint32_t k = 0; k < RFV_WORDS; k++) cand[k] |= row(s->code->rel, rec->pc - s->start)[k];
    if (np && pcs[0] - s->start < s->code->n)
        for (uint32_t k = 0; k < RFV_WORDS; k++) cand[k] |= row(s->code->ent, pcs[0] - s->start)[k];
    for (uint32_t k = 0; k < RFV_WORDS; k++) any |= cand[k] &= x->held[k];
    if (!any) return;
    /* what some lanes of the warp still need: live into any of their pcs */
    uint64_t live[RFV_WORDS] = {0};
    for (uint32_t i = 0; i < np; i++)
        if (pcs[i] - s->start < s->code->n)
            for (uint32_t k = 0; k < RFV_WORDS; k++) live[k] |= row(s->code->lin, pcs[i] - s->start)[k];
    uint32_t freed = 0;
    for (uint32_t k = 0; k < RFV_WORDS; k++) {
        uint64_t go = cand[k] & ~live[k], wait = cand[k] & live[k];
        s->deferred += (uint64_t)__builtin_popcountll(wait & ~x->defer[k]);
        x->defer[k] = wait;
        x->held[k] &= ~go;
        freed += (uint32_t)__builtin_popcountll(go);
    }
    if (freed) give_back(s, w, freed);
}

static void rfv_tick(void *st)
{
    rfv_sm *s = st;
    s->waited = s->throttled = false;
}

static void rfv_account(void *st, uint64_t cycles)
{
    rfv_sm *s = st;
    s->used_cycles += cycles * (s->phys - s->free);
    if (s->waited) s->stall_cycles += cycles;
    if (s->throttled) s->throttle_cycles += cycles;
}

/* ---- statistics ----------------------------------------------------------------------- */

enum {
    ST_PHYS, ST_ALLOCS, ST_RELEASES, ST_DEFERRED, ST_STALL, ST_THROTTLE, ST_UTIL, ST_PEAK, ST_STATE_BITS, ST_USED,
    ST_REG_CYCLES, ST_N
};

static const rs_stat stats[ST_N] = {
    RS_STAT(ST_PHYS, U64, "rfv.physical_regs", WARP_REGS, PROP, RS_OWN,
            "physical registers per SM, in warp registers of 32 x 32 bits (device.regs_per_sm / 32; 0: no kernel of the launch ran renamed)"),
    RS_STAT(ST_ALLOCS, U64, "rfv.allocations", WARP_REGS, ADD, RS_FROM(rfv_sm, allocs),
            "physical registers mapped (at the first write of an architected register, and a warp's reserve at its start)"),
    RS_STAT(ST_RELEASES, U64, "rfv.releases", WARP_REGS, ADD, RS_FROM(rfv_sm, releases),
            "physical registers freed (after last uses, on edges where values die, by finishing warps)"),
    RS_STAT(ST_DEFERRED, U64, "rfv.deferred", EVENTS, ADD, RS_FROM(rfv_sm, deferred),
            "releases that waited because other lanes of the warp still had the register live (SIMT divergence)"),
    RS_STAT(ST_STALL, U64, "rfv.stall_cycles", SM_CYCLES, ADD, RS_FROM(rfv_sm, stall_cycles),
            "SM cycles in which a warp could not issue for want of free physical registers"),
    RS_STAT(ST_THROTTLE, U64, "rfv.throttle_cycles", SM_CYCLES, ADD, RS_FROM(rfv_sm, throttle_cycles),
            "... of them, cycles in which free registers were kept for the oldest CTA (the deadlock-avoidance throttle)"),
    RS_STAT(ST_UTIL, F64, "rfv.utilization", FRACTION, RATIO(ST_USED, ST_REG_CYCLES, 1), RS_OWN,
            "mean fraction of the physical registers in use, per SM and cycle"),
    RS_STAT(ST_PEAK, U64, "rfv.peak_regs", WARP_REGS, MAX, RS_FROM(rfv_sm, peak),
            "the most physical registers in use on one SM at once"),
    RS_STAT(ST_STATE_BITS, U64, "rfv.state_bits", BITS, PROP, RS_OWN,
            "bits of renaming state an SM of this configuration needs: per warp slot and architected register a physical register index, and a free bit per physical register (the seed's 31 kilobits for the GTX 480)"),
    RS_OP(ST_USED, U64, "rfv.used_cycles", REG_CYCLES, ADD, RS_FROM(rfv_sm, used_cycles),
          "physical registers in use, summed over cycles and SMs"),
    RS_OP(ST_REG_CYCLES, U64, "rfv.register_cycles", REG_CYCLES, ADD, RS_OWN,
          "cycles x SMs x physical registers per SM (0: no kernel ran renamed)"),
};

static void rfv_always(rs_val *v, const rs_end *e)
{
    uint64_t phys = (uint64_t)tp_opt_i(e->opts, OPT_DEVICE_REGS_PER_SM) / 32, lg = 0;
    while ((1ull << lg) < phys) lg++;
    v[ST_STATE_BITS].u = (uint64_t)e->max_warps * (uint64_t)tp_opt_i(e->opts, OPT_DEVICE_MAX_REGS_PER_THREAD) * lg + phys;
}

static const rs_statset rfv_stats = {stats, ST_N, rfv_always};

static void rfv_stats_end(rs_val *v, const rs_end *e)
{
    uint64_t phys = (uint64_t)tp_opt_i(e->opts, OPT_DEVICE_REGS_PER_SM) / 32;
    v[ST_PHYS].u = phys;
    v[ST_REG_CYCLES].u = e->cycles * e->nsm * phys;
}

const rs_policy rs_policy_rfv = {
    .name = "rfv",
    .stats = &rfv_stats,
    .compile = rfv_compile,
    .occupancy = rfv_occupancy,
    .max_warps = rfv_max_warps,
    .sm_new = rfv_sm_new,
    .sm_free = rfv_sm_free,
    .cta_start = rfv_cta_start,
    .cta_done = rfv_cta_done,
    .may_issue = rfv_may_issue,
    .issue = rfv_issue,
    .issued = rfv_issued,
    .tick = rfv_tick,
    .account = rfv_account,
    .stats_end = rfv_stats_end,
};
