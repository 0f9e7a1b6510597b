/*
** regmutex.c -- `tpsim regmutex FILE.ptx [--config NAME|FILE] [-o key=value]
** [--ptx OUT] [--profile]`: what the RegMutex pass (regmutex/) does with each
** kernel of a PTX module on a configuration (default: $TPSIM_CONFIG, else the
** default device; the RegMutex paper's GPU is --config gtx480).
**
** Per kernel (stable output; scripts read the "key: value" lines):
**
**   kernel k
**     registers: 40 per thread (35 in the code + 5 reserved), at most 33 live
**     regmutex: on: |Bs| 20 raises 2 to 3 CTAs of 256 threads per SM, ...
**     base set: 20 (25 per thread charged), extended set: 15
**     occupancy: 2 -> 3 CTAs of 256 threads per SM (16 -> 24 warps)
**     sections: 4 of 15 x 32 registers; state: 384 bits per SM
**     regions: 3 acquire points, 3 release points, ~41% of executed instructions
**     live registers (per instruction, |Bs| marked =):
**       <an ASCII chart: one column per group of instructions, height the most
**        registers live across any of them>
**     points:
**       acquire before +12: ld.global.f32 %f1, [%rd7];
**       release before +57: st.global.f32 [%rd9], %f30;
**
** --profile prints, instead of the chart, one line per instruction: offset,
** registers live, a bar, A/R/H (acquire before, release before, held) and the
** instruction.  --ptx OUT writes the lowered code of every kernel as PTX text
** annotated with live registers, the registers each value got and the
** acquire/release points (a listing: the module's declarations are the
** input's).
*/
#include "cli.h"
#include "args.h"
#include "../gpu/options.h"
#include "../regmutex/regmutex.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHART_COLS = 64, CHART_ROWS = 10 };

static void chart(const rm_kernel *k)
{
    uint32_t n = k->ninsns, cols = n < CHART_COLS ? n : CHART_COLS, top = k->max_live ? k->max_live : 1;
    uint32_t col[CHART_COLS];
    for (uint32_t c = 0; c < cols; c++) {
        uint32_t lo = (uint32_t)((uint64_t)c * n / cols), hi = (uint32_t)((uint64_t)(c + 1) * n / cols);
        col[c] = 0;
        for (uint32_t i = lo; i < hi; i++)
            if (k->live[i] > col[c]) col[c] = k->live[i];
    }
    for (uint32_t r = CHART_ROWS; r > 0; r--) {
        uint32_t lvl = (top * r + CHART_ROWS - 1) / CHART_ROWS;       /* this row's height in registers */
        uint32_t prev = (top * (r - 1) + CHART_ROWS - 1) / CHART_ROWS;
        bool base_row = k->on && k->base > prev && k->base <= lvl;
        printf("    %4u |", lvl);
        for (uint32_t c = 0; c < cols; c++) putchar(col[c] >= lvl ? '#' : base_row ? '=' : ' ');
        printf("%s\n", base_row ? "  <- |Bs|" : "");
    }
    printf("         +");
    for (uint32_t c = 0; c < cols; c++) putchar('-');
    printf("\n          instructions 0 .. %u\n", n ? n - 1 : 0);
}

/* The seed's figure: live registers as a share of those allocated (|Rt|)
** against the instructions a thread executes, in program order with each
** instruction stretched by its estimated share of executions (8^loop
** depth, as the pass weighs regions): a loop body fills the width its
** iterations take.  Static: an estimate, not a trace. */
static void chart_executed(const rm_kernel *k)
{
    if (!k->weight || !k->ninsns || !k->regs) return;
    uint32_t col[CHART_COLS];
    memset(col, 0, sizeof col);
    double at = 0;
    for (uint32_t i = 0; i < k->ninsns; i++) {
        double w = k->weight[i];
        uint32_t lo = (uint32_t)(at * CHART_COLS), hi = (uint32_t)((at + w) * CHART_COLS);
        if (lo >= CHART_COLS) lo = CHART_COLS - 1;
        if (hi >= CHART_COLS) hi = CHART_COLS - 1;
        for (uint32_t c = lo; c <= hi; c++)
            if (k->live[i] > col[c]) col[c] = k->live[i];
        at += w;
    }
    uint32_t base_pct = k->on ? (k->base * 100 + k->regs - 1) / k->regs : 0;
    for (uint32_t r = CHART_ROWS; r > 0; r--) {
        uint32_t lvl = 100 * r / CHART_ROWS, prev = 100 * (r - 1) / CHART_ROWS;
        bool base_row = k->on && base_pct > prev && base_pct <= lvl;
        printf("    %3u%% |", lvl);
        for (uint32_t c = 0; c < CHART_COLS; c++)
            putchar(col[c] * 100 >= (uint64_t)lvl * k->regs ? '#' : base_row ? '=' : ' ');
        printf("%s\n", base_row ? "  <- |Bs|" : "");
    }
    printf("         +");
    for (uint32_t c = 0; c < CHART_COLS; c++) putchar('-');
    printf("\n          instructions executed by a thread, 0 .. 100%% (estimate: 8^loop depth each)\n");
}

