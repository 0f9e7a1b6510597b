#!/bin/sh
# build.sh -- builds what tools/device/run.sh runs on a real GPU, here (nvcc
# needed): the probes for sm_90 (SM=90: an H100/H200; SM=75 for a Turing
# card) into build/device/, NVIDIA's libcudart.so.13 beside them, and the
# programs of tests/cuda (BUILD=build sh tests/cuda/run_cuda.sh builds them
# as it tests them under tpsim).
set -e
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SM=${SM:-90}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p build/device/lib
"$NVCC" -O2 -gencode arch=compute_$SM,code=sm_$SM -o build/device/probe "$here/probe.cu"
"$NVCC" -O2 -rdc=true -gencode arch=compute_$SM,code=sm_$SM -o build/device/probe_api "$here/probe_api.cu" -lcudadevrt
cp "$(dirname "$NVCC")/../lib64/libcudart.so.13" build/device/lib/
echo "built build/device/{probe,probe_api,lib/libcudart.so.13}; carry build/device and build/tests/cuda"
