/*
** run.c -- one run of a program: the functional model feeding a timing
** model, and the statistics of the run.
**
** Statistics (registered in this order; `tpsim vec` prints them):
**   timing                textbook or pipelined
**   cycles                the timing model's cycles
**   instructions          executed instructions (scalar + vector)
**   scalar_instructions, vector_instructions
**   vector_elements       elements of vector instructions (the sum of VLR)
**   flops                 FP operations: active elements of vector add,
**                         subtract, multiply and divide, plus scalar ADD.D,
**                         SUB.D, MUL.D, DIV.D (compares are not counted)
**   mflops                flops * clock_mhz / cycles
**   ops.8 ops.16 ops.32 ops.64
**                         element operations at each width: the active
**                         elements of vector arithmetic, logical and compare
**                         instructions (FP included, at 64; CVI counts its
**                         elements; loads and stores do not count) at their
**                         VPW, and the result elements of packed (MMX)
**                         instructions at their result width (PAND & co and
**                         the quadword shifts: one 64-bit element)
**   mops.8 ... mops.64    ops.W * clock_mhz / cycles
**   peak_mops.W           for each width W the configuration allows: the
**                         vector units that do integer element operations
**                         (add, multiply, logical: every unit some integer
**                         instruction of vec_ops.def runs on) times
**                         lanes * 64/W operations per cycle, at clock_mhz
**   convoys               textbook only: convoys formed
**   loop_overhead_cycles  textbook only: tloop cycles of conditional branches
**   branches              executed branches and jumps
**   bank_stall_cycles     cycles vector elements waited for busy banks
**   util.add ... util.lsuN  cycles each unit accepted elements / cycles
*/
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>

void vec_trace_add(vec_trace *t, const vec_trow *r)
{
    if (t->rows.n >= t->limit) {
        t->dropped++;
        return;
    }
    tp_vec_push(&t->rows, *r);
}

static void reg_stats(vec_run *r)
{
    tp_stats *s = &r->stats;
    tp_stats_str(s, "timing", &r->timing_name, "timing model: textbook or pipelined");
    tp_stats_u64(s, "cycles", &r->st.cycles, "cycles of the run under the timing model");
    tp_stats_u64(s, "instructions", &r->insns, "executed instructions");
    tp_stats_u64(s, "scalar_instructions", &r->scalar_insns, "executed scalar instructions");
    tp_stats_u64(s, "vector_instructions", &r->vector_insns, "executed vector instructions");
    tp_stats_u64(s, "vector_elements", &r->elements, "elements of vector instructions (the sum of VLR)");
    tp_stats_u64(s, "flops", &r->flops, "floating-point operations (active elements and scalar FP)");
    tp_stats_f64(s, "mflops", &r->mflops, "flops * clock_mhz / cycles");
    for (unsigned k = 0; k < 4; k++) {
        char name[32], doc[96];
        snprintf(name, sizeof name, "ops.%u", 8u << k);
        snprintf(doc, sizeof doc, "element operations on %u-bit elements (vector and packed)", 8u << k);
        tp_stats_u64(s, name, &r->ops[k], doc);
    }
    for (unsigned k = 0; k < 4; k++) {
        char name[32], doc[96];
        snprintf(name, sizeof name, "mops.%u", 8u << k);
        snprintf(doc, sizeof doc, "ops.%u * clock_mhz / cycles", 8u << k);
        tp_stats_f64(s, name, &r->mops[k], doc);
    }
    for (unsigned k = 0; k < 4; k++) {
        char name[32], doc[96];
        if (r->peak_mops[k] <= 0) continue; /* a width the machine lacks */
        snprintf(name, sizeof name, "peak_mops.%u", 8u << k);
        snprintf(doc, sizeof doc, "peak element operations per microsecond at %u bits", 8u << k);
        tp_stats_f64(s, name, &r->peak_mops[k], doc);
    }
    if (r->timing == VEC_TIMING_TEXTBOOK) {
        tp_stats_u64(s, "convoys", &r->st.convoys, "convoys formed");
        tp_stats_u64(s, "loop_overhead_cycles", &r->st.loop_cycles, "tloop cycles added by conditional branches");
    }
    tp_stats_u64(s, "branches", &r->branches, "executed branches and jumps");
    tp_stats_u64(s, "bank_stall_cycles", &r->st.bank_stalls, "cycles vector elements waited for busy memory banks");
    for (uint32_t u = 0; u < r->st.nunits; u++) {
        char buf[16], name[32];
        snprintf(name, sizeof name, "util.%s", vec_unit_name((int)u, buf));
        tp_stats_f64(s, name, &r->util[u], "fraction of the cycles in which the unit accepted elements");
    }
}

