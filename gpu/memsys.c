/*
** memsys.c -- the memory system of memsys.h, put together from
** gpu/icnt.c, gpu/l2.c, gpu/dram.c and gpu/addrmap.c, and its clocks.
**
** Clocks.  The core, interconnect, L2 and DRAM clocks (clock.*_mhz) are
** resolved to integer frequencies (1 kHz steps, coarser only if their
** ratios would not fit), divided by their common divisor, and a common time
** base is chosen in which every period is an integer: with L the least
** common multiple of the reduced frequencies, a cycle of a clock of
** frequency f lasts L / f time units.  Edge k of a domain is at k * period;
** core cycle n is at n * core period.  GTX 480: 700, 700, 700, 924 MHz ->
** 25 : 25 : 25 : 33 -> L = 825, periods 33, 33, 33, 25.  Every comparison
** is between integers, so nothing drifts however long a run is.
**
** gpu_memsys_tick(now) runs, in time order, every domain edge at or before
** the time of core cycle now; edges at the same time run interconnect
** first, then the L2 slices, then the DRAM channels; units of a domain run
** in index order.  A domain runs only at edges where one of its units can
** change state (its `next`); the others are skipped without cost, and so
** is everything when nothing is in flight.  Latencies given in core cycles
** (l2.latency, dram.latency) are converted to time units exactly.
**
** The SM side: gpu_memsys_accept pushes into SM sm's injection queue, ready
** one time unit later (so the interconnect takes it at its first edge
** after the accepting core cycle, whatever order the caller ticks in);
** gpu_memsys_pop takes from SM sm's ejection queue what has arrived by the
** time of core cycle now, icnt.eject_rate replies per core cycle at most
** (GPGPU-Sim's cluster takes one packet a cycle).
*/
#include "memsys.h"
#include "options.h"
#include "addrmap.h"
#include "../base/fdiv.h"
#include "icnt.h"
#include "l2.h"
#include "dram.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { D_ICNT, D_L2, D_DRAM, ND };

struct gpu_memsys {
    uint32_t nsm, nch, nsub, nslice;
    gpu_mreq_pool *pool;
    gpu_addrmap map;
    gpu_icnt *icnt;
    gpu_l2 **l2;
    gpu_dram **dram;
    uint64_t pc;              /* core period, time units */
    uint64_t p[ND];           /* domain periods */
    tp_fdiv fpc, fp[ND];      /* divisions by them (times to cycles, every loop step) */
    uint64_t k[ND];           /* first edge of each domain not yet run */
    uint64_t wake[ND];        /* cached domain_wake (see gpu_memsys_tick) */
    uint64_t wedge[ND], wtime[ND];   /* edge_at of each wake and its time (set_wake) */
    uint64_t t_now;           /* time of the core cycle last ticked */
    uint64_t line, l2_bytes;  /* L2 line and total size (gpu_memsys_warm) */
    uint32_t eject_rate;      /* replies an SM takes per core cycle (0: all) */
    uint64_t wreq, wrep;      /* the request and reply crossbars' wakes: wake[D_ICNT] is the smaller
                              ** (see icnt_wake and icnt_new_head) */
    unsigned icnt_dirs;       /* the crossbars the interconnect's last run ticked (GPU_ICNT_REQ, _REP) */
    uint64_t *l2nx, *drnx;    /* each slice's and channel's next event as last computed (the
                              ** domains' wakes are their minimums; see domain_wake) */
    uint64_t l2min, drmin;    /* the minimums of l2nx and drnx, kept as they change (nx_set) */
    mem_queue **fillq, **missq;   /* per slice: its fill queue (the channel's return queue) and
                              ** miss queue (the channel's input), whose pushes move the wakes */
    uint64_t *fill_seen, *miss_seen;   /* per slice: their push counts when last looked at */
    const uint64_t **ret;     /* per channel: its reads returned (gpu_dram_returned), which moves
                              ** with any push into its slices' fill queues */
    uint64_t *ret_seen;       /* ... when last looked at */
    uint32_t *ran, nran;      /* the units of the last domain run that ticked */
    uint64_t rest_min;        /* ... and the smallest next event of its units that did not */
    mem_queue **inj, **ej;    /* per SM: its injection and ejection queues */
    bool *inj_head;           /* per SM: a request became its injection queue's head since the
                              ** last gpu_memsys_tick (which lowers wreq by it: icnt_new_heads) */
    bool inj_new;             /* any inj_head set (several SMs' threads may set it, all to true) */
    mem_queue **rin;          /* per slice: its reply queue into the crossbar */
    mem_queue **sin;          /* per slice: its input queue (the request crossbar's output) */
    const uint32_t *parked;   /* per slice: the request crossbar's heads parked on it (gpu_icnt_room) */
    uint64_t *ejm;            /* the SMs whose ejection queue may hold replies (gpu_icnt_eject_mask) */
    uint64_t *pop_at;         /* per SM: core cycle + 1 of its last pop */
    uint32_t *pop_n;          /* ... and the replies it took in that cycle */
    gpu_memstats st;          /* gathered from the units when asked for (gpu_memsys_stats) */
    struct reply_lat {        /* per SM (SMs may take replies on several host threads): */
        uint64_t n;           /*   replies it took (gpu_memsys_pop), and their latencies: */
        uint64_t total;       /*   core cycles, L1 access to the SM taking the reply */
        uint64_t to_l2;       /*   time units, L1 access to the slice taking the request */
        uint64_t from_l2;     /*   time units, the reply entering the reply network to the SM taking it */
    } *lat;
};

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Periods (time units per cycle) of the clocks mhz[0..3]. */
static void resolve_clocks(const double *mhz, uint64_t *period)
{
    static const double scale[] = {1000, 100, 10, 1, 0.1, 0.01, 0.001};
    for (uint32_t s = 0; s < TP_ARRAY_LEN(scale); s++) {
        uint64_t f[4], g = 0, l = 1;
        for (int i = 0; i < 4; i++) {
            double v = llround(mhz[i] * scale[s]);
            f[i] = v < 1 ? 1 : (uint64_t)v;
            g = gcd(g, f[i]);
        }
        bool ok = true;
        for (int i = 0; i < 4 && ok; i++) {
            f[i] /= g;
            l = l / gcd(l, f[i]) * f[i];
            ok = l <= (1u << 24);
        }
        if (!ok) continue;
        for (int i = 0; i < 4; i++) period[i] = l / f[i];
        return;
    }
    for (int i = 0; i < 4; i++) period[i] = 1;   /* unreachable for the option ranges */
}

