/*
** test_exec_tex.c -- texture and surface objects in the functional model.
** Expected values follow the CUDA Programming Guide's texture-fetching rules
** (worked out by hand beside each check): nearest point = T[floor(x)],
** linear = (1-a) T[i] + a T[i+1] with xB = x - 0.5, i = floor(xB),
** a = frac(xB) rounded to 8 fractional bits; address modes; normalized reads;
** mipmap levels of detail (tex.level, tex.grad, bias-free clamps, linear
** mipmap filtering, anisotropy) and txq on a layered mipmapped texture.
*/
#include "tests/unit/tt.h"
#include "tests/unit/exec_rig.h"
#include <stdlib.h>

/* out[i] = .x of tex at (x[i], y[i]) as f32 bits, and for fetch the int. */
static const char *tex_ptx = HDR
    ".visible .entry tex2f(.param .u64 t, .param .u64 xs, .param .u64 ys, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [xs]; ld.param.u64 %rd3, [ys]; ld.param.u64 %rd4, [out];\n"
    "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd5, %r1, 4;\n"
    "  add.s64 %rd6, %rd2, %rd5; ld.global.f32 %f1, [%rd6];\n"
    "  add.s64 %rd6, %rd3, %rd5; ld.global.f32 %f2, [%rd6];\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  add.s64 %rd6, %rd4, %rd5; st.global.f32 [%rd6], %f3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex3f(.param .u64 t, .param .u64 xs, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<12>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [xs]; ld.param.u64 %rd4, [out];\n"
    "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd5, %r1, 12;\n"
    "  add.s64 %rd6, %rd2, %rd5; ld.global.f32 %f1, [%rd6]; ld.global.f32 %f2, [%rd6+4]; ld.global.f32 %f3, [%rd6+8];\n"
    "  mov.f32 %f4, 0f00000000;\n"
    "  tex.3d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2, %f3, %f4}];\n"
    "  mul.wide.u32 %rd5, %r1, 4; add.s64 %rd6, %rd4, %rd5; st.global.f32 [%rd6], %f5;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex1f(.param .u64 t, .param .u64 xs, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [xs]; ld.param.u64 %rd4, [out];\n"
    "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd5, %r1, 4;\n"
    "  add.s64 %rd6, %rd2, %rd5; ld.global.f32 %f1, [%rd6];\n"
    "  tex.1d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1}];\n"
    "  mul.wide.u32 %rd7, %r1, 16; add.s64 %rd6, %rd4, %rd7;\n"
    "  st.global.v4.f32 [%rd6], {%f3, %f4, %f5, %f6};\n"
    "  ret;\n"
    "}\n"
    ".visible .entry fetch(.param .u64 t, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd4, [out];\n"
    "  mov.u32 %r1, %tid.x; add.s32 %r2, %r1, -1;\n"
    "  tex.1d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd1, {%r2}];\n"
    "  txq.width.b32 %r7, [%rd1];\n"
    "  add.s32 %r3, %r3, %r7;\n"
    "  mul.wide.u32 %rd5, %r1, 4; add.s64 %rd6, %rd4, %rd5; st.global.u32 [%rd6], %r3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry gather(.param .u64 t, .param .u64 out)\n"
    "{\n"
    "  .reg .f32 %f<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out];\n"
    "  mov.f32 %f1, 0f3FC00000; mov.f32 %f2, 0f40000000;\n" /* (1.5, 2.0) */
    "  tld4.r.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  st.global.v4.f32 [%rd2], {%f3, %f4, %f5, %f6};\n"
    "  ret;\n"
    "}\n"
    ".visible .entry surf(.param .u64 s, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [s]; ld.param.u64 %rd4, [out];\n"
    "  mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 2; mul.lo.u32 %r3, %r1, 7;\n"
    "  sust.b.2d.b32.trap [%rd1, {%r2, %r1}], {%r3};\n"
    "  suld.b.2d.b32.trap {%r4}, [%rd1, {%r2, %r1}];\n"
    "  add.s32 %r5, %r2, 400;\n"
    "  suld.b.2d.b32.zero {%r6}, [%rd1, {%r5, %r1}];\n"
    "  add.s32 %r4, %r4, %r6;\n"
    "  mul.wide.u32 %rd5, %r1, 4; add.s64 %rd6, %rd4, %rd5; st.global.u32 [%rd6], %r4;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry surftrap(.param .u64 s)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [s]; mov.u32 %r1, 1000; mov.u32 %r2, 0;\n"
    "  sust.b.2d.b32.trap [%rd1, {%r1, %r2}], {%r2};\n"
    "  ret;\n"
    "}\n"
    /* out[i] = tex.level at (0.3, 0.6) with lod xs[i]; out[4+i] = tex.grad
    ** with gradients (xs[i], 0) and (0, ys[i]); out[8], out[9] =
    ** txq.num_mipmap_levels, txq.array_size */
    ".visible .entry mip(.param .u64 t, .param .u64 xs, .param .u64 ys, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<12>; .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [xs]; ld.param.u64 %rd3, [ys]; ld.param.u64 %rd4, [out];\n"
    "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd5, %r1, 4;\n"
    "  add.s64 %rd6, %rd2, %rd5; ld.global.f32 %f1, [%rd6];\n"
    "  add.s64 %rd6, %rd3, %rd5; ld.global.f32 %f2, [%rd6];\n"
    "  mov.f32 %f7, 0f3E99999A; mov.f32 %f8, 0f3F19999A; mov.f32 %f9, 0f00000000;\n"
    "  tex.level.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f7, %f8}], %f1;\n"
    "  add.s64 %rd6, %rd4, %rd5; st.global.f32 [%rd6], %f3;\n"
    "  tex.grad.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f7, %f8}], {%f1, %f9}, {%f9, %f2};\n"
    "  st.global.f32 [%rd6+16], %f3;\n"
    "  txq.num_mipmap_levels.b32 %r2, [%rd1];\n"
    "  txq.array_size.b32 %r3, [%rd1];\n"
    "  st.global.u32 [%rd4+32], %r2; st.global.u32 [%rd4+36], %r3;\n"
    "  ret;\n"
    "}\n";

