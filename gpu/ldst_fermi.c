/*
** ldst_fermi.c -- the Fermi LD/ST path, as the front ends `baseline` and
** `banked` (gpu/ldst.h).  It turns a memory instruction's per-lane
** addresses (captured from its exec_rec at issue) into work for the shared
** memory, the constant cache and the L1 data cache, and completes loads.
**
** It takes one instruction at a time and is busy with it for:
**   shared memory    the access's bank-conflict degree k (gpu_bank_conflicts;
**                    atomics with shmem.atomic_serial: gpu_bank_lanes, every
**                    lane of a bank in turn) cycles; loads write back at
**                    accept + (k - 1) + shmem.latency;
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
** banked (for a banked L1D, l1d.banks = N > 1): up to N of the
** instruction's L1D lines go in one cycle, to distinct banks, counting the
** accesses other front ends made to the L1D in that cycle: after the first,
** the path picks, in order, further unsent lines whose banks are free,
** until one is refused (the L1D's single miss port refuses a second miss
** with GPU_L1_BUSY) or every bank is taken.  With one bank it is baseline.
**
** Kernel parameters are read through the constant cache at
** GPU_PARAM_BASE + offset.  A load's line requests carry its slot in the
** table of pending loads as their tag.
**
** idc (ldst.const_path = idc; gpu_ldst_idc_create): the same path, a second
** instance beside the front end, as the SM's indexed constant cache.  It
** takes only ld.const (gpu_ldst_idc_takes) and is busy one cycle per
** distinct line (Nsight Compute's Profiling Guide: an LDC whose active
** lanes' addresses lie in different lines is replayed, not one whose lanes
** read different words of one line); its refusals are not the LD/ST unit's,
** and its requests' tags start at GPU_IDC_TAG, so that gpu_ldst_replies
** hands the constant cache's answers to the instance that asked.
*/
#include "ldst.h"
#include <stdlib.h>

#define GPU_PARAM_BASE 0x3f0000000000ull

enum { LINES_MAX = 32 * EXEC_REC_MAXPASS + 64 };

typedef struct fermi {
    gpu_ldst_fe fe;
    bool banked;               /* more lines per cycle, to free banks */
    bool idc;                  /* the indexed constant cache (ldst.const_path = idc), not a front end */
    uint32_t tag_base;         /* its requests' tags are pending-table slots + this */
    gpu_memop *cur;            /* instruction being processed */
    uint64_t *lines;           /* its line addresses (and per-line bytes for stores) */
    uint32_t *line_bytes;
    gpu_lineinfo *line_info;   /* what each line's request carries besides its line */
    uint32_t nlines, next;     /* lines; next to send */
    uint32_t const_lines;      /* the first ones go to the constant cache */
    uint32_t tag;              /* the pending-load tag of its requests */
    uint32_t busy_left;        /* cycles it is still busy (shared-memory conflicts, constant serialisation) */
    uint64_t free_at;          /* the first cycle it takes another instruction */
    gpu_memop **pend;          /* loads waiting for lines, indexed by request tag */
    uint32_t npend, cappend, *pend_free, npend_free;
    gpu_mreq *retry;           /* a request the L1 refused, to ask again */
    bool blocked;              /* ... the L1D refused it, and nothing that could change the answer has happened since */
} fermi;

static inline fermi *F(gpu_ldst_fe *fe) { return (fermi *)fe; }

/* Tells the unit when accept may take an instruction again
** (gpu_ldst.accept_from), unless this path is part of another front end
** (WarpPool's direct path), whose accept answers for itself. */
static inline void note_free(fermi *f)
{
    gpu_ldst *u = f->fe.u;
    if (u->fe == &f->fe) u->accept_from = f->cur ? UINT64_MAX : f->free_at;
}
static inline const fermi *CF(const gpu_ldst_fe *fe) { return (const fermi *)fe; }

static gpu_ldst_fe *fermi_new(gpu_ldst *u, const gpu_ldst_frontend *kind, bool banked)
{
    fermi *f = tp_calloc(1, sizeof *f);
    f->fe.kind = kind;
    f->fe.u = u;
    f->banked = banked;
    f->lines = tp_malloc(LINES_MAX * sizeof *f->lines);
    f->line_bytes = tp_malloc(LINES_MAX * sizeof *f->line_bytes);
    f->line_info = tp_calloc(LINES_MAX, sizeof *f->line_info);
    return &f->fe;
}