#define OPT(id) ((uint32_t)tp_opt_i(o, id))

gpu_memsys *gpu_memsys_new(const tp_opts *o, uint32_t nsm, gpu_mreq_pool *pool)
{
    gpu_memsys *m = tp_calloc(1, sizeof *m);
    m->nsm = nsm ? nsm : 1;
    m->nch = OPT(OPT_DRAM_CHANNELS);
    m->nsub = OPT(OPT_L2_SLICES_PER_CHANNEL);
    m->nslice = m->nch * m->nsub;
    m->pool = pool;
    double mhz[4] = {tp_opt_f(o, OPT_CLOCK_CORE_MHZ), tp_opt_f(o, OPT_CLOCK_ICNT_MHZ), tp_opt_f(o, OPT_CLOCK_L2_MHZ),
                     tp_opt_f(o, OPT_CLOCK_DRAM_MHZ)};
    uint64_t per[4];
    resolve_clocks(mhz, per);
    m->pc = per[0];
    m->p[D_ICNT] = per[1];
    m->p[D_L2] = per[2];
    m->p[D_DRAM] = per[3];
    tp_fdiv_init(&m->fpc, m->pc);
    for (int d = 0; d < ND; d++) tp_fdiv_init(&m->fp[d], m->p[d]);

    uint32_t line = OPT(OPT_L2_LINE);
    gpu_addrmap_opts(&m->map, o);

    m->line = line;
    m->l2_bytes = (uint64_t)tp_opt_i(o, OPT_L2_SLICE_SIZE) * m->nslice;
    m->l2 = tp_calloc(m->nslice, sizeof *m->l2);
    mem_queue **slice_in = tp_calloc(m->nslice, sizeof *slice_in);
    for (uint32_t s = 0; s < m->nslice; s++) {
        gpu_l2cfg c = {
            .slice = s,
            .port = s % m->nsub,
            .size = (uint64_t)tp_opt_i(o, OPT_L2_SLICE_SIZE),
            .assoc = OPT(OPT_L2_ASSOC),
            .line = line,
            .mshrs = OPT(OPT_L2_MSHRS),
            .mshr_merge = OPT(OPT_L2_MSHR_MERGE),
            .queue = OPT(OPT_L2_QUEUE),
            .period = m->p[D_L2],
            .rop_latency = (uint64_t)tp_opt_i(o, OPT_L2_LATENCY) * m->pc,
        };
        gpu_l2_cfg_options(o, &c);
        m->l2[s] = gpu_l2_new(&c, &m->map, pool);
        slice_in[s] = gpu_l2_in(m->l2[s]);
    }

    m->dram = tp_calloc(m->nch, sizeof *m->dram);
    mem_queue **ports = tp_calloc(m->nsub, sizeof *ports);
    for (uint32_t ch = 0; ch < m->nch; ch++) {
        gpu_dramcfg c;
        gpu_dram_cfg_opts(&c, o, ch);
        c.ports = m->nsub;
        c.period = m->p[D_DRAM];
        c.latency = (uint64_t)tp_opt_i(o, OPT_DRAM_LATENCY) * m->pc;
        for (uint32_t p = 0; p < m->nsub; p++) ports[p] = gpu_l2_miss(m->l2[ch * m->nsub + p]);
        m->dram[ch] = gpu_dram_new(&c, &m->map, pool, ports);
    }
    free(ports);

    gpu_icntcfg ic = {
        .nsm = m->nsm,
        .nslice = m->nslice,
        .latency = OPT(OPT_ICNT_LATENCY),
        .flit_bytes = OPT(OPT_ICNT_FLIT_BYTES),
        .ctrl_bytes = OPT(OPT_ICNT_CTRL_BYTES),
        .queue = OPT(OPT_ICNT_QUEUE),
        .eject_queue = OPT(OPT_ICNT_EJECT_QUEUE),
        .out_buffer = OPT(OPT_ICNT_OUT_BUFFER),
        .period = m->p[D_ICNT],
    };
    m->icnt = gpu_icnt_new(&ic, &m->map, slice_in);
    free(slice_in);
    for (uint32_t s = 0; s < m->nslice; s++)
        gpu_l2_connect(m->l2[s], gpu_icnt_reply_in(m->icnt, s), gpu_dram_ret(m->dram[s / m->nsub], s % m->nsub));
    for (int d = 0; d < ND; d++) m->wake[d] = m->wtime[d] = UINT64_MAX;
    m->wreq = m->wrep = UINT64_MAX;
    m->l2nx = tp_malloc(m->nslice * sizeof *m->l2nx);
    m->drnx = tp_malloc(m->nch * sizeof *m->drnx);
    m->l2min = m->drmin = UINT64_MAX;
    for (uint32_t i = 0; i < m->nslice; i++) {
        m->l2nx[i] = gpu_l2_next(m->l2[i]);
        if (m->l2nx[i] < m->l2min) m->l2min = m->l2nx[i];
    }
    for (uint32_t c = 0; c < m->nch; c++) {
        m->drnx[c] = gpu_dram_next(m->dram[c]);
        if (m->drnx[c] < m->drmin) m->drmin = m->drnx[c];
    }
    m->fillq = tp_malloc(m->nslice * sizeof *m->fillq);
    m->missq = tp_malloc(m->nslice * sizeof *m->missq);
    m->fill_seen = tp_malloc(m->nslice * sizeof *m->fill_seen);
    m->miss_seen = tp_malloc(m->nslice * sizeof *m->miss_seen);
    for (uint32_t s = 0; s < m->nslice; s++) {
        m->fillq[s] = gpu_dram_ret(m->dram[s / m->nsub], s % m->nsub);
        m->missq[s] = gpu_l2_miss(m->l2[s]);
        m->fill_seen[s] = m->fillq[s]->pushes;
        m->miss_seen[s] = m->missq[s]->pushes;
    }
    m->ret = tp_malloc(m->nch * sizeof *m->ret);
    m->ret_seen = tp_malloc(m->nch * sizeof *m->ret_seen);
    for (uint32_t c = 0; c < m->nch; c++) {
        m->ret[c] = gpu_dram_returned(m->dram[c]);
        m->ret_seen[c] = *m->ret[c];
    }
    m->ran = tp_malloc((m->nslice > m->nch ? m->nslice : m->nch) * sizeof *m->ran);
    m->eject_rate = OPT(OPT_ICNT_EJECT_RATE);
    m->ej = tp_malloc(m->nsm * sizeof *m->ej);
    m->inj = tp_malloc(m->nsm * sizeof *m->inj);
    m->inj_head = tp_calloc(m->nsm, sizeof *m->inj_head);
    for (uint32_t sm = 0; sm < m->nsm; sm++) {
        m->ej[sm] = gpu_icnt_eject(m->icnt, sm);
        m->inj[sm] = gpu_icnt_inject(m->icnt, sm);
    }
    m->rin = tp_malloc(m->nslice * sizeof *m->rin);
    m->sin = tp_malloc(m->nslice * sizeof *m->sin);
    for (uint32_t s = 0; s < m->nslice; s++) {
        m->rin[s] = gpu_icnt_reply_in(m->icnt, s);
        m->sin[s] = gpu_l2_in(m->l2[s]);
    }
    m->parked = gpu_icnt_parked(m->icnt);
    m->ejm = gpu_icnt_eject_mask(m->icnt);
    m->pop_at = tp_calloc(m->nsm, sizeof *m->pop_at);
    m->pop_n = tp_calloc(m->nsm, sizeof *m->pop_n);
    m->lat = tp_calloc(m->nsm, sizeof *m->lat);
    return m;
}

