/*
** tex.c -- texture and surface objects and the instructions that use them:
** tex, tld4, txq (textures) and suld, sust, suq (surfaces).
**
** An object is a handle into the device's table of exec_texdesc (exec.h);
** kernels receive it as a 64-bit parameter.  Texture sampling follows the
** CUDA Programming Guide's "Texture Fetching" appendix:
**   - nearest-point: tex(x) = T[floor(x)] (x in texels; normalized
**     coordinates are first multiplied by the size),
**   - linear: xB = x - 0.5, i = floor(xB), alpha = frac(xB) kept as a 9-bit
**     fixed-point value with 8 fractional bits; tex(x) = (1-alpha) T[i] +
**     alpha T[i+1]; in 2D and 3D the footprint's weights are themselves
**     rounded to 1/256 so that they sum to 1 (measured on a real GPU:
**     sample()),
**   - address modes on out-of-range texel indices: clamp to the edge, wrap and
**     mirror (normalized coordinates), border (the border colour),
**   - integer channels read as normalized floats when asked:
**     unsigned v / (2^bits - 1), signed max(v / (2^(bits-1) - 1), -1).
** tex with integer coordinates (tex1Dfetch) reads the element directly and
** returns 0 out of range.  Missing channels read as 0 (alpha as 1).
** Surface coordinates are in bytes along x (suld.b/sust.b); out-of-range
** accesses trap (a fault), clamp, or read 0 / drop the write, as the
** instruction says.
*/
#include "check.h"
#include <math.h>
#include <stdlib.h>

typedef struct exec_texobj {
    exec_texdesc d;
    uint8_t kind; /* 0 free, 1 texture, 2 surface */
} exec_texobj;

typedef struct exec_textab {
    exec_texobj *a;
    uint32_t n, cap;
} exec_textab;

static exec_textab *tab_of(const exec_dev *d) { return (exec_textab *)d->textab; }

uint64_t exec_tex_create(exec_dev *d, const exec_texdesc *desc, bool is_surface)
{
    exec_textab *t = tab_of(d);
    if (!t) t = d->textab = tp_calloc(1, sizeof *t);
    uint32_t i = 0;
    while (i < t->n && t->a[i].kind) i++;
    if (i == t->n) {
        if (t->n == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 16;
            t->a = tp_realloc(t->a, t->cap * sizeof *t->a);
        }
        t->n++;
    }
    t->a[i].d = *desc;
    if (!t->a[i].d.height) t->a[i].d.height = 1;
    if (!t->a[i].d.depth) t->a[i].d.depth = 1;
    t->a[i].kind = is_surface ? 2 : 1;
    return (uint64_t)i + 1;
}

static exec_texobj *lookup(const exec_dev *d, uint64_t h)
{
    exec_textab *t = tab_of(d);
    if (!t || h == 0 || h > t->n || !t->a[h - 1].kind) return NULL;
    return &t->a[h - 1];
}

bool exec_tex_destroy(exec_dev *d, uint64_t h)
{
    exec_texobj *o = lookup(d, h);
    if (!o) return false;
    o->kind = 0;
    return true;
}

void exec_tex_free_all(exec_dev *d)
{
    exec_textab *t = tab_of(d);
    if (!t) return;
    free(t->a);
    free(t);
    d->textab = NULL;
}

/* ---- reading elements ------------------------------------------------------------ */

static unsigned elem_bytes(const exec_texdesc *t) { return t->channels * t->channel_bits / 8; }

/* Reads channel c of the element at p as raw bits (sign-extended for signed). */
static uint32_t read_raw(const exec_texdesc *t, const uint8_t *p, unsigned c)
{
    unsigned cb = t->channel_bits / 8;
    const uint8_t *q = p + c * cb;
    switch (cb) {
    case 1: return t->fmt == EXEC_TEX_SIGNED ? (uint32_t)(int32_t)(int8_t)q[0] : q[0];
    case 2: {
        uint16_t v;
        memcpy(&v, q, 2);
        return t->fmt == EXEC_TEX_SIGNED ? (uint32_t)(int32_t)(int16_t)v : v;
    }
    default: {
        uint32_t v;
        memcpy(&v, q, 4);
        return v;
    }
    }
}

