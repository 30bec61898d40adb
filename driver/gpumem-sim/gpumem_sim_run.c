/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem-sim replay: feeds trace events (from the streaming reader or the
 * synthetic generator) into the simulator, and optionally into the reference
 * model, keeping per-launch results, allocation labels and module sites.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpumem/replay.h"
#include "gpumem_sim.h"
#include "gm_grow.h"

static int fail(struct gm_run *r, const char *msg)
{
    if (!r->err[0]) snprintf(r->err, sizeof r->err, "%s", msg);
    return -1;
}

static int on_module(void *c, uint64_t modid, const char *name, uint32_t n, const struct gm_trace_site *s)
{
    struct gm_run *r = c;
    (void)modid;
    uint32_t m = r->nmods;
    if (GM_GROW_TO(r->mod_nsites, r->cap_mod_nsites, (size_t)m + 1) ||
        GM_GROW_TO(r->mod_sites, r->cap_mod_sites, (size_t)m + 1) ||
        GM_GROW_TO(r->mod_names, r->cap_mod_names, (size_t)m + 1))
        return fail(r, "out of memory");
    r->mod_nsites[m] = n;
    r->mod_sites[m] = NULL;
    snprintf(r->mod_names[m], sizeof r->mod_names[m], "%s", name);
    if (s && n) {
        r->mod_sites[m] = malloc(n * sizeof *s);
        if (!r->mod_sites[m]) return fail(r, "out of memory");
        memcpy(r->mod_sites[m], s, n * sizeof *s);
    }
    r->nmods++;
    return gm_sim_add_module(r->sim, m, n) ? fail(r, "cannot add module") : 0;
}

static int on_alloc(void *c, const struct gm_trace_alloc *a)
{
    struct gm_run *r = c;
    int id = gm_sim_alloc(r->sim, a->base, a->size);
    if (id < 0) {   /* e.g. a sub-allocation inside a pool: count its bytes to the pool */
        if (!r->overlaps++)
            fprintf(stderr, "gpumem-sim: warning: allocation %s at 0x%llx (%llu B) overlaps a live one or is empty; "
                    "its accesses go to the existing one\n", a->label, (unsigned long long)a->base,
                    (unsigned long long)a->size);
        return 0;
    }
    if (r->ref) gm_ref_alloc(r->ref, a->base, a->size);   /* same ids: both accept the same set */
    if (GM_GROW_TO(r->labels, r->cap_labels, (size_t)id + 1) ||   /* one label per allocation */
        GM_GROW_TO(r->alloc_size, r->cap_alloc_size, (size_t)id + 1))
        return fail(r, "out of memory");
    snprintf(r->labels[0], sizeof r->labels[0], "(none)");
    snprintf(r->labels[id], sizeof r->labels[id], "%s", a->label);
    r->alloc_size[0] = 0;
    r->alloc_size[id] = a->size;
    r->nlabels = (uint32_t)id + 1;
    return 0;
}

static int on_copy(void *c, const struct gm_trace_copy *k)
{
    struct gm_run *r = c;
    gm_sim_copy(r->sim, k);
    if (r->ref) gm_ref_copy(r->ref, k);
    r->copies++;
    return 0;
}

static int on_launch(void *c, const struct gm_trace_launch *l)
{
    struct gm_run *r = c;
    const char *m = gm_sim_begin(r->sim, l->carveout);
    if (m) {
        snprintf(r->err, sizeof r->err, "launch %llu (%s): %s", (unsigned long long)l->seq, l->name, m);
        return -1;
    }
    if (r->ref) gm_ref_begin(r->ref, l->carveout);
    if (GM_GROW_TO(r->launches, r->cap_launches, r->nlaunches + 1) ||
        GM_GROW_TO(r->ref_launch, r->cap_ref_launch, r->nlaunches + 1))
        return fail(r, "out of memory");
    memset(&r->launches[r->nlaunches], 0, sizeof *r->launches);
    memset(&r->ref_launch[r->nlaunches], 0, sizeof *r->ref_launch);
    r->launches[r->nlaunches++].l = *l;
    return 0;
}

static int on_records(void *c, const struct gm_access *a, size_t n)
{
    struct gm_run *r = c;
    gm_sim_feed(r->sim, a, n);
    if (r->ref) gm_ref_feed(r->ref, a, n);
    r->launches[r->nlaunches - 1].l.nrecords += n;
    r->records += n;
    return 0;
}

static int on_end(void *c, uint64_t dropped)
{
    struct gm_run *r = c;
    struct gm_run_launch *L = &r->launches[r->nlaunches - 1];
    if (gm_sim_end(r->sim, &L->c) < 0) {
        fprintf(stderr, "gpumem-sim: %s\n", gm_sim_error(r->sim));
        return -1;
    }
    if (r->ref) gm_ref_end(r->ref, &r->ref_launch[r->nlaunches - 1]);
    L->ended = 1;
    L->l.dropped = dropped;
    r->dropped += dropped;
    return 0;
}

