/* mem.c -- allocation wrappers and the assertion hook. */
#include "tp.h"
#include <stdio.h>
#include <stdlib.h>

static void tp_oom(size_t n)
{
    fprintf(stderr, "tpsim: out of host memory (asked for %zu bytes)\n", n);
    exit(70);
}

void *tp_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) tp_oom(n);
    return p;
}

void *tp_calloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) tp_oom(n * sz);
    return p;
}

void *tp_calloc_lines(size_t n, size_t sz)
{
    size_t bytes = (n ? n : 1) * (sz ? sz : 1);
    bytes = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, bytes);
    if (!p) tp_oom(bytes);
    memset(p, 0, bytes);
    return p;
}

void *tp_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) tp_oom(n);
    return q;
}

char *tp_strndup(const char *s, size_t n)
{
    char *d = tp_malloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *tp_strdup(const char *s) { return tp_strndup(s, strlen(s)); }

void tp_assert_fail(const char *cond, const char *file, int line)
{
    fprintf(stderr, "tpsim: internal error: assertion '%s' failed at %s:%d\n",
            cond, file, line);
    abort();
}
