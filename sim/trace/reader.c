/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Streaming trace reader: reads one section at a time (bounded memory: one
 * section and one block of decoded records), checks framing, lengths, zstd
 * checksums, section order and counts, and reports the first problem with
 * its byte offset. Depends on libzstd and stdio only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>
#include "bytes.h"
#include "reccodec.h"
#include "section.h"

struct gm_trace_reader {
    FILE *f;                      /* or NULL when reading memory */
    const uint8_t *mem;
    size_t memsize, pos;
    char name[256];
    char err[512];
    struct gm_trace_gpu gpu;
    struct gm_buf comp, raw;
    struct gm_access *recs;
    struct gm_trace_site *sites;
    char modname[4096];
    int in_launch, done;
    uint32_t version;             /* the file's: 1 or 2 (record block coding) */
    int defer;                    /* RECORDS blocks left compressed (gm_trace_reader_defer) */
    int torn;                     /* the failure is a torn tail: the input ends early */
    uint64_t size;                /* input bytes (0: unknown, e.g. a pipe) */
    uint64_t launch_seq, launch_records, nlaunches, total_records;
    ZSTD_DCtx *zd;
    struct gm_trace_block block;  /* the deferred RECORDS section just read */
};

static int fail(struct gm_trace_reader *r, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!r->err[0]) snprintf(r->err, sizeof r->err, "trace %s: %s (at byte %zu)", r->name, msg, r->pos);
    return -1;
}

/* Reads exactly n bytes; returns bytes read (short at end of input). */
static size_t get_bytes(struct gm_trace_reader *r, void *dst, size_t n)
{
    size_t got;
    if (r->f) {
        got = fread(dst, 1, n, r->f);
    } else {
        got = r->memsize - r->pos < n ? r->memsize - r->pos : n;
        memcpy(dst, r->mem + r->pos, got);
    }
    r->pos += got;
    return got;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A failure because the input ends early (a torn tail), not malformed. */
static int torn(struct gm_trace_reader *r, const char *what)
{
    r->torn = 1;
    return fail(r, "%s", what);
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t o = 0;
    for (size_t i = 0; i < n; i++) o |= p[i];
    return !o;
}

/* Reads the next section into r->raw; returns its type, or -1. A header
 * of zero bytes is a torn tail too (space a crash left unwritten). */
static int read_section(struct gm_trace_reader *r)
{
    uint8_t h[GM_SEC_HDR_SIZE];
    size_t got = get_bytes(r, h, sizeof h);
    if (got == 0) return torn(r, "truncated: end of file before the end marker");
    if (got < sizeof h) return torn(r, "truncated section header");
    if (all_zero(h, sizeof h)) return torn(r, "truncated: zero bytes where a section should start");
    if (le32(h + 12) != gm_sec_check(h)) return fail(r, "corrupt section header");
    uint32_t type = le32(h), rawlen = le32(h + 4), complen = le32(h + 8);
    if (type < GM_SEC_GPU || type > GM_SEC_COPY) return fail(r, "unknown section type %u", type);
    if (rawlen > GM_SEC_MAX_RAW || complen > ZSTD_compressBound(rawlen))
        return fail(r, "section length out of range");
    if (r->size && complen > r->size - r->pos)   /* trust no length beyond the input's */
        return torn(r, "truncated section");
    r->comp.n = r->raw.n = 0;
    if (gm_buf_reserve(&r->comp, complen) || gm_buf_reserve(&r->raw, rawlen + GM_REC_SLACK))
        return fail(r, "out of memory");
    if (get_bytes(r, r->comp.p, complen) < complen) return torn(r, "truncated section");
    r->comp.n = complen;
    if (type == GM_SEC_RECORDS && r->defer) {   /* decoded later by gm_trace_block_decode */
        r->block = (struct gm_trace_block){r->comp.p, complen, rawlen, r->pos - complen - GM_SEC_HDR_SIZE, r->version};
        return (int)type;
    }
    size_t d = ZSTD_decompressDCtx(r->zd, r->raw.p, rawlen, r->comp.p, complen);
    if (ZSTD_isError(d)) return fail(r, "corrupt compressed data: %s", ZSTD_getErrorName(d));
    if (d != rawlen) return fail(r, "section length mismatch");
    r->raw.n = rawlen;
    return (int)type;
}

static int parse_gpu(struct gm_trace_reader *r, struct gm_cur *c)
{
    struct gm_trace_gpu *g = &r->gpu;
    gm_get_str(c, g->name, sizeof g->name);
    uint64_t v[5];
    for (int i = 0; i < 5; i++) v[i] = gm_get_varint(c);
    for (int i = 0; i < 4; i++)
        if (v[i] > UINT32_MAX) c->bad = 1;
    g->cc_major = (uint32_t)v[0]; g->cc_minor = (uint32_t)v[1];
    g->sm_count = (uint32_t)v[2]; g->l1_shared_bytes = (uint32_t)v[3]; g->l2_bytes = v[4];
    return c->bad ? fail(r, "malformed GPU section") : 0;
}

struct gm_trace_reader *gm_trace_reader_open_mem(const void *data, size_t size, char *err, size_t errlen);

static struct gm_trace_reader *start(struct gm_trace_reader *r, char *err, size_t errlen)
{
    uint8_t h[GM_FILE_HDR_SIZE];
    r->zd = ZSTD_createDCtx();
    r->recs = calloc(GM_TRACE_BLOCK_RECORDS, sizeof *r->recs);   /* padding stays 0: decoding writes fields only */
    if (!r->zd || !r->recs) fail(r, "out of memory");
    else if (get_bytes(r, h, sizeof h) < sizeof h) fail(r, "truncated: no file header");
    else if (memcmp(h, GM_TRACE_FILE_MAGIC, 8)) fail(r, "not a gpumem trace (bad magic)");
    else if ((r->version = le32(h + 8)) < 1 || r->version > GM_TRACE_FILE_VERSION)
        fail(r, "unsupported version %u (this reader reads 1 to %u)", r->version, GM_TRACE_FILE_VERSION);
    else if (read_section(r) != GM_SEC_GPU) fail(r, "first section is not the GPU description");
    else {
        struct gm_cur c = {r->raw.p, r->raw.p + r->raw.n, 0};
        if (parse_gpu(r, &c) == 0) return r;
    }
    snprintf(err, errlen, "%s", r->err);
    gm_trace_reader_close(r);
    return NULL;
}

struct gm_trace_reader *gm_trace_reader_open(const char *path, char *err, size_t errlen)
{
    struct gm_trace_reader *r = calloc(1, sizeof *r);
    if (!r) { snprintf(err, errlen, "trace %s: out of memory", path); return NULL; }
    snprintf(r->name, sizeof r->name, "%s", path);
    r->f = fopen(path, "rb");
    if (!r->f) {
        snprintf(err, errlen, "trace %s: cannot open: %s", path, strerror(errno));
        free(r);
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode)) r->size = (uint64_t)st.st_size;
    return start(r, err, errlen);
}

