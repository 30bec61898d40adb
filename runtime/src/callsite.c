/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host call sites of CUDA API calls: capture the return address of the
 * first frame that is not libgpumem, CUDA or CUPTI (cheap: backtrace plus
 * dladdr), and resolve it at report time (dladdr; file:line through
 * addr2line when it is installed, once per distinct address). Depends on
 * glibc and uthash only.
 */
#include "rt.h"

#include <dlfcn.h>
#include <execinfo.h>
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

uintptr_t gm_callsite_capture(void)
{
    void *frames[48];
    int n = backtrace(frames, 48);
    for (int i = 1; i < n; i++) {
        Dl_info di;
        if (!dladdr(frames[i], &di) || !di.dli_fname) continue;
        if (!is_tool_object(di.dli_fname)) return (uintptr_t)frames[i];
    }
    return 0;
}

/* file:line from addr2line for an offset inside `obj`; 0 on success. */
static int addr2line(const char *obj, uintptr_t off, struct gm_symbolized *out)
{
    char cmd[1200], line[1024];
    snprintf(cmd, sizeof cmd, "addr2line -C -f -e '%s' 0x%lx 2>/dev/null", obj,
             (unsigned long)off);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    int ok = -1;
    if (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, "??") != 0) snprintf(out->func, sizeof out->func, "%.255s", line);
        if (fgets(line, sizeof line, p) && line[0] != '?') {
            char *colon = strrchr(line, ':');
            if (colon) {
                *colon = '\0';
                out->line = (unsigned)strtoul(colon + 1, NULL, 10);
                snprintf(out->file, sizeof out->file, "%.511s", line);
                ok = out->line ? 0 : -1;
            }
        }
    }
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
    if (use_addr2line && addr2line(di.dli_fname, off, out) == 0) return;
    snprintf(out->file, sizeof out->file, "%s+0x%lx", di.dli_fname, (unsigned long)off);
    out->line = 0;
}
