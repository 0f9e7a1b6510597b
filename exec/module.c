/*
** module.c -- loading a PTX module onto a device.
**
** Loading parses and checks the text, refuses PTX for a newer GPU than the
** device reports, gives every .global and .const variable its own device
** allocation (so a stray index past its end is caught as an illegal
** address), writes initializers and the addresses their relocations name,
** and decodes every instruction for the functional model.  The per-kernel
** shared-memory layout is computed at the first launch of each kernel.
** Every module is lowered (ptx_lower: the code whose allocation gives each
** function its register count); with regs.physical=1, in performance mode
** with exec.code=scheduled (the timed stream as ptxas would schedule it), or
** when the options select a register-sharing policy (exec_regshare.lowered),
** the lowered module is the one that runs (m->ptx; the parsed one is kept in
** m->src), after the device's code pass.
*/
#include "internal.h"
#include <stdlib.h>

/* The timed stream is the lowered code: exec.code=scheduled in performance
** mode (exec_optdefs: "scheduled" is choice 1, "performance" mode 1), or
** regs.physical=1 in any mode. */
bool exec_runs_lowered(const tp_opts *o)
{
    return tp_opt_i(o, OPT_REGS_PHYSICAL) || (tp_opt_i(o, OPT_MODE) == 1 && tp_opt_i(o, OPT_EXEC_CODE) == 1);
}

static void mod_free(exec_mod *m)
{
    if (!m) return;
    for (uint32_t i = 0; i < m->nallocs; i++) exec_mem_free(m->dev, m->allocs[i]);
    free(m->allocs);
    if (m->ptx) {
        if (m->kinfo)
            for (uint32_t f = 0; f < m->ptx->nfuncs; f++) {
                free(m->kinfo[f].shared_off);
                if (m->kinfo[f].fvar_off) {
                    for (uint32_t g = 0; g < m->ptx->nfuncs; g++) free(m->kinfo[f].fvar_off[g]);
                    free(m->kinfo[f].fvar_off);
                }
            }
        ptx_module_free(m->ptx);
    }
    ptx_module_free(m->src);
    exec_phys_free(m->phys);
    free(m->kinfo);
    free(m->fninfo);
    free(m->var_addr);
    free(m->xi);
    free(m->xpool);
    free(m->d);
    free(m->why);
    free(m->si);
    free(m->oob_seen);
    free(m->siregs);
    free(m->crows);
    free(m->name);
    free(m);
}

void exec_mod_unload(exec_mod *m) { mod_free(m); }
const ptx_module *exec_mod_ptx(const exec_mod *m) { return m->ptx; }
exec_dev *exec_mod_dev(const exec_mod *m) { return m->dev; }

uint64_t exec_func_addr(uint32_t fidx) { return EXEC_FUNC_ADDR_BASE + 16ull * fidx; }

/* Address a relocation or initializer names. */
static bool reloc_value(exec_mod *m, const ptx_reloc *r, uint64_t *v, tp_err *e)
{
    if (r->sym & PTX_SYM_FUNC) {
        *v = exec_func_addr((uint32_t)(r->sym & ~PTX_SYM_FUNC)) + (uint64_t)r->addend;
        return true;
    }
    if (r->sym < 0 || (uint32_t)r->sym >= m->ptx->nvars) {
        tp_err_set(e, 1, "%s: bad relocation", m->name);
        return false;
    }
    const ptx_var *t = &m->ptx->vars[r->sym];
    if (!m->var_addr[r->sym]) {
        tp_err_set(e, 1, "%s: initializer takes the address of '%s', which is not in global or constant memory",
                   m->name, t->name);
        return false;
    }
    *v = m->var_addr[r->sym] + (uint64_t)r->addend;
    return true;
}