static void describe(const ptx_module *low, const ptx_func *g, const rm_kernel *k, bool profile, uint32_t bits)
{
    printf("kernel %s\n", k->name);
    printf("  registers: %u per thread (%u in the code + %u reserved), at most %u live\n", k->regs, k->own,
           k->reserve, k->max_live);
    printf("  regmutex: %s\n", k->why);
    if (k->modelled)
        printf("  model: a warp alone %.0f cycles per pass, %.0f of the busiest SM resource, %.0f%% waiting for "
               "loads of %.1f lines; warps that fill the SM %.1f, that fill the MSHRs %.1f\n",
               k->t_warp, k->c_warp, k->mem_wait * 100, k->lines, k->w_sat, k->w_mem);
    if (k->on) {
        printf("  base set: %u (%u per thread charged), extended set: %u\n", k->base, k->base_regs, k->ext);
        uint32_t wpc = (k->block_threads + 31) / 32;
        printf("  occupancy: %u -> %u CTAs of %u threads per SM (%u -> %u warps)\n", k->ctas_before, k->ctas_after,
               k->block_threads, k->ctas_before * wpc, k->ctas_after * wpc);
        printf("  sections: %u of %u x 32 registers; state: %u bits per SM\n", k->sections, k->ext, bits);
        printf("  regions: %u acquire points, %u release points, ~%.0f%% of executed instructions\n", k->nacquire,
               k->nrelease, k->frac * 100);
    } else {
        printf("  occupancy: %u CTAs of %u threads per SM\n", k->ctas_before, k->block_threads);
    }
    if (!k->live) return;
    const uint8_t *at = g->rs ? g->rs->at : NULL;
    tp_sbuf b;
    tp_sbuf_init(&b);
    if (profile) {
        printf("  live registers per instruction:\n");
        for (uint32_t i = 0; i < k->ninsns; i++) {
            tp_sbuf_reset(&b);
            ptx_insn_print(low, g, &low->insns[g->start + i], &b);
            char mk = !at ? ' ' : (at[i] & PTX_RS_ACQUIRE) ? 'A' : (at[i] & PTX_RS_RELEASE) ? 'R' : (at[i] & PTX_RS_HELD) ? 'H' : ' ';
            printf("    +%-5u %3u %c ", i, k->live[i], mk);
            for (uint32_t q = 0; q < k->live[i] && q < 64; q++) putchar(k->on && q == k->base ? '|' : '#');
            printf("  %s\n", tp_sbuf_str(&b));
        }
    } else {
        printf("  live registers (per instruction%s):\n", k->on ? ", |Bs| marked =" : "");
        chart(k);
        printf("  live registers, %% of the %u allocated, against instructions executed:\n", k->regs);
        chart_executed(k);
    }
    if (at) {
        printf("  points:\n");
        for (uint32_t i = 0; i < k->ninsns; i++) {
            if (!(at[i] & (PTX_RS_ACQUIRE | PTX_RS_RELEASE))) continue;
            tp_sbuf_reset(&b);
            ptx_insn_print(low, g, &low->insns[g->start + i], &b);
            printf("    %s before +%u: %s\n", (at[i] & PTX_RS_ACQUIRE) ? "acquire" : "release", i, tp_sbuf_str(&b));
        }
    }
    tp_sbuf_free(&b);
}

