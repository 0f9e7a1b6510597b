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

void gpu_ldst_init(gpu_sm *sm)
{
    sm->ldst_lines = tp_malloc(LINES_MAX * sizeof *sm->ldst_lines);
    sm->ldst_line_bytes = tp_malloc(LINES_MAX * sizeof *sm->ldst_line_bytes);
}

void gpu_ldst_free(gpu_sm *sm)
{
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

bool gpu_ldst_can_accept(const gpu_sm *sm, uint64_t now)
{
    return !sm->ldst_cur && sm->ldst_free_at <= now;
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


void gpu_ldst_accept(gpu_sm *sm, gpu_memop *m, uint64_t now)
{
    const gpu_cfg *c = sm->c;
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
    if (cached)
        n += gpu_coalesce(addr, cached, m->bytes, c->l1d.line, sm->ldst_lines + n, sm->ldst_line_bytes + n);
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
    if (r && sm->l1d_blocked && !konst) {
        /* refused, and no fill or departure since: it would be refused again */
        sm->l1_resfail_skipped++;
        return false;
    }
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
    if (res == GPU_L1_RESFAIL) {
        sm->l1d_retry = r;
        sm->l1d_blocked = !konst;
        return false;
    }
    sm->l1d_retry = NULL;
    sm->l1d_blocked = false;
    sm->mem_requests++;
    if (konst) {
        sm->l1c_accesses++;
        if (res == GPU_L1_MISS || res == GPU_L1_MERGED) sm->l1c_misses++;
    }
    sm->ldst_next++;
    return true;
}

void gpu_ldst_cycle(gpu_sm *sm, uint64_t now)
{
    gpu_memop *m = sm->ldst_cur;
    if (!m) return;
    if (sm->ldst_next < sm->ldst_nlines) {
        if (send_line(sm, now)) sm->changed = true;
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

/* A line of a pending load came back at cycle now. */
static void line_done(gpu_sm *sm, gpu_mreq *r, uint64_t now)
{
    uint32_t tag = r->tag;
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
        if (r->src != SRC_L1C) sm->l1d_blocked = false;
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
        if (l1 == sm->l1d) sm->l1d_blocked = false;
        gpu_memsys_accept(ms, r, now);
        sm->miss_rr++;
        sm->changed = true;
        return; /* one request per cycle leaves an SM */
    }
}

uint64_t gpu_ldst_next(const gpu_sm *sm, uint64_t now)
{
    /* a refused request waits for a reply (which wakes the SM) or a departure from the miss queue */
    if (sm->ldst_cur && !(sm->l1d_retry && sm->l1d_blocked)) return now + 1;
    if (gpu_l1_peek_miss_at(sm->l1d, now + 1) || gpu_l1_peek_miss_at(sm->l1c, now + 1)) return now + 1;
    uint64_t a = gpu_l1_next(sm->l1d), b = gpu_l1_next(sm->l1c);
    uint64_t n = a < b ? a : b;
    return n <= now ? now + 1 : n;
}

bool gpu_ldst_idle(const gpu_sm *sm)
{
    return !sm->ldst_cur && gpu_l1_idle(sm->l1d) && gpu_l1_idle(sm->l1c);
}
