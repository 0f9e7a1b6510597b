/*
** cfg.c -- the options of a configuration turned once into the plain numbers
** the timing model reads in its loops (gpu_cfg), including the mapping of
** each kind of work (exec_unit, exec_lclass) to a pipeline with its latency
** and initiation interval:
**
**   INT  add/mul/mad/div/max   lat.int_*, ii.int_*   on the INT pipes, or SP when sm.int_units = 0
**   FP   add/mul/mad/div/max   lat.fp_*,  ii.fp_*    SP
**   DP   add/mul/mad/div/max   lat.dp_*,  ii.dp_*    DP pipes, or SP when sm.dp_units = 0
**        (min/max: *_max, or the add class's numbers where *_max is 0)
**   SFU                    lat.sfu,   ii.sfu     SFU
**   CTRL, SYNC             lat.branch, 1         SP
**   MEM, TEX               the LD/ST unit (gpu/ldst.c)
**   TENSOR (wmma.mma, mma) tensor.macs_*, lat.tensor   a TENSOR pipe per sub-core: interval
**                          ceil(MACs / rate), latency lat.tensor + interval; with
**                          sm.tensor_units = 0 (Fermi) the warp's multiply-adds run as
**                          FP32 (SP), FP64 (DP pipes or SP) or integer (INT or SP)
**                          fma instructions would: 32 per ii.*_mad cycles, latency
**                          lat.*_mad + interval (docs/TENSOR.md)
*/
#include "internal.h"
#include "ldst.h"

static uint32_t opt_u(const tp_opts *o, int id) { return (uint32_t)tp_opt_i(o, id); }

static void set(gpu_cfg *c, int unit, int lc, gpu_pipe p, uint32_t lat, uint32_t ii)
{
    c->pipe_of[unit][lc] = (uint8_t)p;
    c->lat[unit][lc] = lat;
    c->ii[unit][lc] = ii ? ii : 1;
}

/* (unit, lc) on pipe p with the configuration's latency and interval
** (options lat_id, ii_id) where it gives them, else those of class `from`
** of the same unit (0: not given) */
static void set_own(gpu_cfg *c, const tp_opts *o, int unit, int lc, gpu_pipe p, int lat_id, int ii_id, int from)
{
    uint32_t lat = opt_u(o, lat_id), ii = opt_u(o, ii_id);
    set(c, unit, lc, p, lat ? lat : c->lat[unit][from], ii ? ii : c->ii[unit][from]);
}

