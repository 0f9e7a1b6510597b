/*
** textbook.c -- the timing of Hennessy & Patterson (3rd ed., Appendix G):
** convoys and chimes, exactly as the lecture computes them.
**
** - A program clock T starts at 0.  Vector instructions form convoys in
**   program order; a convoy starts at T, every instruction in it starts at
**   the convoy's start (its element 0 issues then), and when the convoy is
**   closed T becomes the cycle after its last result: convoys run back to
**   back, never overlapping.
** - An instruction started at s with start-up L on VL elements produces its
**   first result at s+L and its last at s+L+ceil(VL/(lanes*64/VPW))-1: a
**   64-bit lane does 64/VPW element operations per cycle, so a chime covers
**   VL*VPW/(64*lanes) cycles (the element schedule is vec_elems,
**   internal.h).
** - An instruction joins the current convoy unless
**     (a) the convoy already uses its unit (add, mul, div, logical; memory
**         instructions share lsu_count load/store units),
**     (b) chaining=0 and it reads a vector register (or VM) written in the
**         convoy, or
**     (c) it writes a vector register the convoy reads or writes.  The
**         lecture's list does not name (c): it is H&P's "no data hazards in
**         a convoy" for WAR/WAW, without which two writers of one register
**         in one convoy would finish in the wrong order.  The mask is
**         exempt from the WAR part: every masked instruction reads VM as its
**         elements issue, before a compare of the same convoy produces a
**         result (otherwise no compare could ever join a convoy).
**   With chaining=1 a dependent instruction joins, and its element i starts
**   when its producer's element i is produced, so its start-up adds to the
**   producer's (a chain's start-up is the sum along it).
** - MTC1 VLR and MTC1 VPW, instructions that write VM (MVTM, CVM and the
**   compares, the latter after joining) and branches close the convoy.
** - Scalar instructions take no time, except that each executed conditional
**   branch adds tloop to T (the strip-mined loop's overhead), after closing
**   the convoy.  Jumps (J) close the convoy and add nothing.
** - Memory is accessed in aligned 8-byte words: an element inside the word
**   of the previous active element, issuing in the same cycle, shares its
**   access (narrow elements at unit stride: 64/VPW per word); each lane
**   makes one access per cycle.  Memory banks (mem_banks > 0): an access
**   issues at the first cycle at least one after element i-1's (with
**   lanes > 1: after element i-lanes', and not before element i-1's) at
**   which its bank, (address/8) mod mem_banks, is free; a bank is busy for
**   bank_busy cycles from an issue; the element's data arrives mem_latency
**   cycles after its issue (mem_latency replaces startup.load).  Memory
**   instructions of one convoy take banks in program order: the earlier
**   reserves first.  Elements masked off by VM take their issue slot but no
**   bank.
** - An instruction with VLR = 0 has no elements and takes no time.
** - cycles = T at the end of the program.
*/
#include "internal.h"
#include <stdlib.h>

typedef struct tb {
    vec_timing base;
    uint32_t mvl, lanes, lsu_count, nregs; /* mvl: elements at the narrowest width; nregs: vregs + 1 (VM last) */
    bool chaining, banked;
    uint32_t lat[VEC_C_VLOGIC + 1];         /* start-up of each vector class */
    uint64_t tloop;
    uint64_t T;
    bool open;
    uint64_t cstart, cend;                  /* cend: 1 + the convoy's last result */
    uint32_t lsu_used;
    bool unit_used[VEC_UNIT_LSU0];
    bool *wr, *rd;                          /* per register: written / read in the convoy */
    uint64_t *res;                          /* res[reg*mvl+i]: result cycle of the convoy's writer */
    uint64_t *e, *r;
    mem_banks banks;
} tb;

static int reg_index(const tb *t, const vec_reg *r)
{
    if (r->kind == VEC_RK_V) return r->num;
    if (r->kind == VEC_RK_VM) return (int)t->nregs - 1;
    return -1;
}

static void tb_close(tb *t)
{
    if (!t->open) return;
    if (t->cend > t->T) t->T = t->cend;
    t->open = false;
}

static void tb_open(tb *t)
{
    t->open = true;
    t->cstart = t->cend = t->T;
    t->lsu_used = 0;
    memset(t->unit_used, 0, sizeof t->unit_used);
    memset(t->wr, 0, t->nregs * sizeof *t->wr);
    memset(t->rd, 0, t->nregs * sizeof *t->rd);
    t->base.st.convoys++;
    if (t->banked) mem_banks_retire(&t->banks, t->T);
}

/* Whether instruction `in` cannot join the open convoy. */
static bool conflicts(const tb *t, const vec_insn *in, int unit)
{
    if (unit == VEC_UNIT_LSU0 ? t->lsu_used >= t->lsu_count : t->unit_used[unit]) return true;
    for (uint32_t k = 0; k < in->nsrc; k++) {
        int g = reg_index(t, &in->src[k]);
        if (g >= 0 && t->wr[g] && !t->chaining) return true;
    }
    int g = reg_index(t, &in->dst);
    return g >= 0 && (t->wr[g] || t->rd[g]);
}

