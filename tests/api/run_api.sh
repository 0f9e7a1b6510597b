#!/bin/sh
# run_api.sh -- the driver-API tests: libcuda.so.1's exports, the test
# programs of tests/api (built by make into $BUILD/tests/api), configuration
# variants, the TPSIM_STATS file and the ABI check.  Prints PASS/FAIL/SKIP
# lines (tests/run.sh counts them); exits non-zero if anything failed.
BUILD=${BUILD:-build}
T=$BUILD/tests/api
LIB=$BUILD/lib/libcuda.so.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset TPSIM_CONFIG TPSIM_OPTIONS TPSIM_MODE TPSIM_TRACE TPSIM_STATS
failed=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; }
skip() { echo "SKIP $1: $2"; }

# run NAME PROGRAM ARGS...: runs a test program (its stderr goes to
# $tmp/NAME.err); a crash or a non-zero exit without a FAIL line is a FAIL.
# With QUIET set only its FAIL lines are shown (a program run again).
run() {
    name=$1
    shift
    if [ ! -x "$1" ]; then
        fail "$name" "$1 is not built"
        return
    fi
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    if [ -n "${QUIET:-}" ]; then grep "^FAIL" "$tmp/$name.out"; else cat "$tmp/$name.out"; fi
    if grep -q "^FAIL" "$tmp/$name.out"; then
        failed=1
        sed 's/^/    stderr: /' "$tmp/$name.err" | head -20
    elif [ $rc -ne 0 ]; then
        fail "$name" "exited with status $rc"
        sed 's/^/    stderr: /' "$tmp/$name.err" | head -20
    fi
}

# has NAME FILE TEXT: FILE contains TEXT (fixed string)
has() {
    if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1" "no '$3' in $(basename "$2")"; fi
}

# ---- the library itself ---------------------------------------------------
if [ ! -f "$LIB" ]; then
    fail api_library "$LIB is not built"
    exit 1
fi
nm -D --defined-only "$LIB" | awk '{print $NF}' | sed 's/@.*//' | sort -u >"$tmp/exports"
others=$(grep -v '^cu' "$tmp/exports" | tr '\n' ' ')
if [ -z "$others" ]; then pass api_exports_only_cu; else fail api_exports_only_cu "also exports: $others"; fi
n=$(wc -l <"$tmp/exports")
if [ "$n" -ge 600 ]; then pass "api_export_count ($n cu* symbols)"; else fail api_export_count "only $n"; fi
deps=$(ldd "$LIB" 2>&1 | grep -E "tpsim|$BUILD|not found" | tr '\n' ' ')
if [ -z "$deps" ]; then pass api_ldd_no_tpsim_deps; else fail api_ldd_no_tpsim_deps "$deps"; fi

# every function NVIDIA's cuda.h (and cudaProfiler.h) declares is exported
NV=/usr/local/cuda/include
if [ -f "$NV/cuda.h" ] && command -v "${CC:-cc}" >/dev/null 2>&1; then
    printf '#include <cuda.h>\n#include <cudaProfiler.h>\n' >"$tmp/nv.c"
    : >"$tmp/nvsyms"
    for defs in "" "-DCUDA_API_PER_THREAD_DEFAULT_STREAM" "-D__CUDA_API_VERSION_INTERNAL"; do
        ${CC:-cc} -E -P $defs -I"$NV" "$tmp/nv.c" 2>/dev/null | tr '\n' ' ' |
            grep -oE "CUresult +cu[A-Za-z0-9_]+ *\(" | sed -E 's/CUresult +//; s/ *\(//' >>"$tmp/nvsyms"
    done
    # cuGetProcAddress_v2_ptsz is an inline function of the header, not a symbol
    sort -u "$tmp/nvsyms" | grep -v '^cuGetProcAddress_v2_ptsz$' >"$tmp/nvsyms.s"
    missing=$(comm -23 "$tmp/nvsyms.s" "$tmp/exports" | tr '\n' ' ')
    total=$(wc -l <"$tmp/nvsyms.s")
    if [ "$total" -lt 400 ]; then
        fail api_exports_cover_cuda_h "could not read NVIDIA's cuda.h ($total names)"
    elif [ -z "$missing" ]; then
        pass "api_exports_cover_cuda_h ($total entry points)"
    else
        fail api_exports_cover_cuda_h "missing: $missing"
    fi
