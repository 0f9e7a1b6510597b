/* test_vec_asm.c -- the VMIPS assembler: every operand form, the syntax
** conveniences, directives and data layout, and errors with their exact
** file:line:col (vector/asm.h is the specification). */
#include "tests/unit/vec_helpers.h"
#include <sys/stat.h>
#include <unistd.h>

static vec_prog P;
static tp_err E;

static bool as(const char *text) { return vt_asm(&P, text, 8, NULL, 0, &E); }

static void t_scalar_forms(void)
{
    TT_CHECK(as("DADDU R1,R2,R3\n"
                "DADDU R1,R2,#-5\n"
                "DADDUI R4,R5,#12\n"
                "DADDIU R4,R5,7\n"
                "DSLL R6,R7,#3\n"
                "LD R8,16(R9)\n"
                "SD R8,(R9)\n"
                "L.D F1,-8(R2)\n"
                "S.D F31,0(R31)\n"
                "ADD.D F1,F2,F3\n"
                "DIV.D F4,F5,F6\n"
                "SLT R1,R2,#100\n"));
    TT_EQ_U(P.ninsn, 12);
    const vec_insn *in = P.insn;
    TT_EQ_U(in[0].op, VEC_OP_DADDU);
    TT_EQ_U(in[0].d, 1); TT_EQ_U(in[0].a, 2); TT_EQ_U(in[0].b, 3); TT_EQ_U(in[0].alt, 0);
    TT_EQ_U(in[1].alt, 1); TT_EQ_I(in[1].imm, -5);
    TT_EQ_U(in[2].op, VEC_OP_DADDUI); TT_EQ_I(in[2].imm, 12); TT_EQ_U(in[2].d, 4); TT_EQ_U(in[2].a, 5);
    TT_EQ_U(in[3].op, VEC_OP_DADDUI); TT_EQ_I(in[3].imm, 7); /* DADDIU, no '#' */
    TT_EQ_U(in[4].alt, 1); TT_EQ_I(in[4].imm, 3);
    TT_EQ_U(in[5].op, VEC_OP_LD); TT_EQ_U(in[5].d, 8); TT_EQ_U(in[5].a, 9); TT_EQ_I(in[5].imm, 16);
    TT_EQ_U(in[6].op, VEC_OP_SD); TT_EQ_I(in[6].imm, 0); TT_EQ_U(in[6].a, 9);
    TT_EQ_U(in[7].op, VEC_OP_LDF); TT_EQ_I(in[7].imm, -8); TT_EQ_U(in[7].d, 1);
    TT_EQ_U(in[8].d, 31); TT_EQ_U(in[8].a, 31);
    TT_EQ_U(in[9].op, VEC_OP_ADDD); TT_EQ_U(in[9].b, 3);
    TT_EQ_U(in[11].op, VEC_OP_SLT); TT_EQ_I(in[11].imm, 100);
    /* dependencies: SD reads R9 and R8, writes nothing */
    TT_EQ_U(in[6].nsrc, 2); TT_EQ_U(in[6].dst.kind, VEC_RK_NONE);
    TT_EQ_U(in[7].dst.kind, VEC_RK_F); TT_EQ_U(in[7].dst.num, 1);
    vec_prog_free(&P);
}

