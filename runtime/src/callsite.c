/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host call sites of CUDA API calls: capture the return address of the
 * first frame that is not libgpumem, CUDA or CUPTI (the unwinder stops
 * there; whether a return address lies in such a library, or in CUDA code
 * linked into the program itself, is looked up once per address with
 * dladdr and callsite_syms.c, and cached), and resolve it at report time
 * (dladdr; file:line through addr2line when it is installed, once per
 * distinct address). Depends on glibc and uthash only.
 */
#include "rt.h"

#include <dlfcn.h>
#include <unistd.h>
#include <unwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_tool_object(const char *path)
{
    static const char *const skip[] = {"libgpumem", "libcuda", "libcudart", "libcupti",
                                       "libnvidia", "libcublas", "libcufft", NULL};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (int i = 0; skip[i]; i++)
        if (strncmp(base, skip[i], strlen(skip[i])) == 0) return 1;
    return 0;
}

/* The file of a loaded object: dladdr names the program itself by its
 * argv[0], which need not be a path from here (/proc/PID/exe: addr2line
 * runs as another process). */
static const char *object_path(const Dl_info *di)
{
    extern char *program_invocation_name; /* glibc */
    static char exe[32];
    if (*di->dli_fname && strcmp(di->dli_fname, program_invocation_name)) return di->dli_fname;
    if (!exe[0]) snprintf(exe, sizeof exe, "/proc/%ld/exe", (long)getpid());
    return exe;
}

/* Return addresses seen, and whether each lies in a tool library: a small
 * open-addressing cache (launch loops repeat the same few call paths). */
#define PC_CACHE 4096u
static struct { uintptr_t pc; int tool; } g_pcs[PC_CACHE];
static pthread_mutex_t g_pc_lock = PTHREAD_MUTEX_INITIALIZER;

static int is_tool_pc(uintptr_t pc)
{
    uint32_t h = (uint32_t)((pc * 0x9e3779b97f4a7c15ull) >> 52) & (PC_CACHE - 1);
    pthread_mutex_lock(&g_pc_lock);
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t k = (h + i) & (PC_CACHE - 1);
        if (g_pcs[k].pc == pc) {
            int t = g_pcs[k].tool;
            pthread_mutex_unlock(&g_pc_lock);
            return t;
        }
    }
    pthread_mutex_unlock(&g_pc_lock);
    Dl_info di;
    int tool = !dladdr((void *)pc, &di) || !di.dli_fname ? -1
               : is_tool_object(di.dli_fname) ||
                 gm_callsite_in_cuda_code(object_path(&di), (uintptr_t)di.dli_fbase, pc);
    pthread_mutex_lock(&g_pc_lock);
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t k = (h + i) & (PC_CACHE - 1);
        if (!g_pcs[k].pc) {
            g_pcs[k].pc = pc, g_pcs[k].tool = tool;
            break;
        }
    }
    pthread_mutex_unlock(&g_pc_lock);
    return tool;
}

struct walk { int depth; uintptr_t found, slot; };

struct pathwalk { int depth, user; int n, max; uintptr_t *pcs; };

static _Unwind_Reason_Code visit_path(struct _Unwind_Context *ctx, void *arg)
{
    struct pathwalk *w = arg;
    uintptr_t pc = (uintptr_t)_Unwind_GetIP(ctx);
    if (w->depth++ == 0 || !pc) return _URC_NO_REASON;
    if (!w->user) {
        w->user = is_tool_pc(pc) == 0; /* the call site itself: not part of the path */
        return w->depth < 48 ? _URC_NO_REASON : _URC_END_OF_STACK;
    }
    Dl_info di;
    if (dladdr((void *)pc, &di) && di.dli_fname && strstr(di.dli_fname, "libc.so"))
        return _URC_END_OF_STACK; /* __libc_start_main and below */
    w->pcs[w->n++] = pc;
    return w->n < w->max ? _URC_NO_REASON : _URC_END_OF_STACK;
}

void gm_callsite_path(uintptr_t *pcs, int max)
{
    memset(pcs, 0, (size_t)max * sizeof *pcs);
    struct pathwalk w = {0, 0, 0, max, pcs};
    _Unwind_Backtrace(visit_path, &w);
}

/* The CFA a context reports is that of the frame returning to its IP (as
 * measured with libgcc): on x86-64 that return address sits just below it. */
