/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Simulator configuration: presets, key=value setting, and the checker that
 * rejects impossible caches once, before any access is simulated (cachegrind's
 * check_cache idea). No I/O. Preset values not published by NVIDIA are
 * assumptions, listed in docs/sim.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/sim.h"

static const struct gm_sim_config h100 = {
    .sm_count = 132, .l1_shared_bytes = 256u << 10, .carveout = 32u << 10,
    .l1_ways = 4, .l1_repl = GM_REPL_PLRU, .l1_write = GM_WPOL_ALLOCATE,
    .l1_fetch = GM_FETCH_SECTOR, .l1_hash = GM_HASH_MOD,
    .l2_bytes = 50ull << 20, .l2_ways = 20, .l2_partitions = 2,
    .l2_repl = GM_REPL_LRU, .l2_hash = GM_HASH_XOR, .l2_fill = 64, .threads = 1, .window = 1u << 16,
};

static const struct gm_sim_config rtx2080ti = {
    .sm_count = 68, .l1_shared_bytes = 96u << 10, .carveout = 32u << 10,
    .l1_ways = 4, .l1_repl = GM_REPL_PLRU, .l1_write = GM_WPOL_ALLOCATE,
    .l1_fetch = GM_FETCH_SECTOR,
    .l2_bytes = 5632ull << 10, .l2_ways = 16, .l2_partitions = 1,
    .l2_repl = GM_REPL_LRU, .l2_hash = GM_HASH_MOD, .threads = 1, .window = 1u << 16,
};

int gm_sim_preset(struct gm_sim_config *c, const char *name)
{
    if (!strcmp(name, "h100")) *c = h100;
    else if (!strcmp(name, "rtx2080ti")) *c = rtx2080ti;
    else return -1;
    return 0;
}

/* Parses a size with an optional K/M/G suffix (powers of 1024). */
static int parse_num(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || end == v || *v == '-') return -1;
    int sh = 0;
    if (*end == 'K' || *end == 'k') sh = 10;
    else if (*end == 'M' || *end == 'm') sh = 20;
    else if (*end == 'G' || *end == 'g') sh = 30;
    if (sh) end++;
    if (*end || (sh && x > (~0ull >> sh))) return -1;
    *out = (uint64_t)x << sh;
    return 0;
}

struct word { const char *name; int value; };

static int parse_word(const char *v, const struct word *w, int *out)
{
    for (; w->name; w++)
        if (!strcmp(v, w->name)) { *out = w->value; return 0; }
    return -1;
}

static const struct word repl_words[] = {{"lru", GM_REPL_LRU}, {"plru", GM_REPL_PLRU}, {0, 0}};
static const struct word wpol_words[] = {{"allocate", GM_WPOL_ALLOCATE},
    {"no-allocate", GM_WPOL_NOALLOCATE}, {"invalidate", GM_WPOL_INVALIDATE}, {0, 0}};
static const struct word fetch_words[] = {{"sector", GM_FETCH_SECTOR}, {"line", GM_FETCH_LINE}, {0, 0}};
static const struct word hash_words[] = {{"mod", GM_HASH_MOD}, {"xor", GM_HASH_XOR},
                                         {"fold", GM_HASH_FOLD}, {0, 0}};
static const struct word l2start_words[] = {{"warm", GM_L2_WARM}, {"cold", GM_L2_COLD}, {0, 0}};

static const char *set_enum(void *field, const struct word *w, const char *v)
{
    int x;
    if (parse_word(v, w, &x)) return "unknown value";
    memcpy(field, &x, sizeof x);
    return NULL;
}

static const char *set_u32(uint32_t *field, const char *v)
{
    uint64_t x;
    if (parse_num(v, &x) || x > UINT32_MAX) return "not a number in 0..4294967295 (K/M/G allowed)";
    *field = (uint32_t)x;
    return NULL;
}

