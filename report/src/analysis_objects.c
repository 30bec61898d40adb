/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DrGPUM's object-level patterns from the API timeline: unused allocation,
 * memory leak, early allocation, late deallocation, temporary idleness,
 * redundant allocation and dead write. Definitions: docs/reports.md.
 * Depends on the report headers and libc only.
 */
#include "sat.h"
#include "reuse.h"
#include "timeline.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define SITE(h, i) gm_hostsite_str((h), sb[i], sizeof sb[0])
#define BYTES(b) gm_fmt_bytes((b), bb, sizeof bb)

struct det {
    const struct gm_report *r;
    const struct gm_pattern_opts *o;
    const struct gm_tl *t;
    struct gm_findings *out;
    size_t first;           /* first finding of the allocation being examined */
};

static const struct gm_report_hostsite *use_site(const struct gm_tl_use *u)
{
    return &u->e->site;
}


static struct gm_finding *add(struct det *d, enum gm_pattern p, const struct gm_report_alloc *a,
                              uint64_t bytes, char *what, char *sugg)
{
    struct gm_finding *f = gm_findings_add(d->out, p, a->id, bytes, what, sugg);
    return f;
}

static int leak(struct det *d, const struct gm_tl_alloc *ta, const char *nm);

static int unused_and_leak(struct det *d, const struct gm_tl_alloc *ta)
{
    const struct gm_report_alloc *a = ta->a;
    char sb[6][512], bb[32], nm[300];
    gm_alloc_label(a, nm, sizeof nm);
    if (ta->nuses == 0) {
        struct gm_finding *f = add(d, GM_PAT_UNUSED_ALLOC, a, a->size,
            gm_strf("%s: %s allocated at %s is never read or written", nm, BYTES(a->size),
                    SITE(&a->alloc_site, 0)),
            gm_strf("remove the allocation at %s", SITE(&a->alloc_site, 1)));
        if (!f)
            return -1;
        f->site1 = &a->alloc_site;
        f->seq_from = ta->alloc_seq;
        f->seq_to = ta->free_seq;
    }
    return leak(d, ta, nm);
}

static int leak(struct det *d, const struct gm_tl_alloc *ta, const char *nm)
{
    const struct gm_report_alloc *a = ta->a;
    char sb[6][512], bb[32];
    if (a->freed || ta->free_seq)
        return 0;
    const struct gm_report_hostsite *last = ta->nuses ? use_site(&ta->uses[ta->nuses - 1]) : NULL;
    struct gm_finding *f = add(d, GM_PAT_LEAK, a, a->size,
        gm_strf("%s: %s allocated at %s is never freed", nm, BYTES(a->size),
                SITE(&a->alloc_site, 2)),
        last ? gm_strf("free it after its last use at %s", SITE(last, 3))
             : gm_strf("free it (or remove the allocation at %s)", SITE(&a->alloc_site, 4)));
    if (!f)
        return -1;
    f->site1 = &a->alloc_site;
    f->site2 = last;
    f->seq_from = ta->alloc_seq;
    return 0;
}

static int leak_only(struct det *d, const struct gm_tl_alloc *ta)
{
    char nm[300];
    gm_alloc_label(ta->a, nm, sizeof nm);
    return leak(d, ta, nm);
}

static int early_late(struct det *d, const struct gm_tl_alloc *ta)
{
    const struct gm_report_alloc *a = ta->a;
    if (ta->nuses == 0)
        return 0;
    char sb[6][512], bb[32], nm[300];
    gm_alloc_label(a, nm, sizeof nm);
    const struct gm_tl_use *first = &ta->uses[0], *last = &ta->uses[ta->nuses - 1];
    /* alloc_seq 0: allocated before the timeline began; cannot tell */
    uint64_t gap = ta->alloc_seq ? gm_tl_work_between(d->t, ta->alloc_seq, first->e->seq) : 0;
    if (ta->alloc_seq && gap >= d->o->early_gap) {
        struct gm_finding *f = add(d, GM_PAT_EARLY_ALLOC, a, a->size,
            gm_strf("%s: %s allocated at %s, first used %" PRIu64 " GPU operation%s later at %s",
                    nm, BYTES(a->size), SITE(&a->alloc_site, 5), gap, gap == 1 ? "" : "s",
                    SITE(use_site(first), 0)),
            gm_strf("allocate it just before its first use at %s", SITE(use_site(first), 1)));
        if (!f)
            return -1;
        *f = (struct gm_finding){f->pattern, a->id, 0, a->size, ta->alloc_seq, first->e->seq, gap,
                                 &a->alloc_site, use_site(first), f->what, f->suggestion};
    }
    uint64_t fseq = ta->free_seq;
    if (!fseq)
        return 0;
    gap = gm_tl_work_between(d->t, last->e->seq, fseq);
    if (gap >= d->o->late_gap) {
        struct gm_finding *f = add(d, GM_PAT_LATE_FREE, a, a->size,
            gm_strf("%s: %s last used at %s, freed %" PRIu64 " GPU operation%s later at %s",
                    nm, BYTES(a->size), SITE(use_site(last), 2), gap, gap == 1 ? "" : "s", SITE(&a->free_site, 3)),
            gm_strf("free it right after its last use at %s", SITE(use_site(last), 4)));
        if (!f)
            return -1;
        *f = (struct gm_finding){f->pattern, a->id, 0, a->size, last->e->seq, fseq, gap,
                                 use_site(last), &a->free_site, f->what, f->suggestion};
    }
    return 0;
}

