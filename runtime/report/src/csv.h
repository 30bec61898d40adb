/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: RFC 4180 CSV fields (quoted when they hold a comma, quote or
 * line break). Depends on libc only.
 */
#ifndef GM_REPORT_CSV_H
#define GM_REPORT_CSV_H

#include <stdint.h>
#include <stdio.h>

void gm_csv_str(FILE *f, const char *s, int last);
void gm_csv_u64(FILE *f, uint64_t v, int last);
void gm_csv_i64(FILE *f, int64_t v, int last);
void gm_csv_dbl(FILE *f, double v, int last);
/* Writes a header line from a comma-separated list of column names. */
void gm_csv_header(FILE *f, const char *cols);

#endif
