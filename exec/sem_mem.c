/*
** sem_mem.c -- memory instructions: ld, ldu, st, atom, red, cvta, isspacep,
** and the per-lane address checks every access makes.
**
** Every access is checked: global and constant addresses must lie inside a
** live device allocation, shared addresses inside the CTA's shared memory,
** local addresses inside the thread's frame and stack, kernel parameters
** inside the parameter buffer (read-only); every access must be aligned to
** its size.  A failed check stops the grid with a message that names the
** kernel, block, thread, pc and address (exec_fault).
*/
#include "check.h"
#include <stdio.h>
#ifdef EXEC_HOST_VEC
#include <immintrin.h>
#endif

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "tpsim assumes a little-endian host");

/* ---- symbols ---------------------------------------------------------------- */

uint64_t exec_sym_addr(exec_warp *w, int32_t sym, uint8_t *space_out)
{
    exec_grid *g = w->g;
    const ptx_module *p = g->m->ptx;
    uint32_t kind = (uint32_t)sym & PTX_SYM_KIND_MASK, idx = (uint32_t)sym & ~PTX_SYM_KIND_MASK;
    uint8_t sp = PTX_SP_GLOBAL;
    uint64_t a = 0;
    const exec_frame *fr = &w->frames[w->cf];
    const ptx_func *f = &p->funcs[fr->func];
    if (kind == 0) {
        const ptx_var *v = &p->vars[idx];
        if (v->space == PTX_SP_SHARED || v->space == PTX_SP_SHARED_CLUSTER) {
            sp = PTX_SP_SHARED;
            a = g->ki->shared_off[idx];
        } else {
            sp = PTX_SP_GLOBAL;
            a = g->m->var_addr[idx];
        }
    } else if (kind == PTX_SYM_FVAR) {
        const ptx_var *v = &f->vars[idx];
        if (v->space == PTX_SP_SHARED || v->space == PTX_SP_SHARED_CLUSTER) {
            sp = PTX_SP_SHARED;
            a = g->ki->fvar_off[fr->func] ? g->ki->fvar_off[fr->func][idx] : 0;
        } else {
            sp = PTX_SP_LOCAL;
            a = fr->sp + v->offset;
        }
    } else if (kind == PTX_SYM_PARAM) {
        if (f->is_entry) {
            sp = PTX_SP_PARAM;
            a = f->params[idx].offset;
        } else {
            sp = PTX_SP_LOCAL;
            a = fr->sp + f->params[idx].offset;
        }
    } else if (kind == PTX_SYM_RET) {
        sp = PTX_SP_LOCAL;
        a = fr->sp + f->rets[idx].offset;
    }
    if (space_out) *space_out = sp;
    return a;
}

/* ---- the per-lane check ------------------------------------------------------ */

static void describe_global(exec_dev *dev, uint64_t addr, unsigned size, char *buf, size_t n)
{
    /* Find the nearest allocation below and above. */
    const exec_alloc *below = NULL, *above = NULL;
    for (uint32_t i = 0; i < dev->nallocs; i++) {
        const exec_alloc *a = &dev->allocs[i];
        if (a->base <= addr) below = a;
        else if (!above) above = a;
    }
    if (addr == 0 || addr < 4096) {
        snprintf(buf, n, "a null pointer dereference");
    } else if (below && addr < below->base + below->size + 4096 && addr >= below->base) {
        uint64_t end = below->base + below->size;
        if (addr >= end)
            snprintf(buf, n, "%llu bytes past the end of the %llu-byte allocation at 0x%llx",
                     (unsigned long long)(addr - end), (unsigned long long)below->size,
                     (unsigned long long)below->base);
        else
            snprintf(buf, n, "the %u-byte access runs past the end of the %llu-byte allocation at 0x%llx",
                     size, (unsigned long long)below->size, (unsigned long long)below->base);
    } else if (above && above->base - addr <= 4096) {
        snprintf(buf, n, "%llu bytes before the %llu-byte allocation at 0x%llx",
                 (unsigned long long)(above->base - addr), (unsigned long long)above->size,
                 (unsigned long long)above->base);
    } else if (addr - EXEC_WIN_SHARED < 3 * EXEC_WIN_SIZE) {
        snprintf(buf, n, "a generic shared/local address used as a global one");
    } else {
        snprintf(buf, n, "not inside any device allocation");
    }
}

static const char *space_word(int space)
{
    switch (space) {
    case PTX_SP_GLOBAL: return "global";
    case PTX_SP_SHARED: return "shared";
    case PTX_SP_LOCAL: return "local";
    case PTX_SP_CONST: return "constant";
    case PTX_SP_PARAM: return "parameter";
    default: return "generic";
    }
}

/* exec.oob=warn: the access goes on as on a GPU, which does not check
** bounds within its mapped pages.  Each instruction is reported once per
** module; a load reads zeros, a store (or an atomic's write) goes to a sink. */
static uint8_t *oob_go_on(exec_warp *w, int lane, int space, uint64_t addr, unsigned size, bool write,
                          const char *why)
{
    exec_grid *g = w->g;
    exec_mod *m = g->m;
    uint32_t pc = exec_top(w)->pc;
    if (!m->oob_seen) m->oob_seen = tp_calloc((m->ptx->ninsns + 63) / 64 + 1, sizeof(uint64_t));
    if (!(m->oob_seen[pc / 64] >> (pc % 64) & 1)) {
        m->oob_seen[pc / 64] |= 1ull << (pc % 64);
        tp_sbuf b;
        tp_sbuf_init(&b);
        exec_describe_pc(m, pc, &b);
        fprintf(stderr, "tpsim: warning: out-of-bounds %u-byte %s %s address 0x%llx (%s) in kernel '%s', thread %u of block (%u,%u,%u), %s; going on (exec.oob=warn: loads read zeros, stores are dropped; reported once per instruction)\n",
                size, write ? "store to" : "load from", space_word(space), (unsigned long long)addr, why,
                g->kf->name, w->tid0 + (uint32_t)lane, w->cta->id[0], w->cta->id[1], w->cta->id[2], tp_sbuf_str(&b));
        tp_sbuf_free(&b);
    }
    memset(g->oob_buf, 0, sizeof g->oob_buf);
    return g->oob_buf;
}

/* Whether size bytes at global address a lie in one device allocation,
** which is then g's window (g->cache_lo, cache_hi).  The two allocations
** last hit are kept: a kernel that reads one array and writes another, or
** reads two, alternates between them, and each switch would otherwise
** search the allocation table. */
static inline bool global_window(exec_grid *g, uint64_t a, uint64_t size)
{
    if (a >= g->cache_lo && a < g->cache_hi && size <= g->cache_hi - a) return true;
    uint64_t lo = g->cache2_lo, hi = g->cache2_hi;
    if (!(a >= lo && a < hi && size <= hi - a)) {
        const exec_alloc *al = exec_mem_lookup(g->dev, a, size);
        if (!al) return false;
        lo = al->base;
        hi = al->base + al->size;
    }
    g->cache2_lo = g->cache_lo;
    g->cache2_hi = g->cache_hi;
    g->cache_lo = lo;
    g->cache_hi = hi;
    return true;
}

