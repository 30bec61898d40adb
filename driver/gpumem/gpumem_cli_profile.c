/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `gpumem profile [options] ./app args...`: runs a program built with
 * gpumemcc the way `ncu` and `compute-sanitizer` run one. The options
 * become the runtime's environment (GPUMEM_KERNEL_REGEX, GPUMEM_LAUNCH_*,
 * GPUMEM_OUT, GPUMEM_QUIET; docs/runtime.md); the program runs as a child
 * with stdin, stdout and stderr untouched; signals sent to the launcher
 * are passed on; at its end a one-screen summary of the report goes to
 * stderr and the launcher exits as the program did. Analyses are chosen
 * when the program is compiled (gpumemcc --gm-analyses): --analyses only
 * checks that the program has them. Depends on libc (POSIX) and the
 * summary (gpumem_cli_summary.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpumem_cli.h"

void gm_cli_profile_usage(FILE *f)
{
    fputs("  profile [options] PROGRAM [ARGS...]\n"
          "               run a program built with gpumemcc, then print a summary (top\n"
          "               kernels, worst source lines, top findings) to stderr; the full\n"
          "               report is in the report directory. The program's stdin, stdout\n"
          "               and exit status are its own. Options (named as in Nsight Compute):\n"
          "    -k, --kernel-name NAME    measure only kernels with this function name\n"
          "                              (plain, demangled base or mangled name) ...\n"
          "        --kernel-name regex:R ... or whose name matches the POSIX extended\n"
          "                              regex R                  (GPUMEM_KERNEL_REGEX)\n"
          "    -s, --launch-skip N       skip N matching launches first (GPUMEM_LAUNCH_SKIP)\n"
          "    -c, --launch-count N      measure at most N launches    (GPUMEM_LAUNCH_COUNT)\n"
          "        --launch-every N      then every N-th launch of each kernel\n"
          "                                                            (GPUMEM_LAUNCH_EVERY)\n"
          "    -o, --export DIR          report directory (GPUMEM_OUT; default\n"
          "                              ./gpumem-PROGRAM, as without the launcher)\n"
          "        --analyses LIST       check that the program was built with these\n"
          "                              analyses (coalescing, divergence, values,\n"
          "                              allocations, trace, or a handler's counter set):\n"
          "                              analyses are compiled in (gpumemcc --gm-analyses),\n"
          "                              not chosen at run time. One that is missing is an\n"
          "                              error after the run. trace also captures the\n"
          "                              trace into DIR/trace.gmt (GPUMEM_TRACE_FILE).\n"
          "        --                    end of options\n"
          "               Exit status: the program's; 1 if it exited 0 but wrote no report\n"
          "               or lacks a requested analysis; 126/127 if it cannot be run.\n",
          f);
}

struct popts {
    const char *outdir, *analyses;
    char *regex;            /* malloc'd */
    const char *skip, *count, *every;
    char **argv;            /* program and its arguments */
};

static int bad(const char *msg, const char *what)
{
    fprintf(stderr, "gpumem profile: %s%s%s%s\n", msg, what ? " '" : "", what ? what : "",
            what ? "' (try 'gpumem profile --help')" : "");
    return 2;
}

/* Appends name[0..n) to p with the ERE metacharacters escaped. */
static char *put_escaped(char *p, const char *name, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (strchr(".[]{}()\\*+?|^$", name[i])) *p++ = '\\';
        *p++ = name[i];
    }
    return p;
}

/* Plain name -> an ERE matching it as a whole function name, demangled
 * ("k(float*)", "void k<int>(float*)", "ns::k(int)", extern "C" "k") or
 * mangled (_Z1kPf, _ZN2ns1kEi: the runtime matches either form, and
 * demangles only where the program has the C++ runtime loaded). */
static char *name_regex(const char *name)
{
    size_t n = strlen(name);
    char *re = malloc(4 * n + 64), *p = re;
    if (!re) return NULL;
    p += sprintf(p, "(^|[ :])");
    p = put_escaped(p, name, n);
    p += sprintf(p, "([(<]|$)|^_ZL?%s", strstr(name, "::") ? "N" : "");
    for (const char *s = name; *s;) {
        const char *e = strstr(s, "::");
        size_t len = e ? (size_t)(e - s) : strlen(s);
        p += sprintf(p, "%zu", len);
        p = put_escaped(p, s, len);
        s += len + (e ? 2 : 0);
    }
    strcpy(p, strstr(name, "::") ? "E" : "");
    return re;
}

