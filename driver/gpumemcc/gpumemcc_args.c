/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: walks argv through the nvcc option table (-x, --x, =value, space
 * value and joined -Ivalue forms), classifies input files, and checks the
 * combination. Every rejected argument is named in a one-line error.
 * Depends on gpumemcc.h and libc only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpumemcc.h"

static enum gm_lang lang_of(const char *path)
{
    static const struct { const char *ext; enum gm_lang lang; } exts[] = {
        {".cu", GM_LANG_CU}, {".c", GM_LANG_C}, {".cpp", GM_LANG_CXX}, {".cc", GM_LANG_CXX},
        {".cxx", GM_LANG_CXX}, {".C", GM_LANG_CXX}, {".c++", GM_LANG_CXX}, {".o", GM_LANG_OBJ},
        {".a", GM_LANG_OBJ}, {".so", GM_LANG_OBJ},
    };
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (gm_has_suffix(path, exts[i].ext))
            return exts[i].lang;
    return strstr(path, ".so.") ? GM_LANG_OBJ : GM_LANG_AUTO;
}

static int add_input(struct gm_opts *o, const char *path)
{
    if (access(path, R_OK))
        return gm_err("input file not found: %s", path);
    o->inputs = realloc(o->inputs, (o->ninputs + 1) * sizeof *o->inputs);
    if (!o->inputs)
        return gm_err("out of memory");
    o->inputs[o->ninputs].path = path;
    o->inputs[o->ninputs++].lang = lang_of(path);
    return 0;
}

/* Handles argv[*i]; advances *i past a separate value. */
static int parse_one(struct gm_opts *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    const char *body = arg + 1 + (arg[1] == '-');
    const char *eq = strchr(body, '=');
    char name[128];
    size_t n = eq ? (size_t)(eq - body) : strlen(body);
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), body);
    const char *val = eq ? eq + 1 : NULL;
    const struct gm_optdef *d = n < sizeof name ? gm_opt_find(name) : NULL;
    if (!d && arg[1] != '-' && (d = gm_opt_find_joined(body, &val)) == NULL)
        val = NULL;
    if (!d) {
        if (!o->forward_unknown)
            return gm_err("unknown or unsupported option '%s'", arg);
        gm_sv_push(&o->host, arg);
        return 0;
    }
    if (!d->metavar && val)
        return gm_err("option '%s' takes no value", arg);
    if (d->metavar && !val) {
        if (*i + 1 >= argc)
            return gm_err("option '%s' needs a value (%s)", arg, d->metavar);
        val = argv[++*i];
    }
    int rc = d->set(o, val);
    if (rc < 0)
        return gm_err("nvcc option '%s' is not supported by gpumemcc", arg);
    return rc;
}

static int check_inputs(struct gm_opts *o)
{
    for (size_t i = 0; i < o->ninputs; i++) {
        struct gm_input *in = &o->inputs[i];
        if (in->lang != GM_LANG_OBJ && o->lang_override)
            in->lang = o->lang_override;
        if (in->lang == GM_LANG_AUTO)
            return gm_err("unsupported input file type: %s (expected .cu .c .cpp .o .a .so, or -x)", in->path);
        if (in->lang == GM_LANG_OBJ && o->phase != GM_PH_LINK && o->phase != GM_PH_DLINK)
            return gm_err("object file '%s' given to a compile-only phase", in->path);
        if (in->lang != GM_LANG_OBJ && o->phase == GM_PH_DLINK)
            return gm_err("-dlink takes object files, not source '%s' (compile it with -dc first)", in->path);
        if (in->lang != GM_LANG_CU && (o->phase == GM_PH_PTX || o->phase == GM_PH_CUBIN))
            return gm_err("-ptx and -cubin need CUDA sources; '%s' is not one", in->path);
    }
    return 0;
}

static size_t count_sources(const struct gm_opts *o)
{
    size_t n = 0;
    for (size_t i = 0; i < o->ninputs; i++)
        n += o->inputs[i].lang != GM_LANG_OBJ;
    return n;
}

/* gcc's rule: never write the output over an input (gpumemcc x.cu -o x.cu). */
static int check_output_not_input(const struct gm_opts *o)
{
    struct stat so, si;
    if (!o->output || stat(o->output, &so))
        return 0;
    for (size_t i = 0; i < o->ninputs; i++)
        if (!stat(o->inputs[i].path, &si) && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
            return gm_err("input file '%s' is the same as output file '%s'", o->inputs[i].path, o->output);
    return 0;
}

static int check_combination(struct gm_opts *o)
{
    if (o->ninputs == 0)
        return gm_err("no input files");
    if (check_output_not_input(o))
        return GM_EXIT_USAGE;
    int rc = check_inputs(o);
    if (rc)
        return rc;
    bool single_out = o->phase != GM_PH_LINK && o->phase != GM_PH_DLINK;
    if (single_out && o->output && count_sources(o) > 1)
        return gm_err("-o with %zu inputs: a non-link phase takes a single input when an output file is given",
                      count_sources(o));
    if ((o->phase == GM_PH_PTX || o->phase == GM_PH_CUBIN) && o->narchs != 1)
        return gm_err("-ptx and -cubin need exactly one GPU architecture (got %zu)", o->narchs);
    /* CMake's separable-compilation device link passes -shared -dlink; nvcc
     * takes it: the -dlink object is position independent either way. */
    if (o->shared && o->phase != GM_PH_LINK && o->phase != GM_PH_DLINK)
        return gm_err("-shared applies to linking only");
    return 0;
}

int gm_parse_args(struct gm_opts *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = (a[0] == '-' && a[1]) ? parse_one(o, argc, argv, &i) : add_input(o, a);
        if (rc)
            return rc;
    }
    if (o->help || o->version)
        return 0;
    gm_compat_host_options(o);
    int rc = gm_arch_finish(o);
    return rc ? rc : check_combination(o);
}

void gm_opts_free(struct gm_opts *o)
{
    struct gm_strvec *vecs[] = {&o->common, &o->host, &o->ptxas, &o->link,
                                &o->deps, &o->gm_analyses, &o->gm_handlers,
                                &o->gm_pass_opts};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        gm_sv_free(vecs[i]);
    free(o->inputs);
    o->inputs = NULL;
    o->ninputs = 0;
}
