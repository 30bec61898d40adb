/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tracing in the runtime: the three calls libgpumem makes (launch entry,
 * launch exit, process exit) and the guard its API callbacks check. All
 * tracing state lives behind these calls. Depends on the CUDA driver types,
 * the runtime core's module registry and allocation table (rt_core.h), the
 * trace_* files and libgmsim; never on CUPTI.
 *
 * Integration (runtime/src, owned by the runtime):
 *   launch entry (API enter callback of every kernel launch, before the
 *   kernel is enqueued):   gm_trace_launch_begin(&args);
 *   launch exit (API exit callback of the same launch, same thread):
 *                          gm_trace_launch_end();
 *   process exit (before the CUDA context goes away if possible):
 *                          gm_trace_shutdown();
 *   a context is being destroyed (before it is gone):
 *                          gm_trace_context_destroy(ctx);
 *   every copy and memset the program makes (after it was issued; any
 *   thread, no runtime lock held):
 *                          gm_trace_copy(kind, dst, src, bytes);
 *   every API callback, first line:
 *                          if (gm_trace_internal()) return;
 *   entry of every driver call of the program but launches and the calls
 *   known not to block (any thread, no runtime lock held):
 *                          gm_trace_before_call();
 */
#ifndef GM_TRACE_SESSION_H
#define GM_TRACE_SESSION_H

#include <cuda.h>
#include <stdint.h>

struct gm_modreg;
struct gm_alloc_table;

struct gm_trace_launch_args {
    CUfunction func;                    /* launched handle: CUkernel or CUfunction */
    const char *name;                   /* kernel name (mangled) */
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;                /* dynamic shared memory bytes */
    CUstream stream;                    /* launch stream (0: legacy default) */
    const struct gm_modreg *modules;    /* site tables of the loaded modules */
    const struct gm_alloc_table *allocs;/* live allocations (may be NULL) */
};

/* 1 when this launch is traced (then gm_trace_launch_end must follow on this
 * thread), 0 when not. Never fails the application: problems are printed
 * once and tracing turns off. */
int gm_trace_launch_begin(const struct gm_trace_launch_args *a);
/* Waits for the traced kernel, drains the rest of its records, ends the
 * launch in the file and the simulator. No-op when nothing is traced. */
void gm_trace_launch_end(void);
/* A context is about to be destroyed: drains its traced launches (all
 * launches in flight) while it still exists, and forgets its ring. */
void gm_trace_context_destroy(CUcontext ctx);
/* Stops the drain thread, prints the online report and the totals, closes
 * the trace file. Safe to call more than once. */
void gm_trace_shutdown(void);
/* A copy or memset the program issued (kind: GM_COPY_* of gpumem/trace_io.h;
 * dst/src: the device or host addresses of its bytes; a memset's src is 0).
 * Kept in program order and written before the next traced launch (COPY
 * section), so the simulator passes it through L2 between the launches.
 * Never blocks on a traced launch in progress. */
void gm_trace_copy(int kind, uint64_t dst, uint64_t src, uint64_t bytes);
/* Nonzero inside the tracer's own driver calls (callbacks should ignore them). */
int gm_trace_internal(void);
/* Before a driver call of the program that may block inside the driver:
 * waits until the traced launches in flight have been drained (returns at
 * once when none is, or tracing is off). */
void gm_trace_before_call(void);

#endif /* GM_TRACE_SESSION_H */
