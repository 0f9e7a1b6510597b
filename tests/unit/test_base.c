/* test_base.c -- options, statistics, string buffers, errors, files, the hash map. */
#include "tests/unit/tt.h"
#include "base/opt.h"
#include "base/stats.h"
#include "base/arena.h"
#include "base/vec.h"
#include "base/file.h"
#include "base/map.h"
#include "base/fdiv.h"
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define T_OPTS(X)                                                                   \
    X(O_N, "n", TP_OPT_INT, "4", 1, 64, NULL, "a count")                             \
    X(O_F, "f", TP_OPT_FLOAT, "1.5", 0, 10, NULL, "a ratio")                         \
    X(O_B, "b", TP_OPT_BOOL, "off", 0, 1, NULL, "a switch")                          \
    X(O_E, "mode", TP_OPT_ENUM, "functional", 0, 0, "functional|performance", "mode") \
    X(O_S, "name", TP_OPT_STR, "x", 0, 0, NULL, "a name")                            \
    X(O_SZ, "size", TP_OPT_INT, "16k", 0, 1e12, NULL, "bytes")
enum { T_OPTS(TP_OPT_ENUM_ID) T_NOPT };
static const tp_optdef t_defs[] = {T_OPTS(TP_OPT_DEF_ROW)};

static const char *t_builtin(const char *name)
{
    if (strcmp(name, "base") == 0) return "n = 8\nmode = performance\n";
    return NULL;
}

static void t_opt_defaults(void)
{
    tp_opts o;
    tp_opts_init(&o, t_defs, T_NOPT, t_builtin);
    TT_EQ_I(tp_opt_i(&o, O_N), 4);
    TT_CHECK(tp_opt_f(&o, O_F) == 1.5);
    TT_EQ_I(tp_opt_i(&o, O_B), 0);
    TT_EQ_I(tp_opt_i(&o, O_E), 0);
    TT_EQ_STR(tp_opt_s(&o, O_S), "x");
    TT_EQ_I(tp_opt_i(&o, O_SZ), 16384);
    tp_opts_free(&o);
}

static void t_opt_set_and_errors(void)
{
    tp_opts o;
    tp_err e;
    tp_opts_init(&o, t_defs, T_NOPT, t_builtin);
    tp_err_clear(&e);
    TT_CHECK(tp_opts_set_kv(&o, "n=0x10", TP_SRC_OVERRIDE, &e));
    TT_EQ_I(tp_opt_i(&o, O_N), 16);
    TT_CHECK(!tp_opts_set_kv(&o, "n=65", TP_SRC_OVERRIDE, &e));
    TT_HAS(e.msg, "out of range [1, 64]");
    tp_err_clear(&e);
    TT_CHECK(!tp_opts_set(&o, "mode", "fast", TP_SRC_OVERRIDE, &e));
    TT_HAS(e.msg, "not one of functional|performance");
    tp_err_clear(&e);
    TT_CHECK(!tp_opts_set(&o, "nn", "1", TP_SRC_OVERRIDE, &e));
    TT_HAS(e.msg, "unknown option 'nn'");
    tp_err_clear(&e);
    TT_CHECK(tp_opts_set_list(&o, "  b=yes   f=2.25 ", TP_SRC_OVERRIDE, &e));
    TT_EQ_I(tp_opt_i(&o, O_B), 1);
    TT_CHECK(tp_opt_f(&o, O_F) == 2.25);
    tp_opts_free(&o);
}

static void t_opt_file(void)
{
    tp_opts o;
    tp_err e;
    tp_opts_init(&o, t_defs, T_NOPT, t_builtin);
    tp_err_clear(&e);
    TT_CHECK(tp_opts_load_text(&o, "# comment\ninclude = base\n  name = hello world  # trailing\n", "x.cfg", &e));
    TT_EQ_I(tp_opt_i(&o, O_N), 8);
    TT_EQ_I(tp_opt_i(&o, O_E), 1);
    TT_EQ_STR(tp_opt_s(&o, O_S), "hello world");
    tp_err_clear(&e);
    TT_CHECK(!tp_opts_load_text(&o, "n = 3\n\n   bogus\n", "y.cfg", &e));
    TT_EQ_STR(e.msg, "y.cfg:3:4: expected 'key = value'");
    tp_err_clear(&e);
    TT_CHECK(!tp_opts_load_text(&o, "n = 99\n", "z.cfg", &e));
    TT_HAS(e.msg, "z.cfg:1:1: option 'n': 99 is out of range");
    tp_err_clear(&e);
    TT_CHECK(!tp_opts_load_config(&o, "nonexistent-config", &e));
    TT_HAS(e.msg, "no configuration file or built-in configuration named 'nonexistent-config'");
    tp_opts_free(&o);
}

