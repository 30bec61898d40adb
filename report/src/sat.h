/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: saturating 64-bit addition for totals. A report can hold
 * counters up to 2^64-1 (device counters are 64 bits); a total that would
 * pass 2^64-1 stays there instead of wrapping to a small, wrong number.
 * Depends on nothing.
 */
#ifndef GM_REPORT_SAT_H
#define GM_REPORT_SAT_H

#include <stdint.h>

static inline uint64_t gm_sat_add(uint64_t a, uint64_t b)
{
    uint64_t s;
    return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

#endif
