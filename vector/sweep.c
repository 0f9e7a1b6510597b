/*
** sweep.c -- a program over a range of vector lengths, and the lecture's
** performance metrics from it.
**
** The program is assembled and run once per value n of an .equ constant
** (the vector length), giving Tn (cycles) and Rn = K * n * clock / Tn
** MFLOPS for K FLOPs per element.  Then:
**
** - R_inf (the rate on an infinitely long vector) is the rate of the work
**   the last MVL elements add: K * (n2 - n1) * clock / (T(n2) - T(n1)) with
**   n2 the largest n swept and n1 the largest swept n <= n2 - MVL (the
**   smallest n when the sweep spans less than MVL).  For a strip-mined loop
**   Tn = ceil(n/MVL) * (Tloop + Tstart) + n * Tchime, so this is exactly
**   K * clock / (Tchime + (Tloop + Tstart) / MVL), H&P's R_inf: 250 MFLOPS
**   for chained DAXPY on VMIPS at 500 MHz (Tstart 49, Tchime 3, Tloop 15).
** - N_1/2 is the smallest swept n with Rn >= R_inf / 2, compared exactly in
**   integers: 2 * n * (T(n2) - T(n1)) >= (n2 - n1) * Tn.
** - Per element width W with operations (ops.W, run.c) at the last point:
**   R_inf.W = (ops(n2) - ops(n1)) * clock / (T(n2) - T(n1)) MOPS, with n1
**   chosen as above but with the MVL at W bits (mvl * 64 / W), and N_1/2.W
**   the smallest swept n with ops(n) * clock / Tn >= R_inf.W / 2, compared
**   in integers: 2 * ops(n) * (T(n2) - T(n1)) >= (ops(n2) - ops(n1)) * Tn.
**   These need no K: they count what the program did.
** - N_v (with a scalar program) is the smallest swept n at which the vector
**   program takes fewer cycles than the scalar one.  The scalar program is
**   always timed by the pipelined model (the textbook model gives scalar
**   code no time) and gets only the swept constant, not the other --set.
*/
#include "internal.h"
#include <stdlib.h>

static bool run_one(const char *text, size_t len, const char *file, const vec_equ_set *set, uint32_t nset,
                    const tp_opts *o, int timing, uint64_t *cycles, uint64_t *ops, tp_err *e)
{
    vec_asm_cfg cfg = {(uint32_t)tp_opt_i(o, VEC_OPT_VREGS), set, nset, 0, false};
    vec_prog p;
    if (!vec_asm(&p, text, len, file, &cfg, e)) return false;
    vec_run r;
    bool ok = vec_run_program(&r, &p, o, timing, 0, e);
    *cycles = r.st.cycles;
    if (ops) memcpy(ops, r.ops, sizeof r.ops);
    vec_run_free(&r);
    vec_prog_free(&p);
    return ok;
}

bool vec_sweep(const vec_sweep_cfg *c, vec_sweep_res *r, tp_err *e)
{
    memset(r, 0, sizeof *r);
    r->nhalf = r->nv = -1;
    if (c->step <= 0 || c->from > c->to) {
        tp_err_set(e, 1, "--sweep %s=%lld..%lld:%lld: needs A <= B and STEP > 0", c->name, (long long)c->from,
                   (long long)c->to, (long long)c->step);
        return false;
    }
    if (((uint64_t)c->to - (uint64_t)c->from) / (uint64_t)c->step >= 100000) {
        tp_err_set(e, 1, "--sweep %s: more than 100000 points", c->name);
        return false;
    }
    vec_equ_set *set = tp_calloc(c->nset + 1, sizeof *set);
    if (c->nset) memcpy(set, c->set, c->nset * sizeof *set);
    set[c->nset].name = c->name;
    bool ok = true;
    double clock = tp_opt_f(c->opts, VEC_OPT_CLOCK_MHZ);
    for (int64_t n = c->from; ok; n += c->step) {
        vec_sweep_pt pt = {n, 0, 0, 0, {0}};
        set[c->nset].value = n;
        ok = run_one(c->text, c->len, c->file, set, c->nset + 1, c->opts, -1, &pt.t, pt.ops, e);
        if (ok && c->stext)
            ok = run_one(c->stext, c->slen, c->sfile, &set[c->nset], 1, c->opts, VEC_TIMING_PIPELINED, &pt.ts, NULL, e);
        if (!ok) break;
        pt.mflops = pt.t ? c->flops_per_element * (double)n * clock / (double)pt.t : 0;
        tp_vec_push(&r->pts, pt);
        if ((uint64_t)c->to - (uint64_t)n < (uint64_t)c->step) break;
    }
    free(set);
    if (ok) vec_sweep_metrics(r, (uint32_t)tp_opt_i(c->opts, VEC_OPT_MVL), clock, c->flops_per_element);
    return ok;
}

