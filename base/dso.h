/*
** dso.h -- which loaded object (the program or a shared library) holds a
** code address.  tpsim's CUDA libraries use it to tell calls made by their
** own code apart from the program's, and to name the library that called an
** entry point tpsim does not implement (a closed NVIDIA library such as
** cuBLAS).  Answers come from the dynamic loader (dl_iterate_phdr); nothing
** is cached here, so callers keep what they need.
*/
#ifndef TP_DSO_H
#define TP_DSO_H

#include "tp.h"

/* The address range [*lo, *hi) of the loadable segments of the object that
** holds addr; false if no loaded object does. */
bool tp_dso_range(const void *addr, uintptr_t *lo, uintptr_t *hi);

/* The file name (without directories) of the shared library that holds
** addr, into buf; false when addr is in the main program, in no loaded
** object, or buf is too small. */
bool tp_dso_lib_name(const void *addr, char *buf, size_t n);

#endif
