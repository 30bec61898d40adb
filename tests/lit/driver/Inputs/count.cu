// SPDX-License-Identifier: Apache-2.0
// Driver test input: a user handler (--gm-handler) counting memory events per site.
#include <gpumem/handler.h>
GM_COUNTERS(drvcount, 1);
GM_BEFORE_MEM(drvcount)
{
    (void)addr; (void)info; (void)value;
    unsigned long long *c = gm_site_counters(gm_counters__drvcount, site, 1);
    if (c && gm_is_leader())
        atomicAdd(c, 1ull);
}
