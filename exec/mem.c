/*
** mem.c -- simulated device memory.
**
** Each device reserves one range of host virtual memory at a fixed address
** (EXEC_DEV_BASE + slot * EXEC_DEV_STRIDE), so a device address is the host
** address of its bytes: loads and stores need no translation, device pointers
** are the same on every run, and managed memory is simply device memory the
** host may touch.  The range is reserved PROT_NONE; allocations are made
** readable and writable page by page and returned to PROT_NONE when freed, so
** a stray host access to freed device memory faults instead of corrupting.
**
** Allocation is first-fit over a sorted list of freed ranges, then a bump
** pointer; the live allocations are kept sorted by address for the bounds
** check every simulated access makes (exec_mem_lookup).
*/
#include "check.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

enum { EXEC_MAX_SLOTS = 16 };
static bool slot_used[EXEC_MAX_SLOTS];

bool exec_mem_reserve(exec_dev *d, tp_err *e)
{
    d->page = (size_t)sysconf(_SC_PAGESIZE);
    uint64_t cap = (uint64_t)tp_opt_i(&d->opts, OPT_DEVICE_GLOBAL_MEM);
    cap = TP_ALIGN_UP(cap, 1u << 21);
    for (int s = 0; s < EXEC_MAX_SLOTS; s++) {
        if (slot_used[s]) continue;
        uint64_t want = EXEC_DEV_BASE + (uint64_t)s * EXEC_DEV_STRIDE;
        void *p = mmap((void *)(uintptr_t)want, cap, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == MAP_FAILED) continue;
        if ((uint64_t)(uintptr_t)p != want) { /* old kernels ignore NOREPLACE */
            munmap(p, cap);
            continue;
        }
        slot_used[s] = true;
        d->slot = s;
        d->base = want;
        d->cap = cap;
        return true;
    }
    tp_err_set(e, 1, "cannot reserve %llu bytes of device memory at a fixed address (%s)",
               (unsigned long long)cap, strerror(errno));
    return false;
}

void exec_mem_release(exec_dev *d)
{
    if (!d->base) return;
    munmap((void *)(uintptr_t)d->base, d->cap);
    slot_used[d->slot] = false;
    free(d->allocs);
    free(d->frees);
    d->allocs = NULL;
    d->frees = NULL;
    d->base = 0;
}

