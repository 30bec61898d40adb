/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem trace files: the decoded access the simulator consumes, conversion
 * from device records (gpumem/trace.h), a writer (used by the runtime to save
 * a trace) and a streaming reader (bounded memory, rejects malformed input).
 * The format is described in docs/trace-format.md. Depends on libzstd and the
 * contract header only; no CUDA.
 */
#ifndef GPUMEM_TRACE_IO_H
#define GPUMEM_TRACE_IO_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/trace.h"

#define GM_TRACE_FILE_MAGIC "GMTRACE"  /* 8 bytes with the NUL */
#define GM_TRACE_FILE_VERSION 2u      /* written; readers read 1 and 2 */
#define GM_TRACE_BLOCK_RECORDS 8192u   /* records per compressed block (max) */

/* One warp memory instruction with full lane addresses (inactive lanes 0). */
struct gm_access {
    uint64_t addr[32];
    uint32_t active;
    uint32_t site;
    uint32_t cta_x;
    uint16_t cta_y, cta_z;
    uint16_t smid, module, width;
    uint8_t warp_slot, warp;
    uint8_t kind;           /* GM_TRACE_LOAD | _STORE | _ATOMIC */
    uint8_t space;          /* enum gm_space */
    uint8_t flags;          /* GM_TRACE_F_NC */
    uint8_t lanes;          /* GM_LANES_STRIDED, GM_LANES_COMPACT or 0 (nothing
                               said: what every producer but the trace
                               decoder leaves) */
};

/* gm_access.lanes: all 32 lanes are active and lane k is at addr[0] +
 * k * (addr[1] - addr[0]) (mod 2^64). Set by the trace block decoder
 * (version 2) for the records it built from a base and a stride, so that
 * the simulator need not check the lanes again; never written to a trace. */
#define GM_LANES_STRIDED 1u
/* As GM_LANES_STRIDED, but only addr[0] and addr[1] are written (the
 * other words of addr[] hold anything): made only by a block decoder
 * switched to it (gm_trace_bdec_compact, gm_replay_compact), for
 * gm_sim_feed, which takes such records; gm_access_expand writes the
 * lanes. */
#define GM_LANES_COMPACT 2u

/* Writes the lanes of a GM_LANES_COMPACT record (then GM_LANES_STRIDED);
 * any other record is left as it is. */
static inline void gm_access_expand(struct gm_access *a)
{
    if (a->lanes != GM_LANES_COMPACT) return;
    uint64_t st = a->addr[1] - a->addr[0];
    for (int k = 2; k < 32; k++) a->addr[k] = a->addr[0] + (uint64_t)k * st;
    a->lanes = GM_LANES_STRIDED;
}

/* Device slot(s) -> access. ext must be the next slot when rec->flags has
 * GM_TRACE_F_EXT (else may be NULL). Returns 0, or -1 if ext is missing. */
int gm_trace_rec_decode(const struct gm_trace_rec *rec, const struct gm_trace_ext *ext,
                        struct gm_access *out);
/* Access -> device slot(s), as the handler would write them; returns the
 * number of slots used (1, or 2 when some delta needs more than 32 bits). */
int gm_trace_rec_encode(const struct gm_access *a, struct gm_trace_rec *rec,
                        struct gm_trace_ext *ext);

/* A copy or memset the program made between launches (they pass through
 * L2). Host-side addresses are kept as given; only device ranges matter. */
enum gm_copy_kind { GM_COPY_H2D = 1, GM_COPY_D2D = 2, GM_COPY_D2H = 3, GM_COPY_SET = 4 };
struct gm_trace_copy { uint64_t dst, src, bytes; uint8_t kind; };

/* ---- writer ---- */
struct gm_trace_writer;
/* NULL on error, with a one-line message in err. */
struct gm_trace_writer *gm_trace_writer_open(const char *path, const struct gm_trace_gpu *gpu,
                                             char *err, size_t errlen);
/* Each returns 0, or -1 with gm_trace_writer_error() set. */
int gm_trace_writer_module(struct gm_trace_writer *w, uint64_t modid, const char *name,
                           uint32_t nsites, const struct gm_trace_site *sites /* or NULL */);
int gm_trace_writer_alloc(struct gm_trace_writer *w, const struct gm_trace_alloc *a);
int gm_trace_writer_free(struct gm_trace_writer *w, uint64_t base, uint64_t seq);
int gm_trace_writer_launch(struct gm_trace_writer *w, const struct gm_trace_launch *l);
/* A copy or memset, outside a launch. */
int gm_trace_writer_copy(struct gm_trace_writer *w, const struct gm_trace_copy *c);
int gm_trace_writer_records(struct gm_trace_writer *w, const struct gm_access *a, size_t n);
int gm_trace_writer_end_launch(struct gm_trace_writer *w, uint64_t dropped);
/* Records coded apart (e.g. by several threads, one coder each) and
 * appended in order: a coder makes one RECORDS section of n records
 * (1..GM_TRACE_BLOCK_RECORDS), valid in sec and len until its next call,
 * and returns NULL or why not; gm_trace_writer_coded appends such a
 * section, holding n records, to the launch in progress. */
