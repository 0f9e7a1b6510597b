/*
** t_module.c -- loading modules (PTX text, files, fatbinaries, cubins and
** garbage), JIT logs, functions and their attributes, globals, the JIT
** linker and libraries.  Runs with the default configuration (device.cc 7.5).
**
**   t_module [FATBIN...]   also loads each fatbinary file given (run_api.sh
**                          passes ones nvcc made, when nvcc is installed);
**                          compressed ones (nvcc's default) included
*/
#include "api_test.h"
#include <unistd.h>

static CUcontext ctx;

/* Globals, constants and a kernel that reads them. */
static const char ptx_globals[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .global .align 4 .u32 gcount = 7;\n"
    ".visible .const .align 4 .f32 cvals[4] = {0f3F800000, 0f40000000, 0f40400000, 0f40800000};\n"
    ".visible .global .align 8 .u64 gtable[3];\n"
    ".visible .entry first(.param .u64 p)\n"
    "{\n"
    "    ret;\n"
    "}\n"
    ".visible .entry second()\n"
    "{\n"
    "    ret;\n"
    "}\n";

/* An unknown instruction on line 6. */
static const char ptx_bad[] =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry bad()\n"
    "{\n"
    "    frobnicate.u32 %r1;\n"
    "    ret;\n"
    "}\n";

/* A newer target than the default device (compute capability 7.5). */
static const char ptx_sm90[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry k90()\n"
    "{\n"
    "    ret;\n"
    "}\n";

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* A fatbinary with one entry (layout in api/fatbin.h): kind 1 PTX / 2 ELF,
** target sm, flags (0x8000: compressed).  Returns the malloc'ed image. */
static uint8_t *make_fatbin(int kind, uint32_t sm, uint64_t flags, const char *payload, size_t n)
{
    size_t padded = (n + 1 + 7) / 8 * 8, ehs = 80;
    uint8_t *b = calloc(1, 16 + ehs + padded);
    put32(b, 0xBA55ED50u);
    put16(b + 4, 1);
    put16(b + 6, 16);
    put64(b + 8, ehs + padded);
    uint8_t *e = b + 16;
    put16(e, (uint16_t)kind);
    put16(e + 2, 0x0101);
    put32(e + 4, (uint32_t)ehs);
    put64(e + 8, padded);
    put32(e + 28, sm);
    put64(e + 40, flags);
    memcpy(e + ehs, payload, n);
    return b;
}

static void module_load_data(void)
{
    CUmodule m;
    CUfunction f, g;
    OK(cuModuleLoadData(&m, at_ptx_add1));
    OK(cuModuleGetFunction(&f, m, "add1"));
    CK(cuModuleGetFunction(&g, m, "add2"), CUDA_ERROR_NOT_FOUND);
    CK(cuModuleGetFunction(&g, m, NULL), CUDA_ERROR_INVALID_VALUE);
    CK(cuModuleGetFunction(NULL, m, "add1"), CUDA_ERROR_INVALID_VALUE);
    CK(cuModuleGetFunction(&g, (CUmodule)(uintptr_t)0x999, "add1"), CUDA_ERROR_INVALID_HANDLE);
    unsigned n = 0;
    OK(cuModuleGetFunctionCount(&n, m));
    TT_EQ_U(n, 1);
    OK(cuModuleEnumerateFunctions(&g, 1, m));
    TT_CHECK(g == f);
    CK(cuModuleEnumerateFunctions(&g, 2, m), CUDA_ERROR_INVALID_VALUE);
    const char *name = NULL;
    OK(cuFuncGetName(&name, f));
    TT_EQ_STR(name, "add1");
    CUmodule m2 = NULL;
    OK(cuFuncGetModule(&m2, f));
    TT_CHECK(m2 == m);
    /* add1(.param .u64 p_a, .param .u32 p_n): offsets as CUDA lays them out */
    size_t off = 99, size = 99;
    OK(cuFuncGetParamInfo(f, 0, &off, &size));
    TT_EQ_U(off, 0);
    TT_EQ_U(size, 8);
    OK(cuFuncGetParamInfo(f, 1, &off, &size));
    TT_EQ_U(off, 8);
    TT_EQ_U(size, 4);
    CK(cuFuncGetParamInfo(f, 2, &off, &size), CUDA_ERROR_INVALID_VALUE);
    CUfunctionLoadingState st;
    OK(cuFuncIsLoaded(&st, f));
    TT_EQ_I(st, CU_FUNCTION_LOADING_STATE_LOADED);
    OK(cuFuncLoad(f));
    CUmoduleLoadingMode mode;
    OK(cuModuleGetLoadingMode(&mode));
    TT_EQ_I(mode, CU_MODULE_EAGER_LOADING);

    int v = -1;
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    TT_CHECK(v >= 32 && v <= 1024);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, f));
    TT_EQ_I(v, 75);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f));
    TT_EQ_I(v, 75);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    TT_CHECK(v > 0 && v <= 255);   /* the default rtx2060 allows 255 per thread */
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    TT_EQ_I(v, 0);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
    TT_EQ_I(v, 0);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, f));
    TT_EQ_I(v, 0);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    TT_EQ_I(v, 49152);
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024));
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    TT_EQ_I(v, 1024);
    /* a kernel may opt in to the RTX 2060's 64 KB per block, not more */
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536));
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65537), CUDA_ERROR_INVALID_VALUE);
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024));
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f));
    TT_EQ_I(v, -1);
    OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50));
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f));
    TT_EQ_I(v, 50);
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101), CUDA_ERROR_INVALID_VALUE);
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, 8), CUDA_ERROR_INVALID_VALUE);   /* read-only */
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX, f), CUDA_ERROR_INVALID_VALUE);
    CK(cuFuncGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_ERROR_INVALID_VALUE);
    OK(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_L1));
    CK(cuFuncSetCacheConfig(f, (CUfunc_cache)9), CUDA_ERROR_INVALID_VALUE);

    OK(cuModuleUnload(m));
    CK(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_ERROR_INVALID_HANDLE);
    CK(cuModuleLoadData(NULL, at_ptx_add1), CUDA_ERROR_INVALID_VALUE);
    CK(cuModuleLoadData(&m, NULL), CUDA_ERROR_INVALID_VALUE);
}

