/* test_vec_timing.c -- the timing models.  The textbook numbers are the
** lecture's (H&P 3rd ed., Appendix G), pinned exactly; the pipelined ones
** are derived by hand in the comments from the rules of
** vector/pipelined.c. */
#include "tests/unit/vec_helpers.h"
#include "mem/banks.h"

enum { TB = VEC_TIMING_TEXTBOOK, PL = VEC_TIMING_PIPELINED };

/* Runs an example with a trace; the caller frees. */
static bool run_ex(vec_run *r, vec_prog *p, const char *name, const char *kvs, int timing, const vec_equ_set *set,
                   uint32_t nset)
{
    tp_opts o;
    vt_opts(&o, kvs);
    tp_err e;
    tp_err_clear(&e);
    bool ok = vt_example(p, name, &o, set, nset);
    if (ok) {
        ok = vec_run_program(r, p, &o, timing, 10000, &e);
        if (!ok) printf("%s\n", e.msg);
    } else {
        memset(r, 0, sizeof *r);
    }
    tp_opts_free(&o);
    return ok;
}

static uint64_t ex_cycles(const char *name, const char *kvs, int timing, const char *equ, int64_t v)
{
    vec_run r;
    vec_prog p;
    vec_equ_set set[] = {{equ, v}};
    uint64_t c = UINT64_MAX;
    if (run_ex(&r, &p, name, kvs, timing, set, equ ? 1 : 0)) c = r.st.cycles;
    vec_run_free(&r);
    vec_prog_free(&p);
    return c;
}

/* Row k of a trace: start, first and last result. */
#define ROW(r, k, s, f, l)                                                     \
    do {                                                                       \
        TT_EQ_U((r).trace.rows.a[k].start, s);                                 \
        TT_EQ_U((r).trace.rows.a[k].first, f);                                 \
        TT_EQ_U((r).trace.rows.a[k].last, l);                                  \
    } while (0)

/* DAXPY: 4 convoys, 42 + 4n cycles, the lecture's table row by row:
**   LV            0        12         11+n
**   MULV, LV      12+n     12+n+12    23+2n   (MULV: first 12+n+7)
**   ADDV          24+2n    24+2n+6    29+3n
**   SV            30+3n    30+3n+12   41+4n                                 */
static void t_tb_daxpy(void)
{
    for (uint64_t n = 1; n <= 64; n++) {
        vec_run r;
        vec_prog p;
        vec_equ_set set[] = {{"N", (int64_t)n}};
        TT_CHECK(run_ex(&r, &p, "daxpy.s", NULL, TB, set, 1));
        TT_EQ_U(r.st.cycles, 42 + 4 * n);
        TT_EQ_U(r.st.convoys, 4);
        TT_EQ_U(r.trace.rows.n, 5);
        ROW(r, 0, 0, 12, 11 + n);
        ROW(r, 1, 12 + n, 12 + n + 7, 18 + 2 * n);
        ROW(r, 2, 12 + n, 12 + n + 12, 23 + 2 * n);
        ROW(r, 3, 24 + 2 * n, 24 + 2 * n + 6, 29 + 3 * n);
        ROW(r, 4, 30 + 3 * n, 30 + 3 * n + 12, 41 + 4 * n);
        TT_EQ_U(r.trace.rows.a[2].convoy, 2);
        TT_EQ_U(r.trace.rows.a[4].convoy, 4);
        vec_run_free(&r);
        vec_prog_free(&p);
    }
    /* n = 64: 298 cycles; 128 FLOPs in 298 cycles at 500 MHz */
    vec_run r;
    vec_prog p;
    TT_CHECK(run_ex(&r, &p, "daxpy.s", NULL, TB, NULL, 0));
    TT_EQ_U(r.st.cycles, 298);
    TT_EQ_U(r.flops, 128);
    TT_CHECK(fabs(r.mflops - 128.0 * 500 / 298) < 1e-9);
    /* the load/store unit streams 3 x 64 elements of the 298 cycles */
    TT_CHECK(fabs(r.util[VEC_UNIT_LSU0] - 192.0 / 298) < 1e-12);
    TT_EQ_STR(tp_stats_find(&r.stats, "timing") ? "ok" : "", "ok");
    vec_run_free(&r);
    vec_prog_free(&p);
}

