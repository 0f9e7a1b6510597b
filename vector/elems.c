/* elems.c -- the element schedule of one vector instruction (internal.h). */
#include "internal.h"

uint64_t vec_elems(const vec_elem_req *q, uint64_t *e, uint64_t *r)
{
    uint64_t stalls = 0;
    for (uint32_t i = 0; i < q->vl; i++) {
        uint64_t t = q->s;
        if (i > 0 && e[i - 1] > t) t = e[i - 1];
        if (i >= q->lanes && e[i - q->lanes] + 1 > t) t = e[i - q->lanes] + 1;
        for (uint32_t k = 0; k < q->nready; k++)
            if (q->ready[k][i] > t) t = q->ready[k][i];
        for (uint32_t k = 0; k < q->nrmin; k++)
            if (q->rmin[k][i] > t + q->lat) t = q->rmin[k][i] - q->lat;
        if (q->banks && vec_vm_bit(q->act, i)) {
            uint64_t b = mem_banks_access(q->banks, q->addr[i], t);
            stalls += b - t;
            t = b;
        }
        e[i] = t;
        r[i] = t + q->lat;
    }
    return stalls;
}

uint32_t vec_startup(const tp_opts *o, int cls)
{
    switch (cls) {
    case VEC_C_VLSU: return (uint32_t)tp_opt_i(o, VEC_OPT_STARTUP_LOAD);
    case VEC_C_VMUL: return (uint32_t)tp_opt_i(o, VEC_OPT_STARTUP_MUL);
    case VEC_C_VADD: return (uint32_t)tp_opt_i(o, VEC_OPT_STARTUP_ADD);
    case VEC_C_VDIV: return (uint32_t)tp_opt_i(o, VEC_OPT_STARTUP_DIV);
    default: return (uint32_t)tp_opt_i(o, VEC_OPT_STARTUP_OTHER);
    }
}
