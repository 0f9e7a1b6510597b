#!/bin/sh
# regen.sh -- regenerates every experiments/warppool/kernels/*.ptx from its .cu
# with nvcc (tools/nvcc_regen.sh: the .ptx files are committed, the
# experiments run without a CUDA toolkit; without nvcc it prints "SKIP: ..."
# and succeeds).
#
#   sh experiments/warppool/kernels/regen.sh
#
# Flags: nvcc -ptx -arch=sm_75 -O3 for every file (tests/polybench's).  Each
# result is also assembled by ptxas when present (--ptxas).
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../../tools/nvcc_regen.sh" --ptxas "$here" sm_75 -O3