static exec_dev *dev;
static exec_mod *mod;

static exec_status launch(const char *k, uint32_t threads, uint64_t *params, uint32_t n, exec_result *r)
{
    return exec_rig_launch(mod, k, 1, threads, params, n * 8, r);
}

static uint64_t upload(const void *p, size_t n)
{
    uint64_t a = exec_mem_alloc(dev, n, 256);
    memcpy(exec_mem_host(dev, a, n), p, n);
    return a;
}

static float f32(uint64_t a, int i)
{
    float f;
    memcpy(&f, (char *)exec_mem_host(dev, a, 4 * (i + 1)) + 4 * i, 4);
    return f;
}

static void t_point_and_linear_2d(void)
{
    /* A 4x4 float texture, T[y][x] = 10*y + x, pitch 16 bytes. */
    float tex[16];
    for (int i = 0; i < 16; i++) tex[i] = (float)(10 * (i / 4) + i % 4);
    uint64_t data = upload(tex, sizeof tex);
    exec_texdesc d = {data, 2, 4, 4, 1, 16, 1, 32, EXEC_TEX_FLOAT, false, false, false,
                      {EXEC_TEX_CLAMP, EXEC_TEX_CLAMP, EXEC_TEX_CLAMP}, {0, 0, 0, 0}};
    uint64_t tp = exec_tex_create(dev, &d, false);
    d.linear_filter = true;
    uint64_t tl = exec_tex_create(dev, &d, false);
    d.linear_filter = false;
    d.addr_mode[0] = d.addr_mode[1] = EXEC_TEX_BORDER;
    d.border[0] = 99;
    uint64_t tb = exec_tex_create(dev, &d, false);
    TT_CHECK(tp && tl && tb && tp != tl);
    float xs[4] = {1.7f, 2.0f, 9.0f, 1.5f}, ys[4] = {2.2f, 1.5f, 0.0f, 1.5f};
    uint64_t dx = upload(xs, 16), dy = upload(ys, 16), out = exec_mem_alloc(dev, 16, 256);
    exec_result r;
    uint64_t p1[4] = {tp, dx, dy, out};
    TT_EQ_I(launch("tex2f", 4, p1, 4, &r), EXEC_OK);
    TT_CHECK(f32(out, 0) == 21.0f);  /* floor(1.7)=1, floor(2.2)=2: T[2][1] */
    TT_CHECK(f32(out, 1) == 12.0f);  /* T[1][2] */
    TT_CHECK(f32(out, 2) == 3.0f);   /* x clamps to 3: T[0][3] */
    TT_CHECK(f32(out, 3) == 11.0f);  /* T[1][1] */
    uint64_t p2[4] = {tl, dx, dy, out};
    TT_EQ_I(launch("tex2f", 4, p2, 4, &r), EXEC_OK);
    /* (1.5, 1.5): xB = yB = 1.0 exactly: T[1][1] = 11. */
    TT_CHECK(f32(out, 3) == 11.0f);
    /* (2.0, 1.5): xB = 1.5 -> i=1, a=0.5; yB = 1.0 -> j=1, b=0: 0.5*11 + 0.5*12 = 11.5 */
    TT_CHECK(f32(out, 1) == 11.5f);
    /* (1.7, 2.2): xB = 1.2: a = round(0.2*256)/256 = 51/256; yB = 1.7: b = round(0.7*256)/256 = 179/256.
    ** T[1][1]=11, T[1][2]=12, T[2][1]=21, T[2][2]=22: 11 + a + 10 b. */
    double want = 11.0 + 51.0 / 256 + 10.0 * 179.0 / 256;
    TT_CHECK(fabs(f32(out, 0) - want) < 1e-5);
    uint64_t p3[4] = {tb, dx, dy, out};
    TT_EQ_I(launch("tex2f", 4, p3, 4, &r), EXEC_OK);
    TT_CHECK(f32(out, 2) == 99.0f); /* x = 9 is outside: the border colour */
    TT_CHECK(f32(out, 0) == 21.0f);
    TT_CHECK(exec_tex_destroy(dev, tb));
    TT_CHECK(!exec_tex_destroy(dev, tb));
    TT_EQ_I(launch("tex2f", 4, p3, 4, &r), EXEC_ERR_ILLEGAL_ADDRESS);
    TT_HAS(r.msg, "not a live texture object");
}

