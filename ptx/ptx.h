/*
** ptx.h -- the PTX intermediate representation.  Module prefix: ptx_.
**
** A loaded module is one arena holding:
**   - module-scope variables (ptx_var) with their initializers,
**   - functions (ptx_func): kernels (.entry) and device functions (.func),
**   - ONE flat array of predecoded instructions (ptx_insn) for the whole
**     module; each function owns the range [start, end) of it, and the last
**     instruction of every defined function is a synthetic PTX_OP_FNEXIT,
**     where lanes that return wait for each other,
**   - an operand pool for vector operands {a,b,c,d} and call argument lists.
**
** Registers.  Each function numbers its registers itself.  Every non-predicate
** register owns one *row* (b128 owns two consecutive rows); a row is the
** register's value for 32 lanes, 64 bits per lane, whatever the declared type.
** A register operand's index IS its row number, so the functional model finds
** a value at frame[row][lane] without any lookup.  Predicates are numbered
** separately (one 32-bit lane mask each).  Registers declared inside nested
** { } scopes get their own rows (shadowing is resolved by the parser).
**
** Nothing here knows about execution; exec/ and gpu/ read this IR, and the
** regmutex pass reads and rewrites it.
*/
#ifndef PTX_H
#define PTX_H

#include "../base/tp.h"
#include "../base/err.h"
#include "../base/arena.h"
#include "../base/sbuf.h"

/* ---- opcodes (from ptx_ops.def) --------------------------------------- */

/* Unit classes and latency classes named in the table. */
typedef enum ptx_unit { PTX_UNIT_ARITH, PTX_UNIT_INT, PTX_UNIT_SFU, PTX_UNIT_MEM,
                        PTX_UNIT_TEX, PTX_UNIT_CTRL, PTX_UNIT_SYNC, PTX_UNIT_TENSOR } ptx_unit;
typedef enum ptx_lat { PTX_LAT_ALU, PTX_LAT_MUL, PTX_LAT_FMA, PTX_LAT_DIV, PTX_LAT_SFU,
                       PTX_LAT_MEM, PTX_LAT_CTRL, PTX_LAT_TENSOR } ptx_lat;

/* Opcode flags. */
enum {
    PTX_F_LOAD = 1u << 0,    /* reads memory */
    PTX_F_STORE = 1u << 1,   /* writes memory */
    PTX_F_ATOMIC = 1u << 2,  /* atomic read-modify-write */
    PTX_F_BRANCH = 1u << 3,  /* may change the pc to a label */
    PTX_F_CALL = 1u << 4,
    PTX_F_RET = 1u << 5,
    PTX_F_EXIT = 1u << 6,
    PTX_F_BARRIER = 1u << 7, /* CTA-level synchronization */
    PTX_F_WARP = 1u << 8,    /* exchanges values between the lanes of a warp */
    PTX_F_CARRYIN = 1u << 9, /* reads the carry flag */
    PTX_F_PSEUDO = 1u << 10, /* not a PTX instruction (made by tpsim) */
};

typedef enum ptx_op {
#define X(id, name, roles, unit, lat, flags, doc) PTX_OP_##id,
#include "ptx_ops.def"
#undef X
    PTX_OP_COUNT
} ptx_op;

typedef struct ptx_opinfo {
    const char *name, *roles, *doc;
    ptx_unit unit;
    ptx_lat lat;
    uint32_t flags;
} ptx_opinfo;

extern const ptx_opinfo ptx_ops[PTX_OP_COUNT];

/* ---- types ------------------------------------------------------------- */

/*   X(ID, "suffix", size in bytes, kind)  kind: B bits, U unsigned, S signed, F float, P pred */
#define PTX_TYPES(X)                                                       \
    X(NONE, "", 0, 0) X(PRED, "pred", 0, 'P')                              \
    X(B8, "b8", 1, 'B') X(B16, "b16", 2, 'B') X(B32, "b32", 4, 'B')        \
    X(B64, "b64", 8, 'B') X(B128, "b128", 16, 'B')                         \
    X(U8, "u8", 1, 'U') X(U16, "u16", 2, 'U') X(U32, "u32", 4, 'U')        \
    X(U64, "u64", 8, 'U')                                                  \
    X(S8, "s8", 1, 'S') X(S16, "s16", 2, 'S') X(S32, "s32", 4, 'S')        \
    X(S64, "s64", 8, 'S')                                                  \
    X(F16, "f16", 2, 'F') X(F16X2, "f16x2", 4, 'F') X(BF16, "bf16", 2, 'F') \
    X(BF16X2, "bf16x2", 4, 'F') X(TF32, "tf32", 4, 'F') X(F32, "f32", 4, 'F') \
    X(F64, "f64", 8, 'F')

typedef enum ptx_type {
#define X(id, s, sz, k) PTX_T_##id,
    PTX_TYPES(X)
#undef X
    PTX_T_COUNT
} ptx_type;

typedef struct ptx_typeinfo { const char *name; uint8_t size; char kind; } ptx_typeinfo;
extern const ptx_typeinfo ptx_types[PTX_T_COUNT];
static inline unsigned ptx_type_size(ptx_type t) { return ptx_types[t].size; }
static inline bool ptx_type_is_float(ptx_type t) { return ptx_types[t].kind == 'F'; }
static inline bool ptx_type_is_signed(ptx_type t) { return ptx_types[t].kind == 'S'; }

/* ---- state spaces ----------------------------------------------------- */

typedef enum ptx_space {
    PTX_SP_GENERIC,  /* no space given: generic addressing */
    PTX_SP_GLOBAL, PTX_SP_SHARED, PTX_SP_LOCAL, PTX_SP_CONST, PTX_SP_PARAM,
    PTX_SP_TEX, PTX_SP_REG, PTX_SP_SREG,
    PTX_SP_SHARED_CLUSTER, /* .shared::cluster (treated as the CTA's shared memory) */
    PTX_SP_PARAM_ENTRY,    /* .param::entry */
    PTX_SP_PARAM_FUNC,     /* .param::func */
    PTX_SP_COUNT
} ptx_space;
extern const char *const ptx_space_names[PTX_SP_COUNT];

