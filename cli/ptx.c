/* ptx.c -- `tpsim ptx FILE.ptx`: inspect a PTX module. */
#include "cli.h"
#include "../ptx/ptx.h"
#include <stdio.h>
#include <stdlib.h>

int cli_ptx(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tpsim ptx FILE.ptx\n");
        return 2;
    }
    fprintf(stderr, "tpsim ptx: the PTX parser is not built yet\n");
    return 1;
}
