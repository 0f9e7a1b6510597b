/* icnt.c -- the interconnect's two crossbars (see icnt.h).  Both directions
** are one `xbar`, which differs only in how a packet is routed. */
#include "icnt.h"
#include <stdlib.h>

typedef struct xbar {
    uint32_t nin, nout;
    bool reply;               /* routes by r->sm; else by the address's slice */
    mem_queue *in;            /* owned */
    mem_queue **out;          /* destination queues */
    uint64_t *in_busy, *out_busy;   /* first cycle each port is free */
    uint32_t *rr;             /* per output: the input granted last */
    uint32_t *best, *bestd;   /* per output, this cycle's winner so far */
    uint32_t *touched, ntouched;
    const gpu_mreq **hd;      /* per input: the head whose route is cached */
    uint32_t *hd_out;         /* ... and its output */
    /* the next event as the last tick left it (xbar_tick; gpu_icnt_ticked_next),
    ** and the tick's scratch for it: the inputs that held packets and, per
    ** input, its head's bound without its output port (WON: it was granted) */
    uint64_t nx;
    uint32_t *live, nlive;
    uint64_t *pt;
    /* Parking (the request crossbar; gpu_icnt_room): a head that finds its
    ** slice's queue full waits, counting a stall, in every cycle until the
    ** slice takes from that queue, and the crossbar alone pushes into it.
    ** So it is parked: left out of the arbitration and of the next event,
    ** its stalls counted in bulk from pfrom[i] (and the queue's full cycles
    ** from ofrom[o]) when the queue has room again or the counts are asked
    ** for (gpu_icnt_sync). */
    bool park;
    bool *parked;             /* per input */
    uint64_t *pfrom;          /* per input: its first stall cycle not yet counted */
    uint32_t *npark;          /* per output: its parked inputs */
    uint64_t *ofrom;          /* per output: its queue's first full cycle not yet counted */
    uint64_t *room_at;        /* per output: time from which a parked head may see room (gpu_icnt_room) */
    uint32_t *pout, npout;    /* the outputs with parked inputs */
    uint32_t *sel, nsel;      /* the outputs unpark left their parked inputs on (unpark) */
    /* The inputs a tick looks at, a bit each (words of 64): every input that
    ** holds packets and is not parked has its bit (a packet entering an
    ** empty input sets it, gpu_icnt_new_head; gpu_icnt_tick sets all;
    ** unparking sets it), and parking clears it; the tick clears the bits
    ** of the inputs it finds empty, so it visits the others alone, in the
    ** same order. */
    uint64_t *look;
    uint32_t nlook;           /* words of look */
} xbar;

struct gpu_icnt {
    gpu_icntcfg cfg;
    const gpu_addrmap *map;
    xbar req, rep;
    mem_queue *eject;         /* owned, nsm */
    uint64_t *ej_mask;        /* gpu_icnt_eject_mask */
    uint64_t t_min;           /* time after the last tick */
    gpu_icntstats st;
};

