/*
** launch.c -- tpsim-launch: a generic driver-API runner.  It loads one PTX
** file, launches one of its kernels with the arguments given on the command
** line, and prints a checksum of every buffer, so that any kernel can be a
** point of a sweep (docs/SWEEPS.md) without a host program of its own.  A
** plain C11 program over CUDA's driver API: it runs unchanged on a GPU with
** NVIDIA's libcuda.
**
**   tpsim-launch FILE.ptx KERNEL [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]] [--shared BYTES]
**                [--repeat N] [ARG...]
**
** Each ARG is one kernel parameter, in order:
**   u8:V s8:V u16:V s16:V u32:V s32:V u64:V s64:V f32:V f64:V   a scalar of that type
**   buf:BYTES[:INIT]    a device buffer (BYTES with k, M or G), passed as its address;
**                       INIT: zero (the default), ones (float 1.0 in every 4 bytes),
**                       seq (uint32 0, 1, 2 ...), seqf (float 0, 1, 2 ...), rand
**                       (bytes of a fixed xorshift sequence: the same every run)
** --grid and --block default to 1; --shared is dynamic shared memory;
** --repeat launches the kernel N times (default 1).  The arguments are
** checked against the kernel's parameters (cuFuncGetParamInfo): their count
** and each one's size.  (The count is found by asking for parameters until
** the driver says CUDA_ERROR_INVALID_VALUE: tpsim's statistics count that
** one failed call.)
**
** Output: "KERNEL: grid X,Y,Z block X,Y,Z, N launch(es)", then
** "bufK BYTES checksum 0x..." per buffer (FNV-1a 64 of its bytes after the
** last launch).  Exit status 0, or 1 with the failing call and its error on
** stderr, or 2 for a bad command line.  Module prefix: tl_.
*/
#include <cuda.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TL_MAX_ARGS 64

typedef struct tl_arg {
    size_t size;          /* bytes passed */
    unsigned char val[8]; /* the scalar, or the buffer's address */
    size_t bytes;         /* buf: its size */
    CUdeviceptr ptr;      /* buf: its address; 0 for scalars */
    int init;             /* buf: TL_ZERO ... */
} tl_arg;

enum { TL_ZERO, TL_ONES, TL_SEQ, TL_SEQF, TL_RAND };

static int tl_usage(void)
{
    fprintf(stderr, "usage: tpsim-launch FILE.ptx KERNEL [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]] [--shared BYTES]\n"
                    "                    [--repeat N] [ARG...]\n"
                    "  ARG: u8|s8|u16|s16|u32|s32|u64|s64|f32|f64:VALUE, or buf:BYTES[:zero|ones|seq|seqf|rand]\n");
    return 2;
}

static int tl_cu(CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS) return 0;
    const char *name = NULL, *msg = NULL;
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &msg);
    fprintf(stderr, "tpsim-launch: %s: %s (%s)\n", what, name ? name : "?", msg ? msg : "?");
    return 1;
}

static int tl_bytes(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9') return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end == 'k' || *end == 'K') v <<= 10, end++;
    else if (*end == 'M') v <<= 20, end++;
    else if (*end == 'G') v <<= 30, end++;
    if (errno || *end || !v) return -1;
    *out = (size_t)v;
    return 0;
}

static int tl_dim3(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || end == s || !v || v > 0x7fffffffUL) return -1;
        d[k] = (unsigned)v;
        if (!*end) return 0;
        if (*end != ',') return -1;
        s = end + 1;
    }
    return -1;
}

