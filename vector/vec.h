/*
** vec.h -- the VMIPS vector machine of Hennessy & Patterson (prefix vec_).
**
**   text --vec_asm--> vec_prog (instructions + .data image + symbols)
**   vec_prog --vec_mach_step--> one vec_dyn per executed instruction
**   vec_dyn --> a timing model (textbook.c or pipelined.c) --> cycles
**   vec_run_program ties them together and registers the statistics;
**   vec_sweep runs a program over a range of an .equ constant.
**
** The functional model (mach.c) executes the program exactly, in program
** order; the timing models only see vec_dyn records and never change state,
** so both timing models see the same execution.
*/
#ifndef VEC_H
#define VEC_H

#include "../base/tp.h"
#include "../base/arena.h"
#include "../base/err.h"
#include "../base/opt.h"
#include "../base/sbuf.h"
#include "../base/stats.h"
#include "../base/vec.h"

/* ---- options (options.def) ---- */

enum {
#define X(id, name, type, def, min, max, choices, doc) id,
#include "options.def"
#undef X
    VEC_OPT_COUNT
};
extern const tp_optdef vec_optdefs[VEC_OPT_COUNT];
/* Defaults; configurations are found among the built-in ones. */
void vec_opts_init(tp_opts *o);
/* Values of the "timing" option, in the order of its choices. */
enum { VEC_TIMING_TEXTBOOK, VEC_TIMING_PIPELINED };

/* ---- the opcode table (vec_ops.def) ---- */

/* Operand forms.  Fields of vec_insn they fill (d, a, b, imm, alt): */
typedef enum vec_form {
    VEC_FM_NONE, /* (no operands) */
    VEC_FM_RRX,  /* Rd, Rs, Rt|#imm      d a b | imm, alt=1 for #imm */
    VEC_FM_RRI,  /* Rd, Rs, #imm         d a imm */
    VEC_FM_RMEM, /* Rt, off(Rs)          d=Rt (loaded or stored) a=Rs imm=off */
    VEC_FM_FMEM, /* Ft, off(Rs)          d=Ft a=Rs imm=off */
    VEC_FM_FFF,  /* Fd, Fs, Ft           d a b */
    VEC_FM_FFX,  /* Fd, Fs, Ft|#imm      d a b | imm, alt=1 for #imm (packed shifts) */
    VEC_FM_RL,   /* Rs, label            a imm=target pc */
    VEC_FM_RRL,  /* Rs, Rt, label        a b imm=target pc */
    VEC_FM_L,    /* label                imm=target pc */
    VEC_FM_MTC1, /* VLR|VPW, Rs|#imm     b=VEC_RK_VLR or VEC_RK_VPW, a | imm, alt=1 for #imm */
    VEC_FM_MFC1, /* Rd, VLR|VPW|MVL      d b=VEC_RK_VLR, VEC_RK_VPW or VEC_RK_MVL */
    VEC_FM_MVTM, /* VM, Fs               a */
    VEC_FM_MVFM, /* Fd, VM               d */
    VEC_FM_POP,  /* Rd, VM               d */
    VEC_FM_VVV,  /* Vd, Vs, Vt           d a b */
    VEC_FM_VVF,  /* Vd, Vs, Fs           d a b=F */
    VEC_FM_VFV,  /* Vd, Fs, Vt           d a=F b */
    VEC_FM_VVR,  /* Vd, Vs, Rt           d a b=R */
    VEC_FM_VRS,  /* Vd, Rs, Vt           d a=R b */
    VEC_FM_VVX,  /* Vd, Vs, Rt|#imm      d a b=R | imm, alt=1 for #imm (shifts) */
    VEC_FM_VR,   /* Vd, Rs               d a (imm=offset, from "off(Rs)") */
    VEC_FM_RV,   /* Rs, Vt               a d=Vt (stored) */
    VEC_FM_VRR,  /* Vd, (Rs,Rt)          d a b=stride register */
    VEC_FM_RRV,  /* (Rs,Rt), Vt          a b d=Vt (stored) */
    VEC_FM_VRV,  /* Vd, (Rs+Vi)          d a b=index vector */
    VEC_FM_RVV,  /* (Rs+Vi), Vt          a b d=Vt (stored) */
    VEC_FM_VV,   /* Vs, Vt               a b */
    VEC_FM_VF,   /* Vs, Fs               a b=F */
    VEC_FM_VSR,  /* Vs, Rt               a b=R */
    VEC_FM_VX,   /* Vd, Rs|#imm          d a | imm, alt=1 for #imm */
} vec_form;