else
    skip api_exports_cover_cuda_h "NVIDIA's cuda.h is not installed"
fi

# ---- ABI --------------------------------------------------------------------
if [ -x "$T/abi_check" ]; then
    run abi_check "$T/abi_check"
    run abi_check_ptds "$T/ptds/abi_check"
else
    skip abi_check "NVIDIA's cuda.h is not installed"
fi

# ---- the test programs ---------------------------------------------------------
run t_basic "$T/t_basic"
n=$(grep -c "^tpsim: cuGraphicsUnregisterResource is not supported yet$" "$tmp/t_basic.err")
if [ "$n" = 1 ]; then pass api_unsupported_message_once; else fail api_unsupported_message_once "printed $n times"; fi

run t_mem "$T/t_mem"

# fatbinaries made by nvcc, when it is installed: uncompressed PTX (alone and
# next to a cubin) and nvcc's default, compressed PTX, must all load
fatbins=""
NVCC=/usr/local/cuda/bin/nvcc
if [ -x "$NVCC" ]; then
    cat >"$tmp/k.cu" <<'EOF'
extern "C" __global__ void add1(int *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += 1; }
EOF
    if "$NVCC" -fatbin -gencode arch=compute_75,code=compute_75 -Xfatbin=-compress=false \
            -o "$tmp/ptx.fatbin" "$tmp/k.cu" >/dev/null 2>&1 &&
        "$NVCC" -fatbin -gencode arch=compute_75,code=sm_75 -gencode arch=compute_75,code=compute_75 \
            -Xfatbin=-compress=false -o "$tmp/mixed.fatbin" "$tmp/k.cu" >/dev/null 2>&1 &&
        "$NVCC" -fatbin -gencode arch=compute_75,code=compute_75 -o "$tmp/compressed.fatbin" "$tmp/k.cu" >/dev/null 2>&1
    then
        fatbins="$tmp/ptx.fatbin $tmp/mixed.fatbin $tmp/compressed.fatbin"
    else
        skip api_nvcc_fatbins "nvcc could not build the test fatbinaries"
    fi
else
    skip api_nvcc_fatbins "nvcc is not installed"
fi
run t_module "$T/t_module" $fatbins
has api_jit_error_message "$tmp/t_module.err" "tpsim: t_module: PTX image:6:"

run t_launch "$T/t_launch"
run t_tex "$T/t_tex"
run t_graph "$T/t_graph"

# the same programs built with CUDA_API_PER_THREAD_DEFAULT_STREAM (the
# _ptds/_ptsz entry points)
QUIET=1 run t_mem_ptds "$T/ptds/t_mem"
QUIET=1 run t_launch_ptds "$T/ptds/t_launch"
if [ -x "$T/ptds/t_launch" ] && [ -x "$T/ptds/t_mem" ] && ! grep -q "^FAIL" "$tmp/t_mem_ptds.out" "$tmp/t_launch_ptds.out" &&
    nm -u "$T/ptds/t_launch" | grep -q "cuLaunchKernel_ptsz"; then
    pass api_per_thread_stream_programs
else
    fail api_per_thread_stream_programs "see above"
fi

TPSIM_OPTIONS="exec.spin_limit=200000" run t_sticky "$T/t_sticky"
run t_stack "$T/t_stack"
has api_sticky_message "$tmp/t_sticky.err" "in kernel 'bad', block (0,0,0), thread (0,0,0)"
has api_sticky_message_code "$tmp/t_sticky.err" "(CUDA_ERROR_ILLEGAL_ADDRESS)"

# ---- configurations ---------------------------------------------------------------
# Without TPSIM_CONFIG (or with it empty) a process gets rtx2060: a GeForce
# RTX 2060 as deviceQuery reports it, with compute capability 7.5's limits;
# it has no persisting L2 and no access-policy window (those start with 8.0).
C=$T/t_config
RTX2060='name=tpsim GeForce RTX 2060 (simulated)'
run config_rtx2060_default "$C" rtx2060_default "$RTX2060" sms=30 cc=75 clock_khz=1680000 \
    mem_clock_khz=7001000 bus_bits=192 l2=3145728 mem=6442450944 maxtpb=1024 threads_sm=1024 ctas_sm=16 \
    regs_sm=65536 regs_block=65536 shared_block=49152 shared_sm=65536 const=65536 grid_x=2147483647 grid_yz=65535 \
    stack=1024 heap=8388608 timeout=0 sm90=0 l2persist=0 window=0
