/*
** tp.h -- things every tpsim source file uses: fixed-width integers, bool,
** assertions, small helpers.  Module prefix for base/: tp_.
*/
#ifndef TP_H
#define TP_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define TPSIM_VERSION "0.1.0"

#define TP_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define TP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TP_MAX(a, b) ((a) > (b) ? (a) : (b))
#define TP_ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((uint64_t)(a) - 1))

#if defined(__GNUC__)
#define TP_LIKELY(x) __builtin_expect(!!(x), 1)
#define TP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TP_NORETURN __attribute__((noreturn))
#define TP_UNUSED __attribute__((unused))
#else
#define TP_LIKELY(x) (x)
#define TP_UNLIKELY(x) (x)
#define TP_PRINTF(f, a)
#define TP_NORETURN
#define TP_UNUSED
#endif

/* TP_ASSERT states a proven invariant.  It is checked in debug builds
** (TP_DEBUG) and compiled out otherwise. */
#ifdef TP_DEBUG
#define TP_ASSERT(c) \
    ((c) ? (void)0 : tp_assert_fail(#c, __FILE__, __LINE__))
#else
#define TP_ASSERT(c) ((void)0)
#endif

TP_NORETURN void tp_assert_fail(const char *cond, const char *file, int line);

/* Out of memory is the one error tpsim does not recover from: it prints a
** message and exits.  Everything else is reported to the caller. */
void *tp_malloc(size_t n);
void *tp_calloc(size_t n, size_t sz);
/* As tp_calloc, aligned to a cache line (64 bytes): for arrays of structures
** that declare _Alignas(64) members (what host threads write apart). */
void *tp_calloc_lines(size_t n, size_t sz);
void *tp_realloc(void *p, size_t n);
char *tp_strdup(const char *s);
char *tp_strndup(const char *s, size_t n);

static inline uint32_t tp_ctz32(uint32_t x) { return (uint32_t)__builtin_ctz(x); }
/* Population counts without relying on the POPCNT instruction (the build
** targets baseline x86-64, where __builtin_popcount becomes a libgcc call). */
static inline uint32_t tp_popc32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}
static inline uint32_t tp_popc64(uint64_t x)
{
    return tp_popc32((uint32_t)x) + tp_popc32((uint32_t)(x >> 32));
}

#endif
