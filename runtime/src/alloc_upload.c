/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The allocations analysis' side of a launch (include/gpumem/alloctab.h):
 * at entry, upload the live allocations as sorted ranges with zeroed
 * per-allocation bitmaps and chunk counters, and write the module's
 * gm_alloctab__allocations; at exit, read them back, fold the replicas and
 * accumulate per allocation (union bitmap, reads/writes, sectors, chunk
 * histogram) and per launch. Runs under the launch lock; takes the runtime
 * lock for shared tables. Depends on the CUDA driver API (gm_cu); no LLVM.
 */
#include "rt.h"
#include "gpumem/alloctab.h"

#include <stdlib.h>
#include <string.h>

/* Device buffers of one allocation in one context (kept across launches). */
struct adev {
    struct { uint64_t id; CUcontext ctx; } key;
    CUdeviceptr bitmap, chunks;
    uint64_t words, nchunks;
    UT_hash_handle hh;
};
static struct adev *g_adev;

static uint32_t gran_shift(void)
{
    static int s = -1;
    if (s < 0) {
        const char *v = getenv("GPUMEM_ALLOC_GRANULARITY");
        unsigned long g = v ? strtoul(v, NULL, 10) : 4;
        for (s = 0; (1ul << s) < g && s < 20; s++) {}
        if (!g || (1ul << s) != g) {
            gm_warn("GPUMEM_ALLOC_GRANULARITY=%s is not a power of two; using 4", v);
            s = 2;
        }
    }
    return (uint32_t)s;
}