/* ---- modifiers -------------------------------------------------------- */

typedef enum ptx_rnd {
    PTX_RND_NONE, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,   /* float results */
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI,             /* round to integer */
    PTX_RND_RNA, PTX_RND_RS
} ptx_rnd;

typedef enum ptx_cmp {
    PTX_CMP_NONE, PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
    PTX_CMP_NUM, PTX_CMP_NAN
} ptx_cmp;

/* Boolean combining op (setp/set .and/.or/.xor, bar.red, vote). */
typedef enum ptx_bop { PTX_BOP_NONE, PTX_BOP_AND, PTX_BOP_OR, PTX_BOP_XOR, PTX_BOP_POPC } ptx_bop;

/* The opcode-specific sub-operation (ptx_mods.sub).  One value space, each
** opcode uses its own subset. */
typedef enum ptx_sub {
    PTX_SUB_NONE,
    /* mul, mad, mul24, mad24, madc, dp2a */
    PTX_SUB_LO, PTX_SUB_HI, PTX_SUB_WIDE,
    /* atom, red, redux */
    PTX_SUB_ADD, PTX_SUB_MIN, PTX_SUB_MAX, PTX_SUB_INC, PTX_SUB_DEC, PTX_SUB_CAS,
    PTX_SUB_EXCH, PTX_SUB_AND, PTX_SUB_OR, PTX_SUB_XOR,
    /* shfl */
    PTX_SUB_UP, PTX_SUB_DOWN, PTX_SUB_BFLY, PTX_SUB_IDX,
    /* vote, match */
    PTX_SUB_ALL, PTX_SUB_ANY, PTX_SUB_UNI, PTX_SUB_BALLOT,
    /* bar / barrier */
    PTX_SUB_SYNC, PTX_SUB_ARRIVE, PTX_SUB_RED, PTX_SUB_WARPSYNC,
    /* prmt modes */
    PTX_SUB_F4E, PTX_SUB_B4E, PTX_SUB_RC8, PTX_SUB_ECL, PTX_SUB_ECR, PTX_SUB_RC16,
    /* testp */
    PTX_SUB_FINITE, PTX_SUB_INFINITE, PTX_SUB_NUMBER, PTX_SUB_NOTANUMBER,
    PTX_SUB_NORMAL, PTX_SUB_SUBNORMAL,
    /* shf */
    PTX_SUB_L, PTX_SUB_R,
    /* tex/suld/sust geometry */
    PTX_SUB_1D, PTX_SUB_2D, PTX_SUB_3D, PTX_SUB_A1D, PTX_SUB_A2D, PTX_SUB_CUBE,
    PTX_SUB_ACUBE, PTX_SUB_2DMS, PTX_SUB_A2DMS,
    /* tld4 components */
    PTX_SUB_COMP_R, PTX_SUB_COMP_G, PTX_SUB_COMP_B, PTX_SUB_COMP_A,
    /* txq / suq queries */
    PTX_SUB_Q_WIDTH, PTX_SUB_Q_HEIGHT, PTX_SUB_Q_DEPTH, PTX_SUB_Q_CHANNEL_DATA_TYPE,
    PTX_SUB_Q_CHANNEL_ORDER, PTX_SUB_Q_NORMALIZED_COORDS, PTX_SUB_Q_FILTER_MODE,
    PTX_SUB_Q_ADDR_MODE_0, PTX_SUB_Q_ADDR_MODE_1, PTX_SUB_Q_ADDR_MODE_2,
    PTX_SUB_Q_ARRAY_SIZE, PTX_SUB_Q_NUM_MIPMAP_LEVELS, PTX_SUB_Q_NUM_SAMPLES,
    /* tex/tld4 mipmap mode (in ptx_mods.sub2; .base is PTX_SUB_NONE) */
    PTX_SUB_LEVEL, PTX_SUB_GRAD,
    PTX_SUB_COUNT
} ptx_sub;

/* Memory-ordering semantics and scope (ld/st/atom/red/fence/membar). */
typedef enum ptx_sem { PTX_SEM_NONE, PTX_SEM_WEAK, PTX_SEM_RELAXED, PTX_SEM_ACQUIRE,
                       PTX_SEM_RELEASE, PTX_SEM_ACQ_REL, PTX_SEM_SC, PTX_SEM_VOLATILE,
                       PTX_SEM_MMIO } ptx_sem;
typedef enum ptx_scope { PTX_SCOPE_NONE, PTX_SCOPE_CTA, PTX_SCOPE_CLUSTER, PTX_SCOPE_GPU,
                         PTX_SCOPE_SYS } ptx_scope;

/* Cache operators and hints (accepted; the timing model may use them). */
typedef enum ptx_cache { PTX_CACHE_NONE, PTX_CACHE_CA, PTX_CACHE_CG, PTX_CACHE_CS,
                         PTX_CACHE_LU, PTX_CACHE_CV, PTX_CACHE_WB, PTX_CACHE_WT } ptx_cache;

