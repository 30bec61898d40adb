/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HTML report's source view (as Nsight Compute's source page): every
 * source file the report has a line of (memory sites, branches, value
 * sites, host call sites of allocations and findings, traced sites), its
 * text read at report time when the file is found (bounded: html.h), each
 * line with its metrics, the worst lines shaded. Every table row of the
 * page links here by the anchors this file names ("L<file>-<line>").
 * Depends on the report headers and libc only.
 */
#include "html.h"
#include "grow.h"
#include "svg.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct sline {
    uint32_t line;
    uint64_t req, sectors, excess, xwf;     /* coalescing: warps, sectors, excess, bank conflicts */
    uint64_t br, div;                       /* divergence: executions, divergent ones */
    uint64_t vw, uni;                       /* values: warps, uniform ones */
    int traced;                             /* a traced operation's site */
    uint64_t treq, tsec, texcess, txwf;     /* from the trace's sampled launches */
    char *host;                             /* the first host calls here ("; "-joined) */
    uint64_t nhost;                         /* host calls here */
};

/* Host calls named per line (the count says how many more there are). */
#define NOTES 3

/* One piece of data about a line, before they are merged per line. */
struct contrib { const char *file; size_t seq; struct sline l; };
struct coll { size_t n, cap; struct contrib *v; };

struct sfile {
    const char *path;
    size_t n, cap;
    struct sline *v;
    uint64_t waste;                         /* excess sectors + bank conflicts */
    char *text;                             /* NULL: why says why */
    size_t len;
    const char *why;
    char *found;                            /* the path the text came from */
};

struct gm_srcview {
    const struct gm_report *r;
    size_t n, cap;
    struct sfile *f;
    struct pathix { const char *path; size_t i; } *by_path; /* files sorted by path */
    size_t text_bytes;
    uint64_t max_excess, max_xwf;
};

