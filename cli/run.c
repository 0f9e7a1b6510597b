/* run.c -- `tpsim run`: runs an unmodified CUDA program on the simulator.
**
**   tpsim run [--config NAME|FILE] [--mode functional|performance] [-j N]
**             [--stats FILE] [--report FILE.html] [-o KEY=VALUE]... [--no-summary]
**             [--check race|intrawarp|init|sync|all[,...]] [--error-exitcode N]
**             [--sample] -- PROGRAM [ARGS...]
**
** The program runs as a child process with tpsim's libcuda.so.1 and
** libcudart.so.13 found first: LD_LIBRARY_PATH starts with the lib
** directory next to the tpsim binary (<bindir>/../lib).  The settings reach
** the libraries through the environment (TPSIM_CONFIG, TPSIM_MODE,
** TPSIM_THREADS from -j, TPSIM_STATS, TPSIM_OPTIONS="key=value ..." from the -o options, after any
** TPSIM_OPTIONS already set, so that -o wins).  The program keeps tpsim's
** stdin, stdout and stderr; tpsim exits with its status (128 + the signal
** number if a signal ended it).  At the end tpsim prints on stderr the
** summary the program's libcuda.so.1 wrote at exit (TPSIM_SUMMARY, a
** temporary file; api/stats.c lays it out from counters it reads through
** the statistics registry): a
** per-kernel table -- launches, warp and thread instructions, and in
** performance mode cycles and IPC -- (not with --no-summary), then every
** CUDA call that returned an error to the program: entry point, kernel,
** calling library, error, how many times, and why in words (always: no
** failure goes unreported).  --stats FILE (or TPSIM_STATS) keeps the JSON
** statistics.  --report FILE.html writes the page `tpsim report` makes of
** them (cli/report.c, docs/REPORT.md) once the program has ended, from the
** --stats file or, without one, from a temporary file; its directory is
** checked before the program starts, and a run that leaves no statistics
** (no CUDA call, a signal) or whose page cannot be written says so and
** exits with 1 if the program itself succeeded.
**
** --check turns on correctness checks (docs/CHECKS.md): race (check.race),
** intrawarp (check.race_intrawarp, with race), init (check.init), sync
** (check.sync), all (race, init and sync); repeatable or comma-separated.
** Findings are printed as the program runs and do not change its exit
** status, unless --error-exitcode N is given: then a run with any finding
** exits with N (as compute-sanitizer's option of that name), whatever the
** program's own status.  The library writes the count of findings at exit
** into the file TPSIM_CHECK_RESULT names (api/checks.c), a temporary file
** tpsim reads.
**
** --sample is -o sample.mode=both (sampled timing, docs/TIMING.md; a later
** -o sample.mode=... wins) and, without --mode, performance mode.
**
** Before starting the program tpsim checks what it can and says what to do:
** the configuration, every option and value (from --config, --mode, -o and
** the TPSIM_* environment) are read exactly as the program's libraries will
** read them, and a bad one ends tpsim with status 2 and one line naming it;
** the libraries must have been built (make), the program must exist and be
** executable, and an ELF program that carries CUDA device code must load
** the CUDA runtime as a shared library (nvcc's default links NVIDIA's
** runtime statically, which tpsim cannot replace: -cudart shared).
** Signals sent to tpsim reach the program, which never outlives tpsim
** (below, "the child and the signals").
*/
#include "cli.h"
#include "args.h"
#include "report.h"
#include "../base/sbuf.h"
#include "../gpu/options.h"
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { RUN_CONFIG = CLI_HELP + 1, RUN_MODE, RUN_THREADS, RUN_STATS, RUN_REPORT, RUN_SET, RUN_NO_SUMMARY, RUN_CHECK, RUN_EXITCODE, RUN_SAMPLE };

