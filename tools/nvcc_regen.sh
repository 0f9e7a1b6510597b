#!/bin/sh
# nvcc_regen.sh -- the loop every regen.sh runs: remakes committed .ptx files
# from their .cu sources with nvcc -ptx (the .ptx files are committed, so
# the tests and experiments run without a CUDA toolkit).
#
#   sh tools/nvcc_regen.sh [--ptxas] DIR ARCH [NVCC_FLAG...]
#       every DIR/*.cu to DIR/NAME.ptx, with -arch=ARCH and the flags
#   sh tools/nvcc_regen.sh [--ptxas] DIR -
#       the files listed on stdin, one a line: SOURCE ARCH OUTPUT [NVCC_FLAG...]
#       (SOURCE and OUTPUT relative to DIR; # starts a comment line)
#
# nvcc is $NVCC, else nvcc on PATH, else /usr/local/cuda/bin/nvcc; without
# one it prints "SKIP: nvcc not found (the committed .ptx files stay)" and
# succeeds.  --ptxas also assembles each result with the ptxas beside nvcc
# (when there is one) for the same ARCH, which catches PTX that nvcc -ptx
# passes through unchecked (inline asm).  One line per file, "regen: OUTPUT
# (ARCH FLAGS)", or "regen: nvcc failed on SOURCE" / "regen: ptxas rejects
# OUTPUT"; a failure does not stop the others, and the exit status is 1 when
# any failed.  Each regen.sh states its flags and why.
ptxas_check=0
if [ "${1:-}" = --ptxas ]; then
    ptxas_check=1
    shift
fi
if [ $# -lt 2 ]; then
    echo "usage: nvcc_regen.sh [--ptxas] DIR ARCH [NVCC_FLAG...] | DIR - <LIST" >&2
    exit 2
fi
dir=$(cd "$1" && pwd) || exit 2
shift

NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        NVCC=/usr/local/cuda/bin/nvcc
    else
        echo "SKIP: nvcc not found (the committed .ptx files stay)"
        exit 0
    fi
fi
NVCC=$(command -v "$NVCC")
PTXAS=$(dirname "$NVCC")/ptxas
# nvcc runs in DIR on relative names: the name it is given is the one
# __FILE__ and -G's debug sections record, so the output does not depend on
# where the checkout is.
cd "$dir" || exit 2

status=0
# one SOURCE ARCH OUTPUT [FLAG...]
regen_one() {
    src=$1 arch=$2 out=$3
    shift 3
    if ! "$NVCC" -ptx -arch="$arch" "$@" -o "$out" "$src"; then
        echo "regen: nvcc failed on $src"
        status=1
        return
    fi
    if [ $ptxas_check = 1 ] && [ -x "$PTXAS" ] && ! "$PTXAS" -arch="$arch" "$out" -o /dev/null; then
        echo "regen: ptxas rejects $out"
        status=1
        return
    fi
    echo "regen: $out ($arch${*:+ $*})"
}

if [ "$1" = - ]; then
    # shellcheck disable=SC2086
    while read -r line; do
        case "$line" in '' | '#'*) continue ;; esac
        set -- $line
        regen_one "$@"
    done
else
    arch=$1
    shift
    for cu in "$dir"/*.cu; do
        b=$(basename "$cu" .cu)
        regen_one "$b.cu" "$arch" "$b.ptx" "$@"
    done
fi
exit $status
