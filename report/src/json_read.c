/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON reader of the report model (schema gpumem-report v1): checks every
 * field's type and rebuilds the model with the gm_report_add_* functions.
 * This file reads the parts (one array element each, see json_read.h);
 * json_doc.c walks the document.
 * Any malformed input gives NULL and one line naming the field.
 * Depends on the report model and the tokenizer's values (json_parse.h).
 */
#include "gm_report_json.h"
#include "json_read.h"
#include "strpool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define P(buf, fmt, ...) snprintf((buf), sizeof(buf), fmt, __VA_ARGS__)
#define OOM(c, path) gm_jfail((c), (path), "out of memory")

static int is(const struct gm_jv *v, int type) { return v && v->type == type; }
static size_t count(const struct gm_jv *v) { return v ? v->n : 0; }

static int need_object(struct gm_jctx *c, const struct gm_jv *el, const char *path)
{
    if (!is(el, GM_JOBJ))
        gm_jfail(c, path, "expected an object");
    return !c->failed;
}

/* Site strings are stored once per report (strpool.h). */
static void hostsite(struct gm_jctx *c, const struct gm_jv *o, const char *path, const char *key,
                     struct gm_report *r, struct gm_report_hostsite *h)
{
    const struct gm_jv *s = gm_jget(c, o, path, key, GM_JOBJ, 0);
    if (!s)
        return;
    char p[256];
    gm_jpath(p, sizeof p, path, key, -1);
    const struct gm_jv *file = gm_jget(c, s, p, "file", GM_JSTR, 0);
    uint32_t line = gm_jget_u32(c, s, p, "line", 0, 0);
    const struct gm_jv *func = gm_jget(c, s, p, "func", GM_JSTR, 0);
    if (!c->failed && gm_report_intern_hostsite(r, h, file ? file->s : NULL, line,
                                                func ? func->s : NULL))
        OOM(c, p);
}

void gm_jr_program(struct gm_jctx *c, const struct gm_jv *root, struct gm_report *r)
{
    const struct gm_jv *o = gm_jget(c, root, "report", "program", GM_JOBJ, 1);
    if (!o)
        return;
    const char *p = "program";
    const struct gm_jv *argv = gm_jget(c, o, p, "argv", GM_JARR, 1);
    int argc = (int)count(argv);
    char **v = calloc(argc ? (size_t)argc : 1, sizeof *v);
    int i = 0;
    for (const struct gm_jv *a = argv ? argv->child : NULL; v && a; a = a->next, i++) {
        if (!is(a, GM_JSTR)) {
            gm_jfail(c, "program.argv", "expected an array of strings");
            break;
        }
        v[i] = a->s;
    }
    if (!c->failed && (!v || gm_report_set_argv(r, argc, v)))
        OOM(c, p);
    free(v);
    r->program.pid = gm_jget_i64(c, o, p, "pid", 0, -1);
    r->program.start_ns = gm_jget_i64(c, o, p, "start_ns", 0, -1);
    r->program.end_ns = gm_jget_i64(c, o, p, "end_ns", 0, -1);
    r->program.exit_status = gm_jget_i32(c, o, p, "exit_status", 0, 0);
    char *end = gm_jget_str(c, o, p, "end", 1);
    int e = end ? gm_report_end_parse(end) : 0;
    if (end && e < 0)
        gm_jfail(c, "program.end", "expected one of normal, exit, signal, unknown");
    r->program.end = e < 0 ? GM_END_UNKNOWN : (enum gm_report_end)e;
    free(end);
    r->program.tool_version = gm_jget_str(c, o, p, "tool_version", 0);
    r->program.analyses = gm_jget_str(c, o, p, "analyses", 0);
}

