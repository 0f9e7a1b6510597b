/*
** sampwork.c -- workloads for sampled timing (sample.mode; docs/TIMING.md,
** "Sampled timing"): PolyBench kernels of tests/polybench at sizes of one's
** choosing, large enough for many CTA waves or many launches.  A plain C11
** driver-API program, run by tests/sample/run_sample.sh (make test) and
** tools/sample_check.sh (make bench: sampled vs full).
**
**   sampwork [--ptx DIR] gemm N          C = a A B + b C, N x N floats, one launch
**   sampwork [--ptx DIR] 2dconv N        a 3x3 convolution of an N x N image, one launch
**   sampwork [--ptx DIR] fdtd2d N T      T time steps of the 2-D FDTD kernels (3 T launches)
**   sampwork [--ptx DIR] gemmrep N R     R launches of the N x N gemm on the same buffers
**
** DIR (default tests/polybench) holds the PTX.  The program prints one line,
** "NAME: checksum XXXXXXXXXXXXXXXX", a 64-bit FNV-1a hash of every output
** byte: sampling changes time, never values, so a sampled run must print the
** same line as a full one (the scripts compare them).  Inputs are fixed
** formulas, so every run of a size prints the same checksum.
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

static int sw_2d(th_ctx *c, CUfunction f, int n, void **args)
{
    return th_launch(c, f, th_cdiv((unsigned)n, 32), th_cdiv((unsigned)n, 8), 1, 32, 8, 1, 0, args);
}

static int sw_gemm(th_ctx *c, int n, int reps, uint64_t *h)
{
    size_t nn = (size_t)n * n;
    float *A = th_host(c, nn * 4), *B = th_host(c, nn * 4), *C = th_host(c, nn * 4);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[(size_t)i * n + j] = (float)((i * 7 + j * 3) % 17) / 17.0f;
            B[(size_t)i * n + j] = (float)((i * 5 + j * 11) % 13) / 13.0f;
            C[(size_t)i * n + j] = (float)((i + j) % 7) / 7.0f;
        }
    CUfunction k;
    CUdeviceptr dA, dB, dC;
    TH_TRY(th_module(c, "gemm.ptx", NULL));
    TH_TRY(th_func(c, c->mod, "_Z11gemm_kerneliiiffPfS_S_", &k));
    TH_TRY(th_upload(c, A, nn * 4, &dA));
    TH_TRY(th_upload(c, B, nn * 4, &dB));
    TH_TRY(th_upload(c, C, nn * 4, &dC));
    int ni = n, nj = n, nk = n;
    float a = 1.5f, b = 0.5f;
    void *args[] = {&ni, &nj, &nk, &a, &b, &dA, &dB, &dC};
    for (int r = 0; r < reps; r++) TH_TRY(sw_2d(c, k, n, args));
    TH_TRY(th_download(c, C, dC, nn * 4));
    *h = sw_hash(SW_H0, C, nn * 4);
    return TH_OK;
}

static int sw_2dconv(th_ctx *c, int n, uint64_t *h)
{
    size_t nn = (size_t)n * n;
    float *A = th_host(c, nn * 4);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) A[(size_t)i * n + j] = (float)((i * 37 + j * 101 + i * j) % 1021) / 1021.0f;
    CUfunction k;
    CUdeviceptr dA, dB;
    TH_TRY(th_module(c, "2dconv.ptx", NULL));
    TH_TRY(th_func(c, c->mod, "_Z20convolution2D_kerneliiPfS_", &k));
    TH_TRY(th_upload(c, A, nn * 4, &dA));
    TH_TRY(th_upload(c, NULL, nn * 4, &dB));
    int ni = n, nj = n;
    void *args[] = {&ni, &nj, &dA, &dB};
    TH_TRY(sw_2d(c, k, n, args));
    TH_TRY(th_download(c, A, dB, nn * 4));
    *h = sw_hash(SW_H0, A, nn * 4);
    return TH_OK;
}

static int sw_fdtd2d(th_ctx *c, int n, int steps, uint64_t *h)
{
    size_t nn = (size_t)n * n;
    float *fict = th_host(c, (size_t)steps * 4), *ex = th_host(c, nn * 4), *ey = th_host(c, nn * 4);
    float *hz = th_host(c, nn * 4);
    for (int t = 0; t < steps; t++) fict[t] = (float)t;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            ex[(size_t)i * n + j] = (float)i * (float)(j + 1) / (float)n;
            ey[(size_t)i * n + j] = (float)(i - 1) * (float)(j + 2) / (float)n;
            hz[(size_t)i * n + j] = (float)i * (float)(j + 3) / (float)n;
        }
    CUfunction k1, k2, k3;
    CUdeviceptr df, dex, dey, dhz;
    TH_TRY(th_module(c, "fdtd2d.ptx", NULL));
    TH_TRY(th_func(c, c->mod, "_Z17fdtd_step1_kerneliiPfS_S_S_i", &k1));
    TH_TRY(th_func(c, c->mod, "_Z17fdtd_step2_kerneliiPfS_S_i", &k2));
    TH_TRY(th_func(c, c->mod, "_Z17fdtd_step3_kerneliiPfS_S_i", &k3));
    TH_TRY(th_upload(c, fict, (size_t)steps * 4, &df));
    TH_TRY(th_upload(c, ex, nn * 4, &dex));
    TH_TRY(th_upload(c, ey, nn * 4, &dey));
    TH_TRY(th_upload(c, hz, nn * 4, &dhz));
    int nx = n, ny = n;
    for (int t = 0; t < steps; t++) {
        void *args1[] = {&nx, &ny, &df, &dex, &dey, &dhz, &t};
        void *args23[] = {&nx, &ny, &dex, &dey, &dhz, &t};
        TH_TRY(sw_2d(c, k1, n, args1));
        TH_TRY(sw_2d(c, k2, n, args23));
        TH_TRY(sw_2d(c, k3, n, args23));
    }
    TH_TRY(th_download(c, ex, dex, nn * 4));
    TH_TRY(th_download(c, ey, dey, nn * 4));
    TH_TRY(th_download(c, hz, dhz, nn * 4));
    *h = sw_hash(sw_hash(sw_hash(SW_H0, ex, nn * 4), ey, nn * 4), hz, nn * 4);
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
    static const char usage[] = "sampwork [--ptx DIR] gemm N | 2dconv N | fdtd2d N T | gemmrep N R";
    th_args a;
    if (th_args_parse(&a, argc, argv, TH_ARG_PTX, "tests/polybench", usage)) return 2;
    if (a.nnames < 2) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    const char *w = a.names[0];
    int n = sw_num(a.names[1], 8, 65536), m = a.nnames > 2 ? sw_num(a.names[2], 1, 1000000) : 1;
    bool two = !strcmp(w, "fdtd2d") || !strcmp(w, "gemmrep");
    if (n < 0 || m < 0 || a.nnames != (two ? 3 : 2)) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    th_ctx c;
    memset(&c, 0, sizeof c);
    c.ptxdir = a.ptxdir;
    int rc = th_device(&c);
    if (rc == TH_OK) rc = th_open(&c);
    uint64_t h = 0;
    if (rc == TH_OK) {
        if (!strcmp(w, "gemm")) rc = sw_gemm(&c, n, 1, &h);
        else if (!strcmp(w, "gemmrep")) rc = sw_gemm(&c, n, m, &h);
        else if (!strcmp(w, "2dconv")) rc = sw_2dconv(&c, n, &h);
        else if (!strcmp(w, "fdtd2d")) rc = sw_fdtd2d(&c, n, m, &h);
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