static void t_vector_forms(void)
{
    TT_CHECK(as("LV V1,R1\n"
                "SV R2,V3\n"
                "LVWS V1,(R1,R2)\n"
                "SVWS (R3,R4),V5\n"
                "LVI V1,(R1+V2)\n"
                "SVI (R3+V4),V5\n"
                "CVI V1,R1\n"
                "CVI V2,#8\n"
                "MULVS.D V1,V2,F0\n"
                "SUBSV.D V1,F0,V2\n"
                "SNEVS.D V1,F0\n"
                "SLEV.D V1,V2\n"
                "MTC1 VLR,R1\n"
                "MFC1 R1,VLR\n"
                "MVTM VM,F0\n"
                "MVFM F0,VM\n"
                "POP R1,VM\n"
                "CVM\n"
                "LV V1,8(R1)\n"
                "LV V1,(R1)\n"));
    const vec_insn *in = P.insn;
    TT_EQ_U(P.ninsn, 20);
    TT_EQ_U(in[0].op, VEC_OP_LV); TT_EQ_U(in[0].d, 1); TT_EQ_U(in[0].a, 1); TT_EQ_I(in[0].imm, 0);
    TT_EQ_U(in[1].op, VEC_OP_SV); TT_EQ_U(in[1].a, 2); TT_EQ_U(in[1].d, 3);
    TT_EQ_U(in[2].op, VEC_OP_LVWS); TT_EQ_U(in[2].a, 1); TT_EQ_U(in[2].b, 2);
    TT_EQ_U(in[3].op, VEC_OP_SVWS); TT_EQ_U(in[3].a, 3); TT_EQ_U(in[3].b, 4); TT_EQ_U(in[3].d, 5);
    TT_EQ_U(in[4].op, VEC_OP_LVI); TT_EQ_U(in[4].b, 2);
    TT_EQ_U(in[5].op, VEC_OP_SVI); TT_EQ_U(in[5].a, 3); TT_EQ_U(in[5].b, 4); TT_EQ_U(in[5].d, 5);
    TT_EQ_U(in[6].alt, 0); TT_EQ_U(in[6].a, 1);
    TT_EQ_U(in[7].alt, 1); TT_EQ_I(in[7].imm, 8);
    TT_EQ_U(in[8].op, VEC_OP_MULVS); TT_EQ_U(in[8].a, 2); TT_EQ_U(in[8].b, 0);
    TT_EQ_U(in[9].op, VEC_OP_SUBSV); TT_EQ_U(in[9].a, 0); TT_EQ_U(in[9].b, 2);
    TT_EQ_U(in[10].op, VEC_OP_SNEVS); TT_EQ_U(in[10].dst.kind, VEC_RK_VM);
    TT_EQ_U(in[11].op, VEC_OP_SLEV);
    TT_EQ_U(in[12].op, VEC_OP_MTC1); TT_EQ_U(in[12].dst.kind, VEC_RK_VLR);
    TT_EQ_U(in[14].dst.kind, VEC_RK_VM); TT_EQ_U(in[17].dst.kind, VEC_RK_VM);
    TT_EQ_I(in[18].imm, 8); TT_EQ_U(in[19].a, 1);
    /* SVI reads R3, V4, V5 and (masked) VM */
    TT_EQ_U(in[5].nsrc, 4); TT_EQ_U(in[5].src[3].kind, VEC_RK_VM);
    /* compares are not masked: they read V1, F0 only */
    TT_EQ_U(in[10].nsrc, 2);
    vec_prog_free(&P);
}

static void t_conveniences(void)
{
    TT_CHECK(as("ADDV V1,V2,V3\n"      /* .D added */
                "MULV.D V2,F0,V1\n"     /* the lecture's MULV V2,F0,V1 */
                "SUBV.D V1,V2,F3\n"
                "SUBV.D V1,F3,V2\n"
                "ADDVS.D V1,F2,V3\n"    /* commutes */
                "DIVV V1,F1,V2\n"
                "SNEV.D V1,F0\n"
                "mulvs.d v1,v2,f0\n"));
    const vec_insn *in = P.insn;
    TT_EQ_U(in[0].op, VEC_OP_ADDV);
    TT_EQ_U(in[1].op, VEC_OP_MULVS); TT_EQ_U(in[1].d, 2); TT_EQ_U(in[1].a, 1); TT_EQ_U(in[1].b, 0);
    TT_EQ_U(in[2].op, VEC_OP_SUBVS); TT_EQ_U(in[2].a, 2); TT_EQ_U(in[2].b, 3);
    TT_EQ_U(in[3].op, VEC_OP_SUBSV); TT_EQ_U(in[3].a, 3); TT_EQ_U(in[3].b, 2);
    TT_EQ_U(in[4].op, VEC_OP_ADDVS); TT_EQ_U(in[4].a, 3); TT_EQ_U(in[4].b, 2);
    TT_EQ_U(in[5].op, VEC_OP_DIVSV);
    TT_EQ_U(in[6].op, VEC_OP_SNEVS);
    TT_EQ_U(in[7].op, VEC_OP_MULVS);
    vec_prog_free(&P);
}

