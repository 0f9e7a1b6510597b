// alu.cu -- instruction latency and throughput per operation class (tpsim's
// microbenchmarks, see README.md).  Compiled with: nvcc -ptx -arch=sm_75 -O3.
//
// For every class C below there are two kernels, made by one macro so they
// differ only in the operation:
//   lat_C: ONE warp (grid 1, block 32).  Each lane runs one dependent chain
//          x = op(x, ...), straight-line code without a loop: 32 operations
//          of warm-up (the first waits for x's load), a clock64 read, 128
//          operations, a clock64 read, 256 operations, a clock64 read.
//   thr_C: ONE CTA of W warps (the host uses 16: 8 per scheduler), so one
//          SM.  Each lane runs K = 4 independent chains interleaved: a
//          warm-up of 4 x 4 operations, then a timed pass of N loop
//          iterations of 4 x 32 = 128 operations each, enough independent
//          work for every class's latency x throughput product.  The pass
//          starts at a barrier and ends at one; every warp reads clock64
//          after each, and lane 0 of each warp folds them into span[0] =
//          min(start) and span[1] = max(end) with global 64-bit atomics, so
//          all W warps' work lies inside the span however they are
//          scheduled.
// The operation is inline PTX (asm volatile), so nvcc can neither fold,
// reorder, contract nor strength-reduce the chain: the PTX holds exactly the
// instruction named below, and in thr_C's loop it is followed by the 3
// loop-control instructions (add, setp, bra); `#pragma unroll 1` keeps the
// loop as written.
//
// Timing: lat_C writes the lengths of its two timed parts, cyc[0] (128
// operations) and cyc[1] (256); the host reports (cyc[1] - cyc[0]) / 128.
// thr_C is launched twice, with N and 2N iterations, and the host reports
// (span(2N) - span(N)) / (W x N x 128).  Both differences cancel the fixed
// costs (the clock reads, the loop entry, the tail of the operations
// before: see chase.cu):
//   lat_C  cycles per dependent operation;
//   thr_C  cycles per warp instruction of class C on one SM.
// What a timing model should give (options of gpu/options.def; a class
// runs on pipeline P(C): SP for integer and FP32 (sm.int_units integer
// pipelines instead when nonzero), DP for FP64 (the SP pipelines when
// sm.dp_units = 0), SFU for sin/rcp/sqrt; n(P) = the number of pipelines):
//   lat_C = lat.C  (each operation issues the cycle its producer's result
//           is ready; nothing else runs in between);
//   thr_C = max( (128 ii.C + o_P ii.int_add) / 128 / n(P(C)),
//                (128 + 3) / 128 / (sm.schedulers x sm.issue_width) )
//           where o_P counts the loop-control instructions on the same
//           pipelines (add and setp are integer ALU work: o_P = 2 when P is
//           SP, else 0): the pipelines' initiation interval shared among
//           them, or the issue limit, whichever binds.
// GTX 480 values (configs/gtx480.cfg; 2 SP pipelines, 1 SFU, FP64 on SP,
// 2 schedulers issuing 1 each):
//   class      PTX                    lat  ii   thr (cycles/warp-op)
//   int_add    add.s32                  4   1   max(130/256, 131/256) = 0.512
//   int_mul    mul.lo.s32               4   2   (2x128 + 2) / 256     = 1.008
//   int_mad    mad.lo.s32               5   1   0.512
//   int_div    div.u32                145   8   (8x128 + 2) / 256     = 4.008
//   fp32_add   add.rn.f32               4   1   0.512
//   fp32_mul   mul.rn.f32               4   1   0.512
//   fp32_fma   fma.rn.f32               5   1   0.512
//   fp32_div   div.rn.f32              39   4   (4x128 + 2) / 256     = 2.008
//   fp64_add   add.rn.f64               8   8   (8x128 + 2) / 256     = 4.008
//   fp64_mul   mul.rn.f64               8   8   4.008
//   fp64_fma   fma.rn.f64               8   8   4.008
//   fp64_div   div.rn.f64             330 130   (130x128 + 2) / 256   = 65.008
//   sfu_sin    sin.approx.f32          20   8   8 x 128 / 128 / 1     = 8
//   sfu_rcp    rcp.approx.f32          20   8   8
//   sfu_sqrt   sqrt.approx.f32         20   8   8
// (lat.sfu and ii.sfu are tpsim's own choices, not published figures.)
// In functional mode %clock64 counts warp instructions, so lat_C = 1 and
// thr_C = (128 + 3) / 128 = 1.0234, exactly (functional.expected).
// Results: out[] holds every chain's final value; the host repeats each
// chain exactly (integer, IEEE float and double), or within the PTX ISA's
// error bound per operation for the approximate SFU functions.
#define REP4(s) s s s s
#define REP16(s) REP4(s) REP4(s) REP4(s) REP4(s)
#define REP32(s) REP16(s) REP16(s)
#define REP128(s) REP32(s) REP32(s) REP32(s) REP32(s)

