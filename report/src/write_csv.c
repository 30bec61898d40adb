/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CSV tables of a report, one file per table: kernels, lines, branches,
 * values, matrix, allocations, findings, launches, events. Columns: docs/reports.md.
 * Depends on the report headers and libc only.
 */
#include "gm_csv.h"
#include "derived.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

typedef void (*table_fn)(const struct gm_report *r, const struct gm_derived *d, FILE *f);

static void kernels(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    (void)r;
    gm_csv_header(f, "kernel,modid,launches,gpu_ns,mem_warps,sectors,ideal_sectors,"
                     "excess_sectors,wavefronts,ideal_wavefronts,branch_execs,divergent");
    for (long i = 0; i < d->nkernels; i++) {
        const struct gm_kernel_stat *k = &d->kernels[i];
        char mod[24];
        snprintf(mod, sizeof mod, "%016llx", (unsigned long long)k->k->modid);
        gm_csv_str(f, k->k->name, 0);
        gm_csv_str(f, mod, 0);
        gm_csv_u64(f, k->k->launches, 0);
        gm_csv_i64(f, k->k->gpu_ns, 0);
        if (!k->instrumented) {         /* counters unknown, not zero */
            fputs(",,,,,,,\n", f);
            continue;
        }
        gm_csv_u64(f, k->mem_warps, 0);
        gm_csv_u64(f, k->sectors, 0);
        gm_csv_u64(f, k->ideal_sectors, 0);
        gm_csv_u64(f, k->excess_sectors, 0);
        gm_csv_u64(f, k->wavefronts, 0);
        gm_csv_u64(f, k->ideal_wavefronts, 0);
        gm_csv_u64(f, k->br_execs, 0);
        gm_csv_u64(f, k->br_divergent, 1);
    }
}

static void lines(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    (void)r;
    gm_csv_header(f, "file,line,kernel,kernels,warps,threads,sectors,lines,ideal_sectors,"
                     "excess_sectors,wavefronts,ideal_wavefronts,excess_wavefronts");
    for (long i = 0; i < d->nlines; i++) {
        const struct gm_line_stat *l = &d->lines[i];
        gm_csv_str(f, l->file, 0);
        gm_csv_u64(f, l->line, 0);
        gm_csv_str(f, l->kernel, 0);
        gm_csv_u64(f, l->nkernels, 0);
        gm_csv_u64(f, l->warps, 0);
        gm_csv_u64(f, l->threads, 0);
        gm_csv_u64(f, l->sectors, 0);
        gm_csv_u64(f, l->lines, 0);
        gm_csv_u64(f, l->ideal_sectors, 0);
        gm_csv_u64(f, l->excess_sectors, 0);
        gm_csv_u64(f, l->wavefronts, 0);
        gm_csv_u64(f, l->ideal_wavefronts, 0);
        gm_csv_u64(f, l->excess_wavefronts, 1);
    }
}

static void branches(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    (void)r;
    gm_csv_header(f, "file,line,column,function,modid,site,execs,threads,taken,not_taken,"
                     "divergent,divergent_share");
    for (long i = 0; i < d->nbranches; i++) {
        const struct gm_branch_stat *b = &d->branches[i];
        char mod[24];
        snprintf(mod, sizeof mod, "%016llx", (unsigned long long)b->m->modid);
        gm_csv_str(f, b->s->file, 0);
        gm_csv_u64(f, b->s->line, 0);
        gm_csv_u64(f, b->s->column, 0);
        gm_csv_str(f, b->s->func, 0);
        gm_csv_str(f, mod, 0);
        gm_csv_u64(f, b->site, 0);
        gm_csv_u64(f, b->execs, 0);
        gm_csv_u64(f, b->threads, 0);
        gm_csv_u64(f, b->taken, 0);
        gm_csv_u64(f, b->not_taken, 0);
        gm_csv_u64(f, b->divergent, 0);
        gm_csv_dbl(f, b->execs ? (double)b->divergent / (double)b->execs : 0, 1);
    }
}

