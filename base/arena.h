/*
** arena.h -- region allocator.  Everything a loaded PTX module owns (names,
** instructions, operand pools) lives in one arena and is freed at once.
*/
#ifndef TP_ARENA_H
#define TP_ARENA_H

#include "tp.h"

typedef struct tp_arena_block tp_arena_block;

typedef struct tp_arena {
    tp_arena_block *head;
    size_t used_total;  /* bytes handed out, for statistics */
} tp_arena;

void tp_arena_init(tp_arena *a);
void tp_arena_free(tp_arena *a);
/* Returns zeroed memory aligned to 16 bytes. */
void *tp_arena_alloc(tp_arena *a, size_t n);
char *tp_arena_strndup(tp_arena *a, const char *s, size_t n);
char *tp_arena_strdup(tp_arena *a, const char *s);

#endif