uint8_t *exec_lane_ptr(exec_warp *w, int lane, int space, uint64_t addr, unsigned size, bool write)
{
    exec_grid *g = w->g;
    const char *what = write ? "store to" : "load from";
    if (space == PTX_SP_GENERIC) {
        if (addr - EXEC_WIN_SHARED < EXEC_WIN_SIZE) {
            space = PTX_SP_SHARED;
            addr -= EXEC_WIN_SHARED;
        } else if (addr - EXEC_WIN_LOCAL < EXEC_WIN_SIZE) {
            space = PTX_SP_LOCAL;
            addr -= EXEC_WIN_LOCAL;
        } else if (addr - EXEC_WIN_PARAM < EXEC_WIN_SIZE) {
            space = PTX_SP_PARAM;
            addr -= EXEC_WIN_PARAM;
        } else {
            space = PTX_SP_GLOBAL;
        }
    }
    if (size > 1 && (addr & (size - 1))) {
        exec_fault(w, lane, EXEC_ERR_MISALIGNED, "misaligned %u-byte %s %s address 0x%llx", size, what,
                   space_word(space), (unsigned long long)addr);
        return NULL;
    }
    switch (space) {
    case PTX_SP_GLOBAL:
    case PTX_SP_CONST: {
        if (global_window(g, addr, size)) return (uint8_t *)(uintptr_t)addr;
        char why[200];
        describe_global(g->dev, addr, size, why, sizeof why);
        if (g->oob_warn) return oob_go_on(w, lane, space, addr, size, write, why);
        exec_fault(w, lane, EXEC_ERR_ILLEGAL_ADDRESS, "out-of-bounds %u-byte %s %s address 0x%llx (%s)", size, what,
                   space_word(space), (unsigned long long)addr, why);
        return NULL;
    }
    case PTX_SP_SHARED:
        if (addr >= w->cta->shsize || size > w->cta->shsize - addr) {
            exec_fault(w, lane, EXEC_ERR_ILLEGAL_ADDRESS,
                       "out-of-bounds %u-byte %s shared address 0x%llx (the CTA has %u bytes of shared memory)",
                       size, what, (unsigned long long)addr, w->cta->shsize);
            return NULL;
        }
        return w->cta->shmem + addr;
    case PTX_SP_LOCAL:
        if (addr >= g->local_per_thread || size > g->local_per_thread - addr) {
            exec_fault(w, lane, EXEC_ERR_ILLEGAL_ADDRESS,
                       "out-of-bounds %u-byte %s local address 0x%llx (each thread has %u bytes of local memory)",
                       size, what, (unsigned long long)addr, g->local_per_thread);
            return NULL;
        }
        return w->local + (size_t)lane * g->local_per_thread + addr;
    case PTX_SP_PARAM:
        if (write) {
            exec_fault(w, lane, EXEC_ERR_ILLEGAL_ADDRESS, "store to kernel parameter space (read-only) at offset 0x%llx",
                       (unsigned long long)addr);
            return NULL;
        }
        if (addr >= g->params_bytes || size > g->params_bytes - addr) {
            exec_fault(w, lane, EXEC_ERR_ILLEGAL_ADDRESS,
                       "out-of-bounds %u-byte load from kernel parameter offset 0x%llx (the kernel has %u bytes of parameters)",
                       size, (unsigned long long)addr, g->params_bytes);
            return NULL;
        }
        return g->params + addr;
    default:
        exec_fault(w, lane, EXEC_ERR_UNSUPPORTED, "access to the %s state space is not supported",
                   space < PTX_SP_COUNT ? ptx_space_names[space] : "?");
        return NULL;
    }
}

/* The fast cases of an access in space: global or constant memory in the
** allocation last hit, the CTA's shared memory, the kernel's parameters
** (read only): [*lo, *hi) is the window, a host pointer is *off + address.
** False for every other space (exec_lane_ptr's full rules). */
static inline bool fast_window(exec_warp *w, int space, bool write, uint64_t *lo, uint64_t *hi, uintptr_t *off)
{
    exec_grid *g = w->g;
    if (space == PTX_SP_GLOBAL || space == PTX_SP_CONST) *lo = g->cache_lo, *hi = g->cache_hi, *off = 0;
    else if (space == PTX_SP_SHARED) *lo = 0, *hi = w->cta->shsize, *off = (uintptr_t)w->cta->shmem;
    else if (space == PTX_SP_PARAM && !write) *lo = 0, *hi = g->params_bytes, *off = (uintptr_t)g->params;
    else return false;
    return true;
}

static inline uint8_t *lane_ptr(exec_warp *w, int l, int space, uint64_t a, unsigned size, bool write)
{
    uint64_t lo, hi;
    uintptr_t off;
    if (!(a & (size - 1)) && fast_window(w, space, write, &lo, &hi, &off) && a >= lo && a < hi && size <= hi - a)
        return (uint8_t *)(off + (uintptr_t)a);
    return exec_lane_ptr(w, l, space, a, size, write);
}

/* Nonzero when some lane of a full warp is misaligned (addr & align) or out
** of [lo, lo + span]; the same loop compiled for AVX2 hosts, where it
** vectorises (64-bit compares), and for any x86-64 (EXEC_HOST_VEC). */
#define BAD_LANES_BODY                                                                     \
    uint64_t bad = 0;                                                                      \
    for (int l = 0; l < 32; l++) bad |= (addr[l] & align) | (uint64_t)(addr[l] - lo > span); \
    return bad
static uint64_t bad_lanes(const uint64_t *addr, uint64_t lo, uint64_t span, uint64_t align) { BAD_LANES_BODY; }
#ifdef EXEC_HOST_VEC
EXEC_VEC_TARGET static uint64_t bad_lanes_vec(const uint64_t *addr, uint64_t lo, uint64_t span, uint64_t align)
{
    BAD_LANES_BODY;
}
#define BAD_LANES(a, lo, span, align) \
    (exec_host_vec() ? bad_lanes_vec(a, lo, span, align) : bad_lanes(a, lo, span, align))
#else
#define BAD_LANES(a, lo, span, align) bad_lanes(a, lo, span, align)
#endif

/* Whether every active lane's access of size bytes is aligned and in one of
** lane_ptr's fast cases, global and constant memory in one allocation (the
** first active lane's, which becomes the one last hit); then lane l's host
** pointer is *off + addr[l].  One tight pass, the bounds read once.  False
** when any lane needs exec_lane_ptr's full rules (another allocation, a
** generic or local address, a fault): the caller then goes lane by lane,
** as before, so faults keep their order. */
static bool lane_ptrs_fast(exec_warp *w, int space, uint32_t m, const uint64_t *addr, unsigned size, bool write,
                           uintptr_t *off)
{
    exec_grid *g = w->g;
    if ((space == PTX_SP_GLOBAL || space == PTX_SP_CONST) && m) {
        /* the allocation of the first lane's address, found as exec_lane_ptr
        ** would find it (a kernel reading two arrays alternates) */
        if (!global_window(g, addr[__builtin_ctz(m)], size)) return false;
    }
    uint64_t lo, hi;
    if (!fast_window(w, space, write, &lo, &hi, off)) return false;
    if (hi < size || hi - size < lo) return false;
    /* in range: addr - lo <= hi - size - lo (unsigned: below lo wraps high) */
    uint64_t span = hi - size - lo, align = size - 1, bad = 0;
    if (m == EXEC_FULL) {
        bad = BAD_LANES(addr, lo, span, align);
    } else {
        EXEC_LANES(m, bad |= (addr[l] & align) | (uint64_t)(addr[l] - lo > span));
    }
    return !bad;
}

