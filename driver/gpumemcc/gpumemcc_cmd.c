/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: builds the clang command that compiles one input (CUDA, C++ or C)
 * for the requested phase, and the final link command. nvcc meanings kept:
 * -O is the host level (device code is always -O3 unless -G), -Xcompiler is
 * host-only, device code always carries line tables (the pass strips them
 * unless -g/-G/-lineinfo), host code carries line tables unless -g, -G or
 * --gm-off (for the runtime's host call sites). Depends on gpumemcc.h and libc only.
 */
#include <string.h>
#include "gpumemcc.h"

static void push_all(struct gm_strvec *cmd, const char *const *items)
{
    for (size_t i = 0; items[i]; i++)
        gm_sv_push(cmd, items[i]);
}

static void push_prefixed(struct gm_strvec *cmd, const char *prefix, const struct gm_strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++) {
        gm_sv_push(cmd, prefix);
        gm_sv_push(cmd, sv->v[i]);
    }
}

/* Host line tables unless -g or -G: the runtime names the host lines of
 * CUDA calls (allocation sites) as file:line. Not with --gm-off (no runtime). */
static bool host_line_tables(const struct gm_opts *o)
{
    return !o->debug_host && !o->debug_dev && !o->gm_off;
}

static void cuda_device_flags(const struct gm_opts *o, struct gm_strvec *cmd)
{
    if (o->debug_dev) {
        /* no device -O: clang then compiles device code at -O0 and runs ptxas -g */
        push_all(cmd, (const char *[]){"-Xarch_device", "-g", NULL});
    } else {
        push_all(cmd, (const char *[]){"-Xarch_device", "-O3", "-Xarch_device", "-gline-tables-only", NULL});
    }
    if (o->fast_math)
        push_all(cmd, (const char *[]){"-Xarch_device", "-ffast-math", "-fgpu-flush-denormals-to-zero",
                                       "-fgpu-approx-transcendentals", NULL});
    push_prefixed(cmd, "-Xcuda-ptxas", &o->ptxas);
}

static void cuda_flags(const struct gm_opts *o, const struct gm_toolchain *tc, struct gm_strvec *cmd)
{
    push_all(cmd, (const char *[]){"-x", "cuda", NULL});
    gm_sv_pushf(cmd, "--cuda-path=%s", tc->cuda);
    gm_sv_push(cmd, "-Wno-unknown-cuda-version");
    if (tc->cccl)
        gm_sv_pushf(cmd, "-isystem%s", tc->cccl);
    gm_compat_flags(o, tc, GM_LANG_CU, cmd);
    gm_arch_flags(o, cmd);
    if (o->rdc)
        gm_sv_push(cmd, "-fgpu-rdc");
    if (o->opt_level) {
        gm_sv_push(cmd, "-Xarch_host");
        gm_sv_pushf(cmd, "-O%s", o->opt_level);
    }
    if (o->debug_host)
        push_all(cmd, (const char *[]){"-Xarch_host", "-g", NULL});
    cuda_device_flags(o, cmd);
    if (host_line_tables(o))
        push_all(cmd, (const char *[]){"-Xarch_host", "-gline-tables-only", NULL});
}

static void host_flags(const struct gm_opts *o, const struct gm_toolchain *tc, enum gm_lang lang,
                       struct gm_strvec *cmd)
{
    push_all(cmd, (const char *[]){"-x", lang == GM_LANG_C ? "c" : "c++", NULL});
    gm_sv_pushf(cmd, "-isystem%s/include", tc->cuda);
    if (tc->cccl)
        gm_sv_pushf(cmd, "-isystem%s", tc->cccl);
    gm_compat_flags(o, tc, lang, cmd);
    if (o->opt_level)
        gm_sv_pushf(cmd, "-O%s", o->opt_level);
    if (o->debug_host)
        gm_sv_push(cmd, "-g");
    else if (host_line_tables(o))
        gm_sv_push(cmd, "-gline-tables-only");
}

