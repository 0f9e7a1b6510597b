// texture.cu -- texture and surface objects, the common 1D and 2D cases.
//
// Covers: cudaCreateTextureObject over linear memory (tex1Dfetch of int,
// float4, and unsigned char read as a normalized float), over pitched
// linear memory (tex2D), over 1D and 2D cudaArrays (tex1D, tex2D) with
// point and linear filtering, clamp, wrap and border addressing,
// unnormalized and normalized coordinates; cudaMallocArray,
// cudaMemcpy2DToArray/FromArray, cudaGetTextureObjectResourceDesc;
// cudaCreateSurfaceObject with surf2Dwrite/surf2Dread, and a texture read
// of what the surface wrote.
//
// The expected values follow the CUDA programming guide's texture fetching
// appendix: point sampling returns T[floor(x)]; linear filtering returns
// (1-a)T[i] + a T[i+1] with xB = x - 0.5, i = floor(xB), a = frac(xB), and
// in 2D the bilinear blend of four texels, where a (and b in y) are held in
// 9-bit fixed point with 8 fractional bits and the four weights are rounded
// to 1/256 as well (measured on a real GPU: blend2).  Normalized coordinates are
// multiplied by the size first; wrap replaces x by frac(x); clamp and wrap
// are applied to texel indices.  Most coordinates are multiples of 1/256
// of a texel, so the weights are exact; for the others the result must lie
// between the results with the weights rounded down and up to 1/256.  The
// filtered values are compared within 2^-16 (texel values are within
// +-8), the hardware's arithmetic order not being specified; point
// samples and fetches are exact.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "check.h"

// ---- kernels ------------------------------------------------------------

__global__ void fetch_int(int *out, cudaTextureObject_t t, const int *idx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<int>(t, idx[i]);
}

__global__ void fetch_float4(float4 *out, cudaTextureObject_t t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float4>(t, n - 1 - i);
}

__global__ void fetch_norm(float *out, cudaTextureObject_t t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, i);
}

__global__ void sample1d(float *out, cudaTextureObject_t t, const float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1D<float>(t, x[i]);
}

__global__ void sample2d(float *out, cudaTextureObject_t t, const float2 *xy, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, xy[i].x, xy[i].y);
}

// s[y][x] = x * 16 + y + 0.5, written through the surface (byte x offsets).
__global__ void surf_write(cudaSurfaceObject_t s, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h)
        surf2Dwrite((float)(x * 16 + y) + 0.5f, s, x * (int)sizeof(float), y);
}

// Reads the surface back: out[y*w + x] = s[y][x] * 2 (and writes s[y][x] + 1).
__global__ void surf_read_modify(float *out, cudaSurfaceObject_t s, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float v;
        surf2Dread(&v, s, x * (int)sizeof(float), y);
        out[y * w + x] = v * 2.0f;
        surf2Dwrite(v + 1.0f, s, x * (int)sizeof(float), y);
    }
}

// ---- the CPU model ------------------------------------------------------

enum Addr { CLAMP, WRAP, BORDER };

// The texel at integer index i of an n-texel dimension, after addressing;
// -1 means "outside, border colour".
static int address(int i, int n, Addr a) {
    if (a == CLAMP)
        return std::min(std::max(i, 0), n - 1);
    if (a == WRAP)
        return ((i % n) + n) % n;
    return i < 0 || i >= n ? -1 : i;
}

// The texel-space coordinate of x: normalized coordinates are scaled by n,
// after wrap's frac.  (All the normalized coordinates here are exact
// multiples of 1/(n*256), so these float operations are exact.)
static float texel_coord(float x, int n, bool normalized, Addr a) {
    if (normalized) {
        if (a == WRAP)
            x -= floorf(x);
        x *= (float)n;
    }
    return x;
}

struct Tex2 {  // a 2D table, row-major: T[y][x]
    const float *t;
    int w, h;
    float at(int x, int y, Addr a) const {
        int ix = address(x, w, a), iy = address(y, h, a);
        return ix < 0 || iy < 0 ? 0.0f : t[iy * w + ix];
    }
};

static float point2(const Tex2 &T, float x, float y, bool norm, Addr a) {
    x = texel_coord(x, T.w, norm, a);
    y = texel_coord(y, T.h, norm, a);
    return T.at((int)floorf(x), (int)floorf(y), a);
}

