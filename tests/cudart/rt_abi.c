/*
** rt_abi.c -- prints the layout of the runtime API's types and the values
** of its constants, one line each, for the list rt_abi_list.sh makes from
** tpsim's cuda_runtime_api.h.  Built twice, against tpsim's header and
** against NVIDIA's; run_cudart.sh checks that both print the same.
*/
#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define S(t) printf("S %s size %zu align %zu\n", #t, sizeof(t), _Alignof(t));
#define F(t, m) printf("F %s.%s offset %zu size %zu\n", #t, #m, offsetof(t, m), sizeof(((t *)0)->m));
#define E(n) printf("E %s %lld\n", #n, (long long)(n));
#define R(n) printf("R %s %llu\n", #n, (unsigned long long)(uintptr_t)(n));

int main(void)
{
#include "rt_abi.h"
#define X(name, value, desc) E(name)
#include "../../cudart/rt_errors.def"
#undef X
    return 0;
}
