/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report reader's JSON tokenizer (see json_parse.h): the input window,
 * the arena, and a recursive-descent parser of one value. Depends on libc,
 * POSIX (pread) and json_exact.h.
 */
#include "json_parse.h"
#include "json_exact.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t gm_jin_window = 1u << 20;

/* ---- input -------------------------------------------------------------- */

int gm_jin_open_mem(struct gm_jin *in, const char *text, size_t len)
{
    size_t cap = len && len < gm_jin_window ? len : gm_jin_window; /* no more than the text */
    *in = (struct gm_jin){text, len, -1, 0, malloc(cap ? cap : 1), 0, 0, 0, cap ? cap : 1};
    return in->buf ? 0 : -1;
}

int gm_jin_open_fd(struct gm_jin *in, int fd)
{
    size_t cap = gm_jin_window ? gm_jin_window : 1;
    *in = (struct gm_jin){NULL, 0, fd, 0, malloc(cap), 0, 0, 0, cap};
    return in->buf ? 0 : -1;
}

void gm_jin_close(struct gm_jin *in)
{
    free(in->buf);
    in->buf = NULL;
}

void gm_jin_seek(struct gm_jin *in, size_t off)
{
    in->base = off;
    in->pos = in->len = 0;
}

size_t gm_jin_offset(const struct gm_jin *in) { return in->base + in->pos; }

/* Up to n bytes at offset off into dst; 0 at the end, -1 on a read error. */
static ssize_t fill(struct gm_jin *in, size_t off, char *dst, size_t n)
{
    if (in->fd < 0) {
        size_t k = off < in->memlen ? in->memlen - off : 0;
        k = k < n ? k : n;
        if (k)
            memcpy(dst, in->mem + off, k);
        return (ssize_t)k;
    }
    for (;;) {
        ssize_t got = pread(in->fd, dst, n, (off_t)off);
        if (got >= 0 || errno != EINTR) {
            if (got < 0)
                in->err = errno;
            return got;
        }
    }
}

int gm_jin_refill(struct gm_jin *in)
{
    if (in->pos < in->len)
        return (unsigned char)in->buf[in->pos];
    if (in->err)
        return -1;
    in->base += in->len;
    in->pos = in->len = 0;
    ssize_t got = fill(in, in->base, in->buf, in->cap);
    if (got <= 0)
        return -1;
    in->len = (size_t)got;
    return (unsigned char)in->buf[0];
}

int gm_jin_ws_slow(struct gm_jin *in)
{
    for (;;) {
        int ch = gm_jin_peek(in);
        if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r')
            return ch;
        in->pos++;
    }
}

/* ---- arena -------------------------------------------------------------- */

struct gm_jchunk {
    struct gm_jchunk *next;
    size_t used, cap;
    max_align_t data[];
};

#define CHUNK (64u << 10)

/* Bump allocation; chunks are kept in a list and reused after a reset. */
static void *arena_alloc(struct gm_jarena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct gm_jchunk **pp = a->cur ? &a->cur : &a->head;
    while (*pp && (*pp)->cap - (*pp)->used < n)
        pp = &(*pp)->next;
    if (!*pp) {
        size_t cap = n > CHUNK ? n : CHUNK;
        struct gm_jchunk *c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        *c = (struct gm_jchunk){NULL, 0, cap};
        *pp = c;
    }
    a->cur = *pp;
    void *p = (char *)a->cur->data + a->cur->used;
    a->cur->used += n;
    return p;
}

void gm_jarena_reset(struct gm_jarena *a)
{
    for (struct gm_jchunk *c = a->head; c; c = c->next)
        c->used = 0;
    a->cur = a->head;
}

void gm_jarena_free(struct gm_jarena *a)
{
    for (struct gm_jchunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a->scratch);
    *a = (struct gm_jarena){0};
}

static int scratch_put(struct gm_jarena *a, const char *s, size_t n)
{
    if (a->capscratch - a->nscratch < n + 1) {
        size_t cap = a->capscratch ? a->capscratch : 256;
        while (cap - a->nscratch < n + 1)
            cap *= 2;
        char *b = realloc(a->scratch, cap);
        if (!b)
            return -1;
        a->scratch = b;
        a->capscratch = cap;
    }
    memcpy(a->scratch + a->nscratch, s, n);
    a->nscratch += n;
    a->scratch[a->nscratch] = 0;
    return 0;
}

/* ---- parser ------------------------------------------------------------- */