static uint64_t over(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* A line's excess sectors and bank conflicts as shown: the report's, or
 * the trace's when the report has no memory counters for the line. */
static uint64_t shown_waste(const struct sline *l, uint64_t *ex, uint64_t *xw)
{
    int trace = !l->req && !l->excess && !l->xwf;
    *ex = trace ? l->texcess : l->excess;
    *xw = trace ? l->txwf : l->xwf;
    return *ex + *xw;
}

/* A new piece of data about file:line, or NULL (no location, or out of
 * memory: the line is left out). */
static struct sline *push(struct coll *c, const char *file, uint32_t line)
{
    if (!file || !*file || !line)
        return NULL;
    struct contrib *x = GM_GROW(c->v, c->n, c->cap);
    if (!x)
        return NULL;
    x->file = file;
    x->seq = c->n++;
    x->l.line = line;
    return &x->l;
}

static void host_note(struct coll *c, const struct gm_report_hostsite *h, const char *what)
{
    struct sline *l = h ? push(c, h->file, h->line) : NULL;
    if (l) {
        l->host = gm_strf("%s", what);
        l->nhost = 1;
    }
}

static void device_lines(struct coll *v, const struct gm_derived *d)
{
    for (long i = 0; i < d->nlines; i++) {
        const struct gm_line_stat *s = &d->lines[i];
        struct sline *l = push(v, s->file, s->line);
        if (!l)
            continue;
        l->req += s->warps;
        l->sectors += s->sectors;
        l->excess += s->excess_sectors;
        l->xwf += s->excess_wavefronts;
    }
    for (long i = 0; i < d->nbranches; i++) {
        struct sline *l = push(v, d->branches[i].s->file, d->branches[i].s->line);
        if (l) {
            l->br += d->branches[i].execs;
            l->div += d->branches[i].divergent;
        }
    }
    for (long i = 0; i < d->nvalues; i++) {
        struct sline *l = push(v, d->values[i].s->file, d->values[i].s->line);
        if (l) {
            l->vw += d->values[i].warps;
            l->uni += d->values[i].uniform;
        }
    }
}

static void host_lines(struct coll *v, const struct gm_report *r, const struct gm_derived *d)
{
    char name[160], what[400], b[32];
    for (size_t i = 0; i < r->nallocs; i++) {
        const struct gm_report_alloc *a = &r->allocs[i];
        snprintf(what, sizeof what, "%s %s, %s", gm_name_or(a->api, "alloc"),
                 gm_alloc_label(a, name, sizeof name), gm_fmt_bytes(a->size, b, sizeof b));
        host_note(v, &a->alloc_site, what);
        if (a->freed) {
            snprintf(what, sizeof what, "free %s", gm_alloc_label(a, name, sizeof name));
            host_note(v, &a->free_site, what);
        }
    }
    for (size_t i = 0; i < d->findings.n; i++) {
        const struct gm_finding *x = &d->findings.v[i];
        snprintf(what, sizeof what, "finding %zu: %s", i + 1, gm_pattern_name(x->pattern));
        host_note(v, x->site1, what);
        if (x->site2 && !gm_hostsite_same(x->site1 ? x->site1 : x->site2, x->site2))
            host_note(v, x->site2, what);
    }
}

static void traced_lines(struct coll *v, const struct gm_drill *dr)
{
    for (size_t m = 0; dr && m < dr->nmodules; m++)
        for (size_t s = 0; s < dr->modules[m].nsites; s++) {
            const struct gm_drill_site *t = &dr->modules[m].sites[s];
            struct sline *l = t->ops ? push(v, t->file, t->line) : NULL;
            if (!l)
                continue;
            l->traced = 1;
            l->treq += t->requests;
            l->tsec += t->sectors;
            l->texcess += over(t->sectors, t->ideal_sectors);
            l->txwf += over(t->wavefronts, t->ideal_wavefronts);
        }
}

static int cmp_contrib(const void *pa, const void *pb)
{
    const struct contrib *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->l.line != b->l.line)
        return a->l.line < b->l.line ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Adds s into d; s's note is taken over or freed. */
static void merge_line(struct sline *d, struct sline *s)
{
    d->req += s->req, d->sectors += s->sectors, d->excess += s->excess, d->xwf += s->xwf;
    d->br += s->br, d->div += s->div, d->vw += s->vw, d->uni += s->uni;
    d->treq += s->treq, d->tsec += s->tsec, d->texcess += s->texcess, d->txwf += s->txwf;
    d->traced |= s->traced;
    if (s->host && d->nhost < NOTES) {
        char *j = d->host ? gm_strf("%s; %s", d->host, s->host) : s->host;
        if (j && j != s->host) {
            free(d->host);
            free(s->host);
        }
        d->host = j ? j : d->host;
    } else {
        free(s->host);
    }
    s->host = NULL;
    d->nhost += s->nhost;
}

/* The pieces, sorted by file and line, merged into files of lines. */
static int merge(struct gm_srcview *v, struct coll *c)
{
    if (c->n)
        qsort(c->v, c->n, sizeof *c->v, cmp_contrib);
    struct sfile *f = NULL;
    int rc = 0;
    for (size_t i = 0; i < c->n; i++) {
        struct contrib *x = &c->v[i];
        if (!f || strcmp(f->path, x->file)) {
            f = GM_GROW(v->f, v->n, v->cap);
            if (!f) {
                rc = -1;
                break;
            }
            v->n++;
            f->path = x->file;
        }
        if (f->n && f->v[f->n - 1].line == x->l.line) {
            merge_line(&f->v[f->n - 1], &x->l);
            continue;
        }
        struct sline *l = GM_GROW(f->v, f->n, f->cap);
        if (!l) {
            rc = -1;
            break;
        }
        *l = x->l;
        x->l.host = NULL;
        f->n++;
    }
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i].l.host);
    free(c->v);
    return rc;
}

