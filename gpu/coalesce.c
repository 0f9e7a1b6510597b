/*
** coalesce.c -- the intra-warp coalescer and the shared-memory bank model.
**
** Coalescing (Fermi, L1-cached accesses): the active lanes' accesses are
** grouped by cache line; the warp instruction becomes one request per
** distinct line, in the order of the lowest lane touching each line
** (gpu_coalesce_lanes also gives each line's lanes: WarpPool's thread
** mapping).  An
** access never spans two lines (addresses are aligned to their size, sizes
** are at most 16 bytes per lane, lines at least 32).
**
** Per line (gpu_coalesce_info), what its request carries: the 32-byte
** sectors the lanes touch, and for atomics the lanes' operations and the
** most of them on one address (the hardware performs one operation per
** lane at the L2's atomic unit, same-address ones one after another; the
** request is still one per line, its packet carrying every lane's operand).
** For the other accesses gpu_coalesce_sectors finds the lines and their
** sectors in the same pass (the LD/ST unit's path: one walk of the lanes
** instead of two).
**
** Shared memory: 4-byte words interleave over the banks (word w in bank
** w mod banks).  Lanes that read the same word share one access (broadcast);
** distinct words in one bank take one cycle each.  An access of 8 or 16 bytes
** per lane touches 2 or 4 consecutive words.  The access takes as many
** cycles as the busiest bank has distinct words.
**
** Shared-memory atomics with shmem.atomic_serial: each lane's
** read-modify-write is an access of its own, lanes on one word included (no
** broadcast: the updates must follow one another), so the atomic takes as
** many cycles as the busiest bank has lane accesses (gpu_bank_lanes).
*/
#include "internal.h"

/* A warp's distinct lines (at most 32) by address: searched linearly while
** there are few (LFEW), then through an open-addressed set of line indexes
** + 1 in 64 slots, so that an access of 32 lines is linear in its lanes
** rather than quadratic (a lane mostly shares its neighbour's line, which
** is tried first). */
enum { LSET = 64, LFEW = 8 };

typedef struct lset {
    uint8_t slot[LSET];
} lset;

static inline uint32_t lset_slot(uint64_t a) { return (uint32_t)((a * 0x9e3779b97f4a7c15ull) >> 58); }

static inline void lset_put(lset *set, uint64_t a, uint32_t k)
{
    uint32_t h = lset_slot(a);
    while (set->slot[h]) h = (h + 1) % LSET;
    set->slot[h] = (uint8_t)(k + 1);
}

/* The index of line a among lines[0..*n), appended (bytes 0) if new. */
static inline uint32_t line_index(lset *set, uint64_t *lines, uint32_t *bytes, uint32_t *n, uint64_t a)
{
    uint32_t k;
    if (*n <= LFEW) {
        for (k = 0; k < *n; k++)
            if (lines[k] == a) return k;
    } else {
        uint32_t h = lset_slot(a);
        while (set->slot[h] && lines[set->slot[h] - 1] != a) h = (h + 1) % LSET;
        if (set->slot[h]) return set->slot[h] - 1u;
    }
    k = (*n)++;
    lines[k] = a;
    bytes[k] = 0;
    if (*n == LFEW + 1) {
        /* from now on through the set */
        memset(set->slot, 0, sizeof set->slot);
        for (uint32_t j = 0; j < *n; j++) lset_put(set, lines[j], j);
    } else if (*n > LFEW + 1) {
        lset_put(set, a, k);
    }
    return k;
}

