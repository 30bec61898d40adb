/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: exact integers in JSON. A double cannot hold every count:
 * `1e-400` would read as 0, `1.0000000000000000001` as 1 and
 * 9007199254740993 as 9007199254740992, silently wrong. The tokenizer
 * (json_parse.h) keeps, for each number literal, whether it is exactly an
 * integer of magnitude <= 2^53 and its value; the field readers reject the
 * others by path ("not an exact integer"). Fields the reader does not know
 * are not read, so they stay free to hold any number. Depends on libc.
 */
#ifndef GM_REPORT_JSON_EXACT_H
#define GM_REPORT_JSON_EXACT_H

#include <stdint.h>
#include <stddef.h>

/* 1 if the literal s[0..n) is exactly an integer with |v| <= 2^53. */
int gm_json_literal_exact(const char *s, size_t n);
/* The same, with the value in *v when exact. */
int gm_json_literal_int(const char *s, size_t n, int64_t *v);

#endif
