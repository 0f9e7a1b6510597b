/*
** dram.c -- one GDDR5 channel (see dram.h for the model and its timing).
**
** State is kept as "earliest cycle" bounds, so a command's earliest issue
** cycle is the maximum of the bounds that apply to it, and the channel's
** next state change is the smallest such maximum over the banks'
** candidates: nothing changes between two issued commands except time,
** which is what lets the memory system skip the cycles in between.
** Requests live in a fixed array of cfg.queue entries; each bank chains its
** own in arrival order.
*/
#include "dram.h"
#include <stdlib.h>

enum { NONE = UINT32_MAX };

typedef struct dent {
    gpu_mreq *r;
    uint64_t seq, row;
    uint32_t bank, next;
    uint16_t occ, port;
    bool write, opened;
} dent;

typedef struct dbank {
    uint32_t head, tail, n;
    uint32_t nhit;            /* requests in the list for the open row */
    uint32_t cand;            /* cached candidate (NONE: to be found again) */
    bool open;
    uint64_t row;
    uint64_t act_ok, pre_ok, col_ok;
} dbank;

struct gpu_dram {
    gpu_dramcfg cfg;
    const gpu_addrmap *map;
    gpu_mreq_pool *pool;
    mem_queue **in;
    mem_queue *ret;
    dent *e;
    dbank *b;
    uint64_t *ccdl_ok;        /* per bank group */
    uint32_t free_head, n, rr;
    uint32_t burst_cycles;    /* ceil(burst / data_rate) */
    uint64_t seq;
    uint64_t rrd_ok, ccd_ok, rd_ok, bus_free, cmd_ok;
    uint8_t last_dir;         /* 0 none, 1 read, 2 write */
    uint64_t cmd_wake;        /* cycle of the next possible command (UINT64_MAX: none) */
    uint64_t t_min;           /* time after the last tick */
    gpu_dramcmd *trace;
    uint32_t trace_cap, ntrace;
    gpu_dramstats st;
};

gpu_dram *gpu_dram_new(const gpu_dramcfg *cfg, const gpu_addrmap *map, gpu_mreq_pool *pool, mem_queue *const *in)
{
    gpu_dram *d = tp_calloc(1, sizeof *d);
    d->cfg = *cfg;
    gpu_dramcfg *c = &d->cfg;
    if (!c->banks) c->banks = 1;
    if (!c->bank_groups) c->bank_groups = 1;
    if (!c->bus_bytes) c->bus_bytes = 1;
    if (!c->burst) c->burst = 1;
    if (!c->data_rate) c->data_rate = 1;
    if (!c->queue) c->queue = 1;
    if (!c->return_queue) c->return_queue = 1;
    if (!c->ports) c->ports = 1;
    if (!c->period) c->period = 1;
    d->map = map;
    d->pool = pool;
    d->in = tp_calloc(c->ports, sizeof *d->in);
    d->ret = tp_calloc(c->ports, sizeof *d->ret);
    for (uint32_t p = 0; p < c->ports; p++) {
        d->in[p] = in ? in[p] : NULL;
        mem_queue_init(&d->ret[p], c->return_queue);
    }
    d->e = tp_calloc(c->queue, sizeof *d->e);
    for (uint32_t i = 0; i < c->queue; i++) d->e[i].next = i + 1 < c->queue ? i + 1 : NONE;
    d->b = tp_calloc(c->banks, sizeof *d->b);
    for (uint32_t i = 0; i < c->banks; i++) d->b[i].head = d->b[i].tail = d->b[i].cand = NONE;
    d->ccdl_ok = tp_calloc(c->bank_groups, sizeof *d->ccdl_ok);
    d->burst_cycles = (c->burst + c->data_rate - 1) / c->data_rate;
    d->cmd_wake = UINT64_MAX;
    return d;
}

void gpu_dram_free(gpu_dram *d)
{
    if (!d) return;
    for (uint32_t p = 0; p < d->cfg.ports; p++) mem_queue_free(&d->ret[p]);
    free(d->ret);
    free(d->in);
    free(d->e);
    free(d->b);
    free(d->ccdl_ok);
    free(d);
}

mem_queue *gpu_dram_ret(gpu_dram *d, uint32_t port) { return &d->ret[port]; }
bool gpu_dram_can_accept(const gpu_dram *d) { return d->n < d->cfg.queue; }
const gpu_dramstats *gpu_dram_stats(const gpu_dram *d) { return &d->st; }

void gpu_dram_trace(gpu_dram *d, gpu_dramcmd *buf, uint32_t cap)
{
    d->trace = buf;
    d->trace_cap = buf ? cap : 0;
    d->ntrace = 0;
}

uint32_t gpu_dram_traced(const gpu_dram *d) { return d->ntrace; }

/* Data-bus cycles of a request of `bytes` bytes. */
static uint16_t occupancy(const gpu_dramcfg *c, uint32_t bytes)
{
    uint32_t per = c->burst * c->bus_bytes;
    uint32_t bursts = bytes ? (bytes + per - 1) / per : 1;
    return (uint16_t)((bursts * c->burst + c->data_rate - 1) / c->data_rate);
}

