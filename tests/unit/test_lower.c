/* test_lower.c -- the lowered code (ptx/lower.c, ptx/sched.c) and running it
** over physical registers (exec/phys.c, regs.physical=1): the schedule's
** order and the dependences it keeps, constant-bank copies, spills under a
** forced maximum, execution with and without them, and allocation faults
** injected through exec_dev_set_pass changing results.
**
** Orders are worked out by hand from the scheduler's rule (sched.c): each
** cycle the earliest ready instruction goes, long-latency ones (latency 12
** and more) first; a .func's ld.param takes 6 cycles, a global load 200,
** integer ALU 6.  pcs in comments are relative to the function's start. */
#include "tests/unit/tt.h"
#include "ptx/ptx.h"
#include "base/sbuf.h"
#include "tests/unit/exec_rig.h"

static tp_err err;

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

static ptx_module *parse(const char *text)
{
    tp_err_clear(&err);
    ptx_module *m = ptx_parse(text, strlen(text), "t.ptx", &err);
    if (!m) printf("    parse: %s\n", err.msg);
    return m;
}

static ptx_module *lower(const ptx_module *m, uint32_t force_max)
{
    ptx_lower_opts o;
    memset(&o, 0, sizeof o);
    o.max_regs = 255;
    o.force_max = force_max;
    o.regs_per_sm = 65536;
    o.alloc_unit = 256;
    tp_err_clear(&err);
    ptx_module *l = ptx_lower(m, &o, &err);
    if (!l) printf("    lower: %s\n", err.msg);
    return l;
}

static ptx_func *func(ptx_module *m, const char *name)
{
    int i = ptx_find_func(m, name);
    return i < 0 ? NULL : &m->funcs[i];
}

/* The row of register `name` in g, -1 when it has none. */
static int row_named(const ptx_func *g, const char *name)
{
    for (uint32_t r = 0; r < g->nrows; r++)
        if (!strcmp(g->regs[r].name, name)) return (int)r;
    return -1;
}

/* The relative position in g of the instruction whose first operand is register `name`. */
static int pos_of(const ptx_module *m, const ptx_func *g, const char *name)
{
    for (uint32_t pc = g->start; pc < g->end; pc++) {
        const ptx_insn *in = &m->insns[pc];
        for (uint32_t k = 0; k < in->nopnd; k++) {
            const ptx_opnd *o = &in->o[k];
            if ((o->kind == PTX_OK_REG || (o->kind == PTX_OK_ADDR && o->base == PTX_AB_REG)) && o->r >= 0 &&
                (uint32_t)o->r < g->nrows && strcmp(g->regs[o->r].name, name) == 0)
                return (int)(pc - g->start);
            if (o->kind == PTX_OK_REG || o->kind == PTX_OK_ADDR) break; /* first register operand only */
        }
    }
    return -1;
}

/* ---- the schedule ------------------------------------------------------------ */

static const char *two_loads =
    HEAD ".func (.param .b32 rv) f(.param .b64 p)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [p];\n"         /* 0: cycle 0 */
    " ld.global.u32 %r1, [%rd1];\n"      /* 1: ready at 6 (long: first) */
    " add.s32 %r2, %r1, 1;\n"            /* 2: ready at 206 */
    " ld.global.u32 %r3, [%rd1+4];\n"    /* 3: ready at 6, goes at 7, before 2 */
    " add.s32 %r4, %r3, 1;\n"            /* 4 */
    " add.s32 %r5, %r2, %r4;\n"          /* 5 */
    " st.param.b32 [rv], %r5;\n"         /* 6 */
    " ret;\n}\n";                        /* 7: last, FNEXIT 8 */

static void t_schedule_hoists_loads(void)
{
    ptx_module *m = parse(two_loads);
    if (!m) return;
    ptx_module *l = lower(m, 0);
    TT_CHECK(l != NULL);
    if (!l) return;
    ptx_func *g = func(l, "f");
    /* 0, 1, 3, 2, 4, 5, 6, 7: the second load moved above the first add */
    TT_EQ_I(pos_of(l, g, "%rd1"), 0);
    TT_EQ_I(pos_of(l, g, "%r1"), 1);
    TT_EQ_I(pos_of(l, g, "%r3"), 2);
    TT_EQ_I(pos_of(l, g, "%r2"), 3);
    TT_EQ_I(pos_of(l, g, "%r4"), 4);
    TT_EQ_U(g->end - g->start, 9);
    TT_EQ_U(l->insns[g->end - 2].op, PTX_OP_RET);
    TT_EQ_U(l->insns[g->end - 1].op, PTX_OP_FNEXIT);
    /* three values live at once after the hoist (r1, r3 and rd1's pair
    ** before the second load: rd1 2 + r1 1 = 3; then r1, r3, r2) */
    TT_EQ_U(g->ra_own, 3);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    ptx_module_free(l);
    ptx_module_free(m);
}

/* The cap (lower.c block_cap): a block of 40 global loads, each stored to
** shared memory.  Its stores cannot alias its loads (other state spaces),
** so ptxas hoists the loads as in a block that stores nothing, up to 64
** registers: all 40 values live at once, more than the 44 of a block whose
** stores may hold its loads back.  The same block with one shared load
** more (at its start, so the global loads can still all move up) loads and
** stores shared memory: the 44 cap.  n: 40 loads; extra: the shared load. */
static char *copy_block(bool extra)
{
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    tp_sbuf_puts(&sb, HEAD ".visible .entry k(.param .u64 p)\n{\n"
                      " .shared .align 4 .b8 s[2048];\n .reg .f32 %f<100>;\n .reg .b64 %rd<4>;\n"
                      " ld.param.u64 %rd2, [p];\n cvta.to.global.u64 %rd1, %rd2;\n");
    if (extra) tp_sbuf_puts(&sb, " ld.shared.f32 %f99, [s+1600];\n");
    for (int k = 0; k < 40; k++)
        tp_sbuf_printf(&sb, " ld.global.f32 %%f%d, [%%rd1+%d];\n st.shared.f32 [s+%d], %%f%d;\n", k, 4 * k, 4 * k, k);
    if (extra) tp_sbuf_puts(&sb, " st.shared.f32 [s+1604], %f99;\n");
    tp_sbuf_puts(&sb, " ret;\n}\n");
    char *t = tp_strdup(tp_sbuf_str(&sb));
    tp_sbuf_free(&sb);
    return t;
}

static void t_cap_spaces_apart(void)
{
    uint32_t regs[2] = {0, 0};
    for (int v = 0; v < 2; v++) {
        char *t = copy_block(v == 1);
        ptx_module *m = parse(t);
        free(t);
        if (!m) return;
        ptx_module *l = lower(m, 0);
        TT_CHECK(l != NULL);
        if (l) {
            ptx_func *g = func(l, "k");
            regs[v] = g->ra_regs;
            TT_CHECK(ptx_regalloc_check(l, g, &err));
            ptx_module_free(l);
        }
        ptx_module_free(m);
    }
    /* apart: into the last load 39 values and the address pair live (41
    ** units), allocated in 42 registers (the pair aligned even), plus the
    ** reserve of 5; the other kernel's schedule keeps pressure and reserve
    ** within 44, its allocation at most one register more (a pair's
    ** alignment) */
    TT_EQ_U(regs[0], 42 + 5);
    TT_CHECK(regs[1] <= 45 && regs[1] < regs[0]);
    if (regs[1] > 45) printf("    apart %u, shared both ways %u\n", regs[0], regs[1]);
}