struct gm_trace_reader *gm_trace_reader_open_mem(const void *data, size_t size, char *err, size_t errlen)
{
    struct gm_trace_reader *r = calloc(1, sizeof *r);
    if (!r) { snprintf(err, errlen, "trace: out of memory"); return NULL; }
    snprintf(r->name, sizeof r->name, "<memory>");
    r->mem = data;
    r->memsize = size;
    r->size = size;
    return start(r, err, errlen);
}

void gm_trace_reader_defer(struct gm_trace_reader *r, int on) { r->defer = on; }

struct gm_trace_bdec {
    ZSTD_DCtx *zd;
    struct gm_buf raw;
    int compact;            /* gm_trace_bdec_compact */
};

struct gm_trace_bdec *gm_trace_bdec_new(void)
{
    struct gm_trace_bdec *d = calloc(1, sizeof *d);
    if (d && !(d->zd = ZSTD_createDCtx())) { free(d); d = NULL; }
    return d;
}

void gm_trace_bdec_free(struct gm_trace_bdec *d)
{
    if (!d) return;
    ZSTD_freeDCtx(d->zd);
    gm_buf_free(&d->raw);
    free(d);
}

static int decode_block(uint32_t version, struct gm_cur *c, struct gm_access *out, size_t n, int compact)
{
    return version == 1 ? gm_rec_decode_block(c, out, n) : gm_rec_decode_block2(c, out, n, compact);
}

void gm_trace_bdec_compact(struct gm_trace_bdec *d, int on) { d->compact = on != 0; }

