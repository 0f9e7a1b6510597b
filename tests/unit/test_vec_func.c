/* test_vec_func.c -- the functional model: every example of examples/vector
** against a C reference computed from the program's own initial data, and
** the semantics of VLR, VM, CVI, POP, gather/scatter and faults
** (vector/mach.c is the specification). */
#include "tests/unit/vec_helpers.h"

/* Runs an example (pipelined timing) with the options and overrides. */
static bool run_example(vec_run *r, vec_prog *p, const char *name, const char *kvs, const vec_equ_set *set,
                        uint32_t nset)
{
    tp_opts o;
    vt_opts(&o, kvs);
    tp_err e;
    tp_err_clear(&e);
    bool ok = vt_example(p, name, &o, set, nset);
    if (ok) {
        ok = vec_run_program(r, p, &o, -1, 0, &e);
        if (!ok) printf("%s\n", e.msg);
    } else {
        memset(r, 0, sizeof *r);
    }
    tp_opts_free(&o);
    return ok;
}

static void done(vec_run *r, vec_prog *p)
{
    vec_run_free(r);
    vec_prog_free(p);
}

static void daxpy_check(const char *name, int64_t n, uint32_t size)
{
    vec_run r;
    vec_prog p;
    vec_equ_set set[] = {{"N", n}};
    TT_CHECK(run_example(&r, &p, name, NULL, set, 1));
    double a = vt_init(&p, "a", 0);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < size; i++) {
        double want = (int64_t)i < n ? a * vt_init(&p, "x", i) + vt_init(&p, "y", i) : vt_init(&p, "y", i);
        if (vt_read(&r, &p, "y", i) != want) bad++;
        if (vt_read(&r, &p, "x", i) != vt_init(&p, "x", i)) bad++;
    }
    if (bad) tt_fail_msg(__FILE__, __LINE__, "%s N=%lld: %u wrong elements", name, (long long)n, bad);
    tt_nchecks++;
    done(&r, &p);
}

static void t_daxpy(void)
{
    daxpy_check("daxpy.s", 64, 64);
    daxpy_check("daxpy.s", 10, 64);
    daxpy_check("daxpy.s", 0, 64);
    for (int64_t n = 1; n <= 200; n += 199) daxpy_check("daxpy_strip.s", n, 1024);
    daxpy_check("daxpy_strip.s", 64, 1024);
    daxpy_check("daxpy_strip.s", 65, 1024);
    daxpy_check("daxpy_strip.s", 128, 1024);
    daxpy_check("daxpy_strip.s", 1000, 1024);
    daxpy_check("daxpy_scalar.s", 200, 1024);
    daxpy_check("daxpy_scalar.s", 7, 1024);
}

static void t_scale(void)
{
    int64_t ns[] = {200, 8, 64, 65};
    for (size_t k = 0; k < TP_ARRAY_LEN(ns); k++) {
        vec_run r;
        vec_prog p;
        vec_equ_set set[] = {{"N", ns[k]}};
        TT_CHECK(run_example(&r, &p, "scale_strip.s", NULL, set, 1));
        double s = vt_init(&p, "s", 0);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < 1024; i++) {
            double want = (int64_t)i < ns[k] ? vt_init(&p, "b", i) * s : 0.0;
            if (vt_read(&r, &p, "a", i) != want) bad++;
        }
        TT_EQ_U(bad, 0);
        done(&r, &p);
    }
    /* strips of 32 on a machine with MVL 32 */
    vec_run r;
    vec_prog p;
    TT_CHECK(run_example(&r, &p, "scale_strip.s", "mvl=32", NULL, 0));
    TT_CHECK(vt_read(&r, &p, "a", 199) == 199.5 * 3.0 && vt_read(&r, &p, "a", 200) == 0.0);
    done(&r, &p);
}

