#!/bin/sh
# run_vec.sh -- tests `tpsim vec`: output lines, --set, --print, --trace,
# --svg, --sweep, configurations, and error exits.  Prints PASS/FAIL lines
# (tests/run.sh counts them).  The numbers are the lecture's (see
# docs/VECTOR.md and tests/unit/test_vec_timing.c for their derivation).
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
EX=examples/vector
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$TPSIM" ]; then
    echo "FAIL vec_cli: $TPSIM not built"
    exit 1
fi

# has NAME FILE LINE: FILE has a line equal to LINE
has() {
    if grep -qxF -- "$3" "$2"; then echo "PASS vec_$1"; else
        echo "FAIL vec_$1: no line '$3' in:"; sed 's/^/    /' "$2" | head -30; fi
}
# matches NAME FILE REGEX: FILE has a line matching the extended regex
matches() {
    if grep -qE -- "$3" "$2"; then echo "PASS vec_$1"; else
        echo "FAIL vec_$1: no line matching '$3' in:"; sed 's/^/    /' "$2" | head -30; fi
}
# status NAME WANT GOT
status() {
    if [ "$2" = "$3" ]; then echo "PASS vec_$1"; else echo "FAIL vec_$1: exit status $3, want $2"; fi
}
TB="--config vmips -o timing=textbook"

# the student's command: the lecture's table and total
"$TPSIM" vec $TB --trace $EX/daxpy.s >"$tmp/out" 2>"$tmp/err"
status daxpy_exit 0 $?
has daxpy_cycles "$tmp/out" "cycles: 298"
has daxpy_convoys "$tmp/out" "convoys: 4"
has daxpy_header "$tmp/out" "convoy  unit     start   first    last    vl  instruction"
has daxpy_row1 "$tmp/out" "     1  lsu0         0      12      75    64  LV V1,Rx"
has daxpy_row2 "$tmp/out" "     2  mul         76      83     146    64  MULVS.D V2,V1,F0"
has daxpy_row3 "$tmp/out" "     2  lsu0        76      88     151    64  LV V3,Ry"
has daxpy_row4 "$tmp/out" "     3  add        152     158     221    64  ADDV.D V4,V2,V3"
has daxpy_row5 "$tmp/out" "     4  lsu0       222     234     297    64  SV Ry,V4"
has daxpy_timing "$tmp/out" "timing: textbook"
has daxpy_flops "$tmp/out" "flops: 128"
has daxpy_mflops "$tmp/out" "mflops: 214.765"
if [ -s "$tmp/err" ]; then echo "FAIL vec_daxpy_stderr: $(head -3 "$tmp/err")"; else echo "PASS vec_daxpy_stderr"; fi
# exactly one cycles line
n=$(grep -c '^cycles: ' "$tmp/out"); status daxpy_one_cycles_line 1 "$n"

# --set: 42 + 4n for n = 10; --print after the run
"$TPSIM" vec $TB --set N=10 --print y:2 --print x $EX/daxpy.s >"$tmp/out" 2>&1
has set_n10 "$tmp/out" "cycles: 82"
tail -3 "$tmp/out" >"$tmp/tail"
printf '1002\n994\n1\n' | cmp -s - "$tmp/tail" && echo "PASS vec_print" || { echo "FAIL vec_print:"; cat "$tmp/tail"; }
"$TPSIM" vec --print a:1 $EX/scale_strip.s | tail -1 >"$tmp/out"
has print_17g "$tmp/out" "1.5"

# chaining: 141 / 77
"$TPSIM" vec $TB $EX/chain.s >"$tmp/out"; has chain_unchained "$tmp/out" "cycles: 141"
"$TPSIM" vec $TB -o chaining=1 $EX/chain.s >"$tmp/out"; has chain_chained "$tmp/out" "cycles: 77"
"$TPSIM" vec $TB -o chaining=1 --trace $EX/chain.s >"$tmp/out"
has chain_row "$tmp/out" "     1  add          0      13      76    64  ADDV.D V4,V1,V5"

# banks: the column load's last result at 75 (stride 1) and 390 (stride 32)
BANKS="-o mem_banks=8 -o bank_busy=6 -o mem_latency=12"
"$TPSIM" vec $TB $BANKS --set STRIDE=1 --trace $EX/stride.s >"$tmp/out"
has bank_stride1 "$tmp/out" "     1  lsu0         0      12      75    64  LVWS V1,(R1,R2)"
"$TPSIM" vec $TB $BANKS --trace $EX/stride.s >"$tmp/out"
has bank_stride32 "$tmp/out" "     1  lsu0         0      12     390    64  LVWS V1,(R1,R2)"
has bank_stalls "$tmp/out" "bank_stall_cycles: 315"

