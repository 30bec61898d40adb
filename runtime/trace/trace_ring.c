/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace ring consumer (see trace_ring.h). A slot is trusted only after its
 * commit word was seen in an earlier read: a copy engine may read a slot's
 * fields before the writer's last stores land, so each step reads the
 * commit words first and then copies only the slots already committed.
 * Pure C17; must not depend on CUDA.
 */
#include <stdlib.h>
#include "trace_ring.h"

int gm_trace_ring_init(struct gm_trace_ring *r, const struct gm_trace_dev_ops *ops, void *dev,
                       uint64_t capacity, uint64_t batch, gm_trace_consume_fn consume, void *ctx)
{
    *r = (struct gm_trace_ring){ .ops = ops, .dev = dev, .capacity = capacity,
                                 .consume = consume, .consume_ctx = ctx };
    if (capacity < 2 || batch < 2) return -1;
    r->batch = batch < capacity ? batch : capacity;
    r->stage = malloc(r->batch * GM_TRACE_REC_SIZE);
    r->commits = malloc(r->batch * sizeof *r->commits);
    if (!r->stage || !r->commits) {
        gm_trace_ring_free(r);
        return -1;
    }
    return 0;
}

void gm_trace_ring_free(struct gm_trace_ring *r)
{
    free(r->stage);
    free(r->commits);
    r->stage = NULL;
    r->commits = NULL;
}

void gm_trace_ring_rewind(struct gm_trace_ring *r)
{
    r->read = 0;
    r->saved = 0;
}

/* Calls read_commits or read_slots for slots [first, first+n), split at the
 * end of the ring. */
static int read_span(struct gm_trace_ring *r, uint64_t first, uint64_t n, int slots)
{
    uint64_t done = 0;
    while (done < n) {
        uint64_t pos = (first + done) % r->capacity;
        uint64_t k = r->capacity - pos;
        if (k > n - done) k = n - done;
        int rc = slots ? r->ops->read_slots(r->dev, pos, k, r->stage + done * GM_TRACE_REC_SIZE)
                       : r->ops->read_commits(r->dev, pos, k, r->commits + done);
        if (rc) return -1;
        done += k;
    }
    return 0;
}

/* Length of the prefix of [read, read+n) whose commit words are set. */
static uint64_t committed_prefix(const struct gm_trace_ring *r, uint64_t n)
{
    uint64_t k = 0;
    while (k < n && r->commits[k] == (uint32_t)(r->read + k + 1)) k++;
    return k;
}

/* Hands staged slots [0, k) to the consumer; returns slots used (a record
 * whose continuation slot is not staged yet waits for the next step). */
static long consume_staged(struct gm_trace_ring *r, uint64_t k, int *stop)
{
    uint64_t j = 0;
    while (j < k && !*stop) {
        const struct gm_trace_rec *rec = (const void *)(r->stage + j * GM_TRACE_REC_SIZE);
        const struct gm_trace_ext *ext = NULL;
        if (rec->flags & GM_TRACE_F_EXT) {
            if (j + 1 >= k) break;
            ext = (const void *)(r->stage + (j + 1) * GM_TRACE_REC_SIZE);
        }
        *stop = r->consume(r->consume_ctx, rec, ext) != 0;
        r->saved++;
        j += ext ? 2 : 1;
    }
    return (long)j;
}

long gm_trace_ring_poll(struct gm_trace_ring *r)
{
    struct gm_trace_buf h;
    if (r->ops->read_header(r->dev, &h)) return -1;
    uint64_t avail = h.write_index - r->read;
    if (avail == 0) return 0;
    uint64_t n = avail < r->batch ? avail : r->batch;
    if (read_span(r, r->read, n, 0)) return -1;
    uint64_t k = committed_prefix(r, n);
    if (k == 0 || read_span(r, r->read, k, 1)) return k ? -1 : 0;
    uint64_t before = r->saved;
    int stop = 0;
    long used = consume_staged(r, k, &stop);
    r->read += (uint64_t)used;
    if (used && r->ops->write_read_index(r->dev, r->read)) return -1;
    return stop ? -1 : (long)(r->saved - before);
}

int gm_trace_ring_finish(struct gm_trace_ring *r, struct gm_trace_totals *t)
{
    long got;
    while ((got = gm_trace_ring_poll(r)) > 0) {}
    struct gm_trace_buf h;
    if (got < 0 || r->ops->read_header(r->dev, &h)) return -1;
    *t = (struct gm_trace_totals){ .records = h.records, .saved = r->saved,
                                   .dropped = h.dropped };
    /* slots reserved but never committed: count the records they held as lost */
    uint64_t left = h.write_index - r->read;
    t->lost = left;
    uint64_t accounted = t->saved + t->dropped + t->lost;
    t->capped = h.records > accounted ? h.records - accounted : 0;
    return 0;
}
