/* test_vec_media.c -- the media kernels of examples/vector/media: each
** version (scalar, packed MMX, vector at the narrowest exact width, and the
** 16-bit vector variants for machines without 8-bit elements) against a C
** reference computed here from the program's own input data, on vmips and,
** where the version can run there, on viram1.  The definitions are the
** ones in the programs' header comments. */
#include "tests/unit/vec_helpers.h"

typedef struct kctx {
    vec_run r;
    vec_prog p;
    bool ok;
} kctx;

/* Runs examples/vector/media/NAME on configuration cfg. */
static bool krun(kctx *k, const char *name, const char *cfg)
{
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    vec_opts_init(&o);
    memset(k, 0, sizeof *k);
    char path[128];
    snprintf(path, sizeof path, "media/%s", name);
    k->ok = tp_opts_load_config(&o, cfg, &e) && vt_example(&k->p, path, &o, NULL, 0);
    if (k->ok) {
        k->ok = vec_run_program(&k->r, &k->p, &o, -1, 0, &e);
        if (!k->ok) printf("%s on %s: %s\n", name, cfg, e.msg);
    } else {
        printf("%s on %s: %s\n", name, cfg, e.msg);
    }
    tp_opts_free(&o);
    return k->ok;
}

static void kfree(kctx *k)
{
    vec_run_free(&k->r);
    if (k->p.insn || k->p.data) vec_prog_free(&k->p);
}

static uint64_t addr(const kctx *k, const char *label)
{
    const vec_sym *s = vec_prog_sym(&k->p, label);
    return s ? (uint64_t)s->value : UINT64_MAX;
}

/* Input: n bytes at label + off of the assembled image (unsigned, LE). */
static uint64_t in_n(const kctx *k, const char *label, int64_t off, unsigned n)
{
    uint64_t v = 0, a = addr(k, label) + (uint64_t)off;
    for (unsigned j = n; j-- > 0;) v = v << 8 | (a + j < k->p.data_size ? k->p.data[a + j] : 0);
    return v;
}

/* Output after the run. */
static uint64_t out_n(const kctx *k, const char *label, int64_t off, unsigned n)
{
    uint64_t v = 0;
    if (!vec_mach_read_n(&k->r.m, addr(k, label) + (uint64_t)off, n, &v)) return 0xdeadbeefdeadull;
    return v;
}

static const char *versions8[] = {"scalar", "mmx", "vec"};

/* Checks out(i) == want(i) for n elements of `bytes` at `label`. */
#define CHECK_OUT(k, name, label, n, bytes, want_expr)                                                           \
    do {                                                                                                     \
        uint32_t bad_ = 0;                                                                                   \
        for (int64_t i = 0; i < (int64_t)(n); i++) {                                                         \
            uint64_t want_ = (uint64_t)(want_expr) & (bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1);     \
            uint64_t got_ = out_n(k, label, i * (bytes), bytes);                                             \
            if (got_ != want_ && bad_++ == 0)                                                                \
                tt_fail_msg(__FILE__, __LINE__, "%s: %s(%lld) = %llu, want %llu", name, label, (long long)i, \
                            (unsigned long long)got_, (unsigned long long)want_);                            \
        }                                                                                                    \
        tt_nchecks++;                                                                                        \
    } while (0)

/* ---- brightness: out(i) = min(img(i) + B, 255) ---- */
static void check_brightness(const char *name, const char *cfg)
{
    kctx k;
    TT_CHECK(krun(&k, name, cfg));
    if (k.ok) {
        int64_t n = vt_equ(&k.p, "N"), b = vt_equ(&k.p, "B");
        CHECK_OUT(&k, name, "out", n, 1, TP_MIN(in_n(&k, "img", i, 1) + (uint64_t)b, 255u));
    }
    kfree(&k);
}

/* ---- conv: h(i) = P(i-1) + 2P(i) + P(i+1) (P = 0 outside),
** out(i) = (h(i-W) + 2h(i) + h(i+W) + 8) >> 4 for W <= i < N-W, else 0 ---- */
static int64_t conv_h(const kctx *k, int64_t i, int64_t n)
{
    int64_t s = 0;
    for (int64_t d = -1; d <= 1; d++) {
        int64_t j = i + d;
        s += (d == 0 ? 2 : 1) * (j >= 0 && j < n ? (int64_t)in_n(k, "img", j, 1) : 0);
    }
    return s;
}

