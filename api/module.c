/* module.c -- modules, functions, the JIT linker and libraries.
**
** tpsim runs PTX: an image is PTX text (cuModuleLoadData takes it
** NUL-terminated), or a fatbinary that carries PTX, compressed or not
** (api/fatbin.c).  A cubin (an ELF file for EM_CUDA, SASS) cannot be
** simulated: loading one, or a fatbinary without PTX for the device, is
** CUDA_ERROR_NO_BINARY_FOR_GPU with a message that says to give tpsim PTX
** instead; any other ELF file (a host executable, a shared library) is
** CUDA_ERROR_INVALID_IMAGE with what it is; a truncated or corrupt
** fatbinary, and anything else, is CUDA_ERROR_INVALID_IMAGE too.  Parse and check errors are printed on stderr and
** copied into the CU_JIT_ERROR_LOG_BUFFER of cuModuleLoadDataEx.
*/
#include "api.h"
#include "fatbin.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- JIT options ------------------------------------------------------------ */

typedef struct jit_opts {
    char *info, *error;        /* log buffers (may be NULL) */
    size_t info_size, error_size;
    int info_size_idx, error_size_idx, wall_idx;  /* option slots written back, -1 if absent */
    void **values;
} jit_opts;

static CUresult jit_parse(jit_opts *j, unsigned n, const CUjit_option *opt, void **val)
{
    memset(j, 0, sizeof *j);
    j->info_size_idx = j->error_size_idx = j->wall_idx = -1;
    j->values = val;
    if (n == 0) return CUDA_SUCCESS;
    if (!opt || !val) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) {
        switch (opt[i]) {
        case CU_JIT_INFO_LOG_BUFFER: j->info = val[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
            j->info_size = (size_t)(uintptr_t)val[i];
            j->info_size_idx = (int)i;
            break;
        case CU_JIT_ERROR_LOG_BUFFER: j->error = val[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
            j->error_size = (size_t)(uintptr_t)val[i];
            j->error_size_idx = (int)i;
            break;
        case CU_JIT_WALL_TIME: j->wall_idx = (int)i; break;
        default:
            /* every other option tunes code generation, which PTX
            ** interpretation does not have: accepted and ignored */
            if ((unsigned)opt[i] >= CU_JIT_NUM_OPTIONS) return CUDA_ERROR_INVALID_VALUE;
            break;
        }
    }
    return CUDA_SUCCESS;
}

/* Copies text into a log buffer (truncated, NUL-terminated) and writes the
** bytes used, NUL included, back into the size option. */
static void jit_log(jit_opts *j, bool error, const char *text)
{
    char *buf = error ? j->error : j->info;
    size_t size = error ? j->error_size : j->info_size;
    int idx = error ? j->error_size_idx : j->info_size_idx;
    if (!buf || size == 0) return;
    size_t n = strlen(text);
    if (n >= size) n = size - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
    if (idx >= 0) j->values[idx] = (void *)(uintptr_t)(n + 1);
}

static void jit_wall(jit_opts *j, double t0)
{
    if (j->wall_idx < 0) return;
    float ms = (float)((api_now() - t0) * 1000.0);
    void *slot = NULL;
    memcpy(&slot, &ms, sizeof ms);
    j->values[j->wall_idx] = slot;
}

/* ---- images ----------------------------------------------------------------- */

typedef enum img_kind { IMG_PTX, IMG_ELF, IMG_FATBIN, IMG_UNKNOWN } img_kind;

static img_kind image_kind(const void *image)
{
    const uint8_t *b = image;
    if (b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') return IMG_ELF;
    if ((b[0] == 0x50 || b[0] == 0xB1) && api_fatbin_is(image)) return IMG_FATBIN;
    /* PTX is text: no control characters but white space before the first
    ** NUL (bytes above 0x7f are allowed: comments may be UTF-8) */
    size_t i = 0;
    for (; b[i] && i < 4096; i++)
        if (b[i] < 0x20 && b[i] != '\n' && b[i] != '\r' && b[i] != '\t' && b[i] != '\f' && b[i] != '\v')
            return IMG_UNKNOWN;
    return i ? IMG_PTX : IMG_UNKNOWN;
}

/* An ELF image (the first 20 bytes at least: an in-memory image is read no
** further than e_machine, a file has zero padding after it): true for a CUDA
** cubin (e_machine EM_CUDA, 190); otherwise *what says what it is instead,
** e.g. "an ELF shared object for x86-64" (a host executable, a shared
** library, an object file). */
static bool elf_describe(const void *image, char *what, size_t n)
{
    const uint8_t *b = image;
    if ((b[4] != 1 && b[4] != 2) || (b[5] != 1 && b[5] != 2)) {
        /* EI_CLASS and EI_DATA: no header to read further */
        snprintf(what, n, "an ELF file with a damaged header");
        return false;
    }
    bool big = b[5] == 2;   /* EI_DATA: 1 little-endian, 2 big-endian */
    unsigned type = big ? (unsigned)b[16] << 8 | b[17] : (unsigned)b[17] << 8 | b[16];
    unsigned mach = big ? (unsigned)b[18] << 8 | b[19] : (unsigned)b[19] << 8 | b[18];
    if (mach == 190) return true;
    static const char *const types[] = {
        "an ELF file of no type",
        "an ELF relocatable object",
        "an ELF executable",
        "an ELF shared object (a library or a position-independent executable)",
        "an ELF core dump",
    };
    static const struct { unsigned m; const char *name; } machines[] = {
        {0, "no machine"}, {3, "i386"}, {8, "MIPS"}, {20, "PowerPC"}, {21, "PowerPC 64"}, {22, "S/390"},
        {40, "ARM"}, {62, "x86-64"}, {183, "AArch64"}, {224, "AMD GPU"}, {243, "RISC-V"}, {258, "LoongArch"}};
    const char *t = type < TP_ARRAY_LEN(types) ? types[type] : "an ELF file";
    for (size_t i = 0; i < TP_ARRAY_LEN(machines); i++)
        if (machines[i].m == mach) {
            snprintf(what, n, "%s for %s", t, machines[i].name);
            return false;
        }
    snprintf(what, n, "%s for machine %u", t, mach);
    return false;
}

/* Fails a load: prints the message and copies it to the JIT error log. */
static CUresult load_fail(jit_opts *j, CUresult r, const char *msg)
{
    api_msg("%s", msg);
    api_why("%s", msg);
    jit_log(j, true, msg);
    return r;
}

static api_func *func_new(api_mod *m, int kidx)
{
    api_func *f = tp_calloc(1, sizeof *f);
    f->mod = m;
    f->kidx = kidx;
    f->pf = &m->pm->funcs[kidx];
    exec_kernel_attrs(m->em, kidx, &f->attr);
    int64_t limit = api_opt(OPT_DEVICE_SHARED_PER_BLOCK) - (int64_t)f->attr.shared_static;
    f->max_dyn_shared = limit > 0 ? (uint32_t)limit : 0;
    f->carveout = CU_SHAREDMEM_CARVEOUT_DEFAULT;
    api_handle_add(f, API_K_FUNC);
    return f;
}

/* Loads PTX text of len bytes into context c; cub (NULL: none) holds the
** register counts of the program's cubin for the device (regs.cubin). */
static CUresult load_ptx(api_ctx *c, const char *ptx, size_t len, const char *name, jit_opts *j,
                         const api_cubin_regs *cub, api_mod **out)
{
    double t0 = api_now();
    tp_err e;
    tp_err_clear(&e);
    exec_status st = EXEC_OK;
    api_dev_lock();
    exec_mod *em = exec_mod_load(api_g.dev, ptx, len, name, &st, &e);
    api_dev_unlock();
    jit_wall(j, t0);
    if (!em) {
        bool sticky;
        CUresult r = api_status_result(st, &sticky);
        if (r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_SUCCESS) r = CUDA_ERROR_INVALID_PTX;
        return load_fail(j, r, e.msg[0] ? e.msg : exec_status_name(st));
    }
    api_mod *m = tp_calloc(1, sizeof *m);
    m->ctx = c;
    m->em = em;
    m->pm = exec_mod_ptx(em);
    /* ptxas's counts where the program carries a cubin the device could run:
    ** the card would run that code, with those registers */
    uint32_t from_cubin = 0;
    for (uint32_t i = 0; cub && i < m->pm->nfuncs; i++) {
        const ptx_func *pf = &m->pm->funcs[i];
        uint32_t regs = pf->is_entry && !pf->is_decl ? api_cubin_regs_of(cub, pf->name) : 0;
        if (regs && exec_kernel_set_regs(em, (int)i, regs, cub->sm)) from_cubin++;
    }
    /* the module's variables join the index copies are checked against */
    for (uint32_t i = 0; i < m->pm->nvars; i++) {
        uint64_t a, n;
        if (m->pm->vars[i].name && exec_mod_global(em, m->pm->vars[i].name, &a, &n)) api_range_add(a, n, NULL);
    }
    m->funcs = tp_calloc(m->pm->nfuncs ? m->pm->nfuncs : 1, sizeof *m->funcs);
    for (uint32_t i = 0; i < m->pm->nfuncs; i++) {
        const ptx_func *pf = &m->pm->funcs[i];
        if (!pf->is_entry || pf->is_decl) continue;
        int k = exec_mod_kernel(em, pf->name);
        if (k >= 0) m->funcs[m->nfuncs++] = func_new(m, k);
    }
    m->prev = NULL;
    m->next = c->mods;
    if (c->mods) c->mods->prev = m;
    c->mods = m;
    api_handle_add(m, API_K_MOD);
    char info[256];
    int at = snprintf(info, sizeof info, "tpsim: loaded %s: PTX ISA %u.%u, sm_%u, %u kernel%s", name,
                      m->pm->version_major, m->pm->version_minor, m->pm->target_sm, m->nfuncs, m->nfuncs == 1 ? "" : "s");
    if (from_cubin && at > 0 && (size_t)at < sizeof info)
        snprintf(info + at, sizeof info - (size_t)at, "; register counts of %u from its sm_%u cubin", from_cubin, cub->sm);
    jit_log(j, false, info);
    jit_log(j, true, "");
    *out = m;
    return CUDA_SUCCESS;
}

/* The CUDA error for a fatbinary without usable PTX. */
static CUresult fatbin_result(api_fatbin_err fe)
{
    return fe == API_FATBIN_CORRUPT || fe == API_FATBIN_NOT_FATBIN ? CUDA_ERROR_INVALID_IMAGE
                                                                 : CUDA_ERROR_NO_BINARY_FOR_GPU;
}

/* Loads an in-memory image (PTX, or a fatbinary holding PTX). */
static CUresult load_image(api_ctx *c, const void *image, size_t size, const char *name, jit_opts *j, api_mod **out)
{
    char msg[512];
    switch (image_kind(image)) {
    case IMG_PTX: return load_ptx(c, image, strlen(image), name, j, NULL, out);
    case IMG_FATBIN: {
        size_t len = 0;
        char *why = NULL;
        unsigned sm;
        api_fatbin_err fe;
        char *ptx = api_fatbin_ptx(image, size, exec_dev_cc(api_g.dev), &len, &sm, &why, &fe);
        if (!ptx) {
            snprintf(msg, sizeof msg, "%s: %s", name, why ? why : "fatbinary without usable PTX");
            free(why);
            return load_fail(j, fatbin_result(fe), msg);
        }
        api_cubin_regs cub;
        bool have = api_opt(OPT_REGS_CUBIN) && api_fatbin_cubin_regs(image, size, exec_dev_cc(api_g.dev), &cub);
        CUresult r = load_ptx(c, ptx, len, name, j, have ? &cub : NULL, out);
        if (have) api_cubin_regs_free(&cub);
        free(ptx);
        return r;
    }
    case IMG_ELF: {
        char what[128];
        if (elf_describe(image, what, sizeof what)) {
            snprintf(msg, sizeof msg,
                     "%s: this is a cubin (compiled GPU machine code); tpsim simulates PTX only -- "
                     "load the PTX instead (nvcc -ptx, or a fatbinary that embeds PTX)",
                     name);
            return load_fail(j, CUDA_ERROR_NO_BINARY_FOR_GPU, msg);
        }
        snprintf(msg, sizeof msg,
                 "%s: this is %s, not a GPU module (PTX, a fatbinary or a cubin); tpsim loads PTX, or a "
                 "fatbinary that embeds PTX",
                 name, what);
        return load_fail(j, CUDA_ERROR_INVALID_IMAGE, msg);
    }
    case IMG_UNKNOWN: break;
    }
    snprintf(msg, sizeof msg, "%s: not a PTX, cubin or fatbinary image", name);
    return load_fail(j, CUDA_ERROR_INVALID_IMAGE, msg);
}

/* Reads a whole file, followed by 16 zero bytes. */
static char *read_file(const char *path, size_t *len, CUresult *r)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *r = errno == ENOENT || errno == ENOTDIR ? CUDA_ERROR_FILE_NOT_FOUND : CUDA_ERROR_OPERATING_SYSTEM;
        return NULL;
    }
    tp_sbuf b;
    tp_sbuf_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) tp_sbuf_put(&b, chunk, n);
    bool err = ferror(f);
    fclose(f);
    if (err) {
        tp_sbuf_free(&b);
        *r = CUDA_ERROR_OPERATING_SYSTEM;
        return NULL;
    }
    /* zero padding past the end, so that recognising a short file never
    ** reads outside the buffer */
    static const char pad[16];
    *len = b.len;
    tp_sbuf_put(&b, pad, sizeof pad);
    return tp_sbuf_take(&b);
}

