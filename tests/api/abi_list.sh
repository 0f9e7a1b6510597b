#!/bin/sh
# abi_list.sh CUDA_H OUTDIR -- lists what tpsim's cuda.h defines, for the ABI
# check against NVIDIA's header (see the Makefile):
#   OUTDIR/abi_list.h    E(name)   an enumerator or integer #define
#                        R(name)   a pointer-valued #define (compared at run time)
#                        M(name)   a function-name mapping (cuX -> cuX_vN)
#                        S(type)   a typedef'd struct, union or enum
#                        F(type, member)  a top-level member of a struct
#   OUTDIR/abi_protos.h  every function prototype, verbatim
# It relies on the layout of api/include/cuda.h: top-level typedefs close
# with "} Name;" in column 0, members are indented by four spaces.
set -eu
h=$1
out=$2
awk '
/^typedef (struct|union) .*\{$/ { agg = 1; nmem = 0; depth = 0 }
/^typedef enum / { en = 1 }
en && /^    [A-Za-z_][A-Za-z0-9_]*( = .*|,)?$/ {
    name = $1; sub(/,$/, "", name); print "E(" name ")"
}
agg && /^    (struct|union) \{/ { depth = 1; next }
agg && depth && /^    \} [A-Za-z_][A-Za-z0-9_]*;/ {
    m = $2; sub(/;.*/, "", m); mem[nmem++] = m; depth = 0; next
}
agg && !depth && /^    [^ }]/ {
    line = $0; sub(/;.*/, "", line); sub(/\[.*\]/, "", line)
    n = split(line, w, /[ *]+/); mem[nmem++] = w[n]
}
/^\} [A-Za-z_][A-Za-z0-9_]*;/ {
    t = $2; sub(/;.*/, "", t); print "S(" t ")"
    if (agg) for (i = 0; i < nmem; i++) print "F(" t ", " mem[i] ")"
    agg = 0; en = 0
}
/^typedef [A-Za-z_][A-Za-z0-9_ ]* [A-Za-z_][A-Za-z0-9_]*;$/ && !/\(/ {
    t = $NF; sub(/;/, "", t); print "S(" t ")"
}
/^#define (CU_|CUDA_VERSION)[A-Z0-9_]* / {
    if ($0 ~ /\*\)|CUstream\)|CUdevice\)/) print "R(" $2 ")"; else print "E(" $2 ")"
}
/^#define cu[A-Za-z0-9_]* / { print "M(" $2 ")" }
' "$h" > "$out/abi_list.h"
awk '/^\/\* ===== functions/ { on = 1; next } on && /^#(ifdef __cplusplus|if defined)/ { exit } on { print }' "$h" > "$out/abi_protos.h"