bool vec_run_program(vec_run *r, const vec_prog *p, const tp_opts *o, int timing, uint32_t trace_limit, tp_err *e)
{
    memset(r, 0, sizeof *r);
    tp_stats_init(&r->stats);
    r->timing = timing >= 0 ? timing : (int)tp_opt_i(o, VEC_OPT_TIMING);
    r->timing_name = tp_strdup(r->timing == VEC_TIMING_TEXTBOOK ? "textbook" : "pipelined");
    r->trace.limit = trace_limit;
    if (!vec_mach_init(&r->m, p, o, e)) return false;
    vec_trace *tr = trace_limit ? &r->trace : NULL;
    vec_timing *t = r->timing == VEC_TIMING_TEXTBOOK ? vec_textbook_new(o, tr) : vec_pipelined_new(o, tr);
    vec_dyn d;
    vec_step st;
    while ((st = vec_mach_step(&r->m, &d, e)) == VEC_STEP_OK) {
        const vec_opinfo *oi = &vec_ops[d.in->op];
        r->insns++;
        if (vec_cls_vector(oi->cls)) {
            r->vector_insns++;
            r->elements += d.vl;
            if (oi->flags & VEC_FL_FLOP) r->flops += d.nact;
            if (oi->cls != VEC_C_VLSU) r->ops[vec_wi(d.vpw)] += d.nact;
        } else {
            r->scalar_insns++;
            if (oi->flags & VEC_FL_FLOP) r->flops++;
            if (oi->cls == VEC_C_BRANCH || oi->cls == VEC_C_JUMP) r->branches++;
            if (oi->cls == VEC_C_MEDIA || oi->cls == VEC_C_MMUL) {
                unsigned w = vec_packed_width(oi->sem, oi->w);
                r->ops[vec_wi(w)] += 64 / w;
            }
        }
        t->step(t, &d);
    }
    t->finish(t);
    r->st = t->st;
    t->destroy(t);
    double clock = tp_opt_f(o, VEC_OPT_CLOCK_MHZ);
    if (r->st.cycles) {
        r->mflops = (double)r->flops * clock / (double)r->st.cycles;
        for (uint32_t u = 0; u < r->st.nunits; u++) r->util[u] = (double)r->st.busy[u] / (double)r->st.cycles;
        for (unsigned k = 0; k < 4; k++) r->mops[k] = (double)r->ops[k] * clock / (double)r->st.cycles;
    }
    uint32_t lanes = (uint32_t)tp_opt_i(o, VEC_OPT_LANES), iunits = vec_int_units();
    for (unsigned k = 0; k < 4; k++)
        if (vec_vpw_allowed(o, 8u << k)) r->peak_mops[k] = (double)iunits * lanes * (8u >> k) * clock;
    reg_stats(r);
    return st != VEC_STEP_ERR;
}

void vec_run_free(vec_run *r)
{
    vec_mach_free(&r->m);
    tp_vec_free(&r->trace.rows);
    tp_stats_free(&r->stats);
    free(r->timing_name);
    r->timing_name = NULL;
}
