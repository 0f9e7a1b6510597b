/*
** dram.c -- one GDDR5/GDDR6 channel (see dram.h for the model and its timing).
**
** State is kept as "earliest cycle" bounds, so a command's earliest issue
** cycle is the maximum of the bounds that apply to it, and the channel's
** next state change is the smallest such maximum over the banks'
** candidates and the refresh due: nothing changes between two issued
** commands except time, which is what lets the memory system skip the
** cycles in between.  Requests live in a fixed array of cfg.queue entries;
** each bank chains its own in arrival order.
*/
#include "dram.h"
#include "options.h"
#include <stdlib.h>

enum { NONE = UINT32_MAX };
static const uint64_t NEVER = UINT64_MAX;

typedef struct dent {
    gpu_mreq *r;
    uint64_t seq, row;
    uint32_t bank, next;
    uint16_t bursts, left, port;   /* bursts of the request, bursts still to issue */
    bool write, opened;
} dent;

/* The class of a bank candidate's next command, which decides the bounds it
** waits for: K_WR, K_RD and K_RDL are column commands, K_RDL a read's last
** burst (which needs room in the return queue).  K_N: a power of two for
** the arrays indexed by class. */
enum { K_ACT, K_PRE, K_WR, K_RD, K_RDL, K_N = 8 };

typedef struct dbank {
    uint32_t head, tail, n;
    uint32_t nhit;            /* requests in the list for the open row */
    uint32_t cand;            /* cached candidate (NONE: to be found again) */
    uint32_t group;           /* its bank group: bank mod bank_groups */
    uint32_t lim;             /* with cand: group * K_N + the class of its next command (K_*) */
    uint64_t bt;              /* with cand: the bank's own bound for that command (see bank_cache) */
    bool open, partial;       /* partial: its candidate has issued some of its bursts */
    uint64_t row;
    uint64_t act_ok, pre_ok, col_ok, wcol_ok;   /* col_ok: RD (tRCD), wcol_ok: WR (tRCDWR) */
} dbank;

struct gpu_dram {
    gpu_dramcfg cfg;
    const gpu_addrmap *map;
    gpu_mreq_pool *pool;
    mem_queue **in;
    mem_queue *ret;
    dent *e;
    dbank *b;
    uint64_t *occ;            /* bit k: bank k has requests (scan visits only those) */
    uint32_t nocc;            /* words of occ */
    uint64_t *ccdl_ok, *rrdl_ok, *wtrl_ok;   /* per bank group */
    uint64_t *glim;           /* per bank group and command class: the group's bound (group_limits) */
    uint64_t kprio[K_N];      /* per class: the scan's key bit (FR-FCFS: row hits, K_WR and up, first) */
    uint32_t free_head, n, rr;
    uint32_t bc;              /* data-bus cycles of one burst: ceil(burst / data_rate) */
    uint32_t npartial;        /* banks whose candidate is part way through its bursts */
    uint64_t seq;
    uint64_t returned;        /* reads pushed into the return queues, ever (gpu_dram_returned) */
    uint64_t rrd_ok, ccd_ok, rd_ok, bus_free, cmd_ok;
    uint64_t faw[4];          /* the last four ACTs (0: none yet), faw[fi] the oldest */
    uint32_t fi, nact;
    uint8_t last_dir;         /* 0 none, 1 read, 2 write */
    /* refresh */
    uint64_t ref_due;         /* when the next refresh falls due (NEVER: none) */
    uint32_t ref_bank;        /* per-bank: the bank it is for */
    uint64_t ref_step;        /* cycles between two refreshes: tREFI, or tREFI / banks */
    uint64_t refpb_ok;        /* tRREFD after the last REFpb */
    uint64_t cmd_wake;        /* cycle of the next possible command (NEVER: none) */
    uint64_t t_min;           /* time after the last tick */
    gpu_dramcmd *trace;
    uint32_t trace_cap, ntrace;
    gpu_dramstats st;
};