/* chain.s works on whatever the registers hold: give them values first. */
static void t_chain(void)
{
    tp_opts o;
    vt_opts(&o, NULL);
    vec_prog p;
    TT_CHECK(vt_example(&p, "chain.s", &o, NULL, 0));
    vec_mach m;
    tp_err e;
    tp_err_clear(&e);
    TT_CHECK(vec_mach_init(&m, &p, &o, &e));
    for (uint32_t i = 0; i < 64; i++) {
        double v2 = i * 0.5 + 1, v3 = 3.0 - i, v5 = i * 0.25;
        memcpy(&m.v[2 * 64 + i], &v2, 8);
        memcpy(&m.v[3 * 64 + i], &v3, 8);
        memcpy(&m.v[5 * 64 + i], &v5, 8);
    }
    vec_dyn d;
    int steps = 0;
    while (vec_mach_step(&m, &d, &e) == VEC_STEP_OK) steps++;
    TT_EQ_I(steps, 2);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 64; i++) {
        double v1, v4, p1 = (i * 0.5 + 1) * (3.0 - i);
        memcpy(&v1, &m.v[64 + i], 8);
        memcpy(&v4, &m.v[4 * 64 + i], 8);
        if (v1 != p1 || v4 != p1 + i * 0.25) bad++;
    }
    TT_EQ_U(bad, 0);
    vec_mach_free(&m);
    vec_prog_free(&p);
    tp_opts_free(&o);
}

static void stride_check(int64_t j, int64_t stride)
{
    vec_run r;
    vec_prog p;
    vec_equ_set set[] = {{"J", j}, {"STRIDE", stride}};
    TT_CHECK(run_example(&r, &p, "stride.s", NULL, set, 2));
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 64; i++)
        if (vt_read(&r, &p, "col", i) != vt_init(&p, "m", (uint32_t)(j + (int64_t)i * stride))) bad++;
    TT_EQ_U(bad, 0);
    /* M(i,j) = 32i + j: column J is J, 32 + J, 64 + J, ... */
    if (stride == 32) TT_CHECK(vt_read(&r, &p, "col", 5) == 160.0 + (double)j);
    done(&r, &p);
}

static void t_stride(void)
{
    stride_check(0, 32);
    stride_check(7, 32);
    stride_check(3, 1);
    stride_check(0, 31);
}

static void t_gather(void)
{
    vec_run r;
    vec_prog p;
    TT_CHECK(run_example(&r, &p, "gather.s", NULL, NULL, 0));
    double want[64];
    for (uint32_t i = 0; i < 64; i++) want[i] = vt_init(&p, "A", i);
    int64_t n = vt_equ(&p, "N");
    for (int64_t i = 0; i < n; i++) {
        int64_t k = vt_init_word(&p, "K", (uint32_t)i) / 8, mm = vt_init_word(&p, "M", (uint32_t)i) / 8;
        want[k] = want[k] + vt_init(&p, "C", (uint32_t)mm);
    }
    uint32_t bad = 0, changed = 0;
    for (uint32_t i = 0; i < 64; i++) {
        bad += vt_read(&r, &p, "A", i) != want[i];
        changed += want[i] != vt_init(&p, "A", i);
    }
    TT_EQ_U(bad, 0);
    TT_CHECK(changed >= 30); /* 32 scattered elements, at most C(0) = 0 added once */
    done(&r, &p);
}

static void cond_check(const char *name, const char *kvs)
{
    vec_run r;
    vec_prog p;
    TT_CHECK(run_example(&r, &p, name, kvs, NULL, 0));
    uint32_t bad = 0, zeros = 0;
    for (uint32_t i = 0; i < 64; i++) {
        double a = vt_init(&p, "A", i), b = vt_init(&p, "B", i);
        double want = a != 0 ? a - b : a;
        zeros += a == 0;
        if (vt_read(&r, &p, "A", i) != want) bad++;
        if (vt_read(&r, &p, "B", i) != b) bad++;
    }
    TT_EQ_U(bad, 0);
    TT_EQ_U(zeros, 22);
    /* the mask is all ones again at the end */
    for (uint32_t i = 0; i < r.m.mvl; i++) TT_CHECK(vec_vm_bit(r.m.vm, i));
    done(&r, &p);
}

static void t_cond(void)
{
    cond_check("cond.s", NULL);
    cond_check("cond_compress.s", NULL);
    cond_check("cond_compress.s", "timing=textbook lanes=4");
}

