/*
** t_checks.c -- the correctness checks through the driver API (no nvcc):
** a driver-API program run with TPSIM_OPTIONS as a user would, in a child
** process of this one, whose stderr and statistics file are then read.
**
**   init     check.init=1: cuMemAlloc memory read fresh is reported; after
**            cuMemsetD32, cuMemcpyHtoD or a kernel's writes it is not;
**            cuMemAllocManaged memory the host wrote is not; a
**            cuMemcpyDtoD from a fresh buffer passes the state on.  Two
**            findings, each once; the closing count; the statistics file's
**            "checks" member per launch and in the totals.
**   race     check.race=1 check.print_limit=1: two races, the first
**            printed, the second counted (and noted once); both in the
**            statistics file.
**   off      no check: no report, no closing count, no "checks" member.
** Prints PASS/FAIL lines (tests/check/run_check.sh runs it).
*/
#include "../api/api_test.h"
#include <sys/wait.h>
#include <unistd.h>

static const char ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    /* copy(in, out): out[i] = in[i] + 1 */
    ".visible .entry copy(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n"
    "  add.s32 %r2, %r2, 1;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.u32 [%rd5], %r2;\n"
    "  ret;\n"
    "}\n"
    /* same(out): every thread stores to out[0] */
    ".visible .entry same(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n"
    /* shift(a): a[i] = a[(i + 32) % 64] (64 threads) */
    ".visible .entry shift(.param .u64 a)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [a];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  add.s32 %r2, %r1, 32;\n"
    "  and.b32 %r2, %r2, 63;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r3, [%rd3];\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.u32 [%rd5], %r3;\n"
    "  ret;\n"
    "}\n";

static CUfunction fcopy, fsame, fshift;

static void launch1(CUfunction f, void **args, unsigned threads)
{
    OK(cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, NULL, args, NULL));
    OK(cuCtxSynchronize());
}

static int child(const char *what)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuCtxCreate(&ctx, NULL, 0, dev));
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&fcopy, mod, "copy"));
    OK(cuModuleGetFunction(&fsame, mod, "same"));
    OK(cuModuleGetFunction(&fshift, mod, "shift"));
    enum { N = 64 };
    CUdeviceptr a, b, c, m;
    OK(cuMemAlloc(&a, N * 4));
    OK(cuMemAlloc(&b, N * 4));
    OK(cuMemAlloc(&c, N * 4));
    void *ab[] = {&a, &b}, *cb[] = {&c, &b}, *mb[] = {&m, &b};
    if (!strcmp(what, "init") || !strcmp(what, "off")) {
        launch1(fcopy, ab, N);                    /* a is fresh: a finding */
        launch1(fcopy, ab, N);                    /* the same allocation and kernel: not again */
        OK(cuMemsetD32(a, 7, N));
        launch1(fcopy, ab, N);                    /* written by the memset */
        OK(cuMemAllocManaged(&m, N * 4, CU_MEM_ATTACH_GLOBAL));
        for (int i = 0; i < N; i++) ((int *)(uintptr_t)m)[i] = i;
        launch1(fcopy, mb, N);                    /* managed memory the host wrote */
        CUdeviceptr fresh;
        OK(cuMemAlloc(&fresh, N * 4));
        OK(cuMemcpyDtoD(c, fresh, N * 4));        /* c takes fresh's state: a finding */
        launch1(fcopy, cb, N);
        int h[N];
        for (int i = 0; i < N; i++) h[i] = i;
        OK(cuMemcpyHtoD(c, h, sizeof h));
        launch1(fcopy, cb, N);                    /* written by the copy */
        launch1(fcopy, ab, N);                    /* b was written by the kernels */
        void *bb[] = {&b, &a};
        launch1(fcopy, bb, N);
    } else if (!strcmp(what, "race")) {
        void *aa[] = {&a};
        launch1(fsame, aa, N);                    /* two warps store one word */
        OK(cuMemsetD32(b, 0, N));
        void *bb[] = {&b};
        launch1(fshift, bb, N);                   /* warps read what the other stores */
    }
    OK(cuCtxDestroy(ctx));
    return tt_done();
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return calloc(1, 1);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return strdup(buf);
}

static int count(const char *s, const char *sub)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, sub)); p += strlen(sub)) n++;
    return n;
}

/* Runs this program as the child for `what` with TPSIM_OPTIONS=opts; its
** stderr and statistics file are returned. */
static void run(const char *self, const char *what, const char *opts, char **err, char **stats)
{
    char ef[] = "/tmp/t_checks_err_XXXXXX", sf[64];
    int fd = mkstemp(ef);
    snprintf(sf, sizeof sf, "%s.json", ef);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 2);
        if (opts) setenv("TPSIM_OPTIONS", opts, 1);
        else unsetenv("TPSIM_OPTIONS");
        setenv("TPSIM_STATS", sf, 1);
        execl(self, self, "--child", what, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(fd);
    TT_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    *err = slurp(ef);
    *stats = slurp(sf);
    unlink(ef);
    unlink(sf);
}

static const char *self_path;

static void t_checks_init(void)
{
    char *err, *stats;
    run(self_path, "init", "check.init=1", &err, &stats);
    TT_EQ_I(count(err, "tpsim: init: uninitialized read of global memory in kernel 'copy'"), 2);
    TT_HAS(err, "tpsim: checks: 2 uninitialized reads (each reported once;");
    TT_EQ_I(count(err, "tpsim: race:"), 0);
    /* per launch: the first and the fifth report one each; the totals two */
    TT_EQ_I(count(stats, "\"init\": 1,"), 2);
    TT_EQ_I(count(stats, "\"what\": \"uninitialized read\""), 2);
    TT_HAS(stats, "\"checks\": {\"race\": 0, \"race_intrawarp\": 0, \"init\": 2, \"sync\": 0, \"findings\": 2");
    free(err);
    free(stats);
}

static void t_checks_race_limit(void)
{
    char *err, *stats;
    run(self_path, "race", "check.race=1 check.print_limit=1", &err, &stats);
    TT_EQ_I(count(err, "tpsim: race: write-write race on global memory in kernel 'same'"), 1);
    TT_EQ_I(count(err, "tpsim: race: read-write race"), 0);
    TT_EQ_I(count(err, "check.print_limit (1) reached"), 1);
    TT_HAS(err, "tpsim: checks: 2 races (each reported once;");
    TT_HAS(stats, "\"what\": \"read-write race\"");
    TT_HAS(stats, "\"findings\": 2");
    free(err);
    free(stats);
}

static void t_checks_off(void)
{
    char *err, *stats;
    run(self_path, "off", NULL, &err, &stats);
    TT_EQ_I(count(err, "tpsim: "), 0);
    TT_EQ_I(count(stats, "\"checks\""), 0);
    TT_HAS(stats, "\"kernels\"");
    free(err);
    free(stats);
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "--child")) return child(argv[2]);
    self_path = argv[0];
    TT_RUN(t_checks_init);
    TT_RUN(t_checks_race_limit);
    TT_RUN(t_checks_off);
    return tt_done();
}
