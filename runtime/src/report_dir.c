/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the report goes and the one line that says so. Without GPUMEM_OUT
 * an instrumented program writes its report into ./gpumem-<program> (the
 * name `gpumem profile` uses too) and prints only
 *   gpumem: report in DIR (summary.txt, report.json, *.csv)
 * at exit; GPUMEM_VERBOSE=1 adds the counter tables on stderr, as before.
 * In GPUMEM_OUT, %p is the process id (as in Nsight's and valgrind's
 * output names), so that the processes of one program (MPI ranks, forked
 * children) each write their own report; %% is one % (outname.c).
 * Depends on libc only.
 */
#include "rt.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void default_dir(char *buf, size_t len)
{
    extern char *program_invocation_short_name; /* glibc */
    const char *prog = program_invocation_short_name;
    snprintf(buf, len, "gpumem-%s", prog && *prog ? prog : "report");
}

/* GPUMEM_OUT expanded into buf: 1; 0 when it is not set; -1 when too long. */
static int expanded(char *buf, size_t len, char *err, size_t errlen)
{
    const char *out = getenv("GPUMEM_OUT");
    if (!out || !*out) return 0;
    if (gm_outname_expand("GPUMEM_OUT", out, (long)getpid(), buf, len, err, errlen) < len)
        return 1;
    snprintf(err, errlen, "longer than %zu characters once expanded", len - 1);
    return -1;
}

int gm_report_dir(char *buf, size_t len)
{
    if (expanded(buf, len, NULL, 0) > 0) return 1;
    default_dir(buf, len);
    return 0;
}

void gm_report_dir_check(void)
{
    char buf[GM_REPORT_DIR_MAX], err[GM_REPORT_DIR_MAX + 128];
    int r = expanded(buf, sizeof buf, err, sizeof err);
    if (r > 0 && err[0]) {
        gm_warn("%s", err);
    } else if (r < 0) {
        default_dir(buf, sizeof buf);
        gm_warn("GPUMEM_OUT is %s; the report goes to %s", err, buf);
    }
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