void gpu_dram_cfg_opts(gpu_dramcfg *c, const struct tp_opts *o, uint32_t channel)
{
#define O(id) ((uint32_t)tp_opt_i(o, id))
    memset(c, 0, sizeof *c);
    c->channel = channel;
    c->banks = O(OPT_DRAM_BANKS);
    c->bank_groups = O(OPT_DRAM_BANK_GROUPS);
    c->bus_bytes = O(OPT_DRAM_BUS_BYTES);
    c->burst = O(OPT_DRAM_BURST);
    c->data_rate = O(OPT_DRAM_DATA_RATE);
    c->queue = O(OPT_DRAM_QUEUE);
    c->return_queue = O(OPT_DRAM_RETURN_QUEUE);
    c->fcfs = tp_opt_i(o, OPT_DRAM_SCHEDULER) == 1;
    c->tRCD = O(OPT_DRAM_T_RCD);
    c->tRCDWR = O(OPT_DRAM_T_RCDWR);
    c->tRP = O(OPT_DRAM_T_RP);
    c->tRAS = O(OPT_DRAM_T_RAS);
    c->tRC = O(OPT_DRAM_T_RC);
    c->tCL = O(OPT_DRAM_T_CL);
    c->tWL = O(OPT_DRAM_T_WL);
    c->tCCD = O(OPT_DRAM_T_CCD);
    c->tCCDL = O(OPT_DRAM_T_CCDL);
    c->tRRD = O(OPT_DRAM_T_RRD);
    c->tRRDL = O(OPT_DRAM_T_RRDL);
    c->tFAW = O(OPT_DRAM_T_FAW);
    c->tWR = O(OPT_DRAM_T_WR);
    c->tCDLR = O(OPT_DRAM_T_CDLR);
    c->tWTRL = O(OPT_DRAM_T_WTRL);
    c->tRTPL = O(OPT_DRAM_T_RTPL);
    c->turnaround = O(OPT_DRAM_TURNAROUND);
    c->refresh = (uint8_t)tp_opt_i(o, OPT_DRAM_REFRESH);
    c->tREFI = O(OPT_DRAM_T_REFI);
    c->tRFC = O(OPT_DRAM_T_RFC);
    c->tRFCpb = O(OPT_DRAM_T_RFCPB);
    c->tRREFD = O(OPT_DRAM_T_RREFD);
    uint32_t nch = O(OPT_DRAM_CHANNELS);
    c->refresh_phase = nch ? (uint64_t)c->tREFI * channel / nch : 0;
#undef O
}

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
    if (!c->tRRDL) c->tRRDL = c->tRRD;
    if (!c->tWTRL) c->tWTRL = c->tCDLR;
    if (!c->tRCDWR) c->tRCDWR = c->tRCD;
    if (!c->tREFI) c->refresh = GPU_DRAM_REF_NONE;
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
    d->nocc = (c->banks + 63) / 64;
    d->occ = tp_calloc(d->nocc, sizeof *d->occ);
    for (uint32_t i = 0; i < c->banks; i++) {
        d->b[i].head = d->b[i].tail = d->b[i].cand = NONE;
        d->b[i].group = i % c->bank_groups;
    }
    d->ccdl_ok = tp_calloc(c->bank_groups, sizeof *d->ccdl_ok);
    d->rrdl_ok = tp_calloc(c->bank_groups, sizeof *d->rrdl_ok);
    d->wtrl_ok = tp_calloc(c->bank_groups, sizeof *d->wtrl_ok);
    d->glim = tp_calloc((size_t)c->bank_groups * K_N, sizeof *d->glim);
    d->bc = (c->burst + c->data_rate - 1) / c->data_rate;
    for (uint32_t k = 0; k < K_N; k++) d->kprio[k] = !c->fcfs && k < K_WR ? 1ull << 63 : 0;
    d->cmd_wake = NEVER;
    d->ref_due = NEVER;
    if (c->refresh != GPU_DRAM_REF_NONE) {
        d->ref_step = c->refresh == GPU_DRAM_REF_BANK ? c->tREFI / c->banks : c->tREFI;
        if (!d->ref_step) d->ref_step = 1;
        d->ref_due = c->refresh_phase + d->ref_step;
    }
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
    free(d->occ);
    free(d->ccdl_ok);
    free(d->rrdl_ok);
    free(d->wtrl_ok);
    free(d->glim);
    free(d);
}

