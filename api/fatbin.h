/*
** fatbin.h -- finds the PTX inside an NVIDIA fatbinary.
**
** The format, as nvcc 13 writes it (all integers little-endian; found by
** inspecting `nvcc -fatbin` outputs, see docs/FATBIN.md):
**
**   fatbinary   u32 magic 0xBA55ED50, u16 version (1), u16 header size (16),
**               u64 bytes of entries that follow the header
**   entry       a header followed by its payload:
**                 +0  u16 kind: 1 PTX, 2 ELF cubin (SASS)
**                 +2  u16 entry version (0x0101)
**                 +4  u32 header size (64 for cubins, 80 or more for PTX)
**                 +8  u64 payload size (padded to 8 bytes)
**                 +16 u32 compressed size: the exact length of a compressed
**                     payload inside the padded one (0 when uncompressed)
**                 +28 u32 target: sm_XY as XY (75, 80, ...)
**                 +40 u64 flags: 0x2000 the payload is an LZ4 block
**                     (`-compress-mode=speed`), 0x8000 a zstd frame (nvcc
**                     13's default); neither: plain PTX text
**                 +56 u64 uncompressed size (when compressed), NUL included
**               PTX text ends at its first NUL byte.
**   wrapper     what host code registers (__fatBinC_Wrapper_t): u32 magic
**               0x466243B1, u32 version, a pointer to the fatbinary, and a
**               pointer that version 2 (relocatable device code, -rdc)
**               uses for a NULL-terminated array of the fatbinaries of
**               every object linked into the program.
**
** Of several PTX entries the highest target not above the device's compute
** capability is used.  tpsim runs PTX, never a cubin's machine code; from a
** cubin the device could run it takes the register count ptxas gave each
** kernel (api_fatbin_cubin_regs), which is what the card would use.
**
**   cubin       an ELF64 little-endian relocatable image; each function's
**               code is a section `.text.NAME` whose sh_info holds, in its
**               top byte, the registers per thread ptxas allocated (the low
**               24 bits: the function's symbol index).  Read off nvcc 13's
**               outputs (`readelf -S` beside `ptxas -v`: docs/FATBIN.md).
*/
#ifndef API_FATBIN_H
#define API_FATBIN_H

#include "../base/tp.h"

#define API_FATBIN_MAGIC 0xBA55ED50u
#define API_FATBIN_WRAPPER_MAGIC 0x466243B1u

/* Why api_fatbin_ptx found no PTX. */
typedef enum api_fatbin_err {
    API_FATBIN_OK = 0,
    API_FATBIN_NOT_FATBIN,  /* no fatbinary (or wrapper) magic */
    API_FATBIN_CORRUPT,     /* an entry runs past the end, or a payload does not decompress */
    API_FATBIN_TOO_NEW,     /* PTX only for targets above the device's compute capability */
    API_FATBIN_SASS_ONLY,   /* cubins (machine code) but no PTX */
    API_FATBIN_EMPTY,       /* neither PTX nor cubins */
} api_fatbin_err;

/* True if image starts with a fatbinary or a fatbinary wrapper. */
bool api_fatbin_is(const void *image);

/* Copies out (NUL-terminated, *len bytes without the NUL) the PTX entry for
** the highest target not above cc (major*10+minor), decompressing it when
** needed; *sm receives that target.  size bounds the image (SIZE_MAX when
** the caller does not know it, as for cuModuleLoadData: the fatbinary's
** own header then bounds it).  Returns NULL with the reason in *err and a
** malloc'ed explanation that says what to do in *why. */
char *api_fatbin_ptx(const void *image, size_t size, unsigned cc, size_t *len, unsigned *sm, char **why,
                     api_fatbin_err *err);

/* The register counts of one cubin: each function's name and count. */
typedef struct api_cubin_regs {
    unsigned sm;            /* the cubin's target (sm_XY as XY); 0: none found */
    uint32_t n;
    struct api_cubin_fn {
        char *name;         /* the function's (mangled) name */
        uint32_t regs;      /* registers per thread, as `ptxas -v` reports them */
    } *fn;
} api_cubin_regs;

/* Reads the `.text.NAME` sections of an ELF cubin of size bytes into out
** (out->sm is left as it is).  False for anything that is not a well-formed
** little-endian ELF64 image; out is then empty.  Never reads outside
** [elf, elf + size). */
bool api_cubin_read(const uint8_t *elf, size_t size, api_cubin_regs *out);

/* The register counts of the fatbinary's cubin that a device of compute
** capability cc would run, as the driver chooses: the highest target of
** cc's major version not above cc (binary compatibility).  False (out
** empty) when there is none or it does not decode; a damaged cubin is
** ignored, never an error: tpsim does not need it. */
bool api_fatbin_cubin_regs(const void *image, size_t size, unsigned cc, api_cubin_regs *out);
void api_cubin_regs_free(api_cubin_regs *r);
/* The count for function name, or 0 when the cubin has no such function. */
uint32_t api_cubin_regs_of(const api_cubin_regs *r, const char *name);

/* Decoders of the two compressed payload formats, over the system's liblz4
** (LZ4_decompress_safe) and libzstd.  Each writes exactly out_size bytes or
** fails (false): a malformed or truncated input, one that decodes to another
** size, or an empty one. */
bool api_lz4_block_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size);
bool api_zstd_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size);

#endif