struct gm_trace_coder;
struct gm_trace_coder *gm_trace_coder_new(void);
void gm_trace_coder_free(struct gm_trace_coder *c);
const char *gm_trace_coder_records(struct gm_trace_coder *c, const struct gm_access *a, size_t n,
                                   const void **sec, size_t *len);
int gm_trace_writer_coded(struct gm_trace_writer *w, const void *sec, size_t len, size_t n);
/* Writes the end marker and closes; frees w in every case. With err NULL
 * the file is abandoned without an end marker (readers will call it truncated). */
int gm_trace_writer_close(struct gm_trace_writer *w, char *err, size_t errlen);
const char *gm_trace_writer_error(const struct gm_trace_writer *w);

/* ---- streaming reader ---- */
enum gm_trace_event_kind {
    GM_TEV_END = 0,         /* clean end of file */
    GM_TEV_MODULE = 1,
    GM_TEV_ALLOC = 2,
    GM_TEV_FREE = 3,
    GM_TEV_LAUNCH = 4,
    GM_TEV_RECORDS = 5,
    GM_TEV_LAUNCH_END = 6,
    GM_TEV_COPY = 7          /* a copy or memset between launches */
};


/* A RECORDS section left compressed (deferred decoding): its bytes, raw
 * length, the byte offset of its section header (for messages) and the
 * file's version (the block coding). */
struct gm_trace_block { const uint8_t *comp; size_t comp_len, raw_len; uint64_t at; uint32_t version; };

struct gm_trace_event {
    enum gm_trace_event_kind kind;
    /* MODULE */
    uint64_t modid;
    const char *name;                 /* MODULE name (valid until next call) */
    uint32_t nsites;
    const struct gm_trace_site *sites; /* nsites entries or NULL */
    /* ALLOC, FREE (alloc.base, alloc.free_seq) */
    struct gm_trace_alloc alloc;
    /* LAUNCH, LAUNCH_END (launch.seq, .nrecords, .dropped); END: launch.seq
     * and .nrecords = the end marker's launch and record counts */
    struct gm_trace_launch launch;
    /* COPY */
    struct gm_trace_copy copy;
    /* RECORDS: valid until the next call */
    const struct gm_access *recs;
    size_t nrecs;
    /* RECORDS with deferred decoding (nrecs 0): valid until the next call */
    struct gm_trace_block block;
};

struct gm_trace_reader;
struct gm_trace_reader *gm_trace_reader_open(const char *path, char *err, size_t errlen);
/* Reads from memory (not copied; must outlive the reader). */
struct gm_trace_reader *gm_trace_reader_open_mem(const void *data, size_t size,
                                                 char *err, size_t errlen);
const struct gm_trace_gpu *gm_trace_reader_gpu(const struct gm_trace_reader *r);
/* Returns 1 with an event, 0 at the end marker, -1 on a malformed or
 * truncated file (gm_trace_reader_error() says why and where). */
int gm_trace_reader_next(struct gm_trace_reader *r, struct gm_trace_event *ev);
const char *gm_trace_reader_error(const struct gm_trace_reader *r);
/* The path given to open (or "<memory>"), for messages. */
const char *gm_trace_reader_name(const struct gm_trace_reader *r);
/* After -1: 1 when the input only ends early (cut inside a section or its
 * header, zero bytes where a section should start, or no end marker):
 * everything returned before is whole and checked, the rest is missing.
 * 0 when it is malformed. */
int gm_trace_reader_torn(const struct gm_trace_reader *r);
/* Launches ended (LAUNCH_END read) and records returned so far. */
void gm_trace_reader_progress(const struct gm_trace_reader *r, uint64_t *launches, uint64_t *records);
void gm_trace_reader_close(struct gm_trace_reader *r);

/* Deferred decoding, for replays that decode blocks on several threads
 * (gpumem/replay.h does this for the simulator):
 * with on = 1, RECORDS events carry the block still compressed (ev->block,
 * nrecs 0), and the reader no longer knows record counts: the caller
 * decodes each block with gm_trace_block_decode, and checks each launch's
 * sum against LAUNCH_END's launch.nrecords and the total against END's
 * (gm_trace_reader_progress then counts launches only). */
void gm_trace_reader_defer(struct gm_trace_reader *r, int on);
/* A block decoder (its own zstd context and buffer): one per thread. */
struct gm_trace_bdec;
struct gm_trace_bdec *gm_trace_bdec_new(void);
void gm_trace_bdec_free(struct gm_trace_bdec *d);
/* Decodes a deferred block into out (room for GM_TRACE_BLOCK_RECORDS):
 * returns its record count, or -1 with *why set (the block is malformed at
 * byte b->at). */
long gm_trace_block_decode(struct gm_trace_bdec *d, const struct gm_trace_block *b, struct gm_access *out,
                           const char **why);
/* With on = 1, d's version-2 blocks give the full warps it would mark
 * GM_LANES_STRIDED as GM_LANES_COMPACT records (not their 32 lanes): for
 * records that go to gm_sim_feed only. Off by default. */
void gm_trace_bdec_compact(struct gm_trace_bdec *d, int on);

#endif /* GPUMEM_TRACE_IO_H */
