/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Modules and allocations for the trace sinks (see trace_meta.h). Pure
 * C17 + uthash + the runtime core; no CUDA.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "gm_grow.h"
#include "trace_meta.h"

struct gm_trace_modidx {
    uint64_t modid;
    uint32_t index;
    UT_hash_handle hh;
};

/* Copies src into dst[n], keeping the end of a string that is too long. */
static void copy_tail(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    strcpy(dst, src + (len >= n ? len - n + 1 : 0));
}

static struct gm_trace_site *sites_of(const struct gm_rt_sitetab *t)
{
    uint32_t n = t->hdr->nsites;
    struct gm_trace_site *v = calloc(n ? n : 1, sizeof *v);
    for (uint32_t i = 0; v && i < n; i++) {
        const struct gm_site *s = &t->sites[i];
        v[i].info = s->info;
        v[i].line = s->line;
        v[i].column = s->column;
        copy_tail(v[i].file, sizeof v[i].file, gm_sitetab_str(t, s->file_str));
        copy_tail(v[i].func, sizeof v[i].func, gm_sitetab_str(t, s->func_str));
    }
    return v;
}

long gm_trace_meta_module(struct gm_trace_meta *m, const struct gm_trace_emit *em,
                          const struct gm_rt_sitetab *t)
{
    struct gm_trace_modidx *e;
    HASH_FIND(hh, m->mods, &t->modid, sizeof t->modid, e);
    if (e) return e->index;
    struct gm_trace_site *sites = sites_of(t);
    if (!sites || !(e = calloc(1, sizeof *e))) {
        free(sites);
        return -1;
    }
    int rc = em->module(em->ctx, t->modid, gm_sitetab_str(t, t->hdr->source_str),
                        t->hdr->nsites, sites);
    free(sites);
    if (rc) {
        free(e);
        return -1;
    }
    e->modid = t->modid;
    e->index = m->nmods++;
    HASH_ADD(hh, m->mods, modid, sizeof e->modid, e);
    return e->index;
}

static int emit_alloc(struct gm_trace_meta *m, const struct gm_trace_emit *em, struct gm_alloc *a,
                      uint64_t seq)
{
    struct gm_trace_alloc ta = { .base = a->base, .size = a->size, .alloc_seq = seq,
                                 .free_seq = UINT64_MAX };
    if (a->label) snprintf(ta.label, sizeof ta.label, "%s", a->label);
    else snprintf(ta.label, sizeof ta.label, "allocation %" PRIu64, a->id);
    if (GM_GROW_TO(m->live, m->cap, m->nlive + 1)) return -1;
    if (em->alloc(em->ctx, &ta)) return -1;
    m->live[m->nlive++] = a;
    return 0;
}

int gm_trace_meta_allocs(struct gm_trace_meta *m, const struct gm_trace_emit *em,
                         const struct gm_alloc_table *t, int device, uint64_t seq)
{
    int rc = 0;
    for (size_t i = 0; i < m->nlive;) {       /* frees first: an address may be reused */
        struct gm_alloc *a = m->live[i];
        if (a->live) { i++; continue; }
        rc |= em->free(em->ctx, a->base, seq);
        m->live[i] = m->live[--m->nlive];
    }
    for (; t && m->seen < t->n; m->seen++) {
        struct gm_alloc *a = t->all[m->seen];
        if (a && a->live && a->device == device && a->kind != GM_ALLOC_HOST)
            rc |= emit_alloc(m, em, a, seq);
    }
    return rc ? -1 : 0;
}

void gm_trace_meta_free(struct gm_trace_meta *m)
{
    struct gm_trace_modidx *e, *tmp;
    HASH_ITER(hh, m->mods, e, tmp) {
        HASH_DEL(m->mods, e);
        free(e);
    }
    free(m->live);
    memset(m, 0, sizeof *m);
}
