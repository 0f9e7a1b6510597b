/*
** check_init.c -- initcheck (option check.init): kernel reads of device
** memory that nothing wrote since it was allocated.
**
** Which memory: allocations the driver API declares device-only
** (exec_check_track: cuMemAlloc, cuMemAllocPitch, and so cudaMalloc).
** Everything else a kernel can read is taken as initialized: module
** variables (PTX zero-fills them), managed and host memory (the host writes
** them directly, which the simulator does not see), CUDA arrays, the device
** heap of malloc().
**
** What writes: copies into the allocation (exec_check_written), memsets
** (likewise), device-to-device copies (exec_check_copied: the destination's
** bytes are written where the source's were, so copying an uninitialized
** buffer passes the fact on), and kernels (st, atom, red, sust).  Reads are
** ld, ldu, atom (an atomic reads the old value) and suld.
**
** The state: one bit per byte, in bitmaps of 4 KiB of memory made when
** something is first written there; a tracked allocation's page without a
** bitmap has nothing written.  Freeing an allocation drops its bits.  The
** state lives as long as the device; it costs an eighth of the memory
** written.
**
** A finding is reported once per (kernel, allocation): the first read in
** that kernel of bytes never written, with the number of such bytes in the
** access, the allocation and the offset.
*/
#include "check.h"
#include <stdio.h>
#include <stdlib.h>

enum { IK_PAGE_BITS = 12, IK_PAGE = 1 << IK_PAGE_BITS };

typedef struct ik_page {
    uint8_t bits[IK_PAGE / 8];
} ik_page;

struct ik_dev {
    uint64_t *k;                 /* page number + 1 (0: empty) */
    ik_page **v;
    uint32_t n, cap;
    uint32_t serial;             /* exec_alloc.track of the last tracked allocation */
    uint64_t last_pn;
    ik_page *last;
};

static struct ik_dev *state(exec_dev *d)
{
    if (!d->ik) {
        d->ik = tp_calloc(1, sizeof *d->ik);
        d->ik->last_pn = UINT64_MAX;
    }
    return d->ik;
}

static uint32_t slot_of(uint64_t k, uint32_t cap)
{
    k *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(k >> 32) & (cap - 1);
}

/* The bitmap of page pn; made (all clear) when create. */
static ik_page *page(struct ik_dev *s, uint64_t pn, bool create)
{
    if (pn == s->last_pn) return s->last;
    if (create && (s->n + 1) * 2 > s->cap) {
        uint32_t ncap = s->cap ? s->cap * 2 : 64;
        uint64_t *nk = tp_calloc(ncap, sizeof *nk);
        ik_page **nv = tp_calloc(ncap, sizeof *nv);
        for (uint32_t i = 0; i < s->cap; i++) {
            if (!s->k[i]) continue;
            uint32_t j = slot_of(s->k[i], ncap);
            while (nk[j]) j = (j + 1) & (ncap - 1);
            nk[j] = s->k[i];
            nv[j] = s->v[i];
        }
        free(s->k);
        free(s->v);
        s->k = nk;
        s->v = nv;
        s->cap = ncap;
    }
    if (!s->cap) return NULL;
    uint32_t j = slot_of(pn + 1, s->cap);
    while (s->k[j]) {
        if (s->k[j] == pn + 1) break;
        j = (j + 1) & (s->cap - 1);
    }
    if (!s->k[j]) {
        if (!create) return NULL;
        s->k[j] = pn + 1;
        s->v[j] = tp_calloc(1, sizeof(ik_page));
        s->n++;
    }
    s->last_pn = pn;
    s->last = s->v[j];
    return s->last;
}

/* Sets (val) or clears the bits of [addr, addr+n). */
static void set_range(struct ik_dev *s, uint64_t addr, uint64_t n, bool val)
{
    while (n) {
        uint64_t pn = addr >> IK_PAGE_BITS, off = addr & (IK_PAGE - 1);
        uint64_t chunk = IK_PAGE - off < n ? IK_PAGE - off : n;
        ik_page *p = page(s, pn, val);
        if (p) {
            uint64_t i = off, e = off + chunk;
            for (; i < e && (i & 7); i++) p->bits[i >> 3] = (uint8_t)(val ? p->bits[i >> 3] | 1u << (i & 7) : p->bits[i >> 3] & ~(1u << (i & 7)));
            if (e - i >= 8) {
                memset(&p->bits[i >> 3], val ? 0xff : 0, (e - i) >> 3);
                i += (e - i) & ~7ull;
            }
            for (; i < e; i++) p->bits[i >> 3] = (uint8_t)(val ? p->bits[i >> 3] | 1u << (i & 7) : p->bits[i >> 3] & ~(1u << (i & 7)));
        }
        addr += chunk;
        n -= chunk;
    }
}

static bool bit(struct ik_dev *s, uint64_t addr)
{
    ik_page *p = page(s, addr >> IK_PAGE_BITS, false);
    uint64_t off = addr & (IK_PAGE - 1);
    return p && (p->bits[off >> 3] >> (off & 7) & 1);
}

