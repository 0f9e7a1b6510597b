/*
** mach.c -- the functional model of the VMIPS machine: exact semantics,
** one instruction at a time, in program order.
**
** - R0 reads 0.  Integer arithmetic is 64-bit two's complement, wrapping.
**   FP is IEEE 754 double with round-to-nearest-even (the host's).
** - Memory is byte-addressed, little-endian, from address 0: the .data image
**   followed by zeros.  Every access (8 bytes for LD/SD/L.D/S.D, w/8 for the
**   narrow scalar loads and stores, VPW/8 for a vector element) must lie
**   inside it; a fault names the instruction, the element and the address.
** - VPW, the element width of vector instructions, is 8, 16, 32 or 64 bits
**   (64 at the start; MTC1 VPW,Rs sets it, and a width the configuration
**   forbids with vpw.8 = 0 & co is a fault).  A vector register holds
**   mvl * 64 bits (option mvl: the MVL at 64 bits); element i at width w is
**   its bits [i*w, i*w + w), so MVL = mvl * 64 / VPW and changing VPW
**   reinterprets the same bits (at 16 bits, element 4k+1 is bits 16..31 of
**   64-bit element k).  MTC1 VPW faults when VLR is above the new MVL;
**   VLR keeps its value.  .D instructions fault unless VPW = 64.
** - Vector instructions operate on elements i < VLR.  Masked ones (every
**   vector instruction but the compares) leave elements whose VM bit is 0
**   unchanged and do not touch their memory.  A compare sets VM bit i to its
**   result for i < VLR and clears the bits from VLR up: compares write the
**   mask, they are not masked by it (H&P: "put resulting bit vector in VM").
** - Integer vector instructions compute vec_alu (alu.c) on each element at
**   width VPW; the scalar R operand of a VS/SV form and of an integer
**   compare is truncated to VPW bits; shift counts are taken whole.
** - Vector memory moves VPW/8 bytes per element: LV/SV at Rs + i*VPW/8,
**   LVWS/SVWS at Rs + i*Rt (bytes), LVI/SVI at Rs + Vi(i) with the index
**   element read as an unsigned VPW-bit byte offset.
** - CVI Vd,Rs writes i*Rs (its low VPW bits) for each active i < VLR into
**   Vd's elements 0, 1, 2, ... (packed: with VM all ones, Vd(i) = i*Rs);
**   the elements after the last one written keep their values.  POP Rd,VM
**   counts the 1s among VM's first VLR bits, so POP after a compare equals
**   the count CVI packs.
** - Scatters (SVI) store in element order: of two elements with the same
**   address, the later one's value remains.
** - MTC1 VLR,Rs requires 0 <= Rs <= MVL; VLR = 0 makes vector instructions
**   do nothing.  VM has one bit per element at 8 bits (mvl * 8 bits): all
**   ones at the start and after CVM.  MVTM sets bits 0..63 from Fs (those
**   below MVL) and clears the others; MVFM reads bits 0..63, those at or
**   above MVL reading 0.
** - Packed (MMX) instructions compute vec_packed (alu.c) on F registers.
*/
#include "internal.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/* n bytes (1..8), little-endian */
static inline uint64_t ldn(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) v = (v << 8) | p[i];
    return v;
}