/* Modifier flags (ptx_mods.flags). */
enum {
    PTX_MF_FTZ = 1u << 0,
    PTX_MF_SAT = 1u << 1,
    PTX_MF_APPROX = 1u << 2,
    PTX_MF_FULL = 1u << 3,
    PTX_MF_CC = 1u << 4,       /* writes the carry flag */
    PTX_MF_UNI = 1u << 5,      /* .uni: the programmer promises no divergence */
    PTX_MF_TO = 1u << 6,       /* cvta.to: generic -> space */
    PTX_MF_NC = 1u << 7,       /* ld.global.nc */
    PTX_MF_SHIFTAMT = 1u << 8, /* bfind.shiftamt */
    PTX_MF_WRAP = 1u << 9,     /* shf/szext .wrap */
    PTX_MF_CLAMP = 1u << 10,   /* shf/szext .clamp, suld .clamp */
    PTX_MF_SYNC = 1u << 11,    /* the .sync form of vote/shfl/match/redux/bar.warp */
    PTX_MF_ALIGNED = 1u << 12, /* bar(rier) .aligned */
    PTX_MF_RELU = 1u << 13,    /* .relu (f16 min/max/cvt) */
    PTX_MF_NAN = 1u << 14,     /* .NaN (min/max propagate NaN) */
    PTX_MF_XORSIGN = 1u << 15, /* min/max .xorsign.abs */
    PTX_MF_ABS = 1u << 16,     /* .abs (min/max .xorsign.abs) */
    PTX_MF_SATFINITE = 1u << 17, /* cvt .satfinite */
    PTX_MF_NOFTZ = 1u << 18,   /* .noftz (f16 ops) */
    PTX_MF_OOB = 1u << 19,     /* .oob */
    PTX_MF_TRAP = 1u << 20,    /* suld/sust .trap */
    PTX_MF_ZERO = 1u << 21,    /* sust .zero */
    PTX_MF_B = 1u << 22,       /* suld.b / sust.b (raw formatted) */
    PTX_MF_P = 1u << 23,       /* sust.p */
    PTX_MF_SHIFTED = 1u << 24, /* prmt etc.: reserved */
    PTX_MF_UNIFIED = 1u << 25, /* .level/unified hints */
    PTX_MF_FMA_NEGC = 1u << 26, /* fma made by ptx_contract from a*b - c: c negated */
    PTX_MF_FMA_NEGA = 1u << 27, /* ... from c - a*b: a negated */
};

typedef struct ptx_mods {
    uint8_t space;  /* ptx_space of ld/st/atom/red/cvta/isspacep/prefetch */
    uint8_t rnd;    /* ptx_rnd */
    uint8_t cmp;    /* ptx_cmp (setp, set) */
    uint8_t bop;    /* ptx_bop (setp/set combining, bar.red, vote) */
    uint8_t sub;    /* ptx_sub */
    uint8_t vec;    /* vector width: 1, 2, 4 or 8 */
    uint8_t cache;  /* ptx_cache */
    uint8_t sem;    /* ptx_sem */
    uint8_t scope;  /* ptx_scope */
    uint8_t sub2;   /* second ptx_sub where an opcode has two: tld4 component
                       (PTX_SUB_COMP_*), tex/tld4 mipmap mode (PTX_SUB_LEVEL/GRAD);
                       the geometry stays in sub */
    uint8_t shape;  /* tensor instructions: ptx_shape (.m16n16k16 ...) */
    uint8_t tens;   /* tensor instructions: PTX_TN_* bits */
    uint8_t tty[4]; /* tensor instructions: element types (ptx_ttype) of d, a, b, c;
                       wmma.load/.store, ldmatrix, stmatrix, movmatrix: tty[0] */
    uint32_t flags; /* PTX_MF_* */
} ptx_mods;

/* ---- tensor (warp-level matrix) instructions --------------------------------
** wmma.load, wmma.store, wmma.mma, mma, ldmatrix, stmatrix and movmatrix
** keep their qualifiers in ptx_mods.shape, .tens and .tty (their in->type and
** in->type2 stay PTX_T_NONE); .sync and .aligned are PTX_MF_SYNC and
** PTX_MF_ALIGNED, .satfinite PTX_MF_SATFINITE, a rounding mode m.rnd, a state
** space m.space.  ptx_tensor_form (tensor.c) says which combinations the
** PTX ISA defines and what their fragments are (docs/TENSOR.md). */

/*   X(ID, "name", m, n, k) */
#define PTX_SHAPES(X)                                                          \
    X(M8N8, "m8n8", 8, 8, 0) X(M8N8K4, "m8n8k4", 8, 8, 4)                      \
    X(M8N8K16, "m8n8k16", 8, 8, 16) X(M8N8K32, "m8n8k32", 8, 8, 32)            \
    X(M8N8K128, "m8n8k128", 8, 8, 128) X(M16N8K4, "m16n8k4", 16, 8, 4)         \
    X(M16N8K8, "m16n8k8", 16, 8, 8) X(M16N8K16, "m16n8k16", 16, 8, 16)         \
    X(M16N8K32, "m16n8k32", 16, 8, 32) X(M16N8K64, "m16n8k64", 16, 8, 64)      \
    X(M16N8K128, "m16n8k128", 16, 8, 128) X(M16N8K256, "m16n8k256", 16, 8, 256) \
    X(M16N16K8, "m16n16k8", 16, 16, 8) X(M16N16K16, "m16n16k16", 16, 16, 16)  \
    X(M32N8K16, "m32n8k16", 32, 8, 16) X(M8N32K16, "m8n32k16", 8, 32, 16)

typedef enum ptx_shape {
    PTX_SH_NONE,
#define X(id, s, m, n, k) PTX_SH_##id,
    PTX_SHAPES(X)
#undef X
    PTX_SH_COUNT
} ptx_shape;
typedef struct ptx_shapeinfo { const char *name; uint16_t m, n, k; } ptx_shapeinfo;
extern const ptx_shapeinfo ptx_shapes[PTX_SH_COUNT];

/* Element types of matrix fragments: X(ID, "name", bits) */
#define PTX_TTYPES(X)                                                          \
    X(F16, "f16", 16) X(BF16, "bf16", 16) X(TF32, "tf32", 32) X(F32, "f32", 32) \
    X(F64, "f64", 64) X(S8, "s8", 8) X(U8, "u8", 8) X(S4, "s4", 4)             \
    X(U4, "u4", 4) X(B1, "b1", 1) X(S32, "s32", 32) X(B16, "b16", 16)

typedef enum ptx_ttype {
    PTX_TT_NONE,
#define X(id, s, bits) PTX_TT_##id,
    PTX_TTYPES(X)
#undef X
    PTX_TT_COUNT
} ptx_ttype;
typedef struct ptx_ttypeinfo { const char *name; uint8_t bits; } ptx_ttypeinfo;
extern const ptx_ttypeinfo ptx_ttypes[PTX_TT_COUNT];

