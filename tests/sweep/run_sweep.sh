#!/bin/sh
# run_sweep.sh -- tests `tpsim sweep` and `tpsim plot` (docs/SWEEPS.md); prints
# PASS/FAIL lines (tests/run.sh counts them).
#
#   - sweep-file errors at file:line:col, each exactly;
#   - the cross product and derived columns of vec.sweep against the numbers
#     docs/VECTOR.md derives (chain.s 141 / 77 cycles, daxpy N=10 82);
#   - GPU points (gpu.sweep): statistics paths, sums, selection by kernel
#     name, counts, stdout numbers; a failing and a timing-out point are rows
#     with their status while the rest completes; TPSIM_* in the environment
#     change nothing;
#   - determinism: -j 1 and -j 3 give byte-identical CSVs;
#   - the cache: a second run runs nothing; a changed axis runs only the new
#     points; a sweep killed (SIGKILL) half-way and resumed gives the same CSV
#     as one run straight through, running only what had not finished, and
#     leaves no partial result;
#   - the memory limit (not in sanitizer builds); figures (SKIP without
#     gnuplot); tpsim plot; --slurm --dry-run's script.
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$TPSIM" ]; then
    echo "FAIL sweep: $TPSIM not built"
    exit 0
fi
if [ ! -x "$BUILD/tests/polybench/polybench" ] || [ ! -x "$BUILD/tests/ubench/ubench" ]; then
    echo "FAIL sweep: the runners are not built (make unit)"
    exit 0
fi

pass() { echo "PASS sweep_$1"; }
fail() { echo "FAIL sweep_$1: $2"; }
# has NAME FILE LINE: FILE has exactly this line
has() {
    if grep -qxF -- "$3" "$2"; then pass "$1"; else
        fail "$1" "no line '$3' in $2:"; sed 's/^/    /' "$2" | head -20; fi
}
# starts NAME FILE PREFIX: FILE has a line that starts with PREFIX (the summary
# line ends with the time the sweep took)
starts() {
    if grep -F -- "$3" "$2" | grep -q "^$(printf '%s' "$3" | sed 's/[][\.*^$/]/\\&/g')"; then pass "$1"; else
        fail "$1" "no line starting '$3' in $2:"; sed 's/^/    /' "$2" | head -20; fi
}
# same NAME A B: files A and B are identical
same() {
    if cmp -s "$2" "$3"; then pass "$1"; else
        fail "$1" "$2 and $3 differ:"; diff "$2" "$3" | head -20 | sed 's/^/    /'; fi
}

