/* fuzz_fatbin.c -- libFuzzer target for the fatbinary reader (api/fatbin.c)
** and its LZ4 decoder: any bytes are a fatbinary whose PTX comes out
** NUL-terminated and of the length reported, or are refused with a reason;
** the cubin register reader (api_fatbin_cubin_regs, and api_cubin_read on
** the bytes as an ELF image) finds a compatible target's names or nothing;
** never a crash or a read outside the input.  The first byte picks the
** device's compute capability.  (Wrappers are not fuzzed: a wrapper holds
** a pointer, which only a registering program supplies.) */
#include "../../api/fatbin.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    unsigned cc = 50 + data[0] % 75;
    data++, size--;
    uint8_t *img = malloc(size ? size : 1);   /* exactly size bytes: ASan sees overreads */
    memcpy(img, data, size);
    if (size >= 4 && rd32(img) == API_FATBIN_WRAPPER_MAGIC) img[0] ^= 1;
    size_t len = 0;
    unsigned sm = 0;
    char *why = NULL;
    api_fatbin_err err;
    char *ptx = api_fatbin_ptx(img, size, cc, &len, &sm, &why, &err);
    if (ptx) {
        if (err != API_FATBIN_OK || why || strlen(ptx) != len || sm > cc) abort();
        free(ptx);
    } else if (err == API_FATBIN_OK || !why) {
        abort();
    }
    free(why);
    api_cubin_regs cr;
    if (api_fatbin_cubin_regs(img, size, cc, &cr)) {
        if (cr.sm / 10 != cc / 10 || cr.sm > cc) abort();
        for (uint32_t i = 0; i < cr.n; i++)
            if (!cr.fn[i].name || cr.fn[i].regs > 255) abort();
    } else if (cr.n || cr.fn) {
        abort();
    }
    api_cubin_regs_free(&cr);
    if (api_cubin_read(img, size, &cr))
        for (uint32_t i = 0; i < cr.n; i++) (void)strlen(cr.fn[i].name);
    api_cubin_regs_free(&cr);
    /* the LZ4 decoder alone: the output size from the first two bytes */
    if (size >= 2) {
        size_t out_size = (size_t)img[0] | (size_t)img[1] << 8;
        uint8_t *out = malloc(out_size ? out_size : 1);
        api_lz4_block_decode(img + 2, size - 2, out, out_size);
        free(out);
    }
    free(img);
    return 0;
}
