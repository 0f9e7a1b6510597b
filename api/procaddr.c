/* procaddr.c -- cuGetProcAddress and cuGetExportTable.
**
** A CUDA runtime finds driver entry points by API name and the CUDA version
** it was built for.  api/procs.def maps each (name, version) to the symbol
** this library exports for it; the address is looked up in this library
** itself (dlsym on its own handle), so the table holds names only.
*/
#include "api.h"
#include "rtiface.h"
#include "../base/dso.h"
#include <dlfcn.h>
#include <stdio.h>

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

/* Export tables are private interfaces between a driver and its own
** libraries.  tpsim's has one, for tpsim's runtime (rtiface.h); NVIDIA's
** tables, which its closed libraries (cuBLAS, cuDNN ...) ask for, are not
** provided: each table asked for is named once on stderr, with the library
** that asked, and the call fails with CUDA_ERROR_NOT_SUPPORTED. */
static CUresult export_table(const void **pp, const CUuuid *id, const void *caller)
{
    if (!pp || !id) return CUDA_ERROR_INVALID_VALUE;
    static const char ours[16] = API_RTIFACE_UUID;
    if (memcmp(id->bytes, ours, 16) == 0) {
        *pp = api_rtiface_table();
        return CUDA_SUCCESS;
    }
    *pp = NULL;
    char u[40];
    const unsigned char *b = (const unsigned char *)id->bytes;
    snprintf(u, sizeof u, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
             b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    static char seen[32][16];
    static unsigned nseen;
    bool known = false;
    for (unsigned i = 0; i < nseen && !known; i++) known = memcmp(seen[i], id->bytes, 16) == 0;
    if (!known) {
        if (nseen < 32) memcpy(seen[nseen++], id->bytes, 16);
        char lib[256];
        if (tp_dso_lib_name(caller, lib, sizeof lib))
            api_msg("cuGetExportTable {%s} is not supported (called from %s): NVIDIA's private driver "
                    "interfaces are not part of tpsim", u, lib);
        else
            api_msg("cuGetExportTable {%s} is not supported: NVIDIA's private driver interfaces are not part of "
                    "tpsim", u);
    }
    api_why("NVIDIA's private export table {%s} is not provided by tpsim", u);
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    API_LOCKED(export_table(ppExportTable, pExportTableId, __builtin_return_address(0)));
}
