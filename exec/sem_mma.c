/*
** sem_mma.c -- the warp-level matrix instructions: wmma.load, wmma.store,
** wmma.mma, mma, ldmatrix, stmatrix and movmatrix.  docs/TENSOR.md is the
** long form of this comment; ptx/tensor.c lists the forms.
**
** All of them are warp-wide (.sync.aligned): the 32 lanes execute them
** together, each lane's registers holding a fragment of the matrices.  A
** warp that reaches one with lanes missing (divergence, a guard, exited or
** absent threads) stops the launch with EXEC_ERR_UNSUPPORTED naming the
** lanes, since the PTX ISA leaves that undefined.
**
** Fragment layouts.  A lane's share of an R x C matrix of b-bit elements is
** held in 32-bit registers (64-bit for f64), E = 32 / b elements each, the
** first in the low bits.  With g = lane / 4 and t = lane % 4:
**   A (M x K): register q holds row 8 (q mod M/8) + g, elements E (4 (q div
**              M/8) + t) .. + E - 1 of it (a "chunk": E consecutive columns);
**   B (K x N): register q holds column 8 (q div KC/4) + g, rows E (4 (q mod
**              KC/4) + t) .. + E - 1 (KC = K / E chunks per column);
**   C, D (M x N): element e (2 per f16x2 register, else 1 per register) is
**              row 8 (p mod M/8) + g, column 8 (p div M/8) + 2t + e mod 2,
**              p = e div 2.
** For mma these are exactly the PTX ISA's figures for every shape
** ("Matrix Fragments for mma.m16n8k16": a0,a1 = A[g][2t..2t+1], a2,a3 =
** A[g+8][2t..], a4,a5 = A[g][2t+8..], a6,a7 = A[g+8][2t+8..]; b0,b1 =
** B[2t..2t+1][g], b2,b3 = B[2t+8..][g]; c0,c1 = C[g][2t..], c2,c3 =
** C[g+8][2t..]; and the same shape for s8 (4 per register), s4 (8), b1
** (32), tf32 and f64 (1)), except m8n8k4 with f16 (below).  For wmma the
** ISA leaves the layout unspecified; tpsim uses the same formulas, which
** make a wmma tile the mma tiles side by side (what Turing and later
** tensor cores compute), with these choices:
**   - the layout does not depend on .row/.col (those only say how memory
**     is read), so wmma.mma ignores its layout qualifiers;
**   - f16 multiplicands have 8 registers whatever the shape, more than the
**     U = R x C / 64 a lane needs: register q holds what register q mod U
**     holds (wmma.load fills every copy), and wmma.mma reads registers
**     0 .. U-1.
** mma.m8n8k4 with f16: lane l belongs to quad-pair (l / 4) mod 4, which
** computes its own 8x8x4 product from lanes 4qp..4qp+3 (low) and
** 16+4qp..16+4qp+3 (high); with i = l mod 4 and h = 4 for the high group:
** A row-major element j: A[i+h][j], column-major: A[j+h][i]; B column-major:
** B[j][i+h], row-major: B[i][j+h]; C f16 element j: C[i+h][j]; C f32
** element j: C[(l & 1) + (j & 2) + h][(j & 4) + (l & 2) + (j & 1)].
**
** Arithmetic (the accumulation model; docs/TENSOR.md): D[i][j] starts as
** C[i][j] and takes the products A[i][k] * B[k][j] for k = 0, 1, ... K-1 in
** turn, each step one fused multiply-add rounded once at the accumulator's
** precision, to nearest even:
**   - f16, bf16, tf32 inputs (tf32: the low 13 bits of the register are
**     ignored) are exact in f32 and so are their products; the
**     accumulator is f16 when c and d are both f16 (num_fma_h), else f32
**     (an f16 c is widened exactly, an f16 d rounded once at the end);
**   - f64: num_fma_f64 in the instruction's rounding mode (.rn default);
**   - NaN results are the canonical NaNs of num.h (f32 0x7fffffff, f16
**     0x7fff); .satfinite (wmma f16/f32) turns an infinite result into the
**     largest finite value of its sign;
**   - integers: the exact sum of c and the products, wrapped to 32 bits,
**     or with .satfinite clamped to [INT32_MIN, INT32_MAX];
**   - b1: c plus the number of k where (a AND b) or (a XOR b) is 1.
**
** Memory: wmma.load/.store address element (r, c) of a row-major matrix at
** p + (r * stride + c) * bits / 8 (column-major: c * stride + r); stride
** (in elements) defaults to the leading dimension.  Every line must start
** aligned to the fragment's size (the PTX ISA's rule), taken as the bytes
** of the registers holding distinct elements (16 for an f16 m16n16k16 a,
** which CUDA's 16-byte ldm allows).
** ldmatrix/stmatrix: lane 8j + r holds the address of row r of matrix j
** (16 bytes, 16-byte aligned; lanes past the count's 8, 16 or 32 are not
** read); register j of lane l holds row g, columns 2t, 2t+1 of matrix j
** (.trans: column g, rows 2t, 2t+1).  For the timing model each access is
** recorded: wmma.load/.store as passes of one register (or, where a
** register's elements are not adjacent in memory, one element) per lane
** (exec_rec.npass), ldmatrix/stmatrix as one 16-byte access per lane, the
** addresses of lanes past the count repeating the first ones.
*/
#include "internal.h"
#include "check.h"
#include <math.h>