/* Channel c as a float, as a float-returning fetch sees it. */
static float read_float(const exec_texdesc *t, const uint8_t *p, unsigned c)
{
    uint32_t raw = read_raw(t, p, c);
    unsigned bits = t->channel_bits;
    if (t->fmt == EXEC_TEX_FLOAT) {
        if (bits == 16) return exec_u2f(num_h_to_f32((uint16_t)raw, NUM_F16));
        return exec_u2f(raw);
    }
    if (!t->read_normalized) {
        if (t->fmt == EXEC_TEX_SIGNED) return (float)(int32_t)raw;
        return (float)raw;
    }
    if (t->fmt == EXEC_TEX_SIGNED) {
        double m = (double)((1u << (bits - 1)) - 1);
        double v = (double)(int32_t)raw / m;
        return (float)(v < -1.0 ? -1.0 : v);
    }
    double m = bits == 32 ? 4294967295.0 : (double)((1u << bits) - 1);
    return (float)((double)raw / m);
}

/* Applies an address mode to texel index i of a dimension of size n; false
** means "outside: use the border colour". */
static bool address(exec_texaddr mode, int64_t *i, int64_t n)
{
    if (*i >= 0 && *i < n) return true;
    switch (mode) {
    case EXEC_TEX_BORDER: return false;
    case EXEC_TEX_WRAP: {
        int64_t r = *i % n;
        *i = r < 0 ? r + n : r;
        return true;
    }
    case EXEC_TEX_MIRROR: {
        int64_t p = 2 * n, r = *i % p;
        if (r < 0) r += p;
        *i = r < n ? r : p - 1 - r;
        return true;
    }
    default:
        *i = *i < 0 ? 0 : n - 1;
        return true;
    }
}

/* The texel at integer coordinates, as floats (border colour outside). */
static void texel_f(const exec_texdesc *t, int64_t x, int64_t y, int64_t z, float out[4])
{
    bool in = address(t->addr_mode[0], &x, t->width);
    if (t->dims > 1) in = address(t->addr_mode[1], &y, t->height) && in;
    if (t->dims > 2) in = address(t->addr_mode[2], &z, t->depth) && in;
    if (!in) {
        for (int c = 0; c < 4; c++) out[c] = t->border[c];
        return;
    }
    const uint8_t *p = (const uint8_t *)(uintptr_t)(t->addr + (uint64_t)z * t->pitch * t->height +
                                                    (uint64_t)y * t->pitch + (uint64_t)x * elem_bytes(t));
    for (unsigned c = 0; c < 4; c++) out[c] = c < t->channels ? read_float(t, p, c) : (c == 3 ? 1.0f : 0.0f);
}

static void texel_raw(const exec_texdesc *t, int64_t x, int64_t y, int64_t z, uint32_t out[4])
{
    bool in = address(t->addr_mode[0], &x, t->width);
    if (t->dims > 1) in = address(t->addr_mode[1], &y, t->height) && in;
    if (t->dims > 2) in = address(t->addr_mode[2], &z, t->depth) && in;
    if (!in) {
        for (int c = 0; c < 4; c++) out[c] = exec_f2u(t->border[c]);
        return;
    }
    const uint8_t *p = (const uint8_t *)(uintptr_t)(t->addr + (uint64_t)z * t->pitch * t->height +
                                                    (uint64_t)y * t->pitch + (uint64_t)x * elem_bytes(t));
    for (unsigned c = 0; c < 4; c++) out[c] = c < t->channels ? read_raw(t, p, c) : (c == 3 ? 1 : 0);
}

/* Texel-space coordinate along a dimension of size n. */
static double to_texels(const exec_texdesc *t, exec_texaddr mode, double x, uint32_t n)
{
    if (!t->normalized_coords) return x;
    if (mode == EXEC_TEX_WRAP) x -= floor(x);
    else if (mode == EXEC_TEX_MIRROR) {
        double f = floor(x);
        x = ((int64_t)f & 1) ? 1.0 - (x - f) : x - f;
    }
    return x * n;
}