static void matmul_check(const char *kvs)
{
    vec_run r;
    vec_prog p;
    TT_CHECK(run_example(&r, &p, "matmul.s", kvs, NULL, 0));
    int64_t M = vt_equ(&p, "M"), K = vt_equ(&p, "K"), N = vt_equ(&p, "N");
    uint32_t bad = 0;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double sum = 0;
            for (int64_t t = 0; t < K; t++) {
                double prod = vt_init(&p, "b", (uint32_t)(t * N + j)) * vt_init(&p, "a", (uint32_t)(i * K + t));
                sum = sum + prod;
            }
            if (vt_read(&r, &p, "c", (uint32_t)(i * N + j)) != sum) bad++;
        }
    if (bad) tt_fail_msg(__FILE__, __LINE__, "matmul %s: %u wrong elements", kvs ? kvs : "", bad);
    tt_nchecks++;
    done(&r, &p);
}

static void t_matmul(void)
{
    matmul_check(NULL);
    matmul_check("mvl=32");
    matmul_check("mvl=16 timing=textbook");
    matmul_check("mvl=128");
}

/* ---- semantics, instruction by instruction ---- */

static vec_run R;
static vec_prog Pg;

static bool run_text(const char *text, const char *kvs)
{
    tp_opts o;
    vt_opts(&o, kvs);
    tp_err e;
    bool ok = vt_asm(&Pg, text, 8, NULL, 0, &e);
    if (ok) ok = vec_run_program(&R, &Pg, &o, -1, 0, &e);
    else memset(&R, 0, sizeof R);
    if (!ok) printf("%s\n", e.msg);
    tp_opts_free(&o);
    return ok;
}

static double vreg(uint32_t v, uint32_t i)
{
    double d;
    memcpy(&d, &R.m.v[(size_t)v * R.m.mvl + i], 8);
    return d;
}

static void t_mask_and_length(void)
{
    /* V1 = 0..7 as doubles, mask the odd elements, VL = 6: V2 = V1 + V1
    ** only where i < 6 and VM(i); V2 was 100 everywhere */
    TT_CHECK(run_text(".data\n"
                      "v: .double 0,1,2,3,4,5,6,7\n"
                      "h: .double 100,100,100,100,100,100,100,100\n"
                      "m: .word 0xAA\n"
                      ".text\n"
                      " DADDUI R1,R0,#v\n DADDUI R2,R0,#h\n DADDUI R3,R0,#8\n MTC1 VLR,R3\n"
                      " LV V1,R1\n LV V2,R2\n"
                      " L.D F0,m\n MVTM VM,F0\n"
                      " DADDUI R3,R0,#6\n MTC1 VLR,R3\n"
                      " ADDV.D V2,V1,V1\n"
                      " MVFM F1,VM\n POP R5,VM\n MFC1 R6,VLR\n",
                      "mvl=8"));
    double want[8] = {100, 2, 100, 6, 100, 10, 100, 100};
    for (uint32_t i = 0; i < 8; i++) TT_CHECK(vreg(2, i) == want[i]);
    TT_EQ_U(R.m.f[1], 0xAA);
    TT_EQ_I(R.m.r[5], 3); /* bits 1, 3, 5 among the first 6 */
    TT_EQ_I(R.m.r[6], 6);
    TT_EQ_U(R.flops, 3); /* only active elements count */
    TT_EQ_U(R.elements, 8 + 8 + 6);
    done(&R, &Pg);
}