void gpu_memsys_free(gpu_memsys *m)
{
    if (!m) return;
    gpu_icnt_free(m->icnt);
    for (uint32_t s = 0; s < m->nslice; s++) gpu_l2_free(m->l2[s]);
    for (uint32_t c = 0; c < m->nch; c++) gpu_dram_free(m->dram[c]);
    free(m->l2);
    free(m->dram);
    free(m->l2nx);
    free(m->drnx);
    free(m->fillq);
    free(m->missq);
    free(m->fill_seen);
    free(m->miss_seen);
    free(m->ret);
    free(m->ret_seen);
    free(m->ran);
    free(m->ej);
    free(m->inj);
    free(m->inj_head);
    free(m->rin);
    free(m->sin);
    free(m->pop_at);
    free(m->pop_n);
    free(m->lat);
    free(m);
}

/* The first edge of domain d at or after time w, not before its next unrun edge. */
static inline uint64_t edge_at(const gpu_memsys *m, int d, uint64_t w)
{
    uint64_t e = tp_fdiv_up(&m->fp[d], w);
    return e > m->k[d] ? e : m->k[d];
}

/* Sets domain d's wake w and the first edge that may run for it (wedge,
** wtime its time; UINT64_MAX: none).  edge_at depends on w and on k[d],
** which moves only when d runs, and a run sets the domain's wake again
** (feeds), so the edge is found once a wake, not at every look. */
static inline void set_wake(gpu_memsys *m, int d, uint64_t w)
{
    m->wake[d] = w;
    if (w == UINT64_MAX) {
        m->wtime[d] = UINT64_MAX;
        return;
    }
    m->wedge[d] = edge_at(m, d, w);
    m->wtime[d] = m->wedge[d] * m->p[d];
}

