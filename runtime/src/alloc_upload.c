/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The allocations analysis' side of a launch (include/gpumem/alloctab.h):
 * at entry, upload the live allocations as sorted ranges with zeroed
 * per-allocation chunk counters and bitmaps (per launch for allocations
 * whose per-launch bitmap the report keeps; cumulative, zeroed once, for
 * larger ones), free the device buffers of allocations freed since, and
 * write the module's gm_alloctab__allocations; at exit, read counters and
 * chunks back (bitmaps only when per-launch or changed), fold the replicas
 * and accumulate per allocation (union bitmap, reads/writes, sectors, chunk
 * histogram) and per launch. Runs under the launch lock; takes the runtime
 * lock for shared tables. Depends on the CUDA driver API (gm_cu); no LLVM.
 */
#include "rt.h"
#include "gpumem/alloctab.h"
#include "gm_grow.h"

#include <stdlib.h>
#include <string.h>

/* Per-launch bitmaps are kept up to this many 64-bit words (256 KiB). */
#define GM_KEEP_LAUNCH_WORDS (1u << 15)
/* Histogram chunks per allocation at most (larger allocations get larger
 * chunks than 1 << GM_CHUNK_SHIFT): bounds the per-launch read-back. */
#define GM_MAX_CHUNKS 4096u

/* Device buffers of one allocation in one context (kept across launches,
 * freed at the first launch after the allocation is freed). */
struct adev {
    struct { uint64_t id; CUcontext ctx; } key;
    CUdeviceptr bitmap, chunks;
    uint64_t words, nchunks, size;  /* words: 32-bit, one spare included */
    uint32_t chunk_shift;
    int cumulative;                 /* bitmap zeroed once, not per launch */
    uint64_t epoch;                 /* last snapshot that saw it live */
    UT_hash_handle hh;
};
static struct adev *g_adev;
static uint64_t g_epoch;

/* Device memory the analysis holds for tracked allocations (now and peak). */
static struct { uint64_t bitmap, chunks, tracked, peak_bitmap, peak_chunks, peak_tracked; } g_mem;
static int g_mem_note = -1;    /* index of our line in gm_st.notes */

static uint32_t gran_shift(void)
{
    static int s = -1;
    if (s < 0) {
        uint64_t g = gm_env_u64("GPUMEM_ALLOC_GRANULARITY", 4, 1, 1u << 20);
        for (s = 0; (1ull << s) < g && s < 20; s++) {}
        if ((1ull << s) != g) {
            gm_warn("GPUMEM_ALLOC_GRANULARITY=%s is not a power of two; using 4",
                    getenv("GPUMEM_ALLOC_GRANULARITY"));
            s = 2;
        }
    }
    return (uint32_t)s;
}

/* 4 KiB chunks, or larger so that an allocation has at most GM_MAX_CHUNKS. */
static uint32_t chunk_shift_for(uint64_t size)
{
    uint32_t s = GM_CHUNK_SHIFT;
    while (s < 40 && GM_ALLOC_NCHUNKS(size, s) > GM_MAX_CHUNKS) s++;
    return s;
}

static int is_cumulative(uint64_t size)
{
    return (GM_ALLOC_GRANULES(size, gran_shift()) + 63) / 64 > GM_KEEP_LAUNCH_WORDS;
}

static void mem_account(const struct adev *d, int sign)
{
    if (!d->bitmap) return;
    int64_t b = (int64_t)d->words * 4, c = (int64_t)d->nchunks * GM_ALLOC_CHUNK_SLOTS * 8;
    g_mem.bitmap += (uint64_t)(sign * b), g_mem.chunks += (uint64_t)(sign * c);
    g_mem.tracked += (uint64_t)(sign * (int64_t)d->size);
    if (g_mem.bitmap > g_mem.peak_bitmap) g_mem.peak_bitmap = g_mem.bitmap;
    if (g_mem.chunks > g_mem.peak_chunks) g_mem.peak_chunks = g_mem.chunks;
    if (g_mem.tracked > g_mem.peak_tracked) g_mem.peak_tracked = g_mem.tracked;
}

