// shmem.cu -- shared-memory latency with d-way bank conflicts (tpsim's
// microbenchmarks, see README.md).  Compiled with: nvcc -ptx -arch=sm_75 -O3.
//
// ub_shmem: ONE warp (grid 1, block 32).  Lane l owns two words of a
// 2048-word shared array, w = l x STRIDE (mod 1024) and w + 1024, each
// holding the shared-window address of the other; every lane chases its
// pair, a = *a, so each access is one dependent ld.shared.u32 of all 32
// lanes at once.  Adding 1024 words keeps the bank, so every access of the
// chase has the same bank pattern: with B banks of 4 bytes (shmem.banks,
// 32 on the GTX 480) lane l hits bank (l x STRIDE) mod B, the 32 words are
// distinct, and the warp's access is a d-way conflict with
//   d = the most lanes sharing one bank = gcd(STRIDE, 32) when B = 32
// (strides 1, 2, 4, 8, 16, 32 give d = 1, 2, 4, 8, 16, 32; any odd stride
// gives 1).  The host computes d by counting, for any B.
//
// Timing as in chase.cu: a 17-step warm-up, a timed pass of STEPS steps,
// and the host reports (cyc(2 STEPS) - cyc(STEPS)) / STEPS cycles/access
// from two launches; the loop body is 16 loads and 3 loop-control
// instructions issued in the loads' shadow.
// A timing model that serialises a d-way conflict into d bank cycles should
// give
//   shmem_{d}way = shmem.latency + (d - 1)
// cycles/access (the conflict-free latency plus one cycle for each further
// access to the busiest bank; a model that replays the instruction instead
// adds its replay cost per extra access, and must say so).
// In functional mode every value is (16 + 3) / 16 = 1.1875.
// Result: out[l] = lane l's address at the end and out[32] = the array's
// shared-window address; after the 17 + STEPS steps, an odd number, the
// host checks that every lane is on its second word (so a load that returned
// its own address would be caught).
#define REP4(s) s s s s
#define REP16(s) REP4(s) REP4(s) REP4(s) REP4(s)
#define LDS asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));

extern "C" __global__ void ub_shmem(int stride, int steps, unsigned *out, long long *cyc)
{
    __shared__ unsigned sh[2048];
    unsigned base = (unsigned)__cvta_generic_to_shared(sh);
    unsigned w = (threadIdx.x * stride) & 1023;
    sh[w] = base + 4 * (w + 1024);
    sh[w + 1024] = base + 4 * w;
    __syncwarp();
    unsigned a = base + 4 * w;
    REP16(LDS) LDS
    long long t = clock64();
#pragma unroll 1
    for (int k = 0; k < steps; k += 16) {
        REP16(LDS)
    }
    t = clock64() - t;
    out[threadIdx.x] = a;
    if (threadIdx.x == 0) {
        out[32] = base;
        cyc[0] = t;
    }
}
