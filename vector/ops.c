/* ops.c -- the opcode table (vec_ops.def) and the facts derived from it:
** units, and what each instruction reads and writes (from its form). */
#include "vec.h"
#include <stdio.h>

const vec_opinfo vec_ops[VEC_NOPS] = {
#define X(id, name, form, cls, flags, sem, w, doc) {name, form, cls, flags, sem, w, doc},
#include "vec_ops.def"
#undef X
};

int vec_op_find(const char *name)
{
    for (int op = 0; op < VEC_NOPS; op++)
        if (!strcmp(vec_ops[op].name, name)) return op;
    return -1;
}

int vec_cls_unit(int cls)
{
    switch (cls) {
    case VEC_C_VADD: return VEC_UNIT_ADD;
    case VEC_C_VMUL: return VEC_UNIT_MUL;
    case VEC_C_VDIV: return VEC_UNIT_DIV;
    case VEC_C_VLOGIC: return VEC_UNIT_LOGIC;
    default: return VEC_UNIT_LSU0;
    }
}

uint32_t vec_int_units(void)
{
    bool used[VEC_UNIT_LSU0] = {false};
    uint32_t n = 0;
    for (int op = 0; op < VEC_NOPS; op++) {
        const vec_opinfo *oi = &vec_ops[op];
        if (!vec_cls_vector(oi->cls) || oi->cls == VEC_C_VLSU || (oi->flags & VEC_FL_D) || oi->sem == VEC_E_NONE) continue;
        int u = vec_cls_unit(oi->cls);
        if (!used[u]) used[u] = true, n++;
    }
    return n;
}

const char *vec_unit_name(int unit, char buf[16])
{
    static const char *names[] = {"add", "mul", "div", "logical"};
    if (unit < VEC_UNIT_LSU0) return names[unit];
    if (unit >= VEC_UNIT_MAX) return "loop";
    snprintf(buf, 16, "lsu%d", unit - VEC_UNIT_LSU0);
    return buf;
}

static void src(vec_insn *in, int kind, int num)
{
    if (kind == VEC_RK_R && num == 0) return; /* R0 is always ready */
    in->src[in->nsrc].kind = (uint8_t)kind;
    in->src[in->nsrc].num = (uint8_t)num;
    in->nsrc++;
}

static void dst(vec_insn *in, int kind, int num)
{
    if (kind == VEC_RK_R && num == 0) return; /* writes to R0 are dropped */
    in->dst.kind = (uint8_t)kind;
    in->dst.num = (uint8_t)num;
}

