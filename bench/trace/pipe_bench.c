/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host side of trace capture without a GPU (bench/trace, issue 14 item 1):
 * pushes device slots as the drain does (chunks of 8,192 records into
 * runtime/trace/trace_pipe.c) and times decoding, coding, compressing and
 * writing them to a file with 1..N worker threads. The slots are a saxpy
 * kernel's (3 sites; each warp loads x and y and stores y, 32 consecutive
 * floats), or with "gather" random lanes. Prints records per second per
 * worker count. Usage: pipe_bench [RECORDS (default 20000000)] [MAXWORKERS
 * (default cores - 2)] [saxpy|gather] [FILE (kept; default a temporary file)]
 * Depends on runtime/trace (pipe, sink) and libgmsim.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "trace_pipe.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void fill(unsigned char *slots, uint32_t n, int gather, uint64_t first)
{
    uint64_t rnd = 88172645463325252ull ^ first;
    for (uint32_t i = 0; i < n; i++) {
        struct gm_trace_rec *r = (void *)(slots + (size_t)i * GM_TRACE_REC_SIZE);
        uint64_t w = (first + i) / 3, site = (first + i) % 3;
        memset(r, 0, sizeof *r);
        r->base = (site == 0 ? 0x7f0000000000ull : 0x7f1000000000ull) + w * 128;
        r->site = (uint32_t)site;
        r->active = 0xffffffffu;
        r->cta_x = (uint32_t)(w / 8);
        r->smid = (uint16_t)(w % 132);
        r->warp = (uint8_t)(w % 8);
        r->width = 4;
        r->kind = site == 2 ? GM_TRACE_STORE : GM_TRACE_LOAD;
        r->space = 1;
        for (int k = 0; k < 32; k++) {
            rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17;
            r->delta[k] = gather ? (k ? (int32_t)(rnd % (1u << 24)) * 4 : 0) : 4 * k;
        }
    }
}

static double run(uint64_t nrec, int workers, const unsigned char *slots, const char *file)
{
    struct gm_trace_sink sink;
    struct gm_trace_pipe pipe;
    struct gm_trace_gpu gpu = { .name = "bench" };
    char err[256];
    if (gm_trace_sink_open(&sink, file, NULL, NULL, &gpu, err, sizeof err)) {
        fprintf(stderr, "pipe_bench: %s\n", err);
        exit(1);
    }
    if (gm_trace_pipe_start(&pipe, &sink, workers)) exit(1);
    double t0 = now();
    struct gm_pipe_item it = { .kind = GM_PIPE_LAUNCH };
    strcpy(it.u.launch.name, "saxpy");
    gm_trace_pipe_push(&pipe, &it);
    for (uint64_t done = 0; done < nrec; done += GM_TRACE_BLOCK_RECORDS) {
        struct gm_pipe_item c = { .kind = GM_PIPE_CHUNK };
        c.u.chunk.slots = slots;
        c.u.chunk.nslots = c.u.chunk.nrecs = GM_TRACE_BLOCK_RECORDS;
        gm_trace_pipe_push(&pipe, &c);
    }
    struct gm_pipe_item e = { .kind = GM_PIPE_END, .u.end = { nrec, 0 } };
    gm_trace_pipe_push(&pipe, &e);
    gm_trace_pipe_stop(&pipe);
    double s = now() - t0;
    gm_trace_sink_close(&sink, err, sizeof err);
    return s;
}

int main(int argc, char **argv)
{
    uint64_t nrec = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000ull;
    int maxw = argc > 2 ? atoi(argv[2]) : gm_trace_pipe_default_workers();
    int gather = argc > 3 && !strcmp(argv[3], "gather");
    const char *file = argc > 4 ? argv[4] : "/tmp/gm_pipe_bench.gmt";
    nrec = (nrec + GM_TRACE_BLOCK_RECORDS - 1) / GM_TRACE_BLOCK_RECORDS * GM_TRACE_BLOCK_RECORDS;
    unsigned char *slots = malloc((size_t)GM_TRACE_BLOCK_RECORDS * GM_TRACE_REC_SIZE);
    if (!slots) return 1;
    fill(slots, GM_TRACE_BLOCK_RECORDS, gather, 0);
    printf("pipe_bench: %llu %s records, %ld cores\n", (unsigned long long)nrec,
           gather ? "gather" : "saxpy", sysconf(_SC_NPROCESSORS_ONLN));
    for (int w = 1; w <= maxw; w = w < 4 ? w + 1 : w * 2 > maxw && w < maxw ? maxw : w * 2) {
        double s = run(nrec, w, slots, file);
        printf("workers %d: %.3f s, %.1f M records/s\n", w, s, (double)nrec / s / 1e6);
    }
    if (argc <= 4) remove(file);
    free(slots);
    return 0;
}
