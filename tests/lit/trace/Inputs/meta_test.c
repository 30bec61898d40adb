/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test of runtime/trace_meta.c: allocations from the runtime core's
 * table (runtime/src/alloc.c) reach the trace file in the right order across
 * traced launches (frees before new allocations, other devices and host
 * allocations left out), then the file is read back and its events printed.
 * Test input only; depends on trace_meta.c, trace_sink.c, the runtime core
 * and libgmsim.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "trace_meta.h"

static void launch(struct gm_trace_sink *s, uint64_t seq)
{
    struct gm_trace_launch l = { .seq = seq, .grid = { 1, 1, 1 }, .block = { 32, 1, 1 } };
    strcpy(l.name, "k");
    gm_trace_sink_launch(s, &l);
    gm_trace_sink_end_launch(s, 0, 0);
}

static int dump(const char *file)
{
    char err[256];
    struct gm_trace_reader *r = gm_trace_reader_open(file, err, sizeof err);
    struct gm_trace_event ev;
    int got;
    if (!r) { printf("error: %s\n", err); return 1; }
    while ((got = gm_trace_reader_next(r, &ev)) == 1) {
        if (ev.kind == GM_TEV_ALLOC)
            printf("alloc 0x%" PRIx64 " %" PRIu64 " seq=%" PRIu64 " %s\n", ev.alloc.base,
                   ev.alloc.size, ev.alloc.alloc_seq, ev.alloc.label);
        else if (ev.kind == GM_TEV_FREE)
            printf("free 0x%" PRIx64 " seq=%" PRIu64 "\n", ev.alloc.base, ev.alloc.free_seq);
        else if (ev.kind == GM_TEV_LAUNCH)
            printf("launch %" PRIu64 "\n", ev.launch.seq);
    }
    if (got < 0) printf("error: %s\n", gm_trace_reader_error(r));
    gm_trace_reader_close(r);
    return got < 0;
}

static int to_alloc(void *c, const struct gm_trace_alloc *a) { return gm_trace_sink_alloc(c, a); }
static int to_free(void *c, uint64_t base, uint64_t seq) { return gm_trace_sink_free(c, base, seq); }

int main(int argc, char **argv)
{
    struct gm_alloc_table t;
    struct gm_trace_sink s;
    struct gm_trace_meta m = { 0 };
    struct gm_trace_gpu gpu = { .name = "test" };
    char err[256];
    if (argc != 2 || gm_trace_sink_open(&s, argv[1], NULL, NULL, &gpu, err, sizeof err)) {
        printf("error: %s\n", argc == 2 ? err : "usage: meta_test FILE");
        return 1;
    }
    struct gm_trace_emit em = { .ctx = &s, .alloc = to_alloc, .free = to_free };
    gm_alloc_init(&t);
    gm_alloc_add(&t, 0x1000, 256, GM_ALLOC_DEVICE, 0);
    gm_alloc_add(&t, 0x2000, 512, GM_ALLOC_DEVICE, 0);
    gm_alloc_add(&t, 0x9000, 64, GM_ALLOC_DEVICE, 1);       /* other device */
    gm_alloc_add(&t, 0x7000, 64, GM_ALLOC_HOST, 0);         /* pinned host */
    gm_alloc_set_label(&t, 0x2000, "matrix B");
    gm_trace_meta_allocs(&m, &em, &t, 0, 0);
    launch(&s, 0);
    gm_alloc_remove(&t, 0x1000);
    gm_alloc_add(&t, 0x1000, 128, GM_ALLOC_DEVICE, 0);      /* address reused */
    gm_alloc_add(&t, 0x3000, 64, GM_ALLOC_MANAGED, 0);
    gm_alloc_remove(&t, 0x3000);                            /* never seen by a launch */
    gm_trace_meta_allocs(&m, &em, &t, 0, 1);
    launch(&s, 1);
    gm_trace_meta_free(&m);
    gm_alloc_destroy(&t);
    if (gm_trace_sink_close(&s, err, sizeof err)) { printf("error: %s\n", err); return 1; }
    return dump(argv[1]);
}
