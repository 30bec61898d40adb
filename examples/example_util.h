/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the example programs: argument parsing, CUDA error
 * checks, an exact checksum (FNV-1a over the result bytes, in index order)
 * and kernel timing with CUDA events (one warm-up launch, then `iters`).
 * Host-only CUDA runtime API; must not depend on gpumem (the examples build
 * with plain nvcc too).
 */
#ifndef GM_EXAMPLE_UTIL_H
#define GM_EXAMPLE_UTIL_H

#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EX_CHECK(call)                                                        \
    do {                                                                      \
        cudaError_t ex_err_ = (call);                                         \
        if (ex_err_ != cudaSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,     \
                    cudaGetErrorString(ex_err_));                             \
            exit(2);                                                          \
        }                                                                     \
    } while (0)

/* argv[i] as a positive int, or `def` when absent; exits on bad input. */
static inline long ex_arg(int argc, char **argv, int i, long def, const char *name)
{
    if (i >= argc) return def;
    char *end = NULL;
    long v = strtol(argv[i], &end, 10);
    if (*argv[i] == '\0' || *end != '\0' || v <= 0 || v > INT_MAX) {
        fprintf(stderr, "%s: bad %s '%s' (want an integer from 1 to %d)\n", argv[0], name, argv[i], INT_MAX);
        exit(1);
    }
    return v;
}

/* Exits with a usage line when more than `max` arguments are given. */
static inline void ex_usage(int argc, char **argv, int max, const char *usage)
{
    if (argc - 1 > max || (argc > 1 && strcmp(argv[1], "--help") == 0)) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        exit(argc > 1 && strcmp(argv[1], "--help") == 0 ? 0 : 1);
    }
}

static inline void *ex_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* FNV-1a 64 over `bytes` bytes, continuing from `h` (start: EX_FNV_INIT). */
#define EX_FNV_INIT 0xcbf29ce484222325ull
static inline uint64_t ex_fnv(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Copies `bytes` of device memory back and folds them into the checksum. */
static inline uint64_t ex_fnv_dev(uint64_t h, const void *dev, size_t bytes)
{
    void *host = ex_malloc(bytes);
    EX_CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
    h = ex_fnv(h, host, bytes);
    free(host);
    return h;
}

/* Deterministic pseudo-random stream (64-bit LCG, high bits out). */
static inline uint32_t ex_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

/* Milliseconds per launch of `launch(ctx)`: one warm-up, then `iters`
 * launches between two CUDA events. Checks launch and execution errors. */
static inline float ex_time_ms(void (*launch)(void *), void *ctx, int iters)
{
    cudaEvent_t t0, t1;
    launch(ctx);
    EX_CHECK(cudaGetLastError());
    EX_CHECK(cudaDeviceSynchronize());
    EX_CHECK(cudaEventCreate(&t0));
    EX_CHECK(cudaEventCreate(&t1));
    EX_CHECK(cudaEventRecord(t0, 0));
    for (int i = 0; i < iters; i++) launch(ctx);
    EX_CHECK(cudaEventRecord(t1, 0));
    EX_CHECK(cudaGetLastError());
    EX_CHECK(cudaEventSynchronize(t1));
    float ms = 0.0f;
    EX_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    EX_CHECK(cudaEventDestroy(t0));
    EX_CHECK(cudaEventDestroy(t1));
    return ms / (float)iters;
}

/* The two lines every example prints last (tests/gpu/run.sh parses them). */
static inline void ex_report(const char *name, uint64_t sum, float ms, int launches)
{
    printf("%s launches: %d\n", name, launches);
    printf("%s checksum: 0x%016llx\n", name, (unsigned long long)sum);
    printf("%s kernel_ms: %.4f\n", name, ms);
}

#endif /* GM_EXAMPLE_UTIL_H */
