/*
** symtab.c -- the parser's hash tables, keyword table and constants:
** name lookup with { } scoping and register ranges, integer constant
** expressions, and conversions of literals to operand formats.
*/
#include "parse_int.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- hashing and tables -------------------------------------------------- */

uint32_t ptx_ps_hash(const char *s, uint32_t len)
{
    uint64_t h = 0x243F6A8885A308D3ull ^ len;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        s += 8;
        len -= 8;
    }
    uint64_t w = 0;
    for (uint32_t i = 0; i < len; i++) w |= (uint64_t)(unsigned char)s[i] << (8 * i);
    h = (h ^ w) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
    return (uint32_t)h;
}

void ptx_ps_tab_free(ptx_symtab *t)
{
    free(t->slots);
    t->slots = NULL;
    t->cap = 0;
    tp_vec_free(&t->keys);
    tp_vec_free(&t->syms);
}

void ptx_ps_tab_clear(ptx_symtab *t)
{
    if (t->keys.n * 8 < t->cap) {
        for (uint32_t i = 0; i < t->keys.n; i++) t->slots[t->keys.a[i].slot] = 0;
    } else if (t->cap) {
        memset(t->slots, 0, t->cap * sizeof *t->slots);
    }
    t->keys.n = 0;
    t->syms.n = 0;
}

static void tab_grow(ptx_symtab *t)
{
    uint32_t cap = t->cap ? t->cap * 2 : 64;
    free(t->slots);
    t->slots = tp_calloc(cap, sizeof *t->slots);
    t->cap = cap;
    for (uint32_t i = 0; i < t->keys.n; i++) {
        uint32_t j = t->keys.a[i].hash & (cap - 1);
        while (t->slots[j]) j = (j + 1) & (cap - 1);
        t->slots[j] = i + 1;
        t->keys.a[i].slot = j;
    }
}

static int32_t tab_keyidx(const ptx_symtab *t, const char *s, uint32_t len, uint32_t hash,
                          bool range, uint32_t *slot)
{
    uint32_t mask = t->cap - 1, j = hash & mask;
    if (!t->cap) return -1;
    for (;;) {
        uint32_t k = t->slots[j];
        if (!k) {
            *slot = j;
            return -1;
        }
        const ptx_key *key = &t->keys.a[k - 1];
        if (key->hash == hash && key->len == len && key->range == range &&
            memcmp(key->s, s, len) == 0)
            return (int32_t)(k - 1);
        j = (j + 1) & mask;
    }
}

uint32_t ptx_ps_tab_key(ptx_symtab *t, const char *s, uint32_t len, uint32_t hash, bool range)
{
    uint32_t slot = 0;
    int32_t k = tab_keyidx(t, s, len, hash, range, &slot);
    if (k >= 0) return (uint32_t)k;
    if ((t->keys.n + 1) * 2 > t->cap) {
        tab_grow(t);
        tab_keyidx(t, s, len, hash, range, &slot);
    }
    ptx_key nk = {s, len, hash, -1, slot, range};
    tp_vec_push(&t->keys, nk);
    t->slots[slot] = t->keys.n;
    return t->keys.n - 1;
}

ptx_sym *ptx_ps_tab_find(ptx_symtab *t, const char *s, uint32_t len, uint32_t hash, bool range)
{
    uint32_t slot;
    int32_t k = tab_keyidx(t, s, len, hash, range, &slot);
    if (k < 0 || t->keys.a[k].head < 0) return NULL;
    return &t->syms.a[t->keys.a[k].head];
}

uint32_t ptx_ps_tab_add(ptx_symtab *t, uint32_t key, int kind, int depth, int32_t val,
                        uint32_t count)
{
    ptx_sym s = {key, (uint8_t)kind, (uint8_t)depth, 1, 0, val, count,
                 t->keys.a[key].head, 0, 0};
    tp_vec_push(&t->syms, s);
    t->keys.a[key].head = (int32_t)(t->syms.n - 1);
    return t->syms.n - 1;
}

ptx_sym *ptx_ps_lookup(ptx_ps *P, const char *s, uint32_t len, uint32_t *elem)
{
    *elem = 0;
    if (P->fi >= 0) {
        uint32_t h = ptx_ps_hash(s, len);
        ptx_sym *a = ptx_ps_tab_find(&P->fs, s, len, h, false);
        /* a register range covering the name (%r12 in %r<45>)? */
        uint32_t k = len;
        while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
        if (k > 0 && k < len && len - k <= 9 && (len - k == 1 || s[k] != '0')) {
            uint32_t n = 0;
            for (uint32_t i = k; i < len; i++) n = n * 10 + (uint32_t)(s[i] - '0');
            ptx_sym *r = ptx_ps_tab_find(&P->fs, s, k, ptx_ps_hash(s, k), true);
            while (r && n >= r->count) r = r->shadow >= 0 ? &P->fs.syms.a[r->shadow] : NULL;
            if (r && (!a || r->depth > a->depth)) {
                *elem = n;
                return r;
            }
        }
        if (a) return a;
        return ptx_ps_tab_find(&P->ms, s, len, h, false);
    }
    return ptx_ps_tab_find(&P->ms, s, len, ptx_ps_hash(s, len), false);
}