/* Bytes that end a run of plain string text: control characters, the
 * quote and the backslash (a table: the scan is the reader's inner loop). */
static const unsigned char string_stop[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x00-0x1f */
    ['"'] = 1, ['\\'] = 1,
};

static void *fail(struct gm_jparser *p)
{
    if (!p->failed) {
        p->failed = 1;
        p->at = gm_jin_offset(p->in);
    }
    return NULL;
}

static void *oom(struct gm_jparser *p)
{
    p->oom = 1;
    return fail(p);
}

int gm_jparse_expect(struct gm_jparser *p, int ch)
{
    if (gm_jin_ws(p->in) != ch) {
        fail(p);
        return -1;
    }
    p->in->pos++;
    return 0;
}

static int take(struct gm_jin *in)
{
    int ch = gm_jin_peek(in);
    if (ch >= 0)
        in->pos++;
    return ch;
}

static int hex4(struct gm_jin *in)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int ch = take(in), d = ch >= '0' && ch <= '9' ? ch - '0'
                             : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                             : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* After "\u": one code point (a surrogate pair joined) as UTF-8 into out. */
static int unicode(struct gm_jin *in, char out[4])
{
    long cp = hex4(in);
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return -1;
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (take(in) != '\\' || take(in) != 'u')
            return -1;
        long lo = hex4(in);
        if (lo < 0xdc00 || lo > 0xdfff)
            return -1;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    if (cp < 0)
        return -1;
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    int n = cp < 0x10000 ? 3 : 4;
    out[0] = (char)(n == 3 ? 0xe0 | cp >> 12 : 0xf0 | cp >> 18);
    for (int i = 1; i < n; i++)
        out[i] = (char)(0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3f));
    return n;
}

/* One escape after the backslash, decoded into out; its length or -1. */
static int escape(struct gm_jin *in, char out[4])
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    int ch = take(in);
    if (ch == 'u')
        return unicode(in, out);
    const char *k = ch > 0 ? strchr(from, ch) : NULL;
    if (!k)
        return -1;
    out[0] = to[k - from];
    return 1;
}

/* The string at the position, escapes and all, into the scratch buffer
 * (when keep). */
static int string_slow(struct gm_jparser *p, int keep)
{
    struct gm_jin *in = p->in;
    p->a->nscratch = 0;
    if (keep && scratch_put(p->a, "", 0))
        return oom(p), -1;
    in->pos++; /* the opening quote */
    for (;;) {
        if (gm_jin_peek(in) < 0)
            return fail(p), -1;
        size_t i = in->pos;
        const unsigned char *w = (const unsigned char *)in->buf;
        while (i < in->len && !string_stop[w[i]])
            i++;
        if (keep && scratch_put(p->a, in->buf + in->pos, i - in->pos))
            return oom(p), -1;
        in->pos = i;
        if (i == in->len)
            continue;
        if (w[i] == '"') {
            in->pos++;
            return 0;
        }
        if (w[i] < 0x20)
            return fail(p), -1;
        in->pos++;
        char u[4];
        int n = escape(in, u);
        if (n < 0)
            return fail(p), -1;
        if (keep && scratch_put(p->a, u, (size_t)n))
            return oom(p), -1;
    }
}

/* The string at the position (a '"'): *s and *n are its decoded text, in
 * the window when it has no escape and ends there (the common case), else
 * in the scratch buffer. */
static int string_body(struct gm_jparser *p, int keep, const char **s, size_t *n)
{
    struct gm_jin *in = p->in;
    const unsigned char *w = (const unsigned char *)in->buf;
    size_t i = in->pos + 1;
    while (i < in->len && !string_stop[w[i]])
        i++;
    if (i < in->len && w[i] == '"') {
        *s = in->buf + in->pos + 1;
        *n = i - in->pos - 1;
        in->pos = i + 1;
        return 0;
    }
    if (string_slow(p, keep))
        return -1;
    *s = p->a->scratch;
    *n = p->a->nscratch;
    return 0;
}

const char *gm_jparse_string(struct gm_jparser *p)
{
    const char *s;
    size_t n;
    if (gm_jin_peek(p->in) != '"' || string_body(p, 1, &s, &n))
        return fail(p);
    if (s != p->a->scratch) {
        p->a->nscratch = 0;
        if (scratch_put(p->a, s, n))
            return oom(p);
    }
    return p->a->scratch;
}

static char *arena_str(struct gm_jparser *p, const char *s, size_t n)
{
    char *c = arena_alloc(p->a, n + 1);
    if (!c)
        return oom(p);
    memcpy(c, s, n);
    c[n] = 0;
    return c;
}