static bool place_vars(exec_mod *m, exec_status *st, tp_err *e)
{
    ptx_module *p = m->ptx;
    m->var_addr = tp_calloc(p->nvars ? p->nvars : 1, sizeof *m->var_addr);
    m->allocs = tp_calloc(p->nvars ? p->nvars : 1, sizeof *m->allocs);
    uint64_t const_total = 0;
    for (uint32_t i = 0; i < p->nvars; i++) {
        ptx_var *v = &p->vars[i];
        if (v->space != PTX_SP_GLOBAL && v->space != PTX_SP_CONST) continue;
        if (v->is_extern && !v->has_init && v->size == 0) continue; /* declared elsewhere */
        if (v->space == PTX_SP_CONST) const_total += v->size;
        uint64_t a = exec_mem_alloc(m->dev, v->size, v->align > 256 ? v->align : 256);
        if (!a) {
            *st = EXEC_ERR_OOM;
            tp_err_set(e, 1, "%s: out of device memory placing '%s' (%llu bytes)", m->name, v->name,
                       (unsigned long long)v->size);
            return false;
        }
        m->allocs[m->nallocs++] = a;
        m->var_addr[i] = a;
        if (v->has_init && v->init) memcpy((void *)(uintptr_t)a, v->init, v->size);
    }
    uint64_t climit = (uint64_t)tp_opt_i(&m->dev->opts, OPT_DEVICE_CONST_MEM);
    if (const_total > climit) {
        *st = EXEC_ERR_INVALID_PTX;
        tp_err_set(e, 1, "%s: %llu bytes of .const variables exceed the device's %llu bytes of constant memory (device.const_mem)",
                   m->name, (unsigned long long)const_total, (unsigned long long)climit);
        return false;
    }
    for (uint32_t i = 0; i < p->nvars; i++) {
        ptx_var *v = &p->vars[i];
        if (!m->var_addr[i]) continue;
        for (uint32_t k = 0; k < v->nrelocs; k++) {
            const ptx_reloc *r = &v->relocs[k];
            uint64_t val;
            if (!reloc_value(m, r, &val, e)) {
                *st = EXEC_ERR_INVALID_PTX;
                return false;
            }
            if (r->offset + r->size > v->size) continue;
            uint8_t *dst = (uint8_t *)(uintptr_t)(m->var_addr[i] + r->offset);
            if (r->size == 8) memcpy(dst, &val, 8);
            else {
                uint32_t v32 = (uint32_t)val;
                memcpy(dst, &v32, 4);
            }
        }
    }
    return true;
}

void exec_lower_opts(const tp_opts *o, ptx_lower_opts *lo)
{
    memset(lo, 0, sizeof *lo);
    lo->max_regs = (uint32_t)tp_opt_i(o, OPT_DEVICE_MAX_REGS_PER_THREAD);
    lo->force_max = (uint32_t)tp_opt_i(o, OPT_REGS_MAX);
    lo->regs_per_sm = (uint32_t)tp_opt_i(o, OPT_REGS_BOUNDS_FILE);
    if (!lo->regs_per_sm) lo->regs_per_sm = (uint32_t)tp_opt_i(o, OPT_DEVICE_REGS_PER_SM);
    lo->alloc_unit = (uint32_t)tp_opt_i(o, OPT_DEVICE_REG_ALLOC_UNIT);
    lo->no_schedule = !tp_opt_i(o, OPT_REGS_SCHEDULE);
    lo->ifconvert = (uint32_t)tp_opt_i(o, OPT_EXEC_IFCONVERT);
}

