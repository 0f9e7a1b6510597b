/*
** t_tex.c -- CUDA arrays, texture and surface objects, registered host
** memory: creation and its checks, descriptors, copies to and from arrays,
** and kernels that fetch through a texture object and store through a
** surface object (the PTX nvcc emits for tex1Dfetch, tex2D, surf2Dwrite);
** layered, cubemap and mipmapped arrays (their shapes and checks, copies
** into layers and levels) read by tex.a2d, tex.cube and tex.level.
*/
#include "api_test.h"

static CUcontext ctx;

/* tex1Dfetch<float>(t, i) and tex2D<float>(t, x + 0.5, y + 0.5) into out[],
** and surf2Dwrite(i * 10 + y, s, x * 4, y) over a w x h grid of threads. */
static const char ptx_tex[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry fetch1d(.param .u64 p_t, .param .u64 p_out, .param .u32 p_n)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .f32 %f<5>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [p_t];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    ld.param.u32 %r1, [p_n];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    setp.ge.s32 %p1, %r2, %r1;\n"
    "    @%p1 bra DONE;\n"
    "    tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r2}];\n"
    "    cvta.to.global.u64 %rd3, %rd2;\n"
    "    mul.wide.s32 %rd4, %r2, 4;\n"
    "    add.s64 %rd5, %rd3, %rd4;\n"
    "    st.global.f32 [%rd5], %f1;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n"
    ".visible .entry fetch2d(.param .u64 p_t, .param .u64 p_out)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .f32 %f<9>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [p_t];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %tid.y;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    cvt.rn.f32.u32 %f1, %r1;\n"
    "    add.f32 %f2, %f1, 0f3F000000;\n"
    "    cvt.rn.f32.u32 %f3, %r2;\n"
    "    add.f32 %f4, %f3, 0f3F000000;\n"
    "    tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f2, %f4}];\n"
    "    mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "    cvta.to.global.u64 %rd3, %rd2;\n"
    "    mul.wide.u32 %rd4, %r4, 4;\n"
    "    add.s64 %rd5, %rd3, %rd4;\n"
    "    st.global.f32 [%rd5], %f5;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry surfwrite(.param .u64 p_s)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [p_s];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %tid.y;\n"
    "    mul.lo.s32 %r3, %r1, 10;\n"
    "    add.s32 %r4, %r3, %r2;\n"
    "    shl.b32 %r5, %r1, 2;\n"
    "    sust.b.2d.b32.trap [%rd1, {%r5, %r2}], {%r4};\n"
    "    ret;\n"
    "}\n";

static void tex_arrays(void)
{
    CUDA_ARRAY_DESCRIPTOR d = {16, 4, CU_AD_FORMAT_FLOAT, 1}, g;
    CUarray a;
    OK(cuArrayCreate(&a, &d));
    OK(cuArrayGetDescriptor(&g, a));
    TT_EQ_U(g.Width, 16);
    TT_EQ_U(g.Height, 4);
    TT_EQ_U(g.Format, CU_AD_FORMAT_FLOAT);
    TT_EQ_U(g.NumChannels, 1);
    CUDA_ARRAY3D_DESCRIPTOR d3;
    OK(cuArray3DGetDescriptor(&d3, a));
    TT_EQ_U(d3.Depth, 0);
    /* a 2D copy in and back out through a device buffer */
    float h[64], back[64];
    for (int i = 0; i < 64; i++) h[i] = (float)i * 1.5f;
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = h, c.srcPitch = 64;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = a;
    c.WidthInBytes = 64, c.Height = 4;
    OK(cuMemcpy2D(&c));
    CUdeviceptr dp;
    OK(cuMemAlloc(&dp, 256));
    OK(cuMemcpyAtoD(dp, a, 0, 256));
    OK(cuMemcpyDtoH(back, dp, 256));
    TT_CHECK(memcmp(h, back, sizeof h) == 0);
    /* 1D copies at byte offsets; past the end is an error */
    float v = 99.0f, w = 0;
    OK(cuMemcpyHtoA(a, 20 * 4, &v, 4));
    OK(cuMemcpyAtoH(&w, a, 20 * 4, 4));
    TT_CHECK(w == 99.0f);
    CK(cuMemcpyHtoA(a, 252, &v, 8), CUDA_ERROR_INVALID_VALUE);
    /* a sub-rectangle out of the array */
    memset(back, 0, sizeof back);
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = a, c.srcXInBytes = 8, c.srcY = 1;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = back, c.dstPitch = 16;
    c.WidthInBytes = 16, c.Height = 2;
    OK(cuMemcpy2D(&c));
    TT_CHECK(back[0] == h[18] && back[3] == h[21] && back[4] == h[34] && back[7] == h[37]);
    c.srcY = 3;   /* rows 3 and 4: past the array */
    CK(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
    /* the array's memory is not a device pointer for cuMemFree */
    OK(cuArrayDestroy(a));
    CK(cuArrayDestroy(a), CUDA_ERROR_INVALID_HANDLE);
    CK(cuArrayGetDescriptor(&g, a), CUDA_ERROR_INVALID_HANDLE);
    OK(cuMemFree(dp));

    /* invalid descriptors */
    CUDA_ARRAY_DESCRIPTOR bad = {16, 4, CU_AD_FORMAT_FLOAT, 3};
    CK(cuArrayCreate(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    bad.NumChannels = 1, bad.Width = 0;
    CK(cuArrayCreate(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    bad.Width = 4, bad.Format = (CUarray_format)0x77;
    CK(cuArrayCreate(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    CK(cuArrayCreate(&a, NULL), CUDA_ERROR_INVALID_VALUE);
    CUDA_ARRAY3D_DESCRIPTOR lay = {8, 8, 4, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_SPARSE};
    CK(cuArray3DCreate(&a, &lay), CUDA_ERROR_NOT_SUPPORTED);
    lay.Flags = 0;
    OK(cuArray3DCreate(&a, &lay));
    OK(cuArray3DGetDescriptor(&d3, a));
    TT_EQ_U(d3.Depth, 4);
    TT_EQ_U(d3.NumChannels, 4);
    CK(cuArrayGetDescriptor(&g, a), CUDA_ERROR_INVALID_VALUE);   /* 3D */
    OK(cuArrayDestroy(a));
    lay.Height = 0;   /* depth without height */
    CK(cuArray3DCreate(&a, &lay), CUDA_ERROR_INVALID_VALUE);
}

static void tex_objects(void)
{
    CUmodule m;
    CUfunction f1, f2, fs;
    OK(cuModuleLoadData(&m, ptx_tex));
    OK(cuModuleGetFunction(&f1, m, "fetch1d"));
    OK(cuModuleGetFunction(&f2, m, "fetch2d"));
    OK(cuModuleGetFunction(&fs, m, "surfwrite"));

    /* a linear texture: tex1Dfetch */
    float h[32], out[32];
    for (int i = 0; i < 32; i++) h[i] = (float)(i * i);
    CUdeviceptr lin, dout;
    OK(cuMemAlloc(&lin, sizeof h));
    OK(cuMemAlloc(&dout, sizeof out));
    OK(cuMemcpyHtoD(lin, h, sizeof h));
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_LINEAR;
    rd.res.linear.devPtr = lin;
    rd.res.linear.format = CU_AD_FORMAT_FLOAT;
    rd.res.linear.numChannels = 1;
    rd.res.linear.sizeInBytes = sizeof h;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.flags = CU_TRSF_READ_AS_INTEGER;
    CUtexObject t;
    OK(cuTexObjectCreate(&t, &rd, &td, NULL));
    TT_CHECK(t != 0);
    unsigned n = 32;
    void *args1[] = {&t, &dout, &n};
    OK(cuLaunchKernel(f1, 1, 1, 1, 32, 1, 1, 0, NULL, args1, NULL));
    OK(cuMemcpyDtoH(out, dout, sizeof out));
    TT_CHECK(memcmp(h, out, sizeof h) == 0);
    CUDA_RESOURCE_DESC rg;
    CUDA_TEXTURE_DESC tg;
    OK(cuTexObjectGetResourceDesc(&rg, t));
    TT_EQ_U(rg.res.linear.devPtr, lin);
    TT_EQ_U(rg.res.linear.sizeInBytes, sizeof h);
    OK(cuTexObjectGetTextureDesc(&tg, t));
    TT_EQ_U(tg.flags, CU_TRSF_READ_AS_INTEGER);
    CK(cuSurfObjectDestroy(t), CUDA_ERROR_INVALID_VALUE);   /* not a surface */
    OK(cuTexObjectDestroy(t));
    CK(cuTexObjectDestroy(t), CUDA_ERROR_INVALID_VALUE);
    /* misaligned, past the allocation, no format */
    rd.res.linear.devPtr = lin + 4;
    CK(cuTexObjectCreate(&t, &rd, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    rd.res.linear.devPtr = lin, rd.res.linear.sizeInBytes = 4096;
    CK(cuTexObjectCreate(&t, &rd, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    rd.res.linear.sizeInBytes = sizeof h, rd.res.linear.numChannels = 3;
    CK(cuTexObjectCreate(&t, &rd, &td, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuTexObjectCreate(&t, &rd, NULL, NULL), CUDA_ERROR_INVALID_VALUE);

    /* a 2D array texture sampled at texel centres, and a surface on it */
    CUDA_ARRAY3D_DESCRIPTOR ad = {8, 4, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST};
    CUarray a;
    OK(cuArray3DCreate(&a, &ad));
    float img[32];
    for (int i = 0; i < 32; i++) img[i] = 100.0f + (float)i;
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = img, c.srcPitch = 32;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = a;
    c.WidthInBytes = 32, c.Height = 4;
    OK(cuMemcpy2D(&c));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    OK(cuTexObjectCreate(&t, &rd, &td, NULL));
    void *args2[] = {&t, &dout};
    OK(cuLaunchKernel(f2, 1, 1, 1, 8, 4, 1, 0, NULL, args2, NULL));
    OK(cuMemcpyDtoH(out, dout, sizeof out));
    TT_CHECK(memcmp(img, out, sizeof img) == 0);
    OK(cuTexObjectDestroy(t));

    CUsurfObject s;
    OK(cuSurfObjectCreate(&s, &rd));
    void *args3[] = {&s};
    OK(cuLaunchKernel(fs, 1, 1, 1, 8, 4, 1, 0, NULL, args3, NULL));
    int32_t got[32];
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = a;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = got, c.dstPitch = 32;
    c.WidthInBytes = 32, c.Height = 4;
    OK(cuMemcpy2D(&c));
    int bad = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++) bad += got[y * 8 + x] != x * 10 + y;
    TT_EQ_I(bad, 0);
    CUDA_RESOURCE_DESC sg;
    OK(cuSurfObjectGetResourceDesc(&sg, s));
    TT_CHECK(sg.resType == CU_RESOURCE_TYPE_ARRAY && sg.res.array.hArray == a);
    OK(cuSurfObjectDestroy(s));
    OK(cuArrayDestroy(a));
    /* a surface needs an array made with CUDA_ARRAY3D_SURFACE_LDST */
    ad.Flags = 0;
    OK(cuArray3DCreate(&a, &ad));
    rd.res.array.hArray = a;
    CK(cuSurfObjectCreate(&s, &rd), CUDA_ERROR_INVALID_VALUE);
    OK(cuArrayDestroy(a));
    CK(cuSurfObjectCreate(&s, &rd), CUDA_ERROR_INVALID_HANDLE);   /* destroyed */
    rd.resType = CU_RESOURCE_TYPE_LINEAR;
    CK(cuSurfObjectCreate(&s, &rd), CUDA_ERROR_INVALID_VALUE);

    OK(cuMemFree(lin));
    OK(cuMemFree(dout));
    OK(cuModuleUnload(m));
}

static void tex_host_register(void)
{
    CUmodule m;
    CUfunction f;
    OK(cuModuleLoadData(&m, at_ptx_add1));
    OK(cuModuleGetFunction(&f, m, "add1"));
    int *h = aligned_alloc(4096, 4096);
    for (int i = 0; i < 1024; i++) h[i] = i;
    OK(cuMemHostRegister(h, 4096, CU_MEMHOSTREGISTER_DEVICEMAP));
    CK(cuMemHostRegister(h, 4096, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CUdeviceptr d;
    OK(cuMemHostGetDevicePointer(&d, h, 0));
    TT_EQ_U(d, (uintptr_t)h);
    unsigned flags = 0;
    OK(cuMemHostGetFlags(&flags, h));
    TT_CHECK(flags & CU_MEMHOSTREGISTER_DEVICEMAP);
    unsigned type = 0;
    OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
    TT_EQ_U(type, CU_MEMORYTYPE_HOST);
    int n = 1024;
    void *args[] = {&d, &n};
    OK(cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    OK(cuCtxSynchronize());
    int bad = 0;
    for (int i = 0; i < 1024; i++) bad += h[i] != i + 1;
    TT_EQ_I(bad, 0);
    CK(cuMemFree(d), CUDA_ERROR_INVALID_VALUE);        /* not device memory */
    CK(cuMemFreeHost(h), CUDA_ERROR_INVALID_VALUE);    /* not cuMemAllocHost's */
    OK(cuMemHostUnregister(h));
    CK(cuMemHostUnregister(h), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    CK(cuMemHostRegister(NULL, 16, 0), CUDA_ERROR_INVALID_VALUE);
    CK(cuMemHostRegister(h, 16, 0x100), CUDA_ERROR_INVALID_VALUE);
    free(h);
    OK(cuModuleUnload(m));
}

/* Destroying a context frees its arrays and objects. */
/* tex2DLayered<float>(t, x, y, layer), texCubemap<float>(t, x, y, z) and
** tex2DLod<float>(t, x, y, lod) of one (x, y, z, w) per thread into out[];
** w is the layer or the level of detail. */
static const char ptx_layers[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry sample(.param .u64 p_t, .param .u64 p_q, .param .u64 p_out, .param .u32 p_mode)\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .f32 %f<12>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [p_t];\n"
    "    ld.param.u64 %rd2, [p_q];\n"
    "    ld.param.u64 %rd3, [p_out];\n"
    "    ld.param.u32 %r3, [p_mode];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    cvta.to.global.u64 %rd4, %rd2;\n"
    "    mul.wide.u32 %rd5, %r1, 16;\n"
    "    add.s64 %rd4, %rd4, %rd5;\n"
    "    ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n"
    "    setp.eq.s32 %p1, %r3, 1;\n"
    "    setp.eq.s32 %p2, %r3, 2;\n"
    "    @%p1 bra CUBE;\n"
    "    @%p2 bra LOD;\n"
    "    cvt.rzi.s32.f32 %r2, %f4;\n"
    "    tex.a2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r2, %f1, %f2, %f2}];\n"
    "    bra STORE;\n"
    "CUBE:\n"
    "    tex.cube.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2, %f3, %f3}];\n"
    "    bra STORE;\n"
    "LOD:\n"
    "    tex.level.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}], %f4;\n"
    "STORE:\n"
    "    cvta.to.global.u64 %rd6, %rd3;\n"
    "    mul.wide.u32 %rd7, %r1, 4;\n"
    "    add.s64 %rd6, %rd6, %rd7;\n"
    "    st.global.f32 [%rd6], %f5;\n"
    "    ret;\n"
    "}\n";

/* Runs `sample` over n queries (x, y, z, w) with texture t in mode m. */
static void run_sample(CUfunction f, CUtexObject t, const float *q, int n, unsigned m, float *out)
{
    CUdeviceptr dq, dout;
    OK(cuMemAlloc(&dq, (size_t)n * 16));
    OK(cuMemAlloc(&dout, (size_t)n * 4));
    OK(cuMemcpyHtoD(dq, q, (size_t)n * 16));
    void *args[] = {&t, &dq, &dout, &m};
    OK(cuLaunchKernel(f, 1, 1, 1, (unsigned)n, 1, 1, 0, NULL, args, NULL));
    OK(cuMemcpyDtoH(out, dout, (size_t)n * 4));
    OK(cuMemFree(dq));
    OK(cuMemFree(dout));
}

static CUtexObject array_tex(CUarray a, CUmipmappedArray mm, bool normalized, float max_level)
{
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = mm ? CU_RESOURCE_TYPE_MIPMAPPED_ARRAY : CU_RESOURCE_TYPE_ARRAY;
    if (mm) rd.res.mipmap.hMipmappedArray = mm;
    else rd.res.array.hArray = a;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.flags = normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0;
    td.maxMipmapLevelClamp = max_level;
    CUtexObject t;
    OK(cuTexObjectCreate(&t, &rd, &td, NULL));
    return t;
}

static void tex_layers_levels(void)
{
    CUmodule m;
    CUfunction f;
    OK(cuModuleLoadData(&m, ptx_layers));
    OK(cuModuleGetFunction(&f, m, "sample"));

    /* shapes: a layered array needs layers, a cubemap six square faces */
    CUarray a;
    CUDA_ARRAY3D_DESCRIPTOR d = {4, 2, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED};
    CK(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE);
    d.Flags = CUDA_ARRAY3D_CUBEMAP, d.Depth = 6;
    CK(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE);   /* not square */
    d.Height = 4, d.Depth = 5;
    CK(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE);   /* not 6 faces */
    d.Flags |= CUDA_ARRAY3D_LAYERED, d.Depth = 13;
    CK(cuArray3DCreate(&a, &d), CUDA_ERROR_INVALID_VALUE);   /* not a multiple of 6 */

    /* a 2D layered array, 4 x 2 x 3, each layer copied with cuMemcpy3D */
    float img[3][2][4];
    for (int l = 0; l < 3; l++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++) img[l][y][x] = (float)(l * 100 + y * 10 + x);
    CUDA_ARRAY3D_DESCRIPTOR ld = {4, 2, 3, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED};
    OK(cuArray3DCreate(&a, &ld));
    CUDA_ARRAY3D_DESCRIPTOR back;
    OK(cuArray3DGetDescriptor(&back, a));
    TT_EQ_U(back.Depth, 3);
    TT_EQ_U(back.Flags, CUDA_ARRAY3D_LAYERED);
    CUDA_MEMCPY3D c3;
    memset(&c3, 0, sizeof c3);
    c3.srcMemoryType = CU_MEMORYTYPE_HOST, c3.srcHost = img, c3.srcPitch = 16, c3.srcHeight = 2;
    c3.dstMemoryType = CU_MEMORYTYPE_ARRAY, c3.dstArray = a;
    c3.WidthInBytes = 16, c3.Height = 2, c3.Depth = 3;
    OK(cuMemcpy3D(&c3));
    CUtexObject t = array_tex(a, NULL, false, 0);
    float q[8][4] = {{0.5f, 0.5f, 0, 0}, {3.5f, 1.5f, 0, 1}, {1.5f, 0.5f, 0, 2}, {2.5f, 1.5f, 0, 7},
                     {2.5f, 1.5f, 0, -3}, {9.0f, 9.0f, 0, 1}, {0.2f, 1.9f, 0, 2}, {3.9f, 0.1f, 0, 0}};
    /* layers 7 and -3 clamp to 2: the index is unsigned (what an H200 does) */
    float want[8] = {0, 113, 201, 212, 212, 113, 210, 3};
    float got[8];
    run_sample(f, t, &q[0][0], 8, 0, got);
    for (int i = 0; i < 8; i++) TT_EQ_I((int)got[i], (int)want[i]);
    OK(cuTexObjectDestroy(t));
    OK(cuArrayDestroy(a));

    /* a cubemap, 2 x 2 faces: face f holds f * 10 + texel */
    float faces[6][2][2];
    for (int s = 0; s < 6; s++)
        for (int i = 0; i < 4; i++) faces[s][i / 2][i % 2] = (float)(s * 10 + i);
    CUDA_ARRAY3D_DESCRIPTOR cd = {2, 2, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP};
    OK(cuArray3DCreate(&a, &cd));
    c3.dstArray = a, c3.srcHost = faces, c3.srcPitch = 8, c3.srcHeight = 2;
    c3.WidthInBytes = 8, c3.Height = 2, c3.Depth = 6;
    OK(cuMemcpy3D(&c3));
    t = array_tex(a, NULL, true, 0);
    /* +x: s = -z, t = -y; -x: s = z, t = -y; +y: s = x, t = z; -y: s = x,
    ** t = -z; +z: s = x, t = -y; -z: s = -x, t = -y */
    float cq[6][4] = {{1, 0.5f, 0.5f, 0}, {-1, 0.5f, 0.5f, 0}, {0.5f, 1, 0.5f, 0},
                      {0.5f, -1, 0.5f, 0}, {0.5f, 0.5f, 1, 0}, {-0.5f, -0.5f, -1, 0}};
    float cwant[6] = {0, 10 + 1, 20 + 3, 30 + 1, 40 + 1, 50 + 3};
    run_sample(f, t, &cq[0][0], 6, 1, got);
    for (int i = 0; i < 6; i++) TT_EQ_I((int)got[i], (int)cwant[i]);
    OK(cuTexObjectDestroy(t));
    OK(cuArrayDestroy(a));

    /* a mipmapped array, 8 x 8, 4 levels; level l holds l * 100 + texel */
    CUmipmappedArray mm;
    CUDA_ARRAY3D_DESCRIPTOR md = {8, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0};
    CK(cuMipmappedArrayCreate(&mm, &md, 5), CUDA_ERROR_INVALID_VALUE);   /* 8 x 8 has 4 levels */
    CK(cuMipmappedArrayCreate(&mm, &md, 0), CUDA_ERROR_INVALID_VALUE);
    OK(cuMipmappedArrayCreate(&mm, &md, 4));
    for (unsigned l = 0; l < 4; l++) {
        CUarray lv;
        OK(cuMipmappedArrayGetLevel(&lv, mm, l));
        OK(cuArray3DGetDescriptor(&back, lv));
        TT_EQ_U(back.Width, 8u >> l);
        TT_EQ_U(back.Height, 8u >> l);
        CK(cuArrayDestroy(lv), CUDA_ERROR_INVALID_VALUE);   /* the mipmapped array owns it */
        float lvl[64];
        unsigned w = 8u >> l;
        for (unsigned i = 0; i < w * w; i++) lvl[i] = (float)(l * 100 + i);
        OK(cuMemcpyHtoA(lv, 0, lvl, w * w * 4));
    }
    CUarray none;
    CK(cuMipmappedArrayGetLevel(&none, mm, 4), CUDA_ERROR_INVALID_VALUE);
    t = array_tex(NULL, mm, true, 3);
    /* (0.6, 0.3): level 0 texel (4, 2) = 20, level 1 (2, 1) = 106, level 2
    ** (1, 0) = 201, level 3 (0, 0) = 300 */
    float mq[6][4] = {{0.6f, 0.3f, 0, 0}, {0.6f, 0.3f, 0, 1}, {0.6f, 0.3f, 0, 2},
                      {0.6f, 0.3f, 0, 3}, {0.6f, 0.3f, 0, 9}, {0.6f, 0.3f, 0, 1.25f}};
    float mwant[6] = {20, 106, 201, 300, 300, 106};
    run_sample(f, t, &mq[0][0], 6, 2, got);
    for (int i = 0; i < 6; i++) TT_EQ_I((int)got[i], (int)mwant[i]);
    OK(cuTexObjectDestroy(t));
    OK(cuMipmappedArrayDestroy(mm));
    CK(cuMipmappedArrayDestroy(mm), CUDA_ERROR_INVALID_HANDLE);
    OK(cuModuleUnload(m));
}

static void tex_teardown(void)
{
    CUcontext c2;
    OK(cuCtxCreate(&c2, NULL, 0, 0));
    CUDA_ARRAY_DESCRIPTOR d = {64, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4};
    CUarray a;
    OK(cuArrayCreate(&a, &d));
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    CUtexObject t;
    OK(cuTexObjectCreate(&t, &rd, &td, NULL));
    OK(cuCtxDestroy(c2));
    OK(cuCtxSetCurrent(ctx));
    CUDA_ARRAY_DESCRIPTOR g;
    CK(cuArrayGetDescriptor(&g, a), CUDA_ERROR_INVALID_HANDLE);
    CK(cuTexObjectDestroy(t), CUDA_ERROR_INVALID_VALUE);
}

int main(void)
{
    at_init_ctx(&ctx);
    TT_RUN(tex_arrays);
    TT_RUN(tex_objects);
    TT_RUN(tex_host_register);
    TT_RUN(tex_layers_levels);
    TT_RUN(tex_teardown);
    OK(cuCtxDestroy(ctx));
    return tt_done();
}
