/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of common/: array growth, formatted strings, demangling (the
 * test links libstdc++, so mangled names must come back readable) and the
 * binary search. Depends on common/ and libc.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gm_demangle.h"
#include "gm_grow.h"
#include "gm_search.h"
#include "gm_strf.h"

static int failures;
#define CHECK(c) \
    do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); failures++; } } while (0)

static void test_grow(void)
{
    int *v = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < 1000; i++) {
        int *slot = GM_GROW(v, n, cap);
        CHECK(slot && *slot == 0 && cap > n);
        *slot = i;
        n++;
    }
    for (int i = 0; i < 1000; i++) CHECK(v[i] == i);
    CHECK(cap >= 1000 && cap < 2048);
    /* need * elem overflows: refused, array unchanged */
    size_t before = cap;
    CHECK(GM_GROW_TO(v, cap, SIZE_MAX / 2) == -1 && cap == before && v[999] == 999);
    CHECK(GM_GROW_TO(v, cap, 10) == 0 && cap == before); /* already room */
    free(v);
    char *b = NULL;
    size_t bc = 0;
    CHECK(GM_GROW_TO(b, bc, 1) == 0 && bc == 8);
    CHECK(GM_GROW_TO(b, bc, 9) == 0 && bc == 16);
    CHECK(GM_GROW_TO(b, bc, 100) == 0 && bc == 128);
    free(b);
}

static void test_strf(void)
{
    char *s = gm_strf("%s-%d-%.1f", "a", 42, 1.5);
    CHECK(s && strcmp(s, "a-42-1.5") == 0);
    free(s);
    char big[5000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    s = gm_strf("<%s>", big);
    CHECK(s && strlen(s) == sizeof big + 1 && s[0] == '<' && s[sizeof big] == '>');
    free(s);
}

static void test_demangle(void)
{
    char buf[64];
    char *d = gm_demangle_dup("_Z5chasePKjPji");
    CHECK(d && strcmp(d, "chase(unsigned int const*, unsigned int*, int)") == 0);
    free(d);
    CHECK(gm_demangle_dup("main") == NULL && gm_demangle_dup("_Zgarbage") == NULL && !gm_demangle_dup(NULL));
    CHECK(strcmp(gm_demangle("_Z5chasePKjPji", buf, sizeof buf), "chase(unsigned int const*, unsigned int*, int)") == 0);
    CHECK(strcmp(gm_demangle("vecadd", buf, sizeof buf), "vecadd") == 0);
    CHECK(strcmp(gm_demangle(NULL, buf, sizeof buf), "?") == 0);
    CHECK(strcmp(gm_demangle("_Z5chasePKjPji", buf, 12), "chase(un...") == 0);
    CHECK(strcmp(gm_demangle("abcdef", buf, 3), "") == 0);
}

struct keys { const int *k; int x; };
static int below(const void *ctx, size_t i)
{
    const struct keys *c = ctx;
    return c->k[i] < c->x;
}
static int at_most(const void *ctx, size_t i)
{
    const struct keys *c = ctx;
    return c->k[i] <= c->x;
}

static void test_search(void)
{
    static const int k[] = {1, 3, 3, 3, 7, 9};
    struct keys c = {k, 3};
    CHECK(gm_partition_point(6, below, &c) == 1);
    CHECK(gm_partition_point(6, at_most, &c) == 4);
    c.x = 0;
    CHECK(gm_partition_point(6, below, &c) == 0);
    c.x = 10;
    CHECK(gm_partition_point(6, at_most, &c) == 6);
    CHECK(gm_partition_point(0, at_most, &c) == 0);
    for (int x = -1; x <= 11; x++) { /* against a linear scan */
        c.x = x;
        size_t lin = 0;
        while (lin < 6 && k[lin] < x) lin++;
        CHECK(gm_partition_point(6, below, &c) == lin);
    }
}

int main(void)
{
    test_grow();
    test_strf();
    test_demangle();
    test_search();
    if (failures) fprintf(stderr, "%d failures\n", failures);
    else printf("common: all passed\n");
    return failures != 0;
}