void gm_jr_device(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r)
{
    do {
        if (!need_object(c, el, p))
            break;
        char *name = gm_jget_str(c, el, p, "name", 0);
        struct gm_report_device *d =
            gm_report_add_device(r, gm_jget_i32(c, el, p, "ordinal", 1, 0), name);
        free(name);
        if (!d) {
            OOM(c, p);
            break;
        }
        d->cc_major = gm_jget_i32(c, el, p, "cc_major", 0, 0);
        d->cc_minor = gm_jget_i32(c, el, p, "cc_minor", 0, 0);
        d->sm_count = gm_jget_i32(c, el, p, "sm_count", 0, 0);
        d->global_mem = gm_jget_u64(c, el, p, "global_mem", 0, 0);
        d->l2_bytes = gm_jget_u64(c, el, p, "l2_bytes", 0, 0);
    } while (0);
}

static void sites(struct gm_jctx *c, const struct gm_jv *o, const char *mp, struct gm_report_module *m)
{
    const struct gm_jv *arr = gm_jget(c, o, mp, "sites", GM_JARR, 1);
    char p[128];
    int i = 0;
    for (const struct gm_jv *el = arr ? arr->child : NULL; el && !c->failed; el = el->next, i++) {
        gm_jpath(p, sizeof p, mp, "sites", i);
        if (!need_object(c, el, p))
            return;
        uint64_t id = gm_jget_u64(c, el, p, "id", 1, 0);
        if (!c->failed && id >= m->nsites) {
            gm_jfail(c, p, "site id out of range");
            return;
        }
        char *func = gm_jget_str(c, el, p, "func", 0), *file = gm_jget_str(c, el, p, "file", 0);
        if (!c->failed &&
            gm_report_set_site(m, (uint32_t)id, gm_jget_u8(c, el, p, "event", 1, 0),
                               gm_jget_u8(c, el, p, "space", 0, 0),
                               gm_jget_u8(c, el, p, "when", 0, 0),
                               gm_jget_u32(c, el, p, "info", 0, 0), func, file,
                               gm_jget_u32(c, el, p, "line", 0, 0),
                               gm_jget_u32(c, el, p, "column", 0, 0)))
            OOM(c, p);
        free(func);
        free(file);
    }
}

/* Joins a JSON array of strings with commas (the site table's form). */
static char *join_names(struct gm_jctx *c, const struct gm_jv *arr, const char *p)
{
    size_t len = 1;
    for (const struct gm_jv *e = arr ? arr->child : NULL; e; e = e->next) {
        if (!is(e, GM_JSTR) || strchr(e->s, ',')) {
            gm_jfail(c, p, "slots: expected an array of names without commas");
            return NULL;
        }
        len += strlen(e->s) + 1;
    }
    char *s = calloc(1, len);
    for (const struct gm_jv *e = arr ? arr->child : NULL; s && e; e = e->next) {
        strcat(s, e->s);
        if (e->next)
            strcat(s, ",");
    }
    return s;
}

/* Optional "fold": ["sum" | "or", ...], one per slot (absent: all summed). */
static void fold_rules(struct gm_jctx *c, const struct gm_jv *el, const char *p,
                       struct gm_report_counter_set *s)
{
    const struct gm_jv *fold = gm_jget(c, el, p, "fold", GM_JARR, 0);
    if (!fold || c->failed)
        return;
    if ((uint64_t)count(fold) != s->nslots) {
        gm_jfail(c, p, "fold has not nslots entries");
        return;
    }
    uint32_t i = 0;
    for (const struct gm_jv *e = fold->child; e; e = e->next, i++) {
        int is_or = is(e, GM_JSTR) && strcmp(e->s, "or") == 0;
        if (!is_or && !(is(e, GM_JSTR) && strcmp(e->s, "sum") == 0)) {
            gm_jfail(c, p, "fold: expected \"sum\" or \"or\"");
            return;
        }
        s->or_slot[i] = (uint8_t)is_or;
    }
}

