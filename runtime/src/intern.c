/* SPDX-License-Identifier: Apache-2.0 */
/*
 * String interning for names stored in timeline events and kernel stats:
 * one copy per distinct string, alive until process exit. Thread-safe.
 * Pure C + uthash: no CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

struct interned {
    UT_hash_handle hh;
    char s[];
};

static struct interned *g_strings;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

const char *gm_intern(const char *s)
{
    if (!s) return NULL;
    pthread_mutex_lock(&g_lock);
    struct interned *e;
    size_t len = strlen(s);
    HASH_FIND(hh, g_strings, s, len, e);
    if (!e && (e = malloc(sizeof *e + len + 1)) != NULL) {
        memcpy(e->s, s, len + 1);
        HASH_ADD_KEYPTR(hh, g_strings, e->s, len, e);
    }
    pthread_mutex_unlock(&g_lock);
    return e ? e->s : "?";
}