static int cmp_by_path(const void *a, const void *b)
{
    return strcmp(((const struct pathix *)a)->path, ((const struct pathix *)b)->path);
}

static int cmp_file(const void *a, const void *b)
{
    const struct sfile *x = a, *y = b;
    if (x->waste != y->waste)
        return x->waste < y->waste ? 1 : -1;
    return strcmp(x->path, y->path);
}

/* A regular file opened for reading, or NULL (never waits on a FIFO or a
 * device: opened non-blocking, checked before it is read). */
static FILE *open_regular(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    FILE *f = fstat(fd, &st) || !S_ISREG(st.st_mode) ? NULL : fdopen(fd, "rb");
    if (!f)
        close(fd);
    return f;
}

/* Opens path, else DIR/path (relative paths) or DIR/basename for each
 * directory of the comma-separated dirs; the name used goes to buf. */
static FILE *open_source(const char *path, const char *dirs, char *buf, size_t len)
{
    snprintf(buf, len, "%s", path);
    FILE *f = open_regular(buf);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    for (const char *p = dirs; !f && p && *p;) {
        size_t n = strcspn(p, ",");
        if (n && path[0] != '/') {
            snprintf(buf, len, "%.*s/%s", (int)n, p, path);
            f = open_regular(buf);
        }
        if (n && !f) {
            snprintf(buf, len, "%.*s/%s", (int)n, p, base);
            f = open_regular(buf);
        }
        p += n + (p[n] == ',');
    }
    return f;
}

static void read_text(struct gm_srcview *v, struct sfile *sf, size_t *nfiles, const char *dirs)
{
    char path[4096];
    struct stat st;
    FILE *f = open_source(sf->path, dirs, path, sizeof path);
    if (!f) {
        sf->why = "source not found";
        return;
    }
    if (fstat(fileno(f), &st))
        sf->why = "source not found";
    else if ((uint64_t)st.st_size > GM_SRC_FILE_MAX)
        sf->why = "source not embedded (larger than 1 MiB)";
    else if (*nfiles >= GM_SRC_FILES_MAX || v->text_bytes + (size_t)st.st_size > GM_SRC_TOTAL_MAX)
        sf->why = "source not embedded (the page's 4 MiB of source text is used up)";
    else if ((sf->text = malloc((size_t)st.st_size + 1))) {
        sf->len = fread(sf->text, 1, (size_t)st.st_size, f);
        sf->text[sf->len] = 0;
        if (memchr(sf->text, 0, sf->len)) {
            free(sf->text);
            sf->text = NULL;
            sf->why = "source not embedded (not a text file)";
        } else {
            v->text_bytes += sf->len;
            ++*nfiles;
            sf->found = gm_strf("%s", path);
        }
    }
    fclose(f);
}

struct gm_srcview *gm_srcview_build(const struct gm_report *r, const struct gm_derived *d)
{
    struct gm_srcview *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->r = r;
    struct coll c = {0};
    device_lines(&c, d);
    host_lines(&c, r, d);
    traced_lines(&c, d->drill);
    if (merge(v, &c)) {
        gm_srcview_free(v);
        return NULL;
    }
    for (size_t i = 0; i < v->n; i++) {
        struct sfile *f = &v->f[i];
        for (size_t k = 0; k < f->n; k++) {
            uint64_t ex, xw;
            f->waste += shown_waste(&f->v[k], &ex, &xw);
            v->max_excess = ex > v->max_excess ? ex : v->max_excess;
            v->max_xwf = xw > v->max_xwf ? xw : v->max_xwf;
        }
    }
    if (v->n)
        qsort(v->f, v->n, sizeof *v->f, cmp_file);
    if (!(v->by_path = malloc((v->n + 1) * sizeof *v->by_path))) {
        gm_srcview_free(v);
        return NULL;
    }
    for (size_t i = 0; i < v->n; i++)
        v->by_path[i] = (struct pathix){v->f[i].path, i};
    if (v->n)
        qsort(v->by_path, v->n, sizeof *v->by_path, cmp_by_path);
    size_t nfiles = 0;
    for (size_t i = 0; i < v->n; i++)
        read_text(v, &v->f[i], &nfiles, d->source_dirs);
    return v;
}