static void t_stats(void)
{
    tp_stats s;
    uint64_t c = 41;
    double f = 0.5;
    char *name = "k\"1";
    uint32_t d3[3] = {2, 1, 1};
    tp_stats_init(&s);
    tp_stats_u64(&s, "cycles", &c, "cycles");
    tp_stats_f64(&s, "ipc", &f, "ipc");
    tp_stats_str(&s, "name", &name, "kernel");
    tp_stats_dim3(&s, "grid", d3, "grid");
    c++;
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_stats_text(&s, &b);
    TT_EQ_STR(tp_sbuf_str(&b), "cycles: 42\nipc: 0.5\nname: k\"1\ngrid: (2,1,1)\n");
    tp_sbuf_reset(&b);
    tp_stats_json(&s, &b, 0);
    TT_EQ_STR(tp_sbuf_str(&b), "{\n  \"cycles\": 42,\n  \"ipc\": 0.5,\n  \"name\": \"k\\\"1\",\n  \"grid\": [2, 1, 1]\n}");
    tp_sbuf_free(&b);
    tp_stats_free(&s);
}

/* Declarations: a ratio recomputed from its operands, a hidden operand never
** written, a MAX, and the summary's columns summed by rule (the ratio from
** the summed operands). */
typedef struct srec {
    uint64_t n, cycles, peak;
    double per;
    uint64_t hid;
} srec;

static void t_stats_defs(void)
{
    static const tp_stat_def defs[] = {
        {.name = "n", .kind = TP_STAT_U64, .unit = TP_UNIT_THREAD_INSTS, .rule = TP_RULE_ADD, .off = offsetof(srec, n),
         .col = {"n", 6, 0, 0}, .doc = "n"},
        {.name = "k.cycles", .kind = TP_STAT_U64, .unit = TP_UNIT_CYCLES, .rule = TP_RULE_ADD,
         .off = offsetof(srec, cycles), .col = {"cyc", 5, 0, 1}, .doc = "cycles"},
        {.name = "k.per", .kind = TP_STAT_F64, .unit = TP_UNIT_IPC, .rule = TP_RULE_RATIO, .off = offsetof(srec, per),
         .num = offsetof(srec, n), .den = offsetof(srec, hid), .scale = 1000, .col = {"per", 7, 2, 1}, .doc = "per"},
        {.name = "k.hid", .kind = TP_STAT_U64, .unit = TP_UNIT_CYCLES, .rule = TP_RULE_ADD, .flags = TP_STAT_HIDDEN,
         .off = offsetof(srec, hid), .col = {"hid", 4, 0, 0}, .doc = "hidden"},
        {.name = "peak", .kind = TP_STAT_U64, .unit = TP_UNIT_REGISTERS, .rule = TP_RULE_MAX, .off = offsetof(srec, peak),
         .col = {"pk", 3, 0, 0}, .doc = "peak"},
    };
    tp_stats s;
    tp_stats_init(&s);
    tp_stats_add_defs(&s, 0, defs, TP_ARRAY_LEN(defs));
    const char *bad = NULL;
    TT_CHECK(tp_stats_check(&s, &bad));
    srec a = {3, 10, 7, 0, 4}, b = {5, 20, 2, 0, 0};
    tp_stats_ratios_at(&s, &a);
    tp_stats_ratios_at(&s, &b);
    TT_CHECK(a.per == 750.0);
    TT_CHECK(b.per == 0.0); /* den 0 */
    tp_sbuf o;
    tp_sbuf_init(&o);
    tp_stats_json_at(&s, &a, &o, 0);
    TT_EQ_STR(tp_sbuf_str(&o), "{\n  \"n\": 3,\n  \"k\": {\n    \"cycles\": 10,\n    \"per\": 750\n  },\n  \"peak\": 7\n}");
    tp_sbuf_reset(&o);
    tp_stats_json_line_at(&s, &a, &o);
    TT_EQ_STR(tp_sbuf_str(&o), "{\"n\": 3, \"k\": {\"cycles\": 10, \"per\": 750}, \"peak\": 7}");
    tp_sbuf_reset(&o);
    tp_stats_rule_text(&s, tp_stats_find(&s, "k.per"), &o);
    TT_EQ_STR(tp_sbuf_str(&o), "ratio: 1000 x n / k.hid");
    TT_EQ_STR(tp_stat_unit_name(TP_UNIT_IPC), "thread instructions per cycle");
    TT_EQ_STR(tp_stat_kind_name(TP_STAT_DIM3), "dim3");
    /* the summary: n and hid add, peak takes the largest, per = 1000 x sum(n) / sum(hid) */
    tp_summary t;
    tp_summary_init(&t);
    tp_summary_add(&t, &s);
    TT_EQ_U(t.n, 5);
    tp_statval row[TP_SUMMARY_COLS];
    memset(row, 0, sizeof row);
    tp_summary_fold(&t, &s, &a, row);
    tp_summary_fold(&t, &s, &b, row);
    tp_sbuf_reset(&o);
    tp_summary_head(&t, 0, &o);
    tp_sbuf_puts(&o, "|");
    tp_summary_row(&t, 0, row, &o);
    TT_EQ_STR(tp_sbuf_str(&o), "      n  hid  pk|      8    4   7");
    tp_sbuf_reset(&o);
    tp_summary_head(&t, 1, &o);
    tp_sbuf_puts(&o, "|");
    tp_summary_row(&t, 1, row, &o);
    TT_EQ_STR(tp_sbuf_str(&o), "      n   cyc     per  hid  pk|      8    30 2000.00    4   7");
    tp_sbuf_free(&o);
    tp_stats_free(&s);
}

