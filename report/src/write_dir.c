/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes a chosen set of report formats (text, json, csv, html) into a
 * directory, creating it if needed. Depends on the report headers and libc.
 */
#include "derived.h"
#include "gm_report_json.h"

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

static int write_one(struct gm_outfiles *out, const char *dir, const char *name,
                     const struct gm_report *r, const struct gm_derived *d, char fmt)
{
    FILE *f = gm_outfiles_open(out, dir, name);
    if (!f)
        return -1;
    int rc = fmt == 'j' ? gm_report_write_json(r, f)
           : fmt == 't' ? gm_text_write(r, d, f) : gm_html_write(r, d, f);
    return gm_outfiles_close(out, f, rc);
}

/* Every file is written under a temporary name first; all are renamed into
 * place only when all are complete (outfiles.h). */
static int write_all(const struct gm_report *r, const struct gm_derived *d, const char *dir,
                     const char *formats, struct gm_outfiles *out)
{
    if (wants(formats, "json") && write_one(out, dir, "report.json", r, d, 'j'))
        return -1;
    if (wants(formats, "text") && write_one(out, dir, "summary.txt", r, d, 't'))
        return -1;
    if (wants(formats, "html") && write_one(out, dir, "report.html", r, d, 'h'))
        return -1;
    if (wants(formats, "csv") && gm_csv_write(r, d, dir, out))
        return -1;
    return gm_outfiles_commit(out);
}

int gm_report_write_dir(const struct gm_report *r, const struct gm_write_opts *o,
                        const char *dir, const char *formats, char *err, size_t errlen)
{
    if (gm_report_check_formats(formats, err, errlen))
        return -1;
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    int bad = stat(dir, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    if (bad) {
        snprintf(err, errlen, "%s: %s", dir, strerror(bad));
        return -1;
    }
    struct gm_derived d;
    int need = wants(formats, "text") || wants(formats, "html") || wants(formats, "csv");
    if (need && gm_derive(r, o, &d)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct gm_outfiles out;
    gm_outfiles_init(&out, err, errlen);
    int rc = write_all(r, need ? &d : NULL, dir, formats, &out);
    gm_outfiles_abort(&out);
    if (need)
        gm_derived_free(&d);
    return rc;
}