static const cli_opt run_opts[] = {
    {RUN_CONFIG, "--config", NULL, "NAME|FILE", "a built-in configuration (tpsim config --list) or a file"},
    {RUN_MODE, "--mode", NULL, "MODE", "functional (default) or performance"},
    {RUN_THREADS, "--threads", "-j", "N", "performance mode: tick the SMs on N host threads (sim.threads;\nthe same cycles and statistics as one)"},
    {RUN_STATS, "--stats", NULL, "FILE", "write the statistics (JSON) to FILE"},
    {RUN_REPORT, "--report", NULL, "FILE.html", "write a self-contained HTML report of the statistics to FILE.html\n(tpsim report, docs/REPORT.md)"},
    {RUN_SET, "-o", NULL, "KEY=VALUE", "set an option (repeatable), e.g. -o device.num_sms=30"},
    {RUN_NO_SUMMARY, "--no-summary", NULL, NULL,
     "do not print the per-kernel summary at exit (failed CUDA calls are\nstill listed)"},
    {RUN_CHECK, "--check", NULL, "KIND[,KIND]", "correctness checks: race, intrawarp, init, sync, all (race,init,sync)"},
    {RUN_EXITCODE, "--error-exitcode", NULL, "N", "exit with N if a check found anything"},
    {RUN_SAMPLE, "--sample", NULL, NULL,
     "sampled timing: -o sample.mode=both, in performance mode unless --mode\nsays otherwise (docs/TIMING.md, Sampled timing)"},
};

static const cli_cmd run_cmd = {
    "tpsim run",
    "usage: tpsim run [OPTIONS] -- PROGRAM [ARGS...]\n",
    "runs a CUDA program (built with nvcc -cudart shared) on the simulated GPU\n",
    CLI_OPTS(run_opts),
    CLI_STOP_AT_ARG | CLI_MISSING_AS_UNKNOWN,
};

/* ---- locating things ------------------------------------------------------------ */

