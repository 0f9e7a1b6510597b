// kernargs.cu -- kernel parameters: every kind of scalar, structs with
// padding and alignment, vector types, an enum, pointers, a 4000-byte struct
// (the classic 4 KiB parameter limit) and a 12000-byte struct (CUDA 12.1's
// larger limit); launched with <<<...>>> and with cudaLaunchKernel and an
// argument array; a kernel without parameters.  The runtime must lay every
// argument out as the kernel's PTX parameter list says.
#include <cstdint>
#include <cstring>

#include "check.h"

struct Small {  // 1 + 7 padding + 8 + 2 + 6 padding = 24 bytes
    char c;
    double d;
    short s;
};

struct alignas(16) Aligned {  // 32 bytes, 16-aligned
    float4 v;
    int tag;
};

enum Color : short { RED = 1, GREEN = 2, BLUE = 700 };

struct Big {  // 4000 bytes
    int a[1000];
};

struct Huge {  // 12000 bytes
    unsigned long long q[1500];
};

struct Seen {  // what the kernel received, written back as is
    char c;
    bool b;
    short s;
    unsigned char uc;
    int i;
    unsigned u;
    long long ll;
    float f;
    double d;
    float2 f2;
    double2 d2;
    Small sm;
    Aligned al;
    Color col;
    int *ptr;
    char str[8];
};

__global__ void many(Seen *o, char c, bool b, short s, unsigned char uc, int i, unsigned u, long long ll, float f,
                     double d, float2 f2, double2 d2, Small sm, Aligned al, Color col, int *ptr, const char *str) {
    o->c = c;
    o->b = b;
    o->s = s;
    o->uc = uc;
    o->i = i;
    o->u = u;
    o->ll = ll;
    o->f = f;
    o->d = d;
    o->f2 = f2;
    o->d2 = d2;
    o->sm = sm;
    o->al = al;
    o->col = col;
    o->ptr = ptr;
    for (int k = 0; k < 8; k++)
        o->str[k] = str[k];
    *ptr = i + 1;
}

__global__ void big(int *out, Big b) {
    for (int k = threadIdx.x; k < 1000; k += blockDim.x)
        out[k] = b.a[k] * 2;
}

__global__ void huge(unsigned long long *out, Huge h, int scale) {
    for (int k = threadIdx.x; k < 1500; k += blockDim.x)
        out[k] = (h.q[k] ^ (unsigned long long)k) * (unsigned long long)scale;
}

__device__ int d_flag;
__global__ void noargs() { d_flag = 1234; }

template <typename T, int N> __global__ void tmpl(T *out, T base) { out[threadIdx.x] = base + (T)(N * threadIdx.x); }

static bool same_seen(const Seen &a, const Seen &b) {
    return a.c == b.c && a.b == b.b && a.s == b.s && a.uc == b.uc && a.i == b.i && a.u == b.u && a.ll == b.ll &&
           memcmp(&a.f, &b.f, 4) == 0 && memcmp(&a.d, &b.d, 8) == 0 && memcmp(&a.f2, &b.f2, 8) == 0 &&
           memcmp(&a.d2, &b.d2, 16) == 0 && a.sm.c == b.sm.c && memcmp(&a.sm.d, &b.sm.d, 8) == 0 &&
           a.sm.s == b.sm.s && memcmp(&a.al.v, &b.al.v, 16) == 0 && a.al.tag == b.al.tag && a.col == b.col &&
           a.ptr == b.ptr && memcmp(a.str, b.str, 8) == 0;
}

static void print_seen(const char *what, const Seen &x) {
    fprintf(stderr, "%s: c=%d b=%d s=%d uc=%u i=%d u=%u ll=%lld f=%a d=%a f2=(%a,%a) d2=(%a,%a) sm=(%d,%a,%d) "
                    "al=(%a,%a,%a,%a,%d) col=%d ptr=%p str=%.8s\n",
            what, x.c, x.b, x.s, x.uc, x.i, x.u, x.ll, x.f, x.d, x.f2.x, x.f2.y, x.d2.x, x.d2.y, x.sm.c, x.sm.d,
            x.sm.s, x.al.v.x, x.al.v.y, x.al.v.z, x.al.v.w, x.al.tag, (int)x.col, (void *)x.ptr, x.str);
}

