/*
** t_fatbin.c -- the fatbinary reader (api/fatbin.c) on fatbinaries nvcc 13
** made (tests/cudart/fatbin/, regen.sh): zstd, LZ4 and uncompressed PTX
** decode to the same text; of several PTX targets the highest one not above
** the device's is chosen; a cubin-only fatbinary and damaged ones are
** refused with the reason; the LZ4 decoder on hand-made and liblz4-made
** blocks; the register counts of the cubin a device would run (ptxas's,
** regs.cubin) and the ELF reader on damaged images.
**   t_fatbin DIR   (the directory of the .fatbin files)
*/
#include "../../api/fatbin.h"
#include "../unit/tt.h"
#include <lz4.h>

static const char *dir = "tests/cudart/fatbin";

/* The file's bytes (*n of them), or NULL. */
static uint8_t *slurp(const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 16);
    *n = fread(b, 1, (size_t)len, f);
    memset(b + *n, 0, 16);
    fclose(f);
    return b;
}

/* The PTX of a file for device cc, or NULL (with *err, *why). */
static char *ptx_of(const char *name, unsigned cc, unsigned *sm, api_fatbin_err *err, char **why)
{
    size_t n = 0, len = 0;
    uint8_t *b = slurp(name, &n);
    if (!b) {
        tt_fail_msg(__FILE__, __LINE__, "cannot read %s/%s", dir, name);
        *err = API_FATBIN_NOT_FATBIN;
        *why = NULL;
        return NULL;
    }
    char *p = api_fatbin_ptx(b, n, cc, &len, sm, why, err);
    if (p) TT_EQ_U(len, strlen(p));
    free(b);
    return p;
}

/* zstd (nvcc's default), LZ4 and no compression: the same PTX. */
static void fatbin_codecs(void)
{
    unsigned sm[3];
    api_fatbin_err err[3];
    char *why[3], *p[3];
    const char *names[3] = {"k_zstd.fatbin", "k_lz4.fatbin", "k_plain.fatbin"};
    for (int i = 0; i < 3; i++) {
        p[i] = ptx_of(names[i], 75, &sm[i], &err[i], &why[i]);
        TT_CHECK(p[i] != NULL);
        TT_EQ_I(err[i], API_FATBIN_OK);
        TT_EQ_U(sm[i], 75);
    }
    if (p[0] && p[1] && p[2]) {
        TT_EQ_STR(p[0], p[1]);
        TT_EQ_STR(p[0], p[2]);
        TT_HAS(p[0], ".target sm_75");
        TT_HAS(p[0], ".visible .entry k_saxpy(");
        TT_HAS(p[0], ".visible .entry k_sum(");
        TT_HAS(p[0], "k_scale[16]");
    }
    for (int i = 0; i < 3; i++) free(p[i]);
    /* relocatable device code: a longer entry header (its options) */
    unsigned s;
    api_fatbin_err e;
    char *w;
    char *r = ptx_of("k_rdc.fatbin", 75, &s, &e, &w);
    TT_CHECK(r && strstr(r, ".visible .entry k_sum("));
    free(r);
}

/* compute_75 and compute_80 PTX and an sm_86 cubin: the highest PTX target
** not above the device. */
static void fatbin_choice(void)
{
    static const struct { unsigned cc, sm; } want[] = {{75, 75}, {80, 80}, {86, 80}, {90, 80}, {120, 80}};
    for (unsigned i = 0; i < TP_ARRAY_LEN(want); i++) {
        unsigned sm = 0;
        api_fatbin_err e;
        char *why;
        char *p = ptx_of("k_multi.fatbin", want[i].cc, &sm, &e, &why);
        TT_CHECK(p != NULL);
        TT_EQ_U(sm, want[i].sm);
        if (p) {
            char t[32];
            snprintf(t, sizeof t, ".target sm_%u", want[i].sm);
            TT_HAS(p, t);
        }
        free(p);
        free(why);
    }
    /* a device older than every PTX target */
    unsigned sm;
    api_fatbin_err e;
    char *why = NULL;
    char *p = ptx_of("k_multi.fatbin", 70, &sm, &e, &why);
    TT_CHECK(p == NULL);
    TT_EQ_I(e, API_FATBIN_TOO_NEW);
    TT_CHECK(why && strstr(why, "sm_75") && strstr(why, "device.cc"));
    free(why);
}

