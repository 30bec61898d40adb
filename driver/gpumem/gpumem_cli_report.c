/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `gpumem report FILE.json|DIR [--format LIST] [-o DIR] [--top N]
 * [--trace FILE.gmt] [--source-folders DIRS]`: loads a saved report and
 * writes it as text, CSV, HTML or JSON; with a trace, the HTML gets the
 * drill-down (gpumem_cli_trace.c). Depends on the report library (and,
 * for --trace, libgmsim's trace reader).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm_drill.h"
#include "gm_report_json.h"
#include "gm_report_write.h"
#include "gpumem_cli.h"

void gm_cli_report_usage(FILE *f)
{
    fputs("  report FILE.json|DIR [--format F] [-o DIR] [--top N] [--trace FILE.gmt]\n"
          "               re-render a saved report (DIR: its DIR/report.json). F: text\n"
          "               (default), json, html, csv, or a comma-separated list, or all.\n"
          "               Without -o, one of text, json or html is written to stdout; csv\n"
          "               and lists need -o DIR, which receives summary.txt, report.json,\n"
          "               report.html, *.csv. --top N: rows per ranked table (default 10).\n"
          "               --trace FILE.gmt: the HTML gets the drill-down of that trace\n"
          "               (blocks, warps, operations, lanes); the report itself may then\n"
          "               be left out. --source-folders DIRS: comma-separated folders\n"
          "               where the source view looks for files not found where the\n"
          "               report says.\n",
          f);
}

struct args {
    const char *file, *format, *outdir, *trace, *source_dirs;
    int top;
};

static int bad(const char *msg, const char *what)
{
    fprintf(stderr, "gpumem report: %s%s%s\n", msg, what ? " " : "", what ? what : "");
    return 2;
}

/* Returns 0, -1 for --help (already printed), or an exit status. */
static int parse(int argc, char **argv, struct args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            gm_cli_report_usage(stdout);
            return -1;
        } else if (!strcmp(s, "--format") || !strcmp(s, "-f")) {
            if (!more)
                return bad("missing value after", s);
            a->format = argv[++i];
        } else if (!strncmp(s, "--format=", 9)) {
            a->format = s + 9;
        } else if (!strcmp(s, "-o") || !strcmp(s, "--output")) {
            if (!more)
                return bad("missing directory after", s);
            a->outdir = argv[++i];
        } else if (!strcmp(s, "--top")) {
            char *end;
            long v = more ? strtol(argv[i + 1], &end, 10) : 0;
            if (!more || *end || v <= 0 || v > 1000000)
                return bad("--top needs a positive integer", NULL);
            a->top = (int)v;
            i++;
        } else if (!strcmp(s, "--trace") || !strcmp(s, "--source-folders")) {
            if (!more)
                return bad("missing value after", s);
            *(s[2] == 't' ? &a->trace : &a->source_dirs) = argv[++i];
        } else if (s[0] == '-' && s[1]) {
            return bad("unknown option", s);
        } else if (a->file) {
            return bad("more than one input file:", s);
        } else {
            a->file = s;
        }
    }
    if (!a->file && !a->trace)
        return bad("missing input file (usage: gpumem report FILE.json [--format F] [-o DIR])", NULL);
    return 0;
}

static int to_stdout(const struct gm_report *r, const struct gm_write_opts *o, const char *fmt)
{
    int rc;
    errno = 0;
    if (!strcmp(fmt, "text"))
        rc = gm_report_write_text(r, o, stdout);
    else if (!strcmp(fmt, "json"))
        rc = gm_report_write_json(r, stdout);
    else if (!strcmp(fmt, "html"))
        rc = gm_report_write_html(r, o, stdout);
    else
        return bad("this format needs -o DIR:", fmt);
    if (rc || fflush(stdout)) {
        fprintf(stderr, "gpumem report: error writing to stdout: %s\n",
                errno ? strerror(errno) : "out of memory");
        return 1;
    }
    return 0;
}

/* The report in FILE, or in DIR/report.json, or an empty one (no file:
 * --trace alone); NULL with a one-line reason in err. */
static struct gm_report *load(const char *file, char *err, size_t errlen)
{
    struct stat st;
    if (!file) {
        struct gm_report *r = gm_report_new();
        if (!r)
            snprintf(err, errlen, "out of memory");
        return r;
    }
    if (stat(file, &st) || !S_ISDIR(st.st_mode))
        return gm_report_load_json(file, err, errlen);
    char path[4096];
    snprintf(path, sizeof path, "%s/report.json", file);
    return gm_report_load_json(path, err, errlen);
}

/* Interrupted: remove the temporary files of -o DIR (the files already
 * there stay as they were), then die of the signal as usual. */
static void on_signal(int sig)
{
    gm_report_remove_partial();
    signal(sig, SIG_DFL);
    raise(sig);
}

int gm_cli_report(int argc, char **argv)
{
    struct args a = {.format = "text", .top = 10};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    char err[8192]; /* room for two paths of PATH_MAX */
    if (gm_report_check_formats(a.format, err, sizeof err))
        return bad(err, NULL);
    if (a.trace && !strstr(a.format, "html") && strcmp(a.format, "all"))
        return bad("--trace adds the drill-down to the HTML report: use --format html or all", NULL);
    struct gm_report *r = load(a.file, err, sizeof err);
    struct gm_drill *drill = r && a.trace ? gm_cli_load_drill(a.trace, err, sizeof err) : NULL;
    if (!r || (a.trace && !drill)) {
        fprintf(stderr, "gpumem report: %s\n", err);
        gm_report_free(r);
        return 1;
    }
    struct gm_write_opts o = {a.top, NULL, drill, a.source_dirs};
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_signal);
    if (!a.outdir)
        rc = to_stdout(r, &o, a.format);
    else if (gm_report_write_dir(r, &o, a.outdir, a.format, err, sizeof err)) {
        fprintf(stderr, "gpumem report: %s\n", err);
        rc = 1;
    }
    gm_report_free(r);
    gm_drill_free(drill);
    return rc;
}
