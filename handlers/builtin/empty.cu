// SPDX-License-Identifier: Apache-2.0
// Built-in analysis "empty": a handler for every event that does nothing.
// Used by the fidelity test (calls at every site, no effect) and as the
// overhead floor in bench/. No lane-dependent control flow, so no
// reconvergence wrapper (the _CONVERGENT macros). Depends only on the SDK.
#include <gpumem/handler.h>

GM_BEFORE_MEM_CONVERGENT(empty) { (void)site; (void)addr; (void)info; (void)value; }
GM_AFTER_LOAD_CONVERGENT(empty) { (void)site; (void)addr; (void)info; (void)value; }
GM_BEFORE_BRANCH_CONVERGENT(empty) { (void)site; (void)info; (void)dir; }
GM_KERNEL_ENTRY_CONVERGENT(empty) { (void)site; }
GM_KERNEL_EXIT_CONVERGENT(empty) { (void)site; }
