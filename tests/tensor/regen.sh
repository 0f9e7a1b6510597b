#!/bin/sh
# regen.sh -- regenerates tests/tensor's PTX from the .cu files with nvcc
# (tools/nvcc_regen.sh: the .ptx files are committed, the tests run without
# a CUDA toolkit; without nvcc it prints "SKIP: ..." and succeeds):
#   tensor.cu, gemm.cu   -arch=sm_75   (wmma f16/s8/u8/s4/u4/b1, the sm_75 mma shapes, ldmatrix, movmatrix)
#   tensor80.cu          -arch=sm_80   (bf16, tf32, f64 wmma; the sm_80 mma shapes)
#   tensor90.cu          -arch=sm_90   (the f64 mma shapes of sm_90, stmatrix)
# Each result is also assembled by ptxas when present (--ptxas: it checks
# the inline PTX).
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../../tools/nvcc_regen.sh" --ptxas "$here" - <<EOF2
tensor.cu   sm_75 tensor.ptx
gemm.cu     sm_75 gemm.ptx
tensor80.cu sm_80 tensor80.ptx
tensor90.cu sm_90 tensor90.ptx
EOF2
