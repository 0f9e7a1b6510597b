/*
** bench.c -- `make bench`: how fast the functional model runs, on one core.
**
** Runs each kernel of tests/bench/bench.ptx directly on the exec/ API (no
** driver layer in the way), twice, and reports the faster run:
** thread instructions simulated, wall seconds, millions of thread
** instructions per second, host nanoseconds per warp instruction, and the
** process's peak resident memory.  The target (issue 2): at least 100
** million thread instructions per second on compute-bound kernels.
** Each kernel then runs once more with racecheck on (check.race=1, the
** costliest check: every shared and global access goes through its
** shadow); the last two columns give that speed and the slowdown (issue
** 12's aim: under 10x).  `bench FILE --no-checks` leaves them out (for
** instruction-count comparisons of the unchecked path).
**
** Then the same kernels in performance mode on the GTX 480 model (the option
** tables' defaults), each in a child process of its own so that its peak
** memory is its own: simulated warp instructions and cycles, wall seconds,
** warp instructions and cycles simulated per second, the child's peak
** resident memory.  The target (issue 7): at least one million warp
** instructions per second on one core, and under 100 MB for SAXPY over 2^20
** elements; issue 22's: 2 million on the memory-bound kernels (saxpy;
** atax_row, PolyBench's atax/gesummv/mvt walk: a thread per row of a
** 4096-float row pitch) and none below 1 million.
**
** Last, the tensor cores: the tiled WMMA GEMM (wmma_gemm, 640 x 768 x 512
** (120 blocks: one wave of 4 per SM), f16 in, f32 out) and wmma_peak (4
** warps per block, 120 blocks, each warp 32 rounds of 4 independent
** m16n16k16 mma on register fragments) in performance mode on the RTX
** 2060 model (each in its own child process): the multiply-accumulates,
** cycles, the achieved
** multiply-accumulates per cycle per SM beside the configured peak
** (sm.tensor_units x tensor.macs_f16f32) and what that is in TFLOPS at
** clock.core_mhz (docs/TENSOR.md relates the two).
**
** And parallel SMs (issue 22): compute-bound, divergent, shared-memory and
** memory-bound kernels in performance mode with sim.threads=1, with 2
** threads sharing every cycle (sim.share=always) and with 2 threads choosing
** (sim.share=auto), each in a child process: the cycles (which must be the
** same), the seconds and the speed-ups, with the host's load average (the
** targets: 1.7x on 2 cores compute-bound, 1.5x memory-bound), after a probe
** of the host (--par-probe: a fork and join's cost, and two threads against
** one on private work of 1 and 4 microseconds a fork).
** BENCH_THREADS and BENCH_SHARE set the two options of a --perf run.
*/
#include "exec/exec.h"
#include "exec/options.h"
#include "gpu/gpu.h"
#include "gpu/par.h"
#include "base/sbuf.h"
#include "base/stats.h"
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* This process's peak resident memory in MB: VmHWM, which belongs to the
** address space (getrusage's ru_maxrss survives exec, so a child started
** by a big parent would report the parent's size). */
static double peak_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lf", &kb) == 1) break;
    if (f) fclose(f);
    if (kb < 0) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        kb = (double)ru.ru_maxrss;
    }
    return kb / 1024.0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    s[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return s;
}

typedef struct {
    const char *name, *kind;
    uint32_t grid[3], block[3];
    uint8_t params[64];
    uint32_t psize;
} bench;

static void put(bench *b, const void *v, uint32_t n, uint32_t align)
{
    b->psize = (b->psize + align - 1) / align * align;
    memcpy(b->params + b->psize, v, n);
    b->psize += n;
}

enum { N = 1 << 20, MM = 256, W = 512, NB = 8, AP = 4096, AR = 4096, AC = 1024, GM = 640, GN = 768, GK = 512, PB = 120, PI = 32 };

typedef struct setup {
    tp_opts o;
    exec_dev *d;
    exec_mod *m;
    char *src;
    bench bs[NB];
} setup;

