/*
** pipelined.c -- a realistic in-order vector machine, element by element.
**
** - Issue: one instruction per cycle, in program order.  An instruction
**   issues at the first cycle at which its operands can be read and (vector)
**   its unit is free; everything behind it waits.  A taken branch or jump
**   adds branch_penalty bubbles.
** - Scalar instructions: a result is readable 1 + latency cycles after issue
**   (latency 0 for integer ALU and moves, scalar.lat_load for loads,
**   scalar.lat_fadd / _fmul / _fdiv for FP; DMUL has the multiply latency;
**   packed instructions run on the media unit with scalar.lat_media, their
**   multiplies with scalar.lat_media_mul).  POP and MVFM wait for VM's last
**   element; MTC1 VLR and the VM writers (MVTM, CVM) take effect the cycle
**   after they issue, a VM writer only once every earlier reader of VM has
**   read it.  MTC1 VPW issues only once every earlier vector instruction
**   has produced its last result (the vector unit drains: elements of
**   different widths never chain) and takes effect the cycle after.
** - Vector instructions: a unit (add, mul, div, logical, or the least busy of
**   lsu_count load/store units) takes lanes * 64/VPW elements per cycle
**   (each 64-bit lane does 64/VPW element operations) and is free again the
**   cycle after its last element entered (ceil(VL*VPW/(64*lanes)) cycles
**   without stalls).  Element i enters at e[i] and has its result at
**   e[i] + start-up (vec_elems, internal.h, gives the rules):
**     - RAW without chaining: the instruction issues only after the cycle of
**       its sources' last results;
**     - with (flexible) chaining it issues at once and element i enters no
**       earlier than the cycle its source element i is produced: it starts
**       on the producer's first result and never overtakes it;
**     - WAR and WAW: element i's result lands after the element was last
**       read and after its previous result;
**     - memory: each load/store unit generates `lanes` word addresses per
**       cycle, narrow elements in one aligned word sharing one (the word
**       and bank rules of textbook.c and internal.h); with mem_banks > 0
**       all units share the banks (earlier instructions reserve first) and
**       the data arrives mem_latency after the access; memory order holds
**       byte by byte: an element whose bytes overlap those of an element of
**       an earlier, still active vector instruction, where one of the two
**       stores, accesses memory at least one cycle after the earlier
**       access.  Scalar loads and stores wait for overlapping vector stores
**       (a scalar store also for loads) to complete.
** - cycles = one past the last cycle in which an instruction issued or a
**   result was produced.
*/
#include "internal.h"
#include <stdlib.h>

typedef struct plmem {     /* a vector memory instruction still active */
    uint64_t lo, hi;        /* bytes touched */
    uint64_t done;          /* 1 + last result */
    bool store;
    uint32_t eb;            /* bytes per element */
    uint32_t n;             /* its active elements, by address: */
    uint64_t *addr, *t;     /* address and access cycle */
} plmem;

typedef struct pl {
    vec_timing base;
    uint32_t mvl, lanes, lsu_count, nregs;   /* mvl: elements at 8 bits; nregs: vregs + 1 (VM last) */
    bool chaining, banked;
    uint32_t lat[VEC_C_VLOGIC + 1];          /* vector start-ups */
    uint32_t slat[VEC_C_VLSU];               /* scalar latencies */
    uint64_t branch_penalty;
    uint64_t t;                              /* earliest issue of the next instruction */
    uint64_t end;                            /* 1 + last cycle anything happens */
    uint64_t rr[32], fr[32], vlr, vpw;       /* cycle from which a scalar value is readable */
    uint64_t vdone;                          /* 1 + the last result of any vector instruction */
    uint64_t *w, *wmin, *rmin;               /* per register and element (see step) */
    uint64_t *vready, *rdone;                /* per register: 1 + last result, 1 + last read */
    uint64_t ufree[VEC_UNIT_MAX];
    uint64_t *e, *r, *mready;
    TP_VEC(plmem) mem;
    mem_banks banks;
} pl;

static inline uint64_t mx(uint64_t a, uint64_t b) { return a > b ? a : b; }

static int reg_index(const pl *p, const vec_reg *r)
{
    if (r->kind == VEC_RK_V) return r->num;
    if (r->kind == VEC_RK_VM) return (int)p->nregs - 1;
    return -1;
}

