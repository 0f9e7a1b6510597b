#!/bin/sh
# table.sh -- the tables of docs/VECTOR.md, as Markdown, from tpsim vec's
# output today (the document doc-checks them against this script):
#
#   sh tests/vector/table.sh cycles        every example under each timing option
#   sh tests/vector/table.sh peaks         mops.W / peak_mops.W of peak_width.s
#   sh tests/vector/table.sh sweeps        R_inf.W and N_half.W of vadd_width.s
#   sh tests/vector/table.sh media         the media kernels' cycles on vmips
#   sh tests/vector/table.sh media-viram1  the same on viram1
#   sh tests/vector/table.sh media-widths  8-bit against 16-bit vector versions
#
# Run from the repository's root after make.
BUILD=${BUILD:-build}
V="$BUILD/bin/tpsim vec"
EX=examples/vector
M=$EX/media

# cyc ARGS...: the cycles a run prints, or "(VL n > MVL m)" when the program
# sets a vector length the machine does not have
cyc() {
    out=$($V "$@" 2>&1)
    c=$(printf '%s\n' "$out" | sed -n 's/^cycles: //p')
    if [ -n "$c" ]; then
        echo "$c"
    else
        printf '%s\n' "$out" | sed -n 's/.*R[0-9]* = \([0-9]*\) is outside 0\.\.MVL (\([0-9]*\)).*/(VL \1 > MVL \2)/p'
    fi
}
# stat NAME ARGS...: the value of the statistic NAME
stat() {
    n=$1
    shift
    $V "$@" 2>/dev/null | sed -n "s/^$n: //p"
}
# ratio A B: A / B to 3 significant digits
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3g\n", a / b }'; }

case "$1" in
cycles)
    echo '| example | textbook | textbook, `chaining=1` | pipelined | `chaining=1` | `lanes=4` | `lanes=4 chaining=1` | cray1 | viram1 |'
    echo '|---|---|---|---|---|---|---|---|---|'
    for e in daxpy daxpy_strip scale_strip chain stride gather cond cond_compress matmul; do
        f=$EX/$e.s
        row="| $e.s"
        for o in "-o timing=textbook" "-o timing=textbook -o chaining=1" "" "-o chaining=1" "-o lanes=4" \
            "-o lanes=4 -o chaining=1"; do
            # shellcheck disable=SC2086
            row="$row | $(cyc --config vmips $o $f)"
        done
        row="$row | $(cyc --config cray1 $f) | $(cyc --config viram1 $f) |"
        echo "$row"
    done
    ;;
peaks)
    echo '| | 8 bits | 16 bits | 32 bits | 64 bits |'
    echo '|---|---|---|---|---|'
    for c in vmips viram1; do
        row="| $c \`mops.W\` / \`peak_mops.W\`"
        for w in 8 16 32 64; do
            m=$(stat "mops.$w" --config $c --set W=$w $EX/peak_width.s)
            p=$(stat "peak_mops.$w" --config $c --set W=$w $EX/peak_width.s)
            if [ -n "$m" ]; then row="$row | $m / $p"; else row="$row | (no $w-bit mode)"; fi
        done
        echo "$row |"
    done
    ;;
sweeps)
    echo '| | 8 bits | 16 bits | 32 bits | 64 bits |'
    echo '|---|---|---|---|---|'
    for c in viram1 vmips; do
        top=1024
        [ $c = vmips ] && top=2048
        row="| $c R∞ (MOPS), N½"
        for w in 8 16 32 64; do
            out=$($V --config $c --set W=$w --sweep N=8..$top:8 --flops-per-element 1 $EX/vadd_width.s 2>/dev/null)
            r=$(printf '%s\n' "$out" | sed -n "s/^R_inf\.$w: \([0-9.]*\) MOPS.*/\1/p")
            n=$(printf '%s\n' "$out" | sed -n "s/^N_half\.$w: //p")
            if [ -n "$r" ]; then row="$row | $r, $n"; else row="$row | —"; fi
        done
        echo "$row |"
    done
    ;;
media)
    echo '| kernel | scalar | MMX | vector | vector, `chaining=1` | MMX speedup | vector speedup | vector ÷ MMX |'
    echo '|---|---|---|---|---|---|---|---|'
    for k in brightness conv sad transpose median haar; do
        s=$(cyc --config vmips $M/${k}_scalar.s)
        x=$(cyc --config vmips $M/${k}_mmx.s)
        v=$(cyc --config vmips $M/${k}_vec.s)
        vc=$(cyc --config vmips -o chaining=1 $M/${k}_vec.s)
        echo "| $k | $s | $x | $v | $vc | $(ratio $s $x) | $(ratio $s $v) | $(ratio $x $v) |"
    done
    ;;
media-viram1)
    echo '| kernel | vector program | cycles | over scalar | over MMX |'
    echo '|---|---|---|---|---|'
    for k in brightness conv sad transpose median haar; do
        f=${k}_vec16.s
        [ -f $M/$f ] || f=${k}_vec.s
        s=$(cyc --config viram1 $M/${k}_scalar.s)
        x=$(cyc --config viram1 $M/${k}_mmx.s)
        v=$(cyc --config viram1 $M/$f)
        echo "| $k | \`$f\` | $v | $(ratio $s $v) | $(ratio $x $v) |"
    done
    ;;
media-widths)
    echo '| kernel | 8 bits (`_vec.s`) | 16 bits (`_vec16.s`) | 8 bits faster by |'
    echo '|---|---|---|---|'
    for k in brightness conv sad transpose median haar; do
        [ -f $M/${k}_vec16.s ] || continue
        a=$(cyc --config vmips $M/${k}_vec.s)
        b=$(cyc --config vmips $M/${k}_vec16.s)
        echo "| $k | $a | $b | $(ratio $b $a) |"
    done
    ;;
*)
    echo "usage: sh tests/vector/table.sh cycles|peaks|sweeps|media|media-viram1|media-widths" >&2
    exit 2
    ;;
esac
