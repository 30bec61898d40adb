/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Walks the selected functions in program order and records one site per
 * instrumented instruction (ids 0..n-1): kernel entry, memory operations
 * (mem.c), conditional branches and switches, kernel exits, and inline asm
 * that touches memory (recorded, not instrumented). Depends on LLVM-C.
 */
#include <stdlib.h>
#include <string.h>
#include <llvm-c/DebugInfo.h>
#include "internal.h"

/* Fills file/line/column of r from inst's location, else from fn's SP. */
static void locate(struct gm_sites *s, struct gm_site_rec *r, LLVMValueRef inst, LLVMValueRef fn)
{
    LLVMValueRef src = inst && LLVMInstructionGetDebugLoc(inst) ? inst : NULL;
    char *file = src ? gm_loc_file(src) : gm_func_file(fn);
    r->s.file_str = file ? gm_str_intern(&s->str, file, strlen(file)) : 0;
    r->s.line = src ? LLVMGetDebugLocLine(src) : (LLVMGetSubprogram(fn) ? LLVMGetDebugLocLine(fn) : 0);
    r->s.column = src ? LLVMGetDebugLocColumn(src) : 0;
    free(file);
}

/* Does an inline-asm string hold ld./ldu./st./atom./red./cp.async at a word start? */
static int asm_touches_memory(const char *a, size_t n)
{
    static const char *ops[] = {"ld.", "ldu.", "st.", "atom.", "red.", "cp.async"};
    for (size_t i = 0; i < n; i++) {
        char p = i ? a[i - 1] : ' ';
        if ((p >= 'a' && p <= 'z') || (p >= 'A' && p <= 'Z') || (p >= '0' && p <= '9') ||
            p == '_' || p == '.' || p == '%' || p == '$')
            continue;
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
            if (n - i >= strlen(ops[k]) && !memcmp(a + i, ops[k], strlen(ops[k])))
                return 1;
    }
    return 0;
}

static int is_asm_mem(LLVMValueRef in)
{
    if (!LLVMIsACallInst(in) || !LLVMIsAInlineAsm(LLVMGetCalledValue(in)))
        return 0;
    size_t n = 0;
    const char *a = LLVMGetInlineAsmAsmString(LLVMGetCalledValue(in), &n);
    return a && asm_touches_memory(a, n);
}

static void push(struct gm_sites *s, struct gm_site_rec *r, enum gm_site_kind k, uint8_t ev,
                 uint32_t info, uint8_t when)
{
    r->kind = k;
    r->s.event = ev;
    r->s.info = info;
    r->s.when = when;
    gm_site_push(s, r);
}

static void branch_site(struct gm_sites *s, struct gm_site_rec *r, LLVMValueRef in)
{
    if (LLVMGetInstructionOpcode(in) == LLVMSwitch)
        push(s, r, GM_SK_BRANCH, GM_EVENT_BRANCH, LLVMGetNumSuccessors(in) | GM_BRINFO_SWITCH,
             GM_WHEN_BEFORE);
    else if (LLVMGetInstructionOpcode(in) == LLVMBr && LLVMIsConditional(in))
        push(s, r, GM_SK_BRANCH, GM_EVENT_BRANCH, 2, GM_WHEN_BEFORE);
}

static void inst_sites(LLVMModuleRef m, struct gm_sites *s, struct gm_site_rec *proto,
                       LLVMValueRef fn, LLVMValueRef in, int kernel, const struct gm_active *a)
{
    struct gm_site_rec r = *proto;
    r.inst = in;
    locate(s, &r, in, fn);
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    if (op == LLVMRet) {
        if (kernel && a->ev[GM_EV_EXIT])
            push(s, &r, GM_SK_EXIT, GM_EVENT_KERNEL_EXIT, 0, GM_WHEN_BEFORE);
    } else if (op == LLVMBr || op == LLVMSwitch) {
        if (a->ev[GM_EV_BRANCH])
            branch_site(s, &r, in);
    } else if (is_asm_mem(in)) {
        if (a->ev[GM_EV_BMEM] || a->ev[GM_EV_ALOAD]) {
            push(s, &r, GM_SK_ASM, GM_EVENT_ASM_MEM, 0, 0);
            s->n_asm++;
        }
    } else {
        gm_mem_site(in, LLVMGetModuleDataLayout(m), a, s, &r);
    }
}

static void function_sites(LLVMModuleRef m, LLVMValueRef fn, const struct gm_active *a,
                           struct gm_sites *s)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(fn, &n);
    struct gm_site_rec proto;
    memset(&proto, 0, sizeof proto);
    proto.s.func_str = gm_str_intern(&s->str, name, n);
    int kernel = gm_is_kernel(m, fn);
    proto.s.flags = kernel ? GM_SITE_IN_KERNEL : 0;
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    if (kernel && a->ev[GM_EV_ENTRY]) {
        struct gm_site_rec r = proto;
        r.inst = LLVMGetFirstInstruction(entry);
        locate(s, &r, NULL, fn);          /* the kernel's own line */
        push(s, &r, GM_SK_ENTRY, GM_EVENT_KERNEL_ENTRY, 0, GM_WHEN_BEFORE);
    }
    for (LLVMBasicBlockRef b = entry; b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in))
            inst_sites(m, s, &proto, fn, in, kernel, a);
}

int gm_select_sites(LLVMModuleRef m, LLVMValueRef *fns, size_t nfns, const struct gm_active *a,
                    struct gm_sites *s)
{
    gm_str_intern(&s->str, "", 0);
    for (size_t i = 0; i < nfns; i++) {
        gm_note_function(fns[i]);
        function_sites(m, fns[i], a, s);
    }
    return 0;
}