/* The f16 bits of a small multiple of 1/8 (|v| <= 2), exactly. */
static uint16_t f16_of(int eighths)
{
    if (!eighths) return 0;
    uint16_t s = eighths < 0 ? 0x8000 : 0;
    unsigned a = (unsigned)(eighths < 0 ? -eighths : eighths), e = 0;
    while (a >> (e + 1)) e++;                   /* a in [2^e, 2^(e+1)) */
    unsigned exp = e - 3 + 15;                  /* value a / 8 */
    unsigned frac = (a << (10 - e)) & 0x3ff;
    return (uint16_t)(s | exp << 10 | frac);
}

/* The device, the module and the kernels' buffers and parameters; full:
** the whole option table (performance mode) instead of exec's own; cfg: a
** configuration to load over it (NULL: the table's defaults, the GTX 480);
** only: the one kernel that will run (NULL: all). */
static bool setup_open(setup *S, const char *path, bool full, const char *cfg, const char *only)
{
    size_t len;
    S->src = slurp(path, &len);
    if (!S->src) {
        fprintf(stderr, "bench: cannot read %s\n", path);
        return false;
    }
    tp_err e;
    tp_err_clear(&e);
    if (full) gpu_opts_init(&S->o);
    else exec_opts_init(&S->o);
    if (cfg && !tp_opts_load_config(&S->o, cfg, &e)) {
        fprintf(stderr, "bench: %s\n", e.msg);
        return false;
    }
    tp_opts_set(&S->o, "device.global_mem", "1G", TP_SRC_OVERRIDE, &e);
    S->d = exec_dev_create(&S->o, stdout, &e);
    exec_status st;
    S->m = S->d ? exec_mod_load(S->d, S->src, len, path, &st, &e) : NULL;
    if (!S->m) {
        fprintf(stderr, "bench: %s\n", e.msg);
        return false;
    }
    exec_dev *d = S->d;
    uint64_t x = exec_mem_alloc(d, N * 4, 256), y = exec_mem_alloc(d, N * 4, 256);
    uint64_t A = exec_mem_alloc(d, MM * MM * 4, 256), B = exec_mem_alloc(d, MM * MM * 4, 256),
             C = exec_mem_alloc(d, MM * MM * 4, 256);
    float *px = exec_mem_host(d, x, N * 4), *pa = exec_mem_host(d, A, MM * MM * 4), *pb = exec_mem_host(d, B, MM * MM * 4);
    for (int i = 0; i < N; i++) px[i] = (float)(i % 1000) * 0.5f;
    for (int i = 0; i < MM * MM; i++) pa[i] = pb[i] = (float)(i % 17) * 0.25f;
    bench *bs = S->bs;
    memset(bs, 0, sizeof S->bs);
    int iters = 256, n = N, mm = MM, w = W, h = W, maxit = 256;
    float a = 2.0f;
    bs[0] = (bench){"fma_loop", "compute f32", {256, 1, 1}, {256, 1, 1}, {0}, 0};
    put(&bs[0], &y, 8, 8); put(&bs[0], &iters, 4, 4);
    bs[1] = (bench){"int_hash", "compute int", {256, 1, 1}, {256, 1, 1}, {0}, 0};
    put(&bs[1], &y, 8, 8); put(&bs[1], &iters, 4, 4);
    bs[2] = (bench){"saxpy", "memory", {1024, 1, 1}, {256, 1, 1}, {0}, 0};
    put(&bs[2], &x, 8, 8); put(&bs[2], &y, 8, 8); put(&bs[2], &a, 4, 4); put(&bs[2], &n, 4, 4);
    bs[3] = (bench){"matmul", "shared+barrier", {MM / 16, MM / 16, 1}, {16, 16, 1}, {0}, 0};
    put(&bs[3], &A, 8, 8); put(&bs[3], &B, 8, 8); put(&bs[3], &C, 8, 8); put(&bs[3], &mm, 4, 4);
    bs[4] = (bench){"mandel", "divergent", {W / 16, W / 16, 1}, {16, 16, 1}, {0}, 0};
    put(&bs[4], &x, 8, 8); put(&bs[4], &w, 4, 4); put(&bs[4], &h, 4, 4); put(&bs[4], &maxit, 4, 4);
    /* atax_row: AR rows of AP floats (PolyBench's 4096 x 4096), the first AC
    ** columns read */
    /* (64 MB: allocated only where atax_row runs, so that the other kernels'
    ** peak memory in performance mode stays their own) */
    bool want_atax = !only || strcmp(only, "atax_row") == 0;
    uint64_t xA = want_atax ? exec_mem_alloc(d, (size_t)AR * AP * 4, 256) : 0;
    for (int r = 0; want_atax && r < AR; r++) {
        float *row = exec_mem_host(d, xA + (uint64_t)r * AP * 4, AC * 4);
        for (int c = 0; c < AC; c++) row[c] = (float)((r + c) % 13) * 0.125f;
    }
    int ar = AR, ac = AC;
    bs[5] = (bench){"atax_row", "memory uncoal.", {AR / 256, 1, 1}, {256, 1, 1}, {0}, 0};
    put(&bs[5], &xA, 8, 8); put(&bs[5], &x, 8, 8); put(&bs[5], &y, 8, 8); put(&bs[5], &ar, 4, 4); put(&bs[5], &ac, 4, 4);
    uint64_t gA = exec_mem_alloc(d, (size_t)GM * GK * 2, 256), gB = exec_mem_alloc(d, (size_t)GK * GN * 2, 256),
             gC = exec_mem_alloc(d, (size_t)GM * GN * 4, 256);
    uint16_t *ga = exec_mem_host(d, gA, (size_t)GM * GK * 2), *gb = exec_mem_host(d, gB, (size_t)GK * GN * 2);
    for (int i = 0; i < GM * GK; i++) ga[i] = f16_of(i % 33 - 16);
    for (int i = 0; i < GK * GN; i++) gb[i] = f16_of(i % 31 - 15);
    int gm = GM, gn = GN, gk = GK;
    bs[6] = (bench){"wmma_gemm", "tensor cores", {GN / 64, GM / 64, 1}, {128, 1, 1}, {0}, 0};
    put(&bs[6], &gA, 8, 8); put(&bs[6], &gB, 8, 8); put(&bs[6], &gC, 8, 8);
    put(&bs[6], &gm, 4, 4); put(&bs[6], &gn, 4, 4); put(&bs[6], &gk, 4, 4);
    int pi = PI;
    bs[7] = (bench){"wmma_peak", "tensor cores", {PB, 1, 1}, {128, 1, 1}, {0}, 0};
    put(&bs[7], &gA, 8, 8); put(&bs[7], &gC, 8, 8); put(&bs[7], &pi, 4, 4);
    return true;
}

