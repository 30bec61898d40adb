/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compact coding of a block of gm_access records (before compression):
 * fields delta-coded against the previous record of the block, lane
 * addresses as base plus a pattern (same as previous, arithmetic stride, or
 * explicit per-lane deltas). Internal to sim/trace; no I/O.
 */
#ifndef GM_TRACE_RECCODEC_H
#define GM_TRACE_RECCODEC_H

#include "bytes.h"
#include "gpumem/trace_io.h"

void gm_rec_encode_block(struct gm_buf *b, const struct gm_access *a, size_t n);
/* Decodes exactly n records from c into out; returns 0 or -1 (malformed). */
int gm_rec_decode_block(struct gm_cur *c, struct gm_access *out, size_t n);

#endif
