/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints the events of a gpumem trace file one per line, in file order
 * (alloc, free, copy, launch, records, launch-end), for tests that check
 * what the runtime wrote and in which order. Test tool only; depends on
 * libgmsim's reader.
 * Usage: trace_events FILE
 */
#include <inttypes.h>
#include <stdio.h>
#include "gpumem/trace_io.h"

static const char *copy_kind(unsigned k)
{
    static const char *const names[] = { "?", "h2d", "d2d", "d2h", "set" };
    return k < 5 ? names[k] : "?";
}

static void print(const struct gm_trace_event *e)
{
    switch (e->kind) {
    case GM_TEV_MODULE: printf("module %016" PRIx64 " sites=%u\n", e->modid, e->nsites); break;
    case GM_TEV_ALLOC:
        printf("alloc 0x%" PRIx64 " %" PRIu64 "\n", e->alloc.base, e->alloc.size);
        break;
    case GM_TEV_FREE: printf("free 0x%" PRIx64 "\n", e->alloc.base); break;
    case GM_TEV_COPY:
        printf("copy %s dst=0x%" PRIx64 " src=0x%" PRIx64 " bytes=%" PRIu64 "\n",
               copy_kind(e->copy.kind), e->copy.dst, e->copy.src, e->copy.bytes);
        break;
    case GM_TEV_LAUNCH: printf("launch %" PRIu64 " %s\n", e->launch.seq, e->launch.name); break;
    case GM_TEV_RECORDS: printf("records %zu\n", e->nrecs); break;
    case GM_TEV_LAUNCH_END:
        printf("end %" PRIu64 " records=%" PRIu64 " dropped=%" PRIu64 "\n", e->launch.seq,
               e->launch.nrecords, e->launch.dropped);
        break;
    default: break;
    }
}

int main(int argc, char **argv)
{
    char err[512];
    struct gm_trace_event e;
    int rc;
    if (argc != 2) {
        fprintf(stderr, "usage: trace_events FILE\n");
        return 2;
    }
    struct gm_trace_reader *r = gm_trace_reader_open(argv[1], err, sizeof err);
    if (!r) {
        fprintf(stderr, "trace_events: %s\n", err);
        return 1;
    }
    while ((rc = gm_trace_reader_next(r, &e)) == 1) print(&e);
    if (rc < 0) fprintf(stderr, "trace_events: %s\n", gm_trace_reader_error(r));
    else printf("eof\n");
    gm_trace_reader_close(r);
    return rc < 0;
}