// UB_ALU(C, T, KEEP, OP): the two kernels of class C on values of type T;
// OP(x) is one operation on chain x, using the uniform operands y and z.
// KEEP(v) passes v through an empty asm volatile, so nvcc must hold y and z
// in registers: it cannot re-execute the asm, and without it nvcc re-reads
// kernel parameters inside the loop when registers are scarce (3-operand and
// f64 classes), which would put ld.param instructions in the timed loop.
#define UB_ALU(C, T, KEEP, OP)                                                                        \
    extern "C" __global__ void lat_##C(const T *in, T *out, long long *cyc, T y, T z)          \
    {                                                                                           \
        T x = in[threadIdx.x];                                                                  \
        KEEP(y) KEEP(z)                                                                         \
        REP32(OP(x))                                                                            \
        long long t0 = clock64();                                                               \
        REP128(OP(x))                                                                           \
        long long t1 = clock64();                                                               \
        REP128(OP(x)) REP128(OP(x))                                                             \
        long long t2 = clock64();                                                               \
        out[threadIdx.x] = x;                                                                   \
        if (threadIdx.x == 0) {                                                                 \
            cyc[0] = t1 - t0;                                                                   \
            cyc[1] = t2 - t1;                                                                   \
        }                                                                                       \
    }                                                                                           \
    extern "C" __global__ void thr_##C(const T *in, T *out, unsigned long long *span, int iters, T y, T z) \
    {                                                                                           \
        unsigned id = threadIdx.x;                                                              \
        T x0 = in[4 * id], x1 = in[4 * id + 1], x2 = in[4 * id + 2], x3 = in[4 * id + 3];       \
        KEEP(y) KEEP(z)                                                                         \
        REP4(OP(x0) OP(x1) OP(x2) OP(x3))                                                       \
        __syncthreads();                                                                        \
        unsigned long long t = clock64();                                                       \
        if ((id & 31) == 0) atomicMin(&span[0], t);                                             \
        _Pragma("unroll 1") for (int i = 0; i < iters; i++) { REP32(OP(x0) OP(x1) OP(x2) OP(x3)) } \
        __syncthreads();                                                                        \
        t = clock64();                                                                          \
        if ((id & 31) == 0) atomicMax(&span[1], t);                                             \
        out[4 * id] = x0;                                                                       \
        out[4 * id + 1] = x1;                                                                   \
        out[4 * id + 2] = x2;                                                                   \
        out[4 * id + 3] = x3;                                                                   \
    }

#define OP_INT_ADD(x) asm volatile("add.s32 %0, %0, %1;" : "+r"(x) : "r"(y));
#define OP_INT_MUL(x) asm volatile("mul.lo.s32 %0, %0, %1;" : "+r"(x) : "r"(y));
#define OP_INT_MAD(x) asm volatile("mad.lo.s32 %0, %0, %1, %2;" : "+r"(x) : "r"(y), "r"(z));
#define OP_INT_DIV(x) asm volatile("div.u32 %0, %1, %0;" : "+r"(x) : "r"(y));
#define OP_FP32_ADD(x) asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
#define OP_FP32_MUL(x) asm volatile("mul.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
#define OP_FP32_FMA(x) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(z));
#define OP_FP32_DIV(x) asm volatile("div.rn.f32 %0, %1, %0;" : "+f"(x) : "f"(y));
#define OP_FP64_ADD(x) asm volatile("add.rn.f64 %0, %0, %1;" : "+d"(x) : "d"(y));
#define OP_FP64_MUL(x) asm volatile("mul.rn.f64 %0, %0, %1;" : "+d"(x) : "d"(y));
#define OP_FP64_FMA(x) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(y), "d"(z));
#define OP_FP64_DIV(x) asm volatile("div.rn.f64 %0, %1, %0;" : "+d"(x) : "d"(y));
#define OP_SFU_SIN(x) asm volatile("sin.approx.f32 %0, %0;" : "+f"(x));
#define OP_SFU_RCP(x) asm volatile("rcp.approx.f32 %0, %0;" : "+f"(x));
#define OP_SFU_SQRT(x) asm volatile("sqrt.approx.f32 %0, %0;" : "+f"(x));

#define KEEP32(v) asm volatile("mov.b32 %0, %0;" : "+r"(v));
#define KEEPF(v) asm volatile("mov.b32 %0, %0;" : "+f"(v));
#define KEEPD(v) asm volatile("mov.b64 %0, %0;" : "+d"(v));

UB_ALU(int_add, unsigned, KEEP32, OP_INT_ADD)
UB_ALU(int_mul, unsigned, KEEP32, OP_INT_MUL)
UB_ALU(int_mad, unsigned, KEEP32, OP_INT_MAD)
UB_ALU(int_div, unsigned, KEEP32, OP_INT_DIV)
UB_ALU(fp32_add, float, KEEPF, OP_FP32_ADD)
UB_ALU(fp32_mul, float, KEEPF, OP_FP32_MUL)
UB_ALU(fp32_fma, float, KEEPF, OP_FP32_FMA)
UB_ALU(fp32_div, float, KEEPF, OP_FP32_DIV)
UB_ALU(fp64_add, double, KEEPD, OP_FP64_ADD)
UB_ALU(fp64_mul, double, KEEPD, OP_FP64_MUL)
UB_ALU(fp64_fma, double, KEEPD, OP_FP64_FMA)
UB_ALU(fp64_div, double, KEEPD, OP_FP64_DIV)
UB_ALU(sfu_sin, float, KEEPF, OP_SFU_SIN)
UB_ALU(sfu_rcp, float, KEEPF, OP_SFU_RCP)
UB_ALU(sfu_sqrt, float, KEEPF, OP_SFU_SQRT)