/* For exec_warp_step's record: each active lane's address in the space it
** hits (generic addresses resolved through the windows). */
static void record_addrs(exec_warp *w, int space, uint32_t m, const uint64_t *addr)
{
    exec_rec *rec = w->x->rec;
    if (space != PTX_SP_GENERIC) {
        rec->space = (uint8_t)space;
        EXEC_LANES(m, rec->addr[l] = addr[l]);
        return;
    }
    int first = -1;
    bool mixed = false;
    EXEC_LANES(m, {
        uint64_t a = addr[l];
        int sp = PTX_SP_GLOBAL;
        if (a - EXEC_WIN_SHARED < EXEC_WIN_SIZE) sp = PTX_SP_SHARED, a -= EXEC_WIN_SHARED;
        else if (a - EXEC_WIN_LOCAL < EXEC_WIN_SIZE) sp = PTX_SP_LOCAL, a -= EXEC_WIN_LOCAL;
        else if (a - EXEC_WIN_PARAM < EXEC_WIN_SIZE) sp = PTX_SP_PARAM, a -= EXEC_WIN_PARAM;
        rec->addr[l] = a;
        rec->lspace[l] = (uint8_t)sp;
        if (first < 0) first = sp;
        else if (sp != first) mixed = true;
    });
    rec->space = (uint8_t)(first < 0 ? PTX_SP_GLOBAL : first);
    if (mixed) rec->events |= EXEC_EV_MIXED_SPACE;
}

/* The slow path of every ld/st/atom/red when g->mem_hook is set: the
** stepping record's addresses, the correctness checks.  (The instruction is
** found from the pc, so that the fast path passes nothing more: the
** compiler then keeps lane_addrs's arguments as they were without hooks.) */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void mem_hook(exec_warp *w, int space, uint32_t m, const uint64_t *addr)
{
    exec_grid *g = w->g;
    uint32_t pc = exec_top(w)->pc;
    if (w->x->rec) record_addrs(w, space, m, addr);
    if (g->checks) exec_check_mem(w, &g->m->xi[pc], &g->m->d[pc], space, m, addr);
}

#ifdef EXEC_HOST_VEC
/* A full warp's addresses, base register plus offset (narrow: the low 32
** bits), four lanes an instruction on AVX2 hosts; addr is the caller's own
** array, never the register row b. */
EXEC_VEC_TARGET static void add_off_vec(uint64_t *addr, const uint64_t *b, uint64_t off, bool narrow)
{
    const __m256i o = _mm256_set1_epi64x((long long)off);
    const __m256i keep = _mm256_set1_epi64x(narrow ? 0xffffffffll : -1ll);
    for (int l = 0; l < 32; l += 4)
        _mm256_storeu_si256((__m256i *)(addr + l),
                            _mm256_and_si256(_mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(b + l)), o), keep));
}
#endif

static inline uint64_t load_bytes(const uint8_t *p, unsigned size, bool sext)
{
    switch (size) {
    case 1: return sext ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return sext ? (uint64_t)(int64_t)(int16_t)v : v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return sext ? (uint64_t)(int64_t)(int32_t)v : v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

#ifdef EXEC_HOST_VEC
/* The AVX2 helpers below, inlined into their callers (which carry the target). */
#if defined(__GNUC__)
#define VEC_INLINE EXEC_VEC_TARGET static inline __attribute__((always_inline))
#else
#define VEC_INLINE EXEC_VEC_TARGET static inline
#endif

/* A full warp's ld.v2/ld.v4 of 4-byte elements, every lane's bytes at
** off + addr[l] (checked by the caller): four lanes at a time, their
** elements transposed into the rows (each 32-bit value zero- or
** sign-extended to the row's 64 bits, as load_bytes gives it).  For lanes
** l..l+3 the rows are written in element order, so where two elements name
** one row the later wins, as in the lane-by-lane path. */
VEC_INLINE __m256i lv_widen(__m128i x, bool sext) { return sext ? _mm256_cvtepi32_epi64(x) : _mm256_cvtepu32_epi64(x); }
/* The loop for one vector width and one extension (constants where
** load_vec4x32_vec calls it, so that each copy has no branch inside). */
VEC_INLINE void lv_loop(uint64_t *const *rows, unsigned vec, uintptr_t off, const uint64_t *addr, bool sext)
{
    uint64_t *r0 = rows[0], *r1 = rows[1], *r2 = vec == 4 ? rows[2] : NULL, *r3 = vec == 4 ? rows[3] : NULL;
    for (int l = 0; l < 32; l += 4) {
        const uint8_t *p0 = (const uint8_t *)(off + addr[l]), *p1 = (const uint8_t *)(off + addr[l + 1]),
                      *p2 = (const uint8_t *)(off + addr[l + 2]), *p3 = (const uint8_t *)(off + addr[l + 3]);
        if (vec == 4) {
            __m128i a = _mm_loadu_si128((const __m128i *)p0), b = _mm_loadu_si128((const __m128i *)p1),
                    c = _mm_loadu_si128((const __m128i *)p2), d = _mm_loadu_si128((const __m128i *)p3);
            __m128i ab0 = _mm_unpacklo_epi32(a, b), cd0 = _mm_unpacklo_epi32(c, d); /* elements 0, 1 */
            __m128i ab1 = _mm_unpackhi_epi32(a, b), cd1 = _mm_unpackhi_epi32(c, d); /* elements 2, 3 */
            _mm256_storeu_si256((__m256i *)(r0 + l), lv_widen(_mm_unpacklo_epi64(ab0, cd0), sext));
            _mm256_storeu_si256((__m256i *)(r1 + l), lv_widen(_mm_unpackhi_epi64(ab0, cd0), sext));
            _mm256_storeu_si256((__m256i *)(r2 + l), lv_widen(_mm_unpacklo_epi64(ab1, cd1), sext));
            _mm256_storeu_si256((__m256i *)(r3 + l), lv_widen(_mm_unpackhi_epi64(ab1, cd1), sext));
        } else {
            __m128i ab = _mm_unpacklo_epi32(_mm_loadl_epi64((const __m128i *)p0), _mm_loadl_epi64((const __m128i *)p1));
            __m128i cd = _mm_unpacklo_epi32(_mm_loadl_epi64((const __m128i *)p2), _mm_loadl_epi64((const __m128i *)p3));
            _mm256_storeu_si256((__m256i *)(r0 + l), lv_widen(_mm_unpacklo_epi64(ab, cd), sext));
            _mm256_storeu_si256((__m256i *)(r1 + l), lv_widen(_mm_unpackhi_epi64(ab, cd), sext));
        }
    }
}
EXEC_VEC_TARGET static void load_vec4x32_vec(uint64_t *const *rows, unsigned vec, uintptr_t off,
                                             const uint64_t *addr, bool sext)
{
    if (vec == 4) {
        if (sext) lv_loop(rows, 4, off, addr, true);
        else lv_loop(rows, 4, off, addr, false);
    } else {
        if (sext) lv_loop(rows, 2, off, addr, true);
        else lv_loop(rows, 2, off, addr, false);
    }
}
#endif

#ifdef EXEC_HOST_VEC
/* ---- dense accesses ---------------------------------------------------------
** A full warp's 4- or 8-byte access whose lanes form four runs of eight
** consecutive elements -- one run of 32 in a 1-D block, two rows of 16 in a
** 16-wide 2-D one, or four rows of 8 -- moves each run with a few vector
** instructions (AVX2 hosts) instead of lane by lane.  A load may also have
** groups of eight lanes that all read one element (a 16-wide block's row
** reading A[row][k]): that element is read once and copied to the eight.
** Only when every group is aligned and inside one window (dense_window);
** anything else, faults included, takes the lane-by-lane path, so what the
** model computes and reports is the same either way
** (tests/unit/test_exec_mem.c runs both). */

/* Whether each group of eight lanes 8k..8k+7 is a run (at addr[8k] + i *
** esz) or, where uni is not NULL, all at addr[8k]: then bit k of *uni is
** set. */
VEC_INLINE bool runs_of_8(const uint64_t *addr, unsigned esz, int *uni)
{
    const __m256i iota = _mm256_set_epi64x(3 * (long long)esz, 2 * (long long)esz, (long long)esz, 0);
    const __m256i four = _mm256_set1_epi64x(4 * (long long)esz);
    __m256i diff = _mm256_setzero_si256();
    for (int k = 0; k < 32; k += 8) {
        __m256i lo = _mm256_add_epi64(_mm256_set1_epi64x((long long)addr[k]), iota);
        diff = _mm256_or_si256(diff, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(addr + k)), lo));
        diff = _mm256_or_si256(diff, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(addr + k + 4)),
                                                      _mm256_add_epi64(lo, four)));
    }
    if (uni) *uni = 0;
    if (_mm256_testz_si256(diff, diff)) return true;   /* four runs: the common case, one test */
    if (!uni) return false;
    int bits = 0;
    for (int k = 0; k < 32; k += 8) {   /* group by group: a run, or one element */
        __m256i a0 = _mm256_set1_epi64x((long long)addr[k]), lo = _mm256_add_epi64(a0, iota);
        __m256i x = _mm256_loadu_si256((const __m256i *)(addr + k));
        __m256i y = _mm256_loadu_si256((const __m256i *)(addr + k + 4));
        __m256i run = _mm256_or_si256(_mm256_xor_si256(x, lo), _mm256_xor_si256(y, _mm256_add_epi64(lo, four)));
        if (_mm256_testz_si256(run, run)) continue;
        __m256i one = _mm256_or_si256(_mm256_xor_si256(x, a0), _mm256_xor_si256(y, a0));
        if (!_mm256_testz_si256(one, one)) return false;
        bits |= 1 << (k / 8);
    }
    *uni = bits;
    return true;
}

