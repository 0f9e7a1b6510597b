/*
** banks.h -- interleaved memory banks with a busy time.
**
** Memory is divided into nbanks banks, interleaved by word: the word at byte
** address a lives in bank (a / word_bytes) mod nbanks.  An access that starts
** in a bank at cycle t keeps that bank busy for cycles [t, t + busy); no other
** access may start there until t + busy.  Accesses may be reserved out of
** time order (an access placed later may fit in a gap before an earlier
** one), which is how several requesters take their turns by priority: the
** one reserved first has priority.
**
** The tracker only decides *when* an access may start; the latency from
** start to data is the caller's business.  Prefix mem_.
*/
#ifndef MEM_BANKS_H
#define MEM_BANKS_H

#include "../base/tp.h"

typedef struct mem_bank {
    uint64_t *t;      /* start cycles of the reserved accesses, increasing */
    uint32_t n, cap;
} mem_bank;

typedef struct mem_banks {
    uint32_t nbanks;      /* > 0 */
    uint32_t busy;        /* cycles a bank stays busy per access, > 0 */
    uint32_t word_bytes;  /* interleaving unit, > 0 */
    mem_bank *bank;
    uint64_t conflicts;   /* reservations that had to wait for a busy bank */
} mem_banks;

void mem_banks_init(mem_banks *b, uint32_t nbanks, uint32_t busy, uint32_t word_bytes);
void mem_banks_free(mem_banks *b);
/* The bank that holds byte address addr. */
uint32_t mem_banks_index(const mem_banks *b, uint64_t addr);
/* The first cycle >= t at which an access to addr's bank may start. */
uint64_t mem_banks_earliest(const mem_banks *b, uint64_t addr, uint64_t t);
/* Reserves addr's bank for [t, t + busy).  t must be free (mem_banks_earliest). */
void mem_banks_reserve(mem_banks *b, uint64_t addr, uint64_t t);
/* Earliest start >= t, reserved at once; returns the start cycle. */
uint64_t mem_banks_access(mem_banks *b, uint64_t addr, uint64_t t);
/* Forgets accesses that end at or before cycle 'before': the caller promises
** that no later request starts earlier than that. */
void mem_banks_retire(mem_banks *b, uint64_t before);

#endif