/* The checks parse_records and read_section make, on a deferred block. */
long gm_trace_block_decode(struct gm_trace_bdec *d, const struct gm_trace_block *b, struct gm_access *out,
                           const char **why)
{
    d->raw.n = 0;
    if (gm_buf_reserve(&d->raw, (size_t)b->raw_len + GM_REC_SLACK)) { *why = "out of memory"; return -1; }
    size_t n = ZSTD_decompressDCtx(d->zd, d->raw.p, b->raw_len, b->comp, b->comp_len);
    if (ZSTD_isError(n)) { *why = "corrupt compressed data"; return -1; }
    if (n != b->raw_len) { *why = "section length mismatch"; return -1; }
    struct gm_cur c = {d->raw.p, d->raw.p + n, 0};
    uint64_t k = gm_get_varint(&c);
    if (c.bad || k == 0 || k > GM_TRACE_BLOCK_RECORDS) { *why = "bad record count"; return -1; }
    if (decode_block(b->version, &c, out, (size_t)k, d->compact)) { *why = "malformed record block"; return -1; }
    if (c.p != c.end) { *why = "trailing bytes in section"; return -1; }
    return (long)k;
}

const struct gm_trace_gpu *gm_trace_reader_gpu(const struct gm_trace_reader *r) { return &r->gpu; }
const char *gm_trace_reader_error(const struct gm_trace_reader *r) { return r->err; }
const char *gm_trace_reader_name(const struct gm_trace_reader *r) { return r->name; }
int gm_trace_reader_torn(const struct gm_trace_reader *r) { return r->torn; }

void gm_trace_reader_progress(const struct gm_trace_reader *r, uint64_t *launches, uint64_t *records)
{
    *launches = r->nlaunches;
    *records = r->total_records;
}

void gm_trace_reader_close(struct gm_trace_reader *r)
{
    if (!r) return;
    if (r->f) fclose(r->f);
    gm_buf_free(&r->comp);
    gm_buf_free(&r->raw);
    ZSTD_freeDCtx(r->zd);
    free(r->recs);
    free(r->sites);
    free(r);
}

static int parse_module(struct gm_trace_reader *r, struct gm_cur *c, struct gm_trace_event *ev)
{
    ev->modid = gm_get_le(c, 8);
    gm_get_str(c, r->modname, sizeof r->modname);
    uint64_t n = gm_get_varint(c);
    unsigned has = (unsigned)gm_get_le(c, 1);
    if (c->bad || n > UINT32_MAX || has > 1 || (has && n > (uint64_t)(c->end - c->p) / 5))
        return fail(r, "malformed module section");
    free(r->sites);
    r->sites = has && n ? calloc(n, sizeof *r->sites) : NULL;
    if (has && n && !r->sites) return fail(r, "out of memory");
    for (uint64_t i = 0; has && i < n; i++) {
        struct gm_trace_site *s = &r->sites[i];
        uint64_t info = gm_get_varint(c), line = gm_get_varint(c), col = gm_get_varint(c);
        if (info > UINT32_MAX || line > UINT32_MAX || col > UINT32_MAX) c->bad = 1;
        s->info = (uint32_t)info; s->line = (uint32_t)line; s->column = (uint32_t)col;
        gm_get_str(c, s->file, sizeof s->file);
        gm_get_str(c, s->func, sizeof s->func);
    }
    if (c->bad) return fail(r, "malformed module section");
    ev->name = r->modname;
    ev->nsites = (uint32_t)n;
    ev->sites = r->sites;
    return 0;
}

static int parse_alloc(struct gm_trace_reader *r, struct gm_cur *c, struct gm_trace_event *ev)
{
    struct gm_trace_alloc *a = &ev->alloc;
    a->base = gm_get_le(c, 8);
    a->size = gm_get_varint(c);
    a->alloc_seq = gm_get_varint(c);
    a->free_seq = gm_get_le(c, 8);
    gm_get_str(c, a->label, sizeof a->label);
    if (c->bad || a->base + a->size < a->base) return fail(r, "malformed allocation section");
    return 0;
}

static int parse_launch(struct gm_trace_reader *r, struct gm_cur *c, struct gm_trace_event *ev)
{
    struct gm_trace_launch *l = &ev->launch;
    if (r->in_launch) return fail(r, "launch inside a launch");
    l->seq = gm_get_varint(c);
    gm_get_str(c, l->name, sizeof l->name);
    uint32_t *f[10] = {&l->grid[0], &l->grid[1], &l->grid[2], &l->block[0], &l->block[1],
                       &l->block[2], &l->dyn_shared, &l->static_shared, &l->carveout, &l->device};
    for (int i = 0; i < 10; i++) {
        uint64_t v = gm_get_varint(c);
        if (v > UINT32_MAX) c->bad = 1;
        *f[i] = (uint32_t)v;
    }
    l->stream = gm_get_varint(c);
    if (c->bad) return fail(r, "malformed launch section");
    r->in_launch = 1;
    r->launch_seq = l->seq;
    r->launch_records = 0;
    return 0;
}

