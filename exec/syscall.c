/*
** syscall.c -- the device-side "system calls" nvcc emits as calls to
** declared-only functions: vprintf (printf), malloc, free, __assertfail;
** the device runtime's (dynamic parallelism) are in cdp.c.
*/
#include "check.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads n bytes at a generic address for lane l into buf; false after a fault. */
static bool read_mem(exec_warp *w, int lane, uint64_t addr, void *buf, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *p = exec_lane_ptr(w, lane, PTX_SP_GENERIC, addr + i, 1, false);
        if (!p) return false;
        ((uint8_t *)buf)[i] = *p;
    }
    return true;
}

/* Reads a NUL-terminated string (at most max bytes). */
static bool read_str(exec_warp *w, int lane, uint64_t addr, tp_sbuf *out, uint32_t max)
{
    for (uint32_t i = 0; i < max; i++) {
        uint8_t c;
        if (!read_mem(w, lane, addr + i, &c, 1)) return false;
        if (!c) return true;
        tp_sbuf_putc(out, (char)c);
    }
    return true;
}

/* Formats one printf call.  CUDA packs the arguments after the format into
** a buffer, each aligned to its own size: 4 bytes for int-sized values, 8 for
** long/long long/size_t/pointers and for doubles (floats are promoted). */
bool exec_format_printf(exec_warp *w, int lane, uint64_t fmt, uint64_t args, tp_sbuf *out)
{
    tp_sbuf f;
    tp_sbuf_init(&f);
    if (!read_str(w, lane, fmt, &f, 1u << 16)) {
        tp_sbuf_free(&f);
        return false;
    }
    const char *s = tp_sbuf_str(&f);
    uint64_t off = 0;
    bool ok = true;
    while (*s && ok) {
        if (*s != '%') {
            tp_sbuf_putc(out, *s++);
            continue;
        }
        if (s[1] == '%') {
            tp_sbuf_putc(out, '%');
            s += 2;
            continue;
        }
        /* Copy the conversion spec: flags, width, precision, length, conversion. */
        char spec[64];
        size_t n = 0;
        spec[n++] = *s++;
        while (*s && strchr("-+ #0", *s) && n < 40) spec[n++] = *s++;
        while (*s && ((*s >= '0' && *s <= '9') || *s == '.' || *s == '*') && n < 48) {
            if (*s == '*') { /* width/precision from an int argument */
                int32_t v = 0;
                off = TP_ALIGN_UP(off, 4);
                ok = read_mem(w, lane, args + off, &v, 4);
                off += 4;
                n += (size_t)snprintf(spec + n, sizeof spec - n, "%d", (int)v);
                s++;
                continue;
            }
            spec[n++] = *s++;
        }
        int lng = 0;
        while (*s && strchr("hlLqjzt", *s)) {
            if (*s == 'l' || *s == 'L' || *s == 'q' || *s == 'j' || *s == 'z' || *s == 't') lng++;
            s++;
        }
        char conv = *s;
        if (!conv) break;
        s++;
        char buf[512];
        switch (conv) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
            uint64_t v = 0;
            unsigned sz = lng ? 8 : 4;
            off = TP_ALIGN_UP(off, sz);
            ok = read_mem(w, lane, args + off, &v, sz);
            off += sz;
            if (conv == 'c') {
                spec[n++] = 'c';
                spec[n] = 0;
                snprintf(buf, sizeof buf, spec, (int)(unsigned char)v);
            } else {
                spec[n++] = 'l';
                spec[n++] = 'l';
                spec[n++] = conv;
                spec[n] = 0;
                if (conv == 'd' || conv == 'i')
                    snprintf(buf, sizeof buf, spec, sz == 4 ? (long long)(int32_t)v : (long long)v);
                else
                    snprintf(buf, sizeof buf, spec, sz == 4 ? (unsigned long long)(uint32_t)v : (unsigned long long)v);
            }
            tp_sbuf_puts(out, buf);
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            uint64_t v = 0;
            off = TP_ALIGN_UP(off, 8);
            ok = read_mem(w, lane, args + off, &v, 8);
            off += 8;
            spec[n++] = conv;
            spec[n] = 0;
            snprintf(buf, sizeof buf, spec, exec_u2d(v));
            tp_sbuf_puts(out, buf);
            break;
        }
        case 's': {
            uint64_t p = 0;
            off = TP_ALIGN_UP(off, 8);
            ok = read_mem(w, lane, args + off, &p, 8);
            off += 8;
            tp_sbuf str;
            tp_sbuf_init(&str);
            if (ok && p == 0) tp_sbuf_puts(&str, "(null)");
            else if (ok) ok = read_str(w, lane, p, &str, 1u << 16);
            spec[n++] = 's';
            spec[n] = 0;
            if (ok) tp_sbuf_printf(out, spec, tp_sbuf_str(&str));
            tp_sbuf_free(&str);
            break;
        }
        case 'p': {
            uint64_t p = 0;
            off = TP_ALIGN_UP(off, 8);
            ok = read_mem(w, lane, args + off, &p, 8);
            off += 8;
            tp_sbuf_printf(out, "0x%" PRIx64, p);
            break;
        }
        default:
            /* %n and unknown conversions print nothing, as on the device. */
            break;
        }
    }
    tp_sbuf_free(&f);
    return ok;
}

