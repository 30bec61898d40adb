/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gpumem-sim: replays a gpumem trace file (or a synthetic trace) through the
 * cache simulator and prints per-launch, per-allocation and per-site hit
 * rates. Option parsing and main only; see gpumem_sim_run.c / _print.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gpumem_sim.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gpumem-sim [FILE] [options]\n"
        "Replays a gpumem trace through the cache simulator (coalescer -> per-SM L1 -> L2 -> DRAM)\n"
        "and prints hit rates per launch, allocation and site.\n"
        "  --preset h100|rtx2080ti   hardware preset (default h100)\n"
        "  --config FILE             key=value lines ('#' comments) applied after the preset\n"
        "  --KEY=VALUE               any parameter, e.g. --l1-ways=8 --l2-bytes=40M --l1-repl=lru\n"
        "                            keys: sm-count l1-shared-bytes carveout l1-bytes l1-ways l1-repl\n"
        "                            l1-write l1-fetch l2-bytes l2-ways l2-partitions l2-repl l2-hash\n"
        "                            l2-fill l2-launch (warm|cold)\n"
        "                            threads window (docs/sim.md)\n"
        "  --threads N               worker threads (same results for any N)\n"
        "  --synth SPEC              simulate a synthetic trace instead of FILE (gpumem/synth.h)\n"
        "  --write OUT               with --synth: write the trace to OUT instead of simulating\n"
        "  --ref                     also run the reference model and compare (exit 1 if different)\n"
        "  --format text|json|csv|counters\n"
        "                            text (default): tables of kernels (demangled), allocations\n"
        "                            (label or call site) and the busiest source lines; json: every\n"
        "                            counter; csv: every counter, one row per launch, allocation\n"
        "                            and site; counters: every counter as key=value lines\n"
        "  --json                    the same as --format json\n"
        "  -h, --help                this help\n");
}

/* Flushes stdout: 0, or -1 after one line saying why (e.g. a full disk:
 * what was printed is lost, so the exit status must say so). */
static int close_stdout(const char *what)
{
    errno = 0;
    int e = fflush(stdout) ? errno : 0;
    if (!e && !ferror(stdout)) return 0;
    fprintf(stderr, "gpumem-sim: cannot write %s to the standard output: %s\n", what,
            e ? strerror(e) : "write error");
    return -1;
}

static int die(const char *msg)
{
    fprintf(stderr, "gpumem-sim: %s\n", msg);
    return 2;
}

/* Opens a configuration file: a readable regular file, else one line. */
static FILE *open_config(const char *path)
{
    struct stat st;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gpumem-sim: cannot open config %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "gpumem-sim: config %s is not a regular file\n", path);
        fclose(f);
        return NULL;
    }
    return f;
}

