/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The runtime's environment variables: at start, one line for each
 * GPUMEM_* (or GPU_MEM_*) variable the runtime does not know, naming the
 * nearest known one (a typo otherwise just yields no report); and strict
 * parsing of numeric variables (digits only, in range; anything else is
 * named in one line and the default used). Every variable the runtime or
 * its tracing reads must be listed in g_known. Depends on libc only.
 */
#include "rt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* docs/runtime.md (Environment) and docs/trace.md list what each does. */
static const char *const g_known[] = {
    "GPUMEM_OUT", "GPUMEM_FORMAT", "GPUMEM_QUIET", "GPUMEM_DISABLE", "GPUMEM_SYMBOLIZE",
    "GPUMEM_ALLOC_GRANULARITY", "GPUMEM_MAX_EVENTS", "GPUMEM_FORCE", "GPUMEM_VERBOSE",
    "GPUMEM_KERNEL_REGEX", "GPUMEM_LAUNCH_SKIP", "GPUMEM_LAUNCH_EVERY", "GPUMEM_LAUNCH_COUNT",
    "GPUMEM_TRACE_FILE", "GPUMEM_TRACE_KERNELS", "GPUMEM_TRACE_SAMPLE",
    "GPUMEM_TRACE_MAX_RECORDS", "GPUMEM_TRACE_BUFFER_MB", "GPUMEM_TRACE_SPIN_LIMIT",
    "GPUMEM_TRACE_MODE", "GPUMEM_TRACE_SIM", "GPUMEM_TRACE_SIM_OUT", "GPUMEM_TRACE_SIM_PRESET",
    "GPUMEM_RUNTIME", /* read by the loader in instrumented objects (docs/linking.md) */
    NULL};

/* Levenshtein distance of a[0..n) and b, for names up to 63 characters. */
static size_t distance(const char *a, size_t n, const char *b)
{
    size_t m = strlen(b), row[64];
    if (n > 63 || m > 63) return 64;
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[m];
}

static int is_known(const char *name, size_t n)
{
    for (int i = 0; g_known[i]; i++)
        if (strlen(g_known[i]) == n && strncmp(g_known[i], name, n) == 0) return 1;
    return 0;
}

/* The known name closest to name[0..n), if it is close enough to be a typo. */
static const char *nearest(const char *name, size_t n)
{
    const char *best = NULL;
    size_t bd = (size_t)-1;
    for (int i = 0; g_known[i]; i++) {
        size_t d = distance(name, n, g_known[i]);
        if (d < bd) bd = d, best = g_known[i];
    }
    return bd <= 3 || bd * 3 <= n ? best : NULL;
}

void gm_env_check(void)
{
    for (char **e = environ; e && *e; e++) {
        const char *v = *e;
        size_t n = strcspn(v, "=");
        if (strncmp(v, "GPUMEM_", 7) != 0 && strncmp(v, "GPU_MEM_", 8) != 0) continue;
        if (is_known(v, n)) continue;
        const char *near = nearest(v, n);
        if (near) gm_warn("%.*s is not a gpumem variable (ignored); did you mean %s?", (int)n, v, near);
        else gm_warn("%.*s is not a gpumem variable (ignored; docs/runtime.md lists them)", (int)n, v);
    }
}

uint64_t gm_env_u64(const char *name, uint64_t def, uint64_t min, uint64_t max)
{
    const char *s = getenv(name);
    if (!s) return def;
    char *end = NULL;
    errno = 0;
    unsigned long long v = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
    if (!end || *end || errno == ERANGE) {
        gm_warn("%s=%s is not a number; using %llu", name, s, (unsigned long long)def);
        return def;
    }
    if (v < min || v > max) {
        gm_warn("%s=%s is out of range (%llu to %llu); using %llu", name, s,
                (unsigned long long)min, (unsigned long long)max, (unsigned long long)def);
        return def;
    }
    return v;
}