/* Dependent MULV/ADDV on 64 elements: 7 + 64 + 6 + 64 = 141 unchained,
** 7 + 6 + 64 = 77 chained (the add's first result at 13). */
static void t_tb_chain(void)
{
    TT_EQ_U(ex_cycles("chain.s", NULL, TB, NULL, 0), 141);
    TT_EQ_U(ex_cycles("chain.s", "chaining=1", TB, NULL, 0), 77);
    vec_run r;
    vec_prog p;
    TT_CHECK(run_ex(&r, &p, "chain.s", "chaining=1", TB, NULL, 0));
    ROW(r, 0, 0, 7, 70);
    ROW(r, 1, 0, 13, 76);
    TT_EQ_U(r.st.convoys, 1);
    vec_run_free(&r);
    vec_prog_free(&p);
    /* 4 lanes: each stream takes 16 cycles: 7 + 16 + 6 + 16 = 45 */
    TT_EQ_U(ex_cycles("chain.s", "lanes=4", TB, NULL, 0), 45);
    TT_EQ_U(ex_cycles("chain.s", "lanes=4 chaining=1", TB, NULL, 0), 7 + 6 + 16);
    /* 3 lanes: ceil(64/3) = 22 cycles per stream */
    TT_EQ_U(ex_cycles("chain.s", "lanes=3", TB, NULL, 0), 7 + 22 + 6 + 22);
    /* a write-after-write pair cannot share a convoy: 71 + 70 = 141 */
    TT_EQ_U(vt_cycles("MULV.D V1,V2,V3\nADDV.D V1,V4,V5\n", "chaining=1", TB), 141);
}

/* 8 banks, bank busy 6, latency 12: a 64-element load takes 12 + 64 = 76
** cycles at stride 1 and 12 + 1 + 6 x 63 = 391 at stride 32. */
static void t_tb_banks(void)
{
    const char *banks = "mem_banks=8 bank_busy=6 mem_latency=12 mem_size=64k";
    TT_EQ_U(vt_cycles(" DADDUI R2,R0,#8\n LVWS V1,(R0,R2)\n", banks, TB), 76);
    TT_EQ_U(vt_cycles(" DADDUI R2,R0,#256\n LVWS V1,(R0,R2)\n", banks, TB), 391);
    TT_EQ_U(vt_cycles(" LV V1,R0\n", banks, TB), 76);
    /* stride 2 words: banks 0,2,4,6,0,...: each bank every 4 cycles, busy 6:
    ** element i issues at 6*floor(i/4) + (i mod 4), the last at 6*15 + 3 */
    TT_EQ_U(vt_cycles(" DADDUI R2,R0,#16\n LVWS V1,(R0,R2)\n", banks, TB), 6 * 15 + 3 + 12 + 1);
    /* the lecture's example: 64 elements from byte address 136 with a
    ** 6-cycle access on 8 banks: one element per cycle, the last at 6 + 63 */
    TT_EQ_U(vt_cycles(" DADDUI R1,R0,#136\n LV V1,R1\n", "mem_banks=8 bank_busy=6 mem_latency=6 mem_size=64k", TB), 70);
    /* the example program: the column load row shows 12..75 / 12..390 */
    vec_run r;
    vec_prog p;
    vec_equ_set set[] = {{"STRIDE", 1}};
    TT_CHECK(run_ex(&r, &p, "stride.s", banks, TB, set, 1));
    ROW(r, 0, 0, 12, 75);
    vec_run_free(&r);
    vec_prog_free(&p);
    TT_CHECK(run_ex(&r, &p, "stride.s", banks, TB, NULL, 0));
    ROW(r, 0, 0, 12, 390);
    TT_EQ_U(r.st.bank_stalls, 63 * 5);
    vec_run_free(&r);
    vec_prog_free(&p);
    /* two loads of one convoy over the same banks: the first (earlier in
    ** program order) reserves first; the second can start in bank 0 only
    ** after the first's last use of it, at 56 + 6 = 62: 62 + 63 + 12 + 1 */
    TT_EQ_U(vt_cycles(" DADDUI R1,R0,#512\n LV V1,R0\n LV V2,R1\n", "lsu_count=2 mem_banks=8 bank_busy=6 mem_latency=12", TB),
            62 + 63 + 12 + 1);
}

/* A = B x s, n = 200, MVL 64, no chaining: the first strip has 8 elements,
** the others 64; Tn = ceil(n/64) x (15 + 31) + 3n: T200 = 784. */
static void t_tb_strip(void)
{
    vec_run r;
    vec_prog p;
    TT_CHECK(run_ex(&r, &p, "scale_strip.s", NULL, TB, NULL, 0));
    TT_EQ_U(r.st.cycles, 784);
    TT_EQ_U(r.st.convoys, 12);
    TT_EQ_U(r.st.loop_cycles, 60);
    TT_EQ_U(r.trace.rows.a[0].vl, 8);
    TT_EQ_U(r.trace.rows.a[4].vl, 64);
    /* the first strip: Tstart 31 + 3 x 8 elements, then Tloop */
    ROW(r, 0, 0, 12, 19);
    ROW(r, 2, 35, 47, 54);
    ROW(r, 3, 55, 0, 69); /* the loop row: T 55 .. 69 */
    vec_run_free(&r);
    vec_prog_free(&p);
    for (int64_t n = 1; n <= 300; n += 13)
        TT_EQ_U(ex_cycles("scale_strip.s", NULL, TB, "N", n), (uint64_t)((n + 63) / 64 * 46 + 3 * n));
}

