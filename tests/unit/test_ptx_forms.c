/* test_ptx_forms.c -- PTX instruction forms, immediates, declarations and
** error messages, on hand-written PTX.  Expected fields follow the PTX ISA
** (operand order, modifiers) and ptx.h's conventions; literal bits are the
** IEEE 754 encodings. */
#include "tests/unit/tt.h"
#include "ptx/ptx.h"

static tp_err err;

static ptx_module *parse(const char *text)
{
    tp_err_clear(&err);
    return ptx_parse(text, strlen(text), "t.ptx", &err);
}

#define HEAD ".version 9.0\n.target sm_90\n.address_size 64\n"

/* A kernel with registers of every class, wrapped around body. */
static char *kernel(const char *body)
{
    static const char pre[] =
        HEAD
        ".func (.param .b32 fr) f2 (.param .b32 fa)\n{\n .reg .b32 %t;\n ld.param.b32 %t, [fa];\n"
        " st.param.b32 [fr], %t;\n ret;\n}\n"
        ".visible .entry forms(.param .u64 p, .param .align 8 .b8 s[16])\n{\n"
        " .reg .pred %p<4>;\n .reg .b16 %h<8>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<16>;\n"
        " .reg .f32 %f<16>;\n .reg .f64 %fd<8>;\n"
        " .shared .align 16 .b8 sm[64];\n .local .align 16 .b8 lm[64];\n";
    size_t n = strlen(pre) + strlen(body) + 64;
    char *s = malloc(n);
    snprintf(s, n, "%s%s\nL_end:\n ret;\n}\n", pre, body);
    return s;
}

typedef struct form {
    const char *text;
    int op, type, type2, sub;
    uint32_t flags;  /* must all be set */
    int ndst, nopnd;
} form;

#define T(x) PTX_T_##x
#define O(x) PTX_OP_##x
#define S(x) PTX_SUB_##x
#define MF(x) PTX_MF_##x

