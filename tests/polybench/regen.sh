#!/bin/sh
# regen.sh -- regenerates every tests/polybench/*.ptx from its .cu with nvcc
# (tools/nvcc_regen.sh: the .ptx files are committed, the suite runs without
# a CUDA toolkit; without nvcc it prints "SKIP: ..." and succeeds).
#
#   sh tests/polybench/regen.sh
#
# Flags: nvcc -ptx -arch=sm_75 -O3, for every file.  These are the flags
# whose output the reference counts of tools/reference were taken from
# (nvcc 13, -arch=sm_75, the device code's default -O3), so they must not
# change without checking the instruction counts again (tools/validate.sh).
# Each result is also assembled by ptxas when present (--ptxas), which
# catches PTX that nvcc -ptx passes through unchecked.
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../tools/nvcc_regen.sh" --ptxas "$here" sm_75 -O3