static void xbar_init(xbar *x, uint32_t nin, uint32_t nout, uint32_t cap, bool reply)
{
    x->nin = nin;
    x->nout = nout;
    x->reply = reply;
    x->in = tp_calloc(nin, sizeof *x->in);
    for (uint32_t i = 0; i < nin; i++) mem_queue_init(&x->in[i], cap);
    x->out = tp_calloc(nout, sizeof *x->out);
    x->in_busy = tp_calloc(nin, sizeof *x->in_busy);
    x->out_busy = tp_calloc(nout, sizeof *x->out_busy);
    x->rr = tp_calloc(nout, sizeof *x->rr);
    for (uint32_t o = 0; o < nout; o++) x->rr[o] = nin - 1;   /* input 0 first */
    x->best = tp_calloc(nout, sizeof *x->best);
    x->bestd = tp_calloc(nout, sizeof *x->bestd);
    for (uint32_t o = 0; o < nout; o++) x->bestd[o] = UINT32_MAX;
    x->touched = tp_calloc(nout, sizeof *x->touched);
    x->hd = tp_calloc(nin, sizeof *x->hd);
    x->hd_out = tp_calloc(nin, sizeof *x->hd_out);
    x->nx = UINT64_MAX;
    x->live = tp_calloc(nin, sizeof *x->live);
    x->pt = tp_calloc(nin, sizeof *x->pt);
    x->parked = tp_calloc(nin, sizeof *x->parked);
    x->pfrom = tp_calloc(nin, sizeof *x->pfrom);
    x->npark = tp_calloc(nout, sizeof *x->npark);
    x->ofrom = tp_calloc(nout, sizeof *x->ofrom);
    x->room_at = tp_calloc(nout, sizeof *x->room_at);
    x->pout = tp_calloc(nout, sizeof *x->pout);
    x->sel = tp_calloc(nout, sizeof *x->sel);
    x->nlook = (nin + 63) / 64;
    x->look = tp_calloc(x->nlook, sizeof *x->look);
}

static void xbar_free(xbar *x)
{
    for (uint32_t i = 0; i < x->nin; i++) mem_queue_free(&x->in[i]);
    free(x->in);
    free(x->out);
    free(x->in_busy);
    free(x->out_busy);
    free(x->rr);
    free(x->best);
    free(x->bestd);
    free(x->touched);
    free(x->hd);
    free(x->hd_out);
    free(x->live);
    free(x->pt);
    free(x->parked);
    free(x->pfrom);
    free(x->npark);
    free(x->ofrom);
    free(x->room_at);
    free(x->pout);
    free(x->sel);
    free(x->look);
}

gpu_icnt *gpu_icnt_new(const gpu_icntcfg *cfg, const gpu_addrmap *map, mem_queue *const *slice_in)
{
    gpu_icnt *n = tp_calloc(1, sizeof *n);
    n->cfg = *cfg;
    gpu_icntcfg *c = &n->cfg;
    if (!c->nsm) c->nsm = 1;
    if (!c->nslice) c->nslice = 1;
    if (!c->latency) c->latency = 1;
    if (!c->flit_bytes) c->flit_bytes = 1;
    if (!c->period) c->period = 1;
    n->map = map;
    xbar_init(&n->req, c->nsm, c->nslice, c->queue, false);
    xbar_init(&n->rep, c->nslice, c->nsm, c->queue, true);
    n->req.park = !c->no_park;   /* the SMs' ejection queues are emptied on the SMs' threads: no parking there */
    n->eject = tp_calloc(c->nsm, sizeof *n->eject);
    n->ej_mask = tp_calloc((c->nsm + 63) / 64, sizeof *n->ej_mask);
    for (uint32_t s = 0; s < c->nsm; s++) {
        mem_queue_init(&n->eject[s], c->eject_queue);
        n->rep.out[s] = &n->eject[s];
    }
    for (uint32_t s = 0; s < c->nslice; s++) n->req.out[s] = slice_in[s];
    return n;
}

void gpu_icnt_free(gpu_icnt *n)
{
    if (!n) return;
    xbar_free(&n->req);
    xbar_free(&n->rep);
    for (uint32_t s = 0; s < n->cfg.nsm; s++) mem_queue_free(&n->eject[s]);
    free(n->eject);
    free(n->ej_mask);
    free(n);
}

mem_queue *gpu_icnt_inject(gpu_icnt *n, uint32_t sm) { return &n->req.in[sm]; }
bool gpu_icnt_can_accept(const gpu_icnt *n, uint32_t sm) { return sm < n->cfg.nsm && !mem_queue_full(&n->req.in[sm]); }

void gpu_icnt_accept(gpu_icnt *n, gpu_mreq *r, uint64_t ready)
{
    TP_ASSERT(gpu_icnt_can_accept(n, r->sm));
    mem_queue_push(&n->req.in[r->sm], r, ready);
}

