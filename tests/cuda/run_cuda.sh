#!/bin/sh
# run_cuda.sh -- builds the whole CUDA programs of tests/cuda with nvcc
# (-cudart shared) and runs each one under `tpsim run`, printing one line per
# program: "PASS cuda_NAME", "FAIL cuda_NAME: reason (last lines of output)"
# or "SKIP cuda_NAME: reason".  tests/run.sh runs it; by hand:
#
#   BUILD=build sh tests/cuda/run_cuda.sh [NAME...]
#
# Binaries go to $BUILD/tests/cuda/ and are rebuilt only when one of their
# sources or a header here is newer; up to CUDA_JOBS (default 2) nvcc run at
# once.  Each program checks its own results and ends with "NAME: PASS" and
# exit status 0; devprintf's "dev " lines are also compared, sorted, with
# devprintf.expected.  Some programs are built a second time with
# -no-compress (uncompressed PTX in the fatbinary): that build must carry
# plain PTX text, the default one must not, and both must print the same
# lines (compared sorted).  Without nvcc every program is a SKIP; without
# $BUILD/lib/libcudart.so.13 (tpsim's runtime) likewise.  CUDA_TIMEOUT
# (seconds, default 600) bounds each run when timeout(1) exists.
BUILD=${BUILD:-build}
here=$(cd "$(dirname "$0")" && pwd)
out=${CUDA_OUT:-$BUILD/tests/cuda}  # CUDA_OUT: set (absolute) for --build
limit=${CUDA_TIMEOUT:-600}
NVCC=${NVCC:-nvcc}
NVFLAGS="-cudart shared -arch=sm_75 -O2"

# name  extra-nvcc-flags ("-": none)  sources...
programs() {
    cat <<'EOF'
templates       -               templates.cu
multifile       -               multifile_main.cu multifile_vec.cu multifile_mat.cu
rdc             -rdc=true       rdc_main.cu rdc_lib.cu
symbols         -               symbols.cu
dynshared       -               dynshared.cu
streams         -               streams.cu
devprintf       -               devprintf.cu
managed         -               managed.cu
oob             -               oob.cu
badlaunch       -               badlaunch.cu
devassert       -               devassert.cu
thrust_cub      -               thrust_cub.cu
devprops        -               devprops.cu
memops          -               memops.cu
texture         -               texture.cu
iterative       -               iterative.cu
atomics         -               atomics.cu
coop            -               coop.cu
templates_nocompress  -no-compress  templates.cu
devprintf_nocompress  -no-compress  devprintf.cu
EOF
}

# Programs known not to run yet, with the reason (a SKIP, not a FAIL).
skip_reason() {
    case "$1" in
    *) echo "" ;;
    esac
}

# build NAME: (re)builds $out/NAME if a source or header is newer; the
# compiler's messages go to $out/NAME.build.log.
build() {
    line=$(programs | awk -v n="$1" '$1 == n')
    [ -n "$line" ] || { echo "no program $1" >&2; return 1; }
    set -- $line
    name=$1 flags=$2
    shift 2
    [ "$flags" = "-" ] && flags=""
    bin="$out/$name"
    stale=0
    if [ ! -x "$bin" ]; then
        stale=1
    else
        for f in "$@" *.h; do
            [ -f "$f" ] && [ "$f" -nt "$bin" ] && stale=1
        done
    fi
    [ $stale -eq 0 ] && return 0
    rm -f "$bin"
    # shellcheck disable=SC2086
    if $NVCC $NVFLAGS $flags -o "$bin.tmp" "$@" >"$bin.build.log" 2>&1; then
        mv "$bin.tmp" "$bin"
    else
        rm -f "$bin.tmp"
        return 1
    fi
}

if [ "$1" = "--build" ]; then  # internal: one build, run by xargs below
    cd "$here" || exit 1
    build "$2"
    exit $?
fi

if [ $# -gt 0 ]; then
    want=" $* "
else
    want=""
fi
selected() {  # selected NAME: is NAME asked for?  (X and X_nocompress go together)
    [ -z "$want" ] && return 0
    b=${1%_nocompress}
    case "$want" in *" $b "* | *" ${b}_nocompress "*) return 0 ;; esac
    return 1
}
names=$(programs | awk '{print $1}' | while read -r n; do selected "$n" && echo "$n"; done)