enum { FK_A, FK_B, FK_C };

/* One fragment operand: its matrix and how the lane's registers hold it. */
typedef struct mfrag {
    uint16_t rows, cols;   /* the matrix */
    uint8_t kind;          /* FK_* */
    uint8_t type;          /* ptx_ttype */
    uint8_t bits;          /* element width */
    uint8_t epr;           /* elements per register */
    uint8_t ureg;          /* registers holding distinct elements */
    uint8_t nreg;          /* registers in the operand */
} mfrag;

static void frag_init(mfrag *f, int kind, unsigned rows, unsigned cols, int type, unsigned nreg)
{
    f->rows = (uint16_t)rows;
    f->cols = (uint16_t)cols;
    f->kind = (uint8_t)kind;
    f->type = (uint8_t)type;
    f->bits = ptx_ttypes[type].bits;
    f->epr = (uint8_t)(f->bits >= 32 ? 1 : 32 / f->bits);
    unsigned elems = rows * cols / 32;
    f->ureg = (uint8_t)(kind == FK_C ? (elems + f->epr - 1) / f->epr : elems / f->epr);
    f->nreg = (uint8_t)nreg;
}

/* Row and column of element e of lane l's fragment (the general layout). */
static void elem_rc(const mfrag *f, unsigned l, unsigned e, unsigned *r, unsigned *c)
{
    unsigned g = l >> 2, t = l & 3;
    if (f->kind == FK_C) {
        unsigned p = e / 2, r8 = f->rows / 8;
        *r = 8 * (p % r8) + g;
        *c = 8 * (p / r8) + 2 * t + (e & 1);
        return;
    }
    unsigned q = e / f->epr, j = e % f->epr;
    if (f->kind == FK_A) {
        unsigned r8 = f->rows / 8;
        *r = 8 * (q % r8) + g;
        *c = (4 * (q / r8) + t) * f->epr + j;
    } else {
        unsigned kb = f->rows / f->epr / 4;
        *r = (4 * (q % kb) + t) * f->epr + j;
        *c = 8 * (q / kb) + g;
    }
}

/* Element e of a lane's registers (regs: the operand's register rows). */
static inline uint64_t get_el(const uint64_t *const *regs, const mfrag *f, unsigned l, unsigned e)
{
    if (f->bits == 64) return regs[e][l];
    uint32_t v = (uint32_t)regs[e / f->epr][l];
    if (f->bits == 32) return v;
    unsigned sh = (e % f->epr) * f->bits;
    return (v >> sh) & ((1u << f->bits) - 1);
}

/* ---- operands ------------------------------------------------------------------ */

static const ptx_opnd *vec_el(const exec_warp *w, const ptx_opnd *o, unsigned k)
{
    return o->kind == PTX_OK_VEC ? &w->g->m->xpool[o->r + k] : o;
}

static void src_rows(const exec_warp *w, const ptx_opnd *o, unsigned n, const uint64_t **rows)
{
    for (unsigned k = 0; k < n; k++) rows[k] = exec_src(w, vec_el(w, o, k));
}

static void dst_rows(exec_warp *w, const ptx_opnd *o, unsigned n, uint64_t **rows)
{
    for (unsigned k = 0; k < n; k++) rows[k] = exec_dst(w, vec_el(w, o, k));
}

static bool whole_warp(exec_warp *w, const ptx_insn *in, uint32_t m)
{
    if (m == EXEC_FULL) return true;
    exec_fault(w, -1, EXEC_ERR_UNSUPPORTED,
               "%s executed by lanes 0x%08x of the warp: a .sync.aligned matrix instruction needs all 32 "
               "lanes together (the PTX ISA leaves anything else undefined)",
               ptx_ops[in->op].name, m);
    return false;
}