static struct adev *adev_get(const struct gm_alloc *a, CUcontext ctx)
{
    struct adev k = {.key = {a->id, ctx}}, *d;
    HASH_FIND(hh, g_adev, &k.key, sizeof k.key, d);
    if (d) return d->bitmap ? d : NULL;
    if (!(d = calloc(1, sizeof *d))) return NULL;
    d->key = k.key;
    d->words = GM_ALLOC_BITMAP_WORDS(a->size, gran_shift());
    d->nchunks = GM_ALLOC_NCHUNKS(a->size, GM_CHUNK_SHIFT);
    CUresult r = gm_cu.cuMemAlloc(&d->bitmap, d->words * 4);
    if (r == CUDA_SUCCESS) r = gm_cu.cuMemAlloc(&d->chunks, d->nchunks * GM_ALLOC_CHUNK_SLOTS * 8);
    if (r != CUDA_SUCCESS) {
        gm_warn("allocation %llu (%llu bytes): no device memory for its bitmap (%s); not tracked",
                (unsigned long long)a->id, (unsigned long long)a->size, gm_cu_err(r));
        if (d->bitmap) gm_cu.cuMemFree(d->bitmap);
        d->bitmap = 0; /* remembered as untrackable */
    }
    HASH_ADD(hh, g_adev, key, sizeof d->key, d);
    return d->bitmap ? d : NULL;
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

/* realloc that keeps the old block on failure (no lost pointer, no NULL). */
static int grow_host(void **p, size_t n, size_t elem)
{
    void *q = realloc(*p, n * elem);
    if (!q) return -1;
    *p = q;
    return 0;
}

/* Snapshot of the live allocations this launch can see. The allocation
 * table is copied under the runtime lock; device buffers are made after it
 * is released (no CUDA call while holding a lock a callback may need). */
static int snapshot(struct gm_modinst *m, int device)
{
    struct gm_alloc_upload *u = &m->up;
    pthread_mutex_lock(&gm_st.lock);
    size_t n = gm_st.allocs.nlive;
    struct gm_alloc *copy = malloc((n + 1) * sizeof *copy);
    for (size_t i = 0; copy && i < n; i++) copy[i] = *gm_st.allocs.live[i];
    pthread_mutex_unlock(&gm_st.lock);
    u->n = 0;
    int ok = copy && n < UINT32_MAX && grow_host((void **)&u->ids, n + 1, sizeof *u->ids) == 0 &&
             grow_host((void **)&u->sizes, n + 1, sizeof *u->sizes) == 0 &&
             grow_host((void **)&u->ranges, n + 1, sizeof *u->ranges) == 0;
    for (size_t i = 0; ok && i < n; i++) {
        const struct gm_alloc *a = &copy[i];
        if (!a->size || (a->device != device && a->kind != GM_ALLOC_MANAGED)) continue;
        struct adev *d = adev_get(a, m->ctx);
        if (!d) continue;
        struct gm_alloc_range *r = &u->ranges[u->n];
        memset(r, 0, sizeof *r);
        r->base = a->base;
        r->end = a->base + a->size;
        r->bitmap = (uint32_t *)(uintptr_t)d->bitmap;
        r->chunks = (unsigned long long *)(uintptr_t)d->chunks;
        r->id = (uint32_t)a->id;
        u->ids[u->n] = a->id;
        u->sizes[u->n++] = a->size;
    }
    free(copy);
    return ok ? 0 : -1;
}

static void zero_range(const struct gm_alloc_range *r, uint64_t size, CUstream s)
{
    gm_cu.cuMemsetD8Async((CUdeviceptr)(uintptr_t)r->bitmap, 0,
                          GM_ALLOC_BITMAP_WORDS(size, gran_shift()) * 4, s);
    gm_cu.cuMemsetD8Async((CUdeviceptr)(uintptr_t)r->chunks, 0,
                          GM_ALLOC_NCHUNKS(size, GM_CHUNK_SHIFT) * GM_ALLOC_CHUNK_SLOTS * 8, s);
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
    if (snapshot(m, device) != 0) {
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
        for (uint32_t i = 0; i < u->n; i++) zero_range(&u->ranges[i], u->sizes[i], stream);
        gm_cu.cuMemsetD8Async(u->ctr_dev, 0, ctr_bytes, stream);
        gm_cu.cuMemcpyHtoD(u->ranges_dev, u->ranges, u->n * sizeof *u->ranges);
        at.n = u->n;
        at.ranges = (const struct gm_alloc_range *)(uintptr_t)u->ranges_dev;
        at.counters = (unsigned long long *)(uintptr_t)u->ctr_dev;
    }
    /* n == 0 switches the handler off for this launch */
    if (gm_cu.cuMemcpyHtoD(m->alloctab_global, &at, sizeof at) == CUDA_SUCCESS && u->n) u->active = 1;
}

/* ---- exit: read back and accumulate ------------------------------------ */

static struct gm_astat *g_astats;

const struct gm_astat *gm_astat_find(uint64_t id)
{
    struct gm_astat *s;
    HASH_FIND(hh, g_astats, &id, sizeof id, s);
    return s;
}

static struct gm_astat *astat_get(uint64_t id, uint64_t size)
{
    struct gm_astat *s;
    HASH_FIND(hh, g_astats, &id, sizeof id, s);
    if (s) return s;
    if (!(s = calloc(1, sizeof *s))) return NULL;
    s->id = id;
    s->gran = 1u << gran_shift();
    s->units = GM_ALLOC_GRANULES(size, gran_shift());
    s->chunk = 1u << GM_CHUNK_SHIFT;
    s->nchunks = GM_ALLOC_NCHUNKS(size, GM_CHUNK_SHIFT);
    s->bitmap = calloc((s->units + 63) / 64 + 1, 8);
    s->chunk_acc = calloc(s->nchunks + 1, 8);
    if (!s->bitmap || !s->chunk_acc) {
        free(s->bitmap), free(s->chunk_acc), free(s);
        return NULL;
    }
    HASH_ADD(hh, g_astats, id, sizeof s->id, s);
    return s;
}

/* Per-launch bitmaps are kept up to this many 64-bit words (256 KiB). */
#define GM_KEEP_LAUNCH_WORDS (1u << 15)
/* ... and up to this many words over all launches and allocations (512 MiB):
 * a long run keeps the first launches' bitmaps, not one per launch forever. */
#define GM_KEEP_TOTAL_WORDS (1ull << 26)
static uint64_t g_kept_words;

static void add_launch(struct gm_astat *s, const struct gm_astat_launch *l, const uint64_t *bm)
{
    if (s->nl == s->capl) {
        size_t nc = s->capl ? s->capl * 2 : 8;
        void *p = realloc(s->l, nc * sizeof *s->l);
        if (!p) return;
        s->l = p, s->capl = nc;
    }
    struct gm_astat_launch *d = &s->l[s->nl++];
    *d = *l;
    uint64_t words = (s->units + 63) / 64;
    d->bitmap = NULL;
    if (words > GM_KEEP_LAUNCH_WORDS || g_kept_words + words > GM_KEEP_TOTAL_WORDS) return;
    if ((d->bitmap = malloc(words * 8 + 8))) {
        memcpy(d->bitmap, bm, words * 8);
        g_kept_words += words;
    }
}

static void accumulate(uint64_t id, uint64_t size, uint64_t seq, const uint64_t *bm,
                       const uint64_t *chunks, uint64_t rsec, uint64_t wsec)
{
    struct gm_astat *s = astat_get(id, size);
    if (!s) return;
    struct gm_astat_launch l = {.seq = seq, .rsec = rsec, .wsec = wsec};
    uint64_t words = (s->units + 63) / 64;
    for (uint64_t w = 0; w < words; w++) {
        s->bitmap[w] |= bm[w];
        l.touched += (uint64_t)__builtin_popcountll(bm[w]);
    }
    for (uint64_t c = 0; c < s->nchunks; c++) {
        l.reads += chunks[c * GM_ALLOC_CHUNK_SLOTS + GM_ALLOC_CHUNK_READS];
        l.writes += chunks[c * GM_ALLOC_CHUNK_SLOTS + GM_ALLOC_CHUNK_WRITES];
        s->chunk_acc[c] += chunks[c * GM_ALLOC_CHUNK_SLOTS] + chunks[c * GM_ALLOC_CHUNK_SLOTS + 1];
    }
    s->reads += l.reads, s->writes += l.writes, s->rsec += rsec, s->wsec += wsec;
    if (l.reads || l.writes || l.touched) add_launch(s, &l, bm);
}

static int read_range(const struct gm_alloc_range *r, uint64_t size, uint64_t *bm, uint64_t *chunks)
{
    uint64_t words32 = GM_ALLOC_BITMAP_WORDS(size, gran_shift());
    uint64_t nch = GM_ALLOC_NCHUNKS(size, GM_CHUNK_SHIFT);
    memset(bm, 0, ((GM_ALLOC_GRANULES(size, gran_shift()) + 63) / 64 + 1) * 8);
    /* 32-bit words in little-endian order are the same bits as 64-bit words */
    if (gm_cu.cuMemcpyDtoH(bm, (CUdeviceptr)(uintptr_t)r->bitmap, words32 * 4) != CUDA_SUCCESS) return -1;
    return gm_cu.cuMemcpyDtoH(chunks, (CUdeviceptr)(uintptr_t)r->chunks,
                              nch * GM_ALLOC_CHUNK_SLOTS * 8) == CUDA_SUCCESS ? 0 : -1;
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
        uint64_t size = u->sizes[i];
        uint64_t *bm = malloc(((GM_ALLOC_GRANULES(size, gran_shift()) + 63) / 64 + 1) * 8);
        uint64_t *ch = malloc(GM_ALLOC_NCHUNKS(size, GM_CHUNK_SHIFT) * GM_ALLOC_CHUNK_SLOTS * 8 + 8);
        uint64_t rs = 0, ws = 0;
        for (uint32_t r = 0; r < m->replicas; r++) {
            rs += ctr[((size_t)r * u->n + i) * GM_ALLOC_NSLOTS + GM_ALLOC_READ_SECTORS];
            ws += ctr[((size_t)r * u->n + i) * GM_ALLOC_NSLOTS + GM_ALLOC_WRITE_SECTORS];
        }
        if (!bm || !ch) gm_warn("out of host memory reading allocation %llu (%llu bytes); "
                                "not measured in this launch",
                                (unsigned long long)u->ids[i], (unsigned long long)size);
        if (bm && ch && read_range(&u->ranges[i], size, bm, ch) == 0) {
            pthread_mutex_lock(&gm_st.lock);
            accumulate(u->ids[i], size, seq, bm, ch, rs, ws);
            pthread_mutex_unlock(&gm_st.lock);
        }
        free(bm);
        free(ch);
    }
    free(ctr);
}

void gm_alloctab_forget_ctx(CUcontext ctx)
{
    struct adev *d, *tmp;
    HASH_ITER(hh, g_adev, d, tmp) {
        if (d->key.ctx != ctx) continue;
        HASH_DEL(g_adev, d);
        free(d);
    }
}