static void fatbin_refused(void)
{
    unsigned sm;
    api_fatbin_err e;
    char *why = NULL;
    /* machine code only: say how to embed PTX */
    char *p = ptx_of("k_sass.fatbin", 75, &sm, &e, &why);
    TT_CHECK(p == NULL);
    TT_EQ_I(e, API_FATBIN_SASS_ONLY);
    TT_CHECK(why && strstr(why, "-arch=sm_75") && strstr(why, "arch=compute_75,code=compute_75"));
    free(why);
    /* truncated: the header claims more than there is */
    size_t n, len;
    uint8_t *b = slurp("k_zstd.fatbin", &n);
    TT_CHECK(b != NULL);
    if (!b) return;
    p = api_fatbin_ptx(b, n - 100, 75, &len, &sm, &why, &e);
    TT_CHECK(p == NULL);
    TT_EQ_I(e, API_FATBIN_CORRUPT);
    TT_HAS(why, "truncated");
    free(why);
    /* the zstd frame's magic damaged: the payload does not decode */
    uint8_t *z = memmem(b, n, "\x28\xb5\x2f\xfd", 4);
    TT_CHECK(z != NULL);
    if (z) z[1] ^= 0xff;
    p = api_fatbin_ptx(b, n, 75, &len, &sm, &why, &e);
    TT_CHECK(p == NULL);
    TT_EQ_I(e, API_FATBIN_CORRUPT);
    TT_HAS(why, "does not decompress");
    free(why);
    /* an entry whose size runs past the end */
    memcpy(b, "\x50\xed\x55\xba", 4);
    uint64_t big = 1ull << 40;
    memcpy(b + 16 + 8, &big, 8);
    p = api_fatbin_ptx(b, n, 75, &len, &sm, &why, &e);
    TT_CHECK(p == NULL);
    TT_EQ_I(e, API_FATBIN_CORRUPT);
    free(why);
    free(b);
    /* not a fatbinary at all */
    p = api_fatbin_ptx(".version 7.5", 12, 75, &len, &sm, &why, &e);
    TT_CHECK(p == NULL);
    TT_EQ_I(e, API_FATBIN_NOT_FATBIN);
    free(why);
    /* a wrapper (what host code registers) leads to the fatbinary */
    b = slurp("k_plain.fatbin", &n);
    struct { uint32_t magic, version; const void *data, *rest; } w = {0x466243B1u, 1, b, NULL};
    TT_CHECK(api_fatbin_is(&w));
    p = api_fatbin_ptx(&w, sizeof w, 75, &len, &sm, &why, &e);
    TT_CHECK(p && strstr(p, "k_saxpy"));
    free(p);
    free(b);
}

/* The register counts of the cubin a device would run (regs.cubin): the
** numbers are ptxas's own (`ptxas -v` in regen.sh: r_wide 54, r_small 8;
** k.cu's two kernels 10 each for sm_75 and sm_86), read from each
** function's `.text.NAME` section, plain and zstd-compressed alike; only a
** cubin of the device's major version not above it counts. */
static void fatbin_cubin_regs(void)
{
    static const char *const names[] = {"k_regs.fatbin", "k_regs_z.fatbin"};
    for (unsigned i = 0; i < TP_ARRAY_LEN(names); i++) {
        size_t n = 0;
        uint8_t *b = slurp(names[i], &n);
        TT_CHECK(b != NULL);
        if (!b) continue;
        api_cubin_regs r;
        TT_CHECK(api_fatbin_cubin_regs(b, n, 75, &r));
        TT_EQ_U(r.sm, 75);
        TT_EQ_U(r.n, 2);
        TT_EQ_U(api_cubin_regs_of(&r, "r_wide"), 54);
        TT_EQ_U(api_cubin_regs_of(&r, "r_small"), 8);
        TT_EQ_U(api_cubin_regs_of(&r, "r_none"), 0);
        api_cubin_regs_free(&r);
        /* sm_75 code runs on 7.x from 7.5 (not 7.0), never on 8.x */
        TT_CHECK(api_fatbin_cubin_regs(b, n, 79, &r));
        api_cubin_regs_free(&r);
        TT_CHECK(!api_fatbin_cubin_regs(b, n, 70, &r));
        TT_CHECK(!api_fatbin_cubin_regs(b, n, 80, &r));
        TT_EQ_U(r.n, 0);
        /* the PTX beside it is still what runs */
        unsigned sm;
        api_fatbin_err e;
        char *why = NULL;
        char *p = ptx_of(names[i], 75, &sm, &e, &why);
        TT_CHECK(p && strstr(p, ".visible .entry r_wide("));
        free(p);
        free(b);
    }
    /* k_multi: an sm_86 cubin for 8.6 to 8.9; k_sass: sm_75 only; k_zstd: PTX only */
    static const struct { const char *f; unsigned cc, sm; } want[] = {
        {"k_multi.fatbin", 86, 86}, {"k_multi.fatbin", 89, 86}, {"k_multi.fatbin", 80, 0}, {"k_multi.fatbin", 90, 0},
        {"k_sass.fatbin", 75, 75},  {"k_zstd.fatbin", 75, 0}};
    for (unsigned i = 0; i < TP_ARRAY_LEN(want); i++) {
        size_t n = 0;
        uint8_t *b = slurp(want[i].f, &n);
        TT_CHECK(b != NULL);
        if (!b) continue;
        api_cubin_regs r;
        TT_EQ_I(api_fatbin_cubin_regs(b, n, want[i].cc, &r), want[i].sm != 0);
        TT_EQ_U(r.sm, want[i].sm);
        if (want[i].sm) {
            TT_EQ_U(api_cubin_regs_of(&r, "k_saxpy"), 10);
            TT_EQ_U(api_cubin_regs_of(&r, "k_sum"), 10);
        }
        api_cubin_regs_free(&r);
        free(b);
    }
}

