/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON writer of the report model (schema gpumem-report v1). Builds a cJSON
 * tree and prints it. Depends on the report model and cJSON only.
 */
#include "gm_report_json.h"
#include "json_util.h"

#include <stdlib.h>
#include <string.h>

#define ADD(o, k, v) cJSON_AddItemToObject((o), (k), (v))

static cJSON *hostsite(const struct gm_report_hostsite *h)
{
    if (!h->file && !h->func && !h->line)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    ADD(o, "file", gm_json_str(h->file));
    ADD(o, "line", gm_json_u64(h->line));
    ADD(o, "func", gm_json_str(h->func));
    return o;
}

static cJSON *u32_array(const uint32_t *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, gm_json_u64(v[i]));
    return a;
}

static cJSON *program(const struct gm_report_program *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *argv = cJSON_CreateArray();
    for (int i = 0; i < p->argc; i++)
        cJSON_AddItemToArray(argv, gm_json_str(p->argv[i]));
    ADD(o, "argv", argv);
    ADD(o, "pid", gm_json_i64(p->pid));
    ADD(o, "start_ns", gm_json_i64(p->start_ns));
    ADD(o, "end_ns", gm_json_i64(p->end_ns));
    ADD(o, "exit_status", gm_json_i64(p->exit_status));
    ADD(o, "end", gm_json_str(gm_report_end_name(p->end)));
    ADD(o, "tool_version", gm_json_str(p->tool_version));
    ADD(o, "analyses", gm_json_str(p->analyses));
    return o;
}

static cJSON *device(const struct gm_report_device *d)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "ordinal", gm_json_i64(d->ordinal));
    ADD(o, "name", gm_json_str(d->name));
    ADD(o, "cc_major", gm_json_i64(d->cc_major));
    ADD(o, "cc_minor", gm_json_i64(d->cc_minor));
    ADD(o, "sm_count", gm_json_i64(d->sm_count));
    ADD(o, "global_mem", gm_json_u64(d->global_mem));
    ADD(o, "l2_bytes", gm_json_u64(d->l2_bytes));
    return o;
}

static cJSON *site(const struct gm_report_site *s, size_t id)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "id", gm_json_u64(id));
    ADD(o, "event", gm_json_u64(s->event));
    ADD(o, "space", gm_json_u64(s->space));
    ADD(o, "when", gm_json_u64(s->when));
    ADD(o, "info", gm_json_u64(s->info));
    ADD(o, "func", gm_json_str(s->func));
    ADD(o, "file", gm_json_str(s->file));
    ADD(o, "line", gm_json_u64(s->line));
    ADD(o, "column", gm_json_u64(s->column));
    return o;
}

static cJSON *counter_set(const struct gm_report_counter_set *s)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "name", gm_json_str(s->name));
    ADD(o, "nslots", gm_json_u64(s->nslots));
    ADD(o, "flags", gm_json_u64(s->flags));
    cJSON *names = cJSON_CreateArray();
    for (uint32_t i = 0; i < s->nslots; i++)
        cJSON_AddItemToArray(names, gm_json_str(s->slot_names[i]));
    ADD(o, "slots", names);
    cJSON *fold = cJSON_CreateArray();
    for (uint32_t i = 0; i < s->nslots; i++)
        cJSON_AddItemToArray(fold, gm_json_str(gm_report_slot_is_or(s, i) ? "or" : "sum"));
    ADD(o, "fold", fold);
    return o;
}

static cJSON *module(const struct gm_report_module *m)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "modid", gm_json_hex64(m->modid));
    ADD(o, "source", gm_json_str(m->source));
    ADD(o, "n_asm_mem", gm_json_u64(m->n_asm_mem));
    cJSON *sites = cJSON_CreateArray();
    for (size_t i = 0; i < m->nsites; i++)
        cJSON_AddItemToArray(sites, site(&m->sites[i], i));
    ADD(o, "sites", sites);
    cJSON *sets = cJSON_CreateArray();
    for (size_t i = 0; i < m->nsets; i++)
        cJSON_AddItemToArray(sets, counter_set(&m->sets[i]));
    ADD(o, "counter_sets", sets);
    return o;
}

static int all_zero(const uint64_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i])
            return 0;
    return 1;
}