/* Per-lane addresses of an address operand (as ld computes them): a 32-bit
** base register or a shared/local space wraps in 32 bits; a symbol gives
** its own space unless the instruction is generic.  Returns the space. */
static int base_addrs(exec_warp *w, const exec_dinsn *d, const ptx_opnd *a, uint64_t *addr)
{
    int space = d->space;
    if (a->base == PTX_AB_REG) {
        const uint64_t *b = w->fp + (size_t)a->r * 32;
        uint64_t off = (uint64_t)a->imm;
        bool w32 = d->abase32 || space == PTX_SP_SHARED;
        for (int l = 0; l < 32; l++) addr[l] = w32 ? (uint32_t)(b[l] + off) : b[l] + off;
        return space;
    }
    uint64_t v = (uint64_t)a->imm;
    if (a->base == PTX_AB_SYM) {
        uint8_t sp;
        v += exec_sym_addr(w, a->r, &sp);
        if (space == PTX_SP_GENERIC) {
            if (sp == PTX_SP_SHARED) v += EXEC_WIN_SHARED;
            else if (sp == PTX_SP_LOCAL) v += EXEC_WIN_LOCAL;
        } else {
            space = sp;
        }
    }
    for (int l = 0; l < 32; l++) addr[l] = v;
    return space;
}

/* A generic address resolved to its space (for the timing record). */
static int resolve(int space, uint64_t *a)
{
    if (space != PTX_SP_GENERIC) return space;
    if (*a - EXEC_WIN_SHARED < EXEC_WIN_SIZE) { *a -= EXEC_WIN_SHARED; return PTX_SP_SHARED; }
    if (*a - EXEC_WIN_LOCAL < EXEC_WIN_SIZE) { *a -= EXEC_WIN_LOCAL; return PTX_SP_LOCAL; }
    if (*a - EXEC_WIN_PARAM < EXEC_WIN_SIZE) { *a -= EXEC_WIN_PARAM; return PTX_SP_PARAM; }
    return PTX_SP_GLOBAL;
}

/* ---- wmma.load / wmma.store --------------------------------------------------------- */

typedef struct mls {
    mfrag f;
    bool col;        /* column-major memory */
    unsigned defstride;
} mls;

static void mls_init(const ptx_insn *in, mls *L)
{
    ptx_tform tf;
    ptx_tensor_form(in, &tf);
    const ptx_shapeinfo *s = &ptx_shapes[in->m.shape];
    int frag = in->m.tens & PTX_TN_FRAG;
    unsigned rows = frag == PTX_FR_A ? s->m : frag == PTX_FR_B ? s->k : s->m;
    unsigned cols = frag == PTX_FR_A ? s->k : s->n;
    frag_init(&L->f, frag == PTX_FR_A ? FK_A : frag == PTX_FR_B ? FK_B : FK_C, rows, cols, in->m.tty[0],
              tf.regs[0]);
    L->col = (in->m.tens & PTX_TN_ACOL) != 0;
    L->defstride = L->col ? rows : cols;
}

/* Element index (in elements from p) of element e of lane l. */
static inline uint64_t mls_index(const mls *L, unsigned l, unsigned e, uint64_t stride)
{
    unsigned r, c;
    elem_rc(&L->f, l, e, &r, &c);
    return L->col ? (uint64_t)c * stride + r : (uint64_t)r * stride + c;
}

/* Whether a register's elements are adjacent in memory (then a register is
** one access), whatever the lane and stride. */
static bool mls_adjacent(const mls *L)
{
    if (L->f.epr == 1) return true;
    for (unsigned j = 1; j < L->f.epr; j++)
        if (mls_index(L, 0, j, 1000) != mls_index(L, 0, 0, 1000) + j) return false;
    return true;
}

/* Bytes per lane of each recorded pass (exec_sinfo.bytes). */
static unsigned mls_pass_bytes(const mls *L)
{
    if (mls_adjacent(L)) return L->f.bits == 64 ? 8 : 4;
    return L->f.bits / 8;
}

