#!/bin/sh
# suites.sh -- builds and describes the public suites' own programs for the
# experiments' `--suites DIR` runs (experiments/suites.md pins the suites).
# The suites' code stays in DIR, outside the repository; the builds and the
# generated inputs go to OUT (a results folder's build/).
#
#   sh experiments/suites/suites.sh check DIR SUITE...   DIR has these suites (else a clear error, exit 2)
#   sh experiments/suites/suites.sh build DIR OUT NAME   builds program NAME into OUT/NAME/ (its run
#                                                        directory, with its inputs); prints "ok" or
#                                                        "skip: reason"; exit 0 either way
#   sh experiments/suites/suites.sh args NAME            the program and arguments to run in OUT/NAME
#   sh experiments/suites/suites.sh verify NAME OUT LOG  exit 0 when the program's own output check
#                                                        (or ours, experiments/suites.md) passes
#   sh experiments/suites/suites.sh point TPSIM CFG OUT NAME BASE [OPT...]
#                                                        one point: runs OUT/NAME's program on TPSIM
#                                                        (tpsim run --mode performance --config CFG,
#                                                        -o OPT and NAME's own opts), checks it as
#                                                        verify; writes BASE.json, BASE.log and
#                                                        BASE.status: ok, failed, or skipped (the
#                                                        reason from OUT/NAME/skip in BASE.log); exit 0
#   sh experiments/suites/suites.sh list                 every NAME with its suite and note
#
# DIR holds one checkout per suite: DIR/rodinia (Rodinia 3.x, e.g.
# github.com/yuhc/gpu-rodinia), DIR/parboil (github.com/yuhc/gpu-parboil),
# DIR/polybench (github.com/sgrauerg/polybenchGpu), DIR/cuda-samples
# (github.com/NVIDIA/cuda-samples), and optionally DIR/ispass
# (github.com/gpgpu-sim/ispass2009-benchmarks: CP) and DIR/shoc
# (github.com/vetter/shoc: MD).  Every source is compiled unmodified by
#   nvcc -cudart shared -arch=sm_75 -O2 -w -include experiments/suites/compat/suite_compat.h
# (CUDA 13's removals, our own shim) plus the program's -I and -D flags (the
# PolyBench sizes: experiments/suites.md).  NVCC picks nvcc (default: PATH,
# then /usr/local/cuda/bin/nvcc).
set -u
here=$(cd "$(dirname "$0")" && pwd)
COMPAT=$here/compat
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}

die() { echo "suites.sh: $*" >&2; exit 2; }

