/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The -gm-diag-* switches of the module being instrumented (diag.h).
 * clang runs the pass on one module at a time in a process; gm_pass_run
 * sets them before any step. Depends on diag.h only.
 */
#include "diag.h"

static unsigned gm_diag_bits;

void gm_diag_set(unsigned bits)
{
    gm_diag_bits = bits;
}

int gm_diag(unsigned bit)
{
    return (gm_diag_bits & bit) != 0;
}
