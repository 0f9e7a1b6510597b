/*
** map.h -- a hash map from 64-bit keys to 64-bit values.
**
** Open addressing with linear probing; the capacity is a power of two (64
** at the first insert), doubled when an insert would fill more than three
** quarters of it.  Every key is allowed, 0 included (a slot's use is kept
** apart from its key).  Deleting shifts the entries after the hole back, so
** probe chains stay unbroken and no tombstones are left.
**
** A pointer value goes in as (uint64_t)(uintptr_t)p: tp_map_getp,
** tp_map_putp and tp_map_delp do the casts.  Composite keys: hash them to
** 64 bits, map the hash to an index into the caller's records, and compare
** the full key there (records whose keys hash alike chain through a field
** of their own).
**
** The order of tp_map_next is the slots' order: it depends only on the keys
** inserted and deleted, in order, so a run that does the same walks the same.
**
**   tp_map m = {0};
**   tp_map_put(&m, 42, 7);
**   uint64_t *v = tp_map_find(&m, 42);      -- 7; NULL for a missing key
**   tp_map_free(&m);
*/
#ifndef TP_MAP_H
#define TP_MAP_H

#include "tp.h"

typedef struct tp_map {
    uint64_t *keys, *vals;
    uint8_t *used;       /* 1: the slot holds an entry */
    uint32_t cap, n;     /* cap: 0 or a power of two; n: entries */
} tp_map;

/* The value of key (a pointer into the map, valid until the next insert or
** delete), or NULL. */
uint64_t *tp_map_find(const tp_map *m, uint64_t key);
/* The value of key, added as 0 if missing (*added says which; may be NULL);
** valid until the next insert or delete. */
uint64_t *tp_map_ref(tp_map *m, uint64_t key, bool *added);
/* Sets key to val; true if the key was new. */
bool tp_map_put(tp_map *m, uint64_t key, uint64_t val);
/* Removes key; false if it was missing.  *old (may be NULL) gets its value. */
bool tp_map_del(tp_map *m, uint64_t key, uint64_t *old);
/* The next entry at or after slot *pos, in slot order; false at the end.
** Start with *pos = 0; *pos moves past the entry returned.  Deleting the
** entry returned moves later ones back: a walk that deletes as it goes
** starts again from 0 until it finds nothing to delete. */
bool tp_map_next(const tp_map *m, uint32_t *pos, uint64_t *key, uint64_t *val);
void tp_map_free(tp_map *m);

static inline void *tp_map_getp(const tp_map *m, uint64_t key)
{
    const uint64_t *v = tp_map_find(m, key);
    return v ? (void *)(uintptr_t)*v : NULL;
}
static inline void tp_map_putp(tp_map *m, uint64_t key, void *p) { tp_map_put(m, key, (uint64_t)(uintptr_t)p); }
/* Removes key; its pointer, or NULL if missing. */
static inline void *tp_map_delp(tp_map *m, uint64_t key)
{
    uint64_t old;
    return tp_map_del(m, key, &old) ? (void *)(uintptr_t)old : NULL;
}

#endif