/* One line in the report's notes (updated in place): device bytes per tracked byte. */
static void mem_note(void)
{
    char line[400];
    if (!g_mem.peak_tracked) return;
    snprintf(line, sizeof line, "allocations: device memory at peak: bitmaps %llu bytes (%.5f per tracked byte, "
             "1/%.1f), chunk counters %llu bytes (%.5f per tracked byte), for %llu tracked bytes",
             (unsigned long long)g_mem.peak_bitmap, (double)g_mem.peak_bitmap / (double)g_mem.peak_tracked,
             (double)g_mem.peak_tracked / (double)(g_mem.peak_bitmap ? g_mem.peak_bitmap : 1),
             (unsigned long long)g_mem.peak_chunks, (double)g_mem.peak_chunks / (double)g_mem.peak_tracked,
             (unsigned long long)g_mem.peak_tracked);
    char *copy = strdup(line);
    if (!copy) return;
    pthread_mutex_lock(&gm_st.lock);
    if (g_mem_note < 0 && gm_st.nnotes < sizeof gm_st.notes / sizeof gm_st.notes[0])
        g_mem_note = (int)gm_st.nnotes++, gm_st.notes[g_mem_note] = NULL;
    if (g_mem_note >= 0) {
        free(gm_st.notes[g_mem_note]);
        gm_st.notes[g_mem_note] = copy;
        copy = NULL;
    }
    pthread_mutex_unlock(&gm_st.lock);
    free(copy);
}

static struct adev *adev_get(const struct gm_alloc *a, CUcontext ctx, CUstream stream)
{
    struct adev k = {.key = {a->id, ctx}}, *d;
    HASH_FIND(hh, g_adev, &k.key, sizeof k.key, d);
    if (d) {
        d->epoch = g_epoch;
        return d->bitmap ? d : NULL;
    }
    if (!(d = calloc(1, sizeof *d))) return NULL;
    d->key = k.key;
    d->epoch = g_epoch;
    d->size = a->size;
    d->words = GM_ALLOC_BITMAP_WORDS(a->size, gran_shift()) + 1;
    d->chunk_shift = chunk_shift_for(a->size);
    d->nchunks = GM_ALLOC_NCHUNKS(a->size, d->chunk_shift);
    d->cumulative = is_cumulative(a->size);
    CUresult r = gm_cu.cuMemAlloc(&d->bitmap, d->words * 4);
    if (r == CUDA_SUCCESS) r = gm_cu.cuMemAlloc(&d->chunks, d->nchunks * GM_ALLOC_CHUNK_SLOTS * 8);
    if (r == CUDA_SUCCESS) r = gm_cu.cuMemsetD8Async(d->bitmap, 0, d->words * 4, stream);
    if (r != CUDA_SUCCESS) {
        gm_warn("allocation %llu (%llu bytes): no device memory for its bitmap (%s); not tracked",
                (unsigned long long)a->id, (unsigned long long)a->size, gm_cu_err(r));
        if (d->bitmap) gm_cu.cuMemFree(d->bitmap);
        if (d->chunks) gm_cu.cuMemFree(d->chunks);
        d->bitmap = d->chunks = 0; /* remembered as untrackable */
    }
    mem_account(d, +1);
    HASH_ADD(hh, g_adev, key, sizeof d->key, d);
    return d->bitmap ? d : NULL;
}

static struct adev *adev_find(uint64_t id, CUcontext ctx)
{
    struct adev k = {.key = {id, ctx}}, *d;
    HASH_FIND(hh, g_adev, &k.key, sizeof k.key, d);
    return d;
}

/* Buffers of allocations no longer live in ctx: every launch that used
 * them has ended (launches are synchronised at exit) and been folded. */
static void adev_sweep(CUcontext ctx)
{
    struct adev *d, *tmp;
    HASH_ITER(hh, g_adev, d, tmp) {
        if (d->key.ctx != ctx || d->epoch == g_epoch) continue;
        mem_account(d, -1);
        if (d->bitmap) gm_cu.cuMemFree(d->bitmap);
        if (d->chunks) gm_cu.cuMemFree(d->chunks);
        HASH_DEL(g_adev, d);
        free(d);
    }
}

static int grow_dev(CUdeviceptr *p, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    if (*p) gm_cu.cuMemFree(*p);
    *p = 0;
    *cap = 0;
    if (gm_cu.cuMemAlloc(p, need) != CUDA_SUCCESS) return -1;
    *cap = need;
    return 0;
}

/* Snapshot of the live allocations this launch can see. The allocation
 * table is copied under the runtime lock; device buffers are made after it
 * is released (no CUDA call while holding a lock a callback may need). */
