#!/bin/sh
# run_cuda.sh -- builds the whole CUDA programs of tests/cuda with nvcc
# (-cudart shared) and runs each one under `tpsim run`, printing one line per
# run: "PASS cuda_NAME", "FAIL cuda_NAME: reason (last lines of output)" or
# "SKIP cuda_NAME: reason".  tests/run.sh runs it; by hand:
#
#   BUILD=build sh tests/cuda/run_cuda.sh [NAME...]
#
# Binaries go to $BUILD/tests/cuda/ and are rebuilt only when one of their
# sources or a header here is newer, or their nvcc command changed; up to CUDA_JOBS (default 2) nvcc run at
# once.  Each program checks its own results and ends with "NAME: PASS" and
# exit status 0.  On top of that: devprintf's "dev " lines are compared,
# sorted, with devprintf.expected; the -no-compress builds must carry plain
# PTX text (the default builds must not) and print the same lines as the
# default build (compared sorted); multiarch runs again as compute 8.0 and
# 8.9; determinism runs again under stream.async=0 (in functional and in
# performance mode) and must print the same
# "sim " lines; sassonly (no PTX) must be refused with a message naming PTX;
# static_cudart (-cudart static) must be refused by `tpsim run` with a
# message naming -cudart shared.  Without nvcc every run is a SKIP; without
# $BUILD/lib/libcudart.so.13 (tpsim's runtime) likewise.  CUDA_TIMEOUT
# (seconds, default 600) bounds each run when timeout(1) exists.
BUILD=${BUILD:-build}
here=$(cd "$(dirname "$0")" && pwd)
out=${CUDA_OUT:-$BUILD/tests/cuda}  # CUDA_OUT: set (absolute) for --build
limit=${CUDA_TIMEOUT:-600}
NVCC=${NVCC:-nvcc}

# The builds: name, nvcc options beyond the defaults ("-": none; words
# joined by "+"), sources.  Default options: -cudart shared -arch=sm_75 -O2;
# a -cudart option replaces the first, -gencode options the second.
programs() {
    cat <<'EOF'
templates       -               templates.cu
multifile       -               multifile_main.cu multifile_vec.cu multifile_mat.cu
rdc             -rdc=true       rdc_main.cu rdc_lib.cu
cdp             -rdc=true+-lcudadevrt  cdp.cu
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
graphs          -               graphs.cu
mempool         -               mempool.cu
capturefork     -               capturefork.cu
asyncstreams    -               asyncstreams.cu
determinism     -               determinism.cu
memops          -               memops.cu
texture         -               texture.cu
texlayered      -               texlayered.cu
iterative       -               iterative.cu
atomics         -               atomics.cu
sysatomics      -               sysatomics.cu
warpreduce      -               warpreduce.cu
coop            -               coop.cu
kernargs        -               kernargs.cu
hostthreads     -               hostthreads.cu
lifecycle       -               lifecycle.cu
zerocopy        -               zerocopy.cu
gridsync        -               gridsync.cu
failreport      -               failreport.cu
wmma            -               wmma.cu
cubinregs       -Xptxas=-v      cubinregs.cu
multiarch       -gencode=arch=compute_75,code=compute_75+-gencode=arch=compute_80,code=compute_80+-gencode=arch=compute_86,code=compute_86  multiarch.cu
sassonly        -gencode=arch=compute_75,code=sm_75  sassonly.cu
static_cudart   -cudart+static  badlaunch.cu
templates_nocompress  -no-compress  templates.cu
devprintf_nocompress  -Xfatbin=-compress=false  devprintf.cu
texprobe        -rdc=true+-lcudadevrt  ../../tools/device/probe_api.cu
EOF
}

