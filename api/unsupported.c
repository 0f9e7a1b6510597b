/* unsupported.c -- every other entry point of the CUDA 13.0 driver API.
**
** A program built against NVIDIA's cuda.h may import any of these, so each
** is exported (api/unsupported.def).  Calling one prints
** "tpsim: NAME is not supported yet" once -- with "(called from LIB)" when
** a shared library called it, as NVIDIA's closed libraries do -- records
** the failure (fail.c) and returns CUDA_ERROR_NOT_SUPPORTED.  The stubs take no parameters: under the
** x86-64 and AArch64 C calling conventions the caller owns its arguments,
** so a function that ignores them may be called with any.
*/
#include "api.h"

/* The C name is made up (several names are macros in cuda.h); the asm label
** gives the exported symbol. */
#define U(name)                                                                \
    API_EXPORT CUresult API_CAT(api_stub_, __LINE__)(void) __asm__(#name);     \
    CUresult API_CAT(api_stub_, __LINE__)(void)                                \
    {                                                                          \
        static int once;                                                       \
        return api_unsupported(#name, &once, __builtin_return_address(0));     \
    }
#include "unsupported.def"
#undef U