/* The lib directory next to the running tpsim binary: <bindir>/../lib. */
static bool lib_dir(char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) return false;
    exe[k] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = '\0';
    char path[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/../lib", exe);
    if (n < PATH_MAX || !realpath(path, out)) {
        snprintf(out, n, "%.4000s/../lib", exe);
        return false;
    }
    return true;
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The path of the program as execvp would find it, into buf; false if none. */
static bool find_program(const char *prog, char *buf, size_t n)
{
    if (strchr(prog, '/')) {
        snprintf(buf, n, "%s", prog);
        return access(buf, F_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, n, "%.*s/%s", (int)(len ? len : 1), len ? p : ".", prog);
        if (is_file(buf) && access(buf, X_OK) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

/* ---- the ELF check -------------------------------------------------------------------- */

typedef enum elf_kind {
    ELF_OTHER,         /* not a 64-bit little-endian ELF file: not checked */
    ELF_STATIC,        /* no dynamic section */
    ELF_CUDART,        /* needs libcudart.so.* (its name in *need) */
    ELF_STATIC_CUDART, /* device code (.nv_fatbin) but no shared runtime */
    ELF_DRIVER,        /* needs libcuda.so.1 (a driver-API program) */
    ELF_PLAIN          /* dynamic, no device code of its own */
} elf_kind;

static bool rd(FILE *f, uint64_t off, void *buf, size_t n)
{
    return fseeko(f, (off_t)off, SEEK_SET) == 0 && fread(buf, 1, n, f) == n;
}

/* True if the dynamic symbol table (section ds) defines name. */
static bool defines(FILE *f, const Elf64_Shdr *sh, unsigned nsh, const Elf64_Shdr *ds, const char *name)
{
    if (ds->sh_link >= nsh || ds->sh_entsize != sizeof(Elf64_Sym)) return false;
    const Elf64_Shdr *strs = &sh[ds->sh_link];
    size_t n = (size_t)(ds->sh_size / sizeof(Elf64_Sym)), len = strlen(name);
    char buf[64];
    for (size_t i = 0; i < n && i < 1000000; i++) {
        Elf64_Sym sym;
        if (!rd(f, ds->sh_offset + i * sizeof sym, &sym, sizeof sym)) return false;
        if (sym.st_shndx == SHN_UNDEF || sym.st_name >= strs->sh_size) continue;
        if (!rd(f, strs->sh_offset + sym.st_name, buf, len + 1)) continue;
        if (memcmp(buf, name, len + 1) == 0) return true;
    }
    return false;
}

/* What the program is, from its section headers and dynamic section;
** *sanitized: it carries an AddressSanitizer runtime of its own. */
static elf_kind elf_check(const char *path, char *need, size_t need_n, bool *sanitized)
{
    need[0] = '\0';
    *sanitized = false;
    FILE *f = fopen(path, "rb");
    if (!f) return ELF_OTHER;
    Elf64_Ehdr eh;
    elf_kind k = ELF_OTHER;
    if (!rd(f, 0, &eh, sizeof eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
        eh.e_shnum > 4096) {
        fclose(f);
        return ELF_OTHER;
    }
    Elf64_Shdr *sh = tp_calloc(eh.e_shnum, sizeof *sh);
    if (!rd(f, eh.e_shoff, sh, eh.e_shnum * sizeof *sh) || eh.e_shstrndx >= eh.e_shnum) goto done;
    const Elf64_Shdr *strs = &sh[eh.e_shstrndx];
    bool fatbin = false, dynamic = false, cudart = false, driver = false;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        char name[32] = "";
        if (sh[i].sh_name < strs->sh_size) rd(f, strs->sh_offset + sh[i].sh_name, name, sizeof name - 1);
        name[sizeof name - 1] = '\0';
        if (strcmp(name, ".nv_fatbin") == 0) fatbin = true;
        if (sh[i].sh_type == SHT_DYNSYM && defines(f, sh, eh.e_shnum, &sh[i], "__asan_init")) *sanitized = true;
        if (sh[i].sh_type != SHT_DYNAMIC) continue;
        dynamic = true;
        /* DT_NEEDED names are offsets into the section's string table */
        if (sh[i].sh_link >= eh.e_shnum || sh[i].sh_entsize != sizeof(Elf64_Dyn)) continue;
        const Elf64_Shdr *ds = &sh[sh[i].sh_link];
        size_t nd = (size_t)(sh[i].sh_size / sizeof(Elf64_Dyn));
        for (size_t j = 0; j < nd && j < 4096; j++) {
            Elf64_Dyn d;
            if (!rd(f, sh[i].sh_offset + j * sizeof d, &d, sizeof d) || d.d_tag == DT_NULL) break;
            if (d.d_tag != DT_NEEDED || d.d_un.d_val >= ds->sh_size) continue;
            char lib[64] = "";
            rd(f, ds->sh_offset + d.d_un.d_val, lib, sizeof lib - 1);
            lib[sizeof lib - 1] = '\0';
            if (strncmp(lib, "libcudart.so", 12) == 0) {
                cudart = true;
                snprintf(need, need_n, "%s", lib);
            }
            if (strncmp(lib, "libcuda.so", 10) == 0) driver = true;
            if (strncmp(lib, "libasan.so", 10) == 0) *sanitized = true;
        }
    }
    k = !dynamic ? ELF_STATIC : cudart ? ELF_CUDART : fatbin ? ELF_STATIC_CUDART : driver ? ELF_DRIVER : ELF_PLAIN;
done:
    free(sh);
    fclose(f);
    return k;
}

/* ---- the summary ----------------------------------------------------------------------
** The program's libcuda.so.1 writes it at exit (api/stats.c, TPSIM_SUMMARY),
** a table of counters read through its statistics registry; here it is
** only printed. */

static void summary(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tpsim: no statistics: the program made no CUDA calls or did not exit normally\n");
        return;
    }
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, n, stderr);
    fclose(f);
}

/* ---- running --------------------------------------------------------------------------- */

/* --check LIST: the options it sets, appended to opts. */
static bool add_checks(const char *list, tp_sbuf *opts)
{
    static const struct {
        const char *word, *set;
    } kinds[] = {
        {"race", "check.race=1"},
        {"intrawarp", "check.race=1 check.race_intrawarp=1"},
        {"race_intrawarp", "check.race=1 check.race_intrawarp=1"},
        {"init", "check.init=1"},
        {"sync", "check.sync=1"},
        {"all", "check.race=1 check.init=1 check.sync=1"},
    };
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        size_t k = 0;
        while (k < TP_ARRAY_LEN(kinds) && strcmp(w, kinds[k].word) != 0) k++;
        if (k == TP_ARRAY_LEN(kinds)) {
            fprintf(stderr, "tpsim run: --check takes race, intrawarp, init, sync or all (comma-separated), not '%s'\n", w);
            return false;
        }
        tp_sbuf_printf(opts, "%s%s", opts->len ? " " : "", kinds[k].set);
    }
    return true;
}

/* The count of findings the library wrote into path (0 without the file). */
static uint64_t check_result(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned long long n = 0;
    if (f) {
        if (fscanf(f, "%llu", &n) != 1) n = 0;
        fclose(f);
    }
    return n;
}

/* What the command line asked for. */
typedef struct run_args {
    const char *config, *mode, *threads, *stats, *report;
    bool quiet;
    bool sample;           /* --sample: performance mode unless --mode says otherwise */
    long error_exitcode;   /* -1: not given */
    tp_sbuf opts;          /* the -o and --check settings, "key=value ..." */
    char **prog_argv;
} run_args;

/* Parses the options before the program; 0 to go on, else the exit status
** (2 for a usage error, -1 after --help). */
static int parse_args(int argc, char **argv, run_args *a)
{
    cli_args it;
    cli_args_init(&it, &run_cmd, argc, argv);
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        const char *v = it.val;
        char *end;
        switch (id) {
        case CLI_EXIT: return it.status ? it.status : -1;
        case RUN_CONFIG: a->config = v; break;
        case RUN_MODE: a->mode = v; break;
        case RUN_THREADS: {
            long n = strtol(v, &end, 10);
            if (*end || end == v || n < 1 || n > 64) return cli_error(&run_cmd, "-j takes a number of threads from 1 to 64, not '%s'", v);
            a->threads = v;
            break;
        }
        case RUN_STATS: a->stats = v; break;
        case RUN_REPORT: a->report = v; break;
        case RUN_SET:
            if (!strchr(v, '=') || v[0] == '=' || strchr(v, ' '))
                return cli_error(&run_cmd, "-o takes KEY=VALUE (no spaces), not '%s'", v);
            tp_sbuf_printf(&a->opts, "%s%s", a->opts.len ? " " : "", v);
            break;
        case RUN_NO_SUMMARY: a->quiet = true; break;
        case RUN_SAMPLE:
            tp_sbuf_printf(&a->opts, "%ssample.mode=both", a->opts.len ? " " : "");
            a->sample = true;
            break;
        case RUN_CHECK:
            if (!add_checks(v, &a->opts)) return 2;
            break;
        case RUN_EXITCODE:
            a->error_exitcode = strtol(v, &end, 10);
            if (*end || end == v || a->error_exitcode < 0 || a->error_exitcode > 255)
                return cli_error(&run_cmd, "--error-exitcode takes a number from 0 to 255, not '%s'", v);
            break;
        }
    }
    if (it.ind >= argc) {
        cli_error(&run_cmd, "no program given");
        cli_usage(&run_cmd, stderr);
        return 2;
    }
    a->prog_argv = argv + it.ind;
    return 0;
}

