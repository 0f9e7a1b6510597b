#!/bin/sh
# regen.sh -- regenerates every tests/kernels/*.ptx from its .cu with nvcc
# (tools/nvcc_regen.sh: the .ptx files are committed, the suite runs without
# a CUDA toolkit; without nvcc it prints "SKIP: ..." and succeeds).
#
#   sh tests/kernels/regen.sh        (or: make ptx-regen)
#
# Flags: -ptx -arch=sm_75, except float_ftz.cu (adds -ftz=true: the
# flush-to-zero forms) and half80.cu (-arch=sm_80: the bf16 and sm_80 half
# instructions).  Each result is also assembled by ptxas when present
# (--ptxas), which catches mistakes in the inline PTX that nvcc -ptx passes
# through unchecked.
here=$(cd "$(dirname "$0")" && pwd)
for cu in "$here"/*.cu; do
    b=$(basename "$cu" .cu)
    case "$b" in
    half80) echo "$b.cu sm_80 $b.ptx" ;;
    float_ftz) echo "$b.cu sm_75 $b.ptx -ftz=true" ;;
    *) echo "$b.cu sm_75 $b.ptx" ;;
    esac
done | sh "$here/../../tools/nvcc_regen.sh" --ptxas "$here" -