/* The lines of the active lanes, their bytes, and with info (not NULL) each
** line's sectors, in one pass: a run of lanes on one line is added up and
** flushed into its line when the next lane is on another. */
static inline uint32_t coalesce(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, uint64_t *lines,
                                uint32_t *bytes, gpu_lineinfo *info)
{
    uint32_t n = 0, k = 0, acc = 0, sec = 0;   /* acc, sec: line k's run of lanes, not yet added */
    uint64_t mask = ~(uint64_t)(line - 1);
    bool one = size && size <= GPU_SECTOR && !(size & (size - 1));
    if (active) {
        /* the common case first: every lane on the first lane's line (and, for
        ** the sectors, aligned to a size of at most a sector): one line, its
        ** bytes, its sectors one bit a lane */
        uint64_t a0 = addr[__builtin_ctz(active)] & mask, diff = 0, mis = 0;
        uint32_t bits = 0;
        for (uint32_t m = active; m; m &= m - 1) {
            uint64_t x = addr[__builtin_ctz(m)];
            diff |= (x & mask) ^ a0;
            mis |= x & (size - 1);
            bits |= 1u << (x % GPU_SECTOR_BLOCK / GPU_SECTOR);
        }
        if (!diff && (!info || (one && !mis))) {
            uint32_t b = (uint32_t)__builtin_popcount(active) * size;
            lines[0] = a0;
            bytes[0] = b < line ? b : line;
            if (info) info[0] = (gpu_lineinfo){(uint16_t)bits, 0, 0};
            return 1;
        }
    }
    lset set;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = addr[l] & mask;
        if (!n || lines[k] != a) {
            if (n) {
                bytes[k] += acc;
                if (info) info[k].sectors |= (uint16_t)sec;
            }
            acc = sec = 0;
            uint32_t was = n;
            k = line_index(&set, lines, bytes, &n, a);
            if (info && n != was) info[k] = (gpu_lineinfo){0, 0, 0};
        }
        acc += size;
        if (info) {
            /* an access aligned to its size of at most a sector lies in one sector */
            uint32_t o = (uint32_t)(addr[l] % GPU_SECTOR_BLOCK);
            sec |= one && !(o & (size - 1)) ? 1u << (o / GPU_SECTOR) : gpu_sectors_of(addr[l], size);
        }
    }
    if (n) {
        bytes[k] += acc;
        if (info) info[k].sectors |= (uint16_t)sec;
    }
    for (k = 0; k < n; k++)
        if (bytes[k] > line) bytes[k] = line;
    return n;
}

uint32_t gpu_coalesce(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, uint64_t *lines,
                      uint32_t *bytes)
{
    return coalesce(addr, active, size, line, lines, bytes, NULL);
}

uint32_t gpu_coalesce_sectors(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, uint64_t *lines,
                              uint32_t *bytes, gpu_lineinfo *info)
{
    return coalesce(addr, active, size, line, lines, bytes, info);
}

uint32_t gpu_coalesce_lanes(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, uint64_t *lines,
                            uint32_t *bytes, uint32_t *lanes)
{
    uint32_t n = 0, last = 0;
    uint64_t mask = ~(uint64_t)(line - 1);
    lset set;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = addr[l] & mask;
        uint32_t was = n;
        uint32_t k = n && lines[last] == a ? last : line_index(&set, lines, bytes, &n, a);
        if (n != was) lanes[k] = 0;
        last = k;
        bytes[k] += size;
        lanes[k] |= 1u << l;
    }
    for (uint32_t k = 0; k < n; k++)
        if (bytes[k] > line) bytes[k] = line;
    return n;
}

void gpu_coalesce_info(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line, const uint64_t *lines,
                       uint32_t n, bool atomic, gpu_lineinfo *info)
{
    uint64_t mask = ~(uint64_t)(line - 1);
    memset(info, 0, n * sizeof *info);
    /* lines are in the order of the first lane on each (gpu_coalesce), so a
    ** lane's line is its neighbour's, the next one not seen yet (seen), or
    ** one seen before (searched); sec: the sectors of line k's run of
    ** lanes, not yet added */
    uint32_t k = 0, seen = 1, sec = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = addr[l] & mask;
        if (lines[k] != a) {
            info[k].sectors |= (uint16_t)sec;
            sec = 0;
            if (seen < n && lines[seen] == a) {
                k = seen++;
            } else {
                for (k = 0; k < n && lines[k] != a; k++) {}
                if (k >= seen) seen = k + 1;
            }
        }
        TP_ASSERT(k < n);
        sec |= gpu_sectors_of(addr[l], size);
        if (!atomic) continue;
        info[k].ops++;
        uint32_t same = 1;
        for (uint32_t p = active & ((1u << l) - 1); p; p &= p - 1)
            if (addr[__builtin_ctz(p)] == addr[l]) same++;
        if (same > info[k].ops_addr) info[k].ops_addr = (uint8_t)same;
    }
    if (n) info[k].sectors |= (uint16_t)sec;
}

/* The bank of word w among nb (a mask when nb is a power of two: no division). */
static inline uint32_t bank_of(uint64_t w, uint32_t nb)
{
    return (uint32_t)(nb & (nb - 1) ? w % nb : w & (nb - 1));
}

/* The common case first: no bank holds two different words (consecutive
** words, a broadcast, lanes sharing words): 1.  False when some bank does
** (the full count is then needed) or there are more than 64 banks. */
static bool one_word_per_bank(const uint64_t *addr, uint32_t active, uint32_t per, uint32_t nb)
{
    if (nb > 64) return false;
    uint64_t seen = 0, word[64];
    for (uint32_t m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        for (uint32_t k = 0; k < per; k++) {
            uint64_t w = addr[l] / 4 + k;
            uint32_t b = bank_of(w, nb);
            if (!(seen >> b & 1)) {
                seen |= 1ull << b;
                word[b] = w;
            } else if (word[b] != w) {
                return false;
            }
        }
    }
    return true;
}