static int snapshot(struct gm_modinst *m, int device, CUstream stream)
{
    struct gm_alloc_upload *u = &m->up;
    pthread_mutex_lock(&gm_st.lock);
    size_t n = gm_st.allocs.nlive;
    struct gm_alloc *copy = malloc((n + 1) * sizeof *copy);
    for (size_t i = 0; copy && i < n; i++) copy[i] = *gm_st.allocs.live[i];
    pthread_mutex_unlock(&gm_st.lock);
    u->n = 0;
    int ok = copy && n < UINT32_MAX && GM_GROW_TO(u->ids, u->ids_cap, n + 1) == 0 &&
             GM_GROW_TO(u->sizes, u->sizes_cap, n + 1) == 0 &&
             GM_GROW_TO(u->ranges, u->ranges_host_cap, n + 1) == 0;
    for (size_t i = 0; ok && i < n; i++) {
        const struct gm_alloc *a = &copy[i];
        if (!a->size || (a->device != device && a->kind != GM_ALLOC_MANAGED)) continue;
        struct adev *d = adev_get(a, m->ctx, stream);
        if (!d) continue;
        struct gm_alloc_range *r = &u->ranges[u->n];
        memset(r, 0, sizeof *r);
        r->base = a->base;
        r->end = a->base + a->size;
        r->bitmap = (uint32_t *)(uintptr_t)d->bitmap;
        r->chunks = (unsigned long long *)(uintptr_t)d->chunks;
        r->id = (uint32_t)a->id;
        r->chunk_shift = d->chunk_shift;
        u->ids[u->n] = a->id;
        u->sizes[u->n++] = a->size;
    }
    free(copy);
    return ok ? 0 : -1;
}

static void zero_range(const struct gm_alloc_range *r, uint64_t id, CUcontext ctx, CUstream s)
{
    const struct adev *d = adev_find(id, ctx);
    if (!d) return;
    if (!d->cumulative) gm_cu.cuMemsetD8Async(d->bitmap, 0, d->words * 4, s);
    gm_cu.cuMemsetD8Async((CUdeviceptr)(uintptr_t)r->chunks, 0, d->nchunks * GM_ALLOC_CHUNK_SLOTS * 8, s);
}

void gm_alloctab_enter(struct gm_modinst *m, CUstream stream, int device)
{
    struct gm_alloc_upload *u = &m->up;
    struct gm_alloctab at = {.version = GM_ALLOCTAB_VERSION, .gran_shift = gran_shift(),
                             .chunk_shift = GM_CHUNK_SHIFT, .replica_mask = m->replicas - 1};
    u->active = 0;
    if (!m->alloctab_global) return;
    if (!m->replicas) m->replicas = 1; /* replica_mask must not wrap to ~0 */
    at.replica_mask = m->replicas - 1;
    g_epoch++;
    int snap = snapshot(m, device, stream);
    if (snap == 0) adev_sweep(m->ctx);
    mem_note();
    if (snap != 0) {
        gm_warn("out of host memory for the allocation table; allocations not measured in this launch");
        u->n = 0;
        gm_cu.cuMemcpyHtoD(m->alloctab_global, &at, sizeof at); /* n == 0: handler off */
        return;
    }
    size_t ctr_bytes = (size_t)m->replicas * u->n * GM_ALLOC_NSLOTS * 8;
    if (u->n && (grow_dev(&u->ranges_dev, &u->ranges_cap, u->n * sizeof *u->ranges) != 0 ||
                 grow_dev(&u->ctr_dev, &u->ctr_cap, ctr_bytes) != 0)) {
        gm_warn("no device memory for the allocation table; allocations not measured in this launch");
        u->n = 0;
    }
    if (u->n) {
        for (uint32_t i = 0; i < u->n; i++) zero_range(&u->ranges[i], u->ids[i], m->ctx, stream);
        gm_cu.cuMemsetD8Async(u->ctr_dev, 0, ctr_bytes, stream);
        gm_cu.cuMemcpyHtoD(u->ranges_dev, u->ranges, u->n * sizeof *u->ranges);
        at.n = u->n;
        at.ranges = (const struct gm_alloc_range *)(uintptr_t)u->ranges_dev;
        at.counters = (unsigned long long *)(uintptr_t)u->ctr_dev;
        if (u->n <= GM_ALLOC_NCONST) {
            at.nconst = u->n;
            for (uint32_t i = 0; i < u->n; i++) at.cbase[i] = u->ranges[i].base, at.cend[i] = u->ranges[i].end;
        }
    }
    /* n == 0 switches the handler off for this launch */
    if (gm_cu.cuMemcpyHtoD(m->alloctab_global, &at, sizeof at) == CUDA_SUCCESS && u->n) u->active = 1;
}

