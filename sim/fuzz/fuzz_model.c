/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the cache model: the input picks a small cache
 * configuration (ways, policies, fetch, fill, hash, partitions, warm or
 * cold L2 at each launch, 1-3 threads) and then a program of allocations,
 * frees, copies and memsets (any kind, range and length up to 64 KiB),
 * launches and warp
 * records whose every field comes from the input (any active mask, width
 * 0..65535, any space and kind byte, any SM, lane addresses from strides,
 * small deltas or raw 64-bit values). Each record also goes through the
 * device-slot coding (encode, decode: must give it back). The fast model
 * must not crash and must give the same per-launch counts, end-of-trace
 * L2 write-back and per-allocation counts as the reference model (abort
 * otherwise). Work per input is
 * capped so one input stays fast. Depends on libgmsim only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/abi.h"
#include "gpumem/sim.h"

#define MAX_RECS 64          /* records per feed */
#define MAX_PIECES 40000u    /* 16 B pieces per input (bounds the time) */
#define REGION 0x7f0000000000ull

struct in { const uint8_t *p, *end; };

static uint64_t take(struct in *in, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)(in->p < in->end ? *in->p++ : 0) << (8 * i);
    return v;
}

static void config(struct in *in, struct gm_sim_config *c)
{
    static const uint32_t ways[] = {1, 2, 4, 8};
    static const uint32_t fills[] = {32, 64, 128};
    uint64_t b = take(in, 3);
    gm_sim_preset(c, "h100");
    c->sm_count = 1 + (uint32_t)(b & 3);
    c->l1_ways = ways[b >> 2 & 3];
    c->l1_repl = (enum gm_repl)(b >> 4 & 1);
    c->l1_write = (enum gm_wpol)((b >> 5 & 3) % 3);
    c->l1_fetch = (enum gm_fetch)(b >> 7 & 1);
    c->l1_bytes = c->l1_ways * 128u * (1u << (b >> 8 & 3));
    c->l2_ways = ways[b >> 10 & 3] * 2;
    c->l2_repl = (enum gm_repl)(b >> 12 & 1);
    c->l2_hash = (enum gm_hash)(b >> 13 & 1);
    c->l1_hash = (enum gm_hash)((b >> 22 & 3) % 3);
    c->l2_fill = fills[(b >> 14 & 3) % 3];
    c->l2_partitions = 1u << (b >> 16 & 1);
    c->l2_bytes = (uint64_t)c->l2_ways * 128u * 4u * (1u << (b >> 17 & 3));
    c->threads = 1 + (uint32_t)((b >> 19 & 3) % 3);
    c->l2_launch = (enum gm_l2start)(b >> 21 & 1);
    c->window = 1024;
}

/* Lane addresses: a base near the allocations (or anywhere), then a
 * stride, small per-lane deltas, or raw values. */
static void lanes(struct in *in, struct gm_access *a)
{
    uint32_t mode = (uint32_t)take(in, 1);
    uint64_t base = mode & 0x80 ? take(in, 8) : REGION + take(in, 3);
    if ((mode & 3) == 0) {
        int64_t s = (int64_t)(int16_t)take(in, 2);
        for (uint32_t k = 0; k < 32; k++) a->addr[k] = base + (uint64_t)(s * (int64_t)k);
    } else if ((mode & 3) == 1) {
        for (uint32_t k = 0; k < 32; k++) a->addr[k] = base + (uint64_t)(int8_t)take(in, 1) * 4;
    } else if ((mode & 3) == 2) {
        for (uint32_t k = 0; k < 32; k++) a->addr[k] = base + take(in, 2);
    } else {
        for (uint32_t k = 0; k < 32; k++) a->addr[k] = take(in, 8);
    }
    for (uint32_t k = 0; k < 32; k++)
        if (!(a->active >> k & 1)) a->addr[k] = 0;
}

static const uint8_t spaces[] = {GM_SPACE_GENERIC, GM_SPACE_GLOBAL, GM_SPACE_SHARED, GM_SPACE_CONST,
                                 GM_SPACE_LOCAL, GM_SPACE_PARAM, 2, 255};

static void record(struct in *in, struct gm_access *a, uint32_t *pieces)
{
    memset(a, 0, sizeof *a);
    uint32_t m = (uint32_t)take(in, 1);
    a->active = m & 1 ? 0xffffffffu : m & 2 ? 1u << (m >> 3) : (uint32_t)take(in, 4);
    uint32_t w = (uint32_t)take(in, 1);
    a->width = (uint16_t)(w < 0xf0 ? w % 33 : take(in, 2));
    uint32_t np = a->width ? (a->width + 15u) / 16u : 1;
    if (*pieces + np > MAX_PIECES) { a->width = 4; np = 1; }
    *pieces += np;
    uint32_t f = (uint32_t)take(in, 1);
    a->space = spaces[f & 7];
    a->kind = (uint8_t)(f >> 3 & 7);
    a->flags = (uint8_t)(f >> 6 & 1 ? GM_TRACE_F_NC : 0);
    a->smid = (uint16_t)take(in, 1);
    a->warp_slot = (uint8_t)take(in, 1);
    a->warp = (uint8_t)(a->warp_slot >> 2);
    a->module = (uint16_t)(f >> 7);
    a->site = (uint32_t)take(in, 1) % 5;
    a->cta_x = (uint32_t)take(in, 1);
    lanes(in, a);
}

