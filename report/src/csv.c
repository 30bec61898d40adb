/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RFC 4180 CSV fields (see gm_csv.h). Numbers are formatted here,
 * not by printf, and written without the stream lock (a table is written
 * by one thread): a table has a row per launch and per event, millions in
 * a large report. Depends on libc (glibc or musl: fwrite_unlocked) only.
 */
#define _GNU_SOURCE /* fwrite_unlocked: a table is written by one thread */
#include "gm_csv.h"

#include <string.h>

static void end(FILE *f, int last) { putc_unlocked(last ? '\n' : ',', f); }

/* s[0..n) with its quotes doubled (inside a quoted field). */
static void doubled(FILE *f, const char *s, size_t n)
{
    for (const char *q; n && (q = memchr(s, '"', n));) {
        fwrite_unlocked(s, 1, (size_t)(q - s) + 1, f);
        putc_unlocked('"', f);
        n -= (size_t)(q - s) + 1;
        s = q + 1;
    }
    fwrite_unlocked(s, 1, n, f);
}

/* s[0..n) quoted when it holds a comma, quote or line break (quote set),
 * else as it is. */
static void field(FILE *f, const char *s, size_t n, int quote)
{
    if (!quote) {
        fwrite_unlocked(s, 1, n, f);
        return;
    }
    putc_unlocked('"', f);
    doubled(f, s, n);
    putc_unlocked('"', f);
}

static int needs_quotes(const char *s) { return s[strcspn(s, ",\"\r\n")] != 0; }

void gm_csv_str(FILE *f, const char *s, int last)
{
    s = s ? s : "";
    field(f, s, strlen(s), needs_quotes(s));
    end(f, last);
}

void gm_csv_quoted(FILE *f, const char *s, int last)
{
    s = s ? s : "";
    field(f, s, strlen(s), 1);
    end(f, last);
}

/* Decimal digits of v, ending at b + 24; returns where they start. */
static char *digits(char b[24], uint64_t v)
{
    char *p = b + 24;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    return p;
}

void gm_csv_u64(FILE *f, uint64_t v, int last)
{
    char b[24], *p = digits(b, v);
    fwrite_unlocked(p, 1, (size_t)(b + 24 - p), f);
    end(f, last);
}

void gm_csv_i64(FILE *f, int64_t v, int last)
{
    char b[24], *p = digits(b, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
    if (v < 0)
        *--p = '-';
    fwrite_unlocked(p, 1, (size_t)(b + 24 - p), f);
    end(f, last);
}

void gm_csv_hex(FILE *f, uint64_t v, int last)
{
    static const char hex[] = "0123456789abcdef";
    char b[24], *p = b + 24;
    do
        *--p = hex[v & 15];
    while (v >>= 4);
    *--p = 'x';
    *--p = '0';
    fwrite_unlocked(p, 1, (size_t)(b + 24 - p), f);
    end(f, last);
}

void gm_csv_site(FILE *f, const struct gm_report_hostsite *h, int last)
{
    if (!h || !h->file) {
        gm_csv_str(f, "?", last);
        return;
    }
    char b[24], *p = b + 24;
    if (h->line) {
        p = digits(b, h->line);
        *--p = ':';
    }
    /* "FILE:LINE" as one field: quoted as a whole when the file needs it */
    int quote = needs_quotes(h->file);
    if (quote)
        putc_unlocked('"', f);
    doubled(f, h->file, strlen(h->file));
    fwrite_unlocked(p, 1, (size_t)(b + 24 - p), f);
    if (quote)
        putc_unlocked('"', f);
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