/* The cap for a block that stores only after its last load: 40 global
** loads each added into a sum stored at the end.  No load can pass a store,
** so ptxas hoists them as in a block that stores nothing (ISPASS NN's first
** layer): all 40 loads first; into the last one 39 values and the address
** pair live (41 units), allocated in 42 registers (the pair even), plus the
** reserve of 5.  The same block storing the running sum once in the middle
** (a load after a store) keeps the 44 cap, its allocation at most one
** register more (a pair's alignment).  For sm_80 (64 warps per SM) the
** schedules keep within the 32 registers of full occupancy, as ptxas does
** (ptxas -v: 63 for sm_75, 31 for sm_80).  mid: the store in the middle;
** sm: the target. */
static char *sum_block(bool mid, int sm)
{
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    tp_sbuf_printf(&sb, ".version 8.0\n.target sm_%d\n.address_size 64\n", sm);
    tp_sbuf_puts(&sb, ".visible .entry k(.param .u64 p, .param .u64 q)\n{\n"
                      " .reg .f32 %f<100>;\n .reg .b64 %rd<5>;\n"
                      " ld.param.u64 %rd2, [p];\n cvta.to.global.u64 %rd1, %rd2;\n"
                      " ld.param.u64 %rd4, [q];\n cvta.to.global.u64 %rd3, %rd4;\n mov.f32 %f99, 0f00000000;\n");
    for (int k = 0; k < 40; k++) {
        tp_sbuf_printf(&sb, " ld.global.f32 %%f%d, [%%rd1+%d];\n add.f32 %%f99, %%f99, %%f%d;\n", k, 4 * k, k);
        if (mid && k == 19) tp_sbuf_puts(&sb, " st.global.f32 [%rd3+4], %f99;\n");
    }
    tp_sbuf_puts(&sb, " st.global.f32 [%rd3], %f99;\n ret;\n}\n");
    char *t = tp_strdup(tp_sbuf_str(&sb));
    tp_sbuf_free(&sb);
    return t;
}

/* Lowers `text` and returns kernel `name`'s count and the part its
** unrolled loops need (ra_unroll); 0 when it does not lower. */
static uint32_t lowered_regs(const char *text, const char *name, uint32_t *unroll)
{
    uint32_t regs = 0;
    *unroll = 0;
    ptx_module *m = parse(text);
    if (!m) return 0;
    ptx_module *l = lower(m, 0);
    TT_CHECK(l != NULL);
    if (l) {
        ptx_func *g = func(l, name);
        TT_CHECK(g != NULL);
        if (g) {
            regs = g->ra_regs;
            *unroll = g->ra_unroll;
            TT_CHECK(ptx_regalloc_check(l, g, &err));
        }
        ptx_module_free(l);
    }
    ptx_module_free(m);
    return regs;
}

static void t_cap_stores_at_end(void)
{
    uint32_t regs[3], u;
    for (int v = 0; v < 3; v++) {
        char *t = sum_block(v == 1, v == 2 ? 80 : 75);
        regs[v] = lowered_regs(t, "k", &u);
        free(t);
    }
    TT_EQ_U(regs[0], 42 + 5);
    TT_CHECK(regs[1] <= 45 && regs[1] < regs[0]);
    TT_CHECK(regs[2] <= 33 && regs[2] < regs[0]);
    if (regs[2] > 33) printf("    sm_80: %u\n", regs[2]);
}

/* A rotated loop of three blocks, as nvcc lays out a loop it unrolled by
** two (ISPASS NN's second layer): L2 (a load, the steps) falls into L1 (a
** load, the exit test), whose unconditional branch goes back to L2.  With
** the counter set to 0 and compared with 8, ptxas knows the trips when it
** compiles (the loop runs 8 times) and unrolls them all: the copies' 16
** loads go first, so after the last one 16 values, the address pair, the
** sum and the counter are live (20 units: ra_unroll), plus the reserve of
** 5.  Compared with a parameter the trips are known only when the loop
** starts: 4 copies, 8 loads (8 + 2 + 1 + 1 = 12; the bound, a parameter,
** is read from the constant bank).  (ptxas -v: 34 and 18.) */
static const char *rotated =
    HEAD ".visible .entry r(.param .u64 p, .param .u32 n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .f32 %f<8>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd2, [p];\n ld.param.u32 %r2, [n];\n cvta.to.global.u64 %rd1, %rd2;\n"
    " mov.u32 %r1, 0;\n mov.f32 %f1, 0f00000000;\n bra.uni L1;\n"
    "L2:\n ld.global.f32 %f2, [%rd1+4];\n add.f32 %f1, %f1, %f2;\n add.s32 %r1, %r1, 1;\n add.s64 %rd1, %rd1, 8;\n"
    "L1:\n ld.global.f32 %f3, [%rd1];\n add.f32 %f1, %f1, %f3;\n setp.eq.s32 %p1, %r1, BOUND;\n"
    " @%p1 bra L3;\n bra.uni L2;\n"
    "L3:\n st.global.f32 [%rd1], %f1;\n ret;\n}\n";

/* text with its one `word` replaced by `by`. */
static char *with_word(const char *text, const char *word, const char *by)
{
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    const char *at = strstr(text, word);
    tp_sbuf_printf(&sb, "%.*s%s%s", (int)(at - text), text, by, at + strlen(word));
    char *t = tp_strdup(tp_sbuf_str(&sb));
    tp_sbuf_free(&sb);
    return t;
}

/* Kernel `name` of text with its `word` replaced by `by`, lowered: the
** registers its unrolled loops need (ra_unroll); its count in *regs. */
static uint32_t unroll_of(const char *text, const char *word, const char *by, const char *name, uint32_t *regs)
{
    uint32_t u;
    char *t = with_word(text, word, by);
    *regs = lowered_regs(t, name, &u);
    free(t);
    return u;
}

static void t_unroll_rotated(void)
{
    uint32_t regs;
    TT_EQ_U(unroll_of(rotated, "BOUND", "8", "r", &regs), 20);
    TT_EQ_U(regs, 20 + 5);
    TT_EQ_U(unroll_of(rotated, "BOUND", "%r2", "r", &regs), 12);
}

/* A loop that stores where it loads, through one base register stepped by
** an immediate (Rodinia hybridsort's bucketprefixoffset: an in-place
** prefix sum): each copy's load and store are 4096 bytes from the last
** copy's, so ptxas moves the four copies' loads above the earlier copies'
** stores.  Trips known when it starts: 4 copies; after the fourth load 4
** values, the address pair, the sum and the counter are live (8 units),
** and the stepped address (the step has no reader in the loop: it goes as
** soon as it can, while the stores still read the old address; ptxas's
** SASS of bucketprefixoffset too steps into a new register pair) makes 10.
** Storing through another register (it may be the same address) the copies
** could not overlap: not unrolled (ra_unroll 0). */
static const char *inplace =
    HEAD ".visible .entry s(.param .u64 p, .param .u64 q, .param .u32 n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd2, [p];\n ld.param.u64 %rd4, [q];\n ld.param.u32 %r1, [n];\n"
    " cvta.to.global.u64 %rd1, %rd2;\n cvta.to.global.u64 %rd3, %rd4;\n mov.u32 %r3, 0;\n"
    "L1:\n ld.global.u32 %r4, [%rd1];\n st.global.u32 [BASE], %r3;\n add.s32 %r3, %r3, %r4;\n"
    " add.s64 %rd1, %rd1, 4096;\n add.s32 %r1, %r1, -1;\n setp.ne.s32 %p1, %r1, 0;\n @%p1 bra L1;\n"
    " st.global.u32 [%rd3], %r3;\n ret;\n}\n";