mem_queue *gpu_dram_ret(gpu_dram *d, uint32_t port) { return &d->ret[port]; }
const uint64_t *gpu_dram_returned(const gpu_dram *d) { return &d->returned; }
bool gpu_dram_can_accept(const gpu_dram *d) { return d->n < d->cfg.queue; }
const gpu_dramstats *gpu_dram_stats(const gpu_dram *d) { return &d->st; }

void gpu_dram_trace(gpu_dram *d, gpu_dramcmd *buf, uint32_t cap)
{
    d->trace = buf;
    d->trace_cap = buf ? cap : 0;
    d->ntrace = 0;
}

uint32_t gpu_dram_traced(const gpu_dram *d) { return d->ntrace; }

void gpu_dram_rescan(gpu_dram *d)
{
    if (d->n) d->cmd_wake = 0;
}

static inline uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t sat_sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }
static inline uint32_t group_of(const gpu_dram *d, uint32_t bank) { return d->b[bank].group; }

static void record(gpu_dram *d, uint64_t c, int kind, uint32_t bank, uint64_t row, const gpu_mreq *r)
{
    if (d->ntrace >= d->trace_cap) return;
    gpu_dramcmd *t = &d->trace[d->ntrace++];
    t->cycle = c;
    t->kind = (uint8_t)kind;
    t->bank = bank;
    t->row = row;
    t->r = r;
}

/* ---- refresh ---------------------------------------------------------------------------- */

/* The earliest cycle an ACT (or, with bank rules, a REFpb) may issue to
** bank k by the channel-wide activate rules: tRRD, tRRDL, tFAW, tRREFD. */
static uint64_t act_channel(const gpu_dram *d)   /* the channel-wide part */
{
    uint64_t t = umax(d->rrd_ok, d->cmd_ok);
    if (d->cfg.tFAW && d->nact >= 4) t = umax(t, d->faw[d->fi] + d->cfg.tFAW);
    return umax(t, d->refpb_ok);
}

static inline uint64_t act_bank(const gpu_dram *d, uint32_t k, uint64_t channel)
{
    return umax(umax(d->b[k].act_ok, d->rrdl_ok[group_of(d, k)]), channel);
}

static uint64_t act_rules(const gpu_dram *d, uint32_t k) { return act_bank(d, k, act_channel(d)); }

static bool any_open(const gpu_dram *d)
{
    for (uint32_t k = 0; k < d->cfg.banks; k++)
        if (d->b[k].open) return true;
    return false;
}

/* The refresh command that is due (c >= ref_due): *kind, *bank and the
** earliest cycle it may issue (NEVER while a request is part way through
** its bursts in a bank it needs). */
static uint64_t ref_next(const gpu_dram *d, int *kind, uint32_t *bank)
{
    const gpu_dramcfg *c = &d->cfg;
    if (c->refresh == GPU_DRAM_REF_ALL) {
        *bank = GPU_DRAM_ALL;
        if (d->npartial) return NEVER;
        uint64_t t = d->cmd_ok;
        if (any_open(d)) {
            *kind = GPU_DRAM_PREA;
            for (uint32_t k = 0; k < c->banks; k++)
                if (d->b[k].open) t = umax(t, d->b[k].pre_ok);
            return umax(t, d->ref_due);
        }
        *kind = GPU_DRAM_REF;
        for (uint32_t k = 0; k < c->banks; k++) t = umax(t, d->b[k].act_ok);
        return umax(t, d->ref_due);
    }
    const dbank *b = &d->b[d->ref_bank];
    *bank = d->ref_bank;
    if (b->partial) return NEVER;
    if (b->open) {
        *kind = GPU_DRAM_PRE;
        return umax(umax(b->pre_ok, d->cmd_ok), d->ref_due);
    }
    *kind = GPU_DRAM_REF;
    return umax(act_rules(d, d->ref_bank), d->ref_due);   /* a REFpb waits as an ACT would */
}

