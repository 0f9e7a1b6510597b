/* dso.c -- which loaded object holds a code address (see dso.h). */
#include "dso.h"
#include <link.h>

typedef struct dso_query {
    uintptr_t addr;
    bool found, main_prog;
    uintptr_t lo, hi;
    const char *name;
} dso_query;

/* dl_iterate_phdr visits the main program first (its name is ""), then
** every shared object in load order. */
static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    dso_query *q = data;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    bool inside = false;
    for (unsigned i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uintptr_t a = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
        uintptr_t b = a + (uintptr_t)ph->p_memsz;
        if (a < lo) lo = a;
        if (b > hi) hi = b;
        if (q->addr >= a && q->addr < b) inside = true;
    }
    if (!inside) return 0;
    q->found = true;
    q->lo = lo;
    q->hi = hi;
    q->name = info->dlpi_name;
    q->main_prog = !info->dlpi_name || !info->dlpi_name[0];
    return 1;
}

static bool query(const void *addr, dso_query *q)
{
    memset(q, 0, sizeof *q);
    q->addr = (uintptr_t)addr;
    if (!addr) return false;
    dl_iterate_phdr(visit, q);
    return q->found;
}

bool tp_dso_range(const void *addr, uintptr_t *lo, uintptr_t *hi)
{
    dso_query q;
    if (!query(addr, &q)) return false;
    *lo = q.lo;
    *hi = q.hi;
    return true;
}

bool tp_dso_lib_name(const void *addr, char *buf, size_t n)
{
    dso_query q;
    if (!query(addr, &q) || q.main_prog || !q.name) return false;
    const char *base = strrchr(q.name, '/');
    base = base ? base + 1 : q.name;
    size_t len = strlen(base);
    if (!len || len >= n) return false;
    memcpy(buf, base, len + 1);
    return true;
}
