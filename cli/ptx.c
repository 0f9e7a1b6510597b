/*
** ptx.c -- `tpsim ptx [--dump] [--live] [--lowered] [--time] [--max-regs N] [--ifconvert N] FILE.ptx`:
** parse a PTX module, lower and allocate its registers (ptx_lower) and
** describe it.
**
** Output (stable; one block per function, kernels first, then .func bodies,
** then functions that are only declared):
**
**   module a.ptx: PTX 9.0, sm_75, 64-bit: 1 kernel, 3 functions (2 declared only), 9 variables, 512 instructions
**   kernel _Z1kPi
**     params: 2 (16 bytes)
**       _Z1kPi_param_0: size 8, align 8, offset 0
**       _Z1kPi_param_1: size 4, align 4, offset 8
**     vregs: b32: 12, b64: 8, f32: 3, pred: 2 (23 rows)
**     regs: (not allocated)
**     shared: 256 bytes static, dynamic: no
**     local: 48 bytes
**     instructions: 40
**     directives: maxntid 256,1,1
**   func _Z2f1i
**     params: 1 (4 bytes)
**       ...
**     returns: 1 (4 bytes)
**       func_retval0: size 4, align 4, offset 4
**     ...
**   declared _Z2f2i
**
** - params: name, size, alignment and offset: for kernels in the parameter
**   buffer, for .func in the function's frame (returns follow the params).
** - vregs: declared virtual registers by type (predicates separately), and
**   the number of register rows (a .b128 register takes two).
** - regs: 32-bit registers per thread of the lowered code (ptx_lower:
**   scheduled, allocated; ptx_func.ra_regs, what ptxas would report as "Used
**   N registers"; see docs/REGISTERS.md), or "(not allocated)".  The limit is
**   --max-regs (default 255), lowered as ptxas does by .maxnreg and by
**   .maxntid/.reqntid with .minnctapersm for a 65536-register SM allocated in
**   256-register units per warp (sm_75); when the limit forces spills the
**   line reads "regs: N (M spilled)".
** - shared: static shared memory the function uses: its own .shared
**   variables plus the module-scope .shared variables it (or anything it
**   calls, or whose address it takes) names, each aligned; dynamic: whether
**   it names an extern unsized .shared array.
** - local: the per-thread frame (ptx_func.local_bytes).
** - instructions: PTX instructions in the body (the synthetic exit not counted).
** - directives: only when the function has performance directives.
** --dump adds every instruction with its pc, block starts ("B3:") and the
** reconvergence pc of branches; --live dumps with, after each pc, the 32-bit
** registers live into the instruction (PTX_LIVE_ALLOC: what the allocator
** must keep; docs/REGISTERS.md) and ends each function with the most and
** the registers live there; --lowered describes (and dumps) the lowered
** code instead of the parsed one; --time prints the parse and allocation
** times on stderr.
** A parse error prints "file:line:col: message" on stderr and exits 1.
*/
#include "cli.h"
#include "args.h"
#include "../base/file.h"
#include "../ptx/ptx.h"
#include "../base/vec.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

char *cli_read_file(const char *cmd, const char *path, size_t *len)
{
    tp_err e;
    tp_err_clear(&e);
    char *text = tp_file_read_text(path, NULL, len, &e);
    if (!text) fprintf(stderr, "%s: %s\n", cmd, e.msg);
    return text;
}

/* Functions reachable from f by direct calls or taken addresses. */
static void reach(const ptx_module *m, uint32_t f, uint8_t *seen)
{
    TP_VEC(uint32_t) stk = {0};
    tp_vec_push(&stk, f);
    seen[f] = 1;
    while (stk.n) {
        const ptx_func *fn = &m->funcs[stk.a[--stk.n]];
        if (fn->is_decl) continue;
        for (uint32_t pc = fn->start; pc < fn->end; pc++) {
            const ptx_insn *in = &m->insns[pc];
            for (uint32_t i = 0; i < in->nopnd; i++) {
                const ptx_opnd *o = &in->o[i];
                if (o->kind == PTX_OK_FUNC && o->r >= 0 && (uint32_t)o->r < m->nfuncs && !seen[o->r]) {
                    seen[o->r] = 1;
                    tp_vec_push(&stk, (uint32_t)o->r);
                }
            }
        }
    }
    tp_vec_free(&stk);
}