static void t_unroll_stores_one_base(void)
{
    uint32_t regs;
    TT_EQ_U(unroll_of(inplace, "BASE", "%rd1", "s", &regs), 10);
    TT_EQ_U(unroll_of(inplace, "BASE", "%rd3", "s", &regs), 0);
}

static const char *ordered =
    HEAD ".func (.param .b32 rv) f(.param .b64 p)\n{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [p];\n"         /* 0 */
    " st.global.u32 [%rd1], 1;\n"        /* 1: a store ... */
    " ld.global.u32 %r1, [%rd1+4];\n"    /* 2: ... a later load of the same space stays after it */
    " add.cc.u32 %r2, %r1, 1;\n"         /* 3: carry chain 3 -> 4 -> 5 -> 6 in order */
    " addc.u32 %r3, %r1, 2;\n"           /* 4 */
    " add.cc.u32 %r4, %r1, 3;\n"         /* 5 */
    " addc.u32 %r5, %r1, 4;\n"           /* 6 */
    " mov.u32 %r6, %clock;\n"            /* 7: a clock read: nothing crosses it */
    " ld.global.u32 %r7, [%rd1+8];\n"    /* 8: would go first without the clock read */
    " add.s32 %r8, %r2, %r3;\n"
    " add.s32 %r8, %r8, %r4;\n"
    " add.s32 %r8, %r8, %r5;\n"
    " add.s32 %r8, %r8, %r6;\n"
    " add.s32 %r8, %r8, %r7;\n"
    " st.param.b32 [rv], %r8;\n"
    " ret;\n}\n";

static void t_schedule_keeps_dependences(void)
{
    ptx_module *m = parse(ordered);
    if (!m) return;
    ptx_module *l = lower(m, 0);
    if (!l) return;
    ptx_func *g = func(l, "f");
    uint32_t s = g->start;
    /* the store is at 1 and the load after it (it may read what it wrote) */
    TT_EQ_U(l->insns[s + 1].op, PTX_OP_ST);
    TT_EQ_I(pos_of(l, g, "%r1"), 2);
    /* the carry chain in order */
    int a = pos_of(l, g, "%r2"), b = pos_of(l, g, "%r3"), c = pos_of(l, g, "%r4"), d = pos_of(l, g, "%r5");
    TT_CHECK(a < b && b < c && c < d);
    /* the load after the clock read stays after it, and everything before stays before */
    int clk = pos_of(l, g, "%r6"), ld = pos_of(l, g, "%r7");
    TT_CHECK(d < clk && clk < ld);
    ptx_module_free(l);
    ptx_module_free(m);
}

/* Just in time: the address of a load that must wait for an earlier store
** is computed when that load can start, not in the first idle cycle.
** Earliest starts (unlimited issue): rd1 0, ld r1 6, add r2 206, mul r5
** 212, st 218, ld r3 219 (after the store: same space).  add rd2's only
** reader is ld r3, due at 219: released at 219 - 6 - PTX_SCHED_SLACK (6) =
** 207, after add r2 (206) and before mul r5 (212).  Released at once it
** would go at cycle 7, right after ld r1, and hold its pair across the
** 200-cycle wait. */
static const char *late_address =
    HEAD ".func (.param .b32 rv) f(.param .b64 p)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [p];\n"         /* 0 */
    " ld.global.u32 %r1, [%rd1];\n"      /* 1 */
    " add.s32 %r2, %r1, 1;\n"            /* 2 */
    " mul.lo.s32 %r5, %r2, 3;\n"         /* 3 */
    " st.global.u32 [%rd1], %r5;\n"      /* 4 */
    " add.s64 %rd2, %rd1, 8;\n"          /* 5: the next load's address */
    " ld.global.u32 %r3, [%rd2];\n"      /* 6: after the store */
    " add.s32 %r4, %r3, 1;\n"
    " st.param.b32 [rv], %r4;\n"
    " ret;\n}\n";

static void t_schedule_just_in_time(void)
{
    ptx_module *m = parse(late_address);
    if (!m) return;
    ptx_module *l = lower(m, 0);
    TT_CHECK(l != NULL);
    if (!l) return;
    ptx_func *g = func(l, "f");
    TT_EQ_I(pos_of(l, g, "%r1"), 1);
    TT_EQ_I(pos_of(l, g, "%r2"), 2);
    TT_EQ_I(pos_of(l, g, "%rd2"), 3);
    TT_EQ_I(pos_of(l, g, "%r5"), 4);
    TT_EQ_I(pos_of(l, g, "%r3"), 6);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    ptx_module_free(l);
    ptx_module_free(m);
}

/* FP64 division: ptxas expands it into a sequence with a branch (nothing
** moves across it) and 15 temporaries of its own (measured: ptx/regalloc.c
** ptx_expand_temps).  Live into the div: rd1, fd1, fd2 = 6 units; so the
** count is at least 6 + 15 = 21 (a .func: no reserve), far above the 6 the
** values alone need.  The third load stays after the div. */
static const char *fp64_div =
    HEAD ".func (.param .b64 rv) f(.param .b64 p)\n{\n"
    " .reg .b64 %rd<4>;\n .reg .f64 %fd<8>;\n"
    " ld.param.u64 %rd1, [p];\n"         /* 0 */
    " ld.global.f64 %fd1, [%rd1];\n"     /* 1 */
    " ld.global.f64 %fd2, [%rd1+8];\n"   /* 2 */
    " div.rn.f64 %fd3, %fd1, %fd2;\n"    /* 3 */
    " ld.global.f64 %fd4, [%rd1+16];\n"  /* 4: would go before 3 without the expansion's branch */
    " add.f64 %fd5, %fd3, %fd4;\n"
    " st.param.f64 [rv], %fd5;\n"
    " ret;\n}\n";

static void t_expansion_temporaries(void)
{
    ptx_module *m = parse(fp64_div);
    if (!m) return;
    ptx_module *l = lower(m, 0);
    TT_CHECK(l != NULL);
    if (!l) return;
    ptx_func *g = func(l, "f");
    TT_EQ_I(pos_of(l, g, "%fd3"), 3);
    TT_EQ_I(pos_of(l, g, "%fd4"), 4);
    TT_EQ_U(g->ra_expand, 21);
    TT_EQ_U(g->ra_regs, 21);
    TT_CHECK(g->ra_own <= 8);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    ptx_module_free(l);
    /* the approximate division is one instruction: no temporaries */
    char *t = tp_malloc(strlen(fp64_div) + 8);
    strcpy(t, fp64_div);
    memcpy(strstr(t, "div.rn.f64"), "add.f64   ", 10);
    ptx_module *m2 = parse(t);
    ptx_module *l2 = m2 ? lower(m2, 0) : NULL;
    TT_CHECK(l2 != NULL);
    if (l2) {
        TT_EQ_U(func(l2, "f")->ra_expand, 0);
        TT_CHECK(func(l2, "f")->ra_regs < 21);
        ptx_module_free(l2);
    }
    if (m2) ptx_module_free(m2);
    free(t);
    ptx_module_free(m);
}