static _Unwind_Reason_Code visit(struct _Unwind_Context *ctx, void *arg)
{
    struct walk *w = arg;
    uintptr_t pc = (uintptr_t)_Unwind_GetIP(ctx);
    if (w->depth++ == 0 || !pc) return _URC_NO_REASON; /* this function */
    if (is_tool_pc(pc) == 0) {
        w->found = pc;
        w->slot = (uintptr_t)_Unwind_GetCFA(ctx) - sizeof(void *);
        return _URC_END_OF_STACK;
    }
    return w->depth < 48 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

/* A launch loop repeats one call path: the same stack pointer here and the
 * same API put the caller's return address in the same stack slot. The
 * slot is remembered per thread and read directly; the value read must be
 * an address outside the tool libraries, else the stack is walked. */
#if defined(__x86_64__)
#define SLOT_CACHE 4
static _Thread_local struct { uintptr_t sp; const void *key; uintptr_t slot; } t_slots[SLOT_CACHE];
static _Thread_local unsigned t_next;
#endif

uintptr_t gm_callsite_capture(const void *key)
{
    struct walk w = {0, 0, 0};
#if defined(__x86_64__)
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    for (unsigned i = 0; i < SLOT_CACHE; i++) {
        if (t_slots[i].sp != sp || t_slots[i].key != key || !t_slots[i].slot) continue;
        uintptr_t pc = *(const uintptr_t *)t_slots[i].slot;
        if (pc && is_tool_pc(pc) == 0) return pc;
    }
    _Unwind_Backtrace(visit, &w);
    if (w.found && w.slot > sp && *(const uintptr_t *)w.slot == w.found) {
        unsigned i = t_next++ % SLOT_CACHE;
        t_slots[i].sp = sp, t_slots[i].key = key, t_slots[i].slot = w.slot;
    }
#else
    (void)key;
    _Unwind_Backtrace(visit, &w);
#endif
    return w.found;
}

/* A place inside CUDA's own headers (cudaMalloc<T> of cuda_runtime.h):
 * with host line tables only (-gline-tables-only) addr2line names an
 * inlined wrapper after the function it was inlined into, so its name
 * alone does not tell (H100 callsites suite: every site at
 * cuda_runtime.h:879 "in main"). */
static int cuda_header(const char *loc)
{
    return strstr(loc, "/cuda_runtime.h:") || strstr(loc, "/cuda_runtime_api.h:") ||
           strstr(loc, "/include/crt/") || strstr(loc, "/cuda/include/") ||
           (strstr(loc, "/targets/") && strstr(loc, "/include/"));
}

/* Function and file:line from addr2line for an offset inside `obj`; 0 on
 * success. With -i addr2line lists the frames inlined at the address,
 * innermost first, each followed by the place it was called from in the
 * next: CUDA's own inline wrappers (cudaMalloc<T> of cuda_runtime.h) are
 * skipped as its out-of-line frames are, so the place is the user's call. */
static int addr2line(const char *obj, uintptr_t off, struct gm_symbolized *out)
{
    char cmd[1200], fn[1024], loc[1024];
    snprintf(cmd, sizeof cmd, "addr2line -C -f -i -e '%s' 0x%lx 2>/dev/null", obj,
             (unsigned long)off);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    int ok = -1, chosen = 0;
    while (!chosen && fgets(fn, sizeof fn, p) && fgets(loc, sizeof loc, p)) {
        fn[strcspn(fn, "\n")] = '\0';
        loc[strcspn(loc, "\n")] = '\0';
        int known = strcmp(fn, "??") != 0;
        if ((known && gm_callsite_cuda_name(fn)) || cuda_header(loc))
            continue; /* the next frame called it */
        chosen = 1;
        if (known) snprintf(out->func, sizeof out->func, "%.255s", fn);
        char *colon = loc[0] != '?' ? strrchr(loc, ':') : NULL;
        if (colon) {
            *colon = '\0';
            out->line = (unsigned)strtoul(colon + 1, NULL, 10);
            snprintf(out->file, sizeof out->file, "%.511s", loc);
            ok = out->line ? 0 : -1;
        }
    }
    while (fgets(fn, sizeof fn, p)) {} /* the rest of the chain */
    pclose(p);
    return ok;
}

/* ET_EXEC objects (non-PIE executables) are addressed absolutely. */
static int is_fixed_address(const char *path)
{
    unsigned char h[18];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    return n == sizeof h && h[16] == 2 && h[17] == 0; /* e_type == ET_EXEC, LE */
}

struct resolved {
    uintptr_t pc;
    int a2l;
    struct gm_symbolized s;
    UT_hash_handle hh;
};
static struct resolved *g_cache; /* report time only, under the runtime lock */

static void resolve_uncached(uintptr_t pc, struct gm_symbolized *out, int use_addr2line);

void gm_callsite_resolve(uintptr_t pc, struct gm_symbolized *out, int use_addr2line)
{
    struct resolved *r;
    HASH_FIND(hh, g_cache, &pc, sizeof pc, r);
    if (r && r->a2l == use_addr2line) {
        *out = r->s;
        return;
    }
    resolve_uncached(pc, out, use_addr2line);
    if (!r && (r = calloc(1, sizeof *r)) != NULL) {
        r->pc = pc;
        HASH_ADD(hh, g_cache, pc, sizeof r->pc, r);
    }
    if (r) {
        r->a2l = use_addr2line;
        r->s = *out;
    }
}

static void resolve_uncached(uintptr_t pc, struct gm_symbolized *out, int use_addr2line)
{
    memset(out, 0, sizeof *out);
    Dl_info di;
    if (!pc || !dladdr((void *)pc, &di) || !di.dli_fname) {
        snprintf(out->file, sizeof out->file, "%s", pc ? "?" : "");
        return;
    }
    /* pc is a return address: look up the call instruction before it */
    uintptr_t off = pc - 1 - (is_fixed_address(di.dli_fname) ? 0 : (uintptr_t)di.dli_fbase);
    if (di.dli_sname) snprintf(out->func, sizeof out->func, "%s", di.dli_sname);
    if (use_addr2line && addr2line(object_path(&di), off, out) == 0) return;
    snprintf(out->file, sizeof out->file, "%s+0x%lx", di.dli_fname, (unsigned long)off);
    out->line = 0;
}
