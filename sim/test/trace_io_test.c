/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test of the trace I/O: device slot encode/decode (including wide
 * deltas that need a continuation slot), varints, and a writer -> reader
 * round trip of every section kind and lane coding with all fields compared,
 * the threaded replay handing a launch's blocks on as one feed, a trace
 * cut at every byte (torn tails), the decoder's strided-lanes mark
 * (gm_access.lanes: set exactly where the coding says so, and true) and
 * its compact records (the simulator's counts from them equal those from
 * the written lanes). Exits 1 on any mismatch.
 * Depends on libgmsim only.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/abi.h"
#include "gpumem/replay.h"
#include "gpumem/trace_io.h"
#include "../trace/bytes.h"

static int fails;
#define CHECK(c) do { if (!(c) && fails++ < 20) fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } while (0)

static uint64_t rnd(uint64_t *x) { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; return *x; }

/* A pseudo-random access; wide=1 spreads lanes over more than 4 GiB. */
static void make(struct gm_access *a, uint64_t *x, int wide)
{
    memset(a, 0, sizeof *a);
    uint32_t bits = (uint32_t)rnd(x), lane = (uint32_t)(rnd(x) % 32);   /* sequenced: the fixture depends on it */
    a->active = bits | 1u << lane;
    uint64_t base = 0x7f0000000000ull + (rnd(x) % (1ull << 30));
    for (int k = 0; k < 32; k++)
        if (a->active >> k & 1)
            a->addr[k] = base + (wide ? (rnd(x) % (1ull << 40)) : (rnd(x) % 65536)) - (wide ? 1ull << 39 : 0);
    a->site = (uint32_t)rnd(x) % 1000;
    a->cta_x = (uint32_t)rnd(x);
    a->cta_y = (uint16_t)rnd(x);
    a->cta_z = (uint16_t)rnd(x);
    a->smid = (uint16_t)(rnd(x) % 132);
    a->module = (uint16_t)(rnd(x) % 3);
    a->width = (uint16_t)(1u << (rnd(x) % 5));
    a->warp_slot = (uint8_t)(rnd(x) % 64);
    a->warp = (uint8_t)(rnd(x) % 32);
    a->kind = (uint8_t)(1 + rnd(x) % 2);
    a->space = GM_SPACE_GLOBAL;
    a->flags = (uint8_t)(rnd(x) % 2 ? GM_TRACE_F_NC : 0);
}

/* A decoded record against the one written: equal but for lanes, which
 * may say GM_LANES_STRIDED only when it holds (counted in nstrided); a
 * GM_LANES_COMPACT record (counted in ncompact) once its lanes are
 * written. */
static size_t nstrided, ncompact;
static int same_rec(const struct gm_access *got, const struct gm_access *want)
{
    struct gm_access g = *got;
    if (g.lanes == GM_LANES_COMPACT) {
        ncompact++;
        gm_access_expand(&g);
        if (g.lanes != GM_LANES_STRIDED) return 0;
    }
    if (g.lanes == GM_LANES_STRIDED) {
        nstrided++;
        int ok = g.active == 0xffffffffu;
        for (int k = 0; k < 32; k++) ok &= g.addr[k] == g.addr[0] + (uint64_t)k * (g.addr[1] - g.addr[0]);
        if (!ok) return 0;
    } else if (g.lanes) {
        return 0;
    }
    g.lanes = want->lanes;
    return memcmp(&g, want, sizeof g) == 0;
}

static void test_slots(void)
{
    uint64_t x = 42;
    int wide = 0;
    for (int i = 0; i < 2000; i++) {
        struct gm_access a, b;
        struct gm_trace_rec r;
        struct gm_trace_ext e;
        make(&a, &x, i % 2);
        memset(&b, 0xa5, sizeof b);   /* padding must match for memcmp: decode fills fields only */
        memset((char *)&b + offsetof(struct gm_access, flags) + 1, 0,
               sizeof b - offsetof(struct gm_access, flags) - 1);
        int n = gm_trace_rec_encode(&a, &r, &e);
        CHECK(n == ((r.flags & GM_TRACE_F_EXT) ? 2 : 1));
        if (i % 2 == 0) CHECK(n == 1);
        CHECK(gm_trace_rec_decode(&r, n == 2 ? &e : NULL, &b) == 0);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        if (n == 2) CHECK(gm_trace_rec_decode(&r, NULL, &b) == -1);
        wide += n == 2;
    }
    CHECK(wide > 900);   /* the wide half really needed continuation slots */
}

/* Lane shapes the record coder treats specially: i % 6 == 1 strided (full
 * or partial mask), 2 the previous record's lanes moved by one offset
 * (full or partial), 3 a single lane; others stay as made. */
