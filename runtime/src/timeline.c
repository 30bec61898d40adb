/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ordered API timeline (alloc/free/copy/set/launch/graph events) that
 * DrGPUM-style object analyses read. Append-only; not thread-safe (the
 * caller holds the runtime lock). Pure C: no CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <stdlib.h>
#include <string.h>
#include "gm_grow.h"

void gm_timeline_init(struct gm_timeline *tl)
{
    memset(tl, 0, sizeof *tl);
}

void gm_timeline_destroy(struct gm_timeline *tl)
{
    free(tl->ev);
    memset(tl, 0, sizeof *tl);
}

uint64_t gm_timeline_append(struct gm_timeline *tl, const struct gm_tl_event *e)
{
    if (tl->limit && tl->n >= tl->limit) {
        tl->dropped++;
        return 0;
    }
    if (tl->n == tl->cap && GM_GROW_TO(tl->ev, tl->cap, tl->n + 1)) {
        tl->dropped++;
        return 0;
    }
    tl->ev[tl->n] = *e;
    tl->ev[tl->n].seq = tl->n + 1;
    return ++tl->n;
}

const char *gm_tl_kind_name(int kind)
{
    static const char *names[] = {"?", "alloc", "free", "copy", "set", "launch", "graph"};
    return (kind >= 1 && kind <= GM_TL_GRAPH) ? names[kind] : names[0];
}

const char *gm_tl_dir_name(int dir)
{
    static const char *names[] = {"", "HtoD", "DtoH", "DtoD", "HtoH", "default"};
    return (dir >= 0 && dir <= GM_DIR_UNKNOWN) ? names[dir] : "?";
}
