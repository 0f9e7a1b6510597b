# sims.sh -- sourced by experiments/side/run.sh, ubench.sh, regfile.sh and
# warppool.sh: one CUDA binary run on each simulator at a given CTAs-per-SM
# limit (the register file large enough in both that registers never limit).  Each function
# prints the cycles of every launch of the run, one per line, in launch
# order, and returns non-zero (with the run's last lines on stderr) when
# the program fails.  Needs $here (this folder: each script sets it before
# sourcing this file) and, for the runs, $work (a scratch folder); sets
# root (the repository), BUILD (default build), tools (GPGPUSIM_TOOLS, default
# ../shared/gpgpusim) and SUITES (experiments/suites/suites.sh).
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-build}
tools=${GPGPUSIM_TOOLS:-$root/../shared/gpgpusim}
SUITES=$root/experiments/suites/suites.sh

# side_tpsim TPSIM K TAG BIN [ARGS...]: build/bin/tpsim run --config gtx480
# --mode performance -o device.max_ctas_per_sm=K; the statistics file's
# kernels' `cycles` (its "totals" is their sum, not another launch)
side_tpsim() {
    _t=$1 _k=$2 _tag=$3
    shift 3
    "$_t" run --config gtx480 --mode performance --no-summary --stats "$work/$_tag.json" \
        -o device.max_ctas_per_sm="$_k" -o device.regs_per_sm=65536 -- "$@" >"$work/$_tag.out" 2>&1 ||
        { echo "tpsim failed at $_k CTAs: $(tail -n 3 "$work/$_tag.out")" >&2; return 1; }
    python3 -c '
import json, sys
for k in json.load(open(sys.argv[1]))["kernels"]:
    print(k["cycles"])' "$work/$_tag.json"
}

# side_gs_run SRC DIR LOG "OPTION..." BIN [ARGS...]: GPGPU-Sim 4.2's
# SM2_GTX480 configuration (prep-gtx480.sh, timing mode) written into DIR
# with the options' lines appended (each "-name value", separated by ";"),
# then BIN run from DIR on it, its output in LOG; BIN's exit status
side_gs_run() {
    _g=$1 _dir=$2 _log=$3 _opts=$4
    shift 4
    bash "$tools/prep-gtx480.sh" "$_g" "$_dir" 0 >/dev/null || return 1
    echo "$_opts" | tr ';' '\n' >>"$_dir/gpgpusim.config"
    (cd "$_dir" && bash -c ". '$tools/env.sh' '$_g' && exec \"\$@\"" - "$@") >"$_log" 2>&1
}

# side_gpgpusim SRC K TAG BIN [ARGS...]: side_gs_run with -gpgpu_shader_cta K
# -gpgpu_shader_registers 65536, run from $work/TAG; each launch's
# gpu_sim_cycle
side_gpgpusim() {
    _k=$2 _d=$work/$3
    _gs=$1
    shift 3
    rm -rf "$_d"
    side_gs_run "$_gs" "$_d" "$_d/log" "-gpgpu_shader_cta $_k;-gpgpu_shader_registers 65536" "$@" ||
        { echo "GPGPU-Sim failed at $_k CTAs: $(tail -n 3 "$_d/log")" >&2; return 1; }
    awk '/^gpu_sim_cycle/ { print $3 }' "$_d/log"
}

# side_check_gpgpusim SRC: SRC is a built GPGPU-Sim tree (else exit 2)
side_check_gpgpusim() {
    [ -n "$(find "$1/lib" -name "libcudart.so*" 2>/dev/null | head -n 1)" ] ||
        { echo "$0: $1 has no built libcudart.so (build it: $tools/build.sh $1)" >&2; exit 2; }
}

# side_setup NAME: the common start of run.sh and ubench.sh (NAME: the
# script's name in messages): sets NVCC and tpsim (from BUILD), checks them
# and $gs (a GPGPU-Sim tree, when given: made absolute), makes $out and a
# scratch folder $work that is removed at exit
side_setup() {
    NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    [ -x "$NVCC" ] || { echo "$1: nvcc not found (set NVCC)" >&2; exit 2; }
    case "$BUILD" in /*) tpsim="$BUILD/bin/tpsim" ;; *) tpsim="$root/$BUILD/bin/tpsim" ;; esac
    [ -x "$tpsim" ] || { echo "$1: $tpsim is not built (make)" >&2; exit 2; }
    if [ -n "$gs" ]; then
        [ -d "$gs" ] || { echo "$1: no GPGPU-Sim tree at $gs" >&2; exit 2; }
        gs=$(cd "$gs" && pwd)
        side_check_gpgpusim "$gs"
    fi
    mkdir -p "$out"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
}

# side_options SCRIPT OUT HELP ARGS...: the options of the suite scripts
# (regfile.sh, warppool.sh): --gpgpusim SRC, --suites DIR, --out DIR (default
# OUT), --table, -j N, -h (prints lines 2-HELP of the script); sets gs,
# suites, out, table, jobs, and side_n: how many arguments it took (the
# caller shifts them off; the rest are the programs)
side_options() {
    _s=$1 out=$2 _h=$3
    shift 3
    gs="" suites="" jobs=1 table="" side_n=0
    while [ $# -gt 0 ]; do
        case "$1" in
            --gpgpusim) gs=$2; _k=2 ;;
            --suites) suites=$2; _k=2 ;;
            --out) out=$2; _k=2 ;;
            --table) table=1; _k=1 ;;
            -j) jobs=$2; _k=2 ;;
            -h|--help) sed -n "2,${_h}p" "$0"; exit 0 ;;
            -*) echo "$_s: unknown option $1" >&2; exit 2 ;;
            *) break ;;
        esac
        shift "$_k"
        side_n=$((side_n + _k))
    done
}

# side_nvcc: $work/nvcc, nvcc with -no-compress (plain-text PTX in the
# fatbinary, which GPGPU-Sim reads), for suites.sh's builds (NVCC=$work/nvcc)
side_nvcc() {
    printf '#!/bin/sh\nexec "%s" -no-compress "$@"\n' "$NVCC" >"$work/nvcc"
    chmod +x "$work/nvcc"
}
