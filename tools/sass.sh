#!/bin/sh
# sass.sh -- the SASS that ptxas makes of a PTX file (sm_75 by default), to
# see what a register count of `ptxas -v` is made of (docs/REGISTERS.md).
#
#   sh tools/sass.sh FILE.ptx [KERNEL]
#   ARCH=sm_86 sh tools/sass.sh FILE.ptx
#
# CUDA 13 installs ptxas but no disassembler.  nvdisasm of CUDA 11.8 is in
# Debian bookworm's non-free package nvidia-cuda-toolkit; its binary alone
# is enough (no dependencies):
#   echo 'deb http://deb.debian.org/debian bookworm non-free' >/etc/apt/sources.list.d/nf.list
#   apt-get update && apt-get download nvidia-cuda-toolkit
#   dpkg-deb -x nvidia-cuda-toolkit_*.deb DIR   # then NVDISASM=DIR/usr/bin/nvdisasm
# That nvdisasm rejects the ELF header CUDA 13 writes (OS/ABI 0x41 and the
# architecture in e_flags bits 8-15, where 11.8 wrote OS/ABI 0x33 and the
# architecture in bits 0-7 and 16-23), so this script rewrites those header
# fields of a scratch copy of the cubin; the code sections are unchanged.
# Needs ptxas (PATH or /usr/local/cuda/bin), python3 and nvdisasm (NVDISASM,
# PATH, or /tmp/nvt/x/usr/bin/nvdisasm).  Not used by the tests.
set -e
[ $# -ge 1 ] || { echo "usage: sh tools/sass.sh FILE.ptx [KERNEL]" >&2; exit 2; }
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
NVDISASM=${NVDISASM:-$(command -v nvdisasm || echo /tmp/nvt/x/usr/bin/nvdisasm)}
[ -x "$PTXAS" ] || { echo "sass.sh: ptxas not found" >&2; exit 1; }
[ -x "$NVDISASM" ] || { echo "sass.sh: nvdisasm not found (see the comment at the top)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PTXAS" -arch="${ARCH:-sm_75}" "$1" -o "$tmp/k.cubin"
python3 - "$tmp/k.cubin" <<'EOF'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
if b[:4] != b"\x7fELF" or b[4] != 2:
    sys.exit("sass.sh: not a 64-bit ELF cubin")
if b[7] == 0x41:  # CUDA 12.8+ header: architecture in e_flags bits 8-15
    sm = (struct.unpack_from("<I", b, 48)[0] >> 8) & 0xFF
    b[7], b[8] = 0x33, 7
    struct.pack_into("<I", b, 48, sm | 0x05 << 8 | sm << 16)
    struct.pack_into("<I", b, 20, 118)
    open(p, "wb").write(b)
EOF
"$NVDISASM" -c "$tmp/k.cubin" >"$tmp/k.sass"
if [ -n "$2" ]; then
    # the section of that function only
    awk -v k="$2" '/^\/\/-+ \.text\./ { on = ($2 == ".text." k) } on' "$tmp/k.sass"
else
    cat "$tmp/k.sass"
fi