static inline void stn(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t lowbits(unsigned w) { return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }

static vec_step fault(const vec_mach *m, const vec_insn *in, tp_err *e, const char *fmt, ...) TP_PRINTF(4, 5);
static vec_step fault(const vec_mach *m, const vec_insn *in, tp_err *e, const char *fmt, ...)
{
    char buf[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tp_loc loc = {m->prog->file, in->line, in->col};
    tp_err_at(e, 1, loc, "%s: %s", in->text, buf);
    return VEC_STEP_ERR;
}

static bool in_mem(const vec_mach *m, uint64_t addr, unsigned n) { return addr <= m->mem_size - n; }

bool vec_vpw_allowed(const tp_opts *o, unsigned w)
{
    switch (w) {
    case 8: return tp_opt_i(o, VEC_OPT_VPW8) != 0;
    case 16: return tp_opt_i(o, VEC_OPT_VPW16) != 0;
    case 32: return tp_opt_i(o, VEC_OPT_VPW32) != 0;
    case 64: return true;
    default: return false;
    }
}

bool vec_mach_init(vec_mach *m, const vec_prog *p, const tp_opts *o, tp_err *e)
{
    memset(m, 0, sizeof *m);
    m->prog = p;
    m->mvl64 = m->mvl = (uint32_t)tp_opt_i(o, VEC_OPT_MVL);
    m->vpw = 64;
    m->mvl_max = m->mvl64 * 8;
    for (unsigned k = 0; k < 4; k++)
        if (vec_vpw_allowed(o, 8u << k)) m->vpw_ok |= (uint8_t)(1u << k);
    m->vregs = (uint32_t)tp_opt_i(o, VEC_OPT_VREGS);
    m->vmwords = (m->mvl_max + 63) / 64;
    m->max_insns = (uint64_t)tp_opt_i(o, VEC_OPT_MAX_INSNS);
    for (uint32_t i = 0; i < p->ninsn; i++) {
        const vec_insn *in = &p->insn[i];
        for (uint32_t k = 0; k <= in->nsrc; k++) {
            const vec_reg *r = k < in->nsrc ? &in->src[k] : &in->dst;
            if (r->kind == VEC_RK_V && r->num >= m->vregs) {
                tp_loc loc = {p->file, in->line, in->col};
                tp_err_at(e, 1, loc, "V%u does not exist: the machine has %u vector registers (V0-V%u)", r->num,
                          m->vregs, m->vregs - 1);
                return false;
            }
        }
    }
    uint64_t size = (uint64_t)tp_opt_i(o, VEC_OPT_MEM_SIZE);
    if (p->data_size > size) size = p->data_size;
    size = (size + 7) & ~(uint64_t)7;
    m->mem_size = size;
    m->mem = tp_calloc((size_t)size, 1);
    if (p->data_size) memcpy(m->mem, p->data, (size_t)p->data_size);
    m->v = tp_calloc((size_t)m->vregs * m->mvl64, sizeof *m->v);
    m->vm = tp_calloc(m->vmwords, sizeof *m->vm);
    for (uint32_t i = 0; i < m->mvl_max; i++) m->vm[i >> 6] |= (uint64_t)1 << (i & 63);
    m->vlr = m->mvl;
    m->addr = tp_calloc(m->mvl_max, sizeof *m->addr);
    m->act = tp_calloc(m->vmwords, sizeof *m->act);
    return true;
}

void vec_mach_free(vec_mach *m)
{
    free(m->mem);
    free(m->v);
    free(m->vm);
    free(m->addr);
    free(m->act);
    memset(m, 0, sizeof *m);
}

bool vec_mach_read(const vec_mach *m, uint64_t addr, uint64_t *bits) { return vec_mach_read_n(m, addr, 8, bits); }

bool vec_mach_read_n(const vec_mach *m, uint64_t addr, unsigned n, uint64_t *bits)
{
    if (n < 1 || n > 8 || !in_mem(m, addr, n)) return false;
    *bits = ldn(m->mem + addr, n);
    return true;
}

/* Active elements of a vector instruction: i < VLR, and VM bit i if masked. */
static uint32_t set_active(vec_mach *m, bool masked)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < m->vmwords; w++) {
        uint64_t bits = masked ? m->vm[w] : ~(uint64_t)0;
        uint32_t lo = w * 64;
        if (m->vlr <= lo) bits = 0;
        else if (m->vlr - lo < 64) bits &= ((uint64_t)1 << (m->vlr - lo)) - 1;
        m->act[w] = bits;
        n += tp_popc64(bits);
    }
    return n;
}

