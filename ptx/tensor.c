/*
** tensor.c -- which warp-level matrix instructions exist, and what their
** operands are.  Module prefix: ptx_.
**
** The PTX ISA (sections "Warp Level Matrix Multiply-Accumulate
** Instructions" and "Matrix multiply-accumulate operation using mma
** instruction") defines each instruction for a list of shapes and element
** types; ptx_tensor_form accepts exactly those combinations tpsim executes
** and says, for the rest, why not.  The register counts of the fragments
** follow from the shape: a lane holds rows x cols / 32 elements of each
** matrix, packed low to high into 32-bit registers (an f64 element is one
** 64-bit register), except
**   - wmma's f16 multiplicands, 8 registers (16 halves) for every shape,
**     each element held twice on average (the Volta layout's legacy), and
**   - mma.m8n8k4 with f16 multiplicands, where the warp's four quad-pairs
**     each compute their own 8x8x4 product (a: 2, b: 2 registers; c and d:
**     4 f16x2 or 8 f32 registers).
**
** Forms (a/b type -> shapes; accumulator types):
**   wmma  f16          m16n16k16 m32n8k16 m8n32k16   c, d f16 or f32
**         bf16         the same                      f32
**         s8, u8       the same                      s32 (.satfinite)
**         tf32         m16n16k8                      f32
**         f64          m8n8k4 (.rn .rz .rm .rp)      f64
**         s4, u4       m8n8k32, a .row, b .col       s32 (.satfinite)
**         b1           m8n8k128, a .row, b .col      s32, .xor.popc or .and.popc
**   mma   f16          m8n8k4 (any layouts), m16n8k8, m16n8k16   f16 or f32
**         bf16         m16n8k8, m16n8k16             f32
**         tf32         m16n8k4, m16n8k8              f32
**         f64          m8n8k4, m16n8k4, m16n8k8, m16n8k16        f64
**         s8, u8       m8n8k16, m16n8k16, m16n8k32   s32 (.satfinite)
**         s4, u4       m8n8k32, m16n8k32, m16n8k64   s32 (.satfinite)
**         b1           m8n8k128, m16n8k128, m16n8k256  s32, .xor.popc or .and.popc
**         (every shape but m8n8k4 with f16 is .row.col only)
**   ldmatrix, stmatrix  m8n8 .x1 .x2 .x4 [.trans] .b16, shared memory
**   movmatrix           m8n8 .trans .b16
** Not executed, and named at load as unsupported: the sparse mma.sp, the
** fp8/fp6/fp4 types (.e4m3 ...), block scaling (.kind::, .block_scale),
** ldmatrix/stmatrix .m16n16/.m8n16/.m16n8 with .b8 (sm_100), wgmma.
*/
#include "ptx.h"

bool ptx_op_is_tensor(int op)
{
    switch (op) {
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA: case PTX_OP_MMA:
    case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_MOVMATRIX:
        return true;
    default:
        return false;
    }
}

/* Families of multiplicand types: a and b must be of one family. */
enum { FAM_NONE, FAM_F16, FAM_BF16, FAM_TF32, FAM_F64, FAM_I8, FAM_I4, FAM_B1 };

static int family(int t)
{
    switch (t) {
    case PTX_TT_F16: return FAM_F16;
    case PTX_TT_BF16: return FAM_BF16;
    case PTX_TT_TF32: return FAM_TF32;
    case PTX_TT_F64: return FAM_F64;
    case PTX_TT_S8: case PTX_TT_U8: return FAM_I8;
    case PTX_TT_S4: case PTX_TT_U4: return FAM_I4;
    case PTX_TT_B1: return FAM_B1;
    default: return FAM_NONE;
    }
}

/* The accumulator type(s) a family allows. */
static bool acc_ok(int fam, int t)
{
    switch (fam) {
    case FAM_F16: return t == PTX_TT_F16 || t == PTX_TT_F32;
    case FAM_BF16: case FAM_TF32: return t == PTX_TT_F32;
    case FAM_F64: return t == PTX_TT_F64;
    default: return t == PTX_TT_S32;
    }
}

/* Registers of one lane's share of a rows x cols matrix of type t. */
static unsigned regs_of(unsigned rows, unsigned cols, int t)
{
    unsigned bits = rows * cols / 32 * ptx_ttypes[t].bits;
    return t == PTX_TT_F64 ? bits / 64 : (bits + 31) / 32;
}

static unsigned rbytes(int t) { return t == PTX_TT_F64 ? 8 : 4; }