/* Latency class of a scalar instruction, or the unit of a vector one. */
typedef enum vec_cls {
    VEC_C_INT, VEC_C_IMUL, VEC_C_LOAD, VEC_C_STORE,
    VEC_C_FADD, VEC_C_FMUL, VEC_C_FDIV,
    VEC_C_BRANCH, VEC_C_JUMP, VEC_C_MOVE,
    VEC_C_MEDIA, VEC_C_MMUL,  /* packed (MMX) instructions: the media unit */
    /* vector classes: everything from here on runs on a vector unit */
    VEC_C_VLSU, VEC_C_VADD, VEC_C_VMUL, VEC_C_VDIV, VEC_C_VLOGIC,
} vec_cls;

enum {
    VEC_FL_FLOP = 1 << 0,   /* one FLOP per active element (or per scalar op) */
    VEC_FL_MASKED = 1 << 1, /* honours VM */
    VEC_FL_WVM = 1 << 2,    /* writes VM */
    VEC_FL_WVLR = 1 << 3,   /* writes a vector control register (VLR or VPW) */
    VEC_FL_STORE = 1 << 4,  /* writes memory */
    VEC_FL_D = 1 << 5,      /* 64-bit FP elements: a run-time error unless VPW = 64 */
};

/* Element operations: what one element (of a vector instruction at width
** VPW, or of a packed instruction at the table's width) computes from its
** operands x and y.  vec_alu (alu.c) is the only place that knows widths:
** operands arrive zero-extended from w bits and results are truncated to w
** bits.  "s" means the bits read as a signed (two's complement) number, "u"
** as unsigned. */
typedef enum vec_sem {
    VEC_E_NONE,                      /* not an element operation */
    VEC_E_ADD, VEC_E_SUB,            /* wrapping: x + y, x - y mod 2^w */
    VEC_E_ADDSS, VEC_E_SUBSS,        /* signed saturating: clamped to [-2^(w-1), 2^(w-1)-1] */
    VEC_E_ADDUS, VEC_E_SUBUS,        /* unsigned saturating: clamped to [0, 2^w-1] */
    VEC_E_MULLO,                     /* low w bits of x * y (the same signed or unsigned) */
    VEC_E_MULHI,                     /* high w bits of s(x) * s(y) (the 2w-bit product) */
    VEC_E_AND, VEC_E_ANDN, VEC_E_OR, VEC_E_XOR, /* ANDN: ~x & y */
    VEC_E_SLL, VEC_E_SRL, VEC_E_SRA, /* x shifted by y (the whole count, unsigned):
                                        y >= w gives 0 (SLL, SRL) or w copies of the sign bit (SRA) */
    VEC_E_EQ, VEC_E_NE, VEC_E_GT, VEC_E_LT, VEC_E_GE, VEC_E_LE, /* 1 or 0; signed */
    VEC_E_GTU, VEC_E_LTU, VEC_E_GEU, VEC_E_LEU,                 /* 1 or 0; unsigned */
    VEC_E_FADD, VEC_E_FSUB, VEC_E_FMUL, VEC_E_FDIV,             /* IEEE double (w = 64) */
    VEC_E_FEQ, VEC_E_FNE, VEC_E_FGT, VEC_E_FLT, VEC_E_FGE, VEC_E_FLE, /* 1 or 0 */
    /* packed shapes (vec_packed), not element-wise: */
    VEC_E_PACKSS,  /* w-bit elements of x then y, each clamped signed to w/2 bits */
    VEC_E_PACKUS,  /* ... clamped from signed w bits to unsigned w/2 bits */
    VEC_E_UNPKL,   /* low halves interleaved: x0 y0 x1 y1 ... (w-bit elements) */
    VEC_E_UNPKH,   /* high halves interleaved */
    VEC_E_MADD,    /* 2w-bit element k = s(x2k)*s(y2k) + s(x2k+1)*s(y2k+1), wrapping */
    /* scalar loads of w bits: */
    VEC_E_SX, VEC_E_ZX,              /* sign- or zero-extended to 64 bits */
} vec_sem;