static void values(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    (void)r;
    gm_csv_header(f, "file,line,column,function,modid,site,warps,uniform,uniform_share,"
                     "width_bits,const_one_mask,const_zero_mask,varying_bits");
    for (long i = 0; i < d->nvalues; i++) {
        const struct gm_value_stat *v = &d->values[i];
        char mod[24], one[24] = "", zero[24] = "";
        snprintf(mod, sizeof mod, "%016llx", (unsigned long long)v->m->modid);
        if (v->have_bits) {
            snprintf(one, sizeof one, "0x%llx", (unsigned long long)v->const_one);
            snprintf(zero, sizeof zero, "0x%llx", (unsigned long long)v->const_zero);
        }
        gm_csv_str(f, v->s->file, 0);
        gm_csv_u64(f, v->s->line, 0);
        gm_csv_u64(f, v->s->column, 0);
        gm_csv_str(f, v->s->func, 0);
        gm_csv_str(f, mod, 0);
        gm_csv_u64(f, v->site, 0);
        gm_csv_u64(f, v->warps, 0);
        gm_csv_u64(f, v->uniform, 0);
        gm_csv_dbl(f, v->warps ? (double)v->uniform / (double)v->warps : 0, 0);
        gm_csv_u64(f, v->width_bits, 0);
        gm_csv_str(f, one, 0);
        gm_csv_str(f, zero, 0);
        if (v->have_bits)
            gm_csv_u64(f, v->narrow_bits, 1);
        else
            gm_csv_str(f, "", 1);
    }
}

static void allocations(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    (void)d;
    gm_csv_header(f, "id,label,api,device,dev_ptr,size,alloc_site,free_site,freed,alloc_seq,"
                     "free_seq,granularity,reads,writes,sectors,touched_share,untouched_bytes,"
                     "largest_untouched_bytes,fragmentation,launches");
    for (size_t i = 0; i < r->nallocs; i++) {
        const struct gm_report_alloc *a = &r->allocs[i];
        struct gm_alloc_metrics m;
        gm_alloc_metrics(a, &m);
        char s1[512], s2[512], ptr[24];
        snprintf(ptr, sizeof ptr, "0x%llx", (unsigned long long)a->dev_ptr);
        gm_csv_u64(f, a->id, 0);
        gm_csv_str(f, a->label, 0);
        gm_csv_str(f, a->api, 0);
        gm_csv_i64(f, a->device, 0);
        gm_csv_str(f, ptr, 0);
        gm_csv_u64(f, a->size, 0);
        gm_csv_str(f, gm_hostsite_str(&a->alloc_site, s1, sizeof s1), 0);
        gm_csv_str(f, a->free_site.file ? gm_hostsite_str(&a->free_site, s2, sizeof s2) : "", 0);
        gm_csv_u64(f, (uint64_t)(a->freed || a->free_seq), 0);
        gm_csv_u64(f, a->alloc_seq, 0);
        gm_csv_u64(f, a->free_seq, 0);
        if (m.measured) {
            gm_csv_u64(f, a->granularity, 0);
            gm_csv_u64(f, a->reads, 0);
            gm_csv_u64(f, a->writes, 0);
            gm_csv_u64(f, a->sectors, 0);
            gm_csv_dbl(f, m.touched_share, 0);
            gm_csv_u64(f, m.untouched_bytes, 0);
            gm_csv_u64(f, m.largest_untouched_bytes, 0);
            gm_csv_dbl(f, m.fragmentation, 0);
        } else {
            fputs(",,,,,,,,", f);
        }
        gm_csv_u64(f, a->nlaunches, 1);
    }
}

static void matrix(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    uint64_t m[1024];
    gm_csv_header(f, "kernel,threads,sectors,warps");
    for (long i = 0; i < d->nkernels; i++) {
        if (!gm_kernel_matrix(r, d->kernels[i].k, m))
            continue;
        for (int c = 0; c < 1024; c++) {
            if (!m[c])
                continue;
            gm_csv_str(f, d->kernels[i].k->name, 0);
            gm_csv_u64(f, (uint64_t)c / 32 + 1, 0);
            gm_csv_u64(f, (uint64_t)c % 32 + 1, 0);
            gm_csv_u64(f, m[c], 1);
        }
    }
}

static void findings(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    (void)r;
    gm_csv_header(f, "rank,pattern,alloc,other_alloc,bytes,seq_from,seq_to,gap,site1,site2,"
                     "what,suggestion");
    for (size_t i = 0; i < d->findings.n; i++) {
        const struct gm_finding *x = &d->findings.v[i];
        char s1[512], s2[512];
        gm_csv_u64(f, i + 1, 0);
        gm_csv_str(f, gm_pattern_name(x->pattern), 0);
        gm_csv_u64(f, x->alloc, 0);
        gm_csv_u64(f, x->other, 0);
        gm_csv_u64(f, x->bytes, 0);
        gm_csv_u64(f, x->seq_from, 0);
        gm_csv_u64(f, x->seq_to, 0);
        gm_csv_u64(f, x->gap, 0);
        gm_csv_str(f, x->site1 ? gm_hostsite_str(x->site1, s1, sizeof s1) : "", 0);
        gm_csv_str(f, x->site2 ? gm_hostsite_str(x->site2, s2, sizeof s2) : "", 0);
        gm_csv_str(f, x->what, 0);
        gm_csv_str(f, x->suggestion, 1);
    }
}

