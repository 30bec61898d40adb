/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace file writer: frames each section (docs/trace-format.md), compresses
 * its payload with zstd (one frame with checksum per section) and buffers a
 * launch's records into blocks of GM_TRACE_BLOCK_RECORDS. Used by the runtime
 * and the synthetic generator. A coder makes RECORDS sections apart from
 * the writer (one per thread, in parallel); the writer appends them in
 * order. Depends on libzstd and stdio only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY   /* ZSTD_c_literalCompressionMode */
#include <zstd.h>
#include "bytes.h"
#include "reccodec.h"
#include "section.h"

struct gm_trace_writer {
    FILE *f;
    char path[256];
    char err[512];
    struct gm_buf raw, comp;
    struct gm_rec_cols *cols;
    struct gm_access *pending;
    size_t npending;
    int in_launch;
    uint64_t launch_seq, launch_records, nlaunches, total_records;
    ZSTD_CCtx *zc;
};

static int fail(struct gm_trace_writer *w, const char *what)
{
    snprintf(w->err, sizeof w->err, "trace %s: %s", w->path, what);
    return -1;
}

/* Frames raw as one section of type into comp (header + zstd frame);
 * NULL on success, else why. raw is emptied. */
static const char *frame(ZSTD_CCtx *zc, struct gm_buf *raw, struct gm_buf *comp, uint32_t type)
{
    if (raw->oom) return "out of memory";
    size_t bound = ZSTD_compressBound(raw->n);
    comp->n = 0;
    if (gm_buf_reserve(comp, GM_SEC_HDR_SIZE + bound)) return "out of memory";
    size_t c = ZSTD_compress2(zc, comp->p + GM_SEC_HDR_SIZE, bound, raw->p, raw->n);
    if (ZSTD_isError(c)) return ZSTD_getErrorName(c);
    uint8_t *h = comp->p;
    uint32_t v[3] = {type, (uint32_t)raw->n, (uint32_t)c};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) h[4 * i + j] = (uint8_t)(v[i] >> (8 * j));
    uint32_t chk = gm_sec_check(h);
    for (int j = 0; j < 4; j++) h[12 + j] = (uint8_t)(chk >> (8 * j));
    comp->n = GM_SEC_HDR_SIZE + c;
    raw->n = 0;
    return NULL;
}

static int put(struct gm_trace_writer *w, const void *p, size_t n)
{
    return fwrite(p, 1, n, w->f) == n ? 0 : fail(w, strerror(errno));
}

static int emit(struct gm_trace_writer *w, uint32_t type)
{
    const char *why = frame(w->zc, &w->raw, &w->comp, type);
    return why ? fail(w, why) : put(w, w->comp.p, w->comp.n);
}

/* Literals (what zstd finds no match for) stay uncompressed: record
 * blocks decode 2.3x (real trace) to 5x (random lanes) faster without
 * Huffman-coded literals, for 26% (real) and 10% (random) more bytes
 * (bench/results/sim-decode-2026-11-28.md). A libzstd without the
 * parameter ignores it (Huffman literals: the files read the same). */
static ZSTD_CCtx *new_cctx(int level)
{
    ZSTD_CCtx *zc = ZSTD_createCCtx();
    if (zc) {
        ZSTD_CCtx_setParameter(zc, ZSTD_c_compressionLevel, level);
        ZSTD_CCtx_setParameter(zc, ZSTD_c_checksumFlag, 1);
        ZSTD_CCtx_setParameter(zc, ZSTD_c_literalCompressionMode, 2);   /* ZSTD_ps_disable (_lcm_uncompressed before 1.5.1) */
    }
    return zc;
}

