/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumemcc: the nvcc option table. Each nvcc option gpumemcc honours has one
 * row (long name, short name, value, setter, help line); --help prints the
 * table. Options nvcc has but gpumemcc cannot honour are rows whose setter
 * fails with a message. Depends on gpumemcc.h and libc only.
 */
#include <stdlib.h>
#include <string.h>
#include "gpumemcc.h"

static int set_phase(struct gm_opts *o, enum gm_phase ph, const char *name)
{
    if (o->phase_set && o->phase != ph)
        return gm_err("%s conflicts with an earlier phase option (-c, -dc, -dlink, -ptx, -cubin, -M, -link)", name);
    o->phase = ph;
    o->phase_set = true;
    return 0;
}

int gm_parse_bool(const char *opt, const char *val, bool *out)
{
    if (!strcmp(val, "true"))
        *out = true;
    else if (!strcmp(val, "false"))
        *out = false;
    else
        return gm_err("invalid value '%s' for %s (expected true or false)", val, opt);
    return 0;
}

#define FLAG(fn, stmt) static int fn(struct gm_opts *o, const char *v) { (void)v; stmt; return 0; }
FLAG(o_help, o->help = true)
FLAG(o_version, o->version = true)
FLAG(o_verbose, o->verbose = true)
FLAG(o_dryrun, o->dryrun = o->verbose = true)
FLAG(o_debug, o->debug_host = true)
FLAG(o_devdebug, o->debug_dev = true)
FLAG(o_lineinfo, o->lineinfo = true)
FLAG(o_fastmath, o->fast_math = true)
FLAG(o_shared, o->shared = true)
FLAG(o_nowarn, o->no_warn = true)
FLAG(o_nodlink, o->nodlink = true)
FLAG(o_noop, (void)o)
FLAG(o_fwd, o->forward_unknown = true)
FLAG(o_gmoff, o->gm_off = true)
FLAG(o_native, o->gm_native_copies = true)
FLAG(o_resusage, gm_sv_push(&o->ptxas, "-v"))

static int o_compile(struct gm_opts *o, const char *v) { (void)v; return set_phase(o, GM_PH_COMPILE, "-c"); }
static int o_link(struct gm_opts *o, const char *v) { (void)v; return set_phase(o, GM_PH_LINK, "-link"); }
static int o_ptx(struct gm_opts *o, const char *v) { (void)v; return set_phase(o, GM_PH_PTX, "-ptx"); }
static int o_cubin(struct gm_opts *o, const char *v) { (void)v; return set_phase(o, GM_PH_CUBIN, "-cubin"); }
static int o_dlink(struct gm_opts *o, const char *v) { (void)v; return set_phase(o, GM_PH_DLINK, "-dlink"); }
static int o_dc(struct gm_opts *o, const char *v)
{
    (void)v;
    o->rdc = true;
    return set_phase(o, GM_PH_COMPILE, "-dc");
}

static int o_deps(struct gm_opts *o, const char *mode)
{
    if (o->deps_mode)
        return gm_err("-%s conflicts with -%s", mode, o->deps_mode);
    o->deps_mode = mode;
    return mode[strlen(mode) - 1] == 'D' ? 0 : set_phase(o, GM_PH_DEPS, "-M");
}
static int o_M(struct gm_opts *o, const char *v) { (void)v; return o_deps(o, "M"); }
static int o_MM(struct gm_opts *o, const char *v) { (void)v; return o_deps(o, "MM"); }
static int o_MD(struct gm_opts *o, const char *v) { (void)v; return o_deps(o, "MD"); }
static int o_MMD(struct gm_opts *o, const char *v) { (void)v; return o_deps(o, "MMD"); }
static int o_MF(struct gm_opts *o, const char *v) { gm_sv_pushf(&o->deps, "-MF%s", v); return 0; }
static int o_MT(struct gm_opts *o, const char *v) { gm_sv_pushf(&o->deps, "-MT%s", v); return 0; }
static int o_MP(struct gm_opts *o, const char *v) { (void)v; gm_sv_push(&o->deps, "-MP"); return 0; }

