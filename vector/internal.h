/* internal.h -- what the files of vector/ share and nobody else needs. */
#ifndef VEC_INTERNAL_H
#define VEC_INTERNAL_H

#include "vec.h"
#include "../mem/banks.h"

/* Fills in->dst/src/nsrc from the form (ops.c). */
void vec_insn_deps(vec_insn *in);

/* The element schedule of one vector instruction (elems.c), shared by both
** timing models.  Element i enters its unit at e[i] and has its result at
** r[i] = e[i] + lat, where e[i] is the first cycle that satisfies all of:
**   e[i] >= s                      the instruction has started
**   e[i] >= e[i-1]                 elements enter in order
**   e[i] >= e[i-lanes*per] + 1     at most lanes * per elements per cycle
**                                  (per = 64 / element bits: a 64-bit lane
**                                  does 64/VPW element operations a cycle)
**   e[i] >= ready[k][i]            chaining: the source element exists
**   e[i] + lat >= rmin[k][i]       WAR/WAW: a result lands no earlier than
**                                  this (the cycle after the element was
**                                  read / last written; 0: no constraint)
** and, for memory (addr != NULL), for active elements only (a masked-off
** element takes its slot but no access): memory is accessed in aligned
** 8-byte words, and an element lying inside the same word as the previous
** active element, entering in the same cycle, shares its access; any other
** element is a new access, of which there are at most `lanes` per cycle
** (each lane generates one address a cycle), and with banks its bank must
** be free (the bank is then reserved; banks see words: bytes / 8, not
** elements).  With 64-bit elements every element is its own access unless
** two share one aligned word.
** Without stalls the last result is s + lat + ceil(vl/(lanes*per)) - 1. */
typedef struct vec_elem_req {
    uint64_t s;
    uint32_t vl, lanes, per, lat;
    const uint64_t *ready[4];
    uint32_t nready;
    const uint64_t *rmin[2];
    uint32_t nrmin;
    const uint64_t *addr;      /* memory: element addresses; NULL otherwise */
    const uint64_t *act;       /* memory: active elements (bitset) */
    uint32_t ebytes;           /* memory: bytes per element */
    mem_banks *banks;          /* NULL: no bank constraint */
} vec_elem_req;
/* Returns the cycles elements waited for busy banks. */
uint64_t vec_elems(const vec_elem_req *q, uint64_t *e, uint64_t *r);

/* Start-up latency of a vector class under options o (ideal memory). */
uint32_t vec_startup(const tp_opts *o, int cls);

#endif