// Bilinear blend with weights A/256, B/256.  The four weights are integers
// of 1/256 as well, rounded so that they sum to 1: the far corner's
// W11 = (A*B + 128) >> 8, the others A - W11, B - W11, 256 - A - B + W11.
// (The guide gives only the 1-D weight's 8 fractional bits; this rule is
// measured: tools/device/probe_api.cu's impulse on an H200 matches it at
// every point, the plain products (1-a)(1-b)... miss a third of them.)
static double blend2(const Tex2 &T, int i, int j, int A, int B, Addr m) {
    int W11 = (A * B + 128) >> 8;
    return ((256 - A - B + W11) * (double)T.at(i, j, m) + (A - W11) * (double)T.at(i + 1, j, m) +
            (B - W11) * (double)T.at(i, j + 1, m) + W11 * (double)T.at(i + 1, j + 1, m)) /
           256;
}

// The range of results the rule allows: [lo, hi] over the 1-D weights
// rounded down or up to 1/256 (equal when they are exact).
static void linear2(const Tex2 &T, float x, float y, bool norm, Addr m, double *lo, double *hi) {
    float xb = texel_coord(x, T.w, norm, m) - 0.5f, yb = texel_coord(y, T.h, norm, m) - 0.5f;
    float fx = floorf(xb), fy = floorf(yb);
    double ax = ((double)xb - fx) * 256, ay = ((double)yb - fy) * 256;
    int as[2] = {(int)floor(ax), (int)ceil(ax)}, bs[2] = {(int)floor(ay), (int)ceil(ay)};
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int a : as)
        for (int b : bs) {
            double v = blend2(T, (int)fx, (int)fy, a, b, m);
            *lo = std::min(*lo, v);
            *hi = std::max(*hi, v);
        }
}

// ---- helpers ------------------------------------------------------------

static cudaTextureObject_t make_tex(const cudaResourceDesc &res, Addr a, bool linear, bool norm,
                                    cudaTextureReadMode mode = cudaReadModeElementType) {
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    cudaTextureAddressMode am = a == CLAMP ? cudaAddressModeClamp : a == WRAP ? cudaAddressModeWrap
                                                                              : cudaAddressModeBorder;
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = mode;
    td.normalizedCoords = norm;
    cudaTextureObject_t t = 0;
    CK(cudaCreateTextureObject(&t, &res, &td, nullptr));
    return t;
}

static const double TOL = 1.0 / 65536;

