/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Synthetic trace generator (gpumem/synth.h): parses a phase spec and emits
 * allocations, one launch and its records to a sink. Each phase is its own
 * site (module 0, site = phase index) so per-site numbers separate phases.
 * Deterministic (seeded xorshift). No file I/O of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/abi.h"
#include "gpumem/synth.h"

#define MAX_PHASES 16

struct phase {
    char pattern[16], label[GM_TRACE_NAME_MAX];
    uint64_t N, s, width, iters, n, step, lanes, seed, base, sms, carveout, launches;
    uint64_t allocs, sites, site;   /* allocations the region is cut into; sites the module
                                       claims (phase 0); site id of the records (0: phase index) */
    uint8_t kind, space, dir;
    uint64_t src;
    char list[1024];
};

static int set_key(struct phase *p, const char *k, const char *v, char *err, size_t errlen)
{
    struct { const char *k; uint64_t *f; } nums[] = {
        {"N", &p->N}, {"s", &p->s}, {"width", &p->width}, {"iters", &p->iters}, {"n", &p->n},
        {"step", &p->step}, {"lanes", &p->lanes}, {"seed", &p->seed}, {"base", &p->base},
        {"sms", &p->sms}, {"carveout", &p->carveout}, {"launches", &p->launches},
        {"allocs", &p->allocs}, {"sites", &p->sites}, {"site", &p->site}, {"src", &p->src}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (strcmp(k, nums[i].k)) continue;
        char *end;
        unsigned long long x = strtoull(v, &end, 0);
        int sh = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
        if (sh) end++;
        if (*end || end == v || *v == '-') break;
        *nums[i].f = (uint64_t)x << sh;
        return 0;
    }
    if (!strcmp(k, "kind")) {
        p->kind = !strcmp(v, "ld") ? GM_TRACE_LOAD : !strcmp(v, "st") ? GM_TRACE_STORE
                : !strcmp(v, "atom") ? (GM_TRACE_LOAD | GM_TRACE_STORE | GM_TRACE_ATOMIC) : 0;
        if (p->kind) return 0;
    } else if (!strcmp(k, "space")) {
        p->space = !strcmp(v, "global") ? GM_SPACE_GLOBAL : !strcmp(v, "local") ? GM_SPACE_LOCAL
                 : !strcmp(v, "shared") ? GM_SPACE_SHARED : 0;
        if (p->space) return 0;
    } else if (!strcmp(k, "dir")) {
        p->dir = !strcmp(v, "h2d") ? GM_COPY_H2D : !strcmp(v, "d2d") ? GM_COPY_D2D
               : !strcmp(v, "d2h") ? GM_COPY_D2H : !strcmp(v, "set") ? GM_COPY_SET : 0;
        if (p->dir) return 0;
    } else if (!strcmp(k, "label") && strlen(v) < sizeof p->label) {
        strcpy(p->label, v);
        return 0;
    } else if (!strcmp(k, "a") && strlen(v) < sizeof p->list) {
        strcpy(p->list, v);
        return 0;
    }
    snprintf(err, errlen, "synth: bad key or value '%s=%s'", k, v);
    return -1;
}

static int parse_phase(char *text, struct phase *p, char *err, size_t errlen)
{
    *p = (struct phase){.N = 1 << 20, .s = 4, .width = 4, .iters = 1, .n = 1024, .lanes = 32,
                        .seed = 1, .base = 0x10000000, .sms = 1, .launches = 1,
                        .kind = GM_TRACE_LOAD, .space = GM_SPACE_GLOBAL};
    char *colon = strchr(text, ':');
    if (colon) *colon = 0;
    snprintf(p->pattern, sizeof p->pattern, "%s", text);
    if (strcmp(p->pattern, "chase") && strcmp(p->pattern, "warp") && strcmp(p->pattern, "random") &&
        strcmp(p->pattern, "list") && strcmp(p->pattern, "copy")) {
        snprintf(err, errlen, "synth: unknown pattern '%s' (chase, warp, random, list, copy)", text);
        return -1;
    }
    for (char *kv = colon ? strtok(colon + 1, ",") : NULL; kv; kv = strtok(NULL, ",")) {
        char *eq = strchr(kv, '=');
        if (!eq) { snprintf(err, errlen, "synth: expected key=value, got '%s'", kv); return -1; }
        *eq = 0;
        if (set_key(p, kv, eq + 1, err, errlen)) return -1;
    }
    if (!strcmp(p->pattern, "copy") && !p->dir) p->dir = GM_COPY_H2D;
    if (!p->label[0]) snprintf(p->label, sizeof p->label, "buf@0x%llx", (unsigned long long)p->base);
    if (!p->N || (!p->s && !strcmp(p->pattern, "chase")) || !p->width || p->width > 65535 || !p->sms || p->sms > 65536 ||
        !p->lanes || p->lanes > 32 || p->iters > (1ull << 32) || p->n > (1ull << 34) ||
        p->allocs > p->N || p->allocs > (1ull << 32) || p->sites >= (1ull << 32) || p->site >= (1ull << 32)) {
        snprintf(err, errlen, "synth: parameter out of range in phase '%s'", p->pattern);
        return -1;
    }
    return 0;
}

