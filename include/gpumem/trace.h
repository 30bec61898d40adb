/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem trace record (contract 3: handlers -> runtime -> simulator), version 1.
 *
 * What the trace handler writes on the device, what the runtime drains and
 * saves, and what the simulator consumes: one fixed-size, pointer-free record
 * per warp memory instruction, the device ring-buffer header, and the host
 * descriptions of the GPU, kernel launches, allocations and modules that a
 * trace file carries (docs/trace-format.md describes the file itself).
 * Plain C, no includes beyond <stdint.h>; compiles as CUDA device code and as
 * C17; must not depend on CUDA, LLVM, the runtime or the simulator.
 */
#ifndef GPUMEM_TRACE_H
#define GPUMEM_TRACE_H

#include <stdint.h>

#define GM_TRACE_VERSION 1u

/* kind bits of a record (a load is 1, a store 2, an atomic 1|2|4). */
#define GM_TRACE_LOAD   1u
#define GM_TRACE_STORE  2u
#define GM_TRACE_ATOMIC 4u
/* flags of a record */
#define GM_TRACE_F_EXT  1u  /* the next slot is a gm_trace_ext (wide deltas) */
#define GM_TRACE_F_NC   2u  /* read-only / non-coherent path (ldg) */

/*
 * One warp memory instruction, written by one lane (the leader) of the warp.
 *
 * Lane k's address is base + delta[k] for every lane k set in `active`;
 * base is the address of the lowest active lane (so delta of that lane is 0)
 * and delta[k] is 0 for inactive lanes. When some delta does not fit in
 * int32, flags has GM_TRACE_F_EXT and the record's slot is followed by a
 * gm_trace_ext slot holding the high 32 bits: delta = (hi << 32) | (uint32)lo.
 *
 * space is the resolved gm_space (abi.h; never GM_SPACE_GENERIC when the
 * handler could resolve it). width is the bytes accessed per thread (the
 * whole vector for vector accesses; memory intrinsics: min(len, 65535)).
 * module is the runtime's index of the device module whose site table holds
 * `site` (the handler reads it from its per-module global gm_trace_module,
 * which the runtime sets). The CTA is (cta_x, cta_y, cta_z); warp is the warp
 * index inside the CTA (linear thread index / 32); warp_slot is %warpid.
 *
 * commit is written last, after a __threadfence(): the low 32 bits of
 * (slot index + 1) of this record in the ring (see gm_trace_buf), so the host
 * knows the slot is complete. It is 0 in records read from a file.
 */
struct gm_trace_rec {
    uint64_t base;
    uint32_t site;
    uint32_t active;
    uint32_t cta_x;
    uint16_t cta_y, cta_z;
    uint16_t smid;
    uint16_t module;
    uint16_t width;
    uint8_t warp_slot;
    uint8_t warp;
    uint8_t kind;           /* GM_TRACE_LOAD | _STORE | _ATOMIC */
    uint8_t space;          /* enum gm_space */
    uint8_t flags;          /* GM_TRACE_F_* */
    uint8_t reserved;
    uint32_t commit;
    int32_t delta[32];
};

/* Continuation slot of a record with GM_TRACE_F_EXT (same size). */
struct gm_trace_ext {
    uint8_t pad[36];
    uint32_t commit;        /* as in gm_trace_rec, for this slot's index */
    int32_t hi[32];         /* high 32 bits of each lane's delta */
};

#define GM_TRACE_REC_SIZE 168u
/* size checks that compile in C and in CUDA C++ */
typedef char gm_trace_rec_size_check[sizeof(struct gm_trace_rec) == GM_TRACE_REC_SIZE ? 1 : -1];
typedef char gm_trace_ext_size_check[sizeof(struct gm_trace_ext) == GM_TRACE_REC_SIZE ? 1 : -1];

