/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Start and end of libgpumem: a constructor opens CUDA/CUPTI and subscribes
 * (or steps aside with one line); on_exit() and handlers for fatal signals
 * write the report once, whatever way the program ends, then let the
 * program end as it would have (same exit status, same signal).
 * The report goes to files (report_dir.c says where); stderr gets one line
 * naming them, plus the counter tables with GPUMEM_VERBOSE.
 * Environment: GPUMEM_OUT, GPUMEM_FORMAT, GPUMEM_QUIET, GPUMEM_DISABLE,
 * GPUMEM_SYMBOLIZE, GPUMEM_VERBOSE, GPUMEM_FORCE (docs/runtime.md). No LLVM.
 */
#include "rt.h"
#include "trace_session.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static atomic_int g_reported;
static const int g_fatal[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
#define GM_NFATAL (sizeof g_fatal / sizeof g_fatal[0])
static struct sigaction g_old[GM_NFATAL];

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "gpumem: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

/* 0 when the report library's files were written. */
static int write_files(const char *dir, const char *formats, int end_kind, int status,
                       int symbolize)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpumem: cannot create the report directory %s: %s\n", dir, strerror(errno));
        return -1;
    }
    FILE *f;
    if (gm_formats_has(formats, "csv")) {
        if ((f = open_out(dir, "gpumem-counters.csv"))) gm_report_counters_csv(f), fclose(f);
        if ((f = open_out(dir, "gpumem-timeline.csv"))) gm_report_timeline_csv(f, symbolize), fclose(f);
    }
    if (gm_formats_has(formats, "text") && (f = open_out(dir, "gpumem-counters.txt"))) {
        gm_report_plain(f);
        fclose(f);
    }
    return gm_report_model_write(dir, formats, end_kind, status, symbolize);
}

/* Write everything collected so far. in_signal: no waiting on locks. */
static void write_report(int end_kind, int status, int in_signal)
{
    int locked = in_signal ? pthread_mutex_trylock(&gm_st.lock) == 0
                           : pthread_mutex_lock(&gm_st.lock) == 0;
    const char *formats = getenv("GPUMEM_FORMAT");
    char dir[GM_REPORT_DIR_MAX];
    int chosen = gm_report_dir(dir, sizeof dir);   /* GPUMEM_OUT */
    if (!formats || !*formats) formats = "text,json,csv";
    int symbolize = !in_signal && !(getenv("GPUMEM_SYMBOLIZE") && !env_on("GPUMEM_SYMBOLIZE"));
    /* a program with nothing instrumented writes nothing unless asked to */
    int any = gm_st.inst_launches || gm_st.reg.count, quiet = env_on("GPUMEM_QUIET");
    if (any && !quiet && gm_verbose >= 1) gm_report_plain(stderr);
    if ((any || chosen) && write_files(dir, formats, end_kind, status, symbolize) == 0 &&
        any && !quiet)
        gm_report_announce(stderr, dir, formats);
    fflush(stderr);
    if (locked) pthread_mutex_unlock(&gm_st.lock);
}

void gm_report_all(int end_kind, int status, int in_signal)
{
    if (!gm_st.active || atomic_exchange(&g_reported, 1)) return;
    gm_col_drain(NULL, in_signal); /* counters and kernel times still in flight */
    char *sel = gm_select_note();
    if (sel) gm_warn("%s", sel);
    free(sel);
    if (!in_signal) gm_trace_shutdown();   /* online simulation report, trace file */
    write_report(end_kind, status, in_signal);
    gm_st.active = 0;
}

GM_HIDDEN void gm_report_flush_now(void)
{
    if (!gm_st.active || atomic_load(&g_reported)) return;
    gm_col_drain(NULL, 0);
    write_report(GM_RT_END_NORMAL, 0, 0);
}

static void on_fatal(int sig)
{
    gm_report_all(GM_RT_END_SIGNAL, sig, 1);
    for (unsigned i = 0; i < GM_NFATAL; i++)
        if (g_fatal[i] == sig) sigaction(sig, &g_old[i], NULL);
    raise(sig); /* the program dies the way it would have */
}

static void on_exit_cb(int status, void *arg)
{
    (void)arg;
    gm_report_all(GM_RT_END_EXIT, status, 0);
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    for (unsigned i = 0; i < GM_NFATAL; i++) {
        if (sigaction(g_fatal[i], NULL, &g_old[i]) != 0) continue;
        if (g_old[i].sa_handler == SIG_IGN) continue; /* the program ignores it: so do we */
        sigaction(g_fatal[i], &sa, NULL);
    }
}

/* Tools such as ncu and nsys attach through CUDA_INJECTION64_PATH when the
 * program initialises CUDA, after this constructor: subscribing first would
 * lock them out, so the runtime steps aside for them (GPUMEM_FORCE=1 does not). */
static int injected_tool(void)
{
    const char *p = getenv("CUDA_INJECTION64_PATH");
    if (!p || !*p || env_on("GPUMEM_FORCE")) return 0;
    const char *base = strrchr(p, '/');
    gm_warn("CUPTI is held by the injected tool %s (CUDA_INJECTION64_PATH); gpumem steps aside "
            "(program runs uninstrumented)", base ? base + 1 : p);
    return 1;
}

__attribute__((constructor)) static void gm_start(void)
{
    if (env_on("GPUMEM_DISABLE")) return;
    gm_env_check();
    gm_state_init();
    if (injected_tool()) return;
    char err[512];
    if (gm_cuda_api_load(err, sizeof err) != 0) {
        gm_warn("%s; program runs uninstrumented", err);
        return;
    }
    const char *formats = getenv("GPUMEM_FORMAT");
    if (formats && *formats && gm_report_formats_check(formats, err, sizeof err) != 0)
        gm_warn("GPUMEM_FORMAT: %s", err);
    gm_report_dir_check();
    if (gm_cupti_start() != 0) return;
    on_exit(on_exit_cb, NULL);
    install_handlers();
    gm_debug("subscribed to CUPTI");
}