static bool wmma_shape_ok(int fam, int sh)
{
    switch (fam) {
    case FAM_F16: case FAM_BF16: case FAM_I8:
        return sh == PTX_SH_M16N16K16 || sh == PTX_SH_M32N8K16 || sh == PTX_SH_M8N32K16;
    case FAM_TF32: return sh == PTX_SH_M16N16K8;
    case FAM_F64: return sh == PTX_SH_M8N8K4;
    case FAM_I4: return sh == PTX_SH_M8N8K32;
    case FAM_B1: return sh == PTX_SH_M8N8K128;
    default: return false;
    }
}

/* Accumulator fragments: which shapes an accumulator type is loaded with. */
static bool wmma_acc_shape_ok(int t, int sh)
{
    bool big = sh == PTX_SH_M16N16K16 || sh == PTX_SH_M32N8K16 || sh == PTX_SH_M8N32K16;
    switch (t) {
    case PTX_TT_F16: return big;
    case PTX_TT_F32: return big || sh == PTX_SH_M16N16K8;
    case PTX_TT_S32: return big || sh == PTX_SH_M8N8K32 || sh == PTX_SH_M8N8K128;
    case PTX_TT_F64: return sh == PTX_SH_M8N8K4;
    default: return false;
    }
}

static bool mma_shape_ok(int fam, int sh)
{
    switch (fam) {
    case FAM_F16: return sh == PTX_SH_M8N8K4 || sh == PTX_SH_M16N8K8 || sh == PTX_SH_M16N8K16;
    case FAM_BF16: return sh == PTX_SH_M16N8K8 || sh == PTX_SH_M16N8K16;
    case FAM_TF32: return sh == PTX_SH_M16N8K4 || sh == PTX_SH_M16N8K8;
    case FAM_F64:
        return sh == PTX_SH_M8N8K4 || sh == PTX_SH_M16N8K4 || sh == PTX_SH_M16N8K8 || sh == PTX_SH_M16N8K16;
    case FAM_I8: return sh == PTX_SH_M8N8K16 || sh == PTX_SH_M16N8K16 || sh == PTX_SH_M16N8K32;
    case FAM_I4: return sh == PTX_SH_M8N8K32 || sh == PTX_SH_M16N8K32 || sh == PTX_SH_M16N8K64;
    case FAM_B1: return sh == PTX_SH_M8N8K128 || sh == PTX_SH_M16N8K128 || sh == PTX_SH_M16N8K256;
    default: return false;
    }
}

static int tclass_of(int fam, int d, int c)
{
    switch (fam) {
    case FAM_F16: return d == PTX_TT_F16 && c == PTX_TT_F16 ? PTX_TC_F16 : PTX_TC_F16F32;
    case FAM_BF16: return PTX_TC_F16F32;
    case FAM_TF32: return PTX_TC_TF32;
    case FAM_F64: return PTX_TC_F64;
    case FAM_I8: return PTX_TC_I8;
    case FAM_I4: return PTX_TC_I4;
    default: return PTX_TC_B1;
    }
}

/* The checks both wmma.mma and mma make of the four types. */
static const char *mma_types(const ptx_insn *in, int *famp)
{
    const uint8_t *t = in->m.tty;
    int fam = family(t[1]);
    if (fam == FAM_NONE) return "the multiplicand type must be f16, bf16, tf32, f64, s8, u8, s4, u4 or b1";
    if (family(t[2]) != fam) return "a and b must be of one type family";
    if (fam != FAM_I8 && fam != FAM_I4 && t[1] != t[2]) return "a and b must have the same type";
    if (!acc_ok(fam, t[0]) || !acc_ok(fam, t[3])) return "this accumulator type does not go with these multiplicands";
    if (fam != FAM_F16 && t[0] != t[3]) return "c and d must have the same type";
    if ((in->m.flags & PTX_MF_SATFINITE) && fam != FAM_I8 && fam != FAM_I4 &&
        !(in->op == PTX_OP_WMMA_MMA && fam == FAM_F16))
        return ".satfinite applies to integer (and wmma f16) products only";
    if (in->m.rnd && fam != FAM_F64) return "a rounding mode applies to f64 products only";
    if (in->m.rnd && in->m.rnd != PTX_RND_RN && in->m.rnd != PTX_RND_RZ && in->m.rnd != PTX_RND_RM &&
        in->m.rnd != PTX_RND_RP)
        return "the rounding mode must be .rn, .rz, .rm or .rp";
    bool bitop = (in->m.sub == PTX_SUB_AND || in->m.sub == PTX_SUB_XOR) && in->m.bop == PTX_BOP_POPC;
    if ((fam == FAM_B1) != bitop || (!bitop && (in->m.sub || in->m.bop)))
        return "b1 products need .xor.popc or .and.popc (and only they)";
    *famp = fam;
    return NULL;
}

