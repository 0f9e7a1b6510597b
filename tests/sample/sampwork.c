/*
** sampwork.c -- workloads for sampled timing (sample.mode; docs/TIMING.md,
** "Sampled timing"): the kernels of sampwork.cu (committed as sampwork.ptx)
** at sizes of one's choosing, large enough for many CTA waves or many
** launches.  A plain C11 driver-API program, run by tests/sample/run_sample.sh
** (make test) and tools/sample_check.sh (make bench: sampled vs full).
**
**   sampwork [--ptx DIR] mm N [R]     C = 1.5 A B + 0.5 C, N x N floats, R launches (default 1)
**   sampwork [--ptx DIR] mmtiled N    C = A B with 16x16 shared-memory tiles (N a multiple of 16)
**   sampwork [--ptx DIR] mmreg N      C = A B register-blocked, 4x4 a thread (N a multiple of 64;
**                                     the same sums in the same order as mmtiled: the same checksum)
**   sampwork [--ptx DIR] conv2d N     a 3x3 convolution of an N x N image
**   sampwork [--ptx DIR] jacobi N T   T launches of a 5-point stencil, two buffers in turn
**   sampwork [--ptx DIR] triad N [R]  a = b + 3 c over N floats (N a multiple of 256), R launches
**   sampwork [--ptx DIR] transpose N  the N x N transpose, naive (its stores 32 lines a warp)
**   sampwork [--ptx DIR] phase N R P  R launches of a gather over N floats (N a power of two, at
**                                     least 256): stride 1 for the first P, 33 after (a phase change:
**                                     the same instructions, other cycles)
**
** DIR (default tests/sample) holds sampwork.ptx.  The program prints one
** line, "NAME: checksum XXXXXXXXXXXXXXXX", a 64-bit FNV-1a hash of every
** output byte: sampling changes time, never values, so a sampled run must
** print the same line as a full one (the scripts compare them).  Inputs are
** fixed formulas, so every run of a size prints the same checksum.
*/
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t sw_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#define SW_H0 0xcbf29ce484222325ull

static int sw_2d(th_ctx *c, CUfunction f, int n, unsigned bx, unsigned by, void **args)
{
    return th_launch(c, f, th_cdiv((unsigned)n, bx), th_cdiv((unsigned)n, by), 1, bx, by, 1, 0, args);
}

/* n x n floats of a fixed pattern (values in [0, 1) with few bits: sums stay exact enough to mean something) */
static float *sw_matrix(th_ctx *c, int n, int salt)
{
    size_t nn = (size_t)n * n;
    float *m = th_host(c, nn * 4);
    for (size_t k = 0; k < nn; k++) m[k] = (float)((k * (size_t)(7 + salt) + (size_t)salt) % 31) / 32.0f;
    return m;
}

/* mm (naive, kind 0) reps times on the same buffers, or the tiled (1) or register-blocked (2) product once */
static int sw_mm(th_ctx *c, int n, int reps, int kind, uint64_t *h)
{
    size_t bytes = (size_t)n * n * 4;
    float *A = sw_matrix(c, n, 1), *B = sw_matrix(c, n, 2), *C = sw_matrix(c, n, 3);
    CUfunction k;
    CUdeviceptr dA, dB, dC;
    static const char *const names[] = {"_Z8mm_naiveiffPKfS0_Pf", "_Z8mm_tilediPKfS0_Pf", "_Z6mm_regiPKfS0_Pf"};
    TH_TRY(th_func(c, c->mod, names[kind], &k));
    TH_TRY(th_upload(c, A, bytes, &dA));
    TH_TRY(th_upload(c, B, bytes, &dB));
    TH_TRY(th_upload(c, C, bytes, &dC));
    float alpha = 1.5f, beta = 0.5f;
    void *naive[] = {&n, &alpha, &beta, &dA, &dB, &dC};
    void *tile[] = {&n, &dA, &dB, &dC};
    for (int r = 0; r < reps; r++) {
        if (kind == 0) TH_TRY(sw_2d(c, k, n, 32, 8, naive));
        else if (kind == 1) TH_TRY(sw_2d(c, k, n, 16, 16, tile));
        else TH_TRY(th_launch(c, k, (unsigned)n / 64, (unsigned)n / 64, 1, 16, 16, 1, 0, tile));
    }
    TH_TRY(th_download(c, C, dC, bytes));
    *h = sw_hash(SW_H0, C, bytes);
    return TH_OK;
}

/* one launch of an image kernel (conv2d, transpose: n, in, out) over an n x n image, blocks of 32x8 */
static int sw_image(th_ctx *c, const char *kernel, int salt, int n, uint64_t *h)
{
    size_t bytes = (size_t)n * n * 4;
    float *A = sw_matrix(c, n, salt);
    CUfunction k;
    CUdeviceptr dA, dB;
    TH_TRY(th_func(c, c->mod, kernel, &k));
    TH_TRY(th_upload(c, A, bytes, &dA));
    TH_TRY(th_upload(c, NULL, bytes, &dB));
    void *args[] = {&n, &dA, &dB};
    TH_TRY(sw_2d(c, k, n, 32, 8, args));
    TH_TRY(th_download(c, A, dB, bytes));
    *h = sw_hash(SW_H0, A, bytes);
    return TH_OK;
}

/* steps launches of the stencil, ping-ponging two buffers */
static int sw_jacobi(th_ctx *c, int n, int steps, uint64_t *h)
{
    size_t bytes = (size_t)n * n * 4;
    float *A = sw_matrix(c, n, 5);
    CUfunction k;
    CUdeviceptr d[2];
    TH_TRY(th_func(c, c->mod, "_Z6jacobiiPKfPf", &k));
    TH_TRY(th_upload(c, A, bytes, &d[0]));
    TH_TRY(th_upload(c, A, bytes, &d[1]));
    for (int t = 0; t < steps; t++) {
        void *args[] = {&n, &d[t & 1], &d[!(t & 1)]};
        TH_TRY(sw_2d(c, k, n, 32, 8, args));
    }
    TH_TRY(th_download(c, A, d[steps & 1], bytes));
    *h = sw_hash(SW_H0, A, bytes);
    return TH_OK;
}