/* set_wake for a domain d that did not run: its edge for an unchanged wake
** is the one found before (k[d] has not moved). */
static inline void fed_wake(gpu_memsys *m, int d, uint64_t w)
{
    if (w != m->wake[d]) set_wake(m, d, w);
}

/* The interconnect's wake depends on its inputs' heads only (not on what is
** behind them, nor on room in its outputs), and between its ticks only a
** packet entering an empty input (an SM's injection queue, a slice's reply
** queue) moves it: to that head's time if earlier (gpu_icnt_head_next). */
static void icnt_new_head(gpu_memsys *m, bool reply, uint32_t i)
{
    uint64_t h = gpu_icnt_new_head(m->icnt, reply, i);
    uint64_t *w = reply ? &m->wrep : &m->wreq;
    if (h < *w) *w = h;
    if (h < m->wake[D_ICNT]) set_wake(m, D_ICNT, h);
}

bool gpu_memsys_can_accept(const gpu_memsys *m, uint32_t sm, const gpu_mreq *r)
{
    (void)r;
    return sm < m->nsm && !mem_queue_full(m->inj[sm]);   /* gpu_icnt_can_accept, without the call */
}

void gpu_memsys_accept(gpu_memsys *m, gpu_mreq *r, uint64_t now)
{
    r->is_reply = 0;
    /* with parallel SMs this runs on the SMs' threads: it touches only SM
    ** r->sm's own queue and flag (and inj_new, which all set to true); the
    ** wakes are lowered at the next gpu_memsys_tick, before the interconnect
    ** can tick (icnt_new_heads) */
    if (mem_queue_empty(m->inj[r->sm])) {
        m->inj_head[r->sm] = true;
        m->inj_new = true;
    }
    gpu_icnt_accept(m->icnt, r, now * m->pc + 1);
}

