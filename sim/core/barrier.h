/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Barrier for the parallel driver's phases (five per window): waiters poll
 * briefly, yielding the CPU every 64 polls, and only then sleep on a
 * condition variable, so a phase that ends soon costs no kernel wake-up,
 * and an oversubscribed machine is not kept busy. Full memory
 * synchronisation like pthread_barrier_wait: whatever a thread wrote before
 * the barrier is visible to all after it. Internal to sim/core; C11 atomics
 * and pthreads only.
 */
#ifndef GM_SIM_BARRIER_H
#define GM_SIM_BARRIER_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef GM_BAR_SPIN
#define GM_BAR_SPIN 4000   /* polls before sleeping */
#endif

struct gm_bar {
    _Atomic uint32_t arrived, gen;
    uint32_t n;
    pthread_mutex_t m;
    pthread_cond_t cv;
};

static inline void gm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline int gm_bar_init(struct gm_bar *b, uint32_t n)
{
    atomic_init(&b->arrived, 0);
    atomic_init(&b->gen, 0);
    b->n = n;
    if (pthread_mutex_init(&b->m, NULL)) return -1;
    if (pthread_cond_init(&b->cv, NULL)) { pthread_mutex_destroy(&b->m); return -1; }
    return 0;
}

static inline void gm_bar_destroy(struct gm_bar *b)
{
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->m);
}

/* Arrives without waiting: 1 if this was the last of n (the barrier is
 * open: the count is reset and the next generation begun), else 0. g is
 * the generation read before arriving. */
static inline int gm_bar_arrive(struct gm_bar *b, uint32_t g)
{
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 != b->n) return 0;
    atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
    pthread_mutex_lock(&b->m);
    atomic_store_explicit(&b->gen, g + 1, memory_order_release);
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->m);
    return 1;
}

/* The last of n threads to arrive resets the count and opens the next
 * generation; the others wait for the generation to change. */
static inline void gm_bar_wait(struct gm_bar *b)
{
    uint32_t g = atomic_load_explicit(&b->gen, memory_order_acquire);
    if (gm_bar_arrive(b, g)) return;
    for (int i = 0; i < GM_BAR_SPIN; i++) {
        if (atomic_load_explicit(&b->gen, memory_order_acquire) != g) return;
        if ((i & 63) == 63) sched_yield();   /* oversubscribed: let the awaited thread run */
        else gm_cpu_relax();
    }
    pthread_mutex_lock(&b->m);
    while (atomic_load_explicit(&b->gen, memory_order_acquire) == g) pthread_cond_wait(&b->cv, &b->m);
    pthread_mutex_unlock(&b->m);
}

#endif