# suite of a program, its source directory (relative to DIR) and a note
info() {
    case $1 in
    gaussian) echo "rodinia cuda/gaussian" ;;
    lavamd) echo "rodinia cuda/lavaMD" ;;
    particlefilter) echo "rodinia cuda/particlefilter" ;;
    srad) echo "rodinia cuda/srad/srad_v2" ;;
    hotspot) echo "rodinia cuda/hotspot" ;;
    bfs) echo "rodinia cuda/bfs" ;;
    dwt2d) echo "rodinia cuda/dwt2d" ;;
    cp) echo "ispass CP/benchmarks/cp/src/cuda_short" ;;
    md) echo "shoc src/cuda/level1/md" ;;
    heartwall) echo "rodinia cuda/heartwall" ;;
    radixsort) echo "cuda-samples Samples/2_Concepts_and_Techniques/radixSortThrust" ;;
    sc) echo "rodinia cuda/streamcluster" ;;
    pf_1) echo "rodinia cuda/particlefilter" ;;
    2mm_1) echo "polybench CUDA/2MM" ;;
    3mm_1) echo "polybench CUDA/3MM" ;;
    gemm) echo "polybench CUDA/GEMM" ;;
    syrk) echo "polybench CUDA/SYRK" ;;
    syr2k) echo "polybench CUDA/SYR2K" ;;
    atax_1 | atax_2) echo "polybench CUDA/ATAX" ;;
    bicg) echo "polybench CUDA/BICG" ;;
    mvt_1) echo "polybench CUDA/MVT" ;;
    gesummv_2) echo "polybench CUDA/GESUMMV" ;;
    corr_3 | corr_4) echo "polybench CUDA/CORR" ;;
    spmv) echo "parboil benchmarks/spmv/src/cuda" ;;
    mriq) echo "parboil benchmarks/mri-q/src/cuda" ;;
    tpacf) echo "parboil benchmarks/tpacf/src/cuda" ;;
    cutcp) echo "parboil benchmarks/cutcp/src/cuda" ;;
    lbm) echo "parboil benchmarks/lbm/src/cuda" ;;
    mri-g_3) echo "parboil benchmarks/mri-gridding/src/cuda" ;;
    sad) echo "parboil benchmarks/sad/src/cuda" ;;
    kmeans_1) echo "rodinia cuda/kmeans" ;;
    mergesort) echo "cuda-samples Samples/0_Introduction/mergeSort" ;;
    *) return 1 ;;
    esac
}
# the programs whose data sets are missing and cannot be generated, or not yet built here:
# name suite reason (experiments/suites.md)
skipped() {
    case $1 in
    montecarlo) echo "cuda-samples MonteCarloMultiGPU: 262,144 paths per option, fixed in the program: too long to simulate here" ;;
    *) return 1 ;;
    esac
}

# PolyBench problem sizes (the headers' defaults are too long to simulate
# here): -D flags; the launch shapes (DIM_THREAD_BLOCK_*) are the suite's.
# -DSUITE_PB_N=... also stops the header from defining its own sizes.
pbsize() {
    case $1 in
    2mm_1) echo "-DSUITE_PB_N=1 -DNI=256 -DNJ=256 -DNK=256 -DNL=256" ;;
    3mm_1) echo "-DSUITE_PB_N=1 -DNI=256 -DNJ=256 -DNK=256 -DNL=256 -DNM=256" ;;
    gemm) echo "-DSUITE_PB_N=1 -DNI=256 -DNJ=256 -DNK=256" ;;
    syrk | syr2k) echo "-DSUITE_PB_N=1 -DNI=256 -DNJ=64" ;;
    atax_1 | atax_2 | bicg) echo "-DSUITE_PB_N=1 -DNX=1024 -DNY=1024" ;; # the host code needs NX = NY
    mvt_1 | gesummv_2) echo "-DSUITE_PB_N=1024" ;;
    corr_3 | corr_4) echo "-DSUITE_PB_N=256 -DM=256" ;;
    esac
}

# Parboil's programs: its common library (argument parsing, timers) as its
# Makefiles link it (common/src/parboil_cuda.c), and its header
pbcommon() {
    echo "-I$d/parboil/common/include $d/parboil/common/src/parboil_cuda.c"
}
# the generated inputs' sizes (experiments/suites.md)
SPMV_N=32768
MRIQ=${SUITE_MRIQ:-65536_2048} # X points, K samples (SUITE_MRIQ=X_K: another size, as experiments/side/regfile.sh runs it)
TPACF_P=487 TPACF_S=100 # points per set, random sets
CUTCP_S=32 # the water box's side (A)
SAD_WH="352 288" # frame size (CIF)
MRIG="100000 64" # samples, grid points a side
LBM_STEPS=2 # time steps (the grid is fixed: 120 x 120 x 150)
DWT2D_N=1024 # image side (Rodinia's run.sh: rgb.bmp -d 1024x1024)
HW_FRAMES=2 # frames heartwall tracks (its run line: 20; frame 0 only sets up, each later one is ~300 M warp instructions)
HW_VIDEO=20 # frames in the generated video (one beat)
MD_SIZE=4 # SHOC's problem size class 4: 73,728 atoms, 288 CTAs (class 1, its default: 48 CTAs, under one wave)
KMEANS_N=15360 # points of 34 features (kdd_cup's count), 60 CTAs of 256 (the rewrite's size)

