/*
** tt.h -- the unit-test harness.  Each test is a function; TT_RUN runs it and
** prints "PASS name" or "FAIL name: file:line: what".  tests/run.sh counts
** those lines across all test programs.
**
**   static void t_add(void) { TT_EQ_U(1 + 1, 2); }
**   int main(void) { TT_RUN(t_add); return tt_done(); }
*/
#ifndef TT_H
#define TT_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tt_failed_tests, tt_passed_tests, tt_cur_failed, tt_nchecks;
static const char *tt_cur_name;

static void tt_fail_msg(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static void tt_fail_msg(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (tt_cur_failed++ < 5) {
        if (tt_cur_failed == 1) printf("FAIL %s: %s:%d: ", tt_cur_name, file, line);
        else printf("    also %s:%d: ", file, line);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
}

#define TT_CHECK(c)                                                            \
    do {                                                                       \
        tt_nchecks++;                                                          \
        if (!(c)) tt_fail_msg(__FILE__, __LINE__, "%s", #c);                   \
    } while (0)

#define TT_EQ_U(a, b)                                                          \
    do {                                                                       \
        uint64_t tt_a = (uint64_t)(a), tt_b = (uint64_t)(b);                   \
        tt_nchecks++;                                                          \
        if (tt_a != tt_b)                                                      \
            tt_fail_msg(__FILE__, __LINE__, "%s == %s: 0x%" PRIx64 " (%" PRIu64 ") != 0x%" PRIx64 " (%" PRIu64 ")", \
                        #a, #b, tt_a, tt_a, tt_b, tt_b);                       \
    } while (0)

#define TT_EQ_I(a, b)                                                          \
    do {                                                                       \
        int64_t tt_a = (int64_t)(a), tt_b = (int64_t)(b);                      \
        tt_nchecks++;                                                          \
        if (tt_a != tt_b)                                                      \
            tt_fail_msg(__FILE__, __LINE__, "%s == %s: %" PRId64 " != %" PRId64, #a, #b, tt_a, tt_b); \
    } while (0)

#define TT_EQ_STR(a, b)                                                        \
    do {                                                                       \
        const char *tt_a = (a), *tt_b = (b);                                   \
        tt_nchecks++;                                                          \
        if (!tt_a || !tt_b || strcmp(tt_a, tt_b) != 0)                         \
            tt_fail_msg(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b, \
                        tt_a ? tt_a : "(null)", tt_b ? tt_b : "(null)");       \
    } while (0)

/* s contains sub */
#define TT_HAS(s, sub)                                                         \
    do {                                                                       \
        const char *tt_s = (s), *tt_sub = (sub);                               \
        tt_nchecks++;                                                          \
        if (!tt_s || !strstr(tt_s, tt_sub))                                    \
            tt_fail_msg(__FILE__, __LINE__, "\"%s\" does not contain \"%s\"",  \
                        tt_s ? tt_s : "(null)", tt_sub);                       \
    } while (0)

#define TT_RUN(fn)                                                             \
    do {                                                                       \
        tt_cur_name = #fn;                                                     \
        tt_cur_failed = 0;                                                     \
        fn();                                                                  \
        if (tt_cur_failed) tt_failed_tests++;                                  \
        else { tt_passed_tests++; printf("PASS %s\n", #fn); }                  \
        fflush(stdout);                                                        \
    } while (0)

static inline int tt_done(void)
{
    return tt_failed_tests ? 1 : 0;
}

#endif
