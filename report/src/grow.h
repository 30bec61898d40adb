/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal helper of the report library: grow a dynamic array by one zeroed
 * element. Depends on libc only.
 */
#ifndef GM_REPORT_GROW_H
#define GM_REPORT_GROW_H

#include <stddef.h>

/* Makes room for one more element of size `elem` in *arr (count n, capacity
 * *cap), zeroes it and returns it; NULL (array unchanged) when out of memory. */
void *gm_grow(void **arr, size_t n, size_t *cap, size_t elem);

#define GM_GROW(arr, n, cap) gm_grow((void **)&(arr), (n), &(cap), sizeof *(arr))

#endif
