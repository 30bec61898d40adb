/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test helper of the report library's unit tests: a report written as JSON
 * into a string of its own (open_memstream), checked with CHECK. Depends
 * on check.h, the report library and POSIX (include after defining
 * _POSIX_C_SOURCE).
 */
#ifndef GM_REPORT_TO_JSON_H
#define GM_REPORT_TO_JSON_H

#include "check.h"
#include "gm_report_json.h"

#include <stdio.h>

static char *to_json(const struct gm_report *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    CHECK(gm_report_write_json(r, f) == 0);
    fclose(f);
    return buf;
}

#endif
