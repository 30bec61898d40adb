// SPDX-License-Identifier: Apache-2.0
// Test handler set "empty" in CUDA C: an empty handler at every event.
#include <gpumem/handler.h>
GM_BEFORE_MEM(empty) {}
GM_AFTER_LOAD(empty) {}
GM_BEFORE_BRANCH(empty) {}
GM_KERNEL_ENTRY(empty) {}
GM_KERNEL_EXIT(empty) {}
