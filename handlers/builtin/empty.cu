// SPDX-License-Identifier: Apache-2.0
// Built-in analysis "empty": a handler for every event that does nothing.
// Used by the fidelity test (calls at every site, no effect) and as the
// overhead floor in bench/. Depends only on the handler SDK.
#include <gpumem/handler.h>

GM_BEFORE_MEM(empty) { (void)site; (void)addr; (void)info; (void)value; }
GM_AFTER_LOAD(empty) { (void)site; (void)addr; (void)info; (void)value; }
GM_BEFORE_BRANCH(empty) { (void)site; (void)info; (void)dir; }
GM_KERNEL_ENTRY(empty) { (void)site; }
GM_KERNEL_EXIT(empty) { (void)site; }