static CUresult load_file(api_ctx *c, const char *path, jit_opts *j, api_mod **out)
{
    size_t len;
    CUresult r;
    char *data = read_file(path, &len, &r);
    if (!data) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s: cannot read the module file (%s)", path, strerror(errno));
        return load_fail(j, r, msg);
    }
    if (len == 0) {
        free(data);
        char msg[512];
        snprintf(msg, sizeof msg, "%s: an empty file is not a module image", path);
        return load_fail(j, CUDA_ERROR_INVALID_IMAGE, msg);
    }
    /* PTX text ends at the first NUL, as cuModuleLoadData's does */
    r = image_kind(data) == IMG_PTX ? load_ptx(c, data, strlen(data), path, j, NULL, out) : load_image(c, data, len, path, j, out);
    free(data);
    return r;
}

void api_mod_destroy(api_mod *m)
{
    api_ctx *c = m->ctx;
    api_drain(c);   /* no pending kernel of it may run after this */
    for (uint32_t i = 0; i < m->pm->nvars; i++) {
        uint64_t a, n;
        if (m->pm->vars[i].name && exec_mod_global(m->em, m->pm->vars[i].name, &a, &n)) api_range_del(a);
    }
    if (m->prev) m->prev->next = m->next;
    else c->mods = m->next;
    if (m->next) m->next->prev = m->prev;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        api_handle_del(m->funcs[i]);
        free(m->funcs[i]);
    }
    free(m->funcs);
    if (m->lib) m->lib->mod = NULL;
    api_dev_lock();
    exec_mod_unload(m->em);
    api_dev_unlock();
    api_handle_del(m);
    free(m);
}

