#!/bin/sh
# regen.sh -- regenerates bench.ptx from bench.cu with nvcc -ptx -arch=sm_75
# (tools/nvcc_regen.sh; the .ptx is committed: without nvcc it prints
# "SKIP: ..." and keeps it).
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../tools/nvcc_regen.sh" "$here" sm_75