/* FP32 IEEE division, square root and reciprocal: ptxas branches to a slow
** path (a fence) and needs registers of its own, measured with ptxas -v
** against an add (ptx_expand_temps): div.rn +5, div.rn.ftz +4, div.rm +9,
** sqrt.rn +3, rcp.rn +6, rcp.rn.ftz 0 (a branch all the same); the .full
** and .approx forms are one sequence without a branch.  Live into the
** instruction: rd1, f1, f2 = 4 units (f2 is read after it for the unary
** ones), so ra_expand is 4 + the temporaries. */
static const char *fp32_div =
    HEAD ".func (.param .b32 rv) f(.param .b64 p)\n{\n"
    " .reg .b64 %rd<4>;\n .reg .f32 %f<8>;\n"
    " ld.param.u64 %rd1, [p];\n"         /* 0 */
    " ld.global.f32 %f1, [%rd1];\n"      /* 1 */
    " ld.global.f32 %f2, [%rd1+4];\n"    /* 2 */
    " OPERATION_________ %f3, %f1, %f2;\n" /* 3 */
    " ld.global.f32 %f4, [%rd1+8];\n"    /* 4: goes before 3 where nothing branches */
    " add.f32 %f5, %f3, %f4;\n"
    " add.f32 %f6, %f5, %f2;\n"
    " st.param.f32 [rv], %f6;\n"
    " ret;\n}\n";

static void t_fp32_expansions(void)
{
    static const struct { const char *op; bool unary; uint32_t temps; bool fence; } c[] = {
        {"div.rn.f32", false, 5, true}, {"div.rn.ftz.f32", false, 4, true}, {"div.rm.f32", false, 9, true},
        {"sqrt.rn.f32", true, 3, true}, {"rcp.rn.f32", true, 6, true}, {"rcp.rn.ftz.f32", true, 0, true},
        {"div.full.f32", false, 0, false}, {"sqrt.approx.f32", true, 0, false},
    };
    for (size_t k = 0; k < TP_ARRAY_LEN(c); k++) {
        char *t = tp_malloc(strlen(fp32_div) + 8), *at;
        strcpy(t, fp32_div);
        at = strstr(t, "OPERATION_________");
        char op[40];
        snprintf(op, sizeof op, "%-18s", c[k].op);
        memcpy(at, op, 18);
        if (c[k].unary) memcpy(strstr(t, ", %f1, %f2;"), ", %f1;     ", 10);
        ptx_module *m = parse(t);
        ptx_module *l = m ? lower(m, 0) : NULL;
        TT_CHECK(l != NULL);
        if (l) {
            ptx_func *g = func(l, "f");
            TT_EQ_U(g->ra_expand, c[k].temps ? 4 + c[k].temps : 0);
            TT_EQ_I(pos_of(l, g, "%f4") < pos_of(l, g, "%f3"), !c[k].fence);
            TT_CHECK(ptx_regalloc_check(l, g, &err));
            ptx_module_free(l);
        }
        if (m) ptx_module_free(m);
        free(t);
    }
}

/* ---- constants ---------------------------------------------------------------- */

static const char *consts =
    HEAD ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [p];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n"
    " add.s32 %r3, %r2, %r1;\n"          /* n read from the constant bank: no copy */
    " st.global.u32 [%rd2], %r3;\n"      /* an address cannot be: a copy of rd2 before it */
    " ret;\n}\n";

static void t_constant_copies(void)
{
    ptx_module *m = parse(consts);
    if (!m) return;
    ptx_module *l = lower(m, 0);
    if (!l) return;
    ptx_func *g = func(l, "k");
    int rd1 = row_named(g, "%rd1"), rd2 = row_named(g, "%rd2"), r1 = row_named(g, "%r1");
    int c0 = row_named(g, "%tpsim_c0");
    TT_CHECK(rd1 >= 0 && rd2 >= 0 && r1 >= 0 && c0 >= 0);
    if (c0 < 0) return;
    TT_CHECK(g->ra_cb[rd1] && g->ra_cb[rd2] && g->ra_cb[r1] && !g->ra_cb[c0]);
    TT_EQ_U(g->ra_ncb, 3);
    TT_EQ_I(g->ra_map[rd2], -1); /* in no register */
    /* the copy comes right before the store and is its address */
    uint32_t st = 0;
    for (uint32_t pc = g->start; pc < g->end; pc++)
        if (l->insns[pc].op == PTX_OP_ST) st = pc;
    TT_EQ_U(l->insns[st - 1].op, PTX_OP_MOV);
    TT_EQ_I(l->insns[st - 1].o[0].r, c0);
    TT_EQ_I(l->insns[st].o[0].r, c0);
    /* registers: r2 in R0, r3 takes R0 as r2 dies, the copy (64 bits) the
    ** next free aligned pair R2-R3: 4 used, plus the kernel reserve of 5 */
    TT_EQ_U(g->ra_own, 4);
    TT_EQ_U(g->ra_regs, 9);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    ptx_module_free(l);
    ptx_module_free(m);
}

/* ---- what ptxas keeps out of registers ------------------------------------------ */

/* Two shared arrays indexed by the same x = tid * 4: sa + x and sb + x are
** x plus an immediate in each access (LDS [R2+0x200]), so they hold no
** register and x stays live to their last use.  %r4 of the second kernel
** is also stored as a value, so it needs its register. */
#define FOLD_BODY(extra)                                                                                     \
    " .reg .b32 %r<16>;\n .reg .b64 %rd<8>;\n"                                                             \
    " .shared .align 4 .b8 sa[512];\n .shared .align 4 .b8 sb[512];\n"                                    \
    " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n"                                                       \
    " mov.u32 %r3, sa;\n add.s32 %r4, %r3, %r2;\n"                                                         \
    " mov.u32 %r5, sb;\n add.s32 %r6, %r5, %r2;\n"                                                         \
    " st.shared.u32 [%r4], %r1;\n add.s32 %r7, %r1, 7;\n st.shared.u32 [%r6], %r7;\n bar.sync 0;\n"       \
    " ld.shared.u32 %r8, [%r4];\n ld.shared.u32 %r9, [%r6];\n add.s32 %r10, %r8, %r9;\n"                  \
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"                                       \
    " cvt.u64.u32 %rd3, %r2;\n add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r10;\n" extra          \
    " ret;\n}\n"
static const char *folds = HEAD ".visible .entry fold(.param .u64 out)\n{\n" FOLD_BODY("");
static const char *unfolded =
    HEAD ".visible .entry fold(.param .u64 out)\n{\n" FOLD_BODY(" st.global.u32 [%rd4+4096], %r4;\n");