/* ptx_mods.tens */
enum {
    PTX_TN_FRAG = 3u,          /* wmma.load/.store: the fragment, PTX_FR_* */
    PTX_TN_ACOL = 1u << 2,     /* .col: the layout of wmma.load/.store, the a layout of wmma.mma/mma */
    PTX_TN_BCOL = 1u << 3,     /* .col: the b layout of wmma.mma/mma */
    PTX_TN_TRANS = 1u << 4,    /* ldmatrix/stmatrix/movmatrix .trans */
    PTX_TN_NUM_SHIFT = 5,      /* ldmatrix/stmatrix: log2 of the count .x1/.x2/.x4, 2 bits */
};
/* b1 products: .and.popc / .xor.popc are m.sub = PTX_SUB_AND / PTX_SUB_XOR with m.bop = PTX_BOP_POPC. */
enum { PTX_FR_A, PTX_FR_B, PTX_FR_C, PTX_FR_D };

/* Throughput classes of the multiply-accumulates (the timing model's rates). */
typedef enum ptx_tclass {
    PTX_TC_F16,     /* f16 inputs, f16 accumulation */
    PTX_TC_F16F32,  /* f16 or bf16 inputs, f32 accumulation */
    PTX_TC_TF32,
    PTX_TC_F64,
    PTX_TC_I8,      /* s8/u8 inputs */
    PTX_TC_I4,      /* s4/u4 inputs */
    PTX_TC_B1,      /* single-bit inputs (.and/.xor.popc) */
    PTX_TC_COUNT
} ptx_tclass;


/* ---- predefined identifiers --------------------------------------------
** The PTX ISA (section "Identifiers", table "Predefined Identifiers")
** predefines one constant, WARP_SZ, and the special registers below, whose
** names begin with '%'.  %envreg<32>, %pm<8> (and %pm<8>_64) and
** %reserved_smem_offset_<2> are numbered families: the number is the
** operand's component.
**
** WARP_SZ is an integer constant (the threads in a warp, 32): the parser
** turns it into an immediate wherever a constant may stand, alone or in a
** constant expression, unless a declaration of that name shadows it.  */
#define PTX_WARP_SZ 32

/*   X(ID, "name", has .x/.y/.z components) */
#define PTX_SREGS(X)                                                           \
    X(TID, "%tid", 1) X(NTID, "%ntid", 1) X(CTAID, "%ctaid", 1)                \
    X(NCTAID, "%nctaid", 1) X(LANEID, "%laneid", 0) X(WARPID, "%warpid", 0)    \
    X(NWARPID, "%nwarpid", 0) X(SMID, "%smid", 0) X(NSMID, "%nsmid", 0)        \
    X(GRIDID, "%gridid", 0) X(CLOCK, "%clock", 0) X(CLOCK_HI, "%clock_hi", 0)  \
    X(CLOCK64, "%clock64", 0) X(GLOBALTIMER, "%globaltimer", 0)                \
    X(GLOBALTIMER_LO, "%globaltimer_lo", 0) X(GLOBALTIMER_HI, "%globaltimer_hi", 0) \
    X(LANEMASK_EQ, "%lanemask_eq", 0) X(LANEMASK_LE, "%lanemask_le", 0)        \
    X(LANEMASK_LT, "%lanemask_lt", 0) X(LANEMASK_GE, "%lanemask_ge", 0)        \
    X(LANEMASK_GT, "%lanemask_gt", 0) X(DYNAMIC_SMEM_SIZE, "%dynamic_smem_size", 0) \
    X(TOTAL_SMEM_SIZE, "%total_smem_size", 0) X(ENVREG, "%envreg", 0)          \
    X(PM, "%pm", 0) X(CLUSTERID, "%clusterid", 1) X(NCLUSTERID, "%nclusterid", 1) \
    X(CLUSTER_CTAID, "%cluster_ctaid", 1) X(CLUSTER_NCTAID, "%cluster_nctaid", 1) \
    X(CLUSTER_CTARANK, "%cluster_ctarank", 0) X(CLUSTER_NCTARANK, "%cluster_nctarank", 0) \
    X(IS_EXPLICIT_CLUSTER, "%is_explicit_cluster", 0)                         \
    X(AGGR_SMEM_SIZE, "%aggr_smem_size", 0)                                    \
    X(CURRENT_GRAPH_EXEC, "%current_graph_exec", 0)                            \
    X(RESERVED_SMEM_OFFSET_BEGIN, "%reserved_smem_offset_begin", 0)            \
    X(RESERVED_SMEM_OFFSET_END, "%reserved_smem_offset_end", 0)                \
    X(RESERVED_SMEM_OFFSET_CAP, "%reserved_smem_offset_cap", 0)                \
    X(RESERVED_SMEM_OFFSET, "%reserved_smem_offset_", 0)

typedef enum ptx_sreg {
#define X(id, name, xyz) PTX_SR_##id,
    PTX_SREGS(X)
#undef X
    PTX_SR_COUNT
} ptx_sreg;
extern const char *const ptx_sreg_names[PTX_SR_COUNT];
/* The numbered families: %envreg<32>, %pm<8>, %reserved_smem_offset_<2>;
** the count of members. */
static inline unsigned ptx_sreg_family(int sr)
{
    return sr == PTX_SR_ENVREG ? 32 : sr == PTX_SR_PM ? 8 : sr == PTX_SR_RESERVED_SMEM_OFFSET ? 2 : 0;
}

/* ---- operands ----------------------------------------------------------- */