TPSIM_CONFIG= run config_empty_is_default "$C" empty_is_default "$RTX2060" sms=30
TPSIM_CONFIG=rtx2060 run config_rtx2060 "$C" rtx2060 "$RTX2060" sms=30 regs_block=65536
TPSIM_OPTIONS="device.name=Named_by_option" run config_default "$C" default name=Named_by_option sms=30 cc=75 \
    clock_khz=1680000 mem=6442450944 maxtpb=1024 stack=1024 heap=8388608 timeout=0 sm90=0
# the papers' GTX 480 (Fermi limits), named explicitly
TPSIM_CONFIG=gtx480 run config_gtx480 "$C" gtx480 name="tpsim GeForce GTX 480 (simulated)" \
    sms=15 cc=75 clock_khz=1401000 mem_clock_khz=1848000 bus_bits=384 l2=786432 mem=1610612736 \
    threads_sm=1536 ctas_sm=8 regs_sm=32768 regs_block=32768 shared_block=49152 shared_sm=49152 l2persist=0 window=0
# a configuration that declares a persisting L2 set-aside and an access-policy window
TPSIM_OPTIONS="device.cc=8.0 device.persisting_l2_max=4M device.access_policy_max_window=128M" \
    run config_persisting_l2 "$C" persisting_l2 cc=80 l2persist=4194304 window=134217728
# every compute capability nvcc 13 targets is a valid device.cc (those of
# nvcc 13.0, and whatever the installed nvcc lists)
ccs="7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.3 11.0 12.0 12.1"
if [ -x /usr/local/cuda/bin/nvcc ]; then
    ccs="$ccs $(/usr/local/cuda/bin/nvcc --list-gpu-arch 2>/dev/null | sed -n 's/^compute_\([0-9]*\)\([0-9]\)[a-z]*$/\1.\2/p')"
fi
bad_cc=""
for cc in $(echo "$ccs" | tr ' ' '\n' | sort -u -t. -k1,1n -k2,2n); do
    want=$(echo "$cc" | tr -d .)
    TPSIM_OPTIONS="device.cc=$cc" QUIET=1 run "config_cc_$want" "$C" "cc_$want" cc="$want"
    grep -q "^PASS config_cc_$want" "$tmp/config_cc_$want.out" || bad_cc="$bad_cc $cc"
done
if [ -z "$bad_cc" ]; then pass "config_cc_every_nvcc_target ($(echo $ccs | tr ' ' '\n' | sort -u -t. -k1,1n -k2,2n | tr '\n' ' '))"
else fail config_cc_every_nvcc_target "refused:$bad_cc"; fi
TPSIM_CONFIG=gtx480 TPSIM_OPTIONS="device.num_sms=4 device.clock_mhz=700" run config_gtx480_override "$C" \
    gtx480_override name="tpsim GeForce GTX 480 (simulated)" sms=4 clock_khz=700000
TPSIM_OPTIONS="device.num_sms=20 device.cc=8.6 device.clock_mhz=1000 device.max_threads_per_block=512 \
device.global_mem=256M device.l2_bytes=2M device.shared_per_block=32k device.max_grid_x=65535 \
device.const_mem=32k exec.stack_bytes=2048 exec.max_warp_insns=1000000000" \
    run config_options "$C" options sms=20 cc=86 clock_khz=1000000 maxtpb=512 mem=268435456 l2=2097152 \
    shared_block=32768 grid_x=65535 const=32768 stack=2048 timeout=1 sm90=0
TPSIM_OPTIONS="device.cc=9.0" run config_cc90 "$C" cc90 cc=90 sm90=1
printf '# a test configuration\ninclude = gtx480\ndevice.num_sms = 7\ndevice.name = file device\n' >"$tmp/t.cfg"
TPSIM_CONFIG="$tmp/t.cfg" run config_file "$C" file sms=7 name="file device" l2=786432
TPSIM_MODE=performance TPSIM_STATS="$tmp/perf.json" run config_performance "$C" performance sms=30
TPSIM_OPTIONS="device.num_sms=0" run config_bad_value "$C" bad_value init=1
has api_bad_value_message "$tmp/config_bad_value.err" "device.num_sms"
TPSIM_OPTIONS="device.nosuch=3" run config_bad_key "$C" bad_key init=1
has api_bad_key_message "$tmp/config_bad_key.err" "device.nosuch"
TPSIM_CONFIG=nosuchconfig run config_bad_config "$C" bad_config init=1
TPSIM_MODE=fastest run config_bad_mode "$C" bad_mode init=1