# strip mining: A = B x s, n = 200: 784
"$TPSIM" vec $TB --trace $EX/scale_strip.s >"$tmp/out"
has strip_cycles "$tmp/out" "cycles: 784"
has strip_loop "$tmp/out" "     -  loop        55       -      69     -  BNEZ R4,loop"
has strip_overhead "$tmp/out" "loop_overhead_cycles: 60"

# sweep: chained DAXPY, R_inf 250, N_1/2 13, and N_v against the scalar loop
"$TPSIM" vec $TB -o chaining=1 --sweep N=1..200 --flops-per-element 2 $EX/daxpy_strip.s >"$tmp/out" 2>&1
status sweep_exit 0 $?
has sweep_header "$tmp/out" "n Tn MFLOPS"
has sweep_row13 "$tmp/out" "13 103 126.214"
has sweep_row64 "$tmp/out" "64 256 250"
has sweep_rinf "$tmp/out" "R_inf: 250 MFLOPS (from n = 136 and 200)"
has sweep_nhalf "$tmp/out" "N_half: 13"
n=$(grep -cE '^[0-9]+ [0-9]+ [0-9.]+$' "$tmp/out"); status sweep_rows 200 "$n"
"$TPSIM" vec $TB -o chaining=1 --sweep N=1..64:1 --flops-per-element 2 --scalar $EX/daxpy_scalar.s \
    $EX/daxpy_strip.s >"$tmp/out" 2>&1
has sweep_scalar_header "$tmp/out" "n Tn MFLOPS Tscalar"
has sweep_scalar_row "$tmp/out" "4 76 52.6316 79"
has sweep_nv "$tmp/out" "N_v: 4"
"$TPSIM" vec $TB -o chaining=1 --sweep N=8..64:8 --flops-per-element 2 $EX/daxpy_strip.s >"$tmp/out" 2>&1
n=$(grep -cE '^[0-9]+ [0-9]+ [0-9.]+$' "$tmp/out"); status sweep_step 8 "$n"
"$TPSIM" vec $TB --sweep N=1..10 $EX/daxpy_strip.s >/dev/null 2>"$tmp/err"
status sweep_needs_k 2 $?
"$TPSIM" vec $TB --sweep N=1-10 --flops-per-element 2 $EX/daxpy_strip.s >/dev/null 2>"$tmp/err"
status sweep_bad_range 2 $?

# the SVG timeline
"$TPSIM" vec $TB --trace --svg "$tmp/t.svg" $EX/daxpy.s >/dev/null 2>&1
status svg_exit 0 $?
if head -1 "$tmp/t.svg" | grep -q '^<svg ' && grep -q 'LV V1,Rx' "$tmp/t.svg" && tail -1 "$tmp/t.svg" | grep -q '^</svg>$'; then
    echo "PASS vec_svg"; else echo "FAIL vec_svg"; fi

# configurations
"$TPSIM" vec --config cray1 $EX/chain.s >"$tmp/out"; has cray1_chains "$tmp/out" "cycles: 77"
"$TPSIM" vec $EX/daxpy.s >"$tmp/a"; "$TPSIM" vec --config vmips $EX/daxpy.s >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && echo "PASS vec_vmips_is_default" || echo "FAIL vec_vmips_is_default"
has pipelined_default "$tmp/a" "timing: pipelined"
has pipelined_daxpy "$tmp/a" "cycles: 304"
"$TPSIM" vec --list-options >"$tmp/out"
matches list_mvl "$tmp/out" '^mvl +int +default 64'
has list_builtins "$tmp/out" "built-in configurations: cray1 viram1 vmips"
"$TPSIM" vec --config viram1 --set M=2 $EX/matmul.s >"$tmp/out" 2>&1
status viram1_runs 0 $?