/* The device-slot coding must give the record back. */
static void slot_roundtrip(const struct gm_access *a)
{
    struct gm_trace_rec rec;
    struct gm_trace_ext ext;
    struct gm_access b;
    int n = gm_trace_rec_encode(a, &rec, &ext);
    if (gm_trace_rec_decode(&rec, n == 2 ? &ext : NULL, &b)) abort();
    if (memcmp(a->addr, b.addr, sizeof a->addr) || a->active != b.active || a->width != b.width ||
        a->space != b.space || a->kind != b.kind || a->smid != b.smid)
        abort();
}

static void differ(const char *what, uint32_t i, const struct gm_counts *x, const struct gm_counts *y)
{
    const uint64_t *p = (const uint64_t *)x, *q = (const uint64_t *)y;
    for (size_t k = 0; k < sizeof *x / sizeof *p; k++)
        if (p[k] != q[k]) {
            fprintf(stderr, "fuzz_model: %s %u counter %zu: fast %llu, reference %llu\n", what, i, k,
                    (unsigned long long)p[k], (unsigned long long)q[k]);
            abort();
        }
}

static void run(struct in *in, struct gm_sim *s, struct gm_ref *r)
{
    static struct gm_access recs[MAX_RECS];
    uint64_t bases[8] = {0};
    uint32_t nb = 0, pieces = 0, launch = 0, in_launch = 0;
    gm_sim_add_module(s, 0, 3);
    while (in->p < in->end) {
        uint32_t op = (uint32_t)take(in, 1);
        if (op % 4 == 0 && !in_launch) {             /* allocation */
            uint64_t base = REGION + (take(in, 2) << 8), size = take(in, 2) << (op >> 4 & 7);
            if (gm_sim_alloc(s, base, size) > 0) {
                gm_ref_alloc(r, base, size);
                bases[nb++ % 8] = base;
            }
        } else if (op % 4 == 1 && !in_launch && op & 0x80) {   /* copy or memset */
            struct gm_trace_copy c = {.kind = (uint8_t)(1 + (op >> 2 & 3)), .dst = REGION + take(in, 3),
                                      .src = REGION + take(in, 3), .bytes = take(in, 2)};
            gm_sim_copy(s, &c);
            gm_ref_copy(r, &c);
        } else if (op % 4 == 1 && !in_launch) {      /* free (maybe of nothing) */
            uint64_t base = bases[(op >> 2) % 8];
            gm_sim_release(s, base);
            gm_ref_release(r, base);
        } else if (op % 4 == 2) {                    /* launch begin or end */
            if (in_launch) {
                struct gm_counts f = {0}, g = {0};
                if (gm_sim_end(s, &f)) abort();
                gm_ref_end(r, &g);
                differ("launch", launch++, &f, &g);
                in_launch = 0;
            } else {
                uint32_t carve = (uint32_t)(op >> 2) * 1024u;
                if (gm_sim_begin(s, carve)) continue;
                gm_ref_begin(r, carve);
                in_launch = 1;
            }
        } else if (op % 4 == 3 && in_launch) {       /* records */
            uint32_t n = 1 + (op >> 2) % MAX_RECS;
            for (uint32_t i = 0; i < n; i++) {
                record(in, &recs[i], &pieces);
                slot_roundtrip(&recs[i]);
            }
            gm_sim_feed(s, recs, n);
            gm_ref_feed(r, recs, n);
        }
    }
    if (in_launch) {
        struct gm_counts f = {0}, g = {0};
        if (gm_sim_end(s, &f)) abort();
        gm_ref_end(r, &g);
        differ("launch", launch, &f, &g);
    }
    struct gm_counts f = {0}, g = {0};   /* the end write-back, then allocations with it */
    gm_sim_flush_l2(s, &f);
    gm_ref_flush_l2(r, &g);
    differ("end write-back", 0, &f, &g);
    for (uint32_t id = 0; id <= gm_sim_nallocs(s); id++)
        differ("allocation", id, gm_sim_alloc_counts(s, id), gm_ref_alloc_counts(r, id));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct in in = {data, data + size};
    struct gm_sim_config c;
    const char *err;
    config(&in, &c);
    if (gm_sim_config_check(&c, 0)) return 0;
    struct gm_sim *s = gm_sim_new(&c, &err);
    if (!s) return 0;
    struct gm_ref *r = gm_ref_new(&c);
    run(&in, s, r);
    gm_ref_free(r);
    gm_sim_free(s);
    return 0;
}
