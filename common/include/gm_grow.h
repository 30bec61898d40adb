/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Growth of dynamic arrays, for every part (runtime, report library,
 * simulator, drivers): capacity doubles, and on failure the array is left
 * as it was. Depends on libc only.
 */
#ifndef GM_GROW_H
#define GM_GROW_H

#include <stddef.h>

/* Makes *cap (elements of size elem in *arr) at least need: doubling, at
 * least 8. 0, or -1 when out of memory (or need * elem overflows) with
 * *arr and *cap unchanged. */
int gm_grow_to(void **arr, size_t *cap, size_t need, size_t elem);

/* Room for one more element after the n in *arr, zeroed and returned;
 * NULL (array unchanged) when out of memory. The caller counts it. */
void *gm_grow(void **arr, size_t n, size_t *cap, size_t elem);

/* The same on a typed array and its size_t capacity. */
#define GM_GROW_TO(arr, cap, need) gm_grow_to((void **)&(arr), &(cap), (need), sizeof *(arr))
#define GM_GROW(arr, n, cap) gm_grow((void **)&(arr), (n), &(cap), sizeof *(arr))

#endif
