/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gm-ktime: a CUPTI injection library (CUDA_INJECTION64_PATH) that measures
 * GPU kernel time the same way for any build of a program (nvcc, gpumemcc,
 * --gm-off): Activity API CONCURRENT_KERNEL records, end - start summed per
 * kernel name, written at exit to $GM_KTIME_OUT (default ktime.tsv) as
 * "kernel<TAB>launches<TAB>total_ns" rows. gpumem's runtime steps aside for an
 * injected tool unless GPUMEM_FORCE=1 is set; with it, the two coexist (the
 * runtime subscribes to callbacks, this library only to activities).
 * With $GM_KTIME_SEQ set, each launch's "start_ns<TAB>duration_ns" is also
 * appended there as its record arrives, and a thread asks CUPTI every
 * KT_FLUSH_MS for the completed records: a run killed at a time limit
 * leaves the launches it finished, so the harness can compare its first K
 * launches with another build's (bench/corpus/run.sh). A SIGTERM (the
 * harness's time limit) then makes that thread write what CUPTI has, the
 * finished launches of unfinished buffers included, and exit with 124.
 * Depends on CUPTI and libc only; not on gpumem.
 */
#define _POSIX_C_SOURCE 200809L
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#define KT_BUF (8u << 20)
#define KT_SLOTS 4096u /* distinct kernel names; more are counted as one row */
#define KT_FLUSH_MS 250

struct kt_row {
    char *name;
    uint64_t launches, ns;
};

static struct kt_row kt_rows[KT_SLOTS];
static uint64_t kt_dropped;
static pthread_mutex_t kt_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *kt_seq; /* $GM_KTIME_SEQ, or NULL */
static volatile sig_atomic_t kt_term;

static uint64_t kt_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void kt_add(const char *name, uint64_t ns)
{
    if (!name)
        name = "(unnamed)";
    for (uint64_t i = kt_hash(name), n = 0; n < KT_SLOTS; i++, n++) {
        struct kt_row *r = &kt_rows[i % KT_SLOTS];
        if (!r->name && !(r->name = strdup(name)))
            break;
        if (!strcmp(r->name, name)) {
            r->launches++;
            r->ns += ns;
            return;
        }
    }
    kt_dropped++;
}

static void CUPTIAPI kt_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = aligned_alloc(8, KT_BUF);
    *size = *buf ? KT_BUF : 0;
    *max_records = 0;
}

static void CUPTIAPI kt_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *rec = NULL;
    pthread_mutex_lock(&kt_lock);
    while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (kt_term && k->end <= k->start)
            continue; /* unfinished at a forced flush */
        uint64_t ns = k->end > k->start ? k->end - k->start : 0;
        kt_add(k->name, ns);
        if (kt_seq)
            fprintf(kt_seq, "%llu\t%llu\n", (unsigned long long)k->start, (unsigned long long)ns);
    }
    if (kt_seq)
        fflush(kt_seq);
    pthread_mutex_unlock(&kt_lock);
    free(buf);
}

static void kt_write(void)
{
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const char *path = getenv("GM_KTIME_OUT");
    FILE *f = fopen(path && *path ? path : "ktime.tsv", "w");
    if (!f) {
        fprintf(stderr, "gm-ktime: cannot write %s\n", path && *path ? path : "ktime.tsv");
        return;
    }
    pthread_mutex_lock(&kt_lock);
    for (unsigned i = 0; i < KT_SLOTS; i++)
        if (kt_rows[i].name)
            fprintf(f, "%s\t%llu\t%llu\n", kt_rows[i].name, (unsigned long long)kt_rows[i].launches,
                    (unsigned long long)kt_rows[i].ns);
    if (kt_dropped)
        fprintf(f, "(kernels beyond %u names)\t%llu\t0\n", KT_SLOTS, (unsigned long long)kt_dropped);
    pthread_mutex_unlock(&kt_lock);
    if (fclose(f))
        fprintf(stderr, "gm-ktime: write error on %s\n", path && *path ? path : "ktime.tsv");
}

static void kt_on_term(int sig)
{
    (void)sig;
    kt_term = 1;
}

/* Asks CUPTI for the buffers whose records are all complete, every
 * KT_FLUSH_MS (the default flush: it never returns a record unfinished);
 * after a SIGTERM, for every buffer (kt_write), and exits. */
static void *kt_flusher(void *arg)
{
    (void)arg;
    struct timespec t = {.tv_sec = KT_FLUSH_MS / 1000, .tv_nsec = (KT_FLUSH_MS % 1000) * 1000000L};
    for (;;) {
        nanosleep(&t, NULL);
        if (kt_term) {
            kt_write();
            _exit(124);
        }
        cuptiActivityFlushAll(0);
    }
    return NULL;
}

/* Opens $GM_KTIME_SEQ and starts the flusher, when the variable is set. */
static void kt_seq_start(void)
{
    const char *path = getenv("GM_KTIME_SEQ");
    pthread_t th;
    if (!path || !*path)
        return;
    if (!(kt_seq = fopen(path, "w"))) {
        fprintf(stderr, "gm-ktime: cannot write %s; no per-launch times\n", path);
        return;
    }
    if (pthread_create(&th, NULL, kt_flusher, NULL) != 0)
        return;
    pthread_detach(th);
    struct sigaction sa = {.sa_handler = kt_on_term};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
}

int InitializeInjection(void)
{
    if (cuptiActivityRegisterCallbacks(kt_requested, kt_completed) != CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
        fprintf(stderr, "gm-ktime: CUPTI activity API unavailable; no kernel times\n");
        return 1;
    }
    kt_seq_start();
    atexit(kt_write);
    return 1;
}
