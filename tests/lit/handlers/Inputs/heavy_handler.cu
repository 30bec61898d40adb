// SPDX-License-Identifier: Apache-2.0
// Test input: a handler far over the 16-register budget (many independent
// 64-bit values live at once), to prove regbudget.py can fail.
#include <gpumem/handler.h>
GM_COUNTERS(heavy, 24);
GM_KERNEL_ENTRY(heavy)
{
    unsigned long long *c = gm_counters__heavy;
    if (!c) return;
    unsigned long long v[24];
#pragma unroll
    for (int i = 0; i < 24; i++) v[i] = __ldcg(c + 24 + i * 7 + site);
#pragma unroll
    for (int i = 0; i < 24; i++) atomicAdd(c + i, v[i] * (i + 3));
}