static void module_jit_log(void)
{
    char err[512], info[512];
    memset(err, 'x', sizeof err);
    CUjit_option opt[5] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                           CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_OPTIMIZATION_LEVEL};
    void *val[5] = {err, (void *)(uintptr_t)sizeof err, info, (void *)(uintptr_t)sizeof info, (void *)(uintptr_t)4};
    CUmodule m;
    CK(cuModuleLoadDataEx(&m, ptx_bad, 5, opt, val), CUDA_ERROR_INVALID_PTX);
    /* "file:line:col: message", the error being on line 6 */
    TT_HAS(err, "PTX image:6:");
    TT_EQ_U((uintptr_t)val[1], strlen(err) + 1);   /* bytes written, NUL included */

    /* a small buffer gets the start of the message */
    char small[10];
    void *sval[2] = {small, (void *)(uintptr_t)sizeof small};
    CK(cuModuleLoadDataEx(&m, ptx_bad, 2, opt, sval), CUDA_ERROR_INVALID_PTX);
    TT_EQ_U(strlen(small), 9);
    TT_CHECK(strncmp(small, err, 9) == 0);

    /* success: an empty error log, an informative info log */
    val[1] = (void *)(uintptr_t)sizeof err;
    val[3] = (void *)(uintptr_t)sizeof info;
    OK(cuModuleLoadDataEx(&m, at_ptx_add1, 5, opt, val));
    TT_EQ_STR(err, "");
    TT_HAS(info, "1 kernel");
    OK(cuModuleUnload(m));

    /* a target above the device */
    val[1] = (void *)(uintptr_t)sizeof err;
    CK(cuModuleLoadDataEx(&m, ptx_sm90, 2, opt, val), CUDA_ERROR_NO_BINARY_FOR_GPU);
    TT_HAS(err, "sm_90");

    CUjit_option bad_opt = (CUjit_option)999;
    void *bad_val = NULL;
    CK(cuModuleLoadDataEx(&m, at_ptx_add1, 1, &bad_opt, &bad_val), CUDA_ERROR_INVALID_VALUE);
    CK(cuModuleLoadDataEx(&m, at_ptx_add1, 1, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    CUjit_option wt = CU_JIT_WALL_TIME;
    void *wv = NULL;
    OK(cuModuleLoadDataEx(&m, at_ptx_add1, 1, &wt, &wv));
    float ms;
    memcpy(&ms, &wv, sizeof ms);
    TT_CHECK(ms >= 0.0f);
    OK(cuModuleUnload(m));
    CK(cuModuleLoadData(&m, ptx_bad), CUDA_ERROR_INVALID_PTX);
}

static const char *write_tmp(const char *tag, const void *data, size_t n)
{
    static char path[8][256];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, 256, "/tmp/tpsim_api_%ld_%s", (long)getpid(), tag);
    FILE *f = fopen(p, "wb");
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
    return p;
}

