#!/bin/sh
# demo.sh BUILD -- `make demo`: builds the driver-API example against tpsim's
# libcuda.so.1 and runs it on the simulator, with statistics written to a
# JSON file and the per-kernel numbers shown afterwards.
set -e
BUILD=${1:-build}
INC=api/include
[ -f /usr/local/cuda/include/cuda.h ] && INC=/usr/local/cuda/include
mkdir -p "$BUILD/examples"
cc -std=c11 -O2 -I"$INC" examples/driver/saxpy.c -L"$BUILD/lib" -lcuda -Wl,-rpath,"$(pwd)/$BUILD/lib" \
   -o "$BUILD/examples/saxpy"
echo "\$ $BUILD/examples/saxpy examples/driver/saxpy.ptx    (linked with $BUILD/lib/libcuda.so.1)"
TPSIM_STATS="$BUILD/examples/saxpy-stats.json" "$BUILD/examples/saxpy" examples/driver/saxpy.ptx
echo
echo "statistics ($BUILD/examples/saxpy-stats.json):"
grep -E '"(name|grid|block|regs_per_thread|warp_instructions|thread_instructions)"' "$BUILD/examples/saxpy-stats.json" | sed 's/^ */  /'