static void t_normalized_and_wrap(void)
{
    /* 1D uchar4 texture of 4 texels, read as normalized floats, wrap. */
    uint8_t tex[16] = {0, 51, 102, 255, 255, 0, 0, 0, 10, 20, 30, 40, 1, 2, 3, 4};
    uint64_t data = upload(tex, sizeof tex);
    exec_texdesc d = {data, 1, 4, 1, 1, 16, 4, 8, EXEC_TEX_UNSIGNED, true, true, false,
                      {EXEC_TEX_WRAP, EXEC_TEX_WRAP, EXEC_TEX_WRAP}, {0, 0, 0, 0}};
    uint64_t t = exec_tex_create(dev, &d, false);
    float xs[2] = {1.125f, -0.875f}; /* wrap: frac = 0.125 -> texel 0.5 -> T[0] both */
    uint64_t dx = upload(xs, 8), out = exec_mem_alloc(dev, 32, 256);
    exec_result r;
    uint64_t p[3] = {t, dx, out};
    TT_EQ_I(launch("tex1f", 2, p, 3, &r), EXEC_OK);
    for (int k = 0; k < 2; k++) {
        TT_CHECK(f32(out, 4 * k + 0) == 0.0f);
        TT_CHECK(f32(out, 4 * k + 1) == 0.2f);   /* 51/255 */
        TT_CHECK(f32(out, 4 * k + 2) == 0.4f);   /* 102/255 */
        TT_CHECK(f32(out, 4 * k + 3) == 1.0f);
    }
}

static void t_fetch_and_query(void)
{
    int32_t v[8];
    for (int i = 0; i < 8; i++) v[i] = 100 * i - 3;
    uint64_t data = upload(v, sizeof v);
    exec_texdesc d = {data, 1, 8, 1, 1, 32, 1, 32, EXEC_TEX_SIGNED, false, false, false,
                      {EXEC_TEX_CLAMP, EXEC_TEX_CLAMP, EXEC_TEX_CLAMP}, {0, 0, 0, 0}};
    uint64_t t = exec_tex_create(dev, &d, false);
    uint64_t out = exec_mem_alloc(dev, 40, 256);
    exec_result r;
    uint64_t p[2] = {t, out};
    TT_EQ_I(launch("fetch", 10, p, 2, &r), EXEC_OK);
    int32_t *o = exec_mem_host(dev, out, 40);
    /* thread i fetches element i-1 (0 outside [0, 8)) and adds the width 8 */
    for (int i = 0; i < 10; i++) TT_EQ_I(o[i], (i >= 1 && i <= 8 ? 100 * (i - 1) - 3 : 0) + 8);
}