typedef enum vec_op {
#define X(id, name, form, cls, flags, sem, w, doc) id,
#include "vec_ops.def"
#undef X
    VEC_NOPS
} vec_op;

typedef struct vec_opinfo {
    const char *name;
    uint8_t form, cls;
    uint16_t flags;
    uint8_t sem;  /* vec_sem */
    uint8_t w;    /* bits: of a packed element, of a scalar memory access; 0: VPW (vector) or none */
    const char *doc;
} vec_opinfo;
extern const vec_opinfo vec_ops[VEC_NOPS];
/* The opcode named exactly `name` (upper case, as in the table), or -1. */
int vec_op_find(const char *name);

/* Element operations (alu.c).  x and y are w-bit values (w = 8, 16, 32 or
** 64), zero-extended; so is the result.  The shift count y is taken whole. */
uint64_t vec_alu(int sem, unsigned w, uint64_t x, uint64_t y);
/* A packed (MMX) instruction on two 64-bit registers: sem on each w-bit
** element (compares give all ones or all zeros), or one of the packed
** shapes.  Intel's destination operand is x, its source y. */
uint64_t vec_packed(int sem, unsigned w, uint64_t x, uint64_t y);
/* Result elements of a packed instruction and their width (run.c counts
** them as operations). */
unsigned vec_packed_width(int sem, unsigned w);

/* Vector units.  A machine has one add, mul, div and logical unit and
** lsu_count load/store units, numbered VEC_UNIT_LSU0 + k. */
enum { VEC_UNIT_ADD, VEC_UNIT_MUL, VEC_UNIT_DIV, VEC_UNIT_LOGIC, VEC_UNIT_LSU0, VEC_UNIT_MAX = VEC_UNIT_LSU0 + 16 };
static inline bool vec_cls_vector(int cls) { return cls >= VEC_C_VLSU; }
/* VEC_UNIT_* of a vector class (VEC_UNIT_LSU0 for all memory). */
int vec_cls_unit(int cls);
/* Vector units that run integer element operations (some instruction of
** vec_ops.def with an element operation that is not .D runs there). */
uint32_t vec_int_units(void);
/* "add", "mul", "div", "logical", "lsu0".. */
const char *vec_unit_name(int unit, char buf[16]);

/* ---- programs ---- */

/* VPW: the element width of vector instructions; MVL names the read-only
** maximum vector length, which follows VPW (only MFC1 reads it). */
typedef enum vec_rkind { VEC_RK_NONE, VEC_RK_R, VEC_RK_F, VEC_RK_V, VEC_RK_VLR, VEC_RK_VM, VEC_RK_VPW, VEC_RK_MVL } vec_rkind;
typedef struct vec_reg {
    uint8_t kind; /* vec_rkind */
    uint8_t num;
} vec_reg;

typedef struct vec_insn {
    uint16_t op;         /* vec_op */
    uint8_t d, a, b;     /* register numbers; meaning by form (vec_form) */
    uint8_t alt;         /* RRX, VX: the last operand is the immediate */
    int64_t imm;         /* immediate, memory offset, or branch target pc */
    uint32_t line, col;  /* where the mnemonic is */
    const char *text;    /* the statement as written, without its comment */
    /* What the instruction reads and writes, for the timing models (the
    ** assembler derives it from the form): VM is a source of every
    ** masked instruction, VLR of every vector instruction. */
    vec_reg dst;
    vec_reg src[4];
    uint8_t nsrc;
} vec_insn;

