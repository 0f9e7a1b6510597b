#!/bin/sh
# regen.sh -- regenerates tests/tensor's PTX from the .cu files with nvcc
# (the .ptx files are committed: the tests run without a CUDA toolkit):
#   tensor.cu, gemm.cu   -arch=sm_75   (wmma f16/s8/u8/s4/u4/b1, the sm_75 mma shapes, ldmatrix, movmatrix)
#   tensor80.cu          -arch=sm_80   (bf16, tf32, f64 wmma; the sm_80 mma shapes)
#   tensor90.cu          -arch=sm_90   (the f64 mma shapes of sm_90, stmatrix)
# Each result is also assembled by ptxas when present (it checks the inline
# PTX).  Without nvcc it prints "SKIP: nvcc not found" and succeeds.
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then NVCC=/usr/local/cuda/bin/nvcc; else echo "SKIP: nvcc not found"; exit 0; fi
fi
PTXAS=$(dirname "$(command -v "$NVCC")")/ptxas
status=0
for pair in tensor:sm_75 gemm:sm_75 tensor80:sm_80 tensor90:sm_90; do
    b=${pair%%:*} arch=${pair##*:}
    if ! "$NVCC" -ptx -arch="$arch" -o "$here/$b.ptx" "$here/$b.cu"; then
        echo "regen: nvcc failed on $b.cu"; status=1; continue
    fi
    if [ -x "$PTXAS" ] && ! "$PTXAS" -arch="$arch" "$here/$b.ptx" -o /dev/null; then
        echo "regen: ptxas rejects $b.ptx"; status=1; continue
    fi
    echo "regen: $b.ptx ($arch)"
done
exit $status