# ---- sweep-file errors ---------------------------------------------------------------
# err NAME WANT: tpsim sweep on $tmp/e.sweep fails (status 1) with exactly WANT on stderr
err() {
    "$TPSIM" sweep "$tmp/e.sweep" --out "$tmp/eout" --list >/dev/null 2>"$tmp/e.err"
    st=$?
    got=$(cat "$tmp/e.err")
    if [ "$st" = 1 ] && [ "$got" = "$2" ]; then pass "error_$1"; else
        fail "error_$1" "status $st, stderr '$got', want '$2'"; fi
}
E="$tmp/e.sweep"
printf '[program p]\ncuda = ./x\n[columns]\nc = cycles\n[axis a]\nsm.scheduler = lrr\n' >"$E"
err axis_after_columns "$E:5:1: axes come before [columns] and [derived]"
printf '[program p]\ncuda = ./x\n[axis a]\nsm.scheduler = lrr, gto\nlabels = one, two, three\n[columns]\nc = cycles\n' >"$E"
err axis_count "$E:5:10: 3 values here, but the axis has 2"
printf '[sweep]\nmode = fast\n' >"$E"
err mode "$E:2:8: mode is functional or performance, not 'fast'"
printf '[program p]\n  cuda = ./x "unclosed\n' >"$E"
err quote "$E:2:14: quote \" not closed"
printf '[program p]\ncuda = ./x\n[columns]\nc = cycles\n[derived]\nd = c / e\n' >"$E"
err derived_name "$E:6:9: 'e' is not a column"
printf '[program p]\ncuda = ./x\n[columns]\nc = cycles\n[derived]\nd = c / c@scheduler=lrr\n' >"$E"
err selector "$E:6:11: 'scheduler' is not program, config or an axis"
printf '[program p]\ncuda = ./x\n[axis s]\nsm.scheduler = lrr, gto\n[columns]\nc = cycles\n[derived]\nd = c / c@s=fifo\n' >"$E"
err selector_value "$E:8:11: 'fifo' is not a value of the axis s"
printf '[program p]\ncuda = ./x\n[columns]\nc = median cycles\n' >"$E"
err aggregate "$E:4:5: expected [sum|mean|min|max|count|first|last] PATH, e.g. 'sum kernels.*.cycles'"
printf '[program p]\ncuda = ./x\n[program p]\n' >"$E"
err duplicate "$E:3:10: a second program named 'p'"
printf '[program p]\nptx = k.ptx\n[columns]\nc = cycles\n' >"$E"
err runner "$E:1:1: program 'p': ptx = needs run = RUNNER ARGS (the driver-API program that loads it)"
printf '[program p]\ncuda = ./x\n' >"$E"
err no_columns "$E: no [columns] section: name at least one statistic to collect"
printf '[program p]\ncuda = ./x ${home}\n' >"$E"
err variable "$E:2:12: unknown variable (\${build} and \${dir} are the ones there are)"
printf '[programs p]\n' >"$E"
err section "$E:1:2: unknown section 'programs' (sweep, program, config, axis, columns, derived, figure)"
# options are checked against the program's machine, at their line
printf '[program p]\ncuda = /bin/true\n[axis s]\nl1d.sizes = 16k\n[columns]\nc = cycles\n' >"$E"
err option "$E:4:1: unknown option 'l1d.sizes' (did you mean 'l1d.size'? 'tpsim config --list' shows them all) (program p runs on the GPU)"
printf '[program v]\nvmips = x.s\n[config c]\nbase = vmips\nchaining = 2\n[columns]\nc = cycles\n' >"$E"
err range "$E:5:12: option 'chaining': '2' is not a boolean (0/1, true/false, on/off) (program v runs on the vector machine)"
# .equ constants of VMIPS programs (equ.NAME, --set NAME=V): a name the program does not define is
# an error at its line, naming the program and the .equ
cp examples/vector/daxpy.s "$tmp/d.s"
printf '[program d]\nvmips = d.s\n[axis n]\nequ.Q = 1, 2\n[columns]\nc = cycles\n' >"$E"
err equ_axis "$E:4:1: equ.Q: program d (d.s) has no .equ named 'Q'"
printf '[program d]\nvmips = d.s\n[config c]\nbase = vmips\nequ.Nn = 3\n[columns]\nc = cycles\n' >"$E"
err equ_config "$E:5:1: equ.Nn: program d (d.s) has no .equ named 'Nn'"
printf '[program d]\nvmips = d.s --set Q=10\n[columns]\nc = cycles\n' >"$E"
err equ_own_set "$E:2:9: --set Q: program d (d.s) has no .equ named 'Q'"
printf '[program d]\nvmips = d.s\n[axis n]\nequ.Rx = 1\n[columns]\nc = cycles\n' >"$E"
err equ_register "$E:4:1: equ.Rx: program d (d.s) names a register, not a value, with its .equ 'Rx'"
printf '[program d]\nvmips = d.s\n[axis n]\nequ.N = 1, ten\n[columns]\nc = cycles\n' >"$E"
err equ_value "$E:4:9: equ.N takes an integer (the value of .equ N), not 'ten'"
printf '[program d]\nvmips = d.s --set N=5\n[axis n]\nequ.N = 1, 2\n[columns]\nc = cycles\n' >"$E"
err equ_twice "$E:4:1: equ.N: program d sets it already (--set N=5)"
printf '[program p]\ncuda = /bin/true\n[axis n]\nequ.N = 1, 2\n[columns]\nc = cycles\n' >"$E"
err equ_gpu "$E:4:1: equ.N sets an .equ of a VMIPS program, but program p runs on the GPU"
# an axis over an .equ: daxpy.s takes 42 + 4n cycles in the textbook model
printf '[program d]\nvmips = d.s\n[config t]\nbase = vmips\ntiming = textbook\nequ.N = 64\n[axis n]\nequ.N = 10, 20\n[columns]\ncycles = cycles\n' >"$tmp/equ.sweep"
"$TPSIM" sweep "$tmp/equ.sweep" --out "$tmp/equ" --no-plot --quiet >/dev/null 2>"$tmp/equ.err"
has equ_n10 "$tmp/equ/equ.csv" "d/t/n=10,d,t,10,82,ok,"
has equ_n20 "$tmp/equ/equ.csv" "d/t/n=20,d,t,20,122,ok,"