/* cuModuleLoadDataEx's error log for image (its code must be want). */
static void load_log(const void *image, CUresult want, char *err, size_t n)
{
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {err, (void *)(uintptr_t)n};
    CUmodule m;
    err[0] = 0;
    CK(cuModuleLoadDataEx(&m, image, 2, opt, val), want);
}

/* ELF files that are not cubins -- a host executable, a shared library, an
** object file -- are named as what they are, not "a cubin"; cubins keep
** their advice to load PTX. */
static void module_host_elf(void)
{
    char err[512];
    static const uint8_t cubin[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, [16] = 2, [18] = 190};
    load_log(cubin, CUDA_ERROR_NO_BINARY_FOR_GPU, err, sizeof err);
    TT_HAS(err, "PTX image: this is a cubin (compiled GPU machine code); tpsim simulates PTX only");
    /* an x86-64 shared object (ET_DYN = 3, EM_X86_64 = 62) */
    static const uint8_t so[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [16] = 3, [18] = 62};
    load_log(so, CUDA_ERROR_INVALID_IMAGE, err, sizeof err);
    TT_HAS(err, "PTX image: this is an ELF shared object (a library or a position-independent executable) for "
                "x86-64, not a GPU module (PTX, a fatbinary or a cubin); tpsim loads PTX, or a fatbinary that embeds PTX");
    TT_CHECK(strstr(err, "cubin (") == NULL);
    /* an AArch64 executable (ET_EXEC = 2, EM_AARCH64 = 183), a big-endian relocatable PowerPC 64 object,
    ** an unknown machine, a damaged header */
    static const uint8_t exe[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [16] = 2, [18] = 183};
    load_log(exe, CUDA_ERROR_INVALID_IMAGE, err, sizeof err);
    TT_HAS(err, "this is an ELF executable for AArch64, not a GPU module");
    static const uint8_t obj[64] = {0x7f, 'E', 'L', 'F', 2, 2, 1, 0, [17] = 1, [19] = 21};
    load_log(obj, CUDA_ERROR_INVALID_IMAGE, err, sizeof err);
    TT_HAS(err, "this is an ELF relocatable object for PowerPC 64, not a GPU module");
    static const uint8_t odd[64] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0, [16] = 2, [18] = 0x34, [19] = 0x12};
    load_log(odd, CUDA_ERROR_INVALID_IMAGE, err, sizeof err);
    TT_HAS(err, "this is an ELF executable for machine 4660, not a GPU module");
    static const uint8_t bad[64] = {0x7f, 'E', 'L', 'F', 0, 0};
    load_log(bad, CUDA_ERROR_INVALID_IMAGE, err, sizeof err);
    TT_HAS(err, "this is an ELF file with a damaged header, not a GPU module");
    /* this very program, from its file */
    CUmodule m;
    CK(cuModuleLoad(&m, "/proc/self/exe"), CUDA_ERROR_INVALID_IMAGE);
    const char *so_path = write_tmp("host.so", so, sizeof so);
    CK(cuModuleLoad(&m, so_path), CUDA_ERROR_INVALID_IMAGE);
    unlink(so_path);
}

