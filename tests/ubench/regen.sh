#!/bin/sh
# regen.sh -- regenerates every tests/ubench/*.ptx from its .cu with nvcc
# (tools/nvcc_regen.sh: the .ptx files are committed, the suite runs without
# a CUDA toolkit; without nvcc it prints "SKIP: ..." and succeeds).
#
#   sh tests/ubench/regen.sh
#
# Flags: nvcc -ptx -arch=sm_75 -O3, for every file.  The timed loops are
# inline PTX, so other flags would change little, but functional.expected
# pins the instruction counts of the loops as these flags emit them.
# Each result is also assembled by ptxas when present (--ptxas), which
# catches mistakes in the inline PTX that nvcc -ptx passes through unchecked.
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../tools/nvcc_regen.sh" --ptxas "$here" sm_75 -O3
