/*
** mach.c -- the functional model of the VMIPS machine: exact semantics,
** one instruction at a time, in program order.
**
** - R0 reads 0.  Integer arithmetic is 64-bit two's complement, wrapping.
**   FP is IEEE 754 double with round-to-nearest-even (the host's).
** - Memory is byte-addressed, little-endian, from address 0: the .data image
**   followed by zeros.  Every access of 8 bytes must lie inside it; a fault
**   names the instruction, the element and the address.
** - Vector instructions operate on elements i < VLR.  Masked ones (every
**   vector instruction but the compares) leave elements whose VM bit is 0
**   unchanged and do not touch their memory.  A compare sets VM bit i to its
**   result for i < VLR and clears the bits from VLR up: compares write the
**   mask, they are not masked by it (H&P: "put resulting bit vector in VM").
** - CVI Vd,Rs writes i*Rs for each active i < VLR into Vd's elements 0, 1,
**   2, ... (packed: with VM all ones, Vd(i) = i*Rs); the elements after the
**   last one written keep their values.  POP Rd,VM counts the 1s among VM's
**   first VLR bits, so POP after a compare equals the count CVI packs.
** - Scatters (SVI) store in element order: of two elements with the same
**   address, the later one's value remains.
** - MTC1 VLR,Rs requires 0 <= Rs <= MVL; VLR = 0 makes vector instructions
**   do nothing.  MVTM/MVFM move VM bits 0..63 (bits from 64 up are cleared
**   by MVTM).
*/
#include "internal.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

