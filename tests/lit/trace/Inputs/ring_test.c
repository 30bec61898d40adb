/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test of the trace ring consumer (runtime/trace/trace_ring.c) with a
 * fake device buffer in host memory that CPU threads fill with the
 * handler's reservation protocol (gpumem/trace.h, as in
 * handlers/builtin/trace.cu), drained by a consumer thread while they run.
 * Checks wrap-around, back-pressure, wide (two-slot) records, drop mode,
 * the record cap, record integrity, and when a slot may be trusted.
 * Prints one line per case. Depends on trace_ring.c and the contract
 * header only.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <stddef.h>
#include "trace_ring.h"

struct fake {
    struct gm_trace_buf *hdr;   /* header followed by the slots */
    unsigned char *slots;
};

#define A(p) ((_Atomic uint64_t *)(p))
#define A32(p) ((_Atomic uint32_t *)(p))

/* ---- device side, emulated ---- */

static int reserve(struct fake *f, uint32_t n, uint64_t *slot)
{
    struct gm_trace_buf *b = f->hdr;
    uint64_t nrec = atomic_fetch_add(A(&b->records), 1);
    if (b->max_records && nrec >= b->max_records) return 0;
    for (uint32_t polls = 0;; polls++) {
        uint64_t w = atomic_load(A(&b->write_index)), r = atomic_load(A(&b->read_index));
        if (w + n <= r + b->capacity) {
            if (atomic_compare_exchange_strong(A(&b->write_index), &w, w + n)) {
                *slot = w;
                return 1;
            }
            continue;
        }
        if (b->mode == GM_TRACE_MODE_DROP || (b->spin_limit && polls >= b->spin_limit)) {
            atomic_fetch_add(A(&b->dropped), 1);
            return 0;
        }
        sched_yield();
    }
}

static unsigned char *slot_at(struct fake *f, uint64_t i)
{
    return f->slots + (i % f->hdr->capacity) * GM_TRACE_REC_SIZE;
}

/* Stores a slot's words but the commit word (relaxed: the consumer's copy
 * may read them at any time). */
static void store_slot(unsigned char *slot, const void *v)
{
    const uint32_t *src = v;
    uint32_t *dst = (uint32_t *)slot;
    size_t skip = offsetof(struct gm_trace_rec, commit) / 4;
    for (size_t i = 0; i < GM_TRACE_REC_SIZE / 4; i++)
        if (i != skip) __atomic_store_n(&dst[i], src[i], __ATOMIC_RELAXED);
}

/* Record number seq of producer p: lane k at base + k*4 (wide: + k<<33). */
static void produce(struct fake *f, uint32_t p, uint32_t seq, int wide)
{
    uint64_t w;
    if (!reserve(f, wide ? 2 : 1, &w)) return;
    struct gm_trace_rec r = { 0 };
    struct gm_trace_ext x = { 0 };
    r.base = ((uint64_t)p << 40) + (uint64_t)seq * 4096;
    r.site = p;
    r.cta_x = seq;
    r.active = 0xffffffffu;
    r.flags = wide ? GM_TRACE_F_EXT : 0;
    for (int k = 0; k < 32; k++) {
        int64_t d = wide ? ((int64_t)k << 33) + k * 4 : k * 4;
        r.delta[k] = (int32_t)d;
        x.hi[k] = (int32_t)(d >> 32);
    }
    store_slot(slot_at(f, w), &r);
    if (wide) store_slot(slot_at(f, w + 1), &x);
    if (wide) atomic_store_explicit(A32(&((struct gm_trace_ext *)slot_at(f, w + 1))->commit),
                                    (uint32_t)(w + 2), memory_order_release);
    atomic_store_explicit(A32(&((struct gm_trace_rec *)slot_at(f, w))->commit), (uint32_t)(w + 1),
                          memory_order_release);
}

/* ---- host ops on the fake buffer ---- */

static int rd_header(void *dev, struct gm_trace_buf *out)
{
    struct fake *f = dev;
    *out = (struct gm_trace_buf){ .write_index = atomic_load(A(&f->hdr->write_index)),
                                  .read_index = atomic_load(A(&f->hdr->read_index)),
                                  .capacity = f->hdr->capacity,
                                  .dropped = atomic_load(A(&f->hdr->dropped)),
                                  .records = atomic_load(A(&f->hdr->records)) };
    return 0;
}

