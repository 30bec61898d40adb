/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test of counter folding and replica sizing (runtime/src/counters.c).
 * No CUDA. */
#include "rt_core.h"

#include <stdio.h>
#include <stdlib.h>

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); failures++; } } while (0)

int main(void)
{
    enum { R = 4, S = 3, K = 2 };
    uint64_t src[R * S * K], dst[S * K] = {0};
    for (int r = 0; r < R; r++)
        for (int s = 0; s < S; s++)
            for (int k = 0; k < K; k++) src[(r * S + s) * K + k] = (uint64_t)(r + 1) * (s * 10 + k);
    gm_counters_fold(dst, src, R, S, K, NULL);
    for (int s = 0; s < S; s++)
        for (int k = 0; k < K; k++) CHECK(dst[s * K + k] == 10u * (uint64_t)(s * 10 + k));
    gm_counters_fold(dst, src, 1, S, K, NULL); /* accumulates */
    CHECK(dst[1] == 11);

    /* "|or" slots (abi.h) hold bit masks: replicas and launches are OR-ed */
    int err = 0;
    uint8_t *ors = gm_slot_or_flags("warps,ones|or", K, &err);
    CHECK(!err && ors && ors[0] == 0 && ors[1] == 1);
    uint64_t msrc[R * S * K], mdst[S * K] = {0};
    for (int r = 0; r < R; r++)
        for (int s = 0; s < S; s++) {
            msrc[(r * S + s) * K] = 1;                        /* one warp per replica */
            msrc[(r * S + s) * K + 1] = r < 2 ? 0x3f800000u : 0; /* the same mask twice */
        }
    gm_counters_fold(mdst, msrc, R, S, K, ors);
    gm_counters_fold(mdst, msrc, R, S, K, ors);               /* a second launch */
    for (int s = 0; s < S; s++) CHECK(mdst[s * K] == 2 * R && mdst[s * K + 1] == 0x3f800000u);
    free(ors);
    CHECK(gm_slot_or_flags("a,b,c", 3, &err) == NULL && !err);
    CHECK(gm_slot_or_flags("", 3, &err) == NULL && !err);
    CHECK(gm_slot_name_len("ones|or,zeros|or") == 4 && gm_slot_name_len("zeros|or") == 5);
    CHECK(gm_slot_name_len("or") == 2 && gm_slot_name_len("|or") == 0 && gm_slot_name_len("a,b") == 1);
    CHECK(gm_replicas_for(1) == 1 && gm_replicas_for(132) == 256 && gm_replicas_for(128) == 128);
    CHECK(gm_replicas_for(0) == 1 && gm_replicas_for(1u << 30) == (1u << 16));
    if (failures) return 1;
    printf("counters: ok\n");
    return 0;
}
