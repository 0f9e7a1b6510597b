#!/bin/sh
# rt_abi_list.sh HEADER OUT -- lists what tpsim's cuda_runtime_api.h
# defines, for the ABI comparison with NVIDIA's header (tests/cudart/rt_abi.c
# prints the list's values; run_cudart.sh compares the outputs):
#   S(type)          a structure or union: size and alignment
#   F(type, member)  a top-level member: offset and size
#   E(name)          an enumerator or integer #define
#   R(name)          a pointer-valued #define
# It relies on the header's layout: an aggregate opens with "struct NAME {"
# or "typedef struct|union NAME {" in column 0 and closes with "}" in
# column 0; its members are indented by four spaces, nested aggregates
# close with "    } member;".
set -eu
awk '
/^(typedef )?(struct|union) [A-Za-z_0-9]+ \{$/ {
    agg = 1; depth = 0; nm = 0
    tag = ($1 == "typedef") ? $2 " " $3 : $1 " " $2
    next
}
agg && /^    (struct|union) \{/ { depth++; next }
agg && depth && /^    \} [A-Za-z_][A-Za-z0-9_]*;/ { m = $2; sub(/;.*/, "", m); mem[nm++] = m; depth--; next }
agg && !depth && /^    [^ }]/ {
    line = $0; sub(/;.*/, "", line); sub(/\[.*\]/, "", line)
    n = split(line, w, /[ *]+/); mem[nm++] = w[n]; next
}
agg && /^\}/ {
    t = tag
    if ($0 ~ /^\} [A-Za-z_][A-Za-z0-9_]*;/) { t = $2; sub(/;.*/, "", t) }
    print "S(" t ")"
    for (i = 0; i < nm; i++) print "F(" t ", " mem[i] ")"
    agg = 0; next
}
/^(typedef )?enum [A-Za-z_0-9]+ \{$/ { en = 1; next }
en && /^    cuda[A-Za-z0-9_]*/ { e = $1; sub(/,$/, "", e); print "E(" e ")"; next }
en && /^\}/ { en = 0; next }
/^#define (cuda[A-Za-z0-9_]*|CUDART_VERSION) (0x[0-9a-f]+|[0-9]+|\(\(int\)-?[0-9]+\))$/ { print "E(" $2 ")"; next }
/^#define cuda[A-Za-z0-9_]* \(\(cudaStream_t\)0x[0-9]\)$/ { print "R(" $2 ")" }
' "$1" > "$2"