bool exec_syscall(exec_warp *w, const ptx_insn *in, const ptx_func *callee, uint32_t mask)
{
    exec_grid *g = w->g;
    const char *name = callee->name;
    if (exec_cdp_is_call(name)) return exec_cdp_call(w, in, name, mask);
    if (strcmp(name, "vprintf") == 0) {
        tp_sbuf out;
        tp_sbuf_init(&out);
        bool ok = true;
        EXEC_LANES(mask, {
            uint64_t fmt = exec_call_arg(w, in, l, 0, 8), args = exec_call_arg(w, in, l, 1, 8);
            size_t before = out.len;
            if (ok && !exec_format_printf(w, l, fmt, args, &out)) ok = false;
            exec_call_ret(w, in, l, (uint64_t)(out.len - before), 4);
        });
        if (out.len) {
            fputs(tp_sbuf_str(&out), g->dev->out);
            fflush(g->dev->out);
        }
        tp_sbuf_free(&out);
        return ok;
    }
    if (strcmp(name, "malloc") == 0) {
        EXEC_LANES(mask, {
            uint64_t n = exec_call_arg(w, in, l, 0, 8);
            uint64_t p = 0;
            if (g->heap_used + n <= g->heap_limit) {
                p = exec_mem_alloc_heap(g->dev, n, 16);
                if (p) g->heap_used += n;
            }
            exec_call_ret(w, in, l, p, 8);
        });
        exec_forget_windows(g);
        exec_progress(w);
        return true;
    }
    if (strcmp(name, "free") == 0) {
        EXEC_LANES(mask, {
            uint64_t p = exec_call_arg(w, in, l, 0, 8);
            uint64_t base, bytes;
            if (p && exec_mem_find(g->dev, p, &base, &bytes) && base == p) {
                if (TP_UNLIKELY(g->checks)) exec_check_heap_free(g, p, bytes);
                exec_mem_free(g->dev, p);
                g->heap_used -= bytes < g->heap_used ? bytes : g->heap_used;
            }
        });
        exec_forget_windows(g);
        exec_progress(w);
        return true;
    }
    if (strcmp(name, "__assertfail") == 0 || strcmp(name, "__assert_fail") == 0) {
        int l = __builtin_ctz(mask);
        tp_sbuf msg, file, fn;
        tp_sbuf_init(&msg);
        tp_sbuf_init(&file);
        tp_sbuf_init(&fn);
        read_str(w, l, exec_call_arg(w, in, l, 0, 8), &msg, 4096);
        read_str(w, l, exec_call_arg(w, in, l, 1, 8), &file, 4096);
        uint32_t line = (uint32_t)exec_call_arg(w, in, l, 2, 4);
        read_str(w, l, exec_call_arg(w, in, l, 3, 8), &fn, 4096);
        exec_fault(w, l, EXEC_ERR_ASSERT, "%s:%u: %s: Assertion `%s` failed.", tp_sbuf_str(&file), line,
                   tp_sbuf_str(&fn), tp_sbuf_str(&msg));
        tp_sbuf_free(&msg);
        tp_sbuf_free(&file);
        tp_sbuf_free(&fn);
        return false;
    }
    exec_fault(w, __builtin_ctz(mask), EXEC_ERR_UNSUPPORTED,
               "call to '%s', which is declared but not defined in the module and is not a function tpsim provides "
               "(vprintf, malloc, free, __assertfail, the device runtime's calls)", name);
    return false;
}
