// SPDX-License-Identifier: Apache-2.0
// Link-style test input: calls dlopen and dlerror without <dlfcn.h>, an
// error in every build: gpumemcc's link preinclude must declare neither.
int try_open(void) { return dlopen("x", 2) != 0 || dlerror() != 0; }
