#!/bin/sh
# regen.sh -- regenerates experiments/regmutex/kernels/*.ptx from the .cu
# files with nvcc 13 (tools/nvcc_regen.sh: nvcc -ptx -arch=sm_75 -O3, the
# flags the experiments' numbers were taken with); the PTX is committed, so
# the experiments run without a CUDA toolkit.  Without nvcc it prints
# "SKIP: ..." and succeeds.
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../../tools/nvcc_regen.sh" "$here" sm_75 -O3