static void counter_sets(struct gm_jctx *c, const struct gm_jv *o, const char *mp,
                         struct gm_report_module *m)
{
    const struct gm_jv *arr = gm_jget(c, o, mp, "counter_sets", GM_JARR, 1);
    char p[128];
    int i = 0;
    for (const struct gm_jv *el = arr ? arr->child : NULL; el && !c->failed; el = el->next, i++) {
        gm_jpath(p, sizeof p, mp, "counter_sets", i);
        if (!need_object(c, el, p))
            return;
        char *name = gm_jget_str(c, el, p, "name", 1);
        uint64_t n = gm_jget_u64(c, el, p, "nslots", 1, 0);
        const struct gm_jv *slots = gm_jget(c, el, p, "slots", GM_JARR, 1);
        if (!c->failed && (uint64_t)count(slots) != n)
            gm_jfail(c, p, "slots has not nslots names");
        char *names = c->failed ? NULL : join_names(c, slots, p);
        struct gm_report_counter_set *s = NULL;
        if (!c->failed && !(s = gm_report_add_counter_set(m, name, (uint32_t)n,
                                                          gm_jget_u32(c, el, p, "flags", 0, 0),
                                                          names)))
            OOM(c, p);
        if (s)
            fold_rules(c, el, p, s);
        free(name);
        free(names);
    }
}

void gm_jr_module(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r)
{
    do {
        if (!need_object(c, el, p))
            break;
        uint64_t modid = gm_jget_hex64(c, el, p, "modid");
        const struct gm_jv *s = gm_jget(c, el, p, "sites", GM_JARR, 1);
        if (c->failed)
            break;
        if (gm_report_find_module(r, modid)) {
            gm_jfail(c, p, "duplicate modid");
            break;
        }
        char *src = gm_jget_str(c, el, p, "source", 0);
        struct gm_report_module *m =
            gm_report_add_module(r, modid, src, (size_t)count(s));
        free(src);
        if (!m) {
            OOM(c, p);
            break;
        }
        m->n_asm_mem = gm_jget_u32(c, el, p, "n_asm_mem", 0, 0);
        sites(c, el, p, m);
        counter_sets(c, el, p, m);
    } while (0);
}

/* Reads one kernel counter set: {set, nsites, nslots, sites: [{site, v}]} */
/* The counters must fit the module's site table and counter set: else
 * they could not be read as what they claim to count. */
static void kshape(struct gm_jctx *c, const char *p, const struct gm_report_module *m,
                   const char *set, uint64_t nsites, uint64_t nslots)
{
    if (c->failed)
        return;
    const struct gm_report_counter_set *def = m ? gm_report_find_set(m, set) : NULL;
    char msg[160];
    if (!m)
        gm_jfail(c, p, "counters of a kernel in no module (modid 0x0)");
    else if (!def)
        gm_jfail(c, p, (P(msg, "set: no counter set \"%.64s\" in the kernel's module", set), msg));
    else if (nsites != m->nsites)
        gm_jfail(c, p, (P(msg, "nsites: %llu, but the module has %zu sites",
                          (unsigned long long)nsites, m->nsites), msg));
    else if (nslots != def->nslots)
        gm_jfail(c, p, (P(msg, "nslots: %llu, but set \"%.64s\" has %u slots",
                          (unsigned long long)nslots, set, def->nslots), msg));
}

static void kcounters(struct gm_jctx *c, const struct gm_jv *el, const char *p,
                      const struct gm_report_module *m, struct gm_report_kernel *k)
{
    char *set = gm_jget_str(c, el, p, "set", 1);
    uint64_t nsites = gm_jget_u64(c, el, p, "nsites", 1, 0);
    uint64_t nslots = gm_jget_u64(c, el, p, "nslots", 1, 0);
    const struct gm_jv *arr = gm_jget(c, el, p, "sites", GM_JARR, 1);
    if (!c->failed && (nsites > UINT32_MAX || nslots > 65536 || nsites * nslots > (1ull << 28)))
        gm_jfail(c, p, "counter array too large");
    kshape(c, p, m, set, nsites, nslots);
    uint64_t *row = c->failed ? NULL : calloc(nslots ? nslots : 1, 8);
    if (!c->failed && !row)
        OOM(c, p);
    char sp[192];
    int n = 0;
    for (const struct gm_jv *e = arr ? arr->child : NULL; e && !c->failed; e = e->next, n++) {
        gm_jpath(sp, sizeof sp, p, "sites", n);
        uint64_t site = gm_jget_u64(c, e, sp, "site", 1, 0);
        const struct gm_jv *v = gm_jget(c, e, sp, "v", GM_JARR, 1);
        if (!c->failed && (site >= nsites || (uint64_t)count(v) != nslots))
            gm_jfail(c, sp, "site out of range or v has not nslots values");
        int i = 0;
        for (const struct gm_jv *x = v ? v->child : NULL; x && !c->failed; x = x->next, i++)
            if (gm_json_to_u64(x, &row[i]))
                gm_jfail(c, sp, "v: expected non-negative integers");
        if (!c->failed && gm_report_add_kernel_site_counters(k, set, (uint32_t)nsites,
                                                             (uint32_t)nslots, (uint32_t)site,
                                                             row, (uint32_t)nslots))
            gm_jfail(c, sp, "duplicate site or out of memory");
    }
    if (!c->failed && !gm_report_kernel_set(k, set)) {
        uint64_t zero = 0;  /* an all-zero set: create it with a zero row */
        if (nsites && gm_report_add_kernel_site_counters(k, set, (uint32_t)nsites,
                                                         (uint32_t)nslots, 0, &zero, 0))
            OOM(c, p);
    }
    free(row);
    free(set);
}

