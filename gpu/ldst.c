/*
** ldst.c -- the LD/ST unit of an SM: turns a memory instruction's per-lane
** addresses (captured from its exec_rec at issue) into work for the shared
** memory, the constant cache and the L1 data cache, and completes loads.
**
** The unit takes one instruction at a time (gpu_ldst_accept, from an
** operand collector) and is busy with it for:
**   shared memory    the access's bank-conflict degree k (gpu_bank_conflicts)
**                    cycles; loads write back at accept + (k - 1) + shmem.latency;
**   global, local    one cycle per line request (gpu_coalesce over l1d.line),
**                    each handed to the L1D in its own cycle, a refused one
**                    (reservation failure) retried every cycle after;
**                    loads and atomics write back in the cycle their last
**                    line's data comes out of the L1D; stores complete when
**                    their last line is handed over;
**   constant, param  one cycle per distinct address (the constant cache
**                    serialises divergent addresses), one line request per
**                    distinct line to the constant cache; write-back when
**                    the last line's data is there;
**   texture          (no addresses in the record) one cycle, write-back at
**                    accept + l1d.latency, as a texture-cache hit.
** A generic access whose lanes hit different spaces does each part in turn.
** wmma.load/.store make several passes (exec_rec.npass) of one access per
** lane each, in one space: shared memory takes the sum of the passes'
** conflict degrees, global and local memory one request per distinct line
** of all the passes together.
**
** A banked L1D (l1d.banks = N > 1) takes up to N of the instruction's L1D
** lines in one cycle, to distinct banks: after the first, the unit picks,
** in order, further unsent lines whose banks are free, until one is refused
** (the L1D's single miss port refuses a second miss with GPU_L1_BUSY).
**
** With a pool (warppool=1 or mrpb=1, gpu/warppool.h) the instructions whose
** every active lane goes to the L1D (global or local, loads, stores and
** atomics) go to the pool instead, which sends their lines to the L1D; the
** rest (shared, constant, parameter, texture, mixed generic accesses) take
** the path above, which has the L1D first when both want it in a cycle.
**
** The front end's statistics (warppool.*, every configuration): requests
** and L1D accesses (here one each per L1D line, derived at the end from
** mem_requests), cycles with an L1D access, and LD/ST stall cycles: cycles in which a memory instruction ready in a
** collector was refused by the unit, or a line request waited for the L1D
** (or, with a pool, for a tag or a queue).
**
** Local memory is interleaved as the hardware does: word j of the lane l of
** warp slot w on SM s is at GPU_LOCAL_BASE + ((s * max_warps + w) * words
** + j) * 128 + l * 4, so a warp reading the same local variable reads one
** line.  Kernel parameters are read through the constant cache at
** GPU_PARAM_BASE + offset.
*/
#include "internal.h"
#include <stdlib.h>

#define GPU_LOCAL_BASE 0x400000000000ull
#define GPU_PARAM_BASE 0x3f0000000000ull

enum { SRC_L1D = 0, SRC_L1C = 1 };

enum { LINES_MAX = 32 * EXEC_REC_MAXPASS + 64 };

void gpu_ldst_init(gpu_sm *sm, gpu_mreq_pool *pool)
{
    sm->ldst_lines = tp_malloc(LINES_MAX * sizeof *sm->ldst_lines);
    sm->ldst_line_bytes = tp_malloc(LINES_MAX * sizeof *sm->ldst_line_bytes);
    if (sm->c->wp_on) sm->wp = gpu_wp_new(&sm->c->wp, sm->l1d, &sm->c->l1d, pool, (uint16_t)sm->id, SRC_L1D, &sm->wps);
}

void gpu_ldst_begin(gpu_sm *sm, uint64_t now)
{
    memset(&sm->wps, 0, sizeof sm->wps);
    sm->ldst_refused_at = sm->ldst_stall_at = sm->l1d_at = 0;
    if (sm->wp) gpu_wp_begin(sm->wp, now);
}

void gpu_ldst_free(gpu_sm *sm)
{
    gpu_wp_free(sm->wp);
    sm->wp = NULL;
    free(sm->ldst_lines);
    free(sm->ldst_line_bytes);
    gpu_memop *m = sm->mop_free;
    while (m) {
        gpu_memop *n = m->next;
        free(m->xaddr);
        free(m);
        m = n;
    }
    sm->mop_free = NULL;
    free(sm->pend);
    free(sm->pend_free);
}

