// SPDX-License-Identifier: Apache-2.0
// Built-in analysis "values" (SASSI's value profiling): per load site (the
// loaded value, after_load) and store site (the stored value, before_mem):
// warp executions, executions where all active lanes hold the same value,
// the OR of values (bits ever 1) and the OR of complemented values (bits
// ever 0). Device code; depends only on the handler SDK.
#include <gpumem/handler.h>

/* ones and zeros are bit masks: "|or" makes the runtime and the reports
 * combine them across SM replicas and launches by OR (abi.h). */
GM_COUNTERS_NAMED(values, 4, "warps,uniform,ones|or,zeros|or");
enum { VA_WARPS, VA_UNIFORM, VA_ONES, VA_ZEROS };

/* Bits of the value the access defines (the first 8 bytes when wider). */
GM_INL uint64_t va_width_mask(uint32_t info)
{
    uint32_t w = GM_INFO_WIDTH(info);
    return w >= 8 || w == 0 ? ~0ull : (1ull << (8 * w)) - 1;
}

/* Warp OR of a 64-bit value (two 32-bit redux). */
GM_INL uint64_t va_or(uint32_t mask, uint64_t v)
{
    return (uint64_t)__reduce_or_sync(mask, (uint32_t)(v >> 32)) << 32 |
           __reduce_or_sync(mask, (uint32_t)v);
}

/* OR bits into a counter; a plain read first skips the atomic when they are
 * already set (bits only ever get set during a launch). */
GM_INL void va_or_into(unsigned long long *c, uint64_t bits)
{
    if (bits && (__ldcg(c) & bits) != bits) atomicOr(c, (unsigned long long)bits);
}

GM_INL void va_record(uint32_t site, uint32_t info, uint64_t value)
{
    if (!gm_counters__values) return;
    uint32_t mask = gm_active();
    uint64_t m = va_width_mask(info);
    /* slot-per-lane: lane of rank j updates slot j (one warp-wide RED/ATOM) */
    uint32_t rank = __popc(mask & gm_lanemask_lt()), n = __popc(mask);
    uint64_t v = value & m;
    uint64_t ones = va_or(mask, v);
    uint64_t zeros = va_or(mask, ~v & m);
    int uniform = __match_any_sync(mask, v) == mask;
    unsigned long long *c = gm_site_counters(gm_counters__values, site, gm_slots__values);
    for (uint32_t j = rank; j < gm_slots__values; j += n) {
        uint64_t x = j == VA_WARPS ? 1 : j == VA_UNIFORM ? (uint64_t)uniform : j == VA_ONES ? ones : zeros;
        if (j < VA_ONES) { if (x) atomicAdd(c + j, x); }
        else va_or_into(c + j, x);
    }
}

/* Stores only: an atomic's operand is not the value memory ends up with;
 * atomics and loads are profiled by the value they read (after_load). */
GM_BEFORE_MEM(values)
{
    (void)addr;
    if ((info & GM_INFO_STORE) && !(info & (GM_INFO_LOAD | GM_INFO_MEMINTR)))
        va_record(site, info, value);
}

GM_AFTER_LOAD(values)
{
    (void)addr;
    if ((info & GM_INFO_LOAD) && !(info & GM_INFO_MEMINTR))
        va_record(site, info, value);
}