void gm_jr_kernel(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r)
{
    do {
        if (!need_object(c, el, p))
            break;
        char *name = gm_jget_str(c, el, p, "name", 1);
        uint64_t modid = gm_jget_hex64(c, el, p, "modid");
        const struct gm_report_module *m = gm_report_find_module(r, modid);
        if (!c->failed && modid && !m) {
            char mp[96], msg[64];
            P(mp, "%s.modid", p);
            P(msg, "no such module 0x%016llx", (unsigned long long)modid);
            gm_jfail(c, mp, msg);
        }
        if (!c->failed && gm_report_find_kernel(r, modid, name))
            gm_jfail(c, p, "duplicate kernel");
        struct gm_report_kernel *k = c->failed ? NULL : gm_report_get_kernel(r, modid, name);
        free(name);
        if (!k) {
            if (!c->failed)
                OOM(c, p);
            break;
        }
        k->launches = gm_jget_u64(c, el, p, "launches", 1, 0);
        k->gpu_ns = gm_jget_i64(c, el, p, "gpu_ns", 0, -1);
        const struct gm_jv *sets = gm_jget(c, el, p, "counters", GM_JARR, 1);
        char sp[128];
        int i = 0;
        for (const struct gm_jv *s = sets ? sets->child : NULL; s && !c->failed; s = s->next, i++) {
            gm_jpath(sp, sizeof sp, p, "counters", i);
            if (need_object(c, s, sp))
                kcounters(c, s, sp, m, k);
        }
    } while (0);
}

static void u32_triple(struct gm_jctx *c, const struct gm_jv *o, const char *p, const char *key,
                       uint32_t out[3])
{
    const struct gm_jv *a = gm_jget(c, o, p, key, GM_JARR, 0);
    if (!a)
        return;
    uint64_t x;
    int i = 0;
    for (const struct gm_jv *e = a->child; e; e = e->next, i++)
        if (i >= 3 || gm_json_to_u64(e, &x) || x > UINT32_MAX) {
            gm_jfail(c, p, "grid/block: expected 3 non-negative integers");
            return;
        } else {
            out[i] = (uint32_t)x;
        }
}

void gm_jr_launch(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r)
{
    do {
        if (!need_object(c, el, p))
            break;
        uint64_t seq = gm_jget_u64(c, el, p, "seq", 1, 0);
        uint64_t k = gm_jget_u64(c, el, p, "kernel", 1, 0);
        if (!c->failed && k >= r->nkernels)
            gm_jfail(c, p, "kernel index out of range");
        const struct gm_jv *api = gm_jget(c, el, p, "api", GM_JSTR, 0);
        uint64_t before = k < r->nkernels ? r->kernels[k].launches : 0;
        struct gm_report_launch *l =
            c->failed ? NULL : gm_report_add_launch(r, seq, k, api ? api->s : NULL);
        if (!l) {
            if (!c->failed)
                OOM(c, p);
            break;
        }
        r->kernels[k].launches = before; /* the kernel's count is read, not derived */
        u32_triple(c, el, p, "grid", l->grid);
        u32_triple(c, el, p, "block", l->block);
        l->shmem = gm_jget_u32(c, el, p, "shmem", 0, 0);
        l->stream = gm_jget(c, el, p, "stream", GM_JSTR, 0) ? gm_jget_hex64(c, el, p, "stream") : 0;
        l->device = gm_jget_i32(c, el, p, "device", 0, 0);
        hostsite(c, el, p, "site", r, &l->site);
        l->time_ns = gm_jget_i64(c, el, p, "time_ns", 0, -1);
        l->gpu_ns = gm_jget_i64(c, el, p, "gpu_ns", 0, -1);
    } while (0);
}