struct gm_trace_writer *gm_trace_writer_open(const char *path, const struct gm_trace_gpu *gpu,
                                             char *err, size_t errlen)
{
    struct gm_trace_writer *w = calloc(1, sizeof *w);
    if (!w) { snprintf(err, errlen, "trace %s: out of memory", path); return NULL; }
    snprintf(w->path, sizeof w->path, "%s", path);
    w->f = fopen(path, "wb");
    w->zc = new_cctx(3);
    w->pending = malloc(GM_TRACE_BLOCK_RECORDS * sizeof *w->pending);
    w->cols = calloc(1, sizeof *w->cols);
    if (!w->f || !w->zc || !w->pending || !w->cols) {
        snprintf(err, errlen, "trace %s: cannot create: %s", path, strerror(errno));
        gm_trace_writer_close(w, NULL, 0);
        return NULL;
    }
    uint8_t h[GM_FILE_HDR_SIZE] = {0};
    memcpy(h, GM_TRACE_FILE_MAGIC, 8);
    h[8] = GM_TRACE_FILE_VERSION;
    gm_put_str(&w->raw, gpu->name, sizeof gpu->name);
    gm_put_varint(&w->raw, gpu->cc_major);
    gm_put_varint(&w->raw, gpu->cc_minor);
    gm_put_varint(&w->raw, gpu->sm_count);
    gm_put_varint(&w->raw, gpu->l1_shared_bytes);
    gm_put_varint(&w->raw, gpu->l2_bytes);
    if (fwrite(h, 1, sizeof h, w->f) != sizeof h || emit(w, GM_SEC_GPU)) {
        snprintf(err, errlen, "%s", w->err[0] ? w->err : "trace: write failed");
        gm_trace_writer_close(w, NULL, 0);
        return NULL;
    }
    return w;
}

const char *gm_trace_writer_error(const struct gm_trace_writer *w) { return w->err; }

int gm_trace_writer_module(struct gm_trace_writer *w, uint64_t modid, const char *name,
                           uint32_t nsites, const struct gm_trace_site *sites)
{
    gm_put_le(&w->raw, modid, 8);
    gm_put_str(&w->raw, name ? name : "", 4096);
    gm_put_varint(&w->raw, nsites);
    gm_put_u8(&w->raw, sites ? 1 : 0);
    for (uint32_t i = 0; sites && i < nsites; i++) {
        gm_put_varint(&w->raw, sites[i].info);
        gm_put_varint(&w->raw, sites[i].line);
        gm_put_varint(&w->raw, sites[i].column);
        gm_put_str(&w->raw, sites[i].file, sizeof sites[i].file);
        gm_put_str(&w->raw, sites[i].func, sizeof sites[i].func);
    }
    return emit(w, GM_SEC_MODULE);
}

int gm_trace_writer_alloc(struct gm_trace_writer *w, const struct gm_trace_alloc *a)
{
    gm_put_le(&w->raw, a->base, 8);
    gm_put_varint(&w->raw, a->size);
    gm_put_varint(&w->raw, a->alloc_seq);
    gm_put_le(&w->raw, a->free_seq, 8);
    gm_put_str(&w->raw, a->label, sizeof a->label);
    return emit(w, GM_SEC_ALLOC);
}

int gm_trace_writer_free(struct gm_trace_writer *w, uint64_t base, uint64_t seq)
{
    gm_put_le(&w->raw, base, 8);
    gm_put_varint(&w->raw, seq);
    return emit(w, GM_SEC_FREE);
}

int gm_trace_writer_copy(struct gm_trace_writer *w, const struct gm_trace_copy *c)
{
    if (w->in_launch) return fail(w, "copy inside a launch");
    gm_put_u8(&w->raw, c->kind);
    gm_put_le(&w->raw, c->dst, 8);
    gm_put_le(&w->raw, c->src, 8);
    gm_put_varint(&w->raw, c->bytes);
    return emit(w, GM_SEC_COPY);
}

int gm_trace_writer_launch(struct gm_trace_writer *w, const struct gm_trace_launch *l)
{
    if (w->in_launch) return fail(w, "launch started before the previous one ended");
    gm_put_varint(&w->raw, l->seq);
    gm_put_str(&w->raw, l->name, sizeof l->name);
    for (int i = 0; i < 3; i++) gm_put_varint(&w->raw, l->grid[i]);
    for (int i = 0; i < 3; i++) gm_put_varint(&w->raw, l->block[i]);
    gm_put_varint(&w->raw, l->dyn_shared);
    gm_put_varint(&w->raw, l->static_shared);
    gm_put_varint(&w->raw, l->carveout);
    gm_put_varint(&w->raw, l->device);
    gm_put_varint(&w->raw, l->stream);
    w->in_launch = 1;
    w->launch_seq = l->seq;
    w->launch_records = 0;
    return emit(w, GM_SEC_LAUNCH);
}