static const form forms[] = {
    {"add.cc.u32 %r1, %r2, %r3;", O(ADD), T(U32), 0, 0, MF(CC), 1, 3},
    {"addc.cc.u32 %r1, %r2, %r3;", O(ADDC), T(U32), 0, 0, MF(CC), 1, 3},
    {"addc.u32 %r1, %r2, %r3;", O(ADDC), T(U32), 0, 0, 0, 1, 3},
    {"and.b16 %h1, %h2, %h3;", O(AND), T(B16), 0, 0, 0, 1, 3},
    {"and.pred %p1, %p2, %p3;", O(AND), T(PRED), 0, 0, 0, 1, 3},
    {"atom.global.add.u32 %r1, [%rd1], %r2;", O(ATOM), T(U32), 0, S(ADD), 0, 1, 3},
    {"atom.shared.or.b32 %r1, [%r2], %r3;", O(ATOM), T(B32), 0, S(OR), 0, 1, 3},
    {"bar.sync 0;", O(BAR), 0, 0, S(SYNC), 0, 0, 1},
    {"bar.sync 1, 128;", O(BAR), 0, 0, S(SYNC), 0, 0, 2},
    {"bfi.b64 %rd1, %rd2, %rd3, %r1, %r2;", O(BFI), T(B64), 0, 0, 0, 1, 5},
    {"bra.uni L_end;", O(BRA), 0, 0, 0, MF(UNI), 0, 1},
    {"clz.b64 %r1, %rd1;", O(CLZ), T(B64), 0, 0, 0, 1, 2},
    {"copysign.f32 %f1, %f2, %f3;", O(COPYSIGN), T(F32), 0, 0, 0, 1, 3},
    {"cvt.rmi.f32.f32 %f1, %f2;", O(CVT), T(F32), T(F32), 0, 0, 1, 2},
    {"cvt.rn.f32.u16 %f1, %h1;", O(CVT), T(F32), T(U16), 0, 0, 1, 2},
    {"cvt.rni.s32.f64 %r1, %fd1;", O(CVT), T(S32), T(F64), 0, 0, 1, 2},
    {"cvt.rzi.u32.f32 %r1, %f1;", O(CVT), T(U32), T(F32), 0, 0, 1, 2},
    {"cvt.sat.f32.f32 %f1, %f2;", O(CVT), T(F32), T(F32), 0, MF(SAT), 1, 2},
    {"cvt.u16.u64 %h1, %rd1;", O(CVT), T(U16), T(U64), 0, 0, 1, 2},
    {"cvta.to.global.u64 %rd1, %rd2;", O(CVTA), T(U64), 0, 0, MF(TO), 1, 2},
    {"div.approx.f32 %f1, %f2, %f3;", O(DIV), T(F32), 0, 0, MF(APPROX), 1, 3},
    {"div.rn.f64 %fd1, %fd2, %fd3;", O(DIV), T(F64), 0, 0, 0, 1, 3},
    {"ex2.approx.ftz.f32 %f1, %f2;", O(EX2), T(F32), 0, 0, MF(APPROX) | MF(FTZ), 1, 2},
    {"fma.rm.f32 %f1, %f2, %f3, %f4;", O(FMA), T(F32), 0, 0, 0, 1, 4},
    {"fma.rz.f32 %f1, %f2, %f3, %f4;", O(FMA), T(F32), 0, 0, 0, 1, 4},
    {"ld.const.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];", O(LD), T(F32), 0, 0, 0, 1, 2},
    {"ld.global.nc.v2.f64 {%fd1, %fd2}, [%rd1+16];", O(LD), T(F64), 0, 0, MF(NC), 1, 2},
    {"ld.global.v4.u16 {%h1, %h2, %h3, %h4}, [%rd1];", O(LD), T(U16), 0, 0, 0, 1, 2},
    {"ld.global.v4.u8 {%h1, %h2, %h3, %h4}, [%rd1];", O(LD), T(U8), 0, 0, 0, 1, 2},
    {"ld.local.v4.f32 {%f1, %f2, %f3, %f4}, [lm];", O(LD), T(F32), 0, 0, 0, 1, 2},
    {"ld.param.b32 %r1, [p+4];", O(LD), T(B32), 0, 0, 0, 1, 2},
    {"ld.shared.v4.u8 {%h1, %h2, %h3, %h4}, [sm+4];", O(LD), T(U8), 0, 0, 0, 1, 2},
    {"mad.lo.cc.u32 %r1, %r2, %r3, %r4;", O(MAD), T(U32), 0, S(LO), MF(CC), 1, 4},
    {"mad.wide.u32 %rd1, %r2, %r3, %rd4;", O(MAD), T(U32), 0, S(WIDE), 0, 1, 4},
    {"madc.hi.cc.u32 %r1, %r2, %r3, %r4;", O(MADC), T(U32), 0, S(HI), MF(CC), 1, 4},
    {"madc.lo.cc.u32 %r1, %r2, %r3, %r4;", O(MADC), T(U32), 0, S(LO), MF(CC), 1, 4},
    {"mov.pred %p1, %p2;", O(MOV), T(PRED), 0, 0, 0, 1, 2},
    {"mul.hi.s32 %r1, %r2, %r3;", O(MUL), T(S32), 0, S(HI), 0, 1, 3},
    {"mul.wide.u16 %r1, %h1, %h2;", O(MUL), T(U16), 0, S(WIDE), 0, 1, 3},
    {"neg.s64 %rd1, %rd2;", O(NEG), T(S64), 0, 0, 0, 1, 2},
    {"not.pred %p1, %p2;", O(NOT), T(PRED), 0, 0, 0, 1, 2},
    {"or.pred %p1, %p2, %p3;", O(OR), T(PRED), 0, 0, 0, 1, 3},
    {"prmt.b32 %r1, %r2, %r3, 0x3210;", O(PRMT), T(B32), 0, 0, 0, 1, 4},
    {"prmt.b32.f4e %r1, %r2, %r3, %r4;", O(PRMT), T(B32), 0, S(F4E), 0, 1, 4},
    {"rcp.approx.ftz.f64 %fd1, %fd2;", O(RCP), T(F64), 0, 0, MF(APPROX) | MF(FTZ), 1, 2},
    {"rcp.rn.f64 %fd1, %fd2;", O(RCP), T(F64), 0, 0, 0, 1, 2},
    {"rem.s32 %r1, %r2, %r3;", O(REM), T(S32), 0, 0, 0, 1, 3},
    {"rsqrt.approx.f32 %f1, %f2;", O(RSQRT), T(F32), 0, 0, MF(APPROX), 1, 2},
    {"selp.f64 %fd1, %fd2, %fd3, %p1;", O(SELP), T(F64), 0, 0, 0, 1, 4},
    {"setp.eq.s16 %p1, %h1, %h2;", O(SETP), T(S16), 0, 0, 0, 1, 3},
    {"setp.geu.f32 %p1, %f1, %f2;", O(SETP), T(F32), 0, 0, 0, 1, 3},
    {"setp.gt.u16 %p1, %h1, %h2;", O(SETP), T(U16), 0, 0, 0, 1, 3},
    {"setp.lt.u64 %p1|%p2, %rd1, %rd2;", O(SETP), T(U64), 0, 0, 0, 2, 4},
    {"setp.lt.and.s32 %p1, %r1, %r2, !%p3;", O(SETP), T(S32), 0, 0, 0, 1, 4},
    {"shl.b16 %h1, %h2, 3;", O(SHL), T(B16), 0, 0, 0, 1, 3},
    {"shr.u16 %h1, %h2, %r1;", O(SHR), T(U16), 0, 0, 0, 1, 3},
    {"sqrt.rn.f32 %f1, %f2;", O(SQRT), T(F32), 0, 0, 0, 1, 2},
    {"st.f32 [%rd1], %f1;", O(ST), T(F32), 0, 0, 0, 0, 2},
    {"st.global.v4.u8 [%rd1], {%h1, %h2, %h3, %h4};", O(ST), T(U8), 0, 0, 0, 0, 2},
    {"st.local.v4.f32 [lm], {%f1, %f2, %f3, %f4};", O(ST), T(F32), 0, 0, 0, 0, 2},
    {"st.shared.v4.u8 [sm], {%h1, %h2, %h3, %h4};", O(ST), T(U8), 0, 0, 0, 0, 2},
    {"sub.cc.u32 %r1, %r2, %r3;", O(SUB), T(U32), 0, 0, MF(CC), 1, 3},
    {"subc.cc.u32 %r1, %r2, %r3;", O(SUBC), T(U32), 0, 0, MF(CC), 1, 3},
    {"xor.pred %p1, %p2, %p3;", O(XOR), T(PRED), 0, 0, 0, 1, 3},
    {"shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;", O(SHFL), T(B32), 0, S(UP), MF(SYNC), 2, 6},
    {"shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;", O(SHFL), T(B32), 0, S(DOWN), MF(SYNC), 2, 6},
    {"shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;", O(SHFL), T(B32), 0, S(BFLY), MF(SYNC), 2, 6},
    {"shfl.sync.idx.b32 %r1, %r2, 1, 31, -1;", O(SHFL), T(B32), 0, S(IDX), MF(SYNC), 1, 5},
    {"vote.sync.any.pred %p1, %p2, -1;", O(VOTE), T(PRED), 0, S(ANY), MF(SYNC), 1, 3},
    {"vote.sync.all.pred %p1, !%p2, -1;", O(VOTE), T(PRED), 0, S(ALL), MF(SYNC), 1, 3},
    {"vote.sync.uni.pred %p1, %p2, -1;", O(VOTE), T(PRED), 0, S(UNI), MF(SYNC), 1, 3},
    {"vote.sync.ballot.b32 %r1, %p2, -1;", O(VOTE), T(B32), 0, S(BALLOT), MF(SYNC), 1, 3},
    {"vote.ballot.sync.b32 %r1, %p2, %r3;", O(VOTE), T(B32), 0, S(BALLOT), MF(SYNC), 1, 3},
    {"match.any.sync.b32 %r1, %r2, -1;", O(MATCH), T(B32), 0, S(ANY), MF(SYNC), 1, 3},
    {"match.all.sync.b32 %r1|%p1, %r2, -1;", O(MATCH), T(B32), 0, S(ALL), MF(SYNC), 2, 4},
    {"activemask.b32 %r1;", O(ACTIVEMASK), T(B32), 0, 0, 0, 1, 1},
    {"redux.sync.add.u32 %r1, %r2, -1;", O(REDUX), T(U32), 0, S(ADD), MF(SYNC), 1, 3},
    {"bar.red.popc.u32 %r1, 0, %p1;", O(BAR), T(U32), 0, S(RED), 0, 1, 3},
    {"bar.red.and.pred %p1, 0, !%p2;", O(BAR), T(PRED), 0, S(RED), 0, 1, 3},
    {"bar.red.or.pred %p1, 1, 64, %p2;", O(BAR), T(PRED), 0, S(RED), 0, 1, 4},
    {"barrier.sync 0;", O(BARRIER), 0, 0, S(SYNC), 0, 0, 1},
    {"barrier.sync.aligned 0;", O(BARRIER), 0, 0, S(SYNC), MF(ALIGNED), 0, 1},
    {"bar.arrive 1, 64;", O(BAR), 0, 0, S(ARRIVE), 0, 0, 2},
    {"bar.warp.sync -1;", O(BAR), 0, 0, S(WARPSYNC), 0, 0, 1},
    {"membar.cta;", O(MEMBAR), 0, 0, 0, 0, 0, 0},
    {"membar.gl;", O(MEMBAR), 0, 0, 0, 0, 0, 0},
    {"membar.sys;", O(MEMBAR), 0, 0, 0, 0, 0, 0},
    {"fence.acq_rel.gpu;", O(FENCE), 0, 0, 0, 0, 0, 0},
    {"nanosleep.u32 %r1;", O(NANOSLEEP), T(U32), 0, 0, 0, 0, 1},
    {"atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", O(ATOM), T(B32), 0, S(CAS), 0, 1, 4},
    {"atom.global.exch.b32 %r1, [%rd1], %r2;", O(ATOM), T(B32), 0, S(EXCH), 0, 1, 3},
    {"atom.global.inc.u32 %r1, [%rd1], %r2;", O(ATOM), T(U32), 0, S(INC), 0, 1, 3},
    {"atom.global.dec.u32 %r1, [%rd1], %r2;", O(ATOM), T(U32), 0, S(DEC), 0, 1, 3},
    {"atom.global.min.s32 %r1, [%rd1], %r2;", O(ATOM), T(S32), 0, S(MIN), 0, 1, 3},
    {"atom.global.max.u32 %r1, [%rd1], %r2;", O(ATOM), T(U32), 0, S(MAX), 0, 1, 3},
    {"atom.global.min.u64 %rd1, [%rd2], %rd3;", O(ATOM), T(U64), 0, S(MIN), 0, 1, 3},
    {"atom.global.max.s64 %rd1, [%rd2], %rd3;", O(ATOM), T(S64), 0, S(MAX), 0, 1, 3},
    {"atom.global.cas.b64 %rd1, [%rd2], %rd3, %rd4;", O(ATOM), T(B64), 0, S(CAS), 0, 1, 4},
    {"atom.global.exch.b64 %rd1, [%rd2], %rd3;", O(ATOM), T(B64), 0, S(EXCH), 0, 1, 3},
    {"atom.global.add.f32 %f1, [%rd1], %f2;", O(ATOM), T(F32), 0, S(ADD), 0, 1, 3},
    {"atom.global.add.f64 %fd1, [%rd1], %fd2;", O(ATOM), T(F64), 0, S(ADD), 0, 1, 3},
    {"atom.global.add.u64 %rd1, [%rd2], 1;", O(ATOM), T(U64), 0, S(ADD), 0, 1, 3},
    {"red.global.add.u32 [%rd1], %r1;", O(RED), T(U32), 0, S(ADD), 0, 0, 2},
    {"tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];", O(TEX), T(S32), T(S32), S(1D), 0, 1, 3},
    {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", O(TEX), T(F32), T(F32), S(2D), 0, 1, 3},
    {"suld.b.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r6}];", O(SULD), T(B32), 0, S(2D),
     MF(B) | MF(TRAP), 1, 3},
    {"sust.b.2d.v4.b32.trap [%rd1, {%r5, %r6}], {%r1, %r2, %r3, %r4};", O(SUST), T(B32), 0, S(2D),
     MF(B) | MF(TRAP), 0, 3},
    {"txq.width.b32 %r1, [%rd1];", O(TXQ), T(B32), 0, S(Q_WIDTH), 0, 1, 2},
    {"testp.finite.f32 %p1, %f1;", O(TESTP), T(F32), 0, S(FINITE), 0, 1, 2},
    {"bfind.shiftamt.u32 %r1, %r2;", O(BFIND), T(U32), 0, 0, MF(SHIFTAMT), 1, 2},
    {"brev.b32 %r1, %r2;", O(BREV), T(B32), 0, 0, 0, 1, 2},
    {"popc.b64 %r1, %rd1;", O(POPC), T(B64), 0, 0, 0, 1, 2},
    {"fns.b32 %r1, %r2, %r3, 1;", O(FNS), T(B32), 0, 0, 0, 1, 4},
    {"shf.l.wrap.b32 %r1, %r2, %r3, %r4;", O(SHF), T(B32), 0, S(L), MF(WRAP), 1, 4},
    {"shf.r.clamp.b32 %r1, %r2, %r3, %r4;", O(SHF), T(B32), 0, S(R), MF(CLAMP), 1, 4},
    {"lop3.b32 %r1, %r2, %r3, %r4, 0xE8;", O(LOP3), T(B32), 0, 0, 0, 1, 5},
    {"dp4a.u32.u32 %r1, %r2, %r3, %r4;", O(DP4A), T(U32), T(U32), 0, 0, 1, 4},
    {"dp2a.lo.s32.u32 %r1, %r2, %r3, %r4;", O(DP2A), T(S32), T(U32), S(LO), 0, 1, 4},
    {"sad.s32 %r1, %r2, %r3, %r4;", O(SAD), T(S32), 0, 0, 0, 1, 4},
    {"mul24.lo.s32 %r1, %r2, %r3;", O(MUL24), T(S32), 0, S(LO), 0, 1, 3},
    {"cvt.rn.f16.f32 %h1, %f1;", O(CVT), T(F16), T(F32), 0, 0, 1, 2},
    {"cvt.f32.f16 %f1, %h1;", O(CVT), T(F32), T(F16), 0, 0, 1, 2},
    {"cvt.rn.bf16.f32 %h1, %f1;", O(CVT), T(BF16), T(F32), 0, 0, 1, 2},
    {"cvt.rn.f16x2.f32 %r1, %f1, %f2;", O(CVT), T(F16X2), T(F32), 0, 0, 1, 3},
    {"fma.rn.bf16 %h1, %h2, %h3, %h4;", O(FMA), T(BF16), 0, 0, 0, 1, 4},
    {"add.f16 %h1, %h2, %h3;", O(ADD), T(F16), 0, 0, 0, 1, 3},
    {"add.f16x2 %r1, %r2, %r3;", O(ADD), T(F16X2), 0, 0, 0, 1, 3},
    {"mov.b32 {%h1, %h2}, %r1;", O(MOV), T(B32), 0, 0, 0, 1, 2},
    {"mov.b32 %r1, {%h1, %h2};", O(MOV), T(B32), 0, 0, 0, 1, 2},
    {"mov.b64 {%r1, _}, %rd1;", O(MOV), T(B64), 0, 0, 0, 1, 2},
    {"isspacep.global %p1, %rd1;", O(ISSPACEP), 0, 0, 0, 0, 1, 2},
    {"cvta.shared.u64 %rd1, %rd2;", O(CVTA), T(U64), 0, 0, 0, 1, 2},
    {"cvta.to.shared.u32 %r1, %r2;", O(CVTA), T(U32), 0, 0, MF(TO), 1, 2},
    {"cvta.global.u64 %rd1, p;", O(CVTA), T(U64), 0, 0, 0, 1, 2},
    {"ld.shared::cta.u32 %r1, [%r2];", O(LD), T(U32), 0, 0, 0, 1, 2},
    {"prefetch.global.L2 [%rd1];", O(PREFETCH), 0, 0, 0, 0, 0, 1},
    {"prefetch.global.L2::evict_last [%rd1];", O(PREFETCH), 0, 0, 0, 0, 0, 1},
    {"ldu.global.u32 %r1, [%rd1];", O(LDU), T(U32), 0, 0, 0, 1, 2},
    {"ld.global.L2::cache_hint.b32 %r1, [%rd1], %rd2;", O(LD), T(B32), 0, 0, 0, 1, 2},
    {"ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];", O(LD), T(U32), 0, 0,
     MF(NC), 1, 2},
    {"ld.relaxed.gpu.global.v2.u32 {%r1, %r2}, [%rd1];", O(LD), T(U32), 0, 0, 0, 1, 2},
    {"st.release.sys.global.u32 [%rd1], %r1;", O(ST), T(U32), 0, 0, 0, 0, 2},
    {"ld.volatile.shared.u32 %r1, [%r2];", O(LD), T(U32), 0, 0, 0, 1, 2},
    {"bmsk.clamp.b32 %r1, %r2, %r3;", O(BMSK), T(B32), 0, 0, MF(CLAMP), 1, 3},
    {"szext.wrap.s32 %r1, %r2, %r3;", O(SZEXT), T(S32), 0, 0, MF(WRAP), 1, 3},
    {"set.lt.u32.f32 %r1, %f1, %f2;", O(SET), T(U32), T(F32), 0, 0, 1, 3},
    {"slct.f32.s32 %f1, %f2, %f3, %r1;", O(SLCT), T(F32), T(S32), 0, 0, 1, 4},
    {"tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", O(TLD4), T(F32), T(F32), S(2D), 0, 1, 3},
    {"elect.sync %r1|%p1, -1;", O(ELECT), 0, 0, 0, MF(SYNC), 2, 3},
    {"min.NaN.f32 %f1, %f2, %f3;", O(MIN), T(F32), 0, 0, MF(NAN), 1, 3},
    {"max.xorsign.abs.f32 %f1, %f2, %f3;", O(MAX), T(F32), 0, 0, MF(XORSIGN) | MF(ABS), 1, 3},
    {"tanh.approx.f32 %f1, %f2;", O(TANH), T(F32), 0, 0, MF(APPROX), 1, 2},
    {"mov.u32 %r1, %laneid;", O(MOV), T(U32), 0, 0, 0, 1, 2},
    {"mov.u64 %rd1, %clock64;", O(MOV), T(U64), 0, 0, 0, 1, 2},
    {"mov.u32 %r1, %envreg3;", O(MOV), T(U32), 0, 0, 0, 1, 2},
    {"mov.u32 %r1, %lanemask_lt;", O(MOV), T(U32), 0, 0, 0, 1, 2},
    {"mov.u64 %rd1, f2;", O(MOV), T(U64), 0, 0, 0, 1, 2},
    {"mov.u64 %rd1, sm+8;", O(MOV), T(U64), 0, 0, 0, 1, 2},
    {"cnot.b32 %r1, %r2;", O(CNOT), T(B32), 0, 0, 0, 1, 2},
    {"abs.ftz.f32 %f1, %f2;", O(ABS), T(F32), 0, 0, MF(FTZ), 1, 2},
    {"bfe.u32 %r1, %r2, 8, 4;", O(BFE), T(U32), 0, 0, 0, 1, 4},
    {"getctarank.shared::cluster.u32 %r1, %r2;", O(GETCTARANK), T(U32), 0, 0, 0, 1, 2},
    {"trap;", O(TRAP), 0, 0, 0, 0, 0, 0},
    {"exit;", O(EXIT), 0, 0, 0, 0, 0, 0},
    {"brkpt;", O(BRKPT), 0, 0, 0, 0, 0, 0},
    {"pmevent 1;", O(PMEVENT), 0, 0, 0, 0, 0, 1},
    {"@!%p1 ret.uni;", O(RET), 0, 0, 0, MF(UNI), 0, 0},
};

static void t_forms(void)
{
    tp_sbuf body;
    tp_sbuf_init(&body);
    for (size_t i = 0; i < TP_ARRAY_LEN(forms); i++) tp_sbuf_printf(&body, " %s\n", forms[i].text);
    char *text = kernel(tp_sbuf_str(&body));
    ptx_module *m = parse(text);
    if (!m) printf("    %s\n", err.msg);
    TT_CHECK(m != NULL);
    if (m) {
        const ptx_func *k = &m->funcs[ptx_find_func(m, "forms")];
        TT_EQ_U(k->end - k->start, TP_ARRAY_LEN(forms) + 2);
        for (size_t i = 0; i < TP_ARRAY_LEN(forms) && k->start + i < k->end; i++) {
            const form *f = &forms[i];
            const ptx_insn *in = &m->insns[k->start + i];
            int bad = in->op != f->op || in->type != f->type || in->type2 != f->type2 ||
                      in->m.sub != f->sub || (in->m.flags & f->flags) != f->flags ||
                      in->ndst != f->ndst || in->nopnd != f->nopnd;
            tt_nchecks++;
            if (bad)
                tt_fail_msg(__FILE__, __LINE__, "%s: op %u type %u/%u sub %u flags %x ndst %u nopnd %u",
                            f->text, in->op, in->type, in->type2, in->m.sub, in->m.flags, in->ndst,
                            in->nopnd);
        }
        ptx_module_free(m);
    }
    free(text);
    tp_sbuf_free(&body);
}

/* Field details that the table does not cover. */
static const ptx_insn *one(ptx_module **mp, const char *insn)
{
    char *text = kernel(insn);
    *mp = parse(text);
    free(text);
    if (!*mp) {
        printf("    %s\n", err.msg);
        return NULL;
    }
    const ptx_func *k = &(*mp)->funcs[ptx_find_func(*mp, "forms")];
    return &(*mp)->insns[k->start];
}

static void t_form_details(void)
{
    ptx_module *m;
    const ptx_insn *in;
    /* a kernel's rows: %h0.. come first (after no other regs), then %r, %rd, %f, %fd */
    if ((in = one(&m, "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;"))) {
        TT_EQ_U(in->m.cmp, PTX_CMP_LT);
        TT_EQ_U(in->m.bop, PTX_BOP_AND);
        TT_EQ_U(in->o[0].kind, PTX_OK_PRED);
        TT_EQ_I(in->o[0].r, 1);
        TT_EQ_I(in->o[1].r, 2);
        TT_EQ_I(in->o[2].r, 8 + 1); /* %h<8> then %r1 */
        TT_EQ_U(in->o[4].kind, PTX_OK_PRED);
        TT_EQ_U(in->o[4].flags, PTX_OF_NEG);
        TT_EQ_I(in->o[4].r, 3);
    }
    ptx_module_free(m);
    if ((in = one(&m, "@!%p2 bra L_end;"))) {
        TT_EQ_I(in->guard, 2);
        TT_EQ_I(in->guard_neg, 1);
        TT_EQ_I(in->o[0].r, (int32_t)(m->funcs[ptx_find_func(m, "forms")].start + 1));
    }
    ptx_module_free(m);
    if ((in = one(&m, "mov.u32 %r1, %ctaid.z;"))) {
        TT_EQ_U(in->o[1].kind, PTX_OK_SREG);
        TT_EQ_I(in->o[1].r, PTX_SR_CTAID);
        TT_EQ_I(in->o[1].imm, 2);
    }
    ptx_module_free(m);
    if ((in = one(&m, "mov.u32 %r1, %envreg7;"))) {
        TT_EQ_I(in->o[1].r, PTX_SR_ENVREG);
        TT_EQ_I(in->o[1].imm, 7);
    }
    ptx_module_free(m);
    /* the rest of the PTX ISA's predefined identifiers */
    static const struct { const char *text; int sr; int comp; } sregs[] = {
        {"mov.u32 %r1, %aggr_smem_size;", PTX_SR_AGGR_SMEM_SIZE, 0},
        {"mov.u64 %rd1, %current_graph_exec;", PTX_SR_CURRENT_GRAPH_EXEC, 0},
        {"mov.u32 %r1, %reserved_smem_offset_begin;", PTX_SR_RESERVED_SMEM_OFFSET_BEGIN, 0},
        {"mov.u32 %r1, %reserved_smem_offset_end;", PTX_SR_RESERVED_SMEM_OFFSET_END, 0},
        {"mov.u32 %r1, %reserved_smem_offset_cap;", PTX_SR_RESERVED_SMEM_OFFSET_CAP, 0},
        {"mov.u32 %r1, %reserved_smem_offset_0;", PTX_SR_RESERVED_SMEM_OFFSET, 0},
        {"mov.u32 %r1, %reserved_smem_offset_1;", PTX_SR_RESERVED_SMEM_OFFSET, 1},
        {"mov.u32 %r1, %envreg31;", PTX_SR_ENVREG, 31},
        {"mov.u32 %r1, %pm7;", PTX_SR_PM, 7},
        {"mov.u64 %rd1, %pm2_64;", PTX_SR_PM, 8 + 2},
        {"mov.u32 %r1, %nwarpid;", PTX_SR_NWARPID, 0},
        {"mov.u32 %r1, %clock_hi;", PTX_SR_CLOCK_HI, 0},
    };
    for (size_t i = 0; i < TP_ARRAY_LEN(sregs); i++) {
        if ((in = one(&m, sregs[i].text))) {
            TT_EQ_U(in->o[1].kind, PTX_OK_SREG);
            TT_EQ_I(in->o[1].r, sregs[i].sr);
            TT_EQ_I(in->o[1].imm, sregs[i].comp);
        } else {
            tt_fail_msg(__FILE__, __LINE__, "%s: %s", sregs[i].text, err.msg);
        }
        ptx_module_free(m);
    }
    /* WARP_SZ as an absolute address and in an address offset */
    if ((in = one(&m, "ld.global.u32 %r1, [WARP_SZ];"))) {
        TT_EQ_U(in->o[1].base, PTX_AB_NONE);
        TT_EQ_I(in->o[1].imm, 32);
    }
    ptx_module_free(m);
    if ((in = one(&m, "ld.global.u32 %r1, [%rd3+WARP_SZ*4];"))) {
        TT_EQ_U(in->o[1].base, PTX_AB_REG);
        TT_EQ_I(in->o[1].imm, 128);
    }
    ptx_module_free(m);
    /* in an initializer; and a declaration of that name shadows the constant */
    m = parse(HEAD ".global .u32 ws[2] = {WARP_SZ, WARP_SZ/2};\n");
    TT_CHECK(m != NULL);
    if (m) {
        TT_EQ_U(m->nvars, 1);
        uint32_t w[2];
        memcpy(w, m->vars[0].init, sizeof w);
        TT_EQ_U(w[0], 32);
        TT_EQ_U(w[1], 16);
        ptx_module_free(m);
    }
    m = parse(HEAD ".global .u32 WARP_SZ;\n.entry k(.param .u64 p)\n{\n .reg .b64 %rd<2>;\n"
                   " mov.u64 %rd1, WARP_SZ;\n ret;\n}\n");
    TT_CHECK(m != NULL);
    if (m) {
        const ptx_insn *mv = &m->insns[m->funcs[ptx_find_func(m, "k")].start];
        TT_EQ_U(mv->o[1].kind, PTX_OK_SYM);
        TT_EQ_I(mv->o[1].r, 0);
        ptx_module_free(m);
    }
    if ((in = one(&m, "mov.u64 %rd1, f2;"))) {
        TT_EQ_U(in->o[1].kind, PTX_OK_FUNC);
        TT_EQ_I(in->o[1].r, ptx_find_func(m, "f2"));
    }
    ptx_module_free(m);
    /* sm+8: function-scope shared variable 0, offset 8 */
    if ((in = one(&m, "mov.u64 %rd1, sm+8;"))) {
        TT_EQ_U(in->o[1].kind, PTX_OK_SYM);
        TT_EQ_I(in->o[1].r, PTX_SYM_FVAR + 0);
        TT_EQ_I(in->o[1].imm, 8);
    }
    ptx_module_free(m);
    if ((in = one(&m, "ld.param.u64 %rd1, [s+8];"))) {
        TT_EQ_I(in->o[1].r, PTX_SYM_PARAM + 1);
        TT_EQ_I(in->o[1].imm, 8);
    }
    ptx_module_free(m);
    if ((in = one(&m, "ld.global.u32 %r1, [64];"))) {
        TT_EQ_U(in->o[1].base, PTX_AB_NONE);
        TT_EQ_I(in->o[1].imm, 64);
    }
    ptx_module_free(m);
    if ((in = one(&m, "ld.global.u32 %r1, [%rd3-8];"))) {
        TT_EQ_U(in->o[1].base, PTX_AB_REG);
        TT_EQ_I(in->o[1].imm, -8);
    }
    ptx_module_free(m);
    /* mov.b64 {%r1, _}, %rd1: a sink inside the vector */
    if ((in = one(&m, "mov.b64 {%r1, _}, %rd1;"))) {
        TT_EQ_U(m->pool[in->o[0].r + 1].kind, PTX_OK_SINK);
        TT_EQ_U(m->pool[in->o[0].r].kind, PTX_OK_REG);
    }
    ptx_module_free(m);
    /* mov.b32 %r1, {0, %h1}: the immediate is a 16-bit element */
    if ((in = one(&m, "mov.b32 %r1, {0x3c00, %h1};"))) {
        TT_EQ_U(m->pool[in->o[1].r].kind, PTX_OK_IMM);
        TT_EQ_I(m->pool[in->o[1].r].imm, 0x3c00);
        TT_EQ_I(m->pool[in->o[1].r].r, -1);
    }
    ptx_module_free(m);
    if ((in = one(&m, "ld.global.L2::cache_hint.b32 %r1, [%rd1], %rd2;"))) TT_EQ_U(in->nopnd, 2);
    ptx_module_free(m);
    if ((in = one(&m, "atom.relaxed.gpu.shared::cta.add.u32 %r1, [%r2], 1;"))) {
        TT_EQ_U(in->m.sem, PTX_SEM_RELAXED);
        TT_EQ_U(in->m.scope, PTX_SCOPE_GPU);
        TT_EQ_U(in->m.space, PTX_SP_SHARED);
    }
    ptx_module_free(m);
    if ((in = one(&m, "ld.shared::cluster.u32 %r1, [%r2];"))) TT_EQ_U(in->m.space, PTX_SP_SHARED_CLUSTER);
    ptx_module_free(m);
    if ((in = one(&m, "st.global.wt.u32 [%rd1], %r1;"))) TT_EQ_U(in->m.cache, PTX_CACHE_WT);
    ptx_module_free(m);
    if ((in = one(&m, "ld.global.cg.v2.u64 {%rd1, %rd2}, [%rd3];"))) {
        TT_EQ_U(in->m.cache, PTX_CACHE_CG);
        TT_EQ_U(in->m.vec, 2);
    }
    ptx_module_free(m);
    if ((in = one(&m, "cvt.rzi.ftz.sat.s32.f32 %r1, %f1;"))) {
        TT_EQ_U(in->m.rnd, PTX_RND_RZI);
        TT_CHECK((in->m.flags & (PTX_MF_FTZ | PTX_MF_SAT)) == (PTX_MF_FTZ | PTX_MF_SAT));
    }
    ptx_module_free(m);
    if ((in = one(&m, "fence.sc.cta;"))) {
        TT_EQ_U(in->m.sem, PTX_SEM_SC);
        TT_EQ_U(in->m.scope, PTX_SCOPE_CTA);
    }
    ptx_module_free(m);
    if ((in = one(&m, "membar.gl;"))) TT_EQ_U(in->m.scope, PTX_SCOPE_GPU);
    ptx_module_free(m);
    if ((in = one(&m, "testp.notanumber.f64 %p1, %fd1;"))) TT_EQ_U(in->m.sub, PTX_SUB_NOTANUMBER);
    ptx_module_free(m);
    if ((in = one(&m, "tld4.a.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];"))) {
        TT_EQ_U(in->m.sub2, PTX_SUB_COMP_A);
        TT_EQ_U(in->m.sub, PTX_SUB_2D);
    }
    ptx_module_free(m);
    /* a texture with a separate sampler: handle, sampler, coordinates */
    if ((in = one(&m, "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f5, %f6}];"))) {
        TT_EQ_U(in->nopnd, 4);
        TT_EQ_U(in->o[2].kind, PTX_OK_REG);
        TT_EQ_U(in->o[3].kind, PTX_OK_VEC);
    }
    ptx_module_free(m);
    if ((in = one(&m, "bar.red.and.pred %p1, 0, !%p2;"))) TT_EQ_U(in->o[2].flags, PTX_OF_NEG);
    ptx_module_free(m);
    if ((in = one(&m, "vote.sync.all.pred %p1, !%p2, -1;"))) TT_EQ_U(in->o[1].flags, PTX_OF_NEG);
    ptx_module_free(m);
}

/* Immediates: operand 'idx' of the instruction gets bits 'want'. */
typedef struct immcase {
    const char *text;
    int idx;
    uint64_t want;
} immcase;

static const immcase imms[] = {
    {"mov.u32 %r1, 42;", 1, 42},
    {"mov.u32 %r1, 0xFFFFFFFF;", 1, 0xFFFFFFFFull},
    {"mov.u32 %r1, 4294967295;", 1, 0xFFFFFFFFull},
    {"mov.s32 %r1, -1;", 1, 0xFFFFFFFFFFFFFFFFull},
    {"mov.u32 %r1, 017;", 1, 15},
    {"mov.u32 %r1, 0b101;", 1, 5},
    {"mov.u32 %r1, 7U;", 1, 7},
    {"mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;", 1, 0xFFFFFFFFFFFFFFFFull},
    {"mov.u64 %rd1, 18446744073709551615;", 1, 0xFFFFFFFFFFFFFFFFull},
    {"mov.u32 %r1, (1 << 4) + 2;", 1, 18},
    {"mov.u32 %r1, -(3 * 5);", 1, (uint64_t)-15},
    {"add.s32 %r1, %r2, -128;", 2, (uint64_t)-128},
    {"mov.b16 %h1, 0x8000U;", 1, 0x8000},
    {"mov.f32 %f1, 0f3F800000;", 1, 0x3F800000},
    {"mov.f32 %f1, 1.5;", 1, 0x3FC00000},
    {"mov.f32 %f1, 0.1;", 1, 0x3DCCCCCD},
    {"mov.f32 %f1, -0.0;", 1, 0x80000000},
    {"mov.f32 %f1, 1;", 1, 0x3F800000},            /* integer in a float op: its value */
    {"mov.f32 %f1, -2;", 1, 0xC0000000},
    {"mov.f32 %f1, 0d3FF0000000000000;", 1, 0x3F800000}, /* 0d in an f32 op: rounded */
    {"mov.f32 %f1, 0d3FF0000010000000;", 1, 0x3F800000}, /* 1 + 2^-24 ties to even */
    {"mov.f32 %f1, 0d3FF0000030000000;", 1, 0x3F800002}, /* 1 + 3*2^-24 ties up to even */
    {"mov.f32 %f1, -0f3F800000;", 1, 0xBF800000},
    {"mov.f64 %fd1, 0d3FF8000000000000;", 1, 0x3FF8000000000000ull},
    {"mov.f64 %fd1, 0f3F800000;", 1, 0x3FF0000000000000ull}, /* 0f widened */
    {"mov.f64 %fd1, 0f00000001;", 1, 0x36A0000000000000ull}, /* smallest f32 subnormal = 2^-149 */
    {"mov.f64 %fd1, 1.5;", 1, 0x3FF8000000000000ull},
    {"mov.f64 %fd1, -0.0;", 1, 0x8000000000000000ull},
    {"mov.f64 %fd1, 3;", 1, 0x4008000000000000ull},
    {"mov.f64 %fd1, 1e300;", 1, 0x7E37E43C8800759Cull},
    {"add.f16 %h1, %h2, 1.5;", 2, 0x3E00},
    {"add.f16 %h1, %h2, 0f3F800000;", 2, 0x3C00},
    {"add.f16 %h1, %h2, 0f3F800001;", 2, 0x3C00},      /* rounds to 1.0 */
    {"add.f16 %h1, %h2, 65520.0;", 2, 0x7C00},         /* halfway past 65504: +inf */
    {"add.f16 %h1, %h2, 65519.0;", 2, 0x7BFF},
    {"add.f16 %h1, %h2, 5.9604644775390625e-08;", 2, 0x0001}, /* 2^-24 */
    {"add.f16 %h1, %h2, 2.98023223876953125e-08;", 2, 0x0000}, /* 2^-25 ties to even: 0 */
    {"add.f16 %h1, %h2, -2;", 2, 0xC000},
    {"fma.rn.bf16 %h1, %h2, %h3, 1.5;", 3, 0x3FC0},
    {"fma.rn.bf16 %h1, %h2, %h3, 0f3F808000;", 3, 0x3F80},    /* tie: even */
    {"fma.rn.bf16 %h1, %h2, %h3, 0f3F818000;", 3, 0x3F82},    /* tie: up to even */
    {"add.f16x2 %r1, %r2, 0x3C003C00;", 2, 0x3C003C00},
    {"setp.lt.f32 %p1, %f1, 2;", 2, 0x40000000},
    {"set.lt.u32.f32 %r1, %f1, 1.0;", 2, 0x3F800000},
    {"slct.f32.s32 %f1, 1.0, %f2, -1;", 1, 0x3F800000},
    {"slct.f32.s32 %f1, 1.0, %f2, -1;", 3, 0xFFFFFFFFFFFFFFFFull},
    {"cvt.rn.f32.s32 %f1, 5;", 1, 5},
    {"cvt.f64.f32 %fd1, 1.5;", 1, 0x3FC00000},
    {"shl.b32 %r1, %r2, 3;", 2, 3},
    {"selp.f32 %f1, 0f3C0885E4, 0f3D2AAABB, %p1;", 2, 0x3D2AAABB},
    {"mov.b32 %r1, 0f3F800000;", 1, 0x3F800000},
    {"mov.b64 %rd1, 0d3FF0000000000000;", 1, 0x3FF0000000000000ull},
    {"mov.b32 %r1, 1.0;", 1, 0x3F800000},
    {"mov.pred %p1, 1;", 1, 1},
    {"st.global.f32 [%rd1], 2.0;", 1, 0x40000000},
    {"atom.global.add.f32 %f1, [%rd1], 1.0;", 2, 0x3F800000},
    {"bfe.u32 %r1, %r2, 8, 4;", 3, 4},
    {"bar.sync 1, 128;", 1, 128},
    /* WARP_SZ, the PTX ISA's predefined constant: 32, alone and in expressions */
    {"mov.u32 %r1, WARP_SZ;", 1, 32},
    {"add.s32 %r1, %r2, WARP_SZ-1;", 2, 31},
    {"shl.b32 %r1, %r2, (WARP_SZ >> 2) + 1;", 2, 9},
    {"mov.u64 %rd1, -WARP_SZ;", 1, 0xFFFFFFFFFFFFFFE0ull},
    {"mov.f32 %f1, WARP_SZ;", 1, 0x42000000},
    {"st.global.u32 [%rd1], WARP_SZ;", 1, 32},
};

static void t_immediates(void)
{
    for (size_t i = 0; i < TP_ARRAY_LEN(imms); i++) {
        ptx_module *m;
        const ptx_insn *in = one(&m, imms[i].text);
        tt_nchecks++;
        if (!in) {
            tt_fail_msg(__FILE__, __LINE__, "%s: %s", imms[i].text, err.msg);
            continue;
        }
        const ptx_opnd *o = &in->o[imms[i].idx];
        if (o->kind != PTX_OK_IMM || (uint64_t)o->imm != imms[i].want || o->r != -1)
            tt_fail_msg(__FILE__, __LINE__, "%s: operand %d kind %u imm 0x%llx, want 0x%llx",
                        imms[i].text, imms[i].idx, o->kind, (unsigned long long)o->imm,
                        (unsigned long long)imms[i].want);
        ptx_module_free(m);
    }
}

static void t_register_declarations(void)
{
    ptx_module *m = parse(HEAD
                          ".entry k()\n{\n"
                          " .reg .b32 %r<3>, x;\n"    /* rows 0,1,2 and 3 */
                          " .reg .b128 %q<2>;\n"      /* rows 4,5 and 6,7 */
                          " .reg .pred %p<2>, q;\n"   /* preds 0,1,2 */
                          " .reg .f32 %f;\n"          /* row 8 */
                          " mov.b32 %r2, x;\n"
                          " mov.b128 %q1, %q0;\n"
                          " {\n  .reg .b32 %r1;\n  .reg .pred %p1;\n  mov.b32 %r1, %r0;\n  @%p1 mov.b32 %r2, %r1;\n }\n"
                          " mov.b32 %r1, %r2;\n"
                          " { .reg .b32 %r<2>; mov.b32 %r1, %r2; }\n"
                          " setp.ne.b32 q, %r1, 0;\n"
                          " mov.f32 %f, 0f00000000;\n"
                          " ret;\n}\n");
    if (!m) printf("    %s\n", err.msg);
    TT_CHECK(m != NULL);
    if (!m) return;
    const ptx_func *k = &m->funcs[0];
    const ptx_insn *I = &m->insns[k->start];
    TT_EQ_U(k->nrows, 12);  /* 4 + 4 + 1 + inner %r1 + inner %r<2> */
    TT_EQ_U(k->npreds, 4);  /* %p0 %p1 q and the inner %p1 */
    TT_EQ_STR(k->regs[3].name, "x");
    TT_EQ_U(k->regs[4].type, PTX_T_B128);
    TT_EQ_U(k->regs[4].cont, 0);
    TT_EQ_U(k->regs[5].cont, 1);
    TT_EQ_STR(k->regs[6].name, "%q1");
    TT_EQ_STR(k->regs[8].name, "%f");
    TT_EQ_I(I[0].o[0].r, 2);
    TT_EQ_I(I[0].o[1].r, 3);
    TT_EQ_I(I[1].o[0].r, 6);  /* %q1 starts at row 6 */
    TT_EQ_I(I[1].o[1].r, 4);
    /* the inner block: %r1 and %p1 are new; %r0 and %r2 are the outer ones */
    TT_EQ_I(I[2].o[0].r, 9);
    TT_EQ_U(k->regs[9].scope, 1);
    TT_EQ_I(I[2].o[1].r, 0);
    TT_EQ_I(I[3].guard, 3);
    TT_EQ_I(I[3].o[0].r, 2);
    TT_EQ_I(I[3].o[1].r, 9);
    /* after the block, %r1 is the outer row 1 again */
    TT_EQ_I(I[4].o[0].r, 1);
    /* { .reg .b32 %r<2>; mov %r1, %r2 }: %r1 is the inner range, %r2 the outer */
    TT_EQ_I(I[5].o[0].r, 11);
    TT_EQ_I(I[5].o[1].r, 2);
    TT_EQ_I(I[6].o[0].r, 2);  /* q */
    TT_EQ_U(I[6].o[0].kind, PTX_OK_PRED);
    ptx_module_free(m);
}

typedef struct errcase {
    const char *text;
    const char *msg;
} errcase;

#define K(body) HEAD ".entry k()\n{\n .reg .b32 %r<4>;\n .reg .pred %p<2>;\n" body "\n ret;\n}\n"

static const errcase errs[] = {
    /* line 6 is the first body line after the two .reg lines */
    {K(" wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r0}, [%r1];"),
     "t.ptx:8:2: 'wmma.load': fragment operand has 1 register, this form needs 8"},
    {K(" mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r0}, {%r1}, {%r2}, {%r3}, %r0, 0;"),
     "t.ptx:8:2: unsupported PTX instruction 'mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32': tpsim does not execute this form"},
    {K(" mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%r0}, {%r1}, {%r2}, {%r3};"),
     "t.ptx:8:2: unsupported PTX instruction 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32': tpsim does not execute this form"},
    {K(" mma.sync.aligned.m16n8k8.row.col.f32.s8.s8.f32 {%r0}, {%r1}, {%r2}, {%r3};"),
     "t.ptx:8:2: unsupported PTX instruction 'mma.sync.aligned.m16n8k8.row.col.f32.s8.s8.f32': this accumulator type does not go with these multiplicands"},
    {K(" mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32 {%r0}, {%r1}, {%r2}, {%r3};"),
     "t.ptx:8:2: unsupported PTX instruction 'mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32': this form is .row.col only"},
    {K(" mma.sync.m16n8k8.row.col.f32.f16.f16.f32 {%r0}, {%r1}, {%r2}, {%r3};"),
     "t.ptx:8:2: 'mma' needs .sync.aligned"},
    {K(" mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32 {%r0, %r1}, {%r2}, {%r3}, {%r0, %r1};"),
     "t.ptx:8:2: unsupported PTX instruction 'mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32': b1 products need .xor.popc or .and.popc (and only they)"},
    {K(" mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%r0, %r1}, {%r2}, {%r3}, {%r0, %r1, %r2};"),
     "t.ptx:8:2: 'mma': fragment c has 3 registers, this form needs 2"},
    {K(" wmma.mma.sync.aligned.row.col.m16n16k16.f32 {%r0}, {%r1}, {%r2}, {%r3};"),
     "t.ptx:8:2: 'wmma.mma' needs 4 types, found 1"},
    {K(" wmma.frob.a.sync.aligned.row.m16n16k16.f16 {%r0}, [%r1];"),
     "t.ptx:8:2: unsupported PTX instruction 'wmma.frob.a.sync.aligned.row.m16n16k16.f16': no such operation"},
    {K(" ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r0}, [%r1];"),
     "t.ptx:8:2: unsupported PTX instruction 'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8': tpsim does not execute this form"},
    {K(" ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r0}, [%r1];"),
     "t.ptx:8:2: 'ldmatrix': fragment operand has 1 register, this form needs 2"},
    {K(" wgmma.fence.sync.aligned;"), "t.ptx:8:2: unsupported PTX instruction 'wgmma.fence.sync.aligned'"},
    {K(" cp.async.ca.shared.global [%r0], [%r1], 16;"),
     "t.ptx:8:2: unsupported PTX instruction 'cp.async.ca.shared.global'"},
    {K(" frob.u32 %r1, %r2;"), "t.ptx:8:2: unknown PTX instruction 'frob.u32'"},
    {K(" add.u32.foo %r1, %r2, %r3;"), "t.ptx:8:9: unknown modifier '.foo'"},
    {K(" add.global.u32 %r1, %r2, %r3;"), "t.ptx:8:5: modifier '.global' is not valid for 'add'"},
    {K(" add.u33 %r1, %r2, %r3;"), "t.ptx:8:5: unknown modifier '.u33'"},
    {K(" add.u16x2 %r1, %r2, %r3;"), "t.ptx:8:5: unsupported type '.u16x2'"},
    {K(" st.global.v2.u32 [%r0], {_, %r1};"), "t.ptx:8:27: '_' is not allowed here"},
    {K(" mov.u32 %tid.x, %r1;"), "t.ptx:8:10: special register '%tid' cannot be written here"},
    {K(" vabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r0;"), "t.ptx:8:2: unsupported PTX instruction 'vabsdiff4.u32.u32.u32'"},
    {K(" add.u32 %r1, %r2, %r9;"), "t.ptx:8:20: undefined register '%r9'"},
    {K(" add.u32 %r1, %r2, foo;"), "t.ptx:8:20: undefined identifier 'foo'"},
    {K(" bra nowhere;"), "t.ptx:8:6: undefined label 'nowhere'"},
    {K(" add.u32 %r1, %r2;"), "t.ptx:8:18: missing operand for 'add'"},
    {K(" add.u32 %r1, %r2, %r3, %r0;"), "t.ptx:8:23: too many operands for 'add'"},
    {K(" add.u32 %r1, %r2, %r3"), "t.ptx:9:2: expected ';', found 'ret'"},
    {K(" st.global.u32 %r1, %r2;"), "t.ptx:8:16: expected '[', found '%r1'"},
    {K(" add.u32 5, %r2, %r3;"), "t.ptx:8:10: expected a register, found '5'"},
    {K(" selp.u32 %r1, %r2, %r3, %r0;"), "t.ptx:8:26: expected a predicate, found '%r0'"},
    {K(" setp.eq.u32 %r1, %r2, %r3;"), "t.ptx:8:2: the destination of 'setp' must be a predicate"},
    {K(" @%r1 bra L;\nL:"), "t.ptx:8:3: guard '%r1' is not a predicate"},
    {K(" cvt.f32 %r1, %r2;"), "t.ptx:8:2: 'cvt' needs two types"},
    {K(" add %r1, %r2, %r3;"), "t.ptx:8:2: missing type for 'add'"},
    {K(" mov.u32 %r1, 0f3F80;"), "t.ptx:8:15: malformed f32 constant (0f needs 8 hex digits)"},
    {K(" mov.u32 %r1, 99999999999999999999;"), "t.ptx:8:15: integer constant does not fit in 64 bits"},
    {K(" mov.u32 %r1, %tid;"), "t.ptx:8:15: %tid needs a component .x, .y or .z"},
    {K(" mov.u32 %r1, %envreg32;"), "t.ptx:8:15: undefined register '%envreg32'"},
    {K(" mov.u32 %r1, %pm8;"), "t.ptx:8:15: undefined register '%pm8'"},
    {K(" mov.u32 %r1, %reserved_smem_offset_2;"), "t.ptx:8:15: undefined register '%reserved_smem_offset_2'"},
    {K(" mov.u32 %r1, %envreg01;"), "t.ptx:8:15: undefined register '%envreg01'"},
    {K(" mov.u32 WARP_SZ, %r1;"), "t.ptx:8:10: expected a register, found 'WARP_SZ'"},
    {K(" mov.u32 %r1, WARP_SIZE;"), "t.ptx:8:15: undefined identifier 'WARP_SIZE'"},
    {K(" .reg .b32 %r1;"), "t.ptx:8:12: redeclaration of '%r1'"},
    {K(" L:\n L:"), "t.ptx:9:2: redeclaration of 'L'"},
    {K(" call.uni nosuch, ();"), "t.ptx:8:11: undefined identifier 'nosuch'"},
    {K(" mov.u32 %r1, 1 $ 2;"), "t.ptx:8:17: expected ';', found '$'"},
    {K(" mov.u32 %r1, `;"), "t.ptx:8:15: unexpected character '`'"},
    {K(" /* open"), "t.ptx:8:2: unterminated comment"},
    {HEAD ".entry k()\n{\n ret;\n", "t.ptx:7:1: unexpected end of file in the body of 'k'"},
    {HEAD ".global .u32 a = b;\n", "t.ptx:4:18: undefined symbol 'b'"},
    {HEAD ".global .u32 a[2] = {1, 2, 3};\n", "t.ptx:4:28: too many initializers"},
    {HEAD ".global .b8 a = x;\n.global .u32 x;\n",
     "t.ptx:4:17: address of 'x' in a .b8 initializer (needs 4 or 8 bytes, or a byte mask)"},
    {HEAD ".frob 1\n", "t.ptx:4:1: unknown directive '.frob'"},
    {HEAD ".global .u32 a;\n.global .u32 a;\n", "t.ptx:5:14: redefinition of 'a'"},
    {HEAD ".func f(.param .b32 a)\n{\n ret;\n}\n.entry k()\n{\n .param .b32 x;\n call.uni f, (x, x);\n ret;\n}\n",
     "t.ptx:11:11: call of 'f' with 2 argument(s) and 0 return value(s); it takes 1 and 0"},
    {K(" ld.global.u32 %r1, [%p1];"), "t.ptx:8:22: predicate '%p1' cannot be an address"},
    {K(" add.u32 %r1, %p1, 1;"), "t.ptx:8:15: predicate '%p1' used where a data register is expected"},
    {K(" mov.u32 %r1, 1;\n bra $L;\n{\n$L:\n}"), "t.ptx:9:6: undefined label '$L'"},
    {".version 9.0\n.target sm_75\n.address_size 48\n", "t.ptx:3:15: address size must be 32 or 64"},
};

/* The tensor instructions: what the parser keeps of their qualifiers, and
** their printing (canonical order, reparsing to the same instruction). */
typedef struct tform {
    const char *text, *printed; /* printed: NULL when it prints as written */
    int op, shape;
    unsigned tens;
    uint8_t tty[4];
    int ndst, nopnd;
} tform;

#define TY(x) PTX_TT_##x
#define SH(x) PTX_SH_##x
static const tform tforms[] = {
    {"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r9;", NULL,
     O(WMMA_LOAD), SH(M16N16K16), PTX_FR_A, {TY(F16)}, 1, 3},
    {"wmma.load.b.sync.aligned.col.m32n8k16.shared.bf16 {%r1, %r2}, [%r9];", NULL, O(WMMA_LOAD), SH(M32N8K16),
     PTX_FR_B | PTX_TN_ACOL, {TY(BF16)}, 1, 2},
    {"wmma.load.c.sync.aligned.col.m8n8k4.f64 {%fd1, %fd2}, [%rd1], 8;", NULL, O(WMMA_LOAD), SH(M8N8K4),
     PTX_FR_C | PTX_TN_ACOL, {TY(F64)}, 1, 3},
    {"wmma.store.d.sync.aligned.row.m16n16k16.shared::cta.f32 [%r9], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 16;",
     "wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%r9], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 16;",
     O(WMMA_STORE), SH(M16N16K16), PTX_FR_D, {TY(F32)}, 0, 3},
    {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, "
     "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r10, %r11, %r12, %r13};",
     NULL, O(WMMA_MMA), SH(M16N16K16), PTX_TN_BCOL, {TY(F32), TY(F16), TY(F16), TY(F16)}, 1, 4},
    {"wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%fd1, %fd2}, {%fd3}, {%fd4}, {%fd1, %fd2};", NULL,
     O(WMMA_MMA), SH(M8N8K4), PTX_TN_BCOL, {TY(F64), TY(F64), TY(F64), TY(F64)}, 1, 4},
    {"wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1, %r2}, {%r3}, {%r4}, {%r1, %r2};", NULL,
     O(WMMA_MMA), SH(M8N8K128), PTX_TN_BCOL, {TY(S32), TY(B1), TY(B1), TY(S32)}, 1, 4},
    {"wmma.mma.sync.aligned.col.row.m32n8k16.s32.s8.u8.s32.satfinite {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, "
     "{%r1, %r2, %r3, %r4}, {%r5}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};", NULL,
     O(WMMA_MMA), SH(M32N8K16), PTX_TN_ACOL, {TY(S32), TY(S8), TY(U8), TY(S32)}, 1, 4},
    {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
     "{%f1, %f2, %f3, %f4};", NULL, O(MMA), SH(M16N8K16), PTX_TN_BCOL, {TY(F32), TY(BF16), TY(BF16), TY(F32)}, 1, 4},
    {"mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8}, {%r1, %r2, %r3, %r4};",
     NULL, O(MMA), SH(M8N8K4), PTX_TN_ACOL, {TY(F16), TY(F16), TY(F16), TY(F16)}, 1, 4},
    {"mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
     "{%r1, %r2, %r3, %r4};", NULL, O(MMA), SH(M16N8K256), PTX_TN_BCOL, {TY(S32), TY(B1), TY(B1), TY(S32)}, 1, 4},
    {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r5}, "
     "{%r1, %r2, %r3, %r4};", NULL, O(MMA), SH(M16N8K32), PTX_TN_BCOL, {TY(S32), TY(U4), TY(S4), TY(S32)}, 1, 4},
    {"mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%fd1, %fd2, %fd3, %fd4}, {%fd5, %fd6, %fd7, %fd1}, {%fd2, %fd3}, "
     "{%fd1, %fd2, %fd3, %fd4};", NULL, O(MMA), SH(M16N8K8), PTX_TN_BCOL, {TY(F64), TY(F64), TY(F64), TY(F64)}, 1, 4},
    {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
     "{0f00000000, 0f3F800000, %f3, %f4};", NULL, O(MMA), SH(M16N8K8), PTX_TN_BCOL,
     {TY(F32), TY(TF32), TY(TF32), TY(F32)}, 1, 4},
    {"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [%r9+16];", NULL, O(LDMATRIX), SH(M8N8),
     PTX_TN_TRANS | 2u << PTX_TN_NUM_SHIFT, {TY(B16)}, 1, 2},
    {"ldmatrix.sync.aligned.m8n8.x1.b16 %r1, [%rd1];", "ldmatrix.sync.aligned.m8n8.x1.b16 %r1, [%rd1];", O(LDMATRIX),
     SH(M8N8), 0, {TY(B16)}, 1, 2},
    {"stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r9], {%r1, %r2};", NULL, O(STMATRIX), SH(M8N8), 1u << PTX_TN_NUM_SHIFT,
     {TY(B16)}, 0, 2},
    {"movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;", NULL, O(MOVMATRIX), SH(M8N8), PTX_TN_TRANS, {TY(B16)}, 1, 2},
};