/* ---- keywords ----------------------------------------------------------- */

typedef struct kwdef {
    const char *name; /* with the leading '.' for dot words */
    uint8_t cat;      /* PTX_KW_* */
    uint32_t val;
} kwdef;

/* Every dot word and non-table opcode the parser knows.  Opcodes come from
** ptx_ops.def and types from PTX_TYPES; a name may have several entries
** (".lo" compares for setp, selects the half for mul). */
static const kwdef kwdefs[] = {
    /* directives */
    {".version", PTX_KW_DIR, PTX_D_VERSION}, {".target", PTX_KW_DIR, PTX_D_TARGET},
    {".address_size", PTX_KW_DIR, PTX_D_ADDRESS_SIZE}, {".file", PTX_KW_DIR, PTX_D_FILE},
    {".loc", PTX_KW_DIR, PTX_D_LOC}, {".section", PTX_KW_DIR, PTX_D_SECTION},
    {".entry", PTX_KW_DIR, PTX_D_ENTRY}, {".func", PTX_KW_DIR, PTX_D_FUNC},
    {".reg", PTX_KW_DIR, PTX_D_REG}, {".pragma", PTX_KW_DIR, PTX_D_PRAGMA},
    {".align", PTX_KW_DIR, PTX_D_ALIGN}, {".ptr", PTX_KW_DIR, PTX_D_PTR},
    {".maxntid", PTX_KW_DIR, PTX_D_MAXNTID}, {".reqntid", PTX_KW_DIR, PTX_D_REQNTID},
    {".minnctapersm", PTX_KW_DIR, PTX_D_MINNCTAPERSM},
    {".maxnctapersm", PTX_KW_DIR, PTX_D_MAXNCTAPERSM}, {".maxnreg", PTX_KW_DIR, PTX_D_MAXNREG},
    {".noreturn", PTX_KW_DIR, PTX_D_NORETURN},
    {".reqnctapercluster", PTX_KW_DIR, PTX_D_REQNCTAPERCLUSTER},
    {".maxclusterrank", PTX_KW_DIR, PTX_D_MAXCLUSTERRANK},
    {".explicitcluster", PTX_KW_DIR, PTX_D_EXPLICITCLUSTER},
    {".blocksareclusters", PTX_KW_DIR, PTX_D_BLOCKSARECLUSTERS},
    {".alias", PTX_KW_DIR, PTX_D_ALIAS}, {".texref", PTX_KW_DIR, PTX_D_TEXREF},
    {".samplerref", PTX_KW_DIR, PTX_D_SAMPLERREF}, {".surfref", PTX_KW_DIR, PTX_D_SURFREF},
    {".callprototype", PTX_KW_DIR, PTX_D_CALLPROTOTYPE},
    {".calltargets", PTX_KW_DIR, PTX_D_CALLTARGETS},
    {".branchtargets", PTX_KW_DIR, PTX_D_BRANCHTARGETS},
    {".attribute", PTX_KW_DIR, PTX_D_ATTRIBUTE}, {"@@DWARF", PTX_KW_DIR, PTX_D_DWARF},
    /* linkage */
    {".visible", PTX_KW_LINK, PTX_L_VISIBLE}, {".extern", PTX_KW_LINK, PTX_L_EXTERN},
    {".weak", PTX_KW_LINK, PTX_L_WEAK}, {".common", PTX_KW_LINK, PTX_L_COMMON},
    /* state spaces */
    {".global", PTX_KW_SPACE, PTX_SP_GLOBAL}, {".shared", PTX_KW_SPACE, PTX_SP_SHARED},
    {".shared::cta", PTX_KW_SPACE, PTX_SP_SHARED},
    {".shared::cluster", PTX_KW_SPACE, PTX_SP_SHARED_CLUSTER},
    {".local", PTX_KW_SPACE, PTX_SP_LOCAL}, {".const", PTX_KW_SPACE, PTX_SP_CONST},
    {".param", PTX_KW_SPACE, PTX_SP_PARAM}, {".param::entry", PTX_KW_SPACE, PTX_SP_PARAM_ENTRY},
    {".param::func", PTX_KW_SPACE, PTX_SP_PARAM_FUNC}, {".tex", PTX_KW_SPACE, PTX_SP_TEX},
    /* cache operators */
    {".ca", PTX_KW_CACHE, PTX_CACHE_CA}, {".cg", PTX_KW_CACHE, PTX_CACHE_CG},
    {".cs", PTX_KW_CACHE, PTX_CACHE_CS}, {".lu", PTX_KW_CACHE, PTX_CACHE_LU},
    {".cv", PTX_KW_CACHE, PTX_CACHE_CV}, {".wb", PTX_KW_CACHE, PTX_CACHE_WB},
    {".wt", PTX_KW_CACHE, PTX_CACHE_WT},
    /* memory semantics and scope */
    {".weak", PTX_KW_SEM, PTX_SEM_WEAK}, {".relaxed", PTX_KW_SEM, PTX_SEM_RELAXED},
    {".acquire", PTX_KW_SEM, PTX_SEM_ACQUIRE}, {".release", PTX_KW_SEM, PTX_SEM_RELEASE},
    {".acq_rel", PTX_KW_SEM, PTX_SEM_ACQ_REL}, {".sc", PTX_KW_SEM, PTX_SEM_SC},
    {".volatile", PTX_KW_SEM, PTX_SEM_VOLATILE}, {".mmio", PTX_KW_SEM, PTX_SEM_MMIO},
    {".cta", PTX_KW_SCOPE, PTX_SCOPE_CTA}, {".cluster", PTX_KW_SCOPE, PTX_SCOPE_CLUSTER},
    {".gpu", PTX_KW_SCOPE, PTX_SCOPE_GPU}, {".sys", PTX_KW_SCOPE, PTX_SCOPE_SYS},
    {".gl", PTX_KW_SCOPE, PTX_SCOPE_GPU},
    /* vectors */
    {".v2", PTX_KW_VEC, 2}, {".v4", PTX_KW_VEC, 4}, {".v8", PTX_KW_VEC, 8},
    /* rounding */
    {".rn", PTX_KW_RND, PTX_RND_RN}, {".rz", PTX_KW_RND, PTX_RND_RZ},
    {".rm", PTX_KW_RND, PTX_RND_RM}, {".rp", PTX_KW_RND, PTX_RND_RP},
    {".rni", PTX_KW_RND, PTX_RND_RNI}, {".rzi", PTX_KW_RND, PTX_RND_RZI},
    {".rmi", PTX_KW_RND, PTX_RND_RMI}, {".rpi", PTX_KW_RND, PTX_RND_RPI},
    {".rna", PTX_KW_RND, PTX_RND_RNA}, {".rs", PTX_KW_RND, PTX_RND_RS},
    /* comparisons */
    {".eq", PTX_KW_CMP, PTX_CMP_EQ}, {".ne", PTX_KW_CMP, PTX_CMP_NE},
    {".lt", PTX_KW_CMP, PTX_CMP_LT}, {".le", PTX_KW_CMP, PTX_CMP_LE},
    {".gt", PTX_KW_CMP, PTX_CMP_GT}, {".ge", PTX_KW_CMP, PTX_CMP_GE},
    {".lo", PTX_KW_CMP, PTX_CMP_LO}, {".ls", PTX_KW_CMP, PTX_CMP_LS},
    {".hi", PTX_KW_CMP, PTX_CMP_HI}, {".hs", PTX_KW_CMP, PTX_CMP_HS},
    {".equ", PTX_KW_CMP, PTX_CMP_EQU}, {".neu", PTX_KW_CMP, PTX_CMP_NEU},
    {".ltu", PTX_KW_CMP, PTX_CMP_LTU}, {".leu", PTX_KW_CMP, PTX_CMP_LEU},
    {".gtu", PTX_KW_CMP, PTX_CMP_GTU}, {".geu", PTX_KW_CMP, PTX_CMP_GEU},
    {".num", PTX_KW_CMP, PTX_CMP_NUM}, {".nan", PTX_KW_CMP, PTX_CMP_NAN},
    /* boolean combining ops */
    {".and", PTX_KW_BOP, PTX_BOP_AND}, {".or", PTX_KW_BOP, PTX_BOP_OR},
    {".xor", PTX_KW_BOP, PTX_BOP_XOR}, {".popc", PTX_KW_BOP, PTX_BOP_POPC},
    /* sub-operations */
    {".lo", PTX_KW_SUBW, PTX_SUB_LO}, {".hi", PTX_KW_SUBW, PTX_SUB_HI},
    {".wide", PTX_KW_SUBW, PTX_SUB_WIDE},
    {".add", PTX_KW_SUBA, PTX_SUB_ADD}, {".min", PTX_KW_SUBA, PTX_SUB_MIN},
    {".max", PTX_KW_SUBA, PTX_SUB_MAX}, {".inc", PTX_KW_SUBA, PTX_SUB_INC},
    {".dec", PTX_KW_SUBA, PTX_SUB_DEC}, {".cas", PTX_KW_SUBA, PTX_SUB_CAS},
    {".exch", PTX_KW_SUBA, PTX_SUB_EXCH}, {".and", PTX_KW_SUBA, PTX_SUB_AND},
    {".or", PTX_KW_SUBA, PTX_SUB_OR}, {".xor", PTX_KW_SUBA, PTX_SUB_XOR},
    {".up", PTX_KW_SUBSH, PTX_SUB_UP}, {".down", PTX_KW_SUBSH, PTX_SUB_DOWN},
    {".bfly", PTX_KW_SUBSH, PTX_SUB_BFLY}, {".idx", PTX_KW_SUBSH, PTX_SUB_IDX},
    {".all", PTX_KW_SUBV, PTX_SUB_ALL}, {".any", PTX_KW_SUBV, PTX_SUB_ANY},
    {".uni", PTX_KW_SUBV, PTX_SUB_UNI}, {".ballot", PTX_KW_SUBV, PTX_SUB_BALLOT},
    {".sync", PTX_KW_SUBB, PTX_SUB_SYNC}, {".arrive", PTX_KW_SUBB, PTX_SUB_ARRIVE},
    {".red", PTX_KW_SUBB, PTX_SUB_RED}, {".warp", PTX_KW_SUBB, PTX_SUB_WARPSYNC},
    {".f4e", PTX_KW_SUBP, PTX_SUB_F4E}, {".b4e", PTX_KW_SUBP, PTX_SUB_B4E},
    {".rc8", PTX_KW_SUBP, PTX_SUB_RC8}, {".ecl", PTX_KW_SUBP, PTX_SUB_ECL},
    {".ecr", PTX_KW_SUBP, PTX_SUB_ECR}, {".rc16", PTX_KW_SUBP, PTX_SUB_RC16},
    {".finite", PTX_KW_SUBT, PTX_SUB_FINITE}, {".infinite", PTX_KW_SUBT, PTX_SUB_INFINITE},
    {".number", PTX_KW_SUBT, PTX_SUB_NUMBER}, {".notanumber", PTX_KW_SUBT, PTX_SUB_NOTANUMBER},
    {".normal", PTX_KW_SUBT, PTX_SUB_NORMAL}, {".subnormal", PTX_KW_SUBT, PTX_SUB_SUBNORMAL},
    {".l", PTX_KW_SUBF, PTX_SUB_L}, {".r", PTX_KW_SUBF, PTX_SUB_R},
    {".1d", PTX_KW_GEOM, PTX_SUB_1D}, {".2d", PTX_KW_GEOM, PTX_SUB_2D},
    {".3d", PTX_KW_GEOM, PTX_SUB_3D}, {".a1d", PTX_KW_GEOM, PTX_SUB_A1D},
    {".a2d", PTX_KW_GEOM, PTX_SUB_A2D}, {".cube", PTX_KW_GEOM, PTX_SUB_CUBE},
    {".acube", PTX_KW_GEOM, PTX_SUB_ACUBE}, {".2dms", PTX_KW_GEOM, PTX_SUB_2DMS},
    {".a2dms", PTX_KW_GEOM, PTX_SUB_A2DMS},
    {".r", PTX_KW_COMP, PTX_SUB_COMP_R}, {".g", PTX_KW_COMP, PTX_SUB_COMP_G},
    {".b", PTX_KW_COMP, PTX_SUB_COMP_B}, {".a", PTX_KW_COMP, PTX_SUB_COMP_A},
    {".width", PTX_KW_QUERY, PTX_SUB_Q_WIDTH}, {".height", PTX_KW_QUERY, PTX_SUB_Q_HEIGHT},
    {".depth", PTX_KW_QUERY, PTX_SUB_Q_DEPTH},
    {".channel_data_type", PTX_KW_QUERY, PTX_SUB_Q_CHANNEL_DATA_TYPE},
    {".channel_order", PTX_KW_QUERY, PTX_SUB_Q_CHANNEL_ORDER},
    {".normalized_coords", PTX_KW_QUERY, PTX_SUB_Q_NORMALIZED_COORDS},
    {".filter_mode", PTX_KW_QUERY, PTX_SUB_Q_FILTER_MODE},
    {".addr_mode_0", PTX_KW_QUERY, PTX_SUB_Q_ADDR_MODE_0},
    {".addr_mode_1", PTX_KW_QUERY, PTX_SUB_Q_ADDR_MODE_1},
    {".addr_mode_2", PTX_KW_QUERY, PTX_SUB_Q_ADDR_MODE_2},
    {".array_size", PTX_KW_QUERY, PTX_SUB_Q_ARRAY_SIZE},
    {".num_mipmap_levels", PTX_KW_QUERY, PTX_SUB_Q_NUM_MIPMAP_LEVELS},
    {".num_samples", PTX_KW_QUERY, PTX_SUB_Q_NUM_SAMPLES},
    {".base", PTX_KW_MIP, PTX_SUB_NONE}, {".level", PTX_KW_MIP, PTX_SUB_LEVEL},
    {".grad", PTX_KW_MIP, PTX_SUB_GRAD},
    /* flags */
    {".ftz", PTX_KW_FLAG, PTX_MF_FTZ}, {".sat", PTX_KW_FLAG, PTX_MF_SAT},
    {".approx", PTX_KW_FLAG, PTX_MF_APPROX}, {".full", PTX_KW_FLAG, PTX_MF_FULL},
    {".cc", PTX_KW_FLAG, PTX_MF_CC}, {".uni", PTX_KW_FLAG, PTX_MF_UNI},
    {".to", PTX_KW_FLAG, PTX_MF_TO}, {".nc", PTX_KW_FLAG, PTX_MF_NC},
    {".shiftamt", PTX_KW_FLAG, PTX_MF_SHIFTAMT}, {".wrap", PTX_KW_FLAG, PTX_MF_WRAP},
    {".clamp", PTX_KW_FLAG, PTX_MF_CLAMP}, {".sync", PTX_KW_FLAG, PTX_MF_SYNC},
    {".aligned", PTX_KW_FLAG, PTX_MF_ALIGNED}, {".relu", PTX_KW_FLAG, PTX_MF_RELU},
    {".NaN", PTX_KW_FLAG, PTX_MF_NAN}, {".xorsign", PTX_KW_FLAG, PTX_MF_XORSIGN},
    {".abs", PTX_KW_FLAG, PTX_MF_ABS}, {".satfinite", PTX_KW_FLAG, PTX_MF_SATFINITE},
    {".noftz", PTX_KW_FLAG, PTX_MF_NOFTZ}, {".oob", PTX_KW_FLAG, PTX_MF_OOB},
    {".trap", PTX_KW_FLAG, PTX_MF_TRAP}, {".zero", PTX_KW_FLAG, PTX_MF_ZERO},
    {".b", PTX_KW_FLAG, PTX_MF_B}, {".p", PTX_KW_FLAG, PTX_MF_P},
    {".unified", PTX_KW_FLAG, PTX_MF_UNIFIED},
    /* performance hints: accepted and ignored */
    {".L1::evict_normal", PTX_KW_HINT, PTX_H_IGNORE},
    {".L1::evict_unchanged", PTX_KW_HINT, PTX_H_IGNORE},
    {".L1::evict_first", PTX_KW_HINT, PTX_H_IGNORE},
    {".L1::evict_last", PTX_KW_HINT, PTX_H_IGNORE},
    {".L1::no_allocate", PTX_KW_HINT, PTX_H_IGNORE},
    {".L2::evict_normal", PTX_KW_HINT, PTX_H_IGNORE},
    {".L2::evict_first", PTX_KW_HINT, PTX_H_IGNORE},
    {".L2::evict_last", PTX_KW_HINT, PTX_H_IGNORE},
    {".L2::evict_unchanged", PTX_KW_HINT, PTX_H_IGNORE},
    {".L2::64B", PTX_KW_HINT, PTX_H_IGNORE}, {".L2::128B", PTX_KW_HINT, PTX_H_IGNORE},
    {".L2::256B", PTX_KW_HINT, PTX_H_IGNORE},
    {".L2::cache_hint", PTX_KW_HINT, PTX_H_CACHE_HINT},
    {".L1", PTX_KW_HINT, PTX_H_IGNORE}, {".L2", PTX_KW_HINT, PTX_H_IGNORE},
    /* PTX types tpsim does not model */
    {".u16x2", PTX_KW_UNSUP, 0}, {".s16x2", PTX_KW_UNSUP, 0}, {".e4m3", PTX_KW_UNSUP, 0},
    {".e5m2", PTX_KW_UNSUP, 0}, {".e4m3x2", PTX_KW_UNSUP, 0}, {".e5m2x2", PTX_KW_UNSUP, 0},
    {".e4m3x4", PTX_KW_UNSUP, 0}, {".e5m2x4", PTX_KW_UNSUP, 0}, {".e2m1x2", PTX_KW_UNSUP, 0},
    {".e2m3x2", PTX_KW_UNSUP, 0}, {".e3m2x2", PTX_KW_UNSUP, 0}, {".ue8m0x2", PTX_KW_UNSUP, 0},
    {".s4", PTX_KW_UNSUP, 0}, {".u4", PTX_KW_UNSUP, 0}, {".b1", PTX_KW_UNSUP, 0},
    /* PTX instructions tpsim does not execute */
    {"wgmma", PTX_KW_UNSUP, 0}, {"cp", PTX_KW_UNSUP, 0}, {"mbarrier", PTX_KW_UNSUP, 0},
    {"tcgen05", PTX_KW_UNSUP, 0}, {"setmaxnreg", PTX_KW_UNSUP, 0},
    {"griddepcontrol", PTX_KW_UNSUP, 0}, {"applypriority", PTX_KW_UNSUP, 0},
    {"discard", PTX_KW_UNSUP, 0}, {"createpolicy", PTX_KW_UNSUP, 0},
    {"istypep", PTX_KW_UNSUP, 0}, {"tensormap", PTX_KW_UNSUP, 0},
    {"multimem", PTX_KW_UNSUP, 0}, {"alloca", PTX_KW_UNSUP, 0},
    {"stacksave", PTX_KW_UNSUP, 0}, {"stackrestore", PTX_KW_UNSUP, 0},
    {"mapa", PTX_KW_UNSUP, 0}, {"clusterlaunchcontrol", PTX_KW_UNSUP, 0},
    {"sured", PTX_KW_UNSUP, 0}, {"vadd", PTX_KW_UNSUP, 0}, {"vsub", PTX_KW_UNSUP, 0},
    {"vabsdiff", PTX_KW_UNSUP, 0}, {"vmin", PTX_KW_UNSUP, 0}, {"vmax", PTX_KW_UNSUP, 0},
    {"vshl", PTX_KW_UNSUP, 0}, {"vshr", PTX_KW_UNSUP, 0}, {"vmad", PTX_KW_UNSUP, 0},
    {"vset", PTX_KW_UNSUP, 0}, {"vadd2", PTX_KW_UNSUP, 0}, {"vsub2", PTX_KW_UNSUP, 0},
    {"vavrg2", PTX_KW_UNSUP, 0}, {"vabsdiff2", PTX_KW_UNSUP, 0}, {"vmin2", PTX_KW_UNSUP, 0},
    {"vmax2", PTX_KW_UNSUP, 0}, {"vset2", PTX_KW_UNSUP, 0}, {"vadd4", PTX_KW_UNSUP, 0},
    {"vsub4", PTX_KW_UNSUP, 0}, {"vavrg4", PTX_KW_UNSUP, 0}, {"vabsdiff4", PTX_KW_UNSUP, 0},
    {"vmin4", PTX_KW_UNSUP, 0}, {"vmax4", PTX_KW_UNSUP, 0}, {"vset4", PTX_KW_UNSUP, 0},
};