static void t_compare_cvi_pop(void)
{
    /* a compare sets VM(i) for i < VL and clears the rest; CVI packs the
    ** active indices; POP counts them */
    TT_CHECK(run_text(".data\n"
                      "v: .double 5,0,7,0,0,9,1,0\n"
                      "z: .double 0\n"
                      ".text\n"
                      " DADDUI R1,R0,#v\n LV V1,R1\n L.D F0,z\n"
                      " DADDUI R3,R0,#7\n MTC1 VLR,R3\n"
                      " SNEVS.D V1,F0\n"
                      " MVFM F2,VM\n"
                      " CVI V2,#8\n"
                      " POP R4,VM\n"
                      " CVM\n MVFM F3,VM\n"
                      " SGTV.D V1,V2\n MVFM F4,VM\n",
                      "mvl=8"));
    TT_EQ_U(R.m.f[2], 0x65); /* elements 0, 2, 5, 6 */
    TT_EQ_I(R.m.r[4], 4);
    double idx[4] = {0, 16, 40, 48};
    for (uint32_t i = 0; i < 4; i++) TT_EQ_U(R.m.v[2 * 8 + i], (uint64_t)idx[i]);
    TT_EQ_U(R.m.v[2 * 8 + 4], 0); /* not written */
    TT_EQ_U(R.m.f[3], 0xFF);      /* CVM: all MVL bits */
    /* SGTV.D V1,V2 compares doubles: V2 holds small integers whose bits are
    ** denormals (or 0), so V1(i) > V2(i) exactly where V1(i) > 0 */
    TT_EQ_U(R.m.f[4], 0x65);
    done(&R, &Pg);
}

static void t_scalar_ops(void)
{
    TT_CHECK(run_text(" DADDUI R1,R0,#-1\n"
                      " DSRL R2,R1,#60\n"           /* 15 */
                      " DSLL R3,R2,#62\n"           /* 0xC000... */
                      " DADDUI R4,R0,#3\n"
                      " DMUL R5,R1,R4\n"            /* -3 */
                      " SLT R6,R1,R0\n"             /* -1 < 0 */
                      " SLT R7,R0,R1\n"
                      " AND R8,R2,#6\n OR R9,R2,#16\n XOR R10,R2,R4\n"
                      " DSUBU R11,R0,R4\n DSUBUI R12,R4,#5\n"
                      " DADDU R0,R4,R4\n"           /* dropped */
                      " DADDU R13,R0,R0\n"
                      " DSLL R14,R4,R4\n",          /* shift by a register */
                      NULL));
    TT_EQ_I(R.m.r[2], 15);
    TT_EQ_U((uint64_t)R.m.r[3], 0xC000000000000000ull);
    TT_EQ_I(R.m.r[5], -3);
    TT_EQ_I(R.m.r[6], 1); TT_EQ_I(R.m.r[7], 0);
    TT_EQ_I(R.m.r[8], 6);
    TT_EQ_I(R.m.r[9], 31);
    TT_EQ_I(R.m.r[10], 12);
    TT_EQ_I(R.m.r[11], -3);
    TT_EQ_I(R.m.r[12], -2);
    TT_EQ_I(R.m.r[0], 0);
    TT_EQ_I(R.m.r[13], 0);
    TT_EQ_I(R.m.r[14], 24);
    done(&R, &Pg);
    TT_CHECK(run_text(".data\nx: .double 1.5, 0\n.text\n"
                      " L.D F1,x\n L.D F2,x+8\n DIV.D F3,F1,F2\n SUB.D F4,F2,F1\n MUL.D F5,F1,F1\n ADD.D F6,F1,F1\n"
                      " S.D F3,x\n LD R1,x\n HALT\n DADDUI R2,R0,#1\n",
                      NULL));
    double f3, f4, f5, f6;
    memcpy(&f3, &R.m.f[3], 8), memcpy(&f4, &R.m.f[4], 8), memcpy(&f5, &R.m.f[5], 8), memcpy(&f6, &R.m.f[6], 8);
    TT_CHECK(isinf(f3) && f3 > 0);
    TT_CHECK(f4 == -1.5 && f5 == 2.25 && f6 == 3.0);
    TT_EQ_U((uint64_t)R.m.r[1], 0x7FF0000000000000ull); /* +inf's bits */
    TT_EQ_I(R.m.r[2], 0);                              /* after HALT */
    TT_EQ_U(R.insns, 9);
    TT_EQ_U(R.flops, 4);
    done(&R, &Pg);
}

