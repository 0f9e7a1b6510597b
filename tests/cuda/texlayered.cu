// texlayered.cu -- layered, cubemap and mipmapped CUDA arrays with texture
// and surface objects over them: tex1DLayered, tex2DLayered, texCubemap,
// texCubemapLayered, tex2DLod, tex2DGrad, surf2DLayeredwrite/read,
// surfCubemapwrite/read, cudaMalloc3DArray(cudaArrayLayered/Cubemap),
// cudaMallocMipmappedArray/cudaGetMipmappedArrayLevel.
//
// References come from the Programming Guide's rules: a layered texture is
// a stack of independent 1D/2D textures, the layer index (unsigned: a
// negative one is past the end) clamped to the layers there are; a cubemap direction (x, y, z) selects the face of its
// largest component and the face coordinates (s/m + 1)/2, (t/m + 1)/2 from
// the guide's table; a mipmap level l has extents max(1, n >> l) and the
// level of detail is clamp(lod + bias, minLevel, maxLevel); with linear
// mipmap filtering the two nearest levels are mixed.  Coordinates and
// levels of detail are on the 1/256 grid, so the 9-bit weights are exact.
#include "check.h"
#include <cmath>
#include <cstring>
#include <vector>

static const char *NAME = "texlayered";

__global__ void k_tex2d_layered(float *out, cudaTextureObject_t t, const float4 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLayered<float>(t, q[i].x, q[i].y, (int)q[i].z);
}

__global__ void k_tex1d_layered(float *out, cudaTextureObject_t t, const float4 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1DLayered<float>(t, q[i].x, (int)q[i].z);
}

__global__ void k_cube(float *out, cudaTextureObject_t t, const float4 *q, int n, int layered)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = layered ? texCubemapLayered<float>(t, q[i].x, q[i].y, q[i].z, (int)q[i].w)
                     : texCubemap<float>(t, q[i].x, q[i].y, q[i].z);
}

__global__ void k_lod(float *out, cudaTextureObject_t t, const float4 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLod<float>(t, q[i].x, q[i].y, q[i].z);
}

// gradient (g, 0) along x and (0, g) along y: the level of detail is log2(g * size)
__global__ void k_grad(float *out, cudaTextureObject_t t, const float4 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, q[i].x, q[i].y, make_float2(q[i].z, 0), make_float2(0, q[i].z));
}

// every face read at its texel centres through the direction that points
// there (bilinear filtering, so each read must hit one texel exactly)
__global__ void k_cube_faces(float *out, cudaTextureObject_t t, int w)
{
    int x = threadIdx.x, y = blockIdx.x;
    float u = ((x + 0.5f) / w) * 2.0f - 1.0f, v = ((y + 0.5f) / w) * 2.0f - 1.0f;
    const float d[6][3] = {{1, -v, -u}, {-1, -v, u}, {u, 1, v}, {u, -1, -v}, {u, -v, 1}, {-u, -v, -1}};
    for (int f = 0; f < 6; f++)
        out[(f * w + y) * w + x] = texCubemap<float>(t, d[f][0], d[f][1], d[f][2]);
}

// each thread writes its texel of every layer, then reads it back + 1
__global__ void k_surf_layered(cudaSurfaceObject_t s, float *back, int w, int h, int layers)
{
    int x = threadIdx.x, y = blockIdx.x;
    for (int l = 0; l < layers; l++)
        surf2DLayeredwrite((float)(l * 1000 + y * w + x), s, x * 4, y, l);
    __syncthreads();
    for (int l = 0; l < layers; l++)
        back[(l * h + y) * w + x] = surf2DLayeredread<float>(s, x * 4, y, l) + 1.0f;
}

__global__ void k_surf_cube(cudaSurfaceObject_t s, float *back, int w)
{
    int x = threadIdx.x, y = blockIdx.x;
    for (int f = 0; f < 6; f++)
        surfCubemapwrite((float)(f * 100 + y * w + x) + 0.5f, s, x * 4, y, f);
    __syncthreads();
    for (int f = 0; f < 6; f++)
        back[(f * w + y) * w + x] = surfCubemapread<float>(s, x * 4, y, f);
}

