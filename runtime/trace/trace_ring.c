/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace ring consumer (see trace_ring.h): one copy per fetch; a slot is
 * trusted when its commit word was seen in an earlier copy, or when the
 * kernel that wrote it had ended before this copy began. In steady state a
 * running kernel's slots are therefore copied twice (first to see their
 * commits, then to read them), an ended kernel's once. Pure C17; must not
 * depend on CUDA.
 */
#include <string.h>
#include "trace_ring.h"

void gm_trace_ring_init(struct gm_trace_ring *r, const struct gm_trace_dev_ops *ops, void *dev,
                        uint64_t capacity)
{
    *r = (struct gm_trace_ring){ .ops = ops, .dev = dev, .capacity = capacity };
}

/* Reads slots [first, first+n) into out, split at the end of the ring. */
static int read_span(struct gm_trace_ring *r, uint64_t first, uint64_t n, unsigned char *out)
{
    for (uint64_t done = 0; done < n;) {
        uint64_t pos = (first + done) % r->capacity;
        uint64_t k = r->capacity - pos;
        if (k > n - done) k = n - done;
        if (r->ops->read_slots(r->dev, pos, k, out + done * GM_TRACE_REC_SIZE)) return -1;
        done += k;
    }
    return 0;
}

static int committed(const struct gm_trace_ring *r, const unsigned char *stage, uint64_t k)
{
    uint32_t c;
    memcpy(&c, stage + k * GM_TRACE_REC_SIZE + offsetof(struct gm_trace_rec, commit), sizeof c);
    return c == (uint32_t)(r->read + k + 1);
}

long gm_trace_ring_fetch(struct gm_trace_ring *r, uint64_t target, uint64_t complete, void *stage,
                         uint64_t max)
{
    unsigned char *s = stage;
    if (target <= r->read || max < 2) return 0;
    uint64_t n = target - r->read < max ? target - r->read : max;
    if (read_span(r, r->read, n, s)) return -1;
    uint64_t c = 0;
    while (c < n && committed(r, s, c)) c++;
    /* trusted: seen before, or written by a kernel that had ended */
    uint64_t t = complete > r->read ? complete - r->read : 0;
    if (t < r->seen) t = r->seen;
    if (t > c) t = c;
    uint64_t k = 0;     /* whole records only: a two-slot record needs both */
    while (k < t) {
        const struct gm_trace_rec *rec = (const void *)(s + k * GM_TRACE_REC_SIZE);
        uint64_t len = (rec->flags & GM_TRACE_F_EXT) ? 2 : 1;
        if (k + len > t) break;
        k += len;
    }
    if (c > r->seen) r->seen = c;     /* trusted by the next fetch */
    return (long)k;
}

int gm_trace_ring_advance(struct gm_trace_ring *r, uint64_t n)
{
    if (n == 0) return 0;
    r->read += n;
    r->seen = r->seen > n ? r->seen - n : 0;
    return r->ops->write_read_index(r->dev, r->read);
}
