/*
** caller_lib.c -- libtpcaller.so, a stand-in for a closed NVIDIA library
** (cuBLAS asks the driver for private export tables and calls entry points
** tpsim does not implement).  t_fail loads it; tpsim must name it as the
** caller of both (stderr and the statistics file).
*/
#include <cuda.h>
#include <dlfcn.h>

/* An export table NVIDIA's driver would have: a made-up UUID. */
#define TPCALLER_EXPORT __attribute__((visibility("default")))

TPCALLER_EXPORT CUresult tpcaller_export_table(void);
CUresult tpcaller_export_table(void)
{
    const void *table = NULL;
    CUuuid id = {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}};
    return cuGetExportTable(&table, &id);
}

/* An entry point tpsim exports only as a stub (graphics interop). */
TPCALLER_EXPORT CUresult tpcaller_unsupported(void);
CUresult tpcaller_unsupported(void)
{
    CUresult (*map)(unsigned, void *, void *) =
        (CUresult (*)(unsigned, void *, void *))dlsym(RTLD_DEFAULT, "cuGraphicsMapResources");
    if (!map) return CUDA_ERROR_UNKNOWN;
    /* not a tail call: the driver sees this library as the caller */
    CUresult r = map(0, NULL, NULL);
    return r == CUDA_SUCCESS ? CUDA_ERROR_UNKNOWN : r;
}
