/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where drained trace records go: the trace file writer and the online
 * simulator (both from sim/, libgmsim), fed the same events in the same
 * order so an offline replay of the file gives the same numbers. Pure C17;
 * must not depend on CUDA or CUPTI (unit-tested on the CPU).
 */
#ifndef GM_TRACE_SINK_H
#define GM_TRACE_SINK_H

#include <stdio.h>
#include "gpumem/sim.h"
#include "gpumem/trace_io.h"

struct gm_trace_sink_launch;    /* per-launch summary kept for the report */

struct gm_trace_sink {
    struct gm_trace_writer *w;  /* NULL: no file */
    struct gm_sim *sim;         /* NULL: no online simulation */
    FILE *out;                  /* online report (NULL: none) */
    int own_out;
    struct gm_access *buf;      /* decoded records not yet handed on */
    size_t n, cap;
    int failed;                 /* a writer or decode error happened */
    char err[256];
    struct gm_trace_launch cur; /* launch in progress */
    struct gm_counts total;     /* all launches */
    uint64_t launches, records, dropped;
    uint32_t nmodules;
};

/* file: trace file path or NULL; preset: simulator preset or NULL (no
 * online simulation); out: report path or NULL for stderr. 0 or -1 + err. */
int gm_trace_sink_open(struct gm_trace_sink *s, const char *file, const char *preset,
                       const char *out, const struct gm_trace_gpu *gpu, char *err, size_t errlen);
/* Module index = order of the calls (0, 1, ...), as records carry it. */
int gm_trace_sink_module(struct gm_trace_sink *s, uint64_t modid, const char *name,
                         uint32_t nsites, const struct gm_trace_site *sites);
int gm_trace_sink_alloc(struct gm_trace_sink *s, const struct gm_trace_alloc *a);
int gm_trace_sink_free(struct gm_trace_sink *s, uint64_t base, uint64_t seq);
/* A copy or memset the program made between traced launches (COPY
 * section; the online simulator passes it through L2). */
int gm_trace_sink_copy(struct gm_trace_sink *s, const struct gm_trace_copy *c);
int gm_trace_sink_launch(struct gm_trace_sink *s, const struct gm_trace_launch *l);
/* gm_trace_consume_fn: ctx is the sink. */
int gm_trace_sink_record(void *ctx, const struct gm_trace_rec *rec, const struct gm_trace_ext *ext);
/* A RECORDS section of n records coded apart (gm_trace_coder_records);
 * acc: the same records decoded, for the online simulator (NULL: none). */
int gm_trace_sink_coded(struct gm_trace_sink *s, const void *sec, size_t len,
                        const struct gm_access *acc, size_t n);
/* Nonzero when the sink simulates online (records must be decoded for it). */
int gm_trace_sink_simulates(const struct gm_trace_sink *s);
/* Records a failure that happened outside the sink (first one kept). */
int gm_trace_sink_error(struct gm_trace_sink *s, const char *what, const char *why);
/* nrecords and dropped (every record not saved) of the launch. */
int gm_trace_sink_end_launch(struct gm_trace_sink *s, uint64_t nrecords, uint64_t dropped);
/* Flushes the simulator's L2, prints the totals, closes the file. 0 or -1. */
int gm_trace_sink_close(struct gm_trace_sink *s, char *err, size_t errlen);

/* The report line format (shared with tests and the offline comparison). */
void gm_trace_print_counts(FILE *f, const char *what, const struct gm_counts *c);

#endif /* GM_TRACE_SINK_H */