# ---- TPSIM_STATS -----------------------------------------------------------------
QUIET=1 TPSIM_STATS="$tmp/s1.json" run stats_run1 "$T/t_launch"
QUIET=1 TPSIM_STATS="$tmp/s2.json" run stats_run2 "$T/t_launch"
if [ -f "$tmp/s1.json" ] && [ -f "$tmp/s2.json" ]; then
    ok=1
    for k in '"tpsim_version": ' '"config": {' '"device.num_sms": 30' '"device.cc": 7.5' '"mode": "functional"' \
        '"kernels": [' '"name": "add1",' '"grid": [' '"block": [' '"shared_dyn": 1024' '"regs_per_thread": ' \
        '"warp_instructions": ' '"thread_instructions": ' '"status": "CUDA_SUCCESS"' '"totals": {"launches": ' \
        '"host": {"wall_seconds": ' '"thread_instructions_per_second": ' '"max_rss_kb": ' '"failures": [' \
        '"failed_calls": ' '"status": "CUDA_ERROR_INVALID_VALUE"' \
        '"reason": "block (32, 32, 2) has 2048 threads, the device allows 1024 per block (Turing limit device.max_threads_per_block)"'; do
        grep -qF -- "$k" "$tmp/s1.json" || { fail stats_keys "no $k"; ok=0; }
    done
    [ $ok = 1 ] && pass stats_keys
    # the JSON closes, and only "host" differs between the runs
    if [ "$(tail -n 1 "$tmp/s1.json")" = "}" ]; then pass stats_complete; else fail stats_complete "truncated"; fi
    grep -v '"host": ' "$tmp/s1.json" >"$tmp/s1.sim"
    grep -v '"host": ' "$tmp/s2.json" >"$tmp/s2.sim"
    if cmp -s "$tmp/s1.sim" "$tmp/s2.sim"; then pass stats_deterministic; else fail stats_deterministic "the runs differ"; fi
    if ls "$tmp"/s1.json.tmp.* >/dev/null 2>&1; then fail stats_no_temp "a temporary file was left"; else pass stats_no_temp; fi
else
    fail stats_written "no statistics file"
fi
QUIET=1 TPSIM_STATS="$tmp/s3.json" TPSIM_OPTIONS="exec.spin_limit=200000" run stats_sticky "$T/t_sticky"
has stats_failed_launch "$tmp/s3.json" '"name": "bad",'
has stats_failed_status "$tmp/s3.json" '"status": "CUDA_ERROR_ILLEGAL_ADDRESS"'

# performance mode: the launch has the timing model's statistics
QUIET=1 TPSIM_MODE=performance TPSIM_STATS="$tmp/s4.json" run stats_perf_run "$T/t_launch"
ok=1
for k in '"mode": "performance"' '"cycles": ' '"ipc": ' '"occupancy_limit": ' '"achieved_occupancy": ' \
    '"issue": {' '"l1d": {' '"l2": {' '"dram": {' '"icnt": {' '"stall_pcs": ['; do
    grep -qF -- "$k" "$tmp/s4.json" 2>/dev/null || { fail stats_perf_keys "no $k"; ok=0; }
done
[ $ok = 1 ] && pass stats_perf_keys
# launch overhead (launch.cycles): each launch's statistic, and cuEventElapsedTime and the
# totals' simulated time include it (t_launch checks its event times for consistency)
QUIET=1 TPSIM_MODE=performance TPSIM_OPTIONS="launch.cycles=7000" TPSIM_STATS="$tmp/s7.json" \
    run stats_launch_cycles "$T/t_launch"
has stats_launch_cycles_value "$tmp/s7.json" '"launch_cycles": 7000,'
# fastforward.kernels=1: the first launch functional, the rest timed; a
# timeline every 200 cycles; two runs give identical statistics
QUIET=1 TPSIM_MODE=performance TPSIM_OPTIONS="stats.interval=200 fastforward.kernels=1" TPSIM_STATS="$tmp/s5.json" \
    run stats_perf_ff "$T/t_launch"
