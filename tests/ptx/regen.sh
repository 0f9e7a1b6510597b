#!/bin/sh
# regen.sh -- regenerates the PTX fixtures of tests/ptx from their .cu
# sources with nvcc (CUDA 13: PTX ISA 9.0).  The .ptx files are committed, so
# the tests do not need nvcc; run this after changing a .cu file.
#   sh tests/ptx/regen.sh
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "regen.sh: $NVCC not found; keeping the committed .ptx files" >&2
    exit 0
fi
gen() { # source arch [extra flags]
    src=$1; arch=$2; shift 2
    out=${src%.cu}.$arch.ptx
    "$NVCC" -ptx -arch="$arch" "$@" "$src" -o "$out"
    echo "regen.sh: $out"
}
gen basic.cu sm_75
gen half.cu sm_80
gen half.cu sm_90
gen globals.cu sm_75
gen tex.cu sm_75
gen debug.cu sm_75 -G