/* R_inf.W and N_1/2.W from the operations counted at each width. */
static void width_metrics(vec_sweep_res *r, uint32_t mvl, double clock_mhz)
{
    uint32_t n = r->pts.n;
    for (unsigned k = 0; k < 4; k++) {
        r->rinf_w[k] = 0;
        r->rinf_w_n1[k] = r->rinf_w_n2[k] = 0;
        r->nhalf_w[k] = -1;
        if (n < 2) continue;
        const vec_sweep_pt *p2 = &r->pts.a[n - 1], *p1 = &r->pts.a[0];
        int64_t mvl_w = (int64_t)mvl * (8 >> k);
        for (uint32_t i = n - 1; i-- > 0;)
            if (r->pts.a[i].n <= p2->n - mvl_w) {
                p1 = &r->pts.a[i];
                break;
            }
        if (p2->t <= p1->t || p2->ops[k] <= p1->ops[k]) continue;
        uint64_t dw = p2->ops[k] - p1->ops[k], dt = p2->t - p1->t;
        r->rinf_w[k] = (double)dw * clock_mhz / (double)dt;
        r->rinf_w_n1[k] = p1->n;
        r->rinf_w_n2[k] = p2->n;
        for (uint32_t i = 0; i < n; i++) {
            const vec_sweep_pt *p = &r->pts.a[i];
            unsigned __int128 lhs = (unsigned __int128)2 * p->ops[k] * dt, rhs = (unsigned __int128)dw * p->t;
            if (p->ops[k] && lhs >= rhs) {
                r->nhalf_w[k] = p->n;
                break;
            }
        }
    }
}

void vec_sweep_metrics(vec_sweep_res *r, uint32_t mvl, double clock_mhz, double flops_per_element)
{
    uint32_t n = r->pts.n;
    r->rinf = 0;
    r->nhalf = r->nv = -1;
    width_metrics(r, mvl, clock_mhz);
    for (uint32_t i = 0; i < n; i++)
        if (r->pts.a[i].ts && r->pts.a[i].t < r->pts.a[i].ts) {
            r->nv = r->pts.a[i].n;
            break;
        }
    if (n < 2) return;
    const vec_sweep_pt *p2 = &r->pts.a[n - 1], *p1 = &r->pts.a[0];
    for (uint32_t i = n - 1; i-- > 0;)
        if (r->pts.a[i].n <= p2->n - (int64_t)mvl) {
            p1 = &r->pts.a[i];
            break;
        }
    if (p2->t <= p1->t) return; /* no growth: no meaningful rate */
    uint64_t dn = (uint64_t)(p2->n - p1->n), dt = p2->t - p1->t;
    r->rinf = flops_per_element * (double)dn * clock_mhz / (double)dt;
    r->rinf_n1 = p1->n;
    r->rinf_n2 = p2->n;
    for (uint32_t i = 0; i < n; i++) {
        const vec_sweep_pt *p = &r->pts.a[i];
        if (p->n <= 0) continue;
        unsigned __int128 lhs = (unsigned __int128)2 * (uint64_t)p->n * dt, rhs = (unsigned __int128)dn * p->t;
        if (lhs >= rhs) {
            r->nhalf = p->n;
            break;
        }
    }
}

void vec_sweep_free(vec_sweep_res *r) { tp_vec_free(&r->pts); }