/* reps launches of the triad on the same buffers (every launch writes the same a) */
static int sw_triad(th_ctx *c, int n, int reps, uint64_t *h)
{
    size_t bytes = (size_t)n * 4;
    float *B = th_host(c, bytes), *C = th_host(c, bytes);
    for (int k = 0; k < n; k++) {
        B[k] = (float)(k % 29) / 16.0f;
        C[k] = (float)(k % 23) / 64.0f;
    }
    CUfunction f;
    CUdeviceptr dA, dB, dC;
    TH_TRY(th_func(c, c->mod, "_Z5triadxfPKfS0_Pf", &f));
    TH_TRY(th_upload(c, NULL, bytes, &dA));
    TH_TRY(th_upload(c, B, bytes, &dB));
    TH_TRY(th_upload(c, C, bytes, &dC));
    long long nn = n;
    float s = 3.0f;
    void *args[] = {&nn, &s, &dB, &dC, &dA};
    for (int r = 0; r < reps; r++) TH_TRY(th_launch(c, f, (unsigned)n / 256, 1, 1, 256, 1, 1, 0, args));
    TH_TRY(th_download(c, B, dA, bytes));
    *h = sw_hash(SW_H0, B, bytes);
    return TH_OK;
}

/* reps launches of the gather, out <- in; stride 1 for the first `change`, then 33 */
static int sw_phase(th_ctx *c, int n, int reps, int change, uint64_t *h)
{
    size_t bytes = (size_t)n * 4;
    float *A = th_host(c, bytes);
    for (int k = 0; k < n; k++) A[k] = (float)(k % 37) / 8.0f;
    CUfunction f;
    CUdeviceptr dA, dB;
    TH_TRY(th_func(c, c->mod, "_Z6gatheriiPKfPf", &f));
    TH_TRY(th_upload(c, A, bytes, &dA));
    TH_TRY(th_upload(c, NULL, bytes, &dB));
    for (int r = 0; r < reps; r++) {
        int s = r < change ? 1 : 33;
        void *args[] = {&n, &s, &dA, &dB};
        TH_TRY(th_launch(c, f, (unsigned)n / 256, 1, 1, 256, 1, 1, 0, args));
    }
    TH_TRY(th_download(c, A, dB, bytes));
    *h = sw_hash(SW_H0, A, bytes);
    return TH_OK;
}

static int sw_num(const char *s, int lo, int hi)
{
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || *end || v < lo || v > hi) return -1;
    return (int)v;
}

int main(int argc, char **argv)
{
    static const char usage[] = "sampwork [--ptx DIR] mm N [R] | mmtiled N | mmreg N | conv2d N | jacobi N T | triad N [R] | transpose N | phase N R P";
    th_args a;
    if (th_args_parse(&a, argc, argv, TH_ARG_PTX, "tests/sample", usage)) return 2;
    if (a.nnames < 2) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    const char *w = a.names[0];
    bool tri = !strcmp(w, "triad");
    int n = sw_num(a.names[1], 8, tri ? 1 << 28 : 65536), m = a.nnames > 2 ? sw_num(a.names[2], 1, 1000000) : 1;
    bool phase = !strcmp(w, "phase");
    bool two = !strcmp(w, "jacobi") || !strcmp(w, "mm") || tri;
    int pc = phase && a.nnames == 4 ? sw_num(a.names[3], 0, 1000000) : -1;
    if (n < 0 || m < 0 || a.nnames > (phase ? 4 : two ? 3 : 2) || (!strcmp(w, "jacobi") && a.nnames != 3) ||
        (phase && (a.nnames != 4 || pc < 0 || n < 256 || (n & (n - 1)))) ||
        (!strcmp(w, "mmtiled") && n % 16) || (!strcmp(w, "mmreg") && n % 64) || (tri && n % 256)) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    th_ctx c;
    memset(&c, 0, sizeof c);
    c.ptxdir = a.ptxdir;
    int rc = th_device(&c);
    if (rc == TH_OK) rc = th_open(&c);
    if (rc == TH_OK) rc = th_module(&c, "sampwork.ptx", NULL);
    uint64_t h = 0;
    if (rc == TH_OK) {
        if (!strcmp(w, "mm")) rc = sw_mm(&c, n, m, 0, &h);
        else if (!strcmp(w, "mmtiled")) rc = sw_mm(&c, n, 1, 1, &h);
        else if (!strcmp(w, "mmreg")) rc = sw_mm(&c, n, 1, 2, &h);
        else if (!strcmp(w, "conv2d")) rc = sw_image(&c, "_Z6conv2diPKfPf", 4, n, &h);
        else if (!strcmp(w, "jacobi")) rc = sw_jacobi(&c, n, m, &h);
        else if (tri) rc = sw_triad(&c, n, m, &h);
        else if (!strcmp(w, "transpose")) rc = sw_image(&c, "_Z9transposeiPKfPf", 6, n, &h);
        else if (phase) rc = sw_phase(&c, n, m, pc, &h);
        else {
            fprintf(stderr, "sampwork: no workload '%s'\nusage: %s\n", w, usage);
            return 2;
        }
    }
    if (rc != TH_OK) {
        printf("FAIL %s: %s\n", w, c.msg);
        return 1;
    }
    printf("%s: checksum %016llx\n", w, (unsigned long long)h);
    th_close(&c);
    return 0;
}
