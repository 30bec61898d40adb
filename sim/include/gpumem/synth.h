/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Synthetic traces with known answers (DELTA-style) for tests and benchmarks,
 * delivered to a sink (the trace writer, or the simulator driver). Specs:
 *   PHASE[;PHASE...]   phases run in order inside one launch
 *   PHASE = PATTERN:key=value,key=value
 *   chase   one lane walks [base, base+N) with stride s, iters passes
 *   warp    n records; lane k of record i at base + (i*step + k*s) mod N
 *   random  n records, lanes uniformly random 4-byte-aligned in [base, base+N)
 *   list    one single-lane record per address in a=ADDR/ADDR/... (offsets)
 *   copy    before each launch, a copy of N bytes to base: dir=h2d|d2d|d2h|set
 *           (d2d and d2h read from src); no records
 * common keys: N (bytes, default 1M), s (default 4), width (default 4),
 * kind=ld|st|atom, space=global|local|shared, sms (records go round-robin to
 * SMs 0..sms-1, default 1), base, label, iters, n, step, lanes, seed,
 * carveout (launch), launches (repeat the whole launch, default 1),
 * allocs (cut the region into this many allocations, announced in a
 * scattered address order), sites (phase 0: the number of sites the module
 * claims), site (the records' site id; default the phase index).
 * Pure C; the only output goes through the sink.
 */
#ifndef GPUMEM_SYNTH_H
#define GPUMEM_SYNTH_H

#include <stddef.h>
#include "gpumem/trace_io.h"

struct gm_sink {
    void *ctx;
    int (*module)(void *ctx, uint64_t modid, const char *name, uint32_t nsites,
                  const struct gm_trace_site *sites);
    int (*alloc)(void *ctx, const struct gm_trace_alloc *a);
    int (*launch)(void *ctx, const struct gm_trace_launch *l);
    int (*records)(void *ctx, const struct gm_access *a, size_t n);
    int (*end_launch)(void *ctx, uint64_t dropped);
    int (*copy)(void *ctx, const struct gm_trace_copy *c);
};

/* Returns 0, or -1 with a one-line message in err (bad spec or sink error). */
int gm_synth(const char *spec, const struct gm_sink *sink, char *err, size_t errlen);
/* The sink that writes a trace file through w. */
struct gm_sink gm_synth_writer_sink(struct gm_trace_writer *w);

#endif
