/* arena.c -- region allocator: a list of blocks, bump allocation. */
#include "arena.h"
#include <stdlib.h>

struct tp_arena_block {
    tp_arena_block *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
};

void tp_arena_init(tp_arena *a) { a->head = NULL; a->used_total = 0; }

void tp_arena_free(tp_arena *a)
{
    tp_arena_block *b = a->head;
    while (b) {
        tp_arena_block *n = b->next;
        free(b);
        b = n;
    }
    tp_arena_init(a);
}

void *tp_arena_alloc(tp_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    tp_arena_block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t sz = n > 64 * 1024 ? n : 64 * 1024;
        b = tp_malloc(sizeof *b + sz);
        b->size = sz;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    a->used_total += n;
    memset(p, 0, n);
    return p;
}

char *tp_arena_strndup(tp_arena *a, const char *s, size_t n)
{
    char *d = tp_arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *tp_arena_strdup(tp_arena *a, const char *s) { return tp_arena_strndup(a, s, strlen(s)); }
