/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Decoding alone, for instruction counts (valgrind --tool=callgrind):
 * reads a trace file with deferred decoding and decodes every record
 * block on this thread (zstd + records), as the replay's workers do.
 * usage: trace_decode FILE [REPS]; prints records decoded (all reps).
 * Depends on libgmsim's trace reader only.
 */
#include <stdio.h>
#include <stdlib.h>
#include "gpumem/trace_io.h"

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: trace_decode FILE [REPS]\n"); return 2; }
    int reps = argc > 2 ? atoi(argv[2]) : 1;
    struct gm_access *out = malloc(GM_TRACE_BLOCK_RECORDS * sizeof *out);
    struct gm_trace_bdec *d = gm_trace_bdec_new();
    if (!out || !d) { fprintf(stderr, "trace_decode: out of memory\n"); return 1; }
    unsigned long long n = 0, sum = 0;
    for (int rep = 0; rep < reps; rep++) {
        char err[512];
        struct gm_trace_reader *r = gm_trace_reader_open(argv[1], err, sizeof err);
        if (!r) { fprintf(stderr, "trace_decode: %s\n", err); return 1; }
        gm_trace_reader_defer(r, 1);
        struct gm_trace_event ev;
        int rc;
        while ((rc = gm_trace_reader_next(r, &ev)) == 1) {
            if (ev.kind != GM_TEV_RECORDS) continue;
            const char *why;
            long k = gm_trace_block_decode(d, &ev.block, out, &why);
            if (k < 0) { fprintf(stderr, "trace_decode: %s\n", why); return 1; }
            n += (unsigned long long)k;
            sum += out[k - 1].addr[31] + out[0].active;   /* keeps the decode observable */
        }
        if (rc < 0) { fprintf(stderr, "trace_decode: %s\n", gm_trace_reader_error(r)); return 1; }
        gm_trace_reader_close(r);
    }
    printf("%llu records (check %llx)\n", n, sum);
    gm_trace_bdec_free(d);
    free(out);
    return 0;
}
