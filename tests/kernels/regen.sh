#!/bin/sh
# regen.sh -- regenerates every tests/kernels/*.ptx from its .cu with nvcc
# (the .ptx files are committed: the suite runs without a CUDA toolkit).
#
#   sh tests/kernels/regen.sh        (or: make ptx-regen)
#
# Flags: -ptx -arch=sm_75, except float_ftz.cu (adds -ftz=true) and
# half80.cu (-arch=sm_80).  When ptxas is present each result is also
# assembled, which catches mistakes in the inline PTX that nvcc -ptx passes
# through unchecked.  Without nvcc it prints "SKIP: nvcc not found" and
# succeeds.
here=$(cd "$(dirname "$0")" && pwd)

NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        NVCC=/usr/local/cuda/bin/nvcc
    else
        echo "SKIP: nvcc not found"
        exit 0
    fi
fi
PTXAS=$(dirname "$(command -v "$NVCC")")/ptxas

arch_of() {
    case "$1" in
    half80) echo sm_80 ;;
    *) echo sm_75 ;;
    esac
}
extra_of() {
    case "$1" in
    float_ftz) echo "-ftz=true" ;;
    *) echo "" ;;
    esac
}

status=0
for cu in "$here"/*.cu; do
    b=$(basename "$cu" .cu)
    arch=$(arch_of "$b")
    # shellcheck disable=SC2046
    if ! "$NVCC" -ptx -arch="$arch" $(extra_of "$b") -o "$here/$b.ptx" "$cu"; then
        echo "regen: nvcc failed on $b.cu"
        status=1
        continue
    fi
    if [ -x "$PTXAS" ] && ! "$PTXAS" -arch="$arch" "$here/$b.ptx" -o /dev/null; then
        echo "regen: ptxas rejects $b.ptx"
        status=1
        continue
    fi
    echo "regen: $b.ptx ($arch $(extra_of "$b"))"
done
exit $status