typedef enum ptx_okind {
    PTX_OK_NONE,
    PTX_OK_REG,   /* r = row (non-predicate register) */
    PTX_OK_PRED,  /* r = predicate index; flags may hold PTX_OF_NEG */
    PTX_OK_IMM,   /* imm = the value's bits (integers sign-extended to 64 bits,
                     f32 as its 32 bits, f64 as its 64 bits); r = constant row
                     (filled by the functional model; -1 until then) */
    PTX_OK_SREG,  /* r = ptx_sreg, imm = component (0 x, 1 y, 2 z; %envreg<N>: N) */
    PTX_OK_SYM,   /* address of a variable or function: r = symbol (see ptx_symref), imm = offset */
    PTX_OK_ADDR,  /* [base + imm]: base kind in 'base', r = row or symbol */
    PTX_OK_VEC,   /* {a, b, ..}: r = index of the first element in the operand pool, n = count */
    PTX_OK_LABEL, /* r = target pc (module-global instruction index) */
    PTX_OK_FUNC,  /* r = function index (call target / function address) */
    PTX_OK_SINK,  /* '_' : result discarded */
    PTX_OK_CALL,  /* call operands: r = pool index of [rets..., args...], n = total, imm = number of rets */
} ptx_okind;

enum { PTX_OF_NEG = 1 };                   /* !%p */
typedef enum ptx_abase { PTX_AB_NONE, PTX_AB_REG, PTX_AB_SYM } ptx_abase;

typedef struct ptx_opnd {
    uint8_t kind;   /* ptx_okind */
    uint8_t n;      /* VEC / CALL: element count */
    uint8_t flags;  /* PTX_OF_* */
    uint8_t base;   /* ADDR: ptx_abase */
    int32_t r;      /* see ptx_okind */
    int64_t imm;
} ptx_opnd;

/* Symbols referenced by PTX_OK_SYM and PTX_AB_SYM: r encodes where the
** symbol lives.  Module variables are 0..nvars-1; a function-scope variable
** (a .local depot, a .shared array declared in a kernel, a callseq .param)
** is PTX_SYM_FVAR + its index in the function's var list; a parameter of the
** current function (kernel or .func) is PTX_SYM_PARAM + its index; a return
** parameter is PTX_SYM_RET + index. */
enum { PTX_SYM_FVAR = 0x10000000, PTX_SYM_PARAM = 0x20000000, PTX_SYM_RET = 0x30000000,
       PTX_SYM_KIND_MASK = 0x70000000 };

/* ---- instructions ------------------------------------------------------- */

enum { PTX_MAX_OPND = 8 };

/* ptx_insn.hint */
enum { PTX_HINT_NOUNROLL = 1 }; /* .pragma "nounroll": the loop this instruction heads is not unrolled */

typedef struct ptx_insn {
    uint16_t op;       /* ptx_op */
    uint8_t type;      /* ptx_type: the instruction type; for cvt the destination type */
    uint8_t type2;     /* second type: cvt source, set/slct/tex/dp4a second type */
    uint8_t nopnd;     /* operands used in o[] */
    uint8_t ndst;      /* leading operands that are written (a d|p pair counts 2) */
    int8_t guard_neg;  /* 1 if the guard is @!%p */
    uint8_t hint;      /* PTX_HINT_*: what a .pragma just before the instruction said */
    int32_t guard;     /* guard predicate index, -1 when unguarded */
    uint32_t rpc;      /* bra/brx/ret: the reconvergence pc (immediate post-dominator);
                          filled by the CFG pass */
    ptx_mods m;
    ptx_opnd o[PTX_MAX_OPND];
    uint32_t line, col; /* position in the PTX text */
    uint32_t srcfile, srcline; /* from the last .loc: file index and line (0 if none) */
} ptx_insn;

/* What a valid tensor instruction's operands are (ptx_tensor_form). */
typedef struct ptx_tform {
    uint8_t regs[4];   /* registers in the vector of operand d, a, b, c (wmma.load: regs[0]
                          the destination; wmma.store, stmatrix: regs[0] the source) */
    uint8_t rbytes[4]; /* bytes of each of those registers: 4, or 8 for f64 */
    uint8_t tclass;    /* ptx_tclass (wmma.mma and mma) */
    uint32_t macs;     /* multiply-accumulates of the warp instruction (wmma.mma and mma) */
} ptx_tform;

/* Checks in's qualifiers against the forms the PTX ISA defines for its
** opcode and fills f.  Returns NULL when the form is one tpsim executes,
** else why not (a static string). */
const char *ptx_tensor_form(const ptx_insn *in, ptx_tform *f);
/* Whether op is one of the tensor instructions above. */
bool ptx_op_is_tensor(int op);

/* ---- variables, parameters, registers --------------------------------- */

/* An initializer entry that holds an address: the bytes at 'offset' (size
** bytes) get the address of symbol + addend when the module is loaded. */
typedef struct ptx_reloc {
    uint64_t offset;
    int32_t sym;      /* module variable index, or PTX_SYM_FUNC + function index */
    uint8_t size;     /* 4 or 8 */
    uint8_t generic;  /* generic(sym) form */
    int64_t addend;
} ptx_reloc;
enum { PTX_SYM_FUNC = 0x40000000 };

typedef struct ptx_var {
    const char *name;
    uint8_t space;      /* ptx_space */
    uint8_t type;       /* element type */
    uint8_t is_extern;  /* .extern (e.g. extern .shared arrays: dynamic shared memory) */
    uint8_t is_visible; /* .visible */
    uint8_t is_weak, has_init, is_array_unsized, pad;
    uint32_t align;     /* bytes (the type size when no .align is given) */
    uint64_t size;      /* total bytes (0 for an unsized extern array) */
    uint8_t *init;      /* size bytes when has_init (entries not given are zero);
                           NULL without an initializer */
    ptx_reloc *relocs;
    uint32_t nrelocs;
    uint32_t texref;    /* 1 .texref, 2 .samplerref, 3 .surfref (an 8-byte handle, type b64); 0 otherwise */
    uint64_t offset;    /* function-scope .local and .param variables: byte offset
                           in the thread's frame (see ptx_func.local_bytes);
                           otherwise 0 (exec/ assigns addresses) */
    uint32_t line, col;
} ptx_var;

typedef struct ptx_param {
    const char *name;
    uint8_t type;       /* element type (.b8 for byte arrays) */
    uint8_t is_ptr;     /* .ptr attribute given */
    uint8_t ptr_space;  /* .ptr.global etc. */
    uint8_t pad;
    uint32_t align;     /* bytes */
    uint32_t size;      /* total bytes */
    uint32_t offset;    /* byte offset in the parameter buffer (kernels: as CUDA lays it out) */
} ptx_param;