gpu_mreq *gpu_memsys_pop(gpu_memsys *m, uint32_t sm, uint64_t now)
{
    mem_queue *q = m->ej[sm];
    if (!mem_queue_peek(q, now * m->pc)) return NULL;
    if (m->eject_rate) {
        if (m->pop_at[sm] != now + 1) {
            m->pop_at[sm] = now + 1;
            m->pop_n[sm] = 0;
        }
        if (m->pop_n[sm] == m->eject_rate) return NULL; /* the rest next cycle */
        m->pop_n[sm]++;
    }
    gpu_mreq *r = mem_queue_pop(q);
    struct reply_lat *l = &m->lat[sm];
    l->n++;
    l->total += now - r->t_sent;
    l->to_l2 += r->t_l2 - r->t_sent * m->pc;
    l->from_l2 += now * m->pc - r->t_back;
    return r;
}

uint64_t gpu_memsys_reply_at(const gpu_memsys *m, uint32_t sm)
{
    uint64_t r = mem_queue_head_ready(m->ej[sm]);
    return r == UINT64_MAX ? r : tp_fdiv_up(&m->fpc, r);
}

const uint64_t *gpu_memsys_reply_mask(const gpu_memsys *m) { return m->ejm; }
void gpu_memsys_reply_none(gpu_memsys *m, uint32_t sm) { m->ejm[sm / 64] &= ~(1ull << (sm % 64)); }

/* Sets unit i's next event v in nx (l2nx or drnx), keeping their minimum
** *min: a smaller value lowers it; raising the unit that held it asks for
** a new search over all (*rescan), done once after all the updates. */
static inline void nx_set(uint64_t *nx, uint32_t i, uint64_t v, uint64_t *min, bool *rescan)
{
    uint64_t old = nx[i];
    nx[i] = v;
    if (v < *min) *min = v;
    else if (v > old && old == *min) *rescan = true;
}

static uint64_t nx_min(const uint64_t *nx, uint32_t n)
{
    uint64_t w = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++)
        if (nx[i] < w) w = nx[i];
    return w;
}

/* After a run of domain d (the slices or the DRAM channels) itself: the
** new answers of the units that ran, kept in nx (l2nx or drnx), and their
** minimum with the others', rest_min (run_domain found it as it went). */
static uint64_t ran_min(gpu_memsys *m, int d, uint64_t *nx)
{
    uint64_t w = m->rest_min;
    for (uint32_t i = 0; i < m->nran; i++) {
        uint32_t u = m->ran[i];
        uint64_t v = d == D_L2 ? gpu_l2_next(m->l2[u]) : gpu_dram_next(m->dram[u]);
        nx[u] = v;
        if (v < w) w = v;
    }
    return w;
}

