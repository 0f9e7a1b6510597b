/* cli.h -- subcommands of the tpsim command. */
#ifndef CLI_H
#define CLI_H
#include "../base/tp.h"
int cli_ptx(int argc, char **argv);
int cli_config(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_vec(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_regmutex(int argc, char **argv);
/* The whole text file (malloc'd), or NULL after printing "CMD: why" on
** stderr (base/file.h: missing, a directory, binary data). */
char *cli_read_file(const char *cmd, const char *path, size_t *len);
int cli_sweep(int argc, char **argv);
int cli_plot(int argc, char **argv);
int cli_report(int argc, char **argv);
#endif