static void t_gather(void)
{
    float tex[16];
    for (int i = 0; i < 16; i++) tex[i] = (float)(10 * (i / 4) + i % 4);
    uint64_t data = upload(tex, sizeof tex);
    exec_texdesc d = {data, 2, 4, 4, 1, 16, 1, 32, EXEC_TEX_FLOAT, false, false, false,
                      {EXEC_TEX_CLAMP, EXEC_TEX_CLAMP, EXEC_TEX_CLAMP}, {0, 0, 0, 0}};
    uint64_t t = exec_tex_create(dev, &d, false);
    uint64_t out = exec_mem_alloc(dev, 16, 256);
    exec_result r;
    uint64_t p[2] = {t, out};
    TT_EQ_I(launch("gather", 1, p, 2, &r), EXEC_OK);
    /* (1.5, 2.0): i = floor(1.0) = 1, j = floor(1.5) = 1: (i,j+1)=T[2][1]=21,
    ** (i+1,j+1)=T[2][2]=22, (i+1,j)=T[1][2]=12, (i,j)=T[1][1]=11. */
    TT_CHECK(f32(out, 0) == 21.0f);
    TT_CHECK(f32(out, 1) == 22.0f);
    TT_CHECK(f32(out, 2) == 12.0f);
    TT_CHECK(f32(out, 3) == 11.0f);
}

static void t_surfaces(void)
{
    /* 100x32 surface of 32-bit elements, pitch 512 bytes. */
    uint64_t data = exec_mem_alloc(dev, 512 * 32, 256);
    exec_texdesc d = {data, 2, 100, 32, 1, 512, 1, 32, EXEC_TEX_UNSIGNED, false, false, false,
                      {EXEC_TEX_CLAMP, EXEC_TEX_CLAMP, EXEC_TEX_CLAMP}, {0, 0, 0, 0}};
    uint64_t s = exec_tex_create(dev, &d, true);
    uint64_t out = exec_mem_alloc(dev, 32 * 4, 256);
    exec_result r;
    uint64_t p[2] = {s, out};
    TT_EQ_I(launch("surf", 32, p, 2, &r), EXEC_OK);
    uint32_t *o = exec_mem_host(dev, out, 128), *img = exec_mem_host(dev, data, 512 * 32);
    for (uint32_t i = 0; i < 32; i++) {
        TT_EQ_U(img[i * 128 + i], 7 * i);  /* row i (pitch 512 B = 128 words), element i */
        /* x = 4i + 400 bytes is past 100 elements only for i >= 0: 400 + 4i >= 400 = 100*4 -> .zero gives 0 */
        TT_EQ_U(o[i], 7 * i);
    }
    uint64_t p2[1] = {s};
    TT_EQ_I(launch("surftrap", 1, p2, 1, &r), EXEC_ERR_ILLEGAL_ADDRESS);
    TT_HAS(r.msg, "surface access");
    /* a texture handle is not a surface */
    float one = 1;
    exec_texdesc td = {upload(&one, 4), 1, 1, 1, 1, 4, 1, 32, EXEC_TEX_FLOAT, false, false, false,
                       {EXEC_TEX_CLAMP, EXEC_TEX_CLAMP, EXEC_TEX_CLAMP}, {0, 0, 0, 0}};
    uint64_t t = exec_tex_create(dev, &td, false);
    uint64_t p3[2] = {t, out};
    TT_EQ_I(launch("surf", 1, p3, 2, &r), EXEC_ERR_ILLEGAL_ADDRESS);
    TT_HAS(r.msg, "not a live surface object");
}