/* Puts the settings where the program's libraries read them (TPSIM_CONFIG,
** TPSIM_MODE, TPSIM_THREADS, TPSIM_OPTIONS after any already set, so that -o wins), then
** reads them back exactly as those libraries will (gpu_opts_from_env): a
** bad configuration, option or value stops the run here, before anything is
** started, instead of failing every CUDA call of a program that runs anyway. */
static bool apply_settings(const run_args *a)
{
    if (a->config) setenv("TPSIM_CONFIG", a->config, 1);
    if (a->mode) setenv("TPSIM_MODE", a->mode, 1);
    else if (a->sample) setenv("TPSIM_MODE", "performance", 1);
    if (a->threads) setenv("TPSIM_THREADS", a->threads, 1);
    if (a->opts.len) {
        const char *prev = getenv("TPSIM_OPTIONS");
        tp_sbuf all;
        tp_sbuf_init(&all);
        tp_sbuf_printf(&all, "%s%s%s", prev && *prev ? prev : "", prev && *prev ? " " : "", tp_sbuf_str(&a->opts));
        setenv("TPSIM_OPTIONS", tp_sbuf_str(&all), 1);
        tp_sbuf_free(&all);
    }
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    bool ok = gpu_opts_from_env(&o, &e);
    tp_opts_free(&o);
    if (!ok) fprintf(stderr, "tpsim run: %s\n", e.msg);
    return ok;
}