# ---- vec.sweep: the cross product and derived columns --------------------------------------
"$TPSIM" sweep "$here/vec.sweep" --list --out "$tmp/v1" >"$tmp/list" 2>&1
has list_count "$tmp/list" "8 points (2 programs x 2 configurations x 2 chaining), 0 cached"
"$TPSIM" sweep "$here/vec.sweep" -j 1 --out "$tmp/v1" --no-plot --quiet >"$tmp/out" 2>&1
st=$?
[ "$st" = 0 ] && [ ! -s "$tmp/out" ] && pass vec_quiet || fail vec_quiet "status $st, output: $(head -c 300 "$tmp/out")"
V="$tmp/v1/vec.csv"
has vec_header "$V" "point,program,config,chaining,cycles,timing,flops,speedup,per_elem,vs_chain,status,message"
# 141 and 77 cycles: 141 / 77 = 1.83117; chained vs unchained chain: 77 / 141 = 0.546099
has vec_chain0 "$V" "chain/textbook/chaining=0,chain,textbook,0,141,textbook,128,1,24.75,1,ok,"
has vec_chain1 "$V" "chain/textbook/chaining=1,chain,textbook,1,77,textbook,128,1.83117,8.75,0.546099,ok,"
# 42 + 4n = 82 for n = 10: per_elem = (82 - 42) / 4 = 10; 82 / 141 = 0.58156
has vec_daxpy "$V" "daxpy10/textbook/chaining=0,daxpy10,textbook,0,82,textbook,20,1,10,0.58156,ok,"
rows=$(wc -l <"$V")
[ "$rows" = 9 ] && pass vec_rows || fail vec_rows "$rows lines in $V, want 9"
# the order: programs, then configurations, then the axis
order=$(cut -d, -f1 "$V" | tr '\n' ' ')
want="point chain/textbook/chaining=0 chain/textbook/chaining=1 chain/pipelined/chaining=0 chain/pipelined/chaining=1 daxpy10/textbook/chaining=0 daxpy10/textbook/chaining=1 daxpy10/pipelined/chaining=0 daxpy10/pipelined/chaining=1 "
[ "$order" = "$want" ] && pass vec_order || fail vec_order "rows in the order '$order'"

# determinism: -j 3 in a fresh directory gives the same bytes
"$TPSIM" sweep "$here/vec.sweep" -j 3 --out "$tmp/v3" --no-plot --quiet
same vec_j1_j3 "$V" "$tmp/v3/vec.csv"
# a second run takes everything from the cache
"$TPSIM" sweep "$here/vec.sweep" -j 2 --out "$tmp/v1" --no-plot >/dev/null 2>"$tmp/again"
starts vec_cached "$tmp/again" "tpsim sweep: 8 points: 0 run now, 8 from the cache, 0 could not start; "
n=$(grep -c ',ok,yes,' "$tmp/v1/vec-runs.csv")
[ "$n" = 8 ] && pass vec_runs_csv || fail vec_runs_csv "$n cached rows in vec-runs.csv"
same vec_cached_same "$V" "$tmp/v3/vec.csv"
# a new axis value runs only the new points
sed 's/^chaining = 0, 1$/chaining = 0, 1, off/' "$here/vec.sweep" >"$tmp/vec2.sweep"
sed -i "s|^dir = ../..|dir = $(cd "$here/../.." && pwd)|" "$tmp/vec2.sweep"
"$TPSIM" sweep "$tmp/vec2.sweep" -j 2 --out "$tmp/v1" --no-plot >/dev/null 2>"$tmp/more"
starts vec_new_points "$tmp/more" "tpsim sweep: 12 points: 4 run now, 8 from the cache, 0 could not start; "

# ---- gpu.sweep: statistics of GPU programs, failures, time-outs -----------------------------
# TPSIM_* in the environment must not reach the points (CI runs the suite with TPSIM_MODE set)
TPSIM_MODE=performance TPSIM_OPTIONS=exec.quantum=1 TPSIM_CONFIG=gtx480 \
    "$TPSIM" sweep "$here/gpu.sweep" -j 4 --out "$tmp/g" --no-plot --quiet
