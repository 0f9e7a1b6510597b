#!/bin/sh
# regen.sh -- regenerates every tests/hardware/*.ptx from its .cu with nvcc
# (the .ptx files are committed: the suite runs without a CUDA toolkit).
#
#   sh tests/hardware/regen.sh
#
# Flags: nvcc -ptx -arch=sm_75 -O3 (sm_75: the RTX 2060 the reference times
# were measured on).  When ptxas is present each result is also assembled,
# which catches PTX that nvcc -ptx passes through unchecked.  Without nvcc it
# prints "SKIP: nvcc not found" and succeeds.
here=$(cd "$(dirname "$0")" && pwd)

NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        NVCC=/usr/local/cuda/bin/nvcc
    else
        echo "SKIP: nvcc not found"
        exit 0
    fi
fi
PTXAS=$(dirname "$(command -v "$NVCC")")/ptxas

status=0
for cu in "$here"/*.cu; do
    b=$(basename "$cu" .cu)
    if ! "$NVCC" -ptx -arch=sm_75 -O3 -o "$here/$b.ptx" "$cu"; then
        echo "regen: nvcc failed on $b.cu"
        status=1
        continue
    fi
    if [ -x "$PTXAS" ] && ! "$PTXAS" -arch=sm_75 "$here/$b.ptx" -o /dev/null; then
        echo "regen: ptxas rejects $b.ptx"
        status=1
        continue
    fi
    echo "regen: $b.ptx"
done
exit $status
