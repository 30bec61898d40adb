// SPDX-License-Identifier: Apache-2.0
// Test handler set "cnt" in CUDA C: per-site warp executions and active
// threads of memory sites, taken/not-taken counts of branches (cuda.cu).
#include <gpumem/handler.h>
GM_COUNTERS_NAMED(cnt, 2, "execs,threads");
GM_BEFORE_MEM(cnt) {
  unsigned long long *c = gm_site_counters(gm_counters__cnt, site, gm_slots__cnt);
  uint32_t m = gm_active();
  if (c && gm_is_leader_of(m)) {
    atomicAdd(c, 1ull);
    atomicAdd(c + 1, (unsigned long long)__popc(m));
  }
}
GM_BEFORE_BRANCH(cnt) {
  unsigned long long *c = gm_site_counters(gm_counters__cnt, site, gm_slots__cnt);
  if (c && gm_is_leader()) atomicAdd(c + (dir & 1), 1ull);
}
