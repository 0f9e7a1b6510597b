#!/bin/sh
# run_hardware.sh -- the quick tests of the real-hardware suite
# (tests/hardware, tools/validate.sh --hardware); one "PASS hardware_NAME" or
# "FAIL hardware_NAME: reason" line each.  tests/run.sh runs it; by hand:
#
#   BUILD=build sh tests/hardware/run_hardware.sh
#
# - hardware_hw_KERNEL: every kernel of the suite, on the small sizes of
#   hwbench --check (partial blocks, every mask width, several block shapes),
#   with non-zero data, equals its CPU reference bit for bit (functional mode).
# - hardware_row_map: every row of tools/reference/rtx2060-nvbench.csv maps
#   to a kernel and parameters (hwbench --dry --row), except the three rows of
#   the 2-D tiled block-size series, which do not say their block sizes; a few
#   mappings are compared with what tools/reference/README.md implies.
# - hardware_rows: every line of rows.txt names exactly one CSV row.
# - hardware_quick_row: one small row (rows-quick.txt) through
#   tools/validate.sh --hardware in performance mode: the table's card time
#   is the CSV's, tpsim's time is the kept statistics' cycles plus launch_cycles (its own
#   column) at their clock.core_mhz, the error is their ratio - 1 (all exact to the digits
#   printed), and the program's event timing agrees with the cycles.
# HW_TIMEOUT (seconds, default 120) bounds each run when timeout(1) exists.
BUILD=${BUILD:-build}
here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
prog="$BUILD/tests/hardware/hwbench"
csv="$root/tools/reference/rtx2060-nvbench.csv"
limit=${HW_TIMEOUT:-120}

if [ ! -x "$prog" ]; then
    echo "FAIL hardware: $prog is not built (make unit)"
    exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP hardware: needs python3"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
to=""
command -v timeout >/dev/null 2>&1 && to="timeout $limit"

# 1. every kernel against the CPU, functional mode
names=$("$prog" --list | cut -d' ' -f1)
# shellcheck disable=SC2086
TPSIM_MODE=functional $to "$prog" --ptx "$here" --check >"$tmp/check" 2>"$tmp/check.err"
for n in $names; do
    line=$(grep -E "^(PASS|FAIL) ${n}[: ]" "$tmp/check" | head -n 1)
    case "$line" in
    PASS*) echo "PASS hardware_$n" ;;
    FAIL*) echo "FAIL hardware_$n: ${line#FAIL "$n": }" ;;
    *) echo "FAIL hardware_$n: no result: $(head -c 300 "$tmp/check.err" | tr '\n' ' ')" ;;
    esac
done

