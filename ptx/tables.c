/* tables.c -- opcode, type, space and special-register tables, all derived
** from the X-macro lists in ptx_ops.def and ptx.h. */
#include "ptx.h"

#define ARITH PTX_UNIT_ARITH
#define INT PTX_UNIT_INT
#define SFU PTX_UNIT_SFU
#define MEM PTX_UNIT_MEM
#define TEX PTX_UNIT_TEX
#define CTRL PTX_UNIT_CTRL
#define SYNC PTX_UNIT_SYNC
#define TENSOR PTX_UNIT_TENSOR
#define L_ALU PTX_LAT_ALU
#define L_MUL PTX_LAT_MUL
#define L_FMA PTX_LAT_FMA
#define L_DIV PTX_LAT_DIV
#define L_SFU PTX_LAT_SFU
#define L_MEM PTX_LAT_MEM
#define L_CTRL PTX_LAT_CTRL
#define L_TENSOR PTX_LAT_TENSOR

const ptx_opinfo ptx_ops[PTX_OP_COUNT] = {
#define X(id, name, roles, unit, lat, flags, doc) {name, roles, doc, unit, L_##lat, flags},
#include "ptx_ops.def"
#undef X
};

const ptx_shapeinfo ptx_shapes[PTX_SH_COUNT] = {
    {"", 0, 0, 0},
#define X(id, s, m, n, k) {s, m, n, k},
    PTX_SHAPES(X)
#undef X
};

const ptx_ttypeinfo ptx_ttypes[PTX_TT_COUNT] = {
    {"", 0},
#define X(id, s, bits) {s, bits},
    PTX_TTYPES(X)
#undef X
};

const ptx_typeinfo ptx_types[PTX_T_COUNT] = {
#define X(id, s, sz, k) {s, sz, k},
    PTX_TYPES(X)
#undef X
};

const char *const ptx_space_names[PTX_SP_COUNT] = {
    "generic", "global", "shared", "local", "const", "param", "tex", "reg", "sreg",
    "shared::cluster", "param::entry", "param::func",
};

const char *const ptx_sreg_names[PTX_SR_COUNT] = {
#define X(id, name, xyz) name,
    PTX_SREGS(X)
#undef X
};