/* The ELF reader on damaged images: nothing read outside the bytes given,
** no function from a malformed one. */
static void cubin_damaged(void)
{
    size_t n = 0;
    uint8_t *b = slurp("k_sass.fatbin", &n);
    TT_CHECK(b != NULL);
    if (!b) return;
    uint8_t *elf = memmem(b, n, "\x7f" "ELF", 4);
    TT_CHECK(elf != NULL);
    if (!elf) {
        free(b);
        return;
    }
    size_t en = n - (size_t)(elf - b);
    api_cubin_regs r;
    TT_CHECK(api_cubin_read(elf, en, &r));
    TT_EQ_U(api_cubin_regs_of(&r, "k_sum"), 10);
    api_cubin_regs_free(&r);
    /* cut before its section table (at the end of nvcc's cubins) */
    uint64_t shoff;
    memcpy(&shoff, elf + 0x28, 8);
    TT_CHECK(shoff > 64 && shoff < en);
    TT_CHECK(!api_cubin_read(elf, (size_t)shoff + 10, &r));
    TT_EQ_U(r.n, 0);
    TT_CHECK(!api_cubin_read(elf, 40, &r));
    /* a 32-bit or big-endian image, another magic */
    uint8_t *c = malloc(en);
    memcpy(c, elf, en);
    c[4] = 1;
    TT_CHECK(!api_cubin_read(c, en, &r));
    c[4] = 2, c[5] = 2;
    TT_CHECK(!api_cubin_read(c, en, &r));
    c[5] = 1, c[1] = 'X';
    TT_CHECK(!api_cubin_read(c, en, &r));
    /* the section-name table's index past the table; its size past the end */
    memcpy(c, elf, en);
    uint16_t shnum;
    memcpy(&shnum, c + 0x3c, 2);
    memcpy(c + 0x3e, &shnum, 2);
    TT_CHECK(!api_cubin_read(c, en, &r));
    memcpy(c, elf, en);
    uint16_t stri;
    memcpy(&stri, c + 0x3e, 2);
    uint64_t huge = (uint64_t)en;
    memcpy(c + shoff + (uint64_t)stri * 64 + 32, &huge, 8);
    TT_CHECK(!api_cubin_read(c, en, &r));
    /* every name out of range: read, no function */
    memcpy(c, elf, en);
    for (uint16_t i = 0; i < shnum; i++) {
        uint32_t far = 0xfffffff0u;
        memcpy(c + shoff + (uint64_t)i * 64, &far, 4);
    }
    TT_CHECK(api_cubin_read(c, en, &r));
    TT_EQ_U(r.n, 0);
    api_cubin_regs_free(&r);
    free(c);
    free(b);
}

/* The LZ4 decoder (liblz4 underneath): blocks made by liblz4's compressor
** come back exactly; hand-made blocks (token: literals << 4 | match - 4,
** literals, little-endian offset) check the size rule and the refusals. */
static void fatbin_lz4(void)
{
    /* "ab", 8 bytes from 2 back (overlapping), then the last literals "hello" */
    uint8_t a[] = {0x24, 'a', 'b', 2, 0, 0x50, 'h', 'e', 'l', 'l', 'o'};
    uint8_t out[32];
    memset(out, 0, sizeof out);
    TT_CHECK(api_lz4_block_decode(a, sizeof a, out, 15));
    TT_CHECK(memcmp(out, "abababababhello", 15) == 0);
    /* told to produce another size: one byte more or less */
    TT_CHECK(!api_lz4_block_decode(a, sizeof a, out, 16));
    TT_CHECK(!api_lz4_block_decode(a, sizeof a, out, 14));
    /* an offset before the start of the output; the input cut short; nothing */
    a[3] = 3;
    TT_CHECK(!api_lz4_block_decode(a, sizeof a, out, 15));
    a[3] = 2;
    TT_CHECK(!api_lz4_block_decode(a, sizeof a - 1, out, 15));
    TT_CHECK(!api_lz4_block_decode(a, 0, out, 0));
    /* PTX-like text through liblz4's own compressor: it finds the repeats */
    char text[4096];
    size_t n = 0;
    for (int i = 0; n + 64 < sizeof text; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "    add.s32 %%r%d, %%r%d, %d;\n", i % 7, i % 5, i);
    char z[LZ4_COMPRESSBOUND(4096)];
    int zn = LZ4_compress_default(text, z, (int)n, (int)sizeof z);
    TT_CHECK(zn > 0 && (size_t)zn < n / 2);
    uint8_t back[4096];
    TT_CHECK(api_lz4_block_decode((const uint8_t *)z, (size_t)zn, back, n));
    TT_CHECK(memcmp(back, text, n) == 0);
    TT_CHECK(!api_lz4_block_decode((const uint8_t *)z, (size_t)zn - 1, back, n));
}

int main(int argc, char **argv)
{
    if (argc > 1) dir = argv[1];
    TT_RUN(fatbin_codecs);
    TT_RUN(fatbin_choice);
    TT_RUN(fatbin_refused);
    TT_RUN(fatbin_lz4);
    TT_RUN(fatbin_cubin_regs);
    TT_RUN(cubin_damaged);
    return tt_done();
}
