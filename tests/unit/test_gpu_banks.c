/*
** test_gpu_banks.c -- the shared-memory bank rules of gpu/coalesce.c:
** gpu_bank_conflicts (distinct 4-byte words per bank, lanes on one word
** sharing it: an access's cycles) and gpu_bank_lanes (lane accesses per
** bank: a shared atomic's), on patterns whose answer follows from the rule
** by hand, then on random ones against a direct count written here.
*/
#include "tests/unit/tt.h"
#include "gpu/internal.h"

/* The rule, counted the slow way: for each bank, the distinct words of it
** the active lanes touch. */
static uint32_t direct(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t banks)
{
    uint64_t w[256];
    uint32_t n = 0, per = size > 4 ? size / 4 : 1, worst = 1;
    for (int l = 0; l < 32; l++)
        if (active >> l & 1)
            for (uint32_t k = 0; k < per; k++) w[n++] = addr[l] / 4 + k;
    for (uint32_t b = 0; b < banks; b++) {
        uint32_t c = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (w[i] % banks != b) continue;
            bool first = true;
            for (uint32_t j = 0; j < i; j++) first &= w[j] != w[i];
            c += first;
        }
        if (c > worst) worst = c;
    }
    return worst;
}

static void t_bank_patterns(void)
{
    uint64_t a[32];
    /* consecutive words: one per bank */
    for (int l = 0; l < 32; l++) a[l] = 0x100 + 4 * (uint64_t)l;
    TT_EQ_U(gpu_bank_conflicts(a, ~0u, 4, 32), 1);
    /* a stride of 2 words: lanes l and l+16 share bank 2l mod 32 -> 2 */
    for (int l = 0; l < 32; l++) a[l] = 8 * (uint64_t)l;
    TT_EQ_U(gpu_bank_conflicts(a, ~0u, 4, 32), 2);
    /* a stride of 32 words: every lane in bank 0 -> 32 */
    for (int l = 0; l < 32; l++) a[l] = 128 * (uint64_t)l;
    TT_EQ_U(gpu_bank_conflicts(a, ~0u, 4, 32), 32);
    TT_EQ_U(gpu_bank_lanes(a, ~0u, 4, 32), 32);
    /* all lanes on one word: a broadcast, 1; as atomics 32 */
    for (int l = 0; l < 32; l++) a[l] = 64;
    TT_EQ_U(gpu_bank_conflicts(a, ~0u, 4, 32), 1);
    TT_EQ_U(gpu_bank_lanes(a, ~0u, 4, 32), 32);
    /* 16-byte accesses of consecutive lanes: 128 words over 32 banks -> 4 */
    for (int l = 0; l < 32; l++) a[l] = 16 * (uint64_t)l;
    TT_EQ_U(gpu_bank_conflicts(a, ~0u, 16, 32), 4);
    /* the same 16 bytes for lanes in pairs: 64 words -> 2 */
    for (int l = 0; l < 32; l++) a[l] = 16 * (uint64_t)(l / 2);
    TT_EQ_U(gpu_bank_conflicts(a, ~0u, 16, 32), 2);
    /* only lanes 0 and 16 active at a stride of 32 words: 2; none: 1 */
    for (int l = 0; l < 32; l++) a[l] = 128 * (uint64_t)l;
    TT_EQ_U(gpu_bank_conflicts(a, 1u | 1u << 16, 4, 32), 2);
    TT_EQ_U(gpu_bank_conflicts(a, 0, 4, 32), 1);
    /* 32-byte accesses (8 words a lane), one lane: 8 banks once each */
    TT_EQ_U(gpu_bank_conflicts(a, 1, 32, 32), 1);
    /* 16 banks (Fermi's 2.x predecessors): consecutive words -> 2 */
    for (int l = 0; l < 32; l++) a[l] = 4 * (uint64_t)l;
    TT_EQ_U(gpu_bank_conflicts(a, ~0u, 4, 16), 2);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Random addresses from small pools (so that lanes share words and banks),
** random masks, every access size, spans within 64 rows of the banks and
** beyond: the bitmap and set-based counts are the direct one. */
static void t_bank_random(void)
{
    static const uint32_t sizes[] = {1, 2, 4, 8, 16, 32}, banks[] = {32, 16, 7, 64, 1};
    int bad = 0;
    for (int it = 0; it < 40000 && bad < 3; it++) {
        uint64_t a[32];
        uint32_t size = sizes[rnd() % 6], nb = banks[rnd() % 5], pool = 1 + (uint32_t)(rnd() % 96);
        /* spans within 64 rows of the banks and beyond them (x 16, x 64: the
        ** counts' two paths), from a start that is not a row's */
        uint64_t stride = (size < 4 ? size : 4) * (it % 5 == 3 ? 16 : it % 5 == 4 ? 64 : 1 + it % 3), off = (it % 7) * 148;
        for (int l = 0; l < 32; l++) a[l] = off + (rnd() % pool) * stride;
        uint32_t active = (uint32_t)rnd();
        if (it % 4 == 0) active = ~0u;
        uint32_t got = gpu_bank_conflicts(a, active, size, nb), want = direct(a, active, size, nb);
        if (got != want) {
            bad++;
            tt_fail_msg(__FILE__, __LINE__, "iteration %d: %u words per bank, want %u (size %u, %u banks)", it, got, want,
                        size, nb);
        }
    }
}

int main(void)
{
    TT_RUN(t_bank_patterns);
    TT_RUN(t_bank_random);
    return tt_done();
}
