/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JSON reader's checked field access (see json_util.h). Depends on
 * libc and json_parse.h only.
 */
#include "json_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t put(char *buf, size_t len, size_t at, const char *s, size_t n)
{
    if (at + 1 < len) {
        size_t k = len - 1 - at < n ? len - 1 - at : n;
        memcpy(buf + at, s, k);
    }
    return at + n;
}

void gm_jpath(char *buf, size_t len, const char *base, const char *key, long long idx)
{
    size_t at = put(buf, len, 0, base, strlen(base));
    if (key) {
        at = put(buf, len, at, ".", 1);
        at = put(buf, len, at, key, strlen(key));
    }
    if (idx >= 0) {
        char d[24], *q = d + sizeof d;
        *--q = ']';
        unsigned long long v = (unsigned long long)idx;
        do
            *--q = (char)('0' + v % 10);
        while (v /= 10);
        *--q = '[';
        at = put(buf, len, at, q, (size_t)(d + sizeof d - q));
    }
    if (len)
        buf[at < len ? at : len - 1] = 0;
}

void gm_jfail(struct gm_jctx *c, const char *path, const char *what)
{
    if (c->failed)
        return;
    c->failed = 1;
    snprintf(c->err, c->errlen, "%s: %s", path, what);
}

/* A number literal that is not exactly an integer of magnitude <= 2^53. */
#define INEXACT "not an exact integer (out of range, or has a fraction; above 2^53 " \
                "write a decimal string)"
static int inexact(const struct gm_jv *v) { return v->type == GM_JNUM && !v->exact; }

void gm_jfail_key(struct gm_jctx *c, const char *path, const char *key, const char *what)
{
    if (c->failed)
        return;
    c->failed = 1;
    snprintf(c->err, c->errlen, "%s.%s: %s", path, key, what);
}

static const char *type_name(int mask)
{
    if (mask & GM_JOBJ) return "an object";
    if (mask & GM_JARR) return "an array";
    if (mask & GM_JSTR && mask & GM_JNUM) return "an integer";
    if (mask & GM_JSTR) return "a string";
    if (mask & GM_JNUM) return "a number";
    return "a value of another type";
}

const struct gm_jv *gm_jget(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                     const char *key, int type_mask, int required)
{
    if (c->failed)
        return NULL;
    const struct gm_jv *v = gm_jv_get(obj, key);
    if (!v || v->type == GM_JNULL) {
        if (required)
            gm_jfail_key(c, path, key, "missing");
        return NULL;
    }
    if (!(v->type & type_mask)) {
        char m[64];
        snprintf(m, sizeof m, "expected %s", type_name(type_mask));
        gm_jfail_key(c, path, key, m);
        return NULL;
    }
    return v;
}

int gm_json_to_u64(const struct gm_jv *v, uint64_t *out)
{
    if (v->type == GM_JNUM) {
        if (!v->exact || v->i < 0)
            return -1;
        *out = (uint64_t)v->i;
        return 0;
    }
    if (v->type == GM_JSTR && v->s[0] >= '0' && v->s[0] <= '9') {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(v->s, &end, 10);
        if (errno || *end)
            return -1;
        *out = x;
        return 0;
    }
    return -1;
}

uint64_t gm_jget_u64(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                     const char *key, int required, uint64_t dflt)
{
    const struct gm_jv *v = gm_jget(c, obj, path, key, GM_JNUM | GM_JSTR, required);
    uint64_t x = dflt;
    if (v && gm_json_to_u64(v, &x)) {
        gm_jfail_key(c, path, key, inexact(v) ? INEXACT : "expected a non-negative integer");
        return dflt;
    }
    return x;
}

static void range_fail(struct gm_jctx *c, const char *path, const char *key, long long lo,
                       unsigned long long hi)
{
    char m[96];
    snprintf(m, sizeof m, "expected an integer from %lld to %llu", lo, hi);
    gm_jfail_key(c, path, key, m);
}

uint64_t gm_jget_umax(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                      const char *key, int required, uint64_t dflt, uint64_t max)
{
    uint64_t v = gm_jget_u64(c, obj, path, key, required, dflt);
    if (!c->failed && v > max) {
        range_fail(c, path, key, 0, max);
        return dflt;
    }
    return v;
}

int32_t gm_jget_i32(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                    const char *key, int required, int32_t dflt)
{
    int64_t v = gm_jget_i64(c, obj, path, key, required, dflt);
    if (!c->failed && (v < INT32_MIN || v > INT32_MAX)) {
        range_fail(c, path, key, INT32_MIN, INT32_MAX);
        return dflt;
    }
    return (int32_t)v;
}

int64_t gm_jget_i64(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                    const char *key, int required, int64_t dflt)
{
    const struct gm_jv *v = gm_jget(c, obj, path, key, GM_JNUM | GM_JSTR, required);
    if (!v)
        return dflt;
    if (v->type == GM_JNUM) {
        if (v->exact)
            return v->i;
    } else {
        char *end;
        errno = 0;
        long long x = strtoll(v->s, &end, 10);
        if (!errno && *end == 0 && end != v->s)
            return x;
    }
    gm_jfail_key(c, path, key, inexact(v) ? INEXACT : "expected an integer");
    return dflt;
}

char *gm_jget_str(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                  const char *key, int required)
{
    const struct gm_jv *v = gm_jget(c, obj, path, key, GM_JSTR, required);
    if (!v)
        return NULL;
    char *s = strdup(v->s);
    if (!s)
        gm_jfail(c, path, "out of memory");
    return s;
}

uint64_t gm_jget_hex64(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                       const char *key)
{
    const struct gm_jv *v = gm_jget(c, obj, path, key, GM_JSTR, 1);
    if (!v)
        return 0;
    const char *s = v->s;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 16);
    if (strncmp(s, "0x", 2) != 0 || errno || *end || end == s + 2) {
        gm_jfail_key(c, path, key, "expected a hex string like \"0x1f\"");
        return 0;
    }
    return x;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

uint64_t *gm_jget_bitmap(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                         const char *key, uint64_t units)
{
    const struct gm_jv *v = gm_jget(c, obj, path, key, GM_JSTR, 0);
    if (!v)
        return NULL;
    size_t nw = (size_t)(units / 64 + (units % 64 != 0));
    if (strlen(v->s) != nw * 16) {
        gm_jfail_key(c, path, key, "bitmap length does not match the allocation's units");
        return NULL;
    }
    uint64_t *bm = calloc(nw ? nw : 1, 8);
    if (!bm) {
        gm_jfail_key(c, path, key, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < nw * 16; i++) {
        int h = hexval(v->s[i]);
        if (h < 0) {
            free(bm);
            gm_jfail_key(c, path, key, "bitmap is not hexadecimal");
            return NULL;
        }
        bm[i / 16] |= (uint64_t)h << (4 * (15 - i % 16));
    }
    return bm;
}
