#!/bin/sh
# run_files.sh -- the commands that read a file a user names (tpsim vec,
# ptx, regmutex, sweep; configuration files through --config) given a
# directory, a binary file, a missing file, or text with bytes that are not
# printable: one line each, the same words everywhere (base/file.h), and no
# raw bytes on the terminal.  Prints PASS/FAIL lines (tests/run.sh counts
# them).
BUILD=${BUILD:-build}
TPSIM="$BUILD/bin/tpsim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$TPSIM" ]; then
    echo "FAIL files_cli: $TPSIM not built"
    exit 1
fi

# check NAME WANT_STATUS WANT_LINE CMD...: CMD exits with WANT_STATUS and
# prints exactly the one line WANT_LINE on stderr and nothing on stdout
check() {
    name=$1 want_rc=$2 want=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    printf '%s\n' "$want" >"$tmp/want"
    if [ "$rc" -ne "$want_rc" ]; then
        echo "FAIL files_$name: exit status $rc, want $want_rc ($(head -c 200 "$tmp/err" | od -c | head -3 | tr '\n' ' '))"
    elif ! cmp -s "$tmp/want" "$tmp/err"; then
        echo "FAIL files_$name: stderr is not the line '$want':"
        od -c "$tmp/err" | head -5 | sed 's/^/    /'
    elif [ -s "$tmp/out" ]; then
        echo "FAIL files_$name: printed on stdout: $(head -c 100 "$tmp/out")"
    else
        echo "PASS files_$name"
    fi
}

# a binary file (an ELF header, as /bin/ls starts), a directory, random-ish
# bytes without NULs, and text whose token holds bytes that are not UTF-8
printf '\177ELF\002\001\001\000\000\000' >"$tmp/prog.bin"
mkdir "$tmp/dir"
printf 'ok\n\033[31mred\n' >"$tmp/esc.s"
printf '        .text\n        LV V1,R1\377\376\n' >"$tmp/hi.s"
printf '[sweep]\nna\377me = x\n' >"$tmp/hi.sweep"
printf '# a configuration\nlanes = 2\001\n' >"$tmp/ctl.cfg"
B="$tmp/prog.bin"
D="$tmp/dir"
EX=examples/vector/daxpy.s

for cmd in vec ptx regmutex; do
    check "${cmd}_binary" 1 "tpsim $cmd: $B:1:1: binary data (byte 0x7f), not a text file" "$TPSIM" "$cmd" "$B"
    check "${cmd}_directory" 1 "tpsim $cmd: cannot read '$D': it is a directory" "$TPSIM" "$cmd" "$D"
    check "${cmd}_missing" 1 "tpsim $cmd: cannot read '$D/none': No such file or directory" "$TPSIM" "$cmd" "$D/none"
    check "${cmd}_control" 1 "tpsim $cmd: $tmp/esc.s:2:1: binary data (byte 0x1b), not a text file" "$TPSIM" "$cmd" "$tmp/esc.s"
done
check sweep_binary 1 "$B:1:1: binary data (byte 0x7f), not a text file" "$TPSIM" sweep "$B"
check sweep_directory 1 "cannot read the sweep file '$D': it is a directory" "$TPSIM" sweep "$D"
# bytes that are not printable are escaped in messages
check vec_escaped 1 "$tmp/hi.s:2:17: unexpected '\\xff\\xfe' after the operands" "$TPSIM" vec "$tmp/hi.s"
check sweep_escaped 1 "$tmp/hi.sweep:2:1: unknown key 'na\\xffme' in [sweep] (name, mode, timeout, memory, dir)" \
    "$TPSIM" sweep "$tmp/hi.sweep"
# configuration files: tpsim vec --config, tpsim config --show, tpsim regmutex --config
check vec_config_directory 1 "tpsim vec: cannot read the configuration file '$D': it is a directory" \
    "$TPSIM" vec --config "$D" $EX
check vec_config_binary 1 "tpsim vec: $B:1:1: binary data (byte 0x7f), not a text file" "$TPSIM" vec --config "$B" $EX
check vec_config_control 1 "tpsim vec: $tmp/ctl.cfg:2:10: binary data (byte 0x01), not a text file" \
    "$TPSIM" vec --config "$tmp/ctl.cfg" $EX
check config_show_directory 1 "tpsim: cannot read the configuration file '$D': it is a directory" "$TPSIM" config --show "$D"
check regmutex_config_binary 1 "tpsim regmutex: $B:1:1: binary data (byte 0x7f), not a text file" \
    "$TPSIM" regmutex --config "$B" examples/driver/saxpy.ptx
# .include of a binary file in a VMIPS program
printf '        .data\n        .include "prog.bin"\n' >"$tmp/inc.s"
check vec_include_binary 1 "$tmp/inc.s:2:18: '$tmp/prog.bin' holds binary data (byte 0x7f at line 1, column 1), not text" \
    "$TPSIM" vec "$tmp/inc.s"
exit 0