# errors: a GPU configuration, unknown options, bad programs, faults
"$TPSIM" vec --config gtx480 $EX/daxpy.s >"$tmp/out" 2>"$tmp/err"
status gpu_config_exit 1 $?
matches gpu_config_msg "$tmp/err" "unknown option 'device\.name'"
"$TPSIM" vec -o lanes=0 $EX/daxpy.s >/dev/null 2>"$tmp/err"
status bad_value_exit 1 $?
has bad_value_msg "$tmp/err" "tpsim vec: option 'lanes': 0 is out of range [1, 64]"
"$TPSIM" vec -o device.num_sms=2 $EX/daxpy.s >/dev/null 2>"$tmp/err"
status gpu_option_exit 1 $?
"$TPSIM" vec --set Q=1 $EX/daxpy.s >/dev/null 2>"$tmp/err"
status set_unknown_exit 1 $?
has set_unknown_msg "$tmp/err" "$EX/daxpy.s: --set Q: the program has no .equ named 'Q'"
# a later --set of the same name wins: 42 + 4 x 20 cycles
"$TPSIM" vec $TB --set N=10 --set N=20 $EX/daxpy.s >"$tmp/out" 2>&1
has set_twice "$tmp/out" "cycles: 122"
"$TPSIM" vec --set N=x $EX/daxpy.s >/dev/null 2>&1
status set_bad_exit 2 $?
printf '        .text\n        LV V1,R1\n        ADDV.D V2,V1\n' >"$tmp/bad.s"
"$TPSIM" vec "$tmp/bad.s" >"$tmp/out" 2>"$tmp/err"
status asm_error_exit 1 $?
has asm_error_msg "$tmp/err" "$tmp/bad.s:3:21: missing operand: expected ','"
if [ -s "$tmp/out" ]; then echo "FAIL vec_asm_error_stdout"; else echo "PASS vec_asm_error_stdout"; fi
"$TPSIM" vec --config viram1 $EX/daxpy.s >/dev/null 2>"$tmp/err"
status fault_exit 1 $?
matches fault_msg "$tmp/err" "^$EX/daxpy.s:[0-9]+:9: MTC1 VLR,R3: R3 = 64 is outside 0\.\.MVL \(32\)$"
# --print and --svg are checked before the run: one line, exit 2, no results
"$TPSIM" vec --print nothere $EX/daxpy.s >"$tmp/out" 2>"$tmp/err"
status print_unknown_exit 2 $?
only_line() {  # only_line NAME LINE: $tmp/err is that line, $tmp/out empty
    if [ -s "$tmp/out" ]; then echo "FAIL vec_$1: printed results: $(head -3 "$tmp/out" | tr '\n' ' ')"
    elif [ "$(cat "$tmp/err")" != "$2" ]; then echo "FAIL vec_$1: stderr '$(cat "$tmp/err")', want '$2'"
    else echo "PASS vec_$1"; fi
}
only_line print_unknown_only "tpsim vec: --print nothere: the program has no data label 'nothere'"
"$TPSIM" vec --print y:2 --print x:200000 $EX/daxpy.s >"$tmp/out" 2>"$tmp/err"
status print_outside_exit 2 $?
only_line print_outside_only "tpsim vec: --print x:200000: element 131071 is outside memory (1048576 bytes)"
"$TPSIM" vec --svg "$tmp/nodir/t.svg" $EX/daxpy.s >"$tmp/out" 2>"$tmp/err"
status svg_unwritable_exit 2 $?
only_line svg_unwritable_only "tpsim vec: cannot write '$tmp/nodir/t.svg': No such file or directory"
mkdir "$tmp/svgdir"
"$TPSIM" vec --trace --svg "$tmp/svgdir" $EX/daxpy.s >"$tmp/out" 2>"$tmp/err"
status svg_directory_exit 2 $?
only_line svg_directory_only "tpsim vec: cannot write '$tmp/svgdir': Is a directory"
# a run that fails leaves no timeline file behind
"$TPSIM" vec --config viram1 --svg "$tmp/fail.svg" $EX/daxpy.s >/dev/null 2>&1
status svg_run_fails_exit 1 $?
if [ -e "$tmp/fail.svg" ]; then echo "FAIL vec_svg_run_fails_no_file"; else echo "PASS vec_svg_run_fails_no_file"; fi
"$TPSIM" vec --print y:0 $EX/daxpy.s >/dev/null 2>&1
status print_bad_count 2 $?
"$TPSIM" vec >/dev/null 2>&1
status no_program 2 $?
"$TPSIM" vec --frobnicate $EX/daxpy.s >/dev/null 2>&1
status unknown_flag 2 $?
"$TPSIM" vec "$tmp/none.s" >/dev/null 2>"$tmp/err"
status missing_file 1 $?
"$TPSIM" vec --sweep N=1..2 --flops-per-element 2 --trace $EX/daxpy.s >/dev/null 2>&1
status sweep_trace 2 $?
# element widths: a saturating add of 64 bytes at VPW = 8; --print formats
cat >"$tmp/w.s" <<'EOF'
        .equ N, 64
        .data
