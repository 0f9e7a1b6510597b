#!/bin/sh
# run_side_warppool.sh -- run by `make test`: points of
# experiments/side/warppool.sh (a WarpPool suite bar with the study's 32 KB
# L1D and a 128 KB one, on tpsim and on GPGPU-Sim 4.2, docs/EXPERIMENTS.md).
# Nothing is built or simulated: TPSIM is a stand-in that writes down its
# arguments and a statistics file of three launches of two kernels;
# GPGPU-Sim's tools folder (GPGPUSIM_TOOLS) holds a stand-in prep-gtx480.sh
# and env.sh, and the program a stand-in that prints GPGPU-Sim's blocks for
# three launches (its L1D counters cumulative, as GPGPU-Sim prints them).
# The cases check the exact options of each variant on each simulator (and
# tpsim's with GPGPU-Sim 4's issue order, tpsim_rot), the
# row (only the bar's kernel, its launches' cycles, L1D accesses and misses
# summed), a launch whose statistics GPGPU-Sim lost, a bar read from another
# bar's runs, and the table made again (--table).
# One line per case: PASS side_warppool_NAME or FAIL side_warppool_NAME: why.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
R=$root/experiments/side/warppool.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
pass() { echo "PASS side_warppool_$1"; }
fail() { echo "FAIL side_warppool_$1: $2"; status=1; }
OK="Non-Matching CPU-GPU Outputs Beyond Error Threshold of 0.05 Percent: 0"

# the stand-in tpsim: its arguments, PolyBench's check line, and three
# launches (bicg_kernel1 once, bicg_kernel2 twice)
cat >"$tmp/tpsim" <<EOF
#!/bin/sh
echo "args \$*"
echo "$OK"
while [ \$# -gt 0 ]; do
    [ "\$1" = --stats ] && echo '{"kernels": [
        {"name": "_Z12bicg_kernel1iiPfS_S_", "cycles": 100, "l1d": {"accesses": 10, "misses": 5}},
        {"name": "_Z12bicg_kernel2iiPfS_S_", "cycles": 1000, "l1d": {"accesses": 400, "misses": 300}},
        {"name": "_Z12bicg_kernel2iiPfS_S_", "cycles": 500, "l1d": {"accesses": 200, "misses": 100}}]}' >"\$2"
    shift
done
exit 0
EOF
# GPGPU-Sim's tools: prep-gtx480.sh writes a configuration, env.sh nothing
mkdir -p "$tmp/tools" "$tmp/gs" "$tmp/build/bicg" "$tmp/build/atax_1"
cat >"$tmp/tools/prep-gtx480.sh" <<'EOF'
mkdir -p "$2"; echo "-gpgpu_ptx_sim_mode $3" >"$2/gpgpusim.config"
EOF
: >"$tmp/tools/env.sh"
# the program: its configuration, then GPGPU-Sim's block after each launch
# (the second kernel's name at the end of a line the program left open)
cat >"$tmp/build/bicg/prog" <<EOF
#!/bin/sh
cat gpgpusim.config
for k in 1 2 2; do echo "GPGPU-Sim PTX: pushing kernel '_Z12bicg_kernel\${k}iiPfS_S_' to stream 0"; done
echo "kernel_name = _Z12bicg_kernel1iiPfS_S_ "
echo "gpu_sim_cycle = 120"
echo "	L1D_total_cache_accesses = 12"
echo "	L1D_total_cache_misses = 6"
printf 'some output of the program, unfinished: kernel_name = _Z12bicg_kernel2iiPfS_S_ \n'
echo "gpu_sim_cycle = 1100"
echo "	L1D_total_cache_accesses = 412"
echo "	L1D_total_cache_misses = 306"
[ -f ../../lose ] || {
echo "kernel_name = _Z12bicg_kernel2iiPfS_S_ "
echo "gpu_sim_cycle = 550"
echo "	L1D_total_cache_accesses = 612"
echo "	L1D_total_cache_misses = 456"
}
echo "$OK"
exit 0
EOF
cp "$tmp/build/bicg/prog" "$tmp/build/atax_1/prog"
sed -i "s/bicg_kernel/atax_kernel/g" "$tmp/build/atax_1/prog"
chmod +x "$tmp/tpsim" "$tmp/build/bicg/prog" "$tmp/build/atax_1/prog"