static const char *const type_dotnames[PTX_T_COUNT] = {
#define X(id, s, sz, k) "." s,
    PTX_TYPES(X)
#undef X
};

void ptx_ps_kw_init(ptx_symtab *kw)
{
    for (uint32_t i = 0; i < TP_ARRAY_LEN(kwdefs); i++) {
        const char *n = kwdefs[i].name;
        uint32_t len = (uint32_t)strlen(n);
        uint32_t k = ptx_ps_tab_key(kw, n, len, ptx_ps_hash(n, len), false);
        ptx_ps_tab_add(kw, k, PTX_SK_KW, 0, (int32_t)kwdefs[i].val, kwdefs[i].cat);
    }
    for (int t = 1; t < PTX_T_COUNT; t++) {
        const char *n = type_dotnames[t];
        uint32_t len = (uint32_t)strlen(n);
        uint32_t k = ptx_ps_tab_key(kw, n, len, ptx_ps_hash(n, len), false);
        ptx_ps_tab_add(kw, k, PTX_SK_KW, 0, t, PTX_KW_TYPE);
    }
    for (int op = 0; op < PTX_OP_COUNT; op++) {
        if (ptx_ops[op].flags & PTX_F_PSEUDO) continue;
        const char *n = ptx_ops[op].name;
        uint32_t len = (uint32_t)strlen(n);
        /* "wmma.load": found by its first word; the parser reads the second */
        const char *dot = strchr(n, '.');
        if (dot) len = (uint32_t)(dot - n);
        uint32_t k = ptx_ps_tab_key(kw, n, len, ptx_ps_hash(n, len), false);
        ptx_ps_tab_add(kw, k, PTX_SK_KW, 0, op, PTX_KW_OP);
    }
}

