/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the report reader's JSON tokenizer. The text is read through a
 * window of gm_jin_window bytes, from memory or from a file (pread, so the
 * reader can go back to a member it put off); one value at a time is
 * parsed into a small tree in an arena the caller resets before the next,
 * or only checked (keep 0). The text is never in memory as a whole, nor a
 * tree of it. Strict JSON (RFC 8259): the four white-space characters, no
 * raw control characters in strings, no lone surrogates, nesting up to
 * GM_JMAX_DEPTH. Numbers keep whether they are exactly an integer of
 * magnitude <= 2^53 (json_exact.h): nothing is read through a double.
 * Depends on libc and POSIX (pread) only.
 */
#ifndef GM_REPORT_JSON_PARSE_H
#define GM_REPORT_JSON_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define GM_JMAX_DEPTH 1000

/* Value types; masks of them select what a field may be. */
enum { GM_JNULL = 1, GM_JBOOL = 2, GM_JNUM = 4, GM_JSTR = 8, GM_JARR = 16, GM_JOBJ = 32 };

struct gm_jv {
    int type;
    int b;                  /* GM_JBOOL: 0 or 1 */
    int exact;              /* GM_JNUM: 1 if exactly an integer, |i| <= 2^53 */
    int64_t i;              /* GM_JNUM: the value when exact */
    char *s;                /* GM_JSTR: decoded, NUL-terminated (in the arena) */
    const char *key;        /* member name inside an object (interned), else NULL */
    struct gm_jv *child, *next;
    size_t n;               /* GM_JARR, GM_JOBJ: number of children */
    int dupkeys;            /* GM_JOBJ: a name may occur twice (then the first counts) */
    struct gm_jv *hint;     /* GM_JOBJ: where gm_jv_get looks first (the member
                             * after the last one found: fields are mostly
                             * read in the order they are written) */
};

/* Bytes read at a time (a variable so the fuzz target can make the window
 * tiny and tokens cross its edges everywhere). */
extern size_t gm_jin_window;

/* The input: memory (fd < 0) or a file descriptor. */
struct gm_jin {
    const char *mem;
    size_t memlen;
    int fd;
    int err;                /* errno of a failed read, else 0 */
    char *buf;              /* the window: bytes [base, base + len) */
    size_t base, pos, len;
    size_t cap;             /* the window's size */
};

/* Arena of one parse; reset keeps its memory for the next. */
struct gm_jarena {
    struct gm_jchunk *head, *cur;
    char *scratch;          /* a string or number being read */
    size_t nscratch, capscratch;
};

/* A member name seen, stored once (a report has a few dozen), with the
 * names that came after it last time: objects of one kind repeat their
 * names in one order, so the next name is mostly known before it is read. */
struct gm_jkey {
    char *s;
    size_t n;
    struct gm_jkey *next;   /* the name after this one in an object */
    struct gm_jkey *first;  /* the first name of an object under this one */
};

struct gm_jkeys {
    struct gm_jkey **slot;  /* hash set */
    size_t n, cap;
    struct gm_jkey root;    /* for objects under no name */
};

struct gm_jparser {
    struct gm_jin *in;
    struct gm_jarena *a;
    int failed;             /* syntax error at `at`, or out of memory (oom) */
    int oom;
    size_t at;
    struct gm_jkeys keys;
    struct gm_jkey *ctx;    /* the name of the member being read */
};

int gm_jin_open_mem(struct gm_jin *in, const char *text, size_t len);
int gm_jin_open_fd(struct gm_jin *in, int fd);
void gm_jin_close(struct gm_jin *in);
/* Reads on from byte offset off. */
void gm_jin_seek(struct gm_jin *in, size_t off);
size_t gm_jin_offset(const struct gm_jin *in);
/* Next byte without taking it, or -1 at the end (or a read error). */
int gm_jin_refill(struct gm_jin *in);
int gm_jin_ws_slow(struct gm_jin *in);
static inline int gm_jin_peek(struct gm_jin *in)
{
    return in->pos < in->len ? (unsigned char)in->buf[in->pos] : gm_jin_refill(in);
}
/* Skips white space; returns the next byte (-1 at the end). */
static inline int gm_jin_ws(struct gm_jin *in)
{
    int ch = gm_jin_peek(in);
    return ch > ' ' ? ch : gm_jin_ws_slow(in);
}

void gm_jparser_free(struct gm_jparser *p);
void gm_jarena_reset(struct gm_jarena *a);
void gm_jarena_free(struct gm_jarena *a);

/* Parses (keep 1: into a tree in p->a; keep 0: checks only) the value at
 * the input's position; `depth` containers enclose it. NULL on failure
 * (p->failed, p->at) or when not kept. */
struct gm_jv *gm_jparse_value(struct gm_jparser *p, int keep, int depth);
/* Reads the string at the position (a '"'); its decoded text, valid until
 * the next string is read, or NULL on failure. */
const char *gm_jparse_string(struct gm_jparser *p);
/* Takes the byte ch at the position (after white space), or fails. */
int gm_jparse_expect(struct gm_jparser *p, int ch);

/* Field of an object (first of that name), or NULL. */
const struct gm_jv *gm_jv_get(const struct gm_jv *obj, const char *key);

#endif