static void launch_of(const bench *b, exec_launch *l)
{
    memset(l, 0, sizeof *l);
    memcpy(l->grid, b->grid, sizeof l->grid);
    memcpy(l->block, b->block, sizeof l->block);
    l->params = b->params;
    l->params_bytes = b->psize;
}

/* bench --func NAME PTX N: N functional launches of one kernel back to back
** (the same buffers), each launch's milliseconds, and the median's rate:
** the steady state, where the table's best of two includes first-touch
** costs.  Also what callgrind runs on: (Ir(N=3) - Ir(N=1)) / 2 is one
** launch's host instructions. */
static int func_one(const char *name, const char *path, int n)
{
    setup S;
    if (n < 1 || n > 10000 || !setup_open(&S, path, false, NULL, NULL)) return 1;
    for (int i = 0; i < NB; i++) {
        bench *b = &S.bs[i];
        if (strcmp(b->name, name)) continue;
        int k = exec_mod_kernel(S.m, b->name);
        exec_launch l;
        launch_of(b, &l);
        exec_result r;
        double *t = calloc((size_t)n, sizeof *t);
        for (int rep = 0; rep < n; rep++) {
            double t0 = now();
            exec_launch_kernel(S.m, k, &l, &r);
            t[rep] = now() - t0;
            if (r.status != EXEC_OK) {
                fprintf(stderr, "bench: %s failed: %s\n", b->name, r.msg);
                free(t);
                return 1;
            }
            printf("%.2f%s", t[rep] * 1e3, rep + 1 < n ? " " : " ms\n");
        }
        for (int a = 1; a < n; a++) /* sort for the median */
            for (int c = a; c > 0 && t[c - 1] > t[c]; c--) {
                double x = t[c];
                t[c] = t[c - 1];
                t[c - 1] = x;
            }
        printf("%s: %d launches, median %.2f ms, %.1f M thread instructions/s\n", name, n, t[n / 2] * 1e3,
               (double)r.thread_insns / t[n / 2] / 1e6);
        free(t);
        return 0;
    }
    fprintf(stderr, "bench: no kernel %s\n", name);
    return 1;
}

