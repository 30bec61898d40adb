/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known-answer GPU tests for the built-in analyses: shared helpers. Each
 * program launches small kernels whose counts are derived by hand (see
 * README.md) and prints one line per expected counter:
 *   expect <kernel> <file>:<line> <analysis>.<slot> <value>
 * The runtime's report gives the measured counters per site (file:line).
 * Host CUDA runtime only; must not depend on gpumem.
 */
#ifndef GM_KAT_H
#define GM_KAT_H
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define KAT_CHECK(call)                                                       \
    do {                                                                      \
        cudaError_t kat_err_ = (call);                                        \
        if (kat_err_ != cudaSuccess) {                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,     \
                    cudaGetErrorString(kat_err_));                            \
            exit(2);                                                          \
        }                                                                     \
    } while (0)

static inline void kat_expect(const char *kernel, const char *file, int line,
                              const char *counter, unsigned long long value)
{
    printf("expect %s %s:%d %s %llu\n", kernel, file, line, counter, value);
}

static inline void kat_expect_hex(const char *kernel, const char *file, int line,
                                  const char *counter, unsigned long long value)
{
    printf("expect %s %s:%d %s 0x%llx\n", kernel, file, line, counter, value);
}

static inline void kat_sync(void) { KAT_CHECK(cudaGetLastError()); KAT_CHECK(cudaDeviceSynchronize()); }
#endif