static void t_comments(void)
{
    TT_CHECK(as("# a comment line\n"
                "   ; another\n"
                "DADDUI R1,R0, #8 # an immediate, then a comment\n"
                "LV V1,R1 #load x\n"
                "CVM #reset the mask\n"
                "DADDUI R2,R0,#3;c\n"
                "loop: # a label alone\n"
                "DSUBU R2,R2,#1 ; count down\n"
                "BNEZ R2,loop\n"));
    TT_EQ_U(P.ninsn, 6);
    TT_EQ_I(P.insn[0].imm, 8);
    TT_EQ_U(P.insn[2].op, VEC_OP_CVM);
    TT_EQ_I(P.insn[3].imm, 3);
    TT_EQ_I(P.insn[5].imm, 4); /* loop: is pc 4 */
    TT_EQ_STR(P.insn[0].text, "DADDUI R1,R0, #8");
    TT_EQ_STR(P.insn[1].text, "LV V1,R1");
    vec_prog_free(&P);
}

static void t_data(void)
{
    TT_CHECK(as(".data\n"
                "a: .double 1.5, -2, 3e2\n"
                "b: .word c, 7, -1, 0x10\n"
                "   .space 3\n"
                "   .align 3\n"
                "c: .double 0.1\n"
                "end:\n"
                ".text\n"
                "L.D F0,a+8\n"
                "DADDUI R1,R0,#end-a\n"));
    TT_EQ_I(vt_equ(&P, "a"), 0);
    TT_EQ_I(vt_equ(&P, "b"), 24);
    TT_EQ_I(vt_equ(&P, "c"), 64); /* 24 + 32 + 3, aligned to 8 */
    TT_EQ_I(vt_equ(&P, "end"), 72);
    TT_EQ_U(P.data_size, 72);
    TT_CHECK(vt_init(&P, "a", 0) == 1.5 && vt_init(&P, "a", 1) == -2.0 && vt_init(&P, "a", 2) == 300.0);
    TT_CHECK(vt_init(&P, "c", 0) == 0.1);
    TT_EQ_I(vt_init_word(&P, "b", 0), 64); /* a forward reference */
    TT_EQ_I(vt_init_word(&P, "b", 2), -1);
    TT_EQ_I(vt_init_word(&P, "b", 3), 16);
    TT_EQ_U(P.data[24], 64); TT_EQ_U(P.data[25], 0); /* little-endian */
    TT_EQ_U(P.data[56], 0); TT_EQ_U(P.data[58], 0); /* .space and padding are zero */
    TT_EQ_I(P.insn[0].imm, 8); TT_EQ_U(P.insn[0].a, 0);
    TT_EQ_I(P.insn[1].imm, 72);
    vec_prog_free(&P);
}