void vec_insn_deps(vec_insn *in)
{
    const vec_opinfo *oi = &vec_ops[in->op];
    bool store = oi->flags & VEC_FL_STORE;
    in->nsrc = 0;
    in->dst.kind = VEC_RK_NONE;
    in->dst.num = 0;
    switch ((vec_form)oi->form) {
    case VEC_FM_NONE:
        if (in->op == VEC_OP_CVM) dst(in, VEC_RK_VM, 0);
        break;
    case VEC_FM_RRX:
        dst(in, VEC_RK_R, in->d), src(in, VEC_RK_R, in->a);
        if (!in->alt) src(in, VEC_RK_R, in->b);
        break;
    case VEC_FM_RRI: dst(in, VEC_RK_R, in->d), src(in, VEC_RK_R, in->a); break;
    case VEC_FM_RMEM:
    case VEC_FM_FMEM: {
        int k = oi->form == VEC_FM_RMEM ? VEC_RK_R : VEC_RK_F;
        src(in, VEC_RK_R, in->a);
        if (store) src(in, k, in->d);
        else dst(in, k, in->d);
        break;
    }
    case VEC_FM_FFF: dst(in, VEC_RK_F, in->d), src(in, VEC_RK_F, in->a), src(in, VEC_RK_F, in->b); break;
    case VEC_FM_FFX:
        dst(in, VEC_RK_F, in->d), src(in, VEC_RK_F, in->a);
        if (!in->alt) src(in, VEC_RK_F, in->b);
        break;
    case VEC_FM_RL: src(in, VEC_RK_R, in->a); break;
    case VEC_FM_RRL: src(in, VEC_RK_R, in->a), src(in, VEC_RK_R, in->b); break;
    case VEC_FM_L: break;
    case VEC_FM_MTC1:
        dst(in, in->b, 0);
        if (!in->alt) src(in, VEC_RK_R, in->a);
        if (in->b == VEC_RK_VPW) src(in, VEC_RK_VLR, 0); /* checked against the new MVL */
        break;
    case VEC_FM_MFC1: dst(in, VEC_RK_R, in->d), src(in, in->b == VEC_RK_VLR ? VEC_RK_VLR : VEC_RK_VPW, 0); break;
    case VEC_FM_MVTM: dst(in, VEC_RK_VM, 0), src(in, VEC_RK_F, in->a); break;
    case VEC_FM_MVFM: dst(in, VEC_RK_F, in->d), src(in, VEC_RK_VM, 0); break;
    case VEC_FM_POP: dst(in, VEC_RK_R, in->d), src(in, VEC_RK_VM, 0), src(in, VEC_RK_VLR, 0); break;
    case VEC_FM_VVV: dst(in, VEC_RK_V, in->d), src(in, VEC_RK_V, in->a), src(in, VEC_RK_V, in->b); break;
    case VEC_FM_VVF: dst(in, VEC_RK_V, in->d), src(in, VEC_RK_V, in->a), src(in, VEC_RK_F, in->b); break;
    case VEC_FM_VFV: dst(in, VEC_RK_V, in->d), src(in, VEC_RK_F, in->a), src(in, VEC_RK_V, in->b); break;
    case VEC_FM_VVR: dst(in, VEC_RK_V, in->d), src(in, VEC_RK_V, in->a), src(in, VEC_RK_R, in->b); break;
    case VEC_FM_VRS: dst(in, VEC_RK_V, in->d), src(in, VEC_RK_R, in->a), src(in, VEC_RK_V, in->b); break;
    case VEC_FM_VVX:
        dst(in, VEC_RK_V, in->d), src(in, VEC_RK_V, in->a);
        if (!in->alt) src(in, VEC_RK_R, in->b);
        break;
    case VEC_FM_VR: dst(in, VEC_RK_V, in->d), src(in, VEC_RK_R, in->a); break;
    case VEC_FM_RV: src(in, VEC_RK_R, in->a), src(in, VEC_RK_V, in->d); break;
    case VEC_FM_VRR: dst(in, VEC_RK_V, in->d), src(in, VEC_RK_R, in->a), src(in, VEC_RK_R, in->b); break;
    case VEC_FM_RRV: src(in, VEC_RK_R, in->a), src(in, VEC_RK_R, in->b), src(in, VEC_RK_V, in->d); break;
    case VEC_FM_VRV: dst(in, VEC_RK_V, in->d), src(in, VEC_RK_R, in->a), src(in, VEC_RK_V, in->b); break;
    case VEC_FM_RVV: src(in, VEC_RK_R, in->a), src(in, VEC_RK_V, in->b), src(in, VEC_RK_V, in->d); break;
    case VEC_FM_VV: dst(in, VEC_RK_VM, 0), src(in, VEC_RK_V, in->a), src(in, VEC_RK_V, in->b); break;
    case VEC_FM_VF: dst(in, VEC_RK_VM, 0), src(in, VEC_RK_V, in->a), src(in, VEC_RK_F, in->b); break;
    case VEC_FM_VSR: dst(in, VEC_RK_VM, 0), src(in, VEC_RK_V, in->a), src(in, VEC_RK_R, in->b); break;
    case VEC_FM_VX:
        dst(in, VEC_RK_V, in->d);
        if (!in->alt) src(in, VEC_RK_R, in->a);
        break;
    }
    if (oi->flags & VEC_FL_MASKED) src(in, VEC_RK_VM, 0);
    TP_ASSERT(in->nsrc <= 4);
}
