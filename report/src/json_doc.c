/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON reader of the report model, the document level: reads the top-level
 * object's members in the order of the text and each element of an array
 * member alone (json_parse.h) into an arena reset before the next, handing
 * it to its part reader (json_read.h). A report is read in one pass, and
 * the memory it takes is the model, one element's tree and the input
 * window: never the text, nor a tree of it.
 *
 * The parts are read in the schema's order (head, devices, modules,
 * kernels, launches, allocations, events, unobserved, notes), since later
 * parts refer to earlier ones; the writer writes them in that order. A
 * member that comes before one it needs is checked, put off and read when
 * the top-level object has ended (the input can go back). Unknown members
 * and repeated ones are checked to be JSON, then left alone.
 * Depends on the report model, the tokenizer and the reader's parts.
 */
#include "gm_report_json.h"
#include "json_parse.h"
#include "json_read.h"

#include <stdio.h>
#include <string.h>

enum { M_SCHEMA, M_VERSION, M_PROGRAM, M_DEVICES, M_MODULES, M_KERNELS, M_LAUNCHES,
       M_ALLOCATIONS, M_EVENTS, M_UNOBSERVED, M_NOTES, M_N };
static const char *const member_names[M_N] = {
    "schema", "version", "program", "devices", "modules", "kernels", "launches",
    "allocations", "events", "unobserved", "notes",
};
static const gm_jr_elem_fn readers[M_N] = {
    [M_DEVICES] = gm_jr_device, [M_MODULES] = gm_jr_module, [M_KERNELS] = gm_jr_kernel,
    [M_LAUNCHES] = gm_jr_launch, [M_ALLOCATIONS] = gm_jr_alloc, [M_EVENTS] = gm_jr_event,
    [M_UNOBSERVED] = gm_jr_unobserved, [M_NOTES] = gm_jr_note,
};

enum { UNSEEN, DEFERRED, DONE };

struct doc {
    struct gm_jctx c;
    struct gm_jin *in;
    struct gm_jparser p;
    struct gm_jarena elems, head;   /* one element's tree; the head's values */
    struct gm_report *r;
    int state[M_N];
    size_t at[M_N];                 /* where a deferred member's value starts */
    struct gm_jv *headv[M_PROGRAM + 1];
    int head_read;
};

/* The parser failed: a syntax error, out of memory or a read error. */
static int malformed(struct doc *d)
{
    if (d->c.failed)
        return -1;
    if (d->p.oom)
        gm_jfail(&d->c, "report", "out of memory");
    else if (d->in->err)
        snprintf(d->c.err, d->c.errlen, "read error near byte %zu: %s", d->p.at,
                 strerror(d->in->err));
    else
        snprintf(d->c.err, d->c.errlen, "malformed JSON near byte %zu", d->p.at);
    d->c.failed = 1;
    return -1;
}

/* Checks the value at the position without keeping it. */
static int skip(struct doc *d)
{
    gm_jparse_value(&d->p, 0, 1);
    return d->p.failed ? malformed(d) : 0;
}

static int known_member(const char *key)
{
    for (int m = 0; m < M_N; m++)
        if (!strcmp(member_names[m], key))
            return m;
    return -1;
}

/* schema and version, then program: one object of the values read. */
static void read_head(struct doc *d)
{
    struct gm_jv root = {.type = GM_JOBJ}, **tail = &root.child;
    d->head_read = 1;
    for (int m = M_SCHEMA; m <= M_PROGRAM; m++)
        if (d->headv[m]) {
            *tail = d->headv[m];
            tail = &d->headv[m]->next;
            root.n++;
        }
    gm_jr_header(&d->c, &root);
    gm_jr_program(&d->c, &root, d->r);
}

/* Each element of array member m at the position, read alone. */
static void read_array(struct doc *d, int m)
{
    struct gm_jin *in = d->in;
    const char *key = member_names[m];
    char p[64];
    snprintf(p, sizeof p, "report.%s", key);
    int ch = gm_jin_ws(in);
    if (ch == 'n') {
        if (!skip(d))
            gm_jfail(&d->c, p, "missing");
        return;
    }
    if (ch != '[') {
        gm_jfail(&d->c, p, "expected an array");
        return;
    }
    in->pos++;
    if (gm_jin_ws(in) == ']') {
        in->pos++;
        return;
    }
    for (size_t idx = 0; !d->c.failed; idx++) {
        gm_jarena_reset(&d->elems);
        d->p.ctx = NULL;
        struct gm_jv *el = gm_jparse_value(&d->p, 1, 2);
        if (!el) {
            malformed(d);
            return;
        }
        gm_jpath(p, sizeof p, key, NULL, (long long)idx);
        readers[m](&d->c, el, p, d->r);
        ch = gm_jin_ws(in);
        if (ch != ',') {
            if (gm_jparse_expect(&d->p, ']'))
                malformed(d);
            return;
        }
        in->pos++;
    }
}

