/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rewrites a trace file in the current format (version 1 files, e.g., as
 * version 2): every section read and written again in order, each record
 * block coded on its own as the runtime codes them (gm_trace_coder: same
 * blocks, zstd level 1). For comparing the same records in both versions
 * (bench/results/sim-decode-2026-11-28.md).
 * usage: trace_recode IN OUT. Depends on libgmsim's trace reader and writer.
 */
#include <stdio.h>
#include "gpumem/trace_io.h"

static int copy(struct gm_trace_reader *r, struct gm_trace_writer *w, struct gm_trace_coder *c)
{
    struct gm_trace_event ev;
    int rc;
    while ((rc = gm_trace_reader_next(r, &ev)) == 1) {
        int bad = 0;
        switch (ev.kind) {
        case GM_TEV_MODULE: bad = gm_trace_writer_module(w, ev.modid, ev.name, ev.nsites, ev.sites); break;
        case GM_TEV_ALLOC: bad = gm_trace_writer_alloc(w, &ev.alloc); break;
        case GM_TEV_FREE: bad = gm_trace_writer_free(w, ev.alloc.base, ev.alloc.free_seq); break;
        case GM_TEV_COPY: bad = gm_trace_writer_copy(w, &ev.copy); break;
        case GM_TEV_LAUNCH: bad = gm_trace_writer_launch(w, &ev.launch); break;
        case GM_TEV_RECORDS: {
            const void *sec;
            size_t len;
            const char *why = gm_trace_coder_records(c, ev.recs, ev.nrecs, &sec, &len);
            if (why) { fprintf(stderr, "trace_recode: %s\n", why); return -1; }
            bad = gm_trace_writer_coded(w, sec, len, ev.nrecs);
            break;
        }
        case GM_TEV_LAUNCH_END: bad = gm_trace_writer_end_launch(w, ev.launch.dropped); break;
        case GM_TEV_END: break;
        }
        if (bad) { fprintf(stderr, "trace_recode: %s\n", gm_trace_writer_error(w)); return -1; }
    }
    if (rc < 0) fprintf(stderr, "trace_recode: %s\n", gm_trace_reader_error(r));
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: trace_recode IN OUT\n"); return 2; }
    char err[512];
    struct gm_trace_reader *r = gm_trace_reader_open(argv[1], err, sizeof err);
    if (!r) { fprintf(stderr, "trace_recode: %s\n", err); return 1; }
    struct gm_trace_writer *w = gm_trace_writer_open(argv[2], gm_trace_reader_gpu(r), err, sizeof err);
    if (!w) { fprintf(stderr, "trace_recode: %s\n", err); gm_trace_reader_close(r); return 1; }
    struct gm_trace_coder *c = gm_trace_coder_new();
    int rc = c ? copy(r, w, c) : -1;
    gm_trace_coder_free(c);
    gm_trace_reader_close(r);
    if (gm_trace_writer_close(w, rc ? NULL : err, sizeof err)) { fprintf(stderr, "trace_recode: %s\n", err); return 1; }
    return rc ? 1 : 0;
}
