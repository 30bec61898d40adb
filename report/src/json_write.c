/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON writer of the report model (schema gpumem-report v1). Streams the
 * text as it walks the model, through its own buffer: writing takes no
 * memory beyond that buffer. The layout is the one reports have always had
 * (cJSON's formatted print: object members on their own lines, indented by
 * tabs, "key":<tab>value; arrays on one line, ", " between elements), so
 * files stay comparable across versions. Integers above 2^53 are written as
 * decimal strings (JSON readers may hold numbers in a double).
 * Depends on the report model and libc only.
 */
#include "gm_report_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_MAX 9007199254740992ull /* 2^53 */
#define BUF (64u << 10)
#define MAX_DEPTH 16

struct jw {
    FILE *f;
    int bad;                /* a write error */
    int depth;              /* open objects and arrays */
    size_t n[MAX_DEPTH];    /* values written in each */
    size_t len;
    char buf[BUF];
};

static void flush(struct jw *w)
{
    if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len)
        w->bad = 1;
    w->len = 0;
}

static inline void raw(struct jw *w, const char *s, size_t n)
{
    if (n > BUF - w->len) {
        flush(w);
        if (n > BUF) {
            w->bad |= fwrite(s, 1, n, w->f) != n;
            return;
        }
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}

static inline void ch(struct jw *w, char c)
{
    if (w->len == BUF)
        flush(w);
    w->buf[w->len++] = c;
}

static void tabs(struct jw *w, int n)
{
    while (n-- > 0)
        ch(w, '\t');
}

static void str(struct jw *w, const char *s)
{
    if (!s) {
        raw(w, "null", 4);
        return;
    }
    ch(w, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const unsigned char *q = p;
        while (*q > 31 && *q != '"' && *q != '\\')
            q++;
        raw(w, (const char *)p, (size_t)(q - p));
        if (!*q)
            break;
        char e[8] = {'\\', 0};
        switch (*q) {
        case '"': e[1] = '"'; break;
        case '\\': e[1] = '\\'; break;
        case '\b': e[1] = 'b'; break;
        case '\f': e[1] = 'f'; break;
        case '\n': e[1] = 'n'; break;
        case '\r': e[1] = 'r'; break;
        case '\t': e[1] = 't'; break;
        default: snprintf(e, sizeof e, "\\u%04x", *q);
        }
        raw(w, e, strlen(e));
        p = q + 1;
    }
    ch(w, '"');
}

static void dec(struct jw *w, uint64_t v, int neg, int quoted)
{
    char b[24], *p = b + sizeof b;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    if (neg)
        *--p = '-';
    if (quoted)
        ch(w, '"');
    raw(w, p, (size_t)(b + sizeof b - p));
    if (quoted)
        ch(w, '"');
}

static void u64(struct jw *w, uint64_t v) { dec(w, v, 0, v > EXACT_MAX); }

static void i64(struct jw *w, int64_t v)
{
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    dec(w, mag, v < 0, mag > EXACT_MAX);
}

static void hex64(struct jw *w, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char b[20] = "\"0x";
    for (int i = 0; i < 16; i++)
        b[3 + i] = digits[(v >> (60 - 4 * i)) & 15];
    b[19] = '"';
    raw(w, b, 20);
}

static void bitmap(struct jw *w, const uint64_t *bm, uint64_t units)
{
    if (!bm) {
        raw(w, "null", 4);
        return;
    }
    ch(w, '"');
    for (uint64_t i = 0; i < units / 64 + (units % 64 != 0); i++) {
        char b[17];
        snprintf(b, sizeof b, "%016llx", (unsigned long long)bm[i]);
        raw(w, b, 16);
    }
    ch(w, '"');
}

/* ---- structure: a value is written after key() in an object, after
 * elem() in an array ---------------------------------------------------- */

/* A member's name (a literal, which needs no escaping), with what goes
 * before it. */
static void key_(struct jw *w, const char *quoted, size_t n)
{
    static const char nl_tabs[MAX_DEPTH + 2] = ",\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
    int first = !w->n[w->depth]++;
    raw(w, nl_tabs + first, (size_t)(2 - first + w->depth));
    raw(w, quoted, n);
}
#define key(w, k) key_((w), "\"" k "\":\t", sizeof("\"" k "\":\t") - 1)

static void elem(struct jw *w)
{
    if (w->n[w->depth]++)
        raw(w, ", ", 2);
}

static void open_(struct jw *w, char c)
{
    ch(w, c);
    w->n[++w->depth] = 0;
}

static void close_obj(struct jw *w)
{
    ch(w, '\n');
    tabs(w, --w->depth);
    ch(w, '}');
}

static void close_arr(struct jw *w)
{
    w->depth--;
    ch(w, ']');
}

#define KU(w, k, v) (key(w, k), u64((w), (v)))
#define KI(w, k, v) (key(w, k), i64((w), (v)))
#define KS(w, k, v) (key(w, k), str((w), (v)))
#define KH(w, k, v) (key(w, k), hex64((w), (v)))

/* "k": [el, el, ...]: n elements, each written by the statement `each`
 * with the index in variable i. */
#define ARRAY(w, k, n, i, each)                                 \
    do {                                                        \
        key(w, k);                                              \
        open_((w), '[');                                        \
        for (size_t i = 0; i < (size_t)(n); i++) {              \
            elem(w);                                            \
            each;                                               \
        }                                                       \
        close_arr(w);                                           \
    } while (0)

/* ---- the parts --------------------------------------------------------- */

static void hostsite(struct jw *w, const struct gm_report_hostsite *h)
{
    if (!h->file && !h->func && !h->line) {
        raw(w, "null", 4);
        return;
    }
    open_(w, '{');
    KS(w, "file", h->file);
    KU(w, "line", h->line);
    KS(w, "func", h->func);
    close_obj(w);
}

static void program(struct jw *w, const struct gm_report_program *p)
{
    open_(w, '{');
    ARRAY(w, "argv", p->argc, i, str(w, p->argv[i]));
    KI(w, "pid", p->pid);
    KI(w, "start_ns", p->start_ns);
    KI(w, "end_ns", p->end_ns);
    KI(w, "exit_status", p->exit_status);
    KS(w, "end", gm_report_end_name(p->end));
    KS(w, "tool_version", p->tool_version);
    KS(w, "analyses", p->analyses);
    close_obj(w);
}

static void device(struct jw *w, const struct gm_report_device *d)
{
    open_(w, '{');
    KI(w, "ordinal", d->ordinal);
    KS(w, "name", d->name);
    KI(w, "cc_major", d->cc_major);
    KI(w, "cc_minor", d->cc_minor);
    KI(w, "sm_count", d->sm_count);
    KU(w, "global_mem", d->global_mem);
    KU(w, "l2_bytes", d->l2_bytes);
    close_obj(w);
}

static void site(struct jw *w, const struct gm_report_site *s, size_t id)
{
    open_(w, '{');
    KU(w, "id", id);
    KU(w, "event", s->event);
    KU(w, "space", s->space);
    KU(w, "when", s->when);
    KU(w, "info", s->info);
    KS(w, "func", s->func);
    KS(w, "file", s->file);
    KU(w, "line", s->line);
    KU(w, "column", s->column);
    close_obj(w);
}

static void counter_set(struct jw *w, const struct gm_report_counter_set *s)
{
    open_(w, '{');
    KS(w, "name", s->name);
    KU(w, "nslots", s->nslots);
    KU(w, "flags", s->flags);
    ARRAY(w, "slots", s->nslots, i, str(w, s->slot_names[i]));
    ARRAY(w, "fold", s->nslots, i, str(w, gm_report_slot_is_or(s, (uint32_t)i) ? "or" : "sum"));
    close_obj(w);
}

static void module(struct jw *w, const struct gm_report_module *m)
{
    open_(w, '{');
    KH(w, "modid", m->modid);
    KS(w, "source", m->source);
    KU(w, "n_asm_mem", m->n_asm_mem);
    ARRAY(w, "sites", m->nsites, i, site(w, &m->sites[i], i));
    ARRAY(w, "counter_sets", m->nsets, i, counter_set(w, &m->sets[i]));
    close_obj(w);
}

static int all_zero(const uint64_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i])
            return 0;
    return 1;
}

