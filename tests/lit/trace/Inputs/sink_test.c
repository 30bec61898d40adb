/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test of the trace sinks (runtime/trace_sink.c): device slots of a
 * synthetic vector add (c[i] = a[i] + b[i], two launches) go through the
 * sink into a trace file and the online simulator; then the file is read
 * back and replayed into a fresh simulator in the same order. The two
 * reports must be identical (run with: online.txt offline.txt trace.gmt).
 * Test input only; depends on trace_sink.c and libgmsim.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/abi.h"
#include "trace_sink.h"

#define N (1u << 14)
static const uint64_t base[3] = { 0x7f0000000000ull, 0x7f0000100000ull, 0x7f0000200000ull };

static void access_at(struct gm_access *a, uint32_t site, uint64_t b, uint32_t warp)
{
    memset(a, 0, sizeof *a);
    a->active = 0xffffffffu;
    a->site = site;
    a->cta_x = warp / 8;
    a->smid = (uint16_t)(a->cta_x % 132);
    a->warp = (uint8_t)(warp % 8);
    a->width = 4;
    a->kind = site == 2 ? GM_TRACE_STORE : GM_TRACE_LOAD;
    a->space = GM_SPACE_GLOBAL;
    for (int k = 0; k < 32; k++) a->addr[k] = b + ((uint64_t)warp * 32 + k) * 4;
}

static int feed_launch(struct gm_trace_sink *s, uint64_t seq)
{
    struct gm_trace_launch l = { .seq = seq, .grid = { N / 256, 1, 1 }, .block = { 256, 1, 1 },
                                 .carveout = 32u << 10 };
    strcpy(l.name, "_Z10vector_addPKfS0_Pfi");
    if (gm_trace_sink_launch(s, &l)) return -1;
    for (uint32_t w = 0; w < N / 32; w++)
        for (uint32_t site = 0; site < 3; site++) {
            struct gm_access a;
            struct gm_trace_rec r;
            struct gm_trace_ext x;
            access_at(&a, site, base[site], w);
            int slots = gm_trace_rec_encode(&a, &r, &x);
            if (gm_trace_sink_record(s, &r, slots == 2 ? &x : NULL)) return -1;
        }
    return gm_trace_sink_end_launch(s, 3 * N / 32, 0);
}

static int online(const char *out, const char *file)
{
    struct gm_trace_sink s;
    struct gm_trace_gpu gpu = { .name = "synthetic", .sm_count = 132 };
    char err[256];
    if (gm_trace_sink_open(&s, file, "h100", out, &gpu, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    struct gm_trace_site sites[3] = { { 0 } };
    gm_trace_sink_module(&s, 0x1234, "vector_add.cu", 3, sites);
    for (int i = 0; i < 3; i++) {
        struct gm_trace_alloc a = { .base = base[i], .size = N * 4, .free_seq = UINT64_MAX };
        snprintf(a.label, sizeof a.label, "buf%d", i);
        gm_trace_sink_alloc(&s, &a);
    }
    int rc = feed_launch(&s, 0) | feed_launch(&s, 1);
    if (gm_trace_sink_close(&s, err, sizeof err) || rc) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

/* The same event order as the sink, driven from the file. */
static int replay_event(struct gm_sim *sim, FILE *f, const struct gm_trace_event *ev,
                        struct gm_counts *total, uint32_t *nmod, struct gm_trace_launch *cur)
{
    struct gm_counts c = { 0 };
    char what[GM_TRACE_NAME_MAX * 4 + 64];
    switch (ev->kind) {
    case GM_TEV_MODULE: return gm_sim_add_module(sim, (*nmod)++, ev->nsites);
    case GM_TEV_ALLOC: return gm_sim_alloc(sim, ev->alloc.base, ev->alloc.size) < 0;
    case GM_TEV_FREE: gm_sim_release(sim, ev->alloc.base); return 0;
    case GM_TEV_LAUNCH: *cur = ev->launch; return gm_sim_begin(sim, ev->launch.carveout) != NULL;
    case GM_TEV_RECORDS: gm_sim_feed(sim, ev->recs, ev->nrecs); return 0;
    case GM_TEV_LAUNCH_END:
        gm_sim_end(sim, &c);
        gm_counts_add(total, &c);
        snprintf(what, sizeof what, "launch %" PRIu64 " %s records=%" PRIu64 " dropped=%" PRIu64,
                 cur->seq, cur->name, ev->launch.nrecords, ev->launch.dropped);
        gm_trace_print_counts(f, what, &c);
        return 0;
    default: return 0;
    }
}

static int offline(const char *out, const char *file)
{
    char err[256];
    struct gm_trace_reader *r = gm_trace_reader_open(file, err, sizeof err);
    struct gm_sim_config cfg;
    const char *why;
    if (!r || gm_sim_preset(&cfg, "h100")) { fprintf(stderr, "%s\n", err); return -1; }
    struct gm_sim *sim = gm_sim_new(&cfg, &why);
    FILE *f = fopen(out, "w");
    struct gm_trace_event ev;
    struct gm_counts total = { 0 }, flushed = { 0 };
    struct gm_trace_launch cur = { 0 };
    uint32_t nmod = 0;
    int got;
    while ((got = gm_trace_reader_next(r, &ev)) == 1)
        if (replay_event(sim, f, &ev, &total, &nmod, &cur)) { got = -1; break; }
    if (got < 0) fprintf(stderr, "replay: %s\n", gm_trace_reader_error(r));
    gm_sim_flush_l2(sim, &flushed);
    for (uint32_t id = 1; id <= gm_sim_nallocs(sim); id++) {
        char what[64];
        snprintf(what, sizeof what, "alloc %" PRIu32, id);
        gm_trace_print_counts(f, what, gm_sim_alloc_counts(sim, id));
    }
    gm_counts_add(&total, &flushed);
    gm_trace_print_counts(f, "total", &total);
    fclose(f);
    gm_sim_free(sim);
    gm_trace_reader_close(r);
    return got < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: sink_test ONLINE OFFLINE TRACE\n"); return 2; }
    if (online(argv[1], argv[3]) || offline(argv[2], argv[3])) return 1;
    return 0;
}