typedef enum vec_symkind { VEC_SYM_DATA, VEC_SYM_CODE, VEC_SYM_EQU, VEC_SYM_REG } vec_symkind;
typedef struct vec_sym {
    const char *name;
    uint8_t kind;     /* vec_symkind */
    vec_reg reg;      /* VEC_SYM_REG: the register it names */
    int64_t value;    /* DATA: byte address; CODE: pc; EQU: value */
    const char *file; /* where it is defined: the program, or a file it includes */
    uint32_t line, col;
} vec_sym;

typedef struct vec_prog {
    const char *file;
    vec_insn *insn;
    uint32_t ninsn;
    uint8_t *data;       /* the .data image, loaded at address 0 */
    uint64_t data_size;
    vec_sym *sym;
    uint32_t nsym;
    tp_arena arena;      /* owns everything above */
} vec_prog;

/* An override of an .equ constant (tpsim vec --set NAME=VALUE). */
typedef struct vec_equ_set {
    const char *name;
    int64_t value;
} vec_equ_set;

typedef struct vec_asm_cfg {
    uint32_t vregs;            /* V0..V(vregs-1) exist; 0 means 64 */
    const vec_equ_set *set;    /* overrides; each must name an .equ */
    uint32_t nset;
    uint64_t max_data;         /* largest .data section; 0 means 64 MiB */
    bool no_include;           /* .include is an error (text from elsewhere: fuzzing) */
} vec_asm_cfg;

/* Assembles text (len bytes, not necessarily NUL-terminated).  Errors are
** "file:line:col: message"; on failure *p holds nothing to free. */
bool vec_asm(vec_prog *p, const char *text, size_t len, const char *file,
             const vec_asm_cfg *cfg, tp_err *e);
void vec_prog_free(vec_prog *p);
const vec_sym *vec_prog_sym(const vec_prog *p, const char *name);
/* Reads a whole file (NULL with errno set on failure); the caller frees. */
char *vec_read_file(const char *path, size_t *len);

/* ---- the functional model (mach.c) ---- */

typedef struct vec_mach {
    const vec_prog *prog;
    uint32_t mvl64;               /* option mvl: elements per register at VPW = 64 */
    uint32_t vpw;                 /* element width in bits: 8, 16, 32 or 64 */
    uint32_t mvl;                 /* MVL at the current VPW: mvl64 * 64 / vpw */
    uint32_t mvl_max;             /* MVL at 8 bits (mvl64 * 8): VM bits, scratch sizes */
    uint32_t vregs, vmwords;      /* vmwords: 64-bit words of VM (mvl_max bits) */
    uint8_t vpw_ok;               /* bit k: VPW = 8 << k is allowed (options vpw.*) */
    int64_t r[32];
    uint64_t f[32];               /* bits of doubles (or of packed integers) */
    uint64_t *v;                  /* register n is the mvl64 words v[n * mvl64 ..]; element i
                                     at width w is its bits [i*w, i*w + w) (word i*w/64) */
    uint64_t *vm;                 /* bit i: element i */
    uint32_t vlr;
    uint8_t *mem;
    uint64_t mem_size;
    uint32_t pc;
    uint64_t executed, max_insns;
    bool halted;
    uint64_t *addr;               /* scratch: element addresses */
    uint64_t *act;                /* scratch: active elements of the last instruction */
} vec_mach;