x:      .byte 250, 251, 252, 253, 254, 255, 0, 1
        .space 56
y:      .space 64
q:      .word -2
        .text
        MTC1 VPW,#8
        DADDUI R1,R0,#N
        MTC1 VLR,R1
        DADDUI R2,R0,#x
        LV V1,R2
        DADDUI R3,R0,#10
        ADDVS.US V2,V1,R3
        DADDUI R2,R0,#y
        SV R2,V2
EOF
"$TPSIM" vec $TB --print y:8:u8 --print x:2:i8 --print q:1:x64 --print q:1:i16 --print x:1:u16 \
    "$tmp/w.s" >"$tmp/out" 2>&1
status width_exit 0 $?
# 64 bytes are 8 cycles of one 64-bit lane: convoys LV 0..19, ADDVS.US
# 20..33, SV 34..53 (start-ups 12, 6, 12)
has width_cycles "$tmp/out" "cycles: 54"
has width_ops8 "$tmp/out" "ops.8: 64"
has width_ops64 "$tmp/out" "ops.64: 0"
# peak at 8 bits: 3 integer units x 1 lane x 8 x 500 MHz
has width_peak8 "$tmp/out" "peak_mops.8: 12000"
tail -13 "$tmp/out" >"$tmp/tail"
printf '255\n255\n255\n255\n255\n255\n10\n11\n-6\n-5\n0xfffffffffffffffe\n-2\n64506\n' >"$tmp/want"
if cmp -s "$tmp/want" "$tmp/tail"; then echo "PASS vec_print_formats"; else
    echo "FAIL vec_print_formats:"; diff "$tmp/want" "$tmp/tail" | head -20; fi
"$TPSIM" vec --print y:2:f32 "$tmp/w.s" >/dev/null 2>"$tmp/err"
status print_bad_format 2 $?
matches print_bad_format_msg "$tmp/err" "FMT one of f64 i64 u64 x64 i32 u32 i16 u16 i8 u8"
"$TPSIM" vec --print y::u8 "$tmp/w.s" >/dev/null 2>&1
status print_empty_count 2 $?
# VIRAM-1 has no 8-bit mode; its peaks per width (3 integer units x 4 lanes x 64/W x 200 MHz)
"$TPSIM" vec --config viram1 "$tmp/w.s" >"$tmp/out" 2>"$tmp/err"
status viram1_no8_exit 1 $?
has viram1_no8_msg "$tmp/err" "$tmp/w.s:8:9: MTC1 VPW,#8: this machine has no 8-bit elements (option vpw.8 = 0)"
"$TPSIM" vec --config viram1 $EX/chain.s >"$tmp/out" 2>&1
has viram1_peak16 "$tmp/out" "peak_mops.16: 9600"
has viram1_peak64 "$tmp/out" "peak_mops.64: 2400"
if grep -q '^peak_mops.8:' "$tmp/out"; then echo "FAIL vec_viram1_no_peak8"; else echo "PASS vec_viram1_no_peak8"; fi
# R_inf and N_1/2 per width: T(n) = 30 + 3n/8 (three convoys of n/8 cycles
# and start-ups 12 + 6 + 12); n2 = 512 = MVL at 8 bits, so n1 = 8:
# R_inf.8 = 504 x 500 / 189 = 1333.33 MOPS; N_1/2.8: 2n x 189 >= 504 (30 + 3n/8) from n = 80
"$TPSIM" vec $TB --sweep N=8..512:8 --flops-per-element 1 "$tmp/w.s" >"$tmp/out" 2>&1
status width_sweep_exit 0 $?
has width_sweep_rinf "$tmp/out" "R_inf.8: 1333.33 MOPS (from n = 8 and 512)"
has width_sweep_nhalf "$tmp/out" "N_half.8: 80"
if grep -q '^R_inf.64' "$tmp/out"; then echo "FAIL vec_width_sweep_only8"; else echo "PASS vec_width_sweep_only8"; fi
exit 0