/* Word by word, as a copy engine reads while writers run (relaxed loads:
 * a slot may be caught half-written; the consumer must not trust it). */
static int rd_slots(void *dev, uint64_t pos, uint64_t n, void *out)
{
    struct fake *f = dev;
    const uint32_t *src = (const uint32_t *)slot_at(f, pos);
    uint32_t *dst = out;
    for (uint64_t i = 0; i < n * GM_TRACE_REC_SIZE / 4; i++)
        dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
    return 0;
}

static int wr_read(void *dev, uint64_t ri)
{
    struct fake *f = dev;
    atomic_store(A(&f->hdr->read_index), ri);
    return 0;
}

static const struct gm_trace_dev_ops fake_ops = { rd_header, rd_slots, wr_read };

/* ---- consumer: checks each record and per-producer order ---- */

#define MAXP 8
struct check {
    uint32_t next[MAXP];    /* next expected seq per producer (order kept) */
    uint64_t got, wide, bad;
    int strict;             /* 1: no gaps allowed (nothing dropped) */
};

static void consume(struct check *c, const struct gm_trace_rec *r, const struct gm_trace_ext *x)
{
    uint32_t p = r->site, seq = r->cta_x;
    int bad = p >= MAXP || (c->strict ? seq != c->next[p] : seq < c->next[p]);
    bad |= r->base != ((uint64_t)p << 40) + (uint64_t)seq * 4096;
    for (int k = 0; k < 32 && !bad; k++) {
        int64_t d = x ? (int64_t)(((uint64_t)(uint32_t)x->hi[k] << 32) | (uint32_t)r->delta[k])
                      : r->delta[k];
        bad = d != (x ? ((int64_t)k << 33) + k * 4 : k * 4);
    }
    if (bad) c->bad++;
    else c->next[p] = seq + 1;
    c->got++;
    c->wide += x != NULL;
}

/* ---- cases ---- */

struct run {
    struct fake f;
    struct gm_trace_ring ring;
    struct check chk;
    uint32_t nprod, per;
    uint64_t batch;
    unsigned char *stage;
    atomic_int producing;
    uint64_t errors;
};

static void *producer(void *arg)
{
    struct run *u = ((void **)arg)[0];
    uint32_t p = (uint32_t)(uintptr_t)((void **)arg)[1];
    for (uint32_t s = 0; s < u->per; s++) produce(&u->f, p, s, s % 7 == 3);
    return NULL;
}

/* One fetch up to target: consumes the trusted records. Returns slots consumed. */
static uint64_t drain_once(struct run *u, uint64_t target, uint64_t complete)
{
    long k = gm_trace_ring_fetch(&u->ring, target, complete, u->stage, u->batch);
    if (k < 0) { u->errors++; return 0; }
    for (long j = 0; j < k;) {
        const struct gm_trace_rec *r = (const void *)(u->stage + j * GM_TRACE_REC_SIZE);
        const struct gm_trace_ext *x = (r->flags & GM_TRACE_F_EXT)
                                           ? (const void *)(u->stage + (j + 1) * GM_TRACE_REC_SIZE) : NULL;
        consume(&u->chk, r, x);
        j += x ? 2 : 1;
    }
    if (gm_trace_ring_advance(&u->ring, (uint64_t)k)) u->errors++;
    return (uint64_t)k;
}

/* While producers run: slots below the write index just read. */
static void *consumer(void *arg)
{
    struct run *u = arg;
    struct gm_trace_buf h;
    while (atomic_load(&u->producing)) {
        rd_header(&u->f, &h);
        if (!drain_once(u, h.write_index, 0)) sched_yield();
    }
    return NULL;
}

static int setup(struct run *u, uint64_t cap, uint64_t batch, uint32_t mode, uint64_t maxrec)
{
    memset(u, 0, sizeof *u);
    size_t bytes = GM_TRACE_BUF_HDR_SIZE + cap * GM_TRACE_REC_SIZE;
    u->f.hdr = aligned_alloc(64, (bytes + 63) / 64 * 64);
    u->stage = malloc(batch * GM_TRACE_REC_SIZE);
    if (!u->f.hdr || !u->stage) return -1;
    memset(u->f.hdr, 0, bytes);
    u->f.slots = (unsigned char *)u->f.hdr + GM_TRACE_BUF_HDR_SIZE;
    u->f.hdr->capacity = cap;
    u->f.hdr->mode = mode;
    u->f.hdr->max_records = maxrec;
    u->batch = batch;
    gm_trace_ring_init(&u->ring, &fake_ops, &u->f, cap);
    return 0;
}

