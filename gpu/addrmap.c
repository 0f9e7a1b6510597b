/* addrmap.c -- device address -> channel, slice, bank, row (see addrmap.h). */
#include "addrmap.h"
#include "options.h"

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
    m->hash = GPU_ADDRMAP_LINEAR;
    m->bank_low = 0;
    tp_fdiv_init(&m->fch, m->channels);
    tp_fdiv_init(&m->fsub, m->subs);
    tp_fdiv_init(&m->fbank, m->banks);
    tp_fdiv_init(&m->fgroup, m->groups);
    tp_fdiv_init(&m->fil, m->interleave);
    tp_fdiv_init(&m->fgran, m->granule);
    tp_fdiv_init(&m->fbil, m->bank_interleave);
    tp_fdiv_init(&m->fper_row, m->row_bytes / m->bank_interleave);
}

void gpu_addrmap_bank_low(gpu_addrmap *m, uint32_t low)
{
    m->bank_low = low && low < m->banks && m->banks % low == 0 && m->banks % m->groups == 0 ? low : 0;
    if (!m->bank_low) return;
    tp_fdiv_init(&m->flow, m->bank_low);
    tp_fdiv_init(&m->fhigh, m->banks / m->bank_low);
}

/* x^k modulo the polynomial p of degree deg, for k = 0..63. */
static void residues(uint8_t *r, uint32_t p, uint32_t deg)
{
    uint32_t x = 1;
    for (int k = 0; k < 64; k++) {
        r[k] = (uint8_t)x;
        x <<= 1;
        if (x >> deg & 1) x ^= p;
    }
}

void gpu_addrmap_hash(gpu_addrmap *m, gpu_addrhash h)
{
    m->hash = (uint8_t)h;
    residues(m->hc, 67, 6);
    residues(m->hs, 37, 5);
    residues(m->hb, 131, 7);
}

void gpu_addrmap_opts(gpu_addrmap *m, const struct tp_opts *o)
{
    /* the slices' granule: addr.slice_interleave, a multiple of the L2 line */
    uint64_t line = (uint64_t)tp_opt_i(o, OPT_L2_LINE), gran = (uint64_t)tp_opt_i(o, OPT_ADDR_SLICE_INTERLEAVE);
    gran = gran <= line ? line : gran + (line - gran % line) % line;
    gpu_addrmap_init(m, (uint32_t)tp_opt_i(o, OPT_DRAM_CHANNELS), (uint32_t)tp_opt_i(o, OPT_L2_SLICES_PER_CHANNEL),
                     (uint64_t)tp_opt_i(o, OPT_ADDR_CHANNEL_INTERLEAVE), gran,
                     (uint32_t)tp_opt_i(o, OPT_DRAM_BANKS), (uint32_t)tp_opt_i(o, OPT_DRAM_BANK_GROUPS),
                     (uint64_t)tp_opt_i(o, OPT_ADDR_BANK_INTERLEAVE), (uint64_t)tp_opt_i(o, OPT_DRAM_ROW_BYTES));
    gpu_addrmap_hash(m, (gpu_addrhash)tp_opt_i(o, OPT_ADDR_HASH));
    if (m->hash == GPU_ADDRMAP_LINEAR) gpu_addrmap_bank_low(m, (uint32_t)tp_opt_i(o, OPT_ADDR_BANK_LOW));
}

/* The remainder of x modulo a hash polynomial (r: its table); 0 when linear. */
static inline uint32_t rot(const gpu_addrmap *m, const uint8_t *r, uint64_t x)
{
    if (m->hash == GPU_ADDRMAP_LINEAR) return 0;
    uint32_t h = 0;
    for (; x; x &= x - 1) h ^= r[__builtin_ctzll(x)];
    return h;
}

static inline uint64_t local_of(const gpu_addrmap *m, uint64_t addr, uint32_t *ch)
{
    uint64_t chunk = tp_fdiv_q(&m->fil, addr), q = tp_fdiv_q(&m->fch, chunk);
    *ch = (uint32_t)tp_fdiv_r(&m->fch, chunk - q * m->channels + rot(m, m->hc, q));
    return q * m->interleave + (addr - chunk * m->interleave);
}

static inline uint64_t from_local(const gpu_addrmap *m, uint32_t ch, uint64_t local)
{
    uint64_t q = local / m->interleave, c = m->channels;
    uint64_t k = (ch + c - rot(m, m->hc, q) % c) % c;
    return (q * c + k) * m->interleave + local % m->interleave;
}

/* A channel's line g: its slice (sub), and back from the sub and the line's
** number inside the slice. */
static inline uint32_t sub_of(const gpu_addrmap *m, uint64_t g)
{
    uint64_t h = tp_fdiv_q(&m->fsub, g);
    return (uint32_t)tp_fdiv_r(&m->fsub, g - h * m->subs + rot(m, m->hs, h));
}

static inline uint64_t line_of(const gpu_addrmap *m, uint32_t sub, uint64_t h)
{
    uint64_t s = m->subs;
    return h * s + (sub + s - rot(m, m->hs, h) % s) % s;
}

