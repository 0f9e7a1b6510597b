/* fuzz_report.c -- libFuzzer target for tpsim report's page
** (cli/report_page.c, cli/report_kernel.c): any bytes the JSON reader
** accepts make a page or are refused with one line naming fuzz.json; never
** a crash, a leak or a read out of bounds, whatever the members' types,
** counts and nesting (numbers where objects are expected, empty or huge
** tables, missing members). */
#include "cli/report.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tp_json_doc d;
    tp_err e;
    tp_err_clear(&e);
    if (!tp_json_parse(&d, (const char *)data, size, "fuzz.json", &e)) return 0;
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_err_clear(&e);
    bool ok = rp_page(d.root, "fuzz.json", &b, &e);
    if (ok == tp_err_isset(&e)) abort();
    if (!ok && strncmp(e.msg, "fuzz.json: ", 11) != 0) abort();
    if (ok && (b.len == 0 || !strstr(tp_sbuf_str(&b), "</html>"))) abort();
    tp_sbuf_free(&b);
    tp_json_free(&d);
    return 0;
}
