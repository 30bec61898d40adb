/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the JSON reader's checked field access, with one-line errors
 * naming the field: exact 64-bit integers, hex strings and bitmaps.
 * Depends on libc and the tokenizer's values (json_parse.h) only.
 */
#ifndef GM_REPORT_JSON_UTIL_H
#define GM_REPORT_JSON_UTIL_H

#include "json_parse.h"
#include <stddef.h>
#include <stdint.h>

/* Reader context: the first error wins; path names the field. */
struct gm_jctx {
    char *err;
    size_t errlen;
    int failed;
};
void gm_jfail(struct gm_jctx *c, const char *path, const char *what);
/* The same for field `key` of path: "PATH.KEY: what" (built only on failure). */
void gm_jfail_key(struct gm_jctx *c, const char *path, const char *key, const char *what);

/* The path "BASE.KEY[IDX]" into buf (key NULL: no ".KEY"; idx < 0: no
 * "[IDX]"), cut to len - 1 bytes like snprintf; without printf's cost, as
 * it is made for every element read. */
void gm_jpath(char *buf, size_t len, const char *base, const char *key, long long idx);

const struct gm_jv *gm_jget(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                     const char *key, int type_mask, int required);
uint64_t gm_jget_u64(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                     const char *key, int required, uint64_t dflt);
/* Like gm_jget_u64, but the value must be <= max (the field's C type):
 * "expected an integer from 0 to MAX" otherwise. */
uint64_t gm_jget_umax(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                      const char *key, int required, uint64_t dflt, uint64_t max);
#define gm_jget_u32(c, o, p, k, req, d) ((uint32_t)gm_jget_umax(c, o, p, k, req, d, UINT32_MAX))
#define gm_jget_u8(c, o, p, k, req, d) ((uint8_t)gm_jget_umax(c, o, p, k, req, d, UINT8_MAX))
/* A signed field of 32 bits (device ordinals, exit status, ...). */
int32_t gm_jget_i32(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                    const char *key, int required, int32_t dflt);
int64_t gm_jget_i64(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                    const char *key, int required, int64_t dflt);
/* Returns a malloc'd copy, NULL for null/missing (when not required). */
char *gm_jget_str(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                  const char *key, int required);
uint64_t gm_jget_hex64(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                       const char *key);
/* Parses a value as u64 (number or decimal string). */
int gm_json_to_u64(const struct gm_jv *v, uint64_t *out);
/* Decodes a hex bitmap of `units` bits; NULL for JSON null; sets an error
 * and returns NULL when malformed. */
uint64_t *gm_jget_bitmap(struct gm_jctx *c, const struct gm_jv *obj, const char *path,
                         const char *key, uint64_t units);

#endif