/* ---- module entry points ---------------------------------------------------- */

static CUresult module_load(CUmodule *pm, const char *fname)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!pm || !fname) return CUDA_ERROR_INVALID_VALUE;
    jit_opts j;
    jit_parse(&j, 0, NULL, NULL);
    return load_file(c, fname, &j, pm);
}

CUresult cuModuleLoad(CUmodule *module, const char *fname) { API_LOCKED(module_load(module, fname)); }

static CUresult module_load_data(CUmodule *pm, const void *image, unsigned n, CUjit_option *opt, void **val,
                                 const char *name)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    jit_opts j;
    if ((r = jit_parse(&j, n, opt, val))) return r;
    if (!pm || !image) return CUDA_ERROR_INVALID_VALUE;
    return load_image(c, image, SIZE_MAX, name, &j, pm);
}

/* The name a module loaded from memory goes by in error messages: the
** program's PTX, as "prog: PTX image", so a fault reads "at prog: PTX image:LINE". */
static const char *image_name(void)
{
    static char buf[256];
    if (!buf[0]) snprintf(buf, sizeof buf, "%s: PTX image", program_invocation_short_name);
    return buf;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    API_LOCKED(module_load_data(module, image, 0, NULL, NULL, image_name()));
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues)
{
    API_LOCKED(module_load_data(module, image, numOptions, options, optionValues, image_name()));
}