static void t_folded_addresses(void)
{
    ptx_module *m = parse(folds), *m2 = parse(unfolded);
    if (!m || !m2) return;
    ptx_module *l = lower(m, 0), *l2 = lower(m2, 0);
    if (!l || !l2) return;
    ptx_func *g = func(l, "fold"), *g2 = func(l2, "fold");
    int r2 = row_named(g, "%r2"), r4 = row_named(g, "%r4"), r6 = row_named(g, "%r6");
    TT_CHECK(r2 >= 0 && r4 >= 0 && r6 >= 0 && g->ra_fold);
    if (r2 < 0 || r4 < 0 || r6 < 0 || !g->ra_fold) return;
    TT_CHECK(g->ra_cb[r4] && g->ra_cb[r6]);
    TT_EQ_U(g->ra_fold[r4], (uint32_t)r2 + 1);
    TT_EQ_U(g->ra_fold[r6], (uint32_t)r2 + 1);
    TT_EQ_I(g->ra_map[r4], -1);
    /* no copies of them: the accesses read x */
    for (uint32_t r = 0; r < g->nrows; r++) TT_CHECK(strncmp(g->regs[r].name, "%tpsim_c", 8) != 0);
    /* x is live where the sums are read: into the second load */
    ptx_live lv;
    TT_CHECK(ptx_liveness(l, g, PTX_LIVE_ALLOC, &lv, &err));
    uint32_t ld2 = 0;
    for (uint32_t pc = g->start; pc < g->end; pc++)
        if (l->insns[pc].op == PTX_OP_LD && l->insns[pc].m.space == PTX_SP_SHARED) ld2 = pc;
    TT_CHECK(ptx_live_has(&lv, g, ld2, (uint32_t)r2));
    ptx_live_free(&lv);
    /* the most live: the two loaded values and the 64-bit output address
    ** (4 units, at the final add: x died into %rd3); unfolded, %r4 lives
    ** from its add to the last store, one more there */
    TT_EQ_U(g->ra_max_live, 4);
    TT_EQ_U(g2->ra_max_live, 5);
    int r4b = row_named(g2, "%r4");
    TT_CHECK(r4b >= 0 && !g2->ra_cb[r4b] && g2->ra_map[r4b] >= 0);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    ptx_module_free(l);
    ptx_module_free(l2);
    ptx_module_free(m);
    ptx_module_free(m2);
    /* the results are the same over physical registers: out[t] = t + t + 7 */
    const char *cases[] = {"", "regs.physical=1"};
    for (int c = 0; c < 2; c++) {
        exec_rig r;
        if (!exec_rig_open(&r, folds, cases[c], "t.ptx", NULL)) continue;
        uint64_t out = exec_mem_alloc(r.dev, 128 * 4, 256);
        exec_result res;
        exec_rig_launch1(r.m, "fold", 1, 128, out, &res);
        TT_EQ_I(res.status, EXEC_OK);
        const uint32_t *h = exec_mem_host(r.dev, out, 128 * 4);
        uint32_t bad = 0;
        for (uint32_t t = 0; t < 128; t++) bad += h[t] != 2 * t + 7;
        TT_EQ_U(bad, 0);
        exec_rig_close(&r);
    }
}

/* x = tid * 4 spilled (regs.max=10 under the pressure of the products):
** the adds that make the folded sums read it through a reload, which must
** be live into them (the adds re-create the sums, so the view drops their
** definitions, not their uses).  out[16 + t] = (1*2 + 3*4 + 1*3 + 2*4) + t. */
static const char *fold_spilled =
    HEAD ".visible .entry fold2(.param .u64 out)\n{\n"
    " .reg .b32 %r<32>;\n .reg .b64 %rd<8>;\n"
    " .shared .align 4 .b8 sa[512];\n .shared .align 4 .b8 sb[512];\n"
    " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " ld.global.u32 %r11, [%rd2];\n ld.global.u32 %r12, [%rd2+4];\n"
    " ld.global.u32 %r13, [%rd2+8];\n ld.global.u32 %r14, [%rd2+12];\n"
    " mul.lo.s32 %r15, %r11, %r12;\n mul.lo.s32 %r16, %r13, %r14;\n"
    " mul.lo.s32 %r17, %r11, %r13;\n mul.lo.s32 %r18, %r12, %r14;\n"
    " add.s32 %r19, %r15, %r16;\n add.s32 %r20, %r17, %r18;\n add.s32 %r21, %r19, %r20;\n"
    " mov.u32 %r3, sa;\n add.s32 %r4, %r3, %r2;\n mov.u32 %r5, sb;\n add.s32 %r6, %r5, %r2;\n"
    " st.shared.u32 [%r4], %r21;\n st.shared.u32 [%r6], %r1;\n bar.sync 0;\n"
    " ld.shared.u32 %r8, [%r4];\n ld.shared.u32 %r9, [%r6];\n add.s32 %r10, %r8, %r9;\n"
    " cvt.u64.u32 %rd3, %r2;\n add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4+64], %r10;\n"
    " ret;\n}\n";

static void t_folded_base_spilled(void)
{
    ptx_module *m = parse(fold_spilled);
    if (!m) return;
    ptx_module *l = lower(m, 10);
    if (l) {
        /* x is spilled: no instruction names it any more, and its
        ** definition is followed by a store to the frame */
        ptx_func *g = func(l, "fold2");
        TT_CHECK(g->ra_spills > 0);
        TT_EQ_I(pos_of(l, g, "%r2"), -1);
        int x_stored = 0;
        for (uint32_t pc = g->start; pc + 1 < g->end; pc++)
            x_stored |= l->insns[pc].op == PTX_OP_SHL && l->insns[pc + 1].op == PTX_OP_ST &&
                        l->insns[pc + 1].m.space == PTX_SP_LOCAL;
        TT_CHECK(x_stored);
        TT_CHECK(ptx_regalloc_check(l, g, &err));
        ptx_module_free(l);
    }
    ptx_module_free(m);
    exec_rig r;
    if (!exec_rig_open(&r, fold_spilled, "regs.physical=1 regs.max=10", "t.ptx", NULL)) return;
    uint64_t out = exec_mem_alloc(r.dev, (16 + 128) * 4, 256);
    uint32_t *h = exec_mem_host(r.dev, out, (16 + 128) * 4);
    for (uint32_t i = 0; i < 4; i++) h[i] = i + 1;
    exec_result res;
    exec_rig_launch1(r.m, "fold2", 1, 128, out, &res);
    TT_EQ_I(res.status, EXEC_OK);
    uint32_t bad = 0;
    for (uint32_t t = 0; t < 128; t++) bad += h[16 + t] != 25 + t;
    TT_EQ_U(bad, 0);
    exec_rig_close(&r);
}

/* A copy: values loaded through a register and only stored go to odd
** registers (ptxas: LDG R9, R11 ... then STG [R6+0x4], R11), beside the
** even pairs of the addresses. */
static const char *copy4 =
    HEAD ".visible .entry copy4(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [in];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " ld.param.u64 %rd3, [out];\n cvta.to.global.u64 %rd4, %rd3;\n"
    " mov.u32 %r5, %tid.x;\n mul.wide.u32 %rd5, %r5, 16;\n add.s64 %rd6, %rd2, %rd5;\n add.s64 %rd7, %rd4, %rd5;\n"
    " ld.global.u32 %r1, [%rd6];\n ld.global.u32 %r2, [%rd6+4];\n"
    " ld.global.u32 %r3, [%rd6+8];\n ld.global.u32 %r4, [%rd6+12];\n"
    " st.global.u32 [%rd7], %r1;\n st.global.u32 [%rd7+4], %r2;\n"
    " st.global.u32 [%rd7+8], %r3;\n st.global.u32 [%rd7+12], %r4;\n"
    " ret;\n}\n";

