/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test of the trace options (runtime/trace_opts.c): parsing with a fake
 * environment given as NAME=VALUE arguments, then the launch decisions for
 * kernel names read from stdin (one per line). Test input only.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "trace_opts.h"

static int g_argc;
static char **g_argv;

static const char *fake_env(const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < g_argc; i++)
        if (!strncmp(g_argv[i], name, n) && g_argv[i][n] == '=') return g_argv[i] + n + 1;
    return NULL;
}

int main(int argc, char **argv)
{
    struct gm_trace_opts o;
    char err[256], line[256];
    g_argc = argc;
    g_argv = argv;
    if (gm_trace_opts_parse(&o, fake_env, err, sizeof err)) {
        printf("error: %s\n", err);
        return 1;
    }
    printf("sample=%llu max=%llu capacity=%llu mode=%u spin=%u online=%d preset=%s file=%s "
           "out=%s pid=%ld\n", (unsigned long long)o.sample, (unsigned long long)o.max_records,
           (unsigned long long)gm_trace_opts_capacity(&o), o.mode, o.spin_limit, o.online,
           o.sim_preset, o.file ? o.file : "-", o.sim_out ? o.sim_out : "-", (long)getpid());
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        uint64_t no;
        int t = gm_trace_opts_select(&o, line, &no);
        printf("%s #%llu %s\n", line, (unsigned long long)no, t ? "traced" : "skipped");
    }
    gm_trace_opts_free(&o);
    return 0;
}