/* bench --perf NAME PTX [CFG]: one kernel in performance mode, one line out
** (with CFG, the tensor-core line of wmma_gemm). */
static int perf_one(const char *name, const char *path, const char *cfg)
{
    setup S;
    if (!setup_open(&S, path, true, cfg, name)) return 1;
    const char *threads = getenv("BENCH_THREADS"), *share = getenv("BENCH_SHARE"); /* the parallel-SM table's runs */
    tp_err e;
    if (threads && !tp_opts_set(&S.o, "sim.threads", threads, TP_SRC_OVERRIDE, &e)) return 1;
    if (share && !tp_opts_set(&S.o, "sim.share", share, TP_SRC_OVERRIDE, &e)) return 1;
    const char *more = getenv("BENCH_OPTIONS"); /* e.g. sim.skip=0 (tools/stats_same.sh) */
    if (more && *more && !tp_opts_set_list(&S.o, more, TP_SRC_OVERRIDE, &e)) {
        fprintf(stderr, "bench: BENCH_OPTIONS: %s\n", e.msg);
        return 1;
    }
    for (int i = 0; i < NB; i++) {
        bench *b = &S.bs[i];
        if (strcmp(b->name, name) != 0) continue;
        gpu *g = gpu_new(&S.o);
        exec_launch l;
        launch_of(b, &l);
        exec_result r;
        gpu_kstats ks;
        memset(&ks, 0, sizeof ks);
        double t0 = now();
        gpu_launch(g, S.m, exec_mod_kernel(S.m, b->name), &l, &r, &ks, NULL, NULL);
        double t = now() - t0;
        if (r.status != EXEC_OK) {
            printf("%-9s failed: %s", b->name, r.msg);
            return 1;
        }
        const char *sp = getenv("BENCH_STATS");
        if (sp && *sp) {
            /* every statistic of the launch as JSON, for byte comparisons
            ** of the model's results before and after a speed change */
            FILE *f = fopen(sp, "w");
            tp_sbuf sb;
            tp_sbuf_init(&sb);
            tp_stats_json_at(gpu_kstats_registry(), &ks, &sb, 0);
            if (f) fputs(tp_sbuf_str(&sb), f);
            if (f) fclose(f);
            tp_sbuf_free(&sb);
        }
        if (cfg) {
            double nsm = (double)tp_opt_i(&S.o, OPT_DEVICE_NUM_SMS), mhz = tp_opt_f(&S.o, OPT_CLOCK_CORE_MHZ);
            double peak = (double)tp_opt_i(&S.o, OPT_SM_TENSOR_UNITS) * tp_opt_f(&S.o, OPT_TENSOR_MACS_F16F32);
            double per_sm = (double)ks.tensor_macs / (double)ks.cycles / nsm;
            printf("%-9s %11llu %10llu %10.1f %9.0f %6.1f%% %9.2f %8.3f %12.0f", b->name,
                   (unsigned long long)ks.tensor_macs, (unsigned long long)ks.cycles, per_sm, peak,
                   peak > 0 ? 100.0 * per_sm / peak : 0, 2.0 * per_sm * nsm * mhz * 1e6 / 1e12, t,
                   (double)ks.warp_insns / t);
            printf(" %9.1f", peak_mb());
            return 0;
        }
        printf("%-9s %12llu %10llu %8.3f %13.0f %12.0f", b->name, (unsigned long long)ks.warp_insns,
               (unsigned long long)ks.cycles, t, (double)ks.warp_insns / t, (double)ks.cycles / t);
        printf(" %9.1f", peak_mb());
        return 0;
    }
    return 1;
}