static void kcounters(struct jw *w, const struct gm_report_kcounters *c)
{
    open_(w, '{');
    KS(w, "set", c->set);
    KU(w, "nsites", c->nsites);
    KU(w, "nslots", c->nslots);
    key(w, "sites");
    open_(w, '[');
    for (uint32_t s = 0; s < c->nsites; s++) {
        const uint64_t *row = c->v + (size_t)s * c->nslots;
        if (all_zero(row, c->nslots))
            continue;
        elem(w);
        open_(w, '{');
        KU(w, "site", s);
        ARRAY(w, "v", c->nslots, i, u64(w, row[i]));
        close_obj(w);
    }
    close_arr(w);
    close_obj(w);
}

static void kernel(struct jw *w, const struct gm_report_kernel *k)
{
    open_(w, '{');
    KS(w, "name", k->name);
    KH(w, "modid", k->modid);
    KU(w, "launches", k->launches);
    KI(w, "gpu_ns", k->gpu_ns);
    ARRAY(w, "counters", k->nsets, i, kcounters(w, &k->sets[i]));
    close_obj(w);
}

static void launch(struct jw *w, const struct gm_report_launch *l)
{
    open_(w, '{');
    KU(w, "seq", l->seq);
    KU(w, "kernel", l->kernel);
    ARRAY(w, "grid", 3, i, u64(w, l->grid[i]));
    ARRAY(w, "block", 3, i, u64(w, l->block[i]));
    KU(w, "shmem", l->shmem);
    KH(w, "stream", l->stream);
    KI(w, "device", l->device);
    KS(w, "api", l->api);
    key(w, "site");
    hostsite(w, &l->site);
    KI(w, "time_ns", l->time_ns);
    KI(w, "gpu_ns", l->gpu_ns);
    close_obj(w);
}

