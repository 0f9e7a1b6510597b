#!/bin/sh
# regen.sh -- remakes the fatbinaries t_fatbin.c reads, with nvcc 13:
#   k_zstd.fatbin   compute_75 PTX, compressed (nvcc's default: zstd)
#   k_plain.fatbin  the same, -no-compress
#   k_lz4.fatbin    the same, -compress-mode=speed (LZ4)
#   k_multi.fatbin  compute_75 and compute_80 PTX and an sm_86 cubin
#   k_sass.fatbin   an sm_75 cubin only
#   k_rdc.fatbin    -rdc=true (relocatable PTX; a longer entry header)
#   k_regs.fatbin   k_regs.cu for sm_75: compute_75 PTX and an sm_75 cubin
#                   (uncompressed: nvcc leaves it so); `ptxas -v` says r_wide
#                   54 registers, r_small 8 (CUDA 13.0), as t_fatbin expects
#   k_regs_z.fatbin the same with -compress-mode=size (the cubin zstd too)
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
P="-gencode arch=compute_75,code=compute_75"
$NVCC -fatbin $P -o k_zstd.fatbin k.cu
$NVCC -fatbin $P -no-compress -o k_plain.fatbin k.cu
$NVCC -fatbin $P -compress-mode=speed -o k_lz4.fatbin k.cu
$NVCC -fatbin $P -gencode arch=compute_80,code=compute_80 -gencode arch=compute_86,code=sm_86 -o k_multi.fatbin k.cu
$NVCC -fatbin -gencode arch=compute_75,code=sm_75 -o k_sass.fatbin k.cu
$NVCC -fatbin $P -rdc=true -o k_rdc.fatbin k.cu
$NVCC -fatbin -arch=sm_75 -o k_regs.fatbin k_regs.cu
$NVCC -fatbin -arch=sm_75 -compress-mode=size -o k_regs_z.fatbin k_regs.cu