static void launches(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    (void)d;
    gm_csv_header(f, "seq,kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,shmem,stream,"
                     "device,api,site,time_ns,gpu_ns");
    for (size_t i = 0; i < r->nlaunches; i++) {
        const struct gm_report_launch *l = &r->launches[i];
        gm_csv_u64(f, l->seq, 0);
        gm_csv_str(f, r->kernels[l->kernel].name, 0);
        for (int k = 0; k < 3; k++)
            gm_csv_u64(f, l->grid[k], 0);
        for (int k = 0; k < 3; k++)
            gm_csv_u64(f, l->block[k], 0);
        gm_csv_u64(f, l->shmem, 0);
        gm_csv_hex(f, l->stream, 0);
        gm_csv_i64(f, l->device, 0);
        gm_csv_str(f, l->api, 0);
        gm_csv_site(f, &l->site, 0);
        gm_csv_i64(f, l->time_ns, 0);
        gm_csv_i64(f, l->gpu_ns, 1);
    }
}

/* The uses column, "ID:HOW ID:HOW ..." (never needs CSV quoting), and the
 * end of the row. */
static void uses_last(const struct gm_report_event *e, FILE *f)
{
    for (size_t i = 0; i < e->nuses; i++) {
        uint32_t h = e->uses[i].how;
        const char *how = (h & GM_USE_UNKNOWN) ? "?" : (h & GM_USE_READ) && (h & GM_USE_WRITE) ? "rw"
                          : (h & GM_USE_WRITE) ? "w" : (h & GM_USE_READ) ? "r" : "-";
        if (i)
            putc(' ', f);
        char b[24], *p = b + sizeof b;
        uint64_t v = e->uses[i].alloc;
        do
            *--p = (char)('0' + v % 10);
        while (v /= 10);
        fwrite(p, 1, (size_t)(b + sizeof b - p), f);
        putc(':', f);
        fputs(how, f);
    }
    putc('\n', f);
}

static void events(const struct gm_report *r, const struct gm_derived *d, FILE *f)
{
    (void)d;
    gm_csv_header(f, "seq,time_ns,op,bytes,dir,stream,device,kernel,site,uses");
    for (size_t i = 0; i < r->nevents; i++) {
        const struct gm_report_event *e = &r->events[i];
        gm_csv_u64(f, e->seq, 0);
        gm_csv_i64(f, e->time_ns, 0);
        gm_csv_str(f, gm_report_op_name(e->op), 0);
        gm_csv_u64(f, e->bytes, 0);
        gm_csv_str(f, gm_report_dir_name(e->dir), 0);
        gm_csv_hex(f, e->stream, 0);
        gm_csv_i64(f, e->device, 0);
        gm_csv_str(f, e->launch >= 0 && (size_t)e->launch < r->nlaunches
                          ? r->kernels[r->launches[e->launch].kernel].name : "", 0);
        gm_csv_site(f, &e->site, 0);
        uses_last(e, f);
    }
}

int gm_csv_write(const struct gm_report *r, const struct gm_derived *d, const char *dir,
                 struct gm_outfiles *out)
{
    static const struct { const char *name; table_fn fn; } tables[] = {
        {"kernels.csv", kernels}, {"lines.csv", lines}, {"branches.csv", branches},
        {"values.csv", values}, {"matrix.csv", matrix}, {"allocations.csv", allocations},
        {"findings.csv", findings},
        {"launches.csv", launches}, {"events.csv", events},
    };
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        FILE *f = gm_outfiles_open(out, dir, tables[i].name);
        if (!f)
            return -1;
        tables[i].fn(r, d, f);
        if (gm_outfiles_close(out, f, 0))
            return -1;
    }
    return 0;
}

int gm_report_write_csv(const struct gm_report *r, const struct gm_write_opts *o,
                        const char *dir, char *err, size_t errlen)
{
    struct gm_derived d;
    struct gm_outfiles out;
    if (gm_derive(r, o, &d)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    gm_outfiles_init(&out, err, errlen);
    int rc = gm_csv_write(r, &d, dir, &out) || gm_outfiles_commit(&out) ? -1 : 0;
    gm_outfiles_abort(&out);
    gm_derived_free(&d);
    return rc;
}
