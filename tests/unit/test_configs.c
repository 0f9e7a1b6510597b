/*
** test_configs.c -- the built-in GPU configurations and the one a process
** gets by default (exec/options.c, configs/rtx2060.cfg).
**
** rtx2060 must set every key of the device, timing and memory tables, and
** its numbers must agree with each other the way the card's published
** figures do: 12 GDDR6 channels of 16 bits are its 192-bit bus, their
** bandwidth is the 336 GB/s CUDA's memory clock implies, the L2 slices add
** up to 3 MB, shared memory and L1 share Turing's 96 KB, and the units and
** intervals give the CUDA programming guide's results per clock per SM.
** The option table's own defaults stay the GTX 480 model.
*/
#include "tests/unit/tt.h"
#include "gpu/options.h"
#include <stdlib.h>

static int64_t I(const tp_opts *o, const char *name)
{
    int k = tp_opts_find(o, name);
    if (k < 0) {
        tt_fail_msg(__FILE__, __LINE__, "no option %s", name);
        return 0;
    }
    return tp_opt_i(o, k);
}

static const char *S(const tp_opts *o, const char *name)
{
    int k = tp_opts_find(o, name);
    return k < 0 ? "" : tp_opt_s(o, k);
}

static bool load(tp_opts *o, const char *name)
{
    tp_err e;
    tp_err_clear(&e);
    gpu_opts_init(o);
    if (!tp_opts_load_config(o, name, &e)) {
        tt_fail_msg(__FILE__, __LINE__, "%s: %s", name, e.msg);
        return false;
    }
    return true;
}

/* Every key outside the functional model's (mode, exec.*, check.*) and the
** library's (stream.*) and the register mechanisms' switches (regs.*,
** regmutex*, owf*, rfv.*: the compiler side and what a study turns on, not the
** hardware) and the simulator's own (sim.*: host threads) comes from the file. */
static void t_rtx2060_complete(void)
{
    tp_opts o;
    if (!load(&o, "rtx2060")) return;
    for (uint32_t i = 0; i < o.n; i++) {
        const char *n = o.defs[i].name;
        if (strcmp(n, "mode") == 0 || strncmp(n, "exec.", 5) == 0 || strncmp(n, "check.", 6) == 0 ||
            strncmp(n, "stream.", 7) == 0 || strncmp(n, "regs.", 5) == 0 || strncmp(n, "regmutex", 8) == 0 ||
            strncmp(n, "owf", 3) == 0 || strncmp(n, "rfv.", 4) == 0 || strncmp(n, "sim.", 4) == 0)
            continue;
        tt_nchecks++;
        if (o.v[i].src != TP_SRC_FILE) tt_fail_msg(__FILE__, __LINE__, "rtx2060 does not set %s", n);
    }
    tp_opts_free(&o);
}

