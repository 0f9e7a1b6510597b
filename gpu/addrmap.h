/*
** addrmap.h -- where a device address lives in the memory system: its
** channel, its sub-partition (L2 slice) within the channel, its address
** inside the slice (the L2's tag key), and its DRAM bank, bank group, row
** and column.  Prefix gpu_addrmap_.
**
** With C channels, channel interleave I, S slices per channel of granule G
** (the L2 line), B banks in NG groups, bank interleave K and R bytes per
** row (K divides R):
**
**   chunk   = addr / I
**   channel = chunk mod C                      consecutive I-byte chunks
**   local   = (chunk / C) * I + addr mod I     go round the channels; local
**                                              is the channel's own address
**   g       = local / G
**   sub     = g mod S                          a channel's lines alternate
**   slice   = channel * S + sub                between its slices
**   slice_addr = (g / S) * G + local mod G     dense inside the slice, so
**                                              the L2 uses all its sets
**   piece   = local / K                        K-byte pieces of the channel
**   rest    = piece / B                        go round the banks, so
**   row     = rest / (R / K)                   consecutive pieces are in
**   col     = (rest mod (R / K)) * K + local mod K   different banks and
**   bank    = (piece + row) mod B              bank groups; each row rotates
**   group   = bank mod NG                      the bank order, so same-bank
**                                              strides spread too
**
** Streaming through memory therefore visits every channel and slice in turn
** (12 consecutive 128-byte lines hit the GTX 480's 12 slices), and inside a
** channel every bank and bank group in turn (consecutive column commands
** need only tCCD, not tCCDL), staying in one row of each bank for R bytes
** of that bank (B * R bytes of the channel): row-buffer hits, and the
** precharge/activate of one bank overlaps the other banks' transfers.
** C need not be a power of two (the GTX 480 has 6).
** I is raised to a multiple of G when it is smaller (a line never straddles
** two channels).  Every step is invertible: gpu_addrmap_from_slice and
** gpu_addrmap_from_dram rebuild an address (L2 write-backs, tests).
*/
#ifndef GPU_ADDRMAP_H
#define GPU_ADDRMAP_H

#include "../base/tp.h"

typedef struct gpu_addrmap {
    uint32_t channels, subs, banks, groups;
    uint64_t interleave, granule, bank_interleave, row_bytes;
} gpu_addrmap;

typedef struct gpu_maddr {
    uint32_t channel, sub, slice, bank, group;
    uint64_t row, col;
    uint64_t local;        /* address inside the channel */
    uint64_t slice_addr;   /* address inside the slice */
} gpu_maddr;

void gpu_addrmap_init(gpu_addrmap *m, uint32_t channels, uint32_t subs, uint64_t interleave, uint64_t granule,
                      uint32_t banks, uint32_t groups, uint64_t bank_interleave, uint64_t row_bytes);
void gpu_addrmap_decode(const gpu_addrmap *m, uint64_t addr, gpu_maddr *out);
uint32_t gpu_addrmap_slice(const gpu_addrmap *m, uint64_t addr);
uint64_t gpu_addrmap_slice_addr(const gpu_addrmap *m, uint64_t addr);
/* The address whose slice is `slice` and slice address is `slice_addr`. */
uint64_t gpu_addrmap_from_slice(const gpu_addrmap *m, uint32_t slice, uint64_t slice_addr);
/* An address in channel ch, bank, row, column col (col < row_bytes). */
uint64_t gpu_addrmap_from_dram(const gpu_addrmap *m, uint32_t ch, uint32_t bank, uint64_t row, uint64_t col);

#endif
