/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: exact integers in parsed JSON. cJSON keeps a number as a
 * double, so `1e-400` reads as 0, `1.0000000000000000001` as 1 and
 * 9007199254740993 as 9007199254740992: silently wrong counts. This pass
 * reads the number literals of the text again and turns every one that is
 * not exactly an integer of magnitude <= 2^53 into NaN in the tree, which
 * the field readers then reject by path ("expected ... integer"). Fields
 * the reader does not know are not read, so they stay free to hold any
 * number. Depends on cJSON and libc.
 */
#ifndef GM_REPORT_JSON_EXACT_H
#define GM_REPORT_JSON_EXACT_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* text[0..len) is the text root was parsed from. 0, or -1 when the
 * literals and the tree's numbers do not match up (never for cJSON's own
 * parse of that text). */
int gm_json_mark_inexact(const char *text, size_t len, cJSON *root);

/* 1 if the literal s[0..n) is exactly an integer with |v| <= 2^53. */
int gm_json_literal_exact(const char *s, size_t n);

#endif
