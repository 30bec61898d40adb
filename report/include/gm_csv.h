/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RFC 4180 CSV fields (quoted when they hold a comma, quote or line break,
 * quotes doubled): the one CSV writer of gpumem, for the report library's
 * tables and the runtime's raw counter and timeline dumps. Each call writes
 * one field and the comma after it, or the line break when `last`.
 * Depends on gm_report.h and libc only.
 */
#ifndef GM_CSV_H
#define GM_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "gm_report.h"

void gm_csv_str(FILE *f, const char *s, int last);
/* Quoted whatever it holds (a field that always has been, like the
 * runtime timeline's "file:line function" call sites). */
void gm_csv_quoted(FILE *f, const char *s, int last);
void gm_csv_u64(FILE *f, uint64_t v, int last);
void gm_csv_i64(FILE *f, int64_t v, int last);
void gm_csv_dbl(FILE *f, double v, int last);
/* "0x" and lower-case hex digits, no leading zeros. */
void gm_csv_hex(FILE *f, uint64_t v, int last);
/* A host site as "FILE:LINE", "FILE" (line 0) or "?" (no file): the field
 * gm_csv_str would write for gm_hostsite_str's text, without the copy. */
void gm_csv_site(FILE *f, const struct gm_report_hostsite *h, int last);
/* Writes a header line from a comma-separated list of column names. */
void gm_csv_header(FILE *f, const char *cols);

#endif
