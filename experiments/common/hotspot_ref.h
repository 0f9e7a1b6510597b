/* hotspot_ref.h -- the CPU reference of the HotSpot kernel
 * (experiments/regmutex/kernels/hotspot.cu) that its two hosts check against:
 * experiments/regmutex/rmbench.c (C11) and experiments/side/hotspot_side.cu
 * (CUDA host code).  One definition, so that both compare with the same
 * numbers, computed in the same order.
 *
 * The plain stencil, in double, with the neighbours clamped at the borders:
 * STEPS steps of
 *   t' = t + step/Cap * (power + (S + N - 2t)/Ry + (E + W - 2t)/Rx + (80 - t)/Rz)
 * on an N x N grid (row-major) that starts from TEMP.  A and B are the two
 * work grids of N*N doubles each; the result is whichever of them the last
 * step wrote, returned. */
#ifndef HOTSPOT_REF_H
#define HOTSPOT_REF_H

#include <stddef.h>

static inline const double *hotspot_ref(const float *temp, const float *power, int n, int steps, float Cap, float Rx,
                                        float Ry, float Rz, float step, double *a, double *b)
{
    size_t sz = (size_t)n * n;
    for (size_t i = 0; i < sz; i++) a[i] = temp[i];
    double sdc = (double)step / Cap;
    for (int it = 0; it < steps; it++) {
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int N = y > 0 ? y - 1 : 0, S = y < n - 1 ? y + 1 : n - 1, W = x > 0 ? x - 1 : 0, E = x < n - 1 ? x + 1 : n - 1;
                double t = a[(size_t)y * n + x];
                b[(size_t)y * n + x] = t + sdc * (power[(size_t)y * n + x] + (a[(size_t)S * n + x] + a[(size_t)N * n + x] - 2 * t) / Ry +
                                                  (a[(size_t)y * n + E] + a[(size_t)y * n + W] - 2 * t) / Rx + (80.0 - t) / Rz);
            }
        double *t = a;
        a = b;
        b = t;
    }
    return a;
}

#endif