static gpu_ldst_fe *baseline_create(gpu_ldst *u, const tp_opts *o) { return fermi_new(u, &gpu_ldst_fe_baseline, false); }
static gpu_ldst_fe *banked_create(gpu_ldst *u, const tp_opts *o) { return fermi_new(u, &gpu_ldst_fe_banked, true); }

static bool banked_chosen(const tp_opts *o) { return tp_opt_i(o, OPT_L1D_BANKS) > 1; }

gpu_ldst_fe *gpu_ldst_idc_create(gpu_ldst *u)
{
    fermi *f = F(fermi_new(u, &gpu_ldst_fe_baseline, false));
    f->idc = true;
    f->tag_base = GPU_IDC_TAG;
    return &f->fe;
}

static void fermi_destroy(gpu_ldst_fe *fe)
{
    fermi *f = F(fe);
    free(f->lines);
    free(f->line_bytes);
    free(f->line_info);
    free(f->pend);
    free(f->pend_free);
    free(f);
}

static void fermi_begin(gpu_ldst_fe *fe, uint64_t now) {}

static uint32_t pend_add(fermi *f, gpu_memop *m)
{
    if (f->npend_free) {
        uint32_t t = f->pend_free[--f->npend_free];
        f->pend[t] = m;
        return t;
    }
    if (f->npend == f->cappend) {
        f->cappend = f->cappend ? f->cappend * 2 : 64;
        f->pend = tp_realloc(f->pend, f->cappend * sizeof *f->pend);
        f->pend_free = tp_realloc(f->pend_free, f->cappend * sizeof *f->pend_free);
    }
    f->pend[f->npend] = m;
    return f->npend++;
}

