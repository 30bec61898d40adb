/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test of counter folding and replica sizing (runtime/src/counters.c).
 * No CUDA. */
#include "rt_core.h"

#include <stdio.h>

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); failures++; } } while (0)

int main(void)
{
    enum { R = 4, S = 3, K = 2 };
    uint64_t src[R * S * K], dst[S * K] = {0};
    for (int r = 0; r < R; r++)
        for (int s = 0; s < S; s++)
            for (int k = 0; k < K; k++) src[(r * S + s) * K + k] = (uint64_t)(r + 1) * (s * 10 + k);
    gm_counters_fold(dst, src, R, S, K);
    for (int s = 0; s < S; s++)
        for (int k = 0; k < K; k++) CHECK(dst[s * K + k] == 10u * (uint64_t)(s * 10 + k));
    gm_counters_fold(dst, src, 1, S, K); /* accumulates */
    CHECK(dst[1] == 11);
    CHECK(gm_replicas_for(1) == 1 && gm_replicas_for(132) == 256 && gm_replicas_for(128) == 128);
    CHECK(gm_replicas_for(0) == 1 && gm_replicas_for(1u << 30) == (1u << 16));
    if (failures) return 1;
    printf("counters: ok\n");
    return 0;
}
