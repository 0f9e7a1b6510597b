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
            "  version             print the version\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "ptx") == 0) return cli_ptx(argc - 1, argv + 1);
    if (strcmp(cmd, "config") == 0) return cli_config(argc - 1, argv + 1);
    if (strcmp(cmd, "vec") == 0) return cli_vec(argc - 1, argv + 1);
    if (strcmp(cmd, "run") == 0) return cli_run(argc - 1, argv + 1);
    if (strcmp(cmd, "regmutex") == 0) return cli_regmutex(argc - 1, argv + 1);
    if (strcmp(cmd, "sweep") == 0) return cli_sweep(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0) return cli_plot(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("tpsim %s\n", TPSIM_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "tpsim: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
