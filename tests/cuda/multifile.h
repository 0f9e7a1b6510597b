// multifile.h -- the host functions that multifile_vec.cu and
// multifile_mat.cu export to multifile_main.cu (separate compilation
// without -rdc: each .cu file is a device module of its own).
#pragma once

// multifile_vec.cu: y[i] = c0 + c1*x + c2*x^2 + c3*x^3 (mod 2^32) with the
// coefficients in that file's __constant__ coef[], set by vec_set_coef.
void vec_set_coef(const int coef[4]);
void vec_poly(int *d_y, const int *d_x, int n);
// scale (a static kernel named like multifile_mat.cu's): d[i] *= k.
void vec_scale(int *d, int n, int k);

// multifile_mat.cu: C = A*B (int, n x n) and T = transpose(A), and a bias
// of that file's own __constant__ coef[] (same name as vec's): C[i][j] +=
// coef[(i + j) % 4].
void mat_set_coef(const int coef[4]);
void mat_mul_bias(int *d_c, const int *d_a, const int *d_b, int n);
void mat_transpose(int *d_t, const int *d_a, int n);
// scale: d[i] += k (deliberately not what vec's scale does).
void mat_scale(int *d, int n, int k);
