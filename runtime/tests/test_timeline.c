/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test of the API timeline (runtime/src/timeline.c): order, growth,
 * names. No CUDA. */
#include "rt_core.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); failures++; } } while (0)

int main(void)
{
    struct gm_timeline tl;
    gm_timeline_init(&tl);
    for (int i = 0; i < 1000; i++) {
        struct gm_tl_event e = {.kind = (uint8_t)(1 + i % 6), .bytes = (uint64_t)i,
                                .api = gm_intern(i % 2 ? "cudaMemcpy" : "cudaMalloc")};
        CHECK(gm_timeline_append(&tl, &e) == (uint64_t)i + 1);
    }
    CHECK(tl.n == 1000);
    for (size_t i = 0; i < tl.n; i++) CHECK(tl.ev[i].seq == i + 1 && tl.ev[i].bytes == i);
    CHECK(tl.ev[1].api == gm_intern("cudaMemcpy") && tl.ev[0].api != tl.ev[1].api);
    CHECK(!strcmp(gm_tl_kind_name(GM_TL_COPY), "copy") && !strcmp(gm_tl_kind_name(99), "?"));
    CHECK(!strcmp(gm_tl_dir_name(GM_DIR_D2H), "DtoH"));
    gm_timeline_destroy(&tl);
    /* a limit keeps the first events and counts the rest */
    gm_timeline_init(&tl);
    tl.limit = 10;
    for (int i = 0; i < 25; i++) {
        struct gm_tl_event e = {.kind = GM_TL_SET};
        CHECK(gm_timeline_append(&tl, &e) == (i < 10 ? (uint64_t)i + 1 : 0));
    }
    CHECK(tl.n == 10 && tl.dropped == 15);
    gm_timeline_destroy(&tl);
    if (failures) return 1;
    printf("timeline: ok\n");
    return 0;
}