gpu_memop *gpu_memop_get(gpu_sm *sm)
{
    gpu_memop *m = sm->mop_free;
    if (m) {
        sm->mop_free = m->next;
    } else {
        m = tp_malloc(sizeof *m);
        m->xaddr = NULL;
    }
    m->npass = 0;
    return m;
}

void gpu_memop_put(gpu_sm *sm, gpu_memop *m)
{
    m->next = sm->mop_free;
    sm->mop_free = m;
}

static uint32_t pend_add(gpu_sm *sm, gpu_memop *m)
{
    if (sm->npend_free) {
        uint32_t t = sm->pend_free[--sm->npend_free];
        sm->pend[t] = m;
        return t;
    }
    if (sm->npend == sm->cappend) {
        sm->cappend = sm->cappend ? sm->cappend * 2 : 64;
        sm->pend = tp_realloc(sm->pend, sm->cappend * sizeof *sm->pend);
        sm->pend_free = tp_realloc(sm->pend_free, sm->cappend * sizeof *sm->pend_free);
    }
    sm->pend[sm->npend] = m;
    return sm->npend++;
}

/* Whether m goes to the pool: every active lane to the L1D. */
static inline bool pooled(const gpu_memop *m)
{
    return m->si->unit != EXEC_U_TEX && !(m->rec.events & EXEC_EV_MIXED_SPACE) && m->npass <= 1 &&
           (m->rec.space == PTX_SP_GLOBAL || m->rec.space == PTX_SP_LOCAL);
}

static inline void stall(gpu_sm *sm, uint64_t now) { gpu_ldst_stall(sm, now); }

/* The L1D accesses made in cycle now so far. */
static inline uint32_t l1d_used(const gpu_sm *sm, uint64_t now) { return sm->l1d_at == now + 1 ? sm->l1d_used : 0; }
static inline uint64_t l1d_banks(const gpu_sm *sm, uint64_t now) { return sm->l1d_at == now + 1 ? sm->l1d_banks_used : 0; }

/* n L1D accesses were made in cycle now (the last one to addr's bank). */
static void l1d_note(gpu_sm *sm, uint64_t now, uint32_t n, uint64_t banks)
{
    if (sm->l1d_at != now + 1) {
        sm->l1d_at = now + 1;
        sm->l1d_used = 0;
        sm->l1d_banks_used = 0;
        sm->wps.l1_access_cycles++;
    }
    sm->l1d_used += n;
    sm->l1d_banks_used |= banks;
}

bool gpu_ldst_can_accept_pool(gpu_sm *sm, const gpu_memop *m, uint64_t now)
{
    bool ok = pooled(m) ? gpu_wp_can_accept(sm->wp, now) : !sm->ldst_cur && sm->ldst_free_at <= now;
    if (!ok) gpu_ldst_refused(sm, now);
    return ok;
}

/* The memory instruction is done with: its registers (if any) are written at cycle t. */
static void finish(gpu_sm *sm, gpu_memop *m, uint64_t t)
{
    gpu_wb_push(sm, t, m->warp, m->si, true);
    gpu_memop_put(sm, m);
}

static uint64_t local_addr(const gpu_sm *sm, uint16_t warp, int lane, uint64_t off)
{
    uint64_t words = (sm->lx->local_bytes + 3) / 4;
    return GPU_LOCAL_BASE + ((sm->id * (uint64_t)sm->c->max_warps + warp) * words + off / 4) * 128 +
           (uint64_t)lane * 4 + off % 4;
}


/* m goes into the pool's instruction queue, its local addresses interleaved. */
static void pool_accept(gpu_sm *sm, gpu_memop *m, uint64_t now)
{
    if (m->rec.space == PTX_SP_LOCAL)
        for (uint32_t mm = m->active; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            m->rec.addr[l] = local_addr(sm, m->warp, l, m->rec.addr[l]);
        }
    m->t_done = now;
    sm->wps.mem_instructions++;
    gpu_wp_accept(sm->wp, m, sm->warps[m->warp].age, now);
    sm->changed = true;
}

/* The pool's finished instructions write back. */
static void pool_finish(gpu_sm *sm, uint64_t now)
{
    gpu_memop *m;
    while ((m = gpu_wp_pop_finished(sm->wp))) finish(sm, m, m->t_done > now ? m->t_done : now);
}