/* Samples at float coordinates (x, y, z) with the object's filter. */
static void sample(const exec_texdesc *t, double x, double y, double z, float out[4])
{
    double u = to_texels(t, t->addr_mode[0], x, t->width);
    double v = t->dims > 1 ? to_texels(t, t->addr_mode[1], y, t->height) : 0;
    double w = t->dims > 2 ? to_texels(t, t->addr_mode[2], z, t->depth) : 0;
    if (!t->linear_filter) {
        texel_f(t, (int64_t)floor(u), (int64_t)floor(v), (int64_t)floor(w), out);
        return;
    }
    double ub = u - 0.5, vb = v - 0.5, wb = w - 0.5;
    int64_t i = (int64_t)floor(ub), j = (int64_t)floor(vb), k = (int64_t)floor(wb);
    /* 9-bit fixed-point weights, 8 fractional bits: A, B, G in 1/256 steps.
    ** The footprint's weights are integers of 1/256 too, summing to 1: each
    ** z slice (weight gz: 256 - G and G in 3D, 256 in 1D and 2D) splits its gz
    ** as Ax = [A gz / 256], By = [B gz / 256], W11 = [A B gz / 65536] (the far
    ** corner), W10 = Ax - W11, W01 = By - W11, W00 = gz - Ax - By + W11, [ ]
    ** rounding half up.  Measured with an impulse texel on an H200
    ** (tools/device/probe_api.cu; docs/VALIDATION.md, "On a real GPU"): every
    ** one of 37,249 points of a 2-D grid and 117,649 of a 3-D one, where the
    ** plain products (1-a)(1-b)... miss 36% and 18% of them. */
    int A = (int)round((ub - floor(ub)) * 256.0);
    int B = t->dims > 1 ? (int)round((vb - floor(vb)) * 256.0) : 0;
    int G = t->dims > 2 ? (int)round((wb - floor(wb)) * 256.0) : 0;
    float acc[4] = {0, 0, 0, 0};
    int nj = t->dims > 1 ? 2 : 1, nk = t->dims > 2 ? 2 : 1;
    for (int dk = 0; dk < nk; dk++) {
        int64_t gz = t->dims > 2 ? (dk ? G : 256 - G) : 256;
        int64_t ax = (A * gz + 128) >> 8, by = (B * gz + 128) >> 8, w11 = ((int64_t)A * B * gz + 32768) >> 16;
        int64_t W[2][2] = {{gz - ax - by + w11, ax - w11}, {by - w11, w11}}; /* [dj][di] */
        for (int dj = 0; dj < nj; dj++)
            for (int di = 0; di < 2; di++) {
                float wgt = (float)W[dj][di] / 256.0f;
                float tv[4];
                texel_f(t, i + di, t->dims > 1 ? j + dj : 0, t->dims > 2 ? k + dk : 0, tv);
                for (int c = 0; c < 4; c++) acc[c] += wgt * tv[c];
            }
    }
    for (int c = 0; c < 4; c++) out[c] = acc[c];
}

/* ---- layers, cubemap faces and mipmap levels --------------------------------------- */

/* Slice s (a layer, or a face of a cubemap) of mip level lv of t, as a texture
** of its own: its extents, address and pitch. */
static void view_of(const exec_texdesc *t, unsigned lv, int64_t s, exec_texdesc *v)
{
    *v = *t;
    if (lv > 0 && lv < t->levels) {
        v->addr = t->level_addr[lv];
        v->width = t->width >> lv ? t->width >> lv : 1;
        if (t->dims > 1) v->height = t->height >> lv ? t->height >> lv : 1;
        if (t->dims > 2 && !t->layered && !t->cubemap) v->depth = t->depth >> lv ? t->depth >> lv : 1;
        v->pitch = (uint64_t)v->width * elem_bytes(t);
    }
    if (t->layered || t->cubemap) {
        if (s < 0) s = 0;
        if (s >= v->depth) s = v->depth - 1;
        v->addr += (uint64_t)s * v->pitch * v->height;
        v->depth = 1;
    }
}

/* The face a direction (x, y, z) points at, and the coordinates in it, in
** [0, 1] (the Programming Guide's cubemap table); the major axis is the
** largest magnitude, x before y before z on ties. *m: that magnitude. */
static unsigned cube_face(double x, double y, double z, double *s, double *t, double *m)
{
    double ax = fabs(x), ay = fabs(y), az = fabs(z), sc, tc, mm;
    unsigned f;
    if (ax >= ay && ax >= az) {
        mm = ax, f = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y;
    } else if (ay >= az) {
        mm = ay, f = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z;
    } else {
        mm = az, f = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y;
    }
    if (mm == 0) mm = 1;
    *s = (sc / mm + 1) / 2;
    *t = (tc / mm + 1) / 2;
    *m = mm;
    return f;
}

