#!/bin/sh
# run_suite_compat.sh -- run by `make test`: experiments/suites/compat/
# suite_compat.h's -DSUITE_COMPAT_MANAGED_TEX (texture references as
# __managed__ objects, the string form of cudaMemcpyToSymbol; Rodinia kmeans,
# experiments/suites.md) on compat_tex.cu, built with nvcc and run under
# tpsim in both modes: the program checks every value it reads.  Needs nvcc
# (SKIP without it).  PASS/FAIL/SKIP lines.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$root/$BUILD" ;; esac
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
    echo "SKIP suite_compat_managed_tex: nvcc not found (set NVCC or put CUDA's bin on PATH)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
compat=$root/experiments/suites/compat
if ! "$NVCC" -cudart shared -arch=sm_75 -w -DSUITE_COMPAT_MANAGED_TEX -include "$compat/suite_compat.h" \
        -L"$(dirname "$NVCC")/../lib64/stubs" -lcuda -o "$tmp/compat_tex" "$here/compat_tex.cu" >"$tmp/err" 2>&1; then
    echo "FAIL suite_compat_managed_tex_build: $(grep -m1 error "$tmp/err" | cut -c1-160)"
    exit 1
fi
status=0
for m in functional performance; do
    "$BUILD/bin/tpsim" run --mode $m -- "$tmp/compat_tex" >"$tmp/out" 2>&1
    if [ $? -eq 0 ] && grep -q "^compat_tex: ok" "$tmp/out"; then
        echo "PASS suite_compat_managed_tex_$m"
    else
        echo "FAIL suite_compat_managed_tex_$m: $(head -n 3 "$tmp/out" | tr '\n' ' ')"
        status=1
    fi
done
exit $status