static std::vector<float> run(void (*k)(float *, cudaTextureObject_t, const float4 *, int), cudaTextureObject_t t,
                              const std::vector<float4> &q)
{
    int n = (int)q.size();
    float4 *dq;
    float *dout;
    CK(cudaMalloc(&dq, n * sizeof(float4)));
    CK(cudaMalloc(&dout, n * sizeof(float)));
    CK(cudaMemcpy(dq, q.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    k<<<(n + 127) / 128, 128>>>(dout, t, dq, n);
    CK_LAUNCH();
    std::vector<float> got(n);
    CK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaFree(dq));
    CK(cudaFree(dout));
    return got;
}

static cudaTextureObject_t make_tex(const cudaResourceDesc &rd, cudaTextureFilterMode f, bool norm,
                                    cudaTextureFilterMode mip = cudaFilterModePoint, float maxlev = 0,
                                    float bias = 0, float minlev = 0)
{
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = f;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = norm;
    td.mipmapFilterMode = mip;
    td.maxMipmapLevelClamp = maxlev;
    td.minMipmapLevelClamp = minlev;
    td.mipmapLevelBias = bias;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

// A w x h slice, point or bilinear (clamp), coordinates in texels.
static float sample2(const float *s, int w, int h, float x, float y, bool linear)
{
    if (!linear) return s[clampi((int)floorf(y), 0, h - 1) * w + clampi((int)floorf(x), 0, w - 1)];
    float xb = x - 0.5f, yb = y - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    // the weights in 1/256 steps (the coordinates here are multiples of
    // 1/64 texel: exact), the four corners' rounded to 1/256 so that they sum
    // to 1, as a real GPU does (texture.cu's blend2)
    int A = (int)((xb - floorf(xb)) * 256), B = (int)((yb - floorf(yb)) * 256), W11 = (A * B + 128) >> 8;
    auto T = [&](int xx, int yy) { return (double)s[clampi(yy, 0, h - 1) * w + clampi(xx, 0, w - 1)]; };
    return (float)(((256 - A - B + W11) * T(i, j) + (A - W11) * T(i + 1, j) + (B - W11) * T(i, j + 1) +
                    W11 * T(i + 1, j + 1)) / 256);
}

static void compare(const char *what, const std::vector<float> &got, const std::vector<float> &want, double tol)
{
    int bad = 0;
    for (size_t i = 0; i < got.size(); i++)
        if (!(fabs(got[i] - want[i]) <= tol) && bad++ < 3)
            EXPECT(false, "%s, sample %zu: got %.9g, expected %.9g", what, i, got[i], want[i]);
    printf("%-52s %5zu samples: %s\n", what, got.size(), bad ? "wrong" : "ok");
}

// Face and face coordinates in [0, 1] of a cubemap direction.
static int cube_face(float x, float y, float z, float *u, float *v)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, t;
    int f;
    if (ax >= ay && ax >= az) m = ax, f = x >= 0 ? 0 : 1, s = x >= 0 ? -z : z, t = -y;
    else if (ay >= az) m = ay, f = y >= 0 ? 2 : 3, s = x, t = y >= 0 ? z : -z;
    else m = az, f = z >= 0 ? 4 : 5, s = z >= 0 ? x : -x, t = -y;
    *u = (s / m + 1) / 2;
    *v = (t / m + 1) / 2;
    return f;
}

int main()
{
    ck_start(NAME);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();

    // ---- a 2D layered array: 8 x 4, 3 layers ----
    {
        const int w = 8, h = 4, L = 3;
        std::vector<float> host(w * h * L);
        for (int l = 0; l < L; l++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    host[(l * h + y) * w + x] = (float)(l * 100 + ((x * 5 + y * 3) % 7)) * 0.5f;
        cudaArray_t arr;
        CK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(w, h, L), cudaArrayLayered));
        cudaExtent e;
        unsigned flags;
        CK(cudaArrayGetInfo(NULL, &e, &flags, arr));
        EXPECT(e.width == w && e.height == h && e.depth == L && (flags & cudaArrayLayered),
               "cudaArrayGetInfo: %zu x %zu x %zu, flags %u", e.width, e.height, e.depth, flags);
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(host.data(), w * sizeof(float), w, h);
        p.dstArray = arr;
        p.extent = make_cudaExtent(w, h, L);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        std::vector<float4> q;
        for (int l = -1; l <= L; l++)  // layers -1 and L are clamped (to L-1 both)
            for (int ky = -64; ky <= (h + 1) * 64; ky += 37)
                for (int kx = -64; kx <= (w + 1) * 64; kx += 41)
                    q.push_back(make_float4(kx / 64.0f, ky / 64.0f, (float)l, 0));
        for (int lin = 0; lin < 2; lin++) {
            cudaTextureObject_t t = make_tex(rd, lin ? cudaFilterModeLinear : cudaFilterModePoint, false);
            std::vector<float4> qq;
            for (float4 v : q)
                if (!lin || (v.x < w && v.y < h)) qq.push_back(v);
            std::vector<float> got = run(k_tex2d_layered, t, qq), want;
            for (float4 v : qq) {
                // the layer index is unsigned: a negative one clamps to the
                // last layer (an H200 reads layer L-1 for -1)
                int l = v.z < 0 ? L - 1 : clampi((int)v.z, 0, L - 1);
                want.push_back(sample2(&host[l * w * h], w, h, v.x, v.y, lin));
            }
            compare(lin ? "tex2DLayered, linear, clamp" : "tex2DLayered, point, clamp (layer clamped)", got, want,
                    lin ? 1.0 / 65536 : 0);
            CK(cudaDestroyTextureObject(t));
        }
        CK(cudaFreeArray(arr));
    }

    // ---- a 1D layered array: 16 texels, 4 layers ----
    {
        const int w = 16, L = 4;
        std::vector<float> host(w * L);
        for (int i = 0; i < w * L; i++) host[i] = (float)((i * 7) % 23) - 3.0f;
        cudaArray_t arr;
        CK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(w, 0, L), cudaArrayLayered));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(host.data(), w * sizeof(float), w, 1);
        p.dstArray = arr;
        p.extent = make_cudaExtent(w, 1, L);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureObject_t t = make_tex(rd, cudaFilterModePoint, true);
        std::vector<float4> q;
        std::vector<float> want;
        for (int l = 0; l < L; l++)
            for (int k = -20; k <= 300; k += 7) {
                float x = k / 256.0f;
                q.push_back(make_float4(x, 0, (float)l, 0));
                want.push_back(host[l * w + clampi((int)floorf(x * w), 0, w - 1)]);
            }
        compare("tex1DLayered, point, normalized", run(k_tex1d_layered, t, q), want, 0);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(arr));
    }

    // ---- cubemaps: 4 x 4 faces; a layered cubemap of 2 layers ----
    for (int layered = 0; layered < 2; layered++) {
        const int w = 4, L = layered ? 2 : 1;
        std::vector<float> host(w * w * 6 * L);
        for (int s = 0; s < 6 * L; s++)
            for (int y = 0; y < w; y++)
                for (int x = 0; x < w; x++)
                    host[(s * w + y) * w + x] = (float)(s * 100 + y * 10 + x);
        cudaArray_t arr;
        CK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(w, w, 6 * L),
                             cudaArrayCubemap | (layered ? cudaArrayLayered : 0)));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(host.data(), w * sizeof(float), w, w);
        p.dstArray = arr;
        p.extent = make_cudaExtent(w, w, 6 * L);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureObject_t t = make_tex(rd, cudaFilterModePoint, true);
        std::vector<float4> q;
        std::vector<float> want;
        // directions on a grid, avoiding ties between the largest components
        // and face coordinates on texel boundaries
        for (int l = 0; l < L; l++)
            for (int a = -9; a <= 9; a += 2)
                for (int b = -9; b <= 9; b += 3)
                    for (int c = -9; c <= 9; c += 4) {
                        float x = a / 8.0f, y = b / 8.0f * 1.0625f, z = c / 8.0f * 0.9375f;
                        float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
                        if (ax == ay || ay == az || ax == az) continue;
                        float u, v;
                        int f = cube_face(x, y, z, &u, &v);
                        float fu = u * w, fv = v * w;
                        if (fu == floorf(fu) || fv == floorf(fv)) continue;
                        q.push_back(make_float4(x, y, z, (float)l));
                        int s = l * 6 + f;
                        want.push_back(host[(s * w + clampi((int)floorf(fv), 0, w - 1)) * w +
                                            clampi((int)floorf(fu), 0, w - 1)]);
                    }
        int n = (int)q.size();
        float4 *dq;
        float *dout;
        CK(cudaMalloc(&dq, n * sizeof(float4)));
        CK(cudaMalloc(&dout, n * sizeof(float)));
        CK(cudaMemcpy(dq, q.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
        k_cube<<<(n + 127) / 128, 128>>>(dout, t, dq, n, layered);
        CK_LAUNCH();
        std::vector<float> got(n);
        CK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
        compare(layered ? "texCubemapLayered, point" : "texCubemap, point", got, want, 0);
        CK(cudaFree(dq));
        CK(cudaFree(dout));
        CK(cudaDestroyTextureObject(t));
        if (!layered) {
            t = make_tex(rd, cudaFilterModeLinear, true);
            std::vector<float> faces(w * w * 6);
            CK(cudaMalloc(&dout, faces.size() * sizeof(float)));
            k_cube_faces<<<w, w>>>(dout, t, w);
            CK_LAUNCH();
            CK(cudaMemcpy(faces.data(), dout, faces.size() * sizeof(float), cudaMemcpyDeviceToHost));
            compare("texCubemap, linear, every face's texel centres", faces, host, 0);
            CK(cudaFree(dout));
            CK(cudaDestroyTextureObject(t));
        }
        CK(cudaFreeArray(arr));
    }

    // ---- surfaces on a layered array and on a cubemap ----
    {
        const int w = 16, h = 5, L = 3;
        cudaArray_t arr;
        CK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(w, h, L), cudaArrayLayered | cudaArraySurfaceLoadStore));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaSurfaceObject_t s;
        CK(cudaCreateSurfaceObject(&s, &rd));
        float *dback;
        CK(cudaMalloc(&dback, w * h * L * sizeof(float)));
        k_surf_layered<<<h, w>>>(s, dback, w, h, L);
        CK_LAUNCH();
        std::vector<float> back(w * h * L), arrback(w * h * L);
        CK(cudaMemcpy(back.data(), dback, back.size() * sizeof(float), cudaMemcpyDeviceToHost));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcArray = arr;
        p.dstPtr = make_cudaPitchedPtr(arrback.data(), w * sizeof(float), w, h);
        p.extent = make_cudaExtent(w, h, L);
        p.kind = cudaMemcpyDeviceToHost;
        CK(cudaMemcpy3D(&p));
        int bad = 0;
        for (int l = 0; l < L; l++)
            for (int i = 0; i < w * h; i++) {
                float v = (float)(l * 1000 + i);
                if ((arrback[l * w * h + i] != v || back[l * w * h + i] != v + 1) && bad++ < 3)
                    EXPECT(false, "surf2DLayered layer %d texel %d: array %g, read %g; expected %g, %g", l, i,
                           arrback[l * w * h + i], back[l * w * h + i], v, v + 1);
            }
        printf("%-52s %5d texels: %s\n", "surf2DLayeredwrite / surf2DLayeredread", w * h * L, bad ? "wrong" : "ok");
        CK(cudaDestroySurfaceObject(s));
        CK(cudaFreeArray(arr));
        CK(cudaFree(dback));

        const int cw = 8;
        CK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(cw, cw, 6), cudaArrayCubemap | cudaArraySurfaceLoadStore));
        rd.res.array.array = arr;
        CK(cudaCreateSurfaceObject(&s, &rd));
        CK(cudaMalloc(&dback, cw * cw * 6 * sizeof(float)));
        k_surf_cube<<<cw, cw>>>(s, dback, cw);
        CK_LAUNCH();
        back.assign(cw * cw * 6, 0);
        CK(cudaMemcpy(back.data(), dback, back.size() * sizeof(float), cudaMemcpyDeviceToHost));
        bad = 0;
        for (int f = 0; f < 6; f++)
            for (int i = 0; i < cw * cw; i++)
                if (back[f * cw * cw + i] != (float)(f * 100 + i) + 0.5f && bad++ < 3)
                    EXPECT(false, "surfCubemap face %d texel %d: %g", f, i, back[f * cw * cw + i]);
        // and a texture over the faces the surface wrote: the centre of face f
        cudaTextureObject_t t = make_tex(rd, cudaFilterModePoint, true);
        std::vector<float4> q = {make_float4(1, 0.1f, 0.2f, 0), make_float4(-1, 0.1f, 0.2f, 0),
                                 make_float4(0.1f, 1, 0.2f, 0), make_float4(0.1f, -1, 0.2f, 0),
                                 make_float4(0.1f, 0.2f, 1, 0), make_float4(0.1f, 0.2f, -1, 0)};
        std::vector<float> want;
        for (float4 v : q) {
            float u, vv;
            int f = cube_face(v.x, v.y, v.z, &u, &vv);
            want.push_back((float)(f * 100 + (int)(vv * cw) * cw + (int)(u * cw)) + 0.5f);
        }
        float4 *dq;
        CK(cudaMalloc(&dq, q.size() * sizeof(float4)));
        CK(cudaMemcpy(dq, q.data(), q.size() * sizeof(float4), cudaMemcpyHostToDevice));
        k_cube<<<1, 32>>>(dback, t, dq, (int)q.size(), 0);
        CK_LAUNCH();
        std::vector<float> got(q.size());
        CK(cudaMemcpy(got.data(), dback, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
        compare("surfCubemapwrite, then texCubemap of each face", got, want, 0);
        printf("%-52s %5d texels: %s\n", "surfCubemapwrite / surfCubemapread", cw * cw * 6, bad ? "wrong" : "ok");
        CK(cudaFree(dq));
        CK(cudaDestroyTextureObject(t));
        CK(cudaDestroySurfaceObject(s));
        CK(cudaFreeArray(arr));
        CK(cudaFree(dback));
    }

    // ---- a mipmapped array: 16 x 16, 5 levels (16, 8, 4, 2, 1) ----
    {
        const int W = 16, NL = 5;
        cudaMipmappedArray_t mm;
        CK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(W, W, 0), NL, 0));
        std::vector<std::vector<float>> lev(NL);
        for (int l = 0; l < NL; l++) {
            int w = W >> l;
            lev[l].resize(w * w);
            for (int i = 0; i < w * w; i++) lev[l][i] = (float)(l * 1000 + i);
            cudaArray_t a;
            CK(cudaGetMipmappedArrayLevel(&a, mm, l));
            cudaExtent e;
            CK(cudaArrayGetInfo(NULL, &e, NULL, a));
            EXPECT((int)e.width == w && (int)e.height == w, "level %d is %zu x %zu, expected %d x %d", l, e.width,
                   e.height, w, w);
            CK(cudaMemcpy2DToArray(a, 0, 0, lev[l].data(), w * sizeof(float), w * sizeof(float), w,
                                   cudaMemcpyHostToDevice));
        }
        cudaArray_t none;
        EXPECT(cudaGetMipmappedArrayLevel(&none, mm, NL) == cudaErrorInvalidValue, "level %d exists", NL);
        cudaGetLastError();
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = mm;
        // point sample of level l at normalized (x, y)
        auto at = [&](int l, float x, float y) {
            int w = W >> l;
            return lev[l][clampi((int)floorf(y * w), 0, w - 1) * w + clampi((int)floorf(x * w), 0, w - 1)];
        };
        std::vector<float2> xy;
        for (int ky = 3; ky < 256; ky += 29)
            for (int kx = 5; kx < 256; kx += 31)
                xy.push_back(make_float2(kx / 256.0f, ky / 256.0f));
        const float lods[] = {-1.0f, 0.0f, 0.25f, 1.0f, 1.75f, 2.0f, 2.375f, 3.0f, 4.0f, 7.5f};

        // nearest level
        cudaTextureObject_t t = make_tex(rd, cudaFilterModePoint, true, cudaFilterModePoint, NL - 1);
        cudaResourceDesc back;
        CK(cudaGetTextureObjectResourceDesc(&back, t));
        EXPECT(back.resType == cudaResourceTypeMipmappedArray && back.res.mipmap.mipmap == mm,
               "cudaGetTextureObjectResourceDesc of a mipmapped texture: type %d", (int)back.resType);
        cudaTextureDesc tdb;
        CK(cudaGetTextureObjectTextureDesc(&tdb, t));
        EXPECT(tdb.maxMipmapLevelClamp == NL - 1 && tdb.mipmapFilterMode == cudaFilterModePoint,
               "cudaGetTextureObjectTextureDesc: max level %g", tdb.maxMipmapLevelClamp);
        std::vector<float4> q;
        std::vector<float> want;
        for (float lod : lods)
            for (float2 p : xy) {
                q.push_back(make_float4(p.x, p.y, lod, 0));
                float c = fminf(fmaxf(lod, 0.0f), NL - 1.0f);
                want.push_back(at((int)floorf(c + 0.5f), p.x, p.y));
            }
        compare("tex2DLod, mipmapped, nearest level", run(k_lod, t, q), want, 0);
        CK(cudaDestroyTextureObject(t));

        // linear between levels: (1 - f) level i + f level i+1
        t = make_tex(rd, cudaFilterModePoint, true, cudaFilterModeLinear, NL - 1);
        want.clear();
        for (float4 v : q) {
            float c = fminf(fmaxf(v.z, 0.0f), NL - 1.0f);
            int i = (int)floorf(c);
            float f = c - i;
            want.push_back(i + 1 < NL ? (1 - f) * at(i, v.x, v.y) + f * at(i + 1, v.x, v.y) : at(i, v.x, v.y));
        }
        compare("tex2DLod, mipmapped, linear between levels", run(k_lod, t, q), want, 1.0 / 64);
        CK(cudaDestroyTextureObject(t));

        // bias +1, levels clamped to [1, 3]
        t = make_tex(rd, cudaFilterModePoint, true, cudaFilterModePoint, 3.0f, 1.0f, 1.0f);
        want.clear();
        for (float4 v : q) {
            float c = fminf(fmaxf(v.z + 1.0f, 1.0f), 3.0f);
            want.push_back(at((int)floorf(c + 0.5f), v.x, v.y));
        }
        compare("tex2DLod, bias 1, level clamp [1, 3]", run(k_lod, t, q), want, 0);
        CK(cudaDestroyTextureObject(t));

        // gradients: g = 2^k / 16 gives level k
        t = make_tex(rd, cudaFilterModePoint, true, cudaFilterModePoint, NL - 1);
        q.clear(), want.clear();
        for (int k = 0; k < NL + 1; k++)
            for (float2 p : xy) {
                q.push_back(make_float4(p.x, p.y, (float)(1 << k) / W, 0));
                want.push_back(at(k < NL ? k : NL - 1, p.x, p.y));
            }
        compare("tex2DGrad, mipmapped, nearest level", run(k_grad, t, q), want, 0);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeMipmappedArray(mm));
    }
    return ck_finish();
}