static void close_bank(gpu_dram *d, uint32_t k, uint64_t c)
{
    dbank *b = &d->b[k];
    b->open = false;
    b->nhit = 0;
    b->cand = NONE;
    b->act_ok = umax(b->act_ok, c + d->cfg.tRP);
}

static void ref_issue(gpu_dram *d, uint64_t c, int kind, uint32_t bank)
{
    const gpu_dramcfg *cf = &d->cfg;
    d->cmd_ok = c + 1;
    if (d->trace) record(d, c, kind, bank, 0, NULL);
    if (kind == GPU_DRAM_PREA || kind == GPU_DRAM_PRE) {
        for (uint32_t k = 0; k < cf->banks; k++)
            if (d->b[k].open && (bank == GPU_DRAM_ALL || k == bank)) close_bank(d, k, c);
        d->st.precharges++;
        return;
    }
    d->st.refreshes++;
    d->ref_due += d->ref_step;
    if (bank == GPU_DRAM_ALL) {
        for (uint32_t k = 0; k < cf->banks; k++) {
            d->b[k].act_ok = umax(d->b[k].act_ok, c + cf->tRFC);
            d->b[k].cand = NONE;
        }
        return;
    }
    d->b[bank].act_ok = umax(d->b[bank].act_ok, c + cf->tRFCpb);
    d->b[bank].cand = NONE;
    d->refpb_ok = c + cf->tRREFD;
    d->ref_bank = (bank + 1) % cf->banks;
}

/* With no request in the channel, the refreshes due before cycle `now` are
** issued at the cycles they would have had (nothing else competes for the
** command bus).  After a full round in which every bank stayed closed the
** pattern repeats exactly (each refresh at its due cycle), so whole rounds
** are counted rather than simulated. */
static void ref_catch_up_slow(gpu_dram *d, uint64_t now)
{
    const gpu_dramcfg *cf = &d->cfg;
    uint64_t round = cf->refresh == GPU_DRAM_REF_BANK ? d->ref_step * cf->banks : d->ref_step;
    uint64_t busy = cf->refresh == GPU_DRAM_REF_BANK ? umax(cf->tRFCpb, cf->tRREFD) : cf->tRFC;
    uint32_t simulated = 0;
    while (d->ref_due < now) {
        if (simulated >= 2 * cf->banks && !any_open(d) && busy < d->ref_step && d->ref_due + 2 * round < now &&
            (cf->refresh != GPU_DRAM_REF_BANK || d->ref_bank == 0)) {
            uint64_t k = (now - d->ref_due) / round - 1;
            d->ref_due += k * round;
            d->st.refreshes += cf->refresh == GPU_DRAM_REF_BANK ? k * cf->banks : k;
            simulated = 0;
            continue;
        }
        int kind;
        uint32_t bank;
        uint64_t t = ref_next(d, &kind, &bank);
        if (t >= now) break;
        ref_issue(d, t, kind, bank);
        simulated++;
    }
}

/* ref_catch_up_slow when there is anything to catch up (checked here, in
** line: it is called at every tick and accept). */
static inline void ref_catch_up(gpu_dram *d, uint64_t now)
{
    if (d->cfg.refresh != GPU_DRAM_REF_NONE && !d->n && d->ref_due < now) ref_catch_up_slow(d, now);
}

/* ---- requests ----------------------------------------------------------------------------- */

