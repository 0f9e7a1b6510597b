/*
** scoreboard.c -- per-warp scoreboard: which registers have a write in
** flight.  An instruction may issue when none of the registers it reads or
** writes is pending (no RAW, no WAW); its destinations become pending until
** its write-back.  Predicates and the carry flag are registers here too.
** A small array per warp (the hardware's is a few entries per warp too):
** searching it is cheaper than a bitset over thousands of virtual rows.
** Before the search, a 64-bit filter by the key's low bits (gpu_sb in
** internal.h): a register whose bit is clear is not pending.
*/
#include "internal.h"

static int find(const gpu_sb *sb, uint32_t key)
{
    for (uint32_t i = 0; i < sb->n; i++)
        if (sb->id[i] == key) return (int)i;
    return -1;
}

int gpu_sb_check(const gpu_sb *sb, const exec_sinfo *si)
{
    if (!sb->n) return 0;
    if (si->flags & EXEC_SI_REGS_PARTIAL) return 3;
    int worst = 0;
    uint32_t n = (uint32_t)si->ndst + si->nsrc;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t key = gpu_sb_key(&si->regs[i]);
        if (!(sb->bits >> (key & 63) & 1)) continue;
        int k = find(sb, key);
        if (k < 0) continue;
        int why = sb->mem[k] ? 2 : 1;
        if (why > worst) worst = why;
    }
    if (!worst && sb->n + si->ndst > GPU_SB_MAX) return 3;
    return worst;
}

void gpu_sb_reserve(gpu_sb *sb, const exec_sinfo *si, bool mem)
{
    for (uint32_t i = 0; i < si->ndst && sb->n < GPU_SB_MAX; i++) {
        uint32_t key = gpu_sb_key(&si->regs[i]);
        sb->id[sb->n] = key;
        sb->mem[sb->n] = mem;
        sb->n++;
        sb->cnt[key & 63]++;
        sb->bits |= 1ull << (key & 63);
    }
}

void gpu_sb_release(gpu_sb *sb, const exec_sinfo *si)
{
    for (uint32_t i = 0; i < si->ndst; i++) {
        uint32_t key = gpu_sb_key(&si->regs[i]);
        int k = find(sb, key);
        if (k < 0) continue;
        if (!--sb->cnt[key & 63]) sb->bits &= ~(1ull << (key & 63));
        sb->n--;
        sb->id[k] = sb->id[sb->n];
        sb->mem[k] = sb->mem[sb->n];
    }
}
