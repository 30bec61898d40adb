/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host side of the trace ring buffer protocol (gpumem/trace.h): the ring is
 * never reset, so slot indices grow across launches and a launch's records
 * are the slots between two values of write_index. A fetch copies pending
 * slots once and says how many leading slots hold whole records that may
 * be trusted; advance hands them back to the writers. The device memory is
 * reached only through the ops table, so this file is pure C17 (no CUDA)
 * and is tested with a ring that CPU threads fill (tests/lit/trace/ring.test).
 */
#ifndef GM_TRACE_RING_H
#define GM_TRACE_RING_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/trace.h"

/* Access to the device buffer. Positions are ring positions (slot index %
 * capacity) and never wrap inside one call. Each returns 0 or -1. */
struct gm_trace_dev_ops {
    int (*read_header)(void *dev, struct gm_trace_buf *out);
    int (*read_slots)(void *dev, uint64_t pos, uint64_t n, void *out);
    int (*write_read_index)(void *dev, uint64_t read_index);
};

struct gm_trace_ring {
    const struct gm_trace_dev_ops *ops;
    void *dev;
    uint64_t capacity;      /* slots */
    uint64_t read;          /* next slot to consume (slot index, grows forever) */
    uint64_t seen;          /* slots from read on whose commit an earlier fetch saw */
};

void gm_trace_ring_init(struct gm_trace_ring *r, const struct gm_trace_dev_ops *ops, void *dev,
                        uint64_t capacity);
/* Copies slots [read, min(target, read + max)) into stage (max >= 2 slots
 * of GM_TRACE_REC_SIZE) and returns how many leading slots hold whole
 * records that may be consumed: committed, and either seen committed by an
 * earlier fetch or below `complete` (slots of kernels known to have ended
 * before this fetch began). A copy engine may read a slot's fields before
 * its writer's last stores land and its commit word after, so a commit
 * seen in the same copy proves nothing about the fields. -1: device error. */
long gm_trace_ring_fetch(struct gm_trace_ring *r, uint64_t target, uint64_t complete, void *stage,
                         uint64_t max);
/* n leading slots consumed (or given up): frees them for the writers. 0 or -1. */
int gm_trace_ring_advance(struct gm_trace_ring *r, uint64_t n);

#endif /* GM_TRACE_RING_H */