# Further runs of built programs: name, binary, `tpsim run -o` settings
# (joined by "+"; config=NAME is `--config NAME`).  Every build above also
# runs once under its own name.
extra_runs() {
    cat <<'EOF'
multiarch_cc80  multiarch  device.cc=8.0
multiarch_cc89  multiarch  device.cc=8.9
failreport_gtx480  failreport  config=gtx480
determinism_sync  determinism  stream.async=0
determinism_perf  determinism  mode=performance
determinism_perf_sync  determinism  mode=performance+stream.async=0
wmma_gtx480     wmma        config=gtx480
cdp_depth4      cdp         exec.cdp_max_depth=4
cubinregs_model  cubinregs  regs.cubin=0
EOF
}

# Runs known not to work yet, with the reason (a SKIP, not a FAIL).
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
    # shellcheck disable=SC2086
    set -- $line
    name=$1
    flags=$(echo "$2" | tr '+' ' ')
    shift 2
    [ "$flags" = "-" ] && flags=""
    cudart="-cudart shared" arch="-arch=sm_75"
    case " $flags " in *" -cudart "*) cudart="" ;; esac
    case " $flags " in *" -gencode"*) arch="" ;; esac
    bin="$out/$name"
    cmd="$NVCC $cudart $arch -O2 $flags -o $bin.tmp $*"
    stale=0
    if [ ! -x "$bin" ] || [ "$(cat "$bin.cmd" 2>/dev/null)" != "$cmd" ]; then
        stale=1  # never built, or built by another command
    else
        for f in "$@" *.h; do
            [ -f "$f" ] && [ "$f" -nt "$bin" ] && stale=1
        done
    fi
    [ $stale -eq 0 ] && return 0
    rm -f "$bin"
    # shellcheck disable=SC2086
    if $NVCC $cudart $arch -O2 $flags -o "$bin.tmp" "$@" >"$bin.build.log" 2>&1; then
        mv "$bin.tmp" "$bin"
        echo "$cmd" >"$bin.cmd"
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

# All runs: name, binary, settings ("-": none).
all_runs() {
    programs | awk '{print $1, $1, "-"}'
    extra_runs
}

want=""
[ $# -gt 0 ] && want=" $* "
# selected NAME BINARY: was the run asked for?  A program's other runs and
# builds (X_nocompress, X_cc80, ...) come with it.
selected() {
    [ -z "$want" ] && return 0
    sel_base=${2%_nocompress}
    case "$want" in *" $1 "* | *" $2 "* | *" $sel_base "* | *" ${sel_base}_nocompress "*) return 0 ;; esac
    return 1
}
runs=$(all_runs | while read -r n b o; do selected "$n" "$b" && echo "$n $b $o"; done)
if [ -z "$runs" ]; then
    echo "FAIL cuda: no program named$want(see programs() in $0)"
    exit 1
fi
names=$(echo "$runs" | awk '{print $1}')
binaries=$(echo "$runs" | awk '{print $2}' | sort -u)

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

# Build everything first (the slow part), CUDA_JOBS at a time.
echo "$binaries" | xargs -n 1 -P "${CUDA_JOBS:-2}" sh "$here/run_cuda.sh" --build 2>/dev/null

tail_of() {  # tail_of FILE FILE [N]: their last N lines, on one line
    cat "$1" "$2" 2>/dev/null | tail -n "${3:-4}" | tr '\n' '|' | sed 's/|$//; s/|/ | /g'
}

# run NAME BINARY SETTINGS: runs $out/BINARY under tpsim; sets rc; leaves
# NAME.out and NAME.err in $out.
run() {
    set -- "$1" "$2" "$(echo "$3" | tr '+' ' ')"
    opts=""
    if [ "$3" != "-" ]; then
        for setting in $3; do
            case "$setting" in
            config=*) opts="$opts --config ${setting#config=}" ;;
            *) opts="$opts -o $setting" ;;
            esac
        done
    fi
    (
        cd "$out" || exit 1
        # shellcheck disable=SC2086
        if command -v timeout >/dev/null 2>&1; then
            timeout "$limit" "$tpsim" run $opts -- "./$2" >"$1.out" 2>"$1.err" </dev/null
        else
            "$tpsim" run $opts -- "./$2" >"$1.out" 2>"$1.err" </dev/null
        fi
    )
    rc=$?
}