st=$?
[ "$st" = 0 ] && pass gpu_status || fail gpu_status "exit status $st"
G="$tmp/g/gpu.csv"
has gpu_header "$G" "point,program,config,thread_insts,kernel1,launches,first_kernel,failed_calls,lat_int_add,vs_atax,status,message"
# atax: 1460224 + 1459712 thread instructions (tests/polybench/README.md)
has gpu_atax "$G" "atax/gtx480,atax,gtx480,2919936,1460224,2,_Z12atax_kernel1iiPfS_S_,0,,1,ok,"
has gpu_atax_rtx "$G" "atax/rtx2060,atax,rtx2060,2919936,1460224,2,_Z12atax_kernel1iiPfS_S_,0,,1,ok,"
has gpu_bicg "$G" "bicg/gtx480,bicg,gtx480,2919936,1459712,2,_Z12bicg_kernel1iiPfS_S_,0,,1,ok,"
if grep -q '^ubench/gtx480,ubench,gtx480,[0-9]*,,1,lat_int_add,0,1.0000,[0-9.]*,ok,$' "$G"; then pass gpu_stdout; else
    fail gpu_stdout "no ubench row with lat_int_add 1.0000"; grep ubench "$G"; fi
# tpsim-launch's point: one launch; one failed call, the cuFuncGetParamInfo past the last
# parameter by which it counts them
if grep -q '^saxpy/gtx480,saxpy,gtx480,[0-9]*,,1,saxpy,1,,[0-9.]*,ok,$' "$G"; then pass gpu_launch; else
    fail gpu_launch "no saxpy row with one launch"; grep saxpy "$G"; fi
has gpu_failed "$G" "fails/gtx480,fails,gtx480,,,,,,,,failed,the program gave up (exit status 3)"
has gpu_timeout "$G" "sleeps/rtx2060,sleeps,rtx2060,,,,,,,,timeout,timed out after 2 s"
# a failing point is cached like the others; --retry-failed runs it again
"$TPSIM" sweep "$here/gpu.sweep" -j 4 --out "$tmp/g" --no-plot --retry-failed >/dev/null 2>"$tmp/retry"
starts gpu_retry "$tmp/retry" "tpsim sweep: 12 points: 4 run now, 8 from the cache, 0 could not start; "

# ---- tpsim-launch: the generic runner --------------------------------------------------------
# y = 2 x + y with x = 1.0 and y = 0, 1, 2 ...: y[i] = 2 + i; the FNV-1a 64 checksums of
# 4096 floats 1.0 and of 2.0, 3.0 ... 4097.0 were computed independently (Python's struct)
"$BUILD/bin/tpsim-launch" examples/driver/saxpy.ptx saxpy --grid 16 --block 256 f32:2 buf:16k:ones buf:16k:seqf \
    u32:4096 >"$tmp/launch" 2>&1
has launch_x "$tmp/launch" "buf0 16384 checksum 0x3d89e8e4c474a325"
has launch_y "$tmp/launch" "buf1 16384 checksum 0x684dec0eeb3d198d"
"$BUILD/bin/tpsim-launch" examples/driver/saxpy.ptx saxpy f32:2 buf:16k u64:1 >"$tmp/launch" 2>&1
st=$?
has launch_checks_args "$tmp/launch" "tpsim-launch: saxpy takes 4 parameters, 3 given"
[ "$st" = 2 ] && pass launch_status || fail launch_status "exit status $st for a bad argument list, want 2"

# ---- resume: a sweep killed half-way ---------------------------------------------------------
# Six slow points (the polybench runner on all its benchmarks but corr, functional);
# run straight through once, then again in a new directory, killed once three results exist.
cat >"$tmp/slow.sweep" <<EOF
[sweep]
mode = functional
dir = $(cd "$here/../.." && pwd)
[program pb]
ptx = tests/polybench/2mm.ptx tests/polybench/gemm.ptx
run = \${build}/tests/polybench/polybench --ptx tests/polybench 2mm gemm atax bicg gesummv 2dconv fdtd2d
[axis quantum]
exec.quantum = 32, 64, 128, 256, 512, 1024
[columns]
insts = kernels.*.warp_instructions
launches = count kernels.*.name
EOF
"$TPSIM" sweep "$tmp/slow.sweep" -j 1 --out "$tmp/s1" --no-plot --quiet
"$TPSIM" sweep "$tmp/slow.sweep" -j 1 --out "$tmp/s2" --no-plot --quiet &
pid=$!
i=0
while [ "$(find "$tmp/s2/cache" -name '*.json' 2>/dev/null | wc -l)" -lt 3 ] && [ $i -lt 600 ]; do
    sleep 0.05; i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
sleep 0.3     # the killed sweep's point dies with it (PR_SET_PDEATHSIG)
done_before=$(find "$tmp/s2/cache" -name '*.json' | wc -l)
partial=$(find "$tmp/s2/cache" -name '*.tmp*' | wc -l)
if [ "$done_before" -ge 3 ] && [ "$done_before" -lt 6 ] && [ "$partial" = 0 ]; then pass resume_killed; else
    fail resume_killed "$done_before results and $partial partial files after the kill"; fi