static void t_equ(void)
{
    TT_CHECK(as(".equ N, 2+3*4\n"
                ".equ M, (N-4)*2\n"
                ".equ Rx, R7\n"
                ".equ K 5\n"
                ".data\n"
                "x: .space N*8\n"
                ".text\n"
                "LV V1,Rx\n"
                "DADDUI Rx,R0,#x+N*8\n"
                "DADDUI R1,R0,#-M\n"));
    TT_EQ_I(vt_equ(&P, "N"), 14);
    TT_EQ_I(vt_equ(&P, "M"), 20);
    TT_EQ_I(vt_equ(&P, "K"), 5);
    TT_EQ_U(P.data_size, 112);
    TT_EQ_U(P.insn[0].a, 7);
    TT_EQ_U(P.insn[1].d, 7); TT_EQ_I(P.insn[1].imm, 112);
    TT_EQ_I(P.insn[2].imm, -20);
    vec_prog_free(&P);
    /* --set replaces the value where the .equ stands */
    vec_equ_set set[] = {{"N", 3}};
    TT_CHECK(vt_asm(&P, ".equ N, 64\n.equ M, N*8\n.data\nx: .space M\n", 8, set, 1, &E));
    TT_EQ_I(vt_equ(&P, "N"), 3); TT_EQ_I(vt_equ(&P, "M"), 24); TT_EQ_U(P.data_size, 24);
    vec_prog_free(&P);
    vec_equ_set bad[] = {{"Q", 1}};
    TT_CHECK(!vt_asm(&P, ".equ N, 64\n", 8, bad, 1, &E));
    TT_EQ_STR(E.msg, "t.s: --set Q: the program has no .equ named 'Q'");
    vec_equ_set reg[] = {{"Rx", 1}};
    TT_CHECK(!vt_asm(&P, ".equ Rx, R1\n", 8, reg, 1, &E));
    TT_EQ_STR(E.msg, "t.s:1:6: --set Rx: 'Rx' names a register, not a value");
}

static void t_branches(void)
{
    TT_CHECK(as("   J end\n"
                "top: BEQZ R1,top\n"
                "   BNE R1,R2,end\n"
                "end: BEQ R0,R0,top\n"));
    TT_EQ_I(P.insn[0].imm, 3);
    TT_EQ_I(P.insn[1].imm, 1);
    TT_EQ_I(P.insn[2].imm, 3); TT_EQ_U(P.insn[2].b, 2);
    TT_EQ_I(P.insn[3].imm, 1);
    TT_EQ_U(P.insn[0].line, 1); TT_EQ_U(P.insn[0].col, 4);
    TT_EQ_U(P.insn[3].line, 4); TT_EQ_U(P.insn[3].col, 6);
    vec_prog_free(&P);
}

static void t_vregs(void)
{
    TT_CHECK(vt_asm(&P, "ADDV.D V31,V30,V0\n", 32, NULL, 0, &E));
    vec_prog_free(&P);
    TT_EQ_STR(vt_asm_err("ADDV.D V1,V2,V8\n"), "t.s:1:14: V8 does not exist: the machine has 8 vector registers (V0-V7)");
    /* the machine checks the program against its own vregs too */
    TT_CHECK(vt_asm(&P, "nop\n  LV V12,R1\n", 32, NULL, 0, &E));
    tp_opts o;
    vt_opts(&o, NULL);
    vec_run r;
    TT_CHECK(!vec_run_program(&r, &P, &o, -1, 0, &E));
    TT_EQ_STR(E.msg, "t.s:2:3: V12 does not exist: the machine has 8 vector registers (V0-V7)");
    vec_run_free(&r);
    tp_opts_free(&o);
    vec_prog_free(&P);
}