static CUresult module_load_fatbin(CUmodule *pm, const void *fatCubin)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    if (!pm || !fatCubin) return CUDA_ERROR_INVALID_VALUE;
    jit_opts j;
    jit_parse(&j, 0, NULL, NULL);
    if (image_kind(fatCubin) != IMG_FATBIN)
        return load_fail(&j, CUDA_ERROR_INVALID_IMAGE, "cuModuleLoadFatBinary: the image is not a fatbinary");
    return load_image(c, fatCubin, SIZE_MAX, image_name(), &j, pm);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) { API_LOCKED(module_load_fatbin(module, fatCubin)); }

static CUresult module_arg(CUmodule h, api_mod **m)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_MOD)) return CUDA_ERROR_INVALID_HANDLE;
    *m = h;
    return CUDA_SUCCESS;
}

static CUresult module_unload(CUmodule h)
{
    api_mod *m;
    CUresult r = module_arg(h, &m);
    if (r) return r;
    if (m->lib) return CUDA_ERROR_INVALID_HANDLE;   /* owned by a library: cuLibraryUnload */
    api_mod_destroy(m);
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule hmod) { API_LOCKED(module_unload(hmod)); }

static CUresult loading_mode(CUmoduleLoadingMode *mode)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!mode) return CUDA_ERROR_INVALID_VALUE;
    *mode = CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode) { API_LOCKED(loading_mode(mode)); }

static api_func *find_func(const api_mod *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i]->pf->name, name) == 0) return m->funcs[i];
    return NULL;
}

static CUresult get_function(CUfunction *pf, CUmodule h, const char *name)
{
    api_mod *m;
    CUresult r = module_arg(h, &m);
    if (r) return r;
    if (!pf || !name) return CUDA_ERROR_INVALID_VALUE;
    api_func *f = find_func(m, name);
    if (!f) {
        api_why("the module has no kernel named '%s'", name);
        return CUDA_ERROR_NOT_FOUND;
    }
    *pf = f;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    API_LOCKED(get_function(hfunc, hmod, name));
}

static CUresult function_count(unsigned *count, CUmodule h)
{
    api_mod *m;
    CUresult r = module_arg(h, &m);
    if (r) return r;
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    *count = m->nfuncs;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod) { API_LOCKED(function_count(count, mod)); }

static CUresult enumerate_functions(CUfunction *fs, unsigned n, CUmodule h)
{
    api_mod *m;
    CUresult r = module_arg(h, &m);
    if (r) return r;
    if (!fs || n > m->nfuncs) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) fs[i] = m->funcs[i];
    return CUDA_SUCCESS;
}

CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
    API_LOCKED(enumerate_functions(functions, numFunctions, mod));
}

static CUresult get_global(CUdeviceptr *dptr, size_t *bytes, api_mod *m, const char *name)
{
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    uint64_t a, n;
    if (!exec_mod_global(m->em, name, &a, &n)) {
        api_why("the module has no variable named '%s'", name);
        return CUDA_ERROR_NOT_FOUND;
    }
    if (dptr) *dptr = a;
    if (bytes) *bytes = (size_t)n;
    return CUDA_SUCCESS;
}