/* nprod threads x per records; drain concurrently when live != 0, then
 * everything left (the writers ended: all slots may be trusted). */
static void run_case(const char *name, uint64_t cap, uint64_t batch, uint32_t mode,
                     uint64_t maxrec, uint32_t nprod, uint32_t per, int live)
{
    struct run u;
    if (setup(&u, cap, batch, mode, maxrec)) { printf("%s: setup failed\n", name); exit(1); }
    u.nprod = nprod; u.per = per;
    u.chk.strict = mode == GM_TRACE_MODE_BLOCK && maxrec == 0;
    pthread_t th[MAXP], cons;
    void *args[MAXP][2];
    atomic_store(&u.producing, 1);
    if (live) pthread_create(&cons, NULL, consumer, &u);
    for (uint32_t p = 0; p < nprod; p++) {
        args[p][0] = &u; args[p][1] = (void *)(uintptr_t)p;
        pthread_create(&th[p], NULL, producer, args[p]);
    }
    for (uint32_t p = 0; p < nprod; p++) pthread_join(th[p], NULL);
    atomic_store(&u.producing, 0);
    if (live) pthread_join(cons, NULL);
    struct gm_trace_buf h;
    rd_header(&u.f, &h);
    while (u.ring.read < h.write_index && drain_once(&u, h.write_index, h.write_index)) {}
    uint64_t lost = h.write_index - u.ring.read, saved = u.chk.got;
    uint64_t capped = h.records - saved - h.dropped - lost;
    printf("%s: records=%llu saved=%llu dropped=%llu capped=%llu lost=%llu wide=%llu bad=%llu "
           "sum_ok=%d\n", name, (unsigned long long)h.records, (unsigned long long)saved,
           (unsigned long long)h.dropped, (unsigned long long)capped, (unsigned long long)lost,
           (unsigned long long)u.chk.wide, (unsigned long long)(u.chk.bad + u.errors),
           h.records >= saved + h.dropped + lost);
    free(u.stage);
    free(u.f.hdr);
}

/* A commit seen in a fetch is trusted only by a later fetch, unless the
 * writers had ended (complete): 3 committed slots, then one more. */
static void trust_case(void)
{
    struct run u;
    if (setup(&u, 16, 8, GM_TRACE_MODE_BLOCK, 0)) exit(1);
    for (uint32_t s = 0; s < 3; s++) produce(&u.f, 0, s, 0);
    long a = gm_trace_ring_fetch(&u.ring, 3, 0, u.stage, 8);
    long b = gm_trace_ring_fetch(&u.ring, 3, 0, u.stage, 8);
    gm_trace_ring_advance(&u.ring, (uint64_t)b);
    produce(&u.f, 0, 3, 0);
    long c = gm_trace_ring_fetch(&u.ring, 4, 4, u.stage, 8);
    printf("trust: first=%ld second=%ld ended=%ld\n", a, b, c);
    free(u.stage);
    free(u.f.hdr);
}

int main(void)
{
    /* 4 x 5000 records through an 8-slot ring: wrap-around and back-pressure */
    run_case("block", 8, 4, GM_TRACE_MODE_BLOCK, 0, 4, 5000, 1);
    /* ring larger than the trace, drained only at the end */
    run_case("exit-drain", 1024, 256, GM_TRACE_MODE_BLOCK, 0, 1, 500, 0);
    /* drop mode, no draining while producing: exactly capacity slots kept */
    run_case("drop", 64, 16, GM_TRACE_MODE_DROP, 0, 1, 200, 0);
    /* cap of 1000 records over 4 x 1000 */
    run_case("cap", 16, 8, GM_TRACE_MODE_BLOCK, 1000, 4, 1000, 1);
    /* batch of 2 with wide records: a record's continuation may be unstaged */
    run_case("batch2", 4, 2, GM_TRACE_MODE_BLOCK, 0, 2, 3000, 1);
    trust_case();
    return 0;
}