# point NAME VARIANT SIM: runs one point of bar NAME
point() {
    GPGPUSIM_TOOLS=$tmp/tools sh "$R" --point "$tmp/out" "$tmp/build" "$tmp/tpsim" "$tmp/gs" "$1" "$2" "$3" \
        >"$tmp/log" 2>&1
}
# the rows, by --table (OUT/shares: the runs serving each bar)
rows() {
    GPGPUSIM_TOOLS=$tmp/tools sh "$R" --table --out "$tmp/out" >"$tmp/table" 2>&1
    cat "$tmp/out/warppool.csv"
}

# tpsim: the study's baseline and 128 KB points
echo "bicg bicg" >"$tmp/out.shares"
mkdir -p "$tmp/out"
mv "$tmp/out.shares" "$tmp/out/shares"
for v in l1_32k:32k l1_128k:128k; do
    point bicg "${v%%:*}" tpsim
    args=$(sed -n 's/^args //p' "$tmp/out/runs/bicg-${v%%:*}-tpsim/tpsim.log" 2>/dev/null)
    want="run --mode performance --config gtx480-l1-32k --stats $tmp/out/runs/bicg-${v%%:*}-tpsim/tpsim.json -o l1d.banks=1 -o warppool=0 -o mrpb=0 -o l1d.size=${v#*:} -- ./prog"
    if [ "$args" != "$want" ]; then fail "tpsim_${v%%:*}" "ran '$args', expected '$want' ($(cat "$tmp/log"))"
    else pass "tpsim_${v%%:*}"; fi
done
# tpsim_rot: the same point with GPGPU-Sim 4.2's issue order, crossbar and the two queue sizes its runs keep
point bicg l1_32k tpsim_rot
args=$(sed -n 's/^args //p' "$tmp/out/runs/bicg-l1_32k-tpsim_rot/tpsim.log" 2>/dev/null)
want="run --mode performance --config gtx480-l1-32k --stats $tmp/out/runs/bicg-l1_32k-tpsim_rot/tpsim.json -o l1d.banks=1 -o warppool=0 -o mrpb=0 -o l1d.size=32k -o sm.issue_order=rotate -o icnt.out_buffer=64 -o l2.queue=64 -o icnt.eject_queue=32 -- ./prog"
if [ "$args" != "$want" ]; then fail tpsim_rot "ran '$args', expected '$want' ($(cat "$tmp/log"))"
else pass tpsim_rot; fi
r=$(rows | grep "^bicg,.*,l1_32k,tpsim,")
if [ "$r" != "bicg,bicg_kernel2,l1_32k,tpsim,1500,2,600,400,ok" ]; then
    fail tpsim_row "row '$r', expected 'bicg,bicg_kernel2,l1_32k,tpsim,1500,2,600,400,ok'"
else pass tpsim_row; fi
r=$(rows | grep "^bicg,.*,l1_32k,tpsim_rot,")
if [ "$r" != "bicg,bicg_kernel2,l1_32k,tpsim_rot,1500,2,600,400,ok" ]; then
    fail tpsim_rot_row "row '$r', expected 'bicg,bicg_kernel2,l1_32k,tpsim_rot,1500,2,600,400,ok'"
else pass tpsim_rot_row; fi

# GPGPU-Sim: the L1D of each variant and 3.2.2's memory system in the
# configuration; only bicg_kernel2's launches, its L1D counters as differences
for v in l1_32k:32 l1_128k:128; do
    point bicg "${v%%:*}" gpgpusim
    log=$tmp/out/runs/bicg-${v%%:*}-gpgpusim/gpgpusim.log
    if ! grep -q "^-gpgpu_cache:dl1 N:${v#*:}:128:8,L:L:f:N:L,A:32:8,8\$" "$log" 2>/dev/null; then
        fail "gpgpusim_${v%%:*}" "no ${v#*:}-set linear L1D: $(cat "$log" "$tmp/log" 2>/dev/null | head -n 5)"
    elif ! grep -q "^-gpgpu_cache:dl2 N:64:128:8," "$log" || ! grep -q "^-gpgpu_frfcfs_dram_sched_queue_size 16\$" "$log" ||
        ! grep -q "^-gpgpu_ptx_sim_mode 0\$" "$log"; then
        fail "gpgpusim_${v%%:*}" "not 3.2.2's L2 and DRAM queue in timing mode: $(head -n 8 "$log")"
    else pass "gpgpusim_${v%%:*}"; fi