/* Each bad line, and the exact message it must give. */
static void t_errors(void)
{
    static const struct { const char *src, *msg; } cases[] = {
        {"  FOO R1\n", "t.s:1:3: unknown instruction 'FOO'"},
        {"ADDV.D V1,V2\n", "t.s:1:13: missing operand: expected ','"},
        {"ADDV.D V1 V2,V3\n", "t.s:1:11: expected ',' before 'V2'"},
        {"DADDU R1,R2,R3 R4\n", "t.s:1:16: unexpected 'R4' after the operands"},
        {"CVM R1\n", "t.s:1:5: unexpected 'R1' after the operands"},
        {"LV V1\n", "t.s:1:6: missing operand: expected ','"},
        {"LV\n", "t.s:1:3: LV needs operands"},
        {"J nowhere\n", "t.s:1:3: undefined label 'nowhere'"},
        {"x: NOP\nx: NOP\n", "t.s:2:1: 'x' is already defined at line 1"},
        {"R1: NOP\n", "t.s:1:1: 'R1' is a register name; it cannot name a label"},
        {".double 1.0\n", "t.s:1:1: .double belongs in .data (this is .text)"},
        {".data\nNOP\n", "t.s:2:1: instructions belong in .text (this is .data)"},
        {".data\n .double 1.5x\n", "t.s:2:10: expected a number (integer or decimal), got '1.5x'"},
        {".data\n .double 1, , 2\n", "t.s:2:13: expected a number (integer or decimal), got ','"},
        {"DADDUI R1,R0,#12ab\n", "t.s:1:15: bad number '12ab'"},
        {"DADDUI R1,R0,#99999999999999999999\n", "t.s:1:15: number '99999999999999999999' does not fit in 64 bits"},
        {"DADDUI R1,R0,#9223372036854775807+1\n", "t.s:1:34: arithmetic overflow"},
        {"DADDUI R1,R0,#q\n", "t.s:1:15: undefined name 'q'"},
        {"DADDUI R1,R0,# 4\n", "t.s:1:14: expected a value after '#'"},
        {"DADDUI R1,R0,#R2\n", "t.s:1:15: 'R2' is a register; a value is expected here"},
        {"top: DADDUI R1,R0,#top\n", "t.s:1:20: 'top' is a code label; only data labels and .equ constants have values"},
        {".data\n .space N\n.equ N, 8\n", "t.s:2:9: 'N' is not defined above this line (.space uses names defined before it)"},
        {".data\n .space -8\n", "t.s:2:9: .space needs a size >= 0, got -8"},
        {".data\n .align 17\n", "t.s:2:9: .align takes 0..16 (a power of two of bytes), got 17"},
        {".bogus\n", "t.s:1:1: unknown directive '.bogus'"},
        {"DSLL R1,R2,#64\n", "t.s:1:12: shift amount 64 is outside 0..63"},
        {"LV V1,#5\n", "t.s:1:7: a memory operand is a label or off(Rn), not an immediate"},
        {"LD R1,8(F2)\n", "t.s:1:9: expected an integer register (R0-R31), got 'F2)'"},
        {"ADD.D F1,F2,R3\n", "t.s:1:13: expected an FP register (F0-F31), got 'R3'"},
        {"LVWS V1,(R1+R2)\n", "t.s:1:12: expected ',' before '+R2)'"},
        {"LVI V1,(R1,V2)\n", "t.s:1:11: expected '+', got ',V2)'"},
        {"SUBVS.D V1,F0,V2\n", "t.s:1:12: SUBVS.D computes Vs op Fs: write Vd,Vs,Fs (or use SUBSV.D)"},
        {"ADDVS.D V1,V2,V3\n", "t.s:1:15: ADDVS.D takes a scalar F register here (ADDV.D operates on two vectors)"},
        {"MULV.D V1,F1,F2\n", "t.s:1:14: MULV.D needs a vector operand"},
        {"SEQVS.D V1,V2\n", "t.s:1:12: SEQVS.D compares with a scalar: expected an FP register (F0-F31)"},
        {"MTC1 R1,VLR\n", "t.s:1:6: expected VLR or VPW, got 'R1'"},
        {"POP R1,V1\n", "t.s:1:8: expected VM, got 'V1'"},
        {"DADDU R32,R1,R2\n", "t.s:1:7: no register 'R32' (R0-R31, F0-F31, V0-V7)"},
        {"LV V1,R1\x01\n", "t.s:1:9: unexpected '\\x01' after the operands"},
        {"NOP\nNOP\nLV V1,R1 x\n", "t.s:3:10: unexpected 'x' after the operands"},
        {"LV V1,R1\0\n", "t.s:1:9: NUL byte in the source"},
        {".equ 5, 3\n", "t.s:1:6: expected a name after .equ, got '5'"},
        {".equ N, 3\n.equ N, 4\n", "t.s:2:6: 'N' is already defined at line 1"},
        {".equ N, (((((((((((((((((1)))))))))))))))))\n", "t.s:1:25: expression nested too deeply"},
        {"DADDUI R1,R0,#(1+2\n", "t.s:1:19: expected ')', got 'end of line'"},
        {"LVx V1,R1\n", "t.s:1:1: unknown instruction 'LVx'"},
        {"LV, V1,R1\n", "t.s:1:3: expected a blank after 'LV'"},
        {"@\n", "t.s:1:1: unexpected '@'"},
    };
    for (size_t i = 0; i < TP_ARRAY_LEN(cases); i++) {
        /* sources with an embedded NUL are measured by hand */
        const char *src = cases[i].src;
        size_t len = strlen(src);
        if (strstr(cases[i].msg, "NUL")) len = 10;
        vec_asm_cfg cfg = {8, NULL, 0, 0, false};
        tp_err e;
        tp_err_clear(&e);
        vec_prog p;
        bool ok = vec_asm(&p, src, len, "t.s", &cfg, &e);
        if (ok) vec_prog_free(&p);
        if (ok || strcmp(e.msg, cases[i].msg) != 0)
            tt_fail_msg(__FILE__, __LINE__, "case %zu: got \"%s\", want \"%s\"", i, ok ? "(assembled)" : e.msg,
                        cases[i].msg);
        tt_nchecks++;
    }
}

