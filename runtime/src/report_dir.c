/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the report goes and the one line that says so. Without GPUMEM_OUT
 * an instrumented program writes its report into ./gpumem-<program> (the
 * name `gpumem profile` uses too) and prints only
 *   gpumem: report in DIR (summary.txt, report.json, *.csv)
 * at exit; GPUMEM_VERBOSE=1 adds the counter tables on stderr, as before.
 * Depends on libc only.
 */
#include "rt.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const char *gm_report_dir(char *buf, size_t len)
{
    const char *dir = getenv("GPUMEM_OUT");
    if (dir && *dir) return dir;
    extern char *program_invocation_short_name; /* glibc */
    const char *prog = program_invocation_short_name;
    snprintf(buf, len, "gpumem-%s", prog && *prog ? prog : "report");
    return buf;
}

int gm_formats_has(const char *formats, const char *f)
{
    size_t n = strlen(f);
    for (const char *p = formats; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        size_t len = strcspn(p, ",");
        if ((len == n && strncmp(p, f, n) == 0) || (len == 3 && strncmp(p, "all", 3) == 0))
            return 1;
    }
    return 0;
}

void gm_report_announce(FILE *f, const char *dir, const char *formats)
{
    static const char *const files[][2] = {{"text", "summary.txt"}, {"json", "report.json"},
                                           {"html", "report.html"}, {"csv", "*.csv"}};
    char list[128] = "";
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (gm_formats_has(formats, files[i][0]))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", *list ? ", " : "",
                     files[i][1]);
    fprintf(f, "gpumem: report in %s (%s)\n", dir, list);
}