static int o_output(struct gm_opts *o, const char *v)
{
    if (o->output)
        return gm_err("-o given twice ('%s' and '%s')", o->output, v);
    o->output = v;
    return 0;
}

static int o_opt(struct gm_opts *o, const char *v)
{
    if (strlen(v) != 1 || !strchr("0123s", v[0]))
        return gm_err("invalid optimisation level '-O%s' (expected -O0, -O1, -O2, -O3)", v);
    o->opt_level = v;
    return 0;
}

static int o_std(struct gm_opts *o, const char *v)
{
    static const char *ok[] = {"c++03", "c++11", "c++14", "c++17", "c++20"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(v, ok[i])) {
            o->std = v;
            return 0;
        }
    return gm_err("invalid value '%s' for -std (expected c++03, c++11, c++14, c++17 or c++20)", v);
}

static int o_lang(struct gm_opts *o, const char *v)
{
    if (!strcmp(v, "cu"))
        o->lang_override = GM_LANG_CU;
    else if (!strcmp(v, "c++"))
        o->lang_override = GM_LANG_CXX;
    else if (!strcmp(v, "c"))
        o->lang_override = GM_LANG_C;
    else if (!strcmp(v, "none"))
        o->lang_override = GM_LANG_AUTO;
    else
        return gm_err("invalid value '%s' for -x (expected cu, c++, c or none)", v);
    return 0;
}

static int o_rdc(struct gm_opts *o, const char *v) { return gm_parse_bool("-rdc", v, &o->rdc); }
static int o_I(struct gm_opts *o, const char *v) { gm_sv_pushf(&o->common, "-I%s", v); return 0; }
static int o_D(struct gm_opts *o, const char *v) { gm_sv_pushf(&o->common, "-D%s", v); return 0; }
static int o_U(struct gm_opts *o, const char *v) { gm_sv_pushf(&o->common, "-U%s", v); return 0; }
static int o_L(struct gm_opts *o, const char *v) { gm_sv_pushf(&o->link, "-L%s", v); return 0; }
static int o_l(struct gm_opts *o, const char *v) { gm_sv_pushf(&o->link, "-l%s", v); return 0; }
static int o_isystem(struct gm_opts *o, const char *v)
{
    gm_sv_push(&o->common, "-isystem");
    gm_sv_push(&o->common, v);
    return 0;
}
static int o_include(struct gm_opts *o, const char *v)
{
    gm_sv_push(&o->common, "-include");
    gm_sv_push(&o->common, v);
    return 0;
}
static int o_xcompiler(struct gm_opts *o, const char *v) { gm_sv_split(&o->host, v, ','); return 0; }
static int o_xptxas(struct gm_opts *o, const char *v) { gm_sv_split(&o->ptxas, v, ','); return 0; }
static int o_xlinker(struct gm_opts *o, const char *v)
{
    struct gm_strvec items = {0};
    gm_sv_split(&items, v, ',');
    for (size_t i = 0; i < items.n; i++) {
        gm_sv_push(&o->link, "-Xlinker");
        gm_sv_push(&o->link, items.v[i]);
    }
    gm_sv_free(&items);
    return 0;
}

static int o_arch(struct gm_opts *o, const char *v)
{
    if (o->arch_opt && strcmp(o->arch_opt, v))
        return gm_err("-arch given twice ('%s' and '%s')", o->arch_opt, v);
    o->arch_opt = v;
    return 0;
}
static int o_code(struct gm_opts *o, const char *v)
{
    if (o->code_opt && strcmp(o->code_opt, v))
        return gm_err("-code given twice ('%s' and '%s')", o->code_opt, v);
    o->code_opt = v;
    return 0;
}
static int o_gencode(struct gm_opts *o, const char *v) { return gm_arch_add_gencode(o, v); }