static void t_data_limit(void)
{
    vec_asm_cfg cfg = {8, NULL, 0, 1024, false};
    const char *src = ".data\n .space 1000\n .space 100\n";
    tp_err_clear(&E);
    TT_CHECK(!vec_asm(&P, src, strlen(src), "t.s", &cfg, &E));
    TT_EQ_STR(E.msg, "t.s:3:9: the .data section would exceed 1024 bytes");
    tp_err_clear(&E);
    const char *huge = ".data\n .space 0x7fffffffffffffff\n";
    TT_CHECK(!vec_asm(&P, huge, strlen(huge), "t.s", NULL, &E));
    TT_HAS(E.msg, "t.s:2:9: the .data section would exceed");
}

/* Every example assembles, and the texts are the statements as written. */
static void t_examples(void)
{
    static const char *names[] = {"daxpy.s", "daxpy_strip.s", "daxpy_scalar.s", "scale_strip.s", "chain.s",
                                  "stride.s", "gather.s", "cond.s", "cond_compress.s", "matmul.s"};
    tp_opts o;
    vt_opts(&o, NULL);
    for (size_t i = 0; i < TP_ARRAY_LEN(names); i++) {
        vec_prog p;
        TT_CHECK(vt_example(&p, names[i], &o, NULL, 0));
        for (uint32_t k = 0; k < p.ninsn; k++) TT_CHECK(p.insn[k].text && p.insn[k].text[0]);
        vec_prog_free(&p);
    }
    tp_opts_free(&o);
}

