// int.cu -- integer kernels of tpsim's kernel suite (see README.md).
// Compiled with: nvcc -ptx -arch=sm_75 -o int.ptx int.cu
// Each kernel writes a fixed number of results per element; the host runner
// (kt_int.c) recomputes every one of them and compares bit for bit.
#include <stdint.h>

#define GTID (blockIdx.x * blockDim.x + threadIdx.x)

// ---- int_arith: the common 32- and 64-bit integer instructions -------------
#define ARITH32_N 24
#define ARITH64_N 16

extern "C" __global__ void int_arith(const uint32_t *a, const uint32_t *b, const uint32_t *cc,
                                     uint32_t *o, const uint64_t *a64, const uint64_t *b64,
                                     const uint64_t *c64, uint64_t *o64, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    uint32_t x = a[i], y = b[i], z = cc[i];
    uint32_t *r = o + (size_t)i * ARITH32_N;
    r[0] = x + y;
    r[1] = x - y;
    r[2] = x * y;
    r[3] = __mulhi((int)x, (int)y);
    r[4] = __umulhi(x, y);
    r[5] = x * y + z;                                   // mad.lo
    r[6] = min((int)x, (int)y);
    r[7] = max(x, y);
    r[8] = min(x, y);
    uint32_t t;
    asm("max.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y));  // C max() became setp+selp
    r[9] = t;
    asm("abs.s32 %0, %1;" : "=r"(t) : "r"(x));          // abs(INT_MIN) == INT_MIN
    r[10] = t;
    r[11] = 0u - x;                                     // neg
    r[12] = ~x;
    r[13] = (x & y) ^ (x | z);
    r[14] = (uint32_t)((int)x >> (y & 31));
    r[15] = x << (y & 31);
    r[16] = x >> (y & 31);
    r[17] = __sad((int)x, (int)y, z);
    r[18] = __usad(x, y, z);
    r[19] = ((int)x < (int)y) | (x < y) << 1 | (x == y) << 2 | ((int)x >= (int)z) << 3 |
            (x > z) << 4 | (y != z) << 5 | ((int)y <= (int)z) << 6 | (y >= z) << 7;
    asm("add.sat.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y));
    r[20] = t;
    asm("sub.sat.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y));
    r[21] = t;
    asm("mul24.lo.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y));
    r[22] = t;
    asm("mul24.hi.u32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(y));
    r[23] = t;

    uint64_t X = a64[i], Y = b64[i], Z = c64[i];
    uint64_t *q = o64 + (size_t)i * ARITH64_N;
    q[0] = X + Y;
    q[1] = X - Y;
    q[2] = X * Y + Z;
    q[3] = (uint64_t)__mul64hi((long long)X, (long long)Y);
    q[4] = __umul64hi(X, Y);
    q[5] = (uint64_t)min((long long)X, (long long)Y);
    asm("max.u64 %0, %1, %2;" : "=l"(q[6]) : "l"(X), "l"(Y));
    q[7] = (uint64_t)((long long)X >> (y & 63));
    q[8] = X << (y & 63);
    q[9] = X >> (y & 63);
    q[10] = (uint64_t)((long long)(int)x * (int)y);     // mul.wide.s32
    q[11] = (uint64_t)x * y;                            // mul.wide.u32
    uint64_t T;
    asm("abs.s64 %0, %1;" : "=l"(T) : "l"(X));
    q[12] = T;
    q[13] = 0ull - X;
    q[14] = ((long long)X < (long long)Y) | (X < Y) << 1 | (X == Z) << 2 | ((long long)Y >= (long long)Z) << 3;
    q[15] = (X ^ ~Y) & (Z | 0xff00ff00ff00ff00ull);
}

// ---- int_div / int_rem: division and remainder, signed and unsigned, 32/64 --
// Two kernels, so that nvcc emits rem.* itself instead of a - (a/b)*b.
// The host never passes a zero divisor (x/0 is unspecified in PTX).
extern "C" __global__ void int_div(const int32_t *a, const int32_t *b, const int64_t *a64,
                                   const int64_t *b64, uint32_t *o, uint64_t *o64, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    o[2 * i] = (uint32_t)(a[i] / b[i]);                 // div.s32 (INT_MIN / -1 included)
    o[2 * i + 1] = (uint32_t)a[i] / (uint32_t)b[i];     // div.u32
    o64[2 * i] = (uint64_t)(a64[i] / b64[i]);           // div.s64
    o64[2 * i + 1] = (uint64_t)a64[i] / (uint64_t)b64[i];
}

extern "C" __global__ void int_rem(const int32_t *a, const int32_t *b, const int64_t *a64,
                                   const int64_t *b64, uint32_t *o, uint64_t *o64, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    o[2 * i] = (uint32_t)(a[i] % b[i]);                 // rem.s32 (INT_MIN % -1 included)
    o[2 * i + 1] = (uint32_t)a[i] % (uint32_t)b[i];     // rem.u32
    o64[2 * i] = (uint64_t)(a64[i] % b64[i]);           // rem.s64
    o64[2 * i + 1] = (uint64_t)a64[i] % (uint64_t)b64[i];
}

// ---- int_shift: shifts by variable amounts past the width -------------------
// PTX clamps shift amounts greater than the width (shl/shr) -- C leaves them
// undefined, so the shifts are inline PTX.  The amount is a .u32 operand.
#define SHIFT_N 9
extern "C" __global__ void int_shift(const uint32_t *a, const uint64_t *a64, const uint32_t *amt,
                                     uint32_t *o, uint64_t *o64, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    uint32_t x = a[i], s = amt[i], t;
    uint64_t X = a64[i], T;
    asm("shl.b32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(s)); o[3 * i] = t;
    asm("shr.u32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(s)); o[3 * i + 1] = t;
    asm("shr.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(s)); o[3 * i + 2] = t;
    asm("shl.b64 %0, %1, %2;" : "=l"(T) : "l"(X), "r"(s)); o64[3 * i] = T;
    asm("shr.u64 %0, %1, %2;" : "=l"(T) : "l"(X), "r"(s)); o64[3 * i + 1] = T;
    asm("shr.s64 %0, %1, %2;" : "=l"(T) : "l"(X), "r"(s)); o64[3 * i + 2] = T;
}

// ---- int_bits: bit manipulation intrinsics and bfe/bfi/bfind ----------------
#define BITS_N 22
extern "C" __global__ void int_bits(const uint32_t *a, const uint32_t *b, const uint32_t *cc,
                                    const uint64_t *a64, uint32_t *o, uint64_t *o64, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    uint32_t x = a[i], y = b[i], z = cc[i], t;
    uint64_t X = a64[i], T;
    uint32_t *r = o + (size_t)i * BITS_N;
    r[0] = __popc(x);
    r[1] = __popcll(X);
    r[2] = __clz(x);
    r[3] = __clzll(X);
    r[4] = __ffs(x);
    r[5] = __ffsll(X);
    r[6] = __brev(x);
    r[7] = __byte_perm(x, y, z);                        // prmt with selector & 0x7777
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(z)); // sign-replicate bits too
    r[8] = t;
    r[9] = __funnelshift_l(x, y, z);                    // shf.l.wrap
    r[10] = __funnelshift_lc(x, y, z);                  // shf.l.clamp
    r[11] = __funnelshift_r(x, y, z);                   // shf.r.wrap
    r[12] = __funnelshift_rc(x, y, z);                  // shf.r.clamp
    // bfe/bfi take position and length from the low bytes of z (0..255 each).
    uint32_t pos = z & 0xff, len = (z >> 8) & 0xff;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(pos), "r"(len)); r[13] = t;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(pos), "r"(len)); r[14] = t;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(t) : "r"(x), "r"(y), "r"(pos), "r"(len)); r[15] = t;
    asm("bfind.u32 %0, %1;" : "=r"(t) : "r"(x)); r[16] = t;
    asm("bfind.s32 %0, %1;" : "=r"(t) : "r"(x)); r[17] = t;
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(t) : "r"(x)); r[18] = t;
    asm("bfind.u64 %0, %1;" : "=r"(t) : "l"(X)); r[19] = t;
    asm("popc.b32 %0, %1;" : "=r"(t) : "r"(x ^ y)); r[20] = t;
    asm("clz.b32 %0, %1;" : "=r"(t) : "r"(x & y)); r[21] = t;
    uint64_t *q = o64 + (size_t)i * 4;
    q[0] = __brevll(X);
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(T) : "l"(X), "r"(pos), "r"(len)); q[1] = T;
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(T) : "l"(X), "r"(pos), "r"(len)); q[2] = T;
    uint64_t Y = ((uint64_t)y << 32) | z;
    asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(T) : "l"(X), "l"(Y), "r"(pos), "r"(len)); q[3] = T;
}