ptx_sym *ptx_ps_kw_find(ptx_ps *P, const char *s, uint32_t len)
{
    return ptx_ps_tab_find(&P->kw, s, len, ptx_ps_hash(s, len), false);
}

/* ---- constants ----------------------------------------------------------- */

/* Binary operators of constant expressions and their precedence. */
static int binop(ptx_ps *P, int *prec)
{
    if (P->t.kind != PTX_TK_PUNCT) return 0;
    switch (P->t.c) {
    case '*': case '/': case '%': *prec = 5; return P->t.c;
    case '+': case '-': *prec = 4; return P->t.c;
    case '<': case '>': {
        const ptx_tok *n = ptx_ps_peek(P);
        if (n->kind == PTX_TK_PUNCT && n->c == P->t.c && n->adj) {
            *prec = 3;
            return P->t.c == '<' ? 'L' : 'R';
        }
        return 0;
    }
    case '&': *prec = 2; return '&';
    case '^': *prec = 1; return '^';
    case '|': *prec = 0; return '|';
    default: return 0;
    }
}

static void c_expr(ptx_ps *P, ptx_cval *v, int minprec);

bool ptx_ps_predef_const(ptx_ps *P, uint64_t *v)
{
    if (P->t.kind != PTX_TK_ID || !ptx_ps_tok_is(&P->t, "WARP_SZ")) return false;
    uint32_t el;
    if (ptx_ps_lookup(P, P->t.s, P->t.len, &el)) return false;
    *v = PTX_WARP_SZ;
    return true;
}