static void check_conv(const char *name, const char *cfg)
{
    kctx k;
    TT_CHECK(krun(&k, name, cfg));
    if (k.ok) {
        int64_t w = vt_equ(&k.p, "W"), n = vt_equ(&k.p, "N");
        static int64_t h[1 << 16];
        for (int64_t i = 0; i < n; i++) h[i] = conv_h(&k, i, n);
        CHECK_OUT(&k, name, "out", n, 1,
                  i >= w && i < n - w ? (h[i - w] + 2 * h[i] + h[i + w] + 8) >> 4 : 0);
    }
    kfree(&k);
}

/* ---- haar: s(k) = (x(2k) + x(2k+1)) >> 1, d(k) = x(2k) - x(2k+1) ---- */
static int64_t haar_x(const kctx *k, int64_t i) { return (int16_t)in_n(k, "x", 2 * i, 2); }

static void check_haar(const char *name, const char *cfg)
{
    kctx k;
    TT_CHECK(krun(&k, name, cfg));
    if (k.ok) {
        int64_t n = vt_equ(&k.p, "N");
        /* floor division by 2, written without a shift of a negative number */
        CHECK_OUT(&k, name, "s", n / 2, 2, (uint64_t)(int64_t)floor((double)(haar_x(&k, 2 * i) + haar_x(&k, 2 * i + 1)) / 2));
        CHECK_OUT(&k, name, "d", n / 2, 2, (uint64_t)(haar_x(&k, 2 * i) - haar_x(&k, 2 * i + 1)));
    }
    kfree(&k);
}

/* ---- transpose: t(j, i) = a(i, j) ---- */
static void check_transpose(const char *name, const char *cfg)
{
    kctx k;
    TT_CHECK(krun(&k, name, cfg));
    if (k.ok) {
        int64_t m = vt_equ(&k.p, "M");
        CHECK_OUT(&k, name, "t", m * m, 2, in_n(&k, "a", 2 * ((i % m) * m + i / m), 2));
    }
    kfree(&k);
}

/* ---- sad(c, b) = sum over the 16 x 16 block b of |cur - ref moved by cand(c)| ---- */
static uint64_t sad_ref(const kctx *k, int64_t c, int64_t b)
{
    int64_t w = vt_equ(&k->p, "W"), rw = vt_equ(&k->p, "RW"), off = (int64_t)in_n(k, "cand", 8 * c, 8);
    uint64_t s = 0;
    for (int64_t y = 0; y < 16; y++)
        for (int64_t x = 0; x < 16; x++) {
            int64_t a = (int64_t)in_n(k, "cur", y * w + 16 * b + x, 1);
            int64_t r = (int64_t)in_n(k, "ref", y * rw + 16 * b + x + off, 1);
            s += (uint64_t)(a > r ? a - r : r - a);
        }
    return s;
}

static void check_sad(const char *name, const char *cfg)
{
    kctx k;
    TT_CHECK(krun(&k, name, cfg));
    if (k.ok) {
        int64_t nb = vt_equ(&k.p, "NB"), kk = vt_equ(&k.p, "K");
        TT_EQ_I(vt_equ(&k.p, "H"), 16); /* one row of blocks */
        CHECK_OUT(&k, name, "sad", kk * nb, 8, sad_ref(&k, i / nb, i % nb));
        /* the frame moved by (2, 3): candidate 2 is the best for every block */
        for (int64_t b = 0; b < nb; b++)
            for (int64_t c = 0; c < kk; c++)
                if (c != 2) TT_CHECK(out_n(&k, "sad", 8 * (2 * nb + b), 8) < out_n(&k, "sad", 8 * (c * nb + b), 8));
    }
    kfree(&k);
}

/* ---- median: the median of the 3 x 3 neighbourhood in the row-major
** array (P = 0 outside) for W <= i < N-W, else 0 ---- */
static uint64_t median9(const kctx *k, int64_t i, int64_t w, int64_t n)
{
    uint64_t v[9];
    int c = 0;
    for (int64_t dy = -1; dy <= 1; dy++)
        for (int64_t dx = -1; dx <= 1; dx++) {
            int64_t j = i + dy * w + dx;
            v[c++] = j >= 0 && j < n ? in_n(k, "img", j, 1) : 0;
        }
    for (int a = 1; a < 9; a++) /* insertion sort */
        for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
            uint64_t t = v[b];
            v[b] = v[b - 1], v[b - 1] = t;
        }
    return v[4];
}

