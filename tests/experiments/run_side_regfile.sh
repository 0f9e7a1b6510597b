#!/bin/sh
# run_side_regfile.sh -- run by `make test`: one point of
# experiments/side/regfile.sh (a RegMutex suite program at two register
# files on tpsim and on GPGPU-Sim 4.2, docs/EXPERIMENTS.md).  Nothing is
# built or simulated: TPSIM is a stand-in that writes down its arguments
# and a statistics file of two launches; GPGPU-Sim's tools folder
# (GPGPUSIM_TOOLS) holds a stand-in prep-gtx480.sh and env.sh, and the
# program a stand-in that prints GPGPU-Sim's lines for two launches.  The
# cases check the exact options of each variant and simulator, the
# register file GPGPU-Sim is given, and the row: the launches' cycles
# summed, the CTAs per SM of each kernel, the output check's status; a
# launch whose statistics GPGPU-Sim lost; the table made again (--table).
# One line per case: PASS side_regfile_NAME or FAIL side_regfile_NAME: why.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
R=$root/experiments/side/regfile.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
pass() { echo "PASS side_regfile_$1"; }
fail() { echo "FAIL side_regfile_$1: $2"; status=1; }
U="-o device.regs_per_sm=1048576 -o device.regs_per_block=1048576 -o regs.bounds_file=32768"

# the stand-in tpsim: its arguments, and a statistics file of two launches
cat >"$tmp/tpsim" <<'EOF'
#!/bin/sh
echo "args $*"
while [ $# -gt 0 ]; do
    [ "$1" = --stats ] && echo '{"kernels": [{"cycles": 1000, "ctas_per_sm": 3}, {"cycles": 234, "ctas_per_sm": 6}]}' >"$2"
    shift
done
exit 0
EOF
# GPGPU-Sim's tools: prep-gtx480.sh writes a configuration, env.sh nothing
mkdir -p "$tmp/tools" "$tmp/gs"
cat >"$tmp/tools/prep-gtx480.sh" <<'EOF'
mkdir -p "$2"; echo "-gpgpu_ptx_sim_mode $3" >"$2/gpgpusim.config"
EOF
: >"$tmp/tools/env.sh"
# the program (hotspot: no output check of its own; gaussian likewise)
for n in hotspot gaussian; do
    mkdir -p "$tmp/build/$n"
    cat >"$tmp/build/$n/prog" <<'EOF'
#!/bin/sh
echo "prog args $*"
cat gpgpusim.config
echo "GPGPU-Sim uArch: CTA/core = 3, limited by: regs"
echo "GPGPU-Sim uArch: Shader 0 bind to kernel 1 'k1'"
echo "gpu_sim_cycle = 1500"
echo "GPGPU-Sim uArch: CTA/core = 8, limited by: cta_limit"
echo "GPGPU-Sim uArch: Shader 0 bind to kernel 2 'k2'"
echo "gpu_sim_cycle = 250"
[ -f lose ] && echo "GPGPU-Sim uArch: Shader 0 bind to kernel 3 'k2'"
exit 0
EOF
done
chmod +x "$tmp/tpsim" "$tmp/build/hotspot/prog" "$tmp/build/gaussian/prog"

# point NAME VARIANT SIM: runs one point; its row in $tmp/row
point() {
    GPGPUSIM_TOOLS=$tmp/tools sh "$R" --point "$tmp/out" "$tmp/build" "$tmp/tpsim" "$tmp/gs" "$1" "$2" "$3" \
        >"$tmp/log" 2>&1
    cat "$tmp/out/runs/$1-$2-$3/row.csv" 2>/dev/null
}
# the tpsim variants: the experiment's options, program order, GPGPU-Sim's pipes
check_tpsim() { # CASE NAME VARIANT SIM CONFIG OPTIONS
    row=$(point "$2" "$3" "$4")
    # suites.sh point keeps the stand-in's output in the point's log
    args=$(sed -n 's/^args //p' "$tmp/out/runs/$2-$3-$4/tpsim.log" 2>/dev/null)
    want="run --mode performance --config $5 --stats $tmp/out/runs/$2-$3-$4/tpsim.json $6 -- ./prog"
    case $args in
    "$want"*) ;;
    *) fail "$1" "ran '$args', expected '$want ...'"; return ;;
    esac
    if [ "$row" != "$2,$3,$4,1234,2,1000;234,3;6,ok" ]; then fail "$1" "row '$row', expected '$2,$3,$4,1234,2,1000;234,3;6,ok'"
    else pass "$1"; fi
}
check_tpsim tpsim_file hotspot file tpsim gtx480 "-o regs.physical=1"
check_tpsim tpsim_unlimited hotspot unlimited tpsim gtx480 "-o regs.physical=1 $U"
check_tpsim tpsim_ptx hotspot file tpsim-ptx gtx480 "-o regs.physical=0"
check_tpsim tpsim_gs hotspot unlimited tpsim-gs gtx480 "-o regs.physical=0 -o sm.dp_pipe=sfu -o sm.div_pipe=sfu -o lat.dp_rcp=20 -o ii.dp_rcp=8 $U"
check_tpsim tpsim_rf64 gaussian rf64 tpsim gtx480-rf64k "-o regs.physical=1"

