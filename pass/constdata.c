/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant data placement. clang's Sema gives every namespace-scope or
 * static member variable that is const or constexpr, has a constant
 * initialiser and is not __shared__ an implicit __constant__
 * (SemaCUDA::MaybeAddConstantAttr), `__device__ const` included; nvcc keeps
 * `__device__ const` in global memory. Over ptxas's 64 KiB of constant data
 * a program nvcc builds then fails. Here, before instrumentation (so sites
 * see the final spaces) and under -gm-off too: read the marks that
 * gpumem_nvcc_compat.h puts on the program's own __constant__ (annotate
 * "gpumem.constant") and remove them; if the module's constant data with
 * the handlers' exceeds the limit, move unmarked variables with local
 * linkage to global memory, largest first, until it fits. Depends on LLVM-C,
 * libstdc++'s demangler and asmove.c.
 */
#include <stdlib.h>
#include <string.h>
#include "constdata.h"

extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

#define GM_ANNOTATIONS "llvm.global.annotations"

struct gm_cvars { LLVMValueRef *v; size_t n; };

static void cvars_push(struct gm_cvars *s, LLVMValueRef g)
{
    LLVMValueRef *v = realloc(s->v, (s->n + 1) * sizeof *v);
    if (!v)
        abort();
    s->v = v;
    s->v[s->n++] = g;
}

static int cvars_has(const struct gm_cvars *s, LLVMValueRef g)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == g)
            return 1;
    return 0;
}

static LLVMValueRef strip_casts(LLVMValueRef v)
{
    while (LLVMIsAConstantExpr(v) &&
           (LLVMGetConstOpcode(v) == LLVMAddrSpaceCast || LLVMGetConstOpcode(v) == LLVMBitCast))
        v = LLVMGetOperand(v, 0);
    return v;
}

static int is_const_def(LLVMValueRef g)
{
    return !LLVMIsDeclaration(g) &&
           LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == GM_SPACE_CONST;
}

static uint64_t var_size(LLVMTargetDataRef td, LLVMValueRef g)
{
    return LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
}

uint64_t gm_constdata_bytes(LLVMModuleRef m)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    uint64_t off = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        if (!is_const_def(g))
            continue;
        uint64_t a = LLVMGetAlignment(g);
        if (!a)
            a = LLVMABIAlignmentOfType(td, LLVMGlobalGetValueType(g));
        off = (off + a - 1) / a * a + var_size(td, g);
    }
    return off;
}

uint64_t gm_constdata_reserve(const struct gm_handlers *h)
{
    /* the handlers' own, and __gm_replica_mask__<modid> (modglobals.c) */
    uint64_t r = h ? 8 : 0;
    for (int i = 0; h && i < h->nmods; i++)
        r += gm_constdata_bytes(h->mods[i]);
    return r;
}

static int is_mark(LLVMValueRef s)
{
    s = strip_casts(s);
    LLVMValueRef init = LLVMIsAGlobalVariable(s) ? LLVMGetInitializer(s) : NULL;
    if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
        return 0;
    size_t n = 0;
    const char *str = LLVMGetAsString(init, &n);
    return n == sizeof GM_CONST_MARK && !memcmp(str, GM_CONST_MARK, n);
}

static void set_annotations(LLVMModuleRef m, LLVMTypeRef ty, LLVMValueRef *v, unsigned n)
{
    LLVMDeleteGlobal(LLVMGetNamedGlobal(m, GM_ANNOTATIONS));
    if (!n)
        return;
    LLVMValueRef g = LLVMAddGlobal(m, LLVMArrayType2(ty, n), GM_ANNOTATIONS);
    LLVMSetInitializer(g, LLVMConstArray2(ty, v, n));
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetSection(g, "llvm.metadata");
}

/* Collects the marked variables into marked and removes their annotations
 * (and what only they kept alive); returns 1 if m changed. */