// ---- int_select: selp, slct, set via inline PTX ----------------------------
extern "C" __global__ void int_select(const uint32_t *a, const uint32_t *b, const int32_t *cs,
                                      const float *cf, uint32_t *o, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    uint32_t x = a[i], y = b[i], t;
    int32_t c = cs[i];
    float f = cf[i];
    asm("{ .reg .pred p; setp.lt.s32 p, %3, 0; selp.b32 %0, %1, %2, p; }" : "=r"(t) : "r"(x), "r"(y), "r"(c));
    o[5 * i] = t;
    asm("slct.b32.s32 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "r"(c));
    o[5 * i + 1] = t;
    asm("slct.b32.f32 %0, %1, %2, %3;" : "=r"(t) : "r"(x), "r"(y), "f"(f));   // NaN selects b, -0 selects a
    o[5 * i + 2] = t;
    asm("set.lt.u32.s32 %0, %1, %2;" : "=r"(t) : "r"(x), "r"(c));            // 0xffffffff or 0
    o[5 * i + 3] = t;
    asm("set.gtu.f32.f32 %0, %1, 0f00000000;" : "=r"(t) : "f"(f));           // 1.0f or 0 (NaN: true)
    o[5 * i + 4] = t;
}

// ---- int_narrow: 8- and 16-bit loads, stores, arithmetic, conversions -------
extern "C" __global__ void int_narrow(const int8_t *s8, const uint8_t *u8, const int16_t *s16,
                                      const uint16_t *u16, int8_t *os8, uint16_t *ou16,
                                      int32_t *o, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    int8_t a = s8[i];
    uint8_t b = u8[i];
    int16_t c = s16[i];
    uint16_t d = u16[i];
    os8[i] = (int8_t)(a * 3 + (int8_t)b);               // wraps at 8 bits
    ou16[i] = (uint16_t)(d * (uint16_t)b + (uint16_t)c);
    o[4 * i] = a + b + c + d;                           // sign/zero extension
    o[4 * i + 1] = (int)c * (int)c;                     // mul.wide.s16
    o[4 * i + 2] = (int)(int16_t)(c >> 3) + (int)(uint16_t)(d >> 5);
    o[4 * i + 3] = (int)(int8_t)(uint8_t)(d + b);       // truncate then sign-extend
}

// ---- int_bignum: carry chains in inline PTX --------------------------------
// Each thread adds and subtracts two 256-bit numbers (8 limbs, least
// significant first) with add.cc/addc.cc/addc and sub.cc/subc.cc/subc, and
// multiplies the low 128 bits of each into a 256-bit product with the
// mad.lo.cc/madc.lo.cc/mad.hi.cc/madc.hi.cc row scheme.  A C++ unsigned
// __int128 multiply-add is added too: nvcc lowers it to mul.hi/add.cc/addc.cc.
extern "C" __global__ void int_bignum(const uint32_t *A, const uint32_t *B, uint32_t *S,
                                      uint32_t *D, uint32_t *P, uint64_t *W, int n)
{
    unsigned i = GTID;
    if (i >= (unsigned)n) return;
    const uint32_t *a = A + 8 * i, *b = B + 8 * i;
    uint32_t s[9], d[9];
    asm("add.cc.u32  %0, %9, %17;\n\t"
        "addc.cc.u32 %1, %10, %18;\n\t"
        "addc.cc.u32 %2, %11, %19;\n\t"
        "addc.cc.u32 %3, %12, %20;\n\t"
        "addc.cc.u32 %4, %13, %21;\n\t"
        "addc.cc.u32 %5, %14, %22;\n\t"
        "addc.cc.u32 %6, %15, %23;\n\t"
        "addc.cc.u32 %7, %16, %24;\n\t"
        "addc.u32    %8, 0, 0;"
        : "=r"(s[0]), "=r"(s[1]), "=r"(s[2]), "=r"(s[3]), "=r"(s[4]), "=r"(s[5]), "=r"(s[6]),
          "=r"(s[7]), "=r"(s[8])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]),
          "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
    asm("sub.cc.u32  %0, %9, %17;\n\t"
        "subc.cc.u32 %1, %10, %18;\n\t"
        "subc.cc.u32 %2, %11, %19;\n\t"
        "subc.cc.u32 %3, %12, %20;\n\t"
        "subc.cc.u32 %4, %13, %21;\n\t"
        "subc.cc.u32 %5, %14, %22;\n\t"
        "subc.cc.u32 %6, %15, %23;\n\t"
        "subc.cc.u32 %7, %16, %24;\n\t"
        "subc.u32    %8, 0, 0;"                         // 0 - 0 - borrow: 0 or 0xffffffff
        : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]),
          "=r"(d[7]), "=r"(d[8])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]),
          "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
    for (int k = 0; k < 9; k++) {
        S[9 * i + k] = s[k];
        D[9 * i + k] = d[k];
    }
    // 128 x 128 -> 256: row k adds a * b[k] << 32k into acc.
    uint32_t p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#define MULROW(k)                                                              \
    asm("mad.lo.cc.u32  %0, %6, %10, %0;\n\t"                                   \
        "madc.lo.cc.u32 %1, %7, %10, %1;\n\t"                                   \
        "madc.lo.cc.u32 %2, %8, %10, %2;\n\t"                                   \
        "madc.lo.cc.u32 %3, %9, %10, %3;\n\t"                                   \
        "addc.u32       %4, %4, 0;\n\t"                                         \
        "mad.hi.cc.u32  %1, %6, %10, %1;\n\t"                                   \
        "madc.hi.cc.u32 %2, %7, %10, %2;\n\t"                                   \
        "madc.hi.cc.u32 %3, %8, %10, %3;\n\t"                                   \
        "madc.hi.cc.u32 %4, %9, %10, %4;\n\t"                                   \
        "addc.u32       %5, %5, 0;"                                             \
        : "+r"(p[k]), "+r"(p[k + 1]), "+r"(p[k + 2]), "+r"(p[k + 3]), "+r"(p[k + 4]), "+r"(hi5) \
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[k]))
    uint32_t hi5 = 0;
    MULROW(0); p[5] += hi5; hi5 = 0;
    MULROW(1); p[6] += hi5; hi5 = 0;
    MULROW(2); p[7] += hi5; hi5 = 0;
    MULROW(3);                                          // the product fits: hi5 stays 0
    for (int k = 0; k < 8; k++) P[9 * i + k] = p[k];
    P[9 * i + 8] = hi5;
    // unsigned __int128: (X * Y + Z) and its sum with a 128-bit value.
    uint64_t X = ((uint64_t)a[1] << 32) | a[0], Y = ((uint64_t)b[1] << 32) | b[0];
    uint64_t Z = ((uint64_t)a[3] << 32) | a[2];
    unsigned __int128 w = (unsigned __int128)X * Y + Z;
    unsigned __int128 v = (((unsigned __int128)b[3] << 96) | ((unsigned __int128)b[2] << 64)) + w;
    W[4 * i] = (uint64_t)w;
    W[4 * i + 1] = (uint64_t)(w >> 64);
    W[4 * i + 2] = (uint64_t)v;
    W[4 * i + 3] = (uint64_t)(v >> 64);
}
