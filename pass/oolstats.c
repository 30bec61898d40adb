/* SPDX-License-Identifier: Apache-2.0 */
/*
 * -gm-diag-sites: how the code growth budget (outline.c) was spent in a
 * kernel, one line to stderr:
 *   gpumem: inline KERNEL: budget SPENT/BUDGET insts, ACC accumulators,
 *     MACC in memory; loop sites INL/N (steps INL/N); depth D: INL/N (steps INL/N) ...
 * INL of N sites on CFG cycles got their budgeted handlers inlined, by
 * loop nesting depth (deepest first); "steps" are the memory sites whose
 * address is fixed or steps by an invariant D (loopinv.c). For measuring
 * the budget's effect without a GPU (bench/results). Depends on LLVM-C
 * (Core) and internal.h only.
 */
#include <stdio.h>
#include "internal.h"

#define GM_DEPTHS 8   /* deeper loops are counted with depth 8 */

struct tally { unsigned n, hot, steps, hotsteps; };

static void add(struct tally *t, unsigned char plan)
{
    t->n++;
    t->hot += (plan & GM_OOL_HOT) != 0;
    t->steps += (plan & GM_OOL_STEP) != 0;
    t->hotsteps += (plan & GM_OOL_STEP) && (plan & GM_OOL_HOT);
}

void gm_ool_print_plan(const struct gm_ool *o, LLVMValueRef f, size_t i0, size_t i1,
                       unsigned long long spent, unsigned long long budget, unsigned acc,
                       unsigned macc)
{
    struct tally all = {0}, by[GM_DEPTHS + 1] = {{0}};
    for (size_t i = i0; i < i1; i++) {
        if (!(o->plan[i] & GM_OOL_LOOP))
            continue;
        add(&all, o->plan[i]);
        add(&by[o->depth[i] < GM_DEPTHS ? o->depth[i] : GM_DEPTHS], o->plan[i]);
    }
    if (!all.n)
        return;
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    fprintf(stderr, "gpumem: inline %.*s: budget %llu/%llu insts, %u accumulators, %u in memory; "
            "loop sites %u/%u (steps %u/%u)", (int)n, name, spent, budget, acc, macc,
            all.hot, all.n, all.hotsteps, all.steps);
    for (int d = GM_DEPTHS; d >= 1; d--)
        if (by[d].n)
            fprintf(stderr, "; depth %d: %u/%u (steps %u/%u)", d, by[d].hot, by[d].n,
                    by[d].hotsteps, by[d].steps);
    fputc('\n', stderr);
}