static inline double f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static inline uint64_t b64(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static inline uint64_t ld64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static inline void st64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

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

static bool in_mem(const vec_mach *m, uint64_t addr) { return addr <= m->mem_size - 8; }

bool vec_mach_init(vec_mach *m, const vec_prog *p, const tp_opts *o, tp_err *e)
{
    memset(m, 0, sizeof *m);
    m->prog = p;
    m->mvl = (uint32_t)tp_opt_i(o, VEC_OPT_MVL);
    m->vregs = (uint32_t)tp_opt_i(o, VEC_OPT_VREGS);
    m->vmwords = (m->mvl + 63) / 64;
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
    m->v = tp_calloc((size_t)m->vregs * m->mvl, sizeof *m->v);
    m->vm = tp_calloc(m->vmwords, sizeof *m->vm);
    for (uint32_t i = 0; i < m->mvl; i++) m->vm[i >> 6] |= (uint64_t)1 << (i & 63);
    m->vlr = m->mvl;
    m->addr = tp_calloc(m->mvl, sizeof *m->addr);
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

bool vec_mach_read(const vec_mach *m, uint64_t addr, uint64_t *bits)
{
    if (!in_mem(m, addr)) return false;
    *bits = ld64(m->mem + addr);
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
    const uint64_t *idx = m->v + (size_t)in->b * m->mvl;
    uint64_t stride = (uint64_t)m->r[in->b];
    d->lo = UINT64_MAX, d->hi = 0;
    for (uint32_t i = 0; i < m->vlr; i++) {
        uint64_t a;
        switch (vec_ops[in->op].form) {
        case VEC_FM_VRR:
        case VEC_FM_RRV: a = base + (uint64_t)i * stride; break;
        case VEC_FM_VRV:
        case VEC_FM_RVV: a = base + idx[i]; break;
        default: a = base + 8 * (uint64_t)i; break;
        }
        m->addr[i] = a;
        if (!vec_vm_bit(m->act, i)) continue;
        if (!in_mem(m, a))
            return fault(m, in, e, "element %u at address 0x%" PRIx64 " is outside memory (0x0-0x%" PRIx64 ")", i, a,
                         m->mem_size - 1);
        if (a < d->lo) d->lo = a;
        if (a + 8 > d->hi) d->hi = a + 8;
    }
    if (d->lo > d->hi) d->lo = d->hi = 0;
    return VEC_STEP_OK;
}

static bool cmp(int k, double x, double y)
{
    switch (k) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x > y;
    case 3: return x < y;
    case 4: return x >= y;
    default: return x <= y;
    }
}

#define V(n) (m->v + (size_t)(n) * m->mvl)
#define EACH for (uint32_t i = 0; i < vl; i++) if (vec_vm_bit(m->act, i))

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
    if (vec_cls_vector(oi->cls)) {
        d->vl = vl;
        d->nact = set_active(m, oi->flags & VEC_FL_MASKED);
        d->act = m->act;
        if (oi->cls == VEC_C_VLSU) {
            d->addr = m->addr;
            if (addresses(m, in, d, e) != VEC_STEP_OK) return VEC_STEP_ERR;
        }
    }
    int64_t rb = in->alt ? in->imm : r[in->b];
    switch ((vec_op)in->op) {
    /* scalar integer */
    case VEC_OP_DADDU: r[in->d] = (int64_t)((uint64_t)r[in->a] + (uint64_t)rb); break;
    case VEC_OP_DADDUI: r[in->d] = (int64_t)((uint64_t)r[in->a] + (uint64_t)in->imm); break;
    case VEC_OP_DSUBU: r[in->d] = (int64_t)((uint64_t)r[in->a] - (uint64_t)rb); break;
    case VEC_OP_DSUBUI: r[in->d] = (int64_t)((uint64_t)r[in->a] - (uint64_t)in->imm); break;
    case VEC_OP_DMUL: r[in->d] = (int64_t)((uint64_t)r[in->a] * (uint64_t)rb); break;
    case VEC_OP_DSLL: r[in->d] = (int64_t)((uint64_t)r[in->a] << (rb & 63)); break;
    case VEC_OP_DSRL: r[in->d] = (int64_t)((uint64_t)r[in->a] >> (rb & 63)); break;
    case VEC_OP_AND: r[in->d] = r[in->a] & rb; break;
    case VEC_OP_OR: r[in->d] = r[in->a] | rb; break;
    case VEC_OP_XOR: r[in->d] = r[in->a] ^ rb; break;
    case VEC_OP_SLT: r[in->d] = r[in->a] < rb; break;
    case VEC_OP_NOP: break;
    case VEC_OP_HALT: m->halted = true; break;
    /* scalar memory */
    case VEC_OP_LD:
    case VEC_OP_SD:
    case VEC_OP_LDF:
    case VEC_OP_SDF: {
        uint64_t a = (uint64_t)r[in->a] + (uint64_t)in->imm;
        if (!in_mem(m, a))
            return fault(m, in, e, "address 0x%" PRIx64 " is outside memory (0x0-0x%" PRIx64 ")", a, m->mem_size - 1);
        d->lo = a, d->hi = a + 8;
        if (in->op == VEC_OP_LD) r[in->d] = (int64_t)ld64(m->mem + a);
        else if (in->op == VEC_OP_LDF) f[in->d] = ld64(m->mem + a);
        else st64(m->mem + a, in->op == VEC_OP_SD ? (uint64_t)r[in->d] : f[in->d]);
        break;
    }
    /* scalar FP */
    case VEC_OP_ADDD: f[in->d] = b64(f64(f[in->a]) + f64(f[in->b])); break;
    case VEC_OP_SUBD: f[in->d] = b64(f64(f[in->a]) - f64(f[in->b])); break;
    case VEC_OP_MULD: f[in->d] = b64(f64(f[in->a]) * f64(f[in->b])); break;
    case VEC_OP_DIVD: f[in->d] = b64(f64(f[in->a]) / f64(f[in->b])); break;
    /* control */
    case VEC_OP_BEQZ: d->taken = r[in->a] == 0; break;
    case VEC_OP_BNEZ: d->taken = r[in->a] != 0; break;
    case VEC_OP_BEQ: d->taken = r[in->a] == r[in->b]; break;
    case VEC_OP_BNE: d->taken = r[in->a] != r[in->b]; break;
    case VEC_OP_J: d->taken = true; break;
    /* vector control */
    case VEC_OP_MTC1:
        if (r[in->a] < 0 || r[in->a] > (int64_t)m->mvl)
            return fault(m, in, e, "R%u = %" PRId64 " is outside 0..MVL (%u)", in->a, r[in->a], m->mvl);
        m->vlr = (uint32_t)r[in->a];
        break;
    case VEC_OP_MFC1: r[in->d] = m->vlr; break;
    case VEC_OP_MVTM:
        memset(m->vm, 0, m->vmwords * sizeof *m->vm);
        m->vm[0] = f[in->a] & (m->mvl >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << m->mvl) - 1);
        break;
    case VEC_OP_MVFM: f[in->d] = m->vm[0]; break;
    case VEC_OP_POP: {
        int64_t n = 0;
        for (uint32_t i = 0; i < m->vlr; i++) n += vec_vm_bit(m->vm, i);
        r[in->d] = n;
        break;
    }
    case VEC_OP_CVM:
        for (uint32_t i = 0; i < m->mvl; i++) m->vm[i >> 6] |= (uint64_t)1 << (i & 63);
        break;
    /* vector arithmetic */
    case VEC_OP_ADDV: EACH V(in->d)[i] = b64(f64(V(in->a)[i]) + f64(V(in->b)[i])); break;
    case VEC_OP_ADDVS: EACH V(in->d)[i] = b64(f64(V(in->a)[i]) + f64(f[in->b])); break;
    case VEC_OP_SUBV: EACH V(in->d)[i] = b64(f64(V(in->a)[i]) - f64(V(in->b)[i])); break;
    case VEC_OP_SUBVS: EACH V(in->d)[i] = b64(f64(V(in->a)[i]) - f64(f[in->b])); break;
    case VEC_OP_SUBSV: EACH V(in->d)[i] = b64(f64(f[in->a]) - f64(V(in->b)[i])); break;
    case VEC_OP_MULV: EACH V(in->d)[i] = b64(f64(V(in->a)[i]) * f64(V(in->b)[i])); break;
    case VEC_OP_MULVS: EACH V(in->d)[i] = b64(f64(V(in->a)[i]) * f64(f[in->b])); break;
    case VEC_OP_DIVV: EACH V(in->d)[i] = b64(f64(V(in->a)[i]) / f64(V(in->b)[i])); break;
    case VEC_OP_DIVVS: EACH V(in->d)[i] = b64(f64(V(in->a)[i]) / f64(f[in->b])); break;
    case VEC_OP_DIVSV: EACH V(in->d)[i] = b64(f64(f[in->a]) / f64(V(in->b)[i])); break;
    /* vector memory */
    case VEC_OP_LV:
    case VEC_OP_LVWS:
    case VEC_OP_LVI: EACH V(in->d)[i] = ld64(m->mem + m->addr[i]); break;
    case VEC_OP_SV:
    case VEC_OP_SVWS:
    case VEC_OP_SVI: EACH st64(m->mem + m->addr[i], V(in->d)[i]); break;
    case VEC_OP_CVI: {
        uint64_t stride = (uint64_t)(in->alt ? in->imm : r[in->a]), j = 0;
        EACH V(in->d)[j++] = (uint64_t)i * stride;
        break;
    }
    /* compares */
    case VEC_OP_SEQV: case VEC_OP_SNEV: case VEC_OP_SGTV:
    case VEC_OP_SLTV: case VEC_OP_SGEV: case VEC_OP_SLEV:
    case VEC_OP_SEQVS: case VEC_OP_SNEVS: case VEC_OP_SGTVS:
    case VEC_OP_SLTVS: case VEC_OP_SGEVS: case VEC_OP_SLEVS: {
        bool vs = in->op >= VEC_OP_SEQVS;
        int k = in->op - (vs ? VEC_OP_SEQVS : VEC_OP_SEQV);
        memset(m->vm, 0, m->vmwords * sizeof *m->vm);
        for (uint32_t i = 0; i < vl; i++) {
            double y = vs ? f64(f[in->b]) : f64(V(in->b)[i]);
            if (cmp(k, f64(V(in->a)[i]), y)) m->vm[i >> 6] |= (uint64_t)1 << (i & 63);
        }
        break;
    }
    case VEC_NOPS: break;
    }
    if (oi->cls == VEC_C_BRANCH || oi->cls == VEC_C_JUMP) {
        if (d->taken) next = (uint32_t)in->imm;
    }
    r[0] = 0;
    m->pc = next;
    m->executed++;
    return VEC_STEP_OK;
}