/* Chained DAXPY strip-mined, one load/store unit: 3 convoys per strip,
** Tstart = 12+7 + 12+6 + 12 = 49, Tchime = 3:
** Tn = ceil(n/64) x (15 + 49) + 3n. */
static void t_tb_daxpy_chained(void)
{
    for (int64_t n = 1; n <= 200; n++) {
        uint64_t want = (uint64_t)((n + 63) / 64 * 64 + 3 * n);
        uint64_t got = ex_cycles("daxpy_strip.s", "chaining=1", TB, "N", n);
        if (got != want) tt_fail_msg(__FILE__, __LINE__, "N=%lld: %llu cycles, want %llu", (long long)n,
                                     (unsigned long long)got, (unsigned long long)want);
        tt_nchecks++;
    }
    /* Tstart and Tchime from two one-strip runs */
    uint64_t t1 = ex_cycles("daxpy_strip.s", "chaining=1", TB, "N", 1);
    uint64_t t2 = ex_cycles("daxpy_strip.s", "chaining=1", TB, "N", 2);
    TT_EQ_U(t2 - t1, 3);           /* Tchime */
    TT_EQ_U(t1 - 15 - 3, 49);      /* Tstart */
    vec_run r;
    vec_prog p;
    vec_equ_set set[] = {{"N", 64}};
    TT_CHECK(run_ex(&r, &p, "daxpy_strip.s", "chaining=1", TB, set, 1));
    TT_EQ_U(r.st.convoys, 3);
    vec_run_free(&r);
    vec_prog_free(&p);
    /* three load/store units: one convoy per strip; its chain is
    ** LV 12 -> MULVS 7 -> ADDV 6 -> SV 12 = 37, so Tn = 15 + 37 + n */
    TT_EQ_U(ex_cycles("daxpy_strip.s", "chaining=1 lsu_count=3", TB, "N", 64), 15 + 37 + 64);
}

/* R_inf = 250 MFLOPS at 500 MHz and N_1/2 = 13 for chained DAXPY. */
static void t_tb_sweep(void)
{
    size_t len;
    char *text = vec_read_file("examples/vector/daxpy_strip.s", &len);
    TT_CHECK(text != NULL);
    if (!text) return;
    tp_opts o;
    vt_opts(&o, "timing=textbook chaining=1");
    vec_sweep_cfg c = {text, "daxpy_strip.s", len, NULL, NULL, 0, &o, NULL, 0, "N", 1, 200, 1, 2.0};
    vec_sweep_res r;
    tp_err e;
    tp_err_clear(&e);
    TT_CHECK(vec_sweep(&c, &r, &e));
    TT_EQ_U(r.pts.n, 200);
    TT_CHECK(r.rinf == 250.0);
    TT_EQ_I(r.rinf_n1, 136); TT_EQ_I(r.rinf_n2, 200);
    TT_EQ_I(r.nhalf, 13);
    TT_EQ_I(r.nv, -1);
    TT_EQ_U(r.pts.a[12].t, 64 + 3 * 13);
    TT_CHECK(fabs(r.pts.a[12].mflops - 2.0 * 13 * 500 / 103) < 1e-9);
    vec_sweep_free(&r);
    /* N_v against the scalar loop (19 cycles per element, pipelined) */
    size_t slen;
    char *stext = vec_read_file("examples/vector/daxpy_scalar.s", &slen);
    vec_sweep_cfg c2 = {text, "daxpy_strip.s", len, stext, "daxpy_scalar.s", slen, &o, NULL, 0, "N", 1, 10, 1, 2.0};
    TT_CHECK(vec_sweep(&c2, &r, &e));
    /* scalar: 3 + 19n; vector: 64 + 3n; 64 + 3n < 3 + 19n from n = 4 */
    TT_EQ_U(r.pts.a[0].ts, 22); TT_EQ_U(r.pts.a[9].ts, 193);
    TT_EQ_I(r.nv, 4);
    vec_sweep_free(&r);
    /* a bad range */
    vec_sweep_cfg c3 = c;
    c3.from = 5, c3.to = 4;
    TT_CHECK(!vec_sweep(&c3, &r, &e));
    vec_sweep_free(&r);
    free(stext);
    free(text);
    tp_opts_free(&o);
}