static void read_member(struct doc *d, int m)
{
    if (!d->head_read)
        read_head(d);
    if (!d->c.failed)
        read_array(d, m);
    if (m == M_EVENTS && !d->c.failed)
        gm_jr_alloc_refs(&d->c, d->r);
    d->state[m] = DONE;
}

/* The value of top-level member m (-1: unknown) at the position. */
static int member(struct doc *d, int m)
{
    if (m < 0 || d->state[m] != UNSEEN)
        return skip(d);
    if (m <= M_PROGRAM) {
        d->p.a = &d->head;
        d->headv[m] = gm_jparse_value(&d->p, 1, 1);
        d->p.a = &d->elems;
        d->state[m] = DONE;
        if (!d->headv[m])
            return malformed(d);
        d->headv[m]->key = member_names[m];
        return 0;
    }
    int ready = 1;
    for (int i = 0; i < m; i++)
        ready &= d->state[i] == DONE;
    if (!ready) {
        d->at[m] = gm_jin_offset(d->in);
        d->state[m] = DEFERRED;
        return skip(d);
    }
    read_member(d, m);
    return d->c.failed ? -1 : 0;
}

/* Text that is not an object at all: malformed, or the wrong kind of JSON. */
static int not_object(struct doc *d)
{
    gm_jparse_value(&d->p, 0, 0);
    if (d->p.failed)
        return malformed(d);
    gm_jfail(&d->c, "report", "expected a JSON object");
    return -1;
}

/* The top-level object's members, then the end of the text. */
static int top(struct doc *d)
{
    struct gm_jin *in = d->in;
    if (gm_jin_ws(in) != '{')
        return not_object(d);
    in->pos++;
    if (gm_jin_ws(in) == '}')
        in->pos++;
    else
        for (;;) {
            gm_jin_ws(in);
            const char *key = gm_jparse_string(&d->p);
            int m = key ? known_member(key) : -1;
            if (!key || gm_jparse_expect(&d->p, ':'))
                return malformed(d);
            if (member(d, m))
                return -1;
            if (gm_jin_ws(in) != ',') {
                if (gm_jparse_expect(&d->p, '}'))
                    return malformed(d);
                break;
            }
            in->pos++;
        }
    if (gm_jin_ws(in) >= 0) {
        snprintf(d->c.err, d->c.errlen, "trailing content after the JSON value at byte %zu",
                 gm_jin_offset(in));
        d->c.failed = 1;
        return -1;
    }
    if (in->err) {
        d->p.at = gm_jin_offset(in);
        return malformed(d);
    }
    return 0;
}

/* After the top-level object: the members put off, in order, and those
 * missing. */
static void rest(struct doc *d)
{
    if (!d->head_read)
        read_head(d);
    for (int m = M_DEVICES; m < M_N && !d->c.failed; m++) {
        char p[64];
        if (d->state[m] == DEFERRED) {
            gm_jin_seek(d->in, d->at[m]);
            read_member(d, m);
        } else if (d->state[m] == UNSEEN) {
            snprintf(p, sizeof p, "report.%s", member_names[m]);
            gm_jfail(&d->c, p, "missing");
        }
    }
}

struct gm_report *gm_jr_document(struct gm_jin *in, char *err, size_t errlen)
{
    struct doc d;
    memset(&d, 0, sizeof d);
    d.c = (struct gm_jctx){err, errlen, 0};
    d.in = in;
    d.p = (struct gm_jparser){.in = in, .a = &d.elems};
    d.r = gm_report_new();
    if (!d.r)
        gm_jfail(&d.c, "report", "out of memory");
    else if (!top(&d))
        rest(&d);
    gm_jparser_free(&d.p);
    gm_jarena_free(&d.elems);
    gm_jarena_free(&d.head);
    if (d.c.failed) {
        gm_report_free(d.r);
        return NULL;
    }
    return d.r;
}

struct gm_report *gm_report_parse_json(const char *text, size_t len, char *err,
                                       size_t errlen)
{
    struct gm_jin in;
    if (gm_jin_open_mem(&in, text, len)) {
        snprintf(err, errlen, "report: out of memory");
        return NULL;
    }
    struct gm_report *r = gm_jr_document(&in, err, errlen);
    gm_jin_close(&in);
    return r;
}