if ! command -v "$NVCC" >/dev/null 2>&1; then
    for n in $names; do echo "SKIP cuda_$n: nvcc not found"; done
    exit 0
fi
if [ ! -f "$BUILD/lib/libcudart.so.13" ]; then
    for n in $names; do echo "SKIP cuda_$n: $BUILD/lib/libcudart.so.13 is not built"; done
    exit 0
fi
if [ ! -x "$BUILD/bin/tpsim" ]; then
    for n in $names; do echo "FAIL cuda_$n: $BUILD/bin/tpsim is not built"; done
    exit 1
fi
tpsim="$(cd "$BUILD/bin" && pwd)/tpsim"
mkdir -p "$out"
CUDA_OUT=$(cd "$out" && pwd)
out=$CUDA_OUT
export CUDA_OUT NVCC

# Build everything first (the slow part), two at a time.
echo "$names" | xargs -n 1 -P "${CUDA_JOBS:-2}" sh "$here/run_cuda.sh" --build 2>/dev/null

tail_of() {  # the last lines of a program's output, on one line
    cat "$1" "$2" 2>/dev/null | tail -n "${3:-4}" | tr '\n' '|' | sed 's/|$//; s/|/ | /g'
}

# run NAME: runs $out/NAME under tpsim; sets rc, leaves NAME.out/.err.
run() {
    (
        cd "$out" || exit 1
        if command -v timeout >/dev/null 2>&1; then
            timeout "$limit" "$tpsim" run -- "./$1" >"$1.out" 2>"$1.err" </dev/null
        else
            "$tpsim" run -- "./$1" >"$1.out" 2>"$1.err" </dev/null
        fi
    )
    rc=$?
}

sorted_lines() { LC_ALL=C sort "$1"; }

for n in $names; do
    base=${n%_nocompress}
    reason=$(skip_reason "$n")
    if [ -n "$reason" ]; then
        echo "SKIP cuda_$n: $reason"
        continue
    fi
    if [ ! -x "$out/$n" ]; then
        echo "FAIL cuda_$n: nvcc failed ($(tail_of "$out/$n.build.log" /dev/null 3))"
        continue
    fi
    run "$n"
    last=$(tail -n 1 "$out/$n.out" 2>/dev/null)
    if [ "$rc" -eq 124 ]; then
        echo "FAIL cuda_$n: timed out after ${limit}s ($(tail_of "$out/$n.out" "$out/$n.err"))"
        continue
    fi
    if [ "$rc" -ne 0 ] || [ "$last" != "$base: PASS" ]; then
        echo "FAIL cuda_$n: exit status $rc ($(tail_of "$out/$n.out" "$out/$n.err"))"
        continue
    fi
    if [ "$base" = devprintf ]; then
        grep '^dev ' "$out/$n.out" | LC_ALL=C sort >"$out/$n.got"
        if ! sorted_lines "$here/devprintf.expected" | cmp -s - "$out/$n.got"; then
            first=$(sorted_lines "$here/devprintf.expected" | diff - "$out/$n.got" | grep -E '^[<>]' | head -n 2 |
                tr '\n' ' ')
            echo "FAIL cuda_$n: device printf output differs from devprintf.expected (sorted, < expected, > got): $first"
            continue
        fi
    fi
    if [ "$n" != "$base" ]; then
        # The -no-compress build: plain PTX inside, same output as the default.
        if ! grep -a -q '^\.target sm_75' "$out/$n"; then
            echo "FAIL cuda_$n: no uncompressed PTX found in the -no-compress binary"
            continue
        fi
        if grep -a -q '^\.target sm_75' "$out/$base" 2>/dev/null; then
            echo "FAIL cuda_$n: the default build of $base carries uncompressed PTX too (nothing compared)"
            continue
        fi
        if [ ! -f "$out/$base.out" ]; then
            echo "FAIL cuda_$n: no output of $base to compare with"
            continue
        fi
        sorted_lines "$out/$base.out" >"$out/$base.sorted"
        sorted_lines "$out/$n.out" >"$out/$n.sorted"
        if ! cmp -s "$out/$base.sorted" "$out/$n.sorted"; then
            echo "FAIL cuda_$n: output differs from the compressed build's ($base)"
            continue
        fi
    fi
    echo "PASS cuda_$n"
done
exit 0