static void alloc_launches(struct gm_jctx *c, const struct gm_jv *acc, const char *p,
                           struct gm_report_alloc *a)
{
    const struct gm_jv *arr = gm_jget(c, acc, p, "launches", GM_JARR, 0);
    char lp[160];
    int i = 0;
    for (const struct gm_jv *e = arr ? arr->child : NULL; e && !c->failed; e = e->next, i++) {
        gm_jpath(lp, sizeof lp, p, "launches", i);
        if (!need_object(c, e, lp))
            return;
        uint64_t *bm = gm_jget_bitmap(c, e, lp, "bitmap", a->units);
        struct gm_report_alloc_launch *l =
            c->failed ? NULL : gm_report_alloc_add_launch(a, gm_jget_u64(c, e, lp, "launch_seq", 1, 0), bm);
        free(bm);
        if (!l) {
            if (!c->failed)
                OOM(c, lp);
            return;
        }
        l->reads = gm_jget_u64(c, e, lp, "reads", 0, 0);
        l->writes = gm_jget_u64(c, e, lp, "writes", 0, 0);
        l->touched_units = gm_jget_u64(c, e, lp, "touched_units", 0, l->touched_units);
    }
}

static void access(struct gm_jctx *c, const struct gm_jv *el, const char *ap, struct gm_report_alloc *a)
{
    const struct gm_jv *o = gm_jget(c, el, ap, "access", GM_JOBJ, 0);
    if (!o)
        return;
    char p[128];
    gm_jpath(p, sizeof p, ap, "access", -1);
    a->has_access = 1;
    a->granularity = gm_jget_u32(c, o, p, "granularity", 1, 4);
    if (!c->failed && a->granularity == 0)
        gm_jfail(c, p, "granularity must be positive");
    a->units = c->failed ? 0 : a->size / a->granularity + (a->size % a->granularity != 0);
    if (!c->failed && gm_jget_u64(c, o, p, "units", 0, a->units) != a->units)
        gm_jfail(c, p, "units is not ceil(size / granularity)");
    a->reads = gm_jget_u64(c, o, p, "reads", 0, 0);
    a->writes = gm_jget_u64(c, o, p, "writes", 0, 0);
    a->sectors = gm_jget_u64(c, o, p, "sectors", 0, 0);
    a->touched_units = gm_jget_u64(c, o, p, "touched_units", 1, 0);
    a->largest_untouched_units = gm_jget_u64(c, o, p, "largest_untouched_units", 1, 0);
    a->untouched_runs = gm_jget_u64(c, o, p, "untouched_runs", 0, 0);
    if (!c->failed && (a->touched_units > a->units ||
                       a->largest_untouched_units > a->units - a->touched_units))
        gm_jfail(c, p, "touched/untouched units exceed the allocation");
    a->bitmap = c->failed ? NULL : gm_jget_bitmap(c, o, p, "bitmap", a->units);
    a->hist_chunk = gm_jget_u64(c, o, p, "hist_chunk", 0, 0);
    const struct gm_jv *h = gm_jget(c, o, p, "hist", GM_JARR, 0);
    int i = 0;
    for (const struct gm_jv *x = h ? h->child : NULL; x && !c->failed; x = x->next, i++)
        if (i >= GM_REPORT_HIST_BUCKETS || gm_json_to_u64(x, &a->hist[i]))
            gm_jfail(c, p, "hist: expected at most 16 non-negative integers");
    alloc_launches(c, o, p, a);
}

