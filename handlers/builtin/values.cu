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

/* Per-lane words of a site in a loop (register accumulators, see the SDK)
 * and per-block words of a site outside loops (shared memory): the
 * executions led (low 16 bits) and among them the uniform ones (high 16
 * bits), then the ORs of the values and of their complements, low and high
 * 32 bits. OR is associative, so a loop's warp ORs happen once, at kernel
 * exit. A lane's counts go to memory when the low half reaches 2^15 (the
 * uniform half is never larger); a block's stay below 2^10 (a site outside
 * loops runs at most once per thread). */
GM_ACCUM(values);
GM_BLOCK(values);
enum { VW_COUNTS, VW_ONES_LO, VW_ZEROS_LO, VW_ONES_HI, VW_ZEROS_HI, VW_N };
#define VA_UNI1 0x10000u          /* one uniform execution in a counts word */
#define VA_SPILL 0x8000u          /* a lane's counts go to memory at this many */

/* 1 when the value has more than 32 bits (the first 8 bytes count). */
GM_INL int va_wide(uint32_t info)
{
    uint32_t w = GM_INFO_WIDTH(info);
    return w > 4 || w == 0;
}

/* Bits of the value the access defines. */
GM_INL uint64_t va_width_mask(uint32_t info)
{
    uint32_t w = GM_INFO_WIDTH(info);
    return va_wide(info) ? ~0ull : (1ull << (8 * w)) - 1;
}

/* Warp OR of a value: one 32-bit redux, two when it is wide. */
GM_INL uint64_t va_or(uint32_t mask, uint64_t v, int wide)
{
    uint64_t hi = wide ? __reduce_or_sync(mask, (uint32_t)(v >> 32)) : 0u;
    return hi << 32 | __reduce_or_sync(mask, (uint32_t)v);
}

/* OR bits into a counter; a plain read first skips the atomic when they are
 * already set (bits only ever get set during a launch). */
GM_INL void va_or_into(unsigned long long *c, uint64_t bits)
{
    if (bits && (__ldcg(c) & bits) != bits) atomicOr(c, (unsigned long long)bits);
}

/* x if j == k, else 0 (no branch: a ?: chain becomes a divergent switch). */
GM_INL uint64_t va_if(uint32_t j, uint32_t k, uint64_t x) { return -(uint64_t)(j == k) & x; }

/* Lane of rank j puts slot j of the totals (slot-per-lane: one warp-wide
 * RED for the adds, one read and maybe an atomic for the ORs). */
GM_INL void va_put(unsigned long long *c, uint32_t mask, uint64_t warps, uint64_t uniform,
                   uint64_t ones, uint64_t zeros)
{
    uint32_t n = __popc(mask);
    GM_ROLLED
    for (uint32_t j = __popc(mask & gm_lanemask_lt()); j < gm_slots__values; j += n) {
        uint64_t x = va_if(j, VA_WARPS, warps) | va_if(j, VA_UNIFORM, uniform) |
                     va_if(j, VA_ONES, ones) | va_if(j, VA_ZEROS, zeros);
        if (j < VA_ONES) { if (x) atomicAdd(c + j, (unsigned long long)x); }
        else va_or_into(c + j, x);
    }
}

/* A lane's counts word to memory (rare: every 2^15 executions it led). */
GM_INL void va_spill(uint32_t *acc, uint32_t site)
{
    unsigned long long *c = gm_site_counters(gm_counters__values, site, gm_slots__values);
    uint32_t w = acc[VW_COUNTS];
    atomicAdd(c + VA_WARPS, (unsigned long long)(w & 0xffffu));
    if (w >> 16) atomicAdd(c + VA_UNIFORM, (unsigned long long)(w >> 16));
    acc[VW_COUNTS] = 0;
}

/* In a loop: one shfl (two when wide) and one vote per execution; the
 * leader counts (selects, no branch: a leader-only branch diverges every
 * execution), every lane ORs its own value into registers. */