static void module_files(void)
{
    CUmodule m;
    CUfunction f;
    const char *ptx = write_tmp("add1.ptx", at_ptx_add1, strlen(at_ptx_add1));
    OK(cuModuleLoad(&m, ptx));
    OK(cuModuleGetFunction(&f, m, "add1"));
    OK(cuModuleUnload(m));
    /* a UTF-8 comment, and NULs after the text (as cuLinkComplete's output has) */
    char buf[4096];
    int len = snprintf(buf, sizeof buf, "// caf\xc3\xa9 \xe2\x9c\x93\n%s", at_ptx_add1);
    memset(buf + len, 0, 3);
    const char *ptx2 = write_tmp("utf8.ptx", buf, (size_t)len + 3);
    OK(cuModuleLoad(&m, ptx2));
    OK(cuModuleGetFunction(&f, m, "add1"));
    OK(cuModuleUnload(m));
    OK(cuModuleLoadData(&m, buf));
    OK(cuModuleUnload(m));
    unlink(ptx2);
    CK(cuModuleLoad(&m, "/nonexistent/dir/x.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
    CK(cuModuleLoad(&m, NULL), CUDA_ERROR_INVALID_VALUE);
    /* a cubin: ELF for EM_CUDA (190), ET_EXEC, as nvcc -cubin writes it */
    static const uint8_t elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, [16] = 2, [18] = 190};
    const char *cubin = write_tmp("k.cubin", elf, sizeof elf);
    CK(cuModuleLoad(&m, cubin), CUDA_ERROR_NO_BINARY_FOR_GPU);
    static const uint8_t junk[16] = {0x01, 0x02, 0xff, 0x00, 0x13};
    const char *bin = write_tmp("junk.bin", junk, sizeof junk);
    CK(cuModuleLoad(&m, bin), CUDA_ERROR_INVALID_IMAGE);
    const char *empty = write_tmp("empty.ptx", "", 0);
    CK(cuModuleLoad(&m, empty), CUDA_ERROR_INVALID_IMAGE);
    CK(cuModuleLoadData(&m, elf), CUDA_ERROR_NO_BINARY_FOR_GPU);
    CK(cuModuleLoadData(&m, junk), CUDA_ERROR_INVALID_IMAGE);
    unlink(ptx);
    unlink(cubin);
    unlink(bin);
    module_host_elf();
    unlink(empty);
}

static void module_fatbin(void)
{
    CUmodule m;
    CUfunction f;
    size_t n = strlen(at_ptx_add1);
    uint8_t *fb = make_fatbin(1, 75, 0x11, at_ptx_add1, n);
    OK(cuModuleLoadData(&m, fb));
    OK(cuModuleGetFunction(&f, m, "add1"));
    OK(cuModuleUnload(m));
    OK(cuModuleLoadFatBinary(&m, fb));
    OK(cuModuleUnload(m));
    /* through the wrapper host objects use: magic, version, pointer */
    struct { uint32_t magic, version; const void *data, *unused; } wrap = {0x466243B1u, 1, fb, NULL};
    OK(cuModuleLoadFatBinary(&m, &wrap));
    OK(cuModuleGetFunction(&f, m, "add1"));
    OK(cuModuleUnload(m));
    const char *path = write_tmp("k.fatbin", fb, 16 + 80 + (n + 1 + 7) / 8 * 8);
    OK(cuModuleLoad(&m, path));
    OK(cuModuleUnload(m));
    unlink(path);
    /* a truncated file: the entries run past its end */
    path = write_tmp("cut.fatbin", fb, 40);
    CK(cuModuleLoad(&m, path), CUDA_ERROR_INVALID_IMAGE);
    unlink(path);
    free(fb);
    CK(cuModuleLoadFatBinary(&m, at_ptx_add1), CUDA_ERROR_INVALID_IMAGE);

    fb = make_fatbin(1, 75, 0x8011, at_ptx_add1, n);   /* flagged zstd-compressed, but plain text */
    CK(cuModuleLoadData(&m, fb), CUDA_ERROR_INVALID_IMAGE);
    free(fb);
    fb = make_fatbin(2, 75, 0x11, "\x7f" "ELF", 4);   /* cubin only */
    CK(cuModuleLoadData(&m, fb), CUDA_ERROR_NO_BINARY_FOR_GPU);
    free(fb);
    fb = make_fatbin(1, 90, 0x11, ptx_sm90, strlen(ptx_sm90));   /* too new */
    CK(cuModuleLoadData(&m, fb), CUDA_ERROR_NO_BINARY_FOR_GPU);
    free(fb);
}

static void module_globals(void)
{
    CUmodule m;
    OK(cuModuleLoadData(&m, ptx_globals));
    CUdeviceptr p = 0;
    size_t n = 0;
    OK(cuModuleGetGlobal(&p, &n, m, "gcount"));
    TT_EQ_U(n, 4);
    uint32_t v = 0;
    OK(cuMemcpyDtoH(&v, p, 4));
    TT_EQ_U(v, 7);
    v = 41;
    OK(cuMemcpyHtoD(p, &v, 4));
    OK(cuModuleGetGlobal(&p, &n, m, "cvals"));
    TT_EQ_U(n, 16);
    float c[4] = {0};
    OK(cuMemcpyDtoH(c, p, 16));
    TT_CHECK(c[0] == 1.0f && c[1] == 2.0f && c[2] == 3.0f && c[3] == 4.0f);
    OK(cuModuleGetGlobal(NULL, &n, m, "gtable"));
    TT_EQ_U(n, 24);
    OK(cuModuleGetGlobal(&p, NULL, m, "gtable"));
    uint64_t t[3] = {1, 1, 1};
    OK(cuMemcpyDtoH(t, p, 24));
    TT_CHECK(t[0] == 0 && t[1] == 0 && t[2] == 0);   /* no initializer: zero */
    /* module variables are device memory */
    CUdeviceptr base;
    OK(cuMemGetAddressRange(&base, &n, p + 8));
    TT_EQ_U(base, p);
    CK(cuModuleGetGlobal(&p, &n, m, "nothere"), CUDA_ERROR_NOT_FOUND);
    CK(cuModuleGetGlobal(&p, &n, m, NULL), CUDA_ERROR_INVALID_VALUE);
    unsigned k = 0;
    OK(cuModuleGetFunctionCount(&k, m));
    TT_EQ_U(k, 2);
    OK(cuModuleUnload(m));
    CK(cuModuleGetGlobal(&p, &n, m, "gcount"), CUDA_ERROR_INVALID_HANDLE);
}

static void module_linker(void)
{
    CUlinkState ls;
    char err[256] = "";
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {err, (void *)(uintptr_t)sizeof err};
    OK(cuLinkCreate(2, opt, val, &ls));
    CK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx_bad, sizeof ptx_bad, "bad", 0, NULL, NULL),
       CUDA_ERROR_INVALID_PTX);
    TT_HAS(err, "bad:6:");   /* named as cuLinkAddData was told */
    CK(cuLinkAddData(ls, CU_JIT_INPUT_CUBIN, (void *)at_ptx_add1, sizeof at_ptx_add1, "x", 0, NULL, NULL),
       CUDA_ERROR_NOT_SUPPORTED);
    OK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)at_ptx_add1, sizeof at_ptx_add1, "add1", 0, NULL, NULL));
    void *img = NULL;
    size_t n = 0;
    OK(cuLinkComplete(ls, &img, &n));
    TT_EQ_U(n, strlen(at_ptx_add1) + 1);
    TT_CHECK(img && strcmp(img, at_ptx_add1) == 0);
    CUmodule m;
    CUfunction f;
    OK(cuModuleLoadData(&m, img));
    OK(cuModuleGetFunction(&f, m, "add1"));
    OK(cuModuleUnload(m));
    OK(cuLinkDestroy(ls));
    CK(cuLinkDestroy(ls), CUDA_ERROR_INVALID_HANDLE);

    OK(cuLinkCreate(0, NULL, NULL, &ls));
    CK(cuLinkComplete(ls, &img, &n), CUDA_ERROR_INVALID_VALUE);   /* nothing added */
    const char *path = write_tmp("link.ptx", at_ptx_add1, strlen(at_ptx_add1));
    OK(cuLinkAddFile(ls, CU_JIT_INPUT_PTX, path, 0, NULL, NULL));
    OK(cuLinkComplete(ls, &img, &n));
    TT_EQ_U(n, strlen(at_ptx_add1) + 1);
    OK(cuLinkDestroy(ls));
    unlink(path);
}