static bool overlaps(const plmem *m, uint64_t lo, uint64_t hi) { return m->lo < hi && lo < m->hi; }

/* Drops memory instructions that finished before cycle s. */
static void prune(pl *p, uint64_t s)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < p->mem.n; i++) {
        if (p->mem.a[i].done > s) {
            p->mem.a[k++] = p->mem.a[i];
        } else {
            free(p->mem.a[i].addr);
            free(p->mem.a[i].t);
        }
    }
    p->mem.n = k;
}

/* Memory order, byte by byte: p->mready[i] = 1 + the latest access of an
** earlier active instruction to an element whose bytes overlap element i's
** (where one of them stores).  Returns false when nothing constrains. */
static bool mem_order(pl *p, const vec_dyn *d, bool store)
{
    bool any = false;
    uint32_t eb = d->vpw / 8;
    memset(p->mready, 0, d->vl * sizeof *p->mready);
    for (uint32_t k = 0; k < p->mem.n; k++) {
        const plmem *m = &p->mem.a[k];
        if (!(store || m->store) || !overlaps(m, d->lo, d->hi)) continue;
        for (uint32_t i = 0; i < d->vl; i++) {
            if (!vec_vm_bit(d->act, i)) continue;
            uint64_t a = d->addr[i], lo = a >= m->eb - 1 ? a - (m->eb - 1) : 0;
            /* the first element with address >= lo, then those below a + eb */
            uint32_t l = 0, h = m->n;
            while (l < h) {
                uint32_t mid = (l + h) / 2;
                if (m->addr[mid] < lo) l = mid + 1;
                else h = mid;
            }
            for (uint32_t j = l; j < m->n && m->addr[j] < a + eb; j++)
                if (m->t[j] + 1 > p->mready[i]) p->mready[i] = m->t[j] + 1, any = true;
        }
    }
    return any;
}

/* Remembers a vector memory instruction's accesses, sorted by address. */
static void mem_push(pl *p, const vec_dyn *d, bool store, uint64_t done)
{
    plmem m = {d->lo, d->hi, done, store, d->vpw / 8, 0, NULL, NULL};
    m.addr = tp_malloc(d->nact * sizeof *m.addr + 1);
    m.t = tp_malloc(d->nact * sizeof *m.t + 1);
    for (uint32_t i = 0; i < d->vl; i++) {
        if (!vec_vm_bit(d->act, i)) continue;
        uint32_t j = m.n++; /* insertion sort: strided streams arrive sorted */
        while (j > 0 && m.addr[j - 1] > d->addr[i]) m.addr[j] = m.addr[j - 1], m.t[j] = m.t[j - 1], j--;
        m.addr[j] = d->addr[i], m.t[j] = p->e[i];
    }
    tp_vec_push(&p->mem, m);
}

static void scalar_step(pl *p, const vec_dyn *d)
{
    const vec_insn *in = d->in;
    const vec_opinfo *oi = &vec_ops[in->op];
    uint64_t s = p->t;
    for (uint32_t k = 0; k < in->nsrc; k++) {
        const vec_reg *r = &in->src[k];
        if (r->kind == VEC_RK_R) s = mx(s, p->rr[r->num]);
        else if (r->kind == VEC_RK_F) s = mx(s, p->fr[r->num]);
        else if (r->kind == VEC_RK_VLR) s = mx(s, p->vlr);
        else if (r->kind == VEC_RK_VPW) s = mx(s, p->vpw);
        else if (r->kind == VEC_RK_VM) s = mx(s, p->vready[p->nregs - 1]);
    }
    if (in->dst.kind == VEC_RK_VPW) s = mx(s, p->vdone); /* the vector unit drains */
    if ((oi->cls == VEC_C_LOAD || oi->cls == VEC_C_STORE) && d->lo < d->hi) {
        bool store = oi->cls == VEC_C_STORE;
        for (uint32_t i = 0; i < p->mem.n; i++)
            if ((store || p->mem.a[i].store) && overlaps(&p->mem.a[i], d->lo, d->hi)) s = mx(s, p->mem.a[i].done);
    }
    int vm = (int)p->nregs - 1;
    if (in->dst.kind == VEC_RK_VM) s = mx(s, mx(p->rdone[vm], p->vready[vm]));
    uint64_t ready = s + 1 + p->slat[oi->cls];
    switch (in->dst.kind) {
    case VEC_RK_R: p->rr[in->dst.num] = ready; break;
    case VEC_RK_F: p->fr[in->dst.num] = ready; break;
    case VEC_RK_VLR: p->vlr = s + 1; break;
    case VEC_RK_VPW: p->vpw = s + 1; break;
    case VEC_RK_VM:
        for (uint32_t i = 0; i < p->mvl; i++) {
            p->w[(size_t)vm * p->mvl + i] = s;
            p->wmin[(size_t)vm * p->mvl + i] = s + 1;
        }
        p->vready[vm] = s + 1;
        break;
    default: break;
    }
    p->end = mx(p->end, in->dst.kind ? ready : s + 1);
    p->t = s + 1 + (d->taken ? p->branch_penalty : 0);
    prune(p, s);
}