struct gm_sink gm_run_sink(struct gm_run *r)
{
    return (struct gm_sink){r, on_module, on_alloc, on_launch, on_records, on_end, on_copy};
}

static int dispatch(struct gm_run *r, const struct gm_trace_event *ev)
{
    switch (ev->kind) {
    case GM_TEV_MODULE: return on_module(r, ev->modid, ev->name, ev->nsites, ev->sites);
    case GM_TEV_ALLOC: return on_alloc(r, &ev->alloc);
    case GM_TEV_FREE:
        gm_sim_release(r->sim, ev->alloc.base);
        if (r->ref) gm_ref_release(r->ref, ev->alloc.base);
        return 0;
    case GM_TEV_LAUNCH: return on_launch(r, &ev->launch);
    case GM_TEV_RECORDS: return on_records(r, ev->recs, ev->nrecs);
    case GM_TEV_LAUNCH_END: return on_end(r, ev->launch.dropped);
    case GM_TEV_COPY: return on_copy(r, &ev->copy);
    default: return 0;
    }
}

/* The trace ended early (torn tail): say so in one line and keep what was
 * read whole; the launch it ended in (if any) is closed with the records
 * of its whole blocks and marked incomplete. -1 when nothing is usable. */
static int torn_tail(struct gm_run *r, struct gm_trace_reader *rd, const char *path)
{
    uint64_t launches, records;
    gm_trace_reader_progress(rd, &launches, &records);
    records = r->records;   /* with deferred decoding the reader does not count them */
    if (!launches && !records) return -1;   /* nothing to simulate */
    struct gm_run_launch *L = &r->launches[r->nlaunches - 1];
    if (!L->ended) {
        if (on_end(r, 0)) return -1;
        L->incomplete = 1;
    }
    char why[512];   /* the reader's message without "trace PATH: " and its parentheses */
    const char *msg = gm_trace_reader_error(rd), *own = strstr(msg, ": ");   /* torn: the reader's own message */
    snprintf(why, sizeof why, "%s", own ? own + 2 : msg);
    char *at = strstr(why, " (at byte ");
    if (at && why[strlen(why) - 1] == ')') {
        why[strlen(why) - 1] = 0;
        memmove(at + 1, at + 2, strlen(at + 2) + 1);
    }
    fprintf(stderr, "gpumem-sim: trace %s ends early after %llu complete launches; %llu records read (%s)\n",
            path, (unsigned long long)launches, (unsigned long long)records, why);
    r->torn = 1;
    return 0;
}

/* Without --ref the simulator's workers decode the record blocks ahead
 * (gpumem/replay.h); the reference model takes the reader's records. */
int gm_run_trace(struct gm_run *r, const char *path)
{
    struct gm_trace_reader *rd = gm_trace_reader_open(path, r->err, sizeof r->err);
    if (!rd) return -1;
    r->gpu = *gm_trace_reader_gpu(rd);
    struct gm_replay *p = r->ref ? NULL : gm_replay_open(rd, r->sim);
    if (p) gm_replay_compact(p, 1);   /* the records only go to gm_sim_feed */
    if (!r->ref && !p) {
        gm_trace_reader_close(rd);
        return fail(r, "out of memory");
    }
    struct gm_trace_event ev;
    int rc;
    while ((rc = p ? gm_replay_next(p, &ev) : gm_trace_reader_next(rd, &ev)) > 0)
        if (dispatch(r, &ev)) break;
    int torn = p ? gm_replay_torn(p) : gm_trace_reader_torn(rd);
    if (rc < 0 && !(torn && torn_tail(r, rd, path) == 0))
        snprintf(r->err, sizeof r->err, "%s", p ? gm_replay_error(p) : gm_trace_reader_error(rd));
    gm_replay_close(p);
    gm_trace_reader_close(rd);
    return r->err[0] ? -1 : 0;
}

int gm_run_finish(struct gm_run *r)
{
    gm_sim_flush_l2(r->sim, &r->final_wb);
    if (r->ref) gm_ref_flush_l2(r->ref, &r->ref_final_wb);
    return 0;
}

void gm_run_free(struct gm_run *r)
{
    gm_sim_free(r->sim);
    if (r->ref) gm_ref_free(r->ref);
    for (uint32_t m = 0; m < r->nmods; m++) free(r->mod_sites[m]);
    free(r->mod_sites);
    free(r->mod_nsites);
    free(r->mod_names);
    free(r->labels);
    free(r->alloc_size);
    free(r->launches);
    free(r->ref_launch);
}
