#!/bin/sh
# latency.sh -- tpsim's rtx2060 latencies, as tests/ubench's microbenchmarks
# measure them in performance mode, beside the published figures for Turing
# (the Markdown table of docs/VALIDATION.md, "Against real hardware", which
# doc-checks it against this output):
#
#   sh tests/hardware/latency.sh          (after make unit; about a second)
#
# The chases' footprints are derived from the rtx2060 caches (--l1 32k
# --l1-assoc 64 --l2 3M: the L1 chase fits half the L1, the L2 chase 4 x the
# L1, the DRAM chase 4 x the L2).  Published: Jia, Maggioni, Smith,
# Scarpazza, "Dissecting the NVIDIA Turing T4 GPU via Microbenchmarking",
# arXiv:1903.07486 (2019), on a T4 (TU104), and the TU106 clock() figures
# configs/rtx2060.cfg cites as [MB] (shared 23, L2 236); the ranges are those
# of tools/reference/README.md.  Both are clock() differences around a
# dependent chain, as the microbenchmarks are.
BUILD=${BUILD:-build}
here=$(dirname "$0")
ub="$BUILD/tests/ubench/ubench"
[ -x "$ub" ] || { echo "latency.sh: $ub is not built (make unit)" >&2; exit 2; }
TPSIM_MODE=performance TPSIM_CONFIG=rtx2060 "$ub" --ptx "$here/../ubench" \
    --only 'lat_l1_hit,shmem_1way,lat_l2_hit,lat_dram,lat_fp32_fma' --l1 32k --l1-assoc 64 --l2 3M |
    awk '
BEGIN {
    what["lat_l1_hit"] = "L1 hit";          pub["lat_l1_hit"] = "32"
    what["shmem_1way"] = "shared memory";   pub["shmem_1way"] = "19-23"
    what["lat_l2_hit"] = "L2 hit";          pub["lat_l2_hit"] = "188-236"
    what["lat_dram"] = "DRAM";              pub["lat_dram"] = "300-320"
    what["lat_fp32_fma"] = "FFMA, dependent"; pub["lat_fp32_fma"] = "4"
    n = split("lat_l1_hit shmem_1way lat_l2_hit lat_dram lat_fp32_fma", order, " ")
}
{ v[$1] = $2 }
END {
    print "| latency (cycles) | microbenchmark | tpsim rtx2060 | published Turing |"
    print "|---|---|---:|---:|"
    for (i = 1; i <= n; i++) {
        k = order[i]
        if (!(k in v)) { print "latency.sh: no " k " measured" > "/dev/stderr"; exit 1 }
        printf "| %s | `%s` | %d | %s |\n", what[k], k, v[k] + 0.5, pub[k]
    }
}'
