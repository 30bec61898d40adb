/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the trace reader must reject any input with an error
 * (or read it) without crashing, leaking or reading out of bounds.
 * Depends on the reader only.
 */
#include <stddef.h>
#include <stdint.h>
#include "gpumem/trace_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    struct gm_trace_reader *r = gm_trace_reader_open_mem(data, size, err, sizeof err);
    if (!r) return 0;
    struct gm_trace_event ev;
    int n = 0;
    while (gm_trace_reader_next(r, &ev) > 0 && n++ < 100000) {}
    gm_trace_reader_close(r);
    return 0;
}