/* ---- the driver API's side ------------------------------------------------------------ */

void exec_check_track(exec_dev *d, uint64_t addr)
{
    if (!tp_opt_i(&d->opts, OPT_CHECK_INIT)) return;
    const exec_alloc *a = exec_mem_lookup(d, addr, 1);
    if (!a || a->base != addr) return;
    struct ik_dev *s = state(d);
    set_range(s, a->base, a->size, false);
    if (++s->serial == 0) s->serial = 1;
    /* exec_mem_lookup hands out the table's own entry */
    ((exec_alloc *)(uintptr_t)a)->track = s->serial;
}

void exec_check_written(exec_dev *d, uint64_t addr, uint64_t bytes)
{
    if (!bytes || !tp_opt_i(&d->opts, OPT_CHECK_INIT)) return;
    const exec_alloc *a = exec_mem_lookup(d, addr, 1);
    if (!a || !a->track) return;
    uint64_t end = a->base + a->size;
    set_range(state(d), addr, bytes < end - addr ? bytes : end - addr, true);
}

void exec_check_copied(exec_dev *d, uint64_t dst, uint64_t src, uint64_t bytes)
{
    if (!bytes || !tp_opt_i(&d->opts, OPT_CHECK_INIT)) return;
    const exec_alloc *da = exec_mem_lookup(d, dst, 1), *sa = exec_mem_lookup(d, src, 1);
    if (!da || !da->track) return;
    uint64_t n = bytes < da->base + da->size - dst ? bytes : da->base + da->size - dst;
    struct ik_dev *s = state(d);
    if (!sa || !sa->track) {
        set_range(s, dst, n, true);
        return;
    }
    bool overlap = dst < src + n && src < dst + n;
    uint64_t i = 0;
    if (!overlap && (dst & 7) == (src & 7)) {
        /* the same bit offset: whole bitmap bytes, a page chunk at a time */
        for (; i < n && ((dst + i) & 7); i++) set_range(s, dst + i, 1, bit(s, src + i));
        while (n - i >= 8) {
            uint64_t da = dst + i, sa = src + i;
            uint64_t chunk = IK_PAGE - (da & (IK_PAGE - 1));
            if (IK_PAGE - (sa & (IK_PAGE - 1)) < chunk) chunk = IK_PAGE - (sa & (IK_PAGE - 1));
            if (((n - i) & ~7ull) < chunk) chunk = (n - i) & ~7ull;
            ik_page *sp = page(s, sa >> IK_PAGE_BITS, false);
            if (!sp) {
                set_range(s, da, chunk, false);
            } else {
                ik_page *dp = page(s, da >> IK_PAGE_BITS, true);
                memmove(&dp->bits[(da & (IK_PAGE - 1)) >> 3], &sp->bits[(sa & (IK_PAGE - 1)) >> 3], chunk >> 3);
            }
            i += chunk;
        }
        for (; i < n; i++) set_range(s, dst + i, 1, bit(s, src + i));
        return;
    }
    /* a bit at a time, backwards when the ranges overlap that way */
    bool back = dst > src;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t j = back ? n - 1 - k : k;
        set_range(s, dst + j, 1, bit(s, src + j));
    }
}

/* ---- kernels ------------------------------------------------------------------------------ */

void ik_write(exec_dev *d, uint64_t addr, uint64_t size) { set_range(state(d), addr, size, true); }

void ik_freed(exec_dev *d, uint64_t base, uint64_t size)
{
    if (!d->ik || !size) return;
    set_range(d->ik, base, size, false);
}

void ik_dev_free(exec_dev *d)
{
    struct ik_dev *s = d->ik;
    if (!s) return;
    for (uint32_t i = 0; i < s->cap; i++)
        if (s->k[i]) free(s->v[i]);
    free(s->k);
    free(s->v);
    free(s);
    d->ik = NULL;
}

void ik_read(exec_warp *w, int lane, uint32_t pc, uint64_t addr, unsigned size, uint32_t track)
{
    struct ik_dev *s = state(w->g->dev);
    unsigned missing = 0;
    for (unsigned i = 0; i < size; i++) missing += !bit(s, addr + i);
    if (!missing) return;
    exec_grid *g = w->g;
    if (!ck_occurrence(g, EXEC_CHECK_INIT, track, 0, NULL)) return;
    tp_sbuf t;
    tp_sbuf_init(&t);
    tp_sbuf_printf(&t, "uninitialized read of global memory in kernel '%s': %u of the %u bytes read at ", g->kf->name,
                   missing, size);
    ck_global_addr(g, addr, &t);
    tp_sbuf_puts(&t, " were never written (by a copy, a memset or a kernel) since the allocation was made\n");
    ck_side me = {exec_check_gwarp(w), lane, pc, "read"};
    ck_side_text(g, &me, &t);
    ck_emit(g, EXEC_CHECK_INIT, "uninitialized read", "global", pc, pc, addr, tp_sbuf_str(&t));
    tp_sbuf_free(&t);
}