static uint64_t bank_at(const gpu_dram *d, const dbank *b);

void gpu_dram_accept(gpu_dram *d, gpu_mreq *r, uint64_t cycle)
{
    TP_ASSERT(d->n < d->cfg.queue && d->free_head != NONE);
    ref_catch_up(d, cycle);
    uint32_t i = d->free_head;
    dent *q = &d->e[i];
    d->free_head = q->next;
    uint32_t bank;
    gpu_addrmap_bank_row(d->map, r->addr, &bank, &q->row);
    const gpu_dramcfg *c = &d->cfg;
    uint32_t per = c->burst * c->bus_bytes;
    q->r = r;
    q->seq = d->seq++;
    q->bank = bank % c->banks;
    q->next = NONE;
    q->bursts = q->left = (uint16_t)(r->bytes ? (r->bytes + per - 1) / per : 1);
    q->port = (uint16_t)(r->src < c->ports ? r->src : 0);
    q->write = r->kind == GPU_MR_STORE;
    q->opened = false;
    dbank *b = &d->b[q->bank];
    if (b->open && b->row == q->row) b->nhit++;
    if (b->tail == NONE) b->head = i;
    else d->e[b->tail].next = i;
    b->tail = i;
    b->n++;
    d->occ[q->bank / 64] |= 1ull << (q->bank % 64);
    b->cand = NONE;
    d->n++;
    /* Only this bank's candidate can have changed: cmd_wake stays a bound
    ** for the others' and for a refresh (the scan that set it, or the one
    ** before wake_after_issue, took the refresh's cycle), so the next scan
    ** waits for this bank's bound too.  The channel's first request scans
    ** at once: an empty channel's cmd_wake (NEVER) bounds no refresh. */
    uint64_t w = cycle;
    if (d->n > 1) w = umax(w, bank_at(d, b));
    if (w < d->cmd_wake) d->cmd_wake = w;
}

enum { C_ACT, C_PRE, C_COL };

/* Caches candidate i of bank b with the class of its next command (ACT if
** the bank is closed, PRE if another row is open, else RD or WR) and the
** bank's own bound for that command.  Valid while b->cand is: every change
** to the bank's bounds, row or list resets b->cand (accept, issue,
** close_bank, ref_issue), and issue caches a request part way through its
** bursts again after its changes. */
static void bank_cache(const gpu_dram *d, dbank *b, uint32_t i)
{
    const dent *q = &d->e[i];
    uint32_t k;
    b->cand = i;
    if (!b->open) {
        k = K_ACT;
        b->bt = b->act_ok;
    } else if (b->row != q->row) {
        k = K_PRE;
        b->bt = b->pre_ok;
    } else if (q->write) {
        k = K_WR;
        b->bt = b->wcol_ok;
    } else {
        k = q->left == 1 ? K_RDL : K_RD;
        b->bt = b->col_ok;
    }
    b->lim = b->group * K_N + k;
}

/* The bank's candidate request (index) under the scheduling policy; cached
** until the bank's list or row changes (a cache: scan is const).  A request
** part way through its bursts is always its bank's candidate: it is the
** oldest request to the open row (FR-FCFS) or the oldest (FCFS). */
static uint32_t candidate(const gpu_dram *d, const dbank *b)
{
    if (b->cand != NONE) return b->cand;
    uint32_t c = b->head;
    if (!d->cfg.fcfs && b->open && b->nhit)
        for (uint32_t i = b->head; i != NONE; i = d->e[i].next)
            if (d->e[i].row == b->row) {
                c = i;
                break;
            }
    bank_cache(d, (dbank *)b, c);
    return c;
}

