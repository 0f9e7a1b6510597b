#!/bin/sh
# regen.sh -- regenerates the PTX fixtures of tests/ptx from their .cu
# sources with nvcc (CUDA 13: PTX ISA 9.0; tools/nvcc_regen.sh).  The .ptx
# files are committed, so the tests do not need nvcc (without it this prints
# "SKIP: ..." and succeeds); run this after changing a .cu file.
#   sh tests/ptx/regen.sh
# Each fixture is named SOURCE.ARCH.ptx: half.cu is compiled for sm_80 and
# sm_90 (its instructions differ), debug.cu with -G (debug sections and
# .loc lines for the parser).
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../../tools/nvcc_regen.sh" "$here" - <<EOF2
basic.cu   sm_75 basic.sm_75.ptx
half.cu    sm_80 half.sm_80.ptx
half.cu    sm_90 half.sm_90.ptx
globals.cu sm_75 globals.sm_75.ptx
tex.cu     sm_75 tex.sm_75.ptx
debug.cu   sm_75 debug.sm_75.ptx -G
EOF2