/* The host pointers p of the four groups whose first elements are the lanes
** of start, of a dense full-warp access of esz bytes a lane in space (the
** groups in uni one element each, the others eight); false when some group
** is misaligned or not inside one window. */
VEC_INLINE bool dense_window(exec_warp *w, int space, __m256i start, unsigned esz, int uni, bool write,
                              uint8_t *p[4])
{
    exec_grid *g = w->g;
    if ((space == PTX_SP_GLOBAL || space == PTX_SP_CONST) &&
        !global_window(g, (uint64_t)_mm256_extract_epi64(start, 0), esz))
        return false;
    uint64_t lo, hi;
    uintptr_t off;
    uint64_t run = 8 * (uint64_t)esz;
    if (!fast_window(w, space, write, &lo, &hi, &off) || hi < lo + run) return false;
    /* each group's bytes: 8 * esz, or esz for one element (the lanes of uni) */
    __m256i ext = _mm256_set1_epi64x((long long)run);
    if (uni) {
        const __m256i groups = _mm256_set_epi64x(8, 4, 2, 1);
        __m256i one = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(uni), groups), groups);
        ext = _mm256_blendv_epi8(ext, _mm256_set1_epi64x((long long)esz), one);
    }
    /* misaligned, or start - lo > hi - lo - ext (unsigned: below lo wraps high) */
    const __m256i sign = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    __m256i rel = _mm256_xor_si256(_mm256_sub_epi64(start, _mm256_set1_epi64x((long long)lo)), sign);
    __m256i lim = _mm256_xor_si256(_mm256_sub_epi64(_mm256_set1_epi64x((long long)(hi - lo)), ext), sign);
    __m256i bad = _mm256_or_si256(_mm256_cmpgt_epi64(rel, lim), _mm256_and_si256(start, _mm256_set1_epi64x((long long)esz - 1)));
    if (!_mm256_testz_si256(bad, bad)) return false;
    _mm256_storeu_si256((__m256i *)p, _mm256_add_epi64(start, _mm256_set1_epi64x((long long)off)));
    return true;
}

/* The same from the lanes' addresses (performance mode and the checks,
** which have them); uni: as runs_of_8. */
EXEC_VEC_TARGET static bool dense_runs(exec_warp *w, int space, const uint64_t *addr, unsigned esz, bool write,
                                       uint8_t *p[4], int *uni)
{
    if (!runs_of_8(addr, esz, uni)) return false;
    __m256i start = _mm256_set_epi64x((long long)addr[24], (long long)addr[16], (long long)addr[8], (long long)addr[0]);
    return dense_window(w, space, start, esz, uni ? *uni : 0, write, p);
}

/* The same straight from the address operand a's base register, without the
** lanes' addresses (functional mode without checks: nothing asks for them):
** a register base in global, constant or shared memory.  A 32-bit address
** (a 32-bit base, or shared memory) wraps at 4 GB: a group that might wrap
** is not dense here. */
EXEC_VEC_TARGET static bool dense_base(exec_warp *w, const exec_dinsn *d, const ptx_opnd *a, bool write, uint8_t *p[4],
                                       int *uni)
{
    int space = d->space;
    unsigned esz = d->size;
    if (a->base != PTX_AB_REG || (space != PTX_SP_GLOBAL && space != PTX_SP_CONST && space != PTX_SP_SHARED))
        return false;
    const uint64_t *b = w->fp + (size_t)a->r * 32;
    if (!runs_of_8(b, esz, uni)) return false;
    __m256i start = _mm256_add_epi64(_mm256_set_epi64x((long long)b[24], (long long)b[16], (long long)b[8], (long long)b[0]),
                                     _mm256_set1_epi64x(a->imm));
    if (d->abase32 || space == PTX_SP_SHARED) {
        start = _mm256_and_si256(start, _mm256_set1_epi64x(0xffffffffll));
        /* wraps: start > 2^32 - 8 * esz (start < 2^32: a signed compare) */
        __m256i wrap = _mm256_cmpgt_epi64(start, _mm256_set1_epi64x(0xffffffffll - 8 * (long long)esz));
        if (!_mm256_testz_si256(wrap, wrap)) return false;
    }
    return dense_window(w, space, start, esz, uni ? *uni : 0, write, p);
}

