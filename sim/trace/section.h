/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace file framing shared by writer and reader: file header, section
 * header (type, raw and compressed length, header check), section types and
 * limits. Internal to sim/trace (docs/trace-format.md is the public spec).
 */
#ifndef GM_TRACE_SECTION_H
#define GM_TRACE_SECTION_H

#include <stdint.h>

enum gm_sec {
    GM_SEC_GPU = 1, GM_SEC_MODULE = 2, GM_SEC_ALLOC = 3, GM_SEC_FREE = 4,
    GM_SEC_LAUNCH = 5, GM_SEC_RECORDS = 6, GM_SEC_LAUNCH_END = 7, GM_SEC_END = 8,
    GM_SEC_COPY = 9
};
#define GM_FILE_HDR_SIZE 16u     /* magic[8], version u32, flags u32 */
#define GM_SEC_HDR_SIZE 16u      /* type, raw_len, comp_len, check: u32 each */
#define GM_SEC_MAX_RAW (16u << 20)

/* FNV-1a over the first 12 bytes of a section header. */
static inline uint32_t gm_sec_check(const uint8_t *h)
{
    uint32_t x = 2166136261u;
    for (int i = 0; i < 12; i++) x = (x ^ h[i]) * 16777619u;
    return x;
}

#endif