exec_mod *exec_mod_load(exec_dev *d, const char *ptx, size_t len, const char *name,
                        exec_status *status, tp_err *e)
{
    exec_status dummy;
    if (!status) status = &dummy;
    *status = EXEC_OK;
    exec_mod *m = tp_calloc(1, sizeof *m);
    m->dev = d;
    m->name = tp_strdup(name ? name : "<ptx>");
    m->ptx = ptx_parse(ptx, len, m->name, e);
    if (!m->ptx) {
        *status = EXEC_ERR_INVALID_PTX;
        mod_free(m);
        return NULL;
    }
    if (m->ptx->target_sm > d->cc) {
        *status = EXEC_ERR_NO_BINARY;
        tp_err_set(e, 1, "%s: the module targets sm_%u but the simulated device has compute capability %u.%u "
                   "(raise device.cc, or compile for an older target)",
                   m->name, m->ptx->target_sm, d->cc / 10, d->cc % 10);
        mod_free(m);
        return NULL;
    }
    if (tp_opt_i(&d->opts, OPT_EXEC_CONTRACT)) ptx_contract(m->ptx);
    if (m->ptx->address_size != 64) {
        *status = EXEC_ERR_INVALID_PTX;
        tp_err_set(e, 1, "%s: .address_size %u is not supported (only 64)", m->name, m->ptx->address_size);
        mod_free(m);
        return NULL;
    }
    /* Registers: the lowered code (ptx_lower: scheduled as ptxas schedules,
    ** constants re-created at their uses, spilled under each function's
    ** limit -- the device's per-thread maximum, regs.max, .maxnreg, launch
    ** bounds -- and allocated) gives every function its count; with
    ** regs.physical=1, or exec.code=scheduled in performance mode, it is
    ** also the code that runs. */
    ptx_lower_opts lo;
    exec_lower_opts(&d->opts, &lo);
    ptx_module *low = ptx_lower(m->ptx, &lo, e);
    if (!low) {
        *status = EXEC_ERR_INVALID_PTX;
        mod_free(m);
        return NULL;
    }
    /* exec.ifconvert: the count stays that of the code without if-conversion,
    ** the nearer model of ptxas's (docs/REGISTERS.md, step 0); the code that
    ** runs is the converted one, charged that count (as regs.cubin charges
    ** ptxas's own) */
    if (lo.ifconvert) {
        ptx_lower_opts lc = lo;
        lc.ifconvert = 0;
        ptx_module *cnt = ptx_lower(m->ptx, &lc, e);
        if (!cnt) {
            ptx_module_free(low);
            *status = EXEC_ERR_INVALID_PTX;
            mod_free(m);
            return NULL;
        }
        for (uint32_t i = 0; i < low->nfuncs; i++) {
            low->funcs[i].ra_regs = cnt->funcs[i].ra_regs;
            low->funcs[i].ra_spills = cnt->funcs[i].ra_spills;
            low->funcs[i].ra_max_live = cnt->funcs[i].ra_max_live;
        }
        ptx_module_free(cnt);
    }
    for (uint32_t i = 0; i < m->ptx->nfuncs; i++) {
        ptx_func *f = &m->ptx->funcs[i];
        const ptx_func *g = &low->funcs[i];
        f->ra_regs = g->ra_regs;
        f->ra_spills = g->ra_spills;
        f->ra_max_live = g->ra_max_live;
        f->ra_own = g->ra_own;
        f->local_bytes = g->local_bytes; /* spills included, as the attributes report them */
    }
    if (exec_runs_lowered(&d->opts) || (d->regshare && d->regshare->lowered && d->regshare->lowered(&d->opts))) {
        m->src = m->ptx;
        m->ptx = low;
        if (d->pass && !d->pass(low, &d->opts, d->pass_arg, e)) {
            *status = EXEC_ERR_INVALID_PTX;
            mod_free(m);
            return NULL;
        }
    } else {
        ptx_module_free(low);
    }
    if (!place_vars(m, status, e) || !exec_decode_module(m, e)) {
        if (*status == EXEC_OK) *status = EXEC_ERR_INVALID_PTX;
        mod_free(m);
        return NULL;
    }
    m->kinfo = tp_calloc(m->ptx->nfuncs ? m->ptx->nfuncs : 1, sizeof *m->kinfo);
    return m;
}

int exec_mod_kernel(const exec_mod *m, const char *name)
{
    int f = ptx_find_func(m->ptx, name);
    if (f < 0 || !m->ptx->funcs[f].is_entry || m->ptx->funcs[f].is_decl) return -1;
    return f;
}