/* Element addresses of a vector memory instruction; checks the active ones. */
static vec_step addresses(vec_mach *m, const vec_insn *in, vec_dyn *d, tp_err *e)
{
    uint64_t base = (uint64_t)m->r[in->a] + (uint64_t)in->imm;
    int form = vec_ops[in->op].form;
    const uint64_t *idx = form == VEC_FM_VRV || form == VEC_FM_RVV ? m->v + (size_t)in->b * m->mvl64 : NULL;
    uint64_t stride = form == VEC_FM_VRR || form == VEC_FM_RRV ? (uint64_t)m->r[in->b] : 0;
    unsigned w = m->vpw, eb = w / 8;
    d->lo = UINT64_MAX, d->hi = 0;
    for (uint32_t i = 0; i < m->vlr; i++) {
        uint64_t a;
        switch (form) {
        case VEC_FM_VRR:
        case VEC_FM_RRV: a = base + (uint64_t)i * stride; break;
        case VEC_FM_VRV:
        case VEC_FM_RVV: a = base + vec_elem_get(idx, i, w); break;
        default: a = base + eb * (uint64_t)i; break;
        }
        m->addr[i] = a;
        if (!vec_vm_bit(m->act, i)) continue;
        if (!in_mem(m, a, eb))
            return fault(m, in, e, "element %u at address 0x%" PRIx64 " is outside memory (0x0-0x%" PRIx64 ")", i, a,
                         m->mem_size - 1);
        if (a < d->lo) d->lo = a;
        if (a + eb > d->hi) d->hi = a + eb;
    }
    if (d->lo > d->hi) d->lo = d->hi = 0;
    return VEC_STEP_OK;
}

#define V(n) (m->v + (size_t)(n) * m->mvl64)
/* The lane loop, written once: each active element i < vl. */
#define EACH for (uint32_t i = 0; i < vl; i++) if (vec_vm_bit(m->act, i))

/* A vector element operation (forms VVV, VVF, VFV, VVR, VRS, VVX): each
** operand is a vector register or a scalar (F bits, R truncated to VPW
** bits, or a whole shift count). */
static void vector_alu(vec_mach *m, const vec_insn *in, const vec_opinfo *oi, uint32_t vl)
{
    unsigned w = m->vpw;
    uint64_t mask = lowbits(w), sa = 0, sb = 0;
    const uint64_t *va = NULL, *vb = NULL;
    switch ((vec_form)oi->form) {
    case VEC_FM_VVF: va = V(in->a), sb = m->f[in->b]; break;
    case VEC_FM_VFV: sa = m->f[in->a], vb = V(in->b); break;
    case VEC_FM_VVR: va = V(in->a), sb = (uint64_t)m->r[in->b] & mask; break;
    case VEC_FM_VRS: sa = (uint64_t)m->r[in->a] & mask, vb = V(in->b); break;
    case VEC_FM_VVX: va = V(in->a), sb = in->alt ? (uint64_t)in->imm : (uint64_t)m->r[in->b]; break;
    default: va = V(in->a), vb = V(in->b); break; /* VVV */
    }
    uint64_t *vd = V(in->d);
    EACH {
        uint64_t x = va ? vec_elem_get(va, i, w) : sa, y = vb ? vec_elem_get(vb, i, w) : sb;
        vec_elem_set(vd, i, w, vec_alu(oi->sem, w, x, y));
    }
}