static void t_mipmaps(void)
{
    /* 4x4, 2x2, 1x1 float levels of 2 layers (layer 0 sampled): level l
    ** holds 8 * l everywhere, so the result is 8 * (the level of detail
    ** used); linear mipmap filtering, levels clamped to [0, 2]. */
    float l0[2 * 16], l1[2 * 4], l2[2 * 1];
    for (int i = 0; i < 32; i++) l0[i] = 0;
    for (int i = 0; i < 8; i++) l1[i] = 8;
    for (int i = 0; i < 2; i++) l2[i] = 16;
    exec_texdesc d = {upload(l0, sizeof l0), 2, 4, 4, 2, 16, 1, 32, EXEC_TEX_FLOAT, false, true, false,
                      {EXEC_TEX_CLAMP, EXEC_TEX_CLAMP, EXEC_TEX_CLAMP}, {0, 0, 0, 0}};
    d.layered = true;
    d.levels = 3;
    d.level_addr[0] = d.addr;
    d.level_addr[1] = upload(l1, sizeof l1);
    d.level_addr[2] = upload(l2, sizeof l2);
    d.mip_linear = true;
    d.max_lod = 2;
    uint64_t t = exec_tex_create(dev, &d, false);
    /* lods 0.5, 1.25, 3 (clamped to 2), -1 (clamped to 0); gradients
    ** (in normalized coordinates, x 4 texels): 0.5 -> 2 texels -> lod 1;
    ** 0.25 -> lod 0; 1.0 with y 0.5 -> 4 texels -> lod 2; 0.125 -> 0 */
    float xs[4] = {0.5f, 1.25f, 3.0f, -1.0f}, ys[4] = {0, 0, 0.5f, 0};
    float gx[4] = {0.5f, 0.25f, 1.0f, 0.125f};
    uint64_t dx = upload(xs, 16), dy = upload(ys, 16), out = exec_mem_alloc(dev, 64, 256);
    exec_result r;
    uint64_t p[4] = {t, dx, dy, out};
    TT_EQ_I(launch("mip", 4, p, 4, &r), EXEC_OK);
    TT_CHECK(f32(out, 0) == 4.0f);
    TT_CHECK(f32(out, 1) == 10.0f);
    TT_CHECK(f32(out, 2) == 16.0f);
    TT_CHECK(f32(out, 3) == 0.0f);
    uint32_t q[2];
    memcpy(q, exec_mem_host(dev, out + 32, 8), 8);
    TT_EQ_U(q[0], 3);
    TT_EQ_U(q[1], 2);
    uint64_t dg = upload(gx, 16);
    uint64_t pg[4] = {t, dg, dy, out};
    TT_EQ_I(launch("mip", 4, pg, 4, &r), EXEC_OK);
    TT_CHECK(f32(out, 4) == 8.0f);
    TT_CHECK(f32(out, 5) == 0.0f);
    TT_CHECK(f32(out, 6) == 16.0f);
    TT_CHECK(f32(out, 7) == 0.0f);
    /* anisotropic: gradients 0.5 and 0.125 (2 and 0.5 texels), ratio 4,
    ** max_aniso 4: lod log2(2 / 4) < 0 -> level 0 */
    d.max_aniso = 4;
    uint64_t ta = exec_tex_create(dev, &d, false);
    float g2x[1] = {0.5f}, g2y[1] = {0.125f};
    uint64_t p2[4] = {ta, upload(g2x, 4), upload(g2y, 4), out};
    TT_EQ_I(launch("mip", 1, p2, 4, &r), EXEC_OK);
    TT_CHECK(f32(out, 4) == 0.0f);
    TT_CHECK(exec_tex_destroy(dev, t));
    TT_CHECK(exec_tex_destroy(dev, ta));
}

/* The four bilinear weights are integers of 1/256 that sum to 1: the far
** corner's W11 = (A*B + 128) >> 8 with A, B the 1-D weights in 1/256, the
** others A - W11, B - W11, 256 - A - B + W11 (measured on an H200 with an
** impulse texel: tools/device/probe_api.cu, docs/VALIDATION.md).  An impulse
** at (3,3) of an 8x8 texture, sampled where the plain products would give
** half a step: the rule rounds the far corner up and takes the rest from
** the near ones. */
static void t_bilinear_weights(void)
{
    float tex[64] = {0};
    tex[3 * 8 + 3] = 1.0f;
    uint64_t data = upload(tex, sizeof tex);
    exec_texdesc d = {data, 2, 8, 8, 1, 32, 1, 32, EXEC_TEX_FLOAT, false, false, true,
                      {EXEC_TEX_CLAMP, EXEC_TEX_CLAMP, EXEC_TEX_CLAMP}, {0, 0, 0, 0}};
    uint64_t t = exec_tex_create(dev, &d, false);
    TT_CHECK(t != 0);
    /* (2.625, 2.515625): A = 32, B = 4, texel 3 is the far corner (i+1, j+1):
    **   W11 = (128 + 128) >> 8 = 1 (products: 0.5).
    ** (4.375, 2.515625): A = 224, texel 3 is (i, j+1): W01 = B - W11 = 4 - 4 = 0
    **   (products: 3.5).
    ** (2.625, 3.515625): A = 32, B = 4, texel 3 is (i+1, j): W10 = A - W11 = 31
    **   (products: 31.5).
    ** (3.5, 3.5): the texel itself, weight 256. */
    float xs[4] = {2.625f, 4.375f, 2.625f, 3.5f}, ys[4] = {2.515625f, 2.515625f, 3.515625f, 3.5f};
    uint64_t dx = upload(xs, 16), dy = upload(ys, 16), out = exec_mem_alloc(dev, 16, 256);
    exec_result r;
    uint64_t p[4] = {t, dx, dy, out};
    TT_EQ_I(launch("tex2f", 4, p, 4, &r), EXEC_OK);
    TT_CHECK(f32(out, 0) == 1.0f / 256);
    TT_CHECK(f32(out, 1) == 0.0f);
    TT_CHECK(f32(out, 2) == 31.0f / 256);
    TT_CHECK(f32(out, 3) == 1.0f);
    TT_CHECK(exec_tex_destroy(dev, t));
}