sorted() { LC_ALL=C sort "$1"; }

# check NAME BINARY: the verdict on a finished run (rc, NAME.out, NAME.err).
check() {
    n=$1 base=${2%_nocompress}
    o="$out/$n.out" e="$out/$n.err"
    if [ "$rc" -eq 124 ]; then
        echo "FAIL cuda_$n: timed out after ${limit}s ($(tail_of "$o" "$e"))"
        return
    fi
    case "$n" in
    static_cudart)
        # tpsim run must refuse a statically linked runtime, and say why.
        if [ "$rc" -eq 0 ]; then
            echo "FAIL cuda_$n: tpsim run accepted a program with the CUDA runtime linked statically ($(tail_of "$o" "$e"))"
        elif ! grep -q -- "-cudart shared" "$e"; then
            echo "FAIL cuda_$n: refused (exit status $rc) without suggesting -cudart shared ($(tail_of "$o" "$e"))"
        else
            echo "PASS cuda_$n"
        fi
        return
        ;;
    texprobe)
        # tools/device/probe_api.cu beside what it printed on an H200
        # (tools/device/results/): every linear-filter impulse value (1-D,
        # 2-D, 3-D, 2,595 lines), the layer clamping, the pending-launch
        # limit's floor, and a 3000-deep chain of device launches stopping
        # where the pending-launch limit stops it there.
        ref="$here/../../tools/device/results/h200-2026-12-04"
        if [ "$rc" -ne 0 ] || [ "$(tail -n 1 "$o")" != "probe done" ]; then
            echo "FAIL cuda_$n: exit status $rc ($(tail_of "$o" "$e"))"
            return
        fi
        gzip -dc "$ref/api.txt.gz" | grep -E '^probe tex\.' >"$out/$n.want"
        grep -E '^probe tex\.' "$o" >"$out/$n.got"
        if ! cmp -s "$out/$n.want" "$out/$n.got"; then
            first=$(diff "$out/$n.want" "$out/$n.got" | grep -E '^[<>]' | head -n 2 | cut -c1-160 | tr '\n' ' ')
            echo "FAIL cuda_$n: texture sampling differs from the H200's (< H200, > tpsim): $first"
            return
        fi
        for want in "$(grep '^probe cdp.pending' "$ref/api-default-pending.txt")" \
            "probe cdp.depth chain 3000 pending_limit default $(sed -n 's/^probe cdp.depth //p' "$ref/api-default-pending.txt")"; do
            if ! grep -qxF -- "$want" "$o"; then
                echo "FAIL cuda_$n: no line '$want' (the H200's) in the output ($(grep '^probe cdp' "$o" | tr '\n' ' '))"
                return
            fi
        done
        echo "PASS cuda_$n"
        return
        ;;
    esac
    last=$(tail -n 1 "$o" 2>/dev/null)
    if [ "$rc" -ne 0 ] || [ "$last" != "$base: PASS" ]; then
        echo "FAIL cuda_$n: exit status $rc ($(tail_of "$o" "$e"))"
        return
    fi
    case "$n" in
    devprintf*)
        grep '^dev ' "$o" | LC_ALL=C sort >"$out/$n.got"
        sorted "$here/devprintf.expected" >"$out/$n.want"
        if ! cmp -s "$out/$n.want" "$out/$n.got"; then
            first=$(diff "$out/$n.want" "$out/$n.got" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')
            echo "FAIL cuda_$n: device printf output differs from devprintf.expected (sorted; < expected, > got): $first"
            return
        fi
        ;;
    failreport*)
        # tpsim run lists every failed call at exit, with its reason: the
        # allocation's address and the kernel's registers come from the
        # program's output; the rest is the limits of the configuration.
        a=$(sed -n 's/^allocation 0x//p' "$o")
        dst=$(printf '%x' $((0x$a + 512)))
        if [ "$n" = failreport ]; then
            reg_line="" reg_reason="" calls=4
            shared="65540 bytes of shared memory (0 static + 65540 dynamic), the device allows 65536 per block (Turing limit device.shared_per_block_optin)"
        else
            regs=$(sed -n 's/^heavy: \([0-9]*\) registers.*/\1/p' "$o")
            need=$(( (regs * 32 + 63) / 64 * 64 * 32 ))
            reg_line="block of 1024 threads x $regs registers needs $need registers (allocated per warp in units of 64), the device allows 32768 per block (Fermi limit device.regs_per_block)"
            calls=5
            # register sharing (regmutex=1, owf=1 in TPSIM_OPTIONS): the CTA is
            # charged its base set and refused beside the shared registers,
            # a reason of its own (the launch must still fail)
            case " ${TPSIM_OPTIONS:-} " in
            *" regmutex=1 "* | *" owf=1 "*) reg_reason="" ;;
            *) reg_reason=$reg_line ;;
            esac
            shared="49156 bytes of shared memory (0 static + 49156 dynamic), the device allows 49152 per block (Fermi limit device.shared_per_block)"
        fi
        for want in "tpsim: $calls CUDA calls returned an error:" \
            "  cudaLaunchKernel (kernel shared_user): cudaErrorInvalidValue, 1 time" \
            "      block needs $shared" \
            "  cudaMemcpy: cudaErrorInvalidValue, 2 times" \
            "      the destination 0x$dst + 1024 bytes runs past the end of its allocation (0x$a, 1024 bytes) by 512" \
            "  cudaGraphicsUnregisterResource: cudaErrorNotSupported, 1 time" \
            "      tpsim does not implement this entry point" \
            ${reg_line:+"  cudaLaunchKernel (kernel heavy): cudaErrorLaunchOutOfResources, 1 time"} \
            ${reg_reason:+"      $reg_reason"}; do
            if ! grep -qxF -- "$want" "$e"; then
                echo "FAIL cuda_$n: no line '$want' in the failure report ($(tail_of "$e" /dev/null 6))"
                return
            fi
        done
        ;;
    cubinregs*)
        # the registers the program sees, beside ptxas's own count in the
        # build log (-Xptxas=-v): the rtx2060 (the default) takes them from
        # the program's sm_75 cubin; regs.cubin=0 keeps the model's, which
        # for r_wide is not ptxas's (docs/REGISTERS.md).  Under another
        # configuration without regs.cubin, or register sharing (whose
        # policy sets the charge), the program's own result check is all.
        cub=$("$tpsim" config --show "${TPSIM_CONFIG:-rtx2060}" 2>/dev/null | sed -n 's/^regs\.cubin = //p')
        case " ${TPSIM_OPTIONS:-} " in
        *" regs.cubin=0 "* | *" regmutex=1 "* | *" owf=1 "* | *" regs.policy="*) cub=0 ;;
        esac
        [ "$cub" = 1 ] || { echo "PASS cuda_$n"; return; }
        for k in r_small r_wide; do
            want=$(awk -v k="$k" '/Compiling entry function/ { f = index($0, "\047" k "\047") > 0 }
                f && /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") print $(i + 1); f = 0 }' \
                "$out/cubinregs.build.log" | head -n 1)
            got=$(sed -n "s/^regs $k //p" "$o")
            if [ -z "$want" ] || [ -z "$got" ]; then
                echo "FAIL cuda_$n: no count for $k (ptxas '$want', the program '$got')"
                return
            fi
            if [ "$n" = cubinregs ] && [ "$got" != "$want" ]; then
                echo "FAIL cuda_$n: $k has $got registers, ptxas gave it $want in the program's cubin"
                return
            fi
            if [ "$n" = cubinregs_model ] && [ "$k" = r_wide ] && [ "$got" = "$want" ]; then
                echo "FAIL cuda_$n: $k has ptxas's $want registers with regs.cubin=0 (the model's count expected)"
                return
            fi
        done
        ;;
    determinism*_sync)
        # device work inside the issuing calls: the same simulated results
        # as on the device thread (the run without _sync)
        ref=${n%_sync}
        grep '^sim ' "$o" >"$out/$n.sim"
        grep '^sim ' "$out/$ref.out" >"$out/$ref.sim" 2>/dev/null
        if [ ! -s "$out/$n.sim" ] || ! cmp -s "$out/$ref.sim" "$out/$n.sim"; then
            echo "FAIL cuda_$n: simulated results differ between stream.async=1 and 0 ($(tr '\n' ' ' <"$out/$n.sim") vs $(tr '\n' ' ' <"$out/$ref.sim" 2>/dev/null))"
            return
        fi
        ;;
    cdp*)
        # tpsim's limits: exec.cdp_max_depth levels of device launches below
        # the host's grid (5000 by default: the program's 40 all run),
        # exactly the pending-launch limit (16 asked, 32 read back).
        depth="depth: 40 levels ran, no launch failed"
        [ "$n" = cdp_depth4 ] && depth="depth: 5 levels ran, the launch from level 4 failed with cudaErrorLaunchMaxDepthExceeded"
        for want in "$depth" "pending: 32 of 40 launches accepted with a limit of 32" "child 42"; do
            if ! grep -qxF -- "$want" "$o"; then
                echo "FAIL cuda_$n: no line '$want' in the output ($(tail_of "$o" "$e"))"
                return
            fi
        done
        ;;
    sassonly)
        # tpsim simulates PTX: a binary without any must be refused clearly.
        if ! grep -q '^launch refused: cudaErrorNoKernelImageForDevice' "$o"; then
            echo "FAIL cuda_$n: the launch of a kernel without PTX was not refused with cudaErrorNoKernelImageForDevice"
            return
        fi
        if ! grep -q 'PTX' "$e"; then
            echo "FAIL cuda_$n: no message on stderr about the missing PTX ($(tail_of "$e" /dev/null 2))"
            return
        fi
        ;;
    esac
    if [ "$2" != "$base" ]; then
        # The -no-compress build: plain PTX inside, same output as the default.
        if ! grep -a -q '^\.target sm_75' "$out/$2"; then
            echo "FAIL cuda_$n: no uncompressed PTX found in the -no-compress binary"
            return
        fi
        if grep -a -q '^\.target sm_75' "$out/$base" 2>/dev/null; then
            echo "FAIL cuda_$n: the default build of $base carries uncompressed PTX too (nothing compared)"
            return
        fi
        if [ ! -f "$out/$base.out" ]; then
            echo "FAIL cuda_$n: no output of $base to compare with"
            return
        fi
        sorted "$out/$base.out" >"$out/$base.sorted"
        sorted "$o" >"$out/$n.sorted"
        if ! cmp -s "$out/$base.sorted" "$out/$n.sorted"; then
            first=$(diff "$out/$base.sorted" "$out/$n.sorted" | grep -E '^[<>]' | head -n 2 | tr '\n' ' ')
            echo "FAIL cuda_$n: output differs from the compressed build's ($base; < compressed, > not): $first"
            return
        fi
    fi
    echo "PASS cuda_$n"
}

echo "$runs" | while read -r n b s; do
    [ -n "$n" ] || continue
    reason=$(skip_reason "$n")
    if [ -n "$reason" ]; then
        echo "SKIP cuda_$n: $reason"
        continue
    fi
    if [ ! -x "$out/$b" ]; then
        why=$(grep -m 2 -i 'error' "$out/$b.build.log" 2>/dev/null | tr '\n' ' ')
        echo "FAIL cuda_$n: nvcc failed (${why:-see $out/$b.build.log})"
        continue
    fi
    run "$n" "$b" "$s"
    check "$n" "$b"
done
exit 0