int main() {
    ck_start("kernargs");
    Seen *d_seen, got;
    int *d_int, hint = 0;
    char *d_str;
    CK(cudaMalloc(&d_seen, sizeof(Seen)));
    CK(cudaMalloc(&d_int, sizeof(int)));
    CK(cudaMalloc(&d_str, 8));
    CK(cudaMemcpy(d_str, "tpsim!?", 8, cudaMemcpyHostToDevice));

    Seen want;
    memset(&want, 0, sizeof want);
    want.c = -5;
    want.b = true;
    want.s = -31000;
    want.uc = 250;
    want.i = -2000000000;
    want.u = 4000000000u;
    want.ll = -9000000000000000000LL;
    want.f = -1.5e-30f;
    want.d = 6.02214076e23;
    want.f2 = make_float2(1.25f, -2.5f);
    want.d2 = make_double2(1e-300, -7.0);
    want.sm.c = 'q';
    want.sm.d = 3.0e100;
    want.sm.s = 12345;
    want.al.v = make_float4(1, 2, 3, 4);
    want.al.tag = 0x5eed;
    want.col = BLUE;
    want.ptr = d_int;
    memcpy(want.str, "tpsim!?", 8);

    // <<<...>>>
    CK(cudaMemset(d_seen, 0, sizeof(Seen)));
    many<<<1, 1>>>(d_seen, want.c, want.b, want.s, want.uc, want.i, want.u, want.ll, want.f, want.d, want.f2,
                   want.d2, want.sm, want.al, want.col, want.ptr, d_str);
    CK_LAUNCH();
    CK(cudaMemcpy(&got, d_seen, sizeof got, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hint, d_int, sizeof hint, cudaMemcpyDeviceToHost));
    if (!same_seen(got, want)) {
        print_seen("got     ", got);
        print_seen("expected", want);
    }
    EXPECT(same_seen(got, want), "<<<>>>: the kernel saw other argument values (above)");
    EXPECT(hint == want.i + 1, "*ptr = %d", hint);

    // cudaLaunchKernel with an argument array, other values.
    want.c = 7;
    want.b = false;
    want.i = 77;
    want.d = -0.0;
    want.col = GREEN;
    want.sm.s = -1;
    const char *str_arg = d_str;
    void *args[] = {&d_seen, &want.c, &want.b, &want.s, &want.uc, &want.i, &want.u, &want.ll, &want.f,
                    &want.d, &want.f2, &want.d2, &want.sm, &want.al, &want.col, &want.ptr, &str_arg};
    CK(cudaMemset(d_seen, 0, sizeof(Seen)));
    CK(cudaLaunchKernel((const void *)many, dim3(1), dim3(1), args, 0, 0));
    CK(cudaMemcpy(&got, d_seen, sizeof got, cudaMemcpyDeviceToHost));
    if (!same_seen(got, want)) {
        print_seen("got     ", got);
        print_seen("expected", want);
    }
    EXPECT(same_seen(got, want), "cudaLaunchKernel: the kernel saw other argument values (above)");

    // 4000 bytes by value.
    Big b;
    for (int k = 0; k < 1000; k++)
        b.a[k] = k * 3 - 1500;
    int *d_big, hb[1000];
    CK(cudaMalloc(&d_big, sizeof hb));
    big<<<1, 128>>>(d_big, b);
    CK_LAUNCH();
    CK(cudaMemcpy(hb, d_big, sizeof hb, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int k = 0; k < 1000; k++)
        if (hb[k] != b.a[k] * 2 && bad++ < 3)
            EXPECT(false, "big: out[%d] = %d, expected %d", k, hb[k], b.a[k] * 2);

    // 12000 bytes by value (CUDA 12.1+: up to 32764 bytes of parameters).
    static Huge h;
    for (int k = 0; k < 1500; k++)
        h.q[k] = 0x0101010101010101ULL * (unsigned long long)(k % 251) + (unsigned long long)k * 0x10000;
    unsigned long long *d_huge;
    static unsigned long long hh[1500];
    CK(cudaMalloc(&d_huge, sizeof hh));
    huge<<<1, 256>>>(d_huge, h, 3);
    CK_LAUNCH();
    CK(cudaMemcpy(hh, d_huge, sizeof hh, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 1500; k++)
        if (hh[k] != (h.q[k] ^ (unsigned long long)k) * 3ULL && bad++ < 6)
            EXPECT(false, "huge: out[%d] = %llx, expected %llx", k, hh[k], (h.q[k] ^ (unsigned long long)k) * 3ULL);

    // No parameters; and template instances through cudaLaunchKernel.
    noargs<<<1, 1>>>();
    CK_LAUNCH();
    int flag = 0;
    CK(cudaMemcpyFromSymbol(&flag, d_flag, sizeof flag));
    EXPECT(flag == 1234, "noargs: d_flag = %d", flag);
    double *d_t, ht[32];
    CK(cudaMalloc(&d_t, sizeof ht));
    double base = 0.5;
    void *targs[] = {&d_t, &base};
    CK(cudaLaunchKernel((const void *)tmpl<double, 3>, dim3(1), dim3(32), targs, 0, 0));
    CK(cudaMemcpy(ht, d_t, sizeof ht, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(ht[t] == 0.5 + 3 * t, "tmpl<double, 3>: out[%d] = %g", t, ht[t]);
    tmpl<short, 5><<<1, 32>>>((short *)d_t, (short)-100);
    CK_LAUNCH();
    short hs[32];
    CK(cudaMemcpy(hs, d_t, sizeof hs, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(hs[t] == -100 + 5 * t, "tmpl<short, 5>: out[%d] = %d", t, hs[t]);
    printf("scalars, structs, vectors, enum, pointers; 4000- and 12000-byte structs; cudaLaunchKernel: %s\n",
           ck_failures ? "wrong" : "ok");

    CK(cudaFree(d_seen));
    CK(cudaFree(d_int));
    CK(cudaFree(d_str));
    CK(cudaFree(d_big));
    CK(cudaFree(d_huge));
    CK(cudaFree(d_t));
    return ck_finish();
}
