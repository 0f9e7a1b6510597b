/*
** sha256.h -- SHA-256 (FIPS 180-4), for content keys: the sweep cache names
** each result by the hash of everything that determines it.
**
**   tp_sha256 h;  tp_sha256_init(&h);  tp_sha256_put(&h, p, n) ...;
**   char hex[65];  tp_sha256_hex(&h, hex);      (finishes the hash)
*/
#ifndef TP_SHA256_H
#define TP_SHA256_H

#include "tp.h"

typedef struct tp_sha256 {
    uint32_t h[8];
    uint64_t bytes;         /* message length so far */
    unsigned char buf[64];  /* a partial block */
    uint32_t nbuf;
} tp_sha256;

void tp_sha256_init(tp_sha256 *s);
void tp_sha256_put(tp_sha256 *s, const void *p, size_t n);
/* Finishes: the 32-byte digest. */
void tp_sha256_done(tp_sha256 *s, unsigned char out[32]);
/* Finishes: the digest as 64 lower-case hex digits and a NUL. */
void tp_sha256_hex(tp_sha256 *s, char out[65]);
/* Adds a file's bytes; false (errno set) when it cannot be read. */
bool tp_sha256_file(tp_sha256 *s, const char *path);

#endif