/* The group-wide bounds of group g per command class (glim): ACT tRRDL;
** RD tCCDL and the write-to-read tWTRL; WR tCCDL; PRE none.  Recomputed
** whenever issue moves one. */
static void group_limits(gpu_dram *d, uint32_t g)
{
    uint64_t *l = &d->glim[g * K_N];
    l[K_ACT] = d->rrdl_ok[g];
    l[K_PRE] = 0;
    l[K_WR] = d->ccdl_ok[g];
    l[K_RD] = l[K_RDL] = umax(d->ccdl_ok[g], d->wtrl_ok[g]);
}

/* The channel-wide parts of the command rules per class, the same for every
** bank during one scan (scan is called with the channel's state fixed):
**   ACT: tRRD, tFAW, tRREFD, one command a cycle;  PRE: one command a cycle;
**   RD: tCCD, write-to-read, the data bus;  WR: tCCD, the data bus with the turnaround. */
static inline void limits(const gpu_dram *d, uint64_t *l)
{
    const gpu_dramcfg *c = &d->cfg;
    l[K_ACT] = act_channel(d);
    l[K_PRE] = d->cmd_ok;
    uint64_t col = umax(d->ccd_ok, d->cmd_ok);
    l[K_RD] = l[K_RDL] = umax(umax(col, d->rd_ok), sat_sub(d->bus_free, c->tCL));
    l[K_WR] = umax(col, sat_sub(d->bus_free + (d->last_dir == 1 ? c->turnaround : 0), c->tWL));
}

/* The earliest cycle bank b's candidate (b has requests) may issue its
** next command, the bank looked at alone (cand_at with the one class's
** channel bound). */
static uint64_t limit_of(const gpu_dram *d, uint32_t cls);
static uint64_t bank_at(const gpu_dram *d, const dbank *b)
{
    candidate(d, b);
    return umax(umax(b->bt, d->glim[b->lim]), limit_of(d, b->lim % K_N));
}

/* limits' bound of one class (one bank looked at alone). */
static uint64_t limit_of(const gpu_dram *d, uint32_t cls)
{
    const gpu_dramcfg *c = &d->cfg;
    if (cls == K_ACT) return act_channel(d);
    if (cls == K_PRE) return d->cmd_ok;
    uint64_t col = umax(d->ccd_ok, d->cmd_ok);
    if (cls == K_WR) return umax(col, sat_sub(d->bus_free + (d->last_dir == 1 ? c->turnaround : 0), c->tWL));
    return umax(umax(col, d->rd_ok), sat_sub(d->bus_free, c->tCL));
}

static bool return_full(const gpu_dram *d)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < d->cfg.ports; p++) n += mem_queue_count(&d->ret[p]);
    return n >= d->cfg.return_queue;
}

/* The earliest cycle bank b's candidate's next command may issue: the
** largest of its bank's, its group's and the channel's bounds (l, limits)
** for its class (bank_cache, glim), room to return a read aside. */
static inline uint64_t cand_at(const gpu_dram *d, const dbank *b, const uint64_t *l)
{
    return umax(umax(b->bt, d->glim[b->lim]), l[b->lim % K_N]);
}