static void shape(struct gm_access *a, const struct gm_access *prev, uint64_t *x, int i)
{
    int full = rnd(x) % 2;
    if (i % 6 == 1) {
        uint64_t stride = rnd(x) % 64 * 4, base = 0x7f0000000000ull + rnd(x) % (1ull << 30);
        if (full) a->active = 0xffffffffu;
        for (int k = 0; k < 32; k++) a->addr[k] = a->active >> k & 1 ? base + stride * (uint64_t)k : 0;
    } else if (i % 6 == 2) {
        uint64_t d = rnd(x) % 4096;
        a->active = prev->active;
        for (int k = 0; k < 32; k++) a->addr[k] = a->active >> k & 1 ? prev->addr[k] + d : 0;
    } else if (i % 6 == 3) {
        uint32_t k = (uint32_t)(rnd(x) % 32);
        a->active = 1u << k;
        uint64_t v = a->addr[k] ? a->addr[k] : 0x7f0000000000ull;
        memset(a->addr, 0, sizeof a->addr);
        a->addr[k] = v;
    }
}

/* The varint reader against the writer: every length, and malformed ends. */
static void test_varints(void)
{
    struct gm_buf b = {0};
    uint64_t x = 99, v[4096];
    for (int i = 0; i < 4096; i++) {
        v[i] = i % 7 == 0 ? UINT64_MAX >> (i % 64) : rnd(&x) >> (rnd(&x) % 64);
        gm_put_varint(&b, v[i]);
    }
    struct gm_cur c = {b.p, b.p + b.n, 0};
    for (int i = 0; i < 4096; i++) CHECK(gm_get_varint(&c) == v[i] && !c.bad);
    CHECK(c.p == c.end);
    uint8_t cut[3] = {0x80, 0x80, 0x80}, longer[12];
    memset(longer, 0xff, sizeof longer);
    struct gm_cur d = {cut, cut + 3, 0}, e = {longer, longer + 12, 0};
    gm_get_varint(&d);
    gm_get_varint(&e);
    CHECK(d.bad && e.bad);
    gm_buf_free(&b);
}

/* n records of every field and lane shape (seed 7), records 100..199
 * repeating record 99 when n > 200. */
static void gen_mixed(struct gm_access *recs, int n)
{
    uint64_t x = 7;
    for (int i = 0; i < n; i++) {
        make(&recs[i], &x, i % 7 == 0);
        if (i) shape(&recs[i], &recs[i - 1], &x, i);
    }
    for (int i = 100; i < 200 && i < n; i++) recs[i] = recs[99];   /* repeated lane pattern */
}

/* n coalesced loads, every 5th with a random partial mask (seed 11). */
static void gen_stream(struct gm_access *recs, int n)
{
    uint64_t x = 11;
    for (int i = 0; i < n; i++) {
        memset(&recs[i], 0, sizeof recs[i]);
        recs[i].active = i % 5 ? 0xffffffffu : (uint32_t)rnd(&x);
        for (int k = 0; k < 32; k++) recs[i].addr[k] = recs[i].active >> k & 1 ? 0x10000000ull + 128ull * i + 4ull * k : 0;
        recs[i].width = 4;
        recs[i].kind = GM_TRACE_LOAD;
        recs[i].space = GM_SPACE_GLOBAL;
        recs[i].smid = (uint16_t)(i % 7);
    }
}

/* The fixture trace of test_fixture: GPU, a module of two sites, an
 * allocation, launch 0 (V1_MIXED records of gen_mixed, 5 dropped), a copy,
 * launch 1 (V1_STREAM of gen_stream: two blocks), the free, the end.
 * sim/test/data/v1.gmt is it in version 1 (written by write_fixture with
 * the version 1 writer of commit b3e6726). */
enum { V1_MIXED = 300, V1_STREAM = 9000 };
static const struct gm_trace_site v1_sites[2] = {{.info = 0x1010004, .line = 12, .column = 7, .file = "a.cu", .func = "k"},
                                                 {.info = 0x2010004, .line = 13, .column = 9, .file = "a.cu", .func = "k"}};
static const struct gm_trace_alloc v1_alloc = {.base = 0x7f0000000000ull, .size = 1 << 20, .alloc_seq = 0,
                                               .free_seq = UINT64_MAX, .label = "input"};
static const struct gm_trace_copy v1_copy = {.dst = 0x7f0000000000ull, .src = 0x1000, .bytes = 4096, .kind = GM_COPY_H2D};

