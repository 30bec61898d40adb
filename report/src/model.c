/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report model: creating a report, adding program parts, freeing it.
 * Depends on libc only (no CUDA, no JSON).
 */
#include "gm_report.h"
#include "gm_grow.h"
#include "gm_strf.h"
#include "kindex.h"
#include "strpool.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gm_report_set_hostsite(struct gm_report_hostsite *h, const char *file,
                           uint32_t line, const char *func)
{
    char *f = NULL, *fn = NULL;
    if ((file && !(f = strdup(file))) || (func && !(fn = strdup(func)))) {
        free(f);
        return -1;
    }
    if (!h->interned) {
        free(h->file);
        free(h->func);
    }
    *h = (struct gm_report_hostsite){f, line, 0, fn};
    return 0;
}

static void hostsite_free(struct gm_report_hostsite *h)
{
    if (!h->interned) {
        free(h->file);
        free(h->func);
    }
}

struct gm_report *gm_report_new(void)
{
    struct gm_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->schema_version = GM_REPORT_SCHEMA_VERSION;
    r->program.pid = -1;
    r->program.start_ns = -1;
    r->program.end_ns = -1;
    return r;
}

int gm_report_set_argv(struct gm_report *r, int argc, char *const *argv)
{
    char **v = calloc(argc > 0 ? (size_t)argc : 1, sizeof *v);
    if (!v)
        return -1;
    for (int i = 0; i < argc; i++) {
        if (gm_report_set_str(&v[i], argv[i] ? argv[i] : "")) {
            for (int j = 0; j < i; j++)
                free(v[j]);
            free(v);
            return -1;
        }
    }
    for (int i = 0; i < r->program.argc; i++)
        free(r->program.argv[i]);
    free(r->program.argv);
    r->program.argc = argc;
    r->program.argv = v;
    return 0;
}

struct gm_report_device *gm_report_add_device(struct gm_report *r, int32_t ordinal,
                                              const char *name)
{
    struct gm_report_device *d = GM_GROW(r->devices, r->ndevices, r->cap_devices);
    if (!d || gm_report_set_str(&d->name, name))
        return NULL;
    d->ordinal = ordinal;
    r->ndevices++;
    return d;
}

struct gm_report_unobserved *gm_report_add_unobserved(struct gm_report *r,
                                                      const char *kernel,
                                                      const char *reason, uint64_t count)
{
    struct gm_report_unobserved *u = GM_GROW(r->unobserved, r->nunobserved, r->cap_unobserved);
    if (!u)
        return NULL;
    if (gm_report_set_str(&u->kernel, kernel) || gm_report_set_str(&u->reason, reason)) {
        free(u->kernel);
        return NULL;
    }
    u->count = count;
    r->nunobserved++;
    return u;
}

int gm_report_add_note(struct gm_report *r, const char *fmt, ...)
{
    char **slot = GM_GROW(r->notes, r->nnotes, r->cap_notes);
    if (!slot)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    char *s = gm_vstrf(fmt, ap);
    va_end(ap);
    if (!s)
        return -1;
    *slot = s;
    r->nnotes++;
    return 0;
}

static void module_free(struct gm_report_module *m)
{
    free(m->source);
    for (size_t i = 0; i < m->nsites; i++) {
        free(m->sites[i].func);
        free(m->sites[i].file);
    }
    free(m->sites);
    for (size_t i = 0; i < m->nsets; i++) {
        struct gm_report_counter_set *s = &m->sets[i];
        for (uint32_t j = 0; s->slot_names && j < s->nslots; j++)
            free(s->slot_names[j]);
        free(s->slot_names);
        free(s->or_slot);
        free(s->name);
    }
    free(m->sets);
}

static void kernel_free(struct gm_report_kernel *k)
{
    free(k->name);
    for (size_t i = 0; i < k->nsets; i++) {
        free(k->sets[i].set);
        free(k->sets[i].v);
    }
    free(k->sets);
}

static void alloc_free(struct gm_report_alloc *a)
{
    free(a->label);
    free(a->alloc_path);
    hostsite_free(&a->alloc_site);
    hostsite_free(&a->free_site);
    free(a->bitmap);
    for (size_t i = 0; i < a->nlaunches; i++)
        free(a->launches[i].bitmap);
    free(a->launches);
}

void gm_report_free(struct gm_report *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->program.argc; i++)
        free(r->program.argv[i]);
    free(r->program.argv);
    free(r->program.tool_version);
    free(r->program.analyses);
    for (size_t i = 0; i < r->ndevices; i++)
        free(r->devices[i].name);
    free(r->devices);
    for (size_t i = 0; i < r->nmodules; i++)
        module_free(&r->modules[i]);
    free(r->modules);
    for (size_t i = 0; i < r->nkernels; i++)
        kernel_free(&r->kernels[i]);
    free(r->kernels);
    gm_report_kindex_free(r);
    for (size_t i = 0; i < r->nlaunches; i++)
        hostsite_free(&r->launches[i].site);
    free(r->launches);
    for (size_t i = 0; i < r->nallocs; i++)
        alloc_free(&r->allocs[i]);
    free(r->allocs);
    for (size_t i = 0; i < r->nevents; i++) {
        hostsite_free(&r->events[i].site);
        free(r->events[i].uses);
    }
    free(r->events);
    for (size_t i = 0; i < r->nunobserved; i++) {
        free(r->unobserved[i].kernel);
        free(r->unobserved[i].reason);
    }
    free(r->unobserved);
    for (size_t i = 0; i < r->nnotes; i++)
        free(r->notes[i]);
    free(r->notes);
    gm_report_strpool_free(r);
    free(r);
}
