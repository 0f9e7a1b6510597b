/* run.c -- `tpsim run`: runs an unmodified CUDA program on the simulator.
**
**   tpsim run [--config NAME|FILE] [--mode functional|performance]
**             [--stats FILE] [-o KEY=VALUE]... [--no-summary]
**             [--check race|intrawarp|init|sync|all[,...]] [--error-exitcode N]
**             -- PROGRAM [ARGS...]
**
** The program runs as a child process with tpsim's libcuda.so.1 and
** libcudart.so.13 found first: LD_LIBRARY_PATH starts with the lib
** directory next to the tpsim binary (<bindir>/../lib).  The settings reach
** the libraries through the environment (TPSIM_CONFIG, TPSIM_MODE,
** TPSIM_STATS, TPSIM_OPTIONS="key=value ..." from the -o options, after any
** TPSIM_OPTIONS already set, so that -o wins).  The program keeps tpsim's
** stdin, stdout and stderr; tpsim exits with its status (128 + the signal
** number if a signal ended it).  At the end tpsim prints on stderr the
** summary the program's libcuda.so.1 wrote at exit (TPSIM_SUMMARY, a
** temporary file; api/stats.c makes it from the statistics registry): a
** per-kernel table -- launches, warp and thread instructions, and in
** performance mode cycles and IPC -- (not with --no-summary), then every
** CUDA call that returned an error to the program: entry point, kernel,
** calling library, error, how many times, and why in words (always: no
** failure goes unreported).  --stats FILE (or TPSIM_STATS) keeps the JSON
** statistics.
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
** Before starting the program tpsim checks what it can and says what to do:
** the libraries must have been built (make), the program must exist and be
** executable, and an ELF program that carries CUDA device code must load
** the CUDA runtime as a shared library (nvcc's default links NVIDIA's
** runtime statically, which tpsim cannot replace: -cudart shared).
*/
#include "cli.h"
#include "../base/sbuf.h"
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void run_usage(FILE *f)
{
    fprintf(f,
            "usage: tpsim run [OPTIONS] -- PROGRAM [ARGS...]\n"
            "runs a CUDA program (built with nvcc -cudart shared) on the simulated GPU\n"
            "  --config NAME|FILE   a built-in configuration (tpsim config --list) or a file\n"
            "  --mode MODE          functional (default) or performance\n"
            "  --stats FILE         write the statistics (JSON) to FILE\n"
            "  -o KEY=VALUE         set an option (repeatable), e.g. -o device.num_sms=30\n"
            "  --no-summary         do not print the per-kernel summary at exit (failed CUDA calls are\n"
            "                       still listed)\n"
            "  --check KIND[,KIND]  correctness checks: race, intrawarp, init, sync, all (race,init,sync)\n"
            "  --error-exitcode N   exit with N if a check found anything\n");
}

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
** from its statistics registry; here it is only printed. */

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
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        const char *set;
        if (strcmp(w, "race") == 0) set = "check.race=1";
        else if (strcmp(w, "intrawarp") == 0 || strcmp(w, "race_intrawarp") == 0) set = "check.race=1 check.race_intrawarp=1";
        else if (strcmp(w, "init") == 0) set = "check.init=1";
        else if (strcmp(w, "sync") == 0) set = "check.sync=1";
        else if (strcmp(w, "all") == 0) set = "check.race=1 check.init=1 check.sync=1";
        else {
            fprintf(stderr, "tpsim run: --check takes race, intrawarp, init, sync or all (comma-separated), not '%s'\n", w);
            return false;
        }
        tp_sbuf_printf(opts, "%s%s", opts->len ? " " : "", set);
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