static void t_tensor_forms(void)
{
    for (size_t i = 0; i < TP_ARRAY_LEN(tforms); i++) {
        const tform *t = &tforms[i];
        char *src = kernel(t->text);
        ptx_module *m = parse(src);
        free(src);
        tt_nchecks++;
        if (!m) {
            tt_fail_msg(__FILE__, __LINE__, "'%s': %s", t->text, err.msg);
            continue;
        }
        const ptx_func *f = &m->funcs[ptx_find_func(m, "forms")];
        const ptx_insn *in = &m->insns[f->end - 3]; /* before "ret" twice (L_end) and FNEXIT */
        TT_EQ_I(in->op, t->op);
        TT_EQ_I(in->m.shape, t->shape);
        TT_EQ_U(in->m.tens, t->tens);
        TT_EQ_U(in->m.tty[0], t->tty[0]);
        TT_EQ_U(in->m.tty[1], t->tty[1]);
        TT_EQ_U(in->m.tty[2], t->tty[2]);
        TT_EQ_U(in->m.tty[3], t->tty[3]);
        TT_EQ_I(in->ndst, t->ndst);
        TT_EQ_I(in->nopnd, t->nopnd);
        TT_CHECK((in->m.flags & (PTX_MF_SYNC | PTX_MF_ALIGNED)) == (PTX_MF_SYNC | PTX_MF_ALIGNED));
        TT_EQ_U(in->type, 0);
        tp_sbuf b;
        tp_sbuf_init(&b);
        ptx_insn_print(m, f, in, &b);
        TT_EQ_STR(tp_sbuf_str(&b), t->printed ? t->printed : t->text);
        tp_sbuf_free(&b);
        ptx_module_free(m);
    }
}