static void phase_flags(const struct gm_opts *o, const struct gm_input *in, struct gm_strvec *cmd)
{
    bool cu = in->lang == GM_LANG_CU;
    switch (o->phase) {
    case GM_PH_PTX:
        push_all(cmd, (const char *[]){"--cuda-device-only", "-S", NULL});
        break;
    case GM_PH_CUBIN:
        push_all(cmd, (const char *[]){"--cuda-device-only", "-c", NULL});
        break;
    case GM_PH_DEPS:
        if (cu)
            gm_sv_push(cmd, "--cuda-host-only");
        gm_sv_pushf(cmd, "-%s", o->deps_mode);
        break;
    default:
        if (o->deps_mode)
            gm_sv_pushf(cmd, "-%s", o->deps_mode);
        gm_sv_append(cmd, &o->deps);
        gm_sv_push(cmd, "-c");
        return;
    }
    gm_sv_append(cmd, &o->deps);
}

void gm_cmd_compile(const struct gm_opts *o, const struct gm_toolchain *tc,
                    const struct gm_strvec *instr, const struct gm_input *in,
                    const char *out, struct gm_strvec *cmd)
{
    bool cu = in->lang == GM_LANG_CU;
    gm_sv_push(cmd, tc->clang);
    if (cu)
        cuda_flags(o, tc, cmd);
    else
        host_flags(o, tc, in->lang, cmd);
    if (tc->gcc_install_dir)
        gm_sv_pushf(cmd, "--gcc-install-dir=%s", tc->gcc_install_dir);
    if (o->no_warn)
        gm_sv_push(cmd, "-w");
    gm_sv_append(cmd, &o->common);
    if (o->std && in->lang != GM_LANG_C)
        gm_sv_pushf(cmd, "-std=%s", o->std);
    if (cu) {
        push_prefixed(cmd, "-Xarch_host", &o->host);
        if (o->phase != GM_PH_DEPS)
            gm_sv_append(cmd, instr);
    } else {
        gm_sv_append(cmd, &o->host);
    }
    phase_flags(o, in, cmd);
    if (o->keep && o->phase != GM_PH_DEPS)
        gm_sv_push(cmd, "-save-temps=obj"); /* next to the object: in the keep directory */
    gm_sv_push(cmd, in->path);
    if (out) {
        gm_sv_push(cmd, "-o");
        gm_sv_push(cmd, out);
    }
}

static void runtime_libs(const struct gm_opts *o, const struct gm_toolchain *tc, struct gm_strvec *cmd)
{
    if (!o->gm_off) {
        /* by path, not -L -lgpumem: CMake takes -l items of nvcc's link line
         * for implicit libraries and would add -lgpumem without its -L */
        gm_sv_push(cmd, "-Wl,--push-state,--no-as-needed");
        gm_sv_pushf(cmd, "%s/libgpumem.so", tc->libdir);
        gm_sv_push(cmd, "-Wl,--pop-state");
        gm_sv_pushf(cmd, "-Wl,-rpath,%s", tc->libdir);
    }
    gm_sv_pushf(cmd, "-L%s/lib64", tc->cuda);
    if (o->cudart == GM_CUDART_STATIC)
        push_all(cmd, (const char *[]){"-lcudart_static", "-ldl", "-lrt", "-lpthread", NULL});
    if (o->cudart == GM_CUDART_SHARED) {
        gm_sv_push(cmd, "-lcudart");
        gm_sv_pushf(cmd, "-Wl,-rpath,%s/lib64", tc->cuda);
    }
}

void gm_cmd_link(const struct gm_opts *o, const struct gm_toolchain *tc,
                 const struct gm_strvec *objs, const char *out, struct gm_strvec *cmd)
{
    gm_sv_push(cmd, tc->clang);
    gm_sv_pushf(cmd, "--cuda-path=%s", tc->cuda);
    gm_sv_push(cmd, "-Wno-unknown-cuda-version");
    if (!o->nodlink)
        gm_sv_push(cmd, "--offload-link");
    if (tc->gcc_install_dir)
        gm_sv_pushf(cmd, "--gcc-install-dir=%s", tc->gcc_install_dir);
    if (o->shared)
        gm_sv_push(cmd, "-shared");
    gm_sv_append(cmd, &o->host);
    gm_sv_append(cmd, objs);
    gm_sv_push(cmd, "-o");
    gm_sv_push(cmd, out);
    gm_sv_append(cmd, &o->link);
    runtime_libs(o, tc, cmd);
}