/* The metrics from made-up points. */
static void t_sweep_metrics(void)
{
    vec_sweep_res r;
    memset(&r, 0, sizeof r);
    /* T(n) = 100 + 2n, 1 FLOP per element at 100 MHz: R_inf = 50; R_n =
    ** 100n / (100 + 2n) >= 25 from n = 50 */
    for (int64_t n = 10; n <= 200; n += 10) {
        vec_sweep_pt pt = {n, (uint64_t)(100 + 2 * n), (uint64_t)(60 * n), 0};
        tp_vec_push(&r.pts, pt);
    }
    vec_sweep_metrics(&r, 64, 100.0, 1.0);
    TT_CHECK(r.rinf == 50.0);
    TT_EQ_I(r.rinf_n1, 130); TT_EQ_I(r.rinf_n2, 200);
    TT_EQ_I(r.nhalf, 50);
    TT_EQ_I(r.nv, 10); /* 120 < 600 */
    /* one point: no rate */
    r.pts.n = 1;
    vec_sweep_metrics(&r, 64, 100.0, 1.0);
    TT_CHECK(r.rinf == 0);
    TT_EQ_I(r.nhalf, -1);
    vec_sweep_free(&r);
}

/* ---- the pipelined model ---- */

static void t_pl_basic(void)
{
    /* one load, issue 0: elements 0..63, results 12..75 */
    TT_EQ_U(vt_cycles("LV V1,R0\n", NULL, PL), 76);
    TT_EQ_U(vt_cycles("LV V1,R0\n", "lanes=4", PL), 12 + 16);
    TT_EQ_U(vt_cycles("LV V1,R0\n", "lanes=64", PL), 13);
    /* the chain: the add issues at 1 and enters element i at the multiply's
    ** result 7 + i: 13 + 63 + 1 = 77; unchained it issues at 71: 141 */
    TT_EQ_U(ex_cycles("chain.s", "chaining=1", PL, NULL, 0), 77);
    TT_EQ_U(ex_cycles("chain.s", NULL, PL, NULL, 0), 141);
    /* WAW: the add's results must follow the multiply's (7 + i), so its
    ** element i enters at 2 + i: last result 71, 72 cycles */
    TT_EQ_U(vt_cycles("MULV.D V1,V2,V3\nADDV.D V1,V4,V5\n", NULL, PL), 72);
    /* independent units overlap: 7 + 63 + 1 = 71 and 1 + 6 + 63 + 1 */
    TT_EQ_U(vt_cycles("MULV.D V1,V2,V3\nADDV.D V4,V5,V6\n", NULL, PL), 71);
    /* the same unit twice: the second issues when the first's last element
    ** has entered, at 64: 64 + 6 + 63 + 1 */
    TT_EQ_U(vt_cycles("ADDV.D V1,V2,V3\nADDV.D V4,V5,V6\n", NULL, PL), 134);
    /* two load/store units take two loads at once */
    TT_EQ_U(vt_cycles("LV V1,R0\nLV V2,R0\n", "lsu_count=2", PL), 77);
    TT_EQ_U(vt_cycles("LV V1,R0\nLV V2,R0\n", NULL, PL), 140);
}

static void t_pl_war(void)
{
    /* LV V1 (results 12+i); ADDV V4,V1,V2 chained reads V1(i) at 12+i;
    ** MULV V1,... issued at 2 must not write V1(i) before it is read:
    ** result >= 13+i, so its elements enter at 6+i: first result 13 */
    tp_opts o;
    vt_opts(&o, "chaining=1");
    vec_prog p;
    tp_err e;
    TT_CHECK(vt_asm(&p, "LV V1,R0\nADDV.D V4,V1,V2\nMULV.D V1,V5,V6\n", 8, NULL, 0, &e));
    vec_run r;
    TT_CHECK(vec_run_program(&r, &p, &o, PL, 100, &e));
    ROW(r, 1, 1, 18, 81);
    ROW(r, 2, 2, 13, 76);
    TT_EQ_U(r.st.cycles, 82);
    vec_run_free(&r);
    vec_prog_free(&p);
    tp_opts_free(&o);
}

/* DAXPY on the pipelined machine (examples/vector/daxpy.s, n = 64):
** DADDUI x3 and MTC1 issue at 0..3 (VLR readable at 4), L.D at 4 (F0 at 6).
** Unchained: LV 5 (results 17..80); MULVS 81 (88..151); LV 82 (94..157);
** ADDV 158 (164..227); SV 228 (240..303): 304 cycles.
** Chained: LV 5 (17..80); MULVS 6, elements at 17+i (24..87); LV waits for
** the load/store unit until 69 (81..144); ADDV 70, elements at 81+i
** (87..150); SV waits for the unit until 133 (145..208): 209 cycles. */
static void t_pl_daxpy(void)
{
    TT_EQ_U(ex_cycles("daxpy.s", NULL, PL, NULL, 0), 304);
    TT_EQ_U(ex_cycles("daxpy.s", "chaining=1", PL, NULL, 0), 209);
    /* two more load/store units: LV 5, LV 7 and SV 9 on their own units:
    ** ADDV's elements at 24 + i (the products), SV's at 30 + i: 30+63+12+1 */
    TT_EQ_U(ex_cycles("daxpy.s", "chaining=1 lsu_count=3", PL, NULL, 0), 106);
}

