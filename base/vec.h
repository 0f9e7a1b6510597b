/*
** vec.h -- typed growable arrays as macros.
**
**   TP_VEC(int) v = {0};  tp_vec_push(&v, 3);  v.n, v.a[i];  tp_vec_free(&v);
*/
#ifndef TP_VEC_H
#define TP_VEC_H

#include "tp.h"
#include <stdlib.h>

#define TP_VEC(T) struct { T *a; uint32_t n, cap; }

#define tp_vec_grow(v, extra)                                                 \
    do {                                                                      \
        uint32_t need_ = (v)->n + (uint32_t)(extra);                          \
        if (need_ > (v)->cap) {                                               \
            uint32_t cap_ = (v)->cap ? (v)->cap : 8;                          \
            while (cap_ < need_) cap_ *= 2;                                   \
            (v)->a = tp_realloc((v)->a, (size_t)cap_ * sizeof(*(v)->a));      \
            (v)->cap = cap_;                                                  \
        }                                                                     \
    } while (0)

#define tp_vec_push(v, x)                                                     \
    do {                                                                      \
        tp_vec_grow(v, 1);                                                    \
        (v)->a[(v)->n++] = (x);                                               \
    } while (0)

#define tp_vec_free(v)                                                        \
    do {                                                                      \
        free((v)->a);                                                         \
        (v)->a = NULL;                                                        \
        (v)->n = (v)->cap = 0;                                                \
    } while (0)

#endif
