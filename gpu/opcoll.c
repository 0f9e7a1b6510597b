/*
** opcoll.c -- operand collectors, register-file banks and the pipelines.
**
** An issued instruction takes a free collector unit of its kind (SP for
** integer, FP32, FP64, control and synchronisation work; SFU; MEM for the
** LD/ST unit).  No free unit of the kind: the instruction cannot issue.  The
** unit reads the instruction's source registers: 32-bit register k of row r
** of warp slot w lives in bank (r + k + w) mod sm.rf_banks; each bank serves
** sm.rf_ports reads per cycle, to the oldest units first (issue order); a
** unit reads from the cycle after its issue on, any of its reads whose bank
** is free.  Predicates and the carry flag live elsewhere and cost no read.
** Once every read is done the unit dispatches, in the same cycle, to a free
** pipe of its kind (a pipe that took an instruction at d is free again at
** d + II) or to the LD/ST unit; it waits while none is free.  A pipeline
** writes back at dispatch + latency (gpu_wb_push).  Tensor instructions
** (wmma.mma, mma) have an interval of their own, ceil(MACs / rate), and a
** latency of lat.tensor + that interval (gpu_tensor_ii); a warp's tensor
** instruction takes only the TENSOR pipe of its sub-core, (warp slot mod
** sm.schedulers) mod sm.tensor_units, as the tensor cores of Volta and later
** belong to one processing block each, and a scheduler keeps at most one
** tensor instruction waiting in a collector (sm.c's issue check): the
** others wait at issue, leaving the collectors to other work.
*/
#include "internal.h"
#include "ldst.h"

/* The unit an instruction really uses: cvta and isspacep are address
** arithmetic, and a memory instruction whose lanes are all off does no
** access; both are integer work. */
static int eff_unit(const exec_sinfo *si, const gpu_memop *mop)
{
    if ((si->unit == EXEC_U_MEM || si->unit == EXEC_U_TEX) && !mop) return EXEC_U_INT;
    return si->unit;
}

gpu_ockind gpu_oc_kind_of(const gpu_cfg *c, const exec_sinfo *si, gpu_memop *mop)
{
    int u = eff_unit(si, mop);
    if (u == EXEC_U_MEM || u == EXEC_U_TEX) return GPU_OC_MEM;
    int lc = u == EXEC_U_INT && (si->unit == EXEC_U_MEM || si->unit == EXEC_U_TEX) ? EXEC_L_ADD : si->lclass;
    return c->pipe_of[u][lc] == GPU_P_SFU ? GPU_OC_SFU : GPU_OC_SP;
}

static uint32_t oc_first(const gpu_cfg *c, gpu_ockind k)
{
    uint32_t f = 0;
    for (int i = 0; i < (int)k; i++) f += c->oc[i];
    return f;
}

bool gpu_oc_free(const gpu_sm *sm, gpu_ockind k)
{
    return sm->oc_free[k] != 0;
}

/* GPGPU-Sim 3.2.2 made FP32 and FP64 multiplies ALU_SFU_OP: its scheduler
** issues one to the SP pipe when the SP issue register has room and to the
** SFU otherwise.  Here: to an SFU collector (and the SFU pipe, with the
** multiply's own latency and interval) when every SP collector is taken. */
bool gpu_oc_spills(const gpu_cfg *c, const exec_sinfo *si)
{
    return c->fmul_pipe == 1 && (si->unit == EXEC_U_FP || si->unit == EXEC_U_DP) && si->lclass == EXEC_L_MUL &&
           c->pipe_of[si->unit][EXEC_L_MUL] == GPU_P_SP;
}