/* Runs this program again (--perf NAME PTX [CFG]) in a child process and
** leaves its line (which ends with the child's own peak memory) in line; 1
** on failure. */
static int child_line(const char *self, const char *name, const char *path, const char *cfg, char *line, size_t n)
{
    int fds[2];
    if (pipe(fds) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        char *args[] = {(char *)self, "--perf", (char *)name, (char *)path, (char *)cfg, NULL};
        execv("/proc/self/exe", args);
        _exit(127);
    }
    close(fds[1]);
    ssize_t got = 0, k;
    while (got < (ssize_t)n - 1 && (k = read(fds[0], line + got, n - 1 - (size_t)got)) > 0) got += k;
    close(fds[0]);
    int wst = 0;
    waitpid(pid, &wst, 0);
    line[got > 0 ? got : 0] = 0;
    return !WIFEXITED(wst) || WEXITSTATUS(wst) != 0;
}

/* The same, printing the line. */
static int child(const char *self, const char *name, const char *path, const char *cfg)
{
    char line[2048];
    if (child_line(self, name, path, cfg, line, sizeof line)) {
        printf("%-9s failed %s\n", name, line);
        return 1;
    }
    printf("%s\n", line);
    fflush(stdout);
    return 0;
}

/* ---- what the host's cores allow parallel SMs (--par-probe) -------------------------------- */

static double probe_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Private work: a dependent chain through a thread's own 32 KB. */
typedef struct probe {
    double *buf[2];
    uint32_t units;
} probe;

static void probe_work(double *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) b[i & 4095] = b[(i * 7) & 4095] * 1.0000001 + 1e-9;
}

static void probe_fn(void *arg, uint32_t t)
{
    probe *p = arg;
    probe_work(p->buf[t], p->units);
}

/* The cost of a fork and join of two threads (gpu_par_run, as the launch
** loop uses it once a cycle), and the speed-up of two threads over one on
** private work of a few microseconds per thread per fork: what a cycle of
** parallel SMs can hope for on this host before any data is shared. */
static void par_probe(void)
{
    gpu_par *team = gpu_par_new(2);
    if (!team) {
        printf("host: no second thread\n");
        return;
    }
    probe p = {{tp_calloc(4096, sizeof(double)), tp_calloc(4096, sizeof(double))}, 0};
    enum { RUNS = 20000 };
    double t0 = probe_now();
    for (int i = 0; i < RUNS; i++) gpu_par_run(team, probe_fn, &p);
    double fj = (probe_now() - t0) / RUNS;
    /* units of work per microsecond, on this thread */
    t0 = probe_now();
    probe_work(p.buf[0], 1000000);
    double per_us = 1e6 / ((probe_now() - t0) * 1e6);
    printf("host: a fork and join of 2 threads takes %.0f ns;", fj * 1e9);
    static const double us[] = {1, 4};
    for (int k = 0; k < 2; k++) {
        p.units = (uint32_t)(us[k] * per_us);
        t0 = probe_now();
        for (int i = 0; i < RUNS; i++) {
            probe_work(p.buf[0], p.units);
            probe_work(p.buf[1], p.units);
        }
        double one = probe_now() - t0;
        t0 = probe_now();
        for (int i = 0; i < RUNS; i++) gpu_par_run(team, probe_fn, &p);
        double two = probe_now() - t0;
        printf(" two threads on %.0f us of private work each: %.2fx%s", us[k], one / two, k ? "\n" : ";");
    }
    free(p.buf[0]);
    free(p.buf[1]);
    gpu_par_free(team);
}

