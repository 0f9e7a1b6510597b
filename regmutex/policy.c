/*
** policy.c -- the register-sharing interface (policy.h): the registry of
** policies (policies.def), which one the options select, the hooks exec/
** calls and the code pass (each asks the policy that marked the kernel),
** the SM's calls, the statistics' slots and names; and the policy `none`.
*/
#include "policy.h"
#include <stdlib.h>

/* ---- none: every warp owns its registers ------------------------------------------ */

const rs_policy rs_policy_none = {.name = "none"};

/* ---- the registry ------------------------------------------------------------------ */

#define RS_POLICY(name, sym) extern const rs_policy sym;
#include "policies.def"
#undef RS_POLICY

static const rs_policy *const all[] = {
#define RS_POLICY(name, sym) &sym,
#include "policies.def"
#undef RS_POLICY
};

uint32_t rs_npolicies(void) { return (uint32_t)TP_ARRAY_LEN(all); }
const rs_policy *rs_policy_at(uint32_t i) { return i < TP_ARRAY_LEN(all) ? all[i] : NULL; }

const rs_policy *rs_policy_find(const char *name)
{
    for (uint32_t i = 0; i < TP_ARRAY_LEN(all); i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}

const rs_policy *rs_policy_of(const tp_opts *o)
{
    if (o->n < RS_OPT_COUNT) return &rs_policy_none; /* exec/'s rows only */
    int64_t i = tp_opt_i(o, RS_OPT_POLICY);
    if (i > 0 && (uint64_t)i < TP_ARRAY_LEN(all)) return all[i];
    if (tp_opt_i(o, RS_OPT_OWF)) return rs_policy_find("owf");
    if (tp_opt_i(o, RS_OPT_REGMUTEX)) return rs_policy_find("regmutex");
    return &rs_policy_none;
}

ptx_rshare *rs_mark(ptx_module *m, ptx_func *f, const rs_policy *p)
{
    ptx_rshare *rs = tp_arena_alloc(&m->arena, sizeof *rs);
    memset(rs, 0, sizeof *rs);
    rs->policy = p;
    f->rs = rs;
    return rs;
}

/* ---- exec/'s hooks and the code pass ------------------------------------------------ */

bool rs_compile(ptx_module *low, const tp_opts *o, void *arg, tp_err *e)
{
    (void)arg;
    const rs_policy *p = rs_policy_of(o);
    return !p->compile || p->compile(low, o, e);
}

static bool hook_lowered(const tp_opts *o) { return rs_policy_of(o) != &rs_policy_none; }

static void hook_occupancy(const tp_opts *o, const ptx_func *kernel, exec_occ *occ)
{
    const rs_policy *p = rs_policy_of_kernel(kernel);
    if (p->occupancy) {
        p->occupancy(o, kernel, occ);
        return;
    }
    uint64_t rf = (uint64_t)tp_opt_i(o, OPT_DEVICE_REGS_PER_SM);
    occ->by_regs = occ->regs_per_cta ? (uint32_t)(rf / occ->regs_per_cta) : UINT32_MAX;
    exec_occ_settle(occ);
}

static uint32_t hook_max_warps(const tp_opts *o, const ptx_func *kernel, uint32_t regs_per_warp)
{
    const rs_policy *p = rs_policy_of_kernel(kernel);
    return p->max_warps ? p->max_warps(o, kernel, regs_per_warp) : UINT32_MAX;
}

static const exec_regshare hooks = {hook_lowered, hook_occupancy, hook_max_warps};

const exec_regshare *rs_exec_hooks(void) { return &hooks; }

/* ---- the SM -------------------------------------------------------------------------- */

void rs_grid_begin(exec_grid *g)
{
    const rs_policy *p = rs_policy_of_kernel(exec_grid_kernel(g));
    if (p->grid_begin) p->grid_begin(g);
}

void rs_sm_begin(rs_sm *s, const rs_smcfg *c)
{
    rs_sm_free(s);
    s->p = rs_policy_of_kernel(c->kernel);
    s->st = s->p->sm_new ? s->p->sm_new(c) : NULL;
}

void rs_sm_free(rs_sm *s)
{
    if (s->p && s->p->sm_free && s->st) s->p->sm_free(s->st);
    s->p = &rs_policy_none;
    s->st = NULL;
}

/* ---- statistics ------------------------------------------------------------------------ */

/* The first slot of a set: the sets before it, each once, in registry order. */
static uint32_t set_base(const rs_statset *set)
{
    uint32_t b = 0;
    for (uint32_t i = 0; i < TP_ARRAY_LEN(all); i++) {
        const rs_statset *t = all[i]->stats;
        if (!t) continue;
        bool dup = false;
        for (uint32_t j = 0; j < i && !dup; j++) dup = all[j]->stats == t;
        if (dup) continue;
        if (t == set) return b;
        b += t->n;
    }
    return b;
}

/* Calls fn for every distinct set with its first slot. */
static void each_set(void (*fn)(const rs_statset *set, uint32_t base, void *arg), void *arg)
{
    for (uint32_t i = 0; i < TP_ARRAY_LEN(all); i++) {
        const rs_statset *t = all[i]->stats;
        if (!t) continue;
        bool dup = false;
        for (uint32_t j = 0; j < i && !dup; j++) dup = all[j]->stats == t;
        if (!dup) fn(t, set_base(t), arg);
    }
}

typedef struct reg_arg {
    tp_stats *s;
    size_t base;
} reg_arg;

static void reg_one(const rs_statset *set, uint32_t b, void *arg)
{
    reg_arg *r = arg;
    TP_ASSERT(b + set->n <= RS_STATS_MAX);
    tp_stats_add_defs(r->s, r->base + b * sizeof(rs_val), set->stats, set->n);
}

void rs_stats_register(tp_stats *s, size_t base)
{
    reg_arg r = {s, base + offsetof(rs_kstats, v)};
    each_set(reg_one, &r);
}

typedef struct find_arg {
    const char *name;
    int32_t slot;
} find_arg;

static void find_one(const rs_statset *set, uint32_t b, void *arg)
{
    find_arg *f = arg;
    for (uint32_t k = 0; k < set->n && f->slot < 0; k++)
        if (strcmp(set->stats[k].name, f->name) == 0) f->slot = (int32_t)(b + k);
}

static int32_t find_slot(const char *name)
{
    find_arg f = {name, -1};
    each_set(find_one, &f);
    return f.slot;
}

uint64_t rs_kstat_u(const rs_kstats *k, const char *name)
{
    int32_t i = find_slot(name);
    return i < 0 ? 0 : k->v[i].u;
}

double rs_kstat_f(const rs_kstats *k, const char *name)
{
    int32_t i = find_slot(name);
    return i < 0 ? 0 : k->v[i].f;
}

void rs_sm_stats(const rs_sm *s, rs_kstats *k)
{
    const rs_statset *set = s->p->stats;
    if (!set || !s->st) return;
    rs_val *v = &k->v[set_base(set)];
    for (uint32_t i = 0; i < set->n; i++)
        for (int j = 0; j < 2; j++) {
            const rs_stat *d = &set->stats[i];
            if (d->src[j].in != RS_IN_SM) continue;
            uint64_t x = *(const uint64_t *)((const char *)s->st + d->src[j].off);
            rs_val *to = (rs_val *)((char *)v + d->off);
            if (d->rule == TP_RULE_MAX) to->u = x > to->u ? x : to->u;
            else to->u += x;
        }
}

typedef struct end_arg {
    rs_kstats *k;
    const rs_end *e;
} end_arg;

static void end_one(const rs_statset *set, uint32_t b, void *arg)
{
    end_arg *a = arg;
    if (set->always) set->always(&a->k->v[b], a->e);
}

void rs_stats_end(const ptx_func *kernel, rs_kstats *k, const rs_end *e)
{
    const rs_policy *p = rs_policy_of_kernel(kernel);
    if (p->stats && p->stats_end) p->stats_end(&k->v[set_base(p->stats)], e);
    end_arg a = {k, e};
    each_set(end_one, &a);
}
