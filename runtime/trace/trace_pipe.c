/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ordered trace output (see trace_pipe.h). Items live in a ring of
 * GM_PIPE_DEPTH; workers claim chunks in push order, decode their slots
 * (gm_trace_rec_decode) and code them (gm_trace_coder_records), each with
 * its own coder; the writer applies items to the sink strictly in push
 * order, waiting for a chunk until it is coded. Pure C17 + pthreads +
 * libgmsim; no CUDA.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace_pipe.h"

static struct gm_pipe_item *at(struct gm_trace_pipe *p, uint64_t i)
{
    return &p->q[i % GM_PIPE_DEPTH];
}

/* The next chunk to code, or NULL (lock held). */
static struct gm_pipe_item *claim(struct gm_trace_pipe *p)
{
    if (p->next < p->head) p->next = p->head;     /* written items are done */
    while (p->next < p->tail && at(p, p->next)->kind != GM_PIPE_CHUNK) p->next++;
    if (p->next == p->tail) return NULL;
    struct gm_pipe_item *it = at(p, p->next++);
    it->state = 1;
    return it;
}

/* Decodes and codes one chunk (no lock held). */
static void code_chunk(struct gm_pipe_item *it, struct gm_trace_coder *c, struct gm_access *scratch,
                       int keep)
{
    struct gm_access *acc = keep ? malloc(it->u.chunk.nrecs * sizeof *acc) : scratch;
    const unsigned char *s = it->u.chunk.slots;
    uint32_t n = 0;
    it->err = acc ? NULL : "out of memory";
    for (uint32_t j = 0; acc && j < it->u.chunk.nslots && n < it->u.chunk.nrecs; n++) {
        const struct gm_trace_rec *r = (const void *)(s + (size_t)j * GM_TRACE_REC_SIZE);
        const struct gm_trace_ext *x = (r->flags & GM_TRACE_F_EXT) && j + 1 < it->u.chunk.nslots
                                           ? (const void *)(s + (size_t)(j + 1) * GM_TRACE_REC_SIZE) : NULL;
        if (gm_trace_rec_decode(r, x, &acc[n])) { it->err = "wide record without its continuation slot"; break; }
        j += x ? 2 : 1;
    }
    const void *sec = NULL;
    size_t len = 0;
    if (!it->err) it->err = gm_trace_coder_records(c, acc, n, &sec, &len);
    if (!it->err && !(it->sec = malloc(len))) it->err = "out of memory";
    if (!it->err) {
        memcpy(it->sec, sec, len);
        it->len = len;
        it->u.chunk.nrecs = n;
    }
    it->acc = keep && acc && !it->err ? acc : NULL;
    if (keep && acc && !it->acc) free(acc);
    if (it->u.chunk.release) it->u.chunk.release(it->u.chunk.arg);
}

struct worker_arg { struct gm_trace_pipe *p; int keep; };

static void *worker_main(void *arg)
{
    struct gm_trace_pipe *p = ((struct worker_arg *)arg)->p;
    int keep = ((struct worker_arg *)arg)->keep;
    free(arg);
    struct gm_trace_coder *c = gm_trace_coder_new();
    struct gm_access *scratch = malloc(GM_TRACE_BLOCK_RECORDS * sizeof *scratch);
    pthread_mutex_lock(&p->m);
    for (;;) {
        struct gm_pipe_item *it;
        while (!(it = claim(p)) && !p->quit) pthread_cond_wait(&p->work, &p->m);
        if (!it) break;
        pthread_mutex_unlock(&p->m);
        if (c && scratch) code_chunk(it, c, scratch, keep);
        else {
            it->err = "out of memory";
            if (it->u.chunk.release) it->u.chunk.release(it->u.chunk.arg);
        }
        pthread_mutex_lock(&p->m);
        it->state = 2;
        if (p->writer_waits && it == at(p, p->head)) pthread_cond_signal(&p->ready);
    }
    pthread_mutex_unlock(&p->m);
    gm_trace_coder_free(c);
    free(scratch);
    return NULL;
}