static void t_pl_scalar(void)
{
    /* the scalar DAXPY loop: 19 cycles per element, 3 + 19n in all
    ** (L.D; MUL.D after the load's latency 1; its latency 6 delays ADD.D,
    ** whose latency 3 delays S.D; BNEZ after DSUBU; 1 bubble when taken) */
    for (int64_t n = 1; n <= 5; n++) TT_EQ_U(ex_cycles("daxpy_scalar.s", NULL, PL, "N", n), (uint64_t)(3 + 19 * n));
    /* the loop starts at 4; the last iteration's BNEZ at +17 is not taken:
    ** 4 + 19(n-1) + 18; without the bubble 4 + 18(n-1) + 18 */
    TT_EQ_U(ex_cycles("daxpy_scalar.s", "branch_penalty=0", PL, "N", 3), (uint64_t)(4 + 18 * 3));
    /* a scalar load waits for an overlapping vector store to complete */
    TT_EQ_U(vt_cycles("SV R0,V1\nL.D F0,8(R0)\n", NULL, PL), 76 + 2);
    TT_EQ_U(vt_cycles("SV R0,V1\nL.D F0,512(R0)\n", NULL, PL), 76);
    /* memory order word by word: a load after a store of the same words
    ** reads each word a cycle after it is written: the LV issued at 1
    ** keeps its pace (elements 1+i, 77 cycles); read backwards from the top
    ** its first element needs the store's last access (2 + 63), so the
    ** LVWS issued at 3 has its elements at 66 + i: 66 + 63 + 12 + 1 */
    TT_EQ_U(vt_cycles("SV R0,V1\nLV V2,R0\n", "lsu_count=2", PL), 77);
    const char *rev = " DADDUI R1,R0,#504\n DADDUI R2,R0,#-8\n SV R0,V1\n LVWS V2,(R1,R2)\n";
    TT_EQ_U(vt_cycles(rev, "lsu_count=2", PL), 142);
    /* the same from other words: LVWS at 3 + i, results to 3 + 63 + 12 */
    const char *other = " DADDUI R1,R0,#1016\n DADDUI R2,R0,#-8\n SV R0,V1\n LVWS V2,(R1,R2)\n";
    TT_EQ_U(vt_cycles(other, "lsu_count=2", PL), 79);
    /* a store after a load of the same words waits only word by word */
    TT_EQ_U(vt_cycles("LV V1,R0\nSV R0,V2\n", "lsu_count=2", PL), 77);
    /* the textbook model gives scalar code no time but tloop per branch */
    TT_EQ_U(ex_cycles("daxpy_scalar.s", NULL, TB, "N", 7), 7 * 15);
}

static void t_pl_banks(void)
{
    const char *banks = "mem_banks=8 bank_busy=6 mem_latency=12 mem_size=64k";
    /* LVWS issues at 1 (R2 is readable at 1): its element i at 1 + 6i */
    TT_EQ_U(vt_cycles(" DADDUI R2,R0,#256\n LVWS V1,(R0,R2)\n", banks, PL), 1 + 6 * 63 + 12 + 1);
    TT_EQ_U(vt_cycles(" DADDUI R2,R0,#8\n LVWS V1,(R0,R2)\n", banks, PL), 1 + 63 + 12 + 1);
    /* 4 lanes on 8 banks of busy 6 at stride 1: 4 banks per cycle, the
    ** next 4 in the next cycle, then 4 cycles waiting: 8 elements every 6 */
    TT_EQ_U(vt_cycles(" LV V1,R0\n", "lanes=4 mem_banks=8 bank_busy=6 mem_latency=12", PL), 6 * 7 + 1 + 12 + 1);
}

static void t_banks_unit(void)
{
    mem_banks b;
    mem_banks_init(&b, 4, 3, 8);
    TT_EQ_U(mem_banks_index(&b, 0), 0);
    TT_EQ_U(mem_banks_index(&b, 8 * 5), 1);
    TT_EQ_U(mem_banks_access(&b, 0, 10), 10);   /* bank 0 busy 10..12 */
    TT_EQ_U(mem_banks_earliest(&b, 32, 9), 13); /* would overlap */
    TT_EQ_U(mem_banks_earliest(&b, 32, 7), 7);  /* fits before: 7..9 */
    TT_EQ_U(mem_banks_earliest(&b, 32, 8), 13);
    TT_EQ_U(mem_banks_access(&b, 32, 7), 7);
    TT_EQ_U(mem_banks_access(&b, 0, 8), 13);    /* after both */
    TT_EQ_U(mem_banks_earliest(&b, 8, 8), 8);   /* another bank */
    mem_banks_retire(&b, 13);
    TT_EQ_U(mem_banks_earliest(&b, 0, 13), 16);
    TT_EQ_U(b.conflicts, 1);
    mem_banks_free(&b);
}