bool exec_mod_global(const exec_mod *m, const char *name, uint64_t *addr, uint64_t *bytes)
{
    int v = ptx_find_var(m->ptx, name);
    if (v < 0 || !m->var_addr[v]) return false;
    if (addr) *addr = m->var_addr[v];
    if (bytes) *bytes = m->ptx->vars[v].size;
    return true;
}

/* ---- per-kernel shared-memory layout -------------------------------------- */

static void mark_sym(const ptx_module *p, uint32_t fidx, int32_t sym, uint8_t *mvars, uint8_t **fvars)
{
    if ((sym & PTX_SYM_KIND_MASK) == 0 && (uint32_t)sym < p->nvars) {
        mvars[sym] = 1;
    } else if ((sym & PTX_SYM_KIND_MASK) == PTX_SYM_FVAR) {
        uint32_t i = (uint32_t)(sym & ~PTX_SYM_KIND_MASK);
        if (i < p->funcs[fidx].nvars) fvars[fidx][i] = 1;
    }
}

static void mark_opnd(const ptx_module *p, uint32_t fidx, const ptx_opnd *o, uint8_t *mvars,
                      uint8_t **fvars, uint8_t *reach, uint32_t *stack, uint32_t *nstack)
{
    if (o->kind == PTX_OK_SYM || (o->kind == PTX_OK_ADDR && o->base == PTX_AB_SYM)) {
        mark_sym(p, fidx, o->r, mvars, fvars);
    } else if (o->kind == PTX_OK_FUNC) {
        if ((uint32_t)o->r < p->nfuncs && !reach[o->r]) {
            reach[o->r] = 1;
            stack[(*nstack)++] = (uint32_t)o->r;
        }
    } else if (o->kind == PTX_OK_VEC || o->kind == PTX_OK_CALL) {
        for (uint32_t k = 0; k < o->n; k++)
            mark_opnd(p, fidx, &p->pool[o->r + k], mvars, fvars, reach, stack, nstack);
    }
}