/* A dense load into the register row r: 4 bytes zero- or sign-extended, or
** 8; the groups in uni read one element for their eight lanes. */
EXEC_VEC_TARGET static void dense_load(uint64_t *r, uint8_t *const p[4], unsigned esz, bool sext, int uni)
{
    for (int k = 0; k < 4; k++, r += 8) {
        if (uni >> k & 1) {
            __m256i x = _mm256_set1_epi64x((long long)(esz == 8 ? load_bytes(p[k], 8, false) : load_bytes(p[k], 4, sext)));
            _mm256_storeu_si256((__m256i *)r, x);
            _mm256_storeu_si256((__m256i *)(r + 4), x);
            continue;
        }
        if (esz == 8) {
            memcpy(r, p[k], 64);
            continue;
        }
        __m128i a = _mm_loadu_si128((const __m128i *)p[k]), b = _mm_loadu_si128((const __m128i *)(p[k] + 16));
        _mm256_storeu_si256((__m256i *)r, sext ? _mm256_cvtepi32_epi64(a) : _mm256_cvtepu32_epi64(a));
        _mm256_storeu_si256((__m256i *)(r + 4), sext ? _mm256_cvtepi32_epi64(b) : _mm256_cvtepu32_epi64(b));
    }
}

/* A dense store of the register row v (4 bytes: each lane's low word);
** whether it changed memory.  The runs are written in lane order, each
** compared just before it is written, as the lane-by-lane path does: runs
** that overlap end with the later lanes' values. */
EXEC_VEC_TARGET static bool dense_store(const uint64_t *v, uint8_t *const p[4], unsigned esz)
{
    bool changed = false;
    for (int k = 0; k < 4; k++, v += 8) {
        if (esz == 8) {
            if (!changed && memcmp(p[k], v, 64)) changed = true;
            memcpy(p[k], v, 64);
            continue;
        }
        __m256i x = exec_low32x8(v);
        __m256i old = _mm256_loadu_si256((const __m256i *)p[k]);
        if (!changed && !_mm256_testz_si256(_mm256_xor_si256(old, x), _mm256_xor_si256(old, x))) changed = true;
        _mm256_storeu_si256((__m256i *)p[k], x);
    }
    return changed;
}
#endif

/* Per-lane addresses of an address operand; returns the state space.  A
** 32-bit base register makes a 32-bit address: base + offset wraps in 32
** bits, as the hardware's address arithmetic does; shared and local
** addresses are 32-bit offsets whatever the base's width. */
static int lane_addrs(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, const ptx_opnd *a,
                      uint32_t m, uint64_t *addr)
{
    int space = d->space;
    if (a->base == PTX_AB_REG) {
        const uint64_t *b = w->fp + (size_t)a->r * 32;
        uint64_t off = (uint64_t)a->imm;
        bool narrow = d->abase32 || space == PTX_SP_SHARED || space == PTX_SP_LOCAL;
#ifdef EXEC_HOST_VEC
        if (m == EXEC_FULL && exec_host_vec()) add_off_vec(addr, b, off, narrow);
        else
#endif
        if (narrow) EXEC_LANES(m, addr[l] = (uint32_t)(b[l] + off));
        else EXEC_LANES(m, addr[l] = b[l] + off);
        if (space == PTX_SP_PARAM) {
            /* A parameter address in a register: the kernel's parameter buffer,
            ** or (inside a .func) the frame in local memory. */
            if (w->cf != 0) space = PTX_SP_LOCAL;
            else EXEC_LANES(m, if (addr[l] - EXEC_WIN_PARAM < EXEC_WIN_SIZE) addr[l] -= EXEC_WIN_PARAM);
        }
    } else {
        uint64_t v = (uint64_t)a->imm;
        if (a->base == PTX_AB_SYM) {
            uint8_t sp;
            v += exec_sym_addr(w, a->r, &sp);
            if (space == PTX_SP_GENERIC) {
                if (sp == PTX_SP_SHARED) v += EXEC_WIN_SHARED;
                else if (sp == PTX_SP_LOCAL) v += EXEC_WIN_LOCAL;
                else if (sp == PTX_SP_PARAM) v += EXEC_WIN_PARAM;
            } else if (space != PTX_SP_CONST || sp != PTX_SP_GLOBAL) {
                space = sp;
            }
        }
        EXEC_LANES(m, addr[l] = v);
    }
    if (TP_UNLIKELY(w->x->mem_hook)) mem_hook(w, space, m, addr);
    (void)in;
    return space;
}

/* Destination/source row of element k of a (possibly vector) operand; NULL for a sink. */
static inline const ptx_opnd *elem(const exec_warp *w, const ptx_opnd *o, unsigned k)
{
    if (o->kind == PTX_OK_VEC) return &w->g->m->xpool[o->r + k];
    return o;
}

/* ---- ld / ldu --------------------------------------------------------------- */

/* A scalar load whose address is a symbol or a constant (ld.param of a
** kernel's parameter, a __constant__ or __shared__ variable, a fixed
** address): every lane reads the same bytes, so they are read once, as the
** first active lane would (its fault, if any, is the first the lane-by-lane
** path reports), and copied to the others.  Not for local memory (each
** thread its own).  The stepping record and the checks (mem_hook) get every
** lane's address, as lane_addrs gives them.  False: the caller takes the
** general path. */
static bool ld_uniform(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    const ptx_opnd *a = &in->o[1];
    unsigned esz = d->size;
    if (a->base == PTX_AB_REG || (in->m.vec && in->m.vec != 1) || esz > 8 || !m) return false;
    int space = d->space;
    uint64_t v = (uint64_t)a->imm;
    if (a->base == PTX_AB_SYM) {
        uint8_t sp;
        v += exec_sym_addr(w, a->r, &sp);
        if (space == PTX_SP_GENERIC) return false;
        if (space != PTX_SP_CONST || sp != PTX_SP_GLOBAL) space = sp;
    }
    if (space != PTX_SP_PARAM && space != PTX_SP_GLOBAL && space != PTX_SP_CONST && space != PTX_SP_SHARED) return false;
    if (TP_UNLIKELY(w->x->mem_hook)) {
        uint64_t addr[32];
        EXEC_LANES(m, addr[l] = v);
        mem_hook(w, space, m, addr);
    }
    const uint8_t *p = lane_ptr(w, __builtin_ctz(m), space, v, esz, false);
    if (!p) return true; /* the fault is recorded */
    uint64_t val = load_bytes(p, esz, d->sext), *r = exec_dst(w, &in->o[0]);
    EXEC_LANES(m, r[l] = val);
    return true;
}