struct gen {
    const struct gm_sink *k;
    struct gm_access buf[1024];
    size_t n;
    uint64_t count;
    int rc;
};

static void put(struct gen *g, const struct phase *p, uint32_t site, uint32_t active, const uint64_t *addr)
{
    struct gm_access *a = &g->buf[g->n++];
    memset(a, 0, sizeof *a);
    a->active = active;
    for (int k = 0; k < 32; k++) a->addr[k] = (active >> k & 1) ? addr[k] : 0;
    a->site = site;
    a->smid = (uint16_t)(g->count % p->sms);
    a->warp_slot = (uint8_t)(g->count / p->sms % 64);
    a->width = (uint16_t)p->width;
    a->kind = p->kind;
    a->space = p->space;
    g->count++;
    if (g->n == 1024) { if (!g->rc) g->rc = g->k->records(g->k->ctx, g->buf, g->n); g->n = 0; }
}

static void run_list(struct gen *g, const struct phase *p, uint32_t site)
{
    char tmp[1024], *save;
    uint64_t addr[32] = {0};
    snprintf(tmp, sizeof tmp, "%s", p->list);
    for (char *t = strtok_r(tmp, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
        addr[0] = p->base + strtoull(t, NULL, 0);
        put(g, p, site, 1, addr);
    }
}

static uint64_t xorshift(uint64_t *x) { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; return *x; }

static void run_phase(struct gen *g, const struct phase *p, uint32_t site)
{
    uint64_t addr[32] = {0}, x = p->seed * 0x9e3779b97f4a7c15ull | 1;
    uint32_t full = p->lanes == 32 ? 0xffffffffu : (1u << p->lanes) - 1;
    if (!strcmp(p->pattern, "chase")) {
        for (uint64_t it = 0; it < p->iters; it++)
            for (uint64_t off = 0; off < p->N; off += p->s) { addr[0] = p->base + off; put(g, p, site, 1, addr); }
    } else if (!strcmp(p->pattern, "warp")) {
        for (uint64_t it = 0; it < p->iters; it++)
            for (uint64_t i = 0; i < p->n; i++) {
                for (int k = 0; k < 32; k++) addr[k] = p->base + (i * p->step + (uint64_t)k * p->s) % p->N;
                put(g, p, site, full, addr);
            }
    } else if (!strcmp(p->pattern, "random")) {
        for (uint64_t i = 0; i < p->n * p->iters; i++) {
            for (int k = 0; k < 32; k++) addr[k] = p->base + (xorshift(&x) % p->N & ~3ull);
            put(g, p, site, full, addr);
        }
    } else {
        for (uint64_t it = 0; it < p->iters; it++) run_list(g, p, site);
    }
}

static uint64_t gcd(uint64_t a, uint64_t b) { while (b) { uint64_t t = a % b; a = b; b = t; } return a; }

/* allocs=K: the region cut into K allocations (the last takes the rest),
 * announced in a scattered order (i * P mod K, P coprime to K), so each
 * lands between earlier ones. */
static int emit_pieces(const struct gm_sink *k, const struct phase *p)
{
    uint64_t K = p->allocs, size = p->N / K, P = K * 5 / 8 + 1;
    while (gcd(P, K) != 1) P++;
    for (uint64_t i = 0; i < K; i++) {
        uint64_t j = (i * P) % K;
        struct gm_trace_alloc a = {.base = p->base + j * size, .size = j == K - 1 ? p->N - j * size : size,
                                   .free_seq = UINT64_MAX};
        snprintf(a.label, sizeof a.label, "%s#%llu", p->label, (unsigned long long)j);
        if (k->alloc(k->ctx, &a)) return -1;
    }
    return 0;
}

static int emit_allocs(const struct gm_sink *k, const struct phase *ph, int n)
{
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++)   /* overlapping phases share the first one's allocation */
            dup |= strcmp(ph[j].pattern, "copy") && ph[j].base < ph[i].base + ph[i].N && ph[i].base < ph[j].base + ph[j].N;
        if (dup || ph[i].space != GM_SPACE_GLOBAL || !strcmp(ph[i].pattern, "copy")) continue;
        if (ph[i].allocs > 1) {
            if (emit_pieces(k, &ph[i])) return -1;
            continue;
        }
        struct gm_trace_alloc a = {.base = ph[i].base, .size = ph[i].N, .free_seq = UINT64_MAX};
        snprintf(a.label, sizeof a.label, "%s", ph[i].label);
        if (k->alloc(k->ctx, &a)) return -1;
    }
    return 0;
}