typedef struct ptx_reg {
    const char *name;   /* as written ("%r12", "temp_param_reg") */
    uint8_t type;       /* declared ptx_type */
    uint8_t cont;       /* 1 for the second row of a b128 register */
    uint8_t scope;      /* nesting depth of the { } where it was declared (0 = function body) */
    uint8_t pad;
} ptx_reg;

/* ---- CFG ---------------------------------------------------------------- */

typedef struct ptx_block {
    uint32_t start, end;   /* instruction range [start, end) (module-global pcs) */
    int32_t succ[2];       /* successor block indices, -1 for none */
    uint32_t *preds;       /* predecessor block indices */
    uint32_t npreds;
    int32_t ipdom;         /* immediate post-dominator block (the FNEXIT block when that is it);
                              -1 for the FNEXIT block itself and for blocks that cannot reach
                              it (infinite loops): lanes reconverge at the function's exit */
} ptx_block;

/* ---- functions -------------------------------------------------------- */

typedef struct ptx_func {
    const char *name;
    uint8_t is_entry;       /* .entry (kernel) */
    uint8_t is_decl;        /* declared only (prototype or .extern, no body) */
    uint8_t is_visible, is_extern, is_weak, noreturn, pad[2];
    ptx_param *params; uint32_t nparams;
    ptx_param *rets;   uint32_t nrets;
    uint32_t param_bytes;   /* size of the parameter buffer */
    uint32_t ret_bytes;     /* .func: from param_bytes to the end of the return params */

    uint32_t start, end;    /* instruction range [start, end); insns[end-1] is FNEXIT */

    ptx_reg *regs;   uint32_t nrows;   /* registers by row */
    ptx_reg *preds;  uint32_t npreds;  /* predicate registers */

    ptx_var *vars;   uint32_t nvars;   /* function-scope variables (.local, .shared, callseq .param) */
    uint32_t local_bytes;   /* per-thread frame: params + rets + .local vars + callseq params */

    /* performance-tuning directives (0 = not given) */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnctapersm, maxnreg;
    uint32_t reqnctapercluster[3], maxclusterrank;
    uint8_t noreturn_attr;

    ptx_block *blocks; uint32_t nblocks;   /* filled by ptx_cfg_build */
    uint32_t line, col;

    /* Filled by ptx_regalloc (liveness and physical register allocation). */
    uint32_t ra_regs;       /* 32-bit registers per thread after allocation (0 = not run) */
    uint32_t ra_max_live;   /* largest number of 32-bit registers live at once */
    int32_t *ra_map;        /* row -> first physical 32-bit register (-1 = never used) */
    uint32_t ra_spills;     /* 32-bit registers the limit could not hold (see ptx_regalloc);
                               in lowered code: the registers spilled to local memory */
    uint32_t ra_own;        /* registers the allocation uses (highest + 1) */
    uint32_t ra_unroll;     /* registers the loops ptxas unrolls need unrolled (ptx_lower; 0: none):
                               the count is at least this plus the reserve */
    uint32_t ra_expand;     /* the most units live at an instruction ptxas expands (FP64 division,
                               square root, reciprocal; 64-bit integer division) plus the
                               expansion's temporaries: the count is at least this plus the reserve */
    uint32_t ra_ncalls;     /* call sites: ra_calls[2k] its pc, ra_calls[2k+1] units live across it */
    uint32_t *ra_calls;
    /* Lowered code only (ptx_lower). */
    uint8_t *ra_cb;         /* per row: 1 for a value the hardware keeps in the constant bank or
                               an immediate (a kernel parameter, a constant, an address): defined
                               in place, read for free, in no register (ra_map -1) */
    uint32_t ra_ncb;        /* rows with ra_cb set */
    uint32_t *ra_fold;      /* per row, NULL none: 1 + the row of which a ra_cb row (an address
                               ptxas folds, live.c find_folds) is an immediate offset; the
                               value of that row is live at each of its uses; 0 none */
    struct ptx_rshare *rs;  /* register sharing (a policy's pass, regmutex/policy.h), NULL: none */
} ptx_func;

/* ---- module ------------------------------------------------------------ */

/* A source location: a .file index and a line. */
typedef struct ptx_srcloc {
    uint32_t file, line;
} ptx_srcloc;

/* The newest PTX ISA version tpsim reads: 9.0, what nvcc 13.0 emits.  A
** module declaring a newer .version is refused (it may use what tpsim does
** not know); older versions are all accepted. */
enum { PTX_ISA_MAX_MAJOR = 9, PTX_ISA_MAX_MINOR = 0 };

typedef struct ptx_module {
    tp_arena arena;
    const char *filename;
    uint32_t version_major, version_minor;
    uint32_t target_sm;         /* e.g. 75 for sm_75 (first target listed) */
    uint32_t address_size;      /* 32 or 64 */
    uint8_t target_flags;       /* 1 texmode_independent, 2 debug, 4 map_f64_to_f32 */
    ptx_var *vars;   uint32_t nvars;
    ptx_func *funcs; uint32_t nfuncs;
    ptx_insn *insns; uint32_t ninsns;  /* kept outside the arena (freed by ptx_module_free);
                                          a pass that replaces the array puts the new one
                                          in the arena and never frees or reallocs this one */
    ptx_opnd *pool;  uint32_t npool;
    const char **files; uint32_t nfiles;   /* .file directives, by index */
    /* Parallel to insns, or NULL when no .loc says inlined_at: for an
    ** instruction of an inlined function, the outermost call site it was
    ** inlined at (the line of the function being compiled; file 0: not
    ** inlined); its srcfile/srcline stay the innermost location. */
    ptx_srcloc *inlined_at;
} ptx_module;

/* ---- API --------------------------------------------------------------- */