static void shared_use(const ptx_module *m, uint32_t fi, uint64_t *bytes, bool *dyn)
{
    uint8_t *seen = tp_calloc(m->nfuncs, 1);
    uint8_t *vseen = tp_calloc(m->nvars + 1, 1);
    reach(m, fi, seen);
    uint64_t off = 0;
    *dyn = false;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (!seen[i]) continue;
        const ptx_func *fn = &m->funcs[i];
        for (uint32_t v = 0; v < fn->nvars; v++)
            if (fn->vars[v].space == PTX_SP_SHARED || fn->vars[v].space == PTX_SP_SHARED_CLUSTER)
                off = TP_ALIGN_UP(off, fn->vars[v].align) + fn->vars[v].size;
        if (fn->is_decl) continue;
        for (uint32_t pc = fn->start; pc < fn->end; pc++) {
            const ptx_insn *in = &m->insns[pc];
            for (uint32_t k = 0; k < in->nopnd; k++) {
                const ptx_opnd *o = &in->o[k];
                bool sym = o->kind == PTX_OK_SYM || (o->kind == PTX_OK_ADDR && o->base == PTX_AB_SYM);
                if (sym && o->r >= 0 && (uint32_t)o->r < m->nvars) vseen[o->r] = 1;
            }
        }
    }
    for (uint32_t v = 0; v < m->nvars; v++) {
        const ptx_var *var = &m->vars[v];
        if (!vseen[v] || (var->space != PTX_SP_SHARED && var->space != PTX_SP_SHARED_CLUSTER)) continue;
        if (var->is_extern && var->is_array_unsized) *dyn = true;
        else off = TP_ALIGN_UP(off, var->align) + var->size;
    }
    *bytes = off;
    free(seen);
    free(vseen);
}

static void print_params(const char *what, const ptx_param *p, uint32_t n, uint32_t bytes)
{
    printf("  %s: %u (%u bytes)\n", what, n, bytes);
    for (uint32_t i = 0; i < n; i++)
        printf("    %s: size %u, align %u, offset %u\n", p[i].name, p[i].size, p[i].align, p[i].offset);
}

/* The rows of set (a live-in bitset of lv) by name, after "what". */
static void print_rows(const ptx_func *f, const ptx_live *lv, const uint64_t *set, const char *what)
{
    printf("  %s:", what);
    for (uint32_t r = 0; r < lv->nrows; r++)
        if ((set[r >> 6] >> (r & 63)) & 1) printf(" %s", f->regs[r].name);
    printf("\n");
}

static void dump_body(const ptx_module *m, const ptx_func *f, bool live)
{
    tp_sbuf sb;
    tp_sbuf_init(&sb);
    ptx_live lv;
    memset(&lv, 0, sizeof lv);
    tp_err e;
    tp_err_clear(&e);
    if (live && !ptx_liveness(m, f, PTX_LIVE_ALLOC, &lv, &e)) live = false;
    uint32_t b = 0;
    for (uint32_t pc = f->start; pc < f->end; pc++) {
        if (b < f->nblocks && f->blocks[b].start == pc) {
            printf("  B%u:", b);
            const ptx_block *bl = &f->blocks[b];
            if (bl->succ[0] >= 0) printf(" succ B%d", bl->succ[0]);
            if (bl->succ[1] >= 0) printf(", B%d", bl->succ[1]);
            if (bl->ipdom >= 0) printf("; ipdom B%d", bl->ipdom);
            printf("\n");
            b++;
        }
        tp_sbuf_reset(&sb);
        const ptx_insn *in = &m->insns[pc];
        ptx_insn_print(m, f, in, &sb);
        if (live) printf("    %6u %3u  %s", pc, lv.units[pc - f->start], tp_sbuf_str(&sb));
        else printf("    %6u  %s", pc, tp_sbuf_str(&sb));
        if (in->op == PTX_OP_BRA || in->op == PTX_OP_BRX || in->op == PTX_OP_RET ||
            in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP)
            printf("    // rpc %u", in->rpc);
        printf("\n");
    }
    if (live) {
        printf("  most live: %u units at pc %u\n", lv.max_units, lv.max_pc);
        if (f->ra_regs)
            printf("  count from: allocation %u, unrolled loops %u, expansions %u\n", f->ra_own, f->ra_unroll,
                   f->ra_expand);
        print_rows(f, &lv, lv.in + (size_t)(lv.max_pc - f->start) * lv.words, "live into it");
        ptx_live_free(&lv);
    }
    if (f->ra_map && f->ra_cb) {
        /* lowered code: the allocation (the first physical register of each row that has one) */
        printf("  registers:");
        for (uint32_t r = 0; r < f->nrows; r++)
            if (f->ra_map[r] >= 0) printf(" %s=R%d", f->regs[r].name, f->ra_map[r]);
        printf("\n");
    }
    tp_sbuf_free(&sb);
}