static void t_errors(void)
{
    for (size_t i = 0; i < TP_ARRAY_LEN(errs); i++) {
        ptx_module *m = parse(errs[i].text);
        if (getenv("TT_VERBOSE")) printf("    case %zu: %s\n", i, m ? "(parsed)" : err.msg);
        tt_nchecks++;
        if (m) {
            tt_fail_msg(__FILE__, __LINE__, "case %zu parsed; want \"%s\"", i, errs[i].msg);
            ptx_module_free(m);
        } else if (strcmp(err.msg, errs[i].msg) != 0) {
            tt_fail_msg(__FILE__, __LINE__, "case %zu: \"%s\" != \"%s\"", i, err.msg, errs[i].msg);
        }
    }
}

/* Module-level directives and declarations nvcc and hand-written PTX use. */
static void t_directives(void)
{
    ptx_module *m = parse(
        "// comment\n.version 8.5\n.target sm_90a, texmode_independent\n.address_size 64\n"
        ".file 1 \"/x/a.cu\", 1700000000, 1234\n.file 3 \"b.h\"\n"
        ".pragma \"nounroll\";\n"
        ".extern .func (.param .b32 r) ext (.param .b64 a);\n"
        ".func fwd (.param .b32 a);\n"
        ".weak .func (.param .align 16 .b8 r[16]) wk ()\n{\n ret;\n}\n"
        ".visible .func fwd (.param .b32 a)\n.noreturn\n{\n exit;\n}\n"
        ".alias fwd2, fwd;\n"
        ".global .texref tr;\n.global .samplerref smp;\n.global .surfref sr;\n"
        ".common .global .align 8 .u64 cm;\n"
        ".const .align 4 .b32 mat[2][3] = {{1, 2}, {4, 5, 6}};\n"
        ".global .v4 .f32 v4 = {1.0, 2.0, 3.0, 4.0};\n"
        ".global .u32 arr[] = {7, 8, 9};\n"
        ".global .f64 fd = 0.5;\n"
        ".shared .align 8 .b8 msh[32];\n"
        "/* block\n comment */\n"
        ".func fa2;\n.alias fa2, fwd;\n"
        ".visible .entry k(.param .u64 .ptr.global.align 16 p, .param .u32 n)\n"
        ".maxntid 128, 2\n.minnctapersm 4\n.maxnreg 64\n.reqnctapercluster 2, 1, 1\n"
        "{\n .reg .b64 %rd<2>;\n .loc 3 42 7\n mov.u64 %rd1, msh;\n"
        " .loc 1 9 1, function_name $L__info_string0, inlined_at 3 4 5\n ret;\n}\n"
        ".section .debug_str\n{\n$L__info_string0:\n.b8 95,0\n.b64 $L__x\n}\n");
    if (!m) printf("    %s\n", err.msg);
    TT_CHECK(m != NULL);
    if (!m) return;
    TT_EQ_U(m->version_major, 8);
    TT_EQ_U(m->version_minor, 5);
    TT_EQ_U(m->target_sm, 90);
    TT_CHECK(m->target_flags & 1);
    TT_EQ_U(m->nfiles, 4);
    TT_EQ_STR(m->files[1], "/x/a.cu");
    TT_EQ_STR(m->files[3], "b.h");
    TT_CHECK(m->files[2] == NULL);
    const ptx_func *f = &m->funcs[ptx_find_func(m, "fwd")];
    TT_CHECK(!f->is_decl && f->noreturn && f->is_visible);
    TT_EQ_I(ptx_find_func(m, "fwd2"), ptx_find_func(m, "fwd"));
    TT_EQ_I(ptx_find_func(m, "fa2"), ptx_find_func(m, "fwd")); /* prototype, then .alias */
    TT_CHECK(m->funcs[ptx_find_func(m, "ext")].is_decl);
    const ptx_func *w = &m->funcs[ptx_find_func(m, "wk")];
    TT_CHECK(w->is_weak);
    TT_EQ_U(w->rets[0].align, 16);
    TT_EQ_U(w->rets[0].size, 16);
    const ptx_func *k = &m->funcs[ptx_find_func(m, "k")];
    TT_CHECK(k->params[0].is_ptr);
    TT_EQ_U(k->params[0].ptr_space, PTX_SP_GLOBAL);
    TT_EQ_U(k->params[0].align, 8); /* .align 16 after .ptr is the pointee's */
    TT_EQ_U(k->params[1].offset, 8);
    TT_EQ_U(k->param_bytes, 12);
    TT_EQ_U(k->maxntid[0], 128);
    TT_EQ_U(k->maxntid[1], 2);
    TT_EQ_U(k->maxntid[2], 1);
    TT_EQ_U(k->minnctapersm, 4);
    TT_EQ_U(k->maxnreg, 64);
    TT_EQ_U(k->reqnctapercluster[0], 2);
    TT_EQ_U(m->insns[k->start].srcfile, 3);
    TT_EQ_U(m->insns[k->start].srcline, 42);
    TT_EQ_U(m->insns[k->start + 1].srcline, 9);
    const ptx_var *v = &m->vars[ptx_find_var(m, "mat")];
    TT_EQ_U(v->size, 24);
    /* {{1, 2}, {4, 5, 6}}: the short first row is padded: 1 2 0 4 5 6 */
    TT_EQ_U(v->init[8], 0);
    TT_EQ_U(v->init[12], 4);
    v = &m->vars[ptx_find_var(m, "v4")];
    TT_EQ_U(v->size, 16);
    TT_EQ_U(v->align, 16);
    TT_EQ_U(v->init[15], 0x40); /* 4.0f = 0x40800000 */
    v = &m->vars[ptx_find_var(m, "arr")];
    TT_EQ_U(v->size, 12);
    TT_CHECK(!v->is_array_unsized);
    v = &m->vars[ptx_find_var(m, "fd")];
    TT_EQ_U(v->init[7], 0x3F);
    TT_EQ_U(v->init[6], 0xE0);
    TT_CHECK(m->vars[ptx_find_var(m, "tr")].texref == 1);
    TT_CHECK(m->vars[ptx_find_var(m, "smp")].texref == 2);
    TT_CHECK(m->vars[ptx_find_var(m, "sr")].texref == 3);
    TT_CHECK(m->vars[ptx_find_var(m, "cm")].is_weak);
    ptx_module_free(m);
}