const char *ptx_tensor_form(const ptx_insn *in, ptx_tform *f)
{
    memset(f, 0, sizeof *f);
    const ptx_mods *m = &in->m;
    int sh = m->shape;
    if (sh <= PTX_SH_NONE || sh >= PTX_SH_COUNT) return "no shape";
    const ptx_shapeinfo *s = &ptx_shapes[sh];
    bool acol = (m->tens & PTX_TN_ACOL) != 0, bcol = (m->tens & PTX_TN_BCOL) != 0;
    int frag = m->tens & PTX_TN_FRAG;
    switch (in->op) {
    case PTX_OP_WMMA_LOAD:
    case PTX_OP_WMMA_STORE: {
        int t = m->tty[0];
        if (m->space != PTX_SP_GENERIC && m->space != PTX_SP_GLOBAL && m->space != PTX_SP_SHARED)
            return "the state space must be .global or .shared (or none: generic)";
        if (in->op == PTX_OP_WMMA_STORE && frag != PTX_FR_D) return "wmma.store stores the .d fragment";
        if (in->op == PTX_OP_WMMA_LOAD && frag == PTX_FR_D) return "wmma.load loads an .a, .b or .c fragment";
        if (frag == PTX_FR_C || frag == PTX_FR_D) {
            if (!wmma_acc_shape_ok(t, sh)) return "no accumulator of this type and shape";
            f->regs[0] = (uint8_t)regs_of(s->m, s->n, t);
            f->rbytes[0] = (uint8_t)rbytes(t);
            return NULL;
        }
        int fam = family(t);
        if (!wmma_shape_ok(fam, sh)) return "no wmma multiplicand of this type and shape";
        if ((fam == FAM_I4 || fam == FAM_B1) && acol != (frag == PTX_FR_B))
            return "sub-byte multiplicands are .row (a) and .col (b) only";
        unsigned r = frag == PTX_FR_A ? s->m : s->k, c = frag == PTX_FR_A ? s->k : s->n;
        f->regs[0] = (uint8_t)(fam == FAM_F16 ? 8 : regs_of(r, c, t));
        f->rbytes[0] = (uint8_t)rbytes(t);
        return NULL;
    }
    case PTX_OP_WMMA_MMA:
    case PTX_OP_MMA: {
        int fam;
        const char *why = mma_types(in, &fam);
        if (why) return why;
        const uint8_t *t = m->tty;
        bool wmma = in->op == PTX_OP_WMMA_MMA;
        if (wmma ? !wmma_shape_ok(fam, sh) : !mma_shape_ok(fam, sh))
            return "no product of these types has this shape";
        bool free_layout = wmma ? (fam != FAM_I4 && fam != FAM_B1) : (sh == PTX_SH_M8N8K4 && fam == FAM_F16);
        if (!free_layout && (acol || !bcol)) return "this form is .row.col only";
        if (!wmma && fam == FAM_F16 && sh == PTX_SH_M8N8K4) {
            f->regs[1] = f->regs[2] = 2;
            f->regs[0] = t[0] == PTX_TT_F16 ? 4 : 8;
            f->regs[3] = t[3] == PTX_TT_F16 ? 4 : 8;
            f->macs = 4u * 8 * 8 * 4;
        } else {
            f->regs[1] = (uint8_t)(wmma && fam == FAM_F16 ? 8 : regs_of(s->m, s->k, t[1]));
            f->regs[2] = (uint8_t)(wmma && fam == FAM_F16 ? 8 : regs_of(s->k, s->n, t[2]));
            f->regs[0] = (uint8_t)regs_of(s->m, s->n, t[0]);
            f->regs[3] = (uint8_t)regs_of(s->m, s->n, t[3]);
            f->macs = (uint32_t)s->m * s->n * s->k;
        }
        for (int i = 0; i < 4; i++) f->rbytes[i] = (uint8_t)rbytes(t[i]);
        f->tclass = (uint8_t)tclass_of(fam, t[0], t[3]);
        return NULL;
    }
    case PTX_OP_LDMATRIX:
    case PTX_OP_STMATRIX: {
        if (sh != PTX_SH_M8N8 || m->tty[0] != PTX_TT_B16) return "only .m8n8 with .b16 elements";
        if (m->space != PTX_SP_GENERIC && m->space != PTX_SP_SHARED) return "the state space must be .shared";
        f->regs[0] = (uint8_t)(1u << (m->tens >> PTX_TN_NUM_SHIFT & 3));
        if (f->regs[0] > 4) return "the count must be .x1, .x2 or .x4";
        f->rbytes[0] = 4;
        return NULL;
    }
    case PTX_OP_MOVMATRIX:
        if (sh != PTX_SH_M8N8 || m->tty[0] != PTX_TT_B16 || !(m->tens & PTX_TN_TRANS))
            return "only .m8n8.trans.b16";
        f->regs[0] = f->regs[1] = 1;
        f->rbytes[0] = f->rbytes[1] = 4;
        return NULL;
    default:
        return "not a tensor instruction";
    }
}