/* ---- numbers ---- */

static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static int in_number(int ch) { return is_digit(ch) || ch == '-' || ch == '+' || ch == '.' || ch == 'e' || ch == 'E'; }

static size_t digit_run(const char *s, size_t i, size_t n)
{
    while (i < n && is_digit(s[i]))
        i++;
    return i;
}

/* 1 if s[0..n) is one JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number_ok(const char *s, size_t n)
{
    size_t i = s[0] == '-', j = digit_run(s, i, n);
    if (j == i || (s[i] == '0' && j > i + 1))
        return 0;
    if (j < n && s[j] == '.') {
        i = j + 1;
        if ((j = digit_run(s, i, n)) == i)
            return 0;
    }
    if (j < n && (s[j] == 'e' || s[j] == 'E')) {
        i = j + 1 + (j + 1 < n && (s[j + 1] == '+' || s[j + 1] == '-'));
        if ((j = digit_run(s, i, n)) == i)
            return 0;
    }
    return j == n;
}

/* Exact value of s[0..n) (a JSON number) when it is an integer <= 2^53 in
 * magnitude: plain digits at once, anything else through json_exact. */
static int number_value(const char *s, size_t n, int64_t *v)
{
    size_t i = s[0] == '-';
    if (n - i > 15 || digit_run(s, i, n) != n)
        return gm_json_literal_int(s, n, v);
    int64_t x = 0;
    for (; i < n; i++)
        x = x * 10 + (s[i] - '0');
    *v = s[0] == '-' ? -x : x;
    return 1;
}

static int number(struct gm_jparser *p, struct gm_jv *v)
{
    struct gm_jin *in = p->in;
    const char *s = in->buf + in->pos;
    size_t i = in->pos;
    while (i < in->len && in_number((unsigned char)in->buf[i]))
        i++;
    size_t n = i - in->pos;
    if (i < in->len) {
        in->pos = i;
    } else { /* it may go on in the next window */
        p->a->nscratch = 0;
        for (int ch; in_number(ch = gm_jin_peek(in)); in->pos++) {
            char c = (char)ch;
            if (scratch_put(p->a, &c, 1))
                return oom(p), -1;
        }
        s = p->a->scratch;
        n = p->a->nscratch;
    }
    if (!number_ok(s, n))
        return fail(p), -1;
    if (v) {
        v->type = GM_JNUM;
        v->exact = number_value(s, n, &v->i);
    }
    return 0;
}

static int word(struct gm_jparser *p, const char *w)
{
    for (; *w; w++)
        if (take(p->in) != *w)
            return fail(p), -1;
    return 0;
}

static struct gm_jv *container(struct gm_jparser *p, struct gm_jv *v, int depth);

struct gm_jv *gm_jparse_value(struct gm_jparser *p, int keep, int depth)
{
    struct gm_jv *v = NULL;
    if (keep && !(v = arena_alloc(p->a, sizeof *v)))
        return oom(p);
    if (v)
        memset(v, 0, sizeof *v);
    int ch = gm_jin_ws(p->in), rc;
    if (ch == '{' || ch == '[')
        return container(p, v, depth);
    if (ch == '"') {
        const char *str;
        size_t n;
        rc = string_body(p, keep, &str, &n);
        if (!rc && v && (v->type = GM_JSTR, !(v->s = arena_str(p, str, n))))
            rc = -1;
    } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        rc = number(p, v);
    } else if (ch == 't' || ch == 'f') {
        rc = word(p, ch == 't' ? "true" : "false");
        if (v)
            *v = (struct gm_jv){.type = GM_JBOOL, .b = ch == 't'};
    } else if (ch == 'n') {
        rc = word(p, "null");
        if (v)
            v->type = GM_JNULL;
    } else {
        return fail(p);
    }
    return rc ? NULL : v;
}

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int keys_grow(struct gm_jkeys *k)
{
    size_t cap = k->cap ? k->cap * 2 : 64;
    struct gm_jkey **slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < k->cap; i++)
        if (k->slot[i]) {
            size_t j = hash(k->slot[i]->s, k->slot[i]->n) & (cap - 1);
            while (slot[j])
                j = (j + 1) & (cap - 1);
            slot[j] = k->slot[i];
        }
    free(k->slot);
    k->slot = slot;
    k->cap = cap;
    return 0;
}

