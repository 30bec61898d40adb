/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CUDA driver side of tracing: the device ring buffer of one context, the
 * copy stream that drains it while kernels run, the per-launch marks
 * enqueued on the launch's own stream (so the host never waits for a
 * kernel), pinned staging buffers, writing the handler's per-module
 * globals, and the GPU / launch descriptions for the trace file.
 * Uses only CUDA driver API entry points found at run time with dlsym (the
 * program already loaded libcuda), and the CUDA headers for types; no CUPTI,
 * no runtime core, no simulator.
 */
#ifndef GM_TRACE_CUDA_H
#define GM_TRACE_CUDA_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>
#include "gpumem/trace.h"
#include "trace_ring.h"

#define GM_TRACE_MARKS 256u     /* traced launches in flight per context */
#define GM_TRACE_STAGES 8u      /* staging buffers of `batch` slots */

/* One context's buffer: header + capacity slots in device memory (set up
 * once, never reset: slot indices grow across launches), a non-blocking
 * high-priority stream for the drain, GM_TRACE_MARKS marks (a pinned copy
 * of the header and an event, enqueued after a launch on its stream) and
 * GM_TRACE_STAGES pinned staging buffers. */
struct gm_trace_dev {
    CUcontext ctx;
    CUdevice device;
    CUstream stream;
    CUdeviceptr buf;
    uint64_t capacity;
    uint64_t batch;         /* slots per staging buffer */
    unsigned char *pinned;  /* header copy, read index, scratch, pointer values, marks */
    unsigned char *stage[GM_TRACE_STAGES];
    CUevent ev[GM_TRACE_MARKS];
};

/* Resolves the driver entry points once. 0, or -1 with err. */
int gm_trace_cu_load(char *err, size_t errlen);
/* Nonzero while this thread is inside a driver call made by the tracer,
 * so API callbacks can ignore the tracer's own calls. */
int gm_trace_cu_internal(void);

/* Sets up the ring (cleared, header with mode, spin_limit, max_records)
 * synchronously, once per context. */
int gm_trace_dev_open(struct gm_trace_dev *d, CUcontext ctx, uint64_t capacity, uint64_t batch,
                      uint32_t mode, uint32_t spin_limit, uint64_t max_records,
                      char *err, size_t errlen);
void gm_trace_dev_close(struct gm_trace_dev *d);
/* Before a traced launch, on its stream: after the mark `after` (a launch
 * of another stream that must end first; -1: none), zero the ring's
 * records and dropped counters (per-launch counts and cap). Asynchronous. */
int gm_trace_dev_begin(struct gm_trace_dev *d, CUstream stream, int after);
/* Work on stream waits for mark `slot` (on the GPU). Asynchronous. */
int gm_trace_dev_after(struct gm_trace_dev *d, CUstream stream, unsigned slot);
/* After a traced launch, on its stream: mark `slot` (a copy of the header
 * and an event). Asynchronous. */
int gm_trace_dev_mark(struct gm_trace_dev *d, CUstream stream, unsigned slot);
/* 1 with the header as it was when the launch ended, 0 while it runs, -1
 * when the launch failed. */
int gm_trace_dev_marked(struct gm_trace_dev *d, unsigned slot, struct gm_trace_buf *h);
/* Points a module's buffer global at the ring (on) or at NULL, on the
 * launch's stream (in order with its kernels). Asynchronous. */
int gm_trace_dev_point(struct gm_trace_dev *d, CUdeviceptr global, int on, CUstream stream);
/* After tracing turned off: modules that still point at the ring drop every
 * record at once (mode drop, cap 1) instead of waiting for a drain. */
int gm_trace_dev_quiesce(struct gm_trace_dev *d);
/* Makes ctx current on the calling (drain) thread. */
int gm_trace_dev_bind(struct gm_trace_dev *d);
extern const struct gm_trace_dev_ops gm_trace_cuda_ops; /* dev = struct gm_trace_dev * */

/* Device address and size of global `sym` in the module of the launched
 * function (a CUkernel or a CUfunction handle). 0 found, 1 not found, -1. */
int gm_trace_cu_global(CUfunction f, const char *sym, CUdeviceptr *addr, size_t *size);
/* Writes n bytes to a device global through the tracer's stream. */
int gm_trace_dev_write(struct gm_trace_dev *d, CUdeviceptr addr, const void *src, size_t n);

/* GPU description of a device (unknown numbers stay 0). */
int gm_trace_cu_gpu(CUdevice dev, struct gm_trace_gpu *g);
/* Fills static_shared and carveout of a launch (name, grid, block,
 * dyn_shared must be set). The carve-out is an estimate: see docs/trace.md. */
int gm_trace_cu_launch(CUfunction f, CUdevice dev, struct gm_trace_launch *l);
/* Current context and its device. */
int gm_trace_cu_current(CUcontext *ctx, CUdevice *dev);

#endif /* GM_TRACE_CUDA_H */
