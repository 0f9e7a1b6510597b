#!/bin/sh
# run_suites_point.sh -- run by `make test`: `experiments/suites/suites.sh
# point`, the one point of an experiment's --suites run (experiments/suites.md)
# that experiments/regmutex/run.sh and experiments/warppool/run.sh share.
# Nothing is built or simulated: TPSIM is a stand-in script that writes down
# its directory and arguments (and the statistics file it is given), so the
# cases check the exact command a point runs, where it runs it, and which
# status it records:
#   skip      OUT/NAME/skip -> BASE.status skipped, BASE.log the reason, no run
#   usage     too few arguments -> exit 2 and the usage line
#   ok        srad (which adds its own option, exec.oob=warn, and arguments):
#             the caller's options first, then srad's, each after -o; run in
#             OUT/srad; BASE relative to the caller's directory
#   failed    the run exits 1 -> failed
#   verify    bfs (our own check: result.txt equals graph65536.expected): the
#             run exits 0 but the results differ -> failed; equal -> ok
# One line per case: PASS suites_point_NAME or FAIL suites_point_NAME: why.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
S=$root/experiments/suites/suites.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
pass() { echo "PASS suites_point_$1"; }
fail() { echo "FAIL suites_point_$1: $2"; status=1; }

# the stand-in tpsim: prints its directory and arguments, writes the --stats
# file, exits $FAKE_RC (default 0)
cat >"$tmp/tpsim" <<'EOF'
#!/bin/sh
echo "cwd $PWD"
echo "args $*"
while [ $# -gt 0 ]; do [ "$1" = --stats ] && echo '{}' >"$2"; shift; done
exit "${FAKE_RC:-0}"
EOF
chmod +x "$tmp/tpsim"
mkdir -p "$tmp/work/gaussian" "$tmp/work/srad" "$tmp/work/bfs" "$tmp/pts"

# skip
echo "rodinia: a reason" >"$tmp/work/gaussian/skip"
sh "$S" point "$tmp/tpsim" gtx480 "$tmp/work" gaussian "$tmp/pts/skip" a=1 >"$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then fail skip "exit status $rc: $(cat "$tmp/out")"
elif [ "$(cat "$tmp/pts/skip.status" 2>/dev/null)" != skipped ]; then fail skip "status '$(cat "$tmp/pts/skip.status" 2>/dev/null)', expected skipped"
elif [ "$(cat "$tmp/pts/skip.log")" != "rodinia: a reason" ]; then fail skip "log '$(cat "$tmp/pts/skip.log")', expected the skip file's reason"
elif [ -e "$tmp/pts/skip.json" ]; then fail skip "a skipped point wrote statistics"
else pass skip; fi

# usage
sh "$S" point "$tmp/tpsim" gtx480 "$tmp/work" gaussian >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ]; then fail usage "exit status $rc, expected 2"
elif ! grep -q "usage: suites.sh point TPSIM CFG OUT NAME BASE" "$tmp/err"; then fail usage "no usage line: $(cat "$tmp/err")"
else pass usage; fi

# ok: srad, BASE relative to the caller's directory
(cd "$tmp" && sh "$S" point "$tmp/tpsim" gtx480-rf64k work srad pts/srad regmutex=1 regs.physical=1) >"$tmp/out" 2>&1
want="args run --mode performance --config gtx480-rf64k --stats $tmp/pts/srad.json -o regmutex=1 -o regs.physical=1 -o exec.oob=warn -- ./prog 512 512 0 127 0 127 0.5 2"
if [ "$(cat "$tmp/pts/srad.status" 2>/dev/null)" != ok ]; then fail ok "status '$(cat "$tmp/pts/srad.status" 2>/dev/null)', expected ok: $(cat "$tmp/out")"
elif [ "$(sed -n 1p "$tmp/pts/srad.log")" != "cwd $tmp/work/srad" ]; then fail ok "ran in '$(sed -n 1p "$tmp/pts/srad.log")', expected cwd $tmp/work/srad"
elif [ "$(sed -n 2p "$tmp/pts/srad.log")" != "$want" ]; then fail ok "ran '$(sed -n 2p "$tmp/pts/srad.log")', expected '$want'"
elif [ ! -f "$tmp/pts/srad.json" ]; then fail ok "no statistics file $tmp/pts/srad.json"
elif [ -s "$tmp/out" ]; then fail ok "printed '$(cat "$tmp/out")' (a point prints nothing; its caller reports the status)"
else pass ok; fi

# failed: the run fails
FAKE_RC=1 sh "$S" point "$tmp/tpsim" gtx480 "$tmp/work" srad "$tmp/pts/bad" >"$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then fail failed "exit status $rc, expected 0 (the status is in the file)"
elif [ "$(cat "$tmp/pts/bad.status" 2>/dev/null)" != failed ]; then fail failed "status '$(cat "$tmp/pts/bad.status" 2>/dev/null)', expected failed"
else pass failed; fi

# verify: bfs's own check decides
echo "1 2" >"$tmp/work/bfs/graph65536.expected"
echo "1 3" >"$tmp/work/bfs/result.txt"
sh "$S" point "$tmp/tpsim" gtx480 "$tmp/work" bfs "$tmp/pts/bfs1" >/dev/null 2>&1
cp "$tmp/work/bfs/graph65536.expected" "$tmp/work/bfs/result.txt"
sh "$S" point "$tmp/tpsim" gtx480 "$tmp/work" bfs "$tmp/pts/bfs2" >/dev/null 2>&1
s1=$(cat "$tmp/pts/bfs1.status" 2>/dev/null) s2=$(cat "$tmp/pts/bfs2.status" 2>/dev/null)
if [ "$s1" != failed ]; then fail verify "wrong results gave '$s1', expected failed"
elif [ "$s2" != ok ]; then fail verify "right results gave '$s2', expected ok"
elif ! grep -q "^args run .* -- ./prog graph65536.txt\$" "$tmp/pts/bfs2.log"; then fail verify "bfs ran '$(sed -n 2p "$tmp/pts/bfs2.log")'"
else pass verify; fi
exit $status