/* .include: the included file's data, constants and labels as if written in
** place; its errors name it; instructions, missing files and cycles are
** refused. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    TT_CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static bool as_file(const char *dir, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/main.s", dir);
    vec_asm_cfg cfg = {8, NULL, 0, 0, false};
    tp_err_clear(&E);
    return vec_asm(&P, text, strlen(text), path, &cfg, &E);
}

static void t_include(void)
{
    char dir[] = "/tmp/tpsim_vasm_XXXXXX";
    TT_CHECK(mkdtemp(dir) != NULL);
    char sub[300], want[400];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    TT_CHECK(mkdir(sub, 0700) == 0);
    write_file(dir, "data.s", "; shared data\n.equ N, 3\n.data\nxs: .word 1, 2, N\n.include \"sub/more.s\"\n");
    write_file(sub, "more.s", "ys: .byte 7, ys\n"); /* relative to data.s; ys is byte 24 */
    TT_CHECK(as_file(dir, ".include \"data.s\"\n.word 9\n.text\nDADDUI R1,R0,#xs+N\nLD R2,ys(R0)\n"));
    if (P.insn) {
        TT_EQ_U(P.data_size, 34);
        TT_EQ_U(P.data[16], 3);   /* N from the included constant */
        TT_EQ_U(P.data[24], 7);
        TT_EQ_U(P.data[25], 24);  /* a forward reference filled in pass 2 */
        TT_EQ_U(P.data[26], 9);   /* .data carried on after the include */
        TT_EQ_U(P.ninsn, 2);
        TT_EQ_U(P.insn[0].line, 4); /* lines of the program's own file */
        TT_EQ_U((uint64_t)vec_prog_sym(&P, "ys")->value, 24);
        TT_HAS(vec_prog_sym(&P, "ys")->file, "sub/more.s");
        vec_prog_free(&P);
    }
    /* errors name the file they are in */
    write_file(sub, "more.s", "ys: .byte 7, 300\n");
    TT_CHECK(!as_file(dir, ".include \"data.s\"\n"));
    snprintf(want, sizeof want, "%s/sub/more.s:1:14: value 300 does not fit in 8 bits (-128..255)", dir);
    TT_EQ_STR(E.msg, want);
    write_file(sub, "more.s", "ys: .byte zz\n");
    TT_CHECK(!as_file(dir, ".include \"data.s\"\n"));
    snprintf(want, sizeof want, "%s/sub/more.s:1:11: undefined name 'zz'", dir);
    TT_EQ_STR(E.msg, want);
    write_file(sub, "more.s", ".text\nNOP\n");
    TT_CHECK(!as_file(dir, ".include \"data.s\"\n"));
    snprintf(want, sizeof want, "%s/sub/more.s:2:1: instructions belong in the program's own file (an included file holds data, constants and labels)", dir);
    TT_EQ_STR(E.msg, want);
    write_file(sub, "more.s", "xs: .byte 1\n");
    TT_CHECK(!as_file(dir, ".include \"data.s\"\n"));
    snprintf(want, sizeof want, "%s/sub/more.s:1:1: 'xs' is already defined at %s/data.s:4", dir, dir);
    TT_EQ_STR(E.msg, want);
    TT_CHECK(!as_file(dir, ".data\n .include \"nothere.s\"\n"));
    snprintf(want, sizeof want, "%s/main.s:2:11: cannot read '%s/nothere.s'", dir, dir);
    TT_EQ_STR(E.msg, want);
    write_file(dir, "loop.s", ".include \"loop.s\"\n");
    TT_CHECK(!as_file(dir, ".include \"loop.s\"\n"));
    snprintf(want, sizeof want, "%s/loop.s:1:10: .include nests more than 8 deep (does a file include itself?)", dir);
    TT_EQ_STR(E.msg, want);
    TT_CHECK(!as_file(dir, ".include data.s\n"));
    TT_HAS(E.msg, "main.s:1:10: .include needs a file name in double quotes");
    TT_CHECK(!as_file(dir, ".include \"data.s\n"));
    TT_HAS(E.msg, "main.s:1:10: unterminated file name");
    TT_CHECK(!as_file(dir, ".include \"/dev\"\n"));
    TT_EQ_STR(E.msg + strlen(dir), "/main.s:1:10: '/dev' is not a regular file");
    vec_asm_cfg closed = {8, NULL, 0, 0, true};
    const char *inc = ".data\n  .include \"data.s\"\n";
    tp_err_clear(&E);
    TT_CHECK(!vec_asm(&P, inc, strlen(inc), "t.s", &closed, &E));
    TT_EQ_STR(E.msg, "t.s:2:3: .include is not allowed here");
    TT_CHECK(!as_file(dir, ".include \"data.s\" x\n"));
    TT_HAS(E.msg, "main.s:1:19: unexpected 'x'");
    static const char *files[] = {"sub/more.s", "data.s", "loop.s", "sub", ""};
    for (size_t i = 0; i + 1 < TP_ARRAY_LEN(files); i++) {
        char path[300];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        TT_CHECK(remove(path) == 0);
    }
    TT_CHECK(rmdir(dir) == 0);
}

int main(void)
{
    TT_RUN(t_scalar_forms);
    TT_RUN(t_vector_forms);
    TT_RUN(t_conveniences);
    TT_RUN(t_comments);
    TT_RUN(t_data);
    TT_RUN(t_equ);
    TT_RUN(t_branches);
    TT_RUN(t_vregs);
    TT_RUN(t_errors);
    TT_RUN(t_data_limit);
    TT_RUN(t_include);
    TT_RUN(t_examples);
    return tt_done();
}