/* The earliest time at which a unit of domain d (the slices or the DRAM
** channels) can change state, after a run of domain `ran` whose ticked
** units are m->ran.  A unit's next event moves only when it ticks or when
** something is pushed into its inputs: a slice's by the interconnect (any
** slice) or by its channel's returns (its fill queue); a channel's by its
** slices' misses.  So after a run of the slices only they, and the
** channels whose miss queues they pushed into, are asked again; after a
** run of the channels only they, and the slices whose fill queues they
** pushed into; after the interconnect's the slices it pushed into; the
** rest keep their last answer.  (A queue's push count tells whether it
** was pushed into since the unit was last asked; pops by the consumer do
** not move the producer's next event.)  The domain's minimum is kept as
** the answers change (nx_set); after a run of the domain itself it is the
** smaller of the new answers and the minimum over the units that did not
** tick, which run_domain finds as it goes (rest_min). */
static uint64_t domain_wake(gpu_memsys *m, int d, int ran)
{
    bool rescan = false;
    if (d == D_L2) {
        if (ran == D_ICNT) { /* the slices the interconnect pushed into */
            const uint32_t *pushed;
            uint32_t np = gpu_icnt_req_pushed(m->icnt, &pushed);
            for (uint32_t i = 0; i < np; i++)
                nx_set(m->l2nx, pushed[i], gpu_l2_next(m->l2[pushed[i]]), &m->l2min, &rescan);
        } else if (ran == D_L2) {
            return m->l2min = ran_min(m, D_L2, m->l2nx);
        } else { /* the slices of the channels that ran whose fill queue has new entries */
            for (uint32_t i = 0; i < m->nran; i++) {
                uint32_t c = m->ran[i];
                if (*m->ret[c] == m->ret_seen[c]) continue;   /* it pushed into none of them */
                m->ret_seen[c] = *m->ret[c];
                for (uint32_t s = c * m->nsub, hi = s + m->nsub; s < hi; s++) {
                    uint64_t p = m->fillq[s]->pushes;
                    if (p == m->fill_seen[s]) continue;
                    m->fill_seen[s] = p;
                    nx_set(m->l2nx, s, gpu_l2_next(m->l2[s]), &m->l2min, &rescan);
                }
            }
        }
        if (rescan) m->l2min = nx_min(m->l2nx, m->nslice);
        return m->l2min;
    }
    if (ran == D_DRAM) {
        return m->drmin = ran_min(m, D_DRAM, m->drnx);
    } else { /* the channels of the slices that ran and pushed into their miss queues */
        for (uint32_t i = 0, last = UINT32_MAX; i < m->nran; i++) {
            uint32_t s = m->ran[i], c = s / m->nsub;
            uint64_t p = m->missq[s]->pushes;
            if (p == m->miss_seen[s]) continue;
            m->miss_seen[s] = p;
            if (c == last) continue; /* the slices that ran are in order: a channel's are adjacent */
            last = c;
            nx_set(m->drnx, c, gpu_dram_next(m->dram[c]), &m->drmin, &rescan);
        }
    }
    if (rescan) m->drmin = nx_min(m->drnx, m->nch);
    return m->drmin;
}

/* The interconnect's wake after a domain run: after its own run each
** ticked crossbar's as the tick found it (the other's as kept); after the
** slices' run as kept (the new heads they gave the reply queues lowered
** wrep, icnt_new_head). */
static uint64_t icnt_wake(gpu_memsys *m, bool ticked)
{
    if (ticked) {
        if (m->icnt_dirs & GPU_ICNT_REQ) m->wreq = gpu_icnt_ticked_next(m->icnt, false);
        if (m->icnt_dirs & GPU_ICNT_REP) m->wrep = gpu_icnt_ticked_next(m->icnt, true);
    }
    return m->wreq < m->wrep ? m->wreq : m->wrep;
}

static void run_domain(gpu_memsys *m, int d, uint64_t e)
{
    uint64_t t = e * m->p[d];
    m->nran = 0;
    if (d == D_ICNT) {
        /* only the crossbars with an event due: the other's tick would change nothing */
        m->icnt_dirs = (m->wreq <= t ? GPU_ICNT_REQ : 0u) | (m->wrep <= t ? GPU_ICNT_REP : 0u);
        gpu_icnt_tick_dirs(m->icnt, e, m->icnt_dirs);
    } else if (d == D_L2) {
        uint64_t rest = UINT64_MAX;
        for (uint32_t s = 0; s < m->nslice; s++)
            if (m->l2nx[s] <= t) {
                /* only the crossbar pops a reply queue: its head is new when it was empty */
                bool was_empty = mem_queue_empty(m->rin[s]);
                gpu_l2_tick(m->l2[s], e);
                if (was_empty && !mem_queue_empty(m->rin[s])) icnt_new_head(m, true, s);
                if (m->parked[s] && !mem_queue_full(m->sin[s])) {   /* room for the heads parked on it */
                    uint64_t h = gpu_icnt_room(m->icnt, s, t);
                    if (h < m->wreq) m->wreq = h;
                    if (h < m->wake[D_ICNT]) set_wake(m, D_ICNT, h);
                }
                m->ran[m->nran++] = s;
            } else if (m->l2nx[s] < rest) {
                rest = m->l2nx[s];
            }
        m->rest_min = rest;
    } else {
        uint64_t rest = UINT64_MAX;
        for (uint32_t c = 0; c < m->nch; c++)
            if (m->drnx[c] <= t) {
                gpu_dram_tick(m->dram[c], e);
                m->ran[m->nran++] = c;
            } else if (m->drnx[c] < rest) {
                rest = m->drnx[c];
            }
        m->rest_min = rest;
    }
}