static int write_fixture(const char *path)
{
    static struct gm_access mixed[V1_MIXED], stream[V1_STREAM];
    gen_mixed(mixed, V1_MIXED);
    gen_stream(stream, V1_STREAM);
    char err[256];
    struct gm_trace_gpu gpu = {.name = "Test GPU", .cc_major = 9, .sm_count = 132,
                               .l1_shared_bytes = 256 << 10, .l2_bytes = 50ull << 20};
    struct gm_trace_launch l0 = {.seq = 0, .name = "_Z1kPf", .grid = {4, 2, 1}, .block = {256, 1, 1}};
    struct gm_trace_launch l1 = {.seq = 1, .name = "_Z1sPf", .grid = {9000, 1, 1}, .block = {32, 1, 1}};
    struct gm_trace_writer *w = gm_trace_writer_open(path, &gpu, err, sizeof err);
    if (!w) { fprintf(stderr, "%s\n", err); return 1; }
    int bad = gm_trace_writer_module(w, 0x1234, "a.cu", 2, v1_sites) || gm_trace_writer_alloc(w, &v1_alloc) ||
              gm_trace_writer_launch(w, &l0) || gm_trace_writer_records(w, mixed, V1_MIXED) ||
              gm_trace_writer_end_launch(w, 5) || gm_trace_writer_copy(w, &v1_copy) ||
              gm_trace_writer_launch(w, &l1) || gm_trace_writer_records(w, stream, V1_STREAM) ||
              gm_trace_writer_end_launch(w, 0) || gm_trace_writer_free(w, v1_alloc.base, 1);
    if (bad) fprintf(stderr, "%s\n", gm_trace_writer_error(w));
    return gm_trace_writer_close(w, err, sizeof err) || bad;
}