static int o_keep(struct gm_opts *o, const char *v)
{
    (void)v;
    o->keep = true;
    return 0;
}
static int o_keepdir(struct gm_opts *o, const char *v)
{
    o->keep_dir = v;
    return 0;
}

static int o_ccbin(struct gm_opts *o, const char *v) { o->ccbin = v; return 0; }

static int o_machine(struct gm_opts *o, const char *v)
{
    (void)o;
    return strcmp(v, "64") ? gm_err("-m %s: only 64-bit host code is supported", v) : 0;
}

static int o_cudart(struct gm_opts *o, const char *v)
{
    if (!strcmp(v, "static"))
        o->cudart = GM_CUDART_STATIC;
    else if (!strcmp(v, "shared"))
        o->cudart = GM_CUDART_SHARED;
    else if (!strcmp(v, "none"))
        o->cudart = GM_CUDART_NONE;
    else
        return gm_err("invalid value '%s' for -cudart (expected static, shared or none)", v);
    return 0;
}

static int o_maxrreg(struct gm_opts *o, const char *v)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n <= 0 || n > 255)
        return gm_err("invalid value '%s' for -maxrregcount (expected 1..255)", v);
    gm_sv_pushf(&o->ptxas, "--maxrregcount=%ld", n);
    return 0;
}

static int o_stream(struct gm_opts *o, const char *v)
{
    if (strcmp(v, "legacy") && strcmp(v, "per-thread"))
        return gm_err("invalid value '%s' for -default-stream (expected legacy or per-thread)", v);
    gm_sv_pushf(&o->common, "-fgpu-default-stream=%s", v);
    return 0;
}

static int o_analyses(struct gm_opts *o, const char *v)
{
    gm_sv_free(&o->gm_analyses);
    gm_sv_split(&o->gm_analyses, v, ',');
    o->gm_analyses_set = true;
    return 0;
}
static int o_handler(struct gm_opts *o, const char *v) { gm_sv_push(&o->gm_handlers, v); return 0; }
static int o_budget(struct gm_opts *o, const char *v)
{
    o->gm_budget_error = !strcmp(v, "error");
    o->gm_budget_off = !strcmp(v, "off");
    if (strcmp(v, "warn") && !o->gm_budget_error && !o->gm_budget_off)
        return gm_err("invalid value '%s' for --gm-handler-budget (expected warn, error or off)", v);
    return 0;
}
static int o_before(struct gm_opts *o, const char *v) { o->gm_inst_before = v; return 0; }
static int o_after(struct gm_opts *o, const char *v) { o->gm_inst_after = v; return 0; }
static int o_kernels(struct gm_opts *o, const char *v) { o->gm_kernels = v; return 0; }
static int o_files(struct gm_opts *o, const char *v) { o->gm_files = v; return 0; }
static int o_gmpass(struct gm_opts *o, const char *v) { gm_sv_split(&o->gm_pass_opts, v, ','); return 0; }

/* nvcc options gpumemcc knows but cannot honour: named in the error. */
static int o_unsupported(struct gm_opts *o, const char *v)
{
    (void)o;
    (void)v;
    return -1; /* the caller names the option */
}