/* 8 fractional bits, as the filter weights. */
static double frac8(double f) { return round(f * 256.0) / 256.0; }

/* One fetch from a texture (a view: no layers left) at coordinates c (float)
** or ic (integer) of nd dimensions. */
static void fetch(const exec_texdesc *t, unsigned nd, bool fcoord, bool fout, int gather_comp, const double c[3],
                  const int64_t ic[3], uint32_t v[4])
{
    if (gather_comp >= 0) {
        /* The four texels of the bilinear footprint, one component:
        ** (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
        double u = to_texels(t, t->addr_mode[0], c[0], t->width) - 0.5;
        double vv = to_texels(t, t->addr_mode[1], c[1], t->height) - 0.5;
        int64_t i0 = (int64_t)floor(u), j0 = (int64_t)floor(vv);
        static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
        for (int q = 0; q < 4; q++) {
            if (fout) {
                float tv[4];
                texel_f(t, i0 + di[q], j0 + dj[q], 0, tv);
                v[q] = exec_f2u(tv[gather_comp]);
            } else {
                uint32_t tv[4];
                texel_raw(t, i0 + di[q], j0 + dj[q], 0, tv);
                v[q] = tv[gather_comp];
            }
        }
    } else if (!fcoord) {
        /* Integer coordinates: the element itself, 0 outside. */
        bool inside = ic[0] >= 0 && ic[0] < t->width && (nd < 2 || (ic[1] >= 0 && ic[1] < t->height)) &&
                      (nd < 3 || (ic[2] >= 0 && ic[2] < t->depth));
        if (!inside) {
            v[0] = v[1] = v[2] = v[3] = 0;
        } else if (fout) {
            float tv[4];
            texel_f(t, ic[0], nd > 1 ? ic[1] : 0, nd > 2 ? ic[2] : 0, tv);
            for (int q = 0; q < 4; q++) v[q] = exec_f2u(tv[q]);
        } else {
            texel_raw(t, ic[0], nd > 1 ? ic[1] : 0, nd > 2 ? ic[2] : 0, v);
        }
    } else if (fout) {
        float tv[4];
        sample(t, c[0], c[1], c[2], tv);
        for (int q = 0; q < 4; q++) v[q] = exec_f2u(tv[q]);
    } else {
        /* Float coordinates, integer result: nearest texel, raw. */
        double u = to_texels(t, t->addr_mode[0], c[0], t->width);
        double vv = nd > 1 ? to_texels(t, t->addr_mode[1], c[1], t->height) : 0;
        double ww = nd > 2 ? to_texels(t, t->addr_mode[2], c[2], t->depth) : 0;
        texel_raw(t, (int64_t)floor(u), (int64_t)floor(vv), (int64_t)floor(ww), v);
    }
}

/* Euclidean length of a gradient of nd components, in texels of level 0. */
static double grad_len(const exec_texdesc *t, const double g[3], unsigned nd, double cube_scale)
{
    double s = 0;
    for (unsigned j = 0; j < nd; j++) {
        double n = cube_scale > 0 ? cube_scale
                                  : !t->normalized_coords ? 1.0 : j == 0 ? t->width : j == 1 ? t->height : t->depth;
        s += g[j] * n * g[j] * n;
    }
    return sqrt(s);
}

/* ---- instructions ----------------------------------------------------------------- */

static const exec_texdesc *handle_of(exec_warp *w, const ptx_opnd *o, int lane, bool surface)
{
    uint64_t h = o->kind == PTX_OK_REG || o->kind == PTX_OK_IMM ? exec_src(w, o)[lane] : 0;
    exec_texobj *obj = lookup(w->g->dev, h);
    if (!obj || obj->kind != (surface ? 2 : 1)) {
        exec_fault(w, lane, EXEC_ERR_ILLEGAL_ADDRESS, "%s handle 0x%llx is not a live %s object",
                   surface ? "surface" : "texture", (unsigned long long)h, surface ? "surface" : "texture");
        return NULL;
    }
    return &obj->d;
}

