/* fatbin.c -- finds the PTX inside an NVIDIA fatbinary (see fatbin.h). */
#include "fatbin.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <lz4.h>
#include <zstd.h>

#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
/* No PTX module comes near this; a larger claimed size is a corrupt header. */
#define MAX_PTX_BYTES (1ull << 30)

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* The fatbinary itself, following a wrapper if there is one. */
static const uint8_t *unwrap(const void *image)
{
    const uint8_t *b = image;
    if (rd32(b) == API_FATBIN_WRAPPER_MAGIC) {
        const void *data;
        memcpy(&data, b + 8, sizeof data);
        return data && rd32(data) == API_FATBIN_MAGIC ? data : NULL;
    }
    return rd32(b) == API_FATBIN_MAGIC ? b : NULL;
}

bool api_fatbin_is(const void *image) { return unwrap(image) != NULL; }

/* ---- compressed payloads -------------------------------------------------------
** Both decoders are the system's libraries: liblz4 for the raw LZ4 block of
** `-compress-mode=speed`, libzstd for nvcc 13's default zstd frame. */

bool api_lz4_block_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size)
{
    /* liblz4 counts in int; no PTX payload comes near its limit */
    if (in_size == 0 || in_size > LZ4_MAX_INPUT_SIZE || out_size > LZ4_MAX_INPUT_SIZE) return false;
    int n = LZ4_decompress_safe((const char *)in, (char *)out, (int)in_size, (int)out_size);
    return n >= 0 && (size_t)n == out_size;
}

bool api_zstd_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size)
{
    unsigned long long claimed = ZSTD_getFrameContentSize(in, in_size);
    if (claimed == ZSTD_CONTENTSIZE_ERROR) return false;
    if (claimed != ZSTD_CONTENTSIZE_UNKNOWN && claimed != out_size) return false;
    size_t n = ZSTD_decompress(out, out_size, in, in_size);
    return !ZSTD_isError(n) && n == out_size;
}

/* ---- entries ------------------------------------------------------------------ */

typedef struct entry {
    uint16_t kind;
    uint32_t sm;
    uint64_t flags;
    const uint8_t *payload;
    uint64_t psize, csize, usize;
} entry;

/* Entry e's payload, decompressed when it is compressed, with a NUL after
** it (*n bytes before the NUL); NULL if it does not decode. */
static uint8_t *entry_bytes(const entry *e, size_t *n)
{
    if (!(e->flags & (FLAG_LZ4 | FLAG_ZSTD))) {
        uint8_t *out = tp_malloc(e->psize + 1);
        memcpy(out, e->payload, e->psize);
        out[e->psize] = 0;
        *n = e->psize;
        return out;
    }
    uint64_t csize = e->csize ? e->csize : e->psize;
    if (csize > e->psize || e->usize == 0 || e->usize > MAX_PTX_BYTES) return NULL;
    uint8_t *out = tp_malloc(e->usize + 1);
    bool ok = e->flags & FLAG_ZSTD ? api_zstd_decode(e->payload, csize, out, e->usize)
                                   : api_lz4_block_decode(e->payload, csize, out, e->usize);
    if (!ok) {
        free(out);
        return NULL;
    }
    out[e->usize] = 0;
    *n = e->usize;
    return out;
}

/* The PTX of entry e (text to its first NUL), decompressed; NULL if it does
** not decode. */
static char *entry_ptx(const entry *e, size_t *len)
{
    size_t n;
    char *t = (char *)entry_bytes(e, &n);
    if (t) *len = strnlen(t, n);
    return t;
}

/* The entry at byte *off of a fatbinary whose entries end at end: 1 (*e
** filled, *off moved past it), 0 at the end (what is left is padding), -1
** when it runs past the end. */
static int next_entry(const uint8_t *fb, uint64_t end, uint64_t *off, entry *e)
{
    if (*off >= end || end - *off < 16) return 0;
    const uint8_t *h = fb + *off;
    memset(e, 0, sizeof *e);
    e->kind = rd16(h);
    uint32_t ehs = rd32(h + 4);
    e->psize = rd64(h + 8);
    if (ehs < 16 || ehs > end - *off || e->psize > end - *off - ehs) return -1;
    e->csize = ehs >= 20 ? rd32(h + 16) : 0;
    e->sm = ehs >= 32 ? rd32(h + 28) : 0;
    e->flags = ehs >= 48 ? rd64(h + 40) : 0;
    e->usize = ehs >= 64 ? rd64(h + 56) : 0;
    e->payload = h + ehs;
    *off += ehs + e->psize;
    return 1;
}