static void t_brx_and_calltargets(void)
{
    ptx_module *m = parse(HEAD
                          ".func (.param .b32 r) g1 (.param .b32 a)\n{\n .reg .b32 %r1;\n ld.param.b32 %r1, [a];\n st.param.b32 [r], %r1;\n ret;\n}\n"
                          ".func (.param .b32 r) g2 (.param .b32 a)\n{\n st.param.b32 [r], 2;\n ret;\n}\n"
                          ".entry k(.param .u32 i)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd1;\n"
                          " ld.param.u32 %r1, [i];\n"
                          " ts: .branchtargets A, B, C;\n"
                          " brx.idx %r1, ts;\n"
                          "A: mov.u64 %rd1, g1;\n"
                          " { .param .b32 p; .param .b32 q;\n"
                          "   Ft: .calltargets g1, g2;\n"
                          "   st.param.b32 [p], %r1;\n"
                          "   call (q), %rd1, (p), Ft;\n"
                          "   ld.param.b32 %r2, [q];\n }\n"
                          "B: bra C;\n"
                          "C: ret;\n}\n");
    if (!m) printf("    %s\n", err.msg);
    TT_CHECK(m != NULL);
    if (!m) return;
    (void)0;
    const ptx_func *k = &m->funcs[ptx_find_func(m, "k")];
    const ptx_insn *brx = &m->insns[k->start + 1];
    TT_EQ_U(brx->op, PTX_OP_BRX);
    TT_EQ_U(brx->m.sub, PTX_SUB_IDX);
    TT_EQ_U(brx->o[1].kind, PTX_OK_VEC);
    TT_EQ_U(brx->o[1].n, 3);
    /* A is the next instruction, B the bra after the call block, C the ret */
    TT_EQ_I(m->pool[brx->o[1].r].r, (int32_t)k->start + 2);
    TT_EQ_I(m->pool[brx->o[1].r + 1].r, (int32_t)k->start + 6);
    TT_EQ_I(m->pool[brx->o[1].r + 2].r, (int32_t)k->start + 7);
    TT_EQ_U(m->pool[brx->o[1].r + 2].kind, PTX_OK_LABEL);
    const ptx_insn *call = &m->insns[k->start + 4];
    TT_EQ_U(call->op, PTX_OP_CALL);
    TT_EQ_U(call->o[0].kind, PTX_OK_REG);
    TT_EQ_U(call->o[1].n, 2);
    /* the callseq .params sit after no .local: at 0 and 4 of the frame */
    TT_EQ_U(k->vars[0].offset, 0);
    TT_EQ_U(k->vars[1].offset, 4);
    TT_EQ_U(k->local_bytes, 16);
    ptx_module_free(m);
}