void gpu_ldst_accept(gpu_sm *sm, gpu_memop *m, uint64_t now)
{
    const gpu_cfg *c = sm->c;
    if (sm->wp && pooled(m)) {
        pool_accept(sm, m, now);
        return;
    }
    sm->ldst_free_at = now + 1;
    if (m->si->unit == EXEC_U_TEX) {
        finish(sm, m, now + c->l1d.latency);
        return;
    }
    uint32_t shared = 0, cached = 0, konst = 0;
    uint64_t a[32];
    const exec_rec *rec = &m->rec;
    const uint64_t *addr = rec->addr;
    bool mixed = (rec->events & EXEC_EV_MIXED_SPACE) != 0;
    if (!mixed && rec->space == PTX_SP_SHARED) {
        shared = m->active;
        addr = rec->addr;
    } else if (!mixed && rec->space == PTX_SP_GLOBAL) {
        cached = m->active;
    } else {
        for (uint32_t mm = m->active; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            switch (mixed ? rec->lspace[l] : rec->space) {
            case PTX_SP_SHARED: shared |= 1u << l; a[l] = rec->addr[l]; break;
            case PTX_SP_LOCAL: cached |= 1u << l; a[l] = local_addr(sm, m->warp, l, rec->addr[l]); break;
            case PTX_SP_CONST: konst |= 1u << l; a[l] = rec->addr[l]; break;
            case PTX_SP_PARAM: konst |= 1u << l; a[l] = GPU_PARAM_BASE + rec->addr[l]; break;
            default: cached |= 1u << l; a[l] = rec->addr[l]; break;
            }
        }
        addr = a;
    }
    uint32_t busy = 0;
    uint64_t done_at = now;
    if (shared) {
        uint32_t k = 0;
        for (uint32_t p = 0; p < (m->npass ? m->npass : 1u); p++) {
            uint32_t kp = gpu_bank_conflicts(p ? m->xaddr + (size_t)(p - 1) * 32 : addr, shared, m->bytes,
                                             c->shmem_banks);
            sm->shared_accesses++;
            sm->shared_conflict_cycles += kp - 1;
            k += kp;
        }
        busy += k;
        done_at = now + (k - 1) + c->shmem_lat;
    }
    /* line requests: constant lines first (to the L1C), then L1D lines */
    uint32_t n = 0;
    uint32_t nconst = 0;
    if (konst) {
        nconst = gpu_coalesce(addr, konst, m->bytes, c->l1c.line, sm->ldst_lines, sm->ldst_line_bytes);
        uint64_t dist[32];
        uint32_t nd = 0;
        for (uint32_t mm = konst; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint32_t i = 0;
            while (i < nd && dist[i] != addr[l]) i++;
            if (i == nd) dist[nd++] = addr[l];
        }
        busy += nd > nconst ? nd - nconst : 0; /* serialisation beyond one line per cycle */
        n = nconst;
    }
    if (cached) {
        n += gpu_coalesce(addr, cached, m->bytes, c->l1d.line, sm->ldst_lines + n, sm->ldst_line_bytes + n);
        sm->wps.mem_instructions++;
    }
    for (uint32_t p = 1; cached && p < m->npass; p++) {
        /* the further passes' lines, each once */
        const uint64_t *pa = m->xaddr + (size_t)(p - 1) * 32;
        uint64_t la[32], lines[32];
        uint32_t lb[32];
        if (rec->space == PTX_SP_LOCAL) {
            for (uint32_t mm = cached; mm; mm &= mm - 1) {
                int l = __builtin_ctz(mm);
                la[l] = local_addr(sm, m->warp, l, pa[l]);
            }
            pa = la;
        }
        uint32_t k = gpu_coalesce(pa, cached, m->bytes, c->l1d.line, lines, lb);
        for (uint32_t i = 0; i < k; i++) {
            uint32_t j = nconst;
            while (j < n && sm->ldst_lines[j] != lines[i]) j++;
            if (j == n) {
                sm->ldst_lines[n] = lines[i];
                sm->ldst_line_bytes[n++] = lb[i];
            } else if ((sm->ldst_line_bytes[j] += lb[i]) > c->l1d.line) {
                sm->ldst_line_bytes[j] = c->l1d.line;
            }
        }
    }
    sm->ldst_nlines = n;
    sm->ldst_next = 0;
    sm->ldst_const_lines = nconst;
    sm->ldst_busy_left = busy;
    bool answered = (m->flags & (EXEC_SI_LOAD | EXEC_SI_ATOMIC)) != 0;
    m->lines_left = answered ? n : 0;
    m->t_done = done_at;
    if (!n && !busy) {
        finish(sm, m, done_at);
        return;
    }
    sm->ldst_cur = m;
    sm->ldst_tag = answered && n ? pend_add(sm, m) : UINT32_MAX;
}