void gm_alloctab_off(struct gm_modinst *m)
{
    struct gm_alloctab at = {.version = GM_ALLOCTAB_VERSION, .gran_shift = gran_shift(),
                             .chunk_shift = GM_CHUNK_SHIFT};
    m->up.active = 0;
    if (m->alloctab_global) gm_cu.cuMemcpyHtoD(m->alloctab_global, &at, sizeof at); /* n == 0 */
}

/* ---- exit: read back and accumulate ------------------------------------ */

static struct gm_astat *g_astats;

const struct gm_astat *gm_astat_find(uint64_t id)
{
    struct gm_astat *s;
    HASH_FIND(hh, g_astats, &id, sizeof id, s);
    return s;
}

static struct gm_astat *astat_get(uint64_t id, uint64_t size, uint32_t chunk_shift)
{
    struct gm_astat *s;
    HASH_FIND(hh, g_astats, &id, sizeof id, s);
    if (s) return s;
    if (!(s = calloc(1, sizeof *s))) return NULL;
    s->id = id;
    s->gran = 1u << gran_shift();
    s->units = GM_ALLOC_GRANULES(size, gran_shift());
    s->chunk = 1u << chunk_shift;
    s->nchunks = GM_ALLOC_NCHUNKS(size, chunk_shift);
    s->bitmap = calloc((s->units + 63) / 64 + 1, 8);
    s->chunk_acc = calloc(s->nchunks + 1, 8);
    if (!s->bitmap || !s->chunk_acc) {
        free(s->bitmap), free(s->chunk_acc), free(s);
        return NULL;
    }
    HASH_ADD(hh, g_astats, id, sizeof s->id, s);
    return s;
}

/* ... and per-launch bitmaps up to this many words over all launches and
 * allocations (512 MiB): a long run keeps the first launches' bitmaps, not
 * one per launch forever. */
#define GM_KEEP_TOTAL_WORDS (1ull << 26)
static uint64_t g_kept_words;

static void add_launch(struct gm_astat *s, const struct gm_astat_launch *l, const uint64_t *bm)
{
    if (GM_GROW_TO(s->l, s->capl, s->nl + 1)) return;
    struct gm_astat_launch *d = &s->l[s->nl++];
    *d = *l;
    uint64_t words = (s->units + 63) / 64;
    d->bitmap = NULL;
    if (!bm || words > GM_KEEP_LAUNCH_WORDS || g_kept_words + words > GM_KEEP_TOTAL_WORDS) return;
    if ((d->bitmap = malloc(words * 8 + 8))) {
        memcpy(d->bitmap, bm, words * 8);
        g_kept_words += words;
    }
}

/* What one launch read back for one range. bm: the range's bitmap (this
 * launch's, or the cumulative one when `cumulative`), NULL when unchanged. */
struct rangeback {
    uint64_t id, size, seq, rsec, wsec;
    uint32_t chunk_shift;
    int cumulative;
    uint64_t *bm;
    const uint64_t *chunks;
};

/* ORs bm into the union; the units it adds (cumulative) or holds (per launch). */
static uint64_t fold_bitmap(struct gm_astat *s, uint64_t *bm, int cumulative)
{
    uint64_t words = (s->units + 63) / 64, n = 0;
    if (s->units % 64) bm[words - 1] &= ~0ull >> (64 - s->units % 64); /* spare bits past the end */
    for (uint64_t w = 0; w < words; w++) {
        n += (uint64_t)__builtin_popcountll(cumulative ? bm[w] & ~s->bitmap[w] : bm[w]);
        s->bitmap[w] |= bm[w];
    }
    return n;
}

static void accumulate(const struct rangeback *b)
{
    struct gm_astat *s = astat_get(b->id, b->size, b->chunk_shift);
    if (!s) return;
    struct gm_astat_launch l = {.seq = b->seq, .rsec = b->rsec, .wsec = b->wsec};
    if (b->bm) l.touched = fold_bitmap(s, b->bm, b->cumulative);
    for (uint64_t c = 0; c < s->nchunks; c++) {
        l.reads += b->chunks[c * GM_ALLOC_CHUNK_SLOTS + GM_ALLOC_CHUNK_READS];
        l.writes += b->chunks[c * GM_ALLOC_CHUNK_SLOTS + GM_ALLOC_CHUNK_WRITES];
        s->chunk_acc[c] += b->chunks[c * GM_ALLOC_CHUNK_SLOTS] + b->chunks[c * GM_ALLOC_CHUNK_SLOTS + 1];
    }
    s->reads += l.reads, s->writes += l.writes, s->rsec += b->rsec, s->wsec += b->wsec;
    if (l.reads || l.writes || l.touched) add_launch(s, &l, b->cumulative ? NULL : b->bm);
}