done
r=$(rows | grep "^bicg,.*,l1_32k,gpgpusim,")
if [ "$r" != "bicg,bicg_kernel2,l1_32k,gpgpusim,1650,2,600,450,ok" ]; then
    fail gpgpusim_row "row '$r', expected 'bicg,bicg_kernel2,l1_32k,gpgpusim,1650,2,600,450,ok'"
else pass gpgpusim_row; fi

# the table: per bar and simulator, both L1Ds' cycles, the 128 KB speed-up
# (1.00: the stand-ins give both the same), miss rates, GPGPU-Sim over tpsim
if ! grep -q "^bicg  *tpsim  *1500  *1500  *1.00  *0.667  *0.667  *-  *2/2, ok/ok\$" "$tmp/table"; then
    fail table "no tpsim line for bicg: $(cat "$tmp/table")"
elif ! grep -q "^bicg  *tpsim_rot  *1500  *-  *-  *0.667  *-  *-  *2/, ok/\$" "$tmp/table"; then
    fail table "no tpsim_rot line for bicg: $(cat "$tmp/table")"
elif ! grep -q "^bicg  *gpgpusim  *1650  *1650  *1.00  *0.750  *0.750  *1.10  *2/2, ok/ok\$" "$tmp/table"; then
    fail table "no GPGPU-Sim line for bicg: $(cat "$tmp/table")"
else pass table; fi

# a launch whose statistics GPGPU-Sim lost at exit: 1 of the 2 it started
touch "$tmp/out/runs/lose"
point bicg l1_32k gpgpusim
rm -f "$tmp/out/runs/lose"
r=$(rows | grep "^bicg,.*,l1_32k,gpgpusim,")
if [ "$r" != "bicg,bicg_kernel2,l1_32k,gpgpusim,1100,1/2,400,300,ok" ]; then
    fail lost "row '$r', expected 'bicg,bicg_kernel2,l1_32k,gpgpusim,1100,1/2,400,300,ok'"
else pass lost; fi

# two bars of one program: atax_2's rows from atax_1's run, each its own kernel
point atax_1 l1_32k tpsim
sed -i 's/bicg_kernel/atax_kernel/g' "$tmp/out/runs/atax_1-l1_32k-tpsim/tpsim.json"
printf 'atax_1 atax_1\natax_2 atax_1\n' >>"$tmp/out/shares"
r=$(rows | grep "^atax_.,.*,l1_32k,tpsim," | tr '\n' ' ')
if [ "$r" != "atax_1,atax_kernel1,l1_32k,tpsim,100,1,10,5,ok atax_2,atax_kernel2,l1_32k,tpsim,1500,2,600,400,ok " ]; then
    fail shared "rows '$r', expected atax_kernel1's and atax_kernel2's from atax_1's run"
else pass shared; fi

# a program that fails: no cycles, status failed
printf '#!/bin/sh\nexit 3\n' >"$tmp/build/bicg/prog"
point bicg l1_128k gpgpusim
r=$(rows | grep "^bicg,.*,l1_128k,gpgpusim,")
if [ "$r" != "bicg,bicg_kernel2,l1_128k,gpgpusim,,,,,failed" ]; then
    fail failed "row '$r', expected 'bicg,bicg_kernel2,l1_128k,gpgpusim,,,,,failed'"
else pass failed; fi

# the command line: --suites is needed; a bar outside the study is refused
sh "$R" bicg >"$tmp/out1" 2>&1
rc=$?
sh "$R" --suites "$tmp" hotspot >"$tmp/out2" 2>&1
rc2=$?
if [ $rc -ne 2 ] || ! grep -q -- "--suites DIR is needed" "$tmp/out1"; then fail usage "exit $rc: $(cat "$tmp/out1")"
elif [ $rc2 -ne 2 ] || ! grep -q "hotspot is not a bar of the WarpPool study" "$tmp/out2"; then
    fail usage "exit $rc2: $(cat "$tmp/out2")"
else pass usage; fi
exit $status