static void wmma_ls(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m, bool store)
{
    if (!whole_warp(w, in, m)) return;
    mls L;
    mls_init(in, &L);
    const mfrag *f = &L.f;
    uint64_t base[32], stride[32];
    const ptx_opnd *ao = &in->o[store ? 0 : 1];
    int space = base_addrs(w, d, ao, base);
    const ptx_opnd *so = in->nopnd > 2 ? &in->o[2] : NULL;
    const uint64_t *sr = so ? exec_src(w, so) : NULL;
    /* the PTX ISA's rule: every line (row or column) starts aligned to the
    ** fragment's size in bytes, here the distinct registers a lane holds */
    uint64_t fbits = (uint64_t)f->ureg * (f->bits == 64 ? 64 : 32);
    for (int l = 0; l < 32; l++) {
        stride[l] = sr ? (uint32_t)sr[l] : L.defstride;
        uint64_t sbits = stride[l] * f->bits;
        if ((base[l] * 8) % fbits || sbits % fbits) {
            exec_fault(w, l, EXEC_ERR_MISALIGNED,
                       "%s: matrix address 0x%llx with a stride of %llu elements (%llu bits): the address and "
                       "the stride must be multiples of the fragment's %llu bytes",
                       ptx_ops[in->op].name, (unsigned long long)base[l], (unsigned long long)stride[l],
                       (unsigned long long)sbits, (unsigned long long)fbits / 8);
            return;
        }
    }
    bool adj = mls_adjacent(&L);
    unsigned ebytes = f->bits >= 8 ? f->bits / 8u : 0;
    const ptx_opnd *ro = &in->o[store ? 1 : 0];
    uint64_t val[8][32]; /* the distinct registers, per lane */
    if (store) {
        const uint64_t *rows[8];
        src_rows(w, ro, f->nreg, rows);
        for (unsigned q = 0; q < f->ureg; q++)
            for (int l = 0; l < 32; l++) val[q][l] = rows[q][l];
    }
    for (int l = 0; l < 32; l++) {
        for (unsigned q = 0; q < f->ureg; q++) {
            if (adj || !ebytes) {
                /* the register in one access */
                uint64_t bit = mls_index(&L, (unsigned)l, q * f->epr, stride[l]) * f->bits;
                unsigned size = f->bits == 64 ? 8 : 4;
                uint8_t *p = exec_lane_ptr(w, l, space, base[l] + bit / 8, size, store);
                if (!p) return;
                if (TP_UNLIKELY(w->g->checks)) exec_check_lane(w, in, l, space, base[l] + bit / 8, size, store);
                if (store) {
                    memcpy(p, &val[q][l], size);
                } else {
                    uint64_t v = 0;
                    memcpy(&v, p, size);
                    val[q][l] = v;
                }
                continue;
            }
            uint64_t v = store ? val[q][l] : 0;
            for (unsigned j = 0; j < f->epr; j++) {
                uint64_t idx = mls_index(&L, (unsigned)l, q * f->epr + j, stride[l]);
                uint8_t *p = exec_lane_ptr(w, l, space, base[l] + idx * ebytes, ebytes, store);
                if (!p) return;
                if (TP_UNLIKELY(w->g->checks)) exec_check_lane(w, in, l, space, base[l] + idx * ebytes, ebytes, store);
                unsigned sh = j * f->bits;
                if (store) {
                    uint32_t e = (uint32_t)(v >> sh);
                    memcpy(p, &e, ebytes);
                } else {
                    uint32_t e = 0;
                    memcpy(&e, p, ebytes);
                    v |= (uint64_t)e << sh;
                }
            }
            if (!store) val[q][l] = v;
        }
    }
    if (store) exec_progress(w);
    else {
        uint64_t *rows[8];
        dst_rows(w, ro, f->nreg, rows);
        for (unsigned q = 0; q < f->nreg; q++)
            for (int l = 0; l < 32; l++) rows[q][l] = val[q % f->ureg][l];
    }
    exec_rec *rec = w->x->rec;
    if (TP_UNLIKELY(rec != NULL)) {
        /* the passes: a register (or an element) of every lane at a time */
        exec_grid *g = w->g;
        if (!g->xaddr) g->xaddr = tp_malloc((EXEC_REC_MAXPASS - 1) * 32 * sizeof *g->xaddr);
        unsigned per = adj || !ebytes ? 1 : f->epr, np = 0;
        int sp0 = -1;
        for (unsigned q = 0; q < f->ureg; q++)
            for (unsigned j = 0; j < per; j++, np++) {
                uint64_t *out = np ? g->xaddr + (size_t)(np - 1) * 32 : rec->addr;
                for (int l = 0; l < 32; l++) {
                    uint64_t a = base[l] + mls_index(&L, (unsigned)l, q * f->epr + j, stride[l]) * f->bits / 8;
                    int sp = resolve(space, &a);
                    if (sp0 < 0) sp0 = sp;
                    out[l] = a;
                }
            }
        rec->space = (uint8_t)sp0;
        rec->npass = (uint8_t)np;
        rec->xaddr = g->xaddr;
    }
}

