// SPDX-License-Identifier: Apache-2.0
// Test handler set "tc" (gpu_counts.cu): per site, warp executions in
// test_counts[site] and active threads in test_counts[64 + site]; the array
// is defined by the test program, so no runtime is needed.
#include <gpumem/handler.h>
extern "C" __device__ unsigned long long test_counts[128];
GM_INL void tc_count(uint32_t site)
{
    uint32_t m = gm_active();
    if (site < 64 && gm_is_leader_of(m)) {
        atomicAdd(&test_counts[site], 1ull);
        atomicAdd(&test_counts[64 + site], (unsigned long long)__popc(m));
    }
}
GM_BEFORE_MEM(tc) { tc_count(site); }
GM_BEFORE_BRANCH(tc) { tc_count(site); }
GM_KERNEL_ENTRY(tc) { tc_count(site); }