/* Two modules that use each other (relocatable device code): the kernel of
** the first calls a function and reads a variable the second defines; both
** have an internal $str and define the same .weak function. */
static const char ptx_link_a[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".extern .global .align 4 .u32 bias;\n"
    ".global .align 1 .b8 $str[2] = {65, 0};\n"
    ".weak .func (.param .b32 r) one()\n{\n    st.param.b32 [r], 1;\n    ret;\n}\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "    .reg .b32 %r<6>;\n    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd1, [p];\n    mov.u32 %r1, 21;\n"
    "    { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1;\n"
    "      call.uni (b), twice, (a); ld.param.b32 %r2, [b]; }\n"
    "    ld.global.u32 %r3, [bias];\n    add.s32 %r4, %r2, %r3;\n"
    "    ld.global.u8 %r5, [$str];\n    add.s32 %r4, %r4, %r5;\n"
    "    st.global.u32 [%rd1], %r4;\n    ret;\n}\n";
static const char ptx_link_b[] =
    "// the library half\n.version 7.5\n.target sm_75\n.address_size 64\n"
    ".global .align 1 .b8 $str[2] = {66, 0};\n"
    ".visible .global .align 4 .u32 bias = 1000;\n"
    ".weak .func (.param .b32 r) one()\n{\n    st.param.b32 [r], 1;\n    ret;\n}\n"
    ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
    "    .reg .b32 %r<4>;\n    ld.param.b32 %r1, [x];\n    shl.b32 %r2, %r1, 1;\n"
    "    ld.global.u8 %r3, [$str];\n    add.s32 %r2, %r2, %r3;\n"
    "    st.param.b32 [r], %r2;\n    ret;\n}\n";

static void module_link_rdc(void)
{
    CUlinkState ls;
    OK(cuLinkCreate(0, NULL, NULL, &ls));
    OK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx_link_a, sizeof ptx_link_a, "a", 0, NULL, NULL));
    OK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx_link_b, sizeof ptx_link_b, "b", 0, NULL, NULL));
    void *img = NULL;
    size_t n = 0;
    OK(cuLinkComplete(ls, &img, &n));
    CUmodule m;
    CUfunction f;
    OK(cuModuleLoadData(&m, img));
    OK(cuModuleGetFunction(&f, m, "k"));
    CUdeviceptr d;
    OK(cuMemAlloc(&d, 4));
    void *args[] = {&d};
    OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    int v = 0;
    OK(cuMemcpyDtoH(&v, d, 4));
    TT_EQ_I(v, 2 * 21 + 'B' + 1000 + 'A');   /* each module reads its own $str */
    CUdeviceptr bias;
    size_t bytes;
    OK(cuModuleGetGlobal(&bias, &bytes, m, "bias"));
    TT_EQ_U(bytes, 4);
    OK(cuMemFree(d));
    OK(cuModuleUnload(m));
    OK(cuLinkDestroy(ls));
    /* the same strong definition twice */
    char err[256] = "";
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {err, (void *)(uintptr_t)sizeof err};
    OK(cuLinkCreate(2, opt, val, &ls));
    OK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx_link_b, sizeof ptx_link_b, "b1", 0, NULL, NULL));
    OK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx_link_b, sizeof ptx_link_b, "b2", 0, NULL, NULL));
    CK(cuLinkComplete(ls, &img, &n), CUDA_ERROR_INVALID_PTX);
    TT_HAS(err, "multiple definition of 'bias'");
    OK(cuLinkDestroy(ls));
}

