#!/bin/sh
# run_cli.sh -- tests `tpsim ptx`: the description of a fixture, and the
# error exit on bad input.  Prints PASS/FAIL lines (tests/run.sh counts them).
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
dir=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$TPSIM" ]; then
    echo "FAIL cli_ptx: $TPSIM not built"
    exit 1
fi

# expect NAME FILE TEXT: FILE has a line equal to TEXT
expect() {
    if grep -qxF -- "$3" "$2"; then echo "PASS cli_ptx_$1"; else
        echo "FAIL cli_ptx_$1: no line '$3' in:"; sed 's/^/    /' "$2" | head -40; fi
}

"$TPSIM" ptx "$dir/basic.sm_75.ptx" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ ! -s "$tmp/err" ]; then echo "PASS cli_ptx_exit0"; else echo "FAIL cli_ptx_exit0"; fi
# values from the fixture's declarations: %rs<22>, %r<166> and four
# callseq temp_param_regs, %SP %SPL %rd<60>, %f<50>, %fd<17>, %p<23> and five
# predicates of the bar.red blocks; the params of _Z1kPiPKf1Sidyy laid out
# at their alignments; 256 bytes of demoted shared memory plus extern dyn[];
# a 48-byte depot plus 36 bytes of call parameters at 48, rounded to 96;
# 348 instruction statements in the four bodies (counted in the text).
expect module "$tmp/out" "module $dir/basic.sm_75.ptx: PTX 9.0, sm_75, 64-bit: 1 kernel, 5 functions (2 declared only), 10 variables, 348 instructions"
expect kernel "$tmp/out" "kernel _Z1kPiPKf1Sidyy"
expect kinsns "$tmp/out" "  instructions: 332"
expect params "$tmp/out" "  params: 7 (72 bytes)"
expect param2 "$tmp/out" "    _Z1kPiPKf1Sidyy_param_2: size 24, align 8, offset 16"
expect param3 "$tmp/out" "    _Z1kPiPKf1Sidyy_param_3: size 4, align 4, offset 40"
expect vregs "$tmp/out" "  vregs: b16: 22, b32: 170, b64: 62, f32: 50, f64: 17, pred: 28 (321 rows)"
# the register count comes from the allocator (ptx/regalloc.c, tested there)
if grep -qE '^  regs: ([0-9]+( \([0-9]+ spilled\))?|\(not allocated\))$' "$tmp/out"; then
    echo "PASS cli_ptx_regs"; else echo "FAIL cli_ptx_regs: no regs line"; fi
expect shared "$tmp/out" "  shared: 256 bytes static, dynamic: yes"
expect local "$tmp/out" "  local: 96 bytes"
expect func "$tmp/out" "func _Z6calleei1S"
expect returns "$tmp/out" "  returns: 1 (4 bytes)"
expect retval "$tmp/out" "    func_retval0: size 4, align 4, offset 32"
expect funclocal "$tmp/out" "  local: 48 bytes"
expect declared "$tmp/out" "declared vprintf"
# kernels come before functions
k=$(grep -n '^kernel ' "$tmp/out" | head -1 | cut -d: -f1)
f=$(grep -n '^func ' "$tmp/out" | head -1 | cut -d: -f1)
if [ -n "$k" ] && [ -n "$f" ] && [ "$k" -lt "$f" ]; then echo "PASS cli_ptx_order"; else echo "FAIL cli_ptx_order"; fi

# directives and dump
"$TPSIM" ptx --dump "$dir/../fuzz/corpus/ptx/cfg.ptx" >"$tmp/dump" 2>&1
expect directives "$tmp/dump" "  directives: maxntid 128,1,1"
expect dump "$tmp/dump" "        21  bra.uni LOOP;    // rpc 7"

# --live: the 32-bit registers live into each instruction, allocator's view
# (docs/REGISTERS.md): the kernel parameter and its global address are
# re-created where used, so nothing is live before %r1; %r1 and %r2 feed the
# mul, %r2 and %r3 the add; at the store %r4 and the 64-bit address (a point
# use: two units) -- three units, the most
"$TPSIM" ptx --live "$dir/live.sm_75.ptx" >"$tmp/live" 2>&1
expect live_none "$tmp/live" "         2   0  mov.u32 %r1, %tid.x;"
expect live_mul "$tmp/live" "         4   2  mul.lo.u32 %r3, %r1, %r2;"
expect live_store "$tmp/live" "         6   3  st.global.u32 [%rd2], %r4;"
expect live_most "$tmp/live" "  most live: 3 units at pc 6"
expect live_rows "$tmp/live" "  live into it: %r4 %rd2"

# a bad file: file:line:col on stderr, exit 1
printf '.version 9.0\n.target sm_75\n.address_size 64\n.entry k()\n{\n  add.u32 %%r1, %%r2, 1;\n}\n' >"$tmp/bad.ptx"
"$TPSIM" ptx "$tmp/bad.ptx" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
if [ $rc -eq 1 ] && [ ! -s "$tmp/out2" ]; then echo "PASS cli_ptx_error_exit"; else echo "FAIL cli_ptx_error_exit: rc $rc"; fi
expect error_msg "$tmp/err2" "$tmp/bad.ptx:6:11: undefined register '%r1'"

"$TPSIM" ptx "$tmp/missing.ptx" >/dev/null 2>"$tmp/err3"
rc=$?
if [ $rc -eq 1 ] && grep -q "cannot read" "$tmp/err3"; then echo "PASS cli_ptx_missing_file"; else echo "FAIL cli_ptx_missing_file: rc $rc"; fi
"$TPSIM" ptx >/dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then echo "PASS cli_ptx_usage"; else echo "FAIL cli_ptx_usage: rc $rc"; fi
exit 0