static void tb_step(vec_timing *base, const vec_dyn *d)
{
    tb *t = (tb *)base;
    const vec_insn *in = d->in;
    const vec_opinfo *oi = &vec_ops[in->op];
    if (!vec_cls_vector(oi->cls)) {
        if (oi->cls == VEC_C_BRANCH || oi->cls == VEC_C_JUMP) {
            tb_close(t);
            if (oi->cls == VEC_C_BRANCH && t->tloop) {
                if (base->trace) {
                    vec_trow row = {in, d->pc, 0, 0, t->T, 0, t->T + t->tloop - 1, t->T, t->T + t->tloop - 1, VEC_UNIT_MAX};
                    vec_trace_add(base->trace, &row);
                }
                t->T += t->tloop;
                base->st.loop_cycles += t->tloop;
            }
        } else if (oi->flags & (VEC_FL_WVLR | VEC_FL_WVM)) {
            tb_close(t);
        }
        return;
    }
    int unit = vec_cls_unit(oi->cls);
    if (!t->open || conflicts(t, in, unit)) {
        tb_close(t);
        tb_open(t);
    }
    bool mem = oi->cls == VEC_C_VLSU;
    vec_elem_req q;
    memset(&q, 0, sizeof q);
    q.s = t->cstart;
    q.vl = d->vl;
    q.lanes = t->lanes;
    q.per = 64 / d->vpw;
    q.lat = t->lat[oi->cls]; /* mem_latency for memory when banked */
    for (uint32_t k = 0; k < in->nsrc; k++) {
        int g = reg_index(t, &in->src[k]);
        if (g >= 0 && t->wr[g]) q.ready[q.nready++] = t->res + (size_t)g * t->mvl;
    }
    if (mem) {
        q.addr = d->addr;
        q.act = d->act;
        q.ebytes = d->vpw / 8;
        if (t->banked) q.banks = &t->banks;
    }
    base->st.bank_stalls += vec_elems(&q, t->e, t->r);
    int inst = unit == VEC_UNIT_LSU0 ? VEC_UNIT_LSU0 + (int)t->lsu_used++ : unit;
    if (unit != VEC_UNIT_LSU0) t->unit_used[unit] = true;
    for (uint32_t k = 0; k < in->nsrc; k++) {
        int g = reg_index(t, &in->src[k]);
        if (g >= 0 && in->src[k].kind == VEC_RK_V) t->rd[g] = true; /* VM: see (c) */
    }
    int g = reg_index(t, &in->dst);
    if (g >= 0) {
        t->wr[g] = true;
        if (d->vl) memcpy(t->res + (size_t)g * t->mvl, t->r, d->vl * sizeof *t->r);
    }
    vec_trow row = {in, d->pc, d->vl, base->st.convoys, t->cstart, 0, 0, 0, 0, (uint8_t)inst};
    if (d->vl) {
        uint64_t last = t->r[d->vl - 1];
        if (last + 1 > t->cend) t->cend = last + 1;
        base->st.busy[inst] += t->e[d->vl - 1] - t->e[0] + 1;
        row.first = t->r[0], row.last = last;
        row.efirst = t->e[0], row.elast = t->e[d->vl - 1];
    }
    if (base->trace) vec_trace_add(base->trace, &row);
    if (oi->flags & VEC_FL_WVM) tb_close(t);
}

static void tb_finish(vec_timing *base)
{
    tb *t = (tb *)base;
    tb_close(t);
    base->st.cycles = t->T;
}

static void tb_destroy(vec_timing *base)
{
    tb *t = (tb *)base;
    free(t->wr);
    free(t->rd);
    free(t->res);
    free(t->e);
    free(t->r);
    if (t->banked) mem_banks_free(&t->banks);
    free(t);
}

vec_timing *vec_textbook_new(const tp_opts *o, vec_trace *trace)
{
    tb *t = tp_calloc(1, sizeof *t);
    t->base.step = tb_step;
    t->base.finish = tb_finish;
    t->base.destroy = tb_destroy;
    t->base.trace = trace;
    t->mvl = (uint32_t)tp_opt_i(o, VEC_OPT_MVL) * 8;
    t->lanes = (uint32_t)tp_opt_i(o, VEC_OPT_LANES);
    t->lsu_count = (uint32_t)tp_opt_i(o, VEC_OPT_LSU_COUNT);
    t->nregs = (uint32_t)tp_opt_i(o, VEC_OPT_VREGS) + 1;
    t->chaining = tp_opt_i(o, VEC_OPT_CHAINING) != 0;
    t->banked = tp_opt_i(o, VEC_OPT_MEM_BANKS) > 0;
    t->tloop = (uint64_t)tp_opt_i(o, VEC_OPT_TLOOP);
    for (int c = VEC_C_VLSU; c <= VEC_C_VLOGIC; c++) t->lat[c] = vec_startup(o, c);
    if (t->banked) {
        t->lat[VEC_C_VLSU] = (uint32_t)tp_opt_i(o, VEC_OPT_MEM_LATENCY);
        mem_banks_init(&t->banks, (uint32_t)tp_opt_i(o, VEC_OPT_MEM_BANKS), (uint32_t)tp_opt_i(o, VEC_OPT_BANK_BUSY), 8);
    }
    t->wr = tp_calloc(t->nregs, sizeof *t->wr);
    t->rd = tp_calloc(t->nregs, sizeof *t->rd);
    t->res = tp_calloc((size_t)t->nregs * t->mvl, sizeof *t->res);
    t->e = tp_calloc(t->mvl, sizeof *t->e);
    t->r = tp_calloc(t->mvl, sizeof *t->r);
    t->base.st.nunits = VEC_UNIT_LSU0 + t->lsu_count;
    return &t->base;
}
