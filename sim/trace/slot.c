/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Conversion between device trace slots (gpumem/trace.h: base + int32 lane
 * deltas, optional continuation slot with the high halves) and gm_access.
 * Pure functions; no I/O.
 */
#include <string.h>
#include "gpumem/trace_io.h"

static void copy_header_in(const struct gm_trace_rec *r, struct gm_access *a)
{
    a->active = r->active;
    a->site = r->site;
    a->cta_x = r->cta_x;
    a->cta_y = r->cta_y;
    a->cta_z = r->cta_z;
    a->smid = r->smid;
    a->module = r->module;
    a->width = r->width;
    a->warp_slot = r->warp_slot;
    a->warp = r->warp;
    a->kind = r->kind;
    a->space = r->space;
    a->flags = r->flags & (uint8_t)~GM_TRACE_F_EXT;
    a->lanes = 0;
}

int gm_trace_rec_decode(const struct gm_trace_rec *r, const struct gm_trace_ext *ext,
                        struct gm_access *a)
{
    if ((r->flags & GM_TRACE_F_EXT) && !ext) return -1;
    copy_header_in(r, a);
    for (int k = 0; k < 32; k++) {
        uint64_t d = (uint32_t)r->delta[k];
        if (r->flags & GM_TRACE_F_EXT) d |= (uint64_t)(uint32_t)ext->hi[k] << 32;
        else d = (uint64_t)(int64_t)r->delta[k];
        a->addr[k] = (r->active >> k & 1) ? r->base + d : 0;
    }
    return 0;
}

int gm_trace_rec_encode(const struct gm_access *a, struct gm_trace_rec *r, struct gm_trace_ext *ext)
{
    memset(r, 0, sizeof *r);
    uint64_t base = a->active ? a->addr[__builtin_ctz(a->active)] : 0;
    int wide = 0;
    for (int k = 0; k < 32; k++) {
        if (!(a->active >> k & 1)) continue;
        int64_t d = (int64_t)(a->addr[k] - base);
        if (d != (int32_t)d) wide = 1;
    }
    r->base = base;
    r->active = a->active;
    r->site = a->site;
    r->cta_x = a->cta_x;
    r->cta_y = a->cta_y;
    r->cta_z = a->cta_z;
    r->smid = a->smid;
    r->module = a->module;
    r->width = a->width;
    r->warp_slot = a->warp_slot;
    r->warp = a->warp;
    r->kind = a->kind;
    r->space = a->space;
    r->flags = (uint8_t)(a->flags | (wide ? GM_TRACE_F_EXT : 0));
    if (wide) memset(ext, 0, sizeof *ext);
    for (int k = 0; k < 32; k++) {
        if (!(a->active >> k & 1)) continue;
        uint64_t d = a->addr[k] - base;
        r->delta[k] = (int32_t)(uint32_t)d;
        if (wide) ext->hi[k] = (int32_t)(uint32_t)(d >> 32);
    }
    return wide ? 2 : 1;
}