/* Low banks (addrmap.h): the bank, row and column piece of piece p. */
static inline void low_of(const gpu_addrmap *m, uint64_t p, uint32_t *bank, uint64_t *row, uint64_t *colp)
{
    uint64_t q = tp_fdiv_q(&m->flow, p), q2 = tp_fdiv_q(&m->fper_row, q);
    uint64_t hi = tp_fdiv_q(&m->fhigh, q2);
    *colp = q - q2 * (m->row_bytes / m->bank_interleave);
    *row = hi;
    uint32_t b = (uint32_t)(p - q * m->bank_low) + m->bank_low * (uint32_t)(q2 - hi * (m->banks / m->bank_low));
    uint32_t per_g = m->banks / m->groups;   /* GPGPU-Sim's group: b / per_g; a channel's: bank mod groups */
    *bank = b / per_g + m->groups * (b % per_g);
}

/* The bank and row of channel address `local`, and its bank piece and the
** pieces above the banks (for the column). */
static inline void bank_row_of(const gpu_addrmap *m, uint64_t local, uint32_t *bank, uint64_t *row, uint64_t *piece,
                               uint64_t *rest)
{
    *piece = tp_fdiv_q(&m->fbil, local);
    if (m->bank_low) {
        uint64_t colp;
        low_of(m, *piece, bank, row, &colp);
        *rest = *row * (m->row_bytes / m->bank_interleave) + colp;   /* the column below */
        return;
    }
    *rest = tp_fdiv_q(&m->fbank, *piece);
    *row = tp_fdiv_q(&m->fper_row, *rest);
    *bank = m->hash == GPU_ADDRMAP_LINEAR ? (uint32_t)tp_fdiv_r(&m->fbank, *piece + *row)
                                          : (uint32_t)tp_fdiv_r(&m->fbank, *piece - *rest * m->banks + rot(m, m->hb, *rest));
}

void gpu_addrmap_decode(const gpu_addrmap *m, uint64_t addr, gpu_maddr *o)
{
    o->local = local_of(m, addr, &o->channel);
    uint64_t g = tp_fdiv_q(&m->fgran, o->local);
    o->sub = sub_of(m, g);
    o->slice = o->channel * m->subs + o->sub;
    o->slice_addr = tp_fdiv_q(&m->fsub, g) * m->granule + (o->local - g * m->granule);
    uint64_t k = m->bank_interleave, per_row = m->row_bytes / k, piece, rest;
    bank_row_of(m, o->local, &o->bank, &o->row, &piece, &rest);
    o->col = (rest - o->row * per_row) * k + (o->local - piece * k);
    o->group = (uint32_t)tp_fdiv_r(&m->fgroup, o->bank);
}

void gpu_addrmap_bank_row(const gpu_addrmap *m, uint64_t addr, uint32_t *bank, uint64_t *row)
{
    uint32_t ch;
    uint64_t piece, rest;
    bank_row_of(m, local_of(m, addr, &ch), bank, row, &piece, &rest);
}

uint32_t gpu_addrmap_slice(const gpu_addrmap *m, uint64_t addr)
{
    uint32_t ch;
    uint64_t local = local_of(m, addr, &ch);
    return ch * m->subs + sub_of(m, tp_fdiv_q(&m->fgran, local));
}

uint64_t gpu_addrmap_slice_addr(const gpu_addrmap *m, uint64_t addr)
{
    uint32_t ch;
    uint64_t local = local_of(m, addr, &ch), g = tp_fdiv_q(&m->fgran, local);
    return tp_fdiv_q(&m->fsub, g) * m->granule + (local - g * m->granule);
}

uint64_t gpu_addrmap_from_slice(const gpu_addrmap *m, uint32_t slice, uint64_t slice_addr)
{
    uint32_t ch = slice / m->subs, sub = slice % m->subs;
    uint64_t g = line_of(m, sub, slice_addr / m->granule);
    return from_local(m, ch, g * m->granule + slice_addr % m->granule);
}

uint64_t gpu_addrmap_from_dram(const gpu_addrmap *m, uint32_t ch, uint32_t bank, uint64_t row, uint64_t col)
{
    uint64_t k = m->bank_interleave, per_row = m->row_bytes / k;
    if (m->bank_low) {
        uint32_t per_g = m->banks / m->groups, b = bank % m->groups * per_g + bank / m->groups;   /* low_of's label undone */
        uint64_t lo = b % m->bank_low, hi = b / m->bank_low, nh = m->banks / m->bank_low;
        uint64_t p = ((row * nh + hi) * per_row + col / k) * m->bank_low + lo;
        return from_local(m, ch, p * k + col % k);
    }
    uint64_t rest = row * per_row + col / k;
    uint64_t shift = m->hash == GPU_ADDRMAP_LINEAR ? row % m->banks : rot(m, m->hb, rest) % m->banks;
    uint64_t b0 = (bank + m->banks - shift) % m->banks;
    uint64_t piece = rest * m->banks + b0;
    return from_local(m, ch, piece * k + col % k);
}
