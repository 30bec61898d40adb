/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the report's kernel index (kernels.c) is freed with the report.
 * Depends on gm_report.h only.
 */
#ifndef GM_REPORT_KINDEX_H
#define GM_REPORT_KINDEX_H

#include "gm_report.h"

void gm_report_kindex_free(struct gm_report *r);

#endif
