/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: checks each --gm-handler against SASSI's register budget when it
 * is compiled (16 registers per handler, 20 for accumulator flushes, which
 * run once per thread at kernel exit): each handler the source defines is
 * called from a one-line wrapper kernel, once per representative info word,
 * compiled for the lowest requested architecture and read back from
 * `ptxas -v`; the registers of the same wrapper without a call belong to any
 * kernel and are subtracted. The method of tests/lit/handlers/Inputs/
 * regbudget.py, on fewer info words. Over budget: a warning with the count,
 * or an error with --gm-handler-budget=error. Depends on gpumemcc.h, libc
 * and POSIX regex (commands run through gm_capture_all).
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumemcc.h"

#define GM_BUDGET 16
#define GM_FLUSH_BUDGET 20
#define MAX_CALLS 256


struct event {
    const char *macro, *prefix, *args; /* args: printf format with one %s (the info word) */
    const char *const *infos;
};
#define MEM(space, bits) "(" #space " << GM_INFO_SPACE_SHIFT) | " bits
static const char *const mem_infos[] = {
    MEM(GM_SPACE_GLOBAL, "GM_INFO_LOAD | 4"), MEM(GM_SPACE_GLOBAL, "GM_INFO_STORE | 8"),
    MEM(GM_SPACE_GLOBAL, "GM_INFO_LOAD | GM_INFO_VECTOR | 16"),
    MEM(GM_SPACE_GLOBAL, "GM_INFO_LOAD | GM_INFO_STORE | GM_INFO_ATOMIC | 8"),
    MEM(GM_SPACE_SHARED, "GM_INFO_LOAD | 4"), MEM(GM_SPACE_SHARED, "GM_INFO_STORE | GM_INFO_VECTOR | 16"),
    MEM(GM_SPACE_GENERIC, "GM_INFO_LOAD | 4"), MEM(GM_SPACE_LOCAL, "GM_INFO_STORE | 4"),
    MEM(GM_SPACE_GLOBAL, "GM_INFO_STORE | GM_INFO_MEMINTR"), NULL};
static const char *const load_infos[] = {
    MEM(GM_SPACE_GLOBAL, "GM_INFO_LOAD | 4"), MEM(GM_SPACE_GLOBAL, "GM_INFO_LOAD | GM_INFO_VECTOR | 16"),
    MEM(GM_SPACE_SHARED, "GM_INFO_LOAD | 4"), MEM(GM_SPACE_GENERIC, "GM_INFO_LOAD | 8"), NULL};
static const char *const br_infos[] = {"2u", "GM_BRINFO_SWITCH | 4u", NULL};
static const char *const no_infos[] = {"0", NULL};
static const struct event events[] = {
    {"GM_BEFORE_MEM", "gm_before_mem__", "site, addr, %s, value", mem_infos},
    {"GM_AFTER_LOAD", "gm_after_load__", "site, addr, %s, value", load_infos},
    {"GM_BEFORE_BRANCH", "gm_before_branch__", "site, %s, dir", br_infos},
    {"GM_KERNEL_ENTRY", "gm_kernel_entry__", "site", no_infos},
    {"GM_KERNEL_EXIT", "gm_kernel_exit__", "site", no_infos},
    {"GM_ACCUM_FLUSH", "gm_accum_flush__", "site, gm_bud_acc", no_infos},
};

struct handler {
    const struct event *ev;
    char name[128];
    size_t first, n; /* its wrapper kernels */
};

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    for (size_t n; m && (n = fread(chunk, 1, sizeof chunk, f)) > 0;)
        fwrite(chunk, 1, n, m);
    fclose(f);
    if (m)
        fclose(m);
    return buf;
}

/* The handlers a source defines: lines "GM_<EVENT>(name)". */
static size_t find_handlers(const char *text, struct handler *h, size_t max)
{
    regex_t re;
    if (regcomp(&re, "^(GM_[A-Z_]+)\\(([A-Za-z_][A-Za-z0-9_]*)\\)", REG_EXTENDED | REG_NEWLINE))
        return 0;
    size_t n = 0;
    regmatch_t m[3];
    for (const char *p = text; n < max && !regexec(&re, p, 3, m, 0); p += m[0].rm_eo) {
        for (size_t e = 0; e < sizeof events / sizeof events[0]; e++) {
            size_t ml = (size_t)(m[1].rm_eo - m[1].rm_so), nl = (size_t)(m[2].rm_eo - m[2].rm_so);
            if (strlen(events[e].macro) == ml && !strncmp(p + m[1].rm_so, events[e].macro, ml) &&
                nl < sizeof h[n].name) {
                h[n].ev = &events[e];
                snprintf(h[n].name, sizeof h[n].name, "%.*s", (int)nl, p + m[2].rm_so);
                n++;
                break;
            }
        }
    }
    regfree(&re);
    return n;
}

/* Wrapper source: kernel 0 without a call, then one kernel per (handler, info). */
static size_t write_wrappers(FILE *f, const char *src, struct handler *h, size_t nh)
{
    fprintf(f, "#include \"%s\"\n"
               "extern \"C\" __device__ const uint32_t __gm_nsites = 64;\n"
               "extern \"C\" __constant__ uint32_t __gm_replica_mask = 0;\n"
               "__device__ uint32_t gm_bud_acc[GM_ACCUM_WORDS];\n", src);
    const char *head = "extern \"C\" __global__ void gm_bud_%zu(uint32_t site, uint64_t addr, uint64_t value, "
                       "uint32_t dir)\n{ (void)site; (void)addr; (void)value; (void)dir; ";
    fprintf(f, head, (size_t)0);
    fputs("}\n", f);
    size_t k = 1;
    for (size_t i = 0; i < nh; i++) {
        h[i].first = k;
        for (const char *const *info = h[i].ev->infos; *info && k < MAX_CALLS; info++, k++) {
            fprintf(f, head, k);
            fprintf(f, "%s%s(", h[i].ev->prefix, h[i].name);
            fprintf(f, h[i].ev->args, *info);
            fputs("); }\n", f);
        }
        h[i].n = k - h[i].first;
    }
    return k;
}