static void refresh_stats(gpu_memsys *m)
{
    gpu_memstats *s = &m->st;
    const gpu_icntstats *ic = gpu_icnt_stats(m->icnt);
    s->icnt_packets = ic->packets;
    s->icnt_flits = ic->flits;
    s->icnt_stall_cycles = ic->stall_cycles;
    uint64_t to_l2 = 0, from_l2 = 0;
    s->replies = s->latency_cycles = 0;
    for (uint32_t i = 0; i < m->nsm; i++) {
        s->replies += m->lat[i].n;
        s->latency_cycles += m->lat[i].total;
        to_l2 += m->lat[i].to_l2;
        from_l2 += m->lat[i].from_l2;
    }
    s->latency_to_l2_cycles = to_l2 / m->pc;
    s->latency_from_l2_cycles = from_l2 / m->pc;
    s->l2_accesses = s->l2_hits = s->l2_misses = s->l2_writebacks = 0;
    s->l2_mshr_merges = s->l2_reservation_fails = s->icnt_reply_stall_cycles = s->l2_sector_misses = s->l2_atomic_busy = 0;
    for (uint32_t i = 0; i < m->nslice; i++) {
        const gpu_l2stats *l = gpu_l2_stats(m->l2[i]);
        s->l2_accesses += l->accesses;
        s->l2_hits += l->hits;
        s->l2_misses += l->misses;
        s->l2_writebacks += l->writebacks;
        s->l2_mshr_merges += l->mshr_merges;
        s->l2_reservation_fails += l->reservation_fails;
        s->icnt_reply_stall_cycles += l->stall_cycles;
        s->l2_sector_misses += l->sector_misses;
        s->l2_atomic_busy += l->atomic_busy;
    }
    s->dram_reads = s->dram_writes = s->dram_activates = s->dram_row_buffer_hits = s->dram_busy_cycles = s->dram_refreshes = s->dram_turnarounds = 0;
    for (uint32_t c = 0; c < m->nch; c++) {
        const gpu_dramstats *d = gpu_dram_stats(m->dram[c]);
        s->dram_reads += d->reads;
        s->dram_writes += d->writes;
        s->dram_activates += d->activates;
        s->dram_row_buffer_hits += d->row_hits;
        s->dram_busy_cycles += d->busy_cycles;
        s->dram_refreshes += d->refreshes;
        s->dram_turnarounds += d->write_to_read;
    }
}

/* Which domains' units a domain's tick may push into (their wakes can move
** earlier): the interconnect feeds the slices, the slices feed the
** interconnect and DRAM, DRAM feeds the slices.  A unit that finds a queue
** full retries every cycle, so a consumer's pop never needs to wake its
** producer; only pushes do.  With its own domain (whose units ticked):
**   D_ICNT -> D_ICNT, D_L2;  D_L2 -> D_ICNT, D_L2, D_DRAM;  D_DRAM -> D_L2, D_DRAM
** gpu_memsys_tick sets those wakes after each run, in domain order. */

/* The new heads of the SMs' injection queues since the last tick lower the
** request crossbar's wake (their answers are what they were when the SMs
** pushed them: the interconnect has not ticked since). */
static void icnt_new_heads(gpu_memsys *m)
{
    for (uint32_t sm = 0; sm < m->nsm; sm++)
        if (m->inj_head[sm]) {
            m->inj_head[sm] = false;
            icnt_new_head(m, false, sm);
        }
    m->inj_new = false;
}

void gpu_memsys_tick(gpu_memsys *m, uint64_t now)
{
    uint64_t T = now * m->pc;
    TP_ASSERT(T >= m->t_now);
    m->t_now = T;
    if (m->inj_new) icnt_new_heads(m);
    for (;;) {
        /* the earliest edge; at equal times the lower domain (none: bt is
        ** UINT64_MAX, after T) */
        int best = D_ICNT;
        uint64_t bt = m->wtime[D_ICNT];
        if (m->wtime[D_L2] < bt) {
            bt = m->wtime[D_L2];
            best = D_L2;
        }
        if (m->wtime[D_DRAM] < bt) {
            bt = m->wtime[D_DRAM];
            best = D_DRAM;
        }
        if (bt > T) break;
        uint64_t be = m->wedge[best];
        run_domain(m, best, be);
        m->k[best] = be + 1;
        /* the domains it feeds, in domain order (feeds, written out per domain) */
        if (best == D_ICNT) {
            set_wake(m, D_ICNT, icnt_wake(m, true));
            fed_wake(m, D_L2, domain_wake(m, D_L2, D_ICNT));
        } else if (best == D_L2) {
            fed_wake(m, D_ICNT, icnt_wake(m, false));
            set_wake(m, D_L2, domain_wake(m, D_L2, D_L2));
            fed_wake(m, D_DRAM, domain_wake(m, D_DRAM, D_L2));
        } else {
            fed_wake(m, D_L2, domain_wake(m, D_L2, D_DRAM));
            set_wake(m, D_DRAM, domain_wake(m, D_DRAM, D_DRAM));
        }
    }
}