static void h_wmma_load(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    wmma_ls(w, in, d, m, false);
}

static void h_wmma_store(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    wmma_ls(w, in, d, m, true);
}

/* ---- wmma.mma / mma ------------------------------------------------------------------ */

enum { MAXA = 16 * 256, MAXB = 256 * 8, MAXC = 32 * 8 };

typedef struct mmaf {
    unsigned M, N, K;
    uint8_t td, ta, tb, tc;
    bool qp;             /* mma.m8n8k4 with f16: four quad-pair products */
    bool acol, bcol;
    int rnd;
    bool satf;
    uint8_t bitop;       /* PTX_SUB_AND / PTX_SUB_XOR for b1 */
    mfrag a, b, c, d;
    float *fa, *fb;      /* f16/bf16/tf32 multiplicands as f32 (exact), row-major */
} mmaf;

static void mmaf_init(const ptx_insn *in, mmaf *F)
{
    ptx_tform tf;
    ptx_tensor_form(in, &tf);
    const ptx_shapeinfo *s = &ptx_shapes[in->m.shape];
    F->td = in->m.tty[0];
    F->ta = in->m.tty[1];
    F->tb = in->m.tty[2];
    F->tc = in->m.tty[3];
    F->qp = in->op == PTX_OP_MMA && in->m.shape == PTX_SH_M8N8K4 && F->ta == PTX_TT_F16;
    F->M = s->m;
    F->N = s->n;
    F->K = s->k;
    F->acol = (in->m.tens & PTX_TN_ACOL) != 0;
    F->bcol = (in->m.tens & PTX_TN_BCOL) != 0;
    F->rnd = in->m.rnd ? in->m.rnd : PTX_RND_RN;
    F->satf = (in->m.flags & PTX_MF_SATFINITE) != 0;
    F->bitop = in->m.sub;
    frag_init(&F->a, FK_A, F->M, F->K, F->ta, tf.regs[1]);
    frag_init(&F->b, FK_B, F->K, F->N, F->tb, tf.regs[2]);
    frag_init(&F->c, FK_C, F->M, F->N, F->tc, tf.regs[3]);
    frag_init(&F->d, FK_C, F->M, F->N, F->td, tf.regs[0]);
}

/* Quad-pair layout of mma.m8n8k4.f16 (see the header): row and column of
** element e of lane l in its quad-pair's matrix. */
static void qp_rc(const mmaf *F, int kind, bool f32, unsigned l, unsigned e, unsigned *r, unsigned *c)
{
    unsigned i = l & 3, h = l >= 16 ? 4 : 0;
    switch (kind) {
    case FK_A:
        if (F->acol) *r = e + h, *c = i;
        else *r = i + h, *c = e;
        return;
    case FK_B:
        if (F->bcol) *r = e, *c = i + h;
        else *r = i, *c = e + h;
        return;
    default:
        if (f32) *r = (l & 1) + (e & 2) + h, *c = (e & 4) + (l & 2) + (e & 1);
        else *r = i + h, *c = e;
        return;
    }
}

/* Exact f32 bits of a multiplicand or accumulator element. */
static inline uint32_t to_f32(uint64_t v, int t)
{
    switch (t) {
    case PTX_TT_F16: return num_h_to_f32((uint16_t)v, NUM_F16);
    case PTX_TT_BF16: return (uint32_t)v << 16;
    case PTX_TT_TF32: return (uint32_t)v & 0xffffe000u;
    default: return (uint32_t)v;
    }
}

static inline int64_t to_int(uint64_t v, int t)
{
    switch (t) {
    case PTX_TT_S8: return (int8_t)(uint8_t)v;
    case PTX_TT_U8: return (uint8_t)v;
    case PTX_TT_S4: return (int64_t)((int32_t)((uint32_t)v << 28) >> 28);
    case PTX_TT_U4: return (int64_t)(v & 15);
    default: return (int32_t)(uint32_t)v;
    }
}

