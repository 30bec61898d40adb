/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test of the live-allocation set (sim/core/live.h) against a plain
 * array: random inserts (overlapping ones must be refused), removals of
 * present and absent bases, and lookups of addresses at, inside, just
 * past and between ranges, after every operation batch. Then 10^6 ranges
 * in scattered order must go in and out within 5 s of CPU time each way
 * (about 1 s here; the sorted array with a linear scan took minutes).
 * Depends on sim/core/live.c only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../core/live.h"

#if defined(__SANITIZE_ADDRESS__)
#define LIMIT_S 50.0   /* AddressSanitizer build: several times slower */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LIMIT_S 50.0
#endif
#endif
#ifndef LIMIT_S
#define LIMIT_S 5.0
#endif

#define MAXR 4096
static struct { uint64_t base, end; uint32_t id; int live; } R[MAXR];
static uint32_t nr;

static uint64_t rnd(uint64_t *x) { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; return *x; }

static uint32_t brute(uint64_t a)
{
    for (uint32_t i = 0; i < nr; i++)
        if (R[i].live && a >= R[i].base && a < R[i].end) return R[i].id;
    return 0;
}

static int overlaps(uint64_t b, uint64_t e)
{
    for (uint32_t i = 0; i < nr; i++)
        if (R[i].live && b < R[i].end && R[i].base < e) return 1;
    return 0;
}

static double now(void)
{
    struct timespec t;   /* CPU time: the test machine may be loaded */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int check(struct gm_liveset *t, uint64_t *x)
{
    for (int k = 0; k < 2000; k++) {
        uint64_t a = rnd(x) % 70000;
        if (k % 4 == 0 && nr) {   /* edges of a known range */
            uint32_t i = (uint32_t)(rnd(x) % nr);
            a = k % 8 ? R[i].end : R[i].base;
        }
        uint64_t b, e;
        uint32_t id = gm_live_find(t, a, &b, &e);
        if (id != brute(a)) { printf("live_test: lookup %llu: %u, want %u\n", (unsigned long long)a, id, brute(a)); return 1; }
        if (id && (a < b || a >= e)) { printf("live_test: lookup %llu: bounds\n", (unsigned long long)a); return 1; }
    }
    return 0;
}

static int scale(void)
{
    enum { N = 1000000 };
    struct gm_liveset t = {0};
    double t0 = now();
    for (uint64_t i = 0; i < N; i++) {
        uint64_t j = i * 611953 % N;   /* scattered order */
        if (gm_live_insert(&t, j * 256, j * 256 + 200, (uint32_t)j + 1)) { printf("live_test: insert failed\n"); return 1; }
    }
    double t1 = now();
    uint32_t bad = 0;
    for (uint64_t j = 0; j < N; j++) {
        uint64_t b, e;
        bad += gm_live_find(&t, j * 256 + 100, &b, &e) != j + 1 || gm_live_find(&t, j * 256 + 200, &b, &e) != 0;
    }
    for (uint64_t i = 0; i < N; i++) bad += gm_live_remove(&t, (i * 786433 % N) * 256) != 0;
    double t2 = now();
    printf("live_test: %d ranges: insert %.3f s, lookups and removal %.3f s (CPU), %u errors, %u left\n", N, t1 - t0,
           t2 - t1, bad, t.count);
    int rc = bad || t.count || t1 - t0 > LIMIT_S || t2 - t1 > LIMIT_S;
    gm_live_destroy(&t);
    return rc;
}

int main(void)
{
    struct gm_liveset t = {0};
    uint64_t x = 88172645463325252ull;
    for (int round = 0; round < 200; round++) {
        for (int k = 0; k < 20 && nr < MAXR; k++) {
            uint64_t b = rnd(&x) % 65536, e = b + 1 + rnd(&x) % (round % 2 ? 64 : 2048);
            int want = overlaps(b, e) ? 1 : 0, got = gm_live_insert(&t, b, e, nr + 1);
            if (got != want) { printf("live_test: insert [%llu,%llu): %d, want %d\n", (unsigned long long)b,
                                      (unsigned long long)e, got, want); return 1; }
            if (!got) R[nr] = (__typeof__(R[0])){b, e, nr + 1, 1}, nr++;
        }
        for (int k = 0; k < 8 && nr; k++) {
            uint32_t i = (uint32_t)(rnd(&x) % nr);
            uint64_t b = k % 4 == 3 ? R[i].base + 1 : R[i].base;   /* sometimes not a base */
            int present = 0;
            for (uint32_t j = 0; j < nr; j++) present |= R[j].live && R[j].base == b;
            if ((gm_live_remove(&t, b) == 0) != present) { printf("live_test: remove %llu\n", (unsigned long long)b); return 1; }
            for (uint32_t j = 0; j < nr; j++) if (R[j].base == b) R[j].live = 0;
        }
        if (check(&t, &x)) return 1;
    }
    printf("live_test: %u ranges inserted, %u live: lookups agree\n", nr, t.count);
    gm_live_destroy(&t);
    return scale();
}