/* Sends the current instruction's next line request; true if the unit moved. */
static bool send_line(gpu_sm *sm, uint64_t now)
{
    gpu_memop *m = sm->ldst_cur;
    uint32_t i = sm->ldst_next;
    bool konst = i < sm->ldst_const_lines;
    gpu_mreq *r = sm->l1d_retry;
    if (!r) {
        r = gpu_mreq_get(&sm->lx->g->pool);
        r->addr = sm->ldst_lines[i];
        r->bytes = sm->ldst_line_bytes[i];
        r->kind = (m->flags & EXEC_SI_ATOMIC) ? GPU_MR_ATOMIC : (m->flags & EXEC_SI_LOAD) ? GPU_MR_LOAD : GPU_MR_STORE;
        r->space = konst ? GPU_MS_CONST : m->rec.space == PTX_SP_LOCAL ? GPU_MS_LOCAL : GPU_MS_GLOBAL;
        r->sm = (uint16_t)sm->id;
        r->src = konst ? SRC_L1C : SRC_L1D;
        r->tag = sm->ldst_tag;
        if (r->kind == GPU_MR_LOAD || r->kind == GPU_MR_ATOMIC) {
            if (konst) r->bytes = sm->c->l1c.line;
            else if (r->kind == GPU_MR_LOAD) r->bytes = sm->c->l1d.line;
        }
    }
    gpu_l1 *l1 = konst ? sm->l1c : sm->l1d;
    gpu_l1res res = gpu_l1_access(l1, r, now);
    if (res == GPU_L1_RESFAIL || res == GPU_L1_BUSY) {
        /* kept; a reservation failure waits for a fill or a departure, a busy miss port for the next cycle */
        sm->l1d_retry = r;
        sm->l1d_blocked = !konst && res == GPU_L1_RESFAIL;
        if (!konst) stall(sm, now);
        return false;
    }
    sm->l1d_retry = NULL;
    sm->l1d_blocked = false;
    sm->mem_requests++;
    if (konst) {
        sm->l1c_accesses++;
        if (res == GPU_L1_MISS || res == GPU_L1_MERGED) sm->l1c_misses++;
    } else if (sm->c->l1d.banks > 1 || sm->wp) {
        /* ports to share in this cycle (one bank, no pool: one access per cycle, counted at the end) */
        l1d_note(sm, now, 1, sm->c->l1d.banks > 1 ? 1ull << gpu_l1_bank(&sm->c->l1d, r->addr) : 0);
    }
    sm->ldst_next++;
    return true;
}

/* A banked L1D, after an L1D line went in this cycle: brings the next unsent
** line whose bank is still free to position ldst_next; false if there is
** none (or every bank is taken). */
static bool next_banked(gpu_sm *sm, uint64_t now)
{
    const gpu_l1cfg *lc = &sm->c->l1d;
    uint32_t i = sm->ldst_next, k = i;
    if (i >= sm->ldst_nlines || l1d_used(sm, now) >= lc->banks) return false;
    uint64_t used = l1d_banks(sm, now);
    while (k < sm->ldst_nlines && (used >> gpu_l1_bank(lc, sm->ldst_lines[k]) & 1)) k++;
    if (k == sm->ldst_nlines) return false;
    uint64_t a = sm->ldst_lines[i];
    uint32_t b = sm->ldst_line_bytes[i];
    sm->ldst_lines[i] = sm->ldst_lines[k];
    sm->ldst_line_bytes[i] = sm->ldst_line_bytes[k];
    sm->ldst_lines[k] = a;
    sm->ldst_line_bytes[k] = b;
    return true;
}

