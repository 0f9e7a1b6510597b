#!/bin/sh
# opcoverage.sh -- the distinct PTX opcodes (with all their modifiers) used
# by the kernel suite, with counts, then a check against the opcodes real
# CUDA test suites use (the list of the kernel-suite issue).
#
#   sh tests/kernels/opcoverage.sh [-q]     (-q: only the check)
#
# Exit status 1 when a listed opcode appears in no .ptx file.
here=$(cd "$(dirname "$0")" && pwd)
quiet=0
[ "$1" = "-q" ] && quiet=1
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# One instruction per line: drop comments, split at ';', strip leading
# braces and guard predicates, keep the first word when it looks like an
# opcode (has a dot, or is one of the bare opcodes).
cat "$here"/*.ptx |
    sed -e 's://.*$::' | tr ';' '\n' |
    sed -E -e 's/^[[:space:]{]*//' -e 's/^@!?%[A-Za-z0-9_]+[[:space:]]+//' |
    grep -E '^[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)*([[:space:]]|$)' |
    awk '{ print $1 }' |
    grep -E '\.|^(ret|exit|trap|call|bra|brkpt)$' |
    sort | uniq -c | sort -k2 >"$tmp"

if [ $quiet -eq 0 ]; then
    echo "distinct opcodes: $(wc -l <"$tmp")"
    awk '{ printf "%7d  %s\n", $1, $2 }' "$tmp"
    echo
fi

# name: a regular expression over the opcode with its modifiers
missing=0
total=0
for want in \
    add ld mul mov st fma bra shr setp sub shl cvt and selp or xor mad neg cvta div bar \
    abs not max ret sqrt rcp call prmt atom ex2 min rem rsqrt bfi copysign madc addc subc clz \
    shfl vote popc brev bfe activemask \
    'atom\..*cas' 'atom\..*exch' 'atom\..*min' 'atom\..*max' 'atom\..*inc' 'mad\.lo\.cc' \
    'madc\.hi' 'add\.cc' 'sub\.cc' 'shfl\.sync\.bfly' 'vote\.sync\.ballot' 'match\.' 'bar\.red' \
    'atom\.shared' 'ld\.local' 'ld\.const' 'ld\.param' 'div\.rn\.f32' 'testp' 'slct' 'exit' 'trap' \
    'membar' 'tanh' 'lg2' 'sin' 'cos' '[a-z.]*\.f16' '[a-z.]*\.bf16' 'redux'; do
    total=$((total + 1))
    case "$want" in
    *[\\.]*) re="^$want" ;;
    *) re="^$want(\.|\$)" ;;
    esac
    if awk '{ print $2 }' "$tmp" | grep -Eq "$re"; then
        :
    else
        echo "MISSING $want"
        missing=$((missing + 1))
    fi
done
echo "opcode coverage: $((total - missing))/$total of the listed forms present"
[ $missing -eq 0 ]
