/*
** ubench.c -- tpsim's microbenchmarks, host side: a plain C11 CUDA
** driver-API program (it runs unchanged on a GPU linked with NVIDIA's
** libcuda) that runs the self-timing kernels of tests/ubench, checks each
** one's functional result, and prints one line per measurement:
**
**   NAME VALUE UNIT          e.g.  lat_l1_hit 35.00 cycles/access
**
** or, when the kernel's result is wrong (the measurement is then worthless),
**
**   FAIL NAME: why
**
** and exits with status 1 (0 when every selected measurement passed).
**
**   ubench [--ptx DIR] [--list] [--only PATTERN[,PATTERN...]] [--verbose] [--PARAM VALUE ...]
**
** --ptx DIR   where chase.ptx, shmem.ptx, stream.ptx and alu.ptx are
**             (default tests/ubench)
** --list      the measurement names, one a line
** --only P    only the measurements whose names match one of the
**             comma-separated shell patterns (fnmatch), e.g. 'lat_*'
** --verbose   footprints, strides, conflict degrees, raw clocks on stderr
** Parameters (sizes take a k or M suffix; defaults: the GTX 480 model):
**   --l1 BYTES (16k) --l1-assoc WAYS (4) --line BYTES (128)  the L1D
**   --l2 BYTES (768k)                                         the L2, in all
**   --banks N (32)                                            shared-memory banks
**   --stride BYTES (the line)                                 pointer-chase stride
**   --steps N (512)        timed steps of the chases (multiple of 16)
**   --iters N (4)          loop iterations of the throughput kernels
**   --warps N (16)         warps of the throughput kernels' one CTA
**
** What each kernel measures, how, and the value a timing model should give
** (as a formula over gpu/options.def and gpu/mem_options.def) is in the
** header of its .cu file and in README.md.  Every measurement is the
** difference of two timed passes, one twice as long as the other, so fixed
** costs cancel.  In functional mode tpsim's %clock64 counts warp
** instructions: the values are then instruction counts, pinned in
** functional.expected by run_ubench.sh.
*/
#include "harness.h"

#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parameters ------------------------------------------------------------ */

typedef struct ub_params {
    long l1, l1_assoc, line, l2, banks, stride, steps, iters, warps;
} ub_params;

static ub_params ub_p = {16 * 1024, 4, 128, 768 * 1024, 32, 0, 512, 4, 16};

static const struct {
    const char *name;
    long *v;
    long min;
    const char *doc;
} ub_param_table[] = {
    {"l1", &ub_p.l1, 1024, "L1D bytes per SM"},
    {"l1-assoc", &ub_p.l1_assoc, 1, "L1D ways"},
    {"line", &ub_p.line, 8, "cache line bytes (L1D and L2)"},
    {"l2", &ub_p.l2, 4096, "L2 bytes in all"},
    {"banks", &ub_p.banks, 1, "shared-memory banks of 4 bytes"},
    {"stride", &ub_p.stride, 0, "pointer-chase stride in bytes (0: the line)"},
    {"steps", &ub_p.steps, 16, "timed steps of the chases (multiple of 16)"},
    {"iters", &ub_p.iters, 1, "loop iterations of the throughput kernels"},
    {"warps", &ub_p.warps, 1, "warps of the throughput kernels' CTA"},
};
#define UB_NPARAM (sizeof ub_param_table / sizeof ub_param_table[0])

static bool ub_verbose;

/* ---- driver helpers ---------------------------------------------------------- */

/* The multiprocessors' thread limit, for the streaming kernels' grids. */
static int ub_max_threads_sm;