static void c_unary(ptx_ps *P, ptx_cval *v)
{
    const ptx_tok t = P->t;
    if (++P->cdepth > 100) PTX_FAIL(P, "constant expression nested too deeply");
    switch (t.kind) {
    case PTX_TK_INT:
        v->kind = PTX_TK_INT;
        v->u = t.u;
        v->is_unsigned = t.s[t.len - 1] == 'U';
        ptx_ps_next(P);
        P->cdepth--;
        return;
    case PTX_TK_F32: case PTX_TK_F64:
        v->kind = t.kind;
        v->u = t.u;
        ptx_ps_next(P);
        P->cdepth--;
        return;
    case PTX_TK_DBL:
        v->kind = PTX_TK_DBL;
        v->d = t.d;
        ptx_ps_next(P);
        P->cdepth--;
        return;
    case PTX_TK_ID:
        if (ptx_ps_predef_const(P, &v->u)) {
            v->kind = PTX_TK_INT;
            v->is_unsigned = 0;
            ptx_ps_next(P);
            P->cdepth--;
            return;
        }
        break;
    case PTX_TK_PUNCT:
        if (t.c == '(') {
            ptx_ps_next(P);
            c_expr(P, v, 0);
            ptx_ps_expect(P, ')');
            P->cdepth--;
            return;
        }
        if (t.c == '-' || t.c == '+' || t.c == '~' || t.c == '!') {
            ptx_ps_next(P);
            c_unary(P, v);
            P->cdepth--;
            if (t.c == '+') return;
            if (t.c == '-') {
                if (v->kind == PTX_TK_INT) v->u = (uint64_t)0 - v->u;
                else if (v->kind == PTX_TK_F32) v->u ^= 0x80000000u;
                else if (v->kind == PTX_TK_F64) v->u ^= 0x8000000000000000ull;
                else v->d = -v->d;
                return;
            }
            if (v->kind != PTX_TK_INT)
                ptx_ps_fail(P, t.line, t.col, "operator '%c' needs an integer", t.c);
            v->u = t.c == '~' ? ~v->u : (uint64_t)(v->u == 0);
            return;
        }
        break;
    default:
        break;
    }
    PTX_FAIL(P, "expected a constant, found %s", ptx_ps_tokdesc(P));
}

