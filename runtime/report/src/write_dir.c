/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes a chosen set of report formats (text, json, csv, html) into a
 * directory, creating it if needed. Depends on the report headers and libc.
 */
#include "gm_report_json.h"
#include "gm_report_write.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *const known[] = {"text", "json", "csv", "html", "all", NULL};

/* Is `name` in the comma-separated list (or is "all" there)? */
static int wants(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, ",");
        if ((len == n && strncmp(p, name, n) == 0) || (len == 3 && strncmp(p, "all", 3) == 0))
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

int gm_report_check_formats(const char *formats, char *err, size_t errlen)
{
    for (const char *p = formats; p && *p;) {
        size_t len = strcspn(p, ",");
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strlen(known[i]) == len && strncmp(p, known[i], len) == 0;
        if (!ok) {
            snprintf(err, errlen, "unknown report format '%.*s' (known: text, json, csv, html, all)",
                     (int)len, p);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    if (!formats || !*formats) {
        snprintf(err, errlen, "empty list of report formats");
        return -1;
    }
    return 0;
}

typedef int (*file_writer)(const struct gm_report *r, const struct gm_write_opts *o, FILE *f);

static int json_writer(const struct gm_report *r, const struct gm_write_opts *o, FILE *f)
{
    (void)o;
    return gm_report_write_json(r, f);
}

static int write_file(const char *dir, const char *name, file_writer w,
                      const struct gm_report *r, const struct gm_write_opts *o, char *err,
                      size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int rc = w(r, o, f);
    if ((fclose(f) | rc) != 0) {
        snprintf(err, errlen, "%s: write error", path);
        return -1;
    }
    return 0;
}

int gm_report_write_dir(const struct gm_report *r, const struct gm_write_opts *o,
                        const char *dir, const char *formats, char *err, size_t errlen)
{
    if (gm_report_check_formats(formats, err, errlen))
        return -1;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (wants(formats, "json") && write_file(dir, "report.json", json_writer, r, o, err, errlen))
        return -1;
    if (wants(formats, "text") &&
        write_file(dir, "summary.txt", gm_report_write_text, r, o, err, errlen))
        return -1;
    if (wants(formats, "html") &&
        write_file(dir, "report.html", gm_report_write_html, r, o, err, errlen))
        return -1;
    if (wants(formats, "csv") && gm_report_write_csv(r, o, dir, err, errlen))
        return -1;
    return 0;
}
