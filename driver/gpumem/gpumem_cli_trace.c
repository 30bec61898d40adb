/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `gpumem report --trace FILE.gmt`: reads a trace file twice with the
 * simulator's streaming reader and fills the report library's drill-down
 * sample (gm_drill.h): pass 1 sums every warp of the sampled launches,
 * pass 2 keeps the operations of the warps gm_drill_choose picked. Memory
 * stays bounded by the sample whatever the trace's size. Depends on the
 * report library and libgmsim's trace reader; no CUDA.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_drill.h"
#include "gpumem/trace_io.h"
#include "gpumem_cli.h"

static void to_op(const struct gm_access *a, struct gm_drill_op *o)
{
    memcpy(o->addr, a->addr, sizeof o->addr);
    o->active = a->active;
    o->site = a->site;
    o->module = a->module;
    o->cta[0] = a->cta_x;
    o->cta[1] = a->cta_y;
    o->cta[2] = a->cta_z;
    o->warp = a->warp;
    o->smid = a->smid;
    o->width = a->width;
    o->kind = a->kind;
    o->space = a->space;
}

static int add_module(struct gm_drill *d, const struct gm_trace_event *ev)
{
    struct gm_drill_site *s = ev->sites ? calloc(ev->nsites + 1, sizeof *s) : NULL;
    if (ev->sites && !s)
        return -1;
    for (uint32_t i = 0; s && i < ev->nsites; i++)
        s[i] = (struct gm_drill_site){.line = ev->sites[i].line, .column = ev->sites[i].column,
                                      .file = (char *)ev->sites[i].file,
                                      .func = (char *)ev->sites[i].func};
    int rc = gm_drill_module(d, ev->modid, ev->name, ev->nsites, s);
    free(s);
    return rc;
}

/* One pass over the file; 0, or 1 after a one-line message. A file that
 * only ends early is used up to where it ends (a warning says so). */
static int pass(struct gm_drill *d, const char *path, int second, char *err, size_t errlen)
{
    struct gm_trace_reader *r = gm_trace_reader_open(path, err, errlen);
    if (!r)
        return 1;
    struct gm_trace_event ev;
    struct gm_drill_op op;
    int li = -1, rc, bad = 0;
    while (!bad && (rc = gm_trace_reader_next(r, &ev)) > 0) {
        if (ev.kind == GM_TEV_MODULE && !second)
            bad = add_module(d, &ev);
        else if (ev.kind == GM_TEV_LAUNCH && !second) {
            li = gm_drill_launch(d, ev.launch.name, ev.launch.seq, ev.launch.grid, ev.launch.block);
            bad = li == -2;
        } else if (ev.kind == GM_TEV_LAUNCH)
            li = gm_drill_find_launch(d, ev.launch.seq);
        else if (ev.kind == GM_TEV_RECORDS && li >= 0)
            for (size_t i = 0; !bad && i < ev.nrecs; i++) {
                to_op(&ev.recs[i], &op);
                bad = second ? gm_drill_op2(d, li, &op) : gm_drill_op(d, li, &op);
            }
    }
    if (bad)
        snprintf(err, errlen, "%s: out of memory", path);
    else if (rc < 0 && gm_trace_reader_torn(r)) {
        if (!second)
            fprintf(stderr, "gpumem report: warning: %s\n", gm_trace_reader_error(r));
    } else if (rc < 0) {
        snprintf(err, errlen, "%s", gm_trace_reader_error(r));
        bad = 1;
    }
    gm_trace_reader_close(r);
    return bad;
}

struct gm_drill *gm_cli_load_drill(const char *path, char *err, size_t errlen)
{
    struct gm_trace_reader *r = gm_trace_reader_open(path, err, errlen);
    if (!r)
        return NULL;
    const struct gm_trace_gpu *g = gm_trace_reader_gpu(r);
    char gpu[GM_TRACE_NAME_MAX + 1] = "";
    if (g)
        snprintf(gpu, sizeof gpu, "%.*s", GM_TRACE_NAME_MAX, g->name);
    gm_trace_reader_close(r);
    struct gm_drill *d = gm_drill_new(path, gpu);
    if (!d) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    if (pass(d, path, 0, err, errlen)) {
        gm_drill_free(d);
        return NULL;
    }
    gm_drill_choose(d);
    if (pass(d, path, 1, err, errlen)) {
        gm_drill_free(d);
        return NULL;
    }
    return d;
}