/* A row of the parallel-SM table: the kernel with sim.threads=1, with 2
** threads sharing every cycle (sim.share=always) and with 2 threads as they
** choose (sim.share=auto), PAR_ROUNDS times in turn, the best time of each
** (a shared host's neighbours slow single runs by tens of percent); the
** cycles must be the same (docs/TIMING.md). */
enum { PAR_ROUNDS = 3 };

static int par_row(const char *self, const char *name, const char *path)
{
    static const char *const runs[3][2] = {{"1", "auto"}, {"2", "always"}, {"2", "auto"}};
    double sec[3] = {0, 0, 0};
    unsigned long long cyc[3];
    for (int round = 0; round < PAR_ROUNDS; round++)
        for (int i = 0; i < 3; i++) {
            char line[2048];
            setenv("BENCH_THREADS", runs[i][0], 1);
            setenv("BENCH_SHARE", runs[i][1], 1);
            int bad = child_line(self, name, path, NULL, line, sizeof line);
            unsetenv("BENCH_THREADS");
            unsetenv("BENCH_SHARE");
            unsigned long long wi, c;
            double s;
            if (bad || sscanf(line, "%*s %llu %llu %lf", &wi, &c, &s) != 3 || (round && c != cyc[i])) {
                printf("%-9s failed %s\n", name, line);
                return 1;
            }
            cyc[i] = c;
            if (!round || s < sec[i]) sec[i] = s;
        }
    bool same = cyc[0] == cyc[1] && cyc[0] == cyc[2];
    printf("%-9s %10llu %5s %8.3f %8.3f %7.2fx %8.3f %7.2fx\n", name, cyc[0], same ? "same" : "DIFF", sec[0], sec[1],
           sec[0] / sec[1], sec[2], sec[0] / sec[2]);
    fflush(stdout);
    return !same;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "--perf") == 0) return perf_one(argv[2], argv[3], argc >= 5 ? argv[4] : NULL);
    if (argc >= 5 && strcmp(argv[1], "--func") == 0) return func_one(argv[2], argv[3], atoi(argv[4]));
    if (argc >= 2 && strcmp(argv[1], "--par-probe") == 0) {
        par_probe();
        return 0;
    }
    const char *path = argc > 1 ? argv[1] : "tests/bench/bench.ptx";
    bool checks = !(argc > 2 && strcmp(argv[2], "--no-checks") == 0);
    setup S;
    if (!setup_open(&S, path, false, NULL, NULL)) return 1;
    exec_mod *m = S.m;
    bench *bs = S.bs;

    printf("%-9s %-15s %-14s %14s %12s %8s %11s %13s", "kernel", "kind", "grid x block", "thread-insns",
           "warp-insns", "seconds", "Mthr-ins/s", "ns/warp-insn");
    if (checks) printf(" %12s %8s", "race Mthr/s", "slowdown");
    printf("\n");
    /* every kernel, best of two runs; then (so that the peak memory is the
    ** model's own) each once more under racecheck, whose shadow is big */
    double best[NB], race[NB];
    exec_result res[NB];
    for (int i = 0; i < NB; i++) {
        bench *b = &bs[i];
        int k = exec_mod_kernel(m, b->name);
        exec_launch l;
        launch_of(b, &l);
        best[i] = 1e30;
        for (int rep = 0; rep < 2; rep++) {
            double t0 = now();
            exec_launch_kernel(m, k, &l, &res[i]);
            double t = now() - t0;
            if (t < best[i]) best[i] = t;
            if (res[i].status != EXEC_OK) {
                fprintf(stderr, "bench: %s failed: %s\n", b->name, res[i].msg);
                return 1;
            }
        }
    }
    double peak_plain = peak_mb();
    for (int i = 0; checks && i < NB; i++) {
        bench *b = &bs[i];
        int k = exec_mod_kernel(m, b->name);
        exec_launch l;
        launch_of(b, &l);
        exec_result r;
        tp_err e;
        exec_dev_set_opt(S.d, "check.race", "1", &e);
        double t0 = now();
        exec_launch_kernel(m, k, &l, &r);
        race[i] = now() - t0;
        exec_dev_set_opt(S.d, "check.race", "0", &e);
        if (r.status != EXEC_OK) {
            fprintf(stderr, "bench: %s failed with racecheck: %s\n", b->name, r.msg);
            return 1;
        }
    }
    for (int i = 0; i < NB; i++) {
        const bench *b = &bs[i];
        const exec_result *r = &res[i];
        char gb[32];
        snprintf(gb, sizeof gb, "%ux%u x %ux%u", b->grid[0], b->grid[1], b->block[0], b->block[1]);
        printf("%-9s %-15s %-14s %14llu %12llu %8.3f %11.1f %13.1f", b->name, b->kind, gb,
               (unsigned long long)r->thread_insns, (unsigned long long)r->warp_insns, best[i],
               r->thread_insns / best[i] / 1e6, best[i] * 1e9 / (double)r->warp_insns);
        if (checks) printf(" %12.1f %7.1fx", r->thread_insns / race[i] / 1e6, race[i] / best[i]);
        printf("\n");
    }
    printf("peak resident memory: %.1f MB (device memory allocated: %.1f MB)", peak_plain,
           (2.0 * N * 4 + 3.0 * MM * MM * 4 + 4.0 * AR * AP + 2.0 * GM * GK + 2.0 * GK * GN + 4.0 * GM * GN) / 1048576.0);
    if (checks) printf("; with racecheck's shadow memory: %.1f MB", peak_mb());
    printf("\n");

    /* performance mode: each kernel in a fresh process (this program again,
    ** with --perf), so that its peak memory is its own */
    printf("\nperformance mode (GTX 480 model), one process per kernel\n");
    printf("%-9s %12s %10s %8s %13s %12s %9s\n", "kernel", "warp-insns", "cycles", "seconds", "warp-insns/s",
           "cycles/s", "peak MB");
    fflush(stdout);
    int status = 0;
    for (int i = 0; i < NB; i++) status |= child(argv[0], bs[i].name, path, NULL);
    /* issue 22: GPGPU-Sim's speed beside ours, from ../shared/reference when it has it */
    printf("GPGPU-Sim: no speed for these kernels in ../shared/reference (its CSV has cycles and\n"
           "instruction counts of PolyBench kernels, no wall times); docs/PERFORMANCE.md says so\n");
    /* the tensor cores on the RTX 2060 model */
    printf("\ntensor cores, performance mode (RTX 2060 model: %s)\n", "configs/rtx2060.cfg");
    printf("%-9s %11s %10s %10s %9s %7s %9s %8s %12s %9s\n", "kernel", "MACs", "cycles", "MACs/c/SM", "peak",
           "of peak", "TFLOPS", "seconds", "warp-insns/s", "peak MB");
    fflush(stdout);
    status |= child(argv[0], "wmma_gemm", path, "rtx2060");
    status |= child(argv[0], "wmma_peak", path, "rtx2060");
    /* parallel SMs: 1 against 2 host threads, with the host's load beside them */
    double load = 0;
    FILE *la = fopen("/proc/loadavg", "r");
    if (!la || fscanf(la, "%lf", &load) != 1) load = -1;
    if (la) fclose(la);
    printf("\nparallel SMs, performance mode (GTX 480 model): 1 vs 2 threads (sim.threads; best of %d; load average %.2f on %ld cores)\n",
           PAR_ROUNDS, load, sysconf(_SC_NPROCESSORS_ONLN));
    fflush(stdout);
    par_probe();
    printf("%-9s %10s %5s %8s %8s %8s %8s %8s\n", "kernel", "cycles", "1 = 2", "1 thr s", "2 thr s", "speedup",
           "2 adapt", "speedup");
    static const char *const par_kernels[] = {"fma_loop", "int_hash", "mandel", "matmul", "saxpy"};
    for (size_t i = 0; i < sizeof par_kernels / sizeof *par_kernels; i++) status |= par_row(argv[0], par_kernels[i], path);
    exec_mod_unload(m);
    exec_dev_destroy(S.d);
    tp_opts_free(&S.o);
    free(S.src);
    return status;
}