static int idleness(struct det *d, const struct gm_tl_alloc *ta)
{
    const struct gm_report_alloc *a = ta->a;
    uint64_t best = 0;
    size_t at = 0;
    for (size_t i = 1; i < ta->nuses; i++) {
        uint64_t g = gm_tl_work_between_ix(d->t, ta->uses[i - 1].ix, ta->uses[i].ix);
        if (g > best) {
            best = g;
            at = i;
        }
    }
    if (!at || best < d->o->idle_gap)
        return 0;
    char sb[6][512], bb[32], nm[300];
    gm_alloc_label(a, nm, sizeof nm);
    const struct gm_tl_use *u0 = &ta->uses[at - 1], *u1 = &ta->uses[at];
    struct gm_finding *f = add(d, GM_PAT_IDLE, a, a->size,
        gm_strf("%s: %s idle for %" PRIu64 " GPU operations between its uses at %s and %s",
                nm, BYTES(a->size), best, SITE(use_site(u0), 5), SITE(use_site(u1), 0)),
        gm_strf("free it (or move it to the host) after %s and re-create it before %s",
                SITE(use_site(u0), 1), SITE(use_site(u1), 2)));
    if (!f)
        return -1;
    *f = (struct gm_finding){f->pattern, a->id, 0, a->size, u0->e->seq, u1->e->seq, best,
                             use_site(u0), use_site(u1), f->what, f->suggestion};
    return 0;
}

static int redundant_one(struct det *d, const struct gm_tl_alloc *B, const struct gm_tl_alloc *A)
{
    const struct gm_tl_use *last = &A->uses[A->nuses - 1];
    char sb[6][512], bb[32], nb[300], na[300];
    gm_alloc_label(B->a, nb, sizeof nb);
    gm_alloc_label(A->a, na, sizeof na);
    struct gm_finding *f = add(d, GM_PAT_REDUNDANT_ALLOC, B->a, B->a->size,
        gm_strf("%s: %s allocated at %s while %s (allocated at %s) is live but no longer used "
                "after %s", nb, BYTES(B->a->size), SITE(&B->a->alloc_site, 3), na,
                SITE(&A->a->alloc_site, 4), SITE(use_site(last), 5)),
        gm_strf("reuse %s for it instead of allocating at %s", na, SITE(&B->a->alloc_site, 0)));
    if (!f)
        return -1;
    f->other = A->a->id;
    f->seq_from = last->e->seq;
    f->seq_to = B->alloc_seq;
    f->site1 = &B->a->alloc_site;
    f->site2 = &A->a->alloc_site;
    return 0;
}

/* Redundant allocations (matching: reuse.h), in report order. */
static int redundant(struct det *d)
{
    size_t n = d->t->nallocs;
    size_t *other = calloc(n + 1, sizeof *other);
    int rc = !other || gm_reuse_match(d->t, other) ? -1 : 0;
    for (size_t j = 0; !rc && j < n; j++)
        if (other[j] < n)
            rc = redundant_one(d, &d->t->allocs[j], &d->t->allocs[other[j]]);
    free(other);
    return rc;
}

/* ---- dead writes ---- */

struct range { uint64_t off, len; };

static struct range range_of(const struct gm_report_alloc *a, const struct gm_report_use *u)
{
    if (u->bytes == 0)
        return (struct range){0, a->size};
    return (struct range){u->offset, u->bytes};
}

static int covers(struct range w, struct range p)
{
    return w.off <= p.off && gm_sat_add(w.off, w.len) >= gm_sat_add(p.off, p.len);
}

