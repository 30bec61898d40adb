/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal helpers of the report library: formatted strings, byte counts,
 * findings. Depends on the report headers and libc only.
 */
#ifndef GM_REPORT_UTIL_H
#define GM_REPORT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "gm_analysis.h"

/* malloc'd printf; NULL when out of memory. */
char *gm_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Appends a finding (what/suggestion taken over). NULL on OOM (both freed). */
struct gm_finding *gm_findings_add(struct gm_findings *f, enum gm_pattern p, uint64_t alloc,
                                   uint64_t bytes, char *what, char *suggestion);
/* "label (#id)" or "#id" of an allocation (gm_alloc_name without a lookup). */
const char *gm_alloc_label(const struct gm_report_alloc *a, char *buf, size_t len);
int gm_hostsite_same(const struct gm_report_hostsite *a, const struct gm_report_hostsite *b);

#endif