"$TPSIM" sweep "$tmp/slow.sweep" -j 2 --out "$tmp/s2" --no-plot >/dev/null 2>"$tmp/resumed"
starts resume_runs_rest "$tmp/resumed" "$(printf 'tpsim sweep: 6 points: %d run now, %d from the cache, 0 could not start; ' \
    $((6 - done_before)) "$done_before")"
same resume_same_csv "$tmp/s1/slow.csv" "$tmp/s2/slow.csv"
n=$(grep -c ',ok,$' "$tmp/s1/slow.csv")
[ "$n" = 6 ] && pass resume_all_ok || fail resume_all_ok "$n ok rows"
# Ctrl-C (SIGINT): the running points are killed and their work removed, exit status 130
"$TPSIM" sweep "$tmp/slow.sweep" -j 2 --out "$tmp/s3" --no-plot --quiet 2>"$tmp/int.err" &
pid=$!
i=0
while [ "$(find "$tmp/s3/cache" -name '*.json' 2>/dev/null | wc -l)" -lt 1 ] && [ $i -lt 600 ]; do
    sleep 0.05; i=$((i + 1))
done
kill -INT $pid
wait $pid
st=$?
left=$(find "$tmp/s3/work" -mindepth 1 2>/dev/null | wc -l)
[ "$st" = 130 ] && [ "$left" = 0 ] && pass interrupt || fail interrupt "exit status $st, $left work files left"
has interrupt_message "$tmp/int.err" "tpsim sweep: interrupted; the finished points are kept: run the same command to resume"
"$TPSIM" sweep "$tmp/slow.sweep" -j 2 --out "$tmp/s3" --no-plot --quiet
same interrupt_resumed "$tmp/s1/slow.csv" "$tmp/s3/slow.csv"

# ---- odd output: bytes that are not UTF-8, commas and quotes in a message -------------------------
cat >"$tmp/odd.sweep" <<'END'
[program odd]
cuda = /bin/sh -c "printf 'bad \\377 byte, \"quoted\"\\n' >&2; exit 4"
[program absent]
cuda = ./no-such-program
[columns]
c = kernels.*.cycles
END
"$TPSIM" sweep "$tmp/odd.sweep" --out "$tmp/o" --no-plot >/dev/null 2>"$tmp/odd.err"
has odd_message "$tmp/o/odd.csv" 'odd/default,odd,default,,failed,"bad ? byte, ""quoted"" (exit status 4)"'
has odd_absent "$tmp/o/odd.csv" 'absent/default,absent,default,,error,cannot read the program ./no-such-program: No such file or directory'
starts odd_could_not_start "$tmp/odd.err" "tpsim sweep: 2 points: 1 run now, 0 from the cache, 1 could not start; "

# ---- the memory limit --------------------------------------------------------------------------
if grep -qa AddressSanitizer "$TPSIM"; then
    echo "SKIP sweep_memory: a sanitizer build sets no memory limit"
else
    cat >"$tmp/mem.sweep" <<EOF
[sweep]
dir = $(cd "$here/../.." && pwd)
memory = 256M
[program small]
vmips = examples/vector/daxpy.s
[program huge]
vmips = examples/vector/daxpy.s -o mem_size=1G
[columns]
cycles = cycles
EOF
    "$TPSIM" sweep "$tmp/mem.sweep" --out "$tmp/m" --no-plot --quiet
    # the same program with VMIPS's default 1 MB memory runs (pipelined timing: 304 cycles)
    has memory_ok "$tmp/m/mem.csv" "small/default,small,default,304,ok,"
    if grep -q '^huge/default,huge,default,,memory,over the memory limit of 268435456 bytes: ' "$tmp/m/mem.csv"; then
        pass memory_limit; else fail memory_limit "$(grep huge "$tmp/m/mem.csv")"; fi
fi