/* D = A * B + C for one M x N x K product (the accumulation model above);
** matrices row-major, raw element bits. */
static void product(const mmaf *F, const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D)
{
    unsigned M = F->M, N = F->N, K = F->K;
    if (F->qp) M = 8, N = 8, K = 4;
    if (F->fa && !(F->td == PTX_TT_F16 && F->tc == PTX_TT_F16)) {
        for (unsigned i = 0; i < M * K; i++) F->fa[i] = exec_u2f(to_f32(A[i], F->ta));
        for (unsigned i = 0; i < K * N; i++) F->fb[i] = exec_u2f(to_f32(B[i], F->tb));
    }
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            uint64_t c = C[i * N + j], r;
            switch (F->ta) {
            case PTX_TT_F16: case PTX_TT_BF16: case PTX_TT_TF32:
                if (F->td == PTX_TT_F16 && F->tc == PTX_TT_F16) {
                    uint16_t acc = (uint16_t)c;
                    for (unsigned k = 0; k < K; k++)
                        acc = num_fma_h((uint16_t)A[i * K + k], (uint16_t)B[k * N + j], acc, NUM_F16, PTX_RND_RN, 0);
                    r = acc;
                    if (F->satf && (acc & 0x7fff) == 0x7c00) r = (acc & 0x8000u) | 0x7bffu; /* inf -> max finite */
                } else {
                    float acc = exec_u2f(to_f32(c, F->tc));
                    const float *fa = F->fa + i * K, *fb = F->fb + j;
                    if (F->ta == PTX_TT_F16) {
                        /* an f16 product is exact in f32 (22 bits, no overflow or underflow):
                        ** the fused step is one f32 addition */
                        for (unsigned k = 0; k < K; k++) acc += fa[k] * fb[k * N];
                    } else {
                        for (unsigned k = 0; k < K; k++) acc = fmaf(fa[k], fb[k * N], acc);
                    }
                    uint32_t bits = exec_f2u(acc);
                    if (isnan(acc)) bits = 0x7fffffffu;
                    if (F->td == PTX_TT_F16) {
                        r = num_cvt(bits, PTX_T_F16, PTX_T_F32, PTX_RND_RN, F->satf ? NUM_SATFINITE : 0);
                    } else {
                        if (F->satf && isinf(acc)) bits = (bits & 0x80000000u) | 0x7f7fffffu;
                        r = bits;
                    }
                }
                break;
            case PTX_TT_F64: {
                uint64_t acc = c;
                for (unsigned k = 0; k < K; k++) acc = num_fma_f64(A[i * K + k], B[k * N + j], acc, F->rnd, 0);
                r = acc;
                break;
            }
            case PTX_TT_B1: {
                uint32_t acc = (uint32_t)c;
                for (unsigned k = 0; k < K; k++) {
                    uint64_t x = A[i * K + k], y = B[k * N + j];
                    acc += (uint32_t)(F->bitop == PTX_SUB_AND ? (x & y) : (x ^ y)) & 1;
                }
                r = acc;
                break;
            }
            default: { /* s8 u8 s4 u4 */
                int64_t acc = (int32_t)(uint32_t)c;
                for (unsigned k = 0; k < K; k++) acc += to_int(A[i * K + k], F->ta) * to_int(B[k * N + j], F->tb);
                if (F->satf) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                r = (uint32_t)acc;
                break;
            }
            }
            D[i * N + j] = r;
        }
}

/* Puts element value v into register bits (packing into 32-bit registers). */
static inline void put_el(uint64_t *const *regs, const mfrag *f, unsigned l, unsigned e, uint64_t v)
{
    if (f->bits >= 32) {
        regs[e][l] = f->bits == 64 ? v : (uint32_t)v;
        return;
    }
    unsigned sh = (e % f->epr) * f->bits;
    uint32_t mask = ((1u << f->bits) - 1) << sh;
    uint64_t *r = &regs[e / f->epr][l];
    *r = ((uint32_t)*r & ~mask) | (((uint32_t)v << sh) & mask);
}