static int parse_records(struct gm_trace_reader *r, struct gm_cur *c, struct gm_trace_event *ev)
{
    if (!r->in_launch) return fail(r, "records outside a launch");
    if (r->defer) {   /* the caller decodes and counts (gm_trace_block_decode) */
        ev->block = r->block;
        c->p = c->end;
        return 0;
    }
    uint64_t n = gm_get_varint(c);
    if (c->bad || n == 0 || n > GM_TRACE_BLOCK_RECORDS) return fail(r, "bad record count");
    if (decode_block(r->version, c, r->recs, (size_t)n, 0)) return fail(r, "malformed record block");
    ev->recs = r->recs;
    ev->nrecs = (size_t)n;
    r->launch_records += n;
    r->total_records += n;
    return 0;
}

static int parse_launch_end(struct gm_trace_reader *r, struct gm_cur *c, struct gm_trace_event *ev)
{
    struct gm_trace_launch *l = &ev->launch;
    l->seq = gm_get_varint(c);
    l->nrecords = gm_get_varint(c);
    l->dropped = gm_get_varint(c);
    if (c->bad || !r->in_launch || l->seq != r->launch_seq)
        return fail(r, "launch end does not match the open launch");
    if (!r->defer && l->nrecords != r->launch_records)
        return fail(r, "launch %llu: %llu records announced, %llu present",
                    (unsigned long long)l->seq, (unsigned long long)l->nrecords,
                    (unsigned long long)r->launch_records);
    r->in_launch = 0;
    r->nlaunches++;
    return 0;
}

static int parse_end(struct gm_trace_reader *r, struct gm_cur *c, struct gm_trace_event *ev)
{
    uint64_t nl = gm_get_varint(c), nr = gm_get_varint(c);
    if (c->bad || r->in_launch) return fail(r, "end marker inside a launch");
    if (nl != r->nlaunches || (!r->defer && nr != r->total_records))
        return fail(r, "end marker counts do not match");
    ev->launch.seq = nl;
    ev->launch.nrecords = nr;   /* deferred decoding: the caller checks its count */
    uint8_t extra;
    if (get_bytes(r, &extra, 1)) return fail(r, "data after the end marker");
    r->done = 1;
    return 0;
}

static int parse_copy(struct gm_trace_reader *r, struct gm_cur *c, struct gm_trace_event *ev)
{
    struct gm_trace_copy *k = &ev->copy;
    k->kind = (uint8_t)gm_get_le(c, 1);
    k->dst = gm_get_le(c, 8);
    k->src = gm_get_le(c, 8);
    k->bytes = gm_get_varint(c);
    if (c->bad || r->in_launch || k->kind < GM_COPY_H2D || k->kind > GM_COPY_SET)
        return fail(r, "malformed copy section");
    return 0;
}

static int dispatch(struct gm_trace_reader *r, int type, struct gm_cur *c, struct gm_trace_event *ev)
{
    switch (type) {
    case GM_SEC_MODULE: ev->kind = GM_TEV_MODULE; return parse_module(r, c, ev);
    case GM_SEC_ALLOC: ev->kind = GM_TEV_ALLOC; return parse_alloc(r, c, ev);
    case GM_SEC_FREE:
        ev->kind = GM_TEV_FREE;
        ev->alloc.base = gm_get_le(c, 8);
        ev->alloc.free_seq = gm_get_varint(c);
        return c->bad ? fail(r, "malformed free section") : 0;
    case GM_SEC_LAUNCH: ev->kind = GM_TEV_LAUNCH; return parse_launch(r, c, ev);
    case GM_SEC_RECORDS: ev->kind = GM_TEV_RECORDS; return parse_records(r, c, ev);
    case GM_SEC_LAUNCH_END: ev->kind = GM_TEV_LAUNCH_END; return parse_launch_end(r, c, ev);
    case GM_SEC_END: ev->kind = GM_TEV_END; return parse_end(r, c, ev);
    case GM_SEC_COPY: ev->kind = GM_TEV_COPY; return parse_copy(r, c, ev);
    default: return fail(r, "GPU section repeated");
    }
}

int gm_trace_reader_next(struct gm_trace_reader *r, struct gm_trace_event *ev)
{
    if (r->err[0]) return -1;
    if (r->done) { ev->kind = GM_TEV_END; return 0; }
    memset(ev, 0, sizeof *ev);
    int type = read_section(r);
    if (type < 0) return -1;
    struct gm_cur c = {r->raw.p, r->raw.p + r->raw.n, 0};
    if (dispatch(r, type, &c, ev)) return -1;
    if (c.p != c.end) return fail(r, "trailing bytes in section");
    return r->done ? 0 : 1;
}