/* Lays out the shared memory a kernel uses: module .shared variables it (or
** anything it may call) references, and the .shared variables declared
** inside those functions, in order of declaration, each at its alignment;
** extern (dynamic) shared arrays all start at the end, at the largest
** alignment any of them asks for. */
exec_kinfo *exec_kernel_info(exec_mod *m, uint32_t kidx)
{
    exec_kinfo *ki = &m->kinfo[kidx];
    if (ki->ready) return ki;
    const ptx_module *p = m->ptx;
    uint32_t nf = p->nfuncs;
    uint8_t *reach = tp_calloc(nf, 1);
    uint32_t *stack = tp_calloc(nf + 1, sizeof *stack);
    uint8_t *mvars = tp_calloc(p->nvars + 1, 1);
    uint8_t **fvars = tp_calloc(nf, sizeof *fvars);
    for (uint32_t f = 0; f < nf; f++) fvars[f] = tp_calloc(p->funcs[f].nvars + 1, 1);
    /* Functions whose address is taken may be called indirectly. */
    for (uint32_t i = 0; i < p->nvars; i++)
        for (uint32_t k = 0; k < p->vars[i].nrelocs; k++)
            if (p->vars[i].relocs[k].sym & PTX_SYM_FUNC) {
                uint32_t f = (uint32_t)(p->vars[i].relocs[k].sym & ~PTX_SYM_FUNC);
                if (f < nf && !reach[f]) { reach[f] = 1; }
            }
    uint32_t nstack = 0;
    for (uint32_t f = 0; f < nf; f++)
        if (reach[f]) stack[nstack++] = f;
    if (!reach[kidx]) { reach[kidx] = 1; stack[nstack++] = kidx; }
    while (nstack) {
        uint32_t f = stack[--nstack];
        const ptx_func *fn = &p->funcs[f];
        for (uint32_t pc = fn->start; pc < fn->end; pc++) {
            const ptx_insn *in = &p->insns[pc];
            for (uint32_t k = 0; k < in->nopnd; k++)
                mark_opnd(p, f, &in->o[k], mvars, fvars, reach, stack, &nstack);
        }
    }
    ki->shared_off = tp_calloc(p->nvars + 1, sizeof *ki->shared_off);
    ki->fvar_off = tp_calloc(nf, sizeof *ki->fvar_off);
    uint64_t off = 0, dyn_align = 16;
    for (uint32_t i = 0; i < p->nvars; i++) {
        const ptx_var *v = &p->vars[i];
        if (v->space != PTX_SP_SHARED && v->space != PTX_SP_SHARED_CLUSTER) continue;
        uint32_t al = v->align ? v->align : 1;
        if (v->is_extern || v->is_array_unsized) {
            if (al > dyn_align) dyn_align = al;
            ki->uses_dynamic = true;
            continue;
        }
        if (!mvars[i]) continue;
        off = TP_ALIGN_UP(off, al);
        ki->shared_off[i] = (uint32_t)off;
        off += v->size;
    }
    for (uint32_t f = 0; f < nf; f++) {
        if (!reach[f]) continue;
        const ptx_func *fn = &p->funcs[f];
        for (uint32_t i = 0; i < fn->nvars; i++) {
            const ptx_var *v = &fn->vars[i];
            if (v->space != PTX_SP_SHARED && v->space != PTX_SP_SHARED_CLUSTER) continue;
            if (!ki->fvar_off[f]) ki->fvar_off[f] = tp_calloc(fn->nvars, sizeof(uint32_t));
            uint32_t al = v->align ? v->align : 1;
            if (v->is_extern || v->is_array_unsized) {
                if (al > dyn_align) dyn_align = al;
                ki->uses_dynamic = true;
                continue;
            }
            off = TP_ALIGN_UP(off, al);
            ki->fvar_off[f][i] = (uint32_t)off;
            off += v->size;
        }
    }
    ki->dyn_align = (uint32_t)dyn_align;
    ki->shared_static = (uint32_t)off;
    ki->dyn_base = (uint32_t)TP_ALIGN_UP(off, dyn_align);
    /* Extern shared arrays all alias the dynamic area. */
    for (uint32_t i = 0; i < p->nvars; i++) {
        const ptx_var *v = &p->vars[i];
        if ((v->space == PTX_SP_SHARED || v->space == PTX_SP_SHARED_CLUSTER) &&
            (v->is_extern || v->is_array_unsized))
            ki->shared_off[i] = ki->dyn_base;
    }
    for (uint32_t f = 0; f < nf; f++) {
        if (!ki->fvar_off[f]) continue;
        const ptx_func *fn = &p->funcs[f];
        for (uint32_t i = 0; i < fn->nvars; i++) {
            const ptx_var *v = &fn->vars[i];
            if ((v->space == PTX_SP_SHARED || v->space == PTX_SP_SHARED_CLUSTER) &&
                (v->is_extern || v->is_array_unsized))
                ki->fvar_off[f][i] = ki->dyn_base;
        }
    }
    for (uint32_t f = 0; f < nf; f++) free(fvars[f]);
    free(fvars);
    free(mvars);
    free(stack);
    free(reach);
    ki->ready = true;
    return ki;
}

