/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RFC 4180 CSV fields for the report's tables. Depends on libc only.
 */
#include "csv.h"

#include <inttypes.h>
#include <string.h>

static void end(FILE *f, int last) { fputc(last ? '\n' : ',', f); }

void gm_csv_str(FILE *f, const char *s, int last)
{
    s = s ? s : "";
    if (strpbrk(s, ",\"\r\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    end(f, last);
}

void gm_csv_u64(FILE *f, uint64_t v, int last)
{
    fprintf(f, "%" PRIu64, v);
    end(f, last);
}

void gm_csv_i64(FILE *f, int64_t v, int last)
{
    fprintf(f, "%" PRId64, v);
    end(f, last);
}

void gm_csv_dbl(FILE *f, double v, int last)
{
    fprintf(f, "%.6g", v);
    end(f, last);
}

void gm_csv_header(FILE *f, const char *cols)
{
    fprintf(f, "%s\n", cols);
}