/* Coordinate k of the coordinate operand for a lane, as a double or an integer. */
static const uint64_t *coord_row(exec_warp *w, const ptx_opnd *c, unsigned k)
{
    if (c->kind == PTX_OK_VEC) {
        if (k >= c->n) k = c->n - 1;
        return exec_src(w, &w->g->m->xpool[c->r + k]);
    }
    return exec_src(w, c);
}

static unsigned geom_dims(int sub)
{
    switch (sub) {
    case PTX_SUB_1D: case PTX_SUB_A1D: return 1;
    case PTX_SUB_3D: case PTX_SUB_CUBE: case PTX_SUB_ACUBE: return 3;
    default: return 2;
    }
}

static bool geom_array(int sub) { return sub == PTX_SUB_A1D || sub == PTX_SUB_A2D || sub == PTX_SUB_ACUBE; }

static void put_result(exec_warp *w, const ptx_opnd *dst, int lane, const uint32_t v[4])
{
    if (dst->kind == PTX_OK_VEC) {
        for (unsigned k = 0; k < dst->n && k < 4; k++) {
            const ptx_opnd *e = &w->g->m->xpool[dst->r + k];
            if (e->kind == PTX_OK_REG) exec_dst(w, e)[lane] = v[k];
        }
    } else if (dst->kind == PTX_OK_REG) {
        exec_dst(w, dst)[lane] = v[0];
    }
}

/* The index in in->o of the coordinate operand of tex/tld4: [tex, {..}] or
** [tex, sampler, {..}]. */
static unsigned coord_index(const ptx_insn *in)
{
    unsigned k = in->ndst;
    if (in->o[k + 1].kind != PTX_OK_VEC && in->nopnd > k + 2) return k + 2;
    return k + 1;
}

