/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: growable argument vectors and small string helpers. Out of memory
 * ends the process with a message. Depends on libc only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gpumemcc.h"

static void *gm_xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fputs("gpumemcc: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

char *gm_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(gm_xrealloc(NULL, n), s, n);
}

static char *gm_vasprintf(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = gm_xrealloc(NULL, (size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *gm_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = gm_vasprintf(fmt, ap);
    va_end(ap);
    return s;
}

/* Prints "gpumemcc: <message>" and returns the usage exit status. */
int gm_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpumemcc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return GM_EXIT_USAGE;
}

static void gm_sv_take(struct gm_strvec *sv, char *s)
{
    if (sv->n + 2 > sv->cap) {
        sv->cap = sv->cap ? sv->cap * 2 : 16;
        sv->v = gm_xrealloc(sv->v, sv->cap * sizeof *sv->v);
    }
    sv->v[sv->n++] = s;
    sv->v[sv->n] = NULL;
}

void gm_sv_push(struct gm_strvec *sv, const char *s)
{
    gm_sv_take(sv, gm_xstrdup(s));
}

void gm_sv_pushf(struct gm_strvec *sv, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gm_sv_take(sv, gm_vasprintf(fmt, ap));
    va_end(ap);
}

void gm_sv_append(struct gm_strvec *dst, const struct gm_strvec *src)
{
    for (size_t i = 0; i < src->n; i++)
        gm_sv_push(dst, src->v[i]);
}

/* Appends each non-empty sep-separated item of list. */
void gm_sv_split(struct gm_strvec *sv, const char *list, char sep)
{
    while (*list) {
        const char *e = strchr(list, sep);
        size_t n = e ? (size_t)(e - list) : strlen(list);
        if (n)
            gm_sv_take(sv, strndup(list, n));
        list += n + (e != NULL);
    }
}

void gm_sv_free(struct gm_strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    memset(sv, 0, sizeof *sv);
}

bool gm_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* "dir/name.cu" -> "name" (newly allocated). */
char *gm_basename_noext(const char *path)
{
    const char *b = strrchr(path, '/');
    char *s = gm_xstrdup(b ? b + 1 : path);
    char *dot = strrchr(s, '.');
    if (dot && dot != s)
        *dot = '\0';
    return s;
}

/* Same file (device and inode), or the same name where either is missing. */
bool gm_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) || stat(b, &sb))
        return !strcmp(a, b);
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
