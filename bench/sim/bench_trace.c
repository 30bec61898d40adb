/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace replay benchmark: end to end from trace files, as gpumem-sim
 * replays them (gpumem/replay.h: the simulator's workers decode the
 * record blocks ahead). Per file: decoding alone (one thread,
 * zstd + records), then decode + simulate with 1, 2, 4, ... threads (wall
 * clock), each run's counts checked identical to the one-thread run.
 * With --synth SPEC FILE, writes a synthetic trace first (gpumem/synth.h).
 * --cpu times with the process's CPU clock (for one thread on a busy machine).
 * With threads, where the time goes (gm_sim_thread_times): serial s (end
 * to end minus the threaded windows: reading, setup, launch ends, the
 * final write-back), the windows' wall s, busy % (the threads' phase work
 * / threads x windows' wall), the slowest thread's seconds per phase, and
 * the windows' wall minus those (waiting at barriers).
 * usage: bench_trace [--cpu] [--threads-max N] [--preset P] [--reps R]
 *                    [--synth SPEC FILE]... FILE...
 * Prints one markdown table. Depends on libgmsim only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpumem/replay.h"
#include "gpumem/sim.h"
#include "gpumem/synth.h"

static int cpu_clock;   /* --cpu: this process's CPU time (meaningful for one thread) */

