/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replaying a trace file into the simulator with decoding spread over the
 * simulator's worker threads: a look-ahead over the reader's events that
 * keeps record blocks compressed until it holds gm_sim_window_blocks()
 * of them (across launches: many small launches decode together), has
 * the workers decode them (gm_sim_run_workers), then hands the events on
 * in file order, as gm_trace_reader_next would, with the records decoded.
 * It checks the record counts the deferred reader cannot. Depends on
 * gpumem/sim.h and gpumem/trace_io.h.
 */
#ifndef GPUMEM_REPLAY_H
#define GPUMEM_REPLAY_H

#include "gpumem/sim.h"

struct gm_replay;
/* Takes events from r (switched to deferred decoding) for s's workers;
 * NULL when out of memory. Both must outlive the replay. */
struct gm_replay *gm_replay_open(struct gm_trace_reader *r, struct gm_sim *s);
/* As gm_trace_reader_next: 1 with an event (RECORDS: recs/nrecs valid
 * until the next call; consecutive blocks of a launch come as one event,
 * up to a window of the simulator's), 0 at the end marker, -1 on a
 * malformed or truncated file or block. Every event before the problem is
 * handed on first. */
int gm_replay_next(struct gm_replay *p, struct gm_trace_event *ev);
/* With on = 1 (before the first gm_replay_next), full warps of a stride
 * come as GM_LANES_COMPACT records (gpumem/trace_io.h: lanes 0 and 1
 * written, not 32), for a caller that only feeds them to gm_sim_feed. */
void gm_replay_compact(struct gm_replay *p, int on);
/* After -1: why, in the reader's words ("trace PATH: ... (at byte N)"). */
const char *gm_replay_error(const struct gm_replay *p);
/* After -1: 1 when the input only ends early (gm_trace_reader_torn). */
int gm_replay_torn(const struct gm_replay *p);
void gm_replay_close(struct gm_replay *p);

#endif