static int set_kernel(struct popts *o, const char *v)
{
    if (!*v || !strcmp(v, "regex:")) return bad("empty kernel name after", "--kernel-name");
    free(o->regex);
    o->regex = strncmp(v, "regex:", 6) == 0 ? strdup(v + 6) : name_regex(v);
    if (!o->regex) return bad("out of memory", NULL);
    regex_t re;
    int r = regcomp(&re, o->regex, REG_EXTENDED | REG_NOSUB);
    if (r) {
        char msg[128];
        regerror(r, &re, msg, sizeof msg);
        fprintf(stderr, "gpumem profile: --kernel-name %s: %s\n", v, msg);
        return 2;
    }
    regfree(&re);
    return 0;
}

static int is_count(const char *v, int min)
{
    if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 19) return 0;
    return strtoull(v, NULL, 10) >= (unsigned long long)min;
}

/* Option with a value: "--name V", "--name=V" or the short "-x V". Returns
 * the value and advances *i, or NULL when s is not this option. */
static const char *value_of(int argc, char **argv, int *i, const char *lng, const char *shrt,
                            int *missing)
{
    const char *s = argv[*i];
    size_t n = strlen(lng);
    if (!strncmp(s, lng, n) && s[n] == '=') return s + n + 1;
    if (strcmp(s, lng) && (!shrt || strcmp(s, shrt))) return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* 0, -1 after --help, or an exit status. */
static int parse(int argc, char **argv, struct popts *o)
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *s = argv[i], *v;
        int missing = 0, rc = 0;
        if (!strcmp(s, "--")) {
            i++;
            break;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            gm_cli_profile_usage(stdout);
            return -1;
        } else if ((v = value_of(argc, argv, &i, "--kernel-name", "-k", &missing))) {
            rc = set_kernel(o, v);
        } else if ((v = value_of(argc, argv, &i, "--launch-skip", "-s", &missing))) {
            if (!is_count(v, 0)) return bad("--launch-skip needs a number, not", v);
            o->skip = v;
        } else if ((v = value_of(argc, argv, &i, "--launch-count", "-c", &missing))) {
            if (!is_count(v, 1)) return bad("--launch-count needs a positive number, not", v);
            o->count = v;
        } else if ((v = value_of(argc, argv, &i, "--launch-every", NULL, &missing))) {
            if (!is_count(v, 1)) return bad("--launch-every needs a positive number, not", v);
            o->every = v;
        } else if ((v = value_of(argc, argv, &i, "--export", "-o", &missing))) {
            if (!*v) return bad("empty report directory after", s);
            o->outdir = v;
        } else if ((v = value_of(argc, argv, &i, "--analyses", NULL, &missing))) {
            o->analyses = v;
        } else if (!missing) {
            return bad("unknown option", s);
        }
        if (missing) return bad("missing value after", s);
        if (rc) return rc;
    }
    if (i >= argc) {
        fprintf(stderr, "gpumem profile: missing program to run (usage: gpumem profile "
                        "[options] PROGRAM [ARGS...])\n");
        return 2;
    }
    o->argv = argv + i;
    return 0;
}

static int list_has(const char *list, const char *name, size_t n)
{
    for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
        if (strcspn(p, ",") == n && !strncmp(p, name, n)) return 1;
    return 0;
}

/* var naming path as written: the runtime expands %p and %% in GPUMEM_OUT
 * and the trace files' names (docs/runtime.md, docs/trace.md), so each %
 * is doubled. 0 or -1. */
static int set_path(const char *var, const char *path)
{
    char *v = malloc(2 * strlen(path) + 1), *p = v;
    if (!v) return -1;
    for (const char *s = path; *s; s++)
        if ((*p++ = *s) == '%') *p++ = '%';
    *p = '\0';
    int rc = setenv(var, v, 1);
    free(v);
    return rc;
}

/* The runtime's environment for this run. 0 or -1 (out of memory). */
static int set_env(const struct popts *o, const char *dir, char *trace, size_t tlen)
{
    int rc = set_path("GPUMEM_OUT", dir) | setenv("GPUMEM_QUIET", "1", 1);
    if (o->regex) rc |= setenv("GPUMEM_KERNEL_REGEX", o->regex, 1);
    if (o->skip) rc |= setenv("GPUMEM_LAUNCH_SKIP", o->skip, 1);
    if (o->count) rc |= setenv("GPUMEM_LAUNCH_COUNT", o->count, 1);
    if (o->every) rc |= setenv("GPUMEM_LAUNCH_EVERY", o->every, 1);
    const char *fmt = getenv("GPUMEM_FORMAT");
    if (fmt && *fmt && !list_has(fmt, "json", 4) && !list_has(fmt, "all", 3)) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s,json", fmt); /* the summary reads report.json */
        rc |= setenv("GPUMEM_FORMAT", buf, 1);
    }
    trace[0] = '\0';
    if (list_has(o->analyses, "trace", 5)) {
        snprintf(trace, tlen, "%s/trace.gmt", dir);
        rc |= set_path("GPUMEM_TRACE_FILE", trace);
    }
    return rc ? -1 : 0;
}

