/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small helpers shared by the pass's C files: error messages, strings, the
 * growing site array, a function's instruction count. Depends on libc and
 * LLVM-C (Core).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

int gm_fail(struct gm_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (e && e->buf && e->len)
        vsnprintf(e->buf, e->len, fmt, ap);
    va_end(ap);
    return -1;
}

int gm_starts_with(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

char *gm_strdup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        abort();
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

int gm_site_push(struct gm_sites *s, const struct gm_site_rec *r)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct gm_site_rec *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            abort();
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = *r;
    return (int)(s->n - 1);
}

void gm_sites_free(struct gm_sites *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

static char gm_where[256];

void gm_note_function(LLVMValueRef f)
{
    size_t n = 0;
    const char *name = f ? LLVMGetValueName2(f, &n) : NULL;
    if (!name)
        name = "", n = 0;
    if (n >= sizeof gm_where)
        n = sizeof gm_where - 1;
    memcpy(gm_where, name, n);
    gm_where[n] = 0;
}

const char *gm_pass_where(void)
{
    return gm_where;
}

unsigned gm_count_insts(LLVMValueRef f)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            n++;
    return n;
}

unsigned gm_attr_kind(const char *name)
{
    return LLVMGetEnumAttributeKindForName(name, strlen(name));
}

int gm_memory_none(LLVMAttributeRef a)
{
    return a && LLVMGetEnumAttributeValue(a) == 0;   /* memory(none) */
}

int gm_intrinsic_pure(LLVMValueRef f)
{
    return f && LLVMIsAFunction(f) && LLVMGetIntrinsicID(f) &&
           gm_memory_none(LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, gm_attr_kind("memory")));
}
