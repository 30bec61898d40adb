/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report model: timeline events and the names of enum values.
 * Depends on libc only.
 */
#include "gm_report.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

struct gm_report_event *gm_report_add_event(struct gm_report *r, uint64_t seq,
                                            enum gm_report_op op, uint64_t bytes)
{
    struct gm_report_event *e = GM_GROW(r->events, r->nevents, r->cap_events);
    if (!e)
        return NULL;
    e->seq = seq;
    e->op = op;
    e->bytes = bytes;
    e->time_ns = -1;
    e->launch = -1;
    r->nevents++;
    return e;
}

int gm_report_event_add_use(struct gm_report_event *e, uint64_t alloc, uint32_t how,
                            uint64_t offset, uint64_t bytes)
{
    /* capacity: the next power of two (no field holds it); most events
     * have one or two uses */
    size_t n = e->nuses;
    if ((n & (n - 1)) == 0) {
        struct gm_report_use *nu = realloc(e->uses, (n ? 2 * n : 1) * sizeof *nu);
        if (!nu)
            return -1;
        e->uses = nu;
    }
    struct gm_report_use *u = &e->uses[n];
    memset(u, 0, sizeof *u);
    u->alloc = alloc;
    u->how = how;
    u->offset = offset;
    u->bytes = bytes;
    e->nuses++;
    return 0;
}

static const char *const op_names[] = {
    [GM_OP_ALLOC] = "alloc", [GM_OP_FREE] = "free", [GM_OP_MEMCPY] = "memcpy",
    [GM_OP_MEMSET] = "memset", [GM_OP_LAUNCH] = "launch",
};
static const char *const dir_names[] = {
    [GM_XFER_NONE] = "none", [GM_XFER_H2D] = "h2d", [GM_XFER_D2H] = "d2h",
    [GM_XFER_D2D] = "d2d", [GM_XFER_H2H] = "h2h", [GM_XFER_DEFAULT] = "default",
};
static const char *const end_names[] = {
    [GM_END_UNKNOWN] = "unknown", [GM_END_NORMAL] = "normal",
    [GM_END_EXIT] = "exit", [GM_END_SIGNAL] = "signal",
};
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

static const char *name_of(const char *const *t, int n, int v)
{
    return v >= 0 && v < n && t[v] ? t[v] : "?";
}

static int parse(const char *const *t, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (t[i] && strcmp(t[i], s) == 0)
            return i;
    return -1;
}

const char *gm_report_op_name(enum gm_report_op op) { return name_of(op_names, N(op_names), op); }
const char *gm_report_dir_name(enum gm_report_dir d) { return name_of(dir_names, N(dir_names), d); }
const char *gm_report_end_name(enum gm_report_end e) { return name_of(end_names, N(end_names), e); }
int gm_report_op_parse(const char *s) { return parse(op_names, N(op_names), s); }
int gm_report_dir_parse(const char *s) { return parse(dir_names, N(dir_names), s); }
int gm_report_end_parse(const char *s) { return parse(end_names, N(end_names), s); }