static void t_rtx2060_consistent(void)
{
    tp_opts o;
    if (!load(&o, "rtx2060")) return;
    TT_EQ_STR(S(&o, "device.name"), "tpsim GeForce RTX 2060 (simulated)");
    TT_EQ_STR(S(&o, "device.arch"), "Turing");
    TT_EQ_I(I(&o, "device.num_sms"), 30);
    /* the memory system: 12 channels x 16 bits = the 192-bit bus */
    TT_EQ_I(I(&o, "dram.channels") * I(&o, "dram.bus_bytes") * 8, I(&o, "device.mem_bus_bits"));
    /* bandwidth: 12 x 2 bytes x 4 transfers x 3500 MHz = 336000 MB/s; CUDA's
    ** figure, 2 x 7001 MHz x 24 bytes = 336048 MB/s, within 0.1% */
    int64_t bw = I(&o, "dram.channels") * I(&o, "dram.bus_bytes") * I(&o, "dram.data_rate") * I(&o, "clock.dram_mhz");
    int64_t cuda_bw = 2 * I(&o, "device.mem_clock_mhz") * I(&o, "device.mem_bus_bits") / 8;
    TT_EQ_I(bw, 336000);
    TT_CHECK(llabs(bw - cuda_bw) * 1000 < cuda_bw);
    /* a column command moves a 32-byte sector: 2 bytes x burst 16 */
    TT_EQ_I(I(&o, "dram.bus_bytes") * I(&o, "dram.burst"), 32);
    /* 6 GB of 8 Gb GDDR6 chips, two channels each */
    TT_EQ_I(I(&o, "device.global_mem"), I(&o, "dram.channels") / 2 * (1ll << 30));
    /* L2: 12 channels x 2 slices x 128 KB = 3 MB */
    TT_EQ_I(I(&o, "dram.channels") * I(&o, "l2.slices_per_channel") * I(&o, "l2.slice_size"), I(&o, "device.l2_bytes"));
    TT_EQ_I(I(&o, "device.l2_bytes"), 3 << 20);
    TT_EQ_I(I(&o, "l2.slice_size") % (I(&o, "l2.assoc") * I(&o, "l2.line")), 0);
    /* L1 and shared memory share Turing's 96 KB per SM; 4 sets of 64 lines */
    TT_EQ_I(I(&o, "device.shared_per_sm") + I(&o, "l1d.size"), 96 << 10);
    TT_EQ_I(I(&o, "l1d.size") / (I(&o, "l1d.assoc") * I(&o, "l1d.line")), 4);
    /* compute capability 7.5: 32 warps, 16 blocks, 64 K registers per SM and per block */
    TT_EQ_I(I(&o, "device.max_threads_per_sm") / 32, 32);
    TT_EQ_I(I(&o, "device.max_ctas_per_sm"), 16);
    TT_EQ_I(I(&o, "device.regs_per_sm"), 65536);
    TT_EQ_I(I(&o, "device.regs_per_block"), 65536);
    TT_EQ_I(I(&o, "device.max_regs_per_thread"), 255);
    TT_EQ_I(I(&o, "device.shared_per_block"), 48 << 10);
    TT_EQ_I(I(&o, "device.shared_per_block_optin"), 64 << 10);
    /* results per clock per SM (CUDA programming guide, 7.5): units x 32 lanes / interval */
    TT_EQ_I(I(&o, "sm.sp_units") * 32 / I(&o, "ii.fp_mad"), 64);
    TT_EQ_I(I(&o, "sm.sp_units") * 32 / I(&o, "ii.fp_add"), 64);
    TT_EQ_I(I(&o, "sm.int_units") * 32 / I(&o, "ii.int_add"), 64);
    TT_EQ_I(I(&o, "sm.sfu_units") * 32 / I(&o, "ii.sfu"), 16);
    TT_EQ_I(I(&o, "sm.dp_units") * 32 / I(&o, "ii.dp_mad"), 2);
    /* one scheduler and one of each unit per processing block */
    TT_EQ_I(I(&o, "sm.schedulers"), 4);
    TT_EQ_I(I(&o, "sm.sp_units"), I(&o, "sm.schedulers"));
    /* the timing model counts the clock the device reports */
    TT_EQ_I(I(&o, "clock.core_mhz"), I(&o, "device.clock_mhz"));
    /* no persisting L2 before compute capability 8.0 */
    TT_EQ_I(I(&o, "device.persisting_l2_max"), 0);
    TT_EQ_I(I(&o, "device.access_policy_max_window"), 0);
    tp_opts_free(&o);
}

