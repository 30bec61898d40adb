// SPDX-License-Identifier: Apache-2.0
// Test handler for the examples' fidelity tests: an empty handler for every
// event (used when --gm-analyses=empty is not available). Depends only on
// the handler SDK.
#include <gpumem/handler.h>

GM_BEFORE_MEM(ex_empty) { (void)site; (void)addr; (void)info; (void)value; }
GM_AFTER_LOAD(ex_empty) { (void)site; (void)addr; (void)info; (void)value; }
GM_BEFORE_BRANCH(ex_empty) { (void)site; (void)info; (void)dir; }
GM_KERNEL_ENTRY(ex_empty) { (void)site; }
GM_KERNEL_EXIT(ex_empty) { (void)site; }