static void h_tex(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    unsigned k = in->ndst, ci = coord_index(in);
    const ptx_opnd *dst = &in->o[0], *ho = &in->o[k];
    const ptx_opnd *co = &in->o[ci];
    unsigned nd = geom_dims(in->m.sub);
    bool array = geom_array(in->m.sub);
    bool cube = in->m.sub == PTX_SUB_CUBE || in->m.sub == PTX_SUB_ACUBE;
    bool fcoord = in->type2 == PTX_T_F32;
    bool fout = in->type == PTX_T_F32 || in->type == PTX_T_F16;
    int gather = in->op != PTX_OP_TLD4 ? -1
                 : in->m.sub2 == PTX_SUB_COMP_G ? 1 : in->m.sub2 == PTX_SUB_COMP_B ? 2 : in->m.sub2 == PTX_SUB_COMP_A ? 3 : 0;
    int mip = in->op == PTX_OP_TEX ? in->m.sub2 : PTX_SUB_NONE;
    EXEC_LANES(m, {
        const exec_texdesc *t = handle_of(w, ho, l, false);
        if (!t) return;
        double c[3] = {0, 0, 0};
        int64_t ic[3] = {0, 0, 0};
        for (unsigned j = 0; j < nd; j++) {
            const uint64_t *r = coord_row(w, co, j + (array ? 1 : 0));
            if (fcoord) c[j] = exec_u2f((uint32_t)r[l]);
            else ic[j] = (int32_t)r[l];
        }
        /* The layer index is unsigned: a negative one is past the last layer
        ** and clamps to it (an H200 reads layer L-1 for -1 .. -100000:
        ** docs/VALIDATION.md, "On a real GPU"). */
        int64_t slice = array ? (int64_t)(uint32_t)coord_row(w, co, 0)[l] : 0;
        unsigned snd = nd;       /* dimensions of the slice sampled */
        double cube_scale = 0;   /* texels per unit of a cube direction */
        if (cube) {
            double s, tt, mm;
            unsigned f = cube_face(fcoord ? c[0] : (double)ic[0], fcoord ? c[1] : (double)ic[1],
                                   fcoord ? c[2] : (double)ic[2], &s, &tt, &mm);
            int64_t nl = t->depth / 6 ? t->depth / 6 : 1;
            if (slice < 0) slice = 0;
            if (slice >= nl) slice = nl - 1;
            slice = slice * 6 + f;
            c[0] = s, c[1] = tt, c[2] = 0;
            fcoord = true;
            snd = 2;
            cube_scale = t->width / (2 * mm);
        }
        /* the level of detail */
        unsigned lv0 = 0, lv1 = 0;
        double lw = 0;
        if (t->levels > 1) {
            double lod = 0;
            if (mip == PTX_SUB_LEVEL) {
                lod = exec_u2f((uint32_t)exec_src(w, &in->o[ci + 1])[l]);
            } else if (mip == PTX_SUB_GRAD) {
                double g[2][3] = {{0, 0, 0}, {0, 0, 0}};
                for (unsigned q = 0; q < 2; q++)
                    for (unsigned j = 0; j < nd; j++)
                        g[q][j] = exec_u2f((uint32_t)coord_row(w, &in->o[ci + 1 + q], j)[l]);
                double px = grad_len(t, g[0], nd, cube_scale), py = grad_len(t, g[1], nd, cube_scale);
                double pmax = px > py ? px : py, pmin = px > py ? py : px;
                if (t->max_aniso > 1 && pmin > 0) {
                    double n = ceil(pmax / pmin);
                    if (n > t->max_aniso) n = t->max_aniso;
                    pmax /= n;
                }
                lod = pmax > 0 ? log2(pmax) : -1e9;
            }
            lod += t->lod_bias;
            if (lod > t->max_lod) lod = t->max_lod;
            if (lod < t->min_lod) lod = t->min_lod;
            if (lod > t->levels - 1) lod = t->levels - 1;
            if (!(lod > 0)) lod = 0;   /* also NaN */
            if (t->mip_linear && fout) {
                lv0 = (unsigned)floor(lod);
                lw = frac8(lod - lv0);
                lv1 = lv0 + 1 < t->levels ? lv0 + 1 : lv0;
            } else {
                lv0 = lv1 = (unsigned)floor(lod + 0.5);
            }
        }
        exec_texdesc vt;
        view_of(t, lv0, slice, &vt);
        if (cube) {
            vt.normalized_coords = true;
            vt.addr_mode[0] = vt.addr_mode[1] = EXEC_TEX_CLAMP;
        }
        uint32_t v[4];
        fetch(&vt, snd, fcoord, fout, gather, c, ic, v);
        if (lw > 0) {
            uint32_t v1[4];
            exec_texdesc vt1;
            view_of(t, lv1, slice, &vt1);
            if (cube) {
                vt1.normalized_coords = true;
                vt1.addr_mode[0] = vt1.addr_mode[1] = EXEC_TEX_CLAMP;
            }
            fetch(&vt1, snd, fcoord, fout, gather, c, ic, v1);
            for (int q = 0; q < 4; q++)
                v[q] = exec_f2u((float)((1 - lw) * exec_u2f(v[q]) + lw * exec_u2f(v1[q])));
        }
        if (in->type == PTX_T_F16) /* tex.f16: halves of the float results */
            for (int q = 0; q < 4; q++) v[q] = (uint32_t)num_cvt(v[q], PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0);
        put_result(w, dst, l, v);
    });
}

static uint32_t query(const exec_texdesc *t, int sub)
{
    switch (sub) {
    case PTX_SUB_Q_WIDTH: return t->width;
    case PTX_SUB_Q_HEIGHT: return t->height;
    case PTX_SUB_Q_DEPTH: return t->layered || t->cubemap ? 1 : t->depth;
    case PTX_SUB_Q_NORMALIZED_COORDS: return t->normalized_coords;
    case PTX_SUB_Q_FILTER_MODE: return t->linear_filter;
    case PTX_SUB_Q_ADDR_MODE_0: return (uint32_t)t->addr_mode[0];
    case PTX_SUB_Q_ADDR_MODE_1: return (uint32_t)t->addr_mode[1];
    case PTX_SUB_Q_ADDR_MODE_2: return (uint32_t)t->addr_mode[2];
    case PTX_SUB_Q_ARRAY_SIZE: return !t->layered ? 1 : t->cubemap ? t->depth / 6 : t->depth;
    case PTX_SUB_Q_NUM_MIPMAP_LEVELS: return t->levels ? t->levels : 1;
    case PTX_SUB_Q_NUM_SAMPLES: return 1;
    case PTX_SUB_Q_CHANNEL_ORDER: return t->channels;
    case PTX_SUB_Q_CHANNEL_DATA_TYPE: return (uint32_t)t->fmt;
    default: return 0;
    }
}