/* Without TPSIM_CONFIG (or with it empty) the environment gives rtx2060;
** TPSIM_CONFIG=gtx480 the GTX 480; the table alone is the GTX 480 too. */
static void t_default_config(void)
{
    tp_opts o;
    tp_err e;
    tp_err_clear(&e);
    unsetenv("TPSIM_OPTIONS");
    unsetenv("TPSIM_MODE");
    unsetenv("TPSIM_TRACE");
    unsetenv("TPSIM_CONFIG");
    TT_CHECK(gpu_opts_from_env(&o, &e));
    TT_EQ_I(I(&o, "device.num_sms"), 30);
    TT_EQ_STR(S(&o, "device.name"), "tpsim GeForce RTX 2060 (simulated)");
    tp_opts_free(&o);
    setenv("TPSIM_CONFIG", "", 1);
    TT_CHECK(gpu_opts_from_env(&o, &e));
    TT_EQ_I(I(&o, "device.regs_per_block"), 65536);
    tp_opts_free(&o);
    setenv("TPSIM_CONFIG", "gtx480", 1);
    TT_CHECK(gpu_opts_from_env(&o, &e));
    TT_EQ_I(I(&o, "device.num_sms"), 15);
    TT_EQ_I(I(&o, "device.regs_per_block"), 32768);
    TT_EQ_STR(S(&o, "device.arch"), "Fermi");
    tp_opts_free(&o);
    unsetenv("TPSIM_CONFIG");
    gpu_opts_init(&o);
    TT_EQ_I(I(&o, "device.num_sms"), 15);
    TT_EQ_STR(S(&o, "device.name"), "tpsim GeForce GTX 480 (simulated)");
    tp_opts_free(&o);
}

/* configs/gtx480.cfg restates the table's defaults: loading it changes none. */
static void t_gtx480_is_the_table(void)
{
    tp_opts d, o;
    gpu_opts_init(&d);
    if (!load(&o, "gtx480")) return;
    for (uint32_t i = 0; i < o.n; i++) {
        tt_nchecks++;
        if (strcmp(o.v[i].s, d.v[i].s) != 0 && o.v[i].f != d.v[i].f)
            tt_fail_msg(__FILE__, __LINE__, "gtx480 sets %s = %s, the table's default is %s", o.defs[i].name,
                        o.v[i].s, d.v[i].s);
    }
    tp_opts_free(&o);
    tp_opts_free(&d);
}

/* The timed instruction stream (exec.code): the table's default and gtx480
** run the PTX in program order, as GPGPU-Sim does; rtx2060 sets the code
** ptxas would schedule (docs/TIMING.md, "The code that is timed"). */
static void t_exec_code(void)
{
    tp_opts o;
    gpu_opts_init(&o);
    TT_EQ_STR(S(&o, "exec.code"), "ptx");
    tp_opts_free(&o);
    if (load(&o, "gtx480")) {
        TT_EQ_STR(S(&o, "exec.code"), "ptx");
        TT_EQ_I(o.v[tp_opts_find(&o, "exec.code")].src, TP_SRC_FILE);
    }
    tp_opts_free(&o);
    if (load(&o, "rtx2060")) {
        TT_EQ_STR(S(&o, "exec.code"), "scheduled");
        TT_EQ_I(o.v[tp_opts_find(&o, "exec.code")].src, TP_SRC_FILE);
    }
    tp_opts_free(&o);
}

/* device.cc takes every compute capability nvcc 13.0 targets
** (nvcc --list-gpu-arch: compute_75 ... compute_121), and nothing past it. */
static void t_device_cc_range(void)
{
    static const char *const ccs[] = {"7.5", "8.0", "8.6", "8.7", "8.8", "8.9",
                                      "9.0", "10.0", "10.3", "11.0", "12.0", "12.1"};
    tp_opts o;
    tp_err e;
    gpu_opts_init(&o);
    for (size_t i = 0; i < TP_ARRAY_LEN(ccs); i++) {
        tp_err_clear(&e);
        tt_nchecks++;
        if (!tp_opts_set(&o, "device.cc", ccs[i], TP_SRC_OVERRIDE, &e))
            tt_fail_msg(__FILE__, __LINE__, "device.cc=%s: %s", ccs[i], e.msg);
    }
    tp_err_clear(&e);
    TT_CHECK(!tp_opts_set(&o, "device.cc", "12.2", TP_SRC_OVERRIDE, &e));
    TT_HAS(e.msg, "out of range");
    tp_opts_free(&o);
}

int main(void)
{
    TT_RUN(t_rtx2060_complete);
    TT_RUN(t_rtx2060_consistent);
    TT_RUN(t_default_config);
    TT_RUN(t_gtx480_is_the_table);
    TT_RUN(t_device_cc_range);
    TT_RUN(t_exec_code);
    return tt_done();
}