/* Element i (w bits, zero-extended) of the register at reg, and its store. */
static inline uint64_t vec_elem_get(const uint64_t *reg, uint32_t i, unsigned w)
{
    if (w == 64) return reg[i];
    uint32_t per = 64 / w;
    return (reg[i / per] >> ((i % per) * w)) & (((uint64_t)1 << w) - 1);
}
static inline void vec_elem_set(uint64_t *reg, uint32_t i, unsigned w, uint64_t x)
{
    if (w == 64) {
        reg[i] = x;
        return;
    }
    uint32_t per = 64 / w, sh = (i % per) * w;
    uint64_t m = (((uint64_t)1 << w) - 1) << sh;
    reg[i / per] = (reg[i / per] & ~m) | ((x << sh) & m);
}

/* One executed instruction, as the timing models see it. */
typedef struct vec_dyn {
    const vec_insn *in;
    uint32_t pc;
    uint32_t vl;           /* VLR when it executed (vector instructions) */
    uint32_t vpw;          /* VPW when it executed (vector instructions): element bits */
    uint32_t nact;         /* elements < vl it operated on (VM bit 1, or all) */
    const uint64_t *act;   /* bitset of those elements */
    const uint64_t *addr;  /* vector memory: byte address of each element < vl (vpw/8 bytes each) */
    uint64_t lo, hi;       /* memory: bytes [lo, hi) touched; lo == hi when none */
    bool taken;            /* branches */
} vec_dyn;

typedef enum vec_step { VEC_STEP_OK, VEC_STEP_END, VEC_STEP_ERR } vec_step;

/* Registers at 0, VLR at MVL, VM all ones, memory = the .data image followed
** by zeros up to max(mem_size, data size). */
bool vec_mach_init(vec_mach *m, const vec_prog *p, const tp_opts *o, tp_err *e);
void vec_mach_free(vec_mach *m);
/* Executes one instruction and describes it in *d; VEC_STEP_END when the
** program has ended (no instruction executed), VEC_STEP_ERR with e set
** ("file:line:col: message" of the instruction) on a fault. */
vec_step vec_mach_step(vec_mach *m, vec_dyn *d, tp_err *e);
/* The 64-bit word at addr, if addr..addr+7 is in memory. */
bool vec_mach_read(const vec_mach *m, uint64_t addr, uint64_t *bits);
/* The n-byte (1..8) little-endian value at addr, zero-extended, if it is in memory. */
bool vec_mach_read_n(const vec_mach *m, uint64_t addr, unsigned n, uint64_t *bits);
/* Index of an element width in per-width arrays: 8 -> 0, 16 -> 1, 32 -> 2, 64 -> 3. */
static inline unsigned vec_wi(unsigned w) { return w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3; }
/* Whether options o allow VPW = w (8, 16, 32, 64). */
bool vec_vpw_allowed(const tp_opts *o, unsigned w);
static inline bool vec_vm_bit(const uint64_t *vm, uint32_t i) { return (vm[i >> 6] >> (i & 63)) & 1; }

/* ---- timing ---- */

/* One row of the trace table: a vector instruction, or (textbook) the loop
** overhead of a branch. */
typedef struct vec_trow {
    const vec_insn *in;
    uint32_t pc, vl;
    uint64_t convoy;           /* textbook: 1-based convoy; 0 otherwise */
    uint64_t start;            /* convoy start (textbook) or issue (pipelined) */
    uint64_t first, last;      /* first and last result (vl > 0) */
    uint64_t efirst, elast;    /* first and last element entering the unit */
    uint8_t unit;              /* VEC_UNIT_*; VEC_UNIT_MAX for a loop-overhead row */
} vec_trow;

typedef struct vec_trace {
    TP_VEC(vec_trow) rows;
    uint64_t dropped;          /* rows beyond the limit */
    uint32_t limit;
} vec_trace;
void vec_trace_add(vec_trace *t, const vec_trow *r);

/* What a timing model reports. */
typedef struct vec_tstats {
    uint64_t cycles;
    uint64_t convoys;                /* textbook */
    uint64_t loop_cycles;            /* textbook: tloop total */
    uint64_t bank_stalls;            /* cycles elements waited for busy banks */
    uint64_t busy[VEC_UNIT_MAX];     /* cycles each unit accepted elements */
    uint32_t nunits;                 /* VEC_UNIT_LSU0 + lsu_count */
} vec_tstats;