void gm_srcview_free(struct gm_srcview *v)
{
    for (size_t i = 0; v && i < v->n; i++) {
        for (size_t k = 0; k < v->f[i].n; k++)
            free(v->f[i].v[k].host);
        free(v->f[i].v);
        free(v->f[i].text);
        free(v->f[i].found);
    }
    if (v) {
        free(v->f);
        free(v->by_path);
    }
    free(v);
}

const char *gm_srcview_anchor(const struct gm_srcview *v, const char *file, uint32_t line,
                              char *buf, size_t len)
{
    size_t lo = 0, hi = v && file && line ? v->n : 0;
    while (lo < hi) {   /* binary search of by_path */
        size_t mid = lo + (hi - lo) / 2, i = v->by_path[mid].i;
        int c = strcmp(v->by_path[mid].path, file);
        if (!c) {
            snprintf(buf, len, "L%zu-%" PRIu32, i, line);
            return buf;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* "file:line", a link when the line is in the view. */
static void loc_link(FILE *f, const struct gm_srcview *v, const char *file, uint32_t line)
{
    char loc[4200], a[48];
    snprintf(loc, sizeof loc, "%s:%" PRIu32, file && *file ? file : "?", line);
    const char *id = gm_srcview_anchor(v, file, line, a, sizeof a);
    if (id)
        fprintf(f, "<a href=\"#%s\">", id);
    gm_html_esc(f, loc);
    if (id)
        fputs("</a>", f);
}

void gm_html_loc_cell(FILE *f, const struct gm_srcview *v, const char *file, uint32_t line)
{
    fputs("<td>", f);
    loc_link(f, v, file, line);
    fputs("</td>", f);
}

static uint64_t slot(const uint64_t *row, int i) { return i >= 0 ? row[i] : 0; }

/* The kernel's site with the most excess sectors + bank conflicts (else
 * the most memory warps), or NULL. */
static const struct gm_report_site *worst_site(const struct gm_report *r,
                                               const struct gm_report_kernel *k)
{
    const struct gm_report_module *m = gm_report_find_module(r, k->modid);
    const struct gm_report_counter_set *def = gm_report_find_set(m, "coalescing");
    const struct gm_report_kcounters *c = gm_report_kernel_set(k, "coalescing");
    if (!def || !c || c->nslots != def->nslots)
        return NULL;
    int iw = gm_report_slot_index(def, "warps"), is = gm_report_slot_index(def, "sectors");
    int ii = gm_report_slot_index(def, "ideal_sectors");
    int iv = gm_report_slot_index(def, "wavefronts");
    int iiv = gm_report_slot_index(def, "ideal_wavefronts");
    const struct gm_report_site *best = NULL;
    uint64_t bw = 0, bn = 0;
    for (uint32_t s = 0; s < c->nsites && s < m->nsites; s++) {
        const uint64_t *row = &c->v[(size_t)s * c->nslots];
        uint64_t w = over(slot(row, is), slot(row, ii)) + over(slot(row, iv), slot(row, iiv));
        uint64_t n = slot(row, iw);
        if (n && (!best || w > bw || (w == bw && n > bn))) {
            best = &m->sites[s];
            bw = w;
            bn = n;
        }
    }
    return best;
}

void gm_html_kernel_cells(FILE *f, const struct gm_derived *d, const struct gm_report_kernel *k)
{
    const struct gm_report_site *s = d->src ? worst_site(d->src->r, k) : NULL;
    fputs("<td>", f);
    if (s)
        loc_link(f, d->src, s->file, s->line);
    int li = gm_drill_kernel_launch(d->drill, k->name);
    if (li >= 0)
        fprintf(f, "%s<a href=\"#drill:l=%d\">drill-down</a>", s ? " " : "", li);
    fputs("</td>", f);
}

/* A numeric cell shaded by v / max (the worst lines stand out). */
static void heat(FILE *f, uint64_t v, uint64_t max, int rgb)
{
    if (!v) {
        fputs("<td></td>", f);
        return;
    }
    double a = max ? 0.08 + 0.72 * (double)v / (double)max : 0;
    fprintf(f, "<td class=\"n\" style=\"background:rgba(%d,%d,%d,%.2f)\">%" PRIu64 "</td>",
            rgb >> 16, rgb >> 8 & 255, rgb & 255, a, v);
}

static void share(FILE *f, uint64_t part, uint64_t whole, const char *title)
{
    if (!whole) {
        fputs("<td></td>", f);
        return;
    }
    fprintf(f, "<td class=\"n\" title=\"%" PRIu64 " of %" PRIu64 " %s\">%.1f%%</td>", part,
            whole, title, 100.0 * (double)part / (double)whole);
}

static void metrics(FILE *f, const struct gm_srcview *v, const struct sline *in)
{
    struct sline t = *in, *l = &t;
    int from_trace = !l->req && !l->excess && !l->xwf && (l->treq || l->txwf || l->tsec);
    if (from_trace) {
        l->req = l->treq;
        l->sectors = l->tsec;
        l->excess = l->texcess;
        l->xwf = l->txwf;
    }
    if (l->req)
        fprintf(f, "<td class=\"n\">%" PRIu64 "</td>", l->req);
    else
        fputs("<td></td>", f);
    if (l->req && l->sectors)
        fprintf(f, "<td class=\"n\">%.2f</td>", (double)l->sectors / (double)l->req);
    else
        fputs("<td></td>", f);
    heat(f, l->excess, v->max_excess, 0xdc322f);
    heat(f, l->xwf, v->max_xwf, 0x6c71c4);
    share(f, l->div, l->br, "branch executions divergent");
    share(f, l->uni, l->vw, "warp executions with one value");
    fputs("<td class=\"h\">", f);
    if (l->traced)
        fputs(from_trace ? "<span class=\"tr\" title=\"numbers from the trace's sampled "
                           "launches\">from the trace</span> "
                         : "<span class=\"tr\">traced</span> ", f);
    gm_html_esc(f, l->host);
    if (l->nhost > NOTES)
        fprintf(f, " and %" PRIu64 " more", l->nhost - NOTES);
    fputs("</td>", f);
}

static const char COLS[] =
    "<tr><th>line</th><th title=\"warp executions of the line's memory operations\">requests"
    "</th><th title=\"unique 32 B sectors per request\">sectors/req</th><th title=\"sectors - "
    "ideal sectors\">excess sectors</th><th title=\"wavefronts - ideal wavefronts (shared "
    "memory)\">bank conflicts</th><th title=\"divergent branch executions\">divergent</th>"
    "<th title=\"warp executions where every lane had the same value\">scalar</th>"
    "<th>host calls, trace</th><th class=\"c\">source</th></tr>\n";

/* n bytes of s, escaped as gm_html_esc does. */
static void esc_n(FILE *f, const char *s, size_t n)
{
    char buf[512];
    while (n) {
        size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
        memcpy(buf, s, k);
        buf[k] = 0;
        gm_html_esc(f, buf);
        s += k;
        n -= k;
    }
}

static void file_rows(FILE *f, const struct gm_srcview *v, size_t id, const struct sfile *sf)
{
    size_t k = 0;
    uint32_t ln = 1;
    for (const char *p = sf->text; p && *p; ln++) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        fprintf(f, "<tr id=\"L%zu-%" PRIu32 "\"><td class=\"ln\">%" PRIu32 "</td>", id, ln, ln);
        if (k < sf->n && sf->v[k].line == ln)
            metrics(f, v, &sf->v[k++]);
        else
            fputs("<td colspan=\"7\"></td>", f);
        fputs("<td class=\"c\">", f);
        esc_n(f, p, n && p[n - 1] == '\r' ? n - 1 : n);
        fputs("</td></tr>\n", f);
        p = e ? e + 1 : p + n;
    }
    /* lines beyond the text (or all of them when it was not read) */
    for (; k < sf->n; k++) {
        if (sf->v[k].line < ln)
            continue;
        fprintf(f, "<tr id=\"L%zu-%" PRIu32 "\"><td class=\"ln\">%" PRIu32 "</td>", id,
                sf->v[k].line, sf->v[k].line);
        metrics(f, v, &sf->v[k]);
        fputs("<td class=\"c\"></td></tr>\n", f);
    }
}

/* The top lines by excess sectors + bank conflicts, with links. */
static void worst(FILE *f, const struct gm_srcview *v)
{
    const struct sline *best[10] = {0};
    size_t bf[10] = {0};
    uint64_t ex, xw;
    for (size_t i = 0; i < v->n; i++)
        for (size_t k = 0; k < v->f[i].n; k++) {
            const struct sline *l = &v->f[i].v[k];
            uint64_t w = shown_waste(l, &ex, &xw);
            for (int j = 0; w && j < 10; j++)
                if (!best[j] || w > shown_waste(best[j], &ex, &xw)) {
                    memmove(best + j + 1, best + j, (9 - (size_t)j) * sizeof *best);
                    memmove(bf + j + 1, bf + j, (9 - (size_t)j) * sizeof *bf);
                    best[j] = l;
                    bf[j] = i;
                    break;
                }
        }
    if (!best[0])
        return;
    fputs("<h3>Worst lines (excess sectors + bank conflicts)</h3>\n<table id=\"worst\"><tr><th>"
          "file:line</th><th>excess sectors</th><th>bank conflicts</th></tr>\n", f);
    for (int j = 0; j < 10 && best[j]; j++) {
        fputs("<tr>", f);
        gm_html_loc_cell(f, v, v->f[bf[j]].path, best[j]->line);
        shown_waste(best[j], &ex, &xw);
        fprintf(f, "<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td></tr>\n",
                ex, xw);
    }
    fputs("</table>\n", f);
}

void gm_srcview_write(const struct gm_srcview *v, FILE *f)
{
    fputs("<section id=\"source\">\n<h2>Source</h2>\n", f);
    if (!v || !v->n) {
        fputs("<p>No source lines: the report has no sites with locations.</p>\n</section>\n", f);
        return;
    }
    fputs("<p class=\"s\">Each file the report names a line of, with that line's metrics "
          "summed over kernels; shading grows with the value (the worst lines are darkest). "
          "Source text is read when the report is written, at most 1 MiB per file and 4 MiB "
          "in all.</p>\n", f);
    worst(f, v);
    for (size_t i = 0; i < v->n; i++) {
        const struct sfile *sf = &v->f[i];
        fprintf(f, "<details class=\"srcf\" id=\"F%zu\"%s><summary>", i, i ? "" : " open");
        gm_html_esc(f, sf->path);
        fprintf(f, " <span class=\"s\">(%zu lines with data", sf->n);
        if (sf->waste)
            fprintf(f, ", %" PRIu64 " excess sectors + bank conflicts", sf->waste);
        fputs(")</span>", f);
        if (!sf->text) {
            fputs(" <span class=\"miss\">", f);
            gm_html_esc(f, sf->why);
            fputs("</span>", f);
        }
        fputs("</summary>\n<table class=\"src\">", f);
        fputs(COLS, f);
        file_rows(f, v, i, sf);
        fputs("</table></details>\n", f);
    }
    fputs("</section>\n", f);
}