static bool fermi_accept(gpu_ldst_fe *fe, gpu_memop *m, uint64_t now)
{
    fermi *f = F(fe);
    gpu_ldst *u = fe->u;
    gpu_sm *sm = u->sm;
    const gpu_cfg *c = u->c;
    if (f->cur || f->free_at > now) {
        if (!f->idc) gpu_ldst_refused(u, now);
        return false;
    }
    /* ldst.interval: the next instruction no sooner than this (the idc is a unit of its own) */
    f->free_at = now + (f->idc ? 1 : c->ldst_interval);
    note_free(f);
    if (m->si->unit == EXEC_U_TEX) {
        gpu_ldst_finish(u, m, now + c->l1d.latency);
        return true;
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
            case PTX_SP_LOCAL: cached |= 1u << l; a[l] = gpu_ldst_local_addr(u, m->warp, l, rec->addr[l]); break;
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
        /* shmem.atomic_serial: an atomic's lanes update one after another in each bank */
        bool serial = (m->flags & EXEC_SI_ATOMIC) && c->shmem_atomic_serial;
        for (uint32_t p = 0; p < (m->npass ? m->npass : 1u); p++) {
            const uint64_t *pa = p ? m->xaddr + (size_t)(p - 1) * 32 : addr;
            uint32_t kp = serial ? gpu_bank_lanes(pa, shared, m->bytes, c->shmem_banks)
                                 : gpu_bank_conflicts(pa, shared, m->bytes, c->shmem_banks);
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
        nconst = gpu_coalesce(addr, konst, m->bytes, c->l1c.line, f->lines, f->line_bytes);
        memset(f->line_info, 0, nconst * sizeof *f->line_info);
        uint64_t dist[32];
        uint32_t nd = 0;
        for (uint32_t mm = konst; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint32_t i = 0;
            while (i < nd && dist[i] != addr[l]) i++;
            if (i == nd) dist[nd++] = addr[l];
        }
        if (!f->idc) busy += nd > nconst ? nd - nconst : 0; /* serialisation beyond one line per cycle */
        else sm->idc_instructions++;
        n = nconst;
    }
    if (cached) {
        uint32_t k;
        if (m->flags & EXEC_SI_ATOMIC) {
            k = gpu_coalesce(addr, cached, m->bytes, c->l1d.line, f->lines + n, f->line_bytes + n);
            gpu_coalesce_info(addr, cached, m->bytes, c->l1d.line, f->lines + n, k, true, f->line_info + n);
        } else {
            k = gpu_coalesce_sectors(addr, cached, m->bytes, c->l1d.line, f->lines + n, f->line_bytes + n,
                                     f->line_info + n);
        }
        n += k;
        u->st.mem_instructions++;
    }
    for (uint32_t p = 1; cached && p < m->npass; p++) {
        /* the further passes' lines, each once */
        const uint64_t *pa = m->xaddr + (size_t)(p - 1) * 32;
        uint64_t la[32], lines[32];
        uint32_t lb[32];
        if (rec->space == PTX_SP_LOCAL) {
            for (uint32_t mm = cached; mm; mm &= mm - 1) {
                int l = __builtin_ctz(mm);
                la[l] = gpu_ldst_local_addr(u, m->warp, l, pa[l]);
            }
            pa = la;
        }
        gpu_lineinfo li[32];
        uint32_t k = gpu_coalesce_sectors(pa, cached, m->bytes, c->l1d.line, lines, lb, li);
        for (uint32_t i = 0; i < k; i++) {
            uint32_t j = nconst;
            while (j < n && f->lines[j] != lines[i]) j++;
            if (j == n) f->line_info[j] = li[i];
            else f->line_info[j].sectors |= li[i].sectors;
            if (j == n) {
                f->lines[n] = lines[i];
                f->line_bytes[n++] = lb[i];
            } else if ((f->line_bytes[j] += lb[i]) > c->l1d.line) {
                f->line_bytes[j] = c->l1d.line;
            }
        }
    }
    f->nlines = n;
    f->next = 0;
    f->const_lines = nconst;
    f->busy_left = busy;
    bool answered = (m->flags & (EXEC_SI_LOAD | EXEC_SI_ATOMIC)) != 0;
    m->lines_left = answered ? n : 0;
    m->t_done = done_at;
    if (!n && !busy) {
        gpu_ldst_finish(u, m, done_at);
        return true;
    }
    f->cur = m;
    note_free(f);
    f->tag = answered && n ? pend_add(f, m) + f->tag_base : UINT32_MAX;
    return true;
}

/* The request for the current instruction's line i. */
static gpu_mreq *line_req(fermi *f, uint32_t i)
{
    gpu_ldst *u = f->fe.u;
    const gpu_cfg *c = u->c;
    gpu_memop *m = f->cur;
    bool konst = i < f->const_lines;
    gpu_mreq *r = gpu_mreq_get(u->pool);
    r->addr = f->lines[i];
    r->bytes = f->line_bytes[i];
    r->kind = (m->flags & EXEC_SI_ATOMIC) ? GPU_MR_ATOMIC : (m->flags & EXEC_SI_LOAD) ? GPU_MR_LOAD : GPU_MR_STORE;
    r->space = konst ? GPU_MS_CONST : m->rec.space == PTX_SP_LOCAL ? GPU_MS_LOCAL : GPU_MS_GLOBAL;
    r->sm = (uint16_t)u->sm->id;
    r->src = konst ? GPU_LDST_SRC_L1C : GPU_LDST_SRC_L1D;
    r->tag = f->tag;
    if (r->kind == GPU_MR_STORE) gpu_ldst_store_prep(u, r, m->warp);
    r->sectors = f->line_info[i].sectors;
    r->ops = f->line_info[i].ops;
    r->ops_addr = f->line_info[i].ops_addr;
    if (r->kind == GPU_MR_LOAD || r->kind == GPU_MR_ATOMIC) {
        if (konst) r->bytes = c->l1c.line;
        else if (r->kind == GPU_MR_LOAD) r->bytes = c->l1d.line;
    }
    return r;
}

/* Sends the current instruction's next line request; true if the path moved. */
static bool send_line(fermi *f, uint64_t now)
{
    gpu_ldst *u = f->fe.u;
    const gpu_cfg *c = u->c;
    uint32_t i = f->next;
    bool konst = i < f->const_lines;
    gpu_mreq *r = f->retry;
    if (!r) r = line_req(f, i);
    gpu_l1res res = gpu_l1_access(konst ? u->l1c : u->l1d, r, now);
    if (res == GPU_L1_RESFAIL || res == GPU_L1_BUSY) {
        /* kept; a reservation failure waits for a fill or a departure, a busy miss port for the next cycle */
        f->retry = r;
        f->blocked = !konst && res == GPU_L1_RESFAIL;
        if (!konst) gpu_ldst_stall(u, now);
        return false;
    }
    f->retry = NULL;
    f->blocked = false;
    if (r->kind == GPU_MR_STORE) gpu_ldst_store_sent(u, r, res);
    u->sm->mem_requests++;
    if (konst) {
        u->sm->l1c_accesses++;
        if (res == GPU_L1_MISS || res == GPU_L1_MERGED) u->sm->l1c_misses++;
    } else {
        /* one request, one access; the L1D's ports in this cycle are shared with whatever else uses them */
        u->st.requests++;
        u->st.l1_accesses++;
        gpu_ldst_l1d_note(u, now, 1, c->l1d.banks > 1 ? 1ull << gpu_l1_bank(&c->l1d, r->addr) : 0);
    }
    f->next++;
    return true;
}

/* banked, after an L1D line went in this cycle: brings the next unsent line
** whose bank is still free to position next; false if there is none (or
** every bank is taken). */
static bool next_banked(fermi *f, uint64_t now)
{
    gpu_ldst *u = f->fe.u;
    const gpu_l1cfg *lc = &u->c->l1d;
    uint32_t i = f->next, k = i;
    if (i >= f->nlines || gpu_ldst_l1d_used(u, now) >= lc->banks) return false;
    uint64_t used = gpu_ldst_l1d_banks(u, now);
    while (k < f->nlines && (used >> gpu_l1_bank(lc, f->lines[k]) & 1)) k++;
    if (k == f->nlines) return false;
    uint64_t a = f->lines[i];
    uint32_t b = f->line_bytes[i];
    f->lines[i] = f->lines[k];
    f->line_bytes[i] = f->line_bytes[k];
    f->lines[k] = a;
    f->line_bytes[k] = b;
    gpu_lineinfo x = f->line_info[i];
    f->line_info[i] = f->line_info[k];
    f->line_info[k] = x;
    return true;
}

/* After a line went in cycle now: the next line, which goes in the next
** cycle, refused now when the L1D can only refuse it for want of an MSHR
** (a load line; gpu_l1_load_refused), as its request would be then: no
** fill (which unblocks) comes before the next cycle's tick, and this path
** is the L1D's only user (not so inside a pool front end).  It waits
** blocked from now on; the next cycle's tick, or its skip, counts the
** refusal (l1_resfail_skipped, in the same statistic) and the stall
** (gpu_ldst.stall_from) of the retry it spares. */
static void refuse_ahead(fermi *f, uint64_t now)
{
    gpu_ldst *u = f->fe.u;
    uint32_t i = f->next;
    if (f->banked || u->fe != &f->fe || i < f->const_lines || (f->cur->flags & EXEC_SI_ATOMIC) ||
        !(f->cur->flags & EXEC_SI_LOAD) || !gpu_l1_load_refused(u->l1d, f->lines[i], f->line_info[i].sectors))
        return;
    gpu_mreq *r = line_req(f, i);
    gpu_l1_note_refused(u->l1d, r);
    f->retry = r;
    f->blocked = true;
    u->stall_from = now + 1;
}

static void fermi_tick(gpu_ldst_fe *fe, uint64_t now)
{
    fermi *f = F(fe);
    gpu_ldst *u = fe->u;
    gpu_memop *m = f->cur;
    if (!m) return;
    if (f->next < f->nlines) {
        if (f->blocked) {
            /* the L1D refused its line (retry), and no fill or departure since: it would be refused again */
            u->sm->l1_resfail_skipped++;
            gpu_ldst_stall(u, now);
            return;
        }
        /* one line; banked: more L1D lines, to free banks, until one is refused */
        bool sent = false;
        while (send_line(f, now)) {
            sent = true;
            if (!f->banked || f->next <= f->const_lines || !next_banked(f, now)) break;
        }
        if (!f->retry && f->next < f->nlines) refuse_ahead(f, now);
        /* A line sent moves nothing the SM's other stages look at, and what
        ** follows from it is in the next-event answers: the next line in the
        ** next cycle (fermi_next) or blocked, the L1D's hit and miss queues.
        ** So it does not make the SM's next cycle due by itself, unless this
        ** path is part of another front end, whose next answers for a tick
        ** that moved nothing. */
        if (sent && u->fe != fe) gpu_ldst_moved(u);
    } else if (f->busy_left) {
        f->busy_left--;
        gpu_ldst_moved(u);
    }
    if (f->next < f->nlines || f->busy_left) return;
    /* all handed over: it takes the next instruction next cycle */
    gpu_ldst_moved(u);
    f->cur = NULL;
    if (f->free_at < now + 1) f->free_at = now + 1; /* (accept set it to its ldst.interval) */
    note_free(f);
    if (!m->lines_left) gpu_ldst_finish(u, m, m->t_done > now ? m->t_done : now);
}

/* A line of a pending load came back at cycle now. */
static void fermi_done(gpu_ldst_fe *fe, gpu_mreq *r, uint64_t now)
{
    fermi *f = F(fe);
    gpu_ldst *u = fe->u;
    uint32_t tag = r->tag;
    gpu_mreq_put(u->pool, r);
    if (tag == UINT32_MAX) return;
    tag -= f->tag_base;
    if (tag >= f->npend || !f->pend[tag]) return;
    gpu_memop *m = f->pend[tag];
    if (m->lines_left && --m->lines_left == 0) {
        f->pend[tag] = NULL;
        f->pend_free[f->npend_free++] = tag;
        if (f->cur != m) gpu_ldst_finish(u, m, m->t_done > now ? m->t_done : now);
    }
    gpu_ldst_moved(u);
}

static void fermi_unblock(gpu_ldst_fe *fe) { F(fe)->blocked = false; }

/* A departure frees a miss-queue entry, which a request refused for want
** of an MSHR does not wait for: it stays blocked while the L1D would refuse
** it again (gpu_l1_refuses), which holds until a fill (unblock) when this
** path is the L1D's only user (not so inside a pool front end, whose pool
** takes accesses too).  Its retry would have been refused in the next
** tick: the blocked tick counts that refusal (l1_resfail_skipped, in the
** same statistic) and the same stall. */
static void fermi_depart(gpu_ldst_fe *fe)
{
    fermi *f = F(fe);
    gpu_ldst *u = fe->u;
    if (f->blocked && u->fe == fe && gpu_l1_refuses(u->l1d, f->retry)) return;
    f->blocked = false;
}

static uint64_t fermi_next(const gpu_ldst_fe *fe, uint64_t now)
{
    /* a refused request waits for a reply or a departure from the miss queue (unblock) */
    const fermi *f = CF(fe);
    return f->cur && !f->blocked ? now + 1 : UINT64_MAX;
}

static uint64_t fermi_accept_next(const gpu_ldst_fe *fe, uint64_t now)
{
    /* the instruction being sent leaves only in a tick that moves (its own next, or after done/unblock) */
    const fermi *f = CF(fe);
    return f->cur ? UINT64_MAX : f->free_at;
}

static bool fermi_idle(const gpu_ldst_fe *fe) { return !CF(fe)->cur; }

static void fermi_skip(gpu_ldst_fe *fe, uint64_t k)
{
    fermi *f = F(fe);
    if (f->retry && f->blocked) fe->u->sm->l1_resfail_skipped += k; /* it would have been refused every cycle */
}

static void fermi_abort(gpu_ldst_fe *fe)
{
    fermi *f = F(fe);
    gpu_sm *sm = fe->u->sm;
    /* a load being sent is also pending: freed once */
    for (uint32_t t = 0; t < f->npend; t++)
        if (f->pend[t] && f->pend[t] != f->cur) gpu_memop_put(sm, f->pend[t]);
    f->npend = f->npend_free = 0;
    if (f->cur) gpu_memop_put(sm, f->cur);
    f->cur = NULL;
    note_free(f);
    if (f->retry) gpu_mreq_put(fe->u->pool, f->retry);
    f->retry = NULL;
    f->blocked = false;
}

static void fermi_end(gpu_ldst_fe *fe, gpu_kstats *ks, uint64_t now) {}

/* The Fermi path's operations, shared by the baseline and banked front ends. */
#define FERMI_OPS                                                                                                      \
    .destroy = fermi_destroy, .begin = fermi_begin, .accept = fermi_accept, .tick = fermi_tick, .done = fermi_done, \
    .unblock = fermi_unblock, .depart = fermi_depart, .next = fermi_next, .accept_next = fermi_accept_next, .idle = fermi_idle, .skip = fermi_skip, .abort = fermi_abort,     \
    .end = fermi_end

const gpu_ldst_frontend gpu_ldst_fe_baseline = {.name = "baseline", .chosen = NULL, .create = baseline_create, FERMI_OPS};

const gpu_ldst_frontend gpu_ldst_fe_banked = {.name = "banked", .chosen = banked_chosen, .create = banked_create, FERMI_OPS};