static void t_deterministic(void)
{
    uint64_t a = ex_cycles("matmul.s", "chaining=1 lanes=2 mem_banks=8", PL, NULL, 0);
    uint64_t b = ex_cycles("matmul.s", "chaining=1 lanes=2 mem_banks=8", PL, NULL, 0);
    TT_EQ_U(a, b);
    TT_CHECK(a != UINT64_MAX);
    /* lanes, chaining and more units never make these examples slower */
    static const char *names[] = {"daxpy.s", "daxpy_strip.s", "scale_strip.s", "gather.s", "cond.s", "matmul.s"};
    for (size_t i = 0; i < TP_ARRAY_LEN(names); i++) {
        uint64_t base = ex_cycles(names[i], NULL, PL, NULL, 0);
        TT_CHECK(ex_cycles(names[i], "chaining=1", PL, NULL, 0) <= base);
        TT_CHECK(ex_cycles(names[i], "lanes=4", PL, NULL, 0) < base);
        TT_CHECK(ex_cycles(names[i], "lsu_count=2", PL, NULL, 0) <= base);
    }
}


/* ---- element widths: a 64-bit lane does 64/VPW element operations per
** cycle, memory is accessed in 8-byte words ---- */

/* The textbook chime at VPW bits is VL * VPW / (64 * lanes) cycles: 64
** elements take 64 cycles at 64 bits, 32 at 32, 16 at 16 (a quarter) and 8
** at 8, after the add's start-up of 6.  Scalar instructions take no time. */
static void t_width_chime(void)
{
    TT_EQ_U(vt_cycles("ADDV.I V1,V2,V3\n", NULL, TB), 6 + 64);
    TT_EQ_U(vt_cycles("MTC1 VPW,#32\nADDV.I V1,V2,V3\n", NULL, TB), 6 + 32);
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nADDV.I V1,V2,V3\n", NULL, TB), 6 + 16);
    TT_EQ_U(vt_cycles("MTC1 VPW,#8\nADDV.I V1,V2,V3\n", NULL, TB), 6 + 8);
    /* 256 16-bit elements are the bits of 64 64-bit ones: the same chime */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nDADDUI R1,R0,#256\nMTC1 VLR,R1\nADDV.I V1,V2,V3\n", NULL, TB), 6 + 64);
    /* 4 lanes: 64 16-bit elements in 64 / 16 = 4 cycles; VIRAM-1's 128 in 8 */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nADDV.I V1,V2,V3\n", "lanes=4", TB), 6 + 4);
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nDADDUI R1,R0,#128\nMTC1 VLR,R1\nADDV.I V1,V2,V3\n", "mvl=32 lanes=4", TB), 6 + 8);
    /* the same trace row: first result at 6, last at 6 + 15 */
    vec_prog p;
    tp_err e;
    tp_opts o;
    vt_opts(&o, NULL);
    TT_CHECK(vt_asm(&p, "MTC1 VPW,#16\nMULV.I V1,V2,V3\nADDV.I V4,V1,V5\n", 8, NULL, 0, &e));
    vec_run r;
    TT_CHECK(vec_run_program(&r, &p, &o, TB, 100, &e));
    ROW(r, 0, 0, 7, 7 + 15);
    /* unchained: the dependent add in the next convoy, 7 + 16 + 6 + 16 */
    ROW(r, 1, 23, 29, 29 + 15);
    TT_EQ_U(r.st.cycles, 45);
    vec_run_free(&r);
    vec_prog_free(&p);
    tp_opts_free(&o);
    /* chained: 7 + 6 + 16 (the lecture's chain, at a quarter of the chime) */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nMULV.I V1,V2,V3\nADDV.I V4,V1,V5\n", "chaining=1", TB), 7 + 6 + 16);
    /* pipelined: MTC1 VPW issues at 0 and holds from 1; the add issues at 1
    ** and its 64 elements enter 4 a cycle at 1..16: last result 16 + 6 */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nADDV.I V1,V2,V3\n", NULL, PL), 16 + 6 + 1);
    TT_EQ_U(vt_cycles("ADDV.I V1,V2,V3\n", NULL, PL), 63 + 6 + 1);
    TT_EQ_U(vt_cycles("MTC1 VPW,#8\nADDV.I V1,V2,V3\n", "lanes=2", PL), 1 + 3 + 6 + 1); /* 64 / 16 a cycle */
}