/* Checks the libraries and the program; 0 if it can be run, else the exit
** status (127: not found, 126: cannot be run).  lib gets the library
** directory, path the program's path, *kind what it is. */
static int check_program(const char *prog, char *lib, size_t libn, char *path, size_t pathn, elf_kind *kind,
                         bool *sanitized)
{
    char cuda[PATH_MAX + 32], cudart[PATH_MAX + 32];
    bool have_dir = lib_dir(lib, libn);
    snprintf(cuda, sizeof cuda, "%s/libcuda.so.1", lib);
    snprintf(cudart, sizeof cudart, "%s/libcudart.so.13", lib);
    if (!have_dir || !is_file(cuda) || !is_file(cudart)) {
        fprintf(stderr,
                "tpsim run: tpsim's CUDA libraries (libcuda.so.1, libcudart.so.13) are not in %s; "
                "build them with `make` (they go next to bin/tpsim, in the build's lib/)\n",
                lib);
        return 127;
    }
    if (!find_program(prog, path, pathn)) {
        fprintf(stderr, "tpsim run: %s: no such program%s\n", prog,
                strchr(prog, '/') ? "" : " in PATH (give a path, e.g. ./prog)");
        return 127;
    }
    if (!is_file(path) || access(path, X_OK) != 0) {
        fprintf(stderr, "tpsim run: %s: not an executable file\n", path);
        return 126;
    }
    char need[64];
    *kind = elf_check(path, need, sizeof need, sanitized);
    switch (*kind) {
    case ELF_STATIC:
        fprintf(stderr,
                "tpsim run: %s is statically linked, so it cannot load tpsim's CUDA libraries: "
                "build it as a dynamically linked program with nvcc -cudart shared\n",
                path);
        return 126;
    case ELF_STATIC_CUDART:
        fprintf(stderr,
                "tpsim run: %s contains NVIDIA's CUDA runtime linked statically (nvcc's default, "
                "-cudart static), which tpsim cannot replace: rebuild it with `nvcc -cudart shared ...`\n",
                path);
        return 126;
    case ELF_CUDART:
        if (strcmp(need, "libcudart.so.13") != 0) {
            fprintf(stderr,
                    "tpsim run: %s needs %s, but tpsim provides CUDA 13's runtime (libcudart.so.13): "
                    "rebuild it with CUDA 13's nvcc -cudart shared\n",
                    path, need);
            return 126;
        }
        break;
    case ELF_OTHER:
    case ELF_DRIVER:
    case ELF_PLAIN: break;   /* a script, a driver-API program, or any program: run it */
    }
    return 0;
}

/* A temporary file name for the library to create (path[n]); false if none. */
static bool temp_name(char *path, size_t n, const char *what)
{
    const char *td = getenv("TMPDIR");
    snprintf(path, n, "%s/tpsim-%s-XXXXXX", td && *td && strlen(td) < 32 ? td : "/tmp", what);
    int fd = mkstemp(path);
    if (fd < 0) {
        path[0] = '\0';
        return false;
    }
    close(fd);
    unlink(path);   /* the library creates it at exit */
    return true;
}