static void h_txq(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    bool surf = in->op == PTX_OP_SUQ;
    const ptx_opnd *a = &in->o[1];
    ptx_opnd ho = *a;
    if (a->kind == PTX_OK_ADDR) {
        ho.kind = a->base == PTX_AB_REG ? PTX_OK_REG : PTX_OK_NONE;
    }
    uint64_t *r = exec_dst(w, &in->o[0]);
    EXEC_LANES(m, {
        const exec_texdesc *t = handle_of(w, &ho, l, surf);
        if (!t) return;
        uint32_t v = query(t, in->m.sub);
        if (surf && in->m.sub == PTX_SUB_Q_WIDTH) v = t->width; /* elements, as CUDA reports */
        r[l] = v;
    });
}

/* Surface byte address for a lane, or NULL (after the out-of-range policy). */
static uint8_t *surf_addr(exec_warp *w, const ptx_insn *in, const exec_texdesc *t, int lane, const ptx_opnd *co,
                          unsigned size, bool *drop)
{
    unsigned nd = geom_dims(in->m.sub);
    bool array = geom_array(in->m.sub);
    int64_t c[3] = {0, 0, 0};
    for (unsigned j = 0; j < nd; j++) c[j] = (int32_t)coord_row(w, co, j + (array ? 1 : 0))[lane];
    if (array) c[2] = (int32_t)coord_row(w, co, 0)[lane]; /* the layer (layer * 6 + face for cubemaps) */
    int64_t wbytes = (int64_t)t->width * elem_bytes(t);
    bool inside = c[0] >= 0 && c[0] + (int64_t)size <= wbytes && (nd < 2 || (c[1] >= 0 && c[1] < t->height)) &&
                  ((nd < 3 && !array) || (c[2] >= 0 && c[2] < t->depth));
    *drop = false;
    if (!inside) {
        if (in->m.flags & PTX_MF_CLAMP) {
            if (c[0] < 0) c[0] = 0;
            if (c[0] + (int64_t)size > wbytes) c[0] = wbytes - (int64_t)size;
            if (c[1] < 0) c[1] = 0;
            if (c[1] >= t->height) c[1] = t->height - 1;
            if (c[2] < 0) c[2] = 0;
            if (c[2] >= t->depth) c[2] = t->depth - 1;
        } else if (in->m.flags & PTX_MF_ZERO) {
            *drop = true;
            return NULL;
        } else {
            exec_fault(w, lane, EXEC_ERR_ILLEGAL_ADDRESS, "surface access at (%lld, %lld, %lld) outside the %ux%ux%u surface",
                       (long long)c[0], (long long)c[1], (long long)c[2], t->width, t->height, t->depth);
            return NULL;
        }
    }
    return (uint8_t *)(uintptr_t)(t->addr + (uint64_t)c[2] * t->pitch * t->height + (uint64_t)c[1] * t->pitch +
                                  (uint64_t)c[0]);
}

static void h_suld(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    unsigned k = in->ndst;
    const ptx_opnd *dst = &in->o[0], *ho = &in->o[k], *co = &in->o[k + 1];
    unsigned vec = in->m.vec ? in->m.vec : 1, esz = ptx_type_size((ptx_type)in->type);
    EXEC_LANES(m, {
        const exec_texdesc *t = handle_of(w, ho, l, true);
        if (!t) return;
        bool drop;
        uint8_t *p = surf_addr(w, in, t, l, co, esz * vec, &drop);
        if (!p && !drop) return;
        if (TP_UNLIKELY(w->g->checks) && p) exec_check_lane(w, in, l, PTX_SP_GLOBAL, (uint64_t)(uintptr_t)p, esz * vec, false);
        uint32_t v[4] = {0, 0, 0, 0};
        uint64_t v64[4] = {0, 0, 0, 0};
        for (unsigned q = 0; q < vec && q < 4; q++) {
            if (!p) break;
            memcpy(&v64[q], p + q * esz, esz);
            v[q] = (uint32_t)v64[q];
        }
        if (esz == 8 && dst->kind == PTX_OK_VEC) {
            for (unsigned q = 0; q < dst->n && q < 4; q++) {
                const ptx_opnd *e = &w->g->m->xpool[dst->r + q];
                if (e->kind == PTX_OK_REG) exec_dst(w, e)[l] = v64[q];
            }
        } else if (esz == 8 && dst->kind == PTX_OK_REG) {
            exec_dst(w, dst)[l] = v64[0];
        } else {
            put_result(w, dst, l, v);
        }
    });
}