static int load_config(struct gm_sim_config *c, const char *path)
{
    FILE *f = open_config(path);
    if (!f) return -1;
    char line[512];
    int no = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        no++;
        char *p = line + strspn(line, " \t");
        p[strcspn(p, "#\r\n")] = 0;
        if (!*p) continue;
        char *eq = strchr(p, '=');
        if (!eq) { fprintf(stderr, "gpumem-sim: %s:%d: expected key=value\n", path, no); rc = -1; break; }
        *eq = 0;
        char *k = p, *v = eq + 1;
        k[strcspn(k, " \t")] = 0;
        v += strspn(v, " \t");
        v[strcspn(v, " \t")] = 0;
        const char *m = gm_sim_config_set(c, k, v);
        if (m) { fprintf(stderr, "gpumem-sim: %s:%d: %s: %s\n", path, no, k, m); rc = -1; }
    }
    if (!rc && ferror(f)) {
        fprintf(stderr, "gpumem-sim: cannot read config %s: %s\n", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    return rc;
}

enum fmt { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_COUNTERS };
struct opts { const char *file, *synth, *write, *config; enum fmt fmt; int ref; };

static int parse_format(const char *v, enum fmt *f)
{
    static const char *const names[] = {"text", "json", "csv", "counters"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(v, names[i])) { *f = (enum fmt)i; return 0; }
    fprintf(stderr, "gpumem-sim: unknown --format '%s' (text, json, csv, counters)\n", v);
    return -1;
}

static int parse(int argc, char **argv, struct gm_run *r, struct opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); exit(close_stdout("the help") ? 1 : 0); }
        else if (!strcmp(a, "--json")) o->fmt = FMT_JSON;
        else if (!strncmp(a, "--format=", 9)) { if (parse_format(a + 9, &o->fmt)) return -1; }
        else if (!strcmp(a, "--ref")) o->ref = 1;
        else if (!strcmp(a, "--preset") || !strcmp(a, "--config") || !strcmp(a, "--synth") ||
                 !strcmp(a, "--write") || !strcmp(a, "--threads") || !strcmp(a, "--format")) {
            if (!next) { fprintf(stderr, "gpumem-sim: %s needs a value\n", a); return -1; }
            i++;
            struct gm_sim_config known;     /* main applied the presets, then --config */
            if (!strcmp(a, "--preset")) {
                if (gm_sim_preset(&known, next)) { fprintf(stderr, "gpumem-sim: unknown preset '%s' (h100, rtx2080ti)\n", next); return -1; }
            } else if (!strcmp(a, "--config")) o->config = next;
            else if (!strcmp(a, "--format")) { if (parse_format(next, &o->fmt)) return -1; }
            else if (!strcmp(a, "--synth")) o->synth = next;
            else if (!strcmp(a, "--write")) o->write = next;
            else {
                const char *m = gm_sim_config_set(&r->cfg, "threads", next);
                if (m) { fprintf(stderr, "gpumem-sim: --threads: %s\n", m); return -1; }
            }
        } else if (!strncmp(a, "--", 2) && strchr(a, '=')) {
            char key[64];
            size_t n = (size_t)(strchr(a, '=') - a - 2);
            snprintf(key, sizeof key, "%.*s", (int)n, a + 2);
            const char *m = gm_sim_config_set(&r->cfg, key, strchr(a, '=') + 1);
            if (m) { fprintf(stderr, "gpumem-sim: %s: %s\n", a, m); return -1; }
        } else if (a[0] == '-') {
            fprintf(stderr, "gpumem-sim: unknown option '%s' (see --help)\n", a);
            return -1;
        } else if (o->file) {
            fprintf(stderr, "gpumem-sim: more than one trace file given\n");
            return -1;
        } else o->file = a;
    }
    return 0;
}

static int write_synth(const struct opts *o)
{
    char err[512];
    struct gm_trace_gpu gpu = {.name = "synthetic", .sm_count = 0};
    struct gm_trace_writer *w = gm_trace_writer_open(o->write, &gpu, err, sizeof err);
    if (!w) return die(err);
    struct gm_sink k = gm_synth_writer_sink(w);
    if (gm_synth(o->synth, &k, err, sizeof err)) {
        gm_trace_writer_close(w, NULL, 0);
        return die(err);
    }
    if (gm_trace_writer_close(w, err, sizeof err)) return die(err);
    return 0;
}

int main(int argc, char **argv)
{
    static struct gm_run r;
    struct opts o = {0};
    gm_sim_preset(&r.cfg, "h100");
    r.preset = "h100";
    /* presets first, whatever their position, then config file, then flags */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--preset") && gm_sim_preset(&r.cfg, argv[i + 1]) == 0) r.preset = argv[i + 1];
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--config") && load_config(&r.cfg, argv[i + 1])) return 2;
    if (parse(argc, argv, &r, &o)) return 2;
    if (o.synth && o.write) return write_synth(&o);
    if (o.write) return die("--write needs --synth");
    if (!o.file == !o.synth) return die("give one trace FILE or --synth SPEC (see --help)");
    const char *err = NULL;
    if (!(r.sim = gm_sim_new(&r.cfg, &err))) return die(err);
    if (o.ref) r.ref = gm_ref_new(&r.cfg);
    snprintf(r.gpu.name, sizeof r.gpu.name, "synthetic");
    int rc = 0;
    if (o.synth) {
        struct gm_sink k = gm_run_sink(&r);
        rc = gm_synth(o.synth, &k, r.err, sizeof r.err);
    } else {
        rc = gm_run_trace(&r, o.file);
    }
    if (rc) { die(r.err); gm_run_free(&r); return 1; }
    gm_run_finish(&r);
    int bad = o.ref ? gm_ref_compare(stderr, &r) : 0;
    if (o.fmt == FMT_JSON) gm_print_json(stdout, &r);
    else if (o.fmt == FMT_CSV) gm_print_csv(stdout, &r);
    else if (o.fmt == FMT_COUNTERS) gm_print_text(stdout, &r);
    else gm_print_table(stdout, &r);
    gm_run_free(&r);
    return close_stdout("the results") ? 1 : bad;
}