static CUresult module_global(CUdeviceptr *dptr, size_t *bytes, CUmodule h, const char *name)
{
    api_mod *m;
    CUresult r = module_arg(h, &m);
    return r ? r : get_global(dptr, bytes, m, name);
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    API_LOCKED(module_global(dptr, bytes, hmod, name));
}

/* ---- functions ---------------------------------------------------------------- */

CUresult api_func_arg(CUfunction h, api_func **f)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_FUNC)) {
        api_why(h ? "the function handle is not a kernel of a loaded module" : "the function handle is NULL");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    *f = h;
    return CUDA_SUCCESS;
}

static CUresult func_attribute(int *pi, CUfunction_attribute a, api_func *f)
{
    if (!pi) return CUDA_ERROR_INVALID_VALUE;
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = (int)f->attr.max_threads; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)f->attr.shared_static; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)f->attr.const_bytes; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)f->attr.local_bytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = (int)f->attr.regs_code; break;
    /* the virtual architecture the PTX was compiled for (.target sm_75: 75),
    ** as NVIDIA's driver reports it -- not the PTX ISA version; CUB picks
    ** its tuning policy (and the kernels compiled for it) by this value */
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = (int)f->attr.binary_version; break;
    /* PTX is compiled for the device it runs on */
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = (int)exec_dev_cc(api_g.dev); break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = (int)f->max_dyn_shared; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = f->carveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = (int)f->pf->reqnctapercluster[0]; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = (int)f->pf->reqnctapercluster[1]; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = (int)f->pf->reqnctapercluster[2]; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult func_get_attribute(int *pi, CUfunction_attribute a, CUfunction h)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    return r ? r : func_attribute(pi, a, f);
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    API_LOCKED(func_get_attribute(pi, attrib, hfunc));
}

static CUresult func_set(api_func *f, CUfunction_attribute a, int v)
{
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: {
        /* a kernel opts in to more than device.shared_per_block */
        int64_t limit = exec_opt_shared_optin(&api_g.opts) - (int64_t)f->attr.shared_static;
        if (v < 0 || v > limit) {
            api_why("%d bytes of dynamic shared memory: the kernel (%u static bytes) may use at most %lld "
                    "(%s limit device.shared_per_block_optin = %lld)",
                    v, f->attr.shared_static, (long long)limit, tp_opt_s(&api_g.opts, OPT_DEVICE_ARCH),
                    (long long)exec_opt_shared_optin(&api_g.opts));
            return CUDA_ERROR_INVALID_VALUE;
        }
        f->max_dyn_shared = (uint32_t)v;
        return CUDA_SUCCESS;
    }
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (v < -1 || v > 100) return CUDA_ERROR_INVALID_VALUE;
        f->carveout = v;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        return CUDA_ERROR_NOT_SUPPORTED;   /* no thread block clusters below compute capability 9.0 */
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

static CUresult func_set_attribute(CUfunction h, CUfunction_attribute a, int v)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    return r ? r : func_set(f, a, v);
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    API_LOCKED(func_set_attribute(hfunc, attrib, value));
}

static CUresult func_cache(CUfunction h, CUfunc_cache cfg)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if ((unsigned)cfg > CU_FUNC_CACHE_PREFER_EQUAL) return CUDA_ERROR_INVALID_VALUE;
    f->cache_cfg = cfg;
    return CUDA_SUCCESS;
}

CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) { API_LOCKED(func_cache(hfunc, config)); }

static CUresult func_shmem(CUfunction h, CUsharedconfig cfg)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if ((unsigned)cfg > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) return CUDA_ERROR_INVALID_VALUE;
    f->shmem_cfg = cfg;
    return CUDA_SUCCESS;
}

CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config) { API_LOCKED(func_shmem(hfunc, config)); }

static CUresult func_module(CUmodule *pm, CUfunction h)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if (!pm) return CUDA_ERROR_INVALID_VALUE;
    *pm = f->mod;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc) { API_LOCKED(func_module(hmod, hfunc)); }

static CUresult func_name(const char **name, CUfunction h)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    *name = f->pf->name;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetName(const char **name, CUfunction hfunc) { API_LOCKED(func_name(name, hfunc)); }

static CUresult param_info(CUfunction h, size_t i, size_t *off, size_t *size)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if (i >= f->pf->nparams || (!off && !size)) return CUDA_ERROR_INVALID_VALUE;
    if (off) *off = f->pf->params[i].offset;
    if (size) *size = f->pf->params[i].size;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    API_LOCKED(param_info(func, paramIndex, paramOffset, paramSize));
}

static CUresult func_loaded(CUfunctionLoadingState *st, CUfunction h)
{
    api_func *f;
    CUresult r = api_func_arg(h, &f);
    if (r) return r;
    if (!st) return CUDA_ERROR_INVALID_VALUE;
    *st = CU_FUNCTION_LOADING_STATE_LOADED;
    return CUDA_SUCCESS;
}

CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function) { API_LOCKED(func_loaded(state, function)); }

static CUresult func_load(CUfunction h)
{
    api_func *f;
    return api_func_arg(h, &f);
}

