/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Process-wide runtime state, the per-thread re-entry guard, clocks and
 * the one-line warning channel. Depends on the runtime core and CUDA types;
 * never on LLVM.
 */
#include "rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

GM_HIDDEN struct gm_state gm_st = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .launch_lock = PTHREAD_MUTEX_INITIALIZER,
    .sync_lock = PTHREAD_MUTEX_INITIALIZER,
};
GM_HIDDEN int gm_verbose;

static _Thread_local struct gm_tls tls;

struct gm_tls *gm_tls(void)
{
    return &tls;
}

uint64_t gm_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void gm_state_init(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    gm_st.wall0_ns = (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
    gm_st.t0_ns = gm_now_ns();
    gm_alloc_init(&gm_st.allocs);
    gm_timeline_init(&gm_st.tl);
    gm_st.tl.limit = (size_t)gm_env_u64("GPUMEM_MAX_EVENTS", 1000000, 0, SIZE_MAX);
    gm_verbose = (int)gm_env_u64("GPUMEM_VERBOSE", 0, 0, 2);
}

static void keep_note(const char *line)
{
    pthread_mutex_lock(&gm_st.lock);
    if (gm_st.nnotes < sizeof gm_st.notes / sizeof gm_st.notes[0])
        gm_st.notes[gm_st.nnotes++] = strdup(line);
    pthread_mutex_unlock(&gm_st.lock);
}

void gm_warn(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gpumem: %s\n", line);
    keep_note(line);
}

void gm_debug(const char *fmt, ...)
{
    if (gm_verbose < 2) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("gpumem[debug]: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