/* Parses PTX text (not necessarily NUL-terminated) into a module, builds each
** function's CFG and post-dominators, and checks the module (every label,
** register, symbol and called function defined; operands of the right kinds).
** On error returns NULL and sets e->msg to "file:line:col: message". */
ptx_module *ptx_parse(const char *text, size_t len, const char *filename, tp_err *e);
void ptx_module_free(ptx_module *m);

int ptx_find_func(const ptx_module *m, const char *name);   /* index or -1 */
int ptx_find_var(const ptx_module *m, const char *name);    /* index or -1 */
/* The function owning instruction pc. */
const ptx_func *ptx_func_of_pc(const ptx_module *m, uint32_t pc);

/* CFG and immediate post-dominators; fills f->blocks and insn->rpc. */
bool ptx_cfg_build(ptx_module *m, ptx_func *f, tp_err *e);

/* Prints one instruction in PTX syntax (for traces and error messages). */
void ptx_insn_print(const ptx_module *m, const ptx_func *f, const ptx_insn *in, tp_sbuf *out);
/* The label at module pc, or NULL (ptx_insn_print names other branch
** targets $pcN, N the module pc). */
const char *ptx_label_at(const ptx_module *m, uint32_t pc);

/* Name of a symbol reference (PTX_OK_SYM / PTX_AB_SYM r field) within f. */
const char *ptx_sym_name(const ptx_module *m, const ptx_func *f, int32_t sym);

/* ---- liveness and register allocation (live.c, regalloc.c) ------------ */
/* docs/REGISTERS.md describes the model.
**
** Uses and definitions.  The first ndst operands of an instruction define
** registers (vector elements each; '_' sinks nothing); the registers of
** every other operand are uses (address bases, vector elements, a call's
** target register and argument registers).  A call's register return
** values (old .reg-parameter syntax) are definitions.  A guarded instruction
** does not kill its definitions: the old value survives where the guard is
** false.  Predicates are not registers and never appear here.  A b128
** register (two rows) is represented by its first row everywhere below. */

/* One register an instruction names, in operand order (ptx_insn_regs). */
typedef enum ptx_rokind {
    PTX_RO_DEF,     /* a destination (vector elements and a call's register results too) */
    PTX_RO_SRC,     /* a plain source operand */
    PTX_RO_ADDR,    /* an address base */
    PTX_RO_OTHER,   /* a vector element source, a call's target or argument register */
    PTX_RO_PDEF,    /* a predicate written (only with PTX_REGS_PREDS) */
    PTX_RO_PUSE,    /* a predicate read, the guard first (only with PTX_REGS_PREDS) */
} ptx_rokind;
typedef struct ptx_regocc { uint32_t row; uint8_t kind; } ptx_regocc;
enum { PTX_REGS_PREDS = 1u << 0 };
/* The registers instruction in of f reads and writes, as rows (first rows of
** b128 registers), in operand order; with PTX_REGS_PREDS also its predicates
** (row = predicate index).  Fills at most cap entries and returns how many
** there are (which may exceed cap).  Liveness is computed from these lists;
** the functional model derives each instruction's static facts from them. */
uint32_t ptx_insn_regs(const ptx_module *m, const ptx_func *f, const ptx_insn *in, uint32_t flags,
                       ptx_regocc *out, uint32_t cap);

/* 32-bit register units of a row: 1 for a register of 32 bits or less, 2
** for 64 bits, 4 for the first row of a b128 and 0 for its second row. */
uint32_t ptx_row_units(const ptx_func *f, uint32_t row);

/* Liveness views. */
enum {
    PTX_LIVE_PURE = 0,      /* exactly the PTX program's registers */
    PTX_LIVE_ALLOC = 1u << 0 /* the allocator's view: values the hardware re-reads
                                from the constant bank or an immediate (kernel
                                parameters, constants, global addresses) are not
                                kept in registers between their uses; see
                                docs/REGISTERS.md */
};

/* Per-instruction liveness of one function.  Sets are bitsets over rows,
** 'words' 64-bit words each. */
typedef struct ptx_live {
    uint32_t start, ninsns; /* instructions [start, start + ninsns): the function's range */
    uint32_t nrows, words;
    uint32_t flags;         /* PTX_LIVE_* it was computed with */
    uint64_t *in;           /* live-in set of pc: in + (pc - start) * words */
    uint32_t *units;        /* units[pc - start]: 32-bit units live into pc */
    uint32_t max_units;     /* most units live at once: over every instruction's
                               live-in, and its live-out plus its definitions */
    uint32_t max_pc;        /* an instruction where max_units is reached */
} ptx_live;

/* Computes the liveness of a defined function (f->blocks must be built).
** Registers read before any definition on some path are live-in at entry.
** Returns false (e set) for a function without a body. */
bool ptx_liveness(const ptx_module *m, const ptx_func *f, uint32_t flags, ptx_live *lv, tp_err *e);
void ptx_live_free(ptx_live *lv);
/* Whether row is live into pc (the second row of a b128 answers for its first). */
bool ptx_live_has(const ptx_live *lv, const ptx_func *f, uint32_t pc, uint32_t row);

/* Allocates physical 32-bit registers for f (and, first, for the functions
** it calls) and fills f->ra_regs, ra_max_live, ra_map (from the module
** arena) and ra_spills.  ra_map[row] is the first physical register of the
** row: 64-bit values take aligned even pairs, b128 aligned quads (its second
** row maps to first + 2); -1 for a row that never occupies a register.
** ra_regs is what ptxas would report as "Used N registers": the allocation,
** plus the registers the calling convention reserves, plus the callees'
** needs at each call site, capped at max_regs.  ra_spills is the amount
** over max_regs (tpsim runs no spill code: the executor keeps every PTX
** register; only occupancy sees ra_regs).  Declared-only functions get
** ra_regs 0.  Returns false (e set) only for malformed input. */
bool ptx_regalloc(ptx_module *m, ptx_func *f, uint32_t max_regs, tp_err *e);
/* The register limit ptxas applies to f: max_regs, lowered by .maxnreg and
** by .maxntid/.reqntid with .minnctapersm (regs_per_sm shared by that many
** warps, in whole allocation units of warp_alloc_unit registers per warp). */
uint32_t ptx_regalloc_limit(const ptx_func *f, uint32_t max_regs, uint32_t regs_per_sm,
                            uint32_t warp_alloc_unit);