/* The earliest time of the domains' edges (and of the new heads' first
** edge), UINT64_MAX: none. */
static uint64_t next_time_inside(const gpu_memsys *m)
{
    uint64_t best = UINT64_MAX;
    for (int d = 0; d < ND; d++)
        if (m->wtime[d] < best) best = m->wtime[d];
    if (m->inj_new) /* heads pushed since the last tick (icnt_new_heads has not seen them yet) */
        for (uint32_t sm = 0; sm < m->nsm; sm++) {
            uint64_t h = m->inj_head[sm] ? gpu_icnt_head_next(m->icnt, false, sm) : UINT64_MAX;
            if (h != UINT64_MAX && edge_at(m, D_ICNT, h) * m->p[D_ICNT] < best) best = edge_at(m, D_ICNT, h) * m->p[D_ICNT];
        }
    return best;
}

uint64_t gpu_memsys_next_inside(const gpu_memsys *m)
{
    uint64_t best = next_time_inside(m);
    return best == UINT64_MAX ? best : tp_fdiv_up(&m->fpc, best);
}

uint64_t gpu_memsys_next(const gpu_memsys *m)
{
    uint64_t best = next_time_inside(m);
    for (uint32_t w = 0; w < (m->nsm + 63) / 64; w++)
        for (uint64_t bits = m->ejm[w]; bits; bits &= bits - 1) {
            uint32_t sm = w * 64 + (uint32_t)__builtin_ctzll(bits);
            uint64_t r = mem_queue_head_ready(m->ej[sm]);
            if (r == UINT64_MAX) m->ejm[w] &= ~(1ull << (sm % 64));   /* empty: off the mask */
            if (r < best) best = r;
        }
    if (best == UINT64_MAX) return best;
    uint64_t n = tp_fdiv_up(&m->fpc, best);   /* the first core cycle at or after it */
    return n;
}

bool gpu_memsys_idle(const gpu_memsys *m)
{
    if (!gpu_icnt_idle(m->icnt)) return false;
    for (uint32_t sm = 0; sm < m->nsm; sm++)
        if (!mem_queue_empty(m->ej[sm])) return false;
    for (uint32_t s = 0; s < m->nslice; s++)
        if (!gpu_l2_idle(m->l2[s])) return false;
    for (uint32_t c = 0; c < m->nch; c++)
        if (!gpu_dram_idle(m->dram[c])) return false;
    return true;
}

/* The counters live in the units; they are summed here, when asked for, not
** in every cycle (the result is the same: the units count, this adds up). */
const gpu_memstats *gpu_memsys_stats(const gpu_memsys *m)
{
    gpu_memsys *w = (gpu_memsys *)m;   /* a cache of the units' counters */
    w->st.dram_cycles = m->t_now / m->p[D_DRAM] * m->nch;
    /* the slices' refusals of the edges they slept through, up to the last
    ** edge run (every edge at or before t_now: a refusing slice would have
    ** ticked at each) */
    for (uint32_t s = 0; s < m->nslice; s++) gpu_l2_sync(m->l2[s], m->t_now / m->p[D_L2] + 1);
    gpu_icnt_sync(m->icnt, m->t_now / m->p[D_ICNT] + 1);   /* the parked heads' stalls, likewise */
    refresh_stats(w);
    return &m->st;
}

uint32_t gpu_memsys_slice_of(const gpu_memsys *m, uint64_t addr) { return gpu_addrmap_slice(&m->map, addr); }

void gpu_memsys_warm(gpu_memsys *m, uint64_t addr, uint64_t bytes)
{
    if (!bytes || !m->line || !m->l2_bytes) return;
    uint64_t end = addr + bytes, start = addr;
    if (bytes > m->l2_bytes) start = end - m->l2_bytes;
    for (uint64_t a = start - start % m->line; a < end; a += m->line)
        gpu_l2_warm(m->l2[gpu_addrmap_slice(&m->map, a)], a);
}
