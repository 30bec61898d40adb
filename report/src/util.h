/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal helpers of the report library: byte counts, findings, names;
 * with common/'s formatted strings and demangling. Depends on the report
 * headers, common/ and libc.
 */
#ifndef GM_REPORT_UTIL_H
#define GM_REPORT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "gm_analysis.h"
#include "gm_demangle.h"   /* common/: gm_demangle */
#include "gm_strf.h"       /* common/: gm_strf */

/* "1.50 MiB" style (exact "N B" below 1 KiB) into buf. */
const char *gm_fmt_bytes(uint64_t bytes, char *buf, size_t len);
/* Appends a finding (what/suggestion taken over). NULL on OOM (both freed). */
struct gm_finding *gm_findings_add(struct gm_findings *f, enum gm_pattern p, uint64_t alloc,
                                   uint64_t bytes, char *what, char *suggestion);
/* "label (#id)" or "#id" of an allocation (gm_alloc_name without a lookup). */
const char *gm_alloc_label(const struct gm_report_alloc *a, char *buf, size_t len);
int gm_hostsite_same(const struct gm_report_hostsite *a, const struct gm_report_hostsite *b);

#endif