mem_queue *gpu_icnt_reply_in(gpu_icnt *n, uint32_t slice) { return &n->rep.in[slice]; }
mem_queue *gpu_icnt_eject(gpu_icnt *n, uint32_t sm) { return &n->eject[sm]; }
uint64_t *gpu_icnt_eject_mask(gpu_icnt *n) { return n->ej_mask; }
const gpu_icntstats *gpu_icnt_stats(const gpu_icnt *n) { return &n->st; }

uint32_t gpu_icnt_flits(const gpu_icnt *n, const gpu_mreq *r, bool reply)
{
    bool data = reply ? r->kind != GPU_MR_STORE : r->kind != GPU_MR_LOAD;
    uint32_t bytes = n->cfg.ctrl_bytes + (data ? r->bytes : 0);
    uint32_t f = (bytes + n->cfg.flit_bytes - 1) / n->cfg.flit_bytes;
    return f ? f : 1;
}

/* The output input i's head r goes to (cached per head: routing a request
** decodes its address). */
static inline uint32_t route(const gpu_icnt *n, const xbar *x, uint32_t i, const gpu_mreq *r)
{
    if (x->hd[i] == r) return x->hd_out[i];
    uint32_t o = x->reply ? r->sm : gpu_addrmap_slice(n->map, r->addr);
    TP_ASSERT(o < x->nout);
    if (o >= x->nout) o = x->nout - 1;
    ((xbar *)x)->hd[i] = r;   /* a cache: not part of the crossbar's state */
    x->hd_out[i] = o;
    return o;
}

static const uint64_t WON = UINT64_MAX;

/* The first cycle output o can grant: when at most out_buffer flits still
** wait for its link (icnt.h, "Output buffers"). */
static inline uint64_t out_from(const gpu_icnt *n, const xbar *x, uint32_t o)
{
    return x->out_busy[o] > n->cfg.out_buffer ? x->out_busy[o] - n->cfg.out_buffer : 0;
}

/* The time input i's head can move: its ready time, its input port's and
** its output port's free times, and not before t_min (UINT64_MAX: no head). */
static uint64_t head_next(const gpu_icnt *n, const xbar *x, uint32_t i, uint64_t t_min)
{
    const mem_queue *q = &x->in[i];
    if (mem_queue_empty(q)) return UINT64_MAX;
    uint64_t p = n->cfg.period;
    uint32_t o = route(n, x, i, mem_queue_head(q));
    if (x->parked[i]) {   /* waits for room, and then for the next tick to see it */
        if (mem_queue_full(x->out[o])) return UINT64_MAX;
        return x->room_at[o] > t_min ? x->room_at[o] : t_min;
    }
    uint64_t t = mem_queue_head_ready(q);
    if (x->in_busy[i] * p > t) t = x->in_busy[i] * p;
    uint64_t of = out_from(n, x, o) * p;
    if (of > t) t = of;
    return t < t_min ? t_min : t;
}

/* Counts the stalls of the cycles before c of the inputs parked on output
** o, and its queue's full cycles, as if each had been looked at in each. */
static void park_count(gpu_icnt *n, xbar *x, uint32_t o, uint64_t c)
{
    mem_queue *q = x->out[o];
    if (c > x->ofrom[o]) {
        q->full_cycles += c - x->ofrom[o];
        q->full_at = (c - 1) * n->cfg.period + 1;   /* as mem_queue_stall at cycle c - 1 left it */
        x->ofrom[o] = c;
    }
    for (uint32_t i = 0; i < x->nin; i++)
        if (x->parked[i] && x->hd_out[i] == o && c > x->pfrom[i]) {
            n->st.stall_cycles += c - x->pfrom[i];
            x->pfrom[i] = c;
        }
}

/* Output o's parked inputs looked at again from cycle c on (their bits set). */
static void release(xbar *x, uint32_t o)
{
    for (uint32_t i = 0; i < x->nin; i++)
        if (x->parked[i] && x->hd_out[i] == o) {
            x->parked[i] = false;
            x->look[i / 64] |= 1ull << (i % 64);
        }
    x->npark[o] = 0;
}