static void t_arena_vec(void)
{
    tp_arena a;
    tp_arena_init(&a);
    char *big = tp_arena_alloc(&a, 200000);
    big[199999] = 1;
    char *s = tp_arena_strdup(&a, "abc");
    TT_EQ_STR(s, "abc");
    TT_EQ_U(((uintptr_t)tp_arena_alloc(&a, 3)) % 16, 0);
    tp_arena_free(&a);
    TP_VEC(int) v = {0};
    for (int i = 0; i < 1000; i++) tp_vec_push(&v, i * 2);
    TT_EQ_U(v.n, 1000);
    TT_EQ_I(v.a[999], 1998);
    tp_vec_free(&v);
}

static void t_err(void)
{
    tp_err e;
    tp_err_clear(&e);
    tp_loc l = {"a.ptx", 3, 7};
    tp_err_at(&e, 2, l, "unknown opcode '%s'", "foo");
    tp_err_at(&e, 2, l, "second error is dropped");
    TT_EQ_STR(e.msg, "a.ptx:3:7: unknown opcode 'foo'");
}

/* Messages never carry raw bytes; files are read as text or refused. */
static void t_file(void)
{
    tp_err e;
    tp_err_clear(&e);
    tp_loc l = {"b.s", 1, 2};
    tp_err_at(&e, 1, l, "unexpected '%s'", "\x01\xff\x7f\x1b[31m\xc3\xa9\xe2\x9c\x93\xc3");
    TT_EQ_STR(e.msg, "b.s:1:2: unexpected '\\x01\\xff\\x7f\\x1b[31m\xc3\xa9\xe2\x9c\x93\\xc3'");
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_escape(&b, e.msg, strlen(e.msg));   /* idempotent */
    TT_EQ_STR(tp_sbuf_str(&b), e.msg);
    tp_sbuf_reset(&b);
    tp_escape(&b, "\xe0\x80\x80 \xf4\x90\x80\x80 \xf0\x9f\x98\x80\n", 14);   /* overlong, past U+10FFFF, an emoji */
    TT_EQ_STR(tp_sbuf_str(&b), "\\xe0\\x80\\x80 \\xf4\\x90\\x80\\x80 \xf0\x9f\x98\x80\\x0a");
    tp_sbuf_free(&b);
    uint32_t line = 0, col = 0;
    uint8_t byte = 0;
    TT_CHECK(!tp_text_binary("a\tb\r\n\v\f caf\xc3\xa9\xff\n", 14, &line, &col, &byte));
    TT_CHECK(tp_text_binary("ab\ncd\0ef", 8, &line, &col, &byte));
    TT_EQ_U(line, 2);
    TT_EQ_U(col, 3);
    TT_EQ_U(byte, 0);
    /* files: a directory, a binary file, a missing one, text */
    char dir[] = "/tmp/tpsim_file_XXXXXX";
    TT_CHECK(mkdtemp(dir) != NULL);
    char path[256];
    size_t len = 99;
    tp_err_clear(&e);
    TT_CHECK(tp_file_read_text(dir, "the test file ", &len, &e) == NULL);
    char want[512];
    snprintf(want, sizeof want, "cannot read the test file '%s': it is a directory", dir);
    TT_EQ_STR(e.msg, want);
    snprintf(path, sizeof path, "%s/bin", dir);
    FILE *f = fopen(path, "wb");
    fwrite("x = 1\n\x7f" "ELF\2\1", 1, 11, f);
    fclose(f);
    tp_err_clear(&e);
    TT_CHECK(tp_file_read_text(path, NULL, &len, &e) == NULL);
    snprintf(want, sizeof want, "%s:2:1: binary data (byte 0x7f), not a text file", path);
    TT_EQ_STR(e.msg, want);
    char *raw = tp_file_read(path, &len);   /* read as bytes, it is fine */
    TT_CHECK(raw != NULL);
    TT_EQ_U(len, 11);
    free(raw);
    /* a configuration file that is binary, or a directory */
    tp_opts o;
    tp_opts_init(&o, t_defs, T_NOPT, t_builtin);
    tp_err_clear(&e);
    TT_CHECK(!tp_opts_load_config(&o, path, &e));
    TT_EQ_STR(e.msg, want);
    tp_err_clear(&e);
    TT_CHECK(!tp_opts_load_config(&o, dir, &e));
    snprintf(want, sizeof want, "cannot read the configuration file '%s': it is a directory", dir);
    TT_EQ_STR(e.msg, want);
    tp_opts_free(&o);
    unlink(path);
    tp_err_clear(&e);
    TT_CHECK(tp_file_read_text(path, NULL, &len, &e) == NULL);
    snprintf(want, sizeof want, "cannot read '%s': No such file or directory", path);
    TT_EQ_STR(e.msg, want);
    f = fopen(path, "wb");
    fwrite("caf\xc3\xa9\n", 1, 6, f);
    fclose(f);
    char *t = tp_file_read_text(path, NULL, &len, &e);
    TT_CHECK(t != NULL);
    if (t) TT_EQ_STR(t, "caf\xc3\xa9\n");
    free(t);
    unlink(path);
    rmdir(dir);
}

