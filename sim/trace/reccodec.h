/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compact coding of a block of gm_access records (before compression),
 * docs/trace-format.md "coded records": fields delta-coded against the
 * previous record of the block, lane addresses as base plus a pattern
 * (same as previous, arithmetic stride, or explicit per-lane offsets).
 * Version 1 (reccodec.c, read only): record after record. Version 2
 * (colcodec.c, written): each field in a column of its own. Internal to
 * sim/trace; no I/O.
 */
#ifndef GM_TRACE_RECCODEC_H
#define GM_TRACE_RECCODEC_H

#include "bytes.h"
#include "gpumem/trace_io.h"

/* Bytes a decoder may read past the end of a block (explicit lanes of
 * version 2): the block's buffer must have this many more. */
#define GM_REC_SLACK 8
/* Scratch columns of the version 2 encoder (the caller keeps them between
 * blocks, zeroed at first, and frees them with gm_rec_cols_free). */
#define GM_REC_VCOLS 10
struct gm_rec_cols {
    uint64_t v[GM_REC_VCOLS][GM_TRACE_BLOCK_RECORDS];   /* values of each column */
    size_t n[GM_REC_VCOLS];
    uint64_t or[GM_REC_VCOLS];                          /* all values or-ed: the width */
    struct gm_buf ctl, shape, lanes, base;
};

/* Decodes exactly n records from c (after the block's record count) into
 * out; returns 0 or -1 (malformed). Version 1: */
int gm_rec_decode_block(struct gm_cur *c, struct gm_access *out, size_t n);
/* Version 2; consumes all of c; compact: gm_trace_bdec_compact's
 * GM_LANES_COMPACT records: */
int gm_rec_decode_block2(struct gm_cur *c, struct gm_access *out, size_t n, int compact);
/* Appends a version 2 block of n (1..GM_TRACE_BLOCK_RECORDS) records,
 * count included, to b. */
void gm_rec_encode_block2(struct gm_buf *b, struct gm_rec_cols *k, const struct gm_access *a, size_t n);
void gm_rec_cols_free(struct gm_rec_cols *k);

#endif
