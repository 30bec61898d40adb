/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Formatted strings in memory of their own (vasprintf without the GNU
 * extension), for every part. Depends on libc only.
 */
#ifndef GM_STRF_H
#define GM_STRF_H

#include <stdarg.h>

/* malloc'd printf; NULL when out of memory or on a bad format. */
char *gm_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *gm_vstrf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