static void h_mma(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    if (!whole_warp(w, in, m)) return;
    mmaf F;
    mmaf_init(in, &F);
    const uint64_t *ra[8], *rb[8], *rc[8];
    src_rows(w, &in->o[1], F.a.nreg, ra);
    src_rows(w, &in->o[2], F.b.nreg, rb);
    src_rows(w, &in->o[3], F.c.nreg, rc);
    exec_grid *g = w->g;
    if (!g->mmabuf) g->mmabuf = tp_malloc((MAXA + MAXB + 2 * MAXC + MAXA / 2 + MAXB / 2) * sizeof *g->mmabuf);
    uint64_t *A = g->mmabuf, *B = A + MAXA, *C = B + MAXB, *D = C + MAXC;
    bool fl = F.ta == PTX_TT_F16 || F.ta == PTX_TT_BF16 || F.ta == PTX_TT_TF32;
    F.fa = fl ? (float *)(D + MAXC) : NULL; /* MAXA floats, then MAXB */
    F.fb = fl ? F.fa + MAXA : NULL;
    uint64_t out[8][32];
    if (F.qp) {
        bool cf32 = F.tc == PTX_TT_F32, df32 = F.td == PTX_TT_F32;
        for (unsigned l = 0; l < 32; l++) {
            unsigned q = (l >> 2) & 3;
            for (unsigned e = 0; e < 4; e++) {
                unsigned r, c;
                qp_rc(&F, FK_A, false, l, e, &r, &c);
                A[q * 32 + r * 4 + c] = get_el(ra, &F.a, l, e);
                qp_rc(&F, FK_B, false, l, e, &r, &c);
                B[q * 32 + r * 8 + c] = get_el(rb, &F.b, l, e);
            }
            for (unsigned e = 0; e < 8; e++) {
                unsigned r, c;
                qp_rc(&F, FK_C, cf32, l, e, &r, &c);
                C[q * 64 + r * 8 + c] = get_el(rc, &F.c, l, e);
            }
        }
        for (unsigned q = 0; q < 4; q++) product(&F, A + q * 32, B + q * 32, C + q * 64, D + q * 64);
        uint64_t *rd[8];
        for (unsigned k = 0; k < F.d.nreg; k++) {
            rd[k] = out[k];
            memset(out[k], 0, sizeof out[k]);
        }
        for (unsigned l = 0; l < 32; l++) {
            unsigned q = (l >> 2) & 3;
            for (unsigned e = 0; e < 8; e++) {
                unsigned r, c;
                qp_rc(&F, FK_C, df32, l, e, &r, &c);
                put_el(rd, &F.d, l, e, D[q * 64 + r * 8 + c]);
            }
        }
    } else {
        /* the general layout (elem_rc), unrolled by register: A register q is row
        ** 8 (q mod M/8) + g, columns E (4 (q div M/8) + t) ..; B register q column
        ** 8 (q div KC/4) + g, rows E (4 (q mod KC/4) + t) ..; C pair p row 8 (p mod
        ** M/8) + g, columns 8 (p div M/8) + 2t, + 1 */
        unsigned r8 = F.M / 8, kb = F.K / F.b.epr / 4, nc = F.M * F.N / 32;
        for (unsigned l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            for (unsigned q = 0; q < F.a.ureg; q++) {
                unsigned row = 8 * (q % r8) + g, col = (4 * (q / r8) + t) * F.a.epr;
                for (unsigned j = 0; j < F.a.epr; j++) A[row * F.K + col + j] = get_el(ra, &F.a, l, q * F.a.epr + j);
            }
            for (unsigned q = 0; q < F.b.ureg; q++) {
                unsigned col = 8 * (q / kb) + g, row = (4 * (q % kb) + t) * F.b.epr;
                for (unsigned j = 0; j < F.b.epr; j++) B[(row + j) * F.N + col] = get_el(rb, &F.b, l, q * F.b.epr + j);
            }
            for (unsigned e = 0; e < nc; e++) {
                unsigned p = e / 2, row = 8 * (p % r8) + g, col = 8 * (p / r8) + 2 * t + (e & 1);
                C[row * F.N + col] = get_el(rc, &F.c, l, e);
            }
        }
        product(&F, A, B, C, D);
        uint64_t *rd[8];
        for (unsigned k = 0; k < F.d.nreg; k++) {
            rd[k] = out[k];
            memset(out[k], 0, sizeof out[k]);
        }
        for (unsigned l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            for (unsigned e = 0; e < nc; e++) {
                unsigned p = e / 2, row = 8 * (p % r8) + g, col = 8 * (p / r8) + 2 * t + (e & 1);
                put_el(rd, &F.d, l, e, D[row * F.N + col]);
            }
        }
    }
    uint64_t *dst[8];
    dst_rows(w, &in->o[0], F.d.nreg, dst);
    for (unsigned k = 0; k < F.d.nreg; k++) memcpy(dst[k], out[k], sizeof out[k]);
}

/* ---- ldmatrix / stmatrix / movmatrix ---------------------------------------------------- */