/* TYPE:VALUE or buf:BYTES[:INIT] */
static int tl_parse_arg(const char *s, tl_arg *a)
{
    memset(a, 0, sizeof *a);
    const char *colon = strchr(s, ':');
    if (!colon) return -1;
    size_t tn = (size_t)(colon - s);
    const char *v = colon + 1;
    if (tn == 3 && !strncmp(s, "buf", 3)) {
        char num[64];
        const char *c2 = strchr(v, ':');
        size_t nn = c2 ? (size_t)(c2 - v) : strlen(v);
        if (nn >= sizeof num) return -1;
        memcpy(num, v, nn);
        num[nn] = 0;
        if (tl_bytes(num, &a->bytes)) return -1;
        static const char *inits[] = {"zero", "ones", "seq", "seqf", "rand"};
        a->init = TL_ZERO;
        if (c2) {
            int k = 0;
            while (k < 5 && strcmp(c2 + 1, inits[k])) k++;
            if (k == 5) return -1;
            a->init = k;
        }
        a->size = sizeof(CUdeviceptr);
        return 0;
    }
    char *end;
    errno = 0;
    if (tn == 3 && (!strncmp(s, "f32", 3) || !strncmp(s, "f64", 3))) {
        double d = strtod(v, &end);
        if (errno || end == v || *end) return -1;
        if (s[1] == '3') {
            float f = (float)d;
            memcpy(a->val, &f, 4), a->size = 4;
        } else {
            memcpy(a->val, &d, 8), a->size = 8;
        }
        return 0;
    }
    static const struct { const char *n; size_t size; int sign; } ints[] = {
        {"u8", 1, 0}, {"s8", 1, 1}, {"u16", 2, 0}, {"s16", 2, 1}, {"u32", 4, 0}, {"s32", 4, 1}, {"u64", 8, 0}, {"s64", 8, 1},
    };
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        if (strlen(ints[k].n) != tn || strncmp(s, ints[k].n, tn)) continue;
        uint64_t bits;
        if (ints[k].sign) {
            long long x = strtoll(v, &end, 0);
            if (errno || end == v || *end) return -1;
            if (ints[k].size < 8 && (x < -(1LL << (8 * ints[k].size - 1)) || x >= (1LL << (8 * ints[k].size - 1))))
                return -1;
            bits = (uint64_t)x;
        } else {
            if (*v == '-') return -1;
            unsigned long long x = strtoull(v, &end, 0);
            if (errno || end == v || *end) return -1;
            if (ints[k].size < 8 && x >> (8 * ints[k].size)) return -1;
            bits = x;
        }
        for (size_t b = 0; b < ints[k].size; b++) a->val[b] = (unsigned char)(bits >> (8 * b)); /* little-endian */
        a->size = ints[k].size;
        return 0;
    }
    return -1;
}