CUresult cuFuncLoad(CUfunction function) { API_LOCKED(func_load(function)); }

/* ---- the JIT linker ------------------------------------------------------------
** Each PTX input (or the PTX of a fatbinary input) is checked when it is
** added, as the JIT compiles it then; cuLinkComplete links them
** (api_ptx_link: one module's .extern declarations resolve to another's
** definitions) and hands the linked PTX back as the "cubin". */

struct CUlinkState_st {
    api_ctx *ctx;
    char **ptx;          /* the inputs */
    size_t *len;
    char **names;
    unsigned n;
    char *linked;        /* cuLinkComplete's result */
    jit_opts jit;
};

static CUresult link_create(unsigned n, CUjit_option *opt, void **val, CUlinkState *out)
{
    api_ctx *c;
    CUresult r = api_current(&c, true);
    if (r) return r;
    jit_opts j;
    if ((r = jit_parse(&j, n, opt, val))) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    struct CUlinkState_st *s = tp_calloc(1, sizeof *s);
    s->ctx = c;
    s->jit = j;
    api_handle_add(s, API_K_LINK);
    *out = s;
    return CUDA_SUCCESS;
}

CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut)
{
    API_LOCKED(link_create(numOptions, options, optionValues, stateOut));
}
API_ALIAS(cuLinkCreate_v2, "cuLinkCreate");

/* Adds one input given as bytes (data, size) or, when path is set, a file. */
static CUresult link_add(CUlinkState s, CUjitInputType type, const void *data, size_t size, const char *path,
                         const char *dname, unsigned n, CUjit_option *opt, void **val)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(s, API_K_LINK) || s->ctx->dead) return CUDA_ERROR_INVALID_HANDLE;
    jit_opts j;
    if ((r = jit_parse(&j, n, opt, val))) return r;
    if (!path && (!data || size == 0)) return CUDA_ERROR_INVALID_VALUE;
    if ((unsigned)type >= CU_JIT_NUM_INPUT_TYPES) return CUDA_ERROR_INVALID_VALUE;
    char *buf = NULL;
    size_t len = size;
    if (path) {
        buf = read_file(path, &len, &r);
        if (!buf) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s: cannot read the linker input", path);
            return load_fail(&s->jit, r, msg);
        }
    } else {
        buf = tp_malloc(size + 1);
        memcpy(buf, data, size);
        buf[size] = '\0';
        /* PTX inputs usually count their NUL; other images are binary */
        len = type == CU_JIT_INPUT_PTX ? strnlen(buf, size) : size;
    }
    const char *name = path ? path : dname && *dname ? dname : "cuLinkAddData";
    if (type == CU_JIT_INPUT_FATBINARY && api_fatbin_is(buf)) {
        char *why = NULL;
        unsigned sm;
        api_fatbin_err fe;
        size_t all = len;
        char *ptx = api_fatbin_ptx(buf, len, exec_dev_cc(api_g.dev), &len, &sm, &why, &fe);
        if (api_cdp_is_devrt(buf, all, ptx)) {
            /* the CUDA device runtime (libcudadevrt): tpsim provides its entry
            ** points itself (exec/cdp.c), whatever target its PTX has */
            free(buf);
            free(ptx);
            free(why);
            jit_log(&s->jit, false, "tpsim: the CUDA device runtime (libcudadevrt) is provided by tpsim");
            return CUDA_SUCCESS;
        }
        free(buf);
        if (!ptx) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s: %s", name, why ? why : "fatbinary without usable PTX");
            free(why);
            return load_fail(&s->jit, fatbin_result(fe), msg);
        }
        buf = ptx;
    } else if (type != CU_JIT_INPUT_PTX) {
        free(buf);
        api_msg("%s: the JIT linker takes PTX input only (input type %d)", name, (int)type);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (s->linked) {
        free(buf);
        api_msg("%s: the link is already complete", name);
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* Check the PTX now, as the JIT compiles it here. */
    api_mod *m;
    jit_opts both = s->jit;
    if (j.error) both.error = j.error, both.error_size = j.error_size, both.error_size_idx = j.error_size_idx,
                 both.values = j.values;
    if ((r = load_ptx(s->ctx, buf, len, name, &both, NULL, &m))) {
        free(buf);
        return r;
    }
    api_mod_destroy(m);
    s->ptx = tp_realloc(s->ptx, (s->n + 1) * sizeof *s->ptx);
    s->len = tp_realloc(s->len, (s->n + 1) * sizeof *s->len);
    s->names = tp_realloc(s->names, (s->n + 1) * sizeof *s->names);
    s->ptx[s->n] = buf;
    s->len[s->n] = len;
    s->names[s->n] = tp_strdup(name);
    s->n++;
    return CUDA_SUCCESS;
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                          unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    API_LOCKED(link_add(state, type, data, size, NULL, name, numOptions, options, optionValues));
}
API_ALIAS(cuLinkAddData_v2, "cuLinkAddData");

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                          CUjit_option *options, void **optionValues)
{
    if (!path) return api_g.initialized ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
    API_LOCKED(link_add(state, type, NULL, 0, path, NULL, numOptions, options, optionValues));
}
API_ALIAS(cuLinkAddFile_v2, "cuLinkAddFile");