static void t_copied_values_odd(void)
{
    ptx_module *m = parse(copy4);
    if (!m) return;
    ptx_module *l = lower(m, 0);
    if (!l) return;
    ptx_func *g = func(l, "copy4");
    const char *names[] = {"%r1", "%r2", "%r3", "%r4"};
    for (int k = 0; k < 4; k++) {
        int r = row_named(g, names[k]);
        TT_CHECK(r >= 0 && g->ra_map[r] >= 0 && (g->ra_map[r] & 1) == 1);
    }
    /* %tid in R0 dies into %rd5 (R0-R1), %rd6 takes R2-R3; the values take
    ** the lowest free odd registers: R5, R7, R9, then R3 as %rd6 dies at the
    ** fourth load; %rd7 reuses R0-R1 as %rd5 dies: the highest is R9, 10
    ** registers (ptxas: R7, R9, R11, R13 above its R0-R5, 16 with R1 and the
    ** two it adds) */
    TT_EQ_U(g->ra_own, 10);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    /* a register-sharing policy's compaction (a bound on every row) packs
    ** them instead: 7 units are live at the fourth load (the three values
    ** before it, %rd5 and %rd6), and with the values in R4..R6 and %r4 in
    ** R2 as %rd6 dies, all fit below 8 (the even pairs R0-R1, R2-R3 first) */
    uint32_t *bound = malloc((g->nrows + 1) * sizeof *bound), own = 0;
    for (uint32_t r = 0; r < g->nrows; r++) bound[r] = 8;
    TT_CHECK(ptx_ra_color_bounded(l, g, bound, &own, NULL, &err));
    TT_CHECK(own <= 8);
    free(bound);
    ptx_module_free(l);
    ptx_module_free(m);
}

/* __constant__ integers and arithmetic on them are uniform values (ptxas's
** ULDC, UIADD3): %r1 (N), %r2 = N - 1 and %r3 = N * 4 hold no vector
** register; a float __constant__ (ptxas: an FFMA's c[0x3][..] operand or a
** register) and anything mixed with %tid stay counted. */
static const char *uniforms =
    HEAD ".const .align 4 .u32 N;\n.const .align 4 .f32 scale;\n"
    ".visible .entry uni(.param .u64 out)\n{\n"
    " .reg .b32 %r<12>;\n .reg .f32 %f<4>;\n .reg .b64 %rd<8>;\n .reg .pred %p<2>;\n"
    " ld.const.u32 %r1, [N];\n add.s32 %r2, %r1, -1;\n shl.b32 %r3, %r1, 2;\n"
    " ld.const.f32 %f1, [scale];\n mov.u32 %r4, %tid.x;\n add.s32 %r5, %r4, %r2;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " mul.wide.u32 %rd3, %r4, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
    " cvt.rn.f32.u32 %f2, %r5;\n mul.f32 %f3, %f2, %f1;\n st.global.f32 [%rd4], %f3;\n"
    " cvt.u64.u32 %rd5, %r3;\n add.s64 %rd6, %rd4, %rd5;\n st.global.f32 [%rd6], %f3;\n"
    " ret;\n}\n";

static void t_constant_uniform(void)
{
    ptx_module *m = parse(uniforms);
    if (!m) return;
    ptx_module *l = lower(m, 0);
    if (!l) return;
    ptx_func *g = func(l, "uni");
    int r1 = row_named(g, "%r1"), r2 = row_named(g, "%r2"), r3 = row_named(g, "%r3");
    int f1 = row_named(g, "%f1"), r5 = row_named(g, "%r5");
    TT_CHECK(r1 >= 0 && r2 >= 0 && r3 >= 0 && f1 >= 0 && r5 >= 0);
    if (r1 < 0 || r2 < 0 || r3 < 0 || f1 < 0 || r5 < 0) return;
    TT_CHECK(g->ra_cb[r1] && g->ra_cb[r2] && g->ra_cb[r3]);
    TT_CHECK(!g->ra_cb[f1] && !g->ra_cb[r5]);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    ptx_module_free(l);
    ptx_module_free(m);
    /* and it runs the same over physical registers: out[t] = (t + N - 1) * scale, twice */
    const char *cases[] = {"", "regs.physical=1"};
    for (int c = 0; c < 2; c++) {
        exec_rig r;
        if (!exec_rig_open(&r, uniforms, cases[c], "t.ptx", NULL)) continue;
        uint32_t n = 64;
        float sc = 0.5f;
        uint64_t an = 0, as = 0, bytes = 0;
        TT_CHECK(exec_mod_global(r.m, "N", &an, &bytes) && exec_mod_global(r.m, "scale", &as, &bytes));
        memcpy(exec_mem_host(r.dev, an, 4), &n, 4);
        memcpy(exec_mem_host(r.dev, as, 4), &sc, 4);
        uint64_t out = exec_mem_alloc(r.dev, 64 * 4 + 256 * 4, 256);
        exec_result res;
        exec_rig_launch1(r.m, "uni", 1, 64, out, &res);
        TT_EQ_I(res.status, EXEC_OK);
        const float *h = exec_mem_host(r.dev, out, 64 * 4 + 256 * 4);
        uint32_t bad = 0;
        for (uint32_t t = 0; t < 64; t++) bad += h[t] != (float)(t + n - 1) * sc || h[t + n] != h[t];
        TT_EQ_U(bad, 0);
        exec_rig_close(&r);
    }
}

/* ---- spills ------------------------------------------------------------------------ */

/* out[0] = in[0] + ... + in[11] with all twelve loads in flight at once,
** summed from the last: twelve values live at the peak. */
static const char *sum12 =
    HEAD ".visible .entry sum12(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %r<32>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [in];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " ld.param.u64 %rd3, [out];\n cvta.to.global.u64 %rd4, %rd3;\n"
    " ld.global.u32 %r1, [%rd2];\n ld.global.u32 %r2, [%rd2+4];\n ld.global.u32 %r3, [%rd2+8];\n"
    " ld.global.u32 %r4, [%rd2+12];\n ld.global.u32 %r5, [%rd2+16];\n ld.global.u32 %r6, [%rd2+20];\n"
    " ld.global.u32 %r7, [%rd2+24];\n ld.global.u32 %r8, [%rd2+28];\n ld.global.u32 %r9, [%rd2+32];\n"
    " ld.global.u32 %r10, [%rd2+36];\n ld.global.u32 %r11, [%rd2+40];\n ld.global.u32 %r12, [%rd2+44];\n"
    " add.s32 %r20, %r12, %r11;\n add.s32 %r20, %r20, %r10;\n add.s32 %r20, %r20, %r9;\n"
    " add.s32 %r20, %r20, %r8;\n add.s32 %r20, %r20, %r7;\n add.s32 %r20, %r20, %r6;\n"
    " add.s32 %r20, %r20, %r5;\n add.s32 %r20, %r20, %r4;\n add.s32 %r20, %r20, %r3;\n"
    " add.s32 %r20, %r20, %r2;\n add.s32 %r20, %r20, %r1;\n"
    " st.global.u32 [%rd4], %r20;\n"
    " ret;\n}\n";

static void t_spills_fit(void)
{
    ptx_module *m = parse(sum12);
    if (!m) return;
    ptx_module *l = lower(m, 0);
    if (!l) return;
    ptx_func *g = func(l, "sum12");
    /* unlimited: no spill; at the peak the twelve loads' values and the
    ** copy of in's address (a pair) are live: 14 registers */
    TT_EQ_U(g->ra_spills, 0);
    TT_EQ_U(g->ra_own, 14);
    TT_EQ_U(g->ra_regs, 19);
    ptx_module_free(l);
    /* at most 12 per thread: 7 for values after the reserve of 5 */
    l = lower(m, 12);
    if (!l) return;
    g = func(l, "sum12");
    TT_CHECK(g->ra_spills > 0);
    TT_CHECK(g->ra_own <= 7);
    TT_CHECK(g->ra_regs <= 12);
    bool var = false;
    for (uint32_t i = 0; i < g->nvars; i++)
        if (!strcmp(g->vars[i].name, "__tpsim_spill")) {
            var = true;
            TT_EQ_U(g->vars[i].size, 4 * g->ra_spills);
            TT_EQ_U(g->local_bytes, g->vars[i].offset + g->vars[i].size);
        }
    TT_CHECK(var);
    uint32_t lds = 0, sts = 0;
    for (uint32_t pc = g->start; pc < g->end; pc++) {
        const ptx_insn *in = &l->insns[pc];
        if (in->m.space == PTX_SP_LOCAL && in->op == PTX_OP_LD) lds++;
        if (in->m.space == PTX_SP_LOCAL && in->op == PTX_OP_ST) sts++;
    }
    TT_CHECK(lds >= g->ra_spills && sts >= g->ra_spills);
    TT_CHECK(ptx_regalloc_check(l, g, &err));
    ptx_module_free(l);
    ptx_module_free(m);
}

