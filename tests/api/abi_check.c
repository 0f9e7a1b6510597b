/*
** abi_check.c -- built against NVIDIA's cuda.h (CUDA 13.0): checks that
** tpsim's api/include/cuda.h is binary-compatible with it.
**   - every enumerator and integer constant has NVIDIA's value, and every
**     struct, union and enum has NVIDIA's size, alignment and member
**     offsets (static_assert: a mismatch fails the build);
**   - every prototype of ours redeclares NVIDIA's compatibly (a conflicting
**     type fails the build);
**   - pointer-valued constants and the cuX -> cuX_vN name mappings agree
**     (checked when run: PASS/FAIL lines).
** abi_ours.h holds our values (abi_dump); abi_list.h lists the names.
*/
#define CUDA_ENABLE_DEPRECATED
#include <cuda.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "abi_ours.h"
#include "abi_protos.h"

#define STR2(x) #x
#define STR(x) STR2(x)

#define E(n) _Static_assert((long long)(n) == OURS_##n, "value of " #n);
#define R(n)
#define M(n)
#define S(t)                                                                   \
    _Static_assert(sizeof(t) == OURS_SIZE_##t, "size of " #t);                 \
    _Static_assert(alignof(t) == OURS_ALIGN_##t, "alignment of " #t);
#define F(t, m) _Static_assert(offsetof(t, m) == OURS_OFF_##t##_##m, "offset of " #t "." #m);
#include "abi_list.h"
#undef E
#undef R
#undef M
#undef S
#undef F

int main(void)
{
    int bad = 0, n = 0;
#define E(x) n++;
#define S(t) n++;
#define F(t, m) n++;
#define R(x)                                                                   \
    n++;                                                                       \
    if ((unsigned long long)(uintptr_t)(x) != OURS_##x) {                      \
        printf("FAIL abi_check: %s differs from CUDA's\n", #x);                \
        bad++;                                                                 \
    }
#define M(x)                                                                   \
    n++;                                                                       \
    if (strcmp(STR(x), OURS_MAP_##x) != 0) {                                   \
        printf("FAIL abi_check: %s maps to %s in tpsim, %s in CUDA\n", #x, OURS_MAP_##x, STR(x)); \
        bad++;                                                                 \
    }
#include "abi_list.h"
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
    const char *name = "abi_check_per_thread_stream";
#else
    const char *name = "abi_check";
#endif
    if (!bad) printf("PASS %s (%d constants, types, members and mappings equal CUDA 13's)\n", name, n);
    return bad != 0;
}
