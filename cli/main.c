/* main.c -- the tpsim command: dispatches to subcommands. */
#include "cli.h"
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tpsim COMMAND [ARGS]\n"
            "commands:\n"
            "  ptx FILE.ptx        parse a PTX module; print each kernel's parameters,\n"
            "                      registers, shared/local bytes and instruction count\n"
            "  config --list       print every option with its type, default and range\n"
            "  config --show NAME  print a configuration with every value resolved\n"
            "  stats --list        print every statistic a launch records: name, unit,\n"
            "                      how it sums across SMs and launches, description\n"
            "  regmutex FILE.ptx [--config NAME] [--ptx OUT]\n"
            "                      what the RegMutex pass does with each kernel: live\n"
            "                      registers, |Bs|, |Es|, sections, occupancy, regions\n"
            "  vec PROGRAM.s       run a VMIPS vector program (tpsim vec --help)\n"
            "  run [OPTIONS] -- PROGRAM [ARGS]\n"
            "                      run a CUDA program built with nvcc -cudart shared on\n"
            "                      the simulated GPU (tpsim run --help)\n"
            "  sweep FILE [-j N]   run a study: every point of a sweep file, one CSV and its\n"
            "                      figures, locally or on Slurm (tpsim sweep --help, docs/SWEEPS.md)\n"
            "  plot CSV --y COLUMN draw a sweep's CSV with gnuplot (tpsim plot --help)\n"
            "  report STATS.json -o FILE.html\n"
            "                      one self-contained HTML page of a run's statistics\n"
            "                      (tpsim report --help, docs/REPORT.md)\n"
            "  version             print the version\n");
}

static int version(int argc, char **argv)
{
    (void)argc, (void)argv;
    printf("tpsim %s\n", TPSIM_VERSION);
    return 0;
}

static int help(int argc, char **argv)
{
    (void)argc, (void)argv;
    usage(stdout);
    return 0;
}

/* The subcommands, by every name they answer to. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"ptx", cli_ptx},          {"config", cli_config},   {"vec", cli_vec},   {"run", cli_run},
    {"regmutex", cli_regmutex}, {"sweep", cli_sweep},     {"plot", cli_plot}, {"stats", cli_stats},
    {"report", cli_report},
    {"version", version},
    {"--version", version},     {"help", help},           {"--help", help},   {"-h", help},
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    for (size_t k = 0; k < TP_ARRAY_LEN(commands); k++)
        if (strcmp(argv[1], commands[k].name) == 0) return commands[k].run(argc - 1, argv + 1);
    fprintf(stderr, "tpsim: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