static void t_memory_forms(void)
{
    /* strided with a negative stride, gather/scatter with a repeated index */
    TT_CHECK(run_text(".data\n"
                      "v: .double 0,1,2,3,4,5,6,7\n"
                      "ix: .word 8, 8, 0, 56\n"
                      "o: .space 64\n"
                      ".text\n"
                      " DADDUI R1,R0,#v+56\n DADDUI R2,R0,#-16\n DADDUI R3,R0,#4\n MTC1 VLR,R3\n"
                      " LVWS V1,(R1,R2)\n"          /* 7, 5, 3, 1 */
                      " DADDUI R4,R0,#ix\n LV V2,R4\n"
                      " DADDUI R5,R0,#o\n SVI (R5+V2),V1\n" /* o[1] = 7 then 5; o[0] = 3; o[7] = 1 */
                      " DADDUI R6,R0,#v\n LVI V3,(R6+V2)\n" /* 1, 1, 0, 7 */
                      " DADDUI R7,R0,#o+16\n DADDUI R8,R0,#8\n SVWS (R7,R8),V3\n",
                      "mvl=8"));
    TT_CHECK(vreg(1, 0) == 7 && vreg(1, 1) == 5 && vreg(1, 2) == 3 && vreg(1, 3) == 1);
    TT_CHECK(vt_read(&R, &Pg, "o", 0) == 3 && vt_read(&R, &Pg, "o", 1) == 5);
    TT_CHECK(vt_read(&R, &Pg, "o", 2) == 1 && vt_read(&R, &Pg, "o", 3) == 1);
    TT_CHECK(vt_read(&R, &Pg, "o", 4) == 0 && vt_read(&R, &Pg, "o", 5) == 7);
    TT_CHECK(vt_read(&R, &Pg, "o", 7) == 1 && vt_read(&R, &Pg, "o", 6) == 0);
    done(&R, &Pg);
}

static void t_faults(void)
{
    tp_opts o;
    static const struct { const char *src, *msg; } cases[] = {
        {"  LV V1,8(R0)\n", "t.s:1:3: LV V1,8(R0): element 63 at address 0x200 is outside memory (0x0-0x1ff)"},
        {"DADDUI R1,R0,#65\nMTC1 VLR,R1\n", "t.s:2:1: MTC1 VLR,R1: R1 = 65 is outside 0..MVL (64)"},
        {"DADDUI R1,R0,#-1\n MTC1 VLR,R1\n", "t.s:2:2: MTC1 VLR,R1: R1 = -1 is outside 0..MVL (64)"},
        {"L.D F0,-8(R0)\n", "t.s:1:1: L.D F0,-8(R0): address 0xfffffffffffffff8 is outside memory (0x0-0x1ff)"},
        {"SD R1,0x1fc\n", "t.s:1:1: SD R1,0x1fc: address 0x1fc is outside memory (0x0-0x1ff)"},
        {"top: J top\n", "t.s:1:6: J top: stopped after 1000 instructions (option max_insns): does the program end?"},
    };
    for (size_t i = 0; i < TP_ARRAY_LEN(cases); i++) {
        vt_opts(&o, "mem_size=512 max_insns=1000");
        vec_prog p;
        tp_err e;
        TT_CHECK(vt_asm(&p, cases[i].src, 8, NULL, 0, &e));
        vec_run r;
        bool ok = vec_run_program(&r, &p, &o, (int)(i % 2), 0, &e);
        if (ok || strcmp(e.msg, cases[i].msg))
            tt_fail_msg(__FILE__, __LINE__, "case %zu: got \"%s\", want \"%s\"", i, ok ? "(ran)" : e.msg, cases[i].msg);
        tt_nchecks++;
        vec_run_free(&r);
        vec_prog_free(&p);
        tp_opts_free(&o);
    }
    /* a masked-off element is not accessed, so it cannot fault */
    TT_CHECK(run_text(".data\nm: .word 0x7f\n.text\n L.D F0,m\n MVTM VM,F0\n DADDUI R1,R0,#456\n LV V1,R1\n",
                      "mem_size=512 mvl=8"));
    done(&R, &Pg);
}

int main(void)
{
    TT_RUN(t_daxpy);
    TT_RUN(t_scale);
    TT_RUN(t_chain);
    TT_RUN(t_stride);
    TT_RUN(t_gather);
    TT_RUN(t_cond);
    TT_RUN(t_matmul);
    TT_RUN(t_mask_and_length);
    TT_RUN(t_compare_cvi_pop);
    TT_RUN(t_scalar_ops);
    TT_RUN(t_memory_forms);
    TT_RUN(t_faults);
    return tt_done();
}
