/* procaddr.c -- cuGetProcAddress and cuGetExportTable.
**
** A CUDA runtime finds driver entry points by API name and the CUDA version
** it was built for.  api/procs.def maps each (name, version) to the symbol
** this library exports for it; the address is looked up in this library
** itself (dlsym on its own handle), so the table holds names only.
*/
#include "api.h"
#include <dlfcn.h>

typedef struct proc_ent {
    const char *name;
    int version;
    const char *sym;
    int per_thread;
} proc_ent;

static const proc_ent procs[] = {
#define P(name, ver, sym, pt) {name, ver, sym, pt},
#include "procs.def"
#undef P
};

static void *self;

/* This library's own handle (it is loaded: RTLD_NOLOAD only finds it). */
static void *self_handle(void)
{
    if (!self) {
        Dl_info info;
        if (dladdr((void *)(uintptr_t)&cuGetProcAddress_v2, &info) && info.dli_fname)
            self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    }
    return self;
}

static CUresult get_proc(const char *symbol, void **pfn, int version, cuuint64_t flags,
                         CUdriverProcAddressQueryResult *status)
{
    if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
        return CUDA_ERROR_INVALID_VALUE;
    bool per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    const proc_ent *best = NULL, *best_pt = NULL;
    bool known = false;
    for (size_t i = 0; i < TP_ARRAY_LEN(procs); i++) {
        const proc_ent *e = &procs[i];
        if (strcmp(e->name, symbol) != 0) continue;
        known = true;
        if (e->version > version) continue;
        if (!e->per_thread && (!best || e->version > best->version)) best = e;
        if (e->per_thread && (!best_pt || e->version > best_pt->version)) best_pt = e;
    }
    if (per_thread && best_pt && (!best || best_pt->version >= best->version)) best = best_pt;
    *pfn = NULL;
    if (!best) {
        if (status) *status = known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        return CUDA_ERROR_NOT_FOUND;
    }
    void *h = self_handle();
    void *p = h ? dlsym(h, best->sym) : NULL;
    if (!p) {
        if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        return CUDA_ERROR_NOT_FOUND;
    }
    *pfn = p;
    if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
    return CUDA_SUCCESS;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus)
{
    API_LOCKED(get_proc(symbol, pfn, cudaVersion, flags, symbolStatus));
}

API_EXPORT CUresult api_get_proc_v1(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
    __asm__("cuGetProcAddress");
CUresult api_get_proc_v1(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    API_LOCKED(get_proc(symbol, pfn, cudaVersion, flags, NULL));
}

/* Export tables are NVIDIA's private interface to its own runtime. */
CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (!ppExportTable || !pExportTableId) return CUDA_ERROR_INVALID_VALUE;
    *ppExportTable = NULL;
    return CUDA_ERROR_NOT_SUPPORTED;
}