static void module_library(void)
{
    CUlibrary lib;
    OK(cuLibraryLoadData(&lib, ptx_globals, NULL, NULL, 0, NULL, NULL, 0));
    unsigned n = 0;
    OK(cuLibraryGetKernelCount(&n, lib));
    TT_EQ_U(n, 2);
    CUkernel k, ks[2];
    OK(cuLibraryGetKernel(&k, lib, "second"));
    CK(cuLibraryGetKernel(&k, lib, "third"), CUDA_ERROR_NOT_FOUND);
    OK(cuLibraryEnumerateKernels(ks, 2, lib));
    TT_CHECK(ks[0] == k || ks[1] == k);
    const char *name = NULL;
    OK(cuKernelGetName(&name, k));
    TT_EQ_STR(name, "second");
    CUfunction f;
    OK(cuKernelGetFunction(&f, k));
    OK(cuFuncGetName(&name, f));
    TT_EQ_STR(name, "second");
    CUlibrary back;
    OK(cuKernelGetLibrary(&back, k));
    TT_CHECK(back == lib);
    int v = 0;
    OK(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, k, 0));
    TT_EQ_I(v, 75);
    CK(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, k, 1), CUDA_ERROR_INVALID_DEVICE);
    OK(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 256, k, 0));
    size_t off, sz;
    OK(cuLibraryGetKernel(&k, lib, "first"));
    OK(cuKernelGetParamInfo(k, 0, &off, &sz));
    TT_EQ_U(sz, 8);
    CUdeviceptr p;
    OK(cuLibraryGetGlobal(&p, &sz, lib, "gcount"));
    TT_EQ_U(sz, 4);
    CUmodule m;
    OK(cuLibraryGetModule(&m, lib));
    CK(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);   /* the library owns it */
    /* an ordinary function is no CUkernel */
    CUmodule m2;
    CUfunction f2;
    OK(cuModuleLoadData(&m2, at_ptx_add1));
    OK(cuModuleGetFunction(&f2, m2, "add1"));
    CK(cuKernelGetName(&name, (CUkernel)(void *)f2), CUDA_ERROR_INVALID_HANDLE);
    OK(cuModuleUnload(m2));
    OK(cuLibraryUnload(lib));
    CK(cuLibraryUnload(lib), CUDA_ERROR_INVALID_HANDLE);
    CK(cuKernelGetName(&name, k), CUDA_ERROR_INVALID_HANDLE);

    /* with no current context a library uses the primary context */
    OK(cuCtxPopCurrent(NULL));
    OK(cuLibraryLoadData(&lib, at_ptx_add1, NULL, NULL, 0, NULL, NULL, 0));
    unsigned flags;
    int active = 0;
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    TT_EQ_I(active, 1);
    OK(cuLibraryUnload(lib));
    OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    TT_EQ_I(active, 0);
    OK(cuCtxPushCurrent(ctx));
}