/* The fatbinary of image and the end of its entries (from its header), or
** NULL when its header is damaged. */
static const uint8_t *fatbin_bounds(const void *image, size_t size, uint64_t *hs, uint64_t *end)
{
    const uint8_t *fb = unwrap(image);
    if (!fb) return NULL;
    uint16_t hsize = rd16(fb + 6);
    uint64_t total = rd64(fb + 8);
    /* a wrapped fatbinary lies elsewhere: its size is unknown */
    uint64_t lim = (const void *)fb == image ? size : SIZE_MAX;
    if (hsize < 16 || hsize > lim || total > lim - hsize) {
        *end = (uint64_t)hsize + total;
        return NULL;
    }
    *hs = hsize;
    *end = hsize + total;
    return fb;
}

static char *why_fmt(const char *fmt, ...) TP_PRINTF(1, 2);
static char *why_fmt(const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return tp_strdup(buf);
}

char *api_fatbin_ptx(const void *image, size_t size, unsigned cc, size_t *len, unsigned *sm, char **why,
                     api_fatbin_err *err)
{
    *why = NULL;
    *len = 0;
    *sm = 0;
    if (size < 16) {   /* too short for a header (a wrapper's size is unknown: SIZE_MAX) */
        *err = API_FATBIN_NOT_FATBIN;
        *why = tp_strdup("not a fatbinary (too short)");
        return NULL;
    }
    if (!unwrap(image)) {
        *err = API_FATBIN_NOT_FATBIN;
        *why = tp_strdup("not a fatbinary");
        return NULL;
    }
    uint64_t off = 0, end = 0;
    const uint8_t *fb = fatbin_bounds(image, size, &off, &end);
    if (!fb) {
        *err = API_FATBIN_CORRUPT;
        *why = why_fmt("the fatbinary is truncated or corrupt (its header claims %llu bytes)", (unsigned long long)end);
        return NULL;
    }
    entry best = {0};
    unsigned lowest_ptx = ~0u, sass_sm = 0, nptx = 0;
    for (;;) {
        uint64_t at = off;
        entry e;
        int k = next_entry(fb, end, &off, &e);
        if (k == 0) break;
        if (k < 0) {
            *err = API_FATBIN_CORRUPT;
            *why = why_fmt("the fatbinary is corrupt: the entry at byte %llu runs past its end", (unsigned long long)at);
            return NULL;
        }
        if (e.kind == KIND_PTX) {
            nptx++;
            if (e.sm < lowest_ptx) lowest_ptx = e.sm;
            if (e.sm <= cc && (!best.payload || e.sm > best.sm)) best = e;
        } else if (e.kind == KIND_ELF) {
            if (e.sm > sass_sm) sass_sm = e.sm;
        }
    }
    if (best.payload) {
        char *ptx = entry_ptx(&best, len);
        if (!ptx) {
            *err = API_FATBIN_CORRUPT;
            *why = why_fmt("the fatbinary's PTX for sm_%u does not decompress (%s payload of %llu bytes)", best.sm,
                           best.flags & FLAG_ZSTD ? "zstd" : "LZ4", (unsigned long long)best.psize);
            return NULL;
        }
        *sm = best.sm;
        *err = API_FATBIN_OK;
        return ptx;
    }
    if (nptx) {
        *err = API_FATBIN_TOO_NEW;
        *why = why_fmt("the fatbinary's PTX targets sm_%u and newer, above the simulated device's compute "
                       "capability %u.%u: raise device.cc (-o device.cc=%u.%u) or rebuild for an older target",
                       lowest_ptx, cc / 10, cc % 10, lowest_ptx / 10, lowest_ptx % 10);
    } else if (sass_sm) {
        *err = API_FATBIN_SASS_ONLY;
        *why = why_fmt("the fatbinary holds only GPU machine code (a cubin for sm_%u) and no PTX, and tpsim "
                       "simulates PTX: rebuild with PTX embedded, e.g. nvcc -arch=sm_%u (which embeds "
                       "compute_%u PTX) or -gencode arch=compute_%u,code=compute_%u",
                       sass_sm, sass_sm, sass_sm, sass_sm, sass_sm);
    } else {
        *err = API_FATBIN_EMPTY;
        *why = tp_strdup("the fatbinary holds no PTX");
    }
    return NULL;
}