static uint32_t file_version(const char *path)
{
    uint8_t h[12] = {0};
    FILE *f = fopen(path, "rb");
    if (f && fread(h, 1, sizeof h, f) != sizeof h) memset(h, 0, sizeof h);
    if (f) fclose(f);
    return (uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24;
}

/* The fixture trace in the given version (1: sim/test/data/v1.gmt; 2:
 * written by this writer) reads as written: every event and record, by
 * the reader and by the threaded replay (deferred blocks). */
static void test_fixture(const char *path, uint32_t version)
{
    CHECK(file_version(path) == version);
    static struct gm_access mixed[V1_MIXED], stream[V1_STREAM];
    gen_mixed(mixed, V1_MIXED);
    gen_stream(stream, V1_STREAM);
    char err[256];
    for (int replay = 0; replay < 2; replay++) {
        struct gm_sim_config c;
        const char *m;
        CHECK(gm_sim_preset(&c, "h100") == 0);
        c.threads = 2;
        struct gm_sim *s = replay ? gm_sim_new(&c, &m) : NULL;
        struct gm_trace_reader *r = gm_trace_reader_open(path, err, sizeof err);
        struct gm_replay *p = r && replay ? gm_replay_open(r, s) : NULL;
        CHECK(r != NULL && (!replay || p != NULL));
        if (!r || (replay && !p)) { fprintf(stderr, "  %s\n", err); return; }
        struct gm_trace_event ev;
        size_t got[2] = {0, 0}, before = nstrided, stream_strided = 0;
        int launch = -1, kinds[8] = {0}, rc;
        while ((rc = replay ? gm_replay_next(p, &ev) : gm_trace_reader_next(r, &ev)) > 0) {
            kinds[ev.kind]++;
            if (ev.kind == GM_TEV_MODULE) CHECK(ev.modid == 0x1234 && ev.nsites == 2 && !memcmp(ev.sites, v1_sites, sizeof v1_sites));
            if (ev.kind == GM_TEV_ALLOC) CHECK(memcmp(&ev.alloc, &v1_alloc, sizeof v1_alloc) == 0);
            if (ev.kind == GM_TEV_COPY) CHECK(memcmp(&ev.copy, &v1_copy, sizeof v1_copy) == 0);
            if (ev.kind == GM_TEV_LAUNCH) launch = (int)ev.launch.seq;
            if (ev.kind == GM_TEV_LAUNCH_END) CHECK(ev.launch.dropped == (launch ? 0u : 5u));
            if (ev.kind != GM_TEV_RECORDS || launch < 0) continue;
            const struct gm_access *want = launch ? stream : mixed;
            size_t nwant = launch ? V1_STREAM : V1_MIXED;
            for (size_t i = 0; i < ev.nrecs; i++)
                CHECK(got[launch] + i < nwant && same_rec(&ev.recs[i], &want[got[launch] + i]));
            got[launch] += ev.nrecs;
            if (launch) stream_strided += nstrided - before;
            before = nstrided;
        }
        CHECK(rc == 0 && got[0] == V1_MIXED && got[1] == V1_STREAM);
        /* version 2 says so of each full warp of the stream (every record
         * but each fifth, L_STRIDE or L_SAME after one); version 1 of none */
        CHECK(stream_strided == (version == 1 ? 0u : V1_STREAM / 5 * 4));
        CHECK(kinds[GM_TEV_LAUNCH] == 2 && kinds[GM_TEV_COPY] == 1 && kinds[GM_TEV_FREE] == 1);
        gm_replay_close(p);
        gm_trace_reader_close(r);
        gm_sim_free(s);
    }
}

static void test_file(const char *path)
{
    enum { N = 20000 };
    struct gm_access *recs = malloc(N * sizeof *recs);
    gen_mixed(recs, N);
    char err[256];
    struct gm_trace_gpu gpu = {.name = "Test GPU", .cc_major = 9, .sm_count = 132,
                               .l1_shared_bytes = 256 << 10, .l2_bytes = 50ull << 20};
    struct gm_trace_site sites[2] = {{.info = 0x1010004, .line = 12, .column = 7, .file = "a.cu", .func = "k"},
                                     {.info = 0x2010004, .line = 13, .column = 9, .file = "a.cu", .func = "k"}};
    struct gm_trace_alloc al = {.base = 0x7f0000000000ull, .size = 1 << 20, .alloc_seq = 0,
                                .free_seq = UINT64_MAX, .label = "input"};
    struct gm_trace_launch l = {.seq = 0, .name = "_Z1kPf", .grid = {4, 2, 1}, .block = {256, 1, 1},
                                .dyn_shared = 1024, .static_shared = 48, .carveout = 100 << 10,
                                .device = 0, .stream = 77};
    struct gm_trace_writer *w = gm_trace_writer_open(path, &gpu, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return;
    CHECK(gm_trace_writer_module(w, 0x1234, "a.cu", 2, sites) == 0);
    CHECK(gm_trace_writer_alloc(w, &al) == 0);
    CHECK(gm_trace_writer_launch(w, &l) == 0);
    CHECK(gm_trace_writer_records(w, recs, N) == 0);
    CHECK(gm_trace_writer_end_launch(w, 5) == 0);
    CHECK(gm_trace_writer_free(w, al.base, 1) == 0);
    CHECK(gm_trace_writer_close(w, err, sizeof err) == 0);

    struct gm_trace_reader *r = gm_trace_reader_open(path, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    CHECK(strcmp(gm_trace_reader_gpu(r)->name, "Test GPU") == 0);
    CHECK(gm_trace_reader_gpu(r)->l2_bytes == gpu.l2_bytes);
    struct gm_trace_event ev;
    size_t got = 0;
    int kinds[8] = {0}, rc;
    while ((rc = gm_trace_reader_next(r, &ev)) > 0) {
        kinds[ev.kind]++;
        if (ev.kind == GM_TEV_MODULE) {
            CHECK(ev.modid == 0x1234 && ev.nsites == 2 && strcmp(ev.name, "a.cu") == 0);
            CHECK(ev.sites && memcmp(ev.sites, sites, sizeof sites) == 0);
        } else if (ev.kind == GM_TEV_ALLOC) {
            CHECK(memcmp(&ev.alloc, &al, sizeof al) == 0);
        } else if (ev.kind == GM_TEV_LAUNCH) {
            CHECK(memcmp(&ev.launch, &l, sizeof l) == 0);
        } else if (ev.kind == GM_TEV_RECORDS) {
            for (size_t i = 0; i < ev.nrecs; i++) CHECK(same_rec(&ev.recs[i], &recs[got + i]));
            got += ev.nrecs;
        } else if (ev.kind == GM_TEV_LAUNCH_END) {
            CHECK(ev.launch.nrecords == N && ev.launch.dropped == 5);
        } else if (ev.kind == GM_TEV_FREE) {
            CHECK(ev.alloc.base == al.base && ev.alloc.free_seq == 1);
        }
    }
    CHECK(rc == 0);
    CHECK(got == N);
    CHECK(kinds[GM_TEV_MODULE] == 1 && kinds[GM_TEV_ALLOC] == 1 && kinds[GM_TEV_FREE] == 1);
    CHECK(kinds[GM_TEV_LAUNCH] == 1 && kinds[GM_TEV_LAUNCH_END] == 1);
    CHECK(kinds[GM_TEV_RECORDS] == (N + GM_TRACE_BLOCK_RECORDS - 1) / GM_TRACE_BLOCK_RECORDS);
    gm_trace_reader_close(r);
    free(recs);
}

/* The replay (gpumem/replay.h) of test_file's trace: the records equal
 * the reader's, and with threads (a window of several blocks) the
 * launch's three blocks come as one RECORDS event (one feed, not three);
 * with one thread, block by block. */
static void test_replay(const char *path, uint32_t threads, int want_events)
{
    char err[256];
    const char *m;
    struct gm_sim_config c;
    CHECK(gm_sim_preset(&c, "h100") == 0);
    c.threads = threads;
    struct gm_sim *s = gm_sim_new(&c, &m);
    struct gm_trace_reader *r = gm_trace_reader_open(path, err, sizeof err);
    struct gm_trace_reader *plain = gm_trace_reader_open(path, err, sizeof err);
    CHECK(s && r && plain);
    if (!s || !r || !plain) return;
    struct gm_replay *p = gm_replay_open(r, s);
    CHECK(p != NULL);
    struct gm_trace_event ev, pe;
    struct gm_access *want = malloc(20000 * sizeof *want);
    size_t nwant = 0, got = 0;
    int events = 0, rc = -1;
    while (gm_trace_reader_next(plain, &pe) > 0)
        if (pe.kind == GM_TEV_RECORDS && nwant + pe.nrecs <= 20000) {
            memcpy(want + nwant, pe.recs, pe.nrecs * sizeof *want);
            nwant += pe.nrecs;
        }
    while (p && (rc = gm_replay_next(p, &ev)) > 0) {
        if (ev.kind != GM_TEV_RECORDS) continue;
        events++;
        for (size_t i = 0; i < ev.nrecs && got + i < nwant; i++)
            CHECK(memcmp(&ev.recs[i], &want[got + i], sizeof *want) == 0);
        got += ev.nrecs;
    }
    CHECK(rc == 0);
    CHECK(nwant == 20000 && got == nwant);
    CHECK(events == want_events);
    free(want);
    gm_replay_close(p);
    gm_trace_reader_close(plain);
    gm_trace_reader_close(r);
    gm_sim_free(s);
}

/* Reads data[0..n) to its end; returns next()'s last result and what was
 * read whole: launches ended and records. */
static int read_all(const uint8_t *data, size_t n, uint64_t *launches, uint64_t *records, int *torn)
{
    char err[256];
    struct gm_trace_reader *r = gm_trace_reader_open_mem(data, n, err, sizeof err);
    *launches = *records = 0;
    *torn = 0;
    if (!r) return -2;
    struct gm_trace_event ev;
    int rc;
    uint64_t recs = 0;
    while ((rc = gm_trace_reader_next(r, &ev)) > 0)
        if (ev.kind == GM_TEV_RECORDS) recs += ev.nrecs;
    gm_trace_reader_progress(r, launches, records);
    CHECK(recs == *records);
    *torn = gm_trace_reader_torn(r);
    gm_trace_reader_close(r);
    return rc;
}

/* A trace cut at many byte offsets (a capture killed, a full disk): the
 * reader fails with a torn tail, never "corrupt", after returning exactly
 * the launches and records of the whole sections before the cut; zero
 * bytes after a section boundary read the same; a flipped byte is not
 * torn but malformed. */
static void test_torn(const char *path)
{
    enum { L = 4, PER = 9000 };   /* records per launch: blocks of 8192 and 808 */
    static struct gm_access recs[PER];
    char err[256];
    gen_stream(recs, PER);
    struct gm_trace_gpu gpu = {.name = "Test GPU"};
    struct gm_trace_writer *w = gm_trace_writer_open(path, &gpu, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return;
    struct gm_trace_alloc al = {.base = 0x10000000ull, .size = 1 << 24, .label = "a"};
    CHECK(gm_trace_writer_module(w, 1, "m", 1, NULL) == 0);
    CHECK(gm_trace_writer_alloc(w, &al) == 0);
    for (int l = 0; l < L; l++) {
        struct gm_trace_launch la = {.seq = (uint64_t)l, .name = "k"};
        CHECK(gm_trace_writer_launch(w, &la) == 0);
        CHECK(gm_trace_writer_records(w, recs, PER) == 0);
        CHECK(gm_trace_writer_end_launch(w, 0) == 0);
    }
    CHECK(gm_trace_writer_close(w, err, sizeof err) == 0);
    FILE *f = fopen(path, "rb");
    static uint8_t data[1 << 20];
    size_t size = f ? fread(data, 1, sizeof data, f) : 0;
    if (f) fclose(f);
    CHECK(size > 100 && size < sizeof data);
    /* whole sections: end offset and what was complete there */
    enum { MAXS = 64 };
    size_t end[MAXS];
    uint64_t el[MAXS], er[MAXS], nl = 0, nr = 0, blk = 0;
    int ns = 0;
    for (size_t off = 16; off + 16 <= size && ns < MAXS; ns++) {
        uint32_t type = data[off], comp = (uint32_t)data[off + 8] | (uint32_t)data[off + 9] << 8 |
                                          (uint32_t)data[off + 10] << 16 | (uint32_t)data[off + 11] << 24;
        if (type == 6) nr += blk++ % 2 ? PER - GM_TRACE_BLOCK_RECORDS : GM_TRACE_BLOCK_RECORDS;
        if (type == 7) nl++;
        off += 16 + comp;
        end[ns] = off;
        el[ns] = nl;
        er[ns] = nr;
    }
    CHECK(end[ns - 1] == size && nl == L && nr == (uint64_t)L * PER);
    uint64_t gl, gr;
    int torn, cuts = 0;
    CHECK(read_all(data, size, &gl, &gr, &torn) == 0 && gl == L && gr == (uint64_t)L * PER);
    for (size_t c = end[0]; c < size; c++) {   /* end[0]: the GPU section, needed to open */
        int k = 0;
        while (k + 1 < ns && end[k + 1] <= c) k++;
        /* every byte near a boundary (headers, frame ends), every 61st elsewhere */
        if (c - end[k] >= 40 && (k + 1 >= ns || end[k + 1] - c > 40) && c % 61) continue;
        int rc = read_all(data, c, &gl, &gr, &torn);
        CHECK(rc == -1 && torn == 1 && gl == el[k] && gr == er[k]);
        if (rc != -1 || !torn || gl != el[k] || gr != er[k]) {
            fprintf(stderr, "  cut at %zu: rc %d torn %d launches %llu records %llu\n", c, rc, torn,
                    (unsigned long long)gl, (unsigned long long)gr);
            break;
        }
        cuts++;
    }
    static uint8_t zeroed[(1 << 20) + 64];
    for (int k = 0; k + 1 < ns; k++) {   /* zero bytes after a whole section (space a crash left) */
        memcpy(zeroed, data, end[k]);
        memset(zeroed + end[k], 0, 64);
        CHECK(read_all(zeroed, end[k] + 64, &gl, &gr, &torn) == -1 && torn && gl == el[k] && gr == er[k]);
    }
    memcpy(zeroed, data, size);
    zeroed[end[ns / 2] + 20] ^= 0x55;   /* inside a section: corrupt, not torn */
    CHECK(read_all(zeroed, size, &gl, &gr, &torn) == -1 && !torn);
    printf("trace_io_test: %d cuts of a %zu-byte trace read up to their last whole section\n", cuts, size);
}

/* Writes recs[0..n) as one launch of one module to path; the file's size,
 * or -1 (checked). */
static long write_launch(const char *path, const struct gm_access *recs, size_t n)
{
    char err[256];
    struct gm_trace_gpu gpu = {.name = "Test GPU"};
    struct gm_trace_launch la = {.seq = 0, .name = "k"};
    struct gm_trace_writer *w = gm_trace_writer_open(path, &gpu, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return -1;
    CHECK(gm_trace_writer_module(w, 1, "m", 1, NULL) == 0 && gm_trace_writer_launch(w, &la) == 0);
    CHECK(gm_trace_writer_records(w, recs, n) == 0 && gm_trace_writer_end_launch(w, 0) == 0);
    CHECK(gm_trace_writer_close(w, err, sizeof err) == 0);
    FILE *f = fopen(path, "rb");
    long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (f) fclose(f);
    return size;
}

/* Reads path back (replay 0: the reader, 1: the replay, 2: the compact
 * replay, gm_replay_compact) and checks that it holds exactly recs[0..n);
 * with want, also each record's lanes mark: want[i] ? the replay's mark
 * (GM_LANES_COMPACT from the compact one, else GM_LANES_STRIDED) : 0. */
static void read_back(const char *path, const struct gm_access *recs, size_t n, int replay,
                      const uint8_t *want)
{
    char err[256];
    struct gm_sim_config c;
    const char *m;
    CHECK(gm_sim_preset(&c, "h100") == 0);
    struct gm_sim *s = replay ? gm_sim_new(&c, &m) : NULL;
    struct gm_trace_reader *r = gm_trace_reader_open(path, err, sizeof err);
    struct gm_replay *p = r && replay ? gm_replay_open(r, s) : NULL;
    if (p && replay == 2) gm_replay_compact(p, 1);
    uint8_t mark = replay == 2 ? GM_LANES_COMPACT : GM_LANES_STRIDED;
    struct gm_trace_event ev;
    size_t got = 0;
    int rc = -1;
    while (r && (rc = replay ? gm_replay_next(p, &ev) : gm_trace_reader_next(r, &ev)) > 0)
        for (size_t i = 0; ev.kind == GM_TEV_RECORDS && i < ev.nrecs; i++, got++) {
            CHECK(got < n && same_rec(&ev.recs[i], &recs[got]));
            if (want && got < n && ev.recs[i].lanes != (want[got] ? mark : 0))
                fprintf(stderr, "FAIL read_back: record %zu: lanes %u, want %u\n", got, ev.recs[i].lanes,
                        want[got] ? mark : 0), fails++;
        }
    CHECK(r && rc == 0 && got == n);
    gm_replay_close(p);
    gm_trace_reader_close(r);
    gm_sim_free(s);
}

/* The decoder's lanes mark, record by record: GM_LANES_STRIDED for a full
 * warp coded by a stride (L_STRIDE) or moved alike from such a record
 * (L_SAME), for no other record (explicit lanes, L_SAME after them,
 * partial masks, single lanes), through the reader and the replay; the
 * compact replay (gm_replay_compact) gives those as GM_LANES_COMPACT,
 * whose lanes, written, are the record's. */
static void test_lanes(const char *path)
{
    enum { N = 10 };
    static const uint8_t want[N] = {0, 0, 1, 1, 0, 1, 1, 0, 1, 0};
    static struct gm_access recs[N];
    uint64_t x = 3, b = 0x7f0000000000ull;
    for (int i = 0; i < N; i++) {
        struct gm_access *a = &recs[i];
        memset(a, 0, sizeof *a);
        a->active = i == 4 ? 0x00ff00ffu : i == 7 ? 1u << 3 : 0xffffffffu;
        uint64_t st = i == 5 || i == 6 ? 4096 : i == 8 ? 0 : 4;
        for (int k = 0; k < 32; k++) {
            uint64_t off = i == 0 || i == 9 ? rnd(&x) % 100000 : (uint64_t)k * st;
            a->addr[k] = a->active >> k & 1 ? b + 1000000ull * (uint64_t)i + off : 0;
        }
        if (i == 1 || i == 3 || i == 6)   /* the previous record's lanes, moved */
            for (int k = 0; k < 32; k++) a->addr[k] = recs[i - 1].addr[k] + 4096;
        a->width = 4;
        a->kind = GM_TRACE_LOAD;
        a->space = GM_SPACE_GLOBAL;
    }
    CHECK(write_launch(path, recs, N) > 0);
    for (int replay = 0; replay < 3; replay++) read_back(path, recs, N, replay, want);
}

/* Counts of path's launch fed to the simulator (H100, threads) from the
 * reader, or from the compact replay (feeds: RECORDS events fed, ncompact
 * counting their GM_LANES_COMPACT records). */
static void sim_counts(const char *path, uint32_t threads, int compact, struct gm_counts *out, size_t *nc)
{
    char err[256];
    struct gm_sim_config c;
    const char *m;
    CHECK(gm_sim_preset(&c, "h100") == 0);
    c.threads = threads;
    struct gm_sim *s = gm_sim_new(&c, &m);
    struct gm_trace_reader *r = gm_trace_reader_open(path, err, sizeof err);
    struct gm_replay *p = r && s && compact ? gm_replay_open(r, s) : NULL;
    CHECK(s && r && (!compact || p));
    if (!s || !r || (compact && !p)) return;
    if (p) gm_replay_compact(p, 1);
    struct gm_trace_event ev;
    int rc;
    memset(out, 0, sizeof *out);
    *nc = 0;
    while ((rc = p ? gm_replay_next(p, &ev) : gm_trace_reader_next(r, &ev)) > 0) {
        if (ev.kind == GM_TEV_LAUNCH) CHECK(gm_sim_begin(s, ev.launch.carveout) == NULL);
        if (ev.kind == GM_TEV_RECORDS) {
            for (size_t i = 0; i < ev.nrecs; i++) *nc += ev.recs[i].lanes == GM_LANES_COMPACT;
            gm_sim_feed(s, ev.recs, ev.nrecs);
        }
        if (ev.kind == GM_TEV_LAUNCH_END) CHECK(gm_sim_end(s, out) == 0);
    }
    CHECK(rc == 0);
    gm_sim_flush_l2(s, out);
    gm_replay_close(p);
    gm_trace_reader_close(r);
    gm_sim_free(s);
}

/* The simulator takes compact records (gm_replay_compact) as their
 * written lanes: the same counts as from the reader, threads 1 and 2, for
 * full warps of a stride of every kind the model takes apart: contiguous,
 * stride 0, a multiple of the line, others, lanes that overlap (stride
 * below the width), wider than 16 bytes (pieces), local, stores and
 * atomics, moved alike (L_SAME) or not. */
static void test_compact_sim(const char *path)
{
    enum { N = 6000 };
    static struct gm_access recs[N];
    static const uint32_t width[] = {4, 4, 8, 16, 32, 8, 4, 4, 1, 2};
    static const uint64_t stride[] = {4, 0, 4096, 36, 32, 4, 128, 260, 1, 12};
    uint64_t x = 9;
    for (int i = 0; i < N; i++) {
        struct gm_access *a = &recs[i];
        memset(a, 0, sizeof *a);
        int v = i / 10 % 10;   /* runs of ten records of one shape: L_STRIDE, then L_SAME */
        uint64_t base = 0x7f0000000000ull + (rnd(&x) % (1u << 22)) * (i % 3 ? 4 : 1);
        a->active = 0xffffffffu;
        for (int k = 0; k < 32; k++) a->addr[k] = base + (uint64_t)k * stride[v];
        a->width = (uint16_t)width[v];
        a->kind = (uint8_t)(i % 7 == 3 ? GM_TRACE_STORE : i % 11 == 5 ? GM_TRACE_ATOMIC : GM_TRACE_LOAD);
        a->space = i % 13 == 4 ? GM_SPACE_LOCAL : GM_SPACE_GLOBAL;
        a->smid = (uint16_t)(i % 132);
    }
    CHECK(write_launch(path, recs, N) > 0);
    for (uint32_t t = 1; t <= 2; t++) {
        struct gm_counts want, got;
        size_t nw = 0, ng = 0;
        sim_counts(path, t, 0, &want, &nw);
        sim_counts(path, t, 1, &got, &ng);
        CHECK(nw == 0 && ng > N / 2);
        CHECK(memcmp(&want, &got, sizeof want) == 0);
        CHECK(want.sectors > N);
    }
}

/* Version 2's explicit lanes: offsets of every byte width 1..8 at the
 * limits of their width (full and partial masks), read back by the reader
 * and the replay; and a coalesced stream whose SM, warp slot and warp
 * cycle codes in under 0.1 byte per record (columns: version 1 took 0.9). */
static void test_widths(const char *path)
{
    enum { N = 8192 };
    static struct gm_access recs[N];
    uint64_t x = 5;
    for (int i = 0; i < N; i++) {
        struct gm_access *a = &recs[i];
        memset(a, 0, sizeof *a);
        a->active = i % 3 ? 0xffffffffu : (uint32_t)rnd(&x) | 1u << 5 | 1u << 9;
        int w = 1 + i % 8;
        int64_t lim = w == 8 ? INT64_MAX : (INT64_C(1) << (8 * w - 1)) - 1;
        uint64_t base = 0x7f0000000000ull + 64ull * (uint64_t)i;
        int k0 = __builtin_ctz(a->active);
        for (int k = 0; k < 32; k++) {
            if (!(a->active >> k & 1)) continue;
            int64_t o = k == k0 ? 0 : k % 3 == 0 ? lim : k % 3 == 1 ? -lim - 1 : (int64_t)(rnd(&x) % 1000) - 500;
            a->addr[k] = base + (uint64_t)o;
        }
        a->width = 4;
        a->kind = GM_TRACE_LOAD;
        a->space = GM_SPACE_GLOBAL;
    }
    long size = -1;
    for (int pass = 0; pass < 2; pass++) {
        size = write_launch(path, recs, N);
        if (pass == 1) break;
        for (int replay = 0; replay < 2; replay++) read_back(path, recs, N, replay, NULL);
        for (int i = 0; i < N; i++) {   /* pass 1: a coalesced stream */
            struct gm_access *a = &recs[i];
            a->active = 0xffffffffu;
            for (int k = 0; k < 32; k++) a->addr[k] = 0x7f0000000000ull + 128ull * (uint64_t)i + 4ull * (uint64_t)k;
            a->smid = (uint16_t)(i % 132);
            a->warp_slot = (uint8_t)(i / 132 % 48);
            a->warp = (uint8_t)(i / 132 % 32);
        }
    }
    CHECK(size > 0 && size < N / 10 + 200);
    if (size >= N / 10 + 200) fprintf(stderr, "  stream of %d records: %ld bytes\n", N, size);
}

/* Explicit lanes of partial masks take the width of their active lanes'
 * offsets, not of the inactive lanes' zeros (here 1 byte: the file is 22.6
 * bytes a record; 8-byte offsets made 30). */
static void test_partial_size(const char *path)
{
    enum { N = 2000 };
    static struct gm_access recs[N];
    uint64_t x = 3;
    for (int i = 0; i < N; i++) {
        struct gm_access *a = &recs[i];
        memset(a, 0, sizeof *a);
        a->active = (uint32_t)rnd(&x) & 0x7fffffffu;
        a->active |= 3;   /* two lanes at least */
        for (int k = 0; k < 32; k++)
            if (a->active >> k & 1) a->addr[k] = 0x7f0000001000ull + 4096ull * (uint64_t)i + rnd(&x) % 100;
        a->width = 4;
        a->kind = GM_TRACE_LOAD;
        a->space = GM_SPACE_GLOBAL;
    }
    long size = write_launch(path, recs, N);
    CHECK(size > 0 && size < 26 * N);
    if (size >= 26 * N) fprintf(stderr, "  %d partial-mask records: %ld bytes\n", N, size);
    read_back(path, recs, N, 0, NULL);
}

int main(int argc, char **argv)
{
    test_slots();
    test_varints();
    test_file(argc > 1 ? argv[1] : "trace_io_test.gmt");
    test_replay(argc > 1 ? argv[1] : "trace_io_test.gmt", 1, 3);
    test_replay(argc > 1 ? argv[1] : "trace_io_test.gmt", 2, 1);
    test_torn(argc > 1 ? argv[1] : "trace_io_test.gmt");
    test_fixture(argc > 2 ? argv[2] : "v1.gmt", 1);
    CHECK(write_fixture(argc > 1 ? argv[1] : "trace_io_test.gmt") == 0);
    test_fixture(argc > 1 ? argv[1] : "trace_io_test.gmt", GM_TRACE_FILE_VERSION);
    test_widths(argc > 1 ? argv[1] : "trace_io_test.gmt");
    test_partial_size(argc > 1 ? argv[1] : "trace_io_test.gmt");
    test_lanes(argc > 1 ? argv[1] : "trace_io_test.gmt");
    test_compact_sim(argc > 1 ? argv[1] : "trace_io_test.gmt");
    if (fails) { fprintf(stderr, "trace_io_test: %d checks failed\n", fails); return 1; }
    printf("trace_io_test: ok\n");
    return 0;
}