/* The lowered kernels as annotated PTX text. */
static bool write_ptx(const char *path, const ptx_module *low, const rm_report *rep)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "// tpsim regmutex: the lowered code of every kernel of %s (scheduled, constants\n"
               "// copied where they cannot be operands, spills, registers allocated), annotated:\n"
               "//   live N      registers live across the instruction\n"
               "//   R: x=Rn     the physical register of each value it defines\n"
               "//   acquire / release   RegMutex points (before the instruction)\n"
               ".version %u.%u\n.target sm_%u\n.address_size %u\n\n",
            low->filename, low->version_major, low->version_minor, low->target_sm, low->address_size);
    /* the module's variables (initial values left out: a listing) */
    for (uint32_t i = 0; i < low->nvars; i++) {
        const ptx_var *v = &low->vars[i];
        if (v->space != PTX_SP_GLOBAL && v->space != PTX_SP_SHARED && v->space != PTX_SP_CONST) continue;
        if (v->texref) continue;
        fprintf(f, "%s%s.%s .align %u .b8 %s[", v->is_extern ? ".extern " : "", v->is_visible ? ".visible " : "",
                ptx_space_names[v->space], v->align ? v->align : 1, v->name);
        if (v->size && !v->is_array_unsized) fprintf(f, "%llu", (unsigned long long)v->size);
        fprintf(f, "];%s\n", v->has_init ? "  // initialized in the input" : "");
    }
    fprintf(f, "\n");
    tp_sbuf b;
    tp_sbuf_init(&b);
    for (uint32_t r = 0; r < rep->n; r++) {
        const rm_kernel *k = &rep->k[r];
        int fi = ptx_find_func(low, k->name);
        if (fi < 0) continue;
        const ptx_func *g = &low->funcs[fi];
        fprintf(f, "// kernel %s: %s\n", k->name, k->why);
        if (k->on) fprintf(f, "// |Bs| %u, |Es| %u: registers >= %u live in the warp's SRP section\n", k->base, k->ext, k->base);
        fprintf(f, ".visible .entry %s(", g->name);
        for (uint32_t p = 0; p < g->nparams; p++)
            fprintf(f, "%s\n\t.param .%s %s%s", p ? "," : "", ptx_types[g->params[p].type].name, g->params[p].name,
                    g->params[p].size > ptx_type_size((ptx_type)g->params[p].type) && ptx_type_size((ptx_type)g->params[p].type)
                        ? "[]" : "");
        fprintf(f, "\n)\n{\n");
        for (uint32_t q = 0; q < g->npreds; q++) fprintf(f, "\t.reg .pred %s;\n", g->preds[q].name);
        for (uint32_t q = 0; q < g->nrows; q++)
            if (!g->regs[q].cont)
                fprintf(f, "\t.reg .%s %s;%s\n", ptx_types[g->regs[q].type].name, g->regs[q].name,
                        g->ra_cb && g->ra_cb[q] ? "  // constant bank" : "");
        for (uint32_t q = 0; q < g->nvars; q++)
            if (g->vars[q].space == PTX_SP_LOCAL || g->vars[q].space == PTX_SP_SHARED)
                fprintf(f, "\t.%s .align %u .b8 %s[%llu];\n", ptx_space_names[g->vars[q].space],
                        g->vars[q].align ? g->vars[q].align : 1, g->vars[q].name, (unsigned long long)g->vars[q].size);
        const uint8_t *at = g->rs ? g->rs->at : NULL;
        uint32_t blk = 0;
        for (uint32_t i = 0; i + 1 < k->ninsns; i++) { /* the last is tpsim's function exit */
            uint32_t pc = g->start + i;
            while (blk < g->nblocks && g->blocks[blk].start < pc) blk++;
            if (blk < g->nblocks && g->blocks[blk].start == pc) {
                /* the names ptx_insn_print gives branch targets */
                const char *lab = ptx_label_at(low, pc);
                if (lab) fprintf(f, "%s:\n", lab);
                else fprintf(f, "$pc%u:\n", pc);
            }
            if (at && (at[i] & PTX_RS_ACQUIRE)) fprintf(f, "\t// regmutex: acquire\n");
            if (at && (at[i] & PTX_RS_RELEASE)) fprintf(f, "\t// regmutex: release\n");
            tp_sbuf_reset(&b);
            ptx_insn_print(low, g, &low->insns[pc], &b);
            fprintf(f, "\t%s;", tp_sbuf_str(&b));
            fprintf(f, "\t// live %u", k->live ? k->live[i] : 0);
            const ptx_insn *in = &low->insns[pc];
            ptx_regocc oc[64];
            uint32_t n = ptx_insn_regs(low, g, in, 0, oc, 64);
            bool first = true;
            for (uint32_t j = 0; j < n && j < 64; j++)
                if (oc[j].kind == PTX_RO_DEF && g->ra_map[oc[j].row] >= 0) {
                    fprintf(f, "%s%s=R%d", first ? ", R: " : " ", g->regs[oc[j].row].name, g->ra_map[oc[j].row]);
                    first = false;
                }
            fprintf(f, "\n");
        }
        fprintf(f, "}\n\n");
    }
    tp_sbuf_free(&b);
    return fclose(f) == 0;
}