/* A vector load whose lanes all lie aligned inside one window (false: not
** so, nothing done): each lane's elements straight into their rows (a
** sink's into a scratch row); lanes and elements in the order the general
** path writes them.  Out of line, so that h_ld's scalar paths keep their
** registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool ld_vec_window(exec_warp *w, const ptx_opnd *dst, int space, uint32_t m, const uint64_t *addr,
                          unsigned vec, unsigned esz, bool sext)
{
    uintptr_t off;
    if (!lane_ptrs_fast(w, space, m, addr, esz * vec, false, &off)) return false;
    uint64_t sink[32], *rows[4];
    for (unsigned k = 0; k < vec; k++) {
        const ptx_opnd *e = elem(w, dst, k);
        rows[k] = e->kind == PTX_OK_REG ? exec_dst(w, e) : sink;
    }
    if (esz == 8)
        EXEC_LANES(m, for (unsigned k = 0; k < vec; k++) memcpy(&rows[k][l], (const uint8_t *)(off + addr[l]) + 8 * k, 8));
#ifdef EXEC_HOST_VEC
    else if (m == EXEC_FULL && (vec == 2 || vec == 4) && exec_host_vec())
        load_vec4x32_vec(rows, vec, off, addr, sext);
#endif
    else
        EXEC_LANES(m, {
            const uint8_t *p = (const uint8_t *)(off + addr[l]);
            for (unsigned k = 0; k < vec; k++) rows[k][l] = load_bytes(p + 4 * k, 4, sext);
        });
    return true;
}

static void h_ld(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    if (ld_uniform(w, in, d, m)) return;
#ifdef EXEC_HOST_VEC
    uint8_t *runs[4];
    int uni;
    if (m == EXEC_FULL && (!in->m.vec || in->m.vec == 1) && (d->size == 4 || d->size == 8) &&
        !TP_UNLIKELY(w->x->mem_hook) && exec_host_vec() && dense_base(w, d, &in->o[1], false, runs, &uni)) {
        dense_load(exec_dst(w, &in->o[0]), runs, d->size, d->sext, uni);
        return;
    }
#endif
    uint64_t addr[32];
    int space = lane_addrs(w, in, d, &in->o[1], m, addr);
    unsigned vec = in->m.vec ? in->m.vec : 1, esz = d->size;
    unsigned total = esz * vec;
    bool sext = d->sext;
    const ptx_opnd *dst = &in->o[0];
    if (esz == 16) { /* .b128: two rows */
        uint64_t *lo = exec_dst(w, dst), *hi = lo + 32;
        EXEC_LANES(m, {
            uint8_t *p = lane_ptr(w, l, space, addr[l], 16, false);
            if (!p) return;
            memcpy(&lo[l], p, 8);
            memcpy(&hi[l], p + 8, 8);
        });
        return;
    }
    if (vec == 1) {
        uint64_t *r = exec_dst(w, dst);
#ifdef EXEC_HOST_VEC
        if (m == EXEC_FULL && (esz == 4 || esz == 8) && exec_host_vec() &&
            dense_runs(w, space, addr, esz, false, runs, &uni)) {
            dense_load(r, runs, esz, sext, uni);
            return;
        }
#endif
        uintptr_t off;
        if (lane_ptrs_fast(w, space, m, addr, esz, false, &off)) {
#define LP(l) ((const uint8_t *)(off + (uintptr_t)addr[l]))
            switch (esz) {
            case 4:
                if (sext) EXEC_LANES(m, { int32_t v; memcpy(&v, LP(l), 4); r[l] = (uint64_t)(int64_t)v; });
                else EXEC_LANES(m, { uint32_t v; memcpy(&v, LP(l), 4); r[l] = v; });
                break;
            case 8: EXEC_LANES(m, memcpy(&r[l], LP(l), 8)); break;
            default: EXEC_LANES(m, r[l] = load_bytes(LP(l), esz, sext)); break;
            }
#undef LP
            return;
        }
        EXEC_LANES(m, {
            uint8_t *p = lane_ptr(w, l, space, addr[l], esz, false);
            if (!p) return;
            r[l] = load_bytes(p, esz, sext);
        });
        return;
    }
    /* Vector, every lane aligned inside one window (nothing can fault) */
    if (total <= 16 && (esz == 4 || esz == 8) && ld_vec_window(w, dst, space, m, addr, vec, esz, sext)) return;
    /* Vector: read all elements first (a vector load is one access). */
    uint64_t vals[8][32];
    EXEC_LANES(m, {
        uint8_t *p = lane_ptr(w, l, space, addr[l], total > 16 ? 16 : total, false);
        if (!p) return;
        if (total > 16 && !lane_ptr(w, l, space, addr[l] + 16, total - 16, false)) return;
        for (unsigned k = 0; k < vec; k++) vals[k][l] = load_bytes(p + k * esz, esz, sext);
    });
    for (unsigned k = 0; k < vec; k++) {
        const ptx_opnd *e = elem(w, dst, k);
        if (e->kind != PTX_OK_REG) continue;
        uint64_t *r = exec_dst(w, e);
        EXEC_LANES(m, r[l] = vals[k][l]);
    }
}

/* ---- st ------------------------------------------------------------------- */

static void h_st(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
#ifdef EXEC_HOST_VEC
    uint8_t *runs[4];
    if (m == EXEC_FULL && (!in->m.vec || in->m.vec == 1) && (d->size == 4 || d->size == 8) &&
        in->o[1].kind != PTX_OK_VEC && in->o[1].kind != PTX_OK_SINK && !TP_UNLIKELY(w->x->mem_hook) &&
        exec_host_vec() && dense_base(w, d, &in->o[0], true, runs, NULL)) {
        if (dense_store(exec_src(w, &in->o[1]), runs, d->size)) exec_progress(w);
        return;
    }
#endif
    uint64_t addr[32];
    int space = lane_addrs(w, in, d, &in->o[0], m, addr);
    unsigned vec = in->m.vec ? in->m.vec : 1, esz = d->size;
    const ptx_opnd *src = &in->o[1];
    bool changed = false;
    if (esz == 16) {
        const uint64_t *lo = exec_src(w, src), *hi = lo + 32;
        EXEC_LANES(m, {
            uint8_t *p = lane_ptr(w, l, space, addr[l], 16, true);
            if (!p) return;
            if (memcmp(p, &lo[l], 8) || memcmp(p + 8, &hi[l], 8)) changed = true;
            memcpy(p, &lo[l], 8);
            memcpy(p + 8, &hi[l], 8);
        });
        if (changed) exec_progress(w);
        return;
    }
    const uint64_t *rows[8];
    for (unsigned k = 0; k < vec; k++) {
        const ptx_opnd *e = elem(w, src, k);
        rows[k] = e->kind == PTX_OK_SINK ? NULL : exec_src(w, e);
    }
    unsigned total = esz * vec;
#ifdef EXEC_HOST_VEC
    if (vec == 1 && rows[0] && m == EXEC_FULL && (esz == 4 || esz == 8) && exec_host_vec() &&
        dense_runs(w, space, addr, esz, true, runs, NULL)) {
        if (dense_store(rows[0], runs, esz)) exec_progress(w);
        return;
    }
#endif
    uintptr_t off;
    if (vec == 1 && rows[0] && (esz == 4 || esz == 8) && lane_ptrs_fast(w, space, m, addr, esz, true, &off)) {
        const uint64_t *v = rows[0];
#define LP(l) ((uint8_t *)(off + (uintptr_t)addr[l]))
        if (esz == 4)
            EXEC_LANES(m, {
                uint32_t x = (uint32_t)v[l];
                if (!changed && memcmp(LP(l), &x, 4)) changed = true;
                memcpy(LP(l), &x, 4);
            });
        else
            EXEC_LANES(m, {
                if (!changed && memcmp(LP(l), &v[l], 8)) changed = true;
                memcpy(LP(l), &v[l], 8);
            });
#undef LP
        if (changed) exec_progress(w);
        return;
    }
    /* Vector without sinks, every lane aligned inside one window: each
    ** lane's elements gathered and written as one piece, lanes in order (so
    ** where lanes overlap the later wins, and each compare sees what the
    ** lanes before it wrote, as below). */
    bool sinks = false;
    for (unsigned k = 0; k < vec; k++) sinks |= !rows[k];
    if (vec > 1 && !sinks && total <= 16 && (esz == 4 || esz == 8) && lane_ptrs_fast(w, space, m, addr, total, true, &off)) {
        /* (sizes as constants, so the copies are plain moves) */
#define VST(T, N)                                                              \
    EXEC_LANES(m, {                                                            \
        T b_[N], o_[N];                                                        \
        uint8_t *p_ = (uint8_t *)(off + (uintptr_t)addr[l]);                   \
        for (unsigned k = 0; k < N; k++) b_[k] = (T)rows[k][l];                \
        memcpy(o_, p_, sizeof o_);                                             \
        for (unsigned k = 0; k < N; k++) changed |= o_[k] != b_[k];            \
        memcpy(p_, b_, sizeof b_);                                             \
    })
        if (esz == 8) VST(uint64_t, 2);
        else if (vec == 4) VST(uint32_t, 4);
        else VST(uint32_t, 2);
#undef VST
        if (changed) exec_progress(w);
        return;
    }
    EXEC_LANES(m, {
        uint8_t *p = lane_ptr(w, l, space, addr[l], total > 16 ? 16 : total, true);
        if (!p) return;
        if (total > 16 && !lane_ptr(w, l, space, addr[l] + 16, total - 16, true)) return;
        for (unsigned k = 0; k < vec; k++) {
            if (!rows[k]) continue;
            uint64_t v = rows[k][l];
            if (!changed && load_bytes(p + k * esz, esz, false) != exec_zext(v, esz * 8)) changed = true;
            memcpy(p + k * esz, &v, esz);
        }
    });
    if (changed) exec_progress(w);
}