static volatile sig_atomic_t g_child;

/* A signal sent to the launcher goes to the program too; one the terminal
 * sent to the whole process group (SI_KERNEL) reached it already. */
static void forward(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (g_child > 0 && !(si && (si->si_code == SI_KERNEL || si->si_pid == g_child)))
        kill(g_child, sig);
}

/* Not SIGTSTP/SIGCONT: a terminal's ^Z must stop the launcher with the
 * program (a handler would keep it running, holding the shell's prompt). */
static const int g_fwd[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};
#define NFWD (sizeof g_fwd / sizeof g_fwd[0])

/* Runs argv; *status as waitpid gives it. 0, or the launcher's exit status
 * when the program could not be started (one line already printed). */
static int run(char **argv, int *status)
{
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0) return bad("cannot create a pipe", strerror(errno));
    struct sigaction sa, old[NFWD];
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFWD; i++) sigaction(g_fwd[i], &sa, &old[i]);
    pid_t pid = fork();
    if (pid == 0) {
        /* exec resets handled signals to their default; ignored ones stay ignored */
        close(pfd[0]);
        execvp(argv[0], argv);
        int e = errno;
        ssize_t w = write(pfd[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    close(pfd[1]);
    if (pid < 0) {
        close(pfd[0]);
        fprintf(stderr, "gpumem profile: cannot start %s: %s\n", argv[0], strerror(errno));
        return 126;
    }
    g_child = pid;
    int e = 0;
    ssize_t n;
    while ((n = read(pfd[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(pfd[0]);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
    g_child = 0;
    for (size_t i = 0; i < NFWD; i++) sigaction(g_fwd[i], &old[i], NULL);
    if (n == (ssize_t)sizeof e) {
        fprintf(stderr, "gpumem profile: cannot run %s: %s\n", argv[0], strerror(e));
        return e == ENOENT ? 127 : 126;
    }
    return 0;
}

/* A file the run wrote (not one left by an earlier run). */
static int fresh(const char *path, const struct timespec *t0)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    return st.st_mtim.tv_sec > t0->tv_sec ||
           (st.st_mtim.tv_sec == t0->tv_sec && st.st_mtim.tv_nsec >= t0->tv_nsec);
}

/* Ends the launcher as the program ended. */
static int end_like(int status, int failed)
{
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core); /* the program's core, not the launcher's */
        signal(sig, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(sig);
        return 128 + sig;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    return code == 0 && failed ? 1 : code;
}

static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

int gm_cli_profile(int argc, char **argv)
{
    struct popts o = {0};
    int rc = parse(argc, argv, &o);
    if (rc) {
        free(o.regex);
        return rc < 0 ? 0 : rc;
    }
    char dflt[4096], trace[4200], json[4200];
    snprintf(dflt, sizeof dflt, "gpumem-%s", base_name(o.argv[0]));
    const char *dir = o.outdir ? o.outdir : dflt;
    if (set_env(&o, dir, trace, sizeof trace) != 0) {
        free(o.regex);
        return bad("cannot set the environment", NULL);
    }
    free(o.regex);
    /* the runtime creates DIR at exit, the trace file in it at the first launch */
    if (trace[0] && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpumem profile: cannot create %s for the trace: %s\n", dir,
                strerror(errno));
        return 2;
    }
    struct timespec t0;
    clock_gettime(CLOCK_REALTIME_COARSE, &t0); /* the clock file times come from */
    int status = 0;
    if ((rc = run(o.argv, &status)) != 0) return rc;
    snprintf(json, sizeof json, "%s/report.json", dir);
    int failed = 0;
    if (!fresh(json, &t0)) {
        fprintf(stderr, "gpumem profile: %s wrote no report to %s: build it with gpumemcc "
                        "(docs/gpumemcc.md)\n", o.argv[0], dir);
        failed = 1;
    } else {
        failed = gm_cli_summary(stderr, json, dir, o.argv[0], status, o.analyses) != 0;
        if (trace[0] && !fresh(trace, &t0)) {
            fprintf(stderr, "gpumem profile: no trace in %s: the program was not built with "
                            "the trace analysis (gpumemcc --gm-analyses=trace,...)\n", trace);
            failed = 1;
        }
    }
    fflush(stderr);
    return end_like(status, failed);
}