static void check_median(const char *name, const char *cfg)
{
    kctx k;
    TT_CHECK(krun(&k, name, cfg));
    if (k.ok) {
        int64_t w = vt_equ(&k.p, "W"), n = vt_equ(&k.p, "N");
        CHECK_OUT(&k, name, "out", n, 1, i >= w && i < n - w ? median9(&k, i, w, n) : 0);
    }
    kfree(&k);
}

typedef void (*checker)(const char *name, const char *cfg);

/* Each version on vmips; the vector ones at 16 bits on viram1 too. */
static void all_versions(const char *kernel, checker f, bool vec16)
{
    char name[64];
    for (size_t v = 0; v < TP_ARRAY_LEN(versions8); v++) {
        snprintf(name, sizeof name, "%s_%s.s", kernel, versions8[v]);
        f(name, "vmips");
    }
    if (vec16) {
        snprintf(name, sizeof name, "%s_vec16.s", kernel);
        f(name, "vmips");
        f(name, "viram1");
    }
}

static void t_brightness(void) { all_versions("brightness", check_brightness, true); }
static void t_conv(void)
{
    all_versions("conv", check_conv, false);
    check_conv("conv_vec.s", "viram1");
}
static void t_haar(void)
{
    all_versions("haar", check_haar, false);
    check_haar("haar_vec.s", "viram1");
}
static void t_transpose(void)
{
    all_versions("transpose", check_transpose, false);
    check_transpose("transpose_vec.s", "viram1");
}
static void t_sad(void) { all_versions("sad", check_sad, true); }
static void t_median(void) { all_versions("median", check_median, true); }

/* The 8-bit vector versions cannot run on VIRAM-1; they say why. */
static void t_viram1_no_8bit(void)
{
    static const char *names[] = {"brightness_vec.s", "sad_vec.s", "median_vec.s"};
    for (size_t i = 0; i < TP_ARRAY_LEN(names); i++) {
        tp_opts o;
        tp_err e;
        tp_err_clear(&e);
        vec_opts_init(&o);
        TT_CHECK(tp_opts_load_config(&o, "viram1", &e));
        vec_prog p;
        char path[64];
        snprintf(path, sizeof path, "media/%s", names[i]);
        TT_CHECK(vt_example(&p, path, &o, NULL, 0));
        vec_run r;
        TT_CHECK(!vec_run_program(&r, &p, &o, -1, 0, &e));
        TT_HAS(e.msg, "MTC1 VPW,#8: this machine has no 8-bit elements (option vpw.8 = 0)");
        vec_run_free(&r);
        vec_prog_free(&p);
        tp_opts_free(&o);
    }
}

/* The packed and vector versions count their element operations at the
** widths they work at; the scalar ones count none. */
static void t_ops_by_width(void)
{
    kctx k;
    TT_CHECK(krun(&k, "brightness_scalar.s", "vmips"));
    TT_EQ_U(k.r.ops[0] + k.r.ops[1] + k.r.ops[2] + k.r.ops[3], 0);
    kfree(&k);
    TT_CHECK(krun(&k, "brightness_mmx.s", "vmips"));
    TT_EQ_U(k.r.ops[0], 4096); /* 512 PADDUSB of 8 bytes */
    kfree(&k);
    TT_CHECK(krun(&k, "brightness_vec.s", "vmips"));
    TT_EQ_U(k.r.ops[0], 4096); /* ADDVS.US on every pixel */
    kfree(&k);
    /* the SAD at 8 bits (|d|: 3 operations a pixel), then 16, 32, 64 */
    TT_CHECK(krun(&k, "sad_vec.s", "vmips"));
    TT_EQ_U(k.r.ops[0], 8 * 16 * 256 * 3);
    TT_EQ_U(k.r.ops[1], 8 * (128 + 16 * 128 * 4));
    TT_EQ_U(k.r.ops[2], 8 * 64 * 3);
    TT_EQ_U(k.r.ops[3], 8 * (32 * 3 + 16));
    kfree(&k);
}

int main(void)
{
    TT_RUN(t_brightness);
    TT_RUN(t_conv);
    TT_RUN(t_haar);
    TT_RUN(t_transpose);
    TT_RUN(t_sad);
    TT_RUN(t_median);
    TT_RUN(t_viram1_no_8bit);
    TT_RUN(t_ops_by_width);
    return tt_done();
}
