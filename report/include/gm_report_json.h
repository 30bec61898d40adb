/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON form of the report model (schema "gpumem-report", version 1,
 * documented in docs/report-schema.md). Depends on gm_report.h only. The
 * reader streams: a report file is parsed as it is read, one array element
 * at a time, and the writer writes as it walks the model.
 */
#ifndef GM_REPORT_JSON_H
#define GM_REPORT_JSON_H

#include <stdio.h>
#include "gm_report.h"

/* Writes r as JSON to f. Returns 0, or -1 (out of memory or write error). */
int gm_report_write_json(const struct gm_report *r, FILE *f);

/* Parses a JSON report. On error returns NULL and puts one line (no
 * newline) into err, e.g. "allocations[2].size: expected a non-negative
 * integer" or "unsupported schema version 2 (this gpumem reads 1)". */
struct gm_report *gm_report_parse_json(const char *text, size_t len, char *err,
                                       size_t errlen);
/* Reads and parses a file; errors start with the file name. */
struct gm_report *gm_report_load_json(const char *path, char *err, size_t errlen);

#endif