static void describe(const ptx_module *m, uint32_t fi, bool dump, bool live)
{
    const ptx_func *f = &m->funcs[fi];
    if (f->is_decl) {
        printf("declared %s\n", f->name);
        return;
    }
    printf("%s %s\n", f->is_entry ? "kernel" : "func", f->name);
    print_params("params", f->params, f->nparams, f->param_bytes);
    if (!f->is_entry && f->nrets) print_params("returns", f->rets, f->nrets, f->ret_bytes);
    uint32_t count[PTX_T_COUNT] = {0};
    for (uint32_t r = 0; r < f->nrows; r++)
        if (!f->regs[r].cont && f->regs[r].type < PTX_T_COUNT) count[f->regs[r].type]++;
    count[PTX_T_PRED] = f->npreds;
    printf("  vregs:");
    const char *sep = " ";
    for (int t = 1; t < PTX_T_COUNT; t++) {
        if (t == PTX_T_PRED || !count[t]) continue;
        printf("%s%s: %u", sep, ptx_types[t].name, count[t]);
        sep = ", ";
    }
    if (count[PTX_T_PRED]) printf("%spred: %u", sep, count[PTX_T_PRED]), sep = ", ";
    printf("%s(%u rows)\n", sep[0] == ',' ? " " : " none ", f->nrows);
    if (f->ra_regs && f->ra_spills) printf("  regs: %u (%u spilled)\n", f->ra_regs, f->ra_spills);
    else if (f->ra_regs) printf("  regs: %u\n", f->ra_regs);
    else printf("  regs: (not allocated)\n");
    uint64_t sh;
    bool dyn;
    shared_use(m, fi, &sh, &dyn);
    printf("  shared: %llu bytes static, dynamic: %s\n", (unsigned long long)sh, dyn ? "yes" : "no");
    printf("  local: %u bytes\n", f->local_bytes);
    printf("  instructions: %u\n", f->end - f->start - 1);
    tp_sbuf d;
    tp_sbuf_init(&d);
    if (f->maxntid[0]) tp_sbuf_printf(&d, " maxntid %u,%u,%u", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
    if (f->reqntid[0]) tp_sbuf_printf(&d, " reqntid %u,%u,%u", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->minnctapersm) tp_sbuf_printf(&d, " minnctapersm %u", f->minnctapersm);
    if (f->maxnctapersm) tp_sbuf_printf(&d, " maxnctapersm %u", f->maxnctapersm);
    if (f->maxnreg) tp_sbuf_printf(&d, " maxnreg %u", f->maxnreg);
    if (f->reqnctapercluster[0])
        tp_sbuf_printf(&d, " reqnctapercluster %u,%u,%u", f->reqnctapercluster[0],
                       f->reqnctapercluster[1], f->reqnctapercluster[2]);
    if (f->maxclusterrank) tp_sbuf_printf(&d, " maxclusterrank %u", f->maxclusterrank);
    if (f->noreturn_attr) tp_sbuf_puts(&d, " noreturn");
    if (d.len) printf("  directives:%s\n", tp_sbuf_str(&d));
    tp_sbuf_free(&d);
    if (dump || live) dump_body(m, f, live);
}

enum { PTX_DUMP = CLI_HELP + 1, PTX_TIME, PTX_LOWERED, PTX_MAX_REGS, PTX_LIVE, PTX_IFCONVERT };

static const cli_opt ptx_opts[] = {
    {PTX_DUMP, "--dump", NULL, NULL, "every instruction with its pc, block starts and branches' reconvergence pc"},
    {PTX_LIVE, "--live", NULL, NULL, "dump with the 32-bit registers live into each instruction (allocator's view), and the most"},
    {PTX_LOWERED, "--lowered", NULL, NULL, "describe (and dump) the lowered code instead of the parsed one"},
    {PTX_TIME, "--time", NULL, NULL, "print the parse and allocation times on stderr"},
    {PTX_MAX_REGS, "--max-regs", NULL, "N", "registers per thread at most, 1 to 255 (default 255)"},
    {PTX_IFCONVERT, "--ifconvert", NULL, "N", "lower with ptxas's if-conversion of guarded bodies of at most N instructions (exec.ifconvert; default 0: none)"},
};

static const cli_cmd ptx_cmd = {
    "tpsim ptx",
    "usage: tpsim ptx [--dump] [--live] [--lowered] [--time] [--max-regs N] [--ifconvert N] FILE.ptx\n",
    "parses a PTX module, lowers it, allocates its registers and describes each function\n",
    CLI_OPTS(ptx_opts),
    CLI_TERSE,
};

int cli_ptx(int argc, char **argv)
{
    bool dump = false, timing = false, lowered = false, live = false;
    const char *path = NULL;
    long max_regs = 255, ifconvert = 0;
    cli_args it;
    cli_args_init(&it, &ptx_cmd, argc, argv);
    for (int id; (id = cli_next(&it)) != CLI_END;) {
        char *end;
        switch (id) {
        case CLI_EXIT: return it.status;
        case PTX_DUMP: dump = true; break;
        case PTX_TIME: timing = true; break;
        case PTX_LOWERED: lowered = true; break;
        case PTX_LIVE: live = true; break;
        case PTX_MAX_REGS:
            max_regs = strtol(it.val, &end, 10);
            if (*end || max_regs < 1 || max_regs > 255) return cli_usage_error(&ptx_cmd);
            break;
        case PTX_IFCONVERT:
            ifconvert = strtol(it.val, &end, 10);
            if (*end || ifconvert < 0 || ifconvert > 64) return cli_usage_error(&ptx_cmd);
            break;
        case CLI_ARG:
            if (path) return cli_usage_error(&ptx_cmd);
            path = it.val;
            break;
        }
    }
    if (!path) return cli_usage_error(&ptx_cmd);
    size_t len;
    char *text = cli_read_file("tpsim ptx", path, &len);
    if (!text) return 1;
    tp_err e;
    tp_err_clear(&e);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ptx_module *m = ptx_parse(text, len, path, &e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(text);
    if (!m) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    if (timing) {
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        fprintf(stderr, "parsed %zu bytes in %.3f ms (%.1f MB/s)\n", len, s * 1e3,
                s > 0 ? (double)len / s / 1e6 : 0.0);
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ptx_lower_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.max_regs = (uint32_t)max_regs;
    lo.regs_per_sm = 65536;
    lo.alloc_unit = 256;
    lo.ifconvert = (uint32_t)ifconvert;
    ptx_module *low = ptx_lower(m, &lo, &e);
    if (!low) {
        fprintf(stderr, "%s\n", e.msg);
        ptx_module_free(m);
        return 1;
    }
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        m->funcs[i].ra_regs = low->funcs[i].ra_regs;
        m->funcs[i].ra_spills = low->funcs[i].ra_spills;
        /* what set the count (--live's "count from"), from the lowered code */
        m->funcs[i].ra_own = low->funcs[i].ra_own;
        m->funcs[i].ra_unroll = low->funcs[i].ra_unroll;
        m->funcs[i].ra_expand = low->funcs[i].ra_expand;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (timing) {
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        fprintf(stderr, "allocated registers in %.3f ms\n", s * 1e3);
    }
    ptx_module *shown = lowered ? low : m;
    uint32_t nk = 0, nf = 0, nd = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (m->funcs[i].is_decl) nd++;
        else if (m->funcs[i].is_entry) nk++;
        else nf++;
    }
    printf("module %s: PTX %u.%u, sm_%u, %u-bit: %u kernel%s, %u function%s (%u declared only), "
           "%u variable%s, %u instructions\n",
           path, m->version_major, m->version_minor, m->target_sm, m->address_size, nk,
           nk == 1 ? "" : "s", nf + nd, nf + nd == 1 ? "" : "s", nd, m->nvars,
           m->nvars == 1 ? "" : "s", m->ninsns - nk - nf);
    for (int pass = 0; pass < 3; pass++)
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const ptx_func *f = &m->funcs[i];
            int kind = f->is_decl ? 2 : f->is_entry ? 0 : 1;
            if (kind == pass) describe(shown, i, dump, live);
        }
    ptx_module_free(low);
    ptx_module_free(m);
    return 0;
}
