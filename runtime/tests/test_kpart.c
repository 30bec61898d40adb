/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test of the split of a module's sites by kernel (runtime/src/kpart.c)
 * and of folding a range of sites (counters.c). No CUDA. */
#include "rt_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); failures++; } } while (0)

static const char STRS[] = "\0kA\0kB"; /* "" at 0, kA at 1, kB at 4 */

static struct gm_rt_sitetab table(struct gm_sitetab_header *h, const struct gm_site *s, uint32_t n)
{
    memset(h, 0, sizeof *h);
    h->nsites = n;
    h->strings_size = sizeof STRS;
    return (struct gm_rt_sitetab){.hdr = h, .sites = s, .strings = STRS};
}

static void parts(void)
{
    struct gm_sitetab_header h;
    struct gm_site s[5] = {{.func_str = 1}, {.func_str = 1}, {.func_str = 4}, {.func_str = 1}, {.func_str = 4}};
    for (int i = 0; i < 5; i++) s[i].flags = GM_SITE_IN_KERNEL;
    struct gm_rt_sitetab t = table(&h, s, 5);
    struct gm_kpart *p;
    uint32_t n;
    CHECK(gm_kpart_build(&t, &p, &n) == 0 && n == 4);
    CHECK(p[0].lo == 0 && p[0].hi == 2 && !strcmp(p[0].name, "kA"));
    CHECK(p[1].lo == 2 && p[1].hi == 3 && !strcmp(p[1].name, "kB"));
    CHECK(p[2].lo == 3 && p[2].hi == 4 && p[2].name == p[0].name); /* interned */
    CHECK(p[3].lo == 4 && p[3].hi == 5 && p[3].name == p[1].name);
    free(p);
    s[3].flags = 0; /* a site some other kernel may run: no split */
    CHECK(gm_kpart_build(&t, &p, &n) == 0 && n == 0 && p == NULL);
    t = table(&h, s, 0); /* no sites */
    CHECK(gm_kpart_build(&t, &p, &n) == 0 && n == 0 && p == NULL);
}

static void tally(void)
{
    struct gm_ktally t = {0};
    const char *a = gm_intern("kA"), *b = gm_intern("kB");
    for (int i = 0; i < 7; i++) CHECK(gm_ktally_add(&t, i % 3 ? a : b) == 0);
    for (int i = 0; i < 9; i++) CHECK(gm_ktally_add(&t, gm_intern(i % 2 ? "x1" : "x2")) == 0); /* grows */
    CHECK(t.n == 4 && t.v[0].name == b && t.v[0].launches == 3 && t.v[1].name == a && t.v[1].launches == 4);
    CHECK(t.v[2].launches == 5 && t.v[3].launches == 4);
    gm_ktally_free(&t);
    CHECK(t.n == 0 && t.v == NULL);
}

static void fold_range(void)
{
    enum { R = 3, S = 4, K = 2 };
    uint64_t src[R * S * K], dst[S * K] = {0};
    for (int i = 0; i < R * S * K; i++) src[i] = (uint64_t)i + 1;
    gm_counters_fold_sites(dst, src, R, S, K, NULL, 1, 3);
    for (int s = 0; s < S; s++)
        for (int k = 0; k < K; k++) {
            uint64_t want = 0;
            for (int r = 0; s >= 1 && s < 3 && r < R; r++) want += src[(r * S + s) * K + k];
            CHECK(dst[s * K + k] == want);
        }
}

int main(void)
{
    parts();
    tally();
    fold_range();
    if (failures) return 1;
    printf("kpart: ok\n");
    return 0;
}