/* ---- cubins: the register counts ptxas wrote ---------------------------------- */

/* ELF64 header and section header fields (the System V gABI) */
#define ELF_SHOFF 0x28
#define ELF_SHENTSIZE 0x3a
#define ELF_SHNUM 0x3c
#define ELF_SHSTRNDX 0x3e
#define SH_NAME 0
#define SH_OFFSET 24
#define SH_SIZE 32
#define SH_INFO 44
#define SH_BYTES 64

void api_cubin_regs_free(api_cubin_regs *r)
{
    for (uint32_t i = 0; i < r->n; i++) free(r->fn[i].name);
    free(r->fn);
    r->fn = NULL;
    r->n = 0;
}

bool api_cubin_read(const uint8_t *elf, size_t size, api_cubin_regs *out)
{
    out->n = 0;
    out->fn = NULL;
    /* 64-bit (class 2), little-endian (data 1) */
    if (size < 64 || memcmp(elf, "\x7f" "ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1) return false;
    uint64_t shoff = rd64(elf + ELF_SHOFF);
    uint16_t shentsize = rd16(elf + ELF_SHENTSIZE), shnum = rd16(elf + ELF_SHNUM), shstrndx = rd16(elf + ELF_SHSTRNDX);
    if (shentsize < SH_BYTES || shoff > size || shnum > (size - shoff) / shentsize || shstrndx >= shnum) return false;
    const uint8_t *strsh = elf + shoff + (uint64_t)shstrndx * shentsize;
    uint64_t stroff = rd64(strsh + SH_OFFSET), strsize = rd64(strsh + SH_SIZE);
    if (stroff > size || strsize > size - stroff) return false;
    const char *strs = (const char *)elf + stroff;
    uint32_t cap = 0;
    for (uint16_t i = 0; i < shnum; i++) {
        const uint8_t *sh = elf + shoff + (uint64_t)i * shentsize;
        uint32_t nm = rd32(sh + SH_NAME);
        if (nm >= strsize) continue;
        size_t len = strnlen(strs + nm, strsize - nm);
        if (nm + len >= strsize || len <= 6 || memcmp(strs + nm, ".text.", 6) != 0) continue;   /* unterminated, or not code */
        if (out->n == cap) {
            cap = cap ? 2 * cap : 8;
            out->fn = tp_realloc(out->fn, cap * sizeof *out->fn);
        }
        out->fn[out->n].name = tp_strndup(strs + nm + 6, len - 6);
        out->fn[out->n].regs = rd32(sh + SH_INFO) >> 24;
        out->n++;
    }
    return true;
}

bool api_fatbin_cubin_regs(const void *image, size_t size, unsigned cc, api_cubin_regs *out)
{
    memset(out, 0, sizeof *out);
    if (size < 16) return false;
    uint64_t off = 0, end = 0;
    const uint8_t *fb = fatbin_bounds(image, size, &off, &end);
    if (!fb) return false;
    entry best = {0}, e;
    while (next_entry(fb, end, &off, &e) > 0)
        if (e.kind == KIND_ELF && e.sm / 10 == cc / 10 && e.sm <= cc && (!best.payload || e.sm > best.sm)) best = e;
    if (!best.payload) return false;
    size_t n = 0;
    uint8_t *elf = entry_bytes(&best, &n);
    if (!elf) return false;
    bool ok = api_cubin_read(elf, n, out);
    free(elf);
    if (!ok) return false;
    out->sm = best.sm;
    return true;
}

uint32_t api_cubin_regs_of(const api_cubin_regs *r, const char *name)
{
    for (uint32_t i = 0; i < r->n; i++)
        if (strcmp(r->fn[i].name, name) == 0) return r->fn[i].regs;
    return 0;
}
