/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace sinks (see trace_sink.h): decode device slots into accesses, batch
 * them, and hand each batch to the file writer and to the online simulator.
 * The online report prints the simulator's raw counters, one line per
 * launch, per allocation and in total, in the key=value form of
 * gm_trace_print_counts. Pure C17 + libgmsim; no CUDA.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "trace_sink.h"

#define SINK_BATCH 4096u

static int sink_fail(struct gm_trace_sink *s, const char *what, const char *why)
{
    if (!s->failed) snprintf(s->err, sizeof s->err, "trace: %s: %s", what, why ? why : "failed");
    s->failed = 1;
    return -1;
}

static int open_sim(struct gm_trace_sink *s, const char *preset, char *err, size_t errlen)
{
    struct gm_sim_config c;
    const char *why = NULL;
    if (gm_sim_preset(&c, preset)) {
        snprintf(err, errlen, "trace: unknown simulator preset '%s'", preset);
        return -1;
    }
    if (!(s->sim = gm_sim_new(&c, &why))) {
        snprintf(err, errlen, "trace: simulator: %s", why ? why : "out of memory");
        return -1;
    }
    return 0;
}

static int open_out(struct gm_trace_sink *s, const char *out, char *err, size_t errlen)
{
    s->out = stderr;
    if (!out) return 0;
    if (!(s->out = fopen(out, "w"))) {
        snprintf(err, errlen, "trace: cannot write %s", out);
        return -1;
    }
    s->own_out = 1;
    return 0;
}

int gm_trace_sink_open(struct gm_trace_sink *s, const char *file, const char *preset,
                       const char *out, const struct gm_trace_gpu *gpu, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->cap = SINK_BATCH;
    if (!(s->buf = malloc(s->cap * sizeof *s->buf))) {
        snprintf(err, errlen, "trace: out of memory");
        return -1;
    }
    if ((preset && (open_sim(s, preset, err, errlen) || open_out(s, out, err, errlen))) ||
        (file && !(s->w = gm_trace_writer_open(file, gpu, err, errlen)))) {
        gm_trace_sink_close(s, NULL, 0);
        return -1;
    }
    return 0;
}

int gm_trace_sink_module(struct gm_trace_sink *s, uint64_t modid, const char *name,
                         uint32_t nsites, const struct gm_trace_site *sites)
{
    if (s->w && gm_trace_writer_module(s->w, modid, name, nsites, sites))
        return sink_fail(s, "writing the module", gm_trace_writer_error(s->w));
    if (s->sim && gm_sim_add_module(s->sim, s->nmodules, nsites))
        return sink_fail(s, "simulator module", NULL);
    s->nmodules++;
    return 0;
}

int gm_trace_sink_alloc(struct gm_trace_sink *s, const struct gm_trace_alloc *a)
{
    if (s->w && gm_trace_writer_alloc(s->w, a))
        return sink_fail(s, "writing an allocation", gm_trace_writer_error(s->w));
    if (s->sim && gm_sim_alloc(s->sim, a->base, a->size) < 0)
        return sink_fail(s, "simulator allocation", a->label);
    return 0;
}

int gm_trace_sink_free(struct gm_trace_sink *s, uint64_t base, uint64_t seq)
{
    if (s->w && gm_trace_writer_free(s->w, base, seq))
        return sink_fail(s, "writing a free", gm_trace_writer_error(s->w));
    if (s->sim) gm_sim_release(s->sim, base);
    return 0;
}

int gm_trace_sink_copy(struct gm_trace_sink *s, const struct gm_trace_copy *c)
{
    if (s->w && gm_trace_writer_copy(s->w, c))
        return sink_fail(s, "writing a copy", gm_trace_writer_error(s->w));
    if (s->sim) gm_sim_copy(s->sim, c);
    return 0;
}

int gm_trace_sink_launch(struct gm_trace_sink *s, const struct gm_trace_launch *l)
{
    s->cur = *l;
    s->n = 0;
    if (s->w && gm_trace_writer_launch(s->w, l))
        return sink_fail(s, "writing the launch", gm_trace_writer_error(s->w));
    const char *why = s->sim ? gm_sim_begin(s->sim, l->carveout) : NULL;
    if (why) {
        gm_sim_free(s->sim);    /* an impossible cache: stop simulating, say why once */
        s->sim = NULL;
        return sink_fail(s, "simulator launch", why);
    }
    return 0;
}

static int flush_batch(struct gm_trace_sink *s)
{
    if (!s->n) return 0;
    if (s->w && gm_trace_writer_records(s->w, s->buf, s->n))
        return sink_fail(s, "writing records", gm_trace_writer_error(s->w));
    if (s->sim) gm_sim_feed(s->sim, s->buf, s->n);
    s->n = 0;
    return 0;
}