/* ---- the child and the signals ----------------------------------------------------------
** The program is tpsim's child and must never outlive it.  SIGTERM, SIGHUP,
** SIGINT and SIGQUIT sent to tpsim (kill PID, a job scheduler's end, a
** subprocess timeout) are forwarded to the program, and tpsim waits for it
** to end.  A terminal's Ctrl-C or Ctrl-\ reaches the whole process group,
** the program included, so those (si_code SI_KERNEL) are not sent twice.
** A signal ignored when tpsim started (nohup, a non-interactive shell's
** background job) stays ignored, by tpsim as by the program.
** SIGKILL cannot be caught: the child asks the kernel to kill it when its
** parent dies (PR_SET_PDEATHSIG), and checks that the parent had not already
** gone before it asked.  The statistics and summary files are written under
** a temporary name and renamed (api/stats.c), so a killed program leaves none
** half-written. */

static const int fwd_signals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT};
static volatile sig_atomic_t child_pid;

static void forward(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if ((sig == SIGINT || sig == SIGQUIT) && si && si->si_code == SI_KERNEL) return;
    if (child_pid > 0) kill((pid_t)child_pid, sig);
}

/* Starts the program; its pid, or -1. */
static pid_t start(const char *path, char **argv)
{
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t k = 0; k < TP_ARRAY_LEN(fwd_signals); k++) sigaddset(&block, fwd_signals[k]);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t parent = getpid();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(128 + SIGKILL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        execv(path, argv);
        fprintf(stderr, "tpsim run: cannot run %s: %s\n", path, strerror(errno));
        _exit(126);
    }
    if (pid > 0) {
        child_pid = pid;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = forward;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < TP_ARRAY_LEN(fwd_signals); k++) {
            struct sigaction was;
            /* a signal ignored on entry (nohup, a shell's background job)
            ** stays ignored, by tpsim and by the program it inherits that from */
            if (sigaction(fwd_signals[k], NULL, &was) == 0 && was.sa_handler == SIG_IGN) continue;
            sigaction(fwd_signals[k], &sa, NULL);
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return pid;
}