void gpu_dram_accept(gpu_dram *d, gpu_mreq *r, uint64_t cycle)
{
    TP_ASSERT(d->n < d->cfg.queue && d->free_head != NONE);
    uint32_t i = d->free_head;
    dent *q = &d->e[i];
    d->free_head = q->next;
    gpu_maddr a;
    gpu_addrmap_decode(d->map, r->addr, &a);
    q->r = r;
    q->seq = d->seq++;
    q->row = a.row;
    q->bank = a.bank % d->cfg.banks;
    q->next = NONE;
    q->occ = occupancy(&d->cfg, r->bytes);
    q->port = (uint16_t)(r->src < d->cfg.ports ? r->src : 0);
    q->write = r->kind == GPU_MR_STORE;
    q->opened = false;
    dbank *b = &d->b[q->bank];
    if (b->open && b->row == q->row) b->nhit++;
    if (b->tail == NONE) b->head = i;
    else d->e[b->tail].next = i;
    b->tail = i;
    b->n++;
    b->cand = NONE;
    d->n++;
    if (cycle < d->cmd_wake) d->cmd_wake = cycle;
}

static inline uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t sat_sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

enum { C_ACT, C_PRE, C_COL };

/* The bank's candidate request (index) under the scheduling policy; cached
** until the bank's list or row changes (a cache: scan is const). */
static uint32_t candidate(const gpu_dram *d, const dbank *b)
{
    if (b->cand != NONE) return b->cand;
    uint32_t c = b->head;
    if (!d->cfg.fcfs && b->nhit)
        for (uint32_t i = b->head; i != NONE; i = d->e[i].next)
            if (d->e[i].row == b->row) {
                c = i;
                break;
            }
    ((dbank *)b)->cand = c;
    return c;
}

/* Earliest cycle the candidate's next command may issue; *cmd gets which. */
static uint64_t earliest(const gpu_dram *d, const dbank *b, const dent *q, int *cmd)
{
    const gpu_dramcfg *c = &d->cfg;
    if (!b->open) {
        *cmd = C_ACT;
        return umax(umax(b->act_ok, d->rrd_ok), d->cmd_ok);
    }
    if (b->row != q->row) {
        *cmd = C_PRE;
        return umax(b->pre_ok, d->cmd_ok);
    }
    *cmd = C_COL;
    uint64_t t = umax(umax(b->col_ok, d->ccd_ok), umax(d->ccdl_ok[q->bank % c->bank_groups], d->cmd_ok));
    if (q->write) return umax(t, sat_sub(d->bus_free + (d->last_dir == 1 ? c->turnaround : 0), c->tWL));
    return umax(umax(t, d->rd_ok), sat_sub(d->bus_free, c->tCL));
}

static bool return_full(const gpu_dram *d)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < d->cfg.ports; p++) n += mem_queue_count(&d->ret[p]);
    return n >= d->cfg.return_queue;
}

/* Scans the banks at cycle c: the command to issue now (*best, NONE if
** none) and the earliest cycle > c at which another could (return). */
static uint64_t scan(const gpu_dram *d, uint64_t c, uint32_t *best, int *best_cmd, bool *blocked)
{
    uint64_t wake = UINT64_MAX, best_key = UINT64_MAX;
    bool rfull = return_full(d);
    *best = NONE;
    *blocked = false;
    for (uint32_t k = 0; k < d->cfg.banks; k++) {
        const dbank *b = &d->b[k];
        if (!b->n) continue;
        uint32_t i = candidate(d, b);
        const dent *q = &d->e[i];
        int cmd;
        uint64_t t = earliest(d, b, q, &cmd);
        if (cmd == C_COL && !q->write && rfull) {
            if (t <= c) *blocked = true;
            wake = umax(c + 1, t) < wake ? umax(c + 1, t) : wake;
            continue;
        }
        if (t > c) {
            if (t < wake) wake = t;
            continue;
        }
        uint64_t key = q->seq;
        if (!d->cfg.fcfs && cmd != C_COL) key |= 1ull << 63;
        if (key < best_key) {
            best_key = key;
            *best = i;
            *best_cmd = cmd;
        }
    }
    return wake;
}

static void record(gpu_dram *d, uint64_t c, int kind, const dent *q)
{
    if (d->ntrace >= d->trace_cap) return;
    gpu_dramcmd *t = &d->trace[d->ntrace++];
    t->cycle = c;
    t->kind = (uint8_t)kind;
    t->bank = q->bank;
    t->row = q->row;
    t->r = q->r;
}

static void unlink_entry(gpu_dram *d, uint32_t i)
{
    dent *q = &d->e[i];
    dbank *b = &d->b[q->bank];
    uint32_t prev = NONE;
    for (uint32_t k = b->head; k != i; k = d->e[k].next) prev = k;
    if (prev == NONE) b->head = q->next;
    else d->e[prev].next = q->next;
    if (b->tail == i) b->tail = prev;
    b->n--;
    d->n--;
    q->r = NULL;
    q->next = d->free_head;
    d->free_head = i;
}