# 2. the CSV's rows into kernels
python3 - "$prog" "$csv" >"$tmp/map" 2>&1 <<'EOF'
import csv, subprocess, sys
prog, path = sys.argv[1:3]
mapped, refused, bad = 0, [], []
got = {}
for r in csv.DictReader(open(path)):
    p = subprocess.run([prog, "--dry", "--row", r["benchmark"], r["params"], r["num_elements"]],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode == 0:
        mapped += 1
        got[(r["benchmark"], r["params"], r["num_elements"])] = p.stdout.strip()
    elif "does not say its block sizes" in p.stderr:
        refused.append(r["benchmark"])
    else:
        bad.append("%s %s: %s" % (r["benchmark"], r["params"], p.stderr.strip()))
want = {
    ("Not Coalesced (Different Array Sizes)", "Axis Size=1024", "2097152"): "hw_add_not_coalesced n=1024",
    ("Convolution 1D Tiled and Caching (Different Block and Grid Sizes)",
     "Array size=67108864;Mask width=5;Block dim=64", "67108864"): "hw_conv1d_tiled_cache n=67108864 w=5 bs=64",
    ("Convolution 2D Constant Memory (Different Array Sizes)", "Mask width=5", "1048576"):
        "hw_conv2d_const n=1024 ch=1 w=5 t=16",
    ("Convolution 2D Tiled (Different Num Channels Sizes)", "Mask width=5", "50331648"):
        "hw_conv2d_tiled n=4096 ch=3 w=5 t=16",
    ("Convolution 2D Basic (Different Mask Sizes)", "Mask width=9", "67108864"): "hw_conv2d_basic n=8192 ch=1 w=9 t=16",
    ("Matrix Matrix Multiplication with Rectangular Tiles (Different Rows and Columns sizes)",
     "T=U32;Num Rows 1=512;Num Cols 1 / Rows 2=512;Num Cols 2=512;Num Threads=16", ""): "hw_mm_rect m=512 k=512 n=512 t=16",
    ("Matrix Vector Multiplication with Shared Memory (Different Grid and Block sizes)",
     "T=U32;Num Rows=4096;Num Cols=4096;Num Threads=8", "16781312"): "hw_mv_shared rows=4096 cols=4096 bs=8",
}
for k, v in want.items():
    if got.get(k) != v:
        bad.append("%s %s: %r, want %r" % (k[0], k[1], got.get(k), v))
if mapped != 290 or len(refused) != 3 or set(refused) != {"Convolution 2D Tiled (Different Block and Grid Sizes)"}:
    bad.append("%d rows mapped, %d refused (want 290 and the 3 of the 2-D tiled block-size series)"
               % (mapped, len(refused)))
print("ok" if not bad else "; ".join(bad[:3]))
EOF
if [ "$(cat "$tmp/map")" = ok ]; then echo "PASS hardware_row_map"
else echo "FAIL hardware_row_map: $(head -c 400 "$tmp/map" | tr '\n' ' ')"; fi

# 3. rows.txt against the CSV (validate_hw.py exits at the first line that does not match one row)
python3 -B - "$root" "$here/rows.txt" "$csv" >"$tmp/rows" 2>&1 <<'EOF'
import csv, sys
sys.path.insert(0, sys.argv[1] + "/tools")
import validate_hw
ref = list(csv.DictReader(open(sys.argv[3])))
rows = validate_hw.read_rows(sys.argv[2])
for r in rows:
    validate_hw.match(ref, r, sys.argv[2])
sets = {s: sum(r["set"] == s for r in rows) for s in validate_hw.SETS}
print("ok" if all(sets.values()) else "a set is empty: %r" % sets)
EOF
if [ "$(cat "$tmp/rows")" = ok ]; then echo "PASS hardware_rows"
else echo "FAIL hardware_rows: $(head -c 400 "$tmp/rows" | tr '\n' ' ')"; fi

# 4. one small row in performance mode through validate.sh --hardware
$to sh "$root/tools/validate.sh" --hardware --build "$BUILD" --rows "$here/rows-quick.txt" --keep "$tmp/keep" \
    >"$tmp/table" 2>"$tmp/table.err"
rc=$?
python3 - "$tmp/table" "$tmp/keep" "$csv" "$rc" >"$tmp/quick" 2>&1 <<'EOF'
import csv, glob, json, re, sys
table, keep, path, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lines = [l for l in open(table) if l.startswith("| tune | array_add |")]
ref = [r for r in csv.DictReader(open(path)) if r["benchmark"] == "Coalesced (Different Array Sizes)"
       and r["params"] == "Axis Size=512"][0]
base = glob.glob(keep + "/*.json")[0][:-5]
s = json.load(open(base + ".json"))
k = s["kernels"][-1]
mhz = float(s["config"]["clock.core_mhz"])
out = open(base + ".out").read()
m = re.search(r": ([0-9.]+) us, ok", out)
bad = []
if rc != 0 or len(lines) != 1:
    bad.append("exit status %d, %d table lines" % (rc, len(lines)))
else:
    f = [x.strip() for x in lines[0].strip().strip("|").split("|")]
    card = float(ref["batch_gpu_time_s"]) * 1e6
    # tpsim's time: the kernel's cycles and the launch overhead (launch_cycles, its own column)
    lc = k.get("launch_cycles", 0)
    tp = (k["cycles"] + lc) / mhz
    want = ["`hw_add_coalesced n=512`", "%.2f" % card, "%.2f" % tp, "%.2f" % (lc / mhz), "%+.1f%%" % (100 * (tp / card - 1))]
    if f[3:8] != want:
        bad.append("table says %r, want %r" % (f[3:8], want))
    if k["name"] != "hw_add_coalesced" or k["grid"] != [32, 32, 1] or k["block"] != [16, 16, 1] or k["cycles"] <= 0:
        bad.append("statistics: %s grid %r block %r cycles %r" % (k["name"], k["grid"], k["block"], k["cycles"]))
    # the events' time is printed to 0.001 us
    if not m or abs(float(m.group(1)) - tp) > 0.0005 + 1e-9:
        bad.append("event time %s us, cycles say %.4f us" % (m.group(1) if m else "?", tp))
    # the kernel-family summary: the one row's family, its mean |error| that row's
    fam = [l for l in open(table) if l.startswith("| array_add | Coalesced |")]
    want_fam = "| array_add | Coalesced | 1 | %.1f%% | %+.1f%% |\n" % (100 * abs(tp / card - 1), 100 * (tp / card - 1))
    if fam != [want_fam]:
        bad.append("family summary %r, want %r" % (fam, want_fam))
print("ok" if not bad else "; ".join(bad))
EOF
if [ "$(cat "$tmp/quick")" = ok ]; then echo "PASS hardware_quick_row"
else echo "FAIL hardware_quick_row: $(head -c 400 "$tmp/quick" | tr '\n' ' ') $(head -c 200 "$tmp/table.err" | tr '\n' ' ')"; fi
exit 0