/* tp_map: insert, find, replace, delete, key 0, growth, many keys. */
static void t_map_basic(void)
{
    tp_map m = {0};
    TT_CHECK(tp_map_find(&m, 1) == NULL);
    TT_CHECK(!tp_map_del(&m, 1, NULL));
    TT_EQ_U(m.cap, 0);
    TT_CHECK(tp_map_put(&m, 0, 10));          /* key 0 is a key like any other */
    TT_CHECK(tp_map_put(&m, 5, 0));           /* and value 0 a value */
    TT_CHECK(!tp_map_put(&m, 5, 50));         /* replaced, not added */
    TT_EQ_U(m.n, 2);
    TT_EQ_U(m.cap, 64);
    TT_EQ_U(*tp_map_find(&m, 0), 10);
    TT_EQ_U(*tp_map_find(&m, 5), 50);
    TT_CHECK(tp_map_find(&m, 6) == NULL);
    bool added = false;
    uint64_t *v = tp_map_ref(&m, 6, &added);
    TT_CHECK(added && *v == 0);
    *v = 60;
    v = tp_map_ref(&m, 6, &added);
    TT_CHECK(!added && *v == 60);
    uint64_t old = 0;
    TT_CHECK(tp_map_del(&m, 0, &old));
    TT_EQ_U(old, 10);
    TT_CHECK(tp_map_find(&m, 0) == NULL);
    TT_CHECK(!tp_map_del(&m, 0, &old));
    TT_EQ_U(m.n, 2);
    int x = 3;
    tp_map_putp(&m, UINT64_MAX, &x);
    TT_CHECK(tp_map_getp(&m, UINT64_MAX) == &x);
    TT_CHECK(tp_map_delp(&m, UINT64_MAX) == &x);
    TT_CHECK(tp_map_getp(&m, UINT64_MAX) == NULL);
    TT_CHECK(tp_map_delp(&m, UINT64_MAX) == NULL);
    tp_map_free(&m);
    TT_CHECK(m.cap == 0 && m.n == 0 && m.keys == NULL);
}