# GPGPU-Sim: the register file appended to the configuration; the launches summed
check_gs() { # CASE NAME VARIANT REGISTERS [LAUNCHES]
    row=$(point "$2" "$3" gpgpusim)
    log=$tmp/out/runs/$2-$3-gpgpusim/gpgpusim.log
    if ! grep -q "^-gpgpu_shader_registers $4\$" "$log" 2>/dev/null; then
        fail "$1" "the configuration lacks -gpgpu_shader_registers $4: $(cat "$log" "$tmp/log" 2>/dev/null | head -n 5)"
    elif ! grep -q "^-gpgpu_ptx_sim_mode 0\$" "$log"; then fail "$1" "not the timing mode: $(head -n 3 "$log")"
    elif [ "$row" != "$2,$3,gpgpusim,1750,${5:-2},1500;250,3;8,ok" ]; then
        fail "$1" "row '$row', expected '$2,$3,gpgpusim,1750,${5:-2},1500;250,3;8,ok'"
    else pass "$1"; fi
}
check_gs gpgpusim_file hotspot file 32768
check_gs gpgpusim_unlimited hotspot unlimited 1048576
check_gs gpgpusim_rf128 gaussian rf128 32768
check_gs gpgpusim_rf64 gaussian rf64 16384
# a third launch whose statistics the program's exit lost: two of three
touch "$tmp/build/gaussian/lose"
check_gs gpgpusim_lost gaussian rf64 16384 2/3

# the table, made again from the points' files: the change over the
# launches both variants have (hotspot: file and unlimited, both 1234 and
# 1750; gaussian's GPGPU-Sim rows: 2 launches, 2 of 3)
GPGPUSIM_TOOLS=$tmp/tools sh "$R" --table --out "$tmp/out" >"$tmp/table" 2>&1
if ! grep -q "^hotspot  *gpgpusim  *file/unlimited  *1750 .* +0.0%  2, ok/ok\$" "$tmp/table"; then
    fail table "no hotspot GPGPU-Sim line of 1750 cycles, +0.0%, 2 launches: $(cat "$tmp/table")"
elif ! grep -q "^gaussian  *gpgpusim  *rf128/rf64  *1750 .* +0.0%  2, ok/ok\$" "$tmp/table"; then
    fail table "no gaussian GPGPU-Sim line: $(cat "$tmp/table")"
elif [ "$(grep -c "^hotspot" "$tmp/table")" != 4 ]; then fail table "hotspot: not 4 simulators' lines: $(cat "$tmp/table")"
else pass table; fi

# a program that fails: no cycles, status failed
printf '#!/bin/sh\nexit 3\n' >"$tmp/build/hotspot/prog"
row=$(point hotspot file gpgpusim)
if [ "$row" != "hotspot,file,gpgpusim,,,,,failed" ]; then fail failed "row '$row', expected 'hotspot,file,gpgpusim,,,,,failed'"
else pass failed; fi

# the command line: --suites is needed; a program outside the experiments is refused
sh "$R" hotspot >"$tmp/out1" 2>&1
rc=$?
if [ $rc -ne 2 ] || ! grep -q -- "--suites DIR is needed" "$tmp/out1"; then fail usage "exit $rc: $(cat "$tmp/out1")"
else pass usage; fi
exit $status