# ---- figures ------------------------------------------------------------------------------------
cat >"$tmp/fig.sweep" <<EOF
[sweep]
dir = $(cd "$here/../.." && pwd)
[program chain]
vmips = examples/vector/chain.s
[program daxpy]
vmips = examples/vector/daxpy.s
[config tb]
base = vmips
timing = textbook
[axis chaining]
chaining = 0, 1
[columns]
cycles = cycles
[derived]
speedup = cycles@chaining=0 / cycles
[figure speedup]
y = speedup
title = Chaining
[figure cycles]
type = line
y = cycles
x = chaining
EOF
"$TPSIM" sweep "$tmp/fig.sweep" --out "$tmp/f" >"$tmp/fig.out" 2>"$tmp/fig.err"
if command -v gnuplot >/dev/null 2>&1; then
    has figure_listed "$tmp/fig.out" "$tmp/f/fig-speedup.png"
    for png in "$tmp/f/fig-speedup.png" "$tmp/f/fig-cycles.png"; do
        if [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then pass "figure_$(basename "$png")"
        else fail "figure_$(basename "$png")" "not a PNG file"; fi
    done
    # the data beside the figure: one row per program, one column per chaining value
    has figure_data "$tmp/f/fig-speedup.dat" "$(printf 'chain\t1\t1.83117')"
    "$TPSIM" plot "$tmp/f/fig.csv" --y cycles --x program -o "$tmp/f/p.png" >"$tmp/plot.out" 2>&1
    st=$?
    [ "$st" = 0 ] && [ -s "$tmp/f/p.png" ] && pass plot_cli || fail plot_cli "status $st: $(cat "$tmp/plot.out")"
    has plot_data "$tmp/f/p.dat" "$(printf 'chain\t141\t77')"
else
    echo "SKIP sweep_figures: gnuplot is not installed (apt-get install gnuplot-nox)"
    has figure_skip "$tmp/fig.err" "tpsim sweep: SKIP figure fig-speedup: gnuplot is not installed (Debian: apt-get install gnuplot-nox); its script and data are in $tmp/f/fig-speedup.gp and .dat"
fi

# a figure with no point to draw (every point failed) is skipped with one line, and
# gnuplot is not run: no warnings, no empty PNG
cat >"$tmp/nofig.sweep" <<EOF
[sweep]
dir = $(cd "$here/../.." && pwd)
[program gone]
vmips = examples/vector/no_such_program.s
[config tb]
base = vmips
[columns]
cycles = cycles
EOF
"$TPSIM" sweep "$tmp/nofig.sweep" --out "$tmp/nf" >"$tmp/nofig.out" 2>"$tmp/nofig.err"
has figure_no_points "$tmp/nofig.err" "tpsim sweep: SKIP figure nofig-cycles: none of its 1 row has a number in column 'cycles' (failed or empty points: the CSV's status and message columns say why)"
[ ! -e "$tmp/nf/nofig-cycles.png" ] && pass figure_no_points_no_png || fail figure_no_points_no_png "an empty PNG was written"
n=$(grep -vc '^tpsim sweep' "$tmp/nofig.err")
[ "$n" = 0 ] && pass figure_no_points_quiet || fail figure_no_points_quiet "$n other lines: $(head -c 300 "$tmp/nofig.err")"

# ---- --slurm --dry-run ----------------------------------------------------------------------------
"$TPSIM" sweep "$here/vec.sweep" --out "$tmp/sl" --slurm --dry-run --partition debug --time 10:00 --batch 3 \
    >"$tmp/sbatch" 2>&1
has slurm_array "$tmp/sbatch" "#SBATCH --array=0-2"
has slurm_partition "$tmp/sbatch" "#SBATCH --partition=debug"
has slurm_time "$tmp/sbatch" "#SBATCH --time=10:00"
outabs=$(cd "$tmp/sl" && pwd)
has slurm_output "$tmp/sbatch" "#SBATCH --output=$outabs/slurm/task-%A_%a.log"
tasks=$(wc -l <"$tmp/sl/slurm/tasks")
words=$(wc -w <"$tmp/sl/slurm/tasks")
[ "$tasks" = 3 ] && [ "$words" = 8 ] && pass slurm_tasks || fail slurm_tasks "$tasks tasks, $words points"
# a task runs its points into the cache; --gather then writes the CSV
"$TPSIM" sweep "$here/vec.sweep" --out "$tmp/sl" --slurm-task 1 2>/dev/null
n=$(find "$tmp/sl/cache" -name '*.json' | wc -l)
[ "$n" = 3 ] && pass slurm_task_runs || fail slurm_task_runs "$n results after task 1"
"$TPSIM" sweep "$here/vec.sweep" --out "$tmp/sl" --gather --no-plot --quiet
n=$(grep -c ',missing,no result yet$' "$tmp/sl/vec.csv")
[ "$n" = 5 ] && pass slurm_gather_missing || fail slurm_gather_missing "$n missing rows"
exit 0