static void ub_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void ub_note(const char *fmt, ...)
{
    if (!ub_verbose) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

/* Loads c->ptxdir/file and finds kernel `name` in it. */
static int ub_func(th_ctx *c, const char *file, const char *name, CUfunction *f)
{
    TH_TRY(th_module(c, file, NULL));
    return th_func(c, c->mod, name, f);
}

/* The measurement from two passes: (long - short) / ops, with the clocks
** checked to be increasing (a timer that goes backwards is a failure). */
static int ub_diff(th_ctx *c, const long long cyc[2], double ops, double *value)
{
    ub_note("  clocks: short pass %lld, long pass %lld, %.0f operations between them\n", cyc[0], cyc[1], ops);
    if (cyc[0] <= 0 || cyc[1] <= cyc[0])
        return th_fail(c, "clock64 passes of %lld and %lld cycles: the longer pass must take longer", cyc[0],
                       cyc[1]);
    *value = (double)(cyc[1] - cyc[0]) / ops;
    return 0;
}

/* ---- pointer chases (chase.cu) ------------------------------------------------- */

enum { UB_L1, UB_L2, UB_DRAM };

/* The footprint of each chase, from the cache parameters.  With a stride of
** one line S and LRU replacement:
**   UB_L1:   L1/2 bytes: n = L1 / (2 S) lines over sets = L1 / (S ways), so
**            ways/2 lines per set: all resident after the warm-up pass;
**   UB_L2:   4 x L1: 4 x ways lines per L1 set, visited in a cycle, so LRU has
**            always evicted the line needed next (every access misses L1);
**            4 x L1 <= L2/2 (checked), so the cycle fits in the L2;
**   UB_DRAM: 4 x L2: the same argument one level down.
** A set-index hash spreads consecutive lines no worse than the linear index,
** so the margins (a factor 2 to fit, 4 to thrash) cover it. */
static long ub_footprint(int level)
{
    switch (level) {
    case UB_L1: return ub_p.l1 / 2;
    case UB_L2: return 4 * ub_p.l1;
    default: return 4 * ub_p.l2;
    }
}

static int ub_chase(th_ctx *c, int level, double *value)
{
    long stride = ub_p.stride ? ub_p.stride : ub_p.line, fp = ub_footprint(level);
    if (stride % 8) return th_fail(c, "the stride must be a multiple of 8 bytes");
    if (level == UB_L2 && 4 * ub_p.l1 > ub_p.l2 / 2)
        return th_fail(c, "4 x L1 (%ld) exceeds L2/2 (%ld): no footprint hits L2 but misses L1", 4 * ub_p.l1,
                       ub_p.l2 / 2);
    long n = fp / stride;
    if (n < 2) return th_fail(c, "footprint %ld bytes holds fewer than 2 elements of %ld bytes", fp, stride);
    long sets = ub_p.l1 / (ub_p.line * ub_p.l1_assoc);
    ub_note("  footprint %ld bytes, stride %ld, %ld elements; L1: %ld sets x %ld ways, %.1f lines of the "
            "footprint per set\n",
            fp, stride, n, sets, ub_p.l1_assoc, (double)fp / (double)ub_p.line / (double)sets);
    CUfunction f;
    CUdeviceptr arr, out, cyc;
    if (ub_func(c, "chase.ptx", "ub_chase", &f) || th_alloc(c, (size_t)(n * stride), &arr) || th_alloc(c, 8, &out) ||
        th_alloc(c, 16, &cyc))
        return TH_FAIL;
    uint64_t *h = th_host(c, (size_t)(n * stride));
    for (long k = 0; k < n; k++) h[k * stride / 8] = arr + (uint64_t)(((k + 1) % n) * stride);
    TH_CU(c, cuMemcpyHtoD(arr, h, (size_t)(n * stride)));
    unsigned long long start = arr;
    /* Warm-up: one full cycle (n steps), so every line of the chain has been
    ** touched; the DRAM chase stops after 2 x L2/line steps, which already
    ** replaced whatever the L2 held with lines of the chain, and its timed
    ** steps then go on to lines the warm-up never touched. */
    long warm_steps = n;
    if (level == UB_DRAM && warm_steps > 2 * ub_p.l2 / ub_p.line) warm_steps = 2 * ub_p.l2 / ub_p.line;
    int warm = (int)((warm_steps + 15) / 16 * 16);
    if (level == UB_DRAM && warm + 2 * ub_p.steps > n)
        return th_fail(c, "the DRAM chase's %d warm-up and %ld timed steps exceed its %ld elements: fewer --steps",
                       warm, 2 * ub_p.steps, n);
    long long cy[2];
    for (int pass = 0; pass < 2; pass++) {
        int steps = (int)ub_p.steps << pass;
        void *args[] = {&start, &warm, &steps, &out, &cyc};
        unsigned long long end = 0;
        if (th_launch(c, f, 1, 1, 1, 1, 1, 1, 0, args) || th_download(c, &end, out, 8) ||
            th_download(c, &cy[pass], cyc, 8))
            return TH_FAIL;
        long long total = (long long)warm + steps;
        unsigned long long want = arr + (unsigned long long)((total % n) * stride);
        if (end != want)
            return th_fail(c, "the chase ended at element %lld, expected %lld (after %lld steps over %ld elements)",
                           (long long)(end - arr) / stride, (long long)(want - arr) / stride, total, n);
    }
    return ub_diff(c, cy, (double)ub_p.steps, value);
}

static int ub_lat_l1(th_ctx *c, int arg, double *v) { (void)arg; return ub_chase(c, UB_L1, v); }
static int ub_lat_l2(th_ctx *c, int arg, double *v) { (void)arg; return ub_chase(c, UB_L2, v); }
static int ub_lat_dram(th_ctx *c, int arg, double *v) { (void)arg; return ub_chase(c, UB_DRAM, v); }

/* ---- shared-memory bank conflicts (shmem.cu) ------------------------------------ */

/* The conflict degree of 32 lanes at word stride s over the banks: the most
** lanes whose words (l * s mod 1024, all distinct) share a bank. */
static int ub_degree(long s)
{
    int count[1024] = {0}, d = 0;
    long banks = ub_p.banks > 1024 ? 1024 : ub_p.banks;
    for (long l = 0; l < 32; l++) {
        int b = (int)(((l * s) & 1023) % banks);
        if (++count[b] > d) d = count[b];
    }
    return d;
}

static int ub_shmem(th_ctx *c, int stride, double *value)
{
    ub_note("  word stride %d, %ld banks: %d-way conflict\n", stride, ub_p.banks, ub_degree(stride));
    CUfunction f;
    CUdeviceptr out, cyc;
    if (ub_func(c, "shmem.ptx", "ub_shmem", &f) || th_alloc(c, 33 * 4, &out) || th_alloc(c, 16, &cyc))
        return TH_FAIL;
    int s = stride;
    long long cy[2];
    for (int pass = 0; pass < 2; pass++) {
        int steps = (int)ub_p.steps << pass;
        void *args[] = {&s, &steps, &out, &cyc};
        unsigned got[33];
        if (th_launch(c, f, 1, 1, 1, 32, 1, 1, 0, args) || th_download(c, got, out, sizeof got) ||
            th_download(c, &cy[pass], cyc, 8))
            return TH_FAIL;
        /* 17 + steps steps, an odd number: every lane ends on its second word. */
        for (unsigned l = 0; l < 32; l++) {
            unsigned w = (l * (unsigned)stride) & 1023, want = got[32] + 4 * (w + 1024);
            if (got[l] != want)
                return th_fail(c, "lane %u ended at shared address %#x, expected %#x (word %u of a base %#x)", l,
                               got[l], want, (want - got[32]) / 4, got[32]);
        }
    }
    return ub_diff(c, cy, (double)ub_p.steps, value);
}

/* ---- streaming (stream.cu) --------------------------------------------------------- */

enum { UB_COPY, UB_READ };

static int ub_stream(th_ctx *c, int kind, double *value)
{
    const unsigned block = 256;
    unsigned grid = (unsigned)(c->nsm * (ub_max_threads_sm / (int)block));
    if (grid == 0) grid = 1;
    long threads = (long)grid * block;
    /* floats: 4 x L2 and 8 x L2 bytes of input, the L2 the larger of --l2
    ** and the device's own */
    int l2dev = 0;
    if (cuDeviceGetAttribute(&l2dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, c->dev) != CUDA_SUCCESS) l2dev = 0;
    long n1 = ub_p.l2 > l2dev ? ub_p.l2 : l2dev, n2 = 2 * n1;
    ub_note("  %u CTAs of %u threads; %ld and %ld elements\n", grid, block, n1, n2);
    CUfunction f;
    CUdeviceptr a, b, span;
    if (ub_func(c, "stream.ptx", kind == UB_COPY ? "ub_copy" : "ub_read", &f)) return TH_FAIL;
    size_t outn = kind == UB_COPY ? (size_t)n2 : (size_t)threads;
    float *ha = th_host(c, (size_t)n2 * 4), *hb = th_host(c, outn * 4);
    for (long i = 0; i < n2; i++) ha[i] = (float)(i % 7);
    int rc = TH_FAIL;
    double bytes[2], cycles[2];
    if (th_upload(c, ha, (size_t)n2 * 4, &a) || th_alloc(c, outn * 4, &b) || th_alloc(c, 16, &span)) goto out;
    for (int pass = 0; pass < 2; pass++) {
        int n = (int)(pass ? n2 : n1);
        unsigned long long sp[2] = {~0ULL, 0};
        if (cuMemsetD32(b, 0, outn) != CUDA_SUCCESS) {
            th_fail(c, "cannot reset the output");
            goto out;
        }
        /* The same launch twice, the second timed: the first leaves the
        ** caches as the second will leave them (the last lines it wrote,
        ** dirty), so the timed run writes back as many lines as it dirties
        ** and nothing of the host's copies or of the other pass. */
        void *args[] = {&a, &b, &n, &span};
        for (int run = 0; run < 2; run++) {
            if (cuMemcpyHtoD(span, sp, sizeof sp) != CUDA_SUCCESS) {
                th_fail(c, "cannot reset the clock span");
                goto out;
            }
            if (th_launch(c, f, grid, 1, 1, block, 1, 1, 0, args)) goto out;
        }
        if (th_download(c, sp, span, sizeof sp) || th_download(c, hb, b, outn * 4)) goto out;
        if (kind == UB_COPY) {
            for (long i = 0; i < n2; i++) {
                float want = i < n ? ha[i] : 0.0f;
                if (hb[i] != want) {
                    th_fail(c, "b[%ld] = %g after copying %d elements, expected %g", i, (double)hb[i], n,
                            (double)want);
                    goto out;
                }
            }
            bytes[pass] = 8.0 * n;
        } else {
            /* Thread t sums a[t], a[t + threads], ...: small integers, exact in
            ** float in any order (every sum is below 2^24). */
            for (long t = 0; t < threads; t++) {
                double s = 0;
                for (long i = t; i < n; i += threads) s += ha[i];
                if (hb[t] != (float)s) {
                    th_fail(c, "sum[%ld] = %g over %d elements, expected %g", t, (double)hb[t], n, s);
                    goto out;
                }
            }
            bytes[pass] = 4.0 * n + 4.0 * (double)threads;
        }
        if (sp[1] <= sp[0] || sp[0] == ~0ULL) {
            th_fail(c, "no clock span recorded (start %llu, end %llu)", sp[0], sp[1]);
            goto out;
        }
        cycles[pass] = (double)(sp[1] - sp[0]);
        ub_note("  %d elements: %.0f bytes in %.0f cycles\n", n, bytes[pass], cycles[pass]);
    }
    if (cycles[1] <= cycles[0]) {
        th_fail(c, "streaming twice the data took no longer (%.0f, %.0f cycles)", cycles[0], cycles[1]);
        goto out;
    }
    *value = (bytes[1] - bytes[0]) / (cycles[1] - cycles[0]);
    rc = 0;
out:
    return rc;
}

/* ---- instruction classes (alu.cu) ------------------------------------------------------- */

typedef enum { UB_U32, UB_F32, UB_F64 } ub_type;

/* One class: its kernels' suffix, value type, uniform operands y and z, and
** the error bound of one approximate operation (0: exact).  The chains are
** x = op(x) as listed in alu.cu; the start values below keep every chain
** finite and away from zero. */
typedef struct ub_class {
    const char *name;
    ub_type t;
    double y, z;
    double approx; /* sin: absolute bound; rcp, sqrt: relative bound */
} ub_class;

/* Bounds of the approximate operations (tests/kernels/README.md, from the
** PTX ISA): sin.approx.f32 2^-20.5 absolute on [-2pi, 2pi]; rcp.approx.f32
** 2 ulp (relative 2^-22); sqrt.approx.f32 relative 2^-22.  (2^-20.5 is
** written as sqrt(2) x 2^-21.) */
static const ub_class ub_classes[] = {
    {"int_add", UB_U32, 0x9e3779b9u, 0, 0},    {"int_mul", UB_U32, 0x01000193u, 0, 0},
    {"int_mad", UB_U32, 0x01000193u, 0x811c9dc5u, 0}, {"int_div", UB_U32, 0x7fffffffu, 0, 0},
    {"fp32_add", UB_F32, 0.25, 0, 0},          {"fp32_mul", UB_F32, 1.0009765625, 0, 0},
    {"fp32_fma", UB_F32, 0.75, 1.5, 0},        {"fp32_div", UB_F32, 3.0, 0, 0},
    {"fp64_add", UB_F64, 0.25, 0, 0},          {"fp64_mul", UB_F64, 1.0009765625, 0, 0},
    {"fp64_fma", UB_F64, 0.75, 1.5, 0},        {"fp64_div", UB_F64, 3.0, 0, 0},
    {"sfu_sin", UB_F32, 0, 0, 0x1.6a09e667f3bcdp-21}, {"sfu_rcp", UB_F32, 0, 0, 0x1p-22},
    {"sfu_sqrt", UB_F32, 0, 0, 0x1p-22},
};
#define UB_NCLASS (sizeof ub_classes / sizeof ub_classes[0])

/* Start value of chain k (0..nchains). */
static double ub_start(const ub_class *k, long chain)
{
    switch (k->t) {
    case UB_U32: return (double)(chain * 7919 % 65536 + 1000);
    default:
        if (!strcmp(k->name, "sfu_sin")) return 0.5 + (double)(chain % 64) / 64.0;
        return 1.0 + (double)(chain % 32) / 32.0;
    }
}

/* Applies `ops` operations of class k to x exactly as the device does
** (integers mod 2^32, IEEE float and double in round-to-nearest), or, for
** the approximate classes, in double with the exact function. */
static double ub_chain(const ub_class *k, double x0, long ops)
{
    const char *n = k->name;
    if (k->t == UB_U32) {
        uint32_t x = (uint32_t)x0, y = (uint32_t)k->y, z = (uint32_t)k->z;
        for (long i = 0; i < ops; i++) {
            if (!strcmp(n, "int_add")) x = x + y;
            else if (!strcmp(n, "int_mul")) x = x * y;
            else if (!strcmp(n, "int_mad")) x = x * y + z;
            else x = y / x;
        }
        return x;
    }
    if (k->t == UB_F32 && !k->approx) {
        float x = (float)x0, y = (float)k->y, z = (float)k->z;
        for (long i = 0; i < ops; i++) {
            if (!strcmp(n, "fp32_add")) x = x + y;
            else if (!strcmp(n, "fp32_mul")) x = x * y;
            else if (!strcmp(n, "fp32_fma")) x = fmaf(x, y, z);
            else x = y / x;
        }
        return x;
    }
    double x = x0, y = k->y, z = k->z;
    for (long i = 0; i < ops; i++) {
        if (!strcmp(n, "fp64_add")) x = x + y;
        else if (!strcmp(n, "fp64_mul")) x = x * y;
        else if (!strcmp(n, "fp64_fma")) x = fma(x, y, z);
        else if (!strcmp(n, "fp64_div")) x = y / x;
        else if (!strcmp(n, "sfu_sin")) x = sin(x);
        else if (!strcmp(n, "sfu_rcp")) x = 1.0 / x;
        else x = sqrt(x);
    }
    return x;
}

/* Whether got is what `ops` operations give: exactly, or within the
** propagated bound of the approximate ones.  sin: |sin'| <= 1, so absolute
** errors add up: ops x bound.  rcp: a relative error passes through 1/x
** unchanged in size, so they add up: ops x bound (x 1.01 for second-order
** terms).  sqrt halves the relative error it receives: at most 2 x bound in
** all; 4 x bound allowed. */
static bool ub_close(const ub_class *k, double got, double want, long ops)
{
    if (!k->approx) return got == want;
    if (!strcmp(k->name, "sfu_sin")) return fabs(got - want) <= (double)ops * k->approx;
    double rel = !strcmp(k->name, "sfu_rcp") ? 1.01 * (double)ops * k->approx : 4 * k->approx;
    return fabs(got - want) <= rel * fabs(want);
}

/* Compares the device's chains g with the host's repetition of `ops`
** operations from the start values h. */
static int ub_check_chains(th_ctx *c, const ub_class *k, const unsigned char *h, const unsigned char *g,
                           long nchains, long ops)
{
    for (long i = 0; i < nchains; i++) {
        double x0 = k->t == UB_U32 ? ((const uint32_t *)h)[i] : k->t == UB_F32 ? ((const float *)h)[i]
                                                                                 : ((const double *)h)[i];
        double got = k->t == UB_U32 ? ((const uint32_t *)g)[i] : k->t == UB_F32 ? ((const float *)g)[i]
                                                                                  : ((const double *)g)[i];
        double want = ub_chain(k, x0, ops);
        if (!ub_close(k, got, want, ops))
            return th_fail(c, "chain %ld: %.17g after %ld operations, expected %.17g", i, got, ops, want);
    }
    return 0;
}

/* Runs lat_C (thr = 0) or thr_C (thr = 1) of class index ci. */
static int ub_alu(th_ctx *c, int ci, int thr, double *value)
{
    const ub_class *k = &ub_classes[ci];
    size_t sz = k->t == UB_F64 ? 8 : 4;
    long threads = thr ? 32 * ub_p.warps : 32, nchains = thr ? 4 * threads : 32;
    char kname[64];
    snprintf(kname, sizeof kname, "%s_%s", thr ? "thr" : "lat", k->name);
    CUfunction f;
    CUdeviceptr in, out, cyc;
    unsigned char *h = th_host(c, (size_t)nchains * sz), *g = th_host(c, (size_t)nchains * sz);
    int rc = TH_FAIL;
    for (long i = 0; i < nchains; i++) {
        double v = ub_start(k, i);
        if (k->t == UB_U32) ((uint32_t *)h)[i] = (uint32_t)v;
        else if (k->t == UB_F32) ((float *)h)[i] = (float)v;
        else ((double *)h)[i] = v;
    }
    if (ub_func(c, "alu.ptx", kname, &f) || th_upload(c, h, (size_t)nchains * sz, &in) ||
        th_alloc(c, (size_t)nchains * sz, &out) || th_alloc(c, 16, &cyc))
        goto out;
    /* The uniform operands, typed as the kernel declares them. */
    uint32_t yu = (uint32_t)k->y, zu = (uint32_t)k->z;
    float yf = (float)k->y, zf = (float)k->z;
    double yd = k->y, zd = k->z;
    void *py = k->t == UB_U32 ? (void *)&yu : k->t == UB_F32 ? (void *)&yf : (void *)&yd;
    void *pz = k->t == UB_U32 ? (void *)&zu : k->t == UB_F32 ? (void *)&zf : (void *)&zd;
    long long cy[2];
    for (int pass = 0; pass < (thr ? 2 : 1); pass++) {
        int iters = (int)ub_p.iters << pass;
        if (thr) {
            unsigned long long sp[2] = {~0ULL, 0};
            void *args[] = {&in, &out, &cyc, &iters, py, pz};
            if (cuMemcpyHtoD(cyc, sp, sizeof sp) != CUDA_SUCCESS) {
                th_fail(c, "cannot reset the clock span");
                goto out;
            }
            if (th_launch(c, f, 1, 1, 1, (unsigned)threads, 1, 1, 0, args) || th_download(c, sp, cyc, sizeof sp))
                goto out;
            if (sp[0] == ~0ULL || sp[1] < sp[0]) {
                th_fail(c, "no clock span recorded (start %llu, end %llu)", sp[0], sp[1]);
                goto out;
            }
            cy[pass] = (long long)(sp[1] - sp[0]);
        } else {
            void *args[] = {&in, &out, &cyc, py, pz};
            if (th_launch(c, f, 1, 1, 1, (unsigned)threads, 1, 1, 0, args) || th_download(c, cy, cyc, 16)) goto out;
        }
        if (th_download(c, g, out, (size_t)nchains * sz)) goto out;
        if (ub_check_chains(c, k, h, g, nchains, thr ? 4 + 32L * iters : 32 + 128 + 256)) goto out;
    }
    rc = ub_diff(c, cy, thr ? (double)ub_p.warps * ub_p.iters * 128 : 128.0, value);
out:
    return rc;
}

/* ---- the measurements ------------------------------------------------------------------ */

typedef struct ub_meas {
    const char *name;
    int (*run)(th_ctx *c, int arg, double *value);
    int arg;
    const char *unit;
} ub_meas;

static int ub_m_shmem(th_ctx *c, int arg, double *v) { return ub_shmem(c, arg, v); }
static int ub_m_copy(th_ctx *c, int arg, double *v) { (void)arg; return ub_stream(c, UB_COPY, v); }
static int ub_m_read(th_ctx *c, int arg, double *v) { (void)arg; return ub_stream(c, UB_READ, v); }
static int ub_m_lat(th_ctx *c, int arg, double *v) { return ub_alu(c, arg, 0, v); }
static int ub_m_thr(th_ctx *c, int arg, double *v) { return ub_alu(c, arg, 1, v); }

#define UB_ALU_ROWS(i, n)                                                                        \
    {"lat_" n, ub_m_lat, i, "cycles/op"}, { "thr_" n, ub_m_thr, i, "cycles/warp-op" }

/* shmem_Dway: word stride D, which is a D-way conflict with 32 banks. */
static const ub_meas ub_meas_table[] = {
    {"lat_l1_hit", ub_lat_l1, 0, "cycles/access"},
    {"lat_l2_hit", ub_lat_l2, 0, "cycles/access"},
    {"lat_dram", ub_lat_dram, 0, "cycles/access"},
    {"shmem_1way", ub_m_shmem, 1, "cycles/access"},
    {"shmem_2way", ub_m_shmem, 2, "cycles/access"},
    {"shmem_4way", ub_m_shmem, 4, "cycles/access"},
    {"shmem_8way", ub_m_shmem, 8, "cycles/access"},
    {"shmem_16way", ub_m_shmem, 16, "cycles/access"},
    {"shmem_32way", ub_m_shmem, 32, "cycles/access"},
    {"bw_dram_copy", ub_m_copy, 0, "bytes/cycle"},
    {"bw_dram_read", ub_m_read, 0, "bytes/cycle"},
    UB_ALU_ROWS(0, "int_add"),
    UB_ALU_ROWS(1, "int_mul"),
    UB_ALU_ROWS(2, "int_mad"),
    UB_ALU_ROWS(3, "int_div"),
    UB_ALU_ROWS(4, "fp32_add"),
    UB_ALU_ROWS(5, "fp32_mul"),
    UB_ALU_ROWS(6, "fp32_fma"),
    UB_ALU_ROWS(7, "fp32_div"),
    UB_ALU_ROWS(8, "fp64_add"),
    UB_ALU_ROWS(9, "fp64_mul"),
    UB_ALU_ROWS(10, "fp64_fma"),
    UB_ALU_ROWS(11, "fp64_div"),
    UB_ALU_ROWS(12, "sfu_sin"),
    UB_ALU_ROWS(13, "sfu_rcp"),
    UB_ALU_ROWS(14, "sfu_sqrt"),
};
#define UB_NMEAS (sizeof ub_meas_table / sizeof ub_meas_table[0])

/* Runs one measurement in a context of its own (when the device is up: else
** c->msg says why not); prints its line; returns 1 on FAIL. */
static int ub_run_one(const ub_meas *m, th_ctx *c, bool up)
{
    double v = 0;
    ub_note("%s:\n", m->name);
    int rc = up ? th_open(c) : TH_FAIL;
    if (rc == TH_OK) {
        CUresult r = cuDeviceGetAttribute(&ub_max_threads_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                                          c->dev);
        if (r != CUDA_SUCCESS) rc = th_fail(c, "cuDeviceGetAttribute returned %s (%d)", th_errname(r), (int)r);
        else rc = m->run(c, m->arg, &v);
        th_close(c);
    }
    if (rc) printf("FAIL %s: %s\n", m->name, c->msg);
    else printf("%s %.4f %s\n", m->name, v, m->unit);
    fflush(stdout);
    return rc != TH_OK;
}

static bool ub_selected(const char *name, const char *only)
{
    if (!only) return true;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", only);
    for (char *save = NULL, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save))
        if (fnmatch(p, name, 0) == 0) return true;
    return false;
}