static void ldst_matrix(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m, bool store)
{
    if (!whole_warp(w, in, m)) return;
    unsigned num = 1u << (in->m.tens >> PTX_TN_NUM_SHIFT & 3), nl = 8 * num;
    bool trans = (in->m.tens & PTX_TN_TRANS) != 0;
    uint64_t row[32];
    int space = base_addrs(w, d, &in->o[store ? 0 : 1], row);
    for (unsigned l = 0; l < nl; l++)
        if (row[l] & 15) {
            exec_fault(w, (int)l, EXEC_ERR_MISALIGNED, "%s: row address 0x%llx is not 16-byte aligned",
                       ptx_ops[in->op].name, (unsigned long long)row[l]);
            return;
        }
    const ptx_opnd *ro = &in->o[store ? 1 : 0];
    uint32_t val[4][32];
    if (store) {
        const uint64_t *rows[4];
        src_rows(w, ro, num, rows);
        for (unsigned j = 0; j < num; j++)
            for (int l = 0; l < 32; l++) val[j][l] = (uint32_t)rows[j][l];
    }
    for (unsigned j = 0; j < num; j++)
        for (unsigned l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            for (unsigned h = 0; h < 2; h++) {
                unsigned r = trans ? 2 * t + h : g, c = trans ? g : 2 * t + h;
                unsigned src = 8 * j + r;
                uint8_t *p = exec_lane_ptr(w, (int)src, space, row[src] + 2 * c, 2, store);
                if (!p) return;
                if (TP_UNLIKELY(w->g->checks)) exec_check_lane(w, in, (int)src, space, row[src] + 2 * c, 2, store);
                if (store) {
                    uint16_t e = (uint16_t)(val[j][l] >> (16 * h));
                    memcpy(p, &e, 2);
                } else {
                    uint16_t e;
                    memcpy(&e, p, 2);
                    if (!h) val[j][l] = e;
                    else val[j][l] |= (uint32_t)e << 16;
                }
            }
        }
    if (store) {
        exec_progress(w);
    } else {
        uint64_t *rows[4];
        dst_rows(w, ro, num, rows);
        for (unsigned j = 0; j < num; j++)
            for (int l = 0; l < 32; l++) rows[j][l] = val[j][l];
    }
    exec_rec *rec = w->x->rec;
    if (TP_UNLIKELY(rec != NULL)) {
        int sp0 = -1;
        for (unsigned l = 0; l < 32; l++) {
            uint64_t a = row[l % nl];
            int sp = resolve(space, &a);
            if (sp0 < 0) sp0 = sp;
            rec->addr[l] = a;
        }
        rec->space = (uint8_t)sp0;
    }
}

static void h_ldmatrix(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    ldst_matrix(w, in, d, m, false);
}

static void h_stmatrix(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    ldst_matrix(w, in, d, m, true);
}

static void h_movmatrix(exec_warp *w, const ptx_insn *in, const exec_dinsn *d, uint32_t m)
{
    (void)d;
    if (!whole_warp(w, in, m)) return;
    const uint64_t *a = exec_src(w, &in->o[1]);
    uint16_t M[8][8];
    for (unsigned l = 0; l < 32; l++) {
        M[l >> 2][2 * (l & 3)] = (uint16_t)a[l];
        M[l >> 2][2 * (l & 3) + 1] = (uint16_t)(a[l] >> 16);
    }
    uint64_t *o = exec_dst(w, &in->o[0]);
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l >> 2, t = l & 3;
        o[l] = (uint32_t)M[2 * t][g] | (uint32_t)M[2 * t + 1][g] << 16;
    }
}

/* ---- decode ------------------------------------------------------------------------------ */

exec_fn exec_pick_mma(const ptx_insn *in, exec_dinsn *d, const char **why)
{
    if (!ptx_op_is_tensor(in->op)) return NULL;
    ptx_tform tf;
    const char *w = ptx_tensor_form(in, &tf);
    if (w) {
        *why = w;
        return NULL;
    }
    d->kind |= EXEC_DK_WARP | EXEC_DK_CONV;
    switch (in->op) {
    case PTX_OP_WMMA_LOAD:
    case PTX_OP_WMMA_STORE: {
        mls L;
        mls_init(in, &L);
        d->space = in->m.space;
        d->size = (uint8_t)mls_pass_bytes(&L);
        return in->op == PTX_OP_WMMA_LOAD ? h_wmma_load : h_wmma_store;
    }
    case PTX_OP_LDMATRIX:
    case PTX_OP_STMATRIX:
        d->space = in->m.space;
        d->size = 16;
        return in->op == PTX_OP_LDMATRIX ? h_ldmatrix : h_stmatrix;
    case PTX_OP_MOVMATRIX: return h_movmatrix;
    default: return h_mma;
    }
}