/* ---- atomics ----------------------------------------------------------------- */

static uint64_t atom_op(int sub, int type, bool shared, uint64_t old, uint64_t b, uint64_t c, bool *ok)
{
    unsigned bits = ptx_type_size((ptx_type)type) * 8;
    bool sgn = ptx_type_is_signed((ptx_type)type);
    uint64_t o = exec_zext(old, bits), bb = exec_zext(b, bits);
    switch (sub) {
    case PTX_SUB_AND: return o & bb;
    case PTX_SUB_OR: return o | bb;
    case PTX_SUB_XOR: return o ^ bb;
    case PTX_SUB_EXCH: return bb;
    case PTX_SUB_CAS: return o == bb ? exec_zext(c, bits) : o;
    case PTX_SUB_INC: return (o >= bb) ? 0 : o + 1;
    case PTX_SUB_DEC: return (o == 0 || o > bb) ? bb : o - 1;
    case PTX_SUB_ADD:
        switch (type) {
        /* The PTX ISA: atom.add.f32 rounds to nearest even and flushes
        ** subnormal inputs and results to sign-preserving zero (global
        ** memory); in shared memory subnormals are kept. */
        case PTX_T_F32: return num_add_f32((uint32_t)o, (uint32_t)bb, PTX_RND_RN, shared ? 0 : NUM_FTZ);
        case PTX_T_F64: return num_add_f64(o, bb, PTX_RND_RN, 0);
        case PTX_T_F16: return num_add_h((uint16_t)o, (uint16_t)bb, NUM_F16, PTX_RND_RN, 0);
        case PTX_T_BF16: return num_add_h((uint16_t)o, (uint16_t)bb, NUM_BF16, PTX_RND_RN, 0);
        case PTX_T_F16X2:
        case PTX_T_BF16X2: {
            int fmt = type == PTX_T_F16X2 ? NUM_F16 : NUM_BF16;
            uint16_t lo = num_add_h((uint16_t)o, (uint16_t)bb, fmt, PTX_RND_RN, 0);
            uint16_t hi = num_add_h((uint16_t)(o >> 16), (uint16_t)(bb >> 16), fmt, PTX_RND_RN, 0);
            return (uint32_t)lo | (uint32_t)hi << 16;
        }
        default: return exec_zext(o + bb, bits);
        }
    case PTX_SUB_MIN:
        if (type == PTX_T_F32) return num_min_f32((uint32_t)o, (uint32_t)bb, 0);
        if (type == PTX_T_F64) return num_min_f64(o, bb, 0);
        if (sgn) return (int64_t)exec_sext(o, bits) < (int64_t)exec_sext(bb, bits) ? o : bb;
        return o < bb ? o : bb;
    case PTX_SUB_MAX:
        if (type == PTX_T_F32) return num_max_f32((uint32_t)o, (uint32_t)bb, 0);
        if (type == PTX_T_F64) return num_max_f64(o, bb, 0);
        if (sgn) return (int64_t)exec_sext(o, bits) > (int64_t)exec_sext(bb, bits) ? o : bb;
        return o > bb ? o : bb;
    }
    *ok = false;
    return o;
}

