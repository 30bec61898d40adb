/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public C API of libgpumem (include/gpumem/runtime.h): allocation
 * labels and on-demand reports. The only exported symbols of the library.
 * Depends on the runtime state; no CUDA calls.
 */
#include "rt.h"
#include "gpumem/runtime.h"

#define GM_EXPORT __attribute__((visibility("default")))

GM_HIDDEN void gm_report_flush_now(void);

GM_EXPORT void gm_name_allocation(const void *ptr, const char *label)
{
    if (!ptr || !label) return;
    pthread_mutex_lock(&gm_st.lock);
    gm_alloc_set_label(&gm_st.allocs, (uint64_t)(uintptr_t)ptr, label);
    pthread_mutex_unlock(&gm_st.lock);
}

GM_EXPORT void gm_flush_report(void)
{
    gm_report_flush_now();
}