static void alloc_launch(struct jw *w, const struct gm_report_alloc_launch *l, uint64_t units)
{
    open_(w, '{');
    KU(w, "launch_seq", l->launch_seq);
    KU(w, "reads", l->reads);
    KU(w, "writes", l->writes);
    KU(w, "touched_units", l->touched_units);
    key(w, "bitmap");
    bitmap(w, l->bitmap, units);
    close_obj(w);
}

static void access(struct jw *w, const struct gm_report_alloc *a)
{
    if (!a->has_access) {
        raw(w, "null", 4);
        return;
    }
    open_(w, '{');
    KU(w, "granularity", a->granularity);
    KU(w, "units", a->units);
    KU(w, "reads", a->reads);
    KU(w, "writes", a->writes);
    KU(w, "sectors", a->sectors);
    KU(w, "touched_units", a->touched_units);
    KU(w, "largest_untouched_units", a->largest_untouched_units);
    KU(w, "untouched_runs", a->untouched_runs);
    key(w, "bitmap");
    bitmap(w, a->bitmap, a->units);
    KU(w, "hist_chunk", a->hist_chunk);
    ARRAY(w, "hist", GM_REPORT_HIST_BUCKETS, i, u64(w, a->hist[i]));
    ARRAY(w, "launches", a->nlaunches, i, alloc_launch(w, &a->launches[i], a->units));
    close_obj(w);
}

static void alloc(struct jw *w, const struct gm_report_alloc *a)
{
    open_(w, '{');
    KU(w, "id", a->id);
    KH(w, "dev_ptr", a->dev_ptr);
    KU(w, "size", a->size);
    KS(w, "api", a->api);
    KS(w, "label", a->label);
    KI(w, "device", a->device);
    key(w, "alloc_site");
    hostsite(w, &a->alloc_site);
    if (a->alloc_path)
        KS(w, "alloc_path", a->alloc_path);
    key(w, "free_site");
    hostsite(w, &a->free_site);
    key(w, "freed");
    raw(w, a->freed ? "true" : "false", a->freed ? 4 : 5);
    KU(w, "alloc_seq", a->alloc_seq);
    KU(w, "free_seq", a->free_seq);
    key(w, "access");
    access(w, a);
    close_obj(w);
}

static const char *use_name(uint32_t how)
{
    if (how & GM_USE_UNKNOWN) return "?";
    if ((how & (GM_USE_READ | GM_USE_WRITE)) == (GM_USE_READ | GM_USE_WRITE)) return "rw";
    if (how & GM_USE_WRITE) return "w";
    if (how & GM_USE_READ) return "r";
    return "-";
}

static void use(struct jw *w, const struct gm_report_use *u)
{
    open_(w, '{');
    KU(w, "alloc", u->alloc);
    KS(w, "how", use_name(u->how));
    KU(w, "offset", u->offset);
    KU(w, "bytes", u->bytes);
    close_obj(w);
}

static void event(struct jw *w, const struct gm_report_event *e)
{
    open_(w, '{');
    KU(w, "seq", e->seq);
    KI(w, "time_ns", e->time_ns);
    KS(w, "op", gm_report_op_name(e->op));
    KU(w, "bytes", e->bytes);
    KS(w, "dir", gm_report_dir_name(e->dir));
    KH(w, "stream", e->stream);
    KI(w, "device", e->device);
    KI(w, "launch", e->launch);
    key(w, "site");
    hostsite(w, &e->site);
    ARRAY(w, "uses", e->nuses, i, use(w, &e->uses[i]));
    close_obj(w);
}

static void unobserved(struct jw *w, const struct gm_report_unobserved *u)
{
    open_(w, '{');
    KS(w, "kernel", u->kernel);
    KS(w, "reason", u->reason);
    KU(w, "count", u->count);
    close_obj(w);
}

int gm_report_write_json(const struct gm_report *r, FILE *f)
{
    struct jw *w = malloc(sizeof *w);
    if (!w)
        return -1;
    w->f = f;
    w->bad = w->depth = 0;
    w->len = 0;
    open_(w, '{');
    KS(w, "schema", GM_REPORT_SCHEMA);
    KU(w, "version", GM_REPORT_SCHEMA_VERSION);
    key(w, "program");
    program(w, &r->program);
    ARRAY(w, "devices", r->ndevices, i, device(w, &r->devices[i]));
    ARRAY(w, "modules", r->nmodules, i, module(w, &r->modules[i]));
    ARRAY(w, "kernels", r->nkernels, i, kernel(w, &r->kernels[i]));
    ARRAY(w, "launches", r->nlaunches, i, launch(w, &r->launches[i]));
    ARRAY(w, "allocations", r->nallocs, i, alloc(w, &r->allocs[i]));
    ARRAY(w, "events", r->nevents, i, event(w, &r->events[i]));
    ARRAY(w, "unobserved", r->nunobserved, i, unobserved(w, &r->unobserved[i]));
    ARRAY(w, "notes", r->nnotes, i, str(w, r->notes[i]));
    close_obj(w);
    ch(w, '\n');
    flush(w);
    int bad = w->bad;
    free(w);
    return bad || ferror(f) ? -1 : 0;
}