int gm_trace_sink_record(void *ctx, const struct gm_trace_rec *rec, const struct gm_trace_ext *ext)
{
    struct gm_trace_sink *s = ctx;
    if (gm_trace_rec_decode(rec, ext, &s->buf[s->n]))
        return sink_fail(s, "decoding a record", "wide record without its continuation slot");
    s->records++;
    if (++s->n == s->cap) return flush_batch(s);
    return 0;
}

int gm_trace_sink_coded(struct gm_trace_sink *s, const void *sec, size_t len,
                        const struct gm_access *acc, size_t n)
{
    if (flush_batch(s)) return -1;      /* records given one by one come first */
    if (s->w && gm_trace_writer_coded(s->w, sec, len, n))
        return sink_fail(s, "writing records", gm_trace_writer_error(s->w));
    if (s->sim && acc) gm_sim_feed(s->sim, acc, n);
    s->records += n;
    return 0;
}

int gm_trace_sink_simulates(const struct gm_trace_sink *s) { return s->sim != NULL; }

int gm_trace_sink_error(struct gm_trace_sink *s, const char *what, const char *why)
{
    return sink_fail(s, what, why);
}

int gm_trace_sink_end_launch(struct gm_trace_sink *s, uint64_t nrecords, uint64_t dropped)
{
    struct gm_counts c = { 0 };
    int rc = flush_batch(s);
    s->cur.nrecords = nrecords;
    s->cur.dropped = dropped;
    s->launches++;
    s->dropped += dropped;
    if (s->w && gm_trace_writer_end_launch(s->w, dropped))
        rc = sink_fail(s, "ending the launch", gm_trace_writer_error(s->w));
    if (!s->sim) return rc;
    if (gm_sim_end(s->sim, &c) < 0) {
        /* the online simulation lost exactness (out of memory): stop it, say
         * so once; the trace file and the program carry on */
        fprintf(stderr, "gpumem: online cache simulation stopped: %s\n", gm_sim_error(s->sim));
        gm_sim_free(s->sim);
        s->sim = NULL;
        return rc;
    }
    gm_counts_add(&s->total, &c);
    char what[GM_TRACE_NAME_MAX * 4 + 64];
    snprintf(what, sizeof what, "launch %" PRIu64 " %s records=%" PRIu64 " dropped=%" PRIu64,
             s->cur.seq, s->cur.name, nrecords, dropped);
    gm_trace_print_counts(s->out, what, &c);
    return rc;
}

static void print_totals(struct gm_trace_sink *s)
{
    struct gm_counts flushed = { 0 };
    gm_sim_flush_l2(s->sim, &flushed);
    for (uint32_t id = 1; id <= gm_sim_nallocs(s->sim); id++) {
        char what[64];
        snprintf(what, sizeof what, "alloc %" PRIu32, id);
        gm_trace_print_counts(s->out, what, gm_sim_alloc_counts(s->sim, id));
    }
    gm_counts_add(&s->total, &flushed);
    gm_trace_print_counts(s->out, "total", &s->total);
}

int gm_trace_sink_close(struct gm_trace_sink *s, char *err, size_t errlen)
{
    int rc = s->failed ? -1 : 0;
    if (s->failed && err) snprintf(err, errlen, "%s", s->err);
    if (s->sim && s->out) print_totals(s);
    char werr[256] = "";
    if (s->w && gm_trace_writer_close(s->w, werr, sizeof werr)) {
        if (err && !rc) snprintf(err, errlen, "trace: closing the file: %s", werr);
        rc = -1;
    }
    if (s->sim) gm_sim_free(s->sim);
    if (s->own_out) fclose(s->out);
    free(s->buf);
    memset(s, 0, sizeof *s);
    return rc;
}

void gm_trace_print_counts(FILE *f, const char *what, const struct gm_counts *c)
{
    if (!f || !c) return;
    fprintf(f, "gpumem-trace: %s requests=%" PRIu64 " sectors=%" PRIu64 " l1_ld=%" PRIu64
               " l1_ld_hit=%" PRIu64 " l1_st=%" PRIu64 " l1_st_hit=%" PRIu64 " l2_rd=%" PRIu64
               " l2_rd_hit=%" PRIu64 " l2_wr=%" PRIu64 " l2_wr_hit=%" PRIu64 " l2_atom=%" PRIu64
               " l2_atom_hit=%" PRIu64 " dram_rd=%" PRIu64 " dram_wr=%" PRIu64 "\n",
            what, c->requests, c->sectors, c->l1_ld, c->l1_ld_hit, c->l1_st, c->l1_st_hit,
            c->l2_rd, c->l2_rd_hit, c->l2_wr, c->l2_wr_hit, c->l2_atom, c->l2_atom_hit,
            c->dram_rd, c->dram_wr);
}