typedef struct vec_timing vec_timing;
struct vec_timing {
    void (*step)(vec_timing *t, const vec_dyn *d);
    void (*finish)(vec_timing *t);   /* fills st.cycles */
    void (*destroy)(vec_timing *t);
    vec_tstats st;
    vec_trace *trace;                /* NULL: no trace */
};
vec_timing *vec_textbook_new(const tp_opts *o, vec_trace *trace);
vec_timing *vec_pipelined_new(const tp_opts *o, vec_trace *trace);

/* ---- a whole run (run.c) ---- */

typedef struct vec_run {
    vec_mach m;
    vec_tstats st;
    vec_trace trace;
    int timing;                       /* VEC_TIMING_* */
    char *timing_name;
    uint64_t insns, scalar_insns, vector_insns, elements, flops, branches;
    uint64_t ops[4];                  /* element operations per width (vec_wi), see run.c */
    double mflops, util[VEC_UNIT_MAX];
    double mops[4], peak_mops[4];
    tp_stats stats;                   /* all of the above, by name */
} vec_run;

/* Runs p to its end under options o with timing model `timing` (-1: the
** "timing" option).  trace_limit > 0 records that many trace rows.  On
** failure e says why; vec_run_free is needed either way. */
bool vec_run_program(vec_run *r, const vec_prog *p, const tp_opts *o, int timing,
                     uint32_t trace_limit, tp_err *e);
void vec_run_free(vec_run *r);

/* The trace table (trace.c): one line per row, as in the lecture. */
void vec_trace_table(const vec_run *r, tp_sbuf *out);
/* An SVG timeline: one lane per unit, each instruction's elements entering
** it (dark) and its results (light). */
void vec_trace_svg(const vec_run *r, tp_sbuf *out);

/* ---- sweeps (sweep.c) ---- */

typedef struct vec_sweep_cfg {
    const char *text, *file;           /* the vector program */
    size_t len;
    const char *stext, *sfile;         /* optional scalar program (pipelined) */
    size_t slen;
    const tp_opts *opts;
    const vec_equ_set *set;            /* other overrides */
    uint32_t nset;
    const char *name;                  /* the .equ swept: the vector length n */
    int64_t from, to, step;
    double flops_per_element;
} vec_sweep_cfg;

typedef struct vec_sweep_pt {
    int64_t n;
    uint64_t t;          /* cycles of the vector program */
    uint64_t ts;         /* cycles of the scalar program (0: none) */
    double mflops;       /* flops_per_element * n * clock / t */
    uint64_t ops[4];     /* element operations per width (vec_wi) */
} vec_sweep_pt;

typedef struct vec_sweep_res {
    TP_VEC(vec_sweep_pt) pts;
    double rinf;             /* MFLOPS; 0 when the sweep has one point */
    int64_t rinf_n1, rinf_n2;/* the points R_inf comes from */
    int64_t nhalf;           /* -1: not reached in the sweep */
    int64_t nv;              /* -1: no scalar program, or never faster */
    /* per element width (vec_wi), from the operations counted (run.c):
    ** R_inf in MOPS (0: no operations at that width) and N_1/2 (-1) */
    double rinf_w[4];
    int64_t rinf_w_n1[4], rinf_w_n2[4], nhalf_w[4];
} vec_sweep_res;

bool vec_sweep(const vec_sweep_cfg *c, vec_sweep_res *r, tp_err *e);
void vec_sweep_free(vec_sweep_res *r);
/* R_inf, N_1/2 and N_v from the points (vec_sweep calls it); mvl is the
** option (the MVL at 64 bits). */
void vec_sweep_metrics(vec_sweep_res *r, uint32_t mvl, double clock_mhz, double flops_per_element);

#endif
