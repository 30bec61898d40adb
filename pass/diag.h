/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Diagnostic switches of the pass (-gm-diag-* options, plugin.cpp), for A/B
 * measurements: set once per module by gm_pass_run, read where the switched
 * step runs (block.c, loopinv.c) without threading the options through.
 * Depends on gm_pass.h only.
 */
#ifndef GM_PASS_DIAG_H
#define GM_PASS_DIAG_H

#include "gm_pass.h"

void gm_diag_set(unsigned bits);   /* GM_DIAG_* of struct gm_pass_options */
int gm_diag(unsigned bit);         /* 1 if the switch is on */

#endif
