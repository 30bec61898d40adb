/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: strings stored once per report. A report of a million launches
 * names a handful of files, functions and APIs a million times; each is
 * kept once (in chunks, not one allocation each) and shared, and freed with
 * the report. Depends on gm_report.h and libc only.
 */
#ifndef GM_REPORT_STRPOOL_H
#define GM_REPORT_STRPOOL_H

#include "gm_report.h"

/* The pool's copy of s (NULL for NULL), or NULL with *oom set. */
char *gm_report_intern(struct gm_report *r, const char *s, int *oom);
/* Like gm_report_set_hostsite, with file and func from the pool. */
int gm_report_intern_hostsite(struct gm_report *r, struct gm_report_hostsite *h,
                              const char *file, uint32_t line, const char *func);
void gm_report_strpool_free(struct gm_report *r);

#endif
