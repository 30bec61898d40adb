/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report model: device modules, their sites and counter sets.
 * Depends on libc and the site table contract only.
 */
#include "gm_report.h"
#include "grow.h"
#include "gpumem/abi.h"

#include <stdlib.h>
#include <string.h>

struct gm_report_module *gm_report_add_module(struct gm_report *r, uint64_t modid,
                                              const char *source, size_t nsites)
{
    struct gm_report_module *m = GM_GROW(r->modules, r->nmodules, r->cap_modules);
    if (!m)
        return NULL;
    m->sites = calloc(nsites ? nsites : 1, sizeof *m->sites);
    if (!m->sites || gm_report_set_str(&m->source, source)) {
        free(m->sites);
        return NULL;
    }
    m->modid = modid;
    m->nsites = nsites;
    r->nmodules++;
    return m;
}

int gm_report_set_site(struct gm_report_module *m, uint32_t site, uint8_t event,
                       uint8_t space, uint8_t when, uint32_t info, const char *func,
                       const char *file, uint32_t line, uint32_t column)
{
    if (site >= m->nsites)
        return -1;
    struct gm_report_site *s = &m->sites[site];
    if (gm_report_set_str(&s->func, func) || gm_report_set_str(&s->file, file))
        return -1;
    s->event = event;
    s->space = space;
    s->when = when;
    s->info = info;
    s->line = line;
    s->column = column;
    return 0;
}

/* Splits "a,b,c" into n names; missing names become "". */
static char **split_names(const char *list, uint32_t n)
{
    char **v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return NULL;
    const char *p = list ? list : "";
    for (uint32_t i = 0; i < n; i++) {
        size_t len = strcspn(p, ",");
        v[i] = strndup(p, len);
        if (!v[i]) {
            for (uint32_t j = 0; j < i; j++)
                free(v[j]);
            free(v);
            return NULL;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return v;
}

/* Removes a trailing GM_SLOT_OR_SUFFIX ("|or", abi.h); 1 if there was one. */
static uint8_t strip_or_suffix(char *name)
{
    size_t n = strlen(name), k = strlen(GM_SLOT_OR_SUFFIX);
    if (n < k || strcmp(name + n - k, GM_SLOT_OR_SUFFIX) != 0)
        return 0;
    name[n - k] = '\0';
    return 1;
}

struct gm_report_counter_set *gm_report_add_counter_set(struct gm_report_module *m,
                                                        const char *name, uint32_t nslots,
                                                        uint32_t flags,
                                                        const char *slot_names)
{
    size_t cap = m->nsets; /* sets are few: grow exactly */
    struct gm_report_counter_set *s = GM_GROW(m->sets, m->nsets, cap);
    if (!s)
        return NULL;
    s->slot_names = split_names(slot_names, nslots);
    s->or_slot = calloc(nslots ? nslots : 1, 1);
    s->name = NULL;
    if (!s->slot_names || !s->or_slot || gm_report_set_str(&s->name, name)) {
        for (uint32_t j = 0; s->slot_names && j < nslots; j++)
            free(s->slot_names[j]);
        free(s->slot_names);
        free(s->or_slot);
        return NULL;
    }
    for (uint32_t j = 0; j < nslots; j++)
        s->or_slot[j] = strip_or_suffix(s->slot_names[j]);
    s->nslots = nslots;
    s->flags = flags;
    m->nsets++;
    return s;
}

struct gm_report_module *gm_report_find_module(const struct gm_report *r, uint64_t modid)
{
    for (size_t i = 0; i < r->nmodules; i++)
        if (r->modules[i].modid == modid)
            return &r->modules[i];
    return NULL;
}

const struct gm_report_counter_set *gm_report_find_set(const struct gm_report_module *m,
                                                       const char *name)
{
    for (size_t i = 0; m && i < m->nsets; i++)
        if (m->sets[i].name && strcmp(m->sets[i].name, name) == 0)
            return &m->sets[i];
    return NULL;
}

int gm_report_slot_index(const struct gm_report_counter_set *s, const char *slot)
{
    for (uint32_t i = 0; s && i < s->nslots; i++)
        if (s->slot_names[i] && strcmp(s->slot_names[i], slot) == 0)
            return (int)i;
    return -1;
}
