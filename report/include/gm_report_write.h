/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report writers: human text summary, CSV tables (one file per table) and a
 * self-contained HTML page (inline SVG plots, a source view that reads the
 * source files the report names, and the drill-down of a trace when the
 * options carry one: gm_drill.h), plus one call that writes
 * a chosen set of formats (JSON included) into a directory. Used by the
 * runtime at exit and by `gpumem report`. Depends on gm_report.h and
 * gm_analysis.h; no CUDA.
 */
#ifndef GM_REPORT_WRITE_H
#define GM_REPORT_WRITE_H

#include <stdio.h>
#include "gm_analysis.h"

struct gm_drill;

struct gm_write_opts {
    int top;                          /* rows per ranked table (text, HTML); <= 0: 10 */
    const struct gm_pattern_opts *patterns; /* NULL: gm_pattern_opts_default */
    /* HTML only: the drill-down sample of a trace (gm_drill.h), or NULL */
    const struct gm_drill *drill;
    /* HTML only: where to look for source files the report names when they
     * are not where it says (comma-separated directories), or NULL */
    const char *source_dirs;
};

/* 0, or -1 (out of memory or write error). */
int gm_report_write_text(const struct gm_report *r, const struct gm_write_opts *o, FILE *f);
int gm_report_write_html(const struct gm_report *r, const struct gm_write_opts *o, FILE *f);
/* Writes kernels.csv, lines.csv, branches.csv, values.csv, matrix.csv, allocations.csv,
 * findings.csv, launches.csv, events.csv into dir (which must exist), all
 * or none, as gm_report_write_dir does.
 * 0, or -1 with a one-line reason in err. */
int gm_report_write_csv(const struct gm_report *r, const struct gm_write_opts *o,
                        const char *dir, char *err, size_t errlen);

/* formats: comma-separated subset of text,json,csv,html ("all" = every one).
 * Creates dir if needed; writes summary.txt, report.json, *.csv,
 * report.html. Each file is written under a temporary name in dir and all
 * are renamed into place only once all are complete: on failure the files
 * of a previous run stay as they were and no partial file is left.
 * 0, or -1 with a one-line reason in err ("DIR/NAME: strerror"). */
int gm_report_write_dir(const struct gm_report *r, const struct gm_write_opts *o,
                        const char *dir, const char *formats, char *err, size_t errlen);
/* Removes the temporary files of writes in progress. Async-signal-safe: for
 * a command's SIGINT/SIGTERM handler (the runtime installs none for it). */
void gm_report_remove_partial(void);

/* 0 if every name in a formats list is known, else -1 naming it in err. */
int gm_report_check_formats(const char *formats, char *err, size_t errlen);

#endif