# options a program needs beyond the variant's (tpsim run -o)
opts() {
    case $1 in
    srad) echo "exec.oob=warn" ;; # srad_cuda_1 reads the row above the first (unused): zeros, as a GPU reads whatever is there
    esac
}

args() {
    case $1 in
    gaussian) echo "./prog -s 256 -q" ;;
    lavamd) echo "./prog -boxes1d 4" ;;
    particlefilter | pf_1) echo "./prog -x 128 -y 128 -z 10 -np 1000" ;;
    srad) echo "./prog 512 512 0 127 0 127 0.5 2" ;;
    hotspot) echo "./prog 512 2 2 temp_512 power_512 output.out" ;;
    bfs) echo "./prog graph65536.txt" ;;
    radixsort) echo "./prog -iterations=1" ;; # its 1,048,576 keys and values, one sort (its default: 100)
    heartwall) echo "./prog heartwall$HW_VIDEO.avi $HW_FRAMES" ;;
    md) echo "./prog --passes 1 --size $MD_SIZE" ;; # one timed pass (SHOC's default: 10)
    cp) echo "./prog -o cp.out" ;; # its sizes and atoms are fixed in the program (cuenergy.h)
    dwt2d) echo "./prog rgb$DWT2D_N.bmp -d ${DWT2D_N}x$DWT2D_N -f -5 -l 3" ;; # read from ../../data/dwt2d/ (its getImg)
    sc) echo "./prog 10 20 32 4096 4096 1000 none output.txt 1" ;;
    kmeans_1) echo "./prog -o -i kmeans$KMEANS_N.txt" ;; # -o: print the centroids (verify)
    spmv) echo "./prog -i spmv$SPMV_N.mtx,spmv$SPMV_N.vec -o spmv.out" ;;
    mriq) echo "./prog -i mriq$MRIQ.bin -o mriq.out" ;;
    mri-g_3) echo "./prog -i mrig.uks -o mrig.out" ;;
    sad) echo "./prog -i sad_ref.bin,sad_cur.bin -o sad.out" ;;
    lbm) echo "./prog -i lbm.of -o lbm.out $LBM_STEPS" ;;
    cutcp) echo "./prog -i watbox$CUTCP_S.pqr -o cutcp.out" ;;
    tpacf) echo "./prog -i tpacf_data.txt$(seq -f ',tpacf_rand%g.txt' -s '' $TPACF_S) -o tpacf.out -- -n $TPACF_S -p $TPACF_P" ;;
    *) echo "./prog" ;; # PolyBench: no arguments
    esac
}