static void h_sust(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    const ptx_opnd *ho = &in->o[0], *co = &in->o[1], *val = &in->o[in->nopnd - 1];
    unsigned vec = in->m.vec ? in->m.vec : 1, esz = ptx_type_size((ptx_type)in->type);
    bool changed = false;
    EXEC_LANES(m, {
        const exec_texdesc *t = handle_of(w, ho, l, true);
        if (!t) return;
        bool drop;
        uint8_t *p = surf_addr(w, in, t, l, co, esz * vec, &drop);
        if (!p) {
            if (drop) continue;
            return;
        }
        if (TP_UNLIKELY(w->g->checks)) exec_check_lane(w, in, l, PTX_SP_GLOBAL, (uint64_t)(uintptr_t)p, esz * vec, true);
        for (unsigned q = 0; q < vec; q++) {
            const ptx_opnd *e = val->kind == PTX_OK_VEC ? &w->g->m->xpool[val->r + q] : val;
            if (e->kind == PTX_OK_SINK) continue;
            uint64_t v = exec_src(w, e)[l];
            if (memcmp(p + q * esz, &v, esz)) changed = true;
            memcpy(p + q * esz, &v, esz);
        }
    });
    if (changed) exec_progress(w);
}

exec_fn exec_pick_tex(const ptx_insn *in, exec_dinsn *d, const char **why)
{
    switch (in->op) {
    case PTX_OP_TEX:
    case PTX_OP_TLD4:
        if (in->m.sub == PTX_SUB_2DMS || in->m.sub == PTX_SUB_A2DMS) {
            *why = "multisample textures (.2dms, .a2dms)";
            return NULL;
        }
        {
            /* after the coordinates: the level (tex.level), two gradients
            ** (tex.grad); an offset vector or a depth to compare come next */
            unsigned extra = in->op == PTX_OP_TEX && in->m.sub2 == PTX_SUB_LEVEL ? 1
                             : in->op == PTX_OP_TEX && in->m.sub2 == PTX_SUB_GRAD ? 2 : 0;
            if (in->nopnd > coord_index(in) + 1 + extra) {
                *why = "texture offsets and depth-compare operands of tex/tld4";
                return NULL;
            }
            if (in->op == PTX_OP_TLD4 && in->m.sub2 != PTX_SUB_NONE && in->m.sub2 != PTX_SUB_COMP_R &&
                in->m.sub2 != PTX_SUB_COMP_G && in->m.sub2 != PTX_SUB_COMP_B && in->m.sub2 != PTX_SUB_COMP_A) {
                *why = "tld4 with an explicit level of detail";
                return NULL;
            }
        }
        return h_tex;
    case PTX_OP_TXQ:
    case PTX_OP_SUQ: return h_txq;
    case PTX_OP_SULD:
        if (!(in->m.flags & PTX_MF_B)) {
            *why = "formatted surface loads (suld.p)";
            return NULL;
        }
        if (in->m.sub == PTX_SUB_CUBE || in->m.sub == PTX_SUB_ACUBE || in->m.sub == PTX_SUB_2DMS ||
            in->m.sub == PTX_SUB_A2DMS) {
            *why = "surface geometries other than 1d, 2d, 3d, a1d and a2d";
            return NULL;
        }
        return h_suld;
    case PTX_OP_SUST:
        if (!(in->m.flags & PTX_MF_B)) {
            *why = "formatted surface stores (sust.p)";
            return NULL;
        }
        if (in->m.sub == PTX_SUB_CUBE || in->m.sub == PTX_SUB_ACUBE || in->m.sub == PTX_SUB_2DMS ||
            in->m.sub == PTX_SUB_A2DMS) {
            *why = "surface geometries other than 1d, 2d, 3d, a1d and a2d";
            return NULL;
        }
        return h_sust;
    default: return NULL;
    }
}