int cli_run(int argc, char **argv)
{
    const char *config = NULL, *mode = NULL, *stats = NULL;
    bool quiet = false;
    long error_exitcode = -1;
    tp_sbuf opts;
    tp_sbuf_init(&opts);
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strcmp(a, "--config") == 0 && has_val) {
            config = argv[++i];
        } else if (strcmp(a, "--mode") == 0 && has_val) {
            mode = argv[++i];
            if (strcmp(mode, "functional") != 0 && strcmp(mode, "performance") != 0) {
                fprintf(stderr, "tpsim run: --mode must be functional or performance, not '%s'\n", mode);
                tp_sbuf_free(&opts);
                return 2;
            }
        } else if (strcmp(a, "--stats") == 0 && has_val) {
            stats = argv[++i];
        } else if (strcmp(a, "-o") == 0 && has_val) {
            const char *kv = argv[++i];
            if (!strchr(kv, '=') || kv[0] == '=' || strchr(kv, ' ')) {
                fprintf(stderr, "tpsim run: -o takes KEY=VALUE (no spaces), not '%s'\n", kv);
                tp_sbuf_free(&opts);
                return 2;
            }
            tp_sbuf_printf(&opts, "%s%s", opts.len ? " " : "", kv);
        } else if (strcmp(a, "--no-summary") == 0) {
            quiet = true;
        } else if (strcmp(a, "--check") == 0 && has_val) {
            if (!add_checks(argv[++i], &opts)) {
                tp_sbuf_free(&opts);
                return 2;
            }
        } else if (strcmp(a, "--error-exitcode") == 0 && has_val) {
            char *end;
            error_exitcode = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || error_exitcode < 0 || error_exitcode > 255) {
                fprintf(stderr, "tpsim run: --error-exitcode takes a number from 0 to 255, not '%s'\n", argv[i]);
                tp_sbuf_free(&opts);
                return 2;
            }
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            run_usage(stdout);
            tp_sbuf_free(&opts);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "tpsim run: unknown option '%s'%s\n", a, has_val ? "" : " (or a missing value)");
            run_usage(stderr);
            tp_sbuf_free(&opts);
            return 2;
        } else {
            break;   /* the program, without "--" */
        }
    }
    if (i >= argc) {
        fprintf(stderr, "tpsim run: no program given\n");
        run_usage(stderr);
        tp_sbuf_free(&opts);
        return 2;
    }
    char **prog_argv = argv + i;
    const char *prog = prog_argv[0];

    /* the libraries */
    char lib[PATH_MAX];
    char cuda[PATH_MAX + 32], cudart[PATH_MAX + 32];
    bool have_dir = lib_dir(lib, sizeof lib);
    snprintf(cuda, sizeof cuda, "%s/libcuda.so.1", lib);
    snprintf(cudart, sizeof cudart, "%s/libcudart.so.13", lib);
    if (!have_dir || !is_file(cuda) || !is_file(cudart)) {
        fprintf(stderr,
                "tpsim run: tpsim's CUDA libraries (libcuda.so.1, libcudart.so.13) are not in %s; "
                "build them with `make` (they go next to bin/tpsim, in the build's lib/)\n",
                lib);
        tp_sbuf_free(&opts);
        return 127;
    }

    /* the program */
    char path[PATH_MAX];
    if (!find_program(prog, path, sizeof path)) {
        fprintf(stderr, "tpsim run: %s: no such program%s\n", prog,
                strchr(prog, '/') ? "" : " in PATH (give a path, e.g. ./prog)");
        tp_sbuf_free(&opts);
        return 127;
    }
    if (!is_file(path) || access(path, X_OK) != 0) {
        fprintf(stderr, "tpsim run: %s: not an executable file\n", path);
        tp_sbuf_free(&opts);
        return 126;
    }
    char need[64];
    bool sanitized;
    elf_kind kind = elf_check(path, need, sizeof need, &sanitized);
    switch (kind) {
    case ELF_STATIC:
        fprintf(stderr,
                "tpsim run: %s is statically linked, so it cannot load tpsim's CUDA libraries: "
                "build it as a dynamically linked program with nvcc -cudart shared\n",
                path);
        tp_sbuf_free(&opts);
        return 126;
    case ELF_STATIC_CUDART:
        fprintf(stderr,
                "tpsim run: %s contains NVIDIA's CUDA runtime linked statically (nvcc's default, "
                "-cudart static), which tpsim cannot replace: rebuild it with `nvcc -cudart shared ...`\n",
                path);
        tp_sbuf_free(&opts);
        return 126;
    case ELF_CUDART:
        if (strcmp(need, "libcudart.so.13") != 0) {
            fprintf(stderr,
                    "tpsim run: %s needs %s, but tpsim provides CUDA 13's runtime (libcudart.so.13): "
                    "rebuild it with CUDA 13's nvcc -cudart shared\n",
                    path, need);
            tp_sbuf_free(&opts);
            return 126;
        }
        break;
    case ELF_OTHER:
    case ELF_DRIVER:
    case ELF_PLAIN: break;   /* a script, a driver-API program, or any program: run it */
    }

    /* the environment */
    const char *old = getenv("LD_LIBRARY_PATH");
    tp_sbuf ld;
    tp_sbuf_init(&ld);
    tp_sbuf_printf(&ld, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", tp_sbuf_str(&ld), 1);
    tp_sbuf_free(&ld);
    if (config) setenv("TPSIM_CONFIG", config, 1);
    if (mode) setenv("TPSIM_MODE", mode, 1);
    if (opts.len) {
        const char *prev = getenv("TPSIM_OPTIONS");
        tp_sbuf all;
        tp_sbuf_init(&all);
        tp_sbuf_printf(&all, "%s%s%s", prev && *prev ? prev : "", prev && *prev ? " " : "", tp_sbuf_str(&opts));
        setenv("TPSIM_OPTIONS", tp_sbuf_str(&all), 1);
        tp_sbuf_free(&all);
    }
    tp_sbuf_free(&opts);
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
#endif
    /* a statistics file named in the environment is kept, like --stats */
    char *env_stats = getenv("TPSIM_STATS") && *getenv("TPSIM_STATS") ? tp_strdup(getenv("TPSIM_STATS")) : NULL;
    if (!stats) stats = env_stats;
    if (stats) setenv("TPSIM_STATS", stats, 1);
    /* the summary: written by the program's libcuda at exit */
    char tmp_sum[64] = "";
    const char *td = getenv("TMPDIR");
    snprintf(tmp_sum, sizeof tmp_sum, "%s/tpsim-summary-XXXXXX", td && *td && strlen(td) < 32 ? td : "/tmp");
    int fd = mkstemp(tmp_sum);
    if (fd >= 0) {
        close(fd);
        unlink(tmp_sum);   /* the library creates it at exit */
        setenv("TPSIM_SUMMARY", tmp_sum, 1);
        setenv("TPSIM_SUMMARY_KERNELS", quiet ? "0" : "1", 1);
    } else {
        tmp_sum[0] = '\0';
    }
    /* --error-exitcode: the library writes its count of findings here */
    char tmp_chk[64] = "";
    if (error_exitcode >= 0) {
        snprintf(tmp_chk, sizeof tmp_chk, "%s/tpsim-checks-XXXXXX", td && *td && strlen(td) < 32 ? td : "/tmp");
        int cfd = mkstemp(tmp_chk);
        if (cfd >= 0) {
            close(cfd);
            unlink(tmp_chk);
            setenv("TPSIM_CHECK_RESULT", tmp_chk, 1);
        } else {
            tmp_chk[0] = '\0';
        }
    }

    /* run it; a terminal's Ctrl-C goes to the program, which decides */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "tpsim run: cannot start %s: %s\n", path, strerror(errno));
        return 126;
    }
    if (pid == 0) {
        execv(path, prog_argv);
        fprintf(stderr, "tpsim run: cannot run %s: %s\n", path, strerror(errno));
        _exit(126);
    }
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
    if (WIFSIGNALED(status)) {
        if (!quiet)
            fprintf(stderr, "tpsim: %s was ended by signal %d (%s)\n", prog, WTERMSIG(status),
                    strsignal(WTERMSIG(status)));
    } else if (tmp_sum[0]) {
        if (!quiet || access(tmp_sum, R_OK) == 0) summary(tmp_sum);
    }
    if (tmp_sum[0]) unlink(tmp_sum);
    if (tmp_chk[0]) {
        if (check_result(tmp_chk) > 0) rc = (int)error_exitcode;
        unlink(tmp_chk);
    }
    free(env_stats);
    return rc;
}