/* Banks see 8-byte words, not elements (8 banks, busy 6, latency 12). */
static void t_width_banks(void)
{
    const char *banks = "mem_banks=8 bank_busy=6 mem_latency=12";
    /* 64 64-bit elements: 64 words, one a cycle: 12 + 64 */
    TT_EQ_U(vt_cycles("LV V1,R0\n", banks, TB), 12 + 64);
    /* 64 bytes are 8 words, banks 0..7, one access a cycle: the last word
    ** at 7, its result at 19 */
    TT_EQ_U(vt_cycles("MTC1 VPW,#8\nLV V1,R0\n", banks, TB), 7 + 12 + 1);
    /* 64 16-bit elements are 16 words: word 8 finds bank 0 free again (used
    ** at 0, busy to 5): the last word at 15 */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nLV V1,R0\n", banks, TB), 15 + 12 + 1);
    /* 16-bit elements 8 bytes apart are a word each: the 64-bit pace */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nDADDUI R2,R0,#8\nLVWS V1,(R0,R2)\n", banks, TB), 63 + 12 + 1);
    /* bytes 64 apart (8 words) all hit bank 0: one every 6 cycles */
    vec_prog p;
    tp_err e;
    tp_opts o;
    vt_opts(&o, banks);
    TT_CHECK(vt_asm(&p, "MTC1 VPW,#8\nDADDUI R2,R0,#64\nLVWS V1,(R0,R2)\n", 8, NULL, 0, &e));
    vec_run r;
    TT_CHECK(vec_run_program(&r, &p, &o, TB, 10, &e));
    TT_EQ_U(r.st.cycles, 6 * 63 + 12 + 1);
    TT_EQ_U(r.st.bank_stalls, 5 * 63);
    vec_run_free(&r);
    vec_prog_free(&p);
    tp_opts_free(&o);
    /* ideal memory, 16-bit elements from byte 2: word 0 holds elements 0..2,
    ** word k elements 4k-1..4k+2, one word a cycle: element 63 (bytes
    ** 128..129) in word 16 at cycle 16 */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nDADDUI R1,R0,#2\nLV V1,R1\n", NULL, TB), 16 + 12 + 1);
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nLV V1,R0\n", NULL, TB), 15 + 12 + 1);
    /* pipelined: the load issues at 1 (after MTC1 VPW): 1 + 15 + 12 + 1 */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nLV V1,R0\n", banks, PL), 1 + 15 + 12 + 1);
    /* a scatter of 8-bit elements 1 byte apart but in reverse word order
    ** still shares words: 64 bytes from 63 down to 0 */
    TT_EQ_U(vt_cycles("MTC1 VPW,#8\nDADDUI R1,R0,#63\nDADDUI R2,R0,#-1\nSVWS (R1,R2),V1\n", banks, TB), 7 + 12 + 1);
}

/* MTC1 VPW: the textbook model closes the convoy; the pipelined machine
** drains the vector unit first. */
static void t_width_drain(void)
{
    /* textbook: LV alone (0..75), then the add at 76 + 6 + 15 */
    TT_EQ_U(vt_cycles("LV V1,R0\nMTC1 VPW,#16\nADDV.I V2,V3,V4\n", NULL, TB), 76 + 6 + 16);
    TT_EQ_U(vt_cycles("LV V1,R0\nADDV.I V2,V3,V4\n", NULL, TB), 76);
    /* pipelined: LV's last result at 75, so MTC1 VPW issues at 76, the add at
    ** 77 with its elements at 77..92: last result 98 */
    TT_EQ_U(vt_cycles("LV V1,R0\nMTC1 VPW,#16\nADDV.I V2,V3,V4\n", NULL, PL), 98 + 1);
    TT_EQ_U(vt_cycles("LV V1,R0\nADDV.I V2,V3,V4\n", NULL, PL), 76);
    /* MFC1 MVL waits for nothing but VPW */
    TT_EQ_U(vt_cycles("MTC1 VPW,#16\nMFC1 R1,MVL\n", NULL, PL), 2);
}

/* The media unit: PMULLW's result is usable 3 cycles after its issue
** (latency 2), other packed results the next cycle (latency 0). */
static void t_media_latency(void)
{
    TT_EQ_U(vt_cycles("PMULLW F4,F0,F2\nPADDW F6,F4,F4\n", NULL, PL), 3 + 1);
    TT_EQ_U(vt_cycles("PMULLW F4,F0,F2\nPADDW F6,F4,F4\n", "scalar.lat_media_mul=0", PL), 2);
    TT_EQ_U(vt_cycles("PADDW F4,F0,F2\nPADDW F6,F4,F4\n", NULL, PL), 2);
    TT_EQ_U(vt_cycles("PADDW F4,F0,F2\nPADDW F6,F4,F4\n", "scalar.lat_media=1", PL), 4);
    TT_EQ_U(vt_cycles("PMADDWD F4,F0,F2\nPSRLQ F6,F4,#32\n", NULL, PL), 4);
    /* a packed load-to-use: L.D's latency 1 */
    TT_EQ_U(vt_cycles("L.D F0,0(R0)\nPADDB F1,F0,F0\n", NULL, PL), 3);
    /* the textbook model gives scalar (and packed) code no time */
    TT_EQ_U(vt_cycles("PMULLW F4,F0,F2\nPADDW F6,F4,F4\n", NULL, TB), 0);
}