/* Scans the banks at cycle c: the command to issue now (*best, NONE if
** none; *best_ref set when it is the refresh's) and the earliest cycle > c
** at which another could (return), leaving out the candidates that could
** issue at c (*nready of them, *best among them; a read's last burst
** refused for want of return room counts among the others, at c + 1). */
static uint64_t scan(const gpu_dram *d, uint64_t c, uint32_t *best, int *best_cmd, bool *best_ref, bool *blocked,
                     uint32_t *nready)
{
    uint64_t wake = NEVER, best_key = NEVER;
    int rfull = -1;   /* return_full, asked when first needed */
    bool ref_all = false;
    uint32_t ref_bank = NONE, ready = 0;
    *best = NONE;
    *best_ref = false;
    *blocked = false;
    *nready = 0;
    if (d->cfg.refresh != GPU_DRAM_REF_NONE) {
        if (d->ref_due <= c) {
            int kind;
            uint32_t bank;
            uint64_t t = ref_next(d, &kind, &bank);
            if (bank == GPU_DRAM_ALL) ref_all = true;
            else ref_bank = bank;
            if (t <= c) {
                *best = bank;
                *best_cmd = kind;
                *best_ref = true;
                return c + 1;
            }
            if (t < wake) wake = t;
        } else if (d->ref_due < wake) {
            wake = d->ref_due;
        }
    }
    bool ref_wait = ref_all || ref_bank != NONE;
    uint64_t l[K_N];
    limits(d, l);
    for (uint32_t w = 0; w < d->nocc; w++)
    for (uint64_t bits = d->occ[w]; bits; bits &= bits - 1) {   /* the banks with requests, in order */
        uint32_t k = w * 64 + (uint32_t)__builtin_ctzll(bits);
        const dbank *b = &d->b[k];
        if (ref_wait && (ref_all || k == ref_bank) && !b->partial) continue;   /* waits for the refresh */
        uint32_t i = candidate(d, b);
        uint32_t cls = b->lim % K_N;
        uint64_t t = cand_at(d, b, l);
        if (cls == K_RDL) {   /* a read's last burst: needs room to return */
            if (rfull < 0) rfull = return_full(d);
            if (rfull) {
                if (t <= c) *blocked = true;
                wake = umax(c + 1, t) < wake ? umax(c + 1, t) : wake;
                continue;
            }
        }
        if (t > c) {
            if (t < wake) wake = t;
            continue;
        }
        uint64_t key = d->e[i].seq | d->kprio[cls];
        ready++;
        if (key < best_key) {
            best_key = key;
            *best = i;
            *best_cmd = cls == K_ACT ? C_ACT : cls == K_PRE ? C_PRE : C_COL;
        }
    }
    *nready = ready;
    return wake;
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
    if (!--b->n) d->occ[q->bank / 64] &= ~(1ull << (q->bank % 64));
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
    uint32_t g = group_of(d, q->bank);
    d->cmd_ok = c + 1;
    b->cand = NONE;
    if (cmd == C_ACT) {
        b->open = true;
        b->row = q->row;
        b->nhit = 0;
        for (uint32_t k = b->head; k != NONE; k = d->e[k].next) b->nhit += d->e[k].row == b->row;
        b->col_ok = c + cf->tRCD;
        b->wcol_ok = c + cf->tRCDWR;
        b->pre_ok = umax(b->pre_ok, c + cf->tRAS);
        b->act_ok = umax(b->act_ok, c + cf->tRC);
        d->rrd_ok = c + cf->tRRD;
        d->rrdl_ok[g] = c + cf->tRRDL;
        group_limits(d, g);
        d->faw[d->fi] = c;
        d->fi = (d->fi + 1) % 4;
        d->nact++;
        q->opened = true;
        d->st.activates++;
        if (d->trace) record(d, c, GPU_DRAM_ACT, q->bank, q->row, q->r);
        return;
    }
    if (cmd == C_PRE) {
        close_bank(d, q->bank, c);
        q->opened = true;
        d->st.precharges++;
        if (d->trace) record(d, c, GPU_DRAM_PRE, q->bank, q->row, q->r);
        return;
    }
    /* one burst */
    uint64_t start = c + (q->write ? cf->tWL : cf->tCL), end = start + d->bc;
    d->bus_free = end;
    d->ccd_ok = umax(d->ccd_ok, c + cf->tCCD);
    d->ccdl_ok[g] = umax(d->ccdl_ok[g], c + cf->tCCDL);
    d->st.busy_cycles += d->bc;
    if (d->trace) record(d, c, q->write ? GPU_DRAM_WR : GPU_DRAM_RD, q->bank, q->row, q->r);
    if (q->write) {
        d->last_dir = 2;
        b->pre_ok = umax(b->pre_ok, end + cf->tWR);
        d->rd_ok = umax(d->rd_ok, end + cf->tCDLR);
        d->wtrl_ok[g] = umax(d->wtrl_ok[g], end + cf->tWTRL);
    } else {
        if (d->last_dir == 2) d->st.write_to_read++;
        d->last_dir = 1;
        b->pre_ok = umax(b->pre_ok, c + cf->tRTPL);
    }
    group_limits(d, g);
    if (--q->left) {
        if (!b->partial) d->npartial++;
        b->partial = true;
        bank_cache(d, b, i);   /* it stays its bank's candidate */
        return;
    }
    if (b->partial) d->npartial--;
    b->partial = false;
    b->nhit--;
    if (!q->opened) d->st.row_hits++;
    if (q->write) {
        d->st.writes++;
        gpu_mreq_put(d->pool, q->r);
    } else {
        d->st.reads++;
        mem_queue_push(&d->ret[q->port], q->r, end * cf->period + cf->latency);
        d->returned++;
    }
    unlink_entry(d, i);
}