/* Hands one item to the sink and frees what it owns (writer thread). */
static void apply(struct gm_trace_sink *s, struct gm_pipe_item *it)
{
    switch (it->kind) {
    case GM_PIPE_MODULE:
        gm_trace_sink_module(s, it->u.module.modid, it->u.module.name, it->u.module.nsites,
                             it->u.module.sites);
        free(it->u.module.name);
        free(it->u.module.sites);
        break;
    case GM_PIPE_ALLOC: gm_trace_sink_alloc(s, &it->u.alloc); break;
    case GM_PIPE_FREE: gm_trace_sink_free(s, it->u.free.base, it->u.free.seq); break;
    case GM_PIPE_COPY: gm_trace_sink_copy(s, &it->u.copy); break;
    case GM_PIPE_LAUNCH: gm_trace_sink_launch(s, &it->u.launch); break;
    case GM_PIPE_END: gm_trace_sink_end_launch(s, it->u.end.nrecords, it->u.end.dropped); break;
    case GM_PIPE_CHUNK:
        if (it->err) gm_trace_sink_error(s, "coding records", it->err);
        else gm_trace_sink_coded(s, it->sec, it->len, it->acc, it->u.chunk.nrecs);
        free(it->sec);
        free(it->acc);
        break;
    }
}

static void *writer_main(void *arg)
{
    struct gm_trace_pipe *p = arg;
    pthread_mutex_lock(&p->m);
    for (;;) {
        while ((p->head == p->tail || at(p, p->head)->state != 2) && !(p->quit && p->head == p->tail)) {
            p->writer_waits = 1;
            pthread_cond_wait(&p->ready, &p->m);
            p->writer_waits = 0;
        }
        if (p->head == p->tail) break;
        struct gm_pipe_item it = *at(p, p->head);
        pthread_mutex_unlock(&p->m);
        apply(p->sink, &it);
        pthread_mutex_lock(&p->m);
        p->head++;
        pthread_cond_broadcast(&p->space);
    }
    pthread_mutex_unlock(&p->m);
    return NULL;
}

int gm_trace_pipe_default_workers(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN) - 2;
    return n < 1 ? 1 : n > GM_PIPE_MAX_WORKERS ? GM_PIPE_MAX_WORKERS : (int)n;
}

int gm_trace_pipe_start(struct gm_trace_pipe *p, struct gm_trace_sink *sink, int nworkers)
{
    memset(p, 0, sizeof *p);
    if (!(p->q = calloc(GM_PIPE_DEPTH, sizeof *p->q))) return -1;
    pthread_mutex_init(&p->m, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->ready, NULL);
    pthread_cond_init(&p->space, NULL);
    p->sink = sink;
    p->started = 1;
    if (pthread_create(&p->writer, NULL, writer_main, p)) {
        p->started = 0;
        return -1;
    }
    int keep = gm_trace_sink_simulates(sink);
    for (int i = 0; i < nworkers && i < GM_PIPE_MAX_WORKERS; i++) {
        struct worker_arg *a = malloc(sizeof *a);
        if (!a) break;
        *a = (struct worker_arg){ p, keep };
        if (pthread_create(&p->workers[p->nworkers], NULL, worker_main, a)) { free(a); break; }
        p->nworkers++;
    }
    if (p->nworkers == 0) {
        gm_trace_pipe_stop(p);
        return -1;
    }
    return 0;
}

void gm_trace_pipe_push(struct gm_trace_pipe *p, const struct gm_pipe_item *it)
{
    pthread_mutex_lock(&p->m);
    while (p->tail - p->head >= GM_PIPE_DEPTH) pthread_cond_wait(&p->space, &p->m);
    struct gm_pipe_item *q = at(p, p->tail++);
    *q = *it;
    q->state = it->kind == GM_PIPE_CHUNK ? 0 : 2;
    q->sec = NULL;
    q->acc = NULL;
    q->err = NULL;
    /* wake only who can go on: a worker for a chunk, the writer for a ready head */
    if (it->kind == GM_PIPE_CHUNK) pthread_cond_signal(&p->work);
    else if (p->writer_waits && q == at(p, p->head)) pthread_cond_signal(&p->ready);
    pthread_mutex_unlock(&p->m);
}

void gm_trace_pipe_flush(struct gm_trace_pipe *p)
{
    if (!p->started) return;
    pthread_mutex_lock(&p->m);
    uint64_t t = p->tail;
    while (p->head < t) pthread_cond_wait(&p->space, &p->m);
    pthread_mutex_unlock(&p->m);
}

void gm_trace_pipe_stop(struct gm_trace_pipe *p)
{
    if (!p->started) return;
    gm_trace_pipe_flush(p);
    pthread_mutex_lock(&p->m);
    p->quit = 1;
    pthread_cond_broadcast(&p->work);
    pthread_cond_broadcast(&p->ready);
    pthread_mutex_unlock(&p->m);
    pthread_join(p->writer, NULL);
    for (int i = 0; i < p->nworkers; i++) pthread_join(p->workers[i], NULL);
    pthread_mutex_destroy(&p->m);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->ready);
    pthread_cond_destroy(&p->space);
    free(p->q);
    p->q = NULL;
    p->started = 0;
}