/* ---- running it -------------------------------------------------------------------- */

/* Runs sum12 on 32 threads (each the same sum) and returns out[0]. */
static uint32_t run_sum12(exec_rig *r, uint32_t *regs, uint32_t *local)
{
    uint64_t in = exec_mem_alloc(r->dev, 48, 256), out = exec_mem_alloc(r->dev, 4, 256);
    uint32_t *h = exec_mem_host(r->dev, in, 48);
    for (int i = 0; i < 12; i++) h[i] = 1u << (2 * i);
    uint64_t params[2] = {in, out};
    exec_result res;
    exec_rig_launch(r->m, "sum12", 1, 32, params, sizeof params, &res);
    TT_EQ_I(res.status, EXEC_OK);
    exec_kattr a;
    exec_kernel_attrs(r->m, exec_mod_kernel(r->m, "sum12"), &a);
    if (regs) *regs = a.regs;
    if (local) *local = a.local_bytes;
    return *(uint32_t *)exec_mem_host(r->dev, out, 4);
}

static void t_physical_runs(void)
{
    /* 1 + 4 + 16 + ... + 4^11 = (4^12 - 1) / 3 */
    const uint32_t want = (uint32_t)((16777216ull - 1) / 3);
    const char *cases[] = {"", "regs.physical=1", "regs.physical=1 regs.max=12", "regs.max=12",
                           "regs.physical=1 regs.schedule=0"};
    uint32_t regs[5], local[5];
    for (int c = 0; c < 5; c++) {
        exec_rig r;
        if (!exec_rig_open(&r, sum12, cases[c], "t.ptx", NULL)) continue;
        TT_EQ_U(run_sum12(&r, &regs[c], &local[c]), want);
        exec_rig_close(&r);
    }
    /* one count for both modes: the lowered code's */
    TT_EQ_U(regs[0], 19);
    TT_EQ_U(regs[1], 19);
    /* a forced maximum spills: the count fits it and the frame holds the spills */
    TT_CHECK(regs[2] <= 12 && regs[3] == regs[2]);
    TT_CHECK(local[2] > 0 && local[3] == local[2] && local[0] == 0);
}

/* Launch bounds cap a kernel's registers by the register file they divide:
** .maxntid 512 with .minnctapersm 4 is 64 warps, on the GTX 480's 32768
** registers 512 a warp, 16 a thread, so sum12 (19) spills to fit 16.  A file
** raised only so that registers never limit occupancy (device.regs_per_sm
** 1M) lifts the cap to the device's 63 unless regs.bounds_file keeps the
** real file's 32768: then the code is the same as on the real file. */
static void t_bounds_file(void)
{
    char ptx[4096];
    const char *brace = strchr(sum12, '{');
    snprintf(ptx, sizeof ptx, "%.*s .maxntid 512, 1, 1\n .minnctapersm 4\n%s", (int)(brace - sum12), sum12, brace);
    const uint32_t want = (uint32_t)((16777216ull - 1) / 3);
    const char *cases[] = {"regs.physical=1", "regs.physical=1 device.regs_per_sm=1048576",
                           "regs.physical=1 device.regs_per_sm=1048576 regs.bounds_file=32768"};
    uint32_t regs[3] = {0, 0, 0}, local[3] = {0, 0, 0};
    for (int c = 0; c < 3; c++) {
        exec_rig r;
        if (!exec_rig_open(&r, ptx, cases[c], "t.ptx", NULL)) continue;
        TT_EQ_U(run_sum12(&r, &regs[c], &local[c]), want);
        exec_rig_close(&r);
    }
    TT_CHECK(regs[0] <= 16 && local[0] > 0);
    TT_EQ_U(regs[1], 19);
    TT_EQ_U(local[1], 0);
    TT_EQ_U(regs[2], regs[0]);
    TT_EQ_U(local[2], local[0]);
}

/* Injected faults: a pass that gives a live 32-bit row the register of
** another row live at the same time, or the high half of a live 64-bit
** row's pair.  Either must change the result. */
static int fault_kind;

static bool fault_pass(ptx_module *low, const tp_opts *o, void *arg, tp_err *e)
{
    (void)o;
    (void)arg;
    int fi = ptx_find_func(low, "sum12");
    if (fi < 0) return true;
    ptx_func *g = &low->funcs[fi];
    ptx_live lv;
    if (!ptx_liveness(low, g, PTX_LIVE_ALLOC, &lv, e)) return false;
    /* the point where the most registers are live */
    uint32_t i = lv.max_pc - lv.start;
    const uint64_t *s = lv.in + (size_t)i * lv.words;
    int32_t a = -1, b = -1, pair = -1;
    for (uint32_t r = 0; r < g->nrows; r++) {
        if (!((s[r / 64] >> (r % 64)) & 1) || g->ra_map[r] < 0) continue;
        uint32_t u = ptx_row_units(g, r);
        if (u == 1 && a < 0) a = (int32_t)r;
        else if (u == 1 && b < 0) b = (int32_t)r;
        if (u == 2 && pair < 0) pair = (int32_t)r;
    }
    if (fault_kind == 1 && a >= 0 && b >= 0) g->ra_map[b] = g->ra_map[a];
    if (fault_kind == 2 && a >= 0 && pair >= 0) g->ra_map[a] = g->ra_map[pair] + 1;
    ptx_live_free(&lv);
    return true;
}

static void t_allocation_faults_change_results(void)
{
    const uint32_t want = (uint32_t)((16777216ull - 1) / 3);
    for (fault_kind = 0; fault_kind <= 2; fault_kind++) {
        exec_rig r;
        if (!exec_rig_open(&r, sum12, "regs.physical=1", "t.ptx", fault_pass)) continue;
        uint32_t got = run_sum12(&r, NULL, NULL);
        if (fault_kind == 0) TT_EQ_U(got, want); /* the pass did nothing */
        else TT_CHECK(got != want);
        exec_rig_close(&r);
    }
    fault_kind = 0;
}

/* ---- if-conversion (ptx/ifconv.c, ptx_lower_opts.ifconvert) ------------------ */

