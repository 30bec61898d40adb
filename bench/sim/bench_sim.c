/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Simulator benchmark: sector accesses per second of the fast simulator
 * (1..N threads) and of the reference model, on generated workloads, and a
 * check that all of them give identical counts. Generation is not timed.
 * With --file DIR each workload is also written to DIR/<workload>.gmt (not
 * timed) and read back: trace decoding alone (zstd + record decoding), and
 * end to end (decode + simulate, serial).
 * usage: bench_sim [--threads-max N] [--chunks C] [--preset P] [--set key=value]... [--cpu] [--no-ref]
 *                  [--workload NAME] [--file DIR]
 * Depends on libgmsim only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpumem/sim.h"

#ifndef CHUNK
#define CHUNK 8192   /* one reader block: records are fed while cache-hot, as when replaying a file */
#endif

enum wl { WL_STREAM, WL_GATHER, WL_STENCIL, WL_REUSE, WL_N };
static const char *wl_name[WL_N] = {"stream", "gather", "stencil", "reuse"};

static uint64_t rnd(uint64_t *x) { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; return *x; }

/* Chunk c of workload w: 132 SMs, 48 warps each, records round-robin. */
static void gen(struct gm_access *a, enum wl w, uint32_t c)
{
    uint64_t x = 0x9e3779b97f4a7c15ull * (c + 1) + (uint64_t)w;
    for (uint32_t i = 0; i < CHUNK; i++) {
        uint64_t g = (uint64_t)c * CHUNK + i;       /* global warp-instruction number */
        struct gm_access *r = &a[i];
        memset(r, 0, sizeof *r);
        r->active = 0xffffffffu;
        r->smid = (uint16_t)(g % 132);
        r->warp_slot = (uint8_t)(g / 132 % 48);
        r->width = 4;
        r->space = 1;
        r->kind = (g % 4 == 3) ? 2 : 1;             /* 1 store per 3 loads */
        uint64_t base = 0x7f0000000000ull;
        for (int k = 0; k < 32; k++) {
            if (w == WL_STREAM) r->addr[k] = base + (g * 32 + (uint64_t)k) * 4 % (1ull << 30);
            else if (w == WL_GATHER) r->addr[k] = base + (rnd(&x) % (64ull << 20) & ~3ull);
            else if (w == WL_STENCIL)
                r->addr[k] = base + ((g / 3 % 8192) * 4096 + (g % 3) * 4096 + (uint64_t)k * 4) % (256ull << 20);
            else r->addr[k] = base + (g % 132) * 16384 + (g / 132 * 128) % 16384 + (uint64_t)k * 4;
        }
    }
}

static int cpu_clock;   /* --cpu: time with this process's CPU clock */

