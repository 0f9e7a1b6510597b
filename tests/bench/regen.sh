#!/bin/sh
# Regenerates bench.ptx from bench.cu (needs nvcc; the .ptx is committed).
cd "$(dirname "$0")"
command -v nvcc >/dev/null 2>&1 || { echo "SKIP: nvcc not found; keeping the committed bench.ptx"; exit 0; }
nvcc -ptx -arch=sm_75 -o bench.ptx bench.cu
