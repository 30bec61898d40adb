// SPDX-License-Identifier: Apache-2.0
// Test handler for the examples' fidelity tests: at every event a volatile
// inline-asm statement that uses the arguments. The optimiser must treat it
// as a call that may touch memory, so it stands in for a real handler at
// each site (an empty one is inlined away and proves less), yet it emits no
// PTX memory instruction itself. Depends only on the handler SDK.
#include <gpumem/handler.h>

GM_BEFORE_MEM(ex_opaque) { asm volatile("// gm site %0 %1 %2" :: "r"(site), "l"(addr), "r"(info)); (void)value; }
GM_AFTER_LOAD(ex_opaque) { asm volatile("// gm after %0 %1" :: "r"(site), "l"(value)); (void)addr; (void)info; }
GM_BEFORE_BRANCH(ex_opaque) { asm volatile("// gm branch %0 %1" :: "r"(site), "r"(dir)); (void)info; }
GM_KERNEL_ENTRY(ex_opaque) { asm volatile("// gm entry %0" :: "r"(site)); }
GM_KERNEL_EXIT(ex_opaque) { asm volatile("// gm exit %0" :: "r"(site)); }
