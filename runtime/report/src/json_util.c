/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON helpers of the report library: exact 64-bit integers, hex bitmaps,
 * checked field access. Depends on libc and cJSON only.
 */
#include "json_util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_MAX 9007199254740992ull /* 2^53 */

/* Numbers are raw text: exact, and printed without cJSON's double
 * formatting (sprintf, then sscanf to check it). */
static cJSON *raw_number(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static cJSON *raw_number(const char *fmt, ...)
{
    char b[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    return cJSON_CreateRaw(b);
}

cJSON *gm_json_u64(uint64_t v)
{
    if (v <= EXACT_MAX)
        return raw_number("%" PRIu64, v);
    char b[32];
    snprintf(b, sizeof b, "%" PRIu64, v);
    return cJSON_CreateString(b);
}

cJSON *gm_json_i64(int64_t v)
{
    if (v >= -(int64_t)EXACT_MAX && v <= (int64_t)EXACT_MAX)
        return raw_number("%" PRId64, v);
    char b[32];
    snprintf(b, sizeof b, "%" PRId64, v);
    return cJSON_CreateString(b);
}

cJSON *gm_json_str(const char *s) { return s ? cJSON_CreateString(s) : cJSON_CreateNull(); }

cJSON *gm_json_hex64(uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "0x%016" PRIx64, v);
    return cJSON_CreateString(b);
}

cJSON *gm_json_bitmap(const uint64_t *bm, uint64_t units)
{
    if (!bm)
        return cJSON_CreateNull();
    size_t nw = (size_t)(units / 64 + (units % 64 != 0));
    char *s = malloc(nw * 16 + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < nw; i++)
        snprintf(s + i * 16, 17, "%016" PRIx64, bm[i]);
    s[nw * 16] = 0;
    cJSON *j = cJSON_CreateString(s);
    free(s);
    return j;
}

void gm_jfail(struct gm_jctx *c, const char *path, const char *what)
{
    if (c->failed)
        return;
    c->failed = 1;
    snprintf(c->err, c->errlen, "%s: %s", path, what);
}

/* json_exact.c turned a number that is not exactly an integer into NaN. */
#define INEXACT "not an exact integer (out of range, or has a fraction; above 2^53 " \
                "write a decimal string)"
static int inexact(const cJSON *v) { return cJSON_IsNumber(v) && isnan(v->valuedouble); }

void gm_jfail_key(struct gm_jctx *c, const char *path, const char *key, const char *what)
{
    if (c->failed)
        return;
    c->failed = 1;
    snprintf(c->err, c->errlen, "%s.%s: %s", path, key, what);
}

static const char *type_name(int mask)
{
    if (mask & cJSON_Object) return "an object";
    if (mask & cJSON_Array) return "an array";
    if (mask & cJSON_String && mask & cJSON_Number) return "an integer";
    if (mask & cJSON_String) return "a string";
    if (mask & cJSON_Number) return "a number";
    return "a value of another type";
}

const cJSON *gm_jget(struct gm_jctx *c, const cJSON *obj, const char *path,
                     const char *key, int type_mask, int required)
{
    if (c->failed)
        return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v)) {
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

int gm_json_to_u64(const cJSON *v, uint64_t *out)
{
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (!(d >= 0) || d > (double)EXACT_MAX || floor(d) != d)
            return -1;
        *out = (uint64_t)d;
        return 0;
    }
    if (cJSON_IsString(v) && v->valuestring[0] >= '0' && v->valuestring[0] <= '9') {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(v->valuestring, &end, 10);
        if (errno || *end)
            return -1;
        *out = x;
        return 0;
    }
    return -1;
}

uint64_t gm_jget_u64(struct gm_jctx *c, const cJSON *obj, const char *path,
                     const char *key, int required, uint64_t dflt)
{
    const cJSON *v = gm_jget(c, obj, path, key, cJSON_Number | cJSON_String, required);
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

uint64_t gm_jget_umax(struct gm_jctx *c, const cJSON *obj, const char *path,
                      const char *key, int required, uint64_t dflt, uint64_t max)
{
    uint64_t v = gm_jget_u64(c, obj, path, key, required, dflt);
    if (!c->failed && v > max) {
        range_fail(c, path, key, 0, max);
        return dflt;
    }
    return v;
}

int32_t gm_jget_i32(struct gm_jctx *c, const cJSON *obj, const char *path,
                    const char *key, int required, int32_t dflt)
{
    int64_t v = gm_jget_i64(c, obj, path, key, required, dflt);
    if (!c->failed && (v < INT32_MIN || v > INT32_MAX)) {
        range_fail(c, path, key, INT32_MIN, INT32_MAX);
        return dflt;
    }
    return (int32_t)v;
}

int64_t gm_jget_i64(struct gm_jctx *c, const cJSON *obj, const char *path,
                    const char *key, int required, int64_t dflt)
{
    const cJSON *v = gm_jget(c, obj, path, key, cJSON_Number | cJSON_String, required);
    if (!v)
        return dflt;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (floor(d) == d && fabs(d) <= (double)EXACT_MAX)
            return (int64_t)d;
    } else {
        char *end;
        errno = 0;
        long long x = strtoll(v->valuestring, &end, 10);
        if (!errno && *end == 0 && end != v->valuestring)
            return x;
    }
    gm_jfail_key(c, path, key, inexact(v) ? INEXACT : "expected an integer");
    return dflt;
}

char *gm_jget_str(struct gm_jctx *c, const cJSON *obj, const char *path,
                  const char *key, int required)
{
    const cJSON *v = gm_jget(c, obj, path, key, cJSON_String, required);
    if (!v)
        return NULL;
    char *s = strdup(v->valuestring);
    if (!s)
        gm_jfail(c, path, "out of memory");
    return s;
}

uint64_t gm_jget_hex64(struct gm_jctx *c, const cJSON *obj, const char *path,
                       const char *key)
{
    const cJSON *v = gm_jget(c, obj, path, key, cJSON_String, 1);
    if (!v)
        return 0;
    const char *s = v->valuestring;
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

uint64_t *gm_jget_bitmap(struct gm_jctx *c, const cJSON *obj, const char *path,
                         const char *key, uint64_t units)
{
    const cJSON *v = gm_jget(c, obj, path, key, cJSON_String, 0);
    if (!v)
        return NULL;
    size_t nw = (size_t)(units / 64 + (units % 64 != 0));
    if (strlen(v->valuestring) != nw * 16) {
        gm_jfail_key(c, path, key, "bitmap length does not match the allocation's units");
        return NULL;
    }
    uint64_t *bm = calloc(nw ? nw : 1, 8);
    if (!bm) {
        gm_jfail_key(c, path, key, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < nw * 16; i++) {
        int h = hexval(v->valuestring[i]);
        if (h < 0) {
            free(bm);
            gm_jfail_key(c, path, key, "bitmap is not hexadecimal");
            return NULL;
        }
        bm[i / 16] |= (uint64_t)h << (4 * (15 - i % 16));
    }
    return bm;
}