/* Waits for the program; its exit status as a shell gives it (128 + signal). */
static int wait_for(pid_t pid, const char *prog, bool quiet, bool *signalled)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    child_pid = 0;
    *signalled = WIFSIGNALED(status);
    if (*signalled) {
        if (!quiet)
            fprintf(stderr, "tpsim: %s was ended by signal %d (%s)\n", prog, WTERMSIG(status),
                    strsignal(WTERMSIG(status)));
        return 128 + WTERMSIG(status);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* The statistics file the program's library writes: --stats, else for
** --report TPSIM_STATS or a temporary file (its name in tmp); NULL: none. */
static const char *stats_file(const run_args *a, char *tmp, size_t n)
{
    if (a->stats) {
        setenv("TPSIM_STATS", a->stats, 1);
        return a->stats;
    }
    if (!a->report) return NULL;
    const char *env = getenv("TPSIM_STATS");
    if (env && *env) return env;
    if (!temp_name(tmp, n, "stats")) return NULL;
    setenv("TPSIM_STATS", tmp, 1);
    return tmp;
}

/* --report: the page of the statistics file; the exit status, rc or 1 when
** the program succeeded but no page could be made. */
static int write_report(const run_args *a, const char *stats, int rc)
{
    if (!stats || access(stats, R_OK) != 0) {
        fprintf(stderr, "tpsim run: no report: %s wrote no statistics (it made no CUDA calls or did not exit "
                        "normally)\n", a->prog_argv[0]);
        return rc ? rc : 1;
    }
    tp_sbuf label;
    tp_sbuf_init(&label);
    tp_sbuf_puts(&label, "tpsim run --");
    for (char **p = a->prog_argv; *p && label.len < 300; p++) tp_sbuf_printf(&label, " %s", *p);
    int r = rp_file("tpsim run", stats, a->report, tp_sbuf_str(&label));
    tp_sbuf_free(&label);
    return r && !rc ? 1 : rc;
}

static int run(run_args *a)
{
    if (a->mode && strcmp(a->mode, "functional") != 0 && strcmp(a->mode, "performance") != 0) {
        fprintf(stderr, "tpsim run: --mode must be functional or performance, not '%s'\n", a->mode);
        return 2;
    }
    if (a->report && !rp_writable("tpsim run", a->report)) return 2;
    if (!apply_settings(a)) return 2;
    const char *prog = a->prog_argv[0];
    char lib[PATH_MAX], path[PATH_MAX];
    elf_kind kind = ELF_OTHER;
    bool sanitized = false;
    int rc = check_program(prog, lib, sizeof lib, path, sizeof path, &kind, &sanitized);
    if (rc) return rc;

    /* the environment */
    const char *old = getenv("LD_LIBRARY_PATH");
    tp_sbuf ld;
    tp_sbuf_init(&ld);
    tp_sbuf_printf(&ld, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", tp_sbuf_str(&ld), 1);
    tp_sbuf_free(&ld);
#ifdef TP_SAN_PRELOAD
    /* a sanitizer build's libraries need the sanitizer runtime in a CUDA
    ** program that was not built with it */
    if ((kind == ELF_CUDART || kind == ELF_DRIVER) && !sanitized) {
        const char *pre = getenv("LD_PRELOAD");
        tp_sbuf p;
        tp_sbuf_init(&p);
        tp_sbuf_printf(&p, "%s%s%s", TP_SAN_PRELOAD, pre && *pre ? ":" : "", pre && *pre ? pre : "");
        setenv("LD_PRELOAD", tp_sbuf_str(&p), 1);
        tp_sbuf_free(&p);
    }
#else
    (void)sanitized;
#endif
    /* a statistics file named in the environment is kept, like --stats */
    char tmp_stats[64] = "";
    const char *stats = stats_file(a, tmp_stats, sizeof tmp_stats);
    /* the summary: written by the program's libcuda at exit */
    char tmp_sum[64], tmp_chk[64] = "";
    if (temp_name(tmp_sum, sizeof tmp_sum, "summary")) {
        setenv("TPSIM_SUMMARY", tmp_sum, 1);
        setenv("TPSIM_SUMMARY_KERNELS", a->quiet ? "0" : "1", 1);
    }
    /* --error-exitcode: the library writes its count of findings here */
    if (a->error_exitcode >= 0 && temp_name(tmp_chk, sizeof tmp_chk, "checks"))
        setenv("TPSIM_CHECK_RESULT", tmp_chk, 1);

    pid_t pid = start(path, a->prog_argv);
    if (pid < 0) {
        fprintf(stderr, "tpsim run: cannot start %s: %s\n", path, strerror(errno));
        return 126;
    }
    bool signalled;
    rc = wait_for(pid, prog, a->quiet, &signalled);
    if (!signalled && tmp_sum[0] && (!a->quiet || access(tmp_sum, R_OK) == 0)) summary(tmp_sum);
    if (tmp_sum[0]) unlink(tmp_sum);
    if (a->report) rc = write_report(a, stats, rc);
    if (tmp_stats[0]) unlink(tmp_stats);
    if (tmp_chk[0]) {
        if (check_result(tmp_chk) > 0) rc = (int)a->error_exitcode;
        unlink(tmp_chk);
    }
    return rc;
}

int cli_run(int argc, char **argv)
{
    run_args a;
    memset(&a, 0, sizeof a);
    a.error_exitcode = -1;
    tp_sbuf_init(&a.opts);
    int rc = parse_args(argc, argv, &a);
    if (rc == 0) rc = run(&a);
    else if (rc < 0) rc = 0;
    tp_sbuf_free(&a.opts);
    return rc;
}
