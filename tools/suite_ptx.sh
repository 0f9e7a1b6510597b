#!/bin/sh
# suite_ptx.sh -- PTX of the kernels of public GPU benchmark suites, to
# compare tpsim's register counts with ptxas's on real code:
#
#   sh tools/suite_ptx.sh DIR [MIRRORS]
#   sh tools/regs_vs_ptxas.sh DIR/*.ptx
#
# Extracts the CUDA sources of Rodinia 3 (cuda/), Parboil (benchmarks/*/src/
# cuda*), PolyBench-GPU (CUDA/) and the ISPASS 2009 benchmarks from their
# mirrors (bare git repositories under MIRRORS, default /work/.mirror:
# yuhc+gpu-rodinia, yuhc+gpu-parboil, sgrauerg+polybenchGpu,
# gpgpu-sim+ispass2009-benchmarks) into DIR/src -- never into the
# repository -- and compiles every .cu file with
#
#   nvcc -ptx -arch=sm_75 -O3 -I<its directory> [-I<common headers>] [-D...]
#
# into DIR/<suite>-<path>.ptx.  CUDA 13 dropped APIs these suites use, so
# every file is compiled with -include DIR/compat/suite_compat.h (written
# here): cudaThreadSynchronize and friends, removed cudaDeviceProp fields
# (host code only), texture references as a __device__ pointer read at the
# index (tex1Dfetch, tex1D, tex2D: a global load instead of a texture
# fetch; the file-scope `texture<...> name;` declarations are rewritten to
# `__device__ tpsim_texref<...> name;` in DIR/src); ISPASS's cutil.h and
# cutil_inline.h are stubs, and so are OpenGL's headers (Rodinia's hybridsort).  A file whose kernels all appear in a file of the
# same directory kept before (a main.cu including kernel.cu) is dropped;
# what does not compile is skipped.  DIR/suite_ptx.log lists every .cu
# file: kept (its kernels), dup (where its kernels are) or skip (the first
# error).  The mirrors' commits go to the log's head.
#
# Needs nvcc (PATH or /usr/local/cuda/bin) and git.  Runs two compilations
# at a time (JOBS=N to change).
set -u
# ---- one file (xargs calls the script again): $2 into $OUT/obj/<name>.ptx --
flags() { # the extra flags of file $1 (relative to DIR/src)
    d=$(dirname "$1")
    case "$1" in
    parboil/benchmarks/*/src/*) printf ' -I%s' "parboil/common/include" ;;
    esac
    case "$1" in
    parboil/benchmarks/spmv/*) printf ' -I%s' "parboil/benchmarks/spmv/common_src/convert-dataset" ;;
    polybench/*) printf ' -I%s' "polybench/common" ;;
    ispass/CP/*) printf ' -I%s' "ispass/CP/common/include" ;;
    rodinia/cuda/cfd/*) printf ' -I%s' "rodinia/cuda/hybridsort" ;;
    rodinia/cuda/heartwall/*) printf ' -I%s' "$d/AVI" ;;
    rodinia/cuda/leukocyte/*) printf ' -I%s' "rodinia/cuda/leukocyte/meschach_lib" ;;
    rodinia/cuda/lud/cuda/*) printf ' -I%s' "rodinia/cuda/lud/common" ;;
    rodinia/cuda/b+tree/kernel/*) printf ' -I%s' "rodinia/cuda/b+tree" ;;
    esac
    case "$1" in
    ispass/LPS/laplace3d_kernel.cu) printf ' %s' -DBLOCK_X=32 -DBLOCK_Y=4 ;;
    esac
}
if [ "${1:-}" = "--one" ]; then
    f=$2
    n=$(echo "$f" | sed 's|/src/|/|; s|^rodinia/cuda/|rodinia/|; s|^parboil/benchmarks/|parboil/|; s|^polybench/CUDA/|polybench/|; s|\.cu$||; s|[/+]|-|g')
    # shellcheck disable=SC2046
    if "$NVCC" -ptx -arch=sm_75 -O3 -w -include "$OUT/compat/suite_compat.h" -I"$OUT/compat" -I"$(dirname "$f")" \
        $(flags "$f") "$f" -o "$OUT/obj/$n.ptx" >"$OUT/obj/$n.log" 2>&1; then
        echo "$f $n" >"$OUT/obj/$n.ok"
    else
        rm -f "$OUT/obj/$n.ptx"
        echo "$f $(grep -m1 -e 'error' "$OUT/obj/$n.log" | sed "s|$OUT/src/||g; s|^\./||" | cut -c1-160)" >"$OUT/obj/$n.fail"
    fi
    exit 0
fi
if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    sed -n '2,30s/^# \{0,1\}//p' "$0"
    [ $# -lt 1 ] && exit 2 || exit 0
fi
SELF=$(cd "$(dirname "$0")" && pwd -P)/$(basename "$0")
OUT=$1
MIR=${2:-/work/.mirror}
JOBS=${JOBS:-2}
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$NVCC" ] || { echo "suite_ptx: nvcc not found" >&2; exit 1; }
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd -P)
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ]; then
    top=$(cd "$top" && pwd -P)
    case "$OUT/" in "$top"/*) echo "suite_ptx: $OUT is inside the repository; give a directory outside it" >&2; exit 2 ;; esac
fi
rm -rf "$OUT/src" "$OUT/compat" "$OUT/obj"
rm -f "$OUT"/*.ptx "$OUT/suite_ptx.log"
mkdir -p "$OUT/src" "$OUT/compat" "$OUT/obj"
LOG=$OUT/suite_ptx.log

# ---- sources: every source and header file of the suites' CUDA trees --------
gitdir() { # the bare repository of a mirror (repo/ or repo/.git)
    if [ -d "$MIR/$1/repo/.git" ]; then echo "$MIR/$1/repo/.git"; else echo "$MIR/$1/repo"; fi
}
extract() { # mirror suite paths...
    g=$(gitdir "$1"); mi=$1; s=$2; shift 2
    if ! git -C "$g" rev-parse -q --verify HEAD >/dev/null 2>&1; then
        echo "# $s: no mirror at $g" >>"$LOG"; return
    fi
    echo "# $s: $mi $(git -C "$g" rev-parse HEAD) ($g)" >>"$LOG"
    git -C "$g" ls-tree -r HEAD -- "$@" | while read -r _ type sha path; do
        [ "$type" = blob ] || continue
        case "$path" in
        *.cu|*.cuh|*.h|*.hpp|*.inc|*.c|*.cpp)
            mkdir -p "$OUT/src/$s/$(dirname "$path")"
            git -C "$g" cat-file blob "$sha" >"$OUT/src/$s/$path" 2>/dev/null || rm -f "$OUT/src/$s/$path" ;;
        esac
    done
}
extract yuhc+gpu-rodinia rodinia cuda
extract yuhc+gpu-parboil parboil benchmarks common
extract sgrauerg+polybenchGpu polybench CUDA common
extract gpgpu-sim+ispass2009-benchmarks ispass AES BFS CP LIB LPS MUM NN NQU RAY STO WP
# texture references: file-scope declarations become __device__ pointers
find "$OUT/src" -name '*.cu' -o -name '*.h' -o -name '*.cuh' | while read -r f; do
    if grep -q '^[[:space:]]*texture[[:space:]]*<' "$f"; then
        sed 's/^\([[:space:]]*\)texture[[:space:]]*<\([^;(]*>[[:space:]]*[A-Za-z_][A-Za-z_0-9]*[[:space:]]*;\)/\1__device__ tpsim_texref<\2/' "$f" >"$f.tmp" &&
            mv "$f.tmp" "$f"
    fi
done

# ---- compatibility headers (CUDA 13 and the old SDK's cutil) ----------------
cat >"$OUT/compat/suite_compat.h" <<'EOF'
/* suite_compat.h (tools/suite_ptx.sh): what CUDA 13 removed that the suites use. */
#ifndef SUITE_COMPAT_H
#define SUITE_COMPAT_H
#ifdef __cplusplus
#include <cuda_runtime.h>
#include <malloc.h>
#include <sys/time.h>
#include <iostream>
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#define cudaThreadSetCacheConfig cudaDeviceSetCacheConfig
/* cudaDeviceProp fields gone in CUDA 13 (read by host code only) */
#define clockRate major
#define memoryClockRate major
#define deviceOverlap major
#define computeMode major
#define kernelExecTimeoutEnabled major
#define maxTexture1DLinear major
/* texture references: a pointer and a row width, read by plain loads */
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType> struct tpsim_texref {
    const T *p;
    int width;
    int normalized;
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureAddressMode addressMode[3];
    struct cudaChannelFormatDesc channelDesc;
};
#define texture tpsim_texref
template <class T, int d, enum cudaTextureReadMode m>
__device__ inline T tex1Dfetch(const tpsim_texref<T, d, m> &t, int i) { return t.p[i]; }
template <class T, int d, enum cudaTextureReadMode m>
__device__ inline T tex1D(const tpsim_texref<T, d, m> &t, float x) { return t.p[(int)x]; }
template <class T, int d, enum cudaTextureReadMode m>
__device__ inline T tex2D(const tpsim_texref<T, d, m> &t, float x, float y) { return t.p[(int)y * t.width + (int)x]; }
#define cudaBindTexture(...) cudaSuccess
#define cudaBindTexture2D(...) cudaSuccess
#define cudaBindTextureToArray(...) cudaSuccess
#define cudaUnbindTexture(...) cudaSuccess
#endif
#endif
EOF
cat >"$OUT/compat/cutil.h" <<'EOF'
/* cutil.h (tools/suite_ptx.sh): the old CUDA SDK's utility macros, as no-ops. */
#ifndef CUTIL_STUB_H
#define CUTIL_STUB_H
#include <stdio.h>
#include <stdlib.h>
typedef int CUTBoolean;
#define CUTTrue 1
#define CUTFalse 0
#define CUDA_SAFE_CALL(x) (x)
#define CUDA_SAFE_CALL_NO_SYNC(x) (x)
#define CUT_SAFE_CALL(x) (x)
#define CUT_CHECK_ERROR(m) ((void)0)
#define CUT_EXIT(c, v) exit(0)
#define CUT_DEVICE_INIT(c, v) ((void)0)
#define CUT_BANK_CHECKER(a, i) a[i]
#define cutilSafeCall(x) (x)
#define cutilCheckMsg(m) ((void)0)
#define cutilSafeCallNoSync(x) (x)
#define cutCreateTimer(...) CUTTrue
#define cutDeleteTimer(...) CUTTrue
#define cutStartTimer(...) CUTTrue
#define cutStopTimer(...) CUTTrue
#define cutResetTimer(...) CUTTrue
#define cutGetTimerValue(...) 0.0f
#define cutGetAverageTimerValue(...) 0.0f
#define cutCompareub(...) CUTTrue
#define cutComparef(...) CUTTrue
#define cutCompareL2fe(...) CUTTrue
#define cutGetCmdLineArgumenti(...) CUTFalse
#define cutGetCmdLineArgumentf(...) CUTFalse
#define cutGetCmdLineArgumentstr(...) CUTFalse
#define cutCheckCmdLineFlag(...) CUTFalse
#define cutFindFilePath(...) ((char *)0)
#define cutLoadPGMub(...) CUTFalse
#define cutSavePGMub(...) CUTFalse
#define cutReadFilef(...) CUTFalse
#define cutWriteFilef(...) CUTFalse
#define cutFree(p) free(p)
#endif
EOF
printf '#include "cutil.h"\n' >"$OUT/compat/cutil_inline.h"
mkdir -p "$OUT/compat/GL" # Rodinia's hybridsort includes OpenGL headers it does not use in its kernels
for h in gl glew glut; do printf 'typedef unsigned int GLuint;\ntypedef unsigned int GLenum;\n' >"$OUT/compat/GL/$h.h"; done

# ---- compile ------------------------------------------------------------------
cd "$OUT/src" || exit 1
find rodinia parboil polybench ispass -name '*.cu' 2>/dev/null |
    grep -v -e '/opencl' -e '/OpenCL' -e 'polybenchCodesCudaOpenClHMPPOpenAcc' -e '/omp' | LC_ALL=C sort >"$OUT/obj/list"
export OUT NVCC
xargs -n1 -P"$JOBS" sh "$SELF" --one <"$OUT/obj/list"

# ---- keep one file per kernel per directory -------------------------------------
# files with the most kernels first, so a main.cu that includes its kernels
# stands for them
for ok in "$OUT"/obj/*.ok; do
    [ -e "$ok" ] || continue
    read -r f n <"$ok"
    k=$(grep -c '^[[:space:]]*\(\.visible[[:space:]]*\)\{0,1\}\.entry' "$OUT/obj/$n.ptx")
    echo "$k $f $n"
done | LC_ALL=C sort -k1,1nr -k2,2 >"$OUT/obj/byk"
: >"$OUT/obj/seen"
kept=0 kernels=0
while read -r k f n; do
    d=$(dirname "$f")
    if [ "$k" -eq 0 ]; then echo "none  $f (no kernel)" >>"$OUT/obj/res"; continue; fi
    ents=$(sed -n 's/^[[:space:]]*\(\.visible[[:space:]]*\)\{0,1\}\.entry[[:space:]]*\([A-Za-z_$][A-Za-z_0-9$]*\).*/\2/p' "$OUT/obj/$n.ptx")
    new=0 where=
    for e in $ents; do
        w=$(awk -v d="$d" -v e="$e" '$1 == d && $2 == e { print $3; exit }' "$OUT/obj/seen")
        if [ -z "$w" ]; then new=1; else where=$w; fi
    done
    if [ $new -eq 0 ]; then echo "dup   $f (in $where.ptx)" >>"$OUT/obj/res"; continue; fi
    for e in $ents; do echo "$d $e $n" >>"$OUT/obj/seen"; done
    cp "$OUT/obj/$n.ptx" "$OUT/$n.ptx"
    kept=$((kept + 1)); kernels=$((kernels + k))
    echo "kept  $f -> $n.ptx ($k kernels)" >>"$OUT/obj/res"
done <"$OUT/obj/byk"
for x in "$OUT"/obj/*.fail; do [ -e "$x" ] && sed 's/^\([^ ]*\) /skip  \1: /' "$x" >>"$OUT/obj/res"; done
LC_ALL=C sort -k2,2 "$OUT/obj/res" >>"$LOG"
for s in rodinia parboil polybench ispass; do
    printf '# %s: %s files, %s kernels\n' "$s" "$(ls "$OUT" | grep -c "^$s-.*\.ptx$")" \
        "$(cat "$OUT"/$s-*.ptx 2>/dev/null | grep -c '^[[:space:]]*\(\.visible[[:space:]]*\)\{0,1\}\.entry')" >>"$LOG"
done
rm -rf "$OUT/obj"
echo "suite_ptx: $kept PTX files, $kernels kernels in $OUT (log: $LOG)"