/* Global memory is host memory the program itself may touch at the same
** time -- managed memory, mapped and registered host memory: a device
** address is the host address of its bytes (mem.c) -- so an atomic on it is
** one indivisible read-modify-write of those bytes: the new value computed
** from the value read, stored only if the bytes still hold it (a host
** compare-and-swap), else again from what they hold now.  Without a host
** thread touching the bytes the first try always succeeds, so results are
** as deterministic as any other access.  Returns the value read; sets *nv
** to the value stored (or to the old value when nothing changes). */
static uint64_t host_atom(uint8_t *p, unsigned sz, int sub, int type, uint64_t b, uint64_t c, uint64_t *nv, bool *ok)
{
    switch (sz) {
    case 2: {
        uint16_t *q = (uint16_t *)(void *)p, o = __atomic_load_n(q, __ATOMIC_SEQ_CST), n;
        do {
            n = (uint16_t)atom_op(sub, type, false, o, b, c, ok);
        } while (*ok && n != o && !__atomic_compare_exchange_n(q, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *nv = n;
        return o;
    }
    case 4: {
        uint32_t *q = (uint32_t *)(void *)p, o = __atomic_load_n(q, __ATOMIC_SEQ_CST), n;
        do {
            n = (uint32_t)atom_op(sub, type, false, o, b, c, ok);
        } while (*ok && n != o && !__atomic_compare_exchange_n(q, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *nv = n;
        return o;
    }
    default: {
        uint64_t *q = (uint64_t *)(void *)p, o = __atomic_load_n(q, __ATOMIC_SEQ_CST), n;
        do {
            n = atom_op(sub, type, false, o, b, c, ok);
        } while (*ok && n != o && !__atomic_compare_exchange_n(q, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *nv = n;
        return o;
    }
    }
}

static void do_atom(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m, bool has_dst)
{
    uint64_t addr[32];
    int aop = has_dst ? 1 : 0;
    int space = lane_addrs(w, in, d, &in->o[aop], m, addr);
    unsigned sz = d->size;
    const uint64_t *b = exec_src(w, &in->o[aop + 1]);
    const uint64_t *c = in->nopnd > aop + 2 ? exec_src(w, &in->o[aop + 2]) : NULL;
    uint64_t *dst = has_dst ? exec_dst(w, &in->o[0]) : NULL;
    bool changed = false, ok = true;
    bool host_size = sz == 2 || sz == 4 || sz == 8;
    /* Lanes update memory one after another, in lane order. */
    EXEC_LANES(m, {
        uint8_t *p = exec_lane_ptr(w, l, space, addr[l], sz, true);
        if (!p) return;
        uint64_t a = addr[l];
        bool shared = space == PTX_SP_SHARED || (space == PTX_SP_GENERIC && a - EXEC_WIN_SHARED < EXEC_WIN_SIZE);
        bool global = space == PTX_SP_GLOBAL ||
                      (space == PTX_SP_GENERIC && a - EXEC_WIN_SHARED >= EXEC_WIN_SIZE &&
                       a - EXEC_WIN_LOCAL >= EXEC_WIN_SIZE && a - EXEC_WIN_PARAM >= EXEC_WIN_SIZE);
        uint64_t old, nv;
        if (global && host_size && p != w->g->oob_buf) {
            old = host_atom(p, sz, in->m.sub, in->type, b[l], c ? c[l] : 0, &nv, &ok);
        } else {
            old = load_bytes(p, sz, false);
            nv = atom_op(in->m.sub, in->type, shared, old, b[l], c ? c[l] : 0, &ok);
            if (ok && nv != old) memcpy(p, &nv, sz);
        }
        if (!ok) {
            exec_fault(w, l, EXEC_ERR_UNSUPPORTED, "unsupported atomic operation");
            return;
        }
        if (nv != old) changed = true;
        if (dst) dst[l] = ptx_type_is_signed((ptx_type)in->type) ? exec_sext(old, sz * 8) : old;
    });
    if (changed) exec_progress(w);
}

static void h_atom(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m) { do_atom(w, in, d, m, true); }
static void h_red(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m) { do_atom(w, in, d, m, false); }

/* ---- cvta and isspacep --------------------------------------------------------- */

static uint64_t win_of(int space)
{
    switch (space) {
    case PTX_SP_SHARED:
    case PTX_SP_SHARED_CLUSTER: return EXEC_WIN_SHARED;
    case PTX_SP_LOCAL: return EXEC_WIN_LOCAL;
    case PTX_SP_PARAM:
    case PTX_SP_PARAM_ENTRY: return EXEC_WIN_PARAM;
    default: return 0;
    }
}

static void h_cvta(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint64_t *r = exec_dst(w, &in->o[0]);
    uint64_t win = win_of(in->m.space);
    const ptx_opnd *s = &in->o[1];
    bool to = (in->m.flags & PTX_MF_TO) != 0;
    bool narrow = ptx_type_size((ptx_type)in->type) == 4;
    if (s->kind == PTX_OK_SYM) {
        uint8_t sp;
        uint64_t v = exec_sym_addr(w, s->r, &sp) + (uint64_t)s->imm;
        if (!to) v += win;
        if (narrow) v = (uint32_t)v;
        EXEC_LANES(m, r[l] = v);
        return;
    }
    const uint64_t *a = exec_src(w, s);
    (void)d;
    if (to) {
        if (narrow) EXEC_LANES(m, r[l] = (uint32_t)(a[l] - win));
        else if (!win && m == EXEC_FULL) memmove(r, a, 32 * sizeof *r); /* cvta.to.global: a copy */
        else EXEC_LANES(m, r[l] = a[l] - win);
    } else {
        /* A 32-bit state-space address becomes a 64-bit generic one. */
        if (win) EXEC_LANES(m, r[l] = (uint32_t)a[l] + win);
        else EXEC_LANES(m, r[l] = a[l]);
    }
}

static void h_isspacep(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    uint32_t *p = &w->pp[in->o[0].r];
    const uint64_t *a = exec_src(w, &in->o[1]);
    uint32_t res = 0;
    int space = in->m.space;
    (void)d;
    EXEC_LANES(m, {
        uint64_t v = a[l];
        bool in_sh = v - EXEC_WIN_SHARED < EXEC_WIN_SIZE, in_lo = v - EXEC_WIN_LOCAL < EXEC_WIN_SIZE;
        bool in_pa = v - EXEC_WIN_PARAM < EXEC_WIN_SIZE;
        bool t;
        switch (space) {
        case PTX_SP_SHARED: case PTX_SP_SHARED_CLUSTER: t = in_sh; break;
        case PTX_SP_LOCAL: t = in_lo; break;
        case PTX_SP_PARAM: case PTX_SP_PARAM_ENTRY: t = in_pa; break;
        case PTX_SP_CONST: t = false; break;
        default: t = !in_sh && !in_lo && !in_pa; break;
        }
        if (t) res |= 1u << l;
    });
    *p = (*p & ~m) | res;
}

/* ---- fences ------------------------------------------------------------------ */

/* membar and fence: the functional model executes every access in order, so
** a fence has no effect of its own; racecheck orders threads by it. */
static void h_fence(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    if (TP_UNLIKELY(w->g->checks)) exec_check_fence(w, in, m);
}

/* ---- picking ----------------------------------------------------------------- */

exec_fn exec_pick_mem(const ptx_module *pm, const ptx_func *f, const ptx_insn *in, exec_dinsn *d, const char **why)
{
    (void)pm;
    (void)f;
    switch (in->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU:
    case PTX_OP_ST:
    case PTX_OP_ATOM:
    case PTX_OP_RED: {
        int aop = (in->op == PTX_OP_LD || in->op == PTX_OP_LDU || in->op == PTX_OP_ATOM) ? 1 : 0;
        const ptx_opnd *a = &in->o[aop];
        if (a->kind != PTX_OK_ADDR) {
            *why = "memory operand is not an address";
            return NULL;
        }
        d->space = in->m.space;
        if (d->space == PTX_SP_SHARED_CLUSTER) d->space = PTX_SP_SHARED;
        if (d->space == PTX_SP_PARAM_ENTRY || d->space == PTX_SP_PARAM_FUNC) d->space = PTX_SP_PARAM;
        d->size = (uint8_t)ptx_type_size((ptx_type)in->type);
        if (d->size == 0) {
            *why = "memory access without a size";
            return NULL;
        }
        d->sext = ptx_type_is_signed((ptx_type)in->type) && d->size < 8;
        if (in->op == PTX_OP_ATOM) return h_atom;
        if (in->op == PTX_OP_RED) return h_red;
        if (in->op == PTX_OP_ST) return h_st;
        return h_ld;
    }
    case PTX_OP_CVTA: return h_cvta;
    case PTX_OP_ISSPACEP: return h_isspacep;
    case PTX_OP_MEMBAR:
    case PTX_OP_FENCE: return h_fence;
    default: return NULL;
    }
}

/* The width of an address base register is known only from the function's
** register table; decode calls this after picking. */
void exec_mem_set_abase(const ptx_func *f, const ptx_insn *in, exec_dinsn *d)
{
    for (uint32_t k = 0; k < in->nopnd; k++) {
        const ptx_opnd *o = &in->o[k];
        if (o->kind == PTX_OK_ADDR && o->base == PTX_AB_REG && (uint32_t)o->r < f->nrows)
            d->abase32 = ptx_type_size((ptx_type)f->regs[o->r].type) <= 4;
    }
}