/* R_inf and N_1/2 per width: an add of N elements at W bits takes
** 6 + ceil(N * W / 64) cycles (textbook), so at 16 bits (MVL 256, swept
** n = 4..256 by 4) R_inf.16 = (256 - 4) * 500 / (70 - 7) = 2000 MOPS, four
** times the 500 at 64 bits, and N_1/2.16 = 24: 2n * 63 >= 252 (6 + n/4)
** from n = 24.  At 64 bits: 63 * 500 / 63 = 500, N_1/2.64 = 6. */
static void t_width_sweep(void)
{
    const char *text = ".equ N, 4\n.equ W, 16\nMTC1 VPW,#W\nDADDUI R1,R0,#N\nMTC1 VLR,R1\nADDV.I V1,V2,V3\n";
    tp_opts o;
    vt_opts(&o, "timing=textbook");
    vec_sweep_cfg c = {text, "w.s", strlen(text), NULL, NULL, 0, &o, NULL, 0, "N", 4, 256, 4, 1.0};
    vec_sweep_res r;
    tp_err e;
    tp_err_clear(&e);
    TT_CHECK(vec_sweep(&c, &r, &e));
    TT_CHECK(r.rinf_w[1] == 2000.0);
    TT_EQ_I(r.rinf_w_n1[1], 4); TT_EQ_I(r.rinf_w_n2[1], 256);
    TT_EQ_I(r.nhalf_w[1], 24);
    TT_CHECK(r.rinf_w[3] == 0); TT_EQ_I(r.nhalf_w[3], -1);
    TT_EQ_U(r.pts.a[5].ops[1], 24);
    vec_sweep_free(&r);
    vec_equ_set w64[] = {{"W", 64}};
    vec_sweep_cfg c2 = {text, "w.s", strlen(text), NULL, NULL, 0, &o, w64, 1, "N", 1, 64, 1, 1.0};
    TT_CHECK(vec_sweep(&c2, &r, &e));
    TT_CHECK(r.rinf_w[3] == 500.0);
    TT_EQ_I(r.nhalf_w[3], 6);
    TT_CHECK(r.rinf_w[1] == 0);
    vec_sweep_free(&r);
    tp_opts_free(&o);
}

/* peak_mops.W: 3 integer units (add, multiply, logical) x lanes x 64/W x clock. */
static void t_peak(void)
{
    TT_EQ_U(vec_int_units(), 3);
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    vec_opts_init(&o);
    TT_CHECK(tp_opts_load_config(&o, "viram1", &e));
    vec_prog p;
    TT_CHECK(vt_asm(&p, "NOP\n", 32, NULL, 0, &e));
    vec_run r;
    TT_CHECK(vec_run_program(&r, &p, &o, -1, 0, &e));
    TT_CHECK(r.peak_mops[0] == 0); /* no 8-bit mode */
    TT_CHECK(r.peak_mops[1] == 3.0 * 4 * 4 * 200);
    TT_CHECK(r.peak_mops[3] == 3.0 * 4 * 1 * 200);
    TT_CHECK(tp_stats_find(&r.stats, "peak_mops.8") == NULL);
    TT_CHECK(tp_stats_find(&r.stats, "peak_mops.16") != NULL);
    vec_run_free(&r);
    vec_prog_free(&p);
    tp_opts_free(&o);
}

int main(void)
{
    TT_RUN(t_tb_daxpy);
    TT_RUN(t_tb_chain);
    TT_RUN(t_tb_banks);
    TT_RUN(t_tb_strip);
    TT_RUN(t_tb_daxpy_chained);
    TT_RUN(t_tb_sweep);
    TT_RUN(t_sweep_metrics);
    TT_RUN(t_pl_basic);
    TT_RUN(t_pl_war);
    TT_RUN(t_pl_daxpy);
    TT_RUN(t_pl_scalar);
    TT_RUN(t_pl_banks);
    TT_RUN(t_banks_unit);
    TT_RUN(t_deterministic);
    TT_RUN(t_width_chime);
    TT_RUN(t_width_banks);
    TT_RUN(t_width_drain);
    TT_RUN(t_media_latency);
    TT_RUN(t_width_sweep);
    TT_RUN(t_peak);
    return tt_done();
}