void gm_jr_alloc(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r)
{
    do {
        if (!need_object(c, el, p))
            break;
        uint64_t id = gm_jget_u64(c, el, p, "id", 1, 0);
        uint64_t ptr = gm_jget_hex64(c, el, p, "dev_ptr");
        uint64_t size = gm_jget_u64(c, el, p, "size", 1, 0);
        const struct gm_jv *api = gm_jget(c, el, p, "api", GM_JSTR, 0);
        struct gm_report_alloc *a =
            c->failed ? NULL : gm_report_add_alloc(r, id, ptr, size, api ? api->s : NULL);
        if (!a) {
            if (!c->failed)
                OOM(c, p);
            break;
        }
        a->label = gm_jget_str(c, el, p, "label", 0);
        a->device = gm_jget_i32(c, el, p, "device", 0, 0);
        hostsite(c, el, p, "alloc_site", r, &a->alloc_site);
        a->alloc_path = gm_jget_str(c, el, p, "alloc_path", 0);
        hostsite(c, el, p, "free_site", r, &a->free_site);
        const struct gm_jv *fr = gm_jget(c, el, p, "freed", GM_JBOOL, 1);
        a->freed = (is(fr, GM_JBOOL) && fr->b);
        a->alloc_seq = gm_jget_u64(c, el, p, "alloc_seq", 0, 0);
        a->free_seq = gm_jget_u64(c, el, p, "free_seq", 0, 0);
        if (!c->failed && a->free_seq && a->free_seq <= a->alloc_seq)
            gm_jfail(c, p, "free_seq must follow alloc_seq");
        access(c, el, p, a);
    } while (0);
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* Allocation ids must be unique (sort, then compare neighbours) and every
 * use in the timeline must name one of them. */
void gm_jr_alloc_refs(struct gm_jctx *c, struct gm_report *r)
{
    uint64_t *ids = calloc(r->nallocs + 1, sizeof *ids);
    if (!ids) {
        OOM(c, "allocations");
        return;
    }
    for (size_t i = 0; i < r->nallocs; i++)
        ids[i] = r->allocs[i].id;
    qsort(ids, r->nallocs, sizeof *ids, cmp_u64);
    char m[96], p[96];
    for (size_t i = 1; i < r->nallocs && !c->failed; i++)
        if (ids[i] == ids[i - 1]) {
            P(m, "duplicate allocation id %llu", (unsigned long long)ids[i]);
            gm_jfail(c, "allocations", m);
        }
    for (size_t i = 0; i < r->nevents && !c->failed; i++)
        for (size_t j = 0; j < r->events[i].nuses && !c->failed; j++) {
            uint64_t id = r->events[i].uses[j].alloc;
            if (bsearch(&id, ids, r->nallocs, sizeof *ids, cmp_u64))
                continue;
            P(p, "events[%zu].uses[%zu].alloc", i, j);
            P(m, "no such allocation %llu", (unsigned long long)id);
            gm_jfail(c, p, m);
        }
    free(ids);
}

static uint32_t parse_how(const char *s)
{
    if (!strcmp(s, "r")) return GM_USE_READ;
    if (!strcmp(s, "w")) return GM_USE_WRITE;
    if (!strcmp(s, "rw")) return GM_USE_READ | GM_USE_WRITE;
    if (!strcmp(s, "?")) return GM_USE_UNKNOWN;
    if (!strcmp(s, "-")) return 0;
    return 0xffffffffu;
}

static void uses(struct gm_jctx *c, const struct gm_jv *el, const char *ep, struct gm_report_event *e)
{
    const struct gm_jv *arr = gm_jget(c, el, ep, "uses", GM_JARR, 1);
    char p[128];
    int i = 0;
    for (const struct gm_jv *u = arr ? arr->child : NULL; u && !c->failed; u = u->next, i++) {
        gm_jpath(p, sizeof p, ep, "uses", i);
        if (!need_object(c, u, p))
            return;
        const struct gm_jv *how = gm_jget(c, u, p, "how", GM_JSTR, 1);
        uint32_t h = how ? parse_how(how->s) : 0;
        if (h == 0xffffffffu)
            gm_jfail(c, p, "how: expected r, w, rw, ? or -");
        uint64_t alloc = gm_jget_u64(c, u, p, "alloc", 1, 0);
        if (!c->failed && gm_report_event_add_use(e, alloc, h, gm_jget_u64(c, u, p, "offset", 0, 0),
                                                  gm_jget_u64(c, u, p, "bytes", 0, 0)))
            OOM(c, p);
    }
}

void gm_jr_event(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r)
{
    do {
        if (!need_object(c, el, p))
            break;
        uint64_t seq = gm_jget_u64(c, el, p, "seq", 1, 0);
        const struct gm_jv *op = gm_jget(c, el, p, "op", GM_JSTR, 1);
        int o = op ? gm_report_op_parse(op->s) : 0;
        if (!c->failed && o <= 0)
            gm_jfail(c, p, "op: expected alloc, free, memcpy, memset or launch");
        if (!c->failed && r->nevents && seq <= r->events[r->nevents - 1].seq)
            gm_jfail(c, p, "seq must increase strictly");
        struct gm_report_event *e =
            c->failed ? NULL : gm_report_add_event(r, seq, (enum gm_report_op)o,
                                                   gm_jget_u64(c, el, p, "bytes", 0, 0));
        if (!e) {
            if (!c->failed)
                OOM(c, p);
            break;
        }
        e->time_ns = gm_jget_i64(c, el, p, "time_ns", 0, -1);
        const struct gm_jv *dir = gm_jget(c, el, p, "dir", GM_JSTR, 0);
        int d = dir ? gm_report_dir_parse(dir->s) : 0;
        if (d < 0)
            gm_jfail(c, p, "dir: expected none, h2d, d2h, d2d, h2h or default");
        e->dir = d < 0 ? GM_XFER_NONE : (enum gm_report_dir)d;
        e->stream = gm_jget(c, el, p, "stream", GM_JSTR, 0) ? gm_jget_hex64(c, el, p, "stream") : 0;
        e->device = gm_jget_i32(c, el, p, "device", 0, 0);
        e->launch = gm_jget_i64(c, el, p, "launch", 0, -1);
        if (!c->failed && (e->launch < -1 || e->launch >= (int64_t)r->nlaunches))
            gm_jfail(c, p, "launch index out of range");
        hostsite(c, el, p, "site", r, &e->site);
        uses(c, el, p, e);
    } while (0);
}

void gm_jr_unobserved(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r)
{
    do {
        if (!need_object(c, el, p))
            break;
        char *k = gm_jget_str(c, el, p, "kernel", 0), *why = gm_jget_str(c, el, p, "reason", 1);
        if (!c->failed && !gm_report_add_unobserved(r, k, why, gm_jget_u64(c, el, p, "count", 1, 0)))
            OOM(c, p);
        free(k);
        free(why);
    } while (0);
}

void gm_jr_note(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r)
{
    do {
        if (!is(el, GM_JSTR))
            gm_jfail(c, p, "expected a string");
        else if (gm_report_add_note(r, "%s", el->s))
            OOM(c, p);
    } while (0);
}

void gm_jr_header(struct gm_jctx *c, const struct gm_jv *root)
{
    if (!is(root, GM_JOBJ)) {
        gm_jfail(c, "report", "expected a JSON object");
        return;
    }
    const struct gm_jv *s = gm_jget(c, root, "report", "schema", GM_JSTR, 1);
    if (s && strcmp(s->s, GM_REPORT_SCHEMA) != 0) {
        gm_jfail(c, "report.schema", "not a gpumem report (expected \"gpumem-report\")");
        return;
    }
    uint64_t v = gm_jget_u64(c, root, "report", "version", 1, 0);
    if (!c->failed && v != GM_REPORT_SCHEMA_VERSION) {
        char m[96];
        P(m, "unsupported schema version %llu (this gpumem reads %d)",
          (unsigned long long)v, GM_REPORT_SCHEMA_VERSION);
        gm_jfail(c, "report.version", m);
    }
}