void gpu_cfg_init(gpu_cfg *c, const tp_opts *o)
{
    memset(c, 0, sizeof *c);
    tp_opts_bind(o, c);   /* every B row of gpu/options.def and mem_options.def */
    /* the device's options (exec/options.def, which knows no gpu_cfg) */
    c->nsm = opt_u(o, OPT_DEVICE_NUM_SMS);
    c->max_warps = opt_u(o, OPT_DEVICE_MAX_THREADS_PER_SM) / 32;
    if (!c->max_warps) c->max_warps = 1;
    c->max_ctas = opt_u(o, OPT_DEVICE_MAX_CTAS_PER_SM);
    c->shared_per_sm = opt_u(o, OPT_DEVICE_SHARED_PER_SM);
    c->shared_unit = opt_u(o, OPT_DEVICE_SHARED_ALLOC_UNIT);
    if (c->ibuf > GPU_IBUF_MAX) c->ibuf = GPU_IBUF_MAX;
    c->pipes[GPU_P_SP] = c->sp_units;
    c->pipes[GPU_P_SFU] = c->sfu_units;
    c->pipes[GPU_P_DP] = c->dp_units;
    c->pipes[GPU_P_INT] = c->int_units;
    c->pipes[GPU_P_MEM] = c->ldst_units;
    c->pipes[GPU_P_TENSOR] = c->tensor_units;
    c->oc[GPU_OC_SP] = c->oc_sp;
    c->oc[GPU_OC_SFU] = c->oc_sfu;
    c->oc[GPU_OC_MEM] = c->oc_mem;
    tp_fdiv_init(&c->frf_banks, c->rf_banks);

    gpu_pipe ip = c->pipes[GPU_P_INT] ? GPU_P_INT : GPU_P_SP;
    gpu_pipe dp = c->pipes[GPU_P_DP] ? GPU_P_DP : tp_opt_i(o, OPT_SM_DP_PIPE) == 1 ? GPU_P_SFU : GPU_P_SP;
    static const int lcs[4] = {EXEC_L_ADD, EXEC_L_MUL, EXEC_L_MAD, EXEC_L_DIV};
    static const int il[4] = {OPT_LAT_INT_ADD, OPT_LAT_INT_MUL, OPT_LAT_INT_MAD, OPT_LAT_INT_DIV};
    static const int ii_[4] = {OPT_II_INT_ADD, OPT_II_INT_MUL, OPT_II_INT_MAD, OPT_II_INT_DIV};
    static const int fl[4] = {OPT_LAT_FP_ADD, OPT_LAT_FP_MUL, OPT_LAT_FP_MAD, OPT_LAT_FP_DIV};
    static const int fi[4] = {OPT_II_FP_ADD, OPT_II_FP_MUL, OPT_II_FP_MAD, OPT_II_FP_DIV};
    static const int dl[4] = {OPT_LAT_DP_ADD, OPT_LAT_DP_MUL, OPT_LAT_DP_MAD, OPT_LAT_DP_DIV};
    static const int di[4] = {OPT_II_DP_ADD, OPT_II_DP_MUL, OPT_II_DP_MAD, OPT_II_DP_DIV};
    /* Defaults for every pair, then the classes that mean something. */
    for (int u = 0; u < EXEC_U_COUNT; u++)
        for (int l = 0; l < EXEC_L_COUNT; l++) set(c, u, l, GPU_P_SP, opt_u(o, OPT_LAT_INT_ADD), 1);
    /* integer mul/mad on the SFU (GPGPU-Sim 3.2.2) when there are no integer pipes */
    gpu_pipe mp = c->pipes[GPU_P_INT] ? GPU_P_INT : tp_opt_i(o, OPT_SM_IMUL_PIPE) == 1 ? GPU_P_SFU : GPU_P_SP;
    /* divisions and remainders of every unit on the SFU (GPGPU-Sim's SFU_OP), with their class's latency and interval */
    bool div_sfu = tp_opt_i(o, OPT_SM_DIV_PIPE) == 1;
    for (int k = 0; k < 4; k++) {
        bool sfu = div_sfu && lcs[k] == EXEC_L_DIV;
        set(c, EXEC_U_INT, lcs[k], sfu ? GPU_P_SFU : lcs[k] == EXEC_L_MUL || lcs[k] == EXEC_L_MAD ? mp : ip,
            opt_u(o, il[k]), opt_u(o, ii_[k]));
        set(c, EXEC_U_FP, lcs[k], sfu ? GPU_P_SFU : GPU_P_SP, opt_u(o, fl[k]), opt_u(o, fi[k]));
        set(c, EXEC_U_DP, lcs[k], sfu ? GPU_P_SFU : dp, opt_u(o, dl[k]), opt_u(o, di[k]));
    }
    /* min/max: their own latency where the configuration gives one, else the add class's */
    static const int mu[3] = {EXEC_U_INT, EXEC_U_FP, EXEC_U_DP};
    static const int ml[3] = {OPT_LAT_INT_MAX, OPT_LAT_FP_MAX, OPT_LAT_DP_MAX};
    static const int mi[3] = {OPT_II_INT_MAX, OPT_II_FP_MAX, OPT_II_DP_MAX};
    for (int k = 0; k < 3; k++)
        set_own(c, o, mu[k], EXEC_L_MAX, (gpu_pipe)c->pipe_of[mu[k]][EXEC_L_ADD], ml[k], mi[k], EXEC_L_ADD);
    /* conversions to or from f64: their own latency where the configuration gives one, else FP64 add's;
    ** on the FP64 pipe, or the SP pipe when there is none (with sm.dp_pipe=sfu too: GPGPU-Sim's cvt
    ** is an ALU operation) */
    set_own(c, o, EXEC_U_DP, EXEC_L_CVT64, c->pipes[GPU_P_DP] ? GPU_P_DP : GPU_P_SP, OPT_LAT_DP_CVT, OPT_II_DP_CVT,
            EXEC_L_ADD);
    /* rcp, sqrt and rsqrt of an f64: their own cost where the configuration gives one (ptxas's
    ** sequence: an SFU approximation refined by FP64 fmas, on the fmas' pipe), else the FP64
    ** division's, on its pipe */
    set_own(c, o, EXEC_U_DP, EXEC_L_RCP64,
            (gpu_pipe)c->pipe_of[EXEC_U_DP][opt_u(o, OPT_LAT_DP_RCP) ? EXEC_L_MAD : EXEC_L_DIV], OPT_LAT_DP_RCP,
            OPT_II_DP_RCP, EXEC_L_DIV);
    for (int l = 0; l < EXEC_L_COUNT; l++) {
        set(c, EXEC_U_SFU, l, GPU_P_SFU, opt_u(o, OPT_LAT_SFU), opt_u(o, OPT_II_SFU));
        set(c, EXEC_U_CTRL, l, GPU_P_SP, opt_u(o, OPT_LAT_BRANCH), 1);
        set(c, EXEC_U_SYNC, l, GPU_P_SP, opt_u(o, OPT_LAT_BRANCH), 1);
        set(c, EXEC_U_MEM, l, GPU_P_MEM, 1, 1);
        set(c, EXEC_U_TEX, l, GPU_P_MEM, 1, 1);
    }
    /* tensor instructions: their own pipes, or the fma rate of the pipe that would emulate them */
    static const int tl[7] = {EXEC_L_TC_F16, EXEC_L_TC_F16F32, EXEC_L_TC_TF32, EXEC_L_TC_F64,
                              EXEC_L_TC_I8, EXEC_L_TC_I4, EXEC_L_TC_B1};
    static const int tr[7] = {OPT_TENSOR_MACS_F16, OPT_TENSOR_MACS_F16F32, OPT_TENSOR_MACS_TF32,
                              OPT_TENSOR_MACS_F64, OPT_TENSOR_MACS_I8, OPT_TENSOR_MACS_I4, OPT_TENSOR_MACS_B1};
    for (int k = 0; k < 7; k++) {
        int l = tl[k];
        if (c->pipes[GPU_P_TENSOR]) {
            set(c, EXEC_U_TENSOR, l, GPU_P_TENSOR, opt_u(o, OPT_LAT_TENSOR), 1);
            c->tensor_rate[l] = tp_opt_f(o, tr[k]);
        } else {
            int u = l == EXEC_L_TC_F64 ? EXEC_U_DP : l >= EXEC_L_TC_I8 ? EXEC_U_INT : EXEC_U_FP;
            set(c, EXEC_U_TENSOR, l, (gpu_pipe)c->pipe_of[u][EXEC_L_MAD], c->lat[u][EXEC_L_MAD], 1);
            c->tensor_rate[l] = 32.0 / c->ii[u][EXEC_L_MAD];
        }
    }

    gpu_l1_cfg_l1d(o, &c->l1d);
    gpu_l1_cfg_l1c(o, &c->l1c);
    c->ldst = gpu_ldst_frontend_of(o);
}

uint32_t gpu_cfg_l1d_bytes(const gpu_cfg *c, const exec_occ *occ)
{
    if (c->l1d_carveout != 1 || !c->l1d_unified) return c->l1d.size;
    /* the CUDA driver's choice for compute capability 7.x and later: the
    ** smallest supported shared-memory capacity that keeps the occupancy
    ** (the CUDA C++ Programming Guide, "Shared Memory" of compute capability
    ** 7.x; GPGPU-Sim 4's adaptive cache, shader_core_config::max_cta) */
    uint64_t unit = c->shared_unit ? c->shared_unit : 1;
    uint64_t need = (occ->shared_per_cta + unit - 1) / unit * unit * occ->ctas_per_sm;
    uint64_t cap = c->shmem_carveout_min;
    while (cap < need && cap < c->shared_per_sm) cap *= 2;
    if (cap > c->shared_per_sm) cap = c->shared_per_sm;
    return cap >= c->l1d_unified ? 0 : (uint32_t)(c->l1d_unified - cap);
}
