/*
** rtiface.h -- the private table through which tpsim's runtime
** (libcudart.so.13) and driver (libcuda.so.1) keep one account of the CUDA
** calls that failed (api/fail.c).  NVIDIA's runtime reaches the private
** parts of its driver the same way: cuGetExportTable with the table's UUID.
** The runtime asks for API_RTIFACE_UUID once, before its first other driver
** call; the table grows only at its end and says its size.
**
** Why a table: the runtime makes driver calls for the program, and a driver
** call that fails there is the runtime's business -- the program sees the
** runtime's error, not the driver's.  The driver keeps such a failure's
** reason for the runtime to take, instead of recording it as the program's.
*/
#ifndef API_RTIFACE_H
#define API_RTIFACE_H

#include <stddef.h>

/* "tpsim runtime 1" */
#define API_RTIFACE_UUID {'t', 'p', 's', 'i', 'm', ' ', 'r', 'u', 'n', 't', 'i', 'm', 'e', ' ', '1', 0}

typedef struct api_rtiface {
    size_t size;   /* sizeof (api_rtiface) */
    /* The runtime says where it is loaded (any address inside it): from
    ** then on, driver calls it makes are its own, not the program's. */
    void (*runtime_is)(const void *addr);
    /* Takes the calling thread's last failure of a driver call made by the
    ** runtime: returns its CUresult (0 when there is none) and copies its
    ** kernel and reason, NUL-terminated and truncated to the buffers (each
    ** may be NULL).  The failure is forgotten. */
    int (*take_failure)(char *kernel, size_t kernel_n, char *why, size_t why_n);
    /* Records a failure the runtime returned to the program: the entry
    ** point's name, the error's name, the kernel (or NULL), the reason and
    ** the address the entry point was called from. */
    void (*note_failure)(const char *api, const char *error, const char *kernel, const char *why,
                         const void *caller);
    /* Records a launch the runtime refused before the driver saw it, for the
    ** statistics file's list of launches. */
    void (*note_refused_launch)(const char *kernel, const unsigned grid[3], const unsigned block[3], size_t shared,
                                const char *error, const char *why);
} api_rtiface;

#endif
