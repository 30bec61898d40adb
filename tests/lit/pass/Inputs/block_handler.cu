// SPDX-License-Identifier: Apache-2.0
// Test handler for block accumulators (GM_BLOCK, tests/lit/pass/block.ll and
// block_shared.cu): per branch site, warp executions and active threads,
// added to the block's shared words outside loops and flushed once per
// block, or to memory directly where the pass gives no block words.
// Device code; depends only on the handler SDK.
#include <gpumem/handler.h>

GM_COUNTERS_NAMED(blk, 5, "execs,threads,a,b,c");
GM_BLOCK(blk);

GM_BEFORE_BRANCH(blk)
{
    if (!gm_counters__blk) return;
    uint32_t mask = gm_active(), n = __popc(mask);
    uint32_t *b = gm_block__blk(site, gm_slots__blk);
    unsigned long long *c = gm_site_counters(gm_counters__blk, site, gm_slots__blk);
    for (uint32_t j = __popc(mask & gm_lanemask_lt()); j < 2; j += n) {
        uint32_t v = j == 0 ? 1 : n;
        if (b) atomicAdd(b + j, v);
        else atomicAdd(c + j, (unsigned long long)v);
    }
}

GM_BLOCK_FLUSH(blk)
{
    if (!last || !gm_counters__blk) return;
    unsigned long long *c = gm_site_counters(gm_counters__blk, site, gm_slots__blk);
    uint32_t n = __popc(last);
    for (uint32_t j = __popc(last & gm_lanemask_lt()); j < 2; j += n)
        atomicAdd(c + j, (unsigned long long)gm_block_word(words, j));
}