static void vector_step(pl *p, const vec_dyn *d)
{
    const vec_insn *in = d->in;
    const vec_opinfo *oi = &vec_ops[in->op];
    bool mem = oi->cls == VEC_C_VLSU, store = oi->flags & VEC_FL_STORE;
    int inst = vec_cls_unit(oi->cls);
    if (mem)
        for (uint32_t k = 1; k < p->lsu_count; k++)
            if (p->ufree[VEC_UNIT_LSU0 + k] < p->ufree[inst]) inst = VEC_UNIT_LSU0 + (int)k;
    uint64_t s = mx(mx(mx(p->t, p->ufree[inst]), p->vlr), p->vpw);
    vec_elem_req q;
    memset(&q, 0, sizeof q);
    for (uint32_t k = 0; k < in->nsrc; k++) {
        const vec_reg *r = &in->src[k];
        int g = reg_index(p, r);
        if (r->kind == VEC_RK_R) s = mx(s, p->rr[r->num]);
        else if (r->kind == VEC_RK_F) s = mx(s, p->fr[r->num]);
        else if (g >= 0) {
            if (p->chaining) q.ready[q.nready++] = p->w + (size_t)g * p->mvl;
            else s = mx(s, p->vready[g]);
        }
    }
    if (mem && d->lo < d->hi && mem_order(p, d, store)) q.ready[q.nready++] = p->mready;
    int g = reg_index(p, &in->dst);
    if (g >= 0) {
        q.rmin[q.nrmin++] = p->wmin + (size_t)g * p->mvl;
        q.rmin[q.nrmin++] = p->rmin + (size_t)g * p->mvl;
    }
    q.s = s;
    q.vl = d->vl;
    q.lanes = p->lanes;
    q.per = 64 / d->vpw;
    q.lat = p->lat[oi->cls];
    if (mem) {
        q.addr = d->addr;
        q.act = d->act;
        q.ebytes = d->vpw / 8;
        if (p->banked) {
            mem_banks_retire(&p->banks, s);
            q.banks = &p->banks;
        }
    }
    p->base.st.bank_stalls += vec_elems(&q, p->e, p->r);
    vec_trow row = {in, d->pc, d->vl, 0, s, 0, 0, 0, 0, (uint8_t)inst};
    uint32_t vl = d->vl;
    if (vl) {
        uint64_t elast = p->e[vl - 1], last = p->r[vl - 1];
        p->ufree[inst] = elast + 1;
        p->base.st.busy[inst] += elast - p->e[0] + 1;
        if (g >= 0) {
            uint64_t *w = p->w + (size_t)g * p->mvl, *wm = p->wmin + (size_t)g * p->mvl;
            for (uint32_t i = 0; i < vl; i++) w[i] = p->r[i], wm[i] = p->r[i] + 1;
            p->vready[g] = mx(p->vready[g], last + 1);
        }
        for (uint32_t k = 0; k < in->nsrc; k++) {
            int h = reg_index(p, &in->src[k]);
            if (h < 0) continue;
            uint64_t *rm = p->rmin + (size_t)h * p->mvl;
            for (uint32_t i = 0; i < vl; i++) rm[i] = mx(rm[i], p->e[i] + 1);
            p->rdone[h] = mx(p->rdone[h], elast + 1);
        }
        if (mem && d->lo < d->hi) mem_push(p, d, store, last + 1);
        p->end = mx(p->end, last + 1);
        p->vdone = mx(p->vdone, last + 1);
        row.first = p->r[0], row.last = last;
        row.efirst = p->e[0], row.elast = elast;
    }
    if (p->base.trace) vec_trace_add(p->base.trace, &row);
    p->t = s + 1;
    p->end = mx(p->end, p->t);
    prune(p, s);
}