/* The member name s[0..n) stored once (as a C string: cut at a NUL). */
static struct gm_jkey *intern_key(struct gm_jparser *p, const char *s, size_t n)
{
    struct gm_jkeys *k = &p->keys;
    n = strnlen(s, n);
    if ((k->n + 1) * 2 > k->cap && keys_grow(k))
        return oom(p);
    size_t j = hash(s, n) & (k->cap - 1);
    for (; k->slot[j]; j = (j + 1) & (k->cap - 1))
        if (k->slot[j]->n == n && !memcmp(k->slot[j]->s, s, n))
            return k->slot[j];
    struct gm_jkey *e = calloc(1, sizeof *e + n + 1);
    if (!e)
        return oom(p);
    e->s = (char *)(e + 1);
    memcpy(e->s, s, n);
    e->n = n;
    k->slot[j] = e;
    k->n++;
    return e;
}

void gm_jparser_free(struct gm_jparser *p)
{
    for (size_t i = 0; i < p->keys.cap; i++)
        free(p->keys.slot[i]);
    free(p->keys.slot);
    memset(&p->keys, 0, sizeof p->keys);
}

/* An object's "key": before a member's value. *pred is the name expected
 * (checked first, without hashing), and becomes the name read. */
static int member_key(struct gm_jparser *p, struct gm_jv *v, struct gm_jkey **pred,
                      const char **key)
{
    const char *s;
    size_t n;
    if (gm_jin_ws(p->in) != '"' || string_body(p, v != NULL, &s, &n))
        return fail(p), -1;
    if (v) {
        struct gm_jkey *e = *pred;
        if (!e || e->n != n || memcmp(e->s, s, n))
            if (!(e = *pred = intern_key(p, s, n)))
                return -1;
        p->ctx = e;
        *key = e->s;
    }
    return gm_jparse_expect(p, ':');
}

/* Marks an object whose names are not all different (interned: the same
 * name is the same pointer). Large objects are marked without a look. */
static void find_dups(struct gm_jv *v)
{
    v->hint = v->child;
    if (v->n > 64) {
        v->dupkeys = 1;
        return;
    }
    for (struct gm_jv *a = v->child; a && !v->dupkeys; a = a->next)
        for (struct gm_jv *b = a->next; b; b = b->next)
            if (a->key == b->key)
                v->dupkeys = 1;
}

/* An object or array at the position, its members linked under v (when kept). */
static struct gm_jv *container(struct gm_jparser *p, struct gm_jv *v, int depth)
{
    int obj = gm_jin_peek(p->in) == '{', close = obj ? '}' : ']';
    if (depth + 1 > GM_JMAX_DEPTH)
        return fail(p);
    p->in->pos++;
    if (v)
        v->type = obj ? GM_JOBJ : GM_JARR;
    struct gm_jv **tail = v ? &v->child : NULL;
    if (gm_jin_ws(p->in) == close) {
        p->in->pos++;
        return v;
    }
    struct gm_jkey *parent = p->ctx ? p->ctx : &p->keys.root, *prev = NULL;
    for (;;) {
        const char *key = NULL;
        if (obj && member_key(p, v, prev ? &prev->next : &parent->first, &key))
            return NULL;
        if (obj)
            prev = p->ctx;
        else
            p->ctx = parent;    /* an element: named by its array */
        struct gm_jv *e = gm_jparse_value(p, v != NULL, depth + 1);
        if (p->failed)
            return NULL;
        if (v) {
            e->key = key;
            *tail = e;
            tail = &e->next;
            v->n++;
        }
        int ch = gm_jin_ws(p->in);
        p->in->pos += ch == ',' || ch == close;
        if (ch == close) {
            if (v && obj)
                find_dups(v);
            return v;
        }
        if (ch != ',')
            return fail(p);
    }
}

static int streq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

const struct gm_jv *gm_jv_get(const struct gm_jv *obj, const char *key)
{
    if (!obj || obj->type != GM_JOBJ)
        return NULL;
    /* from the hint on, then from the start: the first match is the only
     * one unless the object has a name twice */
    const struct gm_jv *start = obj->dupkeys || !obj->hint ? obj->child : obj->hint;
    for (int round = 0; round < 2; round++) {
        const struct gm_jv *stop = round ? start : NULL;
        for (const struct gm_jv *e = round ? obj->child : start; e != stop; e = e->next)
            if (streq(e->key, key)) {
                ((struct gm_jv *)obj)->hint = e->next; /* a cache: not the value */
                return e;
            }
        if (start == obj->child)
            break;
    }
    return NULL;
}
