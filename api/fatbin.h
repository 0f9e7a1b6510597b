/*
** fatbin.h -- finds the PTX inside an NVIDIA fatbinary.
**
** A fatbinary (what nvcc -fatbin writes and embeds in host objects) is a
** 16-byte header -- u32 magic 0xBA55ED50, u16 version, u16 header size,
** u64 size of the entries -- followed by entries, each a header
** (u16 kind: 1 PTX, 2 ELF cubin; u16 version; u32 header size; u64 payload
** size; u32 compressed size at +16; u32 target sm at +28; u64 flags at +40,
** where 0x2000 and 0x8000 mark compressed payloads) and its payload.  Host
** objects reference it through a wrapper: u32 magic 0x466243B1, u32
** version, then a pointer to the fatbinary.
**
** Only uncompressed PTX can be used: nvcc 13 compresses PTX by default, so
** programs must be built with -Xfatbin=-compress=false for tpsim to read
** their fatbinaries (or give tpsim the .ptx).
*/
#ifndef API_FATBIN_H
#define API_FATBIN_H

#include "../base/tp.h"

/* True if image starts with a fatbinary or a fatbinary wrapper. */
bool api_fatbin_is(const void *image);

/* Copies out (NUL-terminated, *len bytes without the NUL) the PTX entry for
** the highest target not above cc (major*10+minor).  size bounds the image
** (SIZE_MAX when the caller does not know it, as for cuModuleLoadData).  Returns NULL with a
** malloc'ed explanation in *why when there is none; *unreadable is then
** true if the fatbinary has PTX that tpsim cannot read (compressed). */
char *api_fatbin_ptx(const void *image, size_t size, unsigned cc, size_t *len, char **why, bool *unreadable);

#endif