/* The Fermi path's cycle for its current instruction m. */
static inline void fermi_cycle(gpu_sm *sm, gpu_memop *m, uint64_t now)
{
    if (sm->ldst_next < sm->ldst_nlines) {
        if (sm->l1d_blocked) {
            /* the L1D refused its line (l1d_retry), and no fill or departure since: it would be refused again */
            sm->l1_resfail_skipped++;
            stall(sm, now);
            return;
        }
        /* one line; with a banked L1D more L1D lines, to free banks, until one is refused */
        while (send_line(sm, now)) {
            sm->changed = true;
            if (sm->c->l1d.banks <= 1 || sm->ldst_next <= sm->ldst_const_lines || !next_banked(sm, now)) break;
        }
    } else if (sm->ldst_busy_left) {
        sm->ldst_busy_left--;
        sm->changed = true;
    }
    if (sm->ldst_next < sm->ldst_nlines || sm->ldst_busy_left) return;
    /* all handed over: the unit takes the next instruction next cycle */
    sm->changed = true;
    sm->ldst_cur = NULL;
    sm->ldst_free_at = now + 1;
    if (!m->lines_left) {
        uint64_t t = m->t_done > now ? m->t_done : now;
        finish(sm, m, t);
    }
}

/* The pool's part of a cycle, after the Fermi path's. */
static void pool_cycle(gpu_sm *sm, uint64_t now)
{
    if (gpu_wp_quantum(sm->wp, now)) sm->changed = true;
    uint32_t banks = sm->c->l1d.banks > 1 ? sm->c->l1d.banks : 1, used = l1d_used(sm, now);
    bool changed = false, stalled = false;
    uint32_t n = gpu_wp_cycle(sm->wp, now, used < banks ? banks - used : 0, l1d_banks(sm, now), &changed, &stalled);
    if (n) l1d_note(sm, now, n, 0);
    sm->mem_requests += n;  /* the pool counted its requests and accesses */
    if (changed) sm->changed = true;
    if (stalled) stall(sm, now);
    pool_finish(sm, now);
}

void gpu_ldst_cycle(gpu_sm *sm, uint64_t now)
{
    gpu_memop *m = sm->ldst_cur;
    if (m) fermi_cycle(sm, m, now);
    if (sm->wp) pool_cycle(sm, now);
}

/* A line of a pending load came back at cycle now. */
static void line_done(gpu_sm *sm, gpu_mreq *r, uint64_t now)
{
    uint32_t tag = r->tag;
    if (tag != UINT32_MAX && (tag & GPU_WP_TAG) && sm->wp) {
        gpu_wp_done(sm->wp, r, now);
        pool_finish(sm, now);
        sm->changed = true;
        return;
    }
    gpu_mreq_put(&sm->lx->g->pool, r);
    if (tag == UINT32_MAX || tag >= sm->npend || !sm->pend[tag]) return;
    gpu_memop *m = sm->pend[tag];
    if (m->lines_left && --m->lines_left == 0) {
        sm->pend[tag] = NULL;
        sm->pend_free[sm->npend_free++] = tag;
        if (sm->ldst_cur != m) finish(sm, m, m->t_done > now ? m->t_done : now);
    }
    sm->changed = true;
}

void gpu_ldst_replies(gpu_sm *sm, uint64_t now)
{
    gpu_mreq *r;
    while ((r = gpu_memsys_pop(sm->lx->g->ms, sm->id, now))) {
        if (r->src != SRC_L1C) {
            sm->l1d_blocked = false;
            if (sm->wp) gpu_wp_unblock(sm->wp);
        }
        gpu_l1_fill(r->src == SRC_L1C ? sm->l1c : sm->l1d, r, now);
        sm->changed = true;
    }
    while ((r = gpu_l1_pop_done(sm->l1d, now))) line_done(sm, r, now);
    while ((r = gpu_l1_pop_done(sm->l1c, now))) line_done(sm, r, now);
}