static void c_expr(ptx_ps *P, ptx_cval *v, int minprec)
{
    c_unary(P, v);
    int prec, op;
    while ((op = binop(P, &prec)) != 0 && prec >= minprec) {
        uint32_t line = P->t.line, col = P->t.col;
        ptx_ps_next(P);
        if (op == 'L' || op == 'R') ptx_ps_next(P);
        ptx_cval w = {0};
        c_expr(P, &w, prec + 1);
        if (v->kind != PTX_TK_INT || w.kind != PTX_TK_INT)
            ptx_ps_fail(P, line, col, "floating-point constant in an integer expression");
        bool u = v->is_unsigned || w.is_unsigned;
        uint64_t a = v->u, b = w.u;
        switch (op) {
        case '*': a *= b; break;
        case '+': a += b; break;
        case '-': a -= b; break;
        case '&': a &= b; break;
        case '^': a ^= b; break;
        case '|': a |= b; break;
        case 'L': a = b >= 64 ? 0 : a << b; break;
        case 'R':
            if (u) a = b >= 64 ? 0 : a >> b;
            else a = (uint64_t)((int64_t)a >> (b >= 64 ? 63 : b));
            break;
        case '/': case '%':
            if (b == 0) ptx_ps_fail(P, line, col, "division by zero in a constant expression");
            if (u) a = op == '/' ? a / b : a % b;
            else if ((int64_t)b == -1) a = op == '/' ? (uint64_t)0 - a : 0;
            else a = (uint64_t)(op == '/' ? (int64_t)a / (int64_t)b : (int64_t)a % (int64_t)b);
            break;
        }
        v->u = a;
        v->is_unsigned = u;
    }
}