void exec_kernel_attrs(exec_mod *m, int kernel, exec_kattr *a)
{
    memset(a, 0, sizeof *a);
    if (kernel < 0 || (uint32_t)kernel >= m->ptx->nfuncs) return;
    const ptx_func *f = &m->ptx->funcs[kernel];
    exec_kinfo *ki = exec_kernel_info(m, (uint32_t)kernel);
    a->regs = exec_kernel_regs(m, (uint32_t)kernel);
    a->regs_code = a->regs;
    a->regs_model = f->ra_regs;
    if (!f->rs && m->fninfo[kernel].bin_regs) a->regs_cubin_sm = m->fninfo[kernel].bin_sm;
    if (f->rs) {
        /* the code names base and extended (or shared) registers alike: what
        ** ptxas would report; only the CTA's charge is the base set */
        uint32_t reserve = f->rs->base_regs > f->rs->base ? f->rs->base_regs - f->rs->base : 0;
        uint32_t code = f->ra_own + reserve;
        a->regs_code = code > f->ra_regs ? code : f->ra_regs;
        if (a->regs_code < a->regs) a->regs_code = a->regs;
    }
    a->shared_static = ki->shared_static;
    uint64_t cb = 0;
    for (uint32_t i = 0; i < m->ptx->nvars; i++)
        if (m->ptx->vars[i].space == PTX_SP_CONST) cb += m->ptx->vars[i].size;
    a->const_bytes = (uint32_t)cb;
    a->local_bytes = m->fninfo[kernel].frame_bytes;
    uint32_t maxt = (uint32_t)tp_opt_i(&m->dev->opts, OPT_DEVICE_MAX_THREADS_PER_BLOCK);
    uint32_t ft = f->maxntid[0] ? f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                                      (f->maxntid[2] ? f->maxntid[2] : 1)
                                : 0;
    if (f->reqntid[0])
        ft = f->reqntid[0] * (f->reqntid[1] ? f->reqntid[1] : 1) * (f->reqntid[2] ? f->reqntid[2] : 1);
    if (ft && ft < maxt) maxt = ft;
    /* Registers limit the CTA size too. */
    uint32_t regs = a->regs ? a->regs : 1;
    uint32_t unit = (uint32_t)tp_opt_i(&m->dev->opts, OPT_DEVICE_REG_ALLOC_UNIT);
    uint32_t per_warp = (uint32_t)TP_ALIGN_UP(regs * 32u, unit);
    uint32_t rpb = (uint32_t)tp_opt_i(&m->dev->opts, OPT_DEVICE_REGS_PER_BLOCK);
    uint32_t warps = per_warp ? rpb / per_warp : 32;
    const exec_regshare *h = m->dev->regshare;
    if (f->rs && per_warp && h && h->max_warps) {
        /* register sharing: the CTA must fit the SM beside what the policy
        ** keeps for the shared registers (exec_occupancy) */
        uint32_t w = h->max_warps(&m->dev->opts, f, per_warp);
        if (w < warps) warps = w;
    }
    if (warps * 32 < maxt) maxt = warps * 32;
    a->max_threads = maxt;
    a->param_bytes = f->param_bytes;
    a->ptx_version = m->ptx->version_major * 10 + m->ptx->version_minor;
    a->binary_version = a->regs_cubin_sm ? a->regs_cubin_sm : m->ptx->target_sm;
}

bool exec_kernel_set_regs(exec_mod *m, int kernel, uint32_t regs, unsigned sm)
{
    if (kernel < 0 || (uint32_t)kernel >= m->ptx->nfuncs || !regs) return false;
    m->fninfo[kernel].bin_regs = regs;
    m->fninfo[kernel].bin_sm = sm;
    return true;
}

/* Registers per thread the kernel is charged: the count of its lowered code
** (exec_mod_load lowers every module; ptx/lower.c), under register sharing
** the base set's (exec_occupancy keeps the shared part apart), otherwise (no allocation) the
** virtual registers' 32-bit words. */
uint32_t exec_kernel_regs(exec_mod *m, uint32_t kidx)
{
    const ptx_func *f = &m->ptx->funcs[kidx];
    if (f->rs) return f->rs->base_regs; /* register sharing: the base set (the rest is apart, exec_occupancy) */
    if (m->fninfo[kidx].bin_regs) return m->fninfo[kidx].bin_regs; /* ptxas's, from the program's cubin */
    if (f->ra_regs) return f->ra_regs;
    uint32_t words = 0;
    for (uint32_t r = 0; r < f->nrows; r++) {
        unsigned sz = ptx_type_size(f->regs[r].type);
        words += sz > 4 ? 2 : 1;
    }
    uint32_t lim = (uint32_t)tp_opt_i(&m->dev->opts, OPT_DEVICE_MAX_REGS_PER_THREAD);
    return words < lim ? words : lim;
}