/* At the start of cycle c: the inputs parked on outputs whose queues have
** room again are counted up to c.  All of them could go at c (each was
** ready, its input port free and its output port able to grant when it
** parked, and nothing has moved those since: only grants do, and nothing
** is granted to a full queue), so the arbitration takes only the one the
** round robin would pick among them (bestd, best) and leaves the others
** parked; the tick decides after its grants what they would have done
** (settle).  Looked at one by one, each of them would have been a loser
** at c and, with the queue full again at c + 1, parked again there: the
** herd of heads waiting on one slice, all looked at in each cycle a slot
** frees.  Should the output port not be able to grant at c (it can, by the
** above; the check keeps the rule local), they are all looked at again as
** before. */
static void unpark(gpu_icnt *n, xbar *x, uint64_t c)
{
    for (uint32_t k = 0; k < x->npout;) {
        uint32_t o = x->pout[k];
        if (mem_queue_full(x->out[o])) {
            k++;
            continue;
        }
        park_count(n, x, o, c);
        if (x->out_busy[o] > c + n->cfg.out_buffer) {
            release(x, o);
            x->pout[k] = x->pout[--x->npout];
            continue;
        }
        for (uint32_t d = 0; d < x->nin; d++) {   /* the first parked input after rr[o], as the tick's (...) mod nin */
            uint32_t i = x->rr[o] + 1 + d;
            if (i >= x->nin) i -= x->nin;
            if (x->parked[i] && x->hd_out[i] == o) {
                x->bestd[o] = d;
                x->best[o] = i;
                x->touched[x->ntouched++] = o;
                break;
            }
        }
        x->sel[x->nsel++] = o;
        k++;
    }
}

/* After the grants of cycle c (time t): the inputs still parked on an
** output that unpark left them on.  They were not stalled at c (the queue
** had room).  At c + 1 each would be looked at: if its output port cannot
** grant then, it waits for the port without a stall, so they are looked
** at again as before (released, their next events found); else it either
** stalls and parks (the queue full: counted in bulk from c + 1, pfrom and
** ofrom, as park_count does) or goes into the arbitration (room: unpark
** at c + 1 does that, the crossbar's next event at t + 1).  Returns the
** smallest next event of the inputs released or waiting for c + 1. */
static uint64_t settle(gpu_icnt *n, xbar *x, uint64_t c, uint64_t t)
{
    uint64_t nx = UINT64_MAX;
    for (uint32_t k = 0; k < x->nsel; k++) {
        uint32_t o = x->sel[k];
        bool out = !x->npark[o];   /* its parked head won: none left */
        if (!out && x->out_busy[o] > c + 1 + n->cfg.out_buffer) {
            for (uint32_t i = 0; i < x->nin; i++)
                if (x->parked[i] && x->hd_out[i] == o) {
                    x->parked[i] = false;
                    x->look[i / 64] |= 1ull << (i % 64);
                    uint64_t e = head_next(n, x, i, t + 1);
                    if (e < nx) nx = e;
                }
            x->npark[o] = 0;
            out = true;
        }
        if (out) {
            for (uint32_t j = 0; j < x->npout; j++)
                if (x->pout[j] == o) {
                    x->pout[j] = x->pout[--x->npout];
                    break;
                }
            continue;
        }
        for (uint32_t i = 0; i < x->nin; i++)
            if (x->parked[i] && x->hd_out[i] == o) x->pfrom[i] = c + 1;
        x->ofrom[o] = c + 1;
        if (!mem_queue_full(x->out[o])) {
            if (x->room_at[o] < t + 1) x->room_at[o] = t + 1;
            if (x->room_at[o] < nx) nx = x->room_at[o];
        }
    }
    x->nsel = 0;
    return nx;
}

