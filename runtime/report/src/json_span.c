/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Value extents in JSON text (see json_span.h). Depends on libc only.
 */
#include "json_span.h"

#include <string.h>

size_t gm_jspan_ws(const char *t, size_t len, size_t pos)
{
    while (pos < len && (t[pos] == ' ' || t[pos] == '\t' || t[pos] == '\r' || t[pos] == '\n'))
        pos++;
    return pos;
}

int gm_jspan_string(const char *t, size_t len, size_t pos, size_t *end)
{
    for (size_t i = pos + 1; i < len; i++) {
        if (t[i] == '\\')
            i++;
        else if (t[i] == '"') {
            *end = i + 1;
            return 0;
        }
    }
    *end = len;
    return -1;
}

static int nested(const char *t, size_t len, size_t pos, size_t *end)
{
    long depth = 0;
    for (size_t i = pos; i < len; i++) {
        char ch = t[i];
        if (ch == '"') {
            if (gm_jspan_string(t, len, i, &i)) {
                *end = len;
                return -1;
            }
            i--; /* the loop's i++ moves past the closing quote */
        } else if (ch == '{' || ch == '[') {
            depth++;
        } else if (ch == '}' || ch == ']') {
            if (--depth == 0) {
                *end = i + 1;
                return 0;
            }
        }
    }
    *end = len;
    return -1;
}

int gm_jspan_value(const char *t, size_t len, size_t pos, size_t *end)
{
    if (pos >= len) {
        *end = len;
        return -1;
    }
    if (t[pos] == '"')
        return gm_jspan_string(t, len, pos, end);
    if (t[pos] == '{' || t[pos] == '[')
        return nested(t, len, pos, end);
    size_t i = pos;
    while (i < len && !strchr(",]} \t\r\n", t[i]) && t[i])
        i++;
    *end = i;
    return i == pos ? -1 : 0;
}
