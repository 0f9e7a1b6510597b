#!/bin/sh
# regen.sh -- regenerates experiments/regmutex/kernels/*.ptx from the .cu
# files with nvcc 13 (nvcc -ptx -arch=sm_75 -O3); the PTX is committed, so
# the experiments run without a CUDA toolkit.
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
[ -x "$(command -v "$NVCC")" ] || { echo "SKIP: nvcc not found"; exit 0; }
for cu in "$here"/*.cu; do
    "$NVCC" -ptx -arch=sm_75 -O3 -o "${cu%.cu}.ptx" "$cu" || exit 1
done
