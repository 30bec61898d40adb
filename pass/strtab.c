/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interned string table of the site table (offset 0 = ""), hashed with
 * uthash so each name is stored once. Depends on libc and uthash only.
 */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "internal.h"

struct gm_str_ent { char *key; uint32_t off; UT_hash_handle hh; };

static uint32_t append(struct gm_strtab *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + n + 1)
            cap *= 2;
        t->buf = realloc(t->buf, cap);
        if (!t->buf)
            abort();
        t->cap = cap;
    }
    uint32_t off = (uint32_t)t->len;
    memcpy(t->buf + t->len, s, n);
    t->buf[t->len + n] = 0;
    t->len += n + 1;
    return off;
}

uint32_t gm_str_intern(struct gm_strtab *t, const char *s, size_t n)
{
    if (!t->len)
        append(t, "", 0);
    if (!s || !n)
        return 0;
    struct gm_str_ent *h = t->hash, *e = NULL;
    HASH_FIND(hh, h, s, n, e);
    if (e)
        return e->off;
    e = malloc(sizeof *e);
    if (!e)
        abort();
    e->off = append(t, s, n);
    e->key = gm_strdup(s, n);
    HASH_ADD_KEYPTR(hh, h, e->key, n, e);
    t->hash = h;
    return e->off;
}

void gm_strtab_free(struct gm_strtab *t)
{
    struct gm_str_ent *h = t->hash, *e, *tmp;
    HASH_ITER(hh, h, e, tmp) {
        HASH_DEL(h, e);
        free(e->key);
        free(e);
    }
    free(t->buf);
    memset(t, 0, sizeof *t);
}
