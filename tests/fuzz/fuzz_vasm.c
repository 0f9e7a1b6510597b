/* fuzz_vasm.c -- libFuzzer target for the VMIPS assembler (vector/asm*.c):
** any bytes either assemble or fail with a "fuzz.s:..." error.  A program
** that assembles is then run (bounded by max_insns) under both timing
** models with a trace, a table and an SVG, on a small machine with banks,
** lanes and chaining (the pipelined run on one without 8-bit elements, so
** MTC1 VPW meets a forbidden width too): faults must be reported, never
** crash, hang or leak.  The seeds include examples/vector/media, whose
** programs use VPW, the integer vector instructions and the packed ones.
**   make fuzz BUILD=build-fuzz && sh tests/fuzz/run.sh build-fuzz 60 */
#include "vector/vec.h"
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vec_asm_cfg cfg = {8, NULL, 0, 1 << 16, true}; /* no .include: errors stay in fuzz.s */
    vec_prog p;
    tp_err e;
    tp_err_clear(&e);
    if (!vec_asm(&p, (const char *)data, size, "fuzz.s", &cfg, &e)) {
        if (!e.code || strncmp(e.msg, "fuzz.s", 6) != 0) abort(); /* failures must say where */
        return 0;
    }
    for (uint32_t i = 0; i < p.ninsn; i++)
        if (p.insn[i].op >= VEC_NOPS || !p.insn[i].text || p.insn[i].nsrc > 4) abort();
    static const char *machines[2] = {
        "mvl=16 max_insns=3000 mem_size=4k mem_banks=4 bank_busy=3 lanes=2 chaining=1 lsu_count=2",
        "mvl=16 max_insns=3000 mem_size=4k mem_banks=4 bank_busy=3 lanes=3 chaining=1 lsu_count=2 vpw.8=0 "
        "scalar.lat_media=1",
    };
    for (int timing = 0; timing < 2; timing++) {
        tp_opts o;
        vec_opts_init(&o);
        tp_err_clear(&e);
        if (!tp_opts_set_list(&o, machines[timing], TP_SRC_OVERRIDE, &e)) abort();
        vec_run r;
        tp_err_clear(&e);
        if (!vec_run_program(&r, &p, &o, timing, 64, &e)) {
            if (!e.code || strncmp(e.msg, "fuzz.s", 6) != 0) abort();
        } else {
            tp_sbuf b;
            tp_sbuf_init(&b);
            vec_trace_table(&r, &b);
            vec_trace_svg(&r, &b);
            tp_stats_text(&r.stats, &b);
            tp_sbuf_free(&b);
            if (!tp_stats_find(&r.stats, "cycles")) abort();
        }
        vec_run_free(&r);
        tp_opts_free(&o);
    }
    vec_prog_free(&p);
    return 0;
}
