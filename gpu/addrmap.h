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
**
** Low banks (gpu_addrmap_bank_low(m, L), option addr.bank_low = L, a
** divisor of B below B; linear only): consecutive pieces go round only L
** banks, the rest of a row's columns follow, and the other bank bits lie
** above them, with no rotation by row:
**   lo = piece mod L;  q = piece / L;  colp = q mod (R / K);  q2 = q / (R / K)
**   b = lo + L * (q2 mod (B / L));  row = q2 / (B / L);  col = colp * K + local mod K
**   bank = b / (B / NG) + NG * (b mod (B / NG))
** (b is GPGPU-Sim's bank number, whose group is b / (B / NG), its top bits;
** bank relabels it so that bank mod NG, the DRAM channel's group, is that
** group.)
** GPGPU-Sim's GTX 480 mapping (dramid@8;...RRRR.BBBCCCCB.CCSSSSSS: the
** bank's bits are 8 and 13-15 of the channel's address, its columns 0-7
** and 9-12, its row 16 up) is L = 2 with K = 256, R = 4 KB, B = 16.
**
** Hashed (gpu_addrmap_hash(m, GPU_ADDRMAP_IPOLY), option addr.hash=ipoly):
** each of the three choices above is rotated by a hash of the address
** bits above it, so that it stays a permutation of the linear choice within
** each group (every step stays invertible, the slice and channel addresses
** stay dense) while power-of-two strides, which the linear map sends to a
** few channels (a 4 KB stride over 12 channels of 256 bytes: 3 of them),
** spread over all:
**   q = chunk / C          channel = (chunk mod C + H67(q)) mod C
**   h = g / S              sub     = (g mod S + H37(h)) mod S
**   rest (as above)        bank    = (piece mod B + H131(rest)) mod B
** where Hp(x) is the remainder of x, read as a polynomial over GF(2), modulo
** p: x^6 + x + 1 (67), x^5 + x^2 + 1 (37), x^7 + x + 1 (131).  That is
** the IPOLY family of Rau (ISCA 1991) that GPGPU-Sim 4 uses for its
** partition index (IPOLY(67) for 64 banks, IPOLY(37) for 32), here as a
** rotation so that any C works; three different polynomials keep the
** channel, slice and bank choices of a stride uncorrelated.
*/
#ifndef GPU_ADDRMAP_H
#define GPU_ADDRMAP_H

#include "../base/tp.h"
#include "../base/fdiv.h"

typedef enum gpu_addrhash { GPU_ADDRMAP_LINEAR, GPU_ADDRMAP_IPOLY } gpu_addrhash;

typedef struct gpu_addrmap {
    uint32_t channels, subs, banks, groups;
    uint64_t interleave, granule, bank_interleave, row_bytes;
    uint8_t hash;                    /* gpu_addrhash */
    uint32_t bank_low;               /* low banks (above); 0: all B, rotated by row */
    uint8_t hc[64], hs[64], hb[64];  /* ipoly: the remainders of x^k modulo 67, 37, 131 */
    /* the same divisors, for the forward maps (every request is routed and
    ** looked up by them: no divide instructions there) */
    tp_fdiv fch, fsub, fbank, fgroup, fil, fgran, fbil, fper_row, flow, fhigh;
} gpu_addrmap;

typedef struct gpu_maddr {
    uint32_t channel, sub, slice, bank, group;
    uint64_t row, col;
    uint64_t local;        /* address inside the channel */
    uint64_t slice_addr;   /* address inside the slice */
} gpu_maddr;

void gpu_addrmap_init(gpu_addrmap *m, uint32_t channels, uint32_t subs, uint64_t interleave, uint64_t granule,
                      uint32_t banks, uint32_t groups, uint64_t bank_interleave, uint64_t row_bytes);
/* Selects the hash (gpu_addrmap_init leaves the map linear). */
void gpu_addrmap_hash(gpu_addrmap *m, gpu_addrhash h);
/* Selects low banks L (above; 0, B, or an L that does not divide B: all B
** rotated by row, the default). */
void gpu_addrmap_bank_low(gpu_addrmap *m, uint32_t low);
/* The map the options describe: dram.channels, l2.slices_per_channel,
** addr.channel_interleave, l2.line, dram.banks, dram.bank_groups,
** addr.bank_interleave, dram.row_bytes, addr.hash, addr.bank_low. */
struct tp_opts;
void gpu_addrmap_opts(gpu_addrmap *m, const struct tp_opts *o);
void gpu_addrmap_decode(const gpu_addrmap *m, uint64_t addr, gpu_maddr *out);
/* gpu_addrmap_decode's bank and row alone (a DRAM channel's accept). */
void gpu_addrmap_bank_row(const gpu_addrmap *m, uint64_t addr, uint32_t *bank, uint64_t *row);
uint32_t gpu_addrmap_slice(const gpu_addrmap *m, uint64_t addr);
uint64_t gpu_addrmap_slice_addr(const gpu_addrmap *m, uint64_t addr);
/* The address whose slice is `slice` and slice address is `slice_addr`. */
uint64_t gpu_addrmap_from_slice(const gpu_addrmap *m, uint32_t slice, uint64_t slice_addr);
/* An address in channel ch, bank, row, column col (col < row_bytes). */
uint64_t gpu_addrmap_from_dram(const gpu_addrmap *m, uint32_t ch, uint32_t bank, uint64_t row, uint64_t col);

#endif
