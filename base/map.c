/* map.c -- the 64-bit hash map (map.h). */
#include "map.h"
#include <stdlib.h>
#include <string.h>

/* The home slot of a key: the key's bits mixed (the first half of the
** 64-bit finalizer of MurmurHash3), then masked. */
static uint32_t map_home(uint64_t key, uint32_t mask)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key & mask;
}

/* The slot holding key, or the empty slot where it would go. */
static uint32_t map_slot(const tp_map *m, uint64_t key)
{
    uint32_t mask = m->cap - 1, i = map_home(key, mask);
    while (m->used[i] && m->keys[i] != key) i = (i + 1) & mask;
    return i;
}

uint64_t *tp_map_find(const tp_map *m, uint64_t key)
{
    if (!m->cap) return NULL;
    uint32_t i = map_slot(m, key);
    return m->used[i] ? &m->vals[i] : NULL;
}

static void map_grow(tp_map *m)
{
    tp_map old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->keys = tp_calloc(m->cap, sizeof *m->keys);
    m->vals = tp_calloc(m->cap, sizeof *m->vals);
    m->used = tp_calloc(m->cap, sizeof *m->used);
    for (uint32_t i = 0; i < old.cap; i++) {
        if (!old.used[i]) continue;
        uint32_t j = map_slot(m, old.keys[i]);
        m->used[j] = 1;
        m->keys[j] = old.keys[i];
        m->vals[j] = old.vals[i];
    }
    free(old.keys);
    free(old.vals);
    free(old.used);
}

uint64_t *tp_map_ref(tp_map *m, uint64_t key, bool *added)
{
    if ((m->n + 1) * 4 > m->cap * 3) map_grow(m);
    uint32_t i = map_slot(m, key);
    bool fresh = !m->used[i];
    if (fresh) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->vals[i] = 0;
        m->n++;
    }
    if (added) *added = fresh;
    return &m->vals[i];
}

bool tp_map_put(tp_map *m, uint64_t key, uint64_t val)
{
    bool added;
    *tp_map_ref(m, key, &added) = val;
    return added;
}

bool tp_map_del(tp_map *m, uint64_t key, uint64_t *old)
{
    if (!m->cap) return false;
    uint32_t mask = m->cap - 1, i = map_slot(m, key);
    if (!m->used[i]) return false;
    if (old) *old = m->vals[i];
    m->used[i] = 0;
    m->n--;
    /* Backward shift: an entry after the hole moves into it unless its home
    ** lies cyclically in (hole, entry]. */
    for (uint32_t j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
        uint32_t home = map_home(m->keys[j], mask);
        bool stays = i <= j ? home > i && home <= j : home > i || home <= j;
        if (stays) continue;
        m->used[i] = 1;
        m->keys[i] = m->keys[j];
        m->vals[i] = m->vals[j];
        m->used[j] = 0;
        i = j;
    }
    return true;
}

bool tp_map_next(const tp_map *m, uint32_t *pos, uint64_t *key, uint64_t *val)
{
    for (uint32_t i = *pos; i < m->cap; i++) {
        if (!m->used[i]) continue;
        if (key) *key = m->keys[i];
        if (val) *val = m->vals[i];
        *pos = i + 1;
        return true;
    }
    *pos = m->cap;
    return false;
}

void tp_map_free(tp_map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    memset(m, 0, sizeof *m);
}