/* Cycle c (time t) of one crossbar.  It also finds the crossbar's next
** event after the tick (x->nx, what xbar_next would answer then): each head's
** bound but its output port's is taken in the arbitration pass, the output
** ports' free times (which the grants move) and the granted inputs' new
** heads after the grants. */
static void xbar_tick(gpu_icnt *n, xbar *x, uint64_t c, uint64_t t)
{
    uint64_t p = n->cfg.period, t_min = t + 1;   /* n->t_min after the tick */
    x->ntouched = 0;
    x->nlive = 0;
    x->nsel = 0;
    if (x->npout) unpark(n, x, c);
    for (uint32_t w = 0; w < x->nlook; w++)
    for (uint64_t bits = x->look[w]; bits; bits &= bits - 1) {   /* the inputs that may hold packets, in order */
        uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
        const mem_queue *q = &x->in[i];
        if (mem_queue_empty(q)) {
            x->look[w] &= ~(1ull << (i % 64));   /* until a packet enters it (gpu_icnt_new_head) */
            continue;
        }
        TP_ASSERT(!x->parked[i]);
        const gpu_mreq *r = mem_queue_head(q);
        uint64_t hr = mem_queue_head_ready(q);
        uint32_t o = route(n, x, i, r);
        uint64_t b = x->in_busy[i] * p > hr ? x->in_busy[i] * p : hr;
        x->pt[i] = b < t_min ? t_min : b;
        x->live[x->nlive++] = i;
        if (hr > t || x->in_busy[i] > c) continue;
        if (x->out_busy[o] > c + n->cfg.out_buffer) continue;   /* more flits wait for its link than it buffers */
        if (mem_queue_full(x->out[o])) {
            n->st.stall_cycles++;
            if (!x->park) {
                mem_queue_stall(x->out[o], t);
                continue;
            }
            if (!x->npark[o]++) {   /* the queue's full cycles from c + 1 on are counted in bulk */
                mem_queue_stall(x->out[o], t);
                x->ofrom[o] = c + 1;
                x->pout[x->npout++] = o;
            }
            x->parked[i] = true;
            x->look[w] &= ~(1ull << (i % 64));   /* until unparked */
            x->pfrom[i] = c + 1;
            x->nlive--;   /* out of the next event until its queue has room */
            continue;
        }
        uint32_t d = i + x->nin - x->rr[o] - 1;   /* (...) mod nin: i and rr[o] are below nin */
        if (d >= x->nin) d -= x->nin;
        if (x->bestd[o] == UINT32_MAX) x->touched[x->ntouched++] = o;
        if (d < x->bestd[o]) {
            x->bestd[o] = d;
            x->best[o] = i;
        }
    }
    for (uint32_t k = 0; k < x->ntouched; k++) {
        uint32_t o = x->touched[k], i = x->best[o];
        x->bestd[o] = UINT32_MAX;
        if (x->parked[i]) {   /* unpark's pick among the parked heads won */
            x->parked[i] = false;
            x->npark[o]--;
            x->look[i / 64] |= 1ull << (i % 64);
            x->live[x->nlive++] = i;
        }
        gpu_mreq *r = mem_queue_pop(&x->in[i]);
        x->hd[i] = NULL;
        x->pt[i] = WON;
        uint32_t f = gpu_icnt_flits(n, r, x->reply);
        uint64_t st = x->out_busy[o] > c ? x->out_busy[o] : c;   /* its link sends it from st */
        x->in_busy[i] = c + f;
        x->out_busy[o] = st + f;
        x->rr[o] = i;
        mem_queue_push(x->out[o], r, (st + n->cfg.latency + f - 1) * n->cfg.period);
        n->st.packets++;
        n->st.flits += f;
        if (x->reply) {
            r->t_back = t;
            n->st.reply_packets++;
            n->ej_mask[o / 64] |= 1ull << (o % 64);
        } else {
            n->st.req_packets++;
        }
    }
    uint64_t nx = x->nsel ? settle(n, x, c, t) : UINT64_MAX;
    for (uint32_t k = 0; k < x->nlive; k++) {
        uint32_t i = x->live[k];
        uint64_t e;
        if (x->pt[i] == WON) {
            e = head_next(n, x, i, t_min);
        } else {   /* the same head: its output's port may have been granted to another */
            uint64_t ob = out_from(n, x, x->hd_out[i]) * p;
            e = ob > x->pt[i] ? ob : x->pt[i];
        }
        if (e < nx) nx = e;
    }
    x->nx = nx;
}

