/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Module load: read the site tables of every device image CUPTI reports
 * (CUPTI_CBID_RESOURCE_MODULE_LOADED) into the registry. Images without
 * tables (uninstrumented code, libraries) are left alone silently; a table
 * or image that cannot be read is reported in one line. Depends on CUPTI
 * types and the runtime core; never on LLVM.
 */
#include "rt.h"

void gm_on_module_loaded(const CUpti_ResourceData *rd)
{
    const CUpti_ModuleResourceData *m = rd ? rd->resourceDescriptor : NULL;
    if (!m || !m->pCubin || m->cubinSize == 0) return;
    char err[320] = "";
    pthread_mutex_lock(&gm_st.lock);
    int n = gm_modreg_add_image(&gm_st.reg, m->pCubin, m->cubinSize, err, sizeof err);
    unsigned nerr = err[0] ? (unsigned)++gm_st.image_errors : 0;
    pthread_mutex_unlock(&gm_st.lock);
    gm_debug("module %u loaded (%zu bytes): %d new site tables", m->moduleId, m->cubinSize, n);
    if (nerr && nerr <= 5)
        gm_warn("module %u: %s%s", m->moduleId, err, nerr == 5 ? " (further such messages suppressed)" : "");
}
