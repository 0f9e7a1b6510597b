/* config.c -- `tpsim config`: the option table and resolved configurations.
**
**   tpsim config --list          every option (type, table default, range, doc),
**                                then the built-in configurations, the one a
**                                CUDA program gets without TPSIM_CONFIG marked
**   tpsim config --show NAME|FILE   a configuration resolved over the defaults
*/
#include "cli.h"
#include "../gpu/options.h"
#include "../base/builtin.h"
#include <stdio.h>
#include <string.h>

int cli_config(int argc, char **argv)
{
    tp_opts o;
    tp_sbuf b;
    tp_sbuf_init(&b);
    if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
        gpu_opts_init(&o);
        printf("# The defaults below are the option table's: the GTX 480 model (configs/gtx480.cfg),\n"
               "# whose device.cc is 7.5 rather than Fermi's 2.0 because nvcc 13 emits no PTX for\n"
               "# targets below sm_75 (Fermi's limits are kept: device.arch).\n"
               "# A CUDA program run without TPSIM_CONFIG gets the built-in configuration %s\n"
               "# over them: tpsim config --show %s\n\n",
               EXEC_DEFAULT_CONFIG, EXEC_DEFAULT_CONFIG);
        tp_opts_describe(&o, &b);
        fputs(tp_sbuf_str(&b), stdout);
        printf("\nbuilt-in configurations:");
        for (int i = 0; tp_builtin_config_name(i); i++) {
            const char *n = tp_builtin_config_name(i);
            printf(" %s%s", n, strcmp(n, EXEC_DEFAULT_CONFIG) == 0 ? " (the default)" : "");
        }
        printf("\n");
    } else if (argc >= 3 && strcmp(argv[1], "--show") == 0) {
        tp_err e;
        tp_err_clear(&e);
        gpu_opts_init(&o);
        if (!tp_opts_load_config(&o, argv[2], &e)) {
            fprintf(stderr, "tpsim: %s\n", e.msg);
            tp_opts_free(&o);
            return 1;
        }
        tp_opts_dump(&o, &b);
        fputs(tp_sbuf_str(&b), stdout);
    } else {
        fprintf(stderr, "usage: tpsim config --list | --show NAME|FILE\n");
        return 2;
    }
    tp_sbuf_free(&b);
    tp_opts_free(&o);
    return 0;
}