static void tl_fill(unsigned char *h, size_t n, int init)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) h[i] = 0;
    for (size_t i = 0; i + 4 <= n || (init == TL_RAND && i < n); i += init == TL_RAND ? 1 : 4) {
        if (init == TL_RAND) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            h[i] = (unsigned char)x;
            continue;
        }
        uint32_t u = init == TL_SEQ ? (uint32_t)(i / 4) : 0;
        float f = init == TL_ONES ? 1.0f : (float)(i / 4);
        if (init == TL_ONES || init == TL_SEQF) memcpy(&u, &f, 4);
        if (init != TL_ZERO) memcpy(h + i, &u, 4);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) return tl_usage();
    const char *ptx = argv[1], *kernel = argv[2];
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    size_t shared = 0;
    long repeat = 1;
    tl_arg args[TL_MAX_ARGS];
    int nargs = 0;
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--grid") && v) {
            if (tl_dim3(v, grid)) return fprintf(stderr, "tpsim-launch: --grid takes X[,Y[,Z]], not '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--block") && v) {
            if (tl_dim3(v, block)) return fprintf(stderr, "tpsim-launch: --block takes X[,Y[,Z]], not '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--shared") && v) {
            if (!strcmp(v, "0")) shared = 0;
            else if (tl_bytes(v, &shared)) return fprintf(stderr, "tpsim-launch: --shared takes bytes, not '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--repeat") && v) {
            char *end;
            repeat = strtol(v, &end, 10);
            if (*end || repeat < 1) return fprintf(stderr, "tpsim-launch: --repeat takes a count, not '%s'\n", v), 2;
            i++;
        } else if (a[0] == '-' && a[1] == '-') {
            return tl_usage();
        } else {
            if (nargs == TL_MAX_ARGS) return fprintf(stderr, "tpsim-launch: more than %d arguments\n", TL_MAX_ARGS), 2;
            if (tl_parse_arg(a, &args[nargs]))
                return fprintf(stderr, "tpsim-launch: argument %d: '%s' is not TYPE:VALUE or buf:BYTES[:INIT]\n",
                               nargs + 1, a), 2;
            nargs++;
        }
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    if (tl_cu(cuInit(0), "cuInit") || tl_cu(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
        tl_cu(cuCtxCreate(&ctx, NULL, 0, dev), "cuCtxCreate"))
        return 1;
    char what[300];
    snprintf(what, sizeof what, "cuModuleLoad %s", ptx);
    if (tl_cu(cuModuleLoad(&mod, ptx), what)) return 1;
    snprintf(what, sizeof what, "cuModuleGetFunction %s", kernel);
    if (tl_cu(cuModuleGetFunction(&fn, mod, kernel), what)) return 1;
    /* the arguments against the kernel's parameters */
    int nparams = 0;
    size_t off, size;
    while (nparams <= TL_MAX_ARGS && cuFuncGetParamInfo(fn, (size_t)nparams, &off, &size) == CUDA_SUCCESS) {
        if (nparams < nargs && size != args[nparams].size) {
            fprintf(stderr, "tpsim-launch: argument %d is %zu bytes, but parameter %d of %s is %zu bytes\n", nparams + 1,
                    args[nparams].size, nparams + 1, kernel, size);
            return 2;
        }
        nparams++;
    }
    if (nparams != nargs) {
        fprintf(stderr, "tpsim-launch: %s takes %d parameter%s, %d given\n", kernel, nparams, nparams == 1 ? "" : "s",
                nargs);
        return 2;
    }
    void *params[TL_MAX_ARGS];
    for (int k = 0; k < nargs; k++) {
        tl_arg *a = &args[k];
        if (a->bytes) {
            unsigned char *h = malloc(a->bytes);
            if (!h) return fprintf(stderr, "tpsim-launch: out of host memory\n"), 1;
            tl_fill(h, a->bytes, a->init);
            int bad = tl_cu(cuMemAlloc(&a->ptr, a->bytes), "cuMemAlloc") ||
                      tl_cu(cuMemcpyHtoD(a->ptr, h, a->bytes), "cuMemcpyHtoD");
            free(h);
            if (bad) return 1;
            memcpy(a->val, &a->ptr, sizeof a->ptr);
        }
        params[k] = a->val;
    }
    for (long r = 0; r < repeat; r++)
        if (tl_cu(cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], (unsigned)shared, NULL,
                                 params, NULL), "cuLaunchKernel"))
            return 1;
    if (tl_cu(cuCtxSynchronize(), "cuCtxSynchronize")) return 1;
    printf("%s: grid %u,%u,%u block %u,%u,%u, %ld launch%s\n", kernel, grid[0], grid[1], grid[2], block[0], block[1],
           block[2], repeat, repeat == 1 ? "" : "es");
    int nb = 0;
    for (int k = 0; k < nargs; k++) {
        if (!args[k].bytes) continue;
        unsigned char *h = malloc(args[k].bytes);
        if (!h) return fprintf(stderr, "tpsim-launch: out of host memory\n"), 1;
        if (tl_cu(cuMemcpyDtoH(h, args[k].ptr, args[k].bytes), "cuMemcpyDtoH")) return 1;
        uint64_t x = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < args[k].bytes; i++) x = (x ^ h[i]) * 0x100000001b3ull;
        printf("buf%d %zu checksum 0x%016llx\n", nb++, args[k].bytes, (unsigned long long)x);
        free(h);
        cuMemFree(args[k].ptr);
    }
    cuModuleUnload(mod);
    cuCtxDestroy(ctx);
    return 0;
}