/* Checks f's allocation: at every instruction reachable from the entry,
** the rows live before it, and the rows live after it together with its
** definitions, (allocator's view) occupy pairwise disjoint physical
** registers; every such row is mapped, aligned and within the allocation.
** Returns false with a message naming the instruction otherwise. */
bool ptx_regalloc_check(const ptx_module *m, const ptx_func *f, tp_err *e);

/* ---- lowering (lower.c): the code the register count describes -------- */
/* docs/REGISTERS.md.  ptx_lower makes, from a parsed module, the module
** ptxas would make registers for, still in PTX with virtual registers:
**   - each basic block list-scheduled as ptxas schedules before it allocates
**     (sched.c), unless that would take its pressure past RA_SCHED_CAP (64)
**     or the function's limit: then in program order;
**   - values the hardware reads from the constant bank (kernel parameters,
**     constants, symbol addresses) stay defined where they are, in rows
**     marked ra_cb that occupy no register; where an instruction cannot read
**     one as an operand (an address base, a stored value, a second constant)
**     a copy into a fresh register is inserted just before it;
**   - when the allocation needs more than the function's limit (the device's
**     per-thread maximum, lowered by regs.max (force_max), .maxnreg and the
**     launch bounds; the kernel reserve included) values are spilled to a
**     local-memory array (__tpsim_spill): a load before each use, a store
**     after each definition, until the code fits;
**   - registers allocated (ptx_regalloc): ra_map is valid for this code, and
**     ra_regs is its count.
** Function indices, names, parameters and variables are the source's (the
** result borrows them: m must outlive it; ptx_module_free frees only what the
** lowering made).  The result's instructions are a legal execution of the
** source's: exec/ runs them with regs.physical=1. */
typedef struct ptx_lower_opts {
    uint32_t max_regs;      /* the device's per-thread limit (device.max_regs_per_thread) */
    uint32_t force_max;     /* a -maxrregcount style limit for every function (regs.max); 0: none */
    uint32_t regs_per_sm, alloc_unit; /* for launch bounds (ptx_regalloc_limit): registers per SM,
                               allocation unit per warp */
    bool no_schedule;       /* keep program order */
    uint32_t ifconvert;     /* ptxas's if-conversion (ptx_ifconvert) of guarded bodies of at most
                               this many instructions before scheduling; 0: none */
} ptx_lower_opts;
ptx_module *ptx_lower(const ptx_module *m, const ptx_lower_opts *o, tp_err *e);

/* ptxas's if-conversion (ifconv.c): in f, each branch round a short body
** (at most max_insns instructions) goes and the body runs guarded, in
** place (the branch becomes an instruction that ptx_insn_gone names); f's
** CFG is built again.  Returns the bodies converted (-1 with e set if the
** CFG could not be built). */
int ptx_ifconvert(ptx_module *m, ptx_func *f, uint32_t max_insns, tp_err *e);
/* A branch ptx_ifconvert removed: a mov with no operands, which the lowering drops. */
static inline bool ptx_insn_gone(const ptx_insn *in) { return in->op == PTX_OP_MOV && in->nopnd == 0; }

/* ptxas's contraction of a mul feeding an add/sub (f32, f64; no rounding
** modifiers) into one fma (contract.c).  Returns the pairs contracted. */
unsigned ptx_contract(ptx_module *m);

/* Colors f's rows again (PTX_LIVE_ALLOC view) with an upper bound per row
** (registers [ra_map, ra_map + units) below bound[row]; UINT32_MAX: none,
** and not colored first); bounded rows are colored first, the widest first.
** On success replaces f->ra_map and f->ra_own (*own) and gives in *first
** (may be NULL) the registers the bounded rows use (highest + 1); false (f
** unchanged) when some row does not fit its bound, or with e set on
** malformed input.  The regmutex pass compacts with it. */
bool ptx_ra_color_bounded(ptx_module *m, ptx_func *f, const uint32_t *bound, uint32_t *own, uint32_t *first,
                          tp_err *e);

/* ---- register sharing (filled by a register-sharing policy's pass, regmutex/) ---- */
/* Registers [0, base) of the lowered code are the warp's own; [base, base +
** ext) live in a section of storage the SM shares among its warps, which the
** warp holds between an acquire and a release.  at[pc - f->start] (NULL: no
** marks, no section):
**   PTX_RS_ACQUIRE  before it runs pc the warp must hold a section (it waits
**                   for one if it holds none)
**   PTX_RS_RELEASE  before it runs pc the warp gives its section back, unless
**                   a lane of it waits at a pc marked PTX_RS_HELD (SIMT
**                   divergence): then it keeps it to a later release
**   PTX_RS_HELD     every path to pc passes an acquire and no release after
**                   it: the warp holds its section when it runs pc; only at
**                   such pcs may registers >= base be live.
** No pc marked HELD is a CTA barrier.  A warp that finishes gives its
** section back.  A policy that keeps no registers apart (ext 0, at NULL)
** uses the record only to say that it applies, with its own data. */
enum { PTX_RS_ACQUIRE = 1u << 0, PTX_RS_RELEASE = 1u << 1, PTX_RS_HELD = 1u << 2 };
typedef struct ptx_rshare {
    const void *policy;     /* the policy that made it (an rs_policy of regmutex/policy.h) */
    uint32_t base, ext;     /* |Bs|, |Es| in 32-bit registers of the lowered code */
    uint32_t base_regs;     /* registers per thread occupancy charges: base + the reserve */
    uint32_t pool_min;      /* registers per SM the shared part keeps at the least (occupancy leaves them) */
    uint8_t *at;            /* per instruction, PTX_RS_* (NULL: none) */
    void *data;             /* the policy's own (in the module's arena) */
} ptx_rshare;

#endif
