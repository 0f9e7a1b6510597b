/*
** abi_dump.c -- built against tpsim's api/include/cuda.h: prints, as C
** #defines, the value of every constant, the size, alignment and member
** offsets of every type, and the expansion of every function-name macro
** that abi_list.sh found there.  abi_check.c compares them with NVIDIA's.
*/
#include <cuda.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define STR2(x) #x
#define STR(x) STR2(x)

int main(void)
{
#define E(n) printf("#define OURS_%s %lldLL\n", #n, (long long)(n));
#define R(n) printf("#define OURS_%s %lluULL\n", #n, (unsigned long long)(uintptr_t)(n));
#define M(n) printf("#define OURS_MAP_%s \"%s\"\n", #n, STR(n));
#define S(t) printf("#define OURS_SIZE_%s %zu\n#define OURS_ALIGN_%s %zu\n", #t, sizeof(t), #t, alignof(t));
#define F(t, m) printf("#define OURS_OFF_%s_%s %zu\n", #t, #m, offsetof(t, m));
#include "abi_list.h"
    return 0;
}
