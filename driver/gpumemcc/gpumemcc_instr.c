/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: checks the --gm-* options and turns them into the pass plugin's
 * flags (-fpass-plugin=<resource>/GpumemPass.so -mllvm -gm-...), plus one
 * clang job per --gm-handler that compiles it to device bitcode. The -gm-*
 * option names are those declared in pass/plugin.cpp. Depends on gpumemcc.h,
 * libc and POSIX regex.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumemcc.h"

#define GM_DEFAULT_ANALYSES "coalescing,divergence"

static int check_events(const char *opt, const char *list, const char *const *allowed,
                        const char *names)
{
    struct gm_strvec items = {0};
    gm_sv_split(&items, list, ',');
    int rc = 0;
    for (size_t i = 0; i < items.n && !rc; i++) {
        bool ok = false;
        for (size_t j = 0; allowed[j]; j++)
            ok |= !strcmp(items.v[i], allowed[j]);
        if (!ok)
            rc = gm_err("%s: unknown event '%s' (allowed: %s)", opt, items.v[i], names);
    }
    gm_sv_free(&items);
    return rc;
}

static int check_regex(const char *opt, const char *re)
{
    regex_t r;
    int rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char msg[200];
        regerror(rc, &r, msg, sizeof msg);
        return gm_err("%s: bad regular expression '%s': %s", opt, re, msg);
    }
    regfree(&r);
    return 0;
}

