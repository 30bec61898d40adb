/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reads a report file for the JSON reader, with errors that name the
 * problem: a directory is "Is a directory"; a file larger than half of this
 * machine's memory is refused before it is read; a regular file is read as
 * it is parsed, through a window (json_parse.h), never whole. A pipe or
 * device, which cannot be read twice, is read into memory up to that size
 * with a look at its structure and given up on at the first byte that
 * cannot be part of a report (a NUL byte, a first character other than
 * '{', nesting deeper than the JSON reader takes, content after the
 * top-level object): /dev/zero, a binary stream or an endless one fail at
 * once instead of filling memory. Depends on libc, POSIX
 * and the JSON reader.
 */
#include "gm_report_json.h"
#include "json_parse.h"
#include "json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)

static uint64_t load_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return UINT64_MAX;
    return (uint64_t)pages * (uint64_t)size / 2;
}

struct text {
    char *buf;
    size_t n, cap;
};

/* A structural look at the text as it arrives: strings, nesting depth and
 * the end of the top-level value; enough to give up on input that cannot
 * be a report without reading all of it. */
struct scan {
    int in_str, esc, done;
    long depth;
};

#define MAX_DEPTH GM_JMAX_DEPTH /* the tokenizer's nesting limit */

/* Scans bytes [from, t->n): 0, or -1 with what is wrong. */
static int scan_bytes(struct scan *sc, const struct text *t, size_t from, char *why, size_t len)
{
    for (size_t i = from; i < t->n; i++) {
        char ch = t->buf[i];
        const char *bad = NULL;
        if (sc->in_str && ch) {
            sc->in_str = sc->esc || ch != '"';
            sc->esc = !sc->esc && ch == '\\';
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
            continue;
        if (ch == 0)
            bad = "a NUL byte";
        else if (sc->done)
            bad = "trailing content after the JSON value";
        else if (sc->depth == 0 && ch != '{')
            bad = "not a JSON object";
        else if (ch == '{' || ch == '[')
            bad = ++sc->depth > MAX_DEPTH ? "nested deeper than 1000" : NULL;
        else if (ch == '}' || ch == ']')
            sc->done = --sc->depth == 0;
        else if (ch == '"')
            sc->in_str = 1;
        if (bad) {
            snprintf(why, len, "not a JSON report (%s at byte %zu)", bad, i);
            return -1;
        }
    }
    return 0;
}

/* Reads a pipe or device to the end, at most limit bytes, scanning what
 * arrives. 0, or -1 with the reason. */
static int read_all(int fd, struct text *t, uint64_t limit, char *why, size_t len)
{
    struct scan sc = {0, 0, 0, 0};
    for (;;) {
        if (t->cap - t->n < CHUNK) {
            size_t nc = t->cap ? t->cap * 2 : CHUNK + 1;
            char *nb = realloc(t->buf, nc);
            if (!nb) {
                snprintf(why, len, "out of memory after %zu bytes", t->n);
                return -1;
            }
            t->buf = nb;
            t->cap = nc;
        }
        ssize_t got = read(fd, t->buf + t->n, t->cap - t->n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(why, len, "%s", strerror(errno));
            return -1;
        }
        if (got == 0)
            return 0;
        size_t from = t->n;
        t->n += (size_t)got;
        if (scan_bytes(&sc, t, from, why, len))
            return -1;
        if (t->n > limit) {
            snprintf(why, len, "more than %llu bytes, half of this machine's memory: too large "
                     "to load", (unsigned long long)limit);
            return -1;
        }
    }
}

struct gm_report *gm_report_load_json(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    uint64_t limit = load_limit();
    char why[512] = "";
    struct text t = {NULL, 0, 0};
    if (S_ISDIR(st.st_mode))
        snprintf(why, sizeof why, "%s", strerror(EISDIR));
    else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > limit)
        snprintf(why, sizeof why, "%llu bytes, more than half of this machine's memory (%llu "
                 "bytes): too large to load", (unsigned long long)st.st_size,
                 (unsigned long long)limit);
    else if (!S_ISREG(st.st_mode))
        read_all(fd, &t, limit, why, sizeof why);
    struct gm_report *r = NULL;
    if (!*why && S_ISREG(st.st_mode)) {
        struct gm_jin in;
        char msg[400];
        if (gm_jin_open_fd(&in, fd))
            snprintf(why, sizeof why, "out of memory");
        else if (!(r = gm_jr_document(&in, msg, sizeof msg)))
            snprintf(why, sizeof why, "%s", msg);
        gm_jin_close(&in);
    } else if (!*why) {
        char msg[400];
        r = gm_report_parse_json(t.buf ? t.buf : "", t.n, msg, sizeof msg);
        if (!r)
            snprintf(why, sizeof why, "%s", msg);
    }
    close(fd);
    free(t.buf);
    if (!r)
        snprintf(err, errlen, "%s: %s", path, why);
    return r;
}