static cJSON *kcounters(const struct gm_report_kcounters *c)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "set", gm_json_str(c->set));
    ADD(o, "nsites", gm_json_u64(c->nsites));
    ADD(o, "nslots", gm_json_u64(c->nslots));
    cJSON *sites = cJSON_CreateArray();
    for (uint32_t s = 0; s < c->nsites; s++) {
        const uint64_t *row = c->v + (size_t)s * c->nslots;
        if (all_zero(row, c->nslots))
            continue;
        cJSON *e = cJSON_CreateObject();
        ADD(e, "site", gm_json_u64(s));
        cJSON *v = cJSON_CreateArray();
        for (uint32_t i = 0; i < c->nslots; i++)
            cJSON_AddItemToArray(v, gm_json_u64(row[i]));
        ADD(e, "v", v);
        cJSON_AddItemToArray(sites, e);
    }
    ADD(o, "sites", sites);
    return o;
}

static cJSON *kernel(const struct gm_report_kernel *k)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "name", gm_json_str(k->name));
    ADD(o, "modid", gm_json_hex64(k->modid));
    ADD(o, "launches", gm_json_u64(k->launches));
    ADD(o, "gpu_ns", gm_json_i64(k->gpu_ns));
    cJSON *sets = cJSON_CreateArray();
    for (size_t i = 0; i < k->nsets; i++)
        cJSON_AddItemToArray(sets, kcounters(&k->sets[i]));
    ADD(o, "counters", sets);
    return o;
}

static cJSON *launch(const struct gm_report_launch *l)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "seq", gm_json_u64(l->seq));
    ADD(o, "kernel", gm_json_u64(l->kernel));
    ADD(o, "grid", u32_array(l->grid, 3));
    ADD(o, "block", u32_array(l->block, 3));
    ADD(o, "shmem", gm_json_u64(l->shmem));
    ADD(o, "stream", gm_json_hex64(l->stream));
    ADD(o, "device", gm_json_i64(l->device));
    ADD(o, "api", gm_json_str(l->api));
    ADD(o, "site", hostsite(&l->site));
    ADD(o, "time_ns", gm_json_i64(l->time_ns));
    ADD(o, "gpu_ns", gm_json_i64(l->gpu_ns));
    return o;
}

static cJSON *u64_array(const uint64_t *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, gm_json_u64(v[i]));
    return a;
}

static cJSON *access(const struct gm_report_alloc *a)
{
    if (!a->has_access)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    ADD(o, "granularity", gm_json_u64(a->granularity));
    ADD(o, "units", gm_json_u64(a->units));
    ADD(o, "reads", gm_json_u64(a->reads));
    ADD(o, "writes", gm_json_u64(a->writes));
    ADD(o, "sectors", gm_json_u64(a->sectors));
    ADD(o, "touched_units", gm_json_u64(a->touched_units));
    ADD(o, "largest_untouched_units", gm_json_u64(a->largest_untouched_units));
    ADD(o, "untouched_runs", gm_json_u64(a->untouched_runs));
    ADD(o, "bitmap", gm_json_bitmap(a->bitmap, a->units));
    ADD(o, "hist_chunk", gm_json_u64(a->hist_chunk));
    ADD(o, "hist", u64_array(a->hist, GM_REPORT_HIST_BUCKETS));
    cJSON *ls = cJSON_CreateArray();
    for (size_t i = 0; i < a->nlaunches; i++) {
        const struct gm_report_alloc_launch *l = &a->launches[i];
        cJSON *e = cJSON_CreateObject();
        ADD(e, "launch_seq", gm_json_u64(l->launch_seq));
        ADD(e, "reads", gm_json_u64(l->reads));
        ADD(e, "writes", gm_json_u64(l->writes));
        ADD(e, "touched_units", gm_json_u64(l->touched_units));
        ADD(e, "bitmap", gm_json_bitmap(l->bitmap, a->units));
        cJSON_AddItemToArray(ls, e);
    }
    ADD(o, "launches", ls);
    return o;
}

static cJSON *alloc(const struct gm_report_alloc *a)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "id", gm_json_u64(a->id));
    ADD(o, "dev_ptr", gm_json_hex64(a->dev_ptr));
    ADD(o, "size", gm_json_u64(a->size));
    ADD(o, "api", gm_json_str(a->api));
    ADD(o, "label", gm_json_str(a->label));
    ADD(o, "device", gm_json_i64(a->device));
    ADD(o, "alloc_site", hostsite(&a->alloc_site));
    ADD(o, "free_site", hostsite(&a->free_site));
    ADD(o, "freed", cJSON_CreateBool(a->freed));
    ADD(o, "alloc_seq", gm_json_u64(a->alloc_seq));
    ADD(o, "free_seq", gm_json_u64(a->free_seq));
    ADD(o, "access", access(a));
    return o;
}

static const char *use_name(uint32_t how)
{
    if (how & GM_USE_UNKNOWN) return "?";
    if ((how & (GM_USE_READ | GM_USE_WRITE)) == (GM_USE_READ | GM_USE_WRITE)) return "rw";
    if (how & GM_USE_WRITE) return "w";
    if (how & GM_USE_READ) return "r";
    return "-";
}