/* The count when the banks are a power of two, at most 64, and the words lie
** in at most 64 rows of a bank each (2 KB on 32 banks of 4 bytes: a warp's
** 16-byte access to a tile): the distinct words as a bitmap of rows, a bank
** a column (a word touched twice sets its bit twice), the columns summed by
** bit-sliced addition and the largest sum found from its top bit down.
** False (*n unset) outside those bounds. */
static bool by_columns(const uint64_t *addr, uint32_t active, uint32_t per, uint32_t nb, uint32_t *n)
{
    if (nb > 64 || (nb & (nb - 1))) return false;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        uint64_t w = addr[__builtin_ctz(m)] / 4;
        if (w < lo) lo = w;
        if (w > hi) hi = w;
    }
    if (hi - lo + per <= nb) { /* the words within nb consecutive ones: each in a bank of its own */
        *n = 1;
        return true;
    }
    unsigned sh = (unsigned)__builtin_ctz(nb);
    uint64_t base = lo >> sh, rows = ((hi + per - 1) >> sh) - base + 1;
    if (rows > 64) return false;
    uint64_t row[64], bank = nb - 1;
    memset(row, 0, rows * sizeof *row);
    uint64_t run = (1ull << per) - 1; /* a lane's per words (per <= 8) */
    for (uint32_t m = active; m; m &= m - 1) {
        uint64_t w = addr[__builtin_ctz(m)] / 4, at = w & bank;
        if (at + per <= nb) /* inside one row */
            row[(w >> sh) - base] |= run << at;
        else
            for (uint32_t k = 0; k < per; k++) row[((w + k) >> sh) - base] |= 1ull << ((w + k) & bank);
    }
    uint64_t c[7] = {0}; /* bit j of every column's sum */
    for (uint64_t r = 0; r < rows; r++)
        for (uint64_t j = 0, carry = row[r]; carry && j < 7; j++) {
            uint64_t t = c[j] & carry;
            c[j] ^= carry;
            carry = t;
        }
    uint64_t cand = nb == 64 ? ~0ull : (1ull << nb) - 1;
    uint32_t worst = 0;
    for (int j = 6; j >= 0; j--)
        if (cand & c[j]) {
            cand &= c[j];
            worst |= 1u << j;
        }
    *n = worst ? worst : 1;
    return true;
}

uint32_t gpu_bank_conflicts(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t banks)
{
    /* each distinct word once: an open-addressed set of up to 32 x 8 words
    ** (32 bytes a lane, the widest access) in 512 slots, so the count is
    ** linear in the words instead of quadratic (a warp's 16-byte access is
    ** 128 words) */
    enum { SLOTS = 512 };
    uint32_t per = size > 4 ? size / 4 : 1;
    if (per > 8) per = 8;
    uint32_t nb = banks > 1024 ? 1024 : (banks ? banks : 1);
    uint32_t n;
    if (by_columns(addr, active, per, nb, &n)) return n;
    if (one_word_per_bank(addr, active, per, nb)) return 1;
    uint64_t set[SLOTS];
    uint8_t used[SLOTS];
    memset(used, 0, sizeof used);
    uint32_t worst = 1;
    uint32_t count[1024];
    memset(count, 0, nb * sizeof *count);
    for (uint32_t m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        for (uint32_t k = 0; k < per; k++) {
            uint64_t w = addr[l] / 4 + k;
            uint32_t h = (uint32_t)((w * 0x9e3779b97f4a7c15ull) >> 55);
            while (used[h] && set[h] != w) h = (h + 1) % SLOTS;
            if (used[h]) continue;   /* a word already counted */
            used[h] = 1;
            set[h] = w;
            uint32_t b = bank_of(w, nb);
            if (++count[b] > worst) worst = count[b];
        }
    }
    return worst;
}

uint32_t gpu_bank_lanes(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t banks)
{
    uint32_t count[1024];
    uint32_t nb = banks > 1024 ? 1024 : (banks ? banks : 1), per = size > 4 ? size / 4 : 1, worst = 1;
    memset(count, 0, nb * sizeof *count);
    for (uint32_t m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        for (uint32_t k = 0; k < per; k++) {
            uint32_t b = (uint32_t)((addr[l] / 4 + k) % nb);
            if (++count[b] > worst) worst = count[b];
        }
    }
    return worst;
}