/* Host buffers reused across launches (exit runs under the launch lock). */
static uint64_t *g_bm_buf, *g_ch_buf;
static size_t g_bm_cap, g_ch_cap;

static uint64_t *scratch(uint64_t **buf, size_t *cap, size_t words)
{
    return gm_grow_to((void **)buf, cap, words, sizeof **buf) ? NULL : *buf;
}

/* Reads chunks, and the bitmap when `want`; 0 on success. */
static int read_range(const struct adev *d, int want, struct rangeback *b)
{
    uint64_t words64 = (GM_ALLOC_GRANULES(d->size, gran_shift()) + 63) / 64 + 1;
    uint64_t *ch = scratch(&g_ch_buf, &g_ch_cap, d->nchunks * GM_ALLOC_CHUNK_SLOTS + 1);
    uint64_t *bm = want ? scratch(&g_bm_buf, &g_bm_cap, words64) : NULL;
    if (!ch || (want && !bm)) {
        gm_warn("out of host memory reading allocation %llu (%llu bytes); not measured in this launch",
                (unsigned long long)d->key.id, (unsigned long long)d->size);
        return -1;
    }
    if (gm_cu.cuMemcpyDtoH(ch, d->chunks, d->nchunks * GM_ALLOC_CHUNK_SLOTS * 8) != CUDA_SUCCESS) return -1;
    b->chunks = ch;
    b->bm = bm;
    if (!bm) return 0;
    memset(bm, 0, words64 * 8);
    /* 32-bit words in little-endian order are the same bits as 64-bit
     * words; the spare word is not read */
    return gm_cu.cuMemcpyDtoH(bm, d->bitmap, (d->words - 1) * 4) == CUDA_SUCCESS ? 0 : -1;
}

void gm_alloctab_exit(struct gm_modinst *m, uint64_t seq)
{
    struct gm_alloc_upload *u = &m->up;
    if (!u->active) return;
    u->active = 0;
    if (!u->n || !u->ids || !u->sizes || !u->ranges) return;
    size_t ctr_n = (size_t)m->replicas * u->n * GM_ALLOC_NSLOTS;
    uint64_t *ctr = malloc(ctr_n * 8 + 8);
    if (!ctr || gm_cu.cuMemcpyDtoH(ctr, u->ctr_dev, ctr_n * 8) != CUDA_SUCCESS) {
        gm_warn("cannot read allocation counters; this launch is not measured");
        free(ctr);
        return;
    }
    for (uint32_t i = 0; i < u->n; i++) {
        const struct adev *d = adev_find(u->ids[i], m->ctx);
        if (!d || !d->bitmap) continue;
        struct rangeback b = {.id = u->ids[i], .size = u->sizes[i], .seq = seq,
                              .chunk_shift = d->chunk_shift, .cumulative = d->cumulative};
        uint64_t fresh = 0;
        for (uint32_t r = 0; r < m->replicas; r++) {
            const uint64_t *c = &ctr[((size_t)r * u->n + i) * GM_ALLOC_NSLOTS];
            b.rsec += c[GM_ALLOC_READ_SECTORS], b.wsec += c[GM_ALLOC_WRITE_SECTORS];
            fresh += c[GM_ALLOC_NEW_UNITS];
        }
        /* a cumulative bitmap is read only when this launch set new bits */
        if (read_range(d, !d->cumulative || fresh, &b) != 0) continue;
        pthread_mutex_lock(&gm_st.lock);
        accumulate(&b);
        pthread_mutex_unlock(&gm_st.lock);
    }
    free(ctr);
}

void gm_alloctab_forget_ctx(CUcontext ctx)
{
    struct adev *d, *tmp;
    HASH_ITER(hh, g_adev, d, tmp) {
        if (d->key.ctx != ctx) continue;
        mem_account(d, -1); /* the context's memory is gone with it */
        HASH_DEL(g_adev, d);
        free(d);
    }
}
