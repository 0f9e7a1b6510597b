/* addrmap.c -- device address -> channel, slice, bank, row (see addrmap.h). */
#include "addrmap.h"

void gpu_addrmap_init(gpu_addrmap *m, uint32_t channels, uint32_t subs, uint64_t interleave, uint64_t granule,
                      uint32_t banks, uint32_t groups, uint64_t bank_interleave, uint64_t row_bytes)
{
    m->channels = channels ? channels : 1;
    m->subs = subs ? subs : 1;
    m->granule = granule ? granule : 1;
    if (interleave < m->granule) interleave = m->granule;
    m->interleave = interleave + (m->granule - interleave % m->granule) % m->granule;
    m->banks = banks ? banks : 1;
    m->groups = groups ? groups : 1;
    m->row_bytes = row_bytes ? row_bytes : 1;
    if (!bank_interleave || bank_interleave > m->row_bytes) bank_interleave = m->row_bytes;
    while (m->row_bytes % bank_interleave) bank_interleave--;   /* a divisor of the row */
    m->bank_interleave = bank_interleave;
}

static inline uint64_t local_of(const gpu_addrmap *m, uint64_t addr, uint32_t *ch)
{
    uint64_t chunk = addr / m->interleave;
    *ch = (uint32_t)(chunk % m->channels);
    return (chunk / m->channels) * m->interleave + addr % m->interleave;
}

static inline uint64_t from_local(const gpu_addrmap *m, uint32_t ch, uint64_t local)
{
    return ((local / m->interleave) * m->channels + ch) * m->interleave + local % m->interleave;
}

void gpu_addrmap_decode(const gpu_addrmap *m, uint64_t addr, gpu_maddr *o)
{
    o->local = local_of(m, addr, &o->channel);
    uint64_t g = o->local / m->granule;
    o->sub = (uint32_t)(g % m->subs);
    o->slice = o->channel * m->subs + o->sub;
    o->slice_addr = (g / m->subs) * m->granule + o->local % m->granule;
    uint64_t k = m->bank_interleave, per_row = m->row_bytes / k;
    uint64_t piece = o->local / k, rest = piece / m->banks;
    o->row = rest / per_row;
    o->col = (rest % per_row) * k + o->local % k;
    o->bank = (uint32_t)((piece + o->row) % m->banks);
    o->group = o->bank % m->groups;
}

uint32_t gpu_addrmap_slice(const gpu_addrmap *m, uint64_t addr)
{
    uint32_t ch;
    uint64_t local = local_of(m, addr, &ch);
    return ch * m->subs + (uint32_t)((local / m->granule) % m->subs);
}

uint64_t gpu_addrmap_slice_addr(const gpu_addrmap *m, uint64_t addr)
{
    uint32_t ch;
    uint64_t local = local_of(m, addr, &ch);
    return (local / m->granule / m->subs) * m->granule + local % m->granule;
}

uint64_t gpu_addrmap_from_slice(const gpu_addrmap *m, uint32_t slice, uint64_t slice_addr)
{
    uint32_t ch = slice / m->subs, sub = slice % m->subs;
    uint64_t g = (slice_addr / m->granule) * m->subs + sub;
    return from_local(m, ch, g * m->granule + slice_addr % m->granule);
}

uint64_t gpu_addrmap_from_dram(const gpu_addrmap *m, uint32_t ch, uint32_t bank, uint64_t row, uint64_t col)
{
    uint64_t k = m->bank_interleave, per_row = m->row_bytes / k;
    uint64_t b0 = (bank + m->banks - row % m->banks) % m->banks;
    uint64_t piece = (row * per_row + col / k) * m->banks + b0;
    return from_local(m, ch, piece * k + col % k);
}
