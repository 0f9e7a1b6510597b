#!/bin/sh
# run_cudart.sh -- the runtime library (libcudart.so.13), the fatbinary
# reader and `tpsim run`.  Prints PASS/FAIL/SKIP lines (tests/run.sh counts
# them); exits non-zero if anything failed.
#   - the library: soname, symlink, run path to libcuda.so.1, every export
#     under the version node libcudart.so.13, nothing but cuda*/__cuda*,
#     every function of cudart/api_names.txt (and every symbol NVIDIA's
#     libcudart.so.13 exports, when installed);
#   - rt_abi: tpsim's cuda_runtime_api.h against NVIDIA's, value by value;
#   - t_fatbin (committed nvcc fatbinaries) and t_rt (the runtime from C);
#   - tpsim run: settings, status, stdin/stdout, the summary, and its
#     messages for missing libraries or programs and unusable binaries;
#   - with nvcc: relocatable device code in two files, built with each
#     compression mode, through tpsim run.
BUILD=${BUILD:-build}
T=$BUILD/tests/cudart
LIB=$BUILD/lib/libcudart.so.13
TPSIM=$BUILD/bin/tpsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset TPSIM_CONFIG TPSIM_OPTIONS TPSIM_MODE TPSIM_TRACE TPSIM_STATS
failed=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; }
skip() { echo "SKIP $1: $2"; }
has() { if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1" "no '$3' in $(basename "$2"): $(head -c 300 "$2")"; fi; }

# run NAME PROGRAM ARGS...: a test program printing PASS/FAIL lines
run() {
    name=$1
    shift
    if [ ! -x "$1" ]; then
        fail "$name" "$1 is not built"
        return
    fi
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    cat "$tmp/$name.out"
    if grep -q "^FAIL" "$tmp/$name.out"; then
        failed=1
        sed 's/^/    stderr: /' "$tmp/$name.err" | head -20
    elif [ $rc -ne 0 ]; then
        fail "$name" "exited with status $rc"
        sed 's/^/    stderr: /' "$tmp/$name.err" | head -20
    fi
}

# ---- the library ------------------------------------------------------------------
if [ ! -f "$LIB" ]; then
    fail cudart_library "$LIB is not built"
    exit 1
fi
soname=$(objdump -p "$LIB" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = libcudart.so.13 ] && pass cudart_soname || fail cudart_soname "soname '$soname'"
[ "$(readlink "$BUILD/lib/libcudart.so")" = libcudart.so.13 ] && pass cudart_symlink || fail cudart_symlink "no libcudart.so -> libcudart.so.13"
if ldd "$LIB" | grep -q "libcuda.so.1 => $(cd "$BUILD/lib" && pwd)/libcuda.so.1"; then
    pass cudart_finds_tpsim_libcuda
else
    fail cudart_finds_tpsim_libcuda "$(ldd "$LIB" | grep libcuda)"
fi
# defined symbols: "ADDR g DF .text SIZE VERSION NAME"
objdump -T "$LIB" | grep -E ' D[FO] ' | grep -v '\*UND\*' >"$tmp/dyn"
unversioned=$(awk '$(NF-1) != "libcudart.so.13" {print $NF}' "$tmp/dyn" | head -5 | tr '\n' ' ')
nv=$(wc -l <"$tmp/dyn")
[ -z "$unversioned" ] && [ "$nv" -gt 400 ] && pass "cudart_version_node ($nv symbols @libcudart.so.13)" ||
    fail cudart_version_node "not under libcudart.so.13: $unversioned"
nm -D --defined-only "$LIB" | awk '{print $NF}' | sed 's/@.*//' | grep -v '^libcudart.so.13$' | LC_ALL=C sort -u >"$tmp/exports"
others=$(grep -vE '^(cuda|__cuda)' "$tmp/exports" | tr '\n' ' ')
[ -z "$others" ] && pass cudart_exports_only_cuda || fail cudart_exports_only_cuda "also exports: $others"
missing=$(LC_ALL=C comm -23 cudart/api_names.txt "$tmp/exports" | tr '\n' ' ')
n=$(wc -l <cudart/api_names.txt)
[ -z "$missing" ] && [ "$n" -gt 350 ] && pass "cudart_exports_all_functions ($n)" || fail cudart_exports_all_functions "missing: $missing"
for s in __cudaRegisterFatBinary __cudaRegisterFatBinaryEnd __cudaUnregisterFatBinary __cudaRegisterFunction \
    __cudaRegisterVar __cudaRegisterManagedVar __cudaPushCallConfiguration __cudaPopCallConfiguration \
    __cudaLaunchKernel __cudaLaunchKernel_ptsz __cudaGetKernel __cudaInitModule; do
    grep -qx "$s" "$tmp/exports" || fail cudart_registration_exports "no $s"
done
pass cudart_registration_exports
NVLIB=$(ls /usr/local/cuda/lib64/libcudart.so.13 /usr/local/cuda/lib/libcudart.so.13 2>/dev/null | head -n 1)
if [ -n "$NVLIB" ]; then
    nm -D --defined-only "$NVLIB" | awk '{print $NF}' | sed 's/@.*//' | grep -E '^(cuda|__cuda)' | LC_ALL=C sort -u >"$tmp/nv"
    missing=$(LC_ALL=C comm -23 "$tmp/nv" "$tmp/exports" | tr '\n' ' ')
    [ -z "$missing" ] && pass "cudart_exports_cover_nvidia ($(wc -l <"$tmp/nv") symbols)" ||
        fail cudart_exports_cover_nvidia "missing: $missing"
else
    skip cudart_exports_cover_nvidia "NVIDIA's libcudart.so.13 is not installed"
fi
stubs=$(grep -c '^U(' cudart/unsupported.def)
echo "    ($(wc -l <"$tmp/exports") exports: $((n - stubs)) runtime functions implemented, $stubs stubs)"

# ---- ABI ----------------------------------------------------------------------------
if [ -x "$T/rt_abi_nv" ] && [ -x "$T/rt_abi_ours" ]; then
    "$T/rt_abi_ours" >"$tmp/abi_ours"
    "$T/rt_abi_nv" >"$tmp/abi_nv"
    if cmp -s "$tmp/abi_ours" "$tmp/abi_nv"; then
        pass "cudart_abi ($(wc -l <"$tmp/abi_ours") sizes, offsets and values equal CUDA 13's)"
    else
        fail cudart_abi "$(diff "$tmp/abi_ours" "$tmp/abi_nv" | grep '^[<>]' | head -4 | tr '\n' ' ')"
    fi
else
    skip cudart_abi "NVIDIA's cuda_runtime_api.h is not installed"
fi

# ---- the fatbinary reader and the runtime from C --------------------------------------
run t_fatbin "$T/t_fatbin" tests/cudart/fatbin
run t_rt "$T/t_rt"
n=$(grep -c "^tpsim: cudaGraphicsUnregisterResource is not supported yet$" "$tmp/t_rt.err")
[ "$n" = 1 ] && pass cudart_stub_message_once || fail cudart_stub_message_once "printed $n times"
n=$(grep -c "holds only GPU machine code (a cubin for sm_75) and no PTX" "$tmp/t_rt.err")
[ "$n" = 1 ] && pass cudart_sass_message_once || fail cudart_sass_message_once "printed $n times"
has cudart_fault_message "$tmp/t_rt.err" "in kernel 'bad', block (0,0,0), thread (0,0,0)"

# ---- tpsim config: the default configuration is marked -----------------------------------
"$TPSIM" config --list >"$tmp/list.out" 2>&1
has config_list_default "$tmp/list.out" " rtx2060 (the default)"
has config_list_table_note "$tmp/list.out" "gets the built-in configuration rtx2060"
"$TPSIM" config --show rtx2060 >"$tmp/show.out" 2>&1
has config_show_rtx2060 "$tmp/show.out" "device.name = tpsim GeForce RTX 2060 (simulated)"
has config_show_rtx2060_sms "$tmp/show.out" "device.num_sms = 30"

# ---- tpsim run ------------------------------------------------------------------------
LIBDIR=$(cd "$BUILD/lib" && pwd)
"$TPSIM" run --no-summary -- sh -c 'exit 7'
[ $? = 7 ] && pass run_exit_status || fail run_exit_status "not 7"
"$TPSIM" run -- sh -c 'kill -TERM $$' 2>"$tmp/sig.err"
rc=$?
[ $rc = 143 ] && pass run_signal_status || fail run_signal_status "status $rc, not 128+15"
has run_signal_message "$tmp/sig.err" "ended by signal 15"
out=$(echo "through stdin" | "$TPSIM" run --no-summary -- cat)
[ "$out" = "through stdin" ] && pass run_stdin_stdout || fail run_stdin_stdout "'$out'"
out=$(TPSIM_OPTIONS="exec.quantum=64" "$TPSIM" run --no-summary --config gtx480 --mode functional \
    -o device.num_sms=4 -o exec.its=1 -- sh -c 'echo "$TPSIM_CONFIG|$TPSIM_MODE|$TPSIM_OPTIONS|${LD_LIBRARY_PATH%%:*}"')
want="gtx480|functional|exec.quantum=64 device.num_sms=4 exec.its=1|$LIBDIR"
[ "$out" = "$want" ] && pass run_environment || fail run_environment "'$out', want '$want'"
"$TPSIM" run -o nosuchformat -- true 2>"$tmp/o.err"
[ $? = 2 ] && pass run_bad_option || fail run_bad_option "accepted -o without '='"
has run_bad_option_message "$tmp/o.err" "KEY=VALUE"
"$TPSIM" run --mode fastest -- true 2>"$tmp/m.err"
[ $? = 2 ] && pass run_bad_mode || fail run_bad_mode "accepted --mode fastest"
"$TPSIM" run 2>"$tmp/none.err"
[ $? = 2 ] && pass run_no_program || fail run_no_program "not refused"
"$TPSIM" run -- "$tmp/nosuchprogram" 2>"$tmp/np.err"
[ $? = 127 ] && pass run_missing_program || fail run_missing_program "status"
has run_missing_program_message "$tmp/np.err" "no such program"
printf 'data\n' >"$tmp/notexec"
"$TPSIM" run -- "$tmp/notexec" 2>"$tmp/ne.err"
[ $? = 126 ] && pass run_not_executable || fail run_not_executable "status"
has run_not_executable_message "$tmp/ne.err" "not an executable file"
# a copy of tpsim with no lib directory next to it
mkdir -p "$tmp/alone/bin"
cp "$TPSIM" "$tmp/alone/bin/tpsim"
"$tmp/alone/bin/tpsim" run -- true 2>"$tmp/nolib.err"
[ $? = 127 ] && pass run_no_libraries || fail run_no_libraries "status"
has run_no_libraries_message "$tmp/nolib.err" "build them with \`make\`"
# ELF programs tpsim cannot run: device code with NVIDIA's static runtime
# (a .nv_fatbin section but no libcudart), a static executable, CUDA 12's runtime
CC=${CC:-cc}
printf 'static const char fb[16] __attribute__((section(".nv_fatbin"), used)) = "x";\nint main(void){return 0;}\n' >"$tmp/sc.c"
if $CC -o "$tmp/static_cudart" "$tmp/sc.c" 2>/dev/null; then
    "$TPSIM" run -- "$tmp/static_cudart" 2>"$tmp/sc.err"
    [ $? = 126 ] && pass run_static_cudart || fail run_static_cudart "status"
    has run_static_cudart_message "$tmp/sc.err" "nvcc -cudart shared"
fi
printf 'int main(void){return 0;}\n' >"$tmp/st.c"
if $CC -static -o "$tmp/static" "$tmp/st.c" 2>/dev/null; then
    "$TPSIM" run -- "$tmp/static" 2>"$tmp/st.err"
    [ $? = 126 ] && pass run_static_program || fail run_static_program "status"
    has run_static_program_message "$tmp/st.err" "statically linked"
else
    skip run_static_program "no static C library"
fi
printf 'int cudaMalloc(void){return 0;}\n' >"$tmp/l12.c"
printf 'int cudaMalloc(void);\nint main(void){return cudaMalloc();}\n' >"$tmp/u12.c"
if $CC -shared -fPIC -Wl,-soname,libcudart.so.12 -o "$tmp/libcudart.so.12" "$tmp/l12.c" 2>/dev/null &&
    $CC -o "$tmp/uses12" "$tmp/u12.c" "$tmp/libcudart.so.12" 2>/dev/null; then
    "$TPSIM" run -- "$tmp/uses12" 2>"$tmp/u12.err"
    [ $? = 126 ] && pass run_cudart12 || fail run_cudart12 "status"
    has run_cudart12_message "$tmp/u12.err" "needs libcudart.so.12"
fi
# the summary after a runtime program, and --stats
if [ -x "$T/t_rt" ]; then
    "$TPSIM" run --stats "$tmp/rt.json" -- "$T/t_rt" >"$tmp/run_rt.out" 2>"$tmp/run_rt.err"
    rc=$?
    [ $rc = 0 ] && ! grep -q "^FAIL" "$tmp/run_rt.out" && pass run_runtime_program || fail run_runtime_program "status $rc"
    # scale: 3 launches in rt_launch, 1 in rt_symbols, 2 in rt_streams, 1
    # after the reset, and 6 the runtime refused (invalid configurations);
    # bad: 1, which failed; fetch2d, surfwrite and k once, seven twice: 19
    # launches of 6 kernels
    has run_summary_header "$tmp/run_rt.err" "tpsim: 6 kernels, 19 launches, "
    grep -qE "^ +13 +[0-9]+ +[0-9]+  scale \(6 failed\)$" "$tmp/run_rt.err" && pass run_summary_kernel ||
        fail run_summary_kernel "$(grep -E ' scale' "$tmp/run_rt.err")"
    # the failed calls, each with its reason: a block of 1 x 1 x 65 threads
    # (the limit in z is 64), a grid of 0 blocks, an unimplemented call
    has run_failures_header "$tmp/run_rt.err" " CUDA calls returned an error:"
    has run_failure_launch "$tmp/run_rt.err" "  cudaLaunchKernel (kernel scale): cudaErrorInvalidValue, 1 time"
    has run_failure_reason_z "$tmp/run_rt.err" "      block dimension z of 65 exceeds the device's 64"
    has run_failure_reason_grid "$tmp/run_rt.err" "      grid (0, 1, 1), block (32, 1, 1): every dimension must be at least 1"
    has run_failure_stub "$tmp/run_rt.err" "  cudaGraphicsUnregisterResource: cudaErrorNotSupported, "
    has run_failure_refused_listed "$tmp/rt.json" '      "reason": "block dimension z of 65 exceeds the device'"'"'s 64",'
    has run_failure_listed "$tmp/rt.json" '{"api": "cudaLaunchKernel", "error": "cudaErrorInvalidValue", "kernel": "scale", "caller": null, "reason": "block dimension z of 65 exceeds the device'"'"'s 64", "count": 1}' 
    grep -qE "^ +1 +[0-9]+ +[0-9]+  bad \(1 failed\)$" "$tmp/run_rt.err" && pass run_summary_failed ||
        fail run_summary_failed "$(grep -E ' bad' "$tmp/run_rt.err")"
    has run_stats_file "$tmp/rt.json" '"name": "scale"'
    # --no-summary drops the kernel table, not the failed calls; a
    # statistics file named by TPSIM_STATS is written and kept
    TPSIM_STATS="$tmp/env.json" "$TPSIM" run --no-summary -- "$T/t_rt" >/dev/null 2>"$tmp/quiet.err"
    has run_quiet_failures "$tmp/quiet.err" " CUDA calls returned an error:"
    if grep -q "kernels, .* launches" "$tmp/quiet.err"; then fail run_quiet_no_table "the kernel table was printed"
    else pass run_quiet_no_table; fi
    has run_env_stats_kept "$tmp/env.json" '"failures": ['
fi

# ---- with nvcc: relocatable device code, each compression mode -----------------------------
NVCC=${NVCC:-nvcc}
if command -v "$NVCC" >/dev/null 2>&1; then
    ok=1
    for m in default speed none; do
        if ! "$NVCC" -cudart shared -arch=sm_75 -rdc=true -compress-mode=$m -Itests/cudart/cu \
            -o "$tmp/rdc_$m" tests/cudart/cu/rdc_a.cu tests/cudart/cu/rdc_b.cu >"$tmp/nvcc.log" 2>&1; then
            fail cudart_nvcc_rdc "nvcc failed: $(tail -n 2 "$tmp/nvcc.log")"
            ok=0
            break
        fi
        if ! "$TPSIM" run --no-summary -- "$tmp/rdc_$m" >"$tmp/rdc_$m.out" 2>"$tmp/rdc_$m.err"; then
            fail cudart_nvcc_rdc "-compress-mode=$m: $(tail -n 3 "$tmp/rdc_$m.out" "$tmp/rdc_$m.err" | tr '\n' ' ')"
            ok=0
            break
        fi
    done
    if [ $ok = 1 ]; then
        has cudart_nvcc_rdc "$tmp/rdc_default.out" "rdc: PASS (cudaSuccess)"
        cmp -s "$tmp/rdc_default.out" "$tmp/rdc_speed.out" && cmp -s "$tmp/rdc_default.out" "$tmp/rdc_none.out" &&
            pass cudart_nvcc_compression_modes || fail cudart_nvcc_compression_modes "outputs differ"
    fi
else
    skip cudart_nvcc_rdc "nvcc is not installed"
fi

exit $failed