static CUresult link_complete(CUlinkState s, void **out, size_t *size)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(s, API_K_LINK)) return CUDA_ERROR_INVALID_HANDLE;
    if (!out || !size) return CUDA_ERROR_INVALID_VALUE;
    if (!s->n) {
        api_msg("cuLinkComplete: nothing was added to the link");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!s->linked) {
        if (s->n == 1) {
            s->linked = tp_strndup(s->ptx[0], s->len[0]);
        } else {
            char *why = NULL;
            char *ptx = api_ptx_link((const char *const *)s->ptx, s->len, (const char *const *)s->names, s->n, &why);
            if (!ptx) {
                char msg[600];
                snprintf(msg, sizeof msg, "cuLinkComplete: %s", why ? why : "the link failed");
                free(why);
                return load_fail(&s->jit, CUDA_ERROR_INVALID_PTX, msg);
            }
            /* the linked module must load as one */
            api_mod *m;
            CUresult r2 = load_ptx(s->ctx, ptx, strlen(ptx), "cuLinkComplete", &s->jit, NULL, &m);
            if (r2) {
                free(ptx);
                return r2;
            }
            api_mod_destroy(m);
            s->linked = ptx;
        }
    }
    *out = s->linked;
    *size = strlen(s->linked) + 1;
    return CUDA_SUCCESS;
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    API_LOCKED(link_complete(state, cubinOut, sizeOut));
}

static CUresult link_destroy(CUlinkState s)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(s, API_K_LINK)) return CUDA_ERROR_INVALID_HANDLE;
    api_handle_del(s);
    for (unsigned i = 0; i < s->n; i++) {
        free(s->ptx[i]);
        free(s->names[i]);
    }
    free(s->ptx);
    free(s->len);
    free(s->names);
    free(s->linked);
    free(s);
    return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState state) { API_LOCKED(link_destroy(state)); }

/* ---- libraries -----------------------------------------------------------------
** A library is loaded at once into the current context, or into the primary
** context (retained until cuLibraryUnload) when none is current.  Its
** kernels (CUkernel) are the CUfunctions of that module. */

static CUresult lib_load(CUlibrary *pl, const void *code, const char *path, CUjit_option *jo, void **jv,
                         unsigned nj, CUlibraryOption *lo, void **lv, unsigned nl)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!pl || (!code && !path)) return CUDA_ERROR_INVALID_VALUE;
    if (nl && (!lo || !lv)) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < nl; i++)
        if ((unsigned)lo[i] >= CU_LIBRARY_NUM_OPTIONS) return CUDA_ERROR_INVALID_VALUE;
    jit_opts j;
    if ((r = jit_parse(&j, nj, jo, jv))) return r;
    api_ctx *c;
    bool retained = false;
    r = api_current(&c, true);
    if (r == CUDA_ERROR_INVALID_CONTEXT) {
        if ((r = api_primary_retain(&c))) return r;
        retained = true;
    } else if (r) {
        return r;
    }
    api_mod *m;
    r = path ? load_file(c, path, &j, &m) : load_image(c, code, SIZE_MAX, "cuLibraryLoadData", &j, &m);
    if (r) {
        if (retained) api_primary_release();
        return r;
    }
    api_lib *l = tp_calloc(1, sizeof *l);
    l->mod = m;
    l->retained_primary = retained;
    m->lib = l;
    api_handle_add(l, API_K_LIB);
    *pl = l;
    return CUDA_SUCCESS;
}

CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions, void **jitOptionsValues,
                           unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues,
                           unsigned int numLibraryOptions)
{
    API_LOCKED(lib_load(library, code, NULL, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                        libraryOptionValues, numLibraryOptions));
}

CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                               void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions,
                               void **libraryOptionValues, unsigned int numLibraryOptions)
{
    if (!fileName) return api_g.initialized ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
    API_LOCKED(lib_load(library, NULL, fileName, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                        libraryOptionValues, numLibraryOptions));
}

/* The library's module, or CONTEXT_IS_DESTROYED when its context went away. */
static CUresult lib_arg(CUlibrary h, api_lib **l)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_LIB)) return CUDA_ERROR_INVALID_HANDLE;
    *l = h;
    return h->mod ? CUDA_SUCCESS : CUDA_ERROR_CONTEXT_IS_DESTROYED;
}

static CUresult lib_unload(CUlibrary h)
{
    CUresult r = api_check_init();
    if (r) return r;
    if (!api_handle_is(h, API_K_LIB)) return CUDA_ERROR_INVALID_HANDLE;
    if (h->mod) {
        h->mod->lib = NULL;
        api_mod_destroy(h->mod);
    }
    if (h->retained_primary && !api_g.primary.dead) api_primary_release();
    api_handle_del(h);
    free(h);
    return CUDA_SUCCESS;
}

CUresult cuLibraryUnload(CUlibrary library) { API_LOCKED(lib_unload(library)); }