// Samples a 1D texture (a 1 x n Tex2) at xs on the device and checks.
static void check1d(const char *what, cudaTextureObject_t t, const Tex2 &T, const std::vector<float> &xs,
                    Addr a, bool linear, bool norm) {
    int n = (int)xs.size();
    float *d_x, *d_out;
    CK(cudaMalloc(&d_x, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMemcpy(d_x, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    sample1d<<<(n + 127) / 128, 128>>>(d_out, t, d_x, n);
    CK_LAUNCH();
    std::vector<float> got(n);
    CK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double lo, hi;
        if (linear) {
            // 1D: the y weight is 0 with y = 0.5 in a 1-texel-high table
            // (y is not used; row 0 only).
            linear2(T, xs[i], norm ? 0.5f / T.h : 0.5f, norm, a, &lo, &hi);
        } else {
            lo = hi = point2(T, xs[i], norm ? 0.5f / T.h : 0.5f, norm, a);
        }
        double tol = linear ? TOL : 0;
        if (!(got[i] >= lo - tol && got[i] <= hi + tol) && bad++ < 3)
            EXPECT(false, "%s: x = %.9g: got %.9g, expected %.9g..%.9g", what, xs[i], got[i], lo, hi);
    }
    printf("%-48s %4d samples: %s\n", what, n, bad ? "wrong" : "ok");
    CK(cudaFree(d_x));
    CK(cudaFree(d_out));
}

static void check2d(const char *what, cudaTextureObject_t t, const Tex2 &T, const std::vector<float2> &xy,
                    Addr a, bool linear, bool norm) {
    int n = (int)xy.size();
    float2 *d_xy;
    float *d_out;
    CK(cudaMalloc(&d_xy, n * sizeof(float2)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMemcpy(d_xy, xy.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
    sample2d<<<(n + 127) / 128, 128>>>(d_out, t, d_xy, n);
    CK_LAUNCH();
    std::vector<float> got(n);
    CK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double lo, hi;
        if (linear)
            linear2(T, xy[i].x, xy[i].y, norm, a, &lo, &hi);
        else
            lo = hi = point2(T, xy[i].x, xy[i].y, norm, a);
        double tol = linear ? TOL : 0;
        if (!(got[i] >= lo - tol && got[i] <= hi + tol) && bad++ < 3)
            EXPECT(false, "%s: (%.9g, %.9g): got %.9g, expected %.9g..%.9g", what, xy[i].x, xy[i].y, got[i], lo,
                   hi);
    }
    printf("%-48s %4d samples: %s\n", what, n, bad ? "wrong" : "ok");
    CK(cudaFree(d_xy));
    CK(cudaFree(d_out));
}

int main() {
    ck_start("texture");

    // ---- tex1Dfetch over linear memory ----
    {
        const int n = 1000;
        std::vector<int> h(n), idx(n), got(n);
        for (int i = 0; i < n; i++) {
            h[i] = i * 31 - 7000;
            idx[i] = (i * 17 + 3) % n;
        }
        int *d, *d_idx, *d_out;
        CK(cudaMalloc(&d, n * sizeof(int)));
        CK(cudaMalloc(&d_idx, n * sizeof(int)));
        CK(cudaMalloc(&d_out, n * sizeof(int)));
        CK(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = d;
        rd.res.linear.desc = cudaCreateChannelDesc<int>();
        rd.res.linear.sizeInBytes = n * sizeof(int);
        cudaTextureObject_t t = make_tex(rd, CLAMP, false, false);
        cudaResourceDesc back;
        CK(cudaGetTextureObjectResourceDesc(&back, t));
        EXPECT(back.resType == cudaResourceTypeLinear && back.res.linear.devPtr == d &&
                   back.res.linear.sizeInBytes == n * sizeof(int),
               "cudaGetTextureObjectResourceDesc: type %d ptr %p size %zu", (int)back.resType,
               back.res.linear.devPtr, back.res.linear.sizeInBytes);
        fetch_int<<<(n + 255) / 256, 256>>>(d_out, t, d_idx, n);
        CK_LAUNCH();
        CK(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int i = 0; i < n; i++)
            if (got[i] != h[idx[i]] && bad++ < 3)
                EXPECT(false, "tex1Dfetch<int>(%d) = %d, expected %d", idx[i], got[i], h[idx[i]]);
        printf("%-48s %4d samples: %s\n", "tex1Dfetch<int>, linear memory", n, bad ? "wrong" : "ok");
        CK(cudaDestroyTextureObject(t));

        // float4 texels
        const int m = 300;
        std::vector<float4> f(m), gf(m);
        for (int i = 0; i < m; i++)
            f[i] = make_float4(i * 0.5f, -i * 0.25f, i + 1000.0f, 1.0f / (i + 1));
        float4 *d_f, *d_fo;
        CK(cudaMalloc(&d_f, m * sizeof(float4)));
        CK(cudaMalloc(&d_fo, m * sizeof(float4)));
        CK(cudaMemcpy(d_f, f.data(), m * sizeof(float4), cudaMemcpyHostToDevice));
        rd.res.linear.devPtr = d_f;
        rd.res.linear.desc = cudaCreateChannelDesc<float4>();
        rd.res.linear.sizeInBytes = m * sizeof(float4);
        t = make_tex(rd, CLAMP, false, false);
        fetch_float4<<<(m + 127) / 128, 128>>>(d_fo, t, m);
        CK_LAUNCH();
        CK(cudaMemcpy(gf.data(), d_fo, m * sizeof(float4), cudaMemcpyDeviceToHost));
        bad = 0;
        for (int i = 0; i < m; i++) {
            const float4 &w = f[m - 1 - i];
            if (memcmp(&gf[i], &w, sizeof w) != 0 && bad++ < 3)
                EXPECT(false, "tex1Dfetch<float4>(%d) = (%g %g %g %g)", m - 1 - i, gf[i].x, gf[i].y, gf[i].z,
                       gf[i].w);
        }
        printf("%-48s %4d samples: %s\n", "tex1Dfetch<float4>, linear memory", m, bad ? "wrong" : "ok");
        CK(cudaDestroyTextureObject(t));

        // unsigned char read as normalized float: v / 255
        const int k = 256;
        std::vector<unsigned char> u(k);
        for (int i = 0; i < k; i++)
            u[i] = (unsigned char)(i * 7 + 1);
        unsigned char *d_u;
        float *d_uo;
        std::vector<float> gu(k);
        CK(cudaMalloc(&d_u, k));
        CK(cudaMalloc(&d_uo, k * sizeof(float)));
        CK(cudaMemcpy(d_u, u.data(), k, cudaMemcpyHostToDevice));
        rd.res.linear.devPtr = d_u;
        rd.res.linear.desc = cudaCreateChannelDesc<unsigned char>();
        rd.res.linear.sizeInBytes = k;
        t = make_tex(rd, CLAMP, false, false, cudaReadModeNormalizedFloat);
        fetch_norm<<<2, 128>>>(d_uo, t, k);
        CK_LAUNCH();
        CK(cudaMemcpy(gu.data(), d_uo, k * sizeof(float), cudaMemcpyDeviceToHost));
        bad = 0;
        for (int i = 0; i < k; i++) {
            double w = u[i] / 255.0;
            bool exact_ends = (u[i] == 0 && gu[i] == 0.0f) || (u[i] == 255 && gu[i] == 1.0f) || (u[i] != 0 && u[i] != 255);
            if ((fabs(gu[i] - w) > 1.0 / (1 << 22) || !exact_ends) && bad++ < 3)
                EXPECT(false, "tex1Dfetch<float> of uchar %d (normalized) = %.9g, expected %.9g", u[i], gu[i], w);
        }
        printf("%-48s %4d samples: %s\n", "tex1Dfetch, unsigned char as normalized float", k, bad ? "wrong" : "ok");
        CK(cudaDestroyTextureObject(t));
        CK(cudaFree(d));
        CK(cudaFree(d_idx));
        CK(cudaFree(d_out));
        CK(cudaFree(d_f));
        CK(cudaFree(d_fo));
        CK(cudaFree(d_u));
        CK(cudaFree(d_uo));
    }

    // ---- 1D cudaArray: 16 texels ----
    {
        const int n = 16;
        float h[n];
        for (int i = 0; i < n; i++)
            h[i] = (float)((i * 7) % 16 - 8) * 0.375f + (i == 5 ? 0.0625f : 0.0f);
        Tex2 T{h, n, 1};
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaArray_t arr;
        CK(cudaMallocArray(&arr, &cd, n, 0));
        CK(cudaMemcpy2DToArray(arr, 0, 0, h, n * sizeof(float), n * sizeof(float), 1, cudaMemcpyHostToDevice));
        float check[n];
        CK(cudaMemcpy2DFromArray(check, n * sizeof(float), arr, 0, 0, n * sizeof(float), 1, cudaMemcpyDeviceToHost));
        EXPECT(memcmp(check, h, sizeof h) == 0, "cudaMemcpy2DFromArray of a 1D array differs");
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;

        // Unnormalized coordinates from -3 to 19 in steps of 37/256 texel,
        // plus some off the 1/256 grid.
        std::vector<float> xs, xs_in;  // xs_in: only x < n (see linear clamp)
        for (int k = -3 * 256; k <= 19 * 256; k += 37)
            xs.push_back(k / 256.0f);
        for (float x : {0.0f, 0.5f, 1.0f, 15.0f, 15.5f, 15.999f, 16.0f, 2.3f, 5.77f, 9.01f, 0.6f, 12.345f})
            xs.push_back(x);
        for (float x : xs)
            if (x < n)
                xs_in.push_back(x);

        cudaTextureObject_t t = make_tex(rd, CLAMP, false, false);
        check1d("tex1D, cudaArray, point, clamp", t, T, xs, CLAMP, false, false);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(rd, BORDER, false, false);
        check1d("tex1D, cudaArray, point, border", t, T, xs, BORDER, false, false);
        CK(cudaDestroyTextureObject(t));
        // Linear with clamp: only x < n, where clamping the coordinate and
        // clamping the texel indices agree.
        t = make_tex(rd, CLAMP, true, false);
        check1d("tex1D, cudaArray, linear, clamp", t, T, xs_in, CLAMP, true, false);
        CK(cudaDestroyTextureObject(t));

        // Normalized coordinates from -1.5 to 2.5 in steps of 13/4096 (13/256
        // of a texel), with wrap; point and linear.
        std::vector<float> nx;
        for (int k = -6144; k <= 10240; k += 13)
            nx.push_back(k / 4096.0f);
        for (float x : {0.0f, 1.0f, 0.03125f, 0.96875f, -0.5f, 0.3f, 0.71f})
            nx.push_back(x);
        t = make_tex(rd, WRAP, false, true);
        check1d("tex1D, cudaArray, point, wrap, normalized", t, T, nx, WRAP, false, true);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(rd, WRAP, true, true);
        check1d("tex1D, cudaArray, linear, wrap, normalized", t, T, nx, WRAP, true, true);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(arr));
    }

    // ---- the weights are 9-bit fixed point: T = {0, 1}, so tex1D(x) is the
    // weight itself; between texel centres it must move in steps of 1/256
    // (whichever way the hardware rounds), never by less, and never go
    // backwards or stray more than 1/256 from the exact fraction. ----
    {
        const float two[2] = {0.0f, 1.0f};
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaArray_t arr;
        CK(cudaMallocArray(&arr, &cd, 2, 0));
        CK(cudaMemcpy2DToArray(arr, 0, 0, two, sizeof two, sizeof two, 1, cudaMemcpyHostToDevice));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureObject_t t = make_tex(rd, CLAMP, true, false);
        const int n = 4097;
        std::vector<float> xs(n), got(n);
        for (int k = 0; k < n; k++)
            xs[k] = 0.5f + (float)k / 4096.0f;  // weight k/4096
        float *d_x, *d_out;
        CK(cudaMalloc(&d_x, n * sizeof(float)));
        CK(cudaMalloc(&d_out, n * sizeof(float)));
        CK(cudaMemcpy(d_x, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        sample1d<<<(n + 127) / 128, 128>>>(d_out, t, d_x, n);
        CK_LAUNCH();
        CK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
        int bad = 0, steps = 0;
        for (int k = 0; k < n; k++) {
            double g = got[k], a = k / 4096.0;
            bool on_grid = g * 256 == floor(g * 256);
            if ((!on_grid || fabs(g - a) > 1.0 / 256 || (k > 0 && g < got[k - 1])) && bad++ < 3)
                EXPECT(false, "linear weight at x = 0.5 + %d/4096: got %.9g (not a multiple of 1/256 within "
                              "1/256 of %.9g, or smaller than the previous sample)",
                       k, g, a);
            if (k > 0 && got[k] != got[k - 1])
                steps++;
        }
        EXPECT(got[0] == 0.0f && got[n - 1] == 1.0f, "weights 0 and 1 give %g and %g", got[0], got[n - 1]);
        EXPECT(steps == 256, "the weight took %d distinct steps from 0 to 1, expected 256", steps);
        printf("%-48s %4d samples: %s\n", "linear filter weights in 1/256 steps", n, bad ? "wrong" : "ok");
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(arr));
        CK(cudaFree(d_x));
        CK(cudaFree(d_out));
    }

    // ---- 2D cudaArray: 8 x 8 texels, and pitched linear memory ----
    {
        const int w = 8, h = 8;
        float tab[h][w];
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                tab[y][x] = (float)((x * 3 + y * 5) % 11 - 5) * 0.25f + (float)y * 0.125f;
        Tex2 T{&tab[0][0], w, h};
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaArray_t arr;
        CK(cudaMallocArray(&arr, &cd, w, h));
        CK(cudaMemcpy2DToArray(arr, 0, 0, tab, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;

        std::vector<float2> un, un_in, nm;
        for (int ky = -2 * 64; ky <= 10 * 64; ky += 23)  // steps of 23/64 texel
            for (int kx = -2 * 64; kx <= 10 * 64; kx += 29)
                un.push_back(make_float2(kx / 64.0f, ky / 64.0f));
        for (float2 p : {make_float2(3.3f, 4.7f), make_float2(0.1f, 7.9f), make_float2(6.66f, 1.01f)})
            un.push_back(p);
        for (float2 p : un)
            if (p.x < w && p.y < h)
                un_in.push_back(p);
        for (int ky = -512; ky <= 1024 + 256; ky += 19)  // normalized, steps of 19/512 = 19/64 texel
            for (int kx = -512; kx <= 1024 + 256; kx += 27)
                nm.push_back(make_float2(kx / 512.0f, ky / 512.0f));

        cudaTextureObject_t t = make_tex(rd, CLAMP, false, false);
        check2d("tex2D, cudaArray, point, clamp", t, T, un, CLAMP, false, false);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(rd, CLAMP, true, false);
        check2d("tex2D, cudaArray, linear, clamp", t, T, un_in, CLAMP, true, false);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(rd, WRAP, false, true);
        check2d("tex2D, cudaArray, point, wrap, normalized", t, T, nm, WRAP, false, true);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(rd, WRAP, true, true);
        check2d("tex2D, cudaArray, linear, wrap, normalized", t, T, nm, WRAP, true, true);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(rd, CLAMP, true, true);
        std::vector<float2> nm_in;
        for (float2 p : nm)
            if (p.x < 1.0f && p.y < 1.0f)
                nm_in.push_back(p);
        check2d("tex2D, cudaArray, linear, clamp, normalized", t, T, nm_in, CLAMP, true, true);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(arr));

        // The same table in pitched linear memory.
        float *d_p;
        size_t pitch;
        CK(cudaMallocPitch(&d_p, &pitch, w * sizeof(float), h));
        CK(cudaMemcpy2D(d_p, pitch, tab, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypePitch2D;
        rd.res.pitch2D.devPtr = d_p;
        rd.res.pitch2D.desc = cd;
        rd.res.pitch2D.width = w;
        rd.res.pitch2D.height = h;
        rd.res.pitch2D.pitchInBytes = pitch;
        t = make_tex(rd, CLAMP, false, false);
        check2d("tex2D, pitched linear memory, point, clamp", t, T, un, CLAMP, false, false);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(rd, CLAMP, true, false);
        check2d("tex2D, pitched linear memory, linear, clamp", t, T, un_in, CLAMP, true, false);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFree(d_p));
    }

    // ---- a surface: write, read-modify-write, copy out, texture read ----
    {
        const int w = 40, h = 6;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaArray_t arr;
        CK(cudaMallocArray(&arr, &cd, w, h, cudaArraySurfaceLoadStore));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaSurfaceObject_t s = 0;
        CK(cudaCreateSurfaceObject(&s, &rd));
        surf_write<<<dim3(2, h), 32>>>(s, w, h);
        CK_LAUNCH();
        float *d_out;
        CK(cudaMalloc(&d_out, w * h * sizeof(float)));
        surf_read_modify<<<dim3(2, h), 32>>>(d_out, s, w, h);
        CK_LAUNCH();
        std::vector<float> got(w * h), arr_back(w * h);
        CK(cudaMemcpy(got.data(), d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy2DFromArray(arr_back.data(), w * sizeof(float), arr, 0, 0, w * sizeof(float), h,
                                 cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float v = (float)(x * 16 + y) + 0.5f;
                if ((got[y * w + x] != 2 * v || arr_back[y * w + x] != v + 1) && bad++ < 3)
                    EXPECT(false, "surface (%d, %d): read %g, array %g; expected %g, %g", x, y, got[y * w + x],
                           arr_back[y * w + x], 2 * v, v + 1);
            }
        // A texture over the surface's array sees the surface's writes.
        cudaTextureObject_t t = make_tex(rd, CLAMP, false, false);
        std::vector<float2> xy;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                xy.push_back(make_float2(x + 0.5f, y + 0.5f));
        Tex2 T{arr_back.data(), w, h};
        check2d("tex2D of the surface's array, point", t, T, xy, CLAMP, false, false);
        printf("%-48s %4d texels: %s\n", "surf2Dwrite / surf2Dread / cudaMemcpy2DFromArray", w * h,
               bad ? "wrong" : "ok");
        CK(cudaDestroyTextureObject(t));
        CK(cudaDestroySurfaceObject(s));
        CK(cudaFreeArray(arr));
        CK(cudaFree(d_out));
    }
    return ck_finish();
}