void ptx_ps_const(ptx_ps *P, ptx_cval *v)
{
    memset(v, 0, sizeof *v);
    P->cdepth = 0;
    c_expr(P, v, 0);
}

int64_t ptx_ps_int(ptx_ps *P)
{
    uint32_t line = P->t.line, col = P->t.col;
    ptx_cval v;
    ptx_ps_const(P, &v);
    if (v.kind != PTX_TK_INT) ptx_ps_fail(P, line, col, "expected an integer constant");
    return (int64_t)v.u;
}

/* ---- float formats ---------------------------------------------------------- */

/* Rounds the f64 value 'bits' to nearest even in a binary format with
** 'mant' fraction bits and 'ebits' exponent bits; returns the bits.  NaNs
** keep their sign and top payload bits and become quiet. */
static uint64_t round_f64(uint64_t bits, int mant, int ebits)
{
    uint64_t sign = bits >> 63 << (mant + ebits);
    int e = (int)(bits >> 52 & 0x7ff);
    uint64_t f = bits & ((1ull << 52) - 1);
    uint64_t emax = (1ull << ebits) - 1;
    if (e == 0x7ff) {
        if (!f) return sign | emax << mant;
        return sign | emax << mant | 1ull << (mant - 1) | f >> (52 - mant);
    }
    if (e == 0 && f == 0) return sign;
    int bias = (1 << (ebits - 1)) - 1;
    uint64_t m = e ? (1ull << 52) | f : f;
    int exp = e ? e - 1023 : -1022;
    int texp = exp + bias;
    int shift = 52 - mant;
    if (texp < 1) {
        shift += 1 - texp;
        texp = 0;
    }
    uint64_t r;
    if (shift >= 64) {
        r = 0;
    } else {
        r = m >> shift;
        uint64_t rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        if (rem > half || (rem == half && (r & 1))) r++;
    }
    uint64_t comb = texp ? ((uint64_t)texp << mant) + r - (1ull << mant) : r;
    if (comb >= emax << mant) comb = emax << mant; /* overflow: infinity */
    return sign | comb;
}