/* Modules die with their context. */
static void module_context_teardown(void)
{
    CUcontext c2;
    CUmodule m;
    CUfunction f;
    OK(cuCtxCreate(&c2, NULL, 0, 0));
    OK(cuModuleLoadData(&m, at_ptx_add1));
    OK(cuModuleGetFunction(&f, m, "add1"));
    OK(cuCtxDestroy(c2));
    OK(cuCtxSetCurrent(ctx));
    CK(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
    int v;
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f), CUDA_ERROR_INVALID_HANDLE);
}

static int nfiles;
static char **files;

/* Fatbinaries nvcc made (run_api.sh, when the toolkit is installed). */
static void module_nvcc_fatbins(void)
{
    for (int i = 0; i < nfiles; i++) {
        CUmodule m;
        CUfunction f;
        CUresult r = cuModuleLoad(&m, files[i]);
        if (r != CUDA_SUCCESS) {
            tt_fail_msg(__FILE__, __LINE__, "%s: %s", files[i], at_name(r));
            continue;
        }
        OK(cuModuleGetFunction(&f, m, "add1"));
        OK(cuModuleUnload(m));
    }
}

int main(int argc, char **argv)
{
    nfiles = argc - 1;
    files = argv + 1;
    at_init_ctx(&ctx);
    TT_RUN(module_load_data);
    TT_RUN(module_jit_log);
    TT_RUN(module_files);
    TT_RUN(module_fatbin);
    TT_RUN(module_globals);
    TT_RUN(module_linker);
    TT_RUN(module_link_rdc);
    TT_RUN(module_library);
    TT_RUN(module_context_teardown);
    if (nfiles) TT_RUN(module_nvcc_fatbins);
    OK(cuCtxDestroy(ctx));
    return tt_done();
}
