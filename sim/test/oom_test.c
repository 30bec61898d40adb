/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Out-of-memory test of the threaded feed: in a child process whose address
 * space is capped just above what the records need, a 2-thread feed of
 * gather records (32 L1-missing lines each: ~100 MB of L2 request queues per
 * window) must fail; gm_sim_error() must say so and gm_sim_end() must
 * return -1 and add nothing instead of returning wrong counts (the child
 * then exits 1). Fails if the feed succeeds (no error reported), counts are
 * returned, or the child ends any other way.
 * usage: gm-sim-oom-test. Depends on libgmsim only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gpumem/abi.h"
#include "gpumem/sim.h"

#define NREC (1u << 16)

static uint64_t rnd(uint64_t *x) { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; return *x; }

static long vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0;
    if (!f || fscanf(f, "%ld", &pages) != 1) pages = 0;
    if (f) fclose(f);
    return pages * sysconf(_SC_PAGESIZE);
}

static int child(void)
{
    struct gm_sim_config c;
    const char *err;
    if (gm_sim_preset(&c, "h100")) return 3;
    c.threads = 2;
    c.window = NREC;
    struct gm_sim *s = gm_sim_new(&c, &err);
    struct gm_access *v = calloc(NREC, sizeof *v);
    if (!s || !v || gm_sim_begin(s, 0)) return 3;
    uint64_t x = 12345;
    for (uint32_t i = 0; i < NREC; i++) {
        v[i].width = 4;
        v[i].space = GM_SPACE_GLOBAL;
        v[i].kind = GM_TRACE_LOAD;
        v[i].active = 0xffffffffu;
        v[i].smid = (uint16_t)(i % 132);
        for (uint32_t l = 0; l < 32; l++) v[i].addr[l] = (rnd(&x) % (1ull << 34)) & ~3ull;
    }
    struct rlimit r = {.rlim_cur = (rlim_t)vm_bytes() + (24 << 20), .rlim_max = RLIM_INFINITY};
    if (setrlimit(RLIMIT_AS, &r)) return 3;
    gm_sim_feed(s, v, NREC);
    if (!gm_sim_error(s)) { fprintf(stderr, "oom-test: feed reported no error\n"); return 2; }
    fprintf(stderr, "oom-test: gm_sim_error: %s\n", gm_sim_error(s));
    struct gm_counts sum = {0};
    struct gm_counts zero = {0};
    if (gm_sim_end(s, &sum) < 0 && !memcmp(&sum, &zero, sizeof sum)) return 1;
    fprintf(stderr, "oom-test: gm_sim_end returned counts\n");
    return 2;
}

int main(void)
{
    fflush(NULL);
    pid_t p = fork();
    if (p < 0) { perror("fork"); return 1; }
    if (p == 0) _exit(child());
    int st;
    if (waitpid(p, &st, 0) != p) { perror("waitpid"); return 1; }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 1) { puts("oom-test: ok (error reported, exit 1)"); return 0; }
    fprintf(stderr, "oom-test: FAIL: child %s %d\n", WIFEXITED(st) ? "exit" : "signal",
            WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    return 1;
}