/* Three guarded bodies: the first two qualify (two instructions each, the
** branch's target entered from the branch and the body only); the third
** writes its own guard.  %p2's body is entered also by a branch from the
** top (bra to B2), so it does not qualify either. */
static const char *guarded =
    HEAD ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<12>;\n .reg .f32 %f<12>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [p];\n"              /* 0 */
    " ld.param.u32 %r1, [n];\n"               /* 1 */
    " mov.u32 %r2, %tid.x;\n"                 /* 2 */
    " mul.wide.u32 %rd2, %r2, 4;\n"           /* 3 */
    " add.s64 %rd3, %rd1, %rd2;\n"            /* 4 */
    " mov.f32 %f1, 0f00000000;\n"             /* 5 */
    " setp.ge.u32 %p1, %r2, %r1;\n"           /* 6 */
    " setp.eq.u32 %p2, %r2, 7;\n"             /* 7 */
    " @%p2 bra B2;\n"                         /* 8 */
    " @%p1 bra L1;\n"                         /* 9 */
    " ld.global.f32 %f2, [%rd3];\n"           /* 10: body 1 */
    " add.f32 %f1, %f1, %f2;\n"               /* 11 */
    "L1:\n"
    " @!%p1 bra L2;\n"                        /* 12 */
    " ld.global.f32 %f3, [%rd3+4];\n"         /* 13: body 2 (under @%p1) */
    " add.f32 %f4, %f1, %f3;\n"               /* 14 */
    "L2:\n"
    " @%p1 bra L3;\n"                         /* 15 */
    " ld.global.f32 %f5, [%rd3+8];\n"         /* 16: body 3 writes %p1 */
    " setp.lt.f32 %p1, %f5, %f1;\n"           /* 17 */
    "L3:\n"
    " @%p2 bra L4;\n"                         /* 18 */
    "B2:\n"
    " add.f32 %f6, %f1, %f4;\n"               /* 19: body of %p2, entered from 8 */
    "L4:\n"
    " st.global.f32 [%rd3+512], %f6;\n"       /* 20 */
    " ret;\n}\n";

static ptx_module *lower_ifc(const ptx_module *m, uint32_t ifc)
{
    ptx_lower_opts o;
    memset(&o, 0, sizeof o);
    o.max_regs = 255;
    o.regs_per_sm = 65536;
    o.alloc_unit = 256;
    o.ifconvert = ifc;
    tp_err_clear(&err);
    ptx_module *l = ptx_lower(m, &o, &err);
    if (!l) printf("    lower: %s\n", err.msg);
    return l;
}

static uint32_t count_op(const ptx_module *m, const ptx_func *g, uint16_t op)
{
    uint32_t n = 0;
    for (uint32_t pc = g->start; pc < g->end; pc++) n += m->insns[pc].op == op;
    return n;
}

static void t_ifconvert(void)
{
    ptx_module *m = parse(guarded);
    if (!m) return;
    ptx_module *a = lower_ifc(m, 0), *b = lower_ifc(m, 2), *c = lower_ifc(m, 1);
    TT_CHECK(a && b && c);
    if (!a || !b || !c) return;
    ptx_func *ga = func(a, "k"), *gb = func(b, "k"), *gc = func(c, "k");
    TT_EQ_U(count_op(a, ga, PTX_OP_BRA), 5);
    TT_EQ_U(count_op(c, gc, PTX_OP_BRA), 5);   /* bodies of 2 instructions are longer than 1 */
    /* the first two bodies converted: 3 branches left, two instructions fewer */
    TT_EQ_U(count_op(b, gb, PTX_OP_BRA), 3);
    TT_EQ_U(gb->end - gb->start, ga->end - ga->start - 2);
    /* body 1 runs under @%p1 negated (its branch was @%p1), body 2 under
    ** @%p1 (its branch was @!%p1); body 3 and the %p2 body stay unguarded */
    int l1 = pos_of(b, gb, "%f2"), l2 = pos_of(b, gb, "%f3"), l3 = pos_of(b, gb, "%f5"), s4 = pos_of(b, gb, "%f6");
    TT_CHECK(l1 >= 0 && l2 >= 0 && l3 >= 0 && s4 >= 0);
    if (l1 < 0 || l2 < 0 || l3 < 0 || s4 < 0) return;
    const ptx_insn *i1 = &b->insns[gb->start + l1], *i2 = &b->insns[gb->start + l2], *i3 = &b->insns[gb->start + l3];
    TT_CHECK(i1->guard >= 0 && i1->guard_neg == 1);
    TT_CHECK(i2->guard >= 0 && i2->guard_neg == 0 && i2->guard == i1->guard);
    TT_CHECK(i3->guard < 0);
    TT_CHECK(b->insns[gb->start + s4].guard < 0);
    /* the two bodies now share a block: the second load is scheduled before
    ** the first body's add (positions: its load, then the other load) */
    TT_EQ_I(l2, l1 + 1);
    TT_CHECK(pos_of(a, ga, "%f3") > pos_of(a, ga, "%f2") + 2);
    ptx_module_free(a);
    ptx_module_free(b);
    ptx_module_free(c);
    ptx_module_free(m);
}

/* The converted code computes what the branching code did, in the
** functional model over physical registers (regs.physical=1): every lane's
** sum of in[lane] and in[lane + 1] where lane < n, 0 elsewhere. */
static const char *guarded_sum =
    HEAD ".visible .entry gs(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .f32 %f<8>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd4, [out];\n ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n mul.wide.u32 %rd2, %r2, 4;\n add.s64 %rd3, %rd1, %rd2;\n add.s64 %rd5, %rd4, %rd2;\n"
    " mov.f32 %f1, 0f00000000;\n setp.ge.u32 %p1, %r2, %r1;\n"
    " @%p1 bra L1;\n ld.global.f32 %f2, [%rd3];\n add.f32 %f1, %f1, %f2;\nL1:\n"
    " @%p1 bra L2;\n ld.global.f32 %f3, [%rd3+4];\n add.f32 %f1, %f1, %f3;\nL2:\n"
    " st.global.f32 [%rd5], %f1;\n ret;\n}\n";

static void t_ifconvert_runs(void)
{
    const char *cases[] = {"regs.physical=1", "regs.physical=1 exec.ifconvert=2", "exec.ifconvert=2"};
    for (int c = 0; c < 3; c++) {
        exec_rig r;
        if (!exec_rig_open(&r, guarded_sum, cases[c], "t.ptx", NULL)) continue;
        uint64_t in = exec_mem_alloc(r.dev, 33 * 4, 256), out = exec_mem_alloc(r.dev, 32 * 4, 256);
        float *w = exec_mem_host(r.dev, in, 33 * 4);
        for (int i = 0; i < 33; i++) w[i] = (float)(i + 1);
        struct { uint64_t in, out; uint32_t n; } p = {in, out, 20};
        exec_result res;
        exec_rig_launch(r.m, "gs", 1, 32, &p, 20, &res);
        TT_EQ_I(res.status, EXEC_OK);
        const float *o = exec_mem_host(r.dev, out, 32 * 4);
        for (int i = 0; i < 32; i++) TT_CHECK(o[i] == (i < 20 ? (float)(2 * i + 3) : 0.0f));
        exec_rig_close(&r);
    }
}

int main(void)
{
    TT_RUN(t_schedule_hoists_loads);
    TT_RUN(t_cap_spaces_apart);
    TT_RUN(t_cap_stores_at_end);
    TT_RUN(t_unroll_rotated);
    TT_RUN(t_unroll_stores_one_base);
    TT_RUN(t_schedule_keeps_dependences);
    TT_RUN(t_schedule_just_in_time);
    TT_RUN(t_expansion_temporaries);
    TT_RUN(t_fp32_expansions);
    TT_RUN(t_constant_copies);
    TT_RUN(t_folded_addresses);
    TT_RUN(t_folded_base_spilled);
    TT_RUN(t_copied_values_odd);
    TT_RUN(t_constant_uniform);
    TT_RUN(t_spills_fit);
    TT_RUN(t_physical_runs);
    TT_RUN(t_bounds_file);
    TT_RUN(t_allocation_faults_change_results);
    TT_RUN(t_ifconvert);
    TT_RUN(t_ifconvert_runs);
    return tt_done();
}