/* The printer writes PTX syntax (the same text a reader would write). */
static void t_printer(void)
{
    static const char *const texts[] = {
        "@!%p1 bra.uni L_end;",
        "ld.global.nc.v2.f64 {%fd1, %fd2}, [%rd1+16];",
        "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;",
        "shfl.sync.idx.b32 %r1|%p1, %r2, 1, 31, -1;",
        "mov.u32 %r1, %ctaid.y;",
        "mov.f32 %f1, 0f3FC00000;",
        "mov.f64 %fd1, 0d3FF8000000000000;",
        "add.f16 %h1, %h2, 0f3FC00000;",
        "st.shared.v4.u8 [sm+4], {%h1, %h2, %h3, %h4};",
        "ld.param.u64 %rd1, [s+8];",
        "mov.u64 %rd1, f2;",
        "bar.red.popc.u32 %r1, 0, !%p1;",
        "atom.relaxed.gpu.global.cas.b32 %r1, [%rd1], %r2, %r3;",
        "tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], %f7;",
        "sust.b.2d.v4.b32.trap [%rd1, {%r5, %r6}], {%r1, %r2, %r3, %r4};",
        "membar.gl;",
        "mov.b64 {%r1, _}, %rd1;",
        "cvt.rzi.sat.s32.f32 %r1, %f1;",
        "ld.global.u32 %r1, [%rd3+-8];",
        "ld.global.u32 %r1, [64];",
        "mov.u32 %r1, %reserved_smem_offset_1;",
        "mov.u64 %rd1, %pm3_64;",
        "mov.u32 %r1, %envreg12;",
    };
    for (size_t i = 0; i < TP_ARRAY_LEN(texts); i++) {
        ptx_module *m;
        const ptx_insn *in = one(&m, texts[i]);
        tt_nchecks++;
        if (!in) {
            tt_fail_msg(__FILE__, __LINE__, "%s: %s", texts[i], err.msg);
            continue;
        }
        tp_sbuf sb;
        tp_sbuf_init(&sb);
        ptx_insn_print(m, &m->funcs[ptx_find_func(m, "forms")], in, &sb);
        if (strcmp(tp_sbuf_str(&sb), texts[i]) != 0)
            tt_fail_msg(__FILE__, __LINE__, "printed '%s', want '%s'", tp_sbuf_str(&sb), texts[i]);
        tp_sbuf_free(&sb);
        ptx_module_free(m);
    }
    /* WARP_SZ is an immediate once parsed: it prints as its value */
    ptx_module *m;
    const ptx_insn *in = one(&m, "mov.u32 %r1, WARP_SZ;");
    TT_CHECK(in != NULL);
    if (in) {
        tp_sbuf sb;
        tp_sbuf_init(&sb);
        ptx_insn_print(m, &m->funcs[ptx_find_func(m, "forms")], in, &sb);
        TT_EQ_STR(tp_sbuf_str(&sb), "mov.u32 %r1, 32;");
        tp_sbuf_free(&sb);
    }
    ptx_module_free(m);
    /* symbol names */
    if (one(&m, "ret;")) {
        const ptx_func *k = &m->funcs[ptx_find_func(m, "forms")];
        TT_EQ_STR(ptx_sym_name(m, k, PTX_SYM_PARAM + 1), "s");
        TT_EQ_STR(ptx_sym_name(m, k, PTX_SYM_FVAR + 1), "lm");
        TT_EQ_STR(ptx_sym_name(m, k, PTX_SYM_FUNC + ptx_find_func(m, "f2")), "f2");
        TT_EQ_STR(ptx_sym_name(m, &m->funcs[ptx_find_func(m, "f2")], PTX_SYM_RET + 0), "fr");
        TT_EQ_STR(ptx_sym_name(m, k, PTX_SYM_PARAM + 7), "?");
        ptx_module_free(m);
    }
}

int main(void)
{
    TT_RUN(t_forms);
    TT_RUN(t_form_details);
    TT_RUN(t_immediates);
    TT_RUN(t_register_declarations);
    TT_RUN(t_tensor_forms);
    TT_RUN(t_errors);
    TT_RUN(t_directives);
    TT_RUN(t_brx_and_calltargets);
    TT_RUN(t_printer);
    return tt_done();
}
