/*
** test_gpu_sb.c -- the per-warp scoreboard (gpu/scoreboard.c): which
** registers have a write in flight.  Random reservations, releases and
** checks against a list kept here: the scoreboard must answer as the list
** does (0 free, 1 pending from arithmetic, 2 from memory, 3 full), at every
** fill from empty to GPU_SB_MAX, with stale entries past the live ones.
*/
#include "tests/unit/tt.h"
#include "gpu/internal.h"

static uint64_t seed = 0x2545f4914f6cdd1dull;
static uint32_t rnd(uint32_t n)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (uint32_t)(seed % n);
}

/* the reference: keys pending, and whether a memory access wrote each */
typedef struct refsb {
    uint32_t key[GPU_SB_MAX];
    bool mem[GPU_SB_MAX];
    uint32_t n;
} refsb;

static int ref_find(const refsb *r, uint32_t key)
{
    for (uint32_t i = 0; i < r->n; i++)
        if (r->key[i] == key) return (int)i;
    return -1;
}

static int ref_check(const refsb *r, const exec_opreg *regs, uint32_t ndst, uint32_t nsrc)
{
    if (!r->n) return 0;
    int worst = 0;
    for (uint32_t i = 0; i < ndst + nsrc; i++) {
        int k = ref_find(r, gpu_sb_key(&regs[i]));
        if (k >= 0 && (r->mem[k] ? 2 : 1) > worst) worst = r->mem[k] ? 2 : 1;
    }
    if (!worst && r->n + ndst > GPU_SB_MAX) return 3;
    return worst;
}

static void t_sb_random(void)
{
    gpu_sb sb;
    memset(&sb, 0xa5, sizeof sb); /* stale entries everywhere ... */
    sb.n = 0, sb.bits = 0;         /* ... but empty, as a warp's is after its memset */
    memset(sb.cnt, 0, sizeof sb.cnt);
    refsb ref = {{0}, {0}, 0};
    int bad = 0;
    uint32_t most = 0, full = 0;
    for (int it = 0; it < 200000 && bad < 3; it++) {
        exec_opreg regs[4];
        uint32_t ndst = 1 + rnd(2), nsrc = rnd(3), span = it % 3 == 0 ? 40 : 160;
        for (uint32_t i = 0; i < ndst + nsrc; i++)
            regs[i] = (exec_opreg){(uint16_t)rnd(span), (uint8_t)(rnd(5) ? EXEC_R_REG : EXEC_R_PRED), 1};
        if (ndst == 2 && gpu_sb_key(&regs[0]) == gpu_sb_key(&regs[1])) ndst = 1; /* no register written twice */
        exec_sinfo si;
        memset(&si, 0, sizeof si);
        si.ndst = (uint8_t)ndst;
        si.nsrc = (uint8_t)nsrc;
        si.regs = regs;
        int got = gpu_sb_check(&sb, &si), want = ref_check(&ref, regs, ndst, nsrc);
        if (got != want) {
            bad++;
            tt_fail_msg(__FILE__, __LINE__, "step %d: check %d, want %d (%u pending)", it, got, want, ref.n);
        }
        if (!want && rnd(2)) { /* issue: reserve its destinations */
            bool mem = rnd(2);
            gpu_sb_reserve(&sb, &si, mem);
            for (uint32_t i = 0; i < ndst && ref.n < GPU_SB_MAX; i++)
                ref.key[ref.n] = gpu_sb_key(&regs[i]), ref.mem[ref.n++] = mem;
        } else if (ref.n && rnd(3) == 0) { /* a write-back of a pending entry */
            uint32_t k = (uint32_t)ref_find(&ref, ref.key[rnd(ref.n)]); /* the first entry of a key, as the scoreboard */
            exec_opreg one = {(uint16_t)(ref.key[k] & 0xffff), (uint8_t)(ref.key[k] >> 16), 1};
            exec_sinfo w;
            memset(&w, 0, sizeof w);
            w.ndst = 1;
            w.regs = &one;
            gpu_sb_release(&sb, &w);
            ref.n--;
            ref.key[k] = ref.key[ref.n];
            ref.mem[k] = ref.mem[ref.n];
        }
        TT_EQ_U(sb.n, ref.n);
        if (sb.n != ref.n) break;
        if (ref.n > most) most = ref.n;
        full += ref.n >= GPU_SB_MAX - 1;
    }
    printf("    most pending %u, %u steps at or near full\n", most, full);
    TT_EQ_U(most, GPU_SB_MAX); /* every fill was reached */
    TT_CHECK(full > 100);
}

int main(void)
{
    TT_RUN(t_sb_random);
    return tt_done();
}