/* Index of the first allocation with base > addr. */
static uint32_t upper(const exec_dev *d, uint64_t addr)
{
    uint32_t lo = 0, hi = d->nallocs;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (d->allocs[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

const exec_alloc *exec_mem_lookup(const exec_dev *d, uint64_t addr, uint64_t size)
{
    uint32_t i = upper(d, addr);
    if (i == 0) return NULL;
    const exec_alloc *a = &d->allocs[i - 1];
    if (addr - a->base < a->size && size <= a->size - (addr - a->base)) return a;
    return NULL;
}

static void insert_alloc(exec_dev *d, exec_alloc a)
{
    if (d->nallocs == d->capallocs) {
        d->capallocs = d->capallocs ? 2 * d->capallocs : 64;
        d->allocs = tp_realloc(d->allocs, d->capallocs * sizeof *d->allocs);
    }
    uint32_t i = upper(d, a.base);
    memmove(&d->allocs[i + 1], &d->allocs[i], (d->nallocs - i) * sizeof *d->allocs);
    d->allocs[i] = a;
    d->nallocs++;
}

static void take_free(exec_dev *d, uint32_t i, uint64_t span)
{
    exec_free_rng *f = &d->frees[i];
    f->base += span;
    f->size -= span;
    if (f->size == 0) {
        memmove(f, f + 1, (d->nfrees - i - 1) * sizeof *f);
        d->nfrees--;
    }
}

uint64_t exec_mem_alloc(exec_dev *d, uint64_t bytes, uint64_t align)
{
    if (align < 256) align = 256;
    if (align & (align - 1)) return 0;
    uint64_t span = TP_ALIGN_UP(bytes ? bytes : 1, d->page);
    if (span < bytes) return 0;
    uint64_t addr = 0;
    for (uint32_t i = 0; i < d->nfrees; i++) {
        exec_free_rng *f = &d->frees[i];
        uint64_t a = TP_ALIGN_UP(f->base, align);
        if (a == f->base && f->size >= span) {
            addr = a;
            take_free(d, i, span);
            break;
        }
    }
    if (!addr) {
        uint64_t a = TP_ALIGN_UP(d->base + d->top, align);
        if (a + span > d->base + d->cap || a + span < a) return 0;
        if (a > d->base + d->top) { /* the alignment gap becomes a free range */
            if (d->nfrees == d->capfrees) {
                d->capfrees = d->capfrees ? 2 * d->capfrees : 16;
                d->frees = tp_realloc(d->frees, d->capfrees * sizeof *d->frees);
            }
            d->frees[d->nfrees++] = (exec_free_rng){d->base + d->top, a - (d->base + d->top)};
        }
        addr = a;
        d->top = a + span - d->base;
    }
    if (mprotect((void *)(uintptr_t)addr, span, PROT_READ | PROT_WRITE) != 0) return 0;
    memset((void *)(uintptr_t)addr, 0, bytes);
    insert_alloc(d, (exec_alloc){addr, bytes, span});
    d->used += span;
    return addr;
}

/* Returns a range to the free list, merging with its neighbours. */
static void add_free(exec_dev *d, uint64_t base, uint64_t size)
{
    uint32_t i = 0;
    while (i < d->nfrees && d->frees[i].base < base) i++;
    if (i > 0 && d->frees[i - 1].base + d->frees[i - 1].size == base) {
        d->frees[i - 1].size += size;
        if (i < d->nfrees && base + size == d->frees[i].base) {
            d->frees[i - 1].size += d->frees[i].size;
            memmove(&d->frees[i], &d->frees[i + 1], (d->nfrees - i - 1) * sizeof *d->frees);
            d->nfrees--;
        }
        return;
    }
    if (i < d->nfrees && base + size == d->frees[i].base) {
        d->frees[i].base = base;
        d->frees[i].size += size;
        return;
    }
    if (d->nfrees == d->capfrees) {
        d->capfrees = d->capfrees ? 2 * d->capfrees : 16;
        d->frees = tp_realloc(d->frees, d->capfrees * sizeof *d->frees);
    }
    memmove(&d->frees[i + 1], &d->frees[i], (d->nfrees - i) * sizeof *d->frees);
    d->frees[i] = (exec_free_rng){base, size};
    d->nfrees++;
}

bool exec_mem_register(exec_dev *d, uint64_t addr, uint64_t bytes)
{
    if (!addr || !bytes || addr + bytes < addr) return false;
    if (addr < d->base + d->cap && addr + bytes > d->base) return false;
    uint32_t i = upper(d, addr + bytes - 1);
    if (i > 0 && d->allocs[i - 1].base + d->allocs[i - 1].size > addr) return false;
    insert_alloc(d, (exec_alloc){addr, bytes, 0});
    return true;
}

bool exec_mem_unregister(exec_dev *d, uint64_t addr)
{
    uint32_t i = upper(d, addr);
    if (i == 0 || d->allocs[i - 1].base != addr || d->allocs[i - 1].span != 0) return false;
    memmove(&d->allocs[i - 1], &d->allocs[i], (d->nallocs - i) * sizeof *d->allocs);
    d->nallocs--;
    return true;
}

bool exec_mem_free(exec_dev *d, uint64_t addr)
{
    uint32_t i = upper(d, addr);
    if (i == 0 || d->allocs[i - 1].base != addr || d->allocs[i - 1].span == 0) return false;
    exec_alloc a = d->allocs[i - 1];
    memmove(&d->allocs[i - 1], &d->allocs[i], (d->nallocs - i) * sizeof *d->allocs);
    d->nallocs--;
    d->used -= a.span;
    if (a.track) exec_check_mem_freed(d, a.base, a.size);
    void *p = (void *)(uintptr_t)a.base;
    madvise(p, a.span, MADV_DONTNEED);
    mprotect(p, a.span, PROT_NONE);
    add_free(d, a.base, a.span);
    /* Give the top of the heap back to the bump pointer. */
    if (d->nfrees && d->frees[d->nfrees - 1].base + d->frees[d->nfrees - 1].size == d->base + d->top) {
        d->top = d->frees[d->nfrees - 1].base - d->base;
        d->nfrees--;
    }
    return true;
}

void *exec_mem_host(exec_dev *d, uint64_t addr, uint64_t bytes)
{
    if (!exec_mem_lookup(d, addr, bytes)) return NULL;
    return (void *)(uintptr_t)addr;
}

bool exec_mem_find(const exec_dev *d, uint64_t addr, uint64_t *base, uint64_t *bytes)
{
    uint32_t i = upper(d, addr);
    if (i == 0) return false;
    const exec_alloc *a = &d->allocs[i - 1];
    uint64_t len = a->size ? a->size : 1;
    if (addr - a->base >= len) return false;
    if (base) *base = a->base;
    if (bytes) *bytes = a->size;
    return true;
}

void exec_mem_info(const exec_dev *d, uint64_t *free_bytes, uint64_t *total_bytes)
{
    uint64_t total = (uint64_t)tp_opt_i(&d->opts, OPT_DEVICE_GLOBAL_MEM);
    if (total_bytes) *total_bytes = total;
    if (free_bytes) *free_bytes = d->used >= total ? 0 : total - d->used;
}