void gpu_icnt_tick_dirs(gpu_icnt *n, uint64_t c, unsigned dirs)
{
    uint64_t t = c * n->cfg.period;
    if (dirs & GPU_ICNT_REQ) xbar_tick(n, &n->req, c, t);
    else n->req.ntouched = 0;   /* pushed into no slice (gpu_icnt_req_pushed) */
    if (dirs & GPU_ICNT_REP) xbar_tick(n, &n->rep, c, t);
    n->t_min = t + 1;
}

/* Every input looked at: packets may have entered without gpu_icnt_new_head. */
static void look_all(xbar *x)
{
    for (uint32_t i = 0; i < x->nin; i++)
        if (!x->parked[i]) x->look[i / 64] |= 1ull << (i % 64);
}

void gpu_icnt_tick(gpu_icnt *n, uint64_t c)
{
    look_all(&n->req);
    look_all(&n->rep);
    gpu_icnt_tick_dirs(n, c, GPU_ICNT_REQ | GPU_ICNT_REP);
}

static uint64_t xbar_next(const gpu_icnt *n, const xbar *x, uint64_t best)
{
    for (uint32_t i = 0; i < x->nin; i++) {
        uint64_t t = head_next(n, x, i, n->t_min);
        if (t < best) best = t;
    }
    return best;
}

uint64_t gpu_icnt_ticked_next(const gpu_icnt *n, bool reply) { return reply ? n->rep.nx : n->req.nx; }

const uint32_t *gpu_icnt_parked(const gpu_icnt *n) { return n->req.npark; }

uint64_t gpu_icnt_room(gpu_icnt *n, uint32_t slice, uint64_t t)
{
    xbar *x = &n->req;
    if (!x->npark[slice] || mem_queue_full(x->out[slice])) return UINT64_MAX;
    if (t + 1 > x->room_at[slice]) x->room_at[slice] = t + 1;
    return x->room_at[slice] > n->t_min ? x->room_at[slice] : n->t_min;
}

void gpu_icnt_sync(gpu_icnt *n, uint64_t c)
{
    xbar *x = &n->req;
    for (uint32_t k = 0; k < x->npout; k++) park_count(n, x, x->pout[k], c);
}

uint64_t gpu_icnt_head_next(const gpu_icnt *n, bool reply, uint32_t i)
{
    return head_next(n, reply ? &n->rep : &n->req, i, n->t_min);
}

uint64_t gpu_icnt_new_head(gpu_icnt *n, bool reply, uint32_t i)
{
    xbar *x = reply ? &n->rep : &n->req;
    x->look[i / 64] |= 1ull << (i % 64);
    return head_next(n, x, i, n->t_min);
}

uint32_t gpu_icnt_req_pushed(const gpu_icnt *n, const uint32_t **slices)
{
    *slices = n->req.touched;
    return n->req.ntouched;
}

uint64_t gpu_icnt_next(const gpu_icnt *n)
{
    return xbar_next(n, &n->rep, xbar_next(n, &n->req, UINT64_MAX));
}

uint64_t gpu_icnt_next_dir(const gpu_icnt *n, bool reply)
{
    return xbar_next(n, reply ? &n->rep : &n->req, UINT64_MAX);
}

bool gpu_icnt_idle(const gpu_icnt *n)
{
    for (uint32_t i = 0; i < n->req.nin; i++)
        if (!mem_queue_empty(&n->req.in[i])) return false;
    for (uint32_t i = 0; i < n->rep.nin; i++)
        if (!mem_queue_empty(&n->rep.in[i])) return false;
    return true;
}