/* A size: digits with an optional k or M suffix. */
static bool ub_size(const char *s, long *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s) return false;
    if (*end == 'k' || *end == 'K') x *= 1024, end++;
    else if (*end == 'M' || *end == 'm') x *= 1024 * 1024, end++;
    if (*end) return false;
    *v = x;
    return true;
}

static int ub_usage(void)
{
    fprintf(stderr, "usage: ubench [--ptx DIR] [--list] [--only PATTERN[,...]] [--verbose] [--PARAM VALUE ...]\n"
                    "parameters (sizes take k or M):\n");
    for (size_t i = 0; i < UB_NPARAM; i++)
        fprintf(stderr, "  --%-9s %-8ld %s\n", ub_param_table[i].name, *ub_param_table[i].v, ub_param_table[i].doc);
    return 2;
}

int main(int argc, char **argv)
{
    const char *ptxdir = "tests/ubench", *only = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--list")) {
            for (size_t k = 0; k < UB_NMEAS; k++) printf("%s\n", ub_meas_table[k].name);
            return 0;
        }
        if (!strcmp(a, "--verbose")) {
            ub_verbose = true;
            continue;
        }
        if (strncmp(a, "--", 2) || i + 1 >= argc) return ub_usage();
        const char *val = argv[++i];
        if (!strcmp(a, "--ptx")) {
            ptxdir = val;
            continue;
        }
        if (!strcmp(a, "--only")) {
            only = val;
            continue;
        }
        size_t k = 0;
        while (k < UB_NPARAM && strcmp(a + 2, ub_param_table[k].name)) k++;
        if (k == UB_NPARAM) return ub_usage();
        if (!ub_size(val, ub_param_table[k].v) || *ub_param_table[k].v < ub_param_table[k].min) {
            fprintf(stderr, "ubench: bad value %s for %s\n", val, a);
            return 2;
        }
    }
    if (ub_p.steps % 16) {
        fprintf(stderr, "ubench: --steps must be a multiple of 16\n");
        return 2;
    }
    if (ub_p.line % 8 || ub_p.l1 % (ub_p.line * ub_p.l1_assoc)) {
        fprintf(stderr, "ubench: the L1 must be a whole number of sets of --l1-assoc lines of 8-byte multiples\n");
        return 2;
    }
    int nsel = 0;
    for (size_t k = 0; k < UB_NMEAS; k++) nsel += ub_selected(ub_meas_table[k].name, only);
    if (!nsel) {
        fprintf(stderr, "ubench: no measurement matches %s (--list shows them)\n", only);
        return 2;
    }
    th_ctx c = {.prog = "ubench", .ptxdir = ptxdir};
    bool up = th_device(&c) == TH_OK;
    int failed = 0;
    for (size_t k = 0; k < UB_NMEAS; k++)
        if (ub_selected(ub_meas_table[k].name, only)) failed += ub_run_one(&ub_meas_table[k], &c, up);
    return failed ? 1 : 0;
}