/* 3D: each z slice (weight gz = 256 - G or G) splits gz by the 2D rule
** scaled to it: Ax = [A gz/256], By = [B gz/256], W11 = [A B gz/65536],
** W10 = Ax - W11, W01 = By - W11, W00 = gz - Ax - By + W11 ([ ]: half up;
** measured on an H200 as the 2D rule was).  An impulse at (3,3,3) of an
** 8x8x8 texture at A = 128, B = 16, G = 16 (every product a tie), texel 3
** as each of the eight corners in turn: the weights 113, 112, 7, 8 (near z)
** and 8, 7, 0, 1 (far z), where rounding each product half up gives 113,
** 113, 8, 8, 8, 8, 1, 1 (total 260). */
static void t_trilinear_weights(void)
{
    static float tex[512];
    tex[(3 * 8 + 3) * 8 + 3] = 1.0f;
    uint64_t data = upload(tex, sizeof tex);
    exec_texdesc d = {data, 3, 8, 8, 8, 32, 1, 32, EXEC_TEX_FLOAT, false, false, true,
                      {EXEC_TEX_CLAMP, EXEC_TEX_CLAMP, EXEC_TEX_CLAMP}, {0, 0, 0, 0}};
    uint64_t t = exec_tex_create(dev, &d, false);
    TT_CHECK(t != 0);
    /* A = 128: x = i + 1.0; B = G = 16: y, z = j + 0.5625.  Texel 3 is the
    ** near corner when i (j, k) = 3, the far one when 2. */
    float q[8][3];
    int want[8];
    for (int c = 0; c < 8; c++) {
        int di = c & 1, dj = (c >> 1) & 1, dk = c >> 2;
        q[c][0] = (float)(3 - di) + 1.0f;
        q[c][1] = (float)(3 - dj) + 0.5625f;
        q[c][2] = (float)(3 - dk) + 0.5625f;
        static const int w[2][2][2] = {{{113, 112}, {7, 8}}, {{8, 7}, {0, 1}}}; /* [dk][dj][di] */
        want[c] = w[dk][dj][di];
    }
    uint64_t dq = upload(q, sizeof q), out = exec_mem_alloc(dev, 32, 256);
    exec_result r;
    uint64_t p[3] = {t, dq, out};
    TT_EQ_I(launch("tex3f", 8, p, 3, &r), EXEC_OK);
    for (int c = 0; c < 8; c++) TT_EQ_I((int)(f32(out, c) * 256.0f + 0.5f), want[c]);
    TT_CHECK(exec_tex_destroy(dev, t));
}

int main(void)
{
    dev = exec_rig_dev(NULL);
    mod = exec_rig_load(dev, tex_ptx, "tex.ptx");
    if (!mod) {
        printf("FAIL setup: tex.ptx\n");
        return 1;
    }
    TT_RUN(t_point_and_linear_2d);
    TT_RUN(t_bilinear_weights);
    TT_RUN(t_trilinear_weights);
    TT_RUN(t_normalized_and_wrap);
    TT_RUN(t_fetch_and_query);
    TT_RUN(t_gather);
    TT_RUN(t_surfaces);
    TT_RUN(t_mipmaps);
    exec_mod_unload(mod);
    exec_dev_destroy(dev);
    return tt_done();
}