enum { RM_CONFIG = CLI_HELP + 1, RM_PTX, RM_PROFILE, RM_SET };

static const cli_opt rm_opts[] = {
    {RM_CONFIG, "--config", NULL, "NAME|FILE", "a built-in configuration or a file (default: $TPSIM_CONFIG, else\nthe default device)"},
    {RM_SET, "-o", NULL, "key=value", "set an option (repeatable)"},
    {RM_PTX, "--ptx", NULL, "OUT", "write every kernel's lowered code, annotated, as PTX text"},
    {RM_PROFILE, "--profile", NULL, NULL, "one line per instruction instead of the chart"},
};

static const cli_cmd rm_cmd = {
    "tpsim regmutex",
    "usage: tpsim regmutex FILE.ptx [--config NAME|FILE] [-o key=value] [--ptx OUT] [--profile]\n",
    "what the RegMutex pass does with each kernel: live registers, |Bs|, |Es|, sections,\n"
    "occupancy, regions\n",
    CLI_OPTS(rm_opts),
    CLI_TERSE,
};

int cli_regmutex(int argc, char **argv)
{
    const char *path = NULL, *config = NULL, *out = NULL;
    bool profile = false;
    tp_sbuf over;
    tp_sbuf_init(&over);
    cli_args it;
    cli_args_init(&it, &rm_cmd, argc, argv);
    int rc = -1;   /* the exit status once the command line has decided it */
    for (int id; rc < 0 && (id = cli_next(&it)) != CLI_END;) {
        switch (id) {
        case CLI_EXIT: rc = it.status; break;
        case RM_CONFIG: config = it.val; break;
        case RM_PTX: out = it.val; break;
        case RM_PROFILE: profile = true; break;
        case RM_SET: tp_sbuf_printf(&over, "%s ", it.val); break;
        case CLI_ARG:
            if (path) rc = cli_usage_error(&rm_cmd);
            path = it.val;
            break;
        }
    }
    if (rc < 0 && !path) rc = cli_usage_error(&rm_cmd);
    if (rc >= 0) {
        tp_sbuf_free(&over);
        return rc;
    }
    tp_opts o;
    gpu_opts_init(&o);
    tp_err e;
    tp_err_clear(&e);
    bool ok = config ? tp_opts_load_config(&o, config, &e) : exec_opts_apply_env(&o, &e);
    if (ok && over.len) ok = tp_opts_set_list(&o, tp_sbuf_str(&over), TP_SRC_OVERRIDE, &e);
    tp_sbuf_free(&over);
    if (!ok) {
        fprintf(stderr, "tpsim regmutex: %s\n", e.msg);
        tp_opts_free(&o);
        return 1;
    }
    size_t len;
    char *text = cli_read_file("tpsim regmutex", path, &len);
    if (!text) {
        tp_opts_free(&o);
        return 1;
    }
    ptx_module *m = ptx_parse(text, len, path, &e);
    free(text);
    if (!m) {
        fprintf(stderr, "%s\n", e.msg);
        tp_opts_free(&o);
        return 1;
    }
    if (tp_opt_i(&o, OPT_EXEC_CONTRACT)) ptx_contract(m); /* as exec_mod_load */
    ptx_lower_opts lo;
    exec_lower_opts(&o, &lo); /* as exec_mod_load */
    ptx_module *low = ptx_lower(m, &lo, &e);
    rm_report rep;
    memset(&rep, 0, sizeof rep);
    rm_cfg c;
    rm_cfg_from_opts(&c, &o);
    rc = 0;
    if (!low || !rm_pass(low, &c, &rep, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        rc = 1;
    } else {
        uint32_t bits = rm_state_bits(c.max_warps);
        printf("module %s: %u kernel%s; register file %u registers per SM, %u warps, %u CTAs; RegMutex state %u bits per SM\n",
               path, rep.n, rep.n == 1 ? "" : "s", c.regs_per_sm, c.max_warps, c.max_ctas, bits);
        for (uint32_t i = 0; i < rep.n; i++) {
            int fi = ptx_find_func(low, rep.k[i].name);
            if (fi >= 0) describe(low, &low->funcs[fi], &rep.k[i], profile, bits);
        }
        if (out && !write_ptx(out, low, &rep)) {
            fprintf(stderr, "tpsim regmutex: cannot write %s: %s\n", out, strerror(errno));
            rc = 1;
        }
    }
    rm_report_free(&rep);
    ptx_module_free(low);
    ptx_module_free(m);
    tp_opts_free(&o);
    return rc;
}
