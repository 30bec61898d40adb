/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Look-ahead replay (gpumem/replay.h): events are queued (their record
 * blocks' compressed bytes copied) until the queue holds a window of
 * blocks, a MODULE event (its strings are the reader's until the next
 * read), the end or a problem; then the simulator's workers decode the
 * queued blocks, worker w taking blocks w, w + workers, ..., and the queue
 * is handed on in order. No I/O besides the reader's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/replay.h"
#include "gm_grow.h"

#define QMAX 4096   /* events queued at most */

struct qblk { size_t off, len, raw; uint64_t at; uint32_t version; long n; const char *why; };

struct gm_replay {
    struct gm_trace_reader *r;
    struct gm_sim *s;
    struct gm_trace_event *q;       /* queued events (RECORDS: block = index into b) */
    size_t nq, pos;
    struct qblk *b;                 /* queued blocks */
    size_t nb, max_blk;
    uint8_t *bytes;                 /* their compressed bytes */
    size_t nbytes, cap_bytes;
    struct gm_access *recs;         /* max_blk x GM_TRACE_BLOCK_RECORDS decoded records */
    struct gm_trace_bdec **dec;     /* one per worker */
    uint32_t ndec;
    int rc;                         /* what ends the queue: 1 more to read, 0 end, -1 error */
    uint64_t launch_records, total_records;
    char err[600];
};

struct gm_replay *gm_replay_open(struct gm_trace_reader *r, struct gm_sim *s)
{
    struct gm_replay *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->r = r;
    p->s = s;
    p->rc = 1;
    p->max_blk = gm_sim_window_blocks(s);
    p->ndec = (uint32_t)(p->max_blk < 256 ? p->max_blk : 256);   /* workers <= blocks per window */
    p->q = malloc(QMAX * sizeof *p->q);
    p->b = malloc(p->max_blk * sizeof *p->b);
    p->recs = malloc(p->max_blk * GM_TRACE_BLOCK_RECORDS * sizeof *p->recs);
    p->dec = calloc(p->ndec, sizeof *p->dec);
    int ok = p->q && p->b && p->recs && p->dec;
    for (uint32_t t = 0; ok && t < p->ndec; t++) ok = (p->dec[t] = gm_trace_bdec_new()) != NULL;
    if (!ok) { gm_replay_close(p); return NULL; }
    gm_trace_reader_defer(r, 1);
    return p;
}

void gm_replay_close(struct gm_replay *p)
{
    if (!p) return;
    for (uint32_t t = 0; p->dec && t < p->ndec; t++) gm_trace_bdec_free(p->dec[t]);
    free(p->dec);
    free(p->q);
    free(p->b);
    free(p->recs);
    free(p->bytes);
    free(p);
}

void gm_replay_compact(struct gm_replay *p, int on)
{
    for (uint32_t t = 0; t < p->ndec; t++) gm_trace_bdec_compact(p->dec[t], on);
}

const char *gm_replay_error(const struct gm_replay *p) { return p->err[0] ? p->err : gm_trace_reader_error(p->r); }
int gm_replay_torn(const struct gm_replay *p) { return !p->err[0] && gm_trace_reader_torn(p->r); }

static void decode(void *ctx, uint32_t worker, uint32_t workers)
{
    struct gm_replay *p = ctx;
    for (size_t i = worker; i < p->nb; i += workers) {
        struct qblk *k = &p->b[i];
        struct gm_trace_block blk = {p->bytes + k->off, k->len, k->raw, k->at, k->version};
        k->n = gm_trace_block_decode(p->dec[worker % p->ndec], &blk, p->recs + i * GM_TRACE_BLOCK_RECORDS, &k->why);
    }
}

/* Queues a block's bytes; -1 when out of memory. */
static int keep(struct gm_replay *p, const struct gm_trace_block *blk)
{
    if (GM_GROW_TO(p->bytes, p->cap_bytes, p->nbytes + blk->comp_len)) return -1;
    memcpy(p->bytes + p->nbytes, blk->comp, blk->comp_len);
    p->b[p->nb++] = (struct qblk){p->nbytes, blk->comp_len, blk->raw_len, blk->at, blk->version, 0, NULL};
    p->nbytes += blk->comp_len;
    return 0;
}

/* Reads events into the queue, then decodes its blocks. */
static void fill(struct gm_replay *p)
{
    p->nq = p->pos = p->nb = p->nbytes = 0;
    while (p->rc > 0 && p->nq < QMAX && p->nb < p->max_blk) {
        struct gm_trace_event *ev = &p->q[p->nq];
        p->rc = gm_trace_reader_next(p->r, ev);
        if (p->rc < 0) break;
        p->nq++;
        if (ev->kind == GM_TEV_RECORDS) {
            if (keep(p, &ev->block)) {
                snprintf(p->err, sizeof p->err, "out of memory for trace blocks");
                p->nq--;
                p->rc = -1;
                break;
            }
            ev->nrecs = p->nb - 1;   /* the block's index until decoded */
        }
        if (ev->kind == GM_TEV_MODULE) break;   /* its strings live until the next read */
    }
    if (p->nb) gm_sim_run_workers(p->s, decode, p);
}

/* The checks the deferred reader leaves to its caller; 0 or -1. */
static int check(struct gm_replay *p, struct gm_trace_event *ev)
{
    const char *name = gm_trace_reader_name(p->r);
    if (ev->kind == GM_TEV_RECORDS) {
        struct qblk *k = &p->b[ev->nrecs];
        if (k->n < 0) {
            snprintf(p->err, sizeof p->err, "trace %s: %s (at byte %llu)", name, k->why, (unsigned long long)k->at);
            return -1;
        }
        ev->recs = p->recs + ev->nrecs * GM_TRACE_BLOCK_RECORDS;
        ev->nrecs = (size_t)k->n;
        p->launch_records += (uint64_t)k->n;
        p->total_records += (uint64_t)k->n;
    } else if (ev->kind == GM_TEV_LAUNCH_END) {
        if (ev->launch.nrecords != p->launch_records) {
            snprintf(p->err, sizeof p->err, "trace %s: launch %llu: %llu records announced, %llu present", name,
                     (unsigned long long)ev->launch.seq, (unsigned long long)ev->launch.nrecords,
                     (unsigned long long)p->launch_records);
            return -1;
        }
        p->launch_records = 0;
    } else if (ev->kind == GM_TEV_END && ev->launch.nrecords != p->total_records) {
        snprintf(p->err, sizeof p->err, "trace %s: end marker counts do not match", name);
        return -1;
    }
    return 0;
}

/* Joins the queued RECORDS events that follow ev into it while the
 * records lie end to end (every block before is full: block i is decoded
 * to recs + i * GM_TRACE_BLOCK_RECORDS) and decoded without a problem:
 * the simulator then gets a whole window in one feed, not one block at a
 * time (one block split over 16 threads is too little work per window). */
static void join(struct gm_replay *p, struct gm_trace_event *ev)
{
    while (ev->nrecs % GM_TRACE_BLOCK_RECORDS == 0 && p->pos < p->nq && p->q[p->pos].kind == GM_TEV_RECORDS) {
        const struct qblk *k = &p->b[p->q[p->pos].nrecs];
        if (k->n <= 0 || ev->recs + ev->nrecs != p->recs + p->q[p->pos].nrecs * GM_TRACE_BLOCK_RECORDS) return;
        p->launch_records += (uint64_t)k->n;
        p->total_records += (uint64_t)k->n;
        ev->nrecs += (size_t)k->n;
        p->pos++;
    }
}

int gm_replay_next(struct gm_replay *p, struct gm_trace_event *ev)
{
    if (p->err[0]) return -1;
    if (p->pos == p->nq) {
        if (p->rc <= 0) return p->rc;   /* the end, or the reader's problem after the last event */
        fill(p);
        if (p->nq == 0) return p->err[0] ? -1 : p->rc;
    }
    *ev = p->q[p->pos++];
    if (check(p, ev)) return -1;
    if (ev->kind == GM_TEV_RECORDS) join(p, ev);
    return ev->kind == GM_TEV_END ? 0 : 1;
}
