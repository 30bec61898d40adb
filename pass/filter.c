/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Chooses the functions to instrument: definitions only, never gpumem's own
 * (gm_ / __gm_ names, code linked from handler bitcode). Kernels must match
 * -gm-kernels (mangled or demangled name) and -gm-files; other device
 * functions must match -gm-files and, when -gm-kernels is given, be reached
 * by direct calls from a selected kernel. Depends on LLVM-C and libc.
 */
#include <stdlib.h>
#include <string.h>
#include <llvm-c/DebugInfo.h>
#include "internal.h"

/* libstdc++'s demangler (extern "C", present in every host that loads us). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

#define GM_PTX_KERNEL_CC 71u

int gm_is_kernel(LLVMModuleRef m, LLVMValueRef f)
{
    if (LLVMGetFunctionCallConv(f) == GM_PTX_KERNEL_CC)
        return 1;
    unsigned n = LLVMGetNamedMetadataNumOperands(m, "nvvm.annotations");
    if (!n)
        return 0;
    LLVMValueRef *ops = calloc(n, sizeof *ops);
    LLVMGetNamedMetadataOperands(m, "nvvm.annotations", ops);
    int found = 0;
    for (unsigned i = 0; i < n && !found; i++) {
        LLVMValueRef md[3];
        if (LLVMGetMDNodeNumOperands(ops[i]) < 3)
            continue;
        LLVMGetMDNodeOperands(ops[i], md);
        unsigned len = 0;
        const char *k = md[1] ? LLVMGetMDString(md[1], &len) : NULL;
        found = md[0] == f && k && len == 6 && !memcmp(k, "kernel", 6);
    }
    free(ops);
    return found;
}

static char *join_path(const char *dir, unsigned dlen, const char *file, unsigned flen)
{
    if (!file || !flen)
        return NULL;
    if (file[0] == '/' || !dir || !dlen)
        return gm_strdup(file, flen);
    char *p = malloc((size_t)dlen + flen + 2);
    if (!p)
        abort();
    memcpy(p, dir, dlen);
    p[dlen] = '/';
    memcpy(p + dlen + 1, file, flen);
    p[dlen + 1 + flen] = 0;
    return p;
}

/* Works for instructions (their !dbg) and functions (their DISubprogram). */
char *gm_loc_file(LLVMValueRef v)
{
    unsigned flen = 0, dlen = 0;
    const char *file = LLVMGetDebugLocFilename(v, &flen);
    const char *dir = LLVMGetDebugLocDirectory(v, &dlen);
    return join_path(dir, dlen, file, flen);
}

char *gm_func_file(LLVMValueRef f)
{
    return LLVMGetSubprogram(f) ? gm_loc_file(f) : NULL;
}

static int matches(const regex_t *re, const char *s)
{
    return s && regexec(re, s, 0, NULL, 0) == 0;
}

static int file_ok(const struct gm_cfg *c, LLVMModuleRef m, LLVMValueRef f)
{
    if (!c->has_fre)
        return 1;
    char *path = gm_func_file(f);
    size_t n = 0;
    const char *src = LLVMGetSourceFileName(m, &n);
    char *srcz = gm_strdup(src ? src : "", src ? n : 0);
    int ok = path ? matches(&c->fre, path) : matches(&c->fre, srcz);
    if (!ok && path) {
        const char *base = strrchr(path, '/');
        ok = base && matches(&c->fre, base + 1);
    }
    free(path);
    free(srcz);
    return ok;
}

static int kernel_ok(const struct gm_cfg *c, const char *name)
{
    if (!c->has_kre || matches(&c->kre, name))
        return 1;
    int status = -1;
    char *dem = __cxa_demangle(name, NULL, NULL, &status);
    int ok = status == 0 && matches(&c->kre, dem);
    free(dem);
    return ok;
}

/* Never instrumented: declarations, intrinsics, gpumem's own code and its
 * uninstrumented copies (clone.c). */
static int is_candidate(LLVMValueRef f)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    if (LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f))
        return 0;
    if (gm_starts_with(name, GM_SYMBOL_PREFIX) || gm_starts_with(name, GM_PRIVATE_PREFIX) ||
        gm_is_native_copy(f))
        return 0;
    return !LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, GM_HANDLER_ATTR,
                                          (unsigned)strlen(GM_HANDLER_ATTR));
}

static size_t index_of(LLVMValueRef *fns, size_t n, LLVMValueRef f)
{
    for (size_t i = 0; i < n; i++)
        if (fns[i] == f)
            return i;
    return n;
}

/* Marks (mark[i] = 1) every function reached by direct calls from marked ones. */
static void mark_reachable(LLVMValueRef *fns, size_t n, char *mark)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            if (!mark[i])
                continue;
            for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fns[i]); b; b = LLVMGetNextBasicBlock(b))
                for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
                    if (!LLVMIsACallInst(in))
                        continue;
                    size_t j = index_of(fns, n, LLVMGetCalledValue(in));
                    if (j < n && !mark[j])
                        mark[j] = changed = 1;
                }
        }
    }
}

static const char *fn_name(LLVMValueRef f)
{
    size_t n = 0;
    return LLVMGetValueName2(f, &n);
}

int gm_select_functions(LLVMModuleRef m, const struct gm_cfg *c, LLVMValueRef **out, size_t *nout)
{
    size_t n = 0, k = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        n++;
    LLVMValueRef *fns = calloc(n + 1, sizeof *fns);
    char *kern = calloc(n + 1, 1), *mark = calloc(n + 1, 1);
    if (!fns || !kern || !mark)
        abort();
    n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f), n++) {
        fns[n] = f;
        kern[n] = (char)gm_is_kernel(m, f);
        /* without -gm-kernels every function starts selected */
        mark[n] = kern[n] ? (char)kernel_ok(c, fn_name(f)) : !c->has_kre;
    }
    if (c->has_kre)
        mark_reachable(fns, n, mark);
    for (size_t i = 0; i < n; i++) {
        int kernel_rejected = kern[i] && !kernel_ok(c, fn_name(fns[i]));
        if (mark[i] && !kernel_rejected && is_candidate(fns[i]) && file_ok(c, m, fns[i]))
            fns[k++] = fns[i];
    }
    free(kern);
    free(mark);
    *out = fns;
    *nout = k;
    return 0;
}