static int is_read(uint32_t how) { return (how & (GM_USE_READ | GM_USE_UNKNOWN)) != 0; }
static int is_write(uint32_t how) { return (how & GM_USE_WRITE) != 0; }

/* Adds (or merges into a finding with the same write site and killer kind). */
static int dead(struct det *d, const struct gm_tl_alloc *ta, const struct gm_tl_use *w,
                struct range wr, const struct gm_report_hostsite *killer, const char *how)
{
    for (size_t i = d->first; i < d->out->n; i++) {
        struct gm_finding *f = &d->out->v[i];
        if (f->pattern == GM_PAT_DEAD_WRITE && f->alloc == ta->a->id &&
            gm_hostsite_same(f->site1, use_site(w)) && gm_hostsite_same(f->site2, killer)) {
            f->bytes = gm_sat_add(f->bytes, wr.len);
            f->gap++;   /* gap counts the merged dead writes */
            return 0;
        }
    }
    char sb[6][512], nm[300];
    gm_alloc_label(ta->a, nm, sizeof nm);
    struct gm_finding *f = add(d, GM_PAT_DEAD_WRITE, ta->a, wr.len,
        gm_strf("%s: data written by %s at %s %s", nm, gm_report_op_name(w->e->op),
                SITE(use_site(w), 1), how),
        gm_strf("remove or skip the write at %s", SITE(use_site(w), 2)));
    if (!f)
        return -1;
    f->seq_from = w->e->seq;
    f->gap = 1;
    f->site1 = use_site(w);
    f->site2 = killer;
    return 0;
}

/* Appends " (N times)" to this allocation's merged dead-write findings. */
static int count_merged(struct det *d, uint64_t id)
{
    for (size_t i = d->first; i < d->out->n; i++) {
        struct gm_finding *f = &d->out->v[i];
        if (f->pattern != GM_PAT_DEAD_WRITE || f->alloc != id || f->gap < 2)
            continue;
        char *s = gm_strf("%s (%" PRIu64 " times)", f->what, f->gap);
        if (!s)
            return -1;
        free(f->what);
        f->what = s;
    }
    return 0;
}

static int dead_writes_(struct det *d, const struct gm_tl_alloc *ta);

static int dead_writes(struct det *d, const struct gm_tl_alloc *ta)
{
    return dead_writes_(d, ta) || count_merged(d, ta->a->id);
}

static int dead_writes_(struct det *d, const struct gm_tl_alloc *ta)
{
    const struct gm_tl_use *pend = NULL;
    struct range pr = {0, 0};
    char sb[6][512];
    for (size_t i = 0; i < ta->nuses; i++) {
        const struct gm_tl_use *u = &ta->uses[i];
        struct range ur = range_of(ta->a, u->u);
        if (is_read(u->u->how)) {
            pend = NULL;
        } else if (pend && is_write(u->u->how) && u->e->op != GM_OP_LAUNCH && covers(ur, pr)) {
            char how[600];
            snprintf(how, sizeof how, "is overwritten at %s before any read", SITE(use_site(u), 3));
            if (dead(d, ta, pend, pr, use_site(u), how))
                return -1;
        }
        if (is_write(u->u->how)) {
            pend = u;
            pr = ur;
        }
    }
    if (!pend)
        return 0;
    if (ta->free_seq || ta->a->freed)
        return dead(d, ta, pend, pr, &ta->a->free_site, "and freed without being read");
    return dead(d, ta, pend, pr, NULL, "and never read before the program ends");
}

int gm_launch_uses_known(const struct gm_report *r)
{
    int launches = 0;
    for (size_t i = 0; i < r->nevents; i++) {
        if (r->events[i].op != GM_OP_LAUNCH)
            continue;
        launches = 1;
        if (r->events[i].nuses)
            return 1;
    }
    return !launches;
}

int gm_find_object_patterns(const struct gm_report *r, const struct gm_pattern_opts *o,
                            struct gm_findings *out)
{
    struct gm_tl t;
    if (gm_tl_build(r, &t))
        return -1;
    struct det d = {r, o, &t, out, out->n};
    int rc = 0, known = gm_launch_uses_known(r);
    for (size_t k = 0; !rc && k < t.nallocs; k++, d.first = out->n)
        rc = known ? unused_and_leak(&d, &t.allocs[k]) || early_late(&d, &t.allocs[k]) ||
                         idleness(&d, &t.allocs[k]) || dead_writes(&d, &t.allocs[k])
                   : leak_only(&d, &t.allocs[k]);
    if (!rc && known)
        rc = redundant(&d);
    gm_tl_free(&t);
    return rc ? -1 : 0;
}
