#!/bin/sh
# perf_expect.sh CONFIG -- what each microbenchmark must measure in
# performance mode on configuration CONFIG (default gtx480), computed from
# that configuration's options (`tpsim config --show`) by the timing model's
# documented rules (docs/TIMING.md, docs/MEMORY.md).  One line per
# measurement: "NAME LOW HIGH FORMULA"; run_ubench.sh checks LOW <= value <=
# HIGH.
#
# Rules (each value is per operation, the loop's other instructions removed
# by the two-run difference the kernels use):
#   lat_C          a dependent chain issues every lat.C + 1 + wb cycles (one
#                  cycle of operand collection, wb = sm.wb_latency): exact
#   shmem_Dway     shmem.latency + 1 + wb + (D - 1): exact
#   lat_l1_hit     l1d.latency + 1 + wb: exact
#   lat_l2_hit     1 + l1d.miss_latency + the memory system's L2-hit round
#                  trip (hop + icnt.latency + l2.latency + hop + icnt.latency
#                  + the reply's extra flits, docs/MEMORY.md) + wb: within 2
#   lat_dram       lat_l2_hit + dram.latency + about tRCD + tCL + a burst in
#                  core cycles: within 15% (row hits and misses mix)
#   thr_C          one warp instruction every ii.C / pipes cycles, at least
#                  1 / schedulers: never faster than that (5% slack), and at
#                  most 30% slower: the loop's own instructions share the
#                  pipes, and an instruction waiting for a busy pipe holds an
#                  operand collector (sm.oc_sp), which can keep the loop's
#                  other instructions from issuing -- thr_int_div measures
#                  5.11 with 6 collectors and 4.01 with -o sm.oc_sp=32
#   bw_dram_*      at most the peak, channels x bus_bytes x data_rate bytes
#                  per DRAM cycle in core cycles; at least half of what
#                  refresh leaves of it (dram.tRFC of every dram.tREFI
#                  cycles: the read stream is bound by the L1 MSHRs' round
#                  trips, docs/MEMORY.md, and a refresh lengthens them)
TPSIM=${TPSIM:-build/bin/tpsim}
cfg=${1:-gtx480}
"$TPSIM" config --show "$cfg" | awk '
/^[A-Za-z_0-9.]+ = / { v[$1] = $3 }
function lat(k) { return v["lat." k] + 1 + v["sm.wb_latency"] }
function exact(n, x, f) { printf "%s %s %s %s\n", n, x, x, f }
function band(n, x, tol, f) { printf "%s %.4f %.4f %s\n", n, x * (1 - tol), x * (1 + tol), f }
function thr(n, c, pipes) {
    x = v["ii." c] / pipes; m = 1 / v["sm.schedulers"]; if (x < m) x = m
    printf "%s %.4f %.4f %s\n", n, x * 0.95, x * 1.30, "ii." c " / pipes"
}
END {
    exact("lat_int_add", lat("int_add"), "lat.int_add+1+wb")
    exact("lat_int_mul", lat("int_mul"), "lat.int_mul+1+wb")
    exact("lat_int_mad", lat("int_mad"), "lat.int_mad+1+wb")
    exact("lat_int_div", lat("int_div"), "lat.int_div+1+wb")
    exact("lat_fp32_add", lat("fp_add"), "lat.fp_add+1+wb")
    exact("lat_fp32_mul", lat("fp_mul"), "lat.fp_mul+1+wb")
    exact("lat_fp32_fma", lat("fp_mad"), "lat.fp_mad+1+wb")
    exact("lat_fp32_div", lat("fp_div"), "lat.fp_div+1+wb")
    exact("lat_fp64_add", lat("dp_add"), "lat.dp_add+1+wb")
    exact("lat_fp64_mul", lat("dp_mul"), "lat.dp_mul+1+wb")
    exact("lat_fp64_fma", lat("dp_mad"), "lat.dp_mad+1+wb")
    exact("lat_fp64_div", lat("dp_div"), "lat.dp_div+1+wb")
    exact("lat_sfu_sin", lat("sfu"), "lat.sfu+1+wb")
    exact("lat_sfu_rcp", lat("sfu"), "lat.sfu+1+wb")
    exact("lat_sfu_sqrt", lat("sfu"), "lat.sfu+1+wb")
    sp = v["sm.sp_units"]; ip = v["sm.int_units"] ? v["sm.int_units"] : sp; dp = v["sm.dp_units"] ? v["sm.dp_units"] : sp
    thr("thr_int_add", "int_add", ip); thr("thr_int_mul", "int_mul", ip); thr("thr_int_mad", "int_mad", ip)
    thr("thr_int_div", "int_div", ip)
    thr("thr_fp32_add", "fp_add", sp); thr("thr_fp32_mul", "fp_mul", sp); thr("thr_fp32_fma", "fp_mad", sp)
    thr("thr_fp32_div", "fp_div", sp)
    thr("thr_fp64_add", "dp_add", dp); thr("thr_fp64_mul", "dp_mul", dp); thr("thr_fp64_fma", "dp_mad", dp)
    thr("thr_fp64_div", "dp_div", dp)
    thr("thr_sfu_sin", "sfu", v["sm.sfu_units"]); thr("thr_sfu_rcp", "sfu", v["sm.sfu_units"]); thr("thr_sfu_sqrt", "sfu", v["sm.sfu_units"])
    split("1 2 4 8 16 32", d, " ")
    for (i = 1; i <= 6; i++) exact("shmem_" d[i] "way", v["shmem.latency"] + 1 + v["sm.wb_latency"] + d[i] - 1, "shmem.latency+wb+D")
    exact("lat_l1_hit", v["l1d.latency"] + 1 + v["sm.wb_latency"], "l1d.latency+1+wb")
    core = v["clock.core_mhz"]; icr = core / v["clock.icnt_mhz"]
    flits = int((128 + v["icnt.ctrl_bytes"] + v["icnt.flit_bytes"] - 1) / v["icnt.flit_bytes"])
    rt = (1 + v["icnt.latency"]) * icr * 2 + v["l2.latency"] + (flits - 1) * icr
    l2 = 1 + v["l1d.miss_latency"] + rt + v["sm.wb_latency"]
    printf "lat_l2_hit %.4f %.4f %s\n", l2 - 2, l2 + 2, "l1d.miss_latency+icnt+l2.latency+wb"
    dr = core / v["clock.dram_mhz"]
    dram = l2 + v["dram.latency"] + (v["dram.tRCD"] + v["dram.tCL"] + v["dram.burst"] / v["dram.data_rate"]) * dr
    band("lat_dram", dram, 0.15, "lat_l2_hit+dram.latency+tRCD+tCL+burst")
    peak = v["dram.channels"] * v["dram.bus_bytes"] * v["dram.data_rate"] * v["clock.dram_mhz"] / core
    left = (v["dram.refresh"] == "none" || v["dram.tREFI"] == 0) ? 1 : 1 - v["dram.tRFC"] / v["dram.tREFI"]
    printf "bw_dram_copy %.4f %.4f peak\n", peak * left / 2, peak
    printf "bw_dram_read %.4f %.4f peak\n", peak * left / 2, peak
}'