GM_INL void va_accumulate(uint32_t *acc, uint32_t site, uint32_t mask, uint64_t v, uint64_t m, int wide)
{
    uint32_t l = gm_leader_of(mask), lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
    int same = __shfl_sync(mask, lo, l) == lo;
    if (wide) same &= __shfl_sync(mask, hi, l) == hi;
    uint32_t inc = __all_sync(mask, same) ? VA_UNI1 + 1 : 1u;
    if ((acc[VW_COUNTS] += gm_lane() == l ? inc : 0u) & VA_SPILL)
        va_spill(acc, site);
    acc[VW_ONES_LO] |= lo;
    acc[VW_ONES_HI] |= hi;
    acc[VW_ZEROS_LO] |= ~lo & (uint32_t)m;
    acc[VW_ZEROS_HI] |= ~hi & (uint32_t)(m >> 32);
}

/* At kernel exit: the warp's sums and ORs, lane of rank j: slot j. */
GM_ACCUM_FLUSH(values)
{
    if (!gm_counters__values) return;
    uint32_t mask = gm_active();
    uint32_t any = acc[VW_COUNTS] | acc[VW_ONES_LO] | acc[VW_ONES_HI] | acc[VW_ZEROS_LO] | acc[VW_ZEROS_HI];
    if (!__ballot_sync(mask, any != 0)) return;
    /* lanes hold < 2^15 each: the sums fit */
    uint64_t warps = __reduce_add_sync(mask, acc[VW_COUNTS] & 0xffffu);
    uint64_t uniform = __reduce_add_sync(mask, acc[VW_COUNTS] >> 16);
    uint64_t ones = (uint64_t)__reduce_or_sync(mask, acc[VW_ONES_HI]) << 32 | __reduce_or_sync(mask, acc[VW_ONES_LO]);
    uint64_t zeros = (uint64_t)__reduce_or_sync(mask, acc[VW_ZEROS_HI]) << 32 | __reduce_or_sync(mask, acc[VW_ZEROS_LO]);
    va_put(gm_site_counters(gm_counters__values, site, gm_slots__values), mask, warps, uniform, ones, zeros);
}

/* Outside loops, in a block with shared words: the leader adds both counts
 * with one shared atomic and ORs (high words only when the value is wide).
 * Unconditional atomics: a read first (to skip them) measured slower. */
GM_INL void va_block_add(uint32_t *b, uint32_t mask, int uniform, uint64_t ones, uint64_t zeros, int wide)
{
    if (!gm_is_leader_of(mask)) return;
    atomicAdd(b + VW_COUNTS, uniform ? VA_UNI1 + 1 : 1u);
    atomicOr(b + VW_ONES_LO, (uint32_t)ones);
    atomicOr(b + VW_ZEROS_LO, (uint32_t)zeros);
    if (!wide) return;
    atomicOr(b + VW_ONES_HI, (uint32_t)(ones >> 32));
    atomicOr(b + VW_ZEROS_HI, (uint32_t)(zeros >> 32));
}

/* The last threads of the block put its totals (lane of rank j in the
 * returning group `last`, not in __activemask(): the group may reach this
 * flush split, and each part would add the sums again). */
GM_BLOCK_FLUSH(values)
{
    if (!last || !gm_counters__values) return;
    uint64_t ones = (uint64_t)gm_block_word(words, VW_ONES_HI) << 32 | gm_block_word(words, VW_ONES_LO);
    uint64_t zeros = (uint64_t)gm_block_word(words, VW_ZEROS_HI) << 32 | gm_block_word(words, VW_ZEROS_LO);
    uint32_t counts = gm_block_word(words, VW_COUNTS);
    va_put(gm_site_counters(gm_counters__values, site, gm_slots__values), last,
           counts & 0xffffu, counts >> 16, ones, zeros);
}

GM_INL void va_record(uint32_t site, uint32_t info, uint64_t value)
{
    if (!gm_counters__values) return;
    uint32_t mask = gm_active();
    uint64_t m = va_width_mask(info), v = value & m;
    int wide = va_wide(info);
    uint32_t *acc = gm_accum__values(site);
    if (acc) {
        va_accumulate(acc, site, mask, v, m, wide);
        return;
    }
    /* outside loops: warp ORs; the value is uniform iff no bit is both */
    uint64_t ones = va_or(mask, v, wide), zeros = va_or(mask, ~v & m, wide);
    int uniform = (ones & zeros) == 0;
    uint32_t *b = gm_block__values(site, VW_N);
    if (b) {
        va_block_add(b, mask, uniform, ones, zeros, wide);
        return;
    }
    va_put(gm_site_counters(gm_counters__values, site, gm_slots__values), mask, 1, (uint64_t)uniform, ones, zeros);
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