static void pl_step(vec_timing *base, const vec_dyn *d)
{
    pl *p = (pl *)base;
    if (vec_cls_vector(vec_ops[d->in->op].cls)) vector_step(p, d);
    else scalar_step(p, d);
}

static void pl_finish(vec_timing *base)
{
    pl *p = (pl *)base;
    base->st.cycles = mx(p->end, p->t);
}

static void pl_destroy(vec_timing *base)
{
    pl *p = (pl *)base;
    free(p->w);
    free(p->wmin);
    free(p->rmin);
    free(p->vready);
    free(p->rdone);
    free(p->e);
    free(p->r);
    free(p->mready);
    prune(p, UINT64_MAX);
    tp_vec_free(&p->mem);
    if (p->banked) mem_banks_free(&p->banks);
    free(p);
}

vec_timing *vec_pipelined_new(const tp_opts *o, vec_trace *trace)
{
    pl *p = tp_calloc(1, sizeof *p);
    p->base.step = pl_step;
    p->base.finish = pl_finish;
    p->base.destroy = pl_destroy;
    p->base.trace = trace;
    p->mvl = (uint32_t)tp_opt_i(o, VEC_OPT_MVL) * 8;
    p->lanes = (uint32_t)tp_opt_i(o, VEC_OPT_LANES);
    p->lsu_count = (uint32_t)tp_opt_i(o, VEC_OPT_LSU_COUNT);
    p->nregs = (uint32_t)tp_opt_i(o, VEC_OPT_VREGS) + 1;
    p->chaining = tp_opt_i(o, VEC_OPT_CHAINING) != 0;
    p->banked = tp_opt_i(o, VEC_OPT_MEM_BANKS) > 0;
    p->branch_penalty = (uint64_t)tp_opt_i(o, VEC_OPT_BRANCH_PENALTY);
    for (int c = VEC_C_VLSU; c <= VEC_C_VLOGIC; c++) p->lat[c] = vec_startup(o, c);
    p->slat[VEC_C_LOAD] = (uint32_t)tp_opt_i(o, VEC_OPT_SLAT_LOAD);
    p->slat[VEC_C_FADD] = (uint32_t)tp_opt_i(o, VEC_OPT_SLAT_FADD);
    p->slat[VEC_C_FMUL] = p->slat[VEC_C_IMUL] = (uint32_t)tp_opt_i(o, VEC_OPT_SLAT_FMUL);
    p->slat[VEC_C_FDIV] = (uint32_t)tp_opt_i(o, VEC_OPT_SLAT_FDIV);
    p->slat[VEC_C_MEDIA] = (uint32_t)tp_opt_i(o, VEC_OPT_SLAT_MEDIA);
    p->slat[VEC_C_MMUL] = (uint32_t)tp_opt_i(o, VEC_OPT_SLAT_MMUL);
    if (p->banked) {
        p->lat[VEC_C_VLSU] = (uint32_t)tp_opt_i(o, VEC_OPT_MEM_LATENCY);
        mem_banks_init(&p->banks, (uint32_t)tp_opt_i(o, VEC_OPT_MEM_BANKS), (uint32_t)tp_opt_i(o, VEC_OPT_BANK_BUSY), 8);
    }
    size_t n = (size_t)p->nregs * p->mvl;
    p->w = tp_calloc(n, sizeof *p->w);
    p->wmin = tp_calloc(n, sizeof *p->wmin);
    p->rmin = tp_calloc(n, sizeof *p->rmin);
    p->vready = tp_calloc(p->nregs, sizeof *p->vready);
    p->rdone = tp_calloc(p->nregs, sizeof *p->rdone);
    p->e = tp_calloc(p->mvl, sizeof *p->e);
    p->r = tp_calloc(p->mvl, sizeof *p->r);
    p->mready = tp_calloc(p->mvl, sizeof *p->mready);
    p->base.st.nunits = VEC_UNIT_LSU0 + p->lsu_count;
    return &p->base;
}