static cJSON *event(const struct gm_report_event *e)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "seq", gm_json_u64(e->seq));
    ADD(o, "time_ns", gm_json_i64(e->time_ns));
    ADD(o, "op", gm_json_str(gm_report_op_name(e->op)));
    ADD(o, "bytes", gm_json_u64(e->bytes));
    ADD(o, "dir", gm_json_str(gm_report_dir_name(e->dir)));
    ADD(o, "stream", gm_json_hex64(e->stream));
    ADD(o, "device", gm_json_i64(e->device));
    ADD(o, "launch", gm_json_i64(e->launch));
    ADD(o, "site", hostsite(&e->site));
    cJSON *uses = cJSON_CreateArray();
    for (size_t i = 0; i < e->nuses; i++) {
        cJSON *u = cJSON_CreateObject();
        ADD(u, "alloc", gm_json_u64(e->uses[i].alloc));
        ADD(u, "how", gm_json_str(use_name(e->uses[i].how)));
        ADD(u, "offset", gm_json_u64(e->uses[i].offset));
        ADD(u, "bytes", gm_json_u64(e->uses[i].bytes));
        cJSON_AddItemToArray(uses, u);
    }
    ADD(o, "uses", uses);
    return o;
}

static cJSON *unobserved(const struct gm_report_unobserved *u)
{
    cJSON *o = cJSON_CreateObject();
    ADD(o, "kernel", gm_json_str(u->kernel));
    ADD(o, "reason", gm_json_str(u->reason));
    ADD(o, "count", gm_json_u64(u->count));
    return o;
}

static cJSON *note(char *const *s) { return gm_json_str(*s); }

/* The document is written one top-level member and one array element at a
 * time: each is a small cJSON tree, printed and freed before the next, so
 * writing takes memory for one element, not for a tree of the whole report.
 * The text is what cJSON_Print gives for the whole tree (each piece printed
 * alone and indented to its depth). */
struct jw {
    FILE *f;
    int bad;                /* out of memory or a write error */
};

/* Prints v (freed) with `depth` more tabs after each line break. */
static void put(struct jw *w, cJSON *v, int depth)
{
    char *s = v ? cJSON_Print(v) : NULL;
    cJSON_Delete(v);
    if (!s) {
        w->bad = 1;
        return;
    }
    static const char tabs[] = "\t\t\t\t\t\t\t\t";
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, "\n");
        int nl = p[n] == '\n';
        if (fwrite(p, 1, n + nl, w->f) != n + nl || (nl && fwrite(tabs, 1, (size_t)depth, w->f) != (size_t)depth))
            w->bad = 1;
        p += n + nl;
    }
    free(s);
}

static void key(struct jw *w, const char *k, int first)
{
    fprintf(w->f, "%s\n\t\"%s\":\t", first ? "" : ",", k);
}

/* "key": [el, el, ...] with each element built by fn, printed and freed. */
#define ARRAY(w, k, n, arr, fn)                                 \
    do {                                                        \
        key((w), (k), 0);                                       \
        putc('[', (w)->f);                                      \
        for (size_t i_ = 0; i_ < (n) && !(w)->bad; i_++) {      \
            if (i_)                                             \
                fputs(", ", (w)->f);                            \
            put((w), fn(&(arr)[i_]), 2);                        \
        }                                                       \
        putc(']', (w)->f);                                      \
    } while (0)

int gm_report_write_json(const struct gm_report *r, FILE *f)
{
    struct jw w = {f, 0};
    fputc('{', f);
    key(&w, "schema", 1);
    put(&w, gm_json_str(GM_REPORT_SCHEMA), 1);
    key(&w, "version", 0);
    put(&w, gm_json_u64(GM_REPORT_SCHEMA_VERSION), 1);
    key(&w, "program", 0);
    put(&w, program(&r->program), 1);
    ARRAY(&w, "devices", r->ndevices, r->devices, device);
    ARRAY(&w, "modules", r->nmodules, r->modules, module);
    ARRAY(&w, "kernels", r->nkernels, r->kernels, kernel);
    ARRAY(&w, "launches", r->nlaunches, r->launches, launch);
    ARRAY(&w, "allocations", r->nallocs, r->allocs, alloc);
    ARRAY(&w, "events", r->nevents, r->events, event);
    ARRAY(&w, "unobserved", r->nunobserved, r->unobserved, unobserved);
    ARRAY(&w, "notes", r->nnotes, r->notes, note);
    fputs("\n}\n", f);
    return w.bad || ferror(f) ? -1 : 0;
}