/*
 * Device ring buffer: this header followed by `capacity` slots of
 * GM_TRACE_REC_SIZE bytes (slot i of the ring is at index i % capacity);
 * the slots start at offset GM_TRACE_BUF_HDR_SIZE.
 * The handler's leader lane reserves n slots (1, or 2 with GM_TRACE_F_EXT)
 * and writes them only once they are free, so a slot is never written
 * before the host has consumed its previous content:
 *   if (max_records && atomicAdd(&records, 1) >= max_records) return;
 *   block mode: w = atomicAdd(&write_index, n);
 *     for (polls = 0; w + n > volatile read_index + capacity; polls++)
 *       if (spin_limit && polls >= spin_limit) return;   (slots left uncommitted)
 *   drop mode: for (;;) { w = volatile write_index;
 *     if (w + n > volatile read_index + capacity) { atomicAdd(&dropped, 1); return; }
 *     if (atomicCAS(&write_index, w, w + n) == w) break; }
 *   write the slot(s) w .. w+n-1; __threadfence(); write each slot's commit = (uint32)(slot index + 1)
 * Mode GM_TRACE_MODE_BLOCK is back-pressure: the host drains while the kernel
 * runs (mapped host memory or a copy stream) and a full ring makes warps wait,
 * up to spin_limit polls (0 = no limit); GM_TRACE_MODE_DROP never waits (a
 * buffer drained only at kernel exit). The host consumes slot i when its
 * commit equals (uint32)(i + 1), then advances read_index. Drops are in
 * `dropped`; slots a launch reserved but never committed (a warp that gave
 * up waiting) are counted lost by the host once the launch has ended;
 * `records` counts records attempted only under a cap (max_records).
 */
struct gm_trace_buf {
    uint64_t write_index;   /* slots reserved so far (device atomics) */
    uint64_t read_index;    /* slots consumed (host writes, device reads) */
    uint64_t capacity;      /* slots (host sets before launch) */
    uint64_t dropped;       /* records not saved (device atomics) */
    uint64_t records;       /* records attempted (device atomics) */
    uint32_t mode;          /* GM_TRACE_MODE_* */
    uint32_t spin_limit;    /* polls before a blocked record is dropped */
    uint64_t max_records;   /* record cap of the launch, 0 = none: a record whose
                               atomicAdd(&records, 1) returns >= max_records is
                               not written (capped = records - saved - dropped) */
    uint64_t reserved;
    /* followed by capacity * GM_TRACE_REC_SIZE bytes of slots */
};
#define GM_TRACE_MODE_BLOCK 0u
#define GM_TRACE_MODE_DROP  1u
#define GM_TRACE_BUF_HDR_SIZE 64u
/* Handler globals (renamed per module, abi.h): the buffer pointer and the
 * module index the runtime writes before a launch. */
#define GM_TRACE_BUF_SYM    "gm_trace_buf"     /* struct gm_trace_buf * */
#define GM_TRACE_MODULE_SYM "gm_trace_module"  /* uint32_t module index */
typedef char gm_trace_buf_size_check[sizeof(struct gm_trace_buf) == GM_TRACE_BUF_HDR_SIZE ? 1 : -1];

/* ---- host-side descriptions carried in a trace file ---- */

#define GM_TRACE_NAME_MAX 64

/* The GPU a trace was recorded on (0 = unknown for any number). */
struct gm_trace_gpu {
    char name[GM_TRACE_NAME_MAX];   /* e.g. "NVIDIA H100 80GB HBM3" */
    uint32_t cc_major, cc_minor;    /* compute capability */
    uint32_t sm_count;
    uint32_t l1_shared_bytes;       /* unified L1 + shared per SM */
    uint64_t l2_bytes;
};

/* One kernel launch. seq orders launches within the trace (0, 1, ...). */
struct gm_trace_launch {
    uint64_t seq;
    char name[GM_TRACE_NAME_MAX * 4]; /* kernel (mangled), truncated, NUL-terminated */
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;            /* dynamic shared memory bytes */
    uint32_t static_shared;         /* static shared memory bytes */
    uint32_t carveout;              /* shared-memory part of L1+shared the launch
                                       ran with (bytes); 0 = unknown */
    uint32_t device;                /* CUDA device ordinal */
    uint64_t stream;                /* stream id (opaque) */
    uint64_t nrecords;              /* records saved for this launch */
    uint64_t dropped;               /* records lost (gm_trace_buf.dropped) */
};

/* One allocation, live for launches with alloc_seq <= seq < free_seq
 * (free_seq = UINT64_MAX when never freed during the trace). */
struct gm_trace_alloc {
    uint64_t base, size;
    uint64_t alloc_seq, free_seq;
    char label[GM_TRACE_NAME_MAX];  /* user label or "file:line" of the call */
};

/* One site of a module, copied from its site table (sitetab.h). */
struct gm_trace_site {
    uint32_t info;                  /* abi.h info word */
    uint32_t line, column;
    char file[GM_TRACE_NAME_MAX * 2];  /* may be truncated from the left */
    char func[GM_TRACE_NAME_MAX * 2];
};

#endif /* GPUMEM_TRACE_H */