void gpu_oc_issue(gpu_sm *sm, uint16_t warp, uint32_t pc, const exec_sinfo *si, gpu_memop *mop, uint64_t now)
{
    const gpu_cfg *c = sm->c;
    /* a memory instruction all of whose lanes are off (no mop: it runs on the
    ** integer pipe, eff_unit) still takes the memory collector the issue
    ** stage found free for it (gpu_sm's check, before its lanes were known) */
    gpu_ockind k = gpu_is_mem(si) ? GPU_OC_MEM : gpu_oc_kind_of(c, si, mop);
    bool spill = k == GPU_OC_SP && !sm->oc_free[k] && gpu_oc_spills(c, si);
    if (spill) k = GPU_OC_SFU;
    uint32_t f = oc_first(c, k);
    gpu_cu *cu = NULL;
    for (uint32_t i = f; i < f + c->oc[k]; i++)
        if (!sm->cu[i].busy) {
            cu = &sm->cu[i];
            break;
        }
    TP_ASSERT(cu != NULL);
    if (!cu) return;
    cu->busy = 1;
    sm->oc_free[k]--;
    if (k == GPU_OC_MEM) sm->mem_held[warp % c->nsched]++;
    sm->cu_order[sm->ncu_busy++] = (uint16_t)(cu - sm->cu);
    sm->cu_mem_wait = false;   /* it has reads to do, or is no memory instruction */
    cu->kind = (uint8_t)k;
    cu->warp = warp;
    cu->seq = sm->cu_seq++;
    cu->t_issue = now;
    cu->pc = pc;
    cu->si = si;
    cu->mop = mop;
    cu->nreads = 0;
    cu->done = 0;
    for (uint32_t i = si->ndst; i < (uint32_t)si->ndst + si->nsrc; i++) {
        const exec_opreg *r = &si->regs[i];
        if (r->kind != EXEC_R_REG) continue;
        uint32_t units = r->units ? r->units : 1;
        for (uint32_t u = 0; u < units && cu->nreads < GPU_MAX_READS; u++)   /* (a divide instruction cost 2.5% of mmreg's time) */
            cu->bank[cu->nreads++] = (uint16_t)tp_fdiv_r(&c->frf_banks, (uint64_t)r->r + u + warp);
    }
    int u = eff_unit(si, mop);
    int lc = u == EXEC_U_INT && (si->unit == EXEC_U_MEM || si->unit == EXEC_U_TEX) ? EXEC_L_ADD : si->lclass;
    cu->pipe = c->pipe_of[u][lc];
    cu->lat = c->lat[u][lc];
    cu->ii = c->ii[u][lc];
    if (spill) {
        cu->pipe = GPU_P_SFU;
        sm->mul_on_sfu++;
    }
    if (u == EXEC_U_TENSOR) {
        cu->ii = gpu_tensor_ii(c, si);
        cu->lat += cu->ii;
        sm->tensor_waiting[warp % c->nsched]++;
    }
}

