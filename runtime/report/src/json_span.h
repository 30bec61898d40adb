/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: finds where JSON values start and end in a text without
 * building them, so that the reader can parse a report one top-level member
 * and one array element at a time: the whole document is never a tree in
 * memory (a cJSON tree takes about ten times its text). Validation of each
 * value is left to cJSON when that value is parsed. Depends on libc only.
 */
#ifndef GM_REPORT_JSON_SPAN_H
#define GM_REPORT_JSON_SPAN_H

#include <stddef.h>

/* Offset of the first byte at or after pos that is not JSON white space. */
size_t gm_jspan_ws(const char *t, size_t len, size_t pos);
/* The end (one past) of the value starting at pos: a string, an object or
 * array (strings inside skipped, brackets counted), or a literal. 0, or -1
 * with *end at the offset where the text stops making sense. */
int gm_jspan_value(const char *t, size_t len, size_t pos, size_t *end);
/* The end of the string starting at pos ('"'), or -1. */
int gm_jspan_string(const char *t, size_t len, size_t pos, size_t *end);

#endif
