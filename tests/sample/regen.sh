#!/bin/sh
# regen.sh -- remakes sampwork.ptx from sampwork.cu (needs nvcc; the .ptx is
# committed so that the tests run without a CUDA toolkit).  sm_75 and -O3 as
# the other suites (tests/polybench/regen.sh).
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../tools/nvcc_regen.sh" --ptxas "$here" sm_75 -O3