/* Growth at three quarters; every key found after many inserts and deletes
** (deletion's backward shift keeps the probe chains whole); the walk visits
** each entry once. */
static void t_map_many(void)
{
    tp_map m = {0};
    for (uint64_t k = 0; k < 48; k++) tp_map_put(&m, k * 64, k);   /* keys alike in their low bits */
    TT_EQ_U(m.cap, 64);
    tp_map_put(&m, 1u << 20, 1);
    TT_EQ_U(m.cap, 128);
    tp_map_free(&m);
    enum { N = 100000 };
    for (uint64_t k = 0; k < N; k++) TT_CHECK(tp_map_put(&m, k * 0x10000 + (k & 7), k + 1));
    TT_EQ_U(m.n, N);
    TT_EQ_U(m.cap, 262144);
    for (uint64_t k = 0; k < N; k += 2) TT_CHECK(tp_map_del(&m, k * 0x10000 + (k & 7), NULL));
    TT_EQ_U(m.n, N / 2);
    uint32_t bad = 0;
    for (uint64_t k = 0; k < N; k++) {
        const uint64_t *v = tp_map_find(&m, k * 0x10000 + (k & 7));
        if (k % 2 ? !v || *v != k + 1 : v != NULL) bad++;
    }
    TT_EQ_U(bad, 0);
    uint32_t pos = 0, seen = 0;
    uint64_t key, val, sum = 0;
    while (tp_map_next(&m, &pos, &key, &val)) seen++, sum += val;
    TT_EQ_U(seen, N / 2);
    TT_EQ_U(sum, (uint64_t)N / 2 * (N / 2 + 1));   /* the even values 2..N */
    /* deleting while walking: start again until nothing is left */
    for (bool again = true; again;) {
        again = false;
        for (pos = 0; tp_map_next(&m, &pos, &key, NULL);) {
            tp_map_del(&m, key, NULL);
            again = true;
        }
    }
    TT_EQ_U(m.n, 0);
    tp_map_free(&m);
}

/* tp_fdiv gives `/` and `%` exactly: every divisor up to 300, the timing
** model's (clock periods, 6 channels, line sizes), powers of two and odd
** large ones, at the ends of the multiply's range and past it. */
static void t_fdiv(void)
{
    uint64_t ds[400], nd = 0;
    for (uint64_t d = 1; d <= 300; d++) ds[nd++] = d;
    const uint64_t more[] = {825, 1u << 20, (1u << 24) - 3, 1000003, 0xffffffffull, 1ull << 40, (1ull << 63) + 5,
                             UINT64_MAX};
    for (size_t i = 0; i < TP_ARRAY_LEN(more); i++) ds[nd++] = more[i];
    uint64_t bad = 0, seed = 12345;
    for (uint64_t i = 0; i < nd; i++) {
        tp_fdiv f;
        tp_fdiv_init(&f, ds[i]);
        uint64_t d = ds[i], lim = UINT64_MAX / d;
        uint64_t xs[] = {0, 1, d - 1, d, d + 1, 2 * d - 1, 123456789, lim - 1, lim, lim + 1, UINT64_MAX - 1, UINT64_MAX};
        for (size_t k = 0; k < TP_ARRAY_LEN(xs); k++)
            bad += tp_fdiv_q(&f, xs[k]) != xs[k] / d || tp_fdiv_r(&f, xs[k]) != xs[k] % d;
        for (int k = 0; k < 2000; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t x = seed >> (k % 64);
            bad += tp_fdiv_q(&f, x) != x / d || tp_fdiv_r(&f, x) != x % d;
        }
    }
    TT_EQ_U(bad, 0);
}

int main(void)
{
    TT_RUN(t_opt_defaults);
    TT_RUN(t_opt_set_and_errors);
    TT_RUN(t_opt_file);
    TT_RUN(t_stats);
    TT_RUN(t_stats_defs);
    TT_RUN(t_arena_vec);
    TT_RUN(t_err);
    TT_RUN(t_file);
    TT_RUN(t_map_basic);
    TT_RUN(t_map_many);
    TT_RUN(t_fdiv);
    return tt_done();
}
