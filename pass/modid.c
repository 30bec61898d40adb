/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Module id: 64-bit FNV-1a over the module's source file name and the names
 * of its defined functions, so -rdc links of several translation units get
 * distinct symbol suffixes. Depends on LLVM-C.
 */
#include "internal.h"

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return (h ^ 0xffu) * 0x100000001b3ull;   /* separator: names never hold 0xff */
}

uint64_t gm_modid(LLVMModuleRef m)
{
    size_t n = 0;
    const char *src = LLVMGetSourceFileName(m, &n);
    uint64_t h = fnv(0xcbf29ce484222325ull, src ? src : "", src ? n : 0);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        const char *name = LLVMGetValueName2(f, &n);
        h = fnv(h, name, n);
    }
    return h;
}