static int take_marks(LLVMModuleRef m, struct gm_cvars *marked)
{
    LLVMValueRef ann = LLVMGetNamedGlobal(m, GM_ANNOTATIONS);
    LLVMValueRef init = ann ? LLVMGetInitializer(ann) : NULL;
    if (!init || !LLVMIsAConstantArray(init))
        return 0;
    unsigned n = (unsigned)LLVMGetNumOperands(init), k = 0;
    LLVMValueRef *keep = malloc((n + 1) * sizeof *keep);
    struct gm_cvars strs = {0};
    if (!keep)
        abort();
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetOperand(init, i);
        if (LLVMGetNumOperands(a) < 3 || !is_mark(LLVMGetOperand(a, 1))) {
            keep[k++] = a;
            continue;
        }
        LLVMValueRef g = strip_casts(LLVMGetOperand(a, 0));
        if (LLVMIsAGlobalVariable(g) && !cvars_has(marked, g))
            cvars_push(marked, g);
        for (unsigned j = 1; j < 3; j++) {
            LLVMValueRef s = strip_casts(LLVMGetOperand(a, j));
            if (LLVMIsAGlobalVariable(s) && !cvars_has(&strs, s))
                cvars_push(&strs, s);
        }
    }
    if (k < n) {
        set_annotations(m, LLVMGetElementType(LLVMTypeOf(init)), keep, k);
        for (size_t i = 0; i < strs.n; i++)
            gm_drop_if_dead(strs.v[i]);
        /* marked variables nothing else uses: GlobalDCE would have
         * dropped them without the annotation */
        size_t j = 0;
        for (size_t i = 0; i < marked->n; i++)
            if (!gm_drop_if_dead(marked->v[i]))
                marked->v[j++] = marked->v[i];
        marked->n = j;
    }
    free(keep);
    free(strs.v);
    return k < n;
}

static int is_local(LLVMValueRef g)
{
    LLVMLinkage l = LLVMGetLinkage(g);
    return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

static LLVMTargetDataRef sort_td;

static int by_size_desc(const void *a, const void *b)
{
    uint64_t x = var_size(sort_td, *(const LLVMValueRef *)a);
    uint64_t y = var_size(sort_td, *(const LLVMValueRef *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Implicit constant variables (not marked), movable ones in mov (largest
 * first); the largest one that cannot move in *stuck. */
static void implicit_vars(LLVMModuleRef m, const struct gm_cvars *marked, struct gm_cvars *mov,
                          LLVMValueRef *stuck)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    *stuck = NULL;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        if (!is_const_def(g) || cvars_has(marked, g))
            continue;
        if (is_local(g) && gm_asmove_ok(g))
            cvars_push(mov, g);
        else if (!*stuck || var_size(td, g) > var_size(td, *stuck))
            *stuck = g;
    }
    sort_td = td;
    if (mov->n)
        qsort(mov->v, mov->n, sizeof *mov->v, by_size_desc);
}

/* Bytes of the marked variables (the program's own __constant__). */
static uint64_t marked_bytes(LLVMModuleRef m, const struct gm_cvars *marked)
{
    uint64_t r = 0;
    for (size_t i = 0; i < marked->n; i++)
        if (is_const_def(marked->v[i]))
            r += var_size(LLVMGetModuleDataLayout(m), marked->v[i]);
    return r;
}

static int stuck_error(LLVMModuleRef m, LLVMValueRef g, uint64_t total, struct gm_err *e)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(g, &n);
    int status = -1;
    char *dem = __cxa_demangle(name, NULL, NULL, &status);
    gm_fail(e,
            "device constant data is %llu bytes, over ptxas's limit of %u: clang placed the "
            "const variable '%s' (%llu bytes) in __constant__ memory, where nvcc uses global "
            "memory, and it cannot be moved (%s); declare it without const (e.g. "
            "'__device__ float' for '__device__ const float')",
            (unsigned long long)total, GM_CONST_LIMIT, status == 0 ? dem : name,
            (unsigned long long)var_size(LLVMGetModuleDataLayout(m), g),
            is_local(g) ? "a use other than loads and address arithmetic"
                        : "other translation units may refer to it");
    free(dem);
    return -1;
}

int gm_constdata_fit(LLVMModuleRef m, uint64_t reserve, struct gm_err *e)
{
    struct gm_cvars marked = {0}, mov = {0};
    int changed = take_marks(m, &marked);
    uint64_t total = gm_constdata_bytes(m) + reserve;
    LLVMValueRef stuck = NULL;
    if (total > GM_CONST_LIMIT)
        implicit_vars(m, &marked, &mov, &stuck);
    /* Moving cannot help when what must stay is over the limit. */
    uint64_t movable = 0;
    for (size_t i = 0; i < mov.n; i++)
        movable += var_size(LLVMGetModuleDataLayout(m), mov.v[i]);
    if (total - movable > GM_CONST_LIMIT)
        mov.n = 0;
    for (size_t i = 0; i < mov.n && total > GM_CONST_LIMIT; i++) {
        gm_asmove(m, mov.v[i], GM_SPACE_GLOBAL);
        total = gm_constdata_bytes(m) + reserve;
        changed = 1;
    }
    /* Over the limit with the program's own __constant__ alone: nvcc fails
     * too, and ptxas says so. */
    if (total > GM_CONST_LIMIT && stuck && marked_bytes(m, &marked) + reserve <= GM_CONST_LIMIT)
        changed = stuck_error(m, stuck, total, e);
    free(marked.v);
    free(mov.v);
    return changed;
}