build() { # DIR OUT NAME
    d=$1 o=$2 n=$3
    i=$(info "$n") || { echo "skip: $(skipped "$n" || echo "unknown program")"; return 0; }
    set -- $i
    s=$1 src=$d/$1/$2
    [ -d "$src" ] || { echo "skip: $src is missing"; return 0; }
    [ -x "$NVCC" ] || { echo "skip: nvcc not found ($NVCC)"; return 0; }
    w=$o/$n
    mkdir -p "$w"
    nv="$NVCC -cudart shared -arch=sm_75 -O2 -w -include $COMPAT/suite_compat.h -I$COMPAT"
    case $n in
    gaussian) set -- "$src/gaussian.cu"; k=$src/gaussian.cu ;;
    lavamd) set -- "$src/main.c" "$src/kernel/kernel_gpu_cuda_wrapper.cu" "$src/util/num/num.c" \
        "$src/util/timer/timer.c" "$src/util/device/device.cu"
        k=$src/kernel/kernel_gpu_cuda_wrapper.cu ;;
    particlefilter | pf_1) set -- -use_fast_math "$src/ex_particle_CUDA_float_seq.cu"; k=$2 ;;
    srad) set -- "$src/srad.cu"; k=$1 ;;
    hotspot) set -- "$src/hotspot.cu"; k=$1
        [ -f "$w/temp_512" ] || python3 "$here/gen_inputs.py" hotspot 512 "$w" ;;
    sc) set -- "$src/streamcluster_cuda_cpu.cpp" "$src/streamcluster_cuda.cu" "$src/streamcluster_header.cu"; k=$src/streamcluster_cuda.cu ;;
    bfs) set -- "$src/bfs.cu"; k=$1
        [ -f "$w/graph65536.txt" ] || python3 "$here/gen_inputs.py" bfs 65536 3 "$w" ;;
    dwt2d) set -- "$src/main.cu" "$src/dwt.cu" "$src/components.cu" "$src/dwt_cuda/fdwt53.cu" "$src/dwt_cuda/fdwt97.cu" \
        "$src/dwt_cuda/common.cu" "$src/dwt_cuda/rdwt97.cu" "$src/dwt_cuda/rdwt53.cu"; k=$src/dwt_cuda/fdwt53.cu
        # getImg prefixes its file name with ../../data/dwt2d/ (from the run directory OUT/dwt2d)
        mkdir -p "$o/../data/dwt2d"
        [ -f "$o/../data/dwt2d/rgb$DWT2D_N.bmp" ] || python3 "$here/gen_inputs.py" dwt2d $DWT2D_N $DWT2D_N "$o/../data/dwt2d" ;;
    cp) # ISPASS 2009's build of CP (build/cuda_short): Parboil's old common library of its own
        set -- -I"$d/ispass/CP/common/include" "$d/ispass/CP/common/src/parboil.c" "$src/main.cu" \
            "$src/cuenergy_pre8_coalesce.cu"; k=$src/cuenergy_pre8_coalesce.cu
        cp "$src/../../output/short/ref.txt" "$w/cp.ref" ;;
    radixsort) # fixed_clock.c: the same keys every run (the sample seeds them with clock())
        set -- -DSUITE_COMPAT_KEEP_PROPS -I"$d/cuda-samples/Common" "$src/radixSortThrust.cu" "$COMPAT/fixed_clock.c"
        k=$src/radixSortThrust.cu ;;
    heartwall) # -DOUTPUT as its Makefile's OUTPUT=Y: result.txt, the tracked points of every frame
        set -- -I"$src/AVI" -DOUTPUT "$src/main.cu" "$src/AVI/avilib.c" "$src/AVI/avimod.c"; k=$src/main.cu
        [ -f "$w/heartwall$HW_VIDEO.avi" ] || python3 "$here/gen_inputs.py" heartwall 609 590 $HW_VIDEO "$w" ;;
    md) # SHOC's driver (src/cuda/common/main.cpp) and option and result classes; every file as CUDA
        # (--x=cu: main.cpp prints cudaDeviceProp fields the shim maps only for CUDA); -lcuda for the
        # shim's clamped texture bind (suite_compat.h)
        set -- -I"$d/shoc/src/common" -I"$d/shoc/src/cuda/common" -DSUITE_COMPAT_CLAMP_BIND \
            -L"$(dirname "$NVCC")/../lib64/stubs" -lcuda --x=cu "$src/MD.cu" "$d/shoc/src/cuda/common/main.cpp" \
            "$d/shoc/src/common/Option.cpp" "$d/shoc/src/common/OptionParser.cpp" \
            "$d/shoc/src/common/ResultDatabase.cpp" "$d/shoc/src/common/InvalidArgValue.cpp"; k=$src/MD.cu ;;
    spmv) set -- $(pbcommon) -I"$src/../../common_src/convert-dataset" --use_fast_math "$src/main.cu" "$src/file.cc" \
        "$src/gpu_info.cc" "$src/../../common_src/convert-dataset/convert_dataset.c" \
        "$src/../../common_src/convert-dataset/mmio.c"; k=$src/main.cu
        [ -f "$w/spmv$SPMV_N.expected" ] || python3 "$here/gen_inputs.py" spmv $SPMV_N "$w" ;;
    mriq) set -- $(pbcommon) --use_fast_math "$src/main.cu" "$src/file.cc"; k=$src/main.cu
        [ -f "$w/mriq$MRIQ.expected" ] || python3 "$here/gen_inputs.py" mriq $(echo $MRIQ | tr _ ' ') "$w" ;;
    tpacf) set -- $(pbcommon) "$src/main.cu" "$src/args.cc" "$src/model_io.cc"; k=$src/main.cu
        [ -f "$w/tpacf.expected" ] || python3 "$here/gen_inputs.py" tpacf $TPACF_P $TPACF_S "$w" ;;
    cutcp) set -- $(pbcommon) "$src/main.c" "$src/readatom.c" "$src/output.c" "$src/excl.c" "$src/cutcpu.c" \
        "$src/cutoff6overlap.cu"; k=$src/cutoff6overlap.cu
        [ -f "$w/watbox$CUTCP_S.expected" ] || python3 "$here/gen_inputs.py" cutcp $CUTCP_S "$w" ;;
    lbm) set -- $(pbcommon) "$src/main.cc" "$src/lbm.cu"; k=$src/lbm.cu
        [ -f "$w/lbm.of" ] || python3 "$here/gen_inputs.py" lbm "$w" ;;
    mri-g_3) set -- $(pbcommon) "$src/main.cu" "$src/CUDA_interface.cu" "$src/CPU_kernels.c" "$src/scanLargeArray.cu" \
        "$src/sort.cu"; k=$src/CUDA_interface.cu
        [ -f "$w/mrig.uks.data" ] || python3 "$here/gen_inputs.py" mrig $MRIG "$w" ;;
    sad) set -- $(pbcommon) "$src/main.cu" "$src/file.c" "$src/image.c" "$src/sad4.cu" "$src/largerBlocks.cu"
        k=$src/sad4.cu
        [ -f "$w/sad.expected" ] || python3 "$here/gen_inputs.py" sad $SAD_WH "$w" ;;
    kmeans_1) # three float texture references in one file: the shim's managed ones; OpenMP as its
        # Makefile builds the C parts; -lcuda for the shim's symbol-by-name copy (suite_compat.h)
        set -- -DSUITE_COMPAT_MANAGED_TEX -Xcompiler -fopenmp -lgomp -L"$(dirname "$NVCC")/../lib64/stubs" -lcuda \
            "$src/cluster.c" "$src/getopt.c" "$src/kmeans.c" "$src/kmeans_clustering.c" "$src/kmeans_cuda.cu" \
            "$src/rmse.c"; k=$src/kmeans_cuda.cu
        [ -f "$w/kmeans$KMEANS_N.txt" ] || python3 "$here/gen_inputs.py" kmeans $KMEANS_N 34 "$w" ;;
    mergesort) set -- -DSUITE_COMPAT_KEEP_PROPS -I"$d/cuda-samples/Common" "$src/main.cpp" "$src/mergeSort.cu" "$src/bitonic.cu" \
        "$src/mergeSort_host.cpp" "$src/mergeSort_validate.cpp"
        k=$src/mergeSort.cu ;;
    *) # PolyBench
        set -- -I"$d/polybench/common" $(pbsize "$n") "$src"/*.cu; k=$(ls "$src"/*.cu | head -1) ;;
    esac
    # built before with the same command: kept
    # (with the shim's checksum: a changed suite_compat.h rebuilds)
    cmd="$nv -I$src $* -o prog # suite_compat.h $(cksum <"$COMPAT/suite_compat.h" | cut -d' ' -f1)"
    if [ -x "$w/prog" ] && [ -f "$w/prog.ptx" ] && [ "$(cat "$w/build.cmd" 2>/dev/null)" = "$cmd" ]; then
        echo ok
        return 0
    fi
    rm -f "$w/prog" "$w/prog.ptx"
    echo "$cmd" >"$w/build.cmd"
    # the program, and the PTX of its kernels' file (for `tpsim regmutex`)
    flags=$(for a in "$@"; do case $a in -*) printf ' %s' "$a" ;; esac; done)
    if (cd "$w" && $nv -I"$src" "$@" -o prog && $nv -I"$src" $flags -ptx "$k" -o prog.ptx) >"$w/build.log" 2>&1; then
        echo ok
    else
        echo "skip: build failed: $(grep -m1 error "$w/build.log" | cut -c1-160)"
    fi
}

verify() { # NAME OUT LOG
    n=$1 w=$2/$1 log=$3
    case $n in
    radixsort) grep -q "^Test passed" "$log" && ! grep -q "Test failed\|FAILED" "$log" ;;
    mergesort) # its own validation (mergeSort_validate.cpp) of the sorted keys and the values' permutation
        grep -q "inspecting keys array: OK" "$log" && grep -q "inspecting keys and values array: OK" "$log" ;;
    bfs) cmp -s "$w/result.txt" "$w/graph65536.expected" ;;
    heartwall) python3 "$here/gen_inputs.py" heartwall-check "$w/result.txt" $HW_VIDEO $HW_FRAMES ;;
    md) # its own check, once for the single- and once for the double-precision kernel
        [ "$(grep -c "^Test Passed" "$log")" = 2 ] && ! grep -q "Test Failed\|Test FAILED" "$log" ;;
    cp) python3 "$here/gen_inputs.py" cp-check "$w/cp.out" "$w/cp.ref" ;; # the suite's reference output
    spmv) python3 "$here/gen_inputs.py" compare "$w/spmv.out" "$w/spmv$SPMV_N.expected" 1e-4 ;;
    mriq) python3 "$here/gen_inputs.py" compare "$w/mriq.out" "$w/mriq$MRIQ.expected" 1e-3 ;;
    cutcp) python3 "$here/gen_inputs.py" compare "$w/cutcp.out" "$w/watbox$CUTCP_S.expected" 1e-3 4 ;;
    mri-g_3) # its own check: 1 when the GPU's sample densities equal its CPU version's
        [ "$(od -An -tu4 -N4 "$w/mrig.out" 2>/dev/null | tr -d ' ')" = 1 ] ;;
    sad) python3 "$here/gen_inputs.py" sad-check "$w/sad.out" "$w/sad.expected" ;;
    kmeans_1) python3 "$here/gen_inputs.py" kmeans-check "$log" "$w/kmeans$KMEANS_N.txt" ;;
    lbm) python3 "$here/gen_inputs.py" lbm-check "$w/lbm.out" "$log" ;;
    tpacf) python3 "$here/gen_inputs.py" tpacf-check "$w/tpacf.out" "$w/tpacf.expected" ;;
    mvt_1 | atax_1 | atax_2)
        # their 2-D blocks (32 x 8) give each row to 8 warps that all add into it: a race (tpsim run
        # --check race reports it), so the CPU comparison depends on the warps' timing; the run
        # itself must end and print it (experiments/suites.md)
        grep -q "Non-Matching CPU-GPU Outputs Beyond Error Threshold" "$log" ;;
    2mm_1 | 3mm_1 | gemm | syrk | syr2k | bicg | gesummv_2 | corr_3 | corr_4)
        # PolyBench compares the GPU's results with its CPU version's
        grep -q "Non-Matching CPU-GPU Outputs Beyond Error Threshold of [0-9.]* Percent: 0\$" "$log" &&
            ! grep "Non-Matching" "$log" | grep -qv ": 0\$" ;;
    *) return 0 ;; # no check of its own (experiments/suites.md)
    esac
}

# one point of an experiment (experiments/regmutex/run.sh, experiments/warppool/run.sh)
point() { # TPSIM CFG OUT NAME BASE [OPT...]
    # own names: verify() sets n, w and log; relative paths from here (the run cds)
    p_tp=$1 p_cfg=$2 p_out=$3 p_n=$4 p_base=$5
    shift 5
    case $p_tp in /*) ;; */*) p_tp=$PWD/$p_tp ;; esac
    case $p_base in /*) ;; *) p_base=$PWD/$p_base ;; esac
    if [ -f "$p_out/$p_n/skip" ]; then
        cp "$p_out/$p_n/skip" "$p_base.log"
        echo skipped >"$p_base.status"
        return 0
    fi
    # the caller's options and the program's own, each after -o
    p_k=$#
    for x in "$@" $(opts "$p_n"); do set -- "$@" -o "$x"; done
    shift "$p_k"
    # shellcheck disable=SC2046
    if (cd "$p_out/$p_n" && "$p_tp" run --mode performance --config "$p_cfg" --stats "$p_base.json" "$@" \
        -- $(args "$p_n")) >"$p_base.log" 2>&1 && verify "$p_n" "$p_out" "$p_base.log"; then
        echo ok >"$p_base.status"
    else
        echo failed >"$p_base.status"
    fi
}

check() { # DIR SUITE...
    d=$1
    shift
    [ -n "$d" ] || die "--suites needs a directory (experiments/suites.md)"
    [ -d "$d" ] || die "--suites $d: no such directory (it should hold the suites' checkouts: $*; experiments/suites.md)"
    for s in "$@"; do
        case $s in
        rodinia) t=cuda/gaussian ;;
        parboil) t=benchmarks ;;
        polybench) t=CUDA/GEMM ;;
        ispass) t=CP/benchmarks/cp ;;
        shoc) t=src/cuda/level1/md ;;
        cuda-samples) t=Samples/0_Introduction/mergeSort ;;
        *) die "unknown suite $s" ;;
        esac
        [ -e "$d/$s/$t" ] || die "--suites $d: no $s checkout there ($d/$s/$t is missing; experiments/suites.md says where to get it)"
    done
}

# WarpPool's bars from the suites: NAME, the kernel (a part of its mangled
# name), the suite, the paper's class (as experiments/warppool/wpbench --list)
wplist() {
    cat <<'LIST'
syr2k      syr2k_kernel       polybench  memory-divergent
pf_1       likelihood_kernel  rodinia    memory-divergent
syrk       syrk_kernel        polybench  memory-divergent
mri-g_3    gridding           parboil    memory-divergent
spmv       spmv_jds           parboil    memory-divergent
sc         kernel_compute_cost rodinia    memory-divergent
3mm_1      mm3_kernel1        polybench  bandwidth-limited
gemm       gemm_kernel        polybench  bandwidth-limited
2mm_1      mm2_kernel1        polybench  bandwidth-limited
corr_3     reduce_kernel      polybench  bandwidth-limited
atax_2     atax_kernel2       polybench  bandwidth-limited
atax_1     atax_kernel1       polybench  bandwidth-limited
kmeans_1   invert_mapping     rodinia    bandwidth-limited
corr_4     corr_kernel        polybench  cache-limited
mvt_1      mvt_kernel1        polybench  cache-limited
bicg       bicg_kernel2       polybench  cache-limited
gesummv_2  gesummv_kernel     polybench  cache-limited
lbm        performStreamCollide parboil  cache-limited
LIST
}

case ${1:-} in
wplist) wplist ;;
check) shift; check "$@" ;;
build) [ $# -eq 4 ] || die "usage: suites.sh build DIR OUT NAME"; build "$2" "$3" "$4" ;;
args) args "$2" ;;
opts) opts "$2" ;;
verify) verify "$2" "$3" "$4" ;;
point) [ $# -ge 6 ] || die "usage: suites.sh point TPSIM CFG OUT NAME BASE [OPT...]"; shift; point "$@" ;;
info) info "$2" ;;
skipped) skipped "$2" ;;
*) sed -n '2,32s/^# \{0,1\}//p' "$0"; exit 2 ;;
esac
