// SPDX-License-Identifier: Apache-2.0
// Optional repeat detection for coalescing.cu (included only with
// -DGM_CO_DELTA; measured slower, see bench/results/overhead.md). Device
// code; depends only on the SDK and coalescing.cu's accumulator.
#ifndef GM_COALESCING_DELTA_H
#define GM_COALESCING_DELTA_H
/* Optional (default off; build with -DGM_CO_DELTA): repeat detection.
 * A second accumulator holds this lane's last address of the site (lo,
 * hi; hi bit 31 sticky "never again": set by every lane of an execution
 * that was not a full warp on the accumulator path; 0 = none yet). When
 * every lane of a full warp holds an address and the sector and line
 * indices of all lanes moved by the same amount since then, the unique
 * sectors and lines are those of the previous execution, which (every
 * earlier execution being full and accumulated) is the key the leader
 * (lane 0) holds: extend its run, without the counting. Exact. */
GM_ACCUM(co_last);
GM_ACCUM_FLUSH(co_last) { (void)site; (void)acc; }
#define CO_NEVER 0x80000000u
GM_INL int co_repeat(uint32_t *acc, uint32_t *last, uint32_t mask, uint64_t a)
{
    if (mask != ~0u) return 0;
    uint64_t p = (uint64_t)(last[1] & ~CO_NEVER) << 32 | last[0];
    uint64_t ds = (a >> 5) - (p >> 5);
    uint32_t dl = (uint32_t)((a >> 7) - (p >> 7));
    uint64_t ds0 = __shfl_sync(mask, (unsigned long long)ds, 0);
    uint32_t dl0 = __shfl_sync(mask, dl, 0);
    int ok = p && !(last[1] & CO_NEVER) && ds == ds0 && dl == dl0 &&
             (gm_lane() || (acc[1] && acc[1] != ~0u));
    if (!__all_sync(mask, ok)) return 0;
    last[0] = (uint32_t)a, last[1] = (uint32_t)(a >> 32);
    if (!gm_lane()) acc[1]++;
    return 1;
}
/* After an execution: remember the address (full warp, accumulated) or
 * give up for good. */
GM_INL void co_remember(uint32_t *last, uint32_t mask, uint64_t a, int accumulated)
{
    if (mask == ~0u && accumulated)
        last[0] = (uint32_t)a, last[1] = (uint32_t)(a >> 32) | (last[1] & CO_NEVER);
    else
        last[1] |= CO_NEVER;
}
#endif
