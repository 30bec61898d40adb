/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace options from environment variables and the per-launch decision
 * (kernel filter, launch sampling). Pure C17 + POSIX regex + uthash and
 * the runtime core's rt_core.h (outname.c); must not depend on CUDA, so it
 * is unit-tested anywhere. In the two PATHs, %p is the process id and %%
 * one % (as in GPUMEM_OUT); an unknown %x stays as written, named in one
 * line on stderr when the options are read.
 *
 *   GPUMEM_TRACE_FILE=PATH         save the trace (zstd file, gpumem-sim replays it)
 *   GPUMEM_TRACE_SIM=0|1           simulate online as the trace drains (default 1 without
 *                                  GPUMEM_TRACE_FILE or with GPUMEM_TRACE_SIM_OUT, else 0)
 *   GPUMEM_TRACE_THREADS=N         threads that code the trace, 1..32 (default cores - 2)
 *   GPUMEM_TRACE_SIM_PRESET=NAME   simulator preset (default h100)
 *   GPUMEM_TRACE_SIM_OUT=PATH      online simulation report (default stderr)
 *   GPUMEM_TRACE_KERNELS=REGEX     trace launches of kernels whose (mangled) name matches
 *   GPUMEM_TRACE_SAMPLE=N          trace launches 0, N, 2N, ... of each kernel (default 1)
 *   GPUMEM_TRACE_MAX_RECORDS=N     record cap per launch (default 0 = none)
 *   GPUMEM_TRACE_BUFFER_MB=N       device ring size (default 64)
 *   GPUMEM_TRACE_MODE=block|drop   back-pressure (default) or drop when full
 *   GPUMEM_TRACE_SPIN_LIMIT=N      polls a blocked warp waits before dropping (0 = forever)
 */
#ifndef GM_TRACE_OPTS_H
#define GM_TRACE_OPTS_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

struct gm_trace_kcount;     /* launches seen per kernel name (uthash) */

struct gm_trace_opts {
    char *file;             /* NULL: no file */
    char *sim_out;          /* NULL: stderr */
    char sim_preset[32];
    int online;
    int have_filter;
    regex_t filter;
    uint64_t sample;        /* >= 1 */
    uint64_t max_records;
    uint64_t buffer_bytes;
    uint32_t mode;          /* GM_TRACE_MODE_* */
    uint32_t spin_limit;
    int threads;            /* coding threads, 0: cores - 2 */
    struct gm_trace_kcount *counts;
};

/* Reads the variables through get (getenv in the runtime). Returns 0, or -1
 * with a one-line message naming the variable in err. */
int gm_trace_opts_parse(struct gm_trace_opts *o, const char *(*get)(const char *),
                        char *err, size_t errlen);
void gm_trace_opts_free(struct gm_trace_opts *o);
/* Counts this launch of `kernel` and says whether to trace it (1) or not (0);
 * -1 when out of memory. *launch_no is the launch's number for that kernel. */
int gm_trace_opts_select(struct gm_trace_opts *o, const char *kernel, uint64_t *launch_no);
/* Device ring capacity in slots for the configured buffer size. */
uint64_t gm_trace_opts_capacity(const struct gm_trace_opts *o);

#endif /* GM_TRACE_OPTS_H */
