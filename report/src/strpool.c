/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Strings stored once per report (see strpool.h): an open-addressing hash
 * set over strings kept in large chunks. Depends on gm_report.h and libc.
 */
#include "strpool.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (64u << 10)

struct chunk {
    struct chunk *next;
    size_t used, cap;
    char data[];
};

struct gm_report_strpool {
    char **slot;
    size_t n, cap;
    struct chunk *chunks;
};

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int grow(struct gm_report_strpool *p)
{
    size_t cap = p->cap ? p->cap * 2 : 256;
    char **slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < p->cap; i++)
        if (p->slot[i]) {
            size_t j = hash(p->slot[i], strlen(p->slot[i])) & (cap - 1);
            while (slot[j])
                j = (j + 1) & (cap - 1);
            slot[j] = p->slot[i];
        }
    free(p->slot);
    p->slot = slot;
    p->cap = cap;
    return 0;
}

static char *store(struct gm_report_strpool *p, const char *s, size_t n)
{
    struct chunk *c = p->chunks;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > CHUNK ? n + 1 : CHUNK;
        if (!(c = malloc(sizeof *c + cap)))
            return NULL;
        *c = (struct chunk){p->chunks, 0, cap};
        p->chunks = c;
    }
    char *d = c->data + c->used;
    memcpy(d, s, n + 1);
    c->used += n + 1;
    return d;
}

char *gm_report_intern(struct gm_report *r, const char *s, int *oom)
{
    if (!s)
        return NULL;
    struct gm_report_strpool *p = r->strpool;
    if (!p && !(p = r->strpool = calloc(1, sizeof *p)))
        return *oom = 1, NULL;
    if ((p->n + 1) * 2 > p->cap && grow(p))
        return *oom = 1, NULL;
    size_t n = strlen(s), j = hash(s, n) & (p->cap - 1);
    for (; p->slot[j]; j = (j + 1) & (p->cap - 1))
        if (!strcmp(p->slot[j], s))
            return p->slot[j];
    if (!(p->slot[j] = store(p, s, n)))
        return *oom = 1, NULL;
    p->n++;
    return p->slot[j];
}

int gm_report_intern_hostsite(struct gm_report *r, struct gm_report_hostsite *h,
                              const char *file, uint32_t line, const char *func)
{
    int oom = 0;
    char *f = gm_report_intern(r, file, &oom), *fn = gm_report_intern(r, func, &oom);
    if (oom)
        return -1;
    if (!h->interned) {
        free(h->file);
        free(h->func);
    }
    *h = (struct gm_report_hostsite){f, line, 1, fn};
    return 0;
}

void gm_report_strpool_free(struct gm_report *r)
{
    struct gm_report_strpool *p = r->strpool;
    if (!p)
        return;
    for (struct chunk *c = p->chunks, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(p->slot);
    free(p);
    r->strpool = NULL;
}
