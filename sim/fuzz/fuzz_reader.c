/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the trace reader must reject any input with an error
 * (or read it) without crashing, leaking or reading out of bounds. The
 * same bytes are also decoded as the payload of a RECORDS block of each
 * version (what a block with a valid zstd checksum but bad contents would
 * hold, which mutations of whole files rarely reach; version 2 also with
 * compact records, as the simulator's replay decodes), in a buffer of
 * exactly the payload plus the decoders' documented slack.
 * Depends on the reader and the record codecs only.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/trace_io.h"
#include "../trace/reccodec.h"

static void decode_blocks(const uint8_t *data, size_t size)
{
    static struct gm_access out[GM_TRACE_BLOCK_RECORDS];
    uint8_t *buf = malloc(size + GM_REC_SLACK);
    if (!buf) return;
    memcpy(buf, data, size);
    memset(buf + size, 0, GM_REC_SLACK);
    for (int version = 1; version <= 3; version++) {   /* 3: version 2, compact records */
        struct gm_cur c = {buf, buf + size, 0};
        uint64_t n = gm_get_varint(&c);
        if (c.bad || n == 0 || n > GM_TRACE_BLOCK_RECORDS) break;
        if (version == 1) gm_rec_decode_block(&c, out, (size_t)n);
        else gm_rec_decode_block2(&c, out, (size_t)n, version == 3);
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    decode_blocks(data, size);
    char err[256];
    struct gm_trace_reader *r = gm_trace_reader_open_mem(data, size, err, sizeof err);
    if (!r) return 0;
    struct gm_trace_event ev;
    int n = 0;
    while (gm_trace_reader_next(r, &ev) > 0 && n++ < 100000) {}
    gm_trace_reader_close(r);
    return 0;
}