static int flush_records(struct gm_trace_writer *w)
{
    if (!w->npending) return 0;
    gm_rec_encode_block2(&w->raw, w->cols, w->pending, w->npending);
    w->npending = 0;
    return emit(w, GM_SEC_RECORDS);
}

int gm_trace_writer_records(struct gm_trace_writer *w, const struct gm_access *a, size_t n)
{
    if (!w->in_launch) return fail(w, "records outside a launch");
    for (size_t i = 0; i < n; i++) {
        w->pending[w->npending++] = a[i];
        if (w->npending == GM_TRACE_BLOCK_RECORDS && flush_records(w)) return -1;
    }
    w->launch_records += n;
    w->total_records += n;
    return 0;
}

int gm_trace_writer_coded(struct gm_trace_writer *w, const void *sec, size_t len, size_t n)
{
    if (!w->in_launch) return fail(w, "records outside a launch");
    if (flush_records(w)) return -1;    /* records given one by one come first */
    w->launch_records += n;
    w->total_records += n;
    return put(w, sec, len);
}

struct gm_trace_coder {
    struct gm_buf raw, comp;
    struct gm_rec_cols *cols;
    ZSTD_CCtx *zc;
};

struct gm_trace_coder *gm_trace_coder_new(void)
{
    struct gm_trace_coder *c = calloc(1, sizeof *c);
    /* level 1: on record blocks as small as level 3 (a coalesced stream:
     * 21% smaller; random lanes: 1% larger) and 2.7x faster on random
     * lanes (bench/trace/pipe_bench, one thread, 2026-11-27) */
    if (c && (!(c->zc = new_cctx(1)) || !(c->cols = calloc(1, sizeof *c->cols)))) {
        gm_trace_coder_free(c);
        c = NULL;
    }
    return c;
}

void gm_trace_coder_free(struct gm_trace_coder *c)
{
    if (!c) return;
    gm_buf_free(&c->raw);
    gm_buf_free(&c->comp);
    gm_rec_cols_free(c->cols);
    ZSTD_freeCCtx(c->zc);
    free(c);
}

const char *gm_trace_coder_records(struct gm_trace_coder *c, const struct gm_access *a, size_t n,
                                   const void **sec, size_t *len)
{
    if (n == 0 || n > GM_TRACE_BLOCK_RECORDS) return "bad record count";
    c->raw.n = 0;
    gm_rec_encode_block2(&c->raw, c->cols, a, n);
    const char *why = frame(c->zc, &c->raw, &c->comp, GM_SEC_RECORDS);
    *sec = c->comp.p;
    *len = c->comp.n;
    return why;
}

int gm_trace_writer_end_launch(struct gm_trace_writer *w, uint64_t dropped)
{
    if (!w->in_launch) return fail(w, "end of a launch that did not start");
    if (flush_records(w)) return -1;
    gm_put_varint(&w->raw, w->launch_seq);
    gm_put_varint(&w->raw, w->launch_records);
    gm_put_varint(&w->raw, dropped);
    w->in_launch = 0;
    w->nlaunches++;
    return emit(w, GM_SEC_LAUNCH_END);
}

int gm_trace_writer_close(struct gm_trace_writer *w, char *err, size_t errlen)
{
    int rc = 0;
    if (w->f && err) {
        if (w->in_launch) rc = gm_trace_writer_end_launch(w, 0);
        gm_put_varint(&w->raw, w->nlaunches);
        gm_put_varint(&w->raw, w->total_records);
        if (!rc) rc = emit(w, GM_SEC_END);
        if (fclose(w->f) && !rc) rc = fail(w, strerror(errno));
        if (rc) snprintf(err, errlen, "%s", w->err);
    } else if (w->f) {
        fclose(w->f);
    }
    gm_buf_free(&w->raw);
    gm_buf_free(&w->comp);
    gm_rec_cols_free(w->cols);
    ZSTD_freeCCtx(w->zc);
    free(w->pending);
    free(w);
    return rc;
}
