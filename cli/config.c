/* config.c -- `tpsim config`: the option table and resolved configurations.
**
**   tpsim config --list          every option (type, table default, range, doc),
**                                then the built-in configurations, the one a
**                                CUDA program gets without TPSIM_CONFIG marked
**   tpsim config --show NAME|FILE   a configuration resolved over the defaults
*/
#include "cli.h"
#include "args.h"
#include "../gpu/options.h"
#include "../base/builtin.h"
#include <stdio.h>
#include <string.h>

enum { CONFIG_LIST = CLI_HELP + 1, CONFIG_SHOW };

static const cli_opt config_opts[] = {
    {CONFIG_LIST, "--list", NULL, NULL, "every option (type, table default, range, doc), then the built-in\nconfigurations"},
    {CONFIG_SHOW, "--show", NULL, "NAME|FILE", "a configuration resolved over the defaults"},
};

static const cli_cmd config_cmd = {
    "tpsim config", "usage: tpsim config --list | --show NAME|FILE\n", NULL, CLI_OPTS(config_opts),
    CLI_TERSE,
};

static void list(void)
{
    tp_opts o;
    tp_sbuf b;
    tp_sbuf_init(&b);
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
    tp_sbuf_free(&b);
    tp_opts_free(&o);
}

static int show(const char *name)
{
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    gpu_opts_init(&o);
    if (!tp_opts_load_config(&o, name, &e)) {
        fprintf(stderr, "tpsim: %s\n", e.msg);
        tp_opts_free(&o);
        return 1;
    }
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_opts_dump(&o, &b);
    fputs(tp_sbuf_str(&b), stdout);
    tp_sbuf_free(&b);
    tp_opts_free(&o);
    return 0;
}

/* The first option decides; what follows it is not read. */
int cli_config(int argc, char **argv)
{
    cli_args it;
    cli_args_init(&it, &config_cmd, argc, argv);
    switch (cli_next(&it)) {
    case CLI_EXIT: return it.status;
    case CONFIG_LIST: list(); return 0;
    case CONFIG_SHOW: return show(it.val);
    default: return cli_usage_error(&config_cmd);
    }
}