const char *gm_sim_config_set(struct gm_sim_config *c, const char *key, const char *v)
{
    char k[64];
    snprintf(k, sizeof k, "%s", key);
    for (char *p = k; *p; p++)
        if (*p == '-' || *p == '.') *p = '_';
    uint64_t x;
    if (!strcmp(k, "sm_count")) return set_u32(&c->sm_count, v);
    if (!strcmp(k, "l1_shared_bytes")) return set_u32(&c->l1_shared_bytes, v);
    if (!strcmp(k, "carveout")) return set_u32(&c->carveout, v);
    if (!strcmp(k, "l1_bytes")) return set_u32(&c->l1_bytes, v);
    if (!strcmp(k, "l1_ways")) return set_u32(&c->l1_ways, v);
    if (!strcmp(k, "l1_repl")) return set_enum(&c->l1_repl, repl_words, v);
    if (!strcmp(k, "l1_write")) return set_enum(&c->l1_write, wpol_words, v);
    if (!strcmp(k, "l1_fetch")) return set_enum(&c->l1_fetch, fetch_words, v);
    if (!strcmp(k, "l2_bytes")) {
        if (parse_num(v, &x)) return "not a number (K/M/G allowed)";
        c->l2_bytes = x;
        return NULL;
    }
    if (!strcmp(k, "l2_ways")) return set_u32(&c->l2_ways, v);
    if (!strcmp(k, "l2_partitions")) return set_u32(&c->l2_partitions, v);
    if (!strcmp(k, "l2_repl")) return set_enum(&c->l2_repl, repl_words, v);
    if (!strcmp(k, "l2_hash")) return set_enum(&c->l2_hash, hash_words, v);
    if (!strcmp(k, "l1_hash")) return set_enum(&c->l1_hash, hash_words, v);
    if (!strcmp(k, "l2_fill")) return set_u32(&c->l2_fill, v);
    if (!strcmp(k, "l2_launch")) return set_enum(&c->l2_launch, l2start_words, v);
    if (!strcmp(k, "threads")) return set_u32(&c->threads, v);
    if (!strcmp(k, "window")) return set_u32(&c->window, v);
    return "unknown parameter";
}

uint32_t gm_sim_l1_bytes(const struct gm_sim_config *c, uint32_t carveout)
{
    if (c->l1_bytes) return c->l1_bytes;
    uint32_t shared = carveout ? carveout : c->carveout;
    return shared >= c->l1_shared_bytes ? 0 : c->l1_shared_bytes - shared;
}

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

static const char *check_level(const char *name, uint64_t bytes, uint32_t ways, enum gm_repl repl)
{
    static _Thread_local char msg[160];
    if (ways < 1 || ways > 64) {
        snprintf(msg, sizeof msg, "%s: ways must be 1..64 (got %u)", name, ways);
        return msg;
    }
    if (repl == GM_REPL_PLRU && !pow2(ways)) {
        snprintf(msg, sizeof msg, "%s: tree-PLRU needs a power-of-two number of ways (got %u)", name, ways);
        return msg;
    }
    if (bytes == 0 || bytes % ((uint64_t)GM_LINE_BYTES * ways)) {
        snprintf(msg, sizeof msg, "%s: size %llu B is not a positive multiple of %u ways x %u B lines",
                 name, (unsigned long long)bytes, ways, GM_LINE_BYTES);
        return msg;
    }
    if (bytes / GM_LINE_BYTES / ways > (1u << 30)) {
        snprintf(msg, sizeof msg, "%s: more than 2^30 sets", name);
        return msg;
    }
    return NULL;
}

const char *gm_sim_config_check(const struct gm_sim_config *c, uint32_t carveout)
{
    if (c->sm_count < 1 || c->sm_count > 65536) return "sm_count must be 1..65536";
    if (!c->l1_bytes && (carveout ? carveout : c->carveout) >= c->l1_shared_bytes)
        return "shared-memory carve-out leaves no L1 (carve-out >= l1_shared_bytes)";
    const char *m = check_level("L1", gm_sim_l1_bytes(c, carveout), c->l1_ways, c->l1_repl);
    if (m) return m;
    if ((m = check_level("L2", c->l2_bytes, c->l2_ways, c->l2_repl))) return m;
    uint64_t l2sets = c->l2_bytes / GM_LINE_BYTES / c->l2_ways;
    if (c->l2_partitions < 1 || c->l2_partitions > 64 || l2sets % c->l2_partitions)
        return "l2_partitions must be 1..64 and divide the number of L2 sets";
    if (c->l2_fill && c->l2_fill != 32 && c->l2_fill != 64 && c->l2_fill != 128)
        return "l2_fill must be 32, 64 or 128 (bytes an L2 read miss fetches)";
    if (c->threads < 1 || c->threads > 256) return "threads must be 1..256";
    if (c->window < 1024) return "window must be at least 1024 records";
    return NULL;
}

void gm_counts_add(struct gm_counts *d, const struct gm_counts *s)
{
    uint64_t *a = (uint64_t *)d;
    const uint64_t *b = (const uint64_t *)s;
    for (size_t i = 0; i < sizeof *d / sizeof(uint64_t); i++) a[i] += b[i];
}
