/*
** trace.c -- the per-instruction table of the lecture, and an SVG timeline.
**
** The table has one line per executed vector instruction (and, in the
** textbook model, one per conditional branch's loop overhead):
**
**   convoy  unit    start   first    last    vl  instruction
**        1  lsu0        0      12      75    64  LV V1,R1
**        2  mul        76      83     146    64  MULVS.D V2,V1,F0
**        -  loop      298       -     312     -  BNEZ R4,loop
**
** start is the convoy's start (textbook) or the issue cycle (pipelined,
** where the convoy column is "-"); first and last are the cycles of the
** first and last results; a loop row spans the tloop cycles it adds.
*/
#include "internal.h"
#include <stdio.h>

static void num_or_dash(tp_sbuf *out, bool has, uint64_t v, int w)
{
    if (has) tp_sbuf_printf(out, " %*llu", w, (unsigned long long)v);
    else tp_sbuf_printf(out, " %*s", w, "-");
}

void vec_trace_table(const vec_run *r, tp_sbuf *out)
{
    bool tb = r->timing == VEC_TIMING_TEXTBOOK;
    tp_sbuf_printf(out, "convoy  unit   %7s %7s %7s %5s  instruction\n", tb ? "start" : "issue", "first", "last", "vl");
    for (uint32_t i = 0; i < r->trace.rows.n; i++) {
        const vec_trow *w = &r->trace.rows.a[i];
        char buf[16];
        bool loop = w->unit >= VEC_UNIT_MAX;
        if (w->convoy) tp_sbuf_printf(out, "%6llu", (unsigned long long)w->convoy);
        else tp_sbuf_printf(out, "%6s", "-");
        tp_sbuf_printf(out, "  %-6s", vec_unit_name(w->unit, buf));
        num_or_dash(out, true, w->start, 7);
        num_or_dash(out, !loop && w->vl, w->first, 7);
        num_or_dash(out, loop || w->vl, w->last, 7);
        num_or_dash(out, !loop, w->vl, 5);
        tp_sbuf_printf(out, "  %s\n", w->in->text);
    }
    if (r->trace.dropped)
        tp_sbuf_printf(out, "... %llu more rows not recorded\n", (unsigned long long)r->trace.dropped);
}

static void xml_text(tp_sbuf *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': tp_sbuf_puts(out, "&lt;"); break;
        case '>': tp_sbuf_puts(out, "&gt;"); break;
        case '&': tp_sbuf_puts(out, "&amp;"); break;
        case '"': tp_sbuf_puts(out, "&quot;"); break;
        default: tp_sbuf_putc(out, (char)((unsigned char)*s < 32 ? ' ' : *s)); break;
        }
    }
}

void vec_trace_svg(const vec_run *r, tp_sbuf *out)
{
    const double left = 70, top = 30, rowh = 28;
    uint64_t cycles = r->st.cycles ? r->st.cycles : 1;
    double scale = 1400.0 / (double)cycles;
    if (scale > 12) scale = 12;
    bool loops = false;
    for (uint32_t i = 0; i < r->trace.rows.n; i++) loops |= r->trace.rows.a[i].unit >= VEC_UNIT_MAX;
    uint32_t nrows = r->st.nunits + (loops ? 1 : 0);
    double width = left + (double)cycles * scale + 30, height = top + rowh * nrows + 40;
    tp_sbuf_printf(out,
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                   "font-family=\"monospace\" font-size=\"11\">\n",
                   width, height);
    tp_sbuf_printf(out, "<text x=\"4\" y=\"16\">%s timing: %llu cycles; dark: elements entering the unit, "
                        "light: results</text>\n",
                   r->timing_name, (unsigned long long)r->st.cycles);
    /* cycle axis: ticks at the first of 1, 2, 5, 10, 20, 50, ... at least 60px apart */
    uint64_t step = 1;
    for (int k = 0; (double)step * scale < 60 && k < 60; k++) step = k % 3 == 1 ? step * 5 / 2 : step * 2;
    double ybot = top + rowh * nrows;
    for (uint64_t c = 0; c <= cycles; c += step) {
        double x = left + (double)c * scale;
        tp_sbuf_printf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", x, top, x, ybot);
        tp_sbuf_printf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%llu</text>\n", x, ybot + 14,
                       (unsigned long long)c);
    }
    for (uint32_t u = 0; u < nrows; u++) {
        char buf[16];
        int unit = u < r->st.nunits ? (int)u : VEC_UNIT_MAX;
        tp_sbuf_printf(out, "<text x=\"4\" y=\"%.0f\">%s</text>\n", top + rowh * u + 17, vec_unit_name(unit, buf));
    }
    uint32_t ndraw = r->trace.rows.n < 20000 ? r->trace.rows.n : 20000;
    for (uint32_t i = 0; i < ndraw; i++) {
        const vec_trow *w = &r->trace.rows.a[i];
        bool loop = w->unit >= VEC_UNIT_MAX;
        if (!loop && !w->vl) continue;
        uint32_t row = loop ? r->st.nunits : w->unit;
        double y = top + rowh * row + 4;
        tp_sbuf_puts(out, "<g><title>");
        xml_text(out, w->in->text);
        if (loop)
            tp_sbuf_printf(out, ": loop overhead %llu..%llu", (unsigned long long)w->start, (unsigned long long)w->last);
        else
            tp_sbuf_printf(out, ": vl %u, elements %llu..%llu, results %llu..%llu", w->vl,
                           (unsigned long long)w->efirst, (unsigned long long)w->elast,
                           (unsigned long long)w->first, (unsigned long long)w->last);
        tp_sbuf_puts(out, "</title>");
        if (loop) {
            tp_sbuf_printf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"20\" fill=\"#bbb\"/>",
                           left + (double)w->start * scale, y, (double)(w->last + 1 - w->start) * scale);
        } else {
            tp_sbuf_printf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"10\" fill=\"#2f5f8f\"/>",
                           left + (double)w->efirst * scale, y, (double)(w->elast + 1 - w->efirst) * scale);
            tp_sbuf_printf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"10\" fill=\"#9cc3e6\"/>",
                           left + (double)w->first * scale, y + 10, (double)(w->last + 1 - w->first) * scale);
        }
        tp_sbuf_puts(out, "</g>\n");
    }
    tp_sbuf_puts(out, "</svg>\n");
}
