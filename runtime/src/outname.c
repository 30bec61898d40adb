/* SPDX-License-Identifier: Apache-2.0 */
/*
 * %p in the names of output files and directories (see rt_core.h): the
 * report directory (GPUMEM_OUT, report_dir.c) and the trace files
 * (GPUMEM_TRACE_FILE, GPUMEM_TRACE_SIM_OUT, runtime/trace/trace_opts.c)
 * share one expansion and one message, so that the processes of one
 * program (MPI ranks, forked children) each write their own files.
 * Pure C17: depends on libc only.
 */
#include <stdio.h>
#include <string.h>
#include "rt_core.h"

/* The line naming the first sequence kept as written (at s, a '%'). */
static void kept_line(const char *var, const char *name, const char *s, char *err, size_t errlen)
{
    char what[24];
    if (s[1]) snprintf(what, sizeof what, "unknown %%%c", s[1]);
    else snprintf(what, sizeof what, "%% at the end");
    snprintf(err, errlen, "%s=%s: %s kept as written (%%p: the process id, %%%%: a percent sign)",
             var, name, what);
}

size_t gm_outname_expand(const char *var, const char *name, long pid, char *buf, size_t len,
                         char *err, size_t errlen)
{
    size_t n = 0;
    int kept = 0;
    if (errlen) err[0] = '\0';
    for (const char *s = name; *s; s++) {
        char one[24] = { *s };
        if (*s == '%' && s[1] == 'p') {
            snprintf(one, sizeof one, "%ld", pid);
            s++;
        } else if (*s == '%' && s[1] == '%') {
            s++;
        } else if (*s == '%' && !kept++ && errlen) {
            kept_line(var, name, s, err, errlen);
        }
        for (const char *c = one; *c; c++, n++)
            if (n + 1 < len) buf[n] = *c;
    }
    if (len) buf[n < len ? n : len - 1] = '\0';
    return n;
}