static double now(void)
{
    struct timespec t;
    clock_gettime(cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench_trace: %s: %s\n", what, msg);
    exit(1);
}

/* Decode + simulate with the configuration c, as gpumem-sim does
 * (gpumem/replay.h: the workers decode the blocks ahead); the summed
 * counts of all launches and the final write-back in *sum. Returns
 * seconds. */
static double replay(const char *path, const struct gm_sim_config *c, struct gm_counts *sum, uint64_t *nrec,
                     struct gm_sim_ptimes *pt)
{
    char err[512];
    const char *m;
    double t0 = now();
    struct gm_sim *s = gm_sim_new(c, &m);
    if (!s) die("config", m);
    struct gm_trace_reader *r = gm_trace_reader_open(path, err, sizeof err);
    if (!r) die(path, err);
    struct gm_replay *p = gm_replay_open(r, s);
    if (!p) die(path, "out of memory");
    gm_replay_compact(p, 1);   /* as gpumem-sim: the records only go to gm_sim_feed */
    struct gm_trace_event ev;
    int rc;
    uint32_t nmod = 0;
    memset(sum, 0, sizeof *sum);
    *nrec = 0;
    while ((rc = gm_replay_next(p, &ev)) == 1) {
        if (ev.kind == GM_TEV_RECORDS) { gm_sim_feed(s, ev.recs, ev.nrecs); *nrec += ev.nrecs; }
        else if (ev.kind == GM_TEV_MODULE) gm_sim_add_module(s, nmod++, ev.nsites);
        else if (ev.kind == GM_TEV_ALLOC) gm_sim_alloc(s, ev.alloc.base, ev.alloc.size);
        else if (ev.kind == GM_TEV_FREE) gm_sim_release(s, ev.alloc.base);
        else if (ev.kind == GM_TEV_COPY) gm_sim_copy(s, &ev.copy);
        else if (ev.kind == GM_TEV_LAUNCH && (m = gm_sim_begin(s, ev.launch.carveout))) die(path, m);
        else if (ev.kind == GM_TEV_LAUNCH_END && gm_sim_end(s, sum)) die(path, gm_sim_error(s));
    }
    if (rc < 0) die(path, gm_replay_error(p));
    gm_sim_flush_l2(s, sum);
    gm_sim_thread_times(s, pt);
    gm_replay_close(p);
    gm_trace_reader_close(r);
    gm_sim_free(s);
    return now() - t0;
}

/* Decoding alone (reader + zstd + records, one thread). Returns seconds. */
static double decode_only(const char *path, uint64_t *nrec)
{
    char err[512];
    double t0 = now();
    struct gm_trace_reader *r = gm_trace_reader_open(path, err, sizeof err);
    if (!r) die(path, err);
    struct gm_trace_event ev;
    int rc;
    uint64_t n = 0, x = 0;
    while ((rc = gm_trace_reader_next(r, &ev)) == 1)
        if (ev.kind == GM_TEV_RECORDS) { n += ev.nrecs; x += ev.recs[ev.nrecs - 1].addr[31]; }
    if (rc < 0) die(path, gm_trace_reader_error(r));
    gm_trace_reader_close(r);
    *nrec = n + (x == 1);   /* x: keeps the decoded records live */
    return now() - t0;
}

static void write_synth(const char *spec, const char *path)
{
    char err[512];
    struct gm_trace_gpu gpu = {.name = "synthetic"};
    struct gm_trace_writer *w = gm_trace_writer_open(path, &gpu, err, sizeof err);
    if (!w) die(path, err);
    struct gm_sink k = gm_synth_writer_sink(w);
    if (gm_synth(spec, &k, err, sizeof err)) die(spec, err);
    if (gm_trace_writer_close(w, err, sizeof err)) die(path, err);
}

static double best(double a, double b) { return a < b ? a : b; }

int main(int argc, char **argv)
{
    uint32_t tmax = 16, reps = 3;
    const char *preset = "h100";
    const char *files[64];
    int nfiles = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') { if (nfiles < 64) files[nfiles++] = a; continue; }
        if (!strcmp(a, "--cpu")) { cpu_clock = 1; continue; }
        if (i + 1 == argc) die(a, "needs a value");
        if (!strcmp(a, "--threads-max")) tmax = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--preset")) preset = argv[++i];
        else if (!strcmp(a, "--reps")) reps = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--synth") && i + 2 < argc) {
            write_synth(argv[i + 1], argv[i + 2]);
            if (nfiles < 64) files[nfiles++] = argv[i + 2];
            i += 2;
        } else die(a, "unknown option (or missing value)");
    }
    struct gm_sim_config c;
    if (gm_sim_preset(&c, preset)) die(preset, "unknown preset");
    if (!reps) reps = 1;
    printf("| trace | records | sector accesses | decode M records/s (1 thread) | threads | end to end s | "
           "M records/s | M sector accesses/s | vs 1 thread | counts | serial s | windows s | busy %% | "
           "slowest thread s: decode / bucket / L1 / L2 | barrier wait s |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int f = 0; f < nfiles; f++) {
        uint64_t nrec = 0, n1 = 0;
        double td = 1e30;
        for (uint32_t k = 0; k < reps; k++) td = best(td, decode_only(files[f], &nrec));
        struct gm_counts one = {0}, cur;
        double t1 = 0;
        for (uint32_t t = 1; t <= tmax; t *= 2) {
            c.threads = t;
            double te = 1e30;
            struct gm_sim_ptimes pt = {0}, ptk;
            for (uint32_t k = 0; k < reps; k++) {
                double x = replay(files[f], &c, &cur, &n1, &ptk);
                if (x < te) { te = x; pt = ptk; }
            }
            if (t == 1) { one = cur; t1 = te; }
            int same = !memcmp(&cur, &one, sizeof cur) && n1 == nrec;
            bad |= !same;
            const char *name = strrchr(files[f], '/') ? strrchr(files[f], '/') + 1 : files[f];
            printf("| %s | %llu | %llu | %.1f | %u | %.3f | %.1f | %.1f | %.2fx | %s |", name,
                   (unsigned long long)nrec, (unsigned long long)cur.sectors, (double)nrec / td / 1e6, t, te,
                   (double)nrec / te / 1e6, (double)cur.sectors / te / 1e6, t1 / te, same ? "identical" : "DIFFERENT");
            if (t == 1) printf(" - | - | - | - | - |\n");
            else {
                double busy = 0, slow = 0;
                for (int p = 0; p < 4; p++) { busy += pt.busy[p]; slow += pt.slowest[p]; }
                printf(" %.3f | %.3f | %.0f | %.3f / %.3f / %.3f / %.3f | %.3f |\n", te - pt.wall, pt.wall,
                       pt.wall > 0 ? 100 * busy / (t * pt.wall) : 0, pt.slowest[0], pt.slowest[1], pt.slowest[2],
                       pt.slowest[3], pt.wall - slow);
            }
            fflush(stdout);
            if (t < tmax && 2 * t > tmax) t = tmax / 2;   /* always end at tmax */
        }
    }
    return bad;
}