QUIET=1 TPSIM_MODE=performance TPSIM_OPTIONS="stats.interval=200 fastforward.kernels=1" TPSIM_STATS="$tmp/s6.json" \
    run stats_perf_ff2 "$T/t_launch"
has stats_ff_functional "$tmp/s5.json" '"mode": "functional"'
has stats_ff_performance "$tmp/s5.json" '"mode": "performance"'
has stats_interval_rows "$tmp/s5.json" '"intervals": [{"cycle": 200, '
grep -v '"host": ' "$tmp/s5.json" >"$tmp/s5.sim" 2>/dev/null
grep -v '"host": ' "$tmp/s6.json" >"$tmp/s6.sim" 2>/dev/null
if [ -s "$tmp/s5.sim" ] && cmp -s "$tmp/s5.sim" "$tmp/s6.sim"; then pass stats_perf_deterministic; else fail stats_perf_deterministic "the runs differ"; fi

# ---- the account of failed calls (api/fail.c) -------------------------------------
# t_fail, on the GTX 480: a launch refused for its registers and a copy past
# the end of an allocation (twice each), unimplemented entry points called
# by the program and by libtpcaller.so, a private export table asked for by
# that library.  It prints the reasons the statistics file must hold.
QUIET=1 TPSIM_CONFIG=gtx480 TPSIM_STATS="$tmp/fail.json" run t_fail "$T/t_fail"
if [ -f "$tmp/fail.json" ]; then
    grep '^reason: ' "$tmp/t_fail.out" | sed 's/^reason: //' >"$tmp/fail.reasons"
    if [ "$(wc -l <"$tmp/fail.reasons")" -ne 2 ]; then
        fail fail_reasons "t_fail printed $(wc -l <"$tmp/fail.reasons") reasons, not 2"
    fi
    i=0
    while IFS= read -r why; do
        i=$((i + 1))
        has "fail_reason_$i" "$tmp/fail.json" "\"reason\": \"$why\", \"count\": 2}"
    done <"$tmp/fail.reasons"
    has fail_launch_entry "$tmp/fail.json" '{"api": "cuLaunchKernel", "error": "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "kernel": "heavy", "caller": null'
    has fail_launch_listed "$tmp/fail.json" '"block": [1024, 1, 1],'
    has fail_copy_entry "$tmp/fail.json" '{"api": "cuMemcpyHtoD", "error": "CUDA_ERROR_INVALID_VALUE", "kernel": null, "caller": null'
    has fail_unsupported_program "$tmp/fail.json" '{"api": "cuGraphicsUnregisterResource", "error": "CUDA_ERROR_NOT_SUPPORTED", "kernel": null, "caller": null, "reason": "tpsim does not implement this entry point", "count": 1}'
    has fail_unsupported_library "$tmp/fail.json" '{"api": "cuGraphicsMapResources", "error": "CUDA_ERROR_NOT_SUPPORTED", "kernel": null, "caller": "libtpcaller.so", "reason": "tpsim does not implement this entry point", "count": 1}'
    has fail_export_table "$tmp/fail.json" '{"api": "cuGetExportTable", "error": "CUDA_ERROR_NOT_SUPPORTED", "kernel": null, "caller": "libtpcaller.so", "reason": "NVIDIA'"'"'s private export table {6bd5fb6c-5bf4-e74a-8987-d93912fd9df9} is not provided by tpsim", "count": 2}'
    has fail_totals "$tmp/fail.json" '"launches": 3, "failed_launches": 2,'
    has fail_count "$tmp/fail.json" '"failed_calls": 8}'
    n=$(grep -o '"api": ' "$tmp/fail.json" | wc -l)
    if [ "$n" = 5 ]; then pass fail_nothing_else; else fail fail_nothing_else "$n failures listed, want 5"; fi
else
    fail fail_stats "no statistics file"
fi
has fail_export_table_message "$tmp/t_fail.err" "tpsim: cuGetExportTable {6bd5fb6c-5bf4-e74a-8987-d93912fd9df9} is not supported (called from libtpcaller.so)"
has fail_unsupported_message "$tmp/t_fail.err" "tpsim: cuGraphicsMapResources is not supported yet (called from libtpcaller.so)"

exit $failed
