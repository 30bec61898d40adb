/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace options (see trace_opts.h). Bad values are errors that name the
 * variable, never silently replaced. Pure C17 + POSIX regex + uthash, and
 * the runtime core's output-name expansion (rt_core.h, outname.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>
#include "gpumem/trace.h"
#include "rt_core.h"
#include "trace_opts.h"

struct gm_trace_kcount {
    char *name;
    uint64_t launches;
    UT_hash_handle hh;
};

/* Unsigned decimal in [lo, hi]; 0 or -1 with err set. */
static int parse_u64(const char *var, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
                     char *err, size_t errlen)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || errno || s[0] == '-' || v < lo || v > hi) {
        snprintf(err, errlen, "%s=%s: expected an integer in [%" PRIu64 ", %" PRIu64 "]",
                 var, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_numbers(struct gm_trace_opts *o, const char *(*get)(const char *), char *err,
                         size_t errlen)
{
    const char *s;
    uint64_t v;
    if ((s = get("GPUMEM_TRACE_SAMPLE")) && parse_u64("GPUMEM_TRACE_SAMPLE", s, 1, UINT64_MAX,
                                                      &o->sample, err, errlen)) return -1;
    if ((s = get("GPUMEM_TRACE_MAX_RECORDS")) &&
        parse_u64("GPUMEM_TRACE_MAX_RECORDS", s, 0, UINT64_MAX, &o->max_records, err, errlen))
        return -1;
    if ((s = get("GPUMEM_TRACE_THREADS"))) {
        if (parse_u64("GPUMEM_TRACE_THREADS", s, 1, 32, &v, err, errlen)) return -1;
        o->threads = (int)v;
    }
    if ((s = get("GPUMEM_TRACE_BUFFER_MB"))) {
        if (parse_u64("GPUMEM_TRACE_BUFFER_MB", s, 1, 65536, &v, err, errlen)) return -1;
        o->buffer_bytes = v << 20;
    }
    if ((s = get("GPUMEM_TRACE_SPIN_LIMIT"))) {
        if (parse_u64("GPUMEM_TRACE_SPIN_LIMIT", s, 0, UINT32_MAX, &v, err, errlen)) return -1;
        o->spin_limit = (uint32_t)v;
    }
    if ((s = get("GPUMEM_TRACE_SIM"))) {
        if (parse_u64("GPUMEM_TRACE_SIM", s, 0, 1, &v, err, errlen)) return -1;
        o->online = (int)v;
    }
    return 0;
}

/* The file name in var's value s with %p (this process's id) and %%
 * expanded, malloc'd into *out. The runtime reads the options at the
 * process's first launch of a trace-instrumented module: the process that
 * opens the files (a child forked after that cannot use CUDA). An unknown
 * %x stays as written, named in one line on stderr, as for GPUMEM_OUT.
 * 0 or -1 (out of memory). */
static int out_name(const char *var, const char *s, char **out)
{
    char kept[512];     /* as long as the runtime's warnings (gm_warn) */
    long pid = (long)getpid();
    size_t n = gm_outname_expand(var, s, pid, NULL, 0, NULL, 0);
    if (!(*out = malloc(n + 1))) return -1;
    gm_outname_expand(var, s, pid, *out, n + 1, kept, sizeof kept);
    if (kept[0]) fprintf(stderr, "gpumem: %s\n", kept);
    return 0;
}

static int parse_words(struct gm_trace_opts *o, const char *(*get)(const char *), char *err,
                       size_t errlen)
{
    const char *s;
    if ((s = get("GPUMEM_TRACE_MODE"))) {
        if (!strcmp(s, "block")) o->mode = GM_TRACE_MODE_BLOCK;
        else if (!strcmp(s, "drop")) o->mode = GM_TRACE_MODE_DROP;
        else {
            snprintf(err, errlen, "GPUMEM_TRACE_MODE=%s: expected block or drop", s);
            return -1;
        }
    }
    if ((s = get("GPUMEM_TRACE_SIM_PRESET"))) {
        if (!*s || strlen(s) >= sizeof o->sim_preset) {
            snprintf(err, errlen, "GPUMEM_TRACE_SIM_PRESET=%s: not a preset name", s);
            return -1;
        }
        strcpy(o->sim_preset, s);
    }
    if ((s = get("GPUMEM_TRACE_FILE")) && *s && out_name("GPUMEM_TRACE_FILE", s, &o->file))
        return -1;
    if ((s = get("GPUMEM_TRACE_SIM_OUT")) && *s && out_name("GPUMEM_TRACE_SIM_OUT", s, &o->sim_out))
        return -1;
    return 0;
}

static int parse_filter(struct gm_trace_opts *o, const char *(*get)(const char *), char *err,
                        size_t errlen)
{
    const char *s = get("GPUMEM_TRACE_KERNELS");
    if (!s || !*s) return 0;
    int rc = regcomp(&o->filter, s, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char why[128];
        regerror(rc, &o->filter, why, sizeof why);
        snprintf(err, errlen, "GPUMEM_TRACE_KERNELS=%s: %s", s, why);
        return -1;
    }
    o->have_filter = 1;
    return 0;
}

int gm_trace_opts_parse(struct gm_trace_opts *o, const char *(*get)(const char *), char *err,
                        size_t errlen)
{
    *o = (struct gm_trace_opts){ .online = -1, .sample = 1, .buffer_bytes = 64ull << 20,
                                 .mode = GM_TRACE_MODE_BLOCK, .spin_limit = 50000000u };
    strcpy(o->sim_preset, "h100");
    snprintf(err, errlen, "out of memory");
    if (parse_numbers(o, get, err, errlen) || parse_words(o, get, err, errlen) ||
        parse_filter(o, get, err, errlen)) {
        gm_trace_opts_free(o);
        return -1;
    }
    /* a saved trace is simulated offline (gpumem-sim --threads N) unless asked */
    if (o->online < 0) o->online = !o->file || o->sim_out;
    if (err && errlen) err[0] = 0;
    return 0;
}

void gm_trace_opts_free(struct gm_trace_opts *o)
{
    struct gm_trace_kcount *k, *tmp;
    HASH_ITER(hh, o->counts, k, tmp) {
        HASH_DEL(o->counts, k);
        free(k->name);
        free(k);
    }
    if (o->have_filter) regfree(&o->filter);
    free(o->file);
    free(o->sim_out);
    o->file = o->sim_out = NULL;
    o->have_filter = 0;
}

int gm_trace_opts_select(struct gm_trace_opts *o, const char *kernel, uint64_t *launch_no)
{
    struct gm_trace_kcount *k;
    HASH_FIND_STR(o->counts, kernel, k);
    if (!k) {
        if (!(k = calloc(1, sizeof *k)) || !(k->name = strdup(kernel))) {
            free(k);
            return -1;
        }
        HASH_ADD_KEYPTR(hh, o->counts, k->name, strlen(k->name), k);
    }
    *launch_no = k->launches++;
    if (o->have_filter && regexec(&o->filter, kernel, 0, NULL, 0) != 0) return 0;
    return *launch_no % o->sample == 0;
}

uint64_t gm_trace_opts_capacity(const struct gm_trace_opts *o)
{
    uint64_t slots = (o->buffer_bytes - GM_TRACE_BUF_HDR_SIZE) / GM_TRACE_REC_SIZE;
    uint64_t p = 1;
    while (p * 2 <= slots) p *= 2;     /* a power of two: the handler masks */
    return p;
}
