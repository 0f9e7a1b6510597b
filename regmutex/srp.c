/*
** srp.c -- RegMutex's hardware in one SM: the shared register pool's
** sections, the SRP bitmask, the per-warp look-up table and the warp status
** bitmask (regmutex.h).  Acquire is find-first-zero on the SRP bitmask; the
** scheduler (gpu/sm.c) keeps a warp whose next instruction needs a section
** from issuing while rm_srp_acquire fails.
*/
#include "regmutex.h"

void rm_srp_init(rm_srp *s, uint32_t nwarps, uint32_t nsections)
{
    memset(s, 0, sizeof *s);
    if (nwarps > RM_MAX_WARPS) nwarps = RM_MAX_WARPS;
    s->nwarps = nwarps;
    s->nsections = nsections < nwarps ? nsections : nwarps;
}

int32_t rm_srp_acquire(rm_srp *s, uint32_t w)
{
    if (w >= s->nwarps) return -1;
    if (rm_srp_holds(s, w)) return s->lut[w];
    for (uint32_t k = 0; k * 64 < s->nsections; k++) {
        uint64_t free_bits = ~s->srp[k];
        if (s->nsections - k * 64 < 64) free_bits &= (1ull << (s->nsections - k * 64)) - 1;
        if (!free_bits) continue;
        uint32_t sec = k * 64 + (uint32_t)__builtin_ctzll(free_bits);
        s->srp[k] |= 1ull << (sec % 64);
        s->lut[w] = (uint8_t)sec;
        s->status[w / 64] |= 1ull << (w % 64);
        s->used++;
        s->acquires++;
        return (int32_t)sec;
    }
    return -1;
}

int32_t rm_srp_acquire_at(rm_srp *s, uint32_t w, uint32_t sec)
{
    if (w >= s->nwarps || sec >= s->nsections) return -1;
    if (rm_srp_holds(s, w)) return s->lut[w];
    if (rm_srp_taken(s, sec)) return -1;
    s->srp[sec / 64] |= 1ull << (sec % 64);
    s->lut[w] = (uint8_t)sec;
    s->status[w / 64] |= 1ull << (w % 64);
    s->used++;
    s->acquires++;
    return (int32_t)sec;
}

void rm_srp_release(rm_srp *s, uint32_t w)
{
    if (w >= s->nwarps || !rm_srp_holds(s, w)) return;
    uint32_t sec = s->lut[w];
    s->status[w / 64] &= ~(1ull << (w % 64));
    s->srp[sec / 64] &= ~(1ull << (sec % 64));
    s->used--;
    s->releases++;
}

uint32_t rm_state_bits(uint32_t nwarps)
{
    uint32_t lg = 0;
    while ((1u << lg) < nwarps) lg++;
    return nwarps + nwarps * lg + nwarps;
}
