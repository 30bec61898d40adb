/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fills the report library's model (report/, gm_report.h) from what
 * the runtime collected, and writes the formats asked for with its writers.
 * Called with the runtime lock held. Depends on the runtime state and
 * gm_report; no CUDA calls.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gm_report.h"
#include "gm_report_write.h"
#include "gpumem/alloctab.h"
#include "gm_search.h"

static void set_site(struct gm_report_hostsite *h, uintptr_t pc, int symbolize)
{
    if (!pc) return;
    struct gm_symbolized s;
    gm_callsite_resolve(pc, &s, symbolize);
    gm_report_set_hostsite(h, s.file, s.line, s.func[0] ? s.func : NULL);
}

static void fill_program(struct gm_report *r, int end_kind, int status)
{
    char buf[8192];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = '\0';
    char *argv[64];
    int argc = 0;
    for (size_t i = 0; i < n && argc < 64; i += strlen(buf + i) + 1) argv[argc++] = buf + i;
    gm_report_set_argv(r, argc, argv);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    r->program.pid = getpid();
    r->program.start_ns = gm_st.wall0_ns;
    r->program.end_ns = (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
    r->program.exit_status = status;
    r->program.end = end_kind == GM_RT_END_SIGNAL ? GM_END_SIGNAL
                   : end_kind == GM_RT_END_EXIT ? GM_END_NORMAL : GM_END_UNKNOWN;
    gm_report_set_str(&r->program.tool_version, "0.1.0");
}

static const char *set_name(const struct gm_rt_sitetab *t, const struct gm_sitetab_global *g)
{
    const char *n = gm_sitetab_str(t, g->name_str);
    size_t p = strlen(GM_COUNTERS_PREFIX);
    return strncmp(n, GM_COUNTERS_PREFIX, p) == 0 ? n + p : n;
}

static void fill_devices(struct gm_report *r)
{
    for (unsigned i = 0; i < gm_st.ndevices; i++) {
        const struct gm_device_info *d = &gm_st.devices[i];
        struct gm_report_device *rd = gm_report_add_device(r, d->ordinal, d->name);
        if (!rd) continue;
        rd->cc_major = d->cc_major, rd->cc_minor = d->cc_minor, rd->sm_count = d->sm_count;
        rd->global_mem = d->global_mem, rd->l2_bytes = d->l2_bytes;
    }
}

/* Appends nm to the comma-separated list unless it is already an entry. */
static void add_analysis(char *list, size_t len, const char *nm)
{
    size_t n = strlen(nm);
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
        if (strcspn(p, ",") == n && strncmp(p, nm, n) == 0) return;
    if (strlen(list) + n + 2 < len) strcat(strcat(list, list[0] ? "," : ""), nm);
}

static void fill_modules(struct gm_report *r, char *analyses, size_t alen)
{
    analyses[0] = '\0';
    for (const struct gm_rt_sitetab *t = NULL; (t = gm_modreg_next(&gm_st.reg, t));) {
        const struct gm_sitetab_header *h = t->hdr;
        struct gm_report_module *m = gm_report_add_module(r, t->modid, gm_sitetab_str(t, h->source_str), h->nsites);
        if (!m) continue;
        m->n_asm_mem = h->n_asm_mem;
        for (uint32_t i = 0; i < h->nsites; i++) {
            const struct gm_site *s = &t->sites[i];
            gm_report_set_site(m, i, s->event, s->space, s->when, s->info, gm_sitetab_str(t, s->func_str),
                               gm_sitetab_str(t, s->file_str), s->line, s->column);
        }
        for (uint32_t i = 0; i < h->nglobals; i++) {
            const struct gm_sitetab_global *g = &t->globals[i];
            if (strcmp(gm_sitetab_str(t, g->name_str), GM_ALLOCTAB_SYM) == 0)
                add_analysis(analyses, alen, "allocations"); /* a table, no counters */
            if (!(g->flags & GM_GLOBAL_COUNTERS)) continue;
            const char *nm = set_name(t, g);
            gm_report_add_counter_set(m, nm, g->slots, g->flags, gm_sitetab_str(t, g->slotnames_str));
            add_analysis(analyses, alen, nm);
        }
    }
}

static void fill_kernels(struct gm_report *r)
{
    struct gm_kstat *k, *tmp;
    HASH_ITER(hh, gm_st.kstats, k, tmp) {
        struct gm_report_kernel *rk = gm_report_get_kernel(r, k->tab->modid, k->name);
        if (rk) rk->gpu_ns = k->gpu_ns;
        for (uint32_t j = 0; rk && j < k->nsets; j++)
            gm_report_fold_kernel_counters(r, rk, set_name(k->tab, k->set_g[j]), k->tab->hdr->nsites,
                                           k->set_g[j]->slots, k->sums[j]);
    }
}

static void fill_launches(struct gm_report *r, int symbolize)
{
    for (size_t i = 0; i < gm_st.nlaunch_recs; i++) {
        const struct gm_launch_rec *l = &gm_st.launch_recs[i];
        struct gm_report_kernel *k = gm_report_get_kernel(r, l->tab ? l->tab->modid : 0, l->kernel);
        if (!k) continue;
        struct gm_report_launch *rl = gm_report_add_launch(r, l->seq, (size_t)(k - r->kernels), l->api);
        if (!rl) continue;
        memcpy(rl->grid, l->grid, sizeof rl->grid);
        memcpy(rl->block, l->block, sizeof rl->block);
        rl->shmem = l->shmem;
        rl->stream = l->stream;
        rl->device = l->device;
        rl->time_ns = (int64_t)l->t_ns;
        rl->gpu_ns = l->gpu_ns;
        set_site(&rl->site, l->callsite, symbolize);
    }
}

static void fill_access(struct gm_report_alloc *ra, const struct gm_astat *st);

/* Launches beyond the timeline limit have no record: take the counts of
 * instrumented kernels from their statistics. */
static void fix_launch_counts(struct gm_report *r)
{
    struct gm_kstat *k, *tmp;
    HASH_ITER(hh, gm_st.kstats, k, tmp) {
        struct gm_report_kernel *rk = gm_report_find_kernel(r, k->tab->modid, k->name);
        if (rk && rk->launches < k->launches) rk->launches = k->launches;
    }
}

/* "f (file:line) <- g (file:line)": the callers above an allocation's site. */
static void set_path(char **dst, const uintptr_t *pcs, int symbolize)
{
    char buf[2048] = "";
    for (int i = 0; i < GM_CALLPATH_MAX && pcs[i]; i++) {
        struct gm_symbolized s;
        gm_callsite_resolve(pcs[i], &s, symbolize);
        size_t n = strlen(buf);
        char loc[540];
        if (s.line) snprintf(loc, sizeof loc, "%s:%u", s.file, s.line);
        else snprintf(loc, sizeof loc, "%s", s.file);
        snprintf(buf + n, sizeof buf - n, "%s%s (%s)", n ? " <- " : "", s.func[0] ? s.func : "?", loc);
    }
    if (buf[0]) gm_report_set_str(dst, buf);
}

static void fill_allocs(struct gm_report *r, int symbolize)
{
    static const char *kind_api[] = {"device", "managed", "async", "pitch", "host"};
    for (size_t i = 0; i < gm_st.allocs.n; i++) {
        const struct gm_alloc *a = gm_st.allocs.all[i];
        const struct gm_tl_event *e = a->alloc_seq ? &gm_st.tl.ev[a->alloc_seq - 1] : NULL;
        struct gm_report_alloc *ra = gm_report_add_alloc(r, a->id, a->base, a->size,
                                                         e && e->api ? e->api : kind_api[a->kind]);
        if (!ra) continue;
        gm_report_set_str(&ra->label, a->label);
        ra->device = a->device;
        ra->freed = !a->live;
        ra->alloc_seq = a->alloc_seq;
        ra->free_seq = a->free_seq;
        set_site(&ra->alloc_site, a->alloc_site, symbolize);
        set_path(&ra->alloc_path, a->alloc_path, symbolize);
        if (!a->live) set_site(&ra->free_site, a->free_site, symbolize);
        const struct gm_astat *st = gm_astat_find(a->id);
        if (st) fill_access(ra, st);
    }
}

/* Histogram bucket of an access count (gm_report.h: 0, then powers of two). */
static unsigned hist_bucket(uint64_t c)
{
    unsigned b = 0;
    while (c && b < GM_REPORT_HIST_BUCKETS - 1) c >>= 1, b++;
    return b;
}

static void fill_access(struct gm_report_alloc *ra, const struct gm_astat *st)
{
    gm_report_alloc_set_bitmap(ra, st->gran, st->bitmap);
    ra->reads = st->reads;
    ra->writes = st->writes;
    ra->sectors = st->rsec + st->wsec;
    ra->hist_chunk = st->chunk;
    for (uint64_t c = 0; c < st->nchunks; c++) ra->hist[hist_bucket(st->chunk_acc[c])]++;
    for (size_t i = 0; i < st->nl; i++) {
        struct gm_report_alloc_launch *l = gm_report_alloc_add_launch(ra, st->l[i].seq, st->l[i].bitmap);
        if (!l) break;
        l->reads = st->l[i].reads;
        l->writes = st->l[i].writes;
        l->touched_units = st->l[i].touched;
    }
}

struct seq_key { const struct gm_report *r; uint64_t seq; };
static int seq_below(const void *ctx, size_t i)
{
    const struct seq_key *k = ctx;
    return k->r->events[i].seq < k->seq;
}

/* Launch events use the allocations the allocations analysis saw touched. */
static void fill_launch_uses(struct gm_report *r)
{
    for (size_t i = 0; i < gm_st.allocs.n; i++) {
        const struct gm_astat *st = gm_astat_find(gm_st.allocs.all[i]->id);
        for (size_t k = 0; st && k < st->nl; k++) {
            struct seq_key key = {r, st->l[k].seq};
            size_t lo = gm_partition_point(r->nevents, seq_below, &key);
            if (lo == r->nevents || r->events[lo].seq != st->l[k].seq) continue;
            uint32_t how = (st->l[k].reads ? GM_USE_READ : 0) | (st->l[k].writes ? GM_USE_WRITE : 0);
            gm_report_event_add_use(&r->events[lo], st->id, how ? how : GM_USE_UNKNOWN, 0, 0);
        }
    }
}

static enum gm_report_op op_of(int kind)
{
    switch (kind) {
    case GM_TL_ALLOC: return GM_OP_ALLOC;
    case GM_TL_FREE: return GM_OP_FREE;
    case GM_TL_COPY: return GM_OP_MEMCPY;
    case GM_TL_SET: return GM_OP_MEMSET;
    default: return GM_OP_LAUNCH;
    }
}

static void add_use(struct gm_report_event *re, uint64_t id, uint64_t addr, uint64_t bytes, uint32_t how)
{
    if (!id) return;
    const struct gm_alloc *a = gm_st.allocs.all[id - 1];
    gm_report_event_add_use(re, id, how, addr >= a->base ? addr - a->base : 0, bytes);
}

static void fill_events(struct gm_report *r, int symbolize)
{
    size_t li = 0;
    for (size_t i = 0; i < gm_st.tl.n; i++) {
        const struct gm_tl_event *e = &gm_st.tl.ev[i];
        if (e->kind == GM_TL_GRAPH) continue;
        struct gm_report_event *re = gm_report_add_event(r, e->seq, op_of(e->kind),
                                                         e->kind == GM_TL_LAUNCH ? 0 : e->bytes);
        if (!re) continue;
        re->time_ns = (int64_t)e->t_ns;
        re->dir = e->kind == GM_TL_COPY ? (enum gm_report_dir)e->dir : GM_XFER_NONE;
        re->stream = e->stream;
        re->device = e->device;
        re->launch = -1;
        while (li < r->nlaunches && r->launches[li].seq < e->seq) li++;
        if (e->kind == GM_TL_LAUNCH && li < r->nlaunches && r->launches[li].seq == e->seq)
            re->launch = (int64_t)li;
        set_site(&re->site, e->callsite, symbolize);
        if (e->kind == GM_TL_COPY) {
            add_use(re, e->dst_alloc, e->dst, e->bytes, GM_USE_WRITE);
            add_use(re, e->src_alloc, e->src, e->bytes, GM_USE_READ);
        } else if (e->kind == GM_TL_SET) {
            add_use(re, e->dst_alloc, e->dst, e->bytes, GM_USE_WRITE);
        } else if (e->kind == GM_TL_ALLOC || e->kind == GM_TL_FREE) {
            add_use(re, e->dst_alloc, e->dst, 0, 0);
        }
    }
}

int gm_report_formats_check(const char *formats, char *err, size_t errlen)
{
    return gm_report_check_formats(formats, err, errlen);
}

int gm_report_model_write(const char *dir, const char *formats, int end_kind, int status,
                          int symbolize)
{
    struct gm_report *r = gm_report_new();
    if (!r) return -1;
    char analyses[256], err[512];
    fill_program(r, end_kind, status);
    fill_devices(r);
    fill_modules(r, analyses, sizeof analyses);
    gm_report_set_str(&r->program.analyses, analyses);
    fill_kernels(r);
    fill_launches(r, symbolize);
    fix_launch_counts(r);
    fill_allocs(r, symbolize);
    fill_events(r, symbolize);
    fill_launch_uses(r);
    if (gm_st.graph_launches)
        gm_report_add_unobserved(r, NULL, "CUDA graph launch: its kernels are counted together as "
                                 "\"[CUDA graph]\" per module, only in modules already in use in "
                                 "the context (launched or captured before); others are not observed",
                                 gm_st.graph_launches);
    if (gm_st.captured_launches)
        gm_report_add_unobserved(r, NULL, "launch captured into a CUDA graph (stream capture)",
                                 gm_st.captured_launches);
    for (unsigned i = 0; i < gm_st.nnotes; i++) gm_report_add_note(r, "%s", gm_st.notes[i]);
    size_t waiting = gm_gputime_waiting();
    if (waiting)
        gm_report_add_note(r, "kernel time is incomplete for %zu launch%s: CUPTI did not deliver all "
                           "of their kernels' activity records", waiting, waiting == 1 ? "" : "es");
    if (gm_st.tl.dropped)
        gm_report_add_note(r, "timeline limit of %zu events reached (GPUMEM_MAX_EVENTS): %llu later "
                           "API events and launches are not in the timeline; counters include them",
                           gm_st.tl.limit, (unsigned long long)gm_st.tl.dropped);
    gm_report_add_note(r, "allocations: reads/writes are thread-level accesses, sectors are unique "
                          "32 B sectors per warp access, the access histogram is over 4 KiB chunks");
    int rc = gm_report_write_dir(r, NULL, dir, formats, err, sizeof err);
    if (rc != 0) fprintf(stderr, "gpumem: report: %s\n", err);
    gm_report_free(r);
    return rc;
}
