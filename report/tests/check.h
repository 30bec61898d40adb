/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Minimal test harness for the report library's C unit tests: CHECK and
 * CHECK_EQ count failures and name file:line; main returns failures != 0.
 * Depends on libc only.
 */
#ifndef GM_REPORT_CHECK_H
#define GM_REPORT_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int gm_failures;

#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            gm_failures++;                                                    \
        }                                                                     \
    } while (0)

#define CHECK_EQ(a, b)                                                        \
    do {                                                                      \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                      \
        if (a_ != b_) {                                                       \
            fprintf(stderr, "%s:%d: %s == %" PRIu64 ", expected %s == %" PRIu64 "\n", \
                    __FILE__, __LINE__, #a, a_, #b, b_);                      \
            gm_failures++;                                                    \
        }                                                                     \
    } while (0)

#define CHECK_STR(s, sub)                                                     \
    do {                                                                      \
        const char *s_ = (s);                                                 \
        if (!s_ || !strstr(s_, (sub))) {                                      \
            fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, \
                    s_ ? s_ : "(null)", (sub));                               \
            gm_failures++;                                                    \
        }                                                                     \
    } while (0)

#define TEST_MAIN_END()                                                       \
    do {                                                                      \
        if (gm_failures)                                                      \
            fprintf(stderr, "%d check(s) failed\n", gm_failures);             \
        else                                                                  \
            printf("all checks passed\n");                                    \
        return gm_failures != 0;                                              \
    } while (0)

#endif