void gpu_oc_cycle(gpu_sm *sm, uint64_t now)
{
    const gpu_cfg *c = sm->c;
    uint32_t n = sm->ncu_busy;
    if (!n) return;
    /* Every unit waits for the LD/ST unit, which refuses before accept_from:
    ** the loop below would offer each and be refused (counted once a cycle)
    ** and change nothing else.  (The memory path's cycles: in a load-bound
    ** kernel most of an SM's ticks are its replies, lines and sends, with
    ** its collectors holding loads the LD/ST unit cannot take yet.) */
    if (sm->cu_mem_wait && now < sm->ldst->accept_from) {
        gpu_ldst_refused(sm->ldst, now);
        return;
    }
    const uint16_t *idx = sm->cu_order; /* busy units, oldest first */
    bool reads = false, wait = true;   /* wait: every unit kept holds a memory instruction, reads done */
    uint32_t kept = 0;
    /* Each unit in turn: its register reads, then (all read) its dispatch.
    ** A dispatch touches no unit's reads nor the banks' grants, so this is
    ** the order of all the reads first and then all the dispatches. */
    for (uint32_t k = 0; k < n; k++) {
        gpu_cu *cu = &sm->cu[idx[k]];
        if (cu->t_issue < now && cu->done != cu->nreads) {
            if (!reads) {
                memset(sm->bank_grants, 0, c->rf_banks * sizeof *sm->bank_grants);
                reads = true;
            }
            /* reads not yet done are bank[done..nreads); grant any whose bank is free */
            for (uint32_t r = cu->done; r < cu->nreads; r++) {
                uint16_t b = cu->bank[r];
                if (sm->bank_grants[b] >= c->rf_ports) continue;
                sm->bank_grants[b]++;
                uint16_t t = cu->bank[cu->done];
                cu->bank[cu->done] = b;
                cu->bank[r] = t;
                cu->done++;
            }
            sm->changed = true;
        }
        bool go = false;
        if (cu->t_issue < now && cu->done == cu->nreads) {
            if (cu->pipe == GPU_P_MEM) {
                go = gpu_ldst_offer(sm, cu->mop, now);
            } else {
                uint32_t np = c->pipes[cu->pipe];
                uint64_t *pf = sm->pipe_free[cu->pipe];
                uint32_t p = 0;
                if (cu->pipe == GPU_P_TENSOR) {
                    /* its sub-core's pipe only */
                    p = (cu->warp % c->nsched) % np;
                    if (pf[p] > now) p = np;
                } else {
                    while (p < np && pf[p] > now) p++;
                }
                if (p < np) {
                    pf[p] = now + cu->ii;
                    gpu_wb_push(sm, now + cu->lat, cu->warp, cu->si, false);
                    if (cu->si->unit == EXEC_U_TENSOR) sm->tensor_waiting[cu->warp % c->nsched]--;
                    go = true;
                }
            }
        }
        if (go) {
            cu->busy = 0;
            sm->oc_free[cu->kind]++;
            if (cu->kind == GPU_OC_MEM) sm->mem_held[cu->warp % c->nsched]--;
            sm->issue_dirty = true;   /* a free collector (or tensor pipe slot) may let a warp issue */
            sm->changed = true;
        } else {
            sm->cu_order[kept++] = idx[k];
            wait = wait && cu->pipe == GPU_P_MEM && cu->t_issue < now && cu->done == cu->nreads &&
                   !gpu_ldst_idc_takes(sm->ldst, cu->mop);   /* the indexed constant cache answers for itself */
        }
    }
    sm->ncu_busy = kept;
    sm->cu_mem_wait = wait;
}

uint64_t gpu_oc_next(const gpu_sm *sm, uint64_t now)
{
    /* the busy units only (cu_order's first ncu_busy); the answer is a
    ** minimum, or now + 1 at the first that still reads, in any order */
    uint64_t next = UINT64_MAX, mem = 0;
    if (sm->cu_mem_wait && sm->ncu_busy) {   /* all wait for the LD/ST unit (gpu_oc_cycle): its one answer */
        mem = gpu_ldst_accept_next(sm, now);
        return mem <= now ? now + 1 : mem;
    }
    for (uint32_t k = 0; k < sm->ncu_busy; k++) {
        const gpu_cu *cu = &sm->cu[sm->cu_order[k]];
        if (cu->t_issue >= now || cu->done < cu->nreads) return now + 1;
        if (cu->pipe == GPU_P_MEM) {
            /* refused by the LD/ST unit in this cycle (or by the indexed constant
            ** cache): offered again when it may take it (the LD/ST unit's answer
            ** is the same for every such unit: asked once) */
            uint64_t t = gpu_ldst_idc_takes(sm->ldst, cu->mop) ? gpu_ldst_idc_accept_next(sm, now)
                         : mem ? mem : (mem = gpu_ldst_accept_next(sm, now));
            if (t < next) next = t;
            continue;
        }
        /* waits for a pipe: the earliest one free (a tensor instruction: its sub-core's) */
        const uint64_t *pf = sm->pipe_free[cu->pipe];
        if (cu->pipe == GPU_P_TENSOR) {
            uint32_t p = (cu->warp % sm->c->nsched) % sm->c->pipes[GPU_P_TENSOR];
            if (pf[p] < next) next = pf[p];
            continue;
        }
        for (uint32_t p = 0; p < sm->c->pipes[cu->pipe]; p++)
            if (pf[p] < next) next = pf[p];
    }
    return next <= now ? now + 1 : next;
}