static double now(void)
{
    struct timespec t;
    clock_gettime(cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Runs one simulator configuration over the workload; returns seconds. */
static double run_fast(const struct gm_sim_config *c, enum wl w, uint32_t chunks, struct gm_access *buf,
                       struct gm_counts *out, double *coal_s, double *model_s)
{
    const char *err;
    struct gm_sim *s = gm_sim_new(c, &err);
    if (!s) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
    gm_sim_alloc(s, 0x7f0000000000ull, 1ull << 30);
    gm_sim_begin(s, 0);
    /* threads: a window of chunks per feed, as the replay of a file feeds
     * them (one chunk per feed would split 8192 records over all threads) */
    size_t per = gm_sim_window_blocks(s);
    struct gm_access *win = per > 1 ? malloc(per * CHUNK * sizeof *win) : buf;
    if (!win) { fprintf(stderr, "bench_sim: out of memory\n"); exit(1); }
    double t = 0;
    for (uint32_t ch = 0; ch < chunks; ch += (uint32_t)per) {
        size_t k = 0;
        for (; k < per && ch + k < chunks; k++) gen(win + k * CHUNK, w, ch + (uint32_t)k);
        double t0 = now();
        gm_sim_feed(s, win, k * CHUNK);
        t += now() - t0;
    }
    if (win != buf) free(win);
    memset(out, 0, sizeof *out);
    gm_sim_times(s, coal_s, model_s);
    gm_sim_end(s, out);
    gm_sim_free(s);
    return t;
}

static double run_ref(const struct gm_sim_config *c, enum wl w, uint32_t chunks, struct gm_access *buf,
                      struct gm_counts *out)
{
    struct gm_ref *r = gm_ref_new(c);
    gm_ref_alloc(r, 0x7f0000000000ull, 1ull << 30);
    gm_ref_begin(r, 0);
    double t = 0;
    for (uint32_t ch = 0; ch < chunks; ch++) {
        gen(buf, w, ch);
        double t0 = now();
        gm_ref_feed(r, buf, CHUNK);
        t += now() - t0;
    }
    memset(out, 0, sizeof *out);
    gm_ref_end(r, out);
    gm_ref_free(r);
    return t;
}

/* Writes the workload to path (untimed). */
static void write_file(const char *path, enum wl w, uint32_t chunks, struct gm_access *buf)
{
    char err[256];
    struct gm_trace_gpu gpu = {.name = "bench", .cc_major = 9, .sm_count = 132, .l1_shared_bytes = 256u << 10,
                               .l2_bytes = 50ull << 20};
    struct gm_trace_writer *tw = gm_trace_writer_open(path, &gpu, err, sizeof err);
    if (!tw) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
    struct gm_trace_alloc a = {.base = 0x7f0000000000ull, .size = 1ull << 30, .free_seq = UINT64_MAX};
    struct gm_trace_launch l = {.name = "bench", .nrecords = (uint64_t)chunks * CHUNK};
    int bad = gm_trace_writer_alloc(tw, &a) || gm_trace_writer_launch(tw, &l);
    for (uint32_t ch = 0; ch < chunks && !bad; ch++) {
        gen(buf, w, ch);
        bad = gm_trace_writer_records(tw, buf, CHUNK);
    }
    if (bad || gm_trace_writer_end_launch(tw, 0)) { fprintf(stderr, "bench_sim: %s\n", gm_trace_writer_error(tw)); exit(1); }
    if (gm_trace_writer_close(tw, err, sizeof err)) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
}

/* Reads path; with s, also simulates it. Returns seconds; *nrec records. */
static double read_file(const char *path, struct gm_sim *s, size_t *nrec)
{
    char err[256];
    double t0 = now();
    struct gm_trace_reader *r = gm_trace_reader_open(path, err, sizeof err);
    if (!r) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
    struct gm_trace_event ev;
    int rc;
    *nrec = 0;
    while ((rc = gm_trace_reader_next(r, &ev)) == 1) {
        if (ev.kind == GM_TEV_ALLOC && s) gm_sim_alloc(s, ev.alloc.base, ev.alloc.size);
        else if (ev.kind == GM_TEV_LAUNCH && s) gm_sim_begin(s, ev.launch.carveout);
        else if (ev.kind == GM_TEV_RECORDS) {
            *nrec += ev.nrecs;
            if (s) gm_sim_feed(s, ev.recs, ev.nrecs);
        }
    }
    if (rc < 0) { fprintf(stderr, "bench_sim: %s\n", gm_trace_reader_error(r)); exit(1); }
    gm_trace_reader_close(r);
    return now() - t0;
}

/* Decoding alone and end to end from a file, serial. */
static int file_row(const struct gm_sim_config *c0, enum wl w, uint32_t chunks, struct gm_access *buf,
                    const char *dir, const struct gm_counts *expect)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.gmt", dir, wl_name[w]);
    write_file(path, w, chunks, buf);
    struct gm_sim_config c = *c0;
    c.threads = 1;
    const char *err;
    struct gm_sim *s = gm_sim_new(&c, &err);
    if (!s) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
    size_t nrec;
    double td = read_file(path, NULL, &nrec), te = read_file(path, s, &nrec);
    struct gm_counts got = {0};
    gm_sim_end(s, &got);
    gm_sim_free(s);
    int same = !memcmp(&got, expect, sizeof got);
    printf("| %s | %zu | %llu | %.2f | %.1f | %.1f | %s |\n", wl_name[w], nrec, (unsigned long long)got.sectors,
           (double)nrec / td / 1e6, (double)got.sectors / td / 1e6, (double)got.sectors / te / 1e6,
           same ? "identical" : "DIFFERENT");
    return !same;
}

int main(int argc, char **argv)
{
    uint32_t tmax = 2, chunks = 64;
    const char *preset = "h100";
    int noref = 0, nset = 0;
    const char *only = NULL, *dir = NULL;
    const char *sets[16];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cpu")) { cpu_clock = 1; continue; }
        if (!strcmp(argv[i], "--no-ref")) { noref = 1; continue; }
        if (i + 1 == argc) { fprintf(stderr, "bench_sim: %s needs a value\n", argv[i]); return 2; }
        if (!strcmp(argv[i], "--threads-max")) tmax = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--chunks")) chunks = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--preset")) preset = argv[i + 1];
        else if (!strcmp(argv[i], "--workload")) only = argv[i + 1];
        else if (!strcmp(argv[i], "--file")) dir = argv[i + 1];
        else if (!strcmp(argv[i], "--set")) { if (nset < 16) sets[nset++] = argv[i + 1]; }
        else { fprintf(stderr, "bench_sim: unknown option %s\n", argv[i]); return 2; }
        i++;
    }
    struct gm_sim_config c;
    if (gm_sim_preset(&c, preset)) { fprintf(stderr, "bench_sim: unknown preset %s\n", preset); return 2; }
    for (int i = 0; i < nset; i++) {   /* --set key=value overrides */
        char k[64];
        const char *eq = strchr(sets[i], '='), *m;
        snprintf(k, sizeof k, "%.*s", eq ? (int)(eq - sets[i]) : 0, sets[i]);
        if (!eq || (m = gm_sim_config_set(&c, k, eq + 1))) {
            fprintf(stderr, "bench_sim: --set %s: %s\n", sets[i], eq ? m : "expected key=value");
            return 2;
        }
    }
    struct gm_access *buf = malloc(CHUNK * sizeof *buf);
    if (!buf) return 1;
    int bad = 0;
    struct gm_counts serial[WL_N];
    printf("| workload | records | sector accesses | reference M/s | threads | fast M/s | vs reference | vs 1 thread | coalescing M/s | cache model M/s | counts |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int w = 0; w < WL_N; w++) {
        if (only && strcmp(only, wl_name[w])) continue;
        struct gm_counts ref, one, cur;
        double tr = noref ? 0 : run_ref(&c, w, chunks, buf, &ref), t1 = 0;
        for (uint32_t t = 1; t <= tmax; t *= 2) {
            c.threads = t;
            double tc, tm, tf = run_fast(&c, w, chunks, buf, &cur, &tc, &tm);
            if (t == 1) { t1 = tf; one = cur; serial[w] = cur; }
            if (noref) ref = one;
            int same = !memcmp(&cur, &ref, sizeof cur) && !memcmp(&cur, &one, sizeof cur);
            bad |= !same;
            char rs[32] = "-", rr[32] = "-";
            if (!noref) {
                snprintf(rs, sizeof rs, "%.1f", (double)ref.sectors / tr / 1e6);
                snprintf(rr, sizeof rr, "%.1fx", tr / tf);
            }
            char cs[32] = "-", ms[32] = "-";   /* phase split: serial feed only */
            if (t == 1) {   /* wall-clock shares of the two passes, applied to this clock's total */
                snprintf(cs, sizeof cs, "%.1f", (double)cur.sectors / (tf * tc / (tc + tm)) / 1e6);
                snprintf(ms, sizeof ms, "%.1f", (double)cur.sectors / (tf * tm / (tc + tm)) / 1e6);
            }
            printf("| %s | %u | %llu | %s | %u | %.1f | %s | %.2fx | %s | %s | %s |\n", wl_name[w], chunks * CHUNK,
                   (unsigned long long)cur.sectors, rs, t, (double)cur.sectors / tf / 1e6, rr, t1 / tf, cs, ms,
                   same ? "identical" : "DIFFERENT");
            if (t < tmax && 2 * t > tmax) t = tmax / 2;   /* always end at tmax */
        }
    }
    if (dir) {
        printf("\n| workload | records | sector accesses | decode M records/s | decode M sectors/s | end to end M sectors/s | counts |\n");
        printf("|---|---|---|---|---|---|---|\n");
        for (int w = 0; w < WL_N; w++)
            if (!only || !strcmp(only, wl_name[w])) bad |= file_row(&c, w, chunks, buf, dir, &serial[w]);
    }
    free(buf);
    return bad;
}