/* The next cycle worth a scan after a command to bank k issued at c (one
** command a cycle: not before c + 1), without scanning again.  A command
** only raises bounds (the channel's, its group's: cmd_ok, tCCD, the data
** bus, tRRD, tFAW, ...), and changes no bank's candidate but k's; so every
** other bank's candidate can issue no earlier than the scan at c found
** (`wake`, of those that could not issue at c), and bank k's new candidate
** is looked at alone.  When another candidate could issue at c (`others`)
** it may at c + 1; and a refresh due by then may have been waiting for the
** command's request to finish its bursts: both scan at c + 1, as before. */
static uint64_t wake_after_issue(gpu_dram *d, uint64_t c, uint64_t wake, bool others, uint32_t k)
{
    if (others || (d->cfg.refresh != GPU_DRAM_REF_NONE && d->ref_due <= c + 1)) return c + 1;
    const dbank *b = &d->b[k];
    if (b->n) {
        uint64_t t = bank_at(d, b);
        if (t < wake) wake = t;
    }
    return umax(wake, c + 1);
}

void gpu_dram_tick(gpu_dram *d, uint64_t c)
{
    uint64_t t = c * d->cfg.period;
    ref_catch_up(d, c);
    /* take one request from the ports, round robin */
    for (uint32_t k = 0, p = d->rr; k < d->cfg.ports; k++, p = p + 1 < d->cfg.ports ? p + 1 : 0) {   /* p: (rr + k) mod ports */
        gpu_mreq *r = d->in[p] ? mem_queue_peek(d->in[p], t) : NULL;
        if (!r) continue;
        if (d->n >= d->cfg.queue) {
            d->st.queue_full_cycles++;
            break;
        }
        mem_queue_pop(d->in[p]);
        gpu_dram_accept(d, r, c);
        d->rr = p + 1 < d->cfg.ports ? p + 1 : 0;
        break;
    }
    d->t_min = t + 1;
    if (!d->n) {
        d->cmd_wake = NEVER;   /* refreshes wait for ref_catch_up */
        return;
    }
    if (d->cmd_wake > c) return;   /* nothing can issue yet */
    uint32_t best, nready;
    int cmd = C_ACT;
    bool ref, blocked;
    uint64_t wake = scan(d, c, &best, &cmd, &ref, &blocked, &nready);
    d->cmd_wake = wake;
    if (blocked && !ref && best == NONE) d->st.return_stall_cycles++;
    if (ref) {
        ref_issue(d, c, cmd, best);
        d->cmd_wake = d->n ? c + 1 : NEVER;
    } else if (best != NONE) {
        uint32_t k = d->e[best].bank;
        issue(d, c, best, cmd);
        d->cmd_wake = d->n ? wake_after_issue(d, c, wake, nready > 1, k) : NEVER;
    }
}

uint64_t gpu_dram_next(const gpu_dram *d)
{
    uint64_t t = d->cmd_wake == NEVER ? NEVER : umax(d->cmd_wake * d->cfg.period, d->t_min);
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