static int check_analyses(const struct gm_opts *o)
{
    const struct gm_strvec *a = &o->gm_analyses;
    if (o->gm_analyses_set && a->n == 0)
        return gm_err("--gm-analyses: empty list (use --gm-analyses=none)");
    for (size_t i = 0; i < a->n; i++) {
        if (!strcmp(a->v[i], "none") && a->n > 1)
            return gm_err("--gm-analyses: 'none' cannot be combined with other analyses");
        if (strspn(a->v[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
            strlen(a->v[i]))
            return gm_err("--gm-analyses: invalid analysis name '%s'", a->v[i]);
    }
    for (size_t i = 0; i < o->gm_handlers.n; i++) {
        const char *h = o->gm_handlers.v[i];
        if (!gm_has_suffix(h, ".cu"))
            return gm_err("--gm-handler=%s: expected a CUDA source (.cu)", h);
        if (access(h, R_OK))
            return gm_err("--gm-handler=%s: file not found", h);
    }
    return 0;
}

/* The same analysis or handler twice would be linked twice ("symbol
 * multiply defined"): once is what was meant. Said, not silent. */
static void dedupe(struct gm_strvec *sv, const char *opt, bool by_file)
{
    if (!sv->n)
        return;
    size_t k = 0;
    for (size_t i = 0; i < sv->n; i++) {
        bool dup = false;
        for (size_t j = 0; j < k && !dup; j++)
            dup = by_file ? gm_same_file(sv->v[i], sv->v[j]) : !strcmp(sv->v[i], sv->v[j]);
        if (dup) {
            fprintf(stderr, "gpumemcc: warning: %s: '%s' given twice; used once\n", opt, sv->v[i]);
            free(sv->v[i]);
        } else {
            sv->v[k++] = sv->v[i];
        }
    }
    sv->n = k;
    sv->v[k] = NULL;
}

void gm_instr_dedupe(struct gm_opts *o)
{
    dedupe(&o->gm_analyses, "--gm-analyses", false);
    dedupe(&o->gm_handlers, "--gm-handler", true);
}

int gm_instr_check(const struct gm_opts *o)
{
    static const char *const before[] = {"memory", "cond-branches", "kernel-entry", "kernel-exit", NULL};
    static const char *const after[] = {"memory", NULL};
    if (o->gm_off && (o->gm_analyses_set || o->gm_handlers.n || o->gm_inst_before ||
                      o->gm_inst_after || o->gm_kernels || o->gm_files || o->gm_native_copies))
        return gm_err("--gm-off cannot be combined with other --gm-* instrumentation options");
    int rc = check_analyses(o);
    if (!rc && o->gm_inst_before)
        rc = check_events("--gm-inst-before", o->gm_inst_before, before,
                          "memory, cond-branches, kernel-entry, kernel-exit");
    if (!rc && o->gm_inst_after)
        rc = check_events("--gm-inst-after", o->gm_inst_after, after, "memory");
    if (!rc && o->gm_kernels)
        rc = check_regex("--gm-kernels", o->gm_kernels);
    if (!rc && o->gm_files)
        rc = check_regex("--gm-files", o->gm_files);
    for (size_t i = 0; !rc && i < o->gm_pass_opts.n; i++)
        if (strncmp(o->gm_pass_opts.v[i], "-gm-", 4))
            rc = gm_err("-Xgm-pass: '%s' is not a gpumem pass option (they start with -gm-, "
                        "docs/pass.md)", o->gm_pass_opts.v[i]);
    return rc;
}

static void handler_job(const struct gm_opts *o, const struct gm_toolchain *tc, const char *src,
                        const char *out, struct gm_strvec *cmd)
{
    const struct gm_arch *a = gm_arch_lowest(o);
    gm_sv_push(cmd, tc->clang);
    gm_sv_push(cmd, "-x");
    gm_sv_push(cmd, "cuda");
    gm_sv_pushf(cmd, "--cuda-path=%s", tc->cuda);
    gm_sv_push(cmd, "-Wno-unknown-cuda-version");
    gm_sv_pushf(cmd, "--cuda-gpu-arch=sm_%u%s", a->sm, a->suffix);
    if (tc->gcc_install_dir)
        gm_sv_pushf(cmd, "--gcc-install-dir=%s", tc->gcc_install_dir);
    const char *fixed[] = {"--cuda-device-only", "-fgpu-rdc", "-emit-llvm", "-c", "-O2", NULL};
    for (size_t i = 0; fixed[i]; i++)
        gm_sv_push(cmd, fixed[i]);
    gm_sv_pushf(cmd, "-I%s", tc->include);
    gm_sv_append(cmd, &o->common);
    if (o->std)
        gm_sv_pushf(cmd, "-std=%s", o->std);
    gm_sv_push(cmd, src);
    gm_sv_push(cmd, "-o");
    gm_sv_push(cmd, out);
}

/* Built-in analyses then user handlers, as the pass links them, in order. */
static int handler_list(const struct gm_opts *o, const struct gm_toolchain *tc, const char *tmpdir,
                        struct gm_strvec *bcs, struct gm_strvec **jobs, size_t *njobs)
{
    struct gm_strvec names = {0};
    gm_sv_split(&names, o->gm_analyses_set ? "" : GM_DEFAULT_ANALYSES, ',');
    gm_sv_append(&names, &o->gm_analyses);
    for (size_t i = 0; i < names.n; i++) {
        if (!strcmp(names.v[i], "none"))
            continue;
        char *bc = gm_xasprintf("%s/handlers/%s.bc", tc->resource, names.v[i]);
        if (access(bc, R_OK)) {
            gm_err("unknown analysis '%s' (no %s)", names.v[i], bc);
            free(bc);
            gm_sv_free(&names);
            return GM_EXIT_USAGE;
        }
        gm_sv_push(bcs, bc);
        free(bc);
    }
    gm_sv_free(&names);
    *jobs = calloc(o->gm_handlers.n + 1, sizeof **jobs);
    for (size_t i = 0; i < o->gm_handlers.n; i++) {
        char *base = gm_basename_noext(o->gm_handlers.v[i]);
        char *out = gm_xasprintf("%s/handler%zu-%s.bc", tmpdir, i, base);
        handler_job(o, tc, o->gm_handlers.v[i], out, &(*jobs)[i]);
        gm_sv_push(bcs, out);
        free(base);
        free(out);
    }
    *njobs = o->gm_handlers.n;
    return 0;
}

/* The -gm-* options exist only where the plugin is loaded (cc1). With
 * -save-temps clang also runs cc1as, which gets every -mllvm and rejects them:
 * -Xclang keeps them to the cc1 jobs. */
static bool keep_mode;

static void push_mllvm(struct gm_strvec *flags, const char *opt, const char *val)
{
    if (keep_mode)
        gm_sv_push(flags, "-Xclang");
    gm_sv_push(flags, "-mllvm");
    if (keep_mode)
        gm_sv_push(flags, "-Xclang");
    if (val)
        gm_sv_pushf(flags, "-%s=%s", opt, val);
    else
        gm_sv_pushf(flags, "-%s", opt);
}

static char *join(const struct gm_strvec *sv, char sep)
{
    size_t len = 1;
    for (size_t i = 0; i < sv->n; i++)
        len += strlen(sv->v[i]) + 1;
    char *s = calloc(len, 1), *p = s;
    for (size_t i = 0; s && i < sv->n; i++) {
        if (i)
            *p++ = sep;
        p = stpcpy(p, sv->v[i]);
    }
    return s;
}

int gm_instr_plan(const struct gm_opts *o, const struct gm_toolchain *tc, const char *tmpdir,
                  struct gm_strvec *flags, struct gm_strvec **jobs, size_t *njobs)
{
    *jobs = NULL;
    *njobs = 0;
    char *plugin = gm_xasprintf("%s/GpumemPass.so", tc->resource);
    if (access(plugin, R_OK)) {
        gm_err("gpumem pass plugin not found: %s", plugin);
        free(plugin);
        return GM_EXIT_USAGE;
    }
    int rc = o->gm_off ? 0 : gm_link_flags(tc, flags);
    if (rc) {
        free(plugin);
        return rc;
    }
    gm_sv_pushf(flags, "-fpass-plugin=%s", plugin);
    free(plugin);
    keep_mode = o->keep;
    if (o->gm_off) {
        push_mllvm(flags, "gm-off", NULL);
    } else {
        struct gm_strvec bcs = {0};
        rc = handler_list(o, tc, tmpdir, &bcs, jobs, njobs);
        char *list = rc ? NULL : join(&bcs, ',');
        gm_sv_free(&bcs);
        if (rc)
            return rc;
        push_mllvm(flags, "gm-handlers", list);
        free(list);
        if (o->gm_inst_before)
            push_mllvm(flags, "gm-inst-before", o->gm_inst_before);
        if (o->gm_inst_after)
            push_mllvm(flags, "gm-inst-after", o->gm_inst_after);
        if (o->gm_kernels)
            push_mllvm(flags, "gm-kernels", o->gm_kernels);
        if (o->gm_files)
            push_mllvm(flags, "gm-files", o->gm_files);
        if (o->gm_native_copies)
            push_mllvm(flags, "gm-native-copies", NULL);
    }
    if (!o->debug_host && !o->debug_dev && !o->lineinfo)
        push_mllvm(flags, "gm-strip-debug", NULL);
    for (size_t i = 0; i < o->gm_pass_opts.n; i++)
        push_mllvm(flags, o->gm_pass_opts.v[i] + 1, NULL);
    return 0;
}
