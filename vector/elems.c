/* elems.c -- the element schedule of one vector instruction (internal.h
** states the rules) and the start-up latencies. */
#include "internal.h"

/* Whether an element of n bytes at a lies inside one aligned 8-byte word. */
static inline bool in_word(uint64_t a, uint32_t n) { return (a & 7) + n <= 8; }

uint64_t vec_elems(const vec_elem_req *q, uint64_t *e, uint64_t *r)
{
    uint64_t stalls = 0;
    uint32_t width = q->lanes * (q->per ? q->per : 1);
    uint64_t acc[64];          /* cycles of the last `lanes` accesses (a ring) */
    uint32_t nacc = 0, prev = UINT32_MAX;
    TP_ASSERT(q->lanes <= 64);
    for (uint32_t i = 0; i < q->vl; i++) {
        uint64_t t = q->s;
        if (i > 0 && e[i - 1] > t) t = e[i - 1];
        if (i >= width && e[i - width] + 1 > t) t = e[i - width] + 1;
        for (uint32_t k = 0; k < q->nready; k++)
            if (q->ready[k][i] > t) t = q->ready[k][i];
        for (uint32_t k = 0; k < q->nrmin; k++)
            if (q->rmin[k][i] > t + q->lat) t = q->rmin[k][i] - q->lat;
        if (q->addr && vec_vm_bit(q->act, i)) {
            uint64_t a = q->addr[i];
            bool shares = prev != UINT32_MAX && e[prev] == t && (q->addr[prev] >> 3) == (a >> 3) &&
                          in_word(a, q->ebytes) && in_word(q->addr[prev], q->ebytes);
            if (!shares) {
                if (nacc >= q->lanes && acc[nacc % q->lanes] + 1 > t) t = acc[nacc % q->lanes] + 1;
                if (q->banks) {
                    uint64_t b = mem_banks_access(q->banks, a, t);
                    stalls += b - t;
                    t = b;
                }
                acc[nacc % q->lanes] = t;
                nacc++;
            }
            prev = i;
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