static CUresult lib_kernel(CUkernel *pk, CUlibrary h, const char *name)
{
    api_lib *l;
    CUresult r = lib_arg(h, &l);
    if (r) return r;
    if (!pk || !name) return CUDA_ERROR_INVALID_VALUE;
    api_func *f = find_func(l->mod, name);
    if (!f) return CUDA_ERROR_NOT_FOUND;
    *pk = (CUkernel)(void *)f;
    return CUDA_SUCCESS;
}

CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    API_LOCKED(lib_kernel(pKernel, library, name));
}

static CUresult lib_kernel_count(unsigned *count, CUlibrary h)
{
    api_lib *l;
    CUresult r = lib_arg(h, &l);
    if (r) return r;
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    *count = l->mod->nfuncs;
    return CUDA_SUCCESS;
}

CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib) { API_LOCKED(lib_kernel_count(count, lib)); }

static CUresult lib_enumerate(CUkernel *ks, unsigned n, CUlibrary h)
{
    api_lib *l;
    CUresult r = lib_arg(h, &l);
    if (r) return r;
    if (!ks || n > l->mod->nfuncs) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) ks[i] = (CUkernel)(void *)l->mod->funcs[i];
    return CUDA_SUCCESS;
}

CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
    API_LOCKED(lib_enumerate(kernels, numKernels, lib));
}

static CUresult lib_module(CUmodule *pm, CUlibrary h)
{
    api_lib *l;
    CUresult r = lib_arg(h, &l);
    if (r) return r;
    if (!pm) return CUDA_ERROR_INVALID_VALUE;
    *pm = l->mod;
    return CUDA_SUCCESS;
}

CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library) { API_LOCKED(lib_module(pMod, library)); }

static CUresult lib_global(CUdeviceptr *dptr, size_t *bytes, CUlibrary h, const char *name)
{
    api_lib *l;
    CUresult r = lib_arg(h, &l);
    return r ? r : get_global(dptr, bytes, l->mod, name);
}

CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    API_LOCKED(lib_global(dptr, bytes, library, name));
}

/* A CUkernel: a function that belongs to a library. */
static CUresult kernel_arg(CUkernel k, api_func **f)
{
    CUresult r = api_func_arg((CUfunction)(void *)k, f);
    if (r) return r;
    return (*f)->mod->lib ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult kernel_function(CUfunction *pf, CUkernel k)
{
    api_func *f;
    CUresult r = kernel_arg(k, &f);
    if (r) return r;
    if (!pf) return CUDA_ERROR_INVALID_VALUE;
    *pf = f;
    return CUDA_SUCCESS;
}

CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel) { API_LOCKED(kernel_function(pFunc, kernel)); }

static CUresult kernel_library(CUlibrary *pl, CUkernel k)
{
    api_func *f;
    CUresult r = kernel_arg(k, &f);
    if (r) return r;
    if (!pl) return CUDA_ERROR_INVALID_VALUE;
    *pl = f->mod->lib;
    return CUDA_SUCCESS;
}

CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel) { API_LOCKED(kernel_library(pLib, kernel)); }

static CUresult kernel_get_attribute(int *pi, CUfunction_attribute a, CUkernel k, CUdevice dev)
{
    api_func *f;
    CUresult r = kernel_arg(k, &f);
    if (r) return r;
    if ((r = api_check_dev(dev))) return r;
    return func_attribute(pi, a, f);
}

CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
    API_LOCKED(kernel_get_attribute(pi, attrib, kernel, dev));
}

static CUresult kernel_set_attribute(CUfunction_attribute a, int v, CUkernel k, CUdevice dev)
{
    api_func *f;
    CUresult r = kernel_arg(k, &f);
    if (r) return r;
    if ((r = api_check_dev(dev))) return r;
    return func_set(f, a, v);
}

CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
    API_LOCKED(kernel_set_attribute(attrib, val, kernel, dev));
}

static CUresult kernel_cache(CUkernel k, CUfunc_cache cfg, CUdevice dev)
{
    api_func *f;
    CUresult r = kernel_arg(k, &f);
    if (r) return r;
    if ((r = api_check_dev(dev))) return r;
    return func_cache((CUfunction)f, cfg);
}

CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    API_LOCKED(kernel_cache(kernel, config, dev));
}

static CUresult kernel_name(const char **name, CUkernel k)
{
    api_func *f;
    CUresult r = kernel_arg(k, &f);
    if (r) return r;
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    *name = f->pf->name;
    return CUDA_SUCCESS;
}

CUresult cuKernelGetName(const char **name, CUkernel hfunc) { API_LOCKED(kernel_name(name, hfunc)); }

static CUresult kernel_param_info(CUkernel k, size_t i, size_t *off, size_t *size)
{
    api_func *f;
    CUresult r = kernel_arg(k, &f);
    return r ? r : param_info((CUfunction)f, i, off, size);
}

CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    API_LOCKED(kernel_param_info(kernel, paramIndex, paramOffset, paramSize));
}