static void issue(gpu_dram *d, uint64_t c, uint32_t i, int cmd)
{
    const gpu_dramcfg *cf = &d->cfg;
    dent *q = &d->e[i];
    dbank *b = &d->b[q->bank];
    d->cmd_ok = c + 1;
    b->cand = NONE;
    if (cmd == C_ACT) {
        b->open = true;
        b->row = q->row;
        b->nhit = 0;
        for (uint32_t k = b->head; k != NONE; k = d->e[k].next) b->nhit += d->e[k].row == b->row;
        b->col_ok = c + cf->tRCD;
        b->pre_ok = umax(b->pre_ok, c + cf->tRAS);
        b->act_ok = umax(b->act_ok, c + cf->tRC);
        d->rrd_ok = c + cf->tRRD;
        q->opened = true;
        d->st.activates++;
        if (d->trace) record(d, c, GPU_DRAM_ACT, q);
        return;
    }
    if (cmd == C_PRE) {
        b->open = false;
        b->nhit = 0;
        b->act_ok = umax(b->act_ok, c + cf->tRP);
        q->opened = true;
        d->st.precharges++;
        if (d->trace) record(d, c, GPU_DRAM_PRE, q);
        return;
    }
    uint64_t start = c + (q->write ? cf->tWL : cf->tCL), end = start + q->occ;
    uint64_t last = c + sat_sub(q->occ, d->burst_cycles);   /* the request's last burst */
    b->nhit--;
    d->bus_free = end;
    d->ccd_ok = umax(d->ccd_ok, last + cf->tCCD);
    uint64_t *g = &d->ccdl_ok[q->bank % cf->bank_groups];
    *g = umax(*g, last + cf->tCCDL);
    d->st.busy_cycles += q->occ;
    if (!q->opened) d->st.row_hits++;
    if (d->trace) record(d, c, q->write ? GPU_DRAM_WR : GPU_DRAM_RD, q);
    if (q->write) {
        d->last_dir = 2;
        b->pre_ok = umax(b->pre_ok, end + cf->tWR);
        d->rd_ok = umax(d->rd_ok, end + cf->tCDLR);
        d->st.writes++;
        gpu_mreq_put(d->pool, q->r);
    } else {
        d->last_dir = 1;
        b->pre_ok = umax(b->pre_ok, last + cf->tRTPL);
        d->st.reads++;
        mem_queue_push(&d->ret[q->port], q->r, end * cf->period + cf->latency);
    }
    unlink_entry(d, i);
}

void gpu_dram_tick(gpu_dram *d, uint64_t c)
{
    uint64_t t = c * d->cfg.period;
    /* take one request from the ports, round robin */
    for (uint32_t k = 0; k < d->cfg.ports; k++) {
        uint32_t p = (d->rr + k) % d->cfg.ports;
        gpu_mreq *r = d->in[p] ? mem_queue_peek(d->in[p], t) : NULL;
        if (!r) continue;
        if (d->n >= d->cfg.queue) {
            d->st.queue_full_cycles++;
            break;
        }
        mem_queue_pop(d->in[p]);
        gpu_dram_accept(d, r, c);
        d->rr = (p + 1) % d->cfg.ports;
        break;
    }
    d->t_min = t + 1;
    if (d->cmd_wake > c) return;   /* nothing can issue yet */
    uint32_t best;
    int cmd = C_ACT;
    bool blocked;
    d->cmd_wake = scan(d, c, &best, &cmd, &blocked);
    if (blocked && best == NONE) d->st.return_stall_cycles++;
    if (best == NONE) return;
    issue(d, c, best, cmd);
    d->cmd_wake = d->n ? scan(d, c, &best, &cmd, &blocked) : UINT64_MAX;
    TP_ASSERT(best == NONE || d->cmd_ok > c);
    if (d->n && d->cmd_wake <= c) d->cmd_wake = c + 1;
}

uint64_t gpu_dram_next(const gpu_dram *d)
{
    uint64_t t = d->cmd_wake == UINT64_MAX ? UINT64_MAX : umax(d->cmd_wake * d->cfg.period, d->t_min);
    for (uint32_t p = 0; p < d->cfg.ports; p++) {
        if (!d->in[p] || mem_queue_empty(d->in[p])) continue;
        uint64_t h = umax(mem_queue_head_ready(d->in[p]), d->t_min);
        if (h < t) t = h;
    }
    return t;
}

bool gpu_dram_idle(const gpu_dram *d)
{
    if (d->n) return false;
    for (uint32_t p = 0; p < d->cfg.ports; p++)
        if (!mem_queue_empty(&d->ret[p]) || (d->in[p] && !mem_queue_empty(d->in[p]))) return false;
    return true;
}