void gpu_ldst_send(gpu_sm *sm, uint64_t now)
{
    gpu_memsys *ms = sm->lx->g->ms;
    for (int k = 0; k < 2; k++) {
        gpu_l1 *l1 = ((sm->miss_rr + (uint32_t)k) & 1) ? sm->l1c : sm->l1d;
        gpu_mreq *r = gpu_l1_peek_miss_at(l1, now);
        if (!r) continue;
        r->sm = (uint16_t)sm->id;
        r->src = l1 == sm->l1c ? SRC_L1C : SRC_L1D;
        r->t_sent = now;
        if (!gpu_memsys_can_accept(ms, sm->id, r)) continue;
        gpu_l1_pop_miss(l1);
        if (l1 == sm->l1d) {
            sm->l1d_blocked = false;
            if (sm->wp) gpu_wp_unblock(sm->wp);
        }
        gpu_memsys_accept(ms, r, now);
        sm->miss_rr++;
        sm->changed = true;
        return; /* one request per cycle leaves an SM */
    }
}

uint64_t gpu_ldst_next(const gpu_sm *sm, uint64_t now)
{
    /* a refused request waits for a reply (which wakes the SM) or a departure from the miss queue */
    if (sm->ldst_cur && !sm->l1d_blocked) return now + 1; /* (blocked: l1d_retry holds the refused line) */
    if (gpu_l1_peek_miss_at(sm->l1d, now + 1) || gpu_l1_peek_miss_at(sm->l1c, now + 1)) return now + 1;
    uint64_t a = gpu_l1_next(sm->l1d), b = gpu_l1_next(sm->l1c);
    uint64_t n = a < b ? a : b;
    if (sm->wp) {
        uint64_t w = gpu_wp_next(sm->wp, now);
        if (w < n) n = w;
    }
    return n <= now ? now + 1 : n;
}

bool gpu_ldst_idle(const gpu_sm *sm)
{
    return !sm->ldst_cur && gpu_l1_idle(sm->l1d) && gpu_l1_idle(sm->l1c) && (!sm->wp || gpu_wp_idle(sm->wp));
}

void gpu_ldst_account_skip(gpu_sm *sm, uint64_t k)
{
    if (sm->l1d_retry && sm->l1d_blocked) sm->l1_resfail_skipped += k; /* it would have been refused every cycle */
    /* a stall in the last cycle ticked lasts (the SM sleeps only while nothing can move) */
    if (sm->ldst_stall_at == sm->last_tick + 1) sm->wps.ldst_stall_cycles += k;
    if (sm->wp) gpu_wp_account_skip(sm->wp, k);
}

void gpu_ldst_abort(gpu_sm *sm)
{
    if (!sm->wp) return;
    gpu_memop *m;
    while ((m = gpu_wp_drop(sm->wp))) gpu_memop_put(sm, m);
}

void gpu_ldst_stats(gpu_sm *sm, gpu_kstats *ks, uint64_t now)
{
    gpu_ldstkstats *d = &ks->ldst;
    gpu_ldstkstats *s = &sm->wps;
    if (sm->wp) {
        gpu_wp_flush(sm->wp, now);
        ks->l1d_reservation_fails += gpu_wp_resfail_skipped(sm->wp);
    }
    /* the Fermi path's L1D lines: one request and one access each; in their own
    ** cycles unless a banked L1D or a pool shares the cycles (then l1d_note counted them) */
    uint64_t fermi = sm->mem_requests - sm->l1c_accesses - s->l1_accesses;
    s->requests += fermi;
    s->l1_accesses += fermi;
    if (sm->c->l1d.banks <= 1 && !sm->wp) s->l1_access_cycles += fermi;
    if (sm->busy_first) {
        /* busy from its first CTA (busy_first - 1) to the end of its last (busy_last; now if it still has one) */
        uint64_t first = sm->busy_first - 1, last = sm->nwarps_live ? now : sm->busy_last;
        if (last >= first) d->active_cycles += last - first + 1;
    }
    d->mem_instructions += s->mem_instructions;
    d->requests += s->requests;
    d->l1_accesses += s->l1_accesses;
    d->l1_access_cycles += s->l1_access_cycles;
    d->merges += s->merges;
    d->tag_cycles += s->tag_cycles;
    d->full_stalls += s->full_stalls;
    d->insert_conflicts += s->insert_conflicts;
    d->inst_queue_full += s->inst_queue_full;
    d->ldst_stall_cycles += s->ldst_stall_cycles;
    d->active_cycles += s->active_cycles;
    d->mode_switches += s->mode_switches;
    d->cache_quanta += s->cache_quanta;
    d->thread_deliveries += s->thread_deliveries;
    d->delivery_errors += s->delivery_errors;
}
