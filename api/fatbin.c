/* fatbin.c -- finds the PTX inside an NVIDIA fatbinary (see fatbin.h). */
#include "fatbin.h"
#include <stdio.h>
#include <stdlib.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define WRAPPER_MAGIC 0x466243B1u
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_COMPRESSED (0x2000u | 0x8000u)

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* The fatbinary itself, following a wrapper if there is one. */
static const uint8_t *unwrap(const void *image)
{
    const uint8_t *b = image;
    if (rd32(b) == WRAPPER_MAGIC) {
        const void *data;
        memcpy(&data, b + 8, sizeof data);
        return data && rd32(data) == FATBIN_MAGIC ? data : NULL;
    }
    return rd32(b) == FATBIN_MAGIC ? b : NULL;
}

bool api_fatbin_is(const void *image) { return unwrap(image) != NULL; }

static char *why_text(const char *fmt, unsigned a, unsigned b)
{
    char buf[400];
    snprintf(buf, sizeof buf, fmt, a / 10, a % 10, b / 10, b % 10);
    return tp_strdup(buf);
}

char *api_fatbin_ptx(const void *image, size_t size, unsigned cc, size_t *len, char **why, bool *unreadable)
{
    *why = NULL;
    *unreadable = false;
    const uint8_t *fb = unwrap(image);
    if (!fb) {
        *why = tp_strdup("not a fatbinary");
        return NULL;
    }
    uint16_t hsize = rd16(fb + 6);
    uint64_t total = rd64(fb + 8);
    /* a wrapped fatbinary lies elsewhere: its size is unknown */
    uint64_t end = fb == image ? size : SIZE_MAX;
    if (hsize + total < end) end = hsize + total;
    const uint8_t *best = NULL;
    uint64_t best_size = 0;
    unsigned best_sm = 0, lowest_ptx = ~0u, compressed = 0, elf_sm = 0;
    for (uint64_t off = hsize; off + 16 <= end;) {
        const uint8_t *e = fb + off;
        uint16_t kind = rd16(e);
        uint32_t ehs = rd32(e + 4);
        uint64_t psize = rd64(e + 8);
        if (ehs < 16 || ehs > 4096 || off + ehs > end || psize > end - off - ehs) break;   /* not an entry: stop */
        uint32_t sm = ehs >= 32 ? rd32(e + 28) : 0;
        uint64_t flags = ehs >= 48 ? rd64(e + 40) : 0;
        uint32_t csize = ehs >= 20 ? rd32(e + 16) : 0;
        if (kind == KIND_PTX) {
            if ((flags & FLAG_COMPRESSED) || csize) {
                compressed++;
            } else {
                if (sm < lowest_ptx) lowest_ptx = sm;
                if (sm <= cc && (!best || sm > best_sm)) best = e + ehs, best_size = psize, best_sm = sm;
            }
        } else if (kind == KIND_ELF) {
            elf_sm = sm;
        }
        off += ehs + psize;
    }
    if (best) {
        size_t n = strnlen((const char *)best, best_size);
        char *ptx = tp_malloc(n + 1);
        memcpy(ptx, best, n);
        ptx[n] = '\0';
        *len = n;
        return ptx;
    }
    if (lowest_ptx != ~0u) {
        *why = why_text("the fatbinary's PTX targets sm_%u%u and newer, above the simulated device's "
                        "compute capability %u.%u (raise device.cc)", lowest_ptx, cc);
    } else if (compressed) {
        *unreadable = true;
        *why = tp_strdup("the fatbinary's PTX is compressed (nvcc's default), which tpsim cannot read: "
                         "build with -Xfatbin=-compress=false, or load the .ptx file");
    } else if (elf_sm) {
        *why = why_text("the fatbinary holds only cubin (machine code, sm_%u%u) and no PTX; tpsim "
                        "simulates PTX: add -gencode arch=compute_XX,code=compute_XX (device %u.%u)", elf_sm, cc);
    } else {
        *why = tp_strdup("the fatbinary holds no PTX");
    }
    return NULL;
}
