/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc internal interface: the argument model that the nvcc option table
 * fills, the toolchain paths, and the helpers that turn both into clang
 * commands. Shared by the driver/gpumemcc/gpumemcc_*.c files only; depends on libc.
 */
#ifndef GPUMEMCC_H
#define GPUMEMCC_H

#include <stdbool.h>
#include <stddef.h>

#define GM_EXIT_USAGE 2 /* bad command line or input */

/* ---- growable argument vector (gpumemcc_strvec.c) ---------------------- */
struct gm_strvec {
    char **v; /* NULL-terminated */
    size_t n, cap;
};
void gm_sv_push(struct gm_strvec *sv, const char *s);
void gm_sv_pushf(struct gm_strvec *sv, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gm_sv_append(struct gm_strvec *dst, const struct gm_strvec *src);
void gm_sv_split(struct gm_strvec *sv, const char *list, char sep);
void gm_sv_free(struct gm_strvec *sv);
char *gm_xstrdup(const char *s);
char *gm_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int gm_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool gm_has_suffix(const char *s, const char *suffix);
char *gm_basename_noext(const char *path);
bool gm_same_file(const char *a, const char *b);

/* ---- argument model (gpumemcc_args.c, gpumemcc_opts.c) ----------------- */
enum gm_phase {
    GM_PH_LINK = 0, GM_PH_COMPILE, GM_PH_PTX, GM_PH_CUBIN, GM_PH_DLINK, GM_PH_DEPS
};
enum gm_lang { GM_LANG_AUTO = 0, GM_LANG_CU, GM_LANG_CXX, GM_LANG_C, GM_LANG_OBJ };
enum gm_cudart { GM_CUDART_STATIC = 0, GM_CUDART_SHARED, GM_CUDART_NONE };

struct gm_arch {     /* one GPU architecture to build for */
    unsigned sm;     /* 90 for sm_90 / compute_90 */
    char suffix[2];  /* "a", "f" or "" */
    bool sass, ptx;  /* embed SASS for sm_XX, PTX for compute_XX */
};

struct gm_input {
    const char *path;
    enum gm_lang lang;
};

struct gm_opts {
    enum gm_phase phase;
    bool phase_set, rdc, nodlink, help, version, verbose, dryrun, forward_unknown;
    const char *output, *opt_level, *std, *ccbin, *deps_mode; /* deps_mode: M MM MD MMD */
    bool debug_host, debug_dev, lineinfo, fast_math, shared, no_warn;
    bool openmp_gomp; /* -Xcompiler -fopenmp, mapped to libgomp (gpumemcc_compat.c) */
    bool keep;        /* -keep / -save-temps: intermediate files kept in keep_dir */
    const char *keep_dir;
    enum gm_lang lang_override;
    enum gm_cudart cudart;
    struct gm_input *inputs;
    size_t ninputs;
    struct gm_strvec common;  /* -I -D -U -isystem -include: host and device */
    struct gm_strvec host;    /* -Xcompiler items and forwarded unknowns */
    struct gm_strvec ptxas;   /* -Xptxas items, --maxrregcount, -res-usage */
    struct gm_strvec link;    /* -L -l -Xlinker */
    struct gm_strvec deps;    /* -MF -MT -MP */
    /* -arch / -code / -gencode */
    const char *arch_opt, *code_opt;
    struct gm_arch archs[32];
    size_t narchs;
    /* gpumem's own options */
    bool gm_off, gm_analyses_set;
    bool gm_native_copies;    /* --gm-native-copies */
    bool gm_budget_error, gm_budget_off; /* --gm-handler-budget=error|off (default warn) */
    struct gm_strvec gm_analyses, gm_handlers;
    struct gm_strvec gm_pass_opts; /* -Xgm-pass items: -gm-... options of the pass */
    const char *gm_inst_before, *gm_inst_after, *gm_kernels, *gm_files;
};

struct gm_optdef {
    const char *lng, *shrt; /* without leading dashes; either may be NULL */
    const char *metavar;    /* NULL: flag without value */
    int (*set)(struct gm_opts *o, const char *val);
    const char *help;       /* NULL: hidden alias */
};
extern const struct gm_optdef gm_optdefs[];
const struct gm_optdef *gm_opt_find(const char *name);
const struct gm_optdef *gm_opt_find_joined(const char *body, const char **val);

int gm_parse_args(struct gm_opts *o, int argc, char **argv);
void gm_opts_free(struct gm_opts *o);
int gm_parse_bool(const char *opt, const char *val, bool *out);

/* ---- architectures (gpumemcc_arch.c) ------------------------------------ */
int gm_arch_add_gencode(struct gm_opts *o, const char *val);
int gm_arch_finish(struct gm_opts *o); /* -arch/-code -> archs, default sm_90 */
void gm_arch_flags(const struct gm_opts *o, struct gm_strvec *cmd);
const struct gm_arch *gm_arch_lowest(const struct gm_opts *o);

/* ---- toolchain location (gpumemcc_paths.c) ------------------------------ */
struct gm_toolchain {
    char *exe, *prefix, *resource, *include, *libdir; /* gpumem's own */
    char *cuda, *clang, *gcc_install_dir;             /* external */
    char *cccl; /* <cuda>/include/cccl where the toolkit keeps CCCL (CUDA 13), else NULL */
    char *compat_h;           /* <resource>/include/gpumem_nvcc_compat.h */
    unsigned nvcc_version[3]; /* the toolkit's nvcc: major, minor, build */
};
int gm_toolchain_find(struct gm_toolchain *tc, const struct gm_opts *o);
void gm_toolchain_free(struct gm_toolchain *tc);
char *gm_which(const char *name);

/* ---- instrumentation (gpumemcc_instr.c) --------------------------------- */
int gm_instr_check(const struct gm_opts *o);
void gm_instr_dedupe(struct gm_opts *o);
int gm_budget_check(const struct gm_opts *o, const struct gm_toolchain *tc, const char *tmpdir); /* repeated analyses / handlers: once, with a warning */
int gm_instr_plan(const struct gm_opts *o, const struct gm_toolchain *tc,
                  const char *tmpdir, struct gm_strvec *flags, struct gm_strvec **jobs,
                  size_t *njobs);
int gm_link_flags(const struct gm_toolchain *tc, struct gm_strvec *flags); /* gpumemcc_link.c */

/* ---- nvcc compatibility (gpumemcc_compat.c) ----------------------------- */
int gm_compat_find(struct gm_toolchain *tc);
void gm_compat_host_options(struct gm_opts *o);
void gm_compat_warn(const struct gm_opts *o);
void gm_nvcc_env_print(void);              /* -v: nvcc's "#$ NAME=value" lines */
void gm_nvcc_arch_print(const struct gm_opts *o);
int gm_nvcc_env_args(int *argc, char ***argv); /* NVCC_PREPEND_FLAGS, NVCC_APPEND_FLAGS */
void gm_compat_flags(const struct gm_opts *o, const struct gm_toolchain *tc, enum gm_lang lang,
                     struct gm_strvec *cmd);

/* ---- command building (gpumemcc_cmd.c, gpumemcc_dlink.c) ---------------- */
void gm_cmd_compile(const struct gm_opts *o, const struct gm_toolchain *tc,
                    const struct gm_strvec *instr, const struct gm_input *in,
                    const char *out, struct gm_strvec *cmd);
void gm_cmd_link(const struct gm_opts *o, const struct gm_toolchain *tc,
                 const struct gm_strvec *objs, const char *out, struct gm_strvec *cmd);
void gm_cmd_dlink(const struct gm_opts *o, const struct gm_toolchain *tc,
                  const struct gm_strvec *objs, const char *tmpdir, struct gm_strvec *cmd);
int gm_dlink_shim(int argc, char **argv); /* runs when GM_DLINK_OUT is set */
#define GM_DLINK_ENV_OUT "GM_DLINK_OUT"
#define GM_DLINK_ENV_DIR "GM_DLINK_TMP"

/* ---- processes (gpumemcc_spawn.c) --------------------------------------- */
void gm_print_cmd(const struct gm_strvec *cmd);
int gm_run(const struct gm_opts *o, const struct gm_strvec *cmd);
char *gm_capture(const char *const *argv); /* first line of stdout or NULL */
char *gm_capture_all(char *const *argv, bool with_stderr, int *rc); /* all output */
void gm_signals_install(void);
int gm_signal_caught(void); /* SIGINT/SIGTERM/SIGHUP/SIGQUIT received, or 0 */
void gm_signal_reraise(void);

/* ---- help (gpumemcc_help.c) --------------------------------------------- */
void gm_print_help(void);
void gm_print_version(const struct gm_toolchain *tc);

#endif