uint32_t ptx_ps_f64_to_f32(uint64_t bits) { return (uint32_t)round_f64(bits, 23, 8); }

uint16_t ptx_ps_f64_to_f16(uint64_t bits, bool bf16)
{
    return (uint16_t)(bf16 ? round_f64(bits, 7, 8) : round_f64(bits, 10, 5));
}

uint64_t ptx_ps_f32_to_f64(uint32_t b)
{
    uint64_t sign = (uint64_t)(b >> 31) << 63;
    uint32_t e = b >> 23 & 0xff, f = b & 0x7fffff;
    if (e == 0xff) return sign | 0x7ff0000000000000ull | (uint64_t)f << 29;
    if (e == 0) {
        if (!f) return sign;
        int sh = 0; /* normalize the subnormal */
        while (!(f & 0x800000)) {
            f <<= 1;
            sh++;
        }
        return sign | (uint64_t)(1023 - 126 - sh) << 52 | (uint64_t)(f & 0x7fffff) << 29;
    }
    return sign | (uint64_t)(e - 127 + 1023) << 52 | (uint64_t)f << 29;
}

static uint64_t dbl_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* The value of a constant as f64 bits (integers converted exactly when they
** fit 53 bits, else rounded to nearest). */
static uint64_t cval_f64(const ptx_cval *v)
{
    switch (v->kind) {
    case PTX_TK_F32: return ptx_ps_f32_to_f64((uint32_t)v->u);
    case PTX_TK_F64: return v->u;
    case PTX_TK_DBL: return dbl_bits(v->d);
    default: return dbl_bits(v->is_unsigned ? (double)v->u : (double)(int64_t)v->u);
    }
}

/* Bits of a constant used as an operand of type ty:
**  - float operands (f16 bf16 tf32 f32 f64): 0f/0d literals are bits, rounded
**    to nearest even when the format differs (0d in an f32 op, 0f in an f16
**    op) and widened exactly for f64; decimal literals (doubles) are rounded
**    to the format; an INTEGER literal is converted to the float value it
**    names (mov.f32 %f1, 1 gives 1.0f).  f16/bf16 give their 16-bit pattern.
**    Packed f16x2/bf16x2: integer literals are the 32 bits as written; a
**    float literal is converted to the half format and fills both halves.
**  - integer and bit operands: integers are the value sign-extended to 64
**    bits as written (0xFFFFFFFF stays 0x00000000FFFFFFFF); 0f/0d literals
**    give their bits (zero-extended); a decimal float is converted to the
**    float format of the operand's width (b16/f16, 32/f32, 64/f64).
**  - predicates: an integer, 0 or 1. */
uint64_t ptx_ps_const_bits(ptx_ps *P, const ptx_cval *v, ptx_type ty, uint32_t line,
                           uint32_t col)
{
    char kind = ptx_types[ty].kind;
    if (kind == 'F') {
        if (ty == PTX_T_F16X2 || ty == PTX_T_BF16X2) {
            if (v->kind == PTX_TK_INT) return v->u & 0xffffffffu;
            uint64_t h = ptx_ps_f64_to_f16(cval_f64(v), ty == PTX_T_BF16X2);
            return h << 16 | h;
        }
        if (v->kind == PTX_TK_INT && ty != PTX_T_F64) {
            /* one rounding from the integer straight to the format */
            if (ty == PTX_T_F32 || ty == PTX_T_TF32) {
                float f = v->is_unsigned ? (float)v->u : (float)(int64_t)v->u;
                uint32_t b;
                memcpy(&b, &f, 4);
                return b;
            }
        }
        uint64_t d = cval_f64(v);
        switch (ty) {
        case PTX_T_F64: return d;
        case PTX_T_F32: case PTX_T_TF32:
            return v->kind == PTX_TK_F32 ? v->u : ptx_ps_f64_to_f32(d);
        case PTX_T_F16: return ptx_ps_f64_to_f16(d, false);
        case PTX_T_BF16: return ptx_ps_f64_to_f16(d, true);
        default: return d;
        }
    }
    if (kind == 'P') {
        if (v->kind != PTX_TK_INT)
            ptx_ps_fail(P, line, col, "floating-point constant for a predicate");
        return v->u != 0;
    }
    switch (v->kind) {
    case PTX_TK_INT: case PTX_TK_F32: case PTX_TK_F64: return v->u;
    default: {
        unsigned sz = ptx_type_size(ty);
        uint64_t d = dbl_bits(v->d);
        if (sz == 8) return d;
        if (sz == 4) return ptx_ps_f64_to_f32(d);
        if (sz == 2) return ptx_ps_f64_to_f16(d, false);
        ptx_ps_fail(P, line, col, "floating-point constant for a .%s operand", ptx_types[ty].name);
    }
    }
}