int gm_synth(const char *spec, const struct gm_sink *k, char *err, size_t errlen)
{
    struct phase ph[MAX_PHASES];
    char text[4096];
    int n = 0;
    snprintf(text, sizeof text, "%s", spec);
    char *save;
    for (char *t = strtok_r(text, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
        if (n == MAX_PHASES) { snprintf(err, errlen, "synth: more than %d phases", MAX_PHASES); return -1; }
        if (parse_phase(t, &ph[n++], err, errlen)) return -1;
    }
    if (!n) { snprintf(err, errlen, "synth: empty spec"); return -1; }
    uint32_t nsites = ph[0].sites > (uint64_t)n ? (uint32_t)ph[0].sites : (uint32_t)n;
    if (k->module(k->ctx, 0, "synth", nsites, NULL) || emit_allocs(k, ph, n)) goto sink_err;
    struct gen *g = calloc(1, sizeof *g);
    if (!g) { snprintf(err, errlen, "synth: out of memory"); return -1; }
    g->k = k;
    for (uint64_t l = 0; l < ph[0].launches && !g->rc; l++) {
        struct gm_trace_launch L = {.seq = l, .grid = {1, 1, 1}, .block = {32, 1, 1},
                                    .carveout = (uint32_t)ph[0].carveout};
        snprintf(L.name, sizeof L.name, "synth_%s", ph[0].pattern);
        for (int i = 0; i < n && !g->rc; i++) {   /* copies first: they come before the kernel */
            struct gm_trace_copy c = {.dst = ph[i].base, .src = ph[i].src, .bytes = ph[i].N, .kind = ph[i].dir};
            if (!strcmp(ph[i].pattern, "copy") && k->copy(k->ctx, &c)) g->rc = -1;
        }
        if (g->rc) break;
        if (k->launch(k->ctx, &L)) { g->rc = -1; break; }
        g->count = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(ph[i].pattern, "copy")) run_phase(g, &ph[i], ph[i].site ? (uint32_t)ph[i].site : (uint32_t)i);
        if (g->n && !g->rc) g->rc = k->records(k->ctx, g->buf, g->n);
        g->n = 0;
        if (!g->rc) g->rc = k->end_launch(k->ctx, 0);
    }
    int rc = g->rc;
    free(g);
    if (!rc) return 0;
sink_err:
    snprintf(err, errlen, "synth: the sink failed");
    return -1;
}

static int w_module(void *c, uint64_t m, const char *nm, uint32_t n, const struct gm_trace_site *s)
{ return gm_trace_writer_module(c, m, nm, n, s); }
static int w_alloc(void *c, const struct gm_trace_alloc *a) { return gm_trace_writer_alloc(c, a); }
static int w_launch(void *c, const struct gm_trace_launch *l) { return gm_trace_writer_launch(c, l); }
static int w_records(void *c, const struct gm_access *a, size_t n) { return gm_trace_writer_records(c, a, n); }
static int w_end(void *c, uint64_t d) { return gm_trace_writer_end_launch(c, d); }
static int w_copy(void *c, const struct gm_trace_copy *k) { return gm_trace_writer_copy(c, k); }

struct gm_sink gm_synth_writer_sink(struct gm_trace_writer *w)
{
    return (struct gm_sink){w, w_module, w_alloc, w_launch, w_records, w_end, w_copy};
}
