/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: main. Parses the command line, finds the toolchain, plans the
 * instrumentation and runs one clang job per input plus the link (or the
 * device link), in a private temporary directory removed at exit.
 * Depends on the other driver/gpumemcc/gpumemcc_*.c files, libc and POSIX.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gpumemcc.h"

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static bool is_dir(const char *p)
{
    struct stat st;
    return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static char *make_tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    char *dir = gm_xasprintf("%s/gpumemcc-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        gm_err("cannot create a temporary directory in %s", t && *t ? t : "/tmp");
        free(dir);
        return NULL;
    }
    return dir;
}

static const char *phase_ext(enum gm_phase ph)
{
    return ph == GM_PH_PTX ? ".ptx" : ph == GM_PH_CUBIN ? ".cubin" : ".o";
}

/* Output of compiling input i: a temp object when linking, else -o or <base><ext>. */
static char *output_for(const struct gm_opts *o, size_t i, const char *tmpdir)
{
    char *base = gm_basename_noext(o->inputs[i].path);
    char *out;
    if (o->phase == GM_PH_LINK && o->keep)
        out = gm_xasprintf("%s/%s.o", o->keep_dir ? o->keep_dir : ".", base);
    else if (o->phase == GM_PH_LINK)
        out = gm_xasprintf("%s/%zu-%s.o", tmpdir, i, base);
    else if (o->output)
        out = gm_xstrdup(o->output);
    else if (o->phase == GM_PH_DEPS)
        out = NULL;
    else
        out = gm_xasprintf("%s%s", base, phase_ext(o->phase));
    free(base);
    return out;
}

static bool has_cuda_source(const struct gm_opts *o)
{
    for (size_t i = 0; i < o->ninputs; i++)
        if (o->inputs[i].lang == GM_LANG_CU)
            return true;
    return false;
}

static int run_jobs(const struct gm_opts *o, struct gm_strvec *jobs, size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = gm_run(o, &jobs[i]);
        gm_sv_free(&jobs[i]);
    }
    free(jobs);
    return rc;
}

/* Compiles every source; collects link inputs (objects in order) in objs. */
static int compile_all(const struct gm_opts *o, const struct gm_toolchain *tc, const char *tmpdir,
                       struct gm_strvec *objs)
{
    struct gm_strvec instr = {0}, *jobs = NULL;
    size_t njobs = 0;
    int rc = 0;
    if (o->phase != GM_PH_DEPS && has_cuda_source(o))
        rc = gm_instr_plan(o, tc, tmpdir, &instr, &jobs, &njobs);
    if (!rc)
        rc = run_jobs(o, jobs, njobs);
    if (!rc && njobs)
        rc = gm_budget_check(o, tc, tmpdir);
    for (size_t i = 0; i < o->ninputs && !rc; i++) {
        if (o->inputs[i].lang == GM_LANG_OBJ) {
            gm_sv_push(objs, o->inputs[i].path);
            continue;
        }
        char *out = output_for(o, i, tmpdir);
        struct gm_strvec cmd = {0};
        gm_cmd_compile(o, tc, &instr, &o->inputs[i], out, &cmd);
        rc = gm_run(o, &cmd);
        if (out)
            gm_sv_push(objs, out);
        gm_sv_free(&cmd);
        free(out);
    }
    gm_sv_free(&instr);
    return rc;
}

static int run_phase(const struct gm_opts *o, const struct gm_toolchain *tc, const char *tmpdir)
{
    struct gm_strvec objs = {0}, cmd = {0};
    int rc;
    if (o->phase == GM_PH_DLINK) {
        for (size_t i = 0; i < o->ninputs; i++)
            gm_sv_push(&objs, o->inputs[i].path);
        gm_cmd_dlink(o, tc, &objs, tmpdir, &cmd);
        rc = gm_run(o, &cmd);
    } else {
        rc = compile_all(o, tc, tmpdir, &objs);
        if (!rc && o->phase == GM_PH_LINK) {
            gm_cmd_link(o, tc, &objs, o->output ? o->output : "a.out", &cmd);
            rc = gm_run(o, &cmd);
        }
    }
    gm_sv_free(&objs);
    gm_sv_free(&cmd);
    return rc;
}

static int drive(struct gm_opts *o)
{
    if (o->help) {
        gm_print_help();
        return 0;
    }
    struct gm_toolchain tc = {0};
    if (!o->version)
        gm_instr_dedupe(o);
    int rc = o->version ? 0 : gm_instr_check(o);
    if (!rc)
        rc = gm_toolchain_find(&tc, o);
    if (!rc)
        rc = gm_compat_find(&tc);
    if (!rc && o->keep_dir && !o->version && !is_dir(o->keep_dir))
        rc = gm_err("-keep-dir %s: no such directory", o->keep_dir);
    if (rc || o->version) {
        if (!rc)
            gm_print_version(&tc);
        gm_toolchain_free(&tc);
        return rc;
    }
    if (o->verbose)
        gm_nvcc_arch_print(o);
    gm_compat_warn(o);
    char *tmpdir = make_tmpdir();
    rc = tmpdir ? run_phase(o, &tc, tmpdir) : 1;
    if (tmpdir)
        nftw(tmpdir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    free(tmpdir);
    gm_toolchain_free(&tc);
    return rc;
}

int main(int argc, char **argv)
{
    if (getenv(GM_DLINK_ENV_OUT))
        return gm_dlink_shim(argc, argv);
    if (gm_nvcc_env_args(&argc, &argv))
        return GM_EXIT_USAGE;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-dryrun") ||
            !strcmp(argv[i], "--dryrun")) {
            gm_nvcc_env_print(); /* before anything can fail, as nvcc does */
            break;
        }
    struct gm_opts o;
    memset(&o, 0, sizeof o);
    int rc = gm_parse_args(&o, argc, argv);
    gm_signals_install();
    if (!rc)
        rc = drive(&o);
    gm_opts_free(&o);
    gm_signal_reraise(); /* after drive() removed the temporary directory */
    return rc;
}
