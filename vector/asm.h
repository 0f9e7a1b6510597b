/*
** asm.h -- the VMIPS assembler's internals (asm.c, asm_lex.c).
**
** Syntax (one statement per line):
**
**   [label:]... [MNEMONIC operands | .directive args] [; comment]
**
** - Comments start with ';' anywhere, or with '#' at the start of a line or
**   after a blank -- except where an operand may start, where '#' directly
**   followed by a value is an immediate ("DADDUI R1,R0, #8" is an
**   immediate, "LV V1,R1 #load x" a comment).
** - Mnemonics, register names and directives are case-insensitive; labels
**   and constants are not.  Registers: R0-R31 (R0 reads 0), F0-F31, V0-V63
**   (up to the machine's vregs), VLR, VM.
** - Values: decimal or 0x hex integers, data labels (their byte address),
**   .equ constants, combined with + - * / and parentheses (usual
**   precedence; / divides integers, truncating toward zero).
**   An immediate is "#value" (the '#' may be left out).  Scalar memory:
**   "off(Rn)", "label", "label(Rn)", "(Rn)".  Vector memory: "Rn" (or
**   "off(Rn)") for LV/SV, "(Rs,Rt)" for LVWS/SVWS, "(Rs+Vi)" for LVI/SVI.
**   Branch targets are code labels.  Vector control registers (MTC1 and
**   MFC1 only): VLR, VPW, and MVL (read-only).  "MTC1 VLR,#n" and
**   "MTC1 VPW,#16" take an immediate too; a VPW immediate must be 8, 16,
**   32 or 64.  Packed shifts take Ft or "#0..255", vector shifts Rt or
**   "#0..63".
** - Directives: .data, .text (.code), .double, .word (64-bit integers, as in
**   WinMIPS64), .word32, .word16, .byte (narrower integers: signed or
**   unsigned values that fit, e.g. .byte -128..255), .space BYTES, .align N
**   (to 2^N bytes), .equ NAME, VALUE (VALUE may be a register: NAME then
**   stands for it, e.g. ".equ Rx, R1").  .equ, .space and .align use only
**   names defined above them; .word & co and instructions may use any.
**   .data starts at address 0 and grows.  .include "FILE" reads FILE (a
**   path relative to the including file's directory) in place of the
**   line: data, .equ constants and labels only (instructions stay in the
**   program's own file, so that its lines are the ones traces and faults
**   name); includes nest up to 8 deep.
** - Mnemonic conveniences: DADDIU = DADDUI; a vector mnemonic without ".D"
**   gets it (ADDV = ADDV.D); a vector arithmetic mnemonic of a VV/VS/SV
**   family (ADDV.D, SUBV.I, ADDV.US, ANDV ...; the families come from the
**   names in vec_ops.def) with a scalar operand becomes its VS or SV form
**   (MULV.D V2,F0,V1 = MULVS.D V2,V1,F0; SUBV.I V1,R2,V3 = SUBSV.I), and a
**   VS form of a family without an SV form (it commutes) takes the scalar
**   in either place; the scalar is an F register for .D, an R register
**   otherwise.  A compare SxxV.D (.I, .U) with a scalar operand becomes
**   SxxVS.D (.I, .U).
*/
#ifndef VEC_ASM_H
#define VEC_ASM_H

#include "internal.h"

typedef struct vasm_cur { /* a cursor over one line (not NUL-terminated) */
    const char *s;
    uint32_t n, i;        /* length, position */
    uint32_t line;
} vasm_cur;

typedef struct vasm_pend { /* an instruction seen in pass 1 */
    const char *s;
    uint32_t n, line;
    uint32_t mpos, opos;   /* mnemonic, first byte after it */
    uint16_t op;
    uint32_t mlen;
} vasm_pend;

typedef struct vasm_pword { /* a .word (.byte ...) value with a forward reference */
    const char *s;
    const char *file;      /* the file the line is in (.include) */
    uint32_t n, line, pos;
    uint64_t off;
    uint32_t size;         /* bytes */
} vasm_pword;

typedef struct vasm {
    const char *file;      /* the file being read: the program's, or one it includes */
    unsigned depth;        /* .include nesting */
    TP_VEC(char *) texts;  /* included files' text, alive until pass 2 is done */
    uint32_t vregs;
    uint64_t max_data;
    const vec_asm_cfg *cfg;
    bool *set_used;
    tp_err *e;
    tp_arena *arena;
    vec_sym *sym;
    uint32_t nsym, capsym;
    uint32_t *ht, htcap;
    uint8_t *data;
    uint64_t dsize, dcap;
    bool in_data;
    TP_VEC(vasm_pend) ins;
    TP_VEC(vasm_pword) words;
} vasm;

typedef struct vasm_ectx {
    bool lenient;        /* undefined names are 0 and set *undef */
    bool *undef;
    const char *above;   /* names must be defined above (says why) */
    int depth;           /* parentheses open */
} vasm_ectx;

bool vasm_err(vasm *a, const vasm_cur *c, uint32_t pos, const char *fmt, ...) TP_PRINTF(4, 5);
bool vasm_is_ws(int ch);
bool vasm_is_id0(int ch);
bool vasm_is_id(int ch);
int vasm_peek(const vasm_cur *c);
void vasm_skip_ws(vasm_cur *c);
uint32_t vasm_word(const vasm_cur *c);
const char *vasm_tok(const vasm_cur *c, uint32_t pos, char buf[40]);
/* 1: a register (in *r), 0: not register-shaped, -1: a register beyond the
** architectural ones (R32, F40, V64). */
int vasm_reg_word(const char *w, uint32_t n, vec_reg *r);
const vec_sym *vasm_sym_find(const vasm *a, const char *name, uint32_t n);
bool vasm_sym_define(vasm *a, const vasm_cur *c, uint32_t pos, uint32_t n, int kind, int64_t value, vec_reg reg);

/* Operand parsers: each skips leading blanks and reports its own errors.
** kind VEC_RK_NONE accepts any register. */
bool vasm_reg(vasm *a, vasm_cur *c, int kind, vec_reg *r);
bool vasm_expr(vasm *a, vasm_cur *c, const vasm_ectx *x, int64_t *v);
bool vasm_imm(vasm *a, vasm_cur *c, int64_t *v);
bool vasm_mem(vasm *a, vasm_cur *c, int64_t *off, uint8_t *base);
bool vasm_vbase(vasm *a, vasm_cur *c, int64_t *off, uint8_t *base);
bool vasm_label(vasm *a, vasm_cur *c, int64_t *pc);
bool vasm_sep(vasm *a, vasm_cur *c);
bool vasm_expect(vasm *a, vasm_cur *c, char ch);
bool vasm_at_end(const vasm_cur *c);
bool vasm_end(vasm *a, vasm_cur *c);

#endif
