/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Readable C++ names (kernels, host functions), for every part. The C++
 * runtime's demangler is referenced weakly: in a process without
 * libstdc++ (or libc++abi) names stay as they are. Depends on libc only.
 */
#ifndef GM_DEMANGLE_H
#define GM_DEMANGLE_H

#include <stddef.h>

/* The demangled name, malloc'd; NULL when name is not a mangled C++ name,
 * there is no demangler, or out of memory. */
char *gm_demangle_dup(const char *name);

/* The demangled name, else the name itself ("?" for NULL), into buf: cut
 * to len-1 characters with "..." at the end when longer. Returns buf. */
const char *gm_demangle(const char *name, char *buf, size_t len);

#endif