/* Registers of wrapper kernel k from `ptxas -v` output, or -1. */
static int registers_of(const char *log, size_t k)
{
    char key[64];
    snprintf(key, sizeof key, "entry function 'gm_bud_%zu'", k);
    const char *p = strstr(log, key);
    p = p ? strstr(p, "Used ") : NULL;
    int n;
    return p && sscanf(p, "Used %d registers", &n) == 1 ? n : -1;
}

static int compile_wrappers(const struct gm_opts *o, const struct gm_toolchain *tc, const char *cu,
                            const char *ptx, char **log)
{
    const struct gm_arch *a = gm_arch_lowest(o);
    struct gm_strvec cmd = {0};
    gm_sv_push(&cmd, tc->clang);
    gm_sv_push(&cmd, "-x");
    gm_sv_push(&cmd, "cuda");
    gm_sv_pushf(&cmd, "--cuda-path=%s", tc->cuda);
    gm_sv_push(&cmd, "-Wno-unknown-cuda-version");
    gm_sv_pushf(&cmd, "--cuda-gpu-arch=sm_%u%s", a->sm, a->suffix);
    gm_sv_push(&cmd, "--cuda-device-only");
    gm_sv_push(&cmd, "-S");
    gm_sv_push(&cmd, "-O3");
    gm_sv_pushf(&cmd, "-I%s", tc->include);
    gm_sv_append(&cmd, &o->common);
    if (o->std)
        gm_sv_pushf(&cmd, "-std=%s", o->std);
    gm_sv_push(&cmd, cu);
    gm_sv_push(&cmd, "-o");
    gm_sv_push(&cmd, ptx);
    if (o->verbose)
        gm_print_cmd(&cmd);
    int rc;
    char *out = gm_capture_all(cmd.v, true, &rc);
    gm_sv_free(&cmd);
    if (rc) {
        gm_err("register budget check: clang failed on the wrapper of the handlers:\n%s", out ? out : "");
        free(out);
        return 1;
    }
    free(out);
    char *ptxas = gm_xasprintf("%s/bin/ptxas", tc->cuda);
    char *arch = gm_xasprintf("-arch=sm_%u%s", a->sm, a->suffix);
    char *argv[] = {ptxas, arch, "-v", (char *)ptx, "-o", "/dev/null", NULL};
    *log = gm_capture_all(argv, true, &rc);
    free(ptxas);
    free(arch);
    return rc ? gm_err("register budget check: ptxas failed:\n%s", *log ? *log : "") : 0;
}

/* One handler source: warn (or fail) for each handler over budget. */
static int check_source(const struct gm_opts *o, const struct gm_toolchain *tc, const char *tmpdir,
                        const char *src, size_t idx)
{
    char *text = read_text(src), *abs = realpath(src, NULL);
    struct handler h[64];
    size_t nh = text ? find_handlers(text, h, sizeof h / sizeof h[0]) : 0;
    free(text);
    char *cu = gm_xasprintf("%s/budget%zu.cu", tmpdir, idx), *ptx = gm_xasprintf("%s/budget%zu.ptx", tmpdir, idx);
    FILE *f = nh && abs ? fopen(cu, "w") : NULL;
    int rc = 0;
    char *log = NULL;
    if (f) {
        write_wrappers(f, abs, h, nh);
        fclose(f);
        rc = compile_wrappers(o, tc, cu, ptx, &log);
    }
    int base = log ? registers_of(log, 0) : -1;
    for (size_t i = 0; !rc && base >= 0 && i < nh; i++) {
        int worst = 0, budget = strcmp(h[i].ev->macro, "GM_ACCUM_FLUSH") ? GM_BUDGET : GM_FLUSH_BUDGET;
        for (size_t k = h[i].first; k < h[i].first + h[i].n; k++)
            if (registers_of(log, k) - base > worst)
                worst = registers_of(log, k) - base;
        if (worst > budget)
            fprintf(stderr, "gpumemcc: %s: --gm-handler=%s: %s%s uses %d registers, over the budget of %d "
                            "(SASSI's limit: every instrumented kernel pays for them)%s\n",
                    o->gm_budget_error ? "error" : "warning", src, h[i].ev->prefix, h[i].name, worst, budget,
                    o->gm_budget_error ? "" : "; --gm-handler-budget=error makes this an error");
        if (worst > budget && o->gm_budget_error)
            rc = GM_EXIT_USAGE;
    }
    free(log);
    free(abs);
    free(cu);
    free(ptx);
    return rc;
}

int gm_budget_check(const struct gm_opts *o, const struct gm_toolchain *tc, const char *tmpdir)
{
    if (o->gm_off || o->dryrun || o->gm_budget_off)
        return 0;
    int rc = 0;
    for (size_t i = 0; i < o->gm_handlers.n && !rc; i++)
        rc = check_source(o, tc, tmpdir, o->gm_handlers.v[i], i);
    return rc;
}