#define U(l, s, mv) {l, s, mv, o_unsupported, NULL}
const struct gm_optdef gm_optdefs[] = {
    /* phases */
    {"compile", "c", NULL, o_compile, "compile each input to an object file"},
    {"device-c", "dc", NULL, o_dc, "compile to objects with relocatable device code (-c -rdc=true)"},
    {"device-link", "dlink", NULL, o_dlink, "link relocatable device code into one host object"},
    {"link", "link", NULL, o_link, "compile and link (the default)"},
    {"ptx", "ptx", NULL, o_ptx, "write the (instrumented) PTX of each .cu input"},
    {"cubin", "cubin", NULL, o_cubin, "write the (instrumented) cubin of each .cu input"},
    {"no-device-link", "nodlink", NULL, o_nodlink, "link without the device-link step"},
    {"output-file", "o", "FILE", o_output, "output file"},
    /* preprocessing and language */
    {"include-path", "I", "DIR", o_I, "add an include directory"},
    {"system-include", "isystem", "DIR", o_isystem, "add a system include directory"},
    {"pre-include", "include", "FILE", o_include, "include FILE before each source"},
    {"define-macro", "D", "NAME[=VAL]", o_D, "define a macro"},
    {"undefine-macro", "U", "NAME", o_U, "undefine a macro"},
    {"std", "std", "STD", o_std, "C++ dialect: c++03 c++11 c++14 c++17 c++20"},
    {"x", "x", "LANG", o_lang, "treat all source inputs as cu, c++ or c"},
    {"generate-dependencies", "M", NULL, o_M, "write make dependencies (no compilation)"},
    {"generate-nonsystem-dependencies", "MM", NULL, o_MM, "as -M, without system headers"},
    {"generate-dependencies-with-compile", "MD", NULL, o_MD, "write dependencies while compiling"},
    {"generate-nonsystem-dependencies-with-compile", "MMD", NULL, o_MMD, "as -MD, without system headers"},
    {"dependency-output", "MF", "FILE", o_MF, "dependency file name"},
    {"dependency-target-name", "MT", "TARGET", o_MT, "target name in the dependency file"},
    {"generate-dependency-targets", "MP", NULL, o_MP, "add a phony target per header"},
    /* code generation */
    {"optimize", "O", "N", o_opt, "host optimisation level 0..3 (device code is always optimised)"},
    {"debug", "g", NULL, o_debug, "host debug information"},
    {"device-debug", "G", NULL, o_devdebug, "device debug information, device optimisation off"},
    {"generate-line-info", "lineinfo", NULL, o_lineinfo, "keep device line information"},
    {"gpu-architecture", "arch", "ARCH", o_arch, "sm_XX, compute_XX or a list of them"},
    {"gpu-code", "code", "CODES", o_code, "sm_XX / compute_XX list to embed for -arch"},
    {"generate-code", "gencode", "arch=A,code=C", o_gencode, "one architecture/code pair (repeatable)"},
    {"relocatable-device-code", "rdc", "BOOL", o_rdc, "true: separate device compilation (-fgpu-rdc)"},
    {"use_fast_math", "use_fast_math", NULL, o_fastmath, "fast device math (ftz, approximate div/sqrt/transcendentals)"},
    {"maxrregcount", "maxrregcount", "N", o_maxrreg, "register limit per thread (ptxas)"},
    {"resource-usage", "res-usage", NULL, o_resusage, "print registers and memory per kernel (ptxas -v)"},
    {"default-stream", "default-stream", "KIND", o_stream, "legacy or per-thread"},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", NULL, o_noop, "accepted: clang allows this by default"},
    {"expt-extended-lambda", "expt-extended-lambda", NULL, o_noop, "accepted: clang allows this by default"},
    {"extended-lambda", "extended-lambda", NULL, o_noop, NULL},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", NULL, o_noop, "accepted: clang has no such warning"},
    {"disable-warnings", "w", NULL, o_nowarn, "no warnings"},
    {"machine", "m", "64", o_machine, "host bits (only 64)"},
    /* other tools */
    {"compiler-options", "Xcompiler", "OPTS", o_xcompiler, "comma-separated options for host code (clang)"},
    {"ptxas-options", "Xptxas", "OPTS", o_xptxas, "comma-separated options for ptxas"},
    {"linker-options", "Xlinker", "OPTS", o_xlinker, "comma-separated options for the host linker"},
    {"compiler-bindir", "ccbin", "PATH", o_ccbin, "host compiler: its GCC installation provides libstdc++"},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", NULL, o_fwd, "pass unknown options to host compilation"},
    /* linking */
    {"library-path", "L", "DIR", o_L, "library directory"},
    {"library", "l", "LIB", o_l, "link a library"},
    {"shared", "shared", NULL, o_shared, "link a shared library"},
    {"cudart", "cudart", "KIND", o_cudart, "CUDA runtime: static (default), shared or none"},
    /* driver */
    {"verbose", "v", NULL, o_verbose, "print every command before running it"},
    {"keep", "keep", NULL, o_keep, "keep intermediate files (clang's -save-temps) in the keep directory"},
    {"save-temps", "save-temps", NULL, o_keep, "as -keep"},
    {"keep-dir", "keep-dir", "DIR", o_keepdir, "directory for -keep files (default: the current one)"},
    {"dryrun", "dryrun", NULL, o_dryrun, "print the commands, run nothing"},
    {"help", "h", NULL, o_help, "print this help"},
    {"version", "V", NULL, o_version, "print the version"},
    /* gpumem */
    {"gm-analyses", NULL, "LIST", o_analyses, "built-in analyses (default coalescing,divergence; none)"},
    {"gm-handler", NULL, "FILE.cu", o_handler, "user handler source, compiled to device bitcode (repeatable)"},
    {"gm-handler-budget", NULL, "KIND", o_budget, "user handler over 16 registers: warn (default), error or off"},
    {"gm-inst-before", NULL, "EVENTS", o_before, "memory,cond-branches,kernel-entry,kernel-exit (default all)"},
    {"gm-inst-after", NULL, "EVENTS", o_after, "memory, or empty for none (default memory)"},
    {"gm-kernels", NULL, "REGEX", o_kernels, "instrument only kernels matching (POSIX ERE)"},
    {"gm-files", NULL, "REGEX", o_files, "instrument only code from source files matching"},
    {"gm-native-copies", NULL, NULL, o_native, "also keep an uninstrumented copy of each kernel: launches "
     "GPUMEM_KERNEL_REGEX / GPUMEM_LAUNCH_* leave unmeasured run it (adds about a --gm-off build's device code)"},
    {"gm-off", NULL, NULL, o_gmoff, "no instrumentation, same compiler and flags (baseline)"},
    {"gm-dry-run", NULL, NULL, o_dryrun, "as -dryrun"},
    {"gm-pass-options", "Xgm-pass", "OPTS", o_gmpass, "comma-separated options for the gpumem pass (-gm-..., docs/pass.md)"},
    /* known nvcc options that gpumemcc cannot honour */
    U("lib", "lib", NULL), U("fatbin", "fatbin", NULL), U("optix-ir", "optix-ir", NULL),
    U("preprocess", "E", NULL), U("run", "run", NULL), U("cuda", "cuda", NULL),
    U("output-directory", "odir", "DIR"), U("options-file", "optf", "FILE"),
    U("nvlink-options", "Xnvlink", "OPTS"), U("archive-options", "Xarchive", "OPTS"),
    U("ftz", "ftz", "BOOL"), U("prec-div", "prec-div", "BOOL"), U("prec-sqrt", "prec-sqrt", "BOOL"),
    U("fmad", "fmad", "BOOL"), U("dopt", "dopt", "KIND"), U("threads", "t", "N"),
    U("library-dir", "ldir", "DIR"), U("Werror", "Werror", "KIND"),
    U("diag-suppress", "diag-suppress", "N"), U("split-compile", "split-compile", "N"),
    {NULL, NULL, NULL, NULL, NULL},
};

const struct gm_optdef *gm_opt_find(const char *name)
{
    for (const struct gm_optdef *d = gm_optdefs; d->set; d++)
        if ((d->lng && !strcmp(d->lng, name)) || (d->shrt && !strcmp(d->shrt, name)))
            return d;
    return NULL;
}

/* Single-letter options that take a joined value: -Idir -DX=1 -lfoo -O3 -m64. */
const struct gm_optdef *gm_opt_find_joined(const char *body, const char **val)
{
    static const char joined[] = "IDULlOoxm";
    if (!body[0] || !body[1] || !strchr(joined, body[0]))
        return NULL;
    char name[2] = {body[0], '\0'};
    *val = body + 1;
    return gm_opt_find(name);
}
