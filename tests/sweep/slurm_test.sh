#!/bin/sh
# slurm_test.sh -- `tpsim sweep --slurm` on a real Slurm cluster: this machine
# as a single-node cluster (Debian's slurmctld, slurmd and munge), brought up
# by the test and stopped at its end.  `make test-slurm` runs it; .ci/run
# too.  Needs root (the daemons run as root here, on private ports, sockets
# and directories under a temporary directory, leaving the system's own
# munge and Slurm configuration alone); without root, or when the packages
# cannot be installed, it prints SKIP and why.
#
# What it checks: tests/sweep/vec.sweep submitted with --slurm (three points
# per array task) gives every point a result and a CSV byte-identical to
# the one a local run (-j 2) writes; --no-wait submits and returns, and
# --gather then writes the same CSV.
#
# Prints PASS/FAIL/SKIP lines and "N passed, M failed" last.
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
here=$(cd "$(dirname "$0")" && pwd)
passed=0
failed=0
pass() { echo "PASS slurm_$1"; passed=$((passed + 1)); }
fail() { echo "FAIL slurm_$1: $2"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; exit $?; }
skip() { echo "SKIP slurm: $1"; finish; }

[ -x "$TPSIM" ] || { fail build "$TPSIM is not built (make)"; finish; }
[ "$(id -u)" = 0 ] || skip "needs root to start munged, slurmctld and slurmd"
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 ||
   ! command -v munged >/dev/null 2>&1 || ! command -v sbatch >/dev/null 2>&1; then
    echo "slurm_test: installing slurmctld slurmd slurm-client munge"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq slurmctld slurmd slurm-client munge; } >/dev/null 2>&1 ||
        skip "slurmctld, slurmd, slurm-client and munge are not installed and apt-get could not install them"
fi
[ -r /etc/munge/munge.key ] || skip "no munge key (/etc/munge/munge.key; Debian's munge package makes one)"

d=$(mktemp -d /tmp/tpsim-slurm.XXXXXX)
chmod 755 "$d"
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    for p in $pids; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null
    done
    [ -n "$KEEP" ] || rm -rf "$d"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$d/state" "$d/spool" "$d/munge"
chmod 700 "$d/munge"
cp /etc/munge/munge.key "$d/munge/munge.key"
chmod 400 "$d/munge/munge.key"

# munge on its own socket
munged --force --foreground --socket="$d/munge/munge.sock" --key-file="$d/munge/munge.key" \
    --pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" --seed-file="$d/munge/seed" \
    >/dev/null 2>&1 &
pids="$pids $!"

cat >"$d/slurm.conf" <<EOF
ClusterName=tpsim-test
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$d/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/backfill
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$d/slurm.conf"
i=0
while [ ! -S "$d/munge/munge.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$d/munge/munge.sock" ] || { fail munge "munged did not start: $(tail -3 "$d/munge/munged.log" 2>/dev/null)"; finish; }
slurmctld -D -i -f "$d/slurm.conf" >"$d/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$d/slurm.conf" >"$d/slurmd.out" 2>&1 &
pids="$pids $!"
# the node is up when sinfo says idle
i=0
while [ $i -lt 300 ]; do
    state=$(sinfo -h -N -o %T 2>/dev/null | head -n 1)
    [ "$state" = idle ] && break
    sleep 0.2
    i=$((i + 1))
done
if [ "$state" = idle ]; then pass cluster_up; else
    fail cluster_up "the node is '$state' after 60 s; slurmctld: $(tail -3 "$d/slurmctld.log" 2>/dev/null | tr '\n' ' ') slurmd: $(tail -3 "$d/slurmd.log" 2>/dev/null | tr '\n' ' ')"
    finish
fi

# the sweep through Slurm, then locally
if "$TPSIM" sweep "$here/vec.sweep" --out "$d/slurm-out" --slurm --partition debug --batch 3 --time 10 \
    --no-plot >"$d/sweep.out" 2>"$d/sweep.err"; then pass sweep_status; else
    fail sweep_status "status $?: $(tail -5 "$d/sweep.err")"
fi
grep -q '^tpsim sweep: submitted Slurm job [0-9]*: 8 points in 3 tasks$' "$d/sweep.err" && pass submitted ||
    fail submitted "$(cat "$d/sweep.err")"
logs=$(ls "$d/slurm-out/slurm/" | grep -c '^task-.*\.log$')
[ "$logs" = 3 ] && pass task_logs || fail task_logs "$logs task logs"
"$TPSIM" sweep "$here/vec.sweep" --out "$d/local" -j 2 --no-plot --quiet
if cmp -s "$d/local/vec.csv" "$d/slurm-out/vec.csv"; then pass csv_identical; else
    fail csv_identical "the CSVs differ:"; diff "$d/local/vec.csv" "$d/slurm-out/vec.csv" | head -20
fi
n=$(grep -c ',ok,$' "$d/slurm-out/vec.csv")
[ "$n" = 8 ] && pass all_ok || fail all_ok "$n ok rows of 8"
# the points ran on the cluster: vec-runs.csv of the Slurm output says not from the cache
n=$(grep -c ",ok,no," "$d/slurm-out/vec-runs.csv")
[ "$n" = 8 ] && pass ran_on_slurm || fail ran_on_slurm "$n points run by Slurm tasks"

# --no-wait, then --gather
"$TPSIM" sweep "$here/vec.sweep" --out "$d/nowait" --slurm --no-wait --no-plot >"$d/nw.out" 2>"$d/nw.err"
job=$(sed -n 's/^tpsim sweep: submitted Slurm job \([0-9]*\).*/\1/p' "$d/nw.err" | head -n 1)
if [ -n "$job" ]; then pass no_wait; else fail no_wait "$(cat "$d/nw.err")"; fi
i=0
while [ -n "$job" ] && [ -n "$(squeue -h -j "$job" 2>/dev/null)" ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i + 1)); done
"$TPSIM" sweep "$here/vec.sweep" --out "$d/nowait" --gather --no-plot --quiet
if cmp -s "$d/local/vec.csv" "$d/nowait/vec.csv"; then pass gather_identical; else
    fail gather_identical "the CSVs differ:"; diff "$d/local/vec.csv" "$d/nowait/vec.csv" | head -20
fi
finish
