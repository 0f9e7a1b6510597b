// chase.cu -- memory latency by pointer chasing (tpsim's microbenchmarks,
// see README.md).  Compiled with: nvcc -ptx -arch=sm_75 -O3 (regen.sh).
//
// ub_chase: ONE thread (grid 1, block 1) follows a chain of 64-bit device
// addresses, p = *p, each load depending on the one before, so each access
// costs one full load-to-use latency.  The host lays the chain out: element
// k of a FOOTPRINT-byte region holds the address of element (k+1) mod n,
// n = FOOTPRINT / STRIDE, elements STRIDE bytes apart.  ubench.c derives
// the three footprints from the cache sizes it is given, and says there why
// each one hits where it should:
//   lat_l1_hit   footprint L1/2, stride one line: after the warm-up every
//                line is resident (n/sets <= ways lines per set), every
//                access hits L1;
//   lat_l2_hit   footprint 4 x L1 (<= L2/2), stride one line: each L1 set
//                sees 4 x ways lines in a cycle, so with LRU the line needed
//                next was always evicted (every access misses L1), while the
//                whole cycle fits in L2 (every access hits L2);
//   lat_dram     footprint 4 x L2, stride one line: the same argument one
//                level down, every access misses L2 as well.
//
// Timing: a warm-up pass of WARM steps (the host uses one full cycle, n
// steps, so every line has been touched and the caches hold what they hold
// in steady state; for the DRAM chase 2 x L2/line steps, which replace all
// the L2 held, the timed steps then reaching lines never touched), then a timed pass of STEPS steps between two clock64
// reads: cyc[0] = its length.  The host launches the kernel twice, with STEPS
// and 2 x STEPS, and reports (cyc(2 STEPS) - cyc(STEPS)) / STEPS
// cycles/access: the two launches run the same code, so the difference
// cancels every fixed cost exactly (the clock reads, the loop entry, and the
// latency of the warm-up's last load, which the first timed load waits for
// because the closing clock read does not depend on p).
//
// The loop body is 16 loads `ld.global.u64 p, [p]` (inline PTX: the default
// .ca operator caches in L1) and 3 loop-control instructions (add, setp,
// bra), which do not depend on p: they issue in the shadow of the 16th
// load's latency.  So a timing model should give, per access:
//   lat_l1_hit = the L1 hit load-to-use latency:  l1d.latency (plus any
//                fixed LD/ST pipeline stages the model puts before the tag
//                lookup, which it must document);
//   lat_l2_hit = the L1 miss path: l1d.latency (the lookup that misses)
//                + request over the crossbar: icnt.latency x core/icnt clock
//                + l2.latency + reply: icnt.latency x core/icnt clock
//                + ceil((128 + header) / icnt.flit_bytes) flit cycles
//                + the L1 fill and writeback;
//   lat_dram   = lat_l2_hit + dram.latency + the bank's command timing in
//                core cycles (x clock.core_mhz / clock.dram_mhz): tCL for a
//                row-buffer hit, tRP + tRCD + tCL for a row conflict, plus
//                dram.burst / dram.data_rate cycles of data.  Consecutive
//                lines 128 B apart fall mostly in open rows under a channel
//                interleave of addr.channel_interleave bytes, so lat_dram is
//                mostly the row-hit figure; a larger --stride changes that.
// In functional mode %clock64 counts warp instructions, so every value is
// (16 + 3) / 16 = 1.1875: the loop body per load (functional.expected).
// Result: out[0] = p at the end, which the host checks is element
// (WARM + STEPS) mod n.
#define REP4(s) s s s s
#define REP16(s) REP4(s) REP4(s) REP4(s) REP4(s)
#define CHASE asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));

extern "C" __global__ void ub_chase(unsigned long long start, int warm, int steps, unsigned long long *out,
                                    long long *cyc)
{
    unsigned long long p = start;
#pragma unroll 1
    for (int k = 0; k < warm; k += 16) {
        REP16(CHASE)
    }
    long long t = clock64();
#pragma unroll 1
    for (int k = 0; k < steps; k += 16) {
        REP16(CHASE)
    }
    t = clock64() - t;
    out[0] = p;
    cyc[0] = t;
}