/* A compare (forms VV, VF, VSR): VM(i) for i < vl, the other bits 0. */
static void vector_cmp(vec_mach *m, const vec_insn *in, const vec_opinfo *oi, uint32_t vl)
{
    unsigned w = m->vpw;
    const uint64_t *va = V(in->a), *vb = oi->form == VEC_FM_VV ? V(in->b) : NULL;
    uint64_t sb = oi->form == VEC_FM_VF ? m->f[in->b] : (uint64_t)m->r[in->b] & lowbits(w);
    memset(m->vm, 0, m->vmwords * sizeof *m->vm);
    for (uint32_t i = 0; i < vl; i++)
        if (vec_alu(oi->sem, w, vec_elem_get(va, i, w), vb ? vec_elem_get(vb, i, w) : sb))
            m->vm[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* MTC1 VLR / VPW, Rs or #imm. */
static vec_step mtc1(vec_mach *m, const vec_insn *in, tp_err *e)
{
    int64_t v = in->alt ? in->imm : m->r[in->a];
    char src[32];
    if (in->alt) snprintf(src, sizeof src, "#%" PRId64, v);
    else snprintf(src, sizeof src, "R%u = %" PRId64, in->a, v);
    if (in->b == VEC_RK_VLR) {
        if (v < 0 || v > (int64_t)m->mvl) return fault(m, in, e, "%s is outside 0..MVL (%u)", src, m->mvl);
        m->vlr = (uint32_t)v;
        return VEC_STEP_OK;
    }
    if (v != 8 && v != 16 && v != 32 && v != 64)
        return fault(m, in, e, "%s is not an element width (8, 16, 32 or 64)", src);
    if (!(m->vpw_ok & (1u << vec_wi((unsigned)v))))
        return fault(m, in, e, "this machine has no %" PRId64 "-bit elements (option vpw.%" PRId64 " = 0)", v, v);
    uint32_t mvl = m->mvl64 * (64 / (uint32_t)v);
    if (m->vlr > mvl)
        return fault(m, in, e, "VLR = %u is above the MVL at %" PRId64 " bits (%u): lower VLR first", m->vlr, v, mvl);
    m->vpw = (uint32_t)v;
    m->mvl = mvl;
    return VEC_STEP_OK;
}

vec_step vec_mach_step(vec_mach *m, vec_dyn *d, tp_err *e)
{
    if (m->halted || m->pc >= m->prog->ninsn) return VEC_STEP_END;
    const vec_insn *in = &m->prog->insn[m->pc];
    if (m->executed >= m->max_insns)
        return fault(m, in, e, "stopped after %" PRIu64 " instructions (option max_insns): does the program end?",
                     m->executed);
    const vec_opinfo *oi = &vec_ops[in->op];
    memset(d, 0, sizeof *d);
    d->in = in;
    d->pc = m->pc;
    uint32_t next = m->pc + 1, vl = m->vlr;
    int64_t *r = m->r;
    uint64_t *f = m->f;
    unsigned w = m->vpw;
    if (vec_cls_vector(oi->cls)) {
        if ((oi->flags & VEC_FL_D) && w != 64)
            return fault(m, in, e, "%s works on 64-bit elements, but VPW is %u", oi->name, w);
        d->vl = vl;
        d->vpw = w;
        d->nact = set_active(m, oi->flags & VEC_FL_MASKED);
        d->act = m->act;
        if (oi->cls == VEC_C_VLSU) {
            d->addr = m->addr;
            if (addresses(m, in, d, e) != VEC_STEP_OK) return VEC_STEP_ERR;
        }
    }
    int64_t rb = in->alt ? in->imm : in->b < 32 ? r[in->b] : 0; /* b may name a V register (up to 63) */
    switch ((vec_op)in->op) {
    /* scalar integer */
    case VEC_OP_DADDU: r[in->d] = (int64_t)((uint64_t)r[in->a] + (uint64_t)rb); break;
    case VEC_OP_DADDUI: r[in->d] = (int64_t)((uint64_t)r[in->a] + (uint64_t)in->imm); break;
    case VEC_OP_DSUBU: r[in->d] = (int64_t)((uint64_t)r[in->a] - (uint64_t)rb); break;
    case VEC_OP_DSUBUI: r[in->d] = (int64_t)((uint64_t)r[in->a] - (uint64_t)in->imm); break;
    case VEC_OP_DMUL: r[in->d] = (int64_t)((uint64_t)r[in->a] * (uint64_t)rb); break;
    case VEC_OP_DSLL: r[in->d] = (int64_t)((uint64_t)r[in->a] << (rb & 63)); break;
    case VEC_OP_DSRL: r[in->d] = (int64_t)((uint64_t)r[in->a] >> (rb & 63)); break;
    case VEC_OP_DSRA: r[in->d] = (int64_t)vec_alu(VEC_E_SRA, 64, (uint64_t)r[in->a], (uint64_t)(rb & 63)); break;
    case VEC_OP_AND: r[in->d] = r[in->a] & rb; break;
    case VEC_OP_OR: r[in->d] = r[in->a] | rb; break;
    case VEC_OP_XOR: r[in->d] = r[in->a] ^ rb; break;
    case VEC_OP_SLT: r[in->d] = r[in->a] < rb; break;
    case VEC_OP_SLTU: r[in->d] = (uint64_t)r[in->a] < (uint64_t)rb; break;
    case VEC_OP_NOP: break;
    case VEC_OP_HALT: m->halted = true; break;
    /* scalar FP */
    case VEC_OP_ADDD:
    case VEC_OP_SUBD:
    case VEC_OP_MULD:
    case VEC_OP_DIVD: f[in->d] = vec_alu(oi->sem, 64, f[in->a], f[in->b]); break;
    /* control */
    case VEC_OP_BEQZ: d->taken = r[in->a] == 0; break;
    case VEC_OP_BNEZ: d->taken = r[in->a] != 0; break;
    case VEC_OP_BEQ: d->taken = r[in->a] == r[in->b]; break;
    case VEC_OP_BNE: d->taken = r[in->a] != r[in->b]; break;
    case VEC_OP_J: d->taken = true; break;
    /* vector control */
    case VEC_OP_MTC1:
        if (mtc1(m, in, e) != VEC_STEP_OK) return VEC_STEP_ERR;
        break;
    case VEC_OP_MFC1: r[in->d] = in->b == VEC_RK_VLR ? m->vlr : in->b == VEC_RK_VPW ? m->vpw : m->mvl; break;
    case VEC_OP_MVTM:
        memset(m->vm, 0, m->vmwords * sizeof *m->vm);
        m->vm[0] = f[in->a] & lowbits(m->mvl < 64 ? m->mvl : 64);
        break;
    case VEC_OP_MVFM: f[in->d] = m->vm[0] & lowbits(m->mvl < 64 ? m->mvl : 64); break;
    case VEC_OP_POP: {
        int64_t n = 0;
        for (uint32_t i = 0; i < m->vlr; i++) n += vec_vm_bit(m->vm, i);
        r[in->d] = n;
        break;
    }
    case VEC_OP_CVM:
        for (uint32_t i = 0; i < m->mvl_max; i++) m->vm[i >> 6] |= (uint64_t)1 << (i & 63);
        break;
    /* vector memory */
    case VEC_OP_LV:
    case VEC_OP_LVWS:
    case VEC_OP_LVI: EACH vec_elem_set(V(in->d), i, w, ldn(m->mem + m->addr[i], w / 8)); break;
    case VEC_OP_SV:
    case VEC_OP_SVWS:
    case VEC_OP_SVI: EACH stn(m->mem + m->addr[i], vec_elem_get(V(in->d), i, w), w / 8); break;
    case VEC_OP_CVI: {
        uint64_t stride = (uint64_t)(in->alt ? in->imm : r[in->a]);
        uint32_t j = 0;
        EACH vec_elem_set(V(in->d), j++, w, (uint64_t)i * stride);
        break;
    }
    default:
        if (oi->cls == VEC_C_LOAD || oi->cls == VEC_C_STORE) { /* scalar memory, oi->w bits */
            unsigned n = oi->w / 8;
            uint64_t a = (uint64_t)r[in->a] + (uint64_t)in->imm;
            if (!in_mem(m, a, n))
                return fault(m, in, e, "address 0x%" PRIx64 " is outside memory (0x0-0x%" PRIx64 ")", a,
                             m->mem_size - 1);
            d->lo = a, d->hi = a + n;
            bool fp = oi->form == VEC_FM_FMEM;
            if (oi->cls == VEC_C_STORE) {
                stn(m->mem + a, fp ? f[in->d] : (uint64_t)r[in->d], n);
            } else {
                uint64_t v = ldn(m->mem + a, n);
                if (oi->sem == VEC_E_SX) v = vec_alu(VEC_E_SX, oi->w, v, 0);
                if (fp) f[in->d] = v;
                else r[in->d] = (int64_t)v;
            }
        } else if (oi->cls == VEC_C_MEDIA || oi->cls == VEC_C_MMUL) {
            f[in->d] = vec_packed(oi->sem, oi->w, f[in->a], in->alt ? (uint64_t)in->imm : f[in->b]);
        } else if (oi->flags & VEC_FL_WVM) {
            TP_ASSERT(oi->sem != VEC_E_NONE);
            vector_cmp(m, in, oi, vl);
        } else {
            TP_ASSERT(vec_cls_vector(oi->cls) && oi->sem != VEC_E_NONE);
            vector_alu(m, in, oi, vl);
        }
        break;
    }
    if (oi->cls == VEC_C_BRANCH || oi->cls == VEC_C_JUMP) {
        if (d->taken) next = (uint32_t)in->imm;
    }
    r[0] = 0;
    m->pc = next;
    m->executed++;
    return VEC_STEP_OK;
}
